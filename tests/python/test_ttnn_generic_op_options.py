"""generic_op's paths and options: kernels given as source code, named compile-time args, timing,
traces and reports (ditmk's keywords), and the in-memory launch against `ditmk emulate
--descriptor` on the same program written as JSON."""
import json
import os
import subprocess

import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ditmk.ttnn import _program
from ttnn_programs import EXAMPLES, bf16, eltwise_add, eltwise_add_program

DITMK = os.environ.get("DITMK_BINARY", "ditmk")
LOOPBACK = EXAMPLES / "loopback" / "kernels" / "loopback.cpp"


def loopback_program(src, dst, source_type, source):
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])
    args = ttnn.RuntimeArgs()
    args[0][0] = [src.buffer_address(), dst.buffer_address(), src.shape.volume() // 1024]
    kernel = ttnn.KernelDescriptor(kernel_source=source, source_type=source_type, core_ranges=core,
                                   named_compile_time_args=[("page_size", 4096), ("block_pages", 8)],
                                   runtime_args=args,
                                   config=ttnn.DataMovementConfigDescriptor(
                                       processor=ttnn.DataMovementProcessor.RISCV_0, noc=ttnn.NOC.NOC_0))
    cb = ttnn.CBDescriptor(total_size=8 * 4096, core_ranges=core, format_descriptors=[
        ttnn.CBFormatDescriptor(buffer_index=0, data_format=ttnn.float32, page_size=4096)])
    return ttnn.ProgramDescriptor(kernels=[kernel], cbs=[cb])


def test_a_kernel_given_as_source_code_runs(device, tmp_path):
    values = np.arange(64 * 256, dtype=np.float32).reshape(64, 256) * 0.5
    src = ttnn.from_torch(values, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([64, 256]), ttnn.float32, ttnn.TILE_LAYOUT, device)
    text = LOOPBACK.read_text()
    program = loopback_program(src, dst, ttnn.KernelDescriptor.SourceType.SOURCE_CODE, text)
    ttnn.generic_op([src, dst], program, kernel_cache=tmp_path)
    np.testing.assert_array_equal(dst.to_numpy(), values)
    # written once, under the kernel cache, named by its content
    sources = list((tmp_path / "sources").iterdir())
    assert len(sources) == 1 and sources[0].read_text() == text
    assert device.last_report["compile"]["compiled"] == 1
    ttnn.generic_op([src, dst], program, kernel_cache=tmp_path)
    assert device.last_report["compile"] == {**device.last_report["compile"], "compiled": 0, "cache_hits": 1}
    # the same text from its file is the same kernel
    ttnn.generic_op([src, dst], loopback_program(src, dst, ttnn.KernelDescriptor.SourceType.FILE_PATH, str(LOOPBACK)),
                    kernel_cache=tmp_path)
    np.testing.assert_array_equal(dst.to_numpy(), values)


def test_a_kernel_that_does_not_build_is_one_runtime_error(device, tmp_path):
    src = ttnn.from_torch(np.zeros((32, 32), np.float32), layout=ttnn.TILE_LAYOUT, device=device)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([32, 32]), ttnn.float32, ttnn.TILE_LAYOUT, device)
    program = loopback_program(src, dst, ttnn.KernelDescriptor.SourceType.SOURCE_CODE, "void kernel_main() { oops; }")
    with pytest.raises(RuntimeError, match=r"kernel_[0-9a-f]+\.cpp:1:.*oops") as raised:
        ttnn.generic_op([src, dst], program, kernel_cache=tmp_path)
    assert "\n" not in str(raised.value)
    missing = loopback_program(src, dst, ttnn.KernelDescriptor.SourceType.FILE_PATH, "no/such/kernel.cpp")
    with pytest.raises(RuntimeError, match="no/such/kernel.cpp"):
        ttnn.generic_op([src, dst], missing, kernel_cache=tmp_path)


def test_timing_trace_and_report(device, tmp_path):
    rng = np.random.default_rng(3)
    a_values = rng.standard_normal((64, 256)).astype(np.float32)
    b_values = rng.standard_normal((64, 256)).astype(np.float32)
    eltwise_add(device, a_values, b_values, timing=True, trace=tmp_path / "trace.json", report=tmp_path / "report.json")
    report = device.last_report
    assert report["timing"]["predicted_us"] > 0
    assert json.loads((tmp_path / "report.json").read_text()) == report
    trace = json.loads((tmp_path / "trace.json").read_text())
    assert len(trace["traceEvents"]) > 0
    # device-wide options apply to every launch; untimed launches predict nothing
    eltwise_add(device, a_values, b_values)
    assert "timing" not in device.last_report
    timed = ttnn.open_device(device_id=0, timing=True)
    eltwise_add(timed, a_values, b_values)
    assert timed.last_report["timing"]["predicted_us"] > 0


def test_in_memory_launch_matches_the_json_path(device, tmp_path):
    rng = np.random.default_rng(4)
    a_values = rng.standard_normal((128, 256)).astype(np.float32)
    b_values = rng.standard_normal((128, 256)).astype(np.float32)
    a, b, c = eltwise_add(device, a_values, b_values)
    # the same program and tensors (at the same addresses) as a descriptor file for the CLI
    tensors = [t._descriptor() for t in (a, b, c)]
    tensors[0]["input"], tensors[1]["input"], tensors[2]["output"] = "a.npy", "b.npy", "c.npy"
    descriptor = _program.program_json(eltwise_add_program(a, b, c), tensors, str(tmp_path))
    (tmp_path / "program.json").write_text(json.dumps(descriptor))
    np.save(tmp_path / "a.npy", a_values)
    np.save(tmp_path / "b.npy", b_values)
    done = subprocess.run([DITMK, "emulate", "--descriptor", str(tmp_path / "program.json")], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr + done.stdout
    from_cli = np.load(tmp_path / "c.npy")
    np.testing.assert_array_equal(from_cli, c.to_numpy())
    np.testing.assert_array_equal(from_cli, bf16(bf16(a_values) + bf16(b_values)))


def test_relative_kernel_paths_resolve_against_the_working_folder_then_the_kernel_root(device, monkeypatch):
    values = np.arange(64 * 256, dtype=np.float32).reshape(64, 256)  # 16 pages: the kernel moves 8 at a time
    src = ttnn.from_torch(values, dtype=ttnn.float32, layout=ttnn.TILE_LAYOUT, device=device)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([64, 256]), ttnn.float32, ttnn.TILE_LAYOUT, device)
    file_path = ttnn.KernelDescriptor.SourceType.FILE_PATH
    monkeypatch.chdir(EXAMPLES / "loopback")
    ttnn.generic_op([src, dst], loopback_program(src, dst, file_path, "kernels/loopback.cpp"))
    np.testing.assert_array_equal(dst.to_numpy(), values)
    monkeypatch.chdir(EXAMPLES.parent)
    program = loopback_program(src, dst, file_path, "loopback/kernels/loopback.cpp")
    monkeypatch.delenv("TT_METAL_HOME", raising=False)
    with pytest.raises(RuntimeError, match="loopback/kernels/loopback.cpp"):
        ttnn.generic_op([src, dst], program)
    ttnn.generic_op([src, dst], program, kernel_root=EXAMPLES)
    monkeypatch.setenv("TT_METAL_HOME", str(EXAMPLES))
    ttnn.generic_op([src, dst], program)
    np.testing.assert_array_equal(dst.to_numpy(), values)


def single_kernel(source):
    core = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(1, 2), ttnn.CoreCoord(1, 2))])
    kernel = ttnn.KernelDescriptor(kernel_source=source, source_type=ttnn.KernelDescriptor.SourceType.SOURCE_CODE,
                                   core_ranges=core, config=ttnn.WriterConfigDescriptor())
    return ttnn.ProgramDescriptor(kernels=[kernel])


def test_the_watchdog_ends_a_spinning_kernel_and_the_device_stays_usable(device, tmp_path):
    t = ttnn.from_torch(np.zeros((32, 32), np.float32), layout=ttnn.TILE_LAYOUT, device=device)
    spin = "void kernel_main() { volatile unsigned n = 0; for (;;) ++n; }"
    with pytest.raises(ttnn.KernelFault) as raised:
        ttnn.generic_op([t], single_kernel(spin), kernel_cache=tmp_path, watchdog=0.3)
    fault = raised.value
    assert (fault.kind, fault.core, fault.processor) == ("no_progress", (1, 2), "BRISC")
    assert fault.kernel.startswith(str(tmp_path / "sources" / "kernel_"))
    assert "on core (1,2) BRISC" in str(fault)
    assert device.last_report["faults"][0]["kind"] == "no_progress"
    ttnn.generic_op([t], single_kernel("void kernel_main() {}"), kernel_cache=tmp_path)
    assert device.last_report["faults"] == []


def test_strict_refuses_what_a_default_launch_warns_about(device, tmp_path):
    t = ttnn.from_torch(np.zeros((32, 32), np.float32), layout=ttnn.TILE_LAYOUT, device=device)
    hosted = "#include <algorithm>\nvoid kernel_main() { (void)std::max(1, 2); }"
    ttnn.generic_op([t], single_kernel(hosted), kernel_cache=tmp_path)
    assert any("<algorithm>" in w for w in device.last_report["warnings"])
    with pytest.raises(RuntimeError, match="<algorithm>"):
        ttnn.generic_op([t], single_kernel(hosted), kernel_cache=tmp_path, strict=True)

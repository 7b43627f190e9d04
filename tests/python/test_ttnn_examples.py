"""Every example of examples/tt rebuilt from its program.json as ditmk.ttnn objects (tensors from
from_torch / allocate_tensor_on_device, KernelDescriptor, CBDescriptor, SemaphoreDescriptor,
RuntimeArgs holding buffer_address(), TensorAccessorArgs words) and run with generic_op: its
outputs are bit for bit what `ditmk emulate --descriptor` writes for the file with the same inputs."""
import json
import os
import subprocess

import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ttnn_programs import EXAMPLES

DITMK = os.environ.get("DITMK_BINARY", "ditmk")
PROGRAMS = sorted(EXAMPLES.glob("*/program*.json"))

DTYPES = {"bfloat16": ttnn.bfloat16, "Float16_b": ttnn.bfloat16, "float32": ttnn.float32, "Float32": ttnn.float32,
          "bfloat8_b": ttnn.bfloat8_b, "Bfp8_b": ttnn.bfloat8_b, "uint32": ttnn.uint32, "UInt32": ttnn.uint32,
          "int32": ttnn.int32, "Int32": ttnn.int32, "uint16": ttnn.uint16, "UInt16": ttnn.uint16,
          "uint8": ttnn.uint8, "UInt8": ttnn.uint8}


@pytest.fixture
def device():
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)


def core_ranges(ranges):
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(*r["start"]), ttnn.CoreCoord(*r["end"])) for r in ranges])


def config_of(c):
    if c["type"] == "reader":
        return ttnn.ReaderConfigDescriptor()
    if c["type"] == "writer":
        return ttnn.WriterConfigDescriptor()
    if c["type"] == "data_movement":
        return ttnn.DataMovementConfigDescriptor(processor=ttnn.DataMovementProcessor[c.get("processor", "riscv_0").upper()],
                                                 noc=ttnn.NOC(c.get("noc", 0)))
    modes = [ttnn.UnpackToDestMode.Default] * 64
    for cb, mode in c.get("unpack_to_dest_mode", {}).items():
        modes[int(cb)] = ttnn.UnpackToDestMode[mode]
    return ttnn.ComputeConfigDescriptor(math_fidelity=ttnn.MathFidelity[c.get("math_fidelity", "HiFi4")],
                                        fp32_dest_acc_en=c.get("fp32_dest_acc_en", False),
                                        math_approx_mode=c.get("math_approx_mode", False), unpack_to_dest_mode=modes)


def args_of(values, tensors):
    out = []
    for v in values:
        if isinstance(v, dict):
            out.append(tensors[v["address_of"]].buffer_address())
        else:
            out.append(v)
    return out


def compile_args_of(values, tensors):
    out = []
    for v in values:
        if isinstance(v, dict):
            out.extend(ttnn.TensorAccessorArgs(tensors[v["tensor_accessor_args"]]).get_compile_time_args())
        else:
            out.append(v)
    return out


def program_of(d, folder, tensors):
    kernels = []
    for k in d["kernels"]:
        rt = ttnn.RuntimeArgs()
        for entry in k.get("runtime_args", []):
            rt[entry["core"][0]][entry["core"][1]] = args_of(entry["args"], tensors)
        kernels.append(ttnn.KernelDescriptor(
            kernel_source=str(folder / k["kernel_source"]), core_ranges=core_ranges(k["core_ranges"]),
            compile_time_args=compile_args_of(k.get("compile_time_args", []), tensors),
            named_compile_time_args=list(k.get("named_compile_time_args", {}).items()),
            defines=list(k.get("defines", {}).items()), runtime_args=rt,
            common_runtime_args=args_of(k.get("common_runtime_args", []), tensors), config=config_of(k["config"])))
    cbs = [ttnn.CBDescriptor(total_size=cb["total_size"], core_ranges=core_ranges(cb["core_ranges"]),
                             format_descriptors=[ttnn.CBFormatDescriptor(buffer_index=f["buffer_index"],
                                                                         data_format=DTYPES[f["data_format"]],
                                                                         page_size=f["page_size"])
                                                 for f in cb["format_descriptors"]]) for cb in d["cbs"]]
    semaphores = [ttnn.SemaphoreDescriptor(id=s["id"], core_ranges=core_ranges(s["core_ranges"]),
                                           initial_value=s.get("initial_value", 0)) for s in d.get("semaphores", [])]
    return ttnn.ProgramDescriptor(kernels=kernels, cbs=cbs, semaphores=semaphores)


@pytest.mark.parametrize("path", PROGRAMS, ids=[f"{p.parent.name}/{p.name}" for p in PROGRAMS])
def test_example_runs_as_a_ttnn_program(device, path, tmp_path):
    d = json.loads(path.read_text())
    rng = np.random.default_rng(7)
    tensors = {}
    for t in d["tensors"]:
        assert t["memory"] == "dram_interleaved", "this test rebuilds DRAM tensors"
        dtype = DTYPES[t["data_format"]]
        layout = ttnn.TILE_LAYOUT if t["layout"] == "tile" else ttnn.ROW_MAJOR_LAYOUT
        if "input" in t:
            values = rng.standard_normal(t["shape"]).astype(np.float32)
            np.save(tmp_path / t["input"], values)
            tensors[t["name"]] = ttnn.from_torch(values, dtype=dtype, layout=layout, device=device)
        else:
            tensors[t["name"]] = ttnn.allocate_tensor_on_device(ttnn.Shape(t["shape"]), dtype, layout, device)
        assert t.get("page_size", tensors[t["name"]]._placement.page_size) == tensors[t["name"]]._placement.page_size
    ttnn.generic_op(list(tensors.values()), program_of(d, path.parent, tensors))

    done = subprocess.run([DITMK, "emulate", "--descriptor", str(path), "--data", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout
    outputs = [t for t in d["tensors"] if "output" in t]
    assert outputs
    for t in outputs:
        np.testing.assert_array_equal(tensors[t["name"]].to_numpy(), np.load(tmp_path / t["output"]),
                                      err_msg=t["name"])

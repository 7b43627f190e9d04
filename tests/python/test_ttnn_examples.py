"""The two front doors of every examples/tt program agree.

Every example's program.json rebuilt as ditmk.ttnn objects (tensors from from_torch /
allocate_tensor_on_device, KernelDescriptor, CBDescriptor, SemaphoreDescriptor, RuntimeArgs holding
buffer_address(), TensorAccessorArgs words) runs with generic_op bit for bit as `ditmk emulate
--descriptor` runs the file. And every example's Python form (NAME/program.py, written by hand for
ttnn) is the same program: its descriptor, as generic_op writes it, equals the file's, and its
outputs equal the CLI's."""
import json
import os
import subprocess
import tempfile

import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ditmk.ttnn import _program
from ttnn_programs import EXAMPLES, example_program

DITMK = os.environ.get("DITMK_BINARY", "ditmk")
PROGRAMS = sorted(EXAMPLES.glob("*/program*.json"))

DTYPES = {"bfloat16": ttnn.bfloat16, "Float16_b": ttnn.bfloat16, "float32": ttnn.float32, "Float32": ttnn.float32,
          "bfloat8_b": ttnn.bfloat8_b, "Bfp8_b": ttnn.bfloat8_b, "uint32": ttnn.uint32, "UInt32": ttnn.uint32,
          "int32": ttnn.int32, "Int32": ttnn.int32, "uint16": ttnn.uint16, "UInt16": ttnn.uint16,
          "uint8": ttnn.uint8, "UInt8": ttnn.uint8}


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


# Each descriptor file and the call of its example's program.py that builds the same program.
PYTHON_FORMS = {"loopback/program.json": ("loopback", {}),
                "eltwise_add/program.json": ("eltwise_add", {}),
                "matmul_single/program.json": ("matmul_single", {"b_dtype": ttnn.bfloat16}),
                "matmul_single/program_bfp8.json": ("matmul_single", {"b_dtype": ttnn.bfloat8_b}),
                "matmul_mcast/program.json": ("matmul_mcast", {}),
                "reduce_row/program.json": ("reduce_row", {}),
                "producer_consumer/program.json": ("producer_consumer", {})}


def build_python_form(device, path, inputs):
    """program.py's (io tensors by the file's tensor names, ProgramDescriptor) for the file at `path`."""
    key = f"{path.parent.name}/{path.name}"
    assert key in PYTHON_FORMS, f"{key} has no Python form listed in PYTHON_FORMS"
    name, options = PYTHON_FORMS[key]
    module = example_program(name)
    io_tensors, program = module.build(device, **inputs, **options)
    d = json.loads(path.read_text())
    names = [t["name"] for t in d["tensors"]]
    assert list(module.TENSORS) == names, "program.py's io tensors are the file's, in the file's order"
    assert {n: list(s) for n, s in module.INPUT_SHAPES.items()} == {t["name"]: t["shape"] for t in d["tensors"]
                                                                     if "input" in t}
    return dict(zip(names, io_tensors)), program


def file_inputs(d, seed):
    rng = np.random.default_rng(seed)
    return {t["name"]: rng.standard_normal(t["shape"]).astype(np.float32) for t in d["tensors"] if "input" in t}


def comparable(descriptor):
    """The descriptor with kernel paths absolute: a file's are relative to its folder."""
    for k in descriptor["kernels"]:
        k["kernel_source"] = os.path.abspath(k["kernel_source"])
    return descriptor


@pytest.mark.parametrize("path", PROGRAMS, ids=[f"{p.parent.name}/{p.name}" for p in PROGRAMS])
def test_python_form_writes_the_descriptor_of_the_file(device, path):
    d = json.loads(path.read_text())
    tensors, program = build_python_form(device, path, file_inputs(d, 11))
    # the io tensors are the file's: the same memory, layout, format, shape and page size
    for t in d["tensors"]:
        written = dict(tensors[t["name"]]._descriptor(), name=t["name"])
        del written["address"]
        assert written == {k: v for k, v in t.items() if k not in ("input", "output")}, t["name"]
    # the program, as generic_op hands it to the runner, with the file's address_of and
    # tensor_accessor_args resolved to the same tensors
    io = [t._descriptor() for t in tensors.values()]
    with tempfile.TemporaryDirectory() as kernel_cache:  # only SOURCE_CODE kernels would be written there
        from_python = comparable(_program.program_json(program, io, kernel_cache))
        from_file = comparable(_program.program_json(program_of(d, path.parent, tensors), io, kernel_cache))
    for part in ("kernels", "cbs", "semaphores"):
        assert len(from_python[part]) == len(from_file[part]), part
        for i, (mine, theirs) in enumerate(zip(from_python[part], from_file[part])):
            assert mine == theirs, f"{part}[{i}]"
    assert from_python == from_file


@pytest.mark.parametrize("path", PROGRAMS, ids=[f"{p.parent.name}/{p.name}" for p in PROGRAMS])
def test_python_form_runs_to_the_outputs_of_the_file(device, path, tmp_path):
    d = json.loads(path.read_text())
    inputs = file_inputs(d, 13)
    tensors, program = build_python_form(device, path, inputs)
    ttnn.generic_op(list(tensors.values()), program)
    by_name = {t["name"]: t for t in d["tensors"]}
    for name, values in inputs.items():
        np.save(tmp_path / by_name[name]["input"], values)
    done = subprocess.run([DITMK, "emulate", "--descriptor", str(path), "--data", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout
    outputs = [t for t in d["tensors"] if "output" in t]
    assert outputs
    for t in outputs:
        np.testing.assert_array_equal(tensors[t["name"]].to_numpy(), np.load(tmp_path / t["output"]),
                                      err_msg=t["name"])

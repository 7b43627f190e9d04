#!/usr/bin/python3
"""Writes the seed corpus of each harness into fuzz/corpus/<harness>/ (seed-*): small valid inputs and
a few typical faults, for libFuzzer to mutate. Deterministic; run it with Debian's python3 (numpy,
msgpack) and the release build's ditmk (for config.json):
    fuzz/make_corpus.py build/release/ditmk
Inputs that once found a bug (crash-*) live beside the seeds and are kept as they are."""

import io
import json
import pathlib
import struct
import subprocess
import sys
import tempfile
import zipfile

import msgpack
import numpy as np

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus"


def npy(array, version=None):
    out = io.BytesIO()
    if version is None:
        np.save(out, array, allow_pickle=False)
    else:
        np.lib.format.write_array(out, array, version=version, allow_pickle=False)
    return out.getvalue()


def npz(compressed, **arrays):
    out = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(out, **arrays)
    return out.getvalue()


def safetensors(header, data):
    text = json.dumps(header, separators=(",", ":")).encode()
    return struct.pack("<Q", len(text)) + text + data


def write(harness, seeds):
    folder = CORPUS / harness
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("seed-*"):
        old.unlink()
    for name, data in seeds.items():
        (folder / f"seed-{name}").write_bytes(data)


def safetensors_seeds():
    a = {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}
    b = {"dtype": "BF16", "shape": [3], "data_offsets": [16, 22]}
    valid = {"__metadata__": {"format": "pt"}, "action_head.model.proj_out_2.weight": a, "action_head.x.bias": b}
    return {
        "valid": safetensors(valid, bytes(range(22))),
        "empty-tensor": safetensors({"e": {"dtype": "I64", "shape": [0, 4], "data_offsets": [0, 0]}}, b""),
        "empty-header": safetensors({}, b""),
        "overlap": safetensors({"a": a, "b": {"dtype": "F32", "shape": [2], "data_offsets": [8, 16]}}, bytes(16)),
        "lying-offsets": safetensors({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 64]}}, bytes(16)),
        "bad-dtype": safetensors({"a": {"dtype": "C64", "shape": [1], "data_offsets": [0, 8]}}, bytes(8)),
        "long-header": struct.pack("<Q", 1000) + b"{}",
    }


def npy_npz_seeds():
    f32 = np.arange(6, dtype=np.float32).reshape(2, 3)
    return {
        "f32.npy": npy(f32),
        "f16.npy": npy(np.array([0.5, -1.0], dtype=np.float16)),
        "bool.npy": npy(np.array([True, False, True])),
        "i64-scalar.npy": npy(np.array(7, dtype=np.int64)),
        "empty.npy": npy(np.zeros((0, 4), dtype=np.float64)),
        "v2.npy": npy(np.arange(3, dtype=np.int32), version=(2, 0)),
        "fortran.npy": npy(np.asfortranarray(f32)),
        "big-endian.npy": npy(f32.astype(">f4")),
        "truncated.npy": npy(f32)[:-5],
        "stored.npz": npz(False, features=f32, mask=np.array([1, 0], dtype=np.int64)),
        "deflated.npz": npz(True, features=f32),
    }


def ndarray(array):
    return {"__ndarray_class__": True, "as_npy": npy(array)}


def request(endpoint, data, **extra):
    return msgpack.packb({"endpoint": endpoint, "data": data, **extra}, use_bin_type=True)


def request_seeds():
    # The small N1.6 head of the harness: 96-wide features, 5 state values, horizon 8 x 6 actions.
    rng = np.random.default_rng(0)
    features = rng.standard_normal((1, 3, 96)).astype(np.float16)
    base = {
        "backbone_features": ndarray(features),
        "backbone_attention_mask": ndarray(np.array([[1, 1, 0]], dtype=np.int64)),
        "image_mask": ndarray(np.array([[0, 1, 0]], dtype=bool)),
        "state": ndarray(np.zeros(5, dtype=np.float32)),
    }
    return {
        "get-action": request("get_action", {**base, "embodiment": "tiny_robot", "seed": 3}),
        "get-action-noise": request(
            "get_action", {**base, "embodiment_id": 2, "noise": ndarray(np.zeros((8, 6), dtype=np.float32))},
            api_token="secret"),
        "ping": request("ping", {}),
        "get-info": msgpack.packb({"endpoint": "get_info"}, use_bin_type=True),
        "no-image-mask": request("get_action", {"backbone_features": ndarray(features)}),
        "fortran-features": request("get_action", {**base, "backbone_features": ndarray(np.asfortranarray(features[0]))}),
        "not-an-array": request("get_action", {**base, "state": [1, 2, 3]}),
        "truncated": request("get_action", base)[:200],
        "not-msgpack": b"GET / HTTP/1.1\r\n\r\n",
    }


def config_seeds(ditmk):
    seeds = {}
    with tempfile.TemporaryDirectory() as tmp:
        for version in ("n15", "n16", "n17"):
            out = pathlib.Path(tmp) / version
            subprocess.run([ditmk, "make-checkpoint", "--tiny", "--version", version, "--out", str(out)],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            seeds[f"{version}.json"] = (out / "config.json").read_bytes()
    seeds["empty-object.json"] = b"{}"
    seeds["array.json"] = b"[1, 2]"
    seeds["wrong-types.json"] = b'{"model_type": 16, "action_horizon": "8", "diffusion_model_cfg": []}'
    return seeds


def core_range(x0, y0, x1, y1):
    return {"start": [x0, y0], "end": [x1, y1]}


def descriptor(**fields):
    return json.dumps(fields, indent=1).encode()


def descriptor_seeds():
    # The harness reads each as program.json of a folder holding kernels/reader.cpp, writer.cpp and
    # compute.cpp. Valid programs (interleaved, sharded, the smallest) and one fault each.
    grid = [core_range(0, 0, 1, 1)]
    tensors = [
        {"name": "a", "memory": "dram_interleaved", "layout": "tile", "data_format": "bfloat16",
         "shape": [64, 128], "page_size": 2048, "input": "a.npy"},
        {"name": "out", "memory": "dram_interleaved", "layout": "tile", "data_format": "Float16_b",
         "shape": [64, 128], "output": "out.npy"},
    ]
    kernels = [
        {"kernel_source": "kernels/reader.cpp", "core_ranges": grid, "config": {"type": "reader"},
         "compile_time_args": [8, {"tensor_accessor_args": "a"}], "named_compile_time_args": {"num_tiles": 8},
         "runtime_args": [{"core": [0, 0], "args": [{"address_of": "a"}, 8, 0]}],
         "common_runtime_args": [{"address_of": "out"}, 4]},
        {"kernel_source": "kernels/writer.cpp", "core_ranges": grid, "config": {"type": "writer"},
         "defines": {"OUT_TILES": "8"}},
        {"kernel_source": "kernels/compute.cpp", "core_ranges": grid,
         "config": {"type": "compute", "math_fidelity": "HiFi4", "fp32_dest_acc_en": False,
                    "math_approx_mode": False, "unpack_to_dest_mode": {"0": "Default"}}},
    ]
    cbs = [{"total_size": 4096, "core_ranges": grid,
            "format_descriptors": [{"buffer_index": 0, "data_format": "bfloat16", "page_size": 2048}]},
           {"total_size": 4096, "core_ranges": grid,
            "format_descriptors": [{"buffer_index": 16, "data_format": "bfloat16", "page_size": 2048}]}]
    eltwise = dict(name="eltwise_add", tensors=tensors, kernels=kernels, cbs=cbs,
                   semaphores=[{"id": 0, "core_ranges": grid, "initial_value": 0}])
    shard_cores = [core_range(0, 0, 3, 0)]
    sharded = dict(
        name="sharded",
        tensors=[{"name": "x", "memory": "l1_sharded", "layout": "row_major", "data_format": "float32",
                  "shape": [4, 1024], "cores": shard_cores, "shard_size": 4096, "input": "x.npy",
                  "output": "y.npy"}],
        kernels=[{"kernel_source": "kernels/reader.cpp", "core_ranges": shard_cores,
                  "config": {"type": "data_movement", "processor": "riscv_1", "noc": 0},
                  "runtime_args": [{"core": [x, 0], "args": [{"address_of": "x"}, x]} for x in range(4)]}],
        cbs=[{"total_size": 4096, "core_ranges": shard_cores, "tensor": "x",
              "format_descriptors": [{"buffer_index": 1, "data_format": "float32", "page_size": 4096}]}],
        semaphores=[{"id": 15, "core_ranges": shard_cores}])
    smallest = dict(kernels=[{"kernel_source": "kernels/compute.cpp", "core_ranges": [core_range(10, 9, 10, 9)],
                              "config": {"type": "compute"}}])

    def edited(base, edit):
        copy = json.loads(json.dumps(base))
        edit(copy)
        return descriptor(**copy)

    def off_grid(d): d["kernels"][1]["core_ranges"][0]["end"] = [11, 0]
    def overlap(d): d["cbs"][0]["core_ranges"].append(core_range(1, 1, 2, 2))
    def same_processor(d): d["kernels"].append(dict(d["kernels"][0], runtime_args=[]))
    def outside(d): d["kernels"][0]["runtime_args"][0]["core"] = [5, 5]
    def typo(d): d["kernels"][2]["config"]["math_fidelty"] = "LoFi"
    def bad_format(d): d["cbs"][0]["format_descriptors"][0]["data_format"] = "bfloat17"
    def overflow(d): d["cbs"][0]["total_size"] = 1460 * 1024
    def missing_kernel(d): d["kernels"][1]["kernel_source"] = "kernels/missing.cpp"
    def shard_short(d): d["tensors"][0]["shape"] = [8, 1024]
    def unnamed_tensor(d): d["kernels"][0]["runtime_args"][0]["args"][0] = {"address_of": "b"}
    return {
        "eltwise.json": descriptor(**eltwise),
        "sharded.json": descriptor(**sharded),
        "smallest.json": descriptor(**smallest),
        "off-grid.json": edited(eltwise, off_grid),
        "overlap.json": edited(eltwise, overlap),
        "same-processor.json": edited(eltwise, same_processor),
        "args-outside.json": edited(eltwise, outside),
        "typo.json": edited(eltwise, typo),
        "bad-format.json": edited(eltwise, bad_format),
        "l1-overflow.json": edited(eltwise, overflow),
        "missing-kernel.json": edited(eltwise, missing_kernel),
        "shard-short.json": edited(sharded, shard_short),
        "unknown-tensor.json": edited(sharded, unnamed_tensor),
        "truncated.json": descriptor(**eltwise)[:300],
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fuzz/make_corpus.py PATH/TO/ditmk")
    write("safetensors_header", safetensors_seeds())
    write("npy_npz", npy_npz_seeds())
    write("request_decoder", request_seeds())
    write("config_json", config_seeds(sys.argv[1]))
    write("program_descriptor", descriptor_seeds())


if __name__ == "__main__":
    main()

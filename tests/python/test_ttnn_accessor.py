"""ditmk.ttnn's TensorAccessorArgs encoder against the descriptor's {"tensor_accessor_args": name}
expansion: for each tensor, a kernel compiled with the descriptor's words checks them, at compile time,
against the words the Python encoder gives (tests/tt_dialect/kernels/accessor_args_words.cpp)."""
import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("DITMK_SOURCE_DIR", Path(__file__).resolve().parents[2]))
DITMK = os.environ.get("DITMK_BINARY", "ditmk")


def _load_accessor():
    spec = importlib.util.spec_from_file_location("ditmk_ttnn_accessor", SOURCE / "python/ditmk/ttnn/_accessor.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


accessor = _load_accessor()


def run_descriptor(tmp_path, tensor, expected):
    program = {
        "name": "accessor_words",
        "tensors": [tensor],
        "kernels": [{
            "kernel_source": str(SOURCE / "tests/tt_dialect/kernels/accessor_args_words.cpp"),
            "core_ranges": [{"start": [0, 0], "end": [0, 0]}],
            "config": {"type": "reader"},
            "compile_time_args": [{"tensor_accessor_args": tensor["name"]}],
            "defines": {"EXPECTED_WORDS": ",".join(str(w) for w in expected)},
        }],
    }
    path = tmp_path / "program.json"
    path.write_text(json.dumps(program))
    cache = os.environ.get("DITMK_KERNEL_CACHE", str(tmp_path / "kernels"))
    return subprocess.run([DITMK, "emulate", "--descriptor", str(path), "--kernel-cache", cache],
                          capture_output=True, text=True)


def tile_tensor(name, memory, shape, page_size, **extra):
    return {"name": name, "memory": memory, "layout": "tile", "data_format": "bfloat16", "shape": shape,
            "page_size": page_size, **extra}


CASES = {
    "dram_tiles": (tile_tensor("t", "dram_interleaved", [64, 64], 2048), dict(is_dram=True, page_size=2048)),
    # a row-major page of 50 bfloat16 values: 100 B, strided by 128 in DRAM and by 112 in L1
    "dram_rows": ({"name": "t", "memory": "dram_interleaved", "layout": "row_major", "data_format": "bfloat16",
                   "shape": [4, 50]}, dict(is_dram=True, page_size=100)),
    "l1_rows": ({"name": "t", "memory": "l1_interleaved", "layout": "row_major", "data_format": "bfloat16",
                 "shape": [4, 50]}, dict(is_dram=False, page_size=100)),
    # 8 tiles, 2 a shard, on cores (0,0) .. (3,0): rank 1, the pages in row-major order
    "l1_sharded": (tile_tensor("t", "l1_sharded", [128, 64], 2048, cores=[{"start": [0, 0], "end": [3, 0]}],
                               shard_size=4096),
                   dict(is_dram=False, page_size=2048,
                        shard={"tensor_shape": [8], "shard_shape": [2], "cores": [(0, 0), (1, 0), (2, 0), (3, 0)]})),
    # an odd bank count: the last word's high half is empty
    "l1_sharded_odd": (tile_tensor("t", "l1_sharded", [96, 32], 2048, cores=[{"start": [1, 2], "end": [3, 2]}],
                                   shard_size=2048),
                       dict(is_dram=False, page_size=2048,
                            shard={"tensor_shape": [3], "shard_shape": [1], "cores": [(1, 2), (2, 2), (3, 2)]})),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_python_words_match_the_descriptor_expansion(tmp_path, case):
    tensor, args = CASES[case]
    words = accessor.compile_time_args(**args)
    done = run_descriptor(tmp_path, tensor, words)
    assert done.returncode == 0, done.stderr + done.stdout
    assert f"accessor args: {len(words)} words" in done.stdout + done.stderr


def test_other_words_fail_the_check(tmp_path):
    """The check can fail: words off by one page are refused at the kernel's build."""
    tensor, args = CASES["dram_tiles"]
    words = accessor.compile_time_args(**args)
    words[1] += 64
    done = run_descriptor(tmp_path, tensor, words)
    assert done.returncode != 0
    assert "differ from EXPECTED_WORDS" in done.stderr + done.stdout


def test_layout_of_each_word():
    assert accessor.compile_time_args(True, 2048) == [2, 2048]
    assert accessor.compile_time_args(False, 100) == [0, 112]
    assert accessor.compile_time_args(True, 100) == [2, 128]
    words = accessor.compile_time_args(False, 2048, shard={"tensor_shape": [2, 4], "shard_shape": [1, 2],
                                                           "cores": [(1, 2), (3, 4), (5, 6)], "contiguous": True})
    assert words == [1, 2048, 2, 3 | 1 << 31, 2, 4, 1, 2, (1 << 8 | 2) | (3 << 8 | 4) << 16, 5 << 8 | 6]


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="page_size"):
        accessor.compile_time_args(True, 0)
    with pytest.raises(ValueError, match="one rank"):
        accessor.compile_time_args(False, 2048, shard={"tensor_shape": [2], "shard_shape": [1, 1], "cores": [(0, 0)]})
    with pytest.raises(ValueError, match="8-bit"):
        accessor.compile_time_args(False, 2048, shard={"tensor_shape": [2], "shard_shape": [1], "cores": [(300, 0)]})

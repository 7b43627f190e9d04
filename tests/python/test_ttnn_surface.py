"""ditmk.ttnn's surface: ttnn 0.81.1's names, defaults and errors, the allocator's addresses, and
what is not modelled refused with one error naming it."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ditmk.ttnn as ttnn


NAMES = """open_device close_device Device Tensor Shape TensorSpec from_torch to_torch allocate_tensor_on_device
DataType bfloat16 bfloat8_b float32 uint32 int32 uint16 uint8 Layout TILE_LAYOUT ROW_MAJOR_LAYOUT TensorMemoryLayout
BufferType MemoryConfig DRAM_MEMORY_CONFIG L1_MEMORY_CONFIG ShardSpec ShardOrientation L1_HEIGHT_SHARDED_MEMORY_CONFIG
L1_WIDTH_SHARDED_MEMORY_CONFIG L1_BLOCK_SHARDED_MEMORY_CONFIG CoreCoord CoreRange CoreRangeSet split_work_to_cores
num_cores_to_corerangeset TensorAccessorArgs RuntimeArgs KernelDescriptor ReaderConfigDescriptor
WriterConfigDescriptor DataMovementConfigDescriptor ComputeConfigDescriptor MathFidelity UnpackToDestMode
CBFormatDescriptor CBDescriptor SemaphoreDescriptor ProgramDescriptor generic_op KernelFault""".split()


def test_the_names_are_there():
    missing = [n for n in NAMES if not hasattr(ttnn, n)]
    assert missing == []
    assert ttnn.KernelDescriptor.SourceType.FILE_PATH != ttnn.KernelDescriptor.SourceType.SOURCE_CODE


def test_other_ttnn_names_are_refused_by_name():
    with pytest.raises(AttributeError, match=r"does not model ttnn\.exp"):
        ttnn.exp
    with pytest.raises(AttributeError, match=r"does not model ttnn\.Tensor\.reshape"):
        ttnn.from_torch(np.zeros((32, 32), np.float32)).reshape


def test_torch_stays_optional():
    code = "import sys, ditmk.ttnn as t, numpy as np; d = t.open_device(device_id=0); " \
           "x = t.from_torch(np.ones((32, 32), np.float32), dtype=t.bfloat16, layout=t.TILE_LAYOUT, device=d); " \
           "assert (t.to_numpy(x) == 1).all(); assert 'torch' not in sys.modules"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr


def test_the_grid_is_the_emulated_chips(device):
    grid = device.compute_with_storage_grid_size()
    assert (grid.x, grid.y) == (11, 10)


def test_defaults_are_ttnns(device):
    t = ttnn.from_torch(np.zeros((32, 64), np.float32), device=device)
    assert t.layout == ttnn.ROW_MAJOR_LAYOUT and t.dtype == ttnn.float32
    assert t.memory_config() == ttnn.DRAM_MEMORY_CONFIG
    assert t.storage_type() == ttnn.StorageType.DEVICE
    assert ttnn.from_torch(np.zeros((32, 64), np.int32)).dtype == ttnn.int32
    assert ttnn.from_torch(None) is None
    c = ttnn.ComputeConfigDescriptor()
    assert (c.math_fidelity, c.fp32_dest_acc_en, c.dst_full_sync_en, c.bfp8_pack_precise, c.math_approx_mode) == (
        ttnn.MathFidelity.HiFi4, False, False, False, False)
    m = ttnn.DataMovementConfigDescriptor()
    assert m.processor == ttnn.DataMovementProcessor.RISCV_0
    k = ttnn.KernelDescriptor(kernel_source="k.cpp")
    assert k.source_type == ttnn.KernelDescriptor.SourceType.FILE_PATH
    assert isinstance(k.config, ttnn.DataMovementConfigDescriptor)
    assert ttnn.MemoryConfig() == ttnn.DRAM_MEMORY_CONFIG


def test_split_work_to_cores_as_ttnn():
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(7, 7))])
    n, all_cores, g1, g2, w1, w2 = ttnn.split_work_to_cores(grid, 12)
    assert (n, w1, w2) == (12, 1, 0) and g2.ranges() == [] and all_cores == g1
    # columns first: column 0 whole, then four cores of column 1
    assert g1.ranges() == [ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 7)),
                           ttnn.CoreRange(ttnn.CoreCoord(1, 0), ttnn.CoreCoord(1, 3))]
    n, all_cores, g1, g2, w1, w2 = ttnn.split_work_to_cores(ttnn.CoreCoord(8, 8), 100)
    assert (n, g1.num_cores(), g2.num_cores(), w1, w2) == (64, 36, 28, 2, 1)
    assert g1.num_cores() * w1 + g2.num_cores() * w2 == 100
    assert all_cores.num_cores() == 64
    n, _, g1, _, _, _ = ttnn.split_work_to_cores(ttnn.CoreCoord(8, 8), 10, row_wise=True)
    assert g1.ranges() == [ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(7, 0)),
                           ttnn.CoreRange(ttnn.CoreCoord(0, 1), ttnn.CoreCoord(1, 1))]
    assert ttnn.split_work_to_cores(ttnn.CoreCoord(8, 8), 0)[0] == 0
    s = ttnn.num_cores_to_corerangeset(12, ttnn.CoreCoord(8, 8), row_wise=True)
    assert s.num_cores() == 12 and len(s.ranges()) == 2
    with pytest.raises(ValueError):
        ttnn.num_cores_to_corerangeset(65, ttnn.CoreCoord(8, 8))


def test_runtime_args_index_as_ttnn():
    rt = ttnn.RuntimeArgs()
    rt[1][2] = [5, 6]
    rt[1][2].append(7)
    rt[0][0] = [1]
    assert [(c.x, c.y, a) for c, a in rt.items()] == [(1, 2, [5, 6, 7]), (0, 0, [1])]
    k = ttnn.KernelDescriptor(kernel_source="k.cpp", runtime_args=[(ttnn.CoreCoord(3, 4), [9])])
    assert [(c.x, c.y, a) for c, a in k.runtime_args.items()] == [(3, 4, [9])]


def test_tensor_accessor_args_are_tt_metals_encoding(device):
    tile = ttnn.from_torch(np.zeros((32, 32), np.float32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    assert ttnn.TensorAccessorArgs(tile).get_compile_time_args() == [2, 2048]  # IsDram, the page
    assert ttnn.TensorAccessorArgs(tile).get_common_runtime_args() == []
    l1 = ttnn.from_torch(np.zeros((32, 32), np.float32), dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                         memory_config=ttnn.L1_MEMORY_CONFIG)
    assert ttnn.TensorAccessorArgs(l1).get_compile_time_args() == [0, 2048]
    rows = np.zeros((4, 10), np.float32)  # 40 B pages: DRAM aligns to 64, L1 to 16
    assert ttnn.TensorAccessorArgs(ttnn.from_torch(rows, device=device)).get_compile_time_args() == [2, 64]
    assert ttnn.TensorAccessorArgs(ttnn.from_torch(rows, device=device, memory_config=ttnn.L1_MEMORY_CONFIG)
                                   ).get_compile_time_args() == [0, 48]
    # height-sharded over (0,0) and (1,0), a tile each: Sharded, the page, rank 1, 2 banks, 2 pages,
    # 1 page a shard, the banks' coordinates (x << 8 | y) two to a word
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 0))])
    height = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                               ttnn.ShardSpec(grid, [32, 32]))
    sharded = ttnn.allocate_tensor_on_device(ttnn.Shape([64, 32]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, height)
    assert ttnn.TensorAccessorArgs(sharded).get_compile_time_args() == [1, 2048, 1, 2, 2, 1, (1 << 8) << 16]


def test_addresses_mirror_the_descriptor_model(device):
    def tile_tensor(tiles, mc=ttnn.DRAM_MEMORY_CONFIG):
        return ttnn.allocate_tensor_on_device(ttnn.Shape([1, tiles, 32, 32]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, mc)

    a, b = tile_tensor(16), tile_tensor(1)
    assert a.buffer_address() == 64  # DRAM from 64 up (0 means "no tensor")
    assert b.buffer_address() == 64 + 2 * 2048  # 16 pages over 8 banks: 2 a bank
    a.deallocate()
    c = tile_tensor(8)
    assert c.buffer_address() == 64  # first fit reuses the freed range
    l1 = tile_tensor(220, ttnn.L1_MEMORY_CONFIG)  # 2 pages in each of 110 L1 banks
    assert l1.buffer_address() == 1536 * 1024 - 2 * 2048  # L1 from the top down
    assert l1.memory_config().buffer_type == ttnn.BufferType.L1


def test_round_trips_of_each_dtype(device):
    rng = np.random.default_rng(0)
    ints = rng.integers(0, 2**31 - 1, (32, 64), dtype=np.int64).astype(np.int32)
    for dtype, values in ((ttnn.float32, rng.standard_normal((64, 32)).astype(np.float32)),
                          (ttnn.int32, ints), (ttnn.uint32, ints), (ttnn.uint16, ints % 65536),
                          (ttnn.uint8, (ints % 256).astype(np.uint8))):
        for layout in (ttnn.TILE_LAYOUT, ttnn.ROW_MAJOR_LAYOUT):
            t = ttnn.from_torch(values, dtype=dtype, layout=layout, device=device)
            np.testing.assert_array_equal(ttnn.to_numpy(t), values, err_msg=f"{dtype} {layout}")
            assert list(t.shape) == list(values.shape)
    bfp8 = ttnn.from_torch(np.full((32, 32), 1.5, np.float32), dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
    assert (bfp8.to_numpy() == 1.5).all() and bfp8.storage_type() == ttnn.StorageType.HOST


def test_what_is_not_modelled_is_refused_by_name(device):
    with pytest.raises(NotImplementedError, match="bfloat4_b"):
        ttnn.from_torch(np.zeros((32, 32), np.float32), dtype=ttnn.bfloat4_b, layout=ttnn.TILE_LAYOUT)
    with pytest.raises(NotImplementedError, match="rank 1"):
        ttnn.from_torch(np.zeros(32, np.float32))
    with pytest.raises(NotImplementedError, match="padding a TILE_LAYOUT tensor"):
        ttnn.from_torch(np.zeros((30, 32), np.float32), layout=ttnn.TILE_LAYOUT)
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 0))])
    block = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.BLOCK_SHARDED, ttnn.BufferType.L1, ttnn.ShardSpec(grid, [32, 32]))
    with pytest.raises(NotImplementedError, match="BLOCK_SHARDED"):
        ttnn.allocate_tensor_on_device(ttnn.Shape([32, 64]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, block)
    width = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.WIDTH_SHARDED, ttnn.BufferType.L1, ttnn.ShardSpec(grid, [32, 48]))
    with pytest.raises(NotImplementedError, match="does not divide the width"):
        ttnn.allocate_tensor_on_device(ttnn.Shape([32, 64]), ttnn.bfloat16, ttnn.ROW_MAJOR_LAYOUT, device, width)
    height = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                               ttnn.ShardSpec(grid, [32, 32]))
    sharded = ttnn.allocate_tensor_on_device(ttnn.Shape([64, 32]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, height)
    with pytest.raises(NotImplementedError, match="dst_full_sync_en"):
        ttnn.ComputeConfigDescriptor(dst_full_sync_en=True)._json()
    with pytest.raises(NotImplementedError, match="worker_l1_size"):
        ttnn.open_device(device_id=0, worker_l1_size=1 << 20)


def test_misuse_is_one_clear_error(device):
    host = ttnn.from_torch(np.zeros((32, 32), np.float32))
    with pytest.raises(RuntimeError, match="not on a device"):
        host.buffer_address()
    out = ttnn.allocate_tensor_on_device(ttnn.Shape([32, 32]), ttnn.float32, ttnn.TILE_LAYOUT, device)
    with pytest.raises(RuntimeError, match="never written"):
        ttnn.to_numpy(out)
    with pytest.raises(TypeError, match="unknown keyword"):
        ttnn.generic_op([out], ttnn.ProgramDescriptor(), timming=True)
    with pytest.raises(ValueError, match="io_tensors is empty"):
        ttnn.generic_op([], ttnn.ProgramDescriptor())
    with pytest.raises(ValueError, match="overlap"):
        ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 1)),
                           ttnn.CoreRange(ttnn.CoreCoord(1, 1), ttnn.CoreCoord(2, 2))])
    ttnn.close_device(device)
    with pytest.raises(RuntimeError, match="closed"):
        ttnn.allocate_tensor_on_device(ttnn.Shape([32, 32]), ttnn.float32, ttnn.TILE_LAYOUT, device)


def test_the_codec_binding_round_trips_and_refuses_in_one_line():
    from ditmk import _ditmk

    values = np.arange(64 * 32, dtype=np.float32).reshape(2, 32, 32)
    data = _ditmk.tt_encode("float32", "tile", [2, 32, 32], values, "x")
    assert len(data) == _ditmk.tt_tensor_bytes("float32", "tile", [2, 32, 32]) == 2 * 4096
    np.testing.assert_array_equal(_ditmk.tt_decode("float32", "tile", [2, 32, 32], data, "x"), values)
    # tile order: the first 16 values of a tile's first face are row 0's first 16
    assert np.frombuffer(data[:64], np.float32).tolist() == values[0, 0, :16].tolist()
    for call, says in ((lambda: _ditmk.tt_encode("bfloat4_b", "tile", [32, 32], values[0], "x"), "bfloat4_b"),
                       (lambda: _ditmk.tt_encode("float32", "tile", [32, 64], values[0], "x"), "shape"),
                       (lambda: _ditmk.tt_decode("float32", "tile", [32, 32], b"\0" * 10, "x"), "10 B")):
        with pytest.raises(ValueError, match=says) as raised:
            call()
        assert "\n" not in str(raised.value)

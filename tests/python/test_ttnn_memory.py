"""Tensors in L1 at the addresses ditmk.ttnn's allocator gives them: interleaved over the 110 L1
banks and height-sharded over a row of cores, read by kernels that take those addresses as runtime
args (tests/tt_dialect/l1_kernels), and written to DRAM."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ttnn_programs import SOURCE, bf16

L1_KERNELS = SOURCE / "tests" / "tt_dialect" / "l1_kernels"


@pytest.fixture
def device():
    dev = ttnn.open_device(device_id=0)
    yield dev
    ttnn.close_device(dev)


def one_core():
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])


def tile_cb(cores):
    return ttnn.CBDescriptor(total_size=2 * 2048, core_ranges=cores, format_descriptors=[
        ttnn.CBFormatDescriptor(buffer_index=0, data_format=ttnn.bfloat16, page_size=2048)])


def test_an_l1_interleaved_tensor_is_where_its_address_says(device):
    tiles = 300  # more pages than L1 banks: bank rows 0..2
    values = np.random.default_rng(5).standard_normal((1, tiles, 32, 32)).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=ttnn.L1_MEMORY_CONFIG)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(values.shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    args = ttnn.RuntimeArgs()
    args[0][0] = [src.buffer_address(), dst.buffer_address(), tiles, 0]
    compile_args = ttnn.TensorAccessorArgs(src).get_compile_time_args() + \
        ttnn.TensorAccessorArgs(dst).get_compile_time_args()
    kernel = ttnn.KernelDescriptor(kernel_source=str(L1_KERNELS / "copy_pages.cpp"), core_ranges=one_core(),
                                   compile_time_args=compile_args, defines=[("L1_ADDRGEN", "1")],
                                   runtime_args=args, config=ttnn.ReaderConfigDescriptor())
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=[kernel], cbs=[tile_cb(one_core())]))
    np.testing.assert_array_equal(dst.to_numpy(), bf16(values))
    np.testing.assert_array_equal(src.to_numpy(), bf16(values))  # read back from L1 too


def test_a_height_sharded_tensor_lies_on_its_cores(device):
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))])
    sharded = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                                ttnn.ShardSpec(cores, [32, 64], ttnn.ShardOrientation.ROW_MAJOR))
    values = np.random.default_rng(6).standard_normal((128, 64)).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded)
    assert src.memory_config().shard_spec.shape == [32, 64]
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([128, 64]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    args = ttnn.RuntimeArgs()
    args[0][0] = [src.buffer_address(), dst.buffer_address(), 2, 4] + [v for x in range(4) for v in (x, 0)]
    kernel = ttnn.KernelDescriptor(kernel_source=str(L1_KERNELS / "gather_shards.cpp"), core_ranges=one_core(),
                                   runtime_args=args, config=ttnn.ReaderConfigDescriptor())
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=[kernel], cbs=[tile_cb(one_core())]))
    np.testing.assert_array_equal(dst.to_numpy(), bf16(values))

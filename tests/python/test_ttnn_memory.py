"""Tensors in L1 at the addresses ditmk.ttnn's allocator gives them: interleaved over the 110 L1
banks and height- or width-sharded over a row of cores, read by kernels that take those addresses as runtime
args (tests/tt_dialect/l1_kernels), and written to DRAM."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ttnn_programs import SOURCE, bf16

L1_KERNELS = SOURCE / "tests" / "tt_dialect" / "l1_kernels"


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


def test_a_width_sharded_tensor_lies_on_its_cores_by_columns(device):
    """Shard k holds tile column k of both tile rows; TensorAccessor finds tile i (row-major over the
    2 x 4 tiles) there, so copying tiles 0..7 to DRAM gives the tensor back."""
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))])
    sharded = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.WIDTH_SHARDED, ttnn.BufferType.L1,
                                ttnn.ShardSpec(cores, [64, 32], ttnn.ShardOrientation.ROW_MAJOR))
    values = np.random.default_rng(7).standard_normal((64, 128)).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([64, 128]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    args = ttnn.RuntimeArgs()
    args[0][0] = [src.buffer_address(), dst.buffer_address(), 8, 0]
    compile_args = ttnn.TensorAccessorArgs(src).get_compile_time_args() + \
        ttnn.TensorAccessorArgs(dst).get_compile_time_args()
    kernel = ttnn.KernelDescriptor(kernel_source=str(L1_KERNELS / "copy_pages.cpp"), core_ranges=one_core(),
                                   compile_time_args=compile_args, runtime_args=args,
                                   config=ttnn.ReaderConfigDescriptor())
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=[kernel], cbs=[tile_cb(one_core())]))
    np.testing.assert_array_equal(dst.to_numpy(), bf16(values))
    np.testing.assert_array_equal(src.to_numpy(), bf16(values))


def test_an_nd_sharded_tensor_lies_on_its_cores_shard_by_shard(device):
    """NdShardSpec [2, 32, 64] on 2 x 96 x 128: 3 x 2 shards, row-major over that grid, shard k on core
    k, each holding its 2 x 32 x 64 block (rows of both batches) as tiles in row-major order; gathering
    the shards' pages in core order gives those blocks stacked, and TensorAccessor finds each tile."""
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(5, 0))])
    sharded = ttnn.MemoryConfig(ttnn.BufferType.L1, ttnn.NdShardSpec(ttnn.Shape([2, 32, 64]), cores))
    assert sharded.memory_layout == ttnn.TensorMemoryLayout.ND_SHARDED and sharded.shard_spec is None
    values = np.random.default_rng(8).standard_normal((2, 96, 128)).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                          memory_config=sharded)
    assert src.memory_config().nd_shard_spec.shard_shape == [2, 32, 64]
    gathered = ttnn.allocate_tensor_on_device(ttnn.Shape([6 * 2 * 32, 64]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    args = ttnn.RuntimeArgs()
    args[0][0] = [src.buffer_address(), gathered.buffer_address(), 4, 6] + [v for x in range(6) for v in (x, 0)]
    kernel = ttnn.KernelDescriptor(kernel_source=str(L1_KERNELS / "gather_shards.cpp"), core_ranges=one_core(),
                                   runtime_args=args, config=ttnn.ReaderConfigDescriptor())
    ttnn.generic_op([src, gathered], ttnn.ProgramDescriptor(kernels=[kernel], cbs=[tile_cb(one_core())]))
    blocks = [values[:, r * 32:(r + 1) * 32, c * 64:(c + 1) * 64].reshape(64, 64) for r in range(3) for c in range(2)]
    np.testing.assert_array_equal(gathered.to_numpy(), bf16(np.concatenate(blocks)))
    # the accessor's words: sharded in L1, rank 3, 6 banks, the tensor's and a shard's extents in pages
    words = ttnn.TensorAccessorArgs(src).get_compile_time_args()
    assert words[:10] == [1, 2048, 3, 6, 2, 3, 4, 2, 1, 2]
    flat = ttnn.allocate_tensor_on_device(ttnn.Shape([2, 96, 128]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    args = ttnn.RuntimeArgs()
    args[0][0] = [src.buffer_address(), flat.buffer_address(), 24, 0]
    kernel = ttnn.KernelDescriptor(kernel_source=str(L1_KERNELS / "copy_pages.cpp"), core_ranges=one_core(),
                                   compile_time_args=words + ttnn.TensorAccessorArgs(flat).get_compile_time_args(),
                                   runtime_args=args, config=ttnn.ReaderConfigDescriptor())
    ttnn.generic_op([src, flat], ttnn.ProgramDescriptor(kernels=[kernel], cbs=[tile_cb(one_core())]))
    np.testing.assert_array_equal(flat.to_numpy(), bf16(values))


def test_nd_shard_specs_the_chip_does_not_hold_are_refused(device):
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(1, 0))])
    values = np.zeros((2, 64, 64), dtype=np.float32)
    cases = [([1, 48, 64], "does not cut the tensor"),        # uneven: a partial last shard
             ([1, 32, 64], "4 ND shards on 2 cores")]         # round-robin, two shards a core
    for shard, message in cases:
        sharded = ttnn.MemoryConfig(ttnn.BufferType.L1, ttnn.NdShardSpec(ttnn.Shape(shard), cores))
        with pytest.raises(Exception, match=message):
            ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device,
                            memory_config=sharded)


def test_dram_shards_the_chip_does_not_hold_are_refused(device):
    values = np.zeros((128, 64), dtype=np.float32)

    def dram(layout_kind, first_bank, last_bank, shard):
        banks = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(first_bank, 0), ttnn.CoreCoord(last_bank, 0))])
        return ttnn.MemoryConfig(layout_kind, ttnn.BufferType.DRAM,
                                 ttnn.ShardSpec(banks, shard, ttnn.ShardOrientation.ROW_MAJOR))

    cases = [(ttnn.TILE_LAYOUT, dram(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, 1, 4, [32, 64]),
              "DRAM shards go to banks 0..n-1"),  # not the first banks
             (ttnn.ROW_MAJOR_LAYOUT, dram(ttnn.TensorMemoryLayout.WIDTH_SHARDED, 0, 3, [128, 16]),
              "whole 64 B units")]  # pages of 32 B  # fmt: skip
    for layout, memory, message in cases:
        with pytest.raises(Exception, match=message):
            ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=layout, device=device, memory_config=memory)


# Each shard core publishes its shard (the CB the shard backs) and writes its pages to DRAM.
SHARD_TO_DRAM = """
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t dst_address = get_arg_val<uint32_t>(0);
  const uint32_t first = get_arg_val<uint32_t>(1);
  const uint32_t pages = get_arg_val<uint32_t>(2);
  constexpr uint32_t cb = 0;
  cb_reserve_back(cb, pages);
  cb_push_back(cb, pages);
  cb_wait_front(cb, pages);
  const uint32_t page = get_tile_size(cb);
  const InterleavedAddrGenFast<true> dst = {
      .bank_base_address = dst_address, .page_size = page, .data_format = get_dataformat(cb)};
  for (uint32_t i = 0; i < pages; ++i) noc_async_write_tile(first + i, dst, get_read_ptr(cb) + i * page);
  noc_async_write_barrier();
  cb_pop_front(cb, pages);
}
"""


def test_a_cb_backed_by_a_sharded_tensor_holds_its_shard(device):
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(3, 0))])
    sharded = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                                ttnn.ShardSpec(cores, [64, 32]))
    values = np.random.default_rng(8).standard_normal((256, 32)).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device, memory_config=sharded)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([256, 32]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    cb = ttnn.cb_descriptor_from_sharded_tensor(0, src)
    assert (cb.total_size, cb.core_ranges) == (2 * 2048, cores)
    args = ttnn.RuntimeArgs()
    for k, core in enumerate(cores.cores()):
        args[core.x][core.y] = [dst.buffer_address(), 2 * k, 2]
    kernel = ttnn.KernelDescriptor(kernel_source=SHARD_TO_DRAM, source_type=ttnn.KernelDescriptor.SourceType.SOURCE_CODE,
                                   core_ranges=cores, runtime_args=args, config=ttnn.WriterConfigDescriptor())
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=[kernel], cbs=[cb]))
    np.testing.assert_array_equal(dst.to_numpy(), bf16(values))
    np.testing.assert_array_equal(src.to_numpy(), bf16(values))


# Each shard core fills its shard (the CB the shard backs) with its pages of a DRAM tensor.
DRAM_TO_SHARD = """
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
  const uint32_t src_address = get_arg_val<uint32_t>(0);
  const uint32_t first = get_arg_val<uint32_t>(1);
  const uint32_t pages = get_arg_val<uint32_t>(2);
  constexpr uint32_t cb = 0;
  const uint32_t page = get_tile_size(cb);
  const InterleavedAddrGenFast<true> src = {
      .bank_base_address = src_address, .page_size = page, .data_format = get_dataformat(cb)};
  cb_reserve_back(cb, pages);
  for (uint32_t i = 0; i < pages; ++i) noc_async_read_tile(first + i, src, get_write_ptr(cb) + i * page);
  noc_async_read_barrier();
  cb_push_back(cb, pages);
}
"""


def test_a_short_last_shard_reads_back_its_pages_only(device):
    # 5 tile rows in shards of 2: the third core's shard holds one page, the rest of its CB is never
    # written (on the chip those bytes are past the tensor's end), and the tensor still reads back
    cores = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(2, 0))])
    sharded = ttnn.MemoryConfig(ttnn.TensorMemoryLayout.HEIGHT_SHARDED, ttnn.BufferType.L1,
                                ttnn.ShardSpec(cores, [64, 32]))
    values = np.random.default_rng(9).standard_normal((160, 32)).astype(np.float32)
    src = ttnn.from_torch(values, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape([160, 32]), ttnn.bfloat16, ttnn.TILE_LAYOUT, device, sharded)
    cb = ttnn.cb_descriptor_from_sharded_tensor(0, dst)
    args = ttnn.RuntimeArgs()
    for k, core in enumerate(cores.cores()):
        args[core.x][core.y] = [src.buffer_address(), 2 * k, min(2, 5 - 2 * k)]
    kernel = ttnn.KernelDescriptor(kernel_source=DRAM_TO_SHARD, core_ranges=cores, runtime_args=args,
                                   source_type=ttnn.KernelDescriptor.SourceType.SOURCE_CODE,
                                   config=ttnn.ReaderConfigDescriptor())
    ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=[kernel], cbs=[cb]))
    np.testing.assert_array_equal(dst.to_numpy(), bf16(values))

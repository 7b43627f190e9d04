"""Corpus: copy of row-major tensors as ttnn 0.81.1's CopyDeviceOperation::DefaultRowMajor factory
("copy_default_row_major") builds its ProgramSpec, the page-redistribution kernels unchanged from
the reference tree, checked exactly against the input.

The factory treats each logical row as a run of input pages and of output pages (one page a row
when interleaved or height-sharded, a shard's width of it when width- or block-sharded). When the
two page sizes share a unit narrower than the row (whose bytes are a multiple of both buffers'
alignments, and at most the 256 KiB subblock cap), it splits those units over the grid
(redistribute_pages_row_major_parallel_reader/_writer.cpp, one unit at a time through dfb unit).
Otherwise it splits whole rows over the grid (redistribute_pages_row_major_reader/_writer.cpp): the
reader reads each input subblock (a page, or 256 KiB of it) into its scratchpad scratch::in0 and
copies it into output subblocks in dfb in1, which the writer writes out page by page. In both the
cores are the grid's first ones taken column by column and numbered row by row."""
import math

import pytest
import torch

import ditmk.ttnn as ttnn
from layout_factories import ceil_div, corerange_to_cores, dfb, metal2

pytestmark = pytest.mark.tt_corpus

KERNELS = "ttnn/cpp/ttnn/operations/data_movement/copy/device/kernels/"
MAX_SUBBLOCK_BYTES = 65536 * 4
DRAM_ALIGNMENT, L1_ALIGNMENT = 64, 16  # Blackhole's buffer alignments


def align(value, to):
    return -(-value // to) * to


def _alignment(tensor):
    return DRAM_ALIGNMENT if tensor.memory_config().buffer_type == ttnn.BufferType.DRAM else L1_ALIGNMENT


def _pages_in_row(tensor, row_elements):
    """(pages in a row, elements in a page): a shard's width for width- and block-sharded tensors."""
    mc = tensor.memory_config()
    if mc.is_sharded() and mc.memory_layout != ttnn.TensorMemoryLayout.HEIGHT_SHARDED:
        width = mc.shard_spec.shape[1]
        return ceil_div(row_elements, width), width
    return 1, row_elements


def copy_row_major_program(src, dst):
    device = src.device()
    grid = device.compute_with_storage_grid_size()
    element_bytes = src.element_size()
    row_elements = src.shape[-1]
    rows = src.volume() // row_elements
    in_pages, in_page_elements = _pages_in_row(src, row_elements)
    out_pages, out_page_elements = _pages_in_row(dst, row_elements)
    unit_elements = math.gcd(in_page_elements, out_page_elements)
    unit_bytes = unit_elements * element_bytes
    alignment = max(_alignment(src), _alignment(dst))
    if unit_elements < row_elements and unit_bytes <= MAX_SUBBLOCK_BYTES and unit_bytes % alignment == 0:
        return _parallel(src, dst, grid, rows, row_elements, element_bytes, in_pages, in_page_elements, out_pages,
                         out_page_elements, unit_elements, align(unit_bytes, alignment))  # fmt: skip
    num_cores, all_cores, _, group_2, rows_1, rows_2 = ttnn.split_work_to_cores(grid, rows)
    input_page = in_page_elements * element_bytes
    output_entry = align(out_page_elements * element_bytes, _alignment(dst))
    in_subblock, out_subblock = input_page, out_page_elements * element_bytes
    if input_page > MAX_SUBBLOCK_BYTES:
        input_page = in_subblock = MAX_SUBBLOCK_BYTES
    if output_entry > MAX_SUBBLOCK_BYTES:
        output_entry = out_subblock = MAX_SUBBLOCK_BYTES
    rt = ttnn.RuntimeArgs()
    start = 0
    for core in corerange_to_cores(all_cores, num_cores, row_wise=True):
        n = rows_2 if group_2.contains(core) else rows_1
        rt[core.x][core.y] = [start, n]
        start += n
    assert start == rows
    out_page = 0  # the one DataflowBuffer: output subblocks, reader to writer
    shared = [("num_output_pages_in_row", out_pages), ("elements_per_output_page", out_page_elements),
              ("bytes_per_element", element_bytes), ("elements_per_tensor_row", row_elements),
              ("bytes_per_output_subblock", out_subblock)]  # fmt: skip
    kernels = [
        metal2(KERNELS + "redistribute_pages_row_major_reader.cpp", all_cores, ttnn.ReaderConfigDescriptor(),
               cta=shared + [("num_input_pages_in_row", in_pages), ("elements_per_input_page", in_page_elements),
                             ("bytes_per_input_subblock", in_subblock)],
               rta_names=["start_row", "num_rows_to_process"], rt=rt, dfbs={"in1": out_page},
               tensors=[("src", src)], scratchpads={"in0": input_page}),
        metal2(KERNELS + "redistribute_pages_row_major_writer.cpp", all_cores, ttnn.WriterConfigDescriptor(),
               cta=shared, rta_names=["start_row", "num_rows_to_process"], rt=rt, dfbs={"in1": out_page},
               tensors=[("dst", dst)]),
    ]  # fmt: skip
    cbs = [dfb(out_page, dst.dtype, output_entry, 2, all_cores)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def _parallel(src, dst, grid, rows, row_elements, element_bytes, in_pages, in_page_elements, out_pages,
              out_page_elements, unit_elements, unit_entry):
    """The units path: each core takes a run of units (row-major over rows and the units of a row);
    the one DataflowBuffer holds two units."""
    units_per_row = ceil_div(row_elements, unit_elements)
    num_cores, all_cores, _, group_2, units_1, units_2 = ttnn.split_work_to_cores(grid, rows * units_per_row)
    rt = ttnn.RuntimeArgs()
    start = 0
    for core in corerange_to_cores(all_cores, num_cores, row_wise=True):
        n = units_2 if group_2.contains(core) else units_1
        rt[core.x][core.y] = [start, n]
        start += n
    assert start == rows * units_per_row
    unit = 0  # the one DataflowBuffer
    common = [("units_per_row", units_per_row), ("row_elements", row_elements), ("unit_elements", unit_elements),
              ("element_bytes", element_bytes)]  # fmt: skip
    kernels = [
        metal2(KERNELS + "redistribute_pages_row_major_parallel_reader.cpp", all_cores, ttnn.ReaderConfigDescriptor(),
               cta=common + [("input_pages_per_row", in_pages), ("input_page_elements", in_page_elements)],
               rta_names=["start_unit", "num_units"], rt=rt, dfbs={"unit": unit}, tensors=[("src", src)]),
        metal2(KERNELS + "redistribute_pages_row_major_parallel_writer.cpp", all_cores, ttnn.WriterConfigDescriptor(),
               cta=common + [("output_pages_per_row", out_pages), ("output_page_elements", out_page_elements)],
               rta_names=["start_unit", "num_units"], rt=rt, dfbs={"unit": unit}, tensors=[("dst", dst)]),
    ]  # fmt: skip
    cbs = [dfb(unit, src.dtype, unit_entry, 2, all_cores)]
    return ttnn.generic_op([src, dst], ttnn.ProgramDescriptor(kernels=kernels, semaphores=[], cbs=cbs))


def _copy_case(device, values, dtype, src_config, dst_config):
    """Copies `values` from a tensor in src_config into one in dst_config; checks the copy is exact."""
    src = ttnn.from_torch(values, dtype=dtype, layout=ttnn.ROW_MAJOR_LAYOUT, device=device, memory_config=src_config)
    dst = ttnn.allocate_tensor_on_device(ttnn.Shape(list(values.shape)), dtype, ttnn.ROW_MAJOR_LAYOUT, device,
                                         dst_config)  # fmt: skip
    got = ttnn.to_torch(copy_row_major_program(src, dst))
    assert torch.equal(got.to(values.dtype), values)


@pytest.mark.parametrize("shape,dtype,dst_config", [
    ([2, 3, 40, 200], ttnn.bfloat16, ttnn.DRAM_MEMORY_CONFIG),  # 240 rows: 3 on each of 20 cores, 2 on 90
    ([7, 24], ttnn.uint32, ttnn.L1_MEMORY_CONFIG),              # 96 B rows, DRAM into L1, one row per core
    ([3, 131200], ttnn.bfloat16, ttnn.DRAM_MEMORY_CONFIG),      # 262,400 B rows: a 256 KiB subblock and 256 B
], ids=["240-rows", "uint32-to-l1", "rows-over-256KiB"])  # fmt: skip
def test_copy_row_major(device, shape, dtype, dst_config):
    g = torch.Generator().manual_seed(7)
    if dtype == ttnn.uint32:
        values = torch.randint(0, 1 << 30, shape, generator=g, dtype=torch.int32)
    else:
        values = torch.randn(shape, generator=g).to(torch.bfloat16)
    _copy_case(device, values, dtype, ttnn.DRAM_MEMORY_CONFIG, dst_config)


def _width_shards(shape, width):
    """WIDTH_SHARDED in L1: every row, `width` columns a shard, on the first cores of grid row 0."""
    if width is None:
        return ttnn.DRAM_MEMORY_CONFIG
    shards = shape[-1] // width
    grid = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(shards - 1, 0))])
    rows = math.prod(shape[:-1])
    return ttnn.MemoryConfig(ttnn.TensorMemoryLayout.WIDTH_SHARDED, ttnn.BufferType.L1,
                             ttnn.ShardSpec(grid, [rows, width], ttnn.ShardOrientation.ROW_MAJOR))  # fmt: skip


@pytest.mark.parametrize("shape,src_width,dst_width", [
    ([64, 256], None, 64),  # units of 64 (128 B): 256 units, 3 on each of 36 cores, 2 on 74
    ([64, 256], 64, None),  # the same units read from the shards
    ([40, 160], 40, 32),    # shards of 40 into shards of 32: units of 8 (16 B, L1's alignment)
    ([48, 160], None, 40),  # 80 B pages, no unit DRAM's 64 B divides: whole rows, 4 output pages each
    ([48, 160], 40, None),  # whole rows from 4 input pages each
], ids=["dram-to-width-shards", "width-shards-to-dram", "width-shards-to-narrower", "rows-into-80B-pages",
        "rows-from-80B-pages"])  # fmt: skip
def test_copy_row_major_width_sharded(device, shape, src_width, dst_width):
    values = torch.randn(shape, generator=torch.Generator().manual_seed(7)).to(torch.bfloat16)
    _copy_case(device, values, ttnn.bfloat16, _width_shards(shape, src_width), _width_shards(shape, dst_width))

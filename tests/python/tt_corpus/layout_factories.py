"""tt-metal 0.81.1's work-split helpers as its data-layout program factories call them, and the
Metal 2.0 kernel descriptors those factories build, for the data-layout corpus tests.

The helpers reproduce the per-core order each factory walks, which fixes which core gets which
rows or tiles (and so each core's start ids): corerange_to_cores walks a range column by column
unless row_wise, split_blocks_for_tilize hands whole tile rows ("blocks") to cores and leaves the
remainder to one cliff core."""
import ditmk.ttnn as ttnn
from ditmk.ttnn import experimental

TILE = 32
TILE_BYTES = TILE * TILE * 2  # a bf16 tile


def ceil_div(a, b):
    return -(-a // b)


def single_core():
    return ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(0, 0))])


def ranges_of(cores):
    """A CoreRangeSet of 1x1 ranges, one per core, in the given order (as the factories build them)."""
    return ttnn.CoreRangeSet([ttnn.CoreRange(c, c) for c in cores])


def corerange_to_cores(crs, max_cores=None, row_wise=False):
    """tt-metal's corerange_to_cores: ranges in set order; inside a range x outer and y inner
    (column by column), or y outer and x inner when row_wise."""
    out = []
    for r in crs.ranges():
        if row_wise:
            cores = [ttnn.CoreCoord(x, y) for y in range(r.start.y, r.end.y + 1) for x in range(r.start.x, r.end.x + 1)]
        else:
            cores = [ttnn.CoreCoord(x, y) for x in range(r.start.x, r.end.x + 1) for y in range(r.start.y, r.end.y + 1)]
        out.extend(cores)
    return out if max_cores is None else out[:max_cores]


def split_blocks_for_tilize_set(grid, nblocks):
    """ttnn::split_blocks_for_tilize(const CoreRangeSet&, nblocks) -> (ncores, full cores, cliff core
    or None, blocks per full core, blocks on the cliff core): the set's cores in corerange_to_cores
    order, each full core ceil(nblocks / cores) blocks, the remainder on the next core."""
    per_core = ceil_div(nblocks, grid.num_cores())
    ncores = ceil_div(nblocks, per_core)
    cliff = nblocks % per_core
    cores = corerange_to_cores(grid)
    full = cores[:ncores - (1 if cliff else 0)]
    return ncores, full, (cores[len(full)] if cliff else None), per_core, cliff


def split_blocks_for_tilize_grid(grid_size, nblocks):
    """ttnn::split_blocks_for_tilize(CoreCoord grid, nblocks): the same counts over a gx x gy grid,
    walked row by row; returns (ncores, full cores row by row, cliff core or None, per core, cliff)."""
    gx, gy = grid_size.x, grid_size.y
    per_core = ceil_div(nblocks, gx * gy)
    ncores = ceil_div(nblocks, per_core)
    cliff = nblocks % per_core
    cores = [ttnn.CoreCoord(i % gx, i // gx) for i in range(ncores)]
    full = cores[:ncores - (1 if cliff else 0)]
    return ncores, full, (cores[-1] if cliff else None), per_core, cliff


def dfb(index, dtype, entry_size, entries, cores):
    """A DataflowBuffer of the ProgramSpec as the CB it is here (MakeProgramFromSpec picks the ids)."""
    fmt = ttnn.CBFormatDescriptor(buffer_index=index, data_format=dtype, page_size=entry_size)
    return ttnn.CBDescriptor(total_size=entries * entry_size, core_ranges=cores, format_descriptors=[fmt])


def metal2(source, cores, config, *, cta=(), rta_names=(), rt=None, dfbs=None, tensors=(), defines=(),
           tensor_sequences=None, scratchpads=None):
    """A Metal 2.0 KernelSpec as a bound ttnn.KernelDescriptor: named compile-time args `cta`
    (name, value) pairs, named runtime args `rta_names` whose per-core values are in `rt` (then the
    core's runtime varargs), dataflow buffers, tensors, tensor sequences and scratchpads by name."""
    k = ttnn.KernelDescriptor(kernel_source=source, core_ranges=cores, named_compile_time_args=list(cta),
                              defines=list(defines), runtime_args=rt if rt is not None else ttnn.RuntimeArgs(),
                              config=config)  # fmt: skip
    return experimental.bind(k, experimental.Metal2Bindings(named_runtime_args=rta_names, dataflow_buffers=dfbs,
                                                            tensors=tensors, tensor_sequences=tensor_sequences,
                                                            scratchpads=scratchpads))  # fmt: skip


def grid_to_cores(num_cores, grid_x, grid_y, row_wise=False):
    """tt-metal's grid_to_cores: the first num_cores cores of a grid_x x grid_y grid, column by column
    (x = i / grid_y) unless row_wise (x = i % grid_x)."""
    if row_wise:
        return [ttnn.CoreCoord(i % grid_x, i // grid_x) for i in range(num_cores)]
    return [ttnn.CoreCoord(i // grid_y, i % grid_y) for i in range(num_cores)]


def device_grid(device):
    """The whole compute grid as one CoreRangeSet (a factory's all_device_cores) and its size."""
    grid = device.compute_with_storage_grid_size()
    full = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(grid.x - 1, grid.y - 1))])
    return full, grid

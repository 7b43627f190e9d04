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


def largest_divisor(dividend, starting_divisor, divisor_factor=1):
    """untilize_helper::get_largest_divisor: the largest d <= starting_divisor with d * divisor_factor
    dividing dividend (1 if none)."""
    for d in range(starting_divisor, 0, -1):
        if dividend % (d * divisor_factor) == 0:
            return d
    return 1


def closest_square_larger_than_b(b, width, height, ref):
    """ttnn's closest_square_larger_than_b: (blocks per core, block side) for the 2-D split, the
    smallest square block (from isqrt(b), then larger sides) whose count over width x height tiles
    stays under ref cores."""
    if ref <= 0:
        return 1, 1
    side = int(b ** 0.5)
    while side * side > b:
        side -= 1
    if side * side == b and ceil_div(width, side) * ceil_div(height, side) < ref:
        return b, side
    for candidate in range(side + 1, width * height + 1):
        if ceil_div(width, candidate) * ceil_div(height, candidate) < ref:
            return candidate * candidate, candidate
    return 1, 1


def split_blocks_for_tilize_wh(cores, nblocks, width_tiles, height_tiles):
    """ttnn::split_blocks_for_tilize_wh over `cores`, listed in the order the overload hands them out
    (the CoreCoord overload: the device grid row by row; the CoreRangeSet one: corerange_to_cores
    order, column by column); square blocks small enough for the L1 limit (the limit only shrinks
    blocks wider than it allows; the blocks here are well under it, so the sub-block is the block).
    Returns a dict with the block side, the cliff row's and cliff column's sizes, the cores per block
    row and column, and the cores of the four regions (full, cliff_row, cliff_col, cliff_col_row),
    and all of them in the order they were handed out."""
    grid_area = len(cores)
    per_core = ceil_div(nblocks, grid_area)
    _, side = closest_square_larger_than_b(per_core, width_tiles, height_tiles, grid_area)
    blocks_w, blocks_h = ceil_div(width_tiles, side), ceil_div(height_tiles, side)
    full_per_row, full_per_col = width_tiles // side, height_tiles // side
    split = dict(side=side, sub_block=side, cliff_row=width_tiles - full_per_row * side,
                 cliff_col=height_tiles - full_per_col * side, full_per_row=full_per_row, full_per_col=full_per_col,
                 has_cliff_row=full_per_row < blocks_w, has_cliff_col=full_per_col < blocks_h,
                 ncores=blocks_w * blocks_h, order=[],
                 regions={"full": [], "cliff_row": [], "cliff_col": [], "cliff_col_row": []})  # fmt: skip
    block_row = ["full"] * full_per_row + (["cliff_row"] if split["has_cliff_row"] else [])
    cliff_block_row = ["cliff_col"] * full_per_row + (["cliff_col_row"] if split["has_cliff_row"] else [])
    order = block_row * full_per_col + (cliff_block_row if split["has_cliff_col"] else [])
    for i, region in enumerate(order):
        core = cores[i]
        split["regions"][region].append(core)
        split["order"].append(core)
    assert len(split["order"]) == split["ncores"]
    return split


def grid_to_cores(num_cores, grid_x, grid_y, row_wise=False):
    """tt-metal's grid_to_cores: the first num_cores cores of a grid_x x grid_y grid, column by column
    (core i is (i // grid_y, i % grid_y)) unless row_wise."""


def grid_to_cores(num_cores, grid_x, grid_y, row_wise=False):
    """tt-metal's grid_to_cores: the first num_cores cores of a grid_x x grid_y grid, column by column
    (x = i / grid_y) unless row_wise (x = i % grid_x)."""
    if row_wise:
        return [ttnn.CoreCoord(i % grid_x, i // grid_x) for i in range(num_cores)]
    return [ttnn.CoreCoord(i // grid_y, i % grid_y) for i in range(num_cores)]


def split_work_to_cores_aligned(grid_size, units, alignment):
    """The embedding factories' split_work_to_cores_aligned -> (cores needed, all cores, units per core,
    units on the last core): every core a multiple of `alignment` units (one multiple while they fit
    the grid, else the smallest multiple that spreads them over it), the last core the rest; the
    cores are the grid's first ones column by column."""
    total = grid_size.x * grid_size.y
    per_core = alignment
    needed = ceil_div(units, per_core)
    if needed > total:
        per_core = ceil_div(ceil_div(units, total), alignment) * alignment
        needed = ceil_div(units, per_core)
    last = units - (needed - 1) * per_core
    return needed, ttnn.num_cores_to_corerangeset(needed, grid_size, False), per_core, last


def device_grid(device):
    """The whole compute grid as one CoreRangeSet (a factory's all_device_cores) and its size."""
    grid = device.compute_with_storage_grid_size()
    full = ttnn.CoreRangeSet([ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(grid.x - 1, grid.y - 1))])
    return full, grid

"""ttnn's core coordinates and sets of core ranges, and its helpers that split work over cores."""


class CoreCoord:
    """A logical worker core (x: column, y: row), as ttnn.CoreCoord."""

    def __init__(self, x, y):
        self.x = int(x)
        self.y = int(y)

    def __eq__(self, other):
        return isinstance(other, CoreCoord) and (self.x, self.y) == (other.x, other.y)

    def __lt__(self, other):
        return (self.y, self.x) < (other.y, other.x)

    def __hash__(self):
        return hash((self.x, self.y))

    def __repr__(self):
        return f"(x={self.x},y={self.y})"


class CoreRange:
    """An inclusive rectangle of cores from `start` to `end`, as ttnn.CoreRange."""

    def __init__(self, start, end):
        if not isinstance(start, CoreCoord) or not isinstance(end, CoreCoord):
            raise TypeError("CoreRange(start, end) takes two ttnn.CoreCoord")
        if end.x < start.x or end.y < start.y:
            raise ValueError(f"CoreRange: end {end} lies before start {start}")
        self.start = start
        self.end = end

    def grid_size(self):
        return CoreCoord(self.end.x - self.start.x + 1, self.end.y - self.start.y + 1)

    def size(self):
        g = self.grid_size()
        return g.x * g.y

    def contains(self, other):
        if isinstance(other, CoreCoord):
            return self.start.x <= other.x <= self.end.x and self.start.y <= other.y <= self.end.y
        return self.contains(other.start) and self.contains(other.end)

    def intersects(self, other):
        return not (other.end.x < self.start.x or self.end.x < other.start.x or other.end.y < self.start.y
                    or self.end.y < other.start.y)

    def cores(self):
        """Row-major, as the descriptor lists a range's cores."""
        return [CoreCoord(x, y) for y in range(self.start.y, self.end.y + 1) for x in range(self.start.x, self.end.x + 1)]

    def __eq__(self, other):
        return isinstance(other, CoreRange) and (self.start, self.end) == (other.start, other.end)

    def __hash__(self):
        return hash((self.start, self.end))

    def __repr__(self):
        return f"[{self.start} - {self.end}]"


class CoreRangeSet:
    """Disjoint core ranges, as ttnn.CoreRangeSet: built from a CoreRange, or a set or list of them."""

    def __init__(self, ranges=()):
        if isinstance(ranges, CoreRange):
            ranges = [ranges]
        ranges = list(ranges)
        for r in ranges:
            if not isinstance(r, CoreRange):
                raise TypeError(f"CoreRangeSet takes ttnn.CoreRange objects, not {type(r).__name__}")
        for i, a in enumerate(ranges):
            for b in ranges[:i]:
                if a.intersects(b):
                    raise ValueError(f"CoreRangeSet: ranges {b} and {a} overlap")
        self._ranges = ranges

    def ranges(self):
        return list(self._ranges)

    def num_cores(self):
        return sum(r.size() for r in self._ranges)

    def size(self):
        return len(self._ranges)

    def empty(self):
        return not self._ranges

    def contains(self, other):
        return any(r.contains(other) for r in self._ranges)

    def bounding_box(self):
        if not self._ranges:
            raise ValueError("CoreRangeSet.bounding_box: the set is empty")
        return CoreRange(CoreCoord(min(r.start.x for r in self._ranges), min(r.start.y for r in self._ranges)),
                         CoreCoord(max(r.end.x for r in self._ranges), max(r.end.y for r in self._ranges)))

    def merge(self, other):
        return CoreRangeSet(self._ranges + [r for r in other.ranges() if r not in self._ranges])

    def cores(self):
        seen, out = set(), []
        for r in self._ranges:
            for c in r.cores():
                if c not in seen:
                    seen.add(c)
                    out.append(c)
        return out

    def __eq__(self, other):
        return isinstance(other, CoreRangeSet) and set(self._ranges) == set(other.ranges())

    def __hash__(self):
        return hash(frozenset(self._ranges))

    def __repr__(self):
        return "{" + ", ".join(repr(r) for r in self._ranges) + "}"


def _as_grid(grid):
    if isinstance(grid, CoreCoord):
        return grid
    if isinstance(grid, (tuple, list)) and len(grid) == 2:
        return CoreCoord(*grid)
    raise TypeError(f"a grid size is a ttnn.CoreCoord, not {type(grid).__name__}")


def _ranges_of(cores, row_wise):
    """Ordered cores -> ranges: runs along the walking order, merged into rectangles."""
    runs = []  # (fixed coordinate, first, last) along the walk
    for c in cores:
        major, minor = (c.y, c.x) if row_wise else (c.x, c.y)
        if runs and runs[-1][0] == major and runs[-1][2] + 1 == minor:
            runs[-1][2] = minor
        else:
            runs.append([major, minor, minor])
    merged = []  # [first major, last major, first minor, last minor]
    for major, lo, hi in runs:
        if merged and merged[-1][1] + 1 == major and merged[-1][2:] == [lo, hi]:
            merged[-1][1] = major
        else:
            merged.append([major, major, lo, hi])
    out = []
    for m0, m1, lo, hi in merged:
        if row_wise:
            out.append(CoreRange(CoreCoord(lo, m0), CoreCoord(hi, m1)))
        else:
            out.append(CoreRange(CoreCoord(m0, lo), CoreCoord(m1, hi)))
    return out


def _walk(cores, row_wise):
    return sorted(cores, key=(lambda c: (c.y, c.x)) if row_wise else (lambda c: (c.x, c.y)))


def num_cores_to_corerangeset(target_num_cores, grid_size, row_wise=False):
    """The first `target_num_cores` cores of a grid_size grid, walking rows (row_wise) or columns."""
    grid = _as_grid(grid_size)
    target = int(target_num_cores)
    if target > grid.x * grid.y:
        raise ValueError(f"num_cores_to_corerangeset: {target} cores do not fit a {grid.x}x{grid.y} grid")
    cores = _walk([CoreCoord(x, y) for x in range(grid.x) for y in range(grid.y)], row_wise)[:target]
    return CoreRangeSet(_ranges_of(cores, row_wise))


def split_work_to_cores(grid, units_to_divide, row_wise=False):
    """ttnn.split_work_to_cores(grid_size or core_grid, units_to_divide, row_wise=False) ->
    (num_cores, all_cores, core_group_1, core_group_2, units_per_core_group_1, units_per_core_group_2):
    as many cores as there are units (at most all of them); when the units do not divide evenly, the
    first units % cores cores (group 1) take one unit more than the others (group 2)."""
    if isinstance(grid, CoreRangeSet):
        cores = _walk(grid.cores(), row_wise)
    else:
        g = _as_grid(grid)
        cores = _walk([CoreCoord(x, y) for x in range(g.x) for y in range(g.y)], row_wise)
    units = int(units_to_divide)
    if units == 0:
        return 0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0
    target = min(units, len(cores))
    used = cores[:target]
    per_core = units // target
    if units % target == 0:
        all_cores = CoreRangeSet(_ranges_of(used, row_wise))
        return target, all_cores, all_cores, CoreRangeSet(), per_core, 0
    more = units % target
    return (target, CoreRangeSet(_ranges_of(used, row_wise)), CoreRangeSet(_ranges_of(used[:more], row_wise)),
            CoreRangeSet(_ranges_of(used[more:], row_wise)), per_core + 1, per_core)

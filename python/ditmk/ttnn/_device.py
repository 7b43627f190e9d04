"""The emulated device: its grid, options, and the allocator that gives tensors their addresses.

The allocator mirrors the program descriptor's model (docs/tt-dialect.md), so the addresses a
program takes as runtime args are where generic_op's launch places the tensors: DRAM-interleaved
tensors at one bank-local address in every bank, upwards from 64 (address 0 means "no tensor");
L1 tensors (interleaved: one bank per worker core; sharded: the same address on each of their
cores) downwards from the top of L1, so that a program's CBs, which the launch places upwards from
the bottom of usable L1, lie below them. Freed ranges are reused first-fit.
"""
from .. import _ditmk
from ._cores import CoreCoord
from ._errors import not_modelled

DRAM_BANKS = 8
DRAM_ALIGNMENT = 64
L1_BYTES = 1536 * 1024
L1_USABLE_BYTES = 1427 * 1024
L1_CB_BASE = L1_BYTES - L1_USABLE_BYTES
L1_ALIGNMENT = 16
L1_ALLOCATION_ALIGNMENT = 32  # the descriptor's L1 regions start on 32 B
GRID = tuple(_ditmk.tt_grid)  # (11, 10): Blackhole p150's worker grid
L1_BANKS = GRID[0] * GRID[1]


def _align(value, alignment):
    return (value + alignment - 1) // alignment * alignment


class _Ranges:
    """First-fit allocation of [begin, end) ranges inside [low, high); `downwards` takes the highest
    fitting address (L1), otherwise the lowest (DRAM)."""

    def __init__(self, low, high, alignment, downwards, what):
        self.low, self.high, self.alignment, self.downwards, self.what = low, high, alignment, downwards, what
        self.used = {}  # begin -> end

    def allocate(self, size):
        size = _align(max(size, 1), self.alignment)
        taken = sorted(self.used.items())
        gaps, cursor = [], self.low
        for begin, end in taken:
            if begin > cursor:
                gaps.append((cursor, begin))
            cursor = max(cursor, end)
        gaps.append((cursor, self.high))
        fits = [(b, e) for b, e in gaps if e - b >= size]
        if not fits:
            raise MemoryError(f"out of {self.what}: no free {size} B range (of {self.high - self.low} B)")
        if self.downwards:
            begin = (fits[-1][1] - size) // self.alignment * self.alignment
        else:
            begin = fits[0][0]
        self.used[begin] = begin + size
        return begin

    def free(self, begin):
        self.used.pop(begin, None)


class Device:
    """The emulated Blackhole chip (ttnn's Device). Options beyond ttnn's are ditmk's: `timing`
    (predict each launch's time), `trace` (a Chrome trace file of the last launch), `report` (the
    last launch's report as JSON), `kernel_cache`, `kernel_root` (default $TT_METAL_HOME),
    `watchdog` (seconds a kernel may run without progress) and `strict`; generic_op takes the same
    keywords per call. `last_report` holds the last launch's report as a dict."""

    def __init__(self, device_id=0, *, timing=False, trace=None, report=None, kernel_cache=None, kernel_root=None,
                 watchdog=None, strict=False):
        self._id = int(device_id)
        self.options = dict(timing=timing, trace=trace, report=report, kernel_cache=kernel_cache,
                            kernel_root=kernel_root, watchdog=watchdog, strict=strict)
        self.last_report = None
        self._dram = _Ranges(DRAM_ALIGNMENT, 1 << 32, DRAM_ALIGNMENT, False, "DRAM")
        self._l1 = _Ranges(L1_CB_BASE, L1_BYTES, L1_ALLOCATION_ALIGNMENT, True, "L1")
        self._open = True

    def id(self):
        return self._id

    def compute_with_storage_grid_size(self):
        return CoreCoord(*GRID)

    def dram_grid_size(self):
        return CoreCoord(DRAM_BANKS, 1)

    def get_num_devices(self):
        return 1

    def arch(self):
        return "blackhole"

    def is_open(self):
        return self._open

    def _check_open(self):
        if not self._open:
            raise RuntimeError(f"device {self._id} is closed")

    def _allocate(self, buffer_type, bank_bytes):
        self._check_open()
        return (self._dram if buffer_type == "dram" else self._l1).allocate(bank_bytes)

    def _free(self, buffer_type, address):
        (self._dram if buffer_type == "dram" else self._l1).free(address)

    def __repr__(self):
        return f"Device(id={self._id}, emulated Blackhole, {GRID[0]}x{GRID[1]} cores)"


def open_device(*, device_id=0, l1_small_size=0, trace_region_size=0, dispatch_core_config=None, worker_l1_size=0,
                **ditmk_options):
    """ttnn.open_device(device_id=...): the emulated chip. l1_small_size, trace_region_size and
    dispatch_core_config are accepted and have no effect (the emulated chip has no L1_SMALL or trace
    region and dispatches from the host); a nonzero worker_l1_size is refused. Keywords beyond
    ttnn's: see Device."""
    if worker_l1_size:
        raise not_modelled("open_device(worker_l1_size=...)", "workers have the fixed 1427 KiB of usable L1")
    if device_id != 0:
        raise not_modelled(f"device {device_id}", "there is one emulated chip, device 0")
    return Device(device_id, **ditmk_options)


def close_device(device):
    device._open = False


CreateDevice = open_device
CloseDevice = close_device

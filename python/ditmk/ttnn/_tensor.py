"""ttnn.Tensor on the emulated chip: a tensor's device bytes (its encoded pages, as the device holds
them) kept on the host side, and its address on the device. generic_op hands the bytes of its io
tensors to a launch and takes back what the kernels left there.

torch is optional: it is imported only when a torch tensor comes in or to_torch is called; numpy
arrays work everywhere a torch tensor does (a ditmk extension).
"""
import enum
import itertools

import numpy as np

from .. import _ditmk
from . import _device
from ._errors import not_modelled
from ._types import (BufferType, DataType, DRAM_MEMORY_CONFIG, Layout, MemoryConfig, ShardDistributionStrategy,
                     ShardOrientation, TensorMemoryLayout)

# bytes of one 32x32 tile and of one row-major element, per data type
TILE_BYTES = {DataType.BFLOAT16: 2048, DataType.FLOAT32: 4096, DataType.UINT32: 4096, DataType.BFLOAT8_B: 1088,
              DataType.UINT8: 1024, DataType.UINT16: 2048, DataType.INT32: 4096}
ELEMENT_BYTES = {DataType.BFLOAT16: 2, DataType.FLOAT32: 4, DataType.UINT32: 4, DataType.UINT8: 1,
                 DataType.UINT16: 2, DataType.INT32: 4}
_INTEGER = {DataType.UINT32, DataType.UINT8, DataType.UINT16, DataType.INT32}
_names = itertools.count()


class StorageType(enum.Enum):
    HOST = 0
    DEVICE = 1


class Shape:
    """ttnn.Shape: a tensor's dims, compared equal to a list or tuple of the same dims."""

    def __init__(self, dims):
        self._dims = tuple(int(d) for d in dims)

    @property
    def rank(self):
        return len(self._dims)

    def __len__(self):
        return len(self._dims)

    def __getitem__(self, i):
        return self._dims[i]

    def __iter__(self):
        return iter(self._dims)

    def __eq__(self, other):
        return tuple(other) == self._dims if isinstance(other, (Shape, list, tuple)) else NotImplemented

    def __hash__(self):
        return hash(self._dims)

    def volume(self):
        return int(np.prod(self._dims, dtype=np.int64)) if self._dims else 1

    def to_rank(self, rank):
        if rank < len(self._dims):
            raise ValueError(f"Shape.to_rank({rank}): {self} has rank {len(self._dims)}")
        return Shape((1,) * (rank - len(self._dims)) + self._dims)

    def __repr__(self):
        return f"Shape({list(self._dims)})"


class TensorSpec:
    """ttnn.TensorSpec(shape, dtype, layout, memory_config=DRAM): what allocate_tensor_on_device needs."""

    def __init__(self, shape, dtype, layout, memory_config=None, buffer_type=None):
        self.shape = Shape(shape)
        self.dtype = DataType(dtype)
        self.layout = Layout(layout)
        if memory_config is None:
            memory_config = MemoryConfig(TensorMemoryLayout.INTERLEAVED, buffer_type or BufferType.DRAM)
        self.memory_config = memory_config
        self.tile = None

    @property
    def padded_shape(self):
        return self.shape


def _page_size(dtype, layout, shape):
    if layout == Layout.TILE:
        return TILE_BYTES[dtype]
    if dtype not in ELEMENT_BYTES:
        raise ValueError(f"{dtype} is a block format of tiles: a ROW_MAJOR_LAYOUT tensor cannot hold it")
    return shape[-1] * ELEMENT_BYTES[dtype]


def _check(dtype, layout, shape):
    """What the emulated chip's tensors can be; one clear error otherwise."""
    dtype.device_name  # refuses dtypes the chip does not hold
    if len(shape) < 2:
        raise not_modelled(f"a tensor of rank {len(shape)}", "device tensors have 2 or more dims (reshape to [1, n])")
    if layout == Layout.TILE and (shape[-1] % 32 or shape[-2] % 32):
        raise not_modelled(f"padding a TILE_LAYOUT tensor of shape {list(shape)}",
                           "the last two dims must be multiples of 32")
    if layout == Layout.ROW_MAJOR and dtype == DataType.BFLOAT8_B:
        raise ValueError("bfloat8_b tensors must be in TILE_LAYOUT")


class _Placement:
    """Where a device tensor lies: its descriptor fields and address."""

    def __init__(self, device, dtype, layout, shape, memory_config):
        self.device = device
        self.memory_config = memory_config
        nbytes = _ditmk.tt_tensor_bytes(dtype.device_name, _layout_name(layout), list(shape))
        self.page_size = _page_size(dtype, layout, shape)
        self.cores = None
        self.shard_size = None
        self.page_grid = None  # sharded by width or ND: (the tensor's extents in pages, a shard's)
        mc = memory_config
        if mc.buffer_type == BufferType.DRAM and mc.is_sharded():
            self.memory = "dram_sharded"
            self._shard(dtype, layout, shape, mc)
            self._check_dram_shards()
            bank_bytes = self.shard_size
            self.pool = "dram"
        elif mc.buffer_type == BufferType.DRAM:
            self.memory = "dram_interleaved"
            pages = nbytes // self.page_size
            bank_bytes = -(-pages // _device.DRAM_BANKS) * _device._align(self.page_size, _device.DRAM_ALIGNMENT)
            self.pool = "dram"
        elif not mc.is_sharded():
            self.memory = "l1_interleaved"
            pages = nbytes // self.page_size
            bank_bytes = -(-pages // _device.L1_BANKS) * _device._align(self.page_size, _device.L1_ALIGNMENT)
            self.pool = "l1"
        else:
            self.memory = "l1_sharded"
            self._shard(dtype, layout, shape, mc)
            bank_bytes = self.shard_size
            self.pool = "l1"
        self.address = device._allocate(self.pool, bank_bytes)

    def _check_dram_shards(self):
        """A DRAM shard spec's grid is the DRAM banks (device.dram_grid_size(): x a bank, y 0); here shard k
        goes to bank k, so the grid must be banks 0..n-1, and a shard's pages lie back to back, so they
        must be whole DRAM alignment units."""
        banks = sorted(self.cores.cores(), key=lambda c: (c.y, c.x))
        if any(c.y != 0 or c.x != k for k, c in enumerate(banks)) or len(banks) > _device.DRAM_BANKS:
            raise not_modelled(f"DRAM shards on the banks {[(c.x, c.y) for c in banks]}",
                               f"DRAM shards go to banks 0..n-1 (a grid from (0, 0) to (n - 1, 0), n <= "
                               f"{_device.DRAM_BANKS})")
        if self.page_size % _device.DRAM_ALIGNMENT:
            raise not_modelled(f"DRAM-sharded pages of {self.page_size} B",
                               f"a DRAM shard's pages are whole {_device.DRAM_ALIGNMENT} B units")

    def _shard(self, dtype, layout, shape, mc):
        if mc.nd_shard_spec is not None:
            return self._shard_nd(dtype, layout, shape, mc.nd_shard_spec)
        spec = mc.shard_spec
        if spec is None:
            raise ValueError("a sharded memory config needs a shard_spec (ttnn.MemoryConfig(layout, L1, ShardSpec(...)))")
        if mc.memory_layout == TensorMemoryLayout.WIDTH_SHARDED:
            return self._shard_width(dtype, layout, shape, spec)
        if mc.memory_layout != TensorMemoryLayout.HEIGHT_SHARDED:
            raise not_modelled(f"{mc.memory_layout.name} tensors",
                               "the emulated chip shards by height or by width (HEIGHT_SHARDED, WIDTH_SHARDED)")
        if spec.orientation != ShardOrientation.ROW_MAJOR:
            raise not_modelled("ShardOrientation.COL_MAJOR", "shards go to the grid's cores in row-major order")
        height, width = spec.shape
        if width != shape[-1]:
            raise ValueError(f"HEIGHT_SHARDED: shard width {width} is not the tensor's width {shape[-1]}")
        if layout == Layout.TILE and height % 32:
            raise ValueError(f"HEIGHT_SHARDED: shard height {height} is not whole tiles (a multiple of 32)")
        rows = int(np.prod(shape[:-1]))
        cores = spec.grid.cores()
        if -(-rows // height) > len(cores):
            raise ValueError(f"HEIGHT_SHARDED: {rows} rows in shards of {height} need {-(-rows // height)} cores, "
                             f"the grid has {len(cores)}")
        if layout == Layout.TILE:
            self.shard_size = (height // 32) * (width // 32) * TILE_BYTES[dtype]
        else:
            self.shard_size = height * width * ELEMENT_BYTES[dtype]
        self.cores = spec.grid

    def _shard_width(self, dtype, layout, shape, spec):
        """WIDTH_SHARDED: every row in each shard, shard k (columns [k * width, (k + 1) * width)) on
        the k-th core in row-major order; a row-major tensor's page is a shard's width of a row, a
        tile tensor's a tile. Page p of the tensor is (row, column of pages), row-major."""
        if spec.orientation != ShardOrientation.ROW_MAJOR:
            raise not_modelled("ShardOrientation.COL_MAJOR", "shards go to the grid's cores in row-major order")
        height, width = spec.shape
        rows = int(np.prod(shape[:-1]))
        if height != rows:
            raise ValueError(f"WIDTH_SHARDED: shard height {height} is not the tensor's {rows} rows")
        if shape[-1] % width:
            raise not_modelled(f"a WIDTH_SHARDED shard width {width} that does not divide the width {shape[-1]}",
                               "the emulated chip's shards are whole")
        shards = shape[-1] // width
        if shards > spec.grid.num_cores():
            raise ValueError(f"WIDTH_SHARDED: {shards} shards of width {width} need {shards} cores, "
                             f"the grid has {spec.grid.num_cores()}")
        if layout == Layout.TILE:
            if height % 32 or width % 32:
                raise ValueError(f"WIDTH_SHARDED: shard shape {[height, width]} is not whole tiles")
            self.page_grid = ([rows // 32, shape[-1] // 32], [rows // 32, width // 32])
            self.shard_size = (height // 32) * (width // 32) * TILE_BYTES[dtype]
        else:
            self.page_size = width * ELEMENT_BYTES[dtype]
            self.page_grid = ([rows, shards], [rows, 1])
            self.shard_size = height * width * ELEMENT_BYTES[dtype]
        self.cores = spec.grid

    def _shard_nd(self, dtype, layout, shape, spec):
        """ND_SHARDED: the tensor cut into whole shards of spec.shard_shape, the shards row-major over
        the grid of shards, shard k on the k-th core of the grid in row-major order; a tile tensor's
        page is a tile, a row-major tensor's a shard's width of a row. Its page grid is the tensor's
        extents in pages and a shard's, one per dim."""
        if spec.orientation != ShardOrientation.ROW_MAJOR:
            raise not_modelled("ShardOrientation.COL_MAJOR", "shards go to the grid's cores in row-major order")
        if spec.shard_distribution_strategy != ShardDistributionStrategy.ROUND_ROBIN_1D:
            raise not_modelled(f"ShardDistributionStrategy.{spec.shard_distribution_strategy.name}",
                               "shards go to the grid's cores one after another (ROUND_ROBIN_1D)")
        shard = spec.shard_shape
        if len(shard) != len(shape):
            raise ValueError(f"ND_SHARDED: shard_shape {shard} has rank {len(shard)}, the tensor {list(shape)} "
                             f"rank {len(shape)}")
        if any(t % s for t, s in zip(shape, shard)):
            raise not_modelled(f"an ND shard_shape {shard} that does not cut the tensor {list(shape)} evenly",
                               "the emulated chip's shards are whole")
        shards = int(np.prod([t // s for t, s in zip(shape, shard)]))
        if shards > spec.grid.num_cores():
            raise not_modelled(f"{shards} ND shards on {spec.grid.num_cores()} cores",
                               "each core holds one shard (round-robin over fewer cores is not modelled)")
        if layout == Layout.TILE:
            if shard[-1] % 32 or shard[-2] % 32:
                raise ValueError(f"ND_SHARDED: shard_shape {shard} is not whole tiles in its last two dims")
            self.page_grid = ([*shape[:-2], shape[-2] // 32, shape[-1] // 32],
                              [*shard[:-2], shard[-2] // 32, shard[-1] // 32])
        else:
            self.page_size = shard[-1] * ELEMENT_BYTES[dtype]
            self.page_grid = ([*shape[:-1], shape[-1] // shard[-1]], [*shard[:-1], 1])
        self.shard_size = int(np.prod(self.page_grid[1])) * self.page_size
        self.cores = spec.grid


def _layout_name(layout):
    return "tile" if layout == Layout.TILE else "row_major"


class Tensor:
    """ttnn.Tensor: on the host (from_torch without a device) or on the emulated device."""

    def __init__(self, dtype, layout, shape, data=None, placement=None):
        self._dtype = DataType(dtype)
        self._layout = Layout(layout)
        self._shape = Shape(shape)
        self._bytes = data  # device encoding, or None: never written
        self._placement = placement
        self._name = f"t{next(_names)}"

    # ---- what ttnn.Tensor has ----
    @property
    def shape(self):
        return self._shape

    @property
    def padded_shape(self):
        return self._shape

    @property
    def logical_shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    def get_dtype(self):
        return self._dtype

    @property
    def layout(self):
        return self._layout

    def get_layout(self):
        return self._layout

    @property
    def spec(self):
        return TensorSpec(self._shape, self._dtype, self._layout, self.memory_config())

    def memory_config(self):
        return self._on_device("memory_config").memory_config

    def storage_type(self):
        return StorageType.DEVICE if self._placement is not None else StorageType.HOST

    def is_allocated(self):
        return self._placement is not None or self._bytes is not None

    def device(self):
        return self._on_device("device").device

    def buffer_address(self):
        return self._on_device("buffer_address").address

    def element_size(self):
        return ELEMENT_BYTES.get(self._dtype, 0)

    def volume(self):
        return self._shape.volume()

    def _nbytes(self):
        """Device bytes of the whole tensor."""
        return _ditmk.tt_tensor_bytes(self._dtype.device_name, _layout_name(self._layout), list(self._shape))

    def cpu(self, blocking=True, cq_id=None):
        return Tensor(self._dtype, self._layout, self._shape, self._read("cpu"))

    def to_torch(self):
        return to_torch(self)

    def to_numpy(self):
        """ditmk extension: the logical values as a numpy array (float32, or int32 for integer types)."""
        return _ditmk.tt_decode(self._dtype.device_name, _layout_name(self._layout), list(self._shape),
                                self._read("to_numpy"), self._name)

    def deallocate(self, force=True):
        if self._placement is not None:
            self._placement.device._free(self._placement.pool, self._placement.address)
            self._placement = None
        self._bytes = None

    def __repr__(self):
        where = (f"{self._placement.memory} at {self._placement.address:#x}" if self._placement is not None else "host")
        return f"ttnn.Tensor(shape={list(self._shape)}, dtype={self._dtype.name}, layout={self._layout.name}, {where})"

    def __getattr__(self, name):
        # ttnn.Tensor's other members (reshape, pad, to_layout, ...) are operations ditmk does not run
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(f"ditmk.ttnn does not model ttnn.Tensor.{name}: a tensor here holds data for generic_op")

    # ---- for generic_op ----
    def _on_device(self, what):
        if self._placement is None:
            raise RuntimeError(f"Tensor.{what}: the tensor is not on a device (ttnn.from_torch(..., device=device))")
        return self._placement

    def _read(self, what):
        if self._bytes is None:
            raise RuntimeError(f"Tensor.{what}: the tensor was allocated on the device and never written")
        return self._bytes

    def _descriptor(self):
        """The tensor as a program descriptor's io tensor, at its address."""
        p = self._on_device("generic_op")
        entry = {"name": self._name, "memory": p.memory, "layout": _layout_name(self._layout),
                 "data_format": self._dtype.device_name, "shape": list(self._shape), "page_size": p.page_size,
                 "address": p.address}
        if p.memory in ("l1_sharded", "dram_sharded"):
            entry["cores"] = [{"start": [r.start.x, r.start.y], "end": [r.end.x, r.end.y]} for r in p.cores.ranges()]
            entry["shard_size"] = p.shard_size
            if p.page_grid is not None:
                entry["tensor_pages"], entry["shard_pages"] = p.page_grid
        return entry


_TORCH_TO_TTNN = {"torch.bfloat16": DataType.BFLOAT16, "torch.float32": DataType.FLOAT32,
                  "torch.int32": DataType.INT32, "torch.uint8": DataType.UINT8, "torch.uint16": DataType.UINT16}
_NUMPY_TO_TTNN = {np.dtype(np.float32): DataType.FLOAT32, np.dtype(np.int32): DataType.INT32,
                  np.dtype(np.uint32): DataType.UINT32, np.dtype(np.uint8): DataType.UINT8,
                  np.dtype(np.uint16): DataType.UINT16}


def _values_of(tensor, dtype):
    """(numpy values the codec takes, the ttnn dtype: given, else inferred as ttnn infers it)."""
    if isinstance(tensor, np.ndarray):
        inferred = _NUMPY_TO_TTNN.get(tensor.dtype)
        values = tensor
    else:
        import torch  # only when a torch tensor comes in

        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f"from_torch takes a torch.Tensor or a numpy array, not {type(tensor).__name__}")
        inferred = _TORCH_TO_TTNN.get(str(tensor.dtype))
        t = tensor.detach().cpu()
        values = t.float().numpy() if t.is_floating_point() else t.to(torch.int64).numpy()
    if dtype is None:
        if inferred is None:
            raise ValueError(f"from_torch: give a dtype for a {getattr(tensor, 'dtype', type(tensor))} tensor")
        dtype = inferred
    dtype = DataType(dtype)
    if dtype in _INTEGER:
        values = np.asarray(values)
        values = values.astype(np.int64) if values.dtype.kind in "iub" else values.astype(np.float32)
    else:
        values = np.asarray(values, dtype=np.float32)
    return np.ascontiguousarray(values), dtype


def from_torch(tensor, dtype=None, *, spec=None, tile=None, pad_value=None, layout=None, device=None,
               memory_config=None, mesh_mapper=None, cq_id=None, preserve_nan_values=False, col_tilize=False,
               enable_bfloat_opt=False):
    """ttnn.from_torch: a host tensor, or one on `device` (DRAM interleaved unless memory_config says)."""
    if tensor is None:
        return None
    if spec is not None:
        for name, value in (("dtype", dtype), ("layout", layout), ("memory_config", memory_config), ("tile", tile)):
            if value is not None:
                raise RuntimeError(f"ttnn.from_torch: {name} must be None when spec is specified")
        dtype, layout, memory_config = spec.dtype, spec.layout, spec.memory_config
    for name, value in (("tile", tile), ("pad_value", pad_value), ("mesh_mapper", mesh_mapper)):
        if value is not None:
            raise not_modelled(f"from_torch({name}=...)")
    if col_tilize:
        raise not_modelled("from_torch(col_tilize=True)")
    values, dtype = _values_of(tensor, dtype)
    layout = Layout.ROW_MAJOR if layout is None else Layout(layout)
    shape = list(values.shape)
    _check(dtype, layout, shape)
    data = _ditmk.tt_encode(dtype.device_name, _layout_name(layout), shape, values, "from_torch")
    placement = None
    if device is not None:
        placement = _Placement(device, dtype, layout, shape, memory_config or DRAM_MEMORY_CONFIG)
    elif memory_config is not None:
        raise ValueError("ttnn.from_torch: memory_config needs a device")
    return Tensor(dtype, layout, shape, data, placement)


from_numpy = from_torch  # ditmk extension: the same for numpy arrays


def to_torch(tensor, dtype=None, *, torch_rank=None, mesh_composer=None, device=None, cq_id=None):
    """ttnn.to_torch: bfloat16 -> torch.bfloat16, float32 and bfloat8_b -> torch.float32, uint32 and
    int32 -> torch.int32 (uint32 as its bit pattern), uint16 -> torch.int32, uint8 -> torch.uint8."""
    import torch  # torch stays optional for everything else

    if mesh_composer is not None:
        raise not_modelled("to_torch(mesh_composer=...)", "there is one emulated chip")
    values = torch.from_numpy(np.ascontiguousarray(tensor.to_numpy()))
    natural = {DataType.BFLOAT16: torch.bfloat16, DataType.UINT8: torch.uint8}.get(tensor.dtype)
    if natural is not None:
        values = values.to(natural)
    if dtype is not None:
        values = values.to(dtype)
    if torch_rank is not None:
        while values.dim() > torch_rank:
            if values.shape[0] != 1:
                raise RuntimeError(f"to_torch: cannot squeeze {list(values.shape)} to rank {torch_rank}")
            values = values.squeeze(0)
    return values


def to_numpy(tensor):
    """ditmk extension: ttnn.to_torch without torch (float32, or int32 for integer types)."""
    return tensor.to_numpy()


def allocate_tensor_on_device(*args, **kwargs):
    """ttnn.allocate_tensor_on_device(shape, dtype, layout, device, memory_config=None) or
    (tensor_spec, device): a device tensor whose bytes are unwritten until a kernel writes them."""
    if args and isinstance(args[0], TensorSpec) or "spec" in kwargs or "tensor_spec" in kwargs:
        spec = args[0] if args else kwargs.pop("spec", kwargs.pop("tensor_spec", None))
        device = args[1] if len(args) > 1 else kwargs["device"]
        shape, dtype, layout, memory_config = spec.shape, spec.dtype, spec.layout, spec.memory_config
    else:
        names = ["shape", "dtype", "layout", "device", "memory_config"]
        values = dict(zip(names, args))
        values.update(kwargs)
        missing = [n for n in names[:4] if n not in values]
        if missing:
            raise TypeError(f"allocate_tensor_on_device: missing {', '.join(missing)}")
        shape, dtype, layout, device = values["shape"], values["dtype"], values["layout"], values["device"]
        memory_config = values.get("memory_config")
    dtype, layout, shape = DataType(dtype), Layout(layout), list(shape)
    _check(dtype, layout, shape)
    placement = _Placement(device, dtype, layout, shape, memory_config or DRAM_MEMORY_CONFIG)
    return Tensor(dtype, layout, shape, None, placement)


def to_device(tensor, device, memory_config=None, cq_id=None):
    if tensor.storage_type() == StorageType.DEVICE:
        return tensor
    placement = _Placement(device, tensor.dtype, tensor.layout, list(tensor.shape), memory_config or DRAM_MEMORY_CONFIG)
    return Tensor(tensor.dtype, tensor.layout, tensor.shape, tensor._read("to_device"), placement)


def from_device(tensor, blocking=True, cq_id=None):
    return tensor.cpu()


def deallocate(tensor, force=True):
    tensor.deallocate(force)

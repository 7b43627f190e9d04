"""ttnn's enums and memory configurations, as far as the emulated chip models them."""
import enum

from ._errors import not_modelled


class DataType(enum.Enum):
    # ttnn's numbering; `device_name` is the codec's and the descriptor's name of the format
    BFLOAT16 = 0
    FLOAT32 = 1
    UINT32 = 2
    BFLOAT8_B = 3
    BFLOAT4_B = 4
    UINT8 = 5
    UINT16 = 6
    INT32 = 7
    INVALID = 8

    @property
    def device_name(self):
        if self not in _DEVICE_NAMES:
            raise not_modelled(f"ttnn.{self.name.lower()}", "the emulated chip holds bfloat16, bfloat8_b, float32, "
                               "uint32, int32, uint16 and uint8 tensors")
        return _DEVICE_NAMES[self]


_DEVICE_NAMES = {
    DataType.BFLOAT16: "bfloat16",
    DataType.FLOAT32: "float32",
    DataType.UINT32: "uint32",
    DataType.BFLOAT8_B: "bfloat8_b",
    DataType.UINT8: "uint8",
    DataType.UINT16: "uint16",
    DataType.INT32: "int32",
}

bfloat16 = DataType.BFLOAT16
float32 = DataType.FLOAT32
uint32 = DataType.UINT32
bfloat8_b = DataType.BFLOAT8_B
bfloat4_b = DataType.BFLOAT4_B
uint8 = DataType.UINT8
uint16 = DataType.UINT16
int32 = DataType.INT32


class Layout(enum.Enum):
    ROW_MAJOR = 0
    TILE = 1
    INVALID = 2


ROW_MAJOR_LAYOUT = Layout.ROW_MAJOR
TILE_LAYOUT = Layout.TILE
TILE_SIZE = 32


class TensorMemoryLayout(enum.Enum):
    INTERLEAVED = 0
    HEIGHT_SHARDED = 2
    WIDTH_SHARDED = 3
    BLOCK_SHARDED = 4
    ND_SHARDED = 5


class BufferType(enum.Enum):
    DRAM = 0
    L1 = 1
    SYSTEM_MEMORY = 2
    L1_SMALL = 3
    TRACE = 4


class ShardOrientation(enum.Enum):
    ROW_MAJOR = 0
    COL_MAJOR = 1


class ShardMode(enum.Enum):
    PHYSICAL = 0
    LOGICAL = 1


class ShardDistributionStrategy(enum.Enum):
    ROUND_ROBIN_1D = 0
    GRID_2D = 1


class MathFidelity(enum.Enum):
    LoFi = 0
    HiFi2 = 2
    HiFi3 = 3
    HiFi4 = 4
    Invalid = 255


class UnpackToDestMode(enum.Enum):
    Default = 0
    UnpackToDestFp32 = 1


class ShardSpec:
    """ttnn.ShardSpec(grid, shard_shape, shard_orientation=ROW_MAJOR): each core of `grid` holds a
    [height, width] block of the tensor (elements)."""

    def __init__(self, grid, shard_shape, shard_orientation=ShardOrientation.ROW_MAJOR, shard_mode=ShardMode.PHYSICAL):
        from ._cores import CoreRangeSet

        if not isinstance(grid, CoreRangeSet):
            raise TypeError(f"ShardSpec: grid must be a ttnn.CoreRangeSet, not {type(grid).__name__}")
        if len(shard_shape) != 2:
            raise ValueError(f"ShardSpec: shard_shape {list(shard_shape)} must be [height, width]")
        if shard_mode != ShardMode.PHYSICAL:
            raise not_modelled("ttnn.ShardMode.LOGICAL")
        self.grid = grid
        self.shape = [int(d) for d in shard_shape]
        self.orientation = ShardOrientation(shard_orientation)
        self.mode = shard_mode

    def num_cores(self):
        return self.grid.num_cores()

    def __eq__(self, other):
        return isinstance(other, ShardSpec) and (self.grid, self.shape, self.orientation) == (
            other.grid, other.shape, other.orientation)

    def __repr__(self):
        return f"ShardSpec(grid={self.grid!r}, shape={self.shape}, orientation={self.orientation.name})"


class NdShardSpec:
    """ttnn.NdShardSpec(shard_shape, grid, orientation=ROW_MAJOR, shard_distribution_strategy=ROUND_ROBIN_1D):
    the tensor cut into shards of shard_shape (elements, one extent per dim of the tensor), the shards
    in row-major order over the grid of shards, shard k on the k-th core of `grid`."""

    def __init__(self, shard_shape, grid, orientation=ShardOrientation.ROW_MAJOR,
                 shard_distribution_strategy=ShardDistributionStrategy.ROUND_ROBIN_1D):
        from ._cores import CoreRangeSet

        if not isinstance(grid, CoreRangeSet):
            raise TypeError(f"NdShardSpec: grid must be a ttnn.CoreRangeSet, not {type(grid).__name__}")
        self.shard_shape = [int(d) for d in shard_shape]
        if not self.shard_shape or any(d <= 0 for d in self.shard_shape):
            raise ValueError(f"NdShardSpec: shard_shape {self.shard_shape} needs positive extents")
        self.grid = grid
        self.orientation = ShardOrientation(orientation)
        self.shard_distribution_strategy = ShardDistributionStrategy(shard_distribution_strategy)

    def num_cores(self):
        return self.grid.num_cores()

    def __eq__(self, other):
        return isinstance(other, NdShardSpec) and (
            self.shard_shape, self.grid, self.orientation, self.shard_distribution_strategy) == (
            other.shard_shape, other.grid, other.orientation, other.shard_distribution_strategy)

    def __repr__(self):
        return (f"NdShardSpec(shard_shape={self.shard_shape}, grid={self.grid!r}, orientation={self.orientation.name}, "
                f"shard_distribution_strategy={self.shard_distribution_strategy.name})")


class MemoryConfig:
    """ttnn.MemoryConfig(memory_layout=INTERLEAVED, buffer_type=DRAM, shard_spec=None), or
    ttnn.MemoryConfig(buffer_type, nd_shard_spec): an ND-sharded config, whose memory_layout is
    ND_SHARDED (ttnn also fills in a 2-D shard_spec and HEIGHT/WIDTH/BLOCK_SHARDED where the ND spec
    has a 2-D equivalent; ditmk.ttnn does not, docs/python.md)."""

    def __init__(self, memory_layout=TensorMemoryLayout.INTERLEAVED, buffer_type=BufferType.DRAM, shard_spec=None,
                 nd_shard_spec=None):
        if isinstance(memory_layout, BufferType):  # the (buffer_type, nd_shard_spec) form
            memory_layout, buffer_type, nd_shard_spec = TensorMemoryLayout.ND_SHARDED, memory_layout, buffer_type
            if not isinstance(nd_shard_spec, NdShardSpec):
                raise TypeError("MemoryConfig(buffer_type, nd_shard_spec): nd_shard_spec must be a ttnn.NdShardSpec, "
                                f"not {type(nd_shard_spec).__name__}")
        self.memory_layout = TensorMemoryLayout(memory_layout)
        self.buffer_type = BufferType(buffer_type)
        self.shard_spec = shard_spec
        self._nd_shard_spec = nd_shard_spec
        if self.buffer_type not in (BufferType.DRAM, BufferType.L1):
            raise not_modelled(f"ttnn.BufferType.{self.buffer_type.name}", "tensors live in DRAM or L1")
        if (self.memory_layout == TensorMemoryLayout.ND_SHARDED) != (nd_shard_spec is not None):
            raise ValueError("MemoryConfig: an ND_SHARDED memory layout comes with an nd_shard_spec, and only it")

    def is_sharded(self):
        return self.memory_layout != TensorMemoryLayout.INTERLEAVED

    @property
    def nd_shard_spec(self):
        return self._nd_shard_spec

    def created_with_nd_shard_spec(self):
        return self._nd_shard_spec is not None

    def __eq__(self, other):
        return isinstance(other, MemoryConfig) and (
            self.memory_layout, self.buffer_type, self.shard_spec, self._nd_shard_spec) == (
            other.memory_layout, other.buffer_type, other.shard_spec, other._nd_shard_spec)

    def __hash__(self):
        return hash((self.memory_layout, self.buffer_type))

    def __repr__(self):
        nd = f", nd_shard_spec={self._nd_shard_spec!r}" if self._nd_shard_spec is not None else ""
        return (f"MemoryConfig(memory_layout={self.memory_layout}, buffer_type={self.buffer_type}, "
                f"shard_spec={self.shard_spec!r}{nd})")


DRAM_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.DRAM)
L1_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.L1)
# Without a shard spec, as ttnn's: a tensor needs one (MemoryConfig(..., shard_spec=...)) to be placed.
L1_HEIGHT_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.HEIGHT_SHARDED, BufferType.L1)
L1_WIDTH_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.WIDTH_SHARDED, BufferType.L1)
L1_BLOCK_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.BLOCK_SHARDED, BufferType.L1)

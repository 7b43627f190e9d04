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


class MemoryConfig:
    """ttnn.MemoryConfig(memory_layout=INTERLEAVED, buffer_type=DRAM, shard_spec=None)."""

    def __init__(self, memory_layout=TensorMemoryLayout.INTERLEAVED, buffer_type=BufferType.DRAM, shard_spec=None):
        self.memory_layout = TensorMemoryLayout(memory_layout)
        self.buffer_type = BufferType(buffer_type)
        self.shard_spec = shard_spec
        if self.buffer_type not in (BufferType.DRAM, BufferType.L1):
            raise not_modelled(f"ttnn.BufferType.{self.buffer_type.name}", "tensors live in DRAM or L1")

    def is_sharded(self):
        return self.memory_layout != TensorMemoryLayout.INTERLEAVED

    @property
    def nd_shard_spec(self):
        return None

    def __eq__(self, other):
        return isinstance(other, MemoryConfig) and (self.memory_layout, self.buffer_type, self.shard_spec) == (
            other.memory_layout, other.buffer_type, other.shard_spec)

    def __hash__(self):
        return hash((self.memory_layout, self.buffer_type))

    def __repr__(self):
        return (f"MemoryConfig(memory_layout={self.memory_layout}, buffer_type={self.buffer_type}, "
                f"shard_spec={self.shard_spec!r})")


DRAM_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.DRAM)
L1_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.L1)
# Without a shard spec, as ttnn's: a tensor needs one (MemoryConfig(..., shard_spec=...)) to be placed.
L1_HEIGHT_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.HEIGHT_SHARDED, BufferType.L1)
L1_WIDTH_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.WIDTH_SHARDED, BufferType.L1)
L1_BLOCK_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.BLOCK_SHARDED, BufferType.L1)

"""ditmk.ttnn: ttnn 0.81.1's generic_op surface over ditmk's emulated Blackhole chip.

    import ditmk.ttnn as ttnn
    device = ttnn.open_device(device_id=0)
    a = ttnn.from_torch(torch_a, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=device)
    out = ttnn.allocate_tensor_on_device(ttnn.Shape(shape), ttnn.bfloat16, ttnn.TILE_LAYOUT, device)
    ttnn.generic_op([a, out], ttnn.ProgramDescriptor(kernels=..., cbs=..., semaphores=...))
    result = ttnn.to_torch(out)

Names, argument names and defaults follow ttnn's; docs/python.md lists what differs. Anything ttnn
has that is not here raises one error naming it.
"""
from . import experimental
from ._cores import CoreCoord, CoreRange, CoreRangeSet, num_cores_to_corerangeset, split_work_to_cores
from ._device import CloseDevice, CreateDevice, Device, close_device, open_device
from ._errors import KernelFault
from ._generic_op import generic_op
from ._program import (CBDescriptor, CBFormatDescriptor, ComputeConfigDescriptor, CoreType, DataMovementConfigDescriptor,
                       DataMovementProcessor, KernelDescriptor, NOC, NOC_MODE, ProgramDescriptor, ReaderConfigDescriptor,
                       RuntimeArgs, SemaphoreDescriptor, WriterConfigDescriptor, cb_descriptor_from_sharded_tensor)
from ._tensor import (Shape, StorageType, Tensor, TensorSpec, allocate_tensor_on_device, deallocate, from_device,
                      from_numpy, from_torch, to_device, to_numpy, to_torch)
from ._tensor_accessor import TensorAccessorArgs
from ._types import (BufferType, DataType, DRAM_MEMORY_CONFIG, L1_BLOCK_SHARDED_MEMORY_CONFIG,
                     L1_HEIGHT_SHARDED_MEMORY_CONFIG, L1_MEMORY_CONFIG, L1_WIDTH_SHARDED_MEMORY_CONFIG, Layout,
                     MathFidelity, MemoryConfig, NdShardSpec, ROW_MAJOR_LAYOUT, ShardDistributionStrategy, ShardMode,
                     ShardOrientation, ShardSpec, TILE_LAYOUT,
                     TILE_SIZE, TensorMemoryLayout, UnpackToDestMode, bfloat4_b, bfloat8_b, bfloat16, float32, int32,
                     uint8, uint16, uint32)


def __getattr__(name):
    # ttnn's other operations (ttnn.exp, ttnn.matmul, ...) run on silicon, not here
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"ditmk.ttnn does not model ttnn.{name}: it provides ttnn's generic_op surface "
                         "(docs/python.md lists it)")

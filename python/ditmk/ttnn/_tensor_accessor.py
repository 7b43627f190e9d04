"""ttnn.TensorAccessorArgs: the compile-time (and common runtime) args a kernel's
TensorAccessorArgs<offset>() reads to find a tensor's pages, in tt-metal 0.81.1's encoding."""
from . import _device
from ._errors import not_modelled

# tt-metal's tensor_accessor::ArgConfig bits (hostdevcommon/tensor_accessor/arg_config.hpp)
SHARDED = 1 << 0
IS_DRAM = 1 << 1


def interleaved_compile_time_args(tensor):
    """[args_config, aligned_page_size] of an interleaved tensor: args_config IsDram for DRAM, 0 for
    L1; the page size rounded up to the buffer's alignment (DRAM 64 B, L1 16 B on Blackhole)."""
    p = tensor._on_device("TensorAccessorArgs")
    if p.memory == "dram_interleaved":
        return [IS_DRAM, _device._align(p.page_size, _device.DRAM_ALIGNMENT)]
    if p.memory == "l1_interleaved":
        return [0, _device._align(p.page_size, _device.L1_ALIGNMENT)]
    raise not_modelled("TensorAccessorArgs of a sharded tensor", "only interleaved tensors are encoded")


class TensorAccessorArgs:
    """TensorAccessorArgs(tensor): everything static (nothing at runtime), as ttnn's default."""

    def __init__(self, tensor, args_config=None):
        if args_config is not None:
            raise not_modelled("TensorAccessorArgs(..., args_config)", "every part of the accessor is compile-time")
        self._tensor = tensor

    def get_compile_time_args(self):
        return interleaved_compile_time_args(self._tensor)

    def get_common_runtime_args(self):
        interleaved_compile_time_args(self._tensor)  # refuses what is not modelled
        return []

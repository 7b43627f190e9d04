"""ttnn.TensorAccessorArgs: the compile-time (and common runtime) args a kernel's
TensorAccessorArgs<offset>() reads to find a tensor's pages, in tt-metal 0.81.1's encoding
(_accessor.py writes the words; this module says what a ditmk.ttnn tensor is in its terms)."""
from . import _accessor
from ._errors import not_modelled


def compile_time_args_of(tensor):
    """The words TensorAccessorArgs(tensor) appends: interleaved [args_config, aligned page]; a
    height-sharded tensor as the descriptor lays it out (a run of pages cut into shards, shard k on
    the k-th of its cores in row-major order: rank 1, one bank per core); a width- or ND-sharded one by
    its grid of pages (rank 2 for width: rows of pages, and a shard's; the tensor's rank for ND)."""
    p = tensor._on_device("TensorAccessorArgs")
    if p.memory not in ("l1_sharded", "dram_sharded"):
        return _accessor.compile_time_args(p.memory == "dram_interleaved", p.page_size)
    cores = sorted(p.cores.cores(), key=lambda c: (c.y, c.x))
    if p.page_grid is not None:
        tensor_shape, shard_shape = p.page_grid
    else:
        tensor_shape, shard_shape = [-(-tensor._nbytes() // p.page_size)], [p.shard_size // p.page_size]
    shard = {"tensor_shape": tensor_shape, "shard_shape": shard_shape, "cores": [(c.x, c.y) for c in cores]}
    return _accessor.compile_time_args(p.memory == "dram_sharded", p.page_size, shard)


class TensorAccessorArgs:
    """TensorAccessorArgs(tensor): everything static (nothing at runtime), as ttnn's default."""

    def __init__(self, tensor, args_config=None):
        if args_config is not None:
            raise not_modelled("TensorAccessorArgs(..., args_config)", "every part of the accessor is compile-time")
        self._tensor = tensor

    def get_compile_time_args(self):
        return compile_time_args_of(self._tensor)

    def get_common_runtime_args(self):
        compile_time_args_of(self._tensor)  # the same refusals
        return []

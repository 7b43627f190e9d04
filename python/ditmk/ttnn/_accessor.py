"""A tensor's TensorAccessorArgs as tt-metal's host appends them to a kernel's compile-time args.

The words, all compile-time (the host's default):

  [0]  ArgsConfig: bit 0 the tensor is sharded, bit 1 it lies in DRAM (the Runtime* bits, 2..7, stay
       clear: nothing is left to common runtime args)
  [1]  the aligned page size: the page rounded up to the buffer's alignment, 64 B in DRAM and 16 B in
       L1 on Blackhole (the stride between a bank's pages)

and for a sharded tensor, after those two:

  [2]  rank R
  [3]  the bank count B, bit 31 set when shards fill one bank before the next (shard-contiguous)
       rather than going round the banks
  R    words: the tensor's shape in pages
  R    words: a shard's shape in pages
  (B + 1) // 2 words: the banks' NoC coordinates, each (x << 8 | y) in 16 bits, bank 2k in the low
       half of word k and bank 2k + 1 in the high half (0 when B is odd)

The device side (api/tensor/tensor_accessor_args.h) reads the same layout, and the descriptor's
{"tensor_accessor_args": name} expands to it (descriptor_program.cpp).
"""

DRAM_ALIGNMENT = 64
L1_ALIGNMENT = 16

SHARDED = 1 << 0
IS_DRAM = 1 << 1
SHARD_CONTIGUOUS_BIT = 1 << 31


def _align(value, alignment):
    return (value + alignment - 1) // alignment * alignment


def compile_time_args(is_dram: bool, page_size: int, shard=None) -> list[int]:
    """The words for a tensor whose pages are `page_size` bytes.

    shard: None for an interleaved tensor, else a dict with "tensor_shape" and "shard_shape" (pages,
    equal lengths), "cores" (the banks' (x, y) in bank order) and optionally "contiguous" (bool).
    """
    if page_size <= 0:
        raise ValueError(f"page_size must be positive, not {page_size}")
    config = (IS_DRAM if is_dram else 0) | (SHARDED if shard is not None else 0)
    words = [config, _align(page_size, DRAM_ALIGNMENT if is_dram else L1_ALIGNMENT)]
    if shard is None:
        return words
    tensor_shape = [int(d) for d in shard["tensor_shape"]]
    shard_shape = [int(d) for d in shard["shard_shape"]]
    cores = [(int(x), int(y)) for x, y in shard["cores"]]
    if not tensor_shape or len(tensor_shape) != len(shard_shape):
        raise ValueError(f"shard: tensor_shape {tensor_shape} and shard_shape {shard_shape} need one rank")
    if not cores:
        raise ValueError("shard: no cores")
    for x, y in cores:
        if not (0 <= x < 256 and 0 <= y < 256):
            raise ValueError(f"shard: core ({x}, {y}) does not fit 8-bit coordinates")
    banks = len(cores) | (SHARD_CONTIGUOUS_BIT if shard.get("contiguous", False) else 0)
    words += [len(tensor_shape), banks, *tensor_shape, *shard_shape]
    packed = [x << 8 | y for x, y in cores] + [0]
    words += [packed[i] | packed[i + 1] << 16 for i in range(0, len(cores), 2)]
    return words

"""ditmk.ttnn.experimental: launching tt-metal 0.81.1's Metal 2.0 kernels through generic_op.

A ditmk extension, not a ttnn 0.81.1 name. Most of 0.81.1's newer ttnn ops (reduce, softmax,
layernorm, tilize, ...) build a ProgramSpec ("Metal 2.0"), and their kernels read arguments by name
(get_arg(args::Ht)), open their buffers and tensors by name (DataflowBuffer(dfb::in0),
TensorAccessor(tensor::src)) and their semaphores likewise (sem::ready): names tt-metal's JIT
generates only for ProgramSpec kernels. ttnn 0.81.1's Python has no ProgramSpec, so here a
ttnn.KernelDescriptor carries them:

    reader = ttnn.KernelDescriptor(kernel_source=..., core_ranges=..., runtime_args=rt,
                                   named_compile_time_args=[("tiles_per_batch", 1)], ...)
    experimental.bind(reader, experimental.Metal2Bindings(
        named_runtime_args=["num_tiles", "start_id", "scaler_bits"],
        dataflow_buffers={"in0": 0, "scaler": 2},
        tensors=[("src", input_tensor)]))

The runtime args stay what the 0.81.1 factory sets: per core, the named words first, in
named_runtime_args' order, then the varargs (get_vararg). Named compile-time args become args::
constants as well. Each tensor binding adds the tensor's TensorAccessorArgs words after the
kernel's positional compile-time args and its base address after the named common runtime args, as
tt-metal lays them out; the launch fills both. A bound tensor must be one of generic_op's io_tensors.
Each scratchpad is a private L1 region on each of the kernel's cores, placed above the program's
CBs; its base address is a common runtime arg after the tensors' address words.
"""
from ._tensor import Tensor


class Metal2Bindings:
    """What a Metal 2.0 kernel names: its runtime args (args::), dataflow buffers (dfb::<name> -> CB
    index), tensors (tensor::<name>, in the order the factory binds them), tensor sequences
    (tensor::<sequence>, a tuple of some of those tensors: {"inputs": ["in0", "in1"]}, as
    KernelAdvancedOptions::tensor_binding_sequences), semaphores (sem::<name> -> semaphore id) and scratchpads
    (scratch::<name> -> bytes of private L1 per core, the ScratchpadSpec's size_per_node)."""

    def __init__(self, named_runtime_args=(), named_common_runtime_args=(), dataflow_buffers=None, tensors=(),
                 semaphores=None, tensor_sequences=None, scratchpads=None):
        self.named_runtime_args = [str(n) for n in named_runtime_args]
        self.named_common_runtime_args = [str(n) for n in named_common_runtime_args]
        self.dataflow_buffers = {str(n): int(i) for n, i in dict(dataflow_buffers or {}).items()}
        self.tensors = []
        for i, item in enumerate(tensors):
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Tensor)):
                raise TypeError(f"Metal2Bindings: tensors[{i}] must be a (name, ttnn.Tensor) pair, not {item!r}")
            self.tensors.append((str(item[0]), item[1]))
        self.semaphores = {str(n): int(i) for n, i in dict(semaphores or {}).items()}
        self.tensor_sequences = {str(n): [str(m) for m in members]
                                 for n, members in dict(tensor_sequences or {}).items()}  # fmt: skip
        self.scratchpads = {str(n): int(size) for n, size in dict(scratchpads or {}).items()}

    def _json(self, what, io_names):
        out = {"runtime_arguments_schema": {"named_runtime_args": self.named_runtime_args,
                                            "named_common_runtime_args": self.named_common_runtime_args}}
        if self.dataflow_buffers:
            out["dataflow_buffer_bindings"] = dict(self.dataflow_buffers)
        if self.tensors:
            for name, tensor in self.tensors:
                if tensor._name not in io_names:
                    raise ValueError(f"{what}: Metal2Bindings tensor {name!r} is not one of generic_op's io_tensors")
            out["tensor_bindings"] = [{"name": name, "tensor": tensor._name} for name, tensor in self.tensors]
        if self.tensor_sequences:
            out["tensor_binding_sequences"] = {n: list(m) for n, m in self.tensor_sequences.items()}
        if self.semaphores:
            out["semaphore_bindings"] = dict(self.semaphores)
        if self.scratchpads:
            out["scratchpad_bindings"] = [{"name": n, "size": size} for n, size in self.scratchpads.items()]
        return out


def bind(kernel_descriptor, bindings):
    """Marks `kernel_descriptor` as a Metal 2.0 kernel with `bindings`; returns it."""
    if not isinstance(bindings, Metal2Bindings):
        raise TypeError(f"bind takes ditmk.ttnn.experimental.Metal2Bindings, not {type(bindings).__name__}")
    kernel_descriptor.metal2 = bindings
    return kernel_descriptor

"""ttnn's program descriptors (tt-metal's ProgramDescriptor as Python objects) and their JSON form,
the program descriptor ditmk's runner reads (schemas/program_descriptor.schema.json)."""
import enum
import hashlib
import os

from ._cores import CoreCoord, CoreRange, CoreRangeSet
from ._errors import not_modelled
from ._types import DataType, MathFidelity, UnpackToDestMode


class DataMovementProcessor(enum.Enum):
    RISCV_0 = 0
    RISCV_1 = 1


class NOC(enum.Enum):
    RISCV_0_default = 0
    RISCV_1_default = 1
    NOC_0 = 0
    NOC_1 = 1


class NOC_MODE(enum.Enum):
    DM_DEDICATED_NOC = 0
    DM_DYNAMIC_NOC = 1


class CoreType(enum.Enum):
    WORKER = 0
    ETH = 1


class ReaderConfigDescriptor:
    """RISCV_1 on NoC 0, as tt-metal's ReaderDataMovementConfig on Blackhole."""

    def _json(self):
        return {"type": "reader"}


class WriterConfigDescriptor:
    """RISCV_0 on NoC 1, as tt-metal's WriterDataMovementConfig."""

    def _json(self):
        return {"type": "writer"}


class DataMovementConfigDescriptor:
    def __init__(self, processor=DataMovementProcessor.RISCV_0, noc=NOC.RISCV_0_default,
                 noc_mode=NOC_MODE.DM_DEDICATED_NOC):
        self.processor = DataMovementProcessor(processor)
        self.noc = NOC(noc)
        self.noc_mode = NOC_MODE(noc_mode)

    def _json(self):
        if self.noc_mode != NOC_MODE.DM_DEDICATED_NOC:
            raise not_modelled("NOC_MODE.DM_DYNAMIC_NOC", "each data-movement kernel owns its NoC")
        return {"type": "data_movement", "processor": f"riscv_{self.processor.value}", "noc": self.noc.value}


_FIDELITY_NAMES = {MathFidelity.LoFi: "LoFi", MathFidelity.HiFi2: "HiFi2", MathFidelity.HiFi3: "HiFi3",
                   MathFidelity.HiFi4: "HiFi4"}


class ComputeConfigDescriptor:
    def __init__(self, math_fidelity=MathFidelity.HiFi4, fp32_dest_acc_en=False, dst_full_sync_en=False,
                 unpack_to_dest_mode=None, bfp8_pack_precise=False, math_approx_mode=False):
        self.math_fidelity = MathFidelity(math_fidelity)
        self.fp32_dest_acc_en = bool(fp32_dest_acc_en)
        self.dst_full_sync_en = bool(dst_full_sync_en)
        self.unpack_to_dest_mode = list(unpack_to_dest_mode or [])  # by CB id, as tt-metal's vector
        self.bfp8_pack_precise = bool(bfp8_pack_precise)
        self.math_approx_mode = bool(math_approx_mode)

    def _json(self):
        if self.dst_full_sync_en:
            raise not_modelled("ComputeConfigDescriptor(dst_full_sync_en=True)", "DST is always split in halves")
        if self.bfp8_pack_precise:
            raise not_modelled("ComputeConfigDescriptor(bfp8_pack_precise=True)")
        if self.math_fidelity not in _FIDELITY_NAMES:
            raise ValueError(f"ComputeConfigDescriptor: math_fidelity {self.math_fidelity}")
        out = {"type": "compute", "math_fidelity": _FIDELITY_NAMES[self.math_fidelity],
               "fp32_dest_acc_en": self.fp32_dest_acc_en, "math_approx_mode": self.math_approx_mode}
        modes = {str(cb): "UnpackToDestFp32" for cb, mode in enumerate(self.unpack_to_dest_mode)
                 if UnpackToDestMode(mode) == UnpackToDestMode.UnpackToDestFp32}
        if modes:
            out["unpack_to_dest_mode"] = modes
        return out


class RuntimeArgs:
    """ttnn.RuntimeArgs: per-core args, written rtargs[x][y] = [args] for core (x, y)."""

    class _Column:
        def __init__(self, owner, x):
            self._owner, self._x = owner, x

        def __getitem__(self, y):
            return self._owner._args.setdefault((self._x, int(y)), [])

        def __setitem__(self, y, args):
            self._owner._args[(self._x, int(y))] = [int(a) for a in args]

    def __init__(self):
        self._args = {}  # (x, y) -> list, in the order cores were first set

    def __getitem__(self, x):
        return RuntimeArgs._Column(self, int(x))

    def __len__(self):
        return len(self._args)

    def items(self):
        return [(CoreCoord(x, y), args) for (x, y), args in self._args.items()]


def _runtime_args_of(value, what):
    """RuntimeArgs, a list of (CoreCoord, args) pairs, or the legacy nested list args[x][y]."""
    if isinstance(value, RuntimeArgs):
        return value
    out = RuntimeArgs()
    for i, item in enumerate(value or []):
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], CoreCoord):
            out[item[0].x][item[0].y] = item[1]
        elif isinstance(item, (list, tuple)):
            for y, args in enumerate(item):
                out[i][y] = args
        else:
            raise TypeError(f"{what}: runtime_args takes ttnn.RuntimeArgs or (CoreCoord, args) pairs")
    return out


class KernelDescriptor:
    class SourceType(enum.Enum):
        FILE_PATH = 0
        SOURCE_CODE = 1

    def __init__(self, kernel_source="", source_type=None, core_ranges=None, compile_time_args=None,
                 named_compile_time_args=None, defines=None, runtime_args=None, common_runtime_args=None,
                 config=None, opt_level=None):
        self.kernel_source = kernel_source
        self.source_type = KernelDescriptor.SourceType.FILE_PATH if source_type is None else source_type
        self.core_ranges = core_ranges if core_ranges is not None else CoreRangeSet()
        self.compile_time_args = list(compile_time_args or [])
        self.named_compile_time_args = list(named_compile_time_args or [])
        self.defines = list(defines or [])
        self.runtime_args = _runtime_args_of(runtime_args, "KernelDescriptor")
        self.common_runtime_args = list(common_runtime_args or [])
        self.config = config if config is not None else DataMovementConfigDescriptor()
        self.metal2 = None  # ditmk: experimental.Metal2Bindings of a Metal 2.0 kernel (experimental.bind)
        if opt_level is not None:
            raise not_modelled("KernelDescriptor(opt_level=...)", "kernels build with one optimisation level")

    def __setattr__(self, name, value):
        if name == "runtime_args":
            value = _runtime_args_of(value, "KernelDescriptor")
        object.__setattr__(self, name, value)


class CBFormatDescriptor:
    def __init__(self, buffer_index=0, data_format=DataType.BFLOAT16, page_size=0, tile=None):
        if tile is not None:
            raise not_modelled("CBFormatDescriptor(tile=...)", "CB pages hold 32x32 tiles")
        self.buffer_index = int(buffer_index)
        self.data_format = DataType(data_format)
        self.page_size = int(page_size)


class CBDescriptor:
    def __init__(self, total_size=0, core_ranges=None, format_descriptors=None, remote_format_descriptors=None,
                 buffer=None):
        if remote_format_descriptors:
            raise not_modelled("CBDescriptor(remote_format_descriptors=...)")
        self.total_size = int(total_size)
        self.core_ranges = core_ranges if core_ranges is not None else CoreRangeSet()
        self.format_descriptors = list(format_descriptors or [])
        self.remote_format_descriptors = []
        self.buffer = buffer  # ditmk: the L1-sharded ttnn.Tensor backing the CB, or None


def cb_descriptor_from_sharded_tensor(cb_index, tensor):
    """A CB whose storage is an L1-sharded tensor's shard on each of its cores."""
    p = tensor._on_device("cb_descriptor_from_sharded_tensor")
    if p.memory != "l1_sharded":
        raise ValueError("cb_descriptor_from_sharded_tensor: the tensor is not L1-sharded")
    return CBDescriptor(total_size=p.shard_size, core_ranges=p.cores,
                        format_descriptors=[CBFormatDescriptor(cb_index, tensor.dtype, p.page_size)], buffer=tensor)


class SemaphoreDescriptor:
    def __init__(self, id=None, core_type=CoreType.WORKER, core_ranges=None, initial_value=0):
        if CoreType(core_type) != CoreType.WORKER:
            raise not_modelled("semaphores on Ethernet cores")
        self.id = id
        self.core_type = CoreType(core_type)
        self.core_ranges = core_ranges if core_ranges is not None else CoreRangeSet()
        self.initial_value = int(initial_value)


class ProgramDescriptor:
    def __init__(self, kernels=None, semaphores=None, cbs=None):
        self.kernels = list(kernels or [])
        self.semaphores = list(semaphores or [])
        self.cbs = list(cbs or [])


# ---- the JSON form ----

def _ranges_json(ranges, what):
    if isinstance(ranges, CoreRange):
        ranges = CoreRangeSet(ranges)
    if not isinstance(ranges, CoreRangeSet):
        raise TypeError(f"{what}: core_ranges must be a ttnn.CoreRangeSet, not {type(ranges).__name__}")
    return [{"start": [r.start.x, r.start.y], "end": [r.end.x, r.end.y]} for r in ranges.ranges()]


def _u32_list(values, what):
    out = []
    for v in values:
        v = int(v)
        if not 0 <= v < 1 << 32:
            raise ValueError(f"{what}: {v} is not a 32-bit unsigned value")
        out.append(v)
    return out


def source_file(kernel, index, kernel_cache):
    """The file the runner compiles: FILE_PATH as written (relative paths resolve against the working
    folder, then the kernel root); SOURCE_CODE written once to a file named by its content's hash
    under the kernel cache, as tt-metal writes generated sources to a file before compiling them."""
    if kernel.source_type == KernelDescriptor.SourceType.FILE_PATH:
        return os.fspath(kernel.kernel_source)
    if kernel.source_type != KernelDescriptor.SourceType.SOURCE_CODE:
        raise ValueError(f"kernels[{index}]: source_type {kernel.source_type}")
    text = kernel.kernel_source
    folder = os.path.join(kernel_cache, "sources")
    path = os.path.join(folder, f"kernel_{hashlib.sha256(text.encode()).hexdigest()[:20]}.cpp")
    if not os.path.exists(path):
        os.makedirs(folder, exist_ok=True)
        scratch = f"{path}.{os.getpid()}.tmp"
        with open(scratch, "w") as f:
            f.write(text)
        os.replace(scratch, path)
    return os.path.abspath(path)


def program_json(program, tensors, kernel_cache):
    """The descriptor JSON of `program` over the io tensors (their _descriptor() entries)."""
    if not isinstance(program, ProgramDescriptor):
        raise TypeError(f"generic_op takes a ttnn.ProgramDescriptor, not {type(program).__name__}")
    kernels = []
    io_names = {t["name"] for t in tensors}
    for i, k in enumerate(program.kernels):
        what = f"kernels[{i}]"
        entry = {"kernel_source": source_file(k, i, kernel_cache), "core_ranges": _ranges_json(k.core_ranges, what),
                 "config": k.config._json(), "compile_time_args": _u32_list(k.compile_time_args, what)}
        if k.named_compile_time_args:
            entry["named_compile_time_args"] = {str(n): _u32_list([v], what)[0] for n, v in k.named_compile_time_args}
        if k.defines:
            entry["defines"] = {str(n): str(v) for n, v in k.defines}
        args = [{"core": [c.x, c.y], "args": _u32_list(a, what)} for c, a in k.runtime_args.items()]
        if args:
            entry["runtime_args"] = args
        if k.common_runtime_args:
            entry["common_runtime_args"] = _u32_list(k.common_runtime_args, what)
        if k.metal2 is not None:
            entry.update(k.metal2._json(what, io_names))
        kernels.append(entry)
    cbs = []
    for i, cb in enumerate(program.cbs):
        entry = {"total_size": cb.total_size, "core_ranges": _ranges_json(cb.core_ranges, f"cbs[{i}]"),
                 "format_descriptors": [{"buffer_index": f.buffer_index, "data_format": f.data_format.device_name,
                                         "page_size": f.page_size} for f in cb.format_descriptors]}
        if cb.buffer is not None:
            entry["tensor"] = cb.buffer._name
        cbs.append(entry)
    semaphores = [{"id": i if s.id is None else int(s.id), "core_ranges": _ranges_json(s.core_ranges, f"semaphores[{i}]"),
                   "initial_value": s.initial_value} for i, s in enumerate(program.semaphores)]
    return {"name": "generic_op", "tensors": tensors, "kernels": kernels, "cbs": cbs, "semaphores": semaphores}

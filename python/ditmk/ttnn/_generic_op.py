"""ttnn.generic_op on the emulated chip: the program and its io tensors as a program descriptor,
one launch through ditmk's runner (each tensor at the address its device gave it, filled with its
bytes), and the tensors' bytes read back."""
import json
import os

from .. import _ditmk
from ._errors import KernelFault
from ._program import program_json

_OPTIONS = ("timing", "trace", "report", "kernel_cache", "kernel_root", "watchdog", "strict")


def generic_op(io_tensors, program_descriptor, **options):
    """ttnn.generic_op(io_tensors, program_descriptor) -> io_tensors[-1], the output.

    ditmk's keywords (each defaults to the device's, see Device): timing=True predicts the launch's
    time (report["timing"]["predicted_us"]); trace=PATH writes its Chrome trace; report=PATH writes
    the report as JSON; kernel_cache, kernel_root (default $TT_METAL_HOME), watchdog (seconds),
    strict. The report (counters, time bound, compile stats) is device.last_report. A fault raises
    KernelFault naming kernel, core and processor; the tensors keep their bytes from before. A bad
    program or a kernel that does not build raises RuntimeError with one line naming it."""
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise TypeError(f"generic_op: unknown keyword {', '.join(sorted(unknown))} (ditmk's: {', '.join(_OPTIONS)})")
    io_tensors = list(io_tensors)
    if not io_tensors:
        raise ValueError("generic_op: io_tensors is empty (the output tensor is its last element)")
    device = io_tensors[0].device()
    for i, t in enumerate(io_tensors):
        if t.device() is not device:
            raise ValueError(f"generic_op: io_tensors[{i}] is on another device")
    device._check_open()
    settings = {k: v for k, v in device.options.items() if v is not None}
    settings.update({k: v for k, v in options.items() if v is not None})
    kernel_cache = os.fspath(settings.get("kernel_cache") or _ditmk.tt_default_kernel_cache())
    unique = list({id(t): t for t in io_tensors}.values())
    descriptor = program_json(program_descriptor, [t._descriptor() for t in unique], kernel_cache)
    inputs = {t._name: t._bytes for t in unique if t._bytes is not None}
    watchdog = settings.get("watchdog")
    run = dict(timing=bool(settings.get("timing", False)), trace=os.fspath(settings.get("trace", "")),
               report=os.fspath(settings.get("report", "")), kernel_cache=kernel_cache,
               kernel_root=os.fspath(settings.get("kernel_root", "")), strict=bool(settings.get("strict", False)))
    if watchdog is not None:
        run["watchdog"] = float(watchdog)
    try:
        outputs, report, faults = _ditmk.tt_run_descriptor(json.dumps(descriptor), inputs, **run)
    except ValueError as e:  # a bad program or a kernel that does not build: RuntimeError, as ttnn raises
        raise RuntimeError(str(e)) from None
    device.last_report = report
    if faults:
        fault = KernelFault(faults[0])
        fault.report = report
        raise fault
    for t in unique:
        if t._name in outputs:
            t._bytes = outputs[t._name]
    return io_tensors[-1]

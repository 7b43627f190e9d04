"""The errors ditmk.ttnn raises beyond Python's own."""


class KernelFault(RuntimeError):
    """A launch ended with a fault on the emulated chip: a kernel read unwritten memory, overflowed a
    CB, deadlocked, crashed, ... The message names the kernel file, the core and the processor; the
    same parts are attributes (None where the fault has none, as for a deadlock). The device stays
    usable: the next generic_op runs on a fresh launch."""

    def __init__(self, fault, program="generic_op"):
        self.kind = fault["kind"]
        self.kernel = fault["kernel"]
        self.core = fault["core"]
        self.processor = fault["processor"]
        self.where = fault["where"]
        self.fault_message = fault["message"]
        self.waiters = list(fault["waiters"])
        self.report = None  # the launch report, set by generic_op
        super().__init__(f"{program}: {fault['text']}")


def not_modelled(what, why=""):
    """The one error for a ttnn feature the emulated chip does not model."""
    return NotImplementedError(f"ditmk.ttnn does not model {what}" + (f": {why}" if why else ""))

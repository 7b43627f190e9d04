"""examples/tt/eltwise_add in its Python form (examples/tt/eltwise_add/program.py) against ditmk.ttnn."""
import numpy as np
import pytest

import ditmk.ttnn as ttnn
from ttnn_programs import bf16, eltwise_add


def test_eltwise_add_in_dram(device):
    rng = np.random.default_rng(1)
    a_values = rng.standard_normal((128, 512)).astype(np.float32)
    b_values = rng.standard_normal((128, 512)).astype(np.float32)
    a, b, c = eltwise_add(device, a_values, b_values)
    result = ttnn.to_numpy(c)
    expected = bf16(bf16(a_values) + bf16(b_values))
    np.testing.assert_array_equal(result, expected)
    # the inputs are as they were written
    np.testing.assert_array_equal(a.to_numpy(), bf16(a_values))
    report = device.last_report
    assert report["compile"]["compiled"] + report["compile"]["cache_hits"] == 3


def test_a_fault_raises_and_the_device_stays_usable(device):
    # eltwise_add's reader reads DRAM (InterleavedAddrGenFast<true>): with the tensors in L1 it
    # reads DRAM no buffer holds
    rng = np.random.default_rng(2)
    a_values = rng.standard_normal((64, 128)).astype(np.float32)
    b_values = rng.standard_normal((64, 128)).astype(np.float32)
    with pytest.raises(ttnn.KernelFault) as raised:
        eltwise_add(device, a_values, b_values, memory_config=ttnn.L1_MEMORY_CONFIG)
    fault = raised.value
    assert isinstance(fault, RuntimeError)
    assert fault.kind == "out_of_bounds"
    assert fault.kernel.endswith("reader_binary.cpp") and fault.processor == "NCRISC"
    assert fault.core == (0, 0)
    assert "reader_binary.cpp on core (0,0) NCRISC" in str(fault)
    assert fault.report["compile"]["compiled"] + fault.report["compile"]["cache_hits"] == 3
    # the next launch on the same device runs clean
    _, _, c = eltwise_add(device, a_values, b_values)
    np.testing.assert_array_equal(c.to_numpy(), bf16(bf16(a_values) + bf16(b_values)))


def test_eltwise_add_torch_in_and_out(device):
    torch = pytest.importorskip("torch")
    a_values = torch.rand((1, 2, 64, 256)).to(torch.bfloat16)
    b_values = torch.rand((1, 2, 64, 256)).to(torch.bfloat16)
    _, _, c = eltwise_add(device, a_values, b_values)
    result = ttnn.to_torch(c)
    assert result.dtype == torch.bfloat16 and list(result.shape) == [1, 2, 64, 256]
    expected = (a_values.float() + b_values.float()).to(torch.bfloat16)
    assert torch.equal(result, expected)

"""Comparisons for corpus tests: bf16 results against a float reference."""
import numpy as np


def _numpy(x):
    if isinstance(x, np.ndarray):
        return x.astype(np.float64)
    if hasattr(x, "detach"):  # a torch tensor; torch is imported only by whoever made it
        return x.detach().cpu().double().numpy()
    if hasattr(x, "to_numpy"):  # a ditmk.ttnn.Tensor
        return x.to_numpy().astype(np.float64)
    return np.asarray(x, dtype=np.float64)


def pearson(actual, expected):
    """Pearson correlation of the flattened values (1.0 when both are constant and equal)."""
    a, e = _numpy(actual).ravel(), _numpy(expected).ravel()
    if np.array_equal(a, e):
        return 1.0
    if a.std() == 0 or e.std() == 0:
        return 0.0
    return float(np.corrcoef(a, e)[0, 1])


def assert_close(actual, expected, pcc=0.999, atol=1e-2, rtol=1.6e-2):
    """Passes when the shapes match, the Pearson correlation is at least `pcc` and every element is
    within atol + rtol * |expected| (defaults sized for bf16: 8 bits of mantissa); the message names
    the worst element otherwise."""
    a, e = _numpy(actual), _numpy(expected)
    assert a.shape == e.shape, f"shape {list(a.shape)}, expected {list(e.shape)}"
    if a.size == 0:
        return
    nonfinite = ~np.isfinite(a) & np.isfinite(e)
    if nonfinite.any():
        at = tuple(int(i) for i in np.argwhere(nonfinite)[0])
        raise AssertionError(f"element {list(at)} is {a[at]}, expected {e[at]}")
    excess = np.abs(a - e) - (atol + rtol * np.abs(e))
    worst = np.unravel_index(int(np.nanargmax(excess)), a.shape)
    correlation = pearson(a, e)
    where = f"worst element {list(int(i) for i in worst)}: {a[worst]:.6g}, expected {e[worst]:.6g}"
    assert correlation >= pcc, f"PCC {correlation:.6f} < {pcc}; {where}"
    assert excess[worst] <= 0, f"{where} (|diff| {abs(a[worst] - e[worst]):.3g} > atol {atol} + rtol {rtol} x |expected|)"

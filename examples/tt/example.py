#!/usr/bin/python3
"""Runs one of the tt-metal dialect examples on ditmk's emulated Blackhole chip and checks it.

    example.py NAME --ditmk PATH/TO/ditmk --work DIR [--descriptor program_bfp8.json] [--timing]
    example.py --list

Makes the example's inputs (fixed seed) as .npy files in DIR, runs
    ditmk emulate --descriptor examples/tt/NAME/program.json --data DIR
        [--timing --trace DIR/trace.json --report DIR/report.json]
reads the outputs back from DIR and compares them with a numpy reference computed from the values
the device actually holds (inputs rounded to their tensor's format first, fp32-or-better math).
With --timing it also checks that the trace is a Chrome trace with events in it. Prints one line;
exits 0 when everything matches, 1 otherwise (the line says what differs and where).

Needs only Python 3 and numpy.
"""
import argparse
import json
import os
import subprocess
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------------------------------------
# Number formats: the values a tensor holds on the device once the host has encoded it.

def round_bf16(x):
    """float32 -> nearest bfloat16 (ties to even), returned as float32. NaN stays NaN."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), x, out)


def round_bfp8_b(x):
    """float32 -> the values bfp8_b stores (docs/tile-formats.md): every 16 consecutive elements of a
    row inside a 32x32 tile (one face row) share the largest exponent; each keeps a sign and a 7-bit
    magnitude, truncated to the shared exponent and then rounded to nearest even on the 17 dropped
    bits, saturating at 127."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    if x.shape[-1] % 16:
        raise ValueError("bfp8_b needs the last dimension to be a multiple of 16")
    groups = x.reshape(-1, 16)
    bits = groups.view(np.uint32).astype(np.int64)
    sign = bits >> 31
    exp = (bits >> 23) & 0xFF
    significand = np.where(exp == 0, 0, (bits & 0x7FFFFF) | 0x800000)
    shared = exp.max(axis=1, keepdims=True)
    shift = shared - exp
    shifted = np.where(shift >= 24, 0, significand >> np.minimum(shift, 23))
    q = shifted >> 17
    dropped = shifted & 0x1FFFF
    q = q + ((dropped > 0x10000) | ((dropped == 0x10000) & ((q & 1) == 1)))
    q = np.minimum(q, 127)
    value = q.astype(np.float64) * np.exp2(shared.astype(np.float64) - 133.0)
    value = np.where((sign == 1) & (q > 0), -value, value)  # a magnitude of 0 loses its sign
    return value.astype(np.float32).reshape(x.shape)


QUANTIZERS = {
    "float32": lambda x: np.asarray(x, dtype=np.float32),
    "Float32": lambda x: np.asarray(x, dtype=np.float32),
    "bfloat16": round_bf16,
    "Float16_b": round_bf16,
    "bfloat8_b": round_bfp8_b,
    "Bfp8_b": round_bfp8_b,
}

BF16_REL = 2.0 ** -7  # one bfloat16 step of |x| at most: twice the worst rounding error (2^-8 |x|)
FP32_REL = 2.0 ** -23


def device_values(tensor, array):
    fmt = tensor["data_format"]
    if fmt not in QUANTIZERS:
        raise SystemExit(f"example.py: no reference rounding for data format {fmt}")
    return QUANTIZERS[fmt](array).astype(np.float64)


# ----------------------------------------------------------------------------------------------
# The examples: inputs, reference outputs and tolerances.
#
# make(rng, tensors) returns {input name: float32 array of the tensor's shape}. golden(inputs,
# tensors) returns {output name: (expected float64 array, tolerance float64 array)}; an element
# passes when |got - expected| <= tolerance. `inputs` are the device's values (already rounded).

def normal(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def make_loopback(rng, tensors):
    # Full float32 mantissas and a wide range: a float32 copy must come back bit for bit.
    shape = tensors["src"]["shape"]
    return {"src": (rng.standard_normal(shape) * np.exp2(rng.integers(-20, 20, shape))).astype(np.float32)}


def golden_loopback(x, tensors):
    return {"dst": (x["src"], np.zeros_like(x["src"]))}


def make_eltwise_add(rng, tensors):
    return {"a": normal(rng, tensors["a"]["shape"]), "b": normal(rng, tensors["b"]["shape"])}


def golden_eltwise_add(x, tensors):
    c = x["a"] + x["b"]  # exact in float64 for bf16 inputs; the device adds in fp32, then packs to bf16
    return {"c": (c, BF16_REL * np.abs(c))}


def make_matmul(rng, tensors):
    return {"a": normal(rng, tensors["a"]["shape"]), "b": normal(rng, tensors["b"]["shape"])}


def golden_matmul(x, tensors):
    a, b = x["a"], x["b"]
    c = a @ b
    k = a.shape[-1]
    magnitude = np.abs(a) @ np.abs(b)  # bounds every partial sum of the dot products
    # bf16 output rounding plus fp32 accumulation over K (k roundings of at most 2^-24 of the sum).
    tol = BF16_REL * np.abs(c) + k * FP32_REL * magnitude
    if any(tensors[n]["data_format"] in ("bfloat8_b", "Bfp8_b") for n in ("a", "b")):
        # bfp8_b: the reference already holds the bfp8_b values; allow a few elements per dot product
        # to land one bfp8_b step (1/64 of their group's maximum) away from the host rounding rule.
        tol = tol + 2.0 ** -10 * magnitude
    return {"c": (c, tol)}


def make_reduce_row(rng, tensors):
    return {"x": normal(rng, tensors["x"]["shape"])}


def golden_reduce_row(x, tensors):
    v = x["x"]
    expected = np.zeros(tuple(tensors["sums"]["shape"]), dtype=np.float64)
    tol = np.zeros_like(expected)
    expected[..., 0] = v.sum(axis=-1)  # the row sums land in column 0 of each output tile row
    tol[..., 0] = BF16_REL * np.abs(expected[..., 0]) + v.shape[-1] * FP32_REL * np.abs(v).sum(axis=-1)
    return {"sums": (expected, tol)}  # columns 1..31: exactly zero


def make_producer_consumer(rng, tensors):
    return {"x": normal(rng, tensors["x"]["shape"])}


def golden_producer_consumer(x, tensors):
    # Round r of the output is the running sum of input rounds 0..r (the leading dimension), kept in
    # a bfloat16 CB between rounds: each step adds in fp32 and rounds to bf16, as the device does.
    v = x["x"].astype(np.float32)
    acc = np.zeros_like(v)
    acc[0] = v[0]
    for r in range(1, v.shape[0]):
        acc[r] = round_bf16(acc[r - 1] + v[r])
    magnitude = np.cumsum(np.abs(v).astype(np.float64), axis=0)
    return {"y": (acc.astype(np.float64), BF16_REL * magnitude)}


EXAMPLES = {
    "loopback": ("DRAM -> L1 CB -> DRAM on one core and one processor (float32, exact)",
                 make_loopback, golden_loopback),
    "eltwise_add": ("c = a + b, 64 bf16 tiles split over 8 cores (reader, compute, writer)",
                    make_eltwise_add, golden_eltwise_add),
    "matmul_single": ("C = A @ B on one core, K accumulated in DST (program_bfp8.json: B in bfp8_b)",
                      make_matmul, golden_matmul),
    "matmul_mcast": ("C = A @ B on a 3x2 core grid, A and B blocks multicast along rows and columns",
                     make_matmul, golden_matmul),
    "reduce_row": ("row sums of a [64, 128] bf16 tensor with reduce_tile and a scaler tile",
                   make_reduce_row, golden_reduce_row),
    "producer_consumer": ("core A writes rounds of tiles into core B's CB, semaphore handshake",
                          make_producer_consumer, golden_producer_consumer),
}


def make_inputs(name, shapes):
    """The inputs of example `name` for tensors of the given shapes ({tensor name: shape}), from the
    example's fixed seed: the values this driver writes for `ditmk emulate` and the values the
    Python form of the example (NAME/program.py) puts on the device."""
    _, make, _ = EXAMPLES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return make(rng, {n: {"shape": list(s)} for n, s in shapes.items()})


def check_outputs(label, name, tensors, inputs, outputs):
    """Compares the outputs ({tensor name: array}) of example `name` with the numpy reference of its
    inputs (the float32 arrays given to the device). `tensors` gives every tensor's "shape" and
    "data_format". Returns one phrase per output; on a mismatch prints one line and exits 1."""
    _, _, golden = EXAMPLES[name]
    device_inputs = {n: device_values(tensors[n], array) for n, array in inputs.items()}
    results = []
    for oname, (expected, tol) in golden(device_inputs, tensors).items():
        err, at, used = compare(label, oname, outputs[oname], expected, tol)
        results.append(f"{oname} max abs error {err:.3g} at {where(at)}, {used:.0%} of the tolerance at most")
    return results


# ----------------------------------------------------------------------------------------------
# Checks.

def fail(name, message):
    print(f"{name}: FAILED: {message}")
    sys.exit(1)


def where(index):
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


def compare(name, out_name, got, expected, tol):
    if got.shape != expected.shape:
        fail(name, f"{out_name} has shape {list(got.shape)}, expected {list(expected.shape)}")
    got64 = got.astype(np.float64)
    if not np.all(np.isfinite(got64)):
        bad = np.unravel_index(np.argmax(~np.isfinite(got64)), got.shape)
        fail(name, f"{out_name} holds {got64[bad]} at {where(bad)} (expected {expected[bad]:.6g})")
    err = np.abs(got64 - expected)
    worst = np.unravel_index(np.argmax(err), err.shape)
    over = err > tol
    if over.any():
        ratio = np.where(over, err - tol, -np.inf)
        first = np.unravel_index(np.argmax(ratio), err.shape)
        fail(name, f"{out_name} differs: max abs error {err[worst]:.6g} at {where(worst)}; worst over tolerance "
                   f"at {where(first)}: got {got64[first]:.6g}, expected {expected[first]:.6g}, "
                   f"tolerance {tol[first]:.3g}; {int(over.sum())} of {err.size} elements over")
    used = np.where(tol > 0, err / np.where(tol > 0, tol, 1.0), 0.0).max()  # share of the tolerance used
    return err[worst], worst, used


def check_trace(name, path):
    try:
        with open(path) as f:
            trace = json.load(f)
    except FileNotFoundError:
        fail(name, f"--timing: no trace at {path}")
    except json.JSONDecodeError as e:
        fail(name, f"--timing: {path} is not JSON ({e})")
    if isinstance(trace, dict):
        if not isinstance(trace.get("traceEvents"), list):
            fail(name, f"--timing: {path} is an object without a traceEvents list")
        events = trace["traceEvents"]
    elif isinstance(trace, list):
        events = trace
    else:
        fail(name, f"--timing: {path} is neither a list of events nor an object with traceEvents")
    timed = 0
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            fail(name, f"--timing: trace event {i} is not an object")
        for key in ("name", "ph", "pid"):
            if key not in e:
                fail(name, f"--timing: trace event {i} has no '{key}': {json.dumps(e)[:120]}")
        if e["ph"] == "M":  # metadata (process and thread names) carries no time
            continue
        for key in ("ts", "tid"):
            if key not in e:
                fail(name, f"--timing: trace event {i} has no '{key}': {json.dumps(e)[:120]}")
        if not isinstance(e["ts"], (int, float)):
            fail(name, f"--timing: trace event {i} has a non-numeric ts: {json.dumps(e)[:120]}")
        timed += 1
    if timed == 0:
        fail(name, f"--timing: {path} holds no timed events ({len(events)} metadata events only)")
    return timed


def check_report(name, path):
    try:
        with open(path) as f:
            json.load(f)
    except FileNotFoundError:
        fail(name, f"--timing: no report at {path}")
    except json.JSONDecodeError as e:
        fail(name, f"--timing: {path} is not JSON ({e})")


# ----------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description="Run a tt-metal dialect example on ditmk's emulated chip.")
    parser.add_argument("name", nargs="?", help="the example (see --list)")
    parser.add_argument("--list", action="store_true", help="list the examples and exit")
    parser.add_argument("--ditmk", help="path to the ditmk executable")
    parser.add_argument("--work", help="folder for the inputs, outputs, trace and report (created if absent)")
    parser.add_argument("--descriptor", default="program.json",
                        help="descriptor file inside the example's folder (default program.json)")
    parser.add_argument("--timing", action="store_true",
                        help="also run the timing model and check its Chrome trace")
    args = parser.parse_args()

    if args.list:
        for name, (about, _, _) in EXAMPLES.items():
            descriptors = sorted(f for f in os.listdir(os.path.join(HERE, name))
                                 if f.startswith("program") and f.endswith(".json"))
            print(f"{name:18} {about} [{', '.join(descriptors)}]")
        return 0
    if not args.name:
        parser.error("name an example (or --list)")
    if args.name not in EXAMPLES:
        parser.error(f"unknown example '{args.name}' (known: {', '.join(EXAMPLES)})")
    if not args.ditmk or not args.work:
        parser.error("--ditmk and --work are required")

    name = args.name
    descriptor = os.path.join(HERE, name, args.descriptor)
    label = name if args.descriptor == "program.json" else f"{name} ({args.descriptor})"
    try:
        with open(descriptor) as f:
            program = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(label, f"cannot read {descriptor}: {e}")
    tensors = {t["name"]: t for t in program["tensors"]}

    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    inputs = make_inputs(name, {t["name"]: t["shape"] for t in program["tensors"] if "input" in t})
    for tname, array in inputs.items():
        np.save(os.path.join(work, tensors[tname]["input"]), array.astype(np.float32))
    outputs = {t["name"]: t for t in program["tensors"] if "output" in t}
    for t in outputs.values():
        stale = os.path.join(work, t["output"])
        if os.path.exists(stale):
            os.remove(stale)

    command = [args.ditmk, "emulate", "--descriptor", descriptor, "--data", work]
    trace = os.path.join(work, "trace.json")
    report = os.path.join(work, "report.json")
    if args.timing:
        for stale in (trace, report):
            if os.path.exists(stale):
                os.remove(stale)
        command += ["--timing", "--trace", trace, "--report", report]
    try:
        run = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        fail(label, f"cannot run {args.ditmk}: {e}")
    if run.returncode != 0:
        lines = [l for l in (run.stderr + run.stdout).splitlines() if l.strip()]
        fail(label, f"ditmk emulate exited {run.returncode}: {lines[-1] if lines else '(no output)'}")

    got = {}
    for oname, t in outputs.items():
        path = os.path.join(work, t["output"])
        try:
            got[oname] = np.load(path)
        except (OSError, ValueError) as e:
            fail(label, f"no output {oname} at {path} ({e})")
    results = check_outputs(label, name, tensors, inputs, got)
    if args.timing:
        events = check_trace(label, trace)
        check_report(label, report)
        results.append(f"trace {events} timed events")
    print(f"{label}: ok ({'; '.join(results)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

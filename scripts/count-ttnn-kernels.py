#!/usr/bin/env python3
"""How many of ttnn's kernels build unchanged on ditmk's device headers.

Each kernel of the reference tree's ttnn/cpp/ttnn (operations/**/kernels/ and kernel/;
docs/tt-dialect.md, "The reference") is built the way `ditmk emulate --descriptor` builds it, with the tree as its kernel root
("Kernel roots"): a one-kernel descriptor names it (compute when its path or a quoted include's path says so, else a reader),
with 64 positional compile-time args of 1 since ttnn's host code is not there to give the real ones.
A kernel that compiled counts as built whatever its launch then does (it has no real args). For each
one that does not, the first error is sorted into a reason: a header ditmk does not provide, a call or
name the device API lacks, a host header, a compile-time arg it needed, the compiler crashing, or anything else.

  scripts/count-ttnn-kernels.py [--ditmk build/release/ditmk] [--tree DIR] [--sample N] [--seed S]
                                [--report FILE.json]

--sample N builds N kernels picked at random with --seed (default: all of them). Prints the counts,
the headers and names missing most often, and with --report writes every kernel's result as JSON.
"""
import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def default_tree():
    pin = dict(line.split("=", 1) for line in (REPO / "scripts/tt-metal.pin").read_text().splitlines()
               if "=" in line and not line.startswith("#"))
    if os.environ.get("DITMK_TT_METAL"):
        return Path(os.environ["DITMK_TT_METAL"])
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ditmk" / f"tt-metal-{pin['version']}"


def kernels_of(tree):
    root = tree / "ttnn/cpp/ttnn"
    # operations/**/kernels/ and the shared kernel/ folder: the 1,418 of docs/tt-dialect.md
    return sorted(p for p in root.rglob("*.cpp")
                  if "kernels" in p.relative_to(root).parts or p.relative_to(root).parts[0] == "kernel")


COMPUTE_INCLUDE = re.compile(r'#\s*include\s*"[^"]*compute[^"]*"')


def is_compute(kernel):
    parts = kernel.parts
    if "compute" in parts or kernel.stem.startswith("compute") or "compute" in kernel.stem:
        return True
    # A kernel outside a compute folder (moreh's *_kernel.cpp, ...) that includes the compute API or
    # a compute helper (a quoted include with "compute" in its path).
    return COMPUTE_INCLUDE.search(kernel.read_text(errors="ignore")) is not None


def descriptor(kernel):
    config = {"type": "compute"} if is_compute(kernel) else {"type": "reader"}
    return {"name": kernel.stem,
            "kernels": [{"kernel_source": str(kernel), "core_ranges": [{"start": [0, 0], "end": [0, 0]}],
                         "config": config, "compile_time_args": [1] * 64}]}


MISSING_HEADER = re.compile(r"error: ([^ :]+): No such file or directory")
UNDECLARED = re.compile(r"error: (?:'|‘)([^'’]+)(?:'|’) (?:was not declared|is not a member|has not been declared|"
                        r"does not name a type|is not a (?:class|namespace|template))")
HOST_HEADER = re.compile(r"includes <([^>]+)>, a host header")
COMPILER_CRASH = re.compile(r"(\S+:\d+): the kernel compiler \([^)]*\) crashed")
CT_ARG = re.compile(r"get_compile_time_arg_val|compile_time_args|named compile-time arg")


def classify(output):
    if m := HOST_HEADER.search(output):
        return "host header", m.group(1)
    if m := MISSING_HEADER.search(output):
        return "missing header", m.group(1)
    if m := UNDECLARED.search(output):
        return "missing name", m.group(1)
    if CT_ARG.search(output):
        return "compile-time args", ""
    if m := COMPILER_CRASH.search(output):
        return "compiler crash", m.group(1)
    line = next((l for l in output.splitlines() if "error" in l), output.strip().splitlines()[0] if output.strip() else "")
    return "other", line[:200]


def build(ditmk, tree, kernel, work, cache):
    program = work / "program.json"
    program.write_text(json.dumps(descriptor(kernel)))
    env = dict(os.environ, TT_METAL_HOME=str(tree))
    r = subprocess.run([str(ditmk), "emulate", "--descriptor", str(program), "--kernel-cache", str(cache),
                        "--watchdog", "2"], capture_output=True, text=True, env=env, timeout=300)
    output = (r.stdout + r.stderr).replace("ditmk: error: ", "").replace(str(tree) + "/", "")
    # A build error names the processor ("(compiling for NCRISC; ...)"); a warning (a hosted standard
    # header) names it too but does not stop the build; anything else came after the kernel compiled
    # (its launch, without the real args, may well fault).
    errors = "\n".join(line for line in output.splitlines() if not line.startswith("warning:"))
    if "(compiling for" not in errors and "the compiler failed" not in errors:
        return {"built": True}
    reason, what = classify(errors)
    return {"built": False, "reason": reason, "what": what}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ditmk", default=str(REPO / "build/release/ditmk"))
    parser.add_argument("--tree", default=None)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", default=None)
    args = parser.parse_args()
    tree = Path(args.tree) if args.tree else default_tree()
    if not (tree / "ttnn/cpp/ttnn").is_dir():
        sys.exit(f"count-ttnn-kernels: no reference tree at {tree} (scripts/fetch-tt-metal.sh fetches it)")
    kernels = kernels_of(tree)
    if args.sample and args.sample < len(kernels):
        kernels = sorted(random.Random(args.seed).sample(kernels, args.sample))
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        work, cache = Path(tmp), Path(tmp) / "cache"
        for i, kernel in enumerate(kernels):
            results[str(kernel.relative_to(tree))] = build(args.ditmk, tree, kernel, work, cache)
            print(f"\r{i + 1}/{len(kernels)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    built = sum(r["built"] for r in results.values())
    print(f"{built} of {len(results)} ttnn kernels build unchanged ({100.0 * built / max(len(results), 1):.1f}%)")
    reasons = collections.Counter(r["reason"] for r in results.values() if not r["built"])
    for reason, n in reasons.most_common():
        print(f"  {n:5d} {reason}")
        firsts = collections.Counter(r["what"] for r in results.values() if r.get("reason") == reason and r["what"])
        for what, m in firsts.most_common(8):
            print(f"          {m:4d} {what}")
    if args.report:
        Path(args.report).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()

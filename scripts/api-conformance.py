#!/usr/bin/env python3
"""Checks ditmk's device headers against tt-metal 0.81.1's, declaration by declaration.

Both sides are parsed with libclang (Debian's python3-clang-14): ditmk's headers under the kernel
compiler's defines, 0.81.1's under its JIT build's (scripts/api_conformance/sides.py). Every name
ditmk's public headers export, every name 0.81.1 declares in a header ditmk also has, and every name
of 0.81.1's object-style dataflow API is compared, as are the public header files:
its overloads' return and parameter types with their defaults, template parameters with their
defaults, constexpr-ness, enumerators and values, macros and their parameters, and the header that
declares it (scripts/api_conformance/compare.py). Each difference is one line.

tests/tt_reference/api_differences.json lists the allowed differences in groups, each with a class
and a reason; every reason must also be written in docs/tt-dialect.md ("The API against 0.81.1").
The check fails on a difference no group lists, on a listed difference that no longer occurs (the
list stays true), on a reason the document lacks, and when the document's two tables are not the
ones --table and --calls print (a call of the table of calls needs a model in the data file). It
skips (exit 77) with one line when the reference tree or the clang bindings are missing.

  api-conformance.py               the check (ctest ApiConformance)
  api-conformance.py --differences print every difference, allowed or not
  api-conformance.py --same        print the names both sides declare alike
  api-conformance.py --calls       the document's table of calls: against 0.81.1, and the model
  api-conformance.py --table       the document's table of groups, from the data file
  api-conformance.py --usage       how many of ttnn's kernels call each compute call, modelled or not
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SKIP = 77
sys.path.insert(0, str(REPO / "scripts"))
from api_conformance.allowed import DOC_SECTION, doc_section, groups_table, judge  # noqa: E402


def tree_path() -> tuple[Path, str]:
    """Where scripts/fetch-tt-metal.sh puts the reference tree, and the first line of the stamp a
    complete one has (as tests/support/tt_metal_tree.hpp reads it)."""
    pin = dict(line.split("=", 1) for line in (REPO / "scripts/tt-metal.pin").read_text().splitlines()
               if "=" in line and not line.startswith("#"))
    if os.environ.get("DITMK_TT_METAL"):
        tree = Path(os.environ["DITMK_TT_METAL"])
    else:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        tree = cache / "ditmk" / f"tt-metal-{pin['version']}"
    return tree, f"ttnn {pin['version']} sha256 {pin['sha256']}"


def usage(tree: Path, ours, theirs) -> int:
    """The compute calls of 0.81.1's compute headers that ttnn's kernels make, and which ditmk declares."""
    from api_conformance.usage import count_calls

    kernels, compute_kernels, counts = count_calls(tree)
    short = lambda name: name.rsplit("::", 1)[-1]
    declared = {short(d.name) for d in ours if d.unit == "compute" and d.kind == "function"}
    calls = {short(d.name) for d in theirs if d.unit == "compute" and d.kind == "function" and d.written_in_public
             and any(h.startswith("api/compute/") for h in d.header) and "::" not in short(d.name)}
    used = sorted(((counts[c], c) for c in calls if counts[c]), reverse=True)
    modelled = [(n, c) for n, c in used if c in declared]
    missing = [(n, c) for n, c in used if c not in declared]
    print(f"{kernels} kernels ({compute_kernels} compute); 0.81.1's compute headers declare {len(calls)} calls, "
          f"{len(used)} of which the kernels call; ditmk declares {len(modelled)} of those")
    print("declared by ditmk (kernels calling it):", ", ".join(f"{c} {n}" for n, c in modelled))
    print("not declared, most used first:", ", ".join(f"{c} {n}" for n, c in missing))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--allowed", type=Path, default=REPO / "tests/tt_reference/api_differences.json")
    ap.add_argument("--doc", type=Path, default=REPO / "docs/tt-dialect.md")
    ap.add_argument("--include", type=Path, default=REPO / "src/ditmk/tt/hw/inc")
    ap.add_argument("--differences", action="store_true", help="print every difference and exit")
    ap.add_argument("--calls", action="store_true", help="print the document's table of calls and exit")
    ap.add_argument("--same", action="store_true", help="print the names declared alike and exit")
    ap.add_argument("--table", action="store_true", help="print the document's table and exit")
    ap.add_argument("--usage", action="store_true", help="print the compute calls ttnn's kernels make and exit")
    ap.add_argument("--verbose", action="store_true", help="also print clang's errors on 0.81.1's headers")
    args = ap.parse_args()

    data = json.loads(args.allowed.read_text())
    groups, models = data["groups"], data["models"]
    if args.table:
        print(groups_table(groups))
        return 0

    tree, stamp = tree_path()
    stamp_file = tree / ".ditmk-tree"
    if not stamp_file.is_file() or stamp_file.read_text().splitlines()[:1] != [stamp]:
        print(f"SKIP: tt-metal reference tree missing at {tree} (scripts/fetch-tt-metal.sh fetches it)")
        return SKIP
    try:
        from api_conformance.calls_table import calls_table
        from api_conformance.compare import compare
        from api_conformance.extract import parse_side
        from api_conformance.sides import GENERATED, ditmk_side, tt_metal_side
    except ImportError as e:
        print(f"SKIP: clang's Python bindings missing ({e}; Debian package python3-clang-14)")
        return SKIP

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ditmk-api-") as tmp:
        shim = Path(tmp)
        for name, text in GENERATED.items():
            (shim / name).write_text(text)
        ours, ours_reach, our_errors = parse_side(ditmk_side(args.include), shim)
        theirs, theirs_reach, their_errors = parse_side(tt_metal_side(tree), shim)
    if our_errors:
        print("ditmk's headers do not parse:", *our_errors[:20], sep="\n  ")
        return 1
    if args.verbose:
        print(f"{len(their_errors)} clang errors in 0.81.1's headers (function bodies are skipped; these are "
              "declarations clang could not resolve):", *their_errors, sep="\n  ")
    if args.usage:
        return usage(tree, ours, theirs)
    result = compare(ours, ours_reach, theirs, theirs_reach)
    if args.differences:
        print(*result.differences, sep="\n")
        return 0
    if args.calls:
        print(calls_table(result, ours, groups, models)[0])
        return 0
    if args.same:
        for unit in sorted({u for u, _ in result.same}):
            print(f"{unit}: " + ", ".join(n for u, n in result.same if u == unit))
        return 0

    doc_text = args.doc.read_text()
    unexpected, stale, problems, by_class = judge(result.differences, groups, doc_text)
    table_text, unmodelled = calls_table(result, ours, groups, models)
    problems += [f"no model in {args.allowed.name} names {c}" for c in unmodelled]
    if table_text not in doc_section(doc_text):
        problems.append(f"'{DOC_SECTION[3:]}' does not show the table of calls `--calls` prints")

    units = {u for u, _ in result.compared}
    names = {n for _, n in result.compared}
    print(f"compared {len(result.compared)} names of {len(units)} APIs ({', '.join(sorted(units))}; "
          f"{len(names)} distinct): {len(result.same)} declared alike; {len(result.differences)} differences")
    print("differences by class: " + ", ".join(f"{c} {n}" for c, n in by_class.items()))
    our_headers = {h for r in ours_reach.values() for h in r}
    their_headers = {h for r in theirs_reach.values() for h in r}
    print(f"public headers: ditmk {len(our_headers)}, 0.81.1 {len(their_headers)} (those the two APIs reach), "
          f"{len(our_headers & their_headers)} of the same path")
    print(f"0.81.1's public headers declare {len(result.reference_names)} names in these APIs; "
          f"ditmk declares {len(result.covered)} of them")
    print(f"({time.monotonic() - started:.1f} s)")
    for d in unexpected:
        print(f"not allowed: {d}")
    for d in stale:
        print(f"stale (no longer occurs; remove it from {args.allowed.name}): {d}")
    for p in problems:
        print(f"{args.doc.name} / {args.allowed.name}: {p}")
    return 1 if unexpected or stale or problems else 0


if __name__ == "__main__":
    sys.exit(main())

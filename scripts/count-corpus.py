#!/usr/bin/env python3
"""Counts the tt-metal corpus of docs/tt-corpus.md: per family, the kernel files its tables list and
how many of them run (a row whose status cell starts with "runs"); then the distinct files over all
families (a file listed in two families, or twice in one, counts once, and runs if any row says so).

usage: scripts/count-corpus.py [docs/tt-corpus.md]"""
import re
import sys
from pathlib import Path

# the Matmul table's shorthand for its kernels' folder
SHORTHAND = {"...": "ttnn/cpp/ttnn/operations/matmul/device/kernels"}


def kernel_path(cell):
    path = cell.split("`")[1]
    for short, full in SHORTHAND.items():
        if path.startswith(short + "/matmul/"):
            path = full + path[len(short) + len("/matmul"):]
    return path


def families(text):
    for section in re.split(r"\n## ", text)[1:]:
        title, rows = section.split("\n", 1)[0], {}
        for line in section.split("\n"):
            if not line.startswith("| `"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            path = kernel_path(cells[0])
            rows[path] = rows.get(path, False) or any(c.startswith("runs") for c in cells[2:])
        if rows:
            yield title, rows


def main():
    doc = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs/tt-corpus.md")
    every = {}
    for title, rows in families(doc.read_text()):
        print(f"{title}: {sum(rows.values())} of {len(rows)} kernel files run")
        for path, runs in rows.items():
            every[path] = every.get(path, False) or runs
    runs = sum(every.values())
    print(f"distinct kernel files: {runs} of {len(every)} run ({100 * runs / len(every):.0f}%)")


if __name__ == "__main__":
    main()

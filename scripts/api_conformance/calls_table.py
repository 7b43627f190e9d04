"""The document's table of calls: every call ditmk declares, by API and header, how it stands
against 0.81.1 (the classes of the groups that list its differences, or "same") and how the emulator
treats it (the data file's "models": patterns of call names, the first that matches)."""
from __future__ import annotations

import re

from .compare import Result
from .decls import Decl


def model_of(name: str, models: list[dict]) -> str | None:
    short = name.removeprefix("ckernel::").removeprefix("tt::")
    for m in models:
        if re.fullmatch(m["calls"], short):
            return m["model"]
    return None


def calls_table(result: Result, ours: list[Decl], groups: list[dict], models: list[dict]) -> tuple[str, list[str]]:
    """Every call ditmk declares, by header: how it stands against 0.81.1 and how the emulator
    treats it (the "models" of the data file); and the calls no model names."""
    status: dict[tuple[str, str], set[str]] = {k: {"same"} for k in result.same}
    for g in groups:
        for line in g["differences"]:
            units, rest = line[1:].split("] ", 1)
            name = rest.split(": ", 1)[0]
            for unit in units.split(", "):
                status.setdefault((unit, name), set()).add(g["class"])
    # A class stands as its members do.
    for (unit, name), st in list(status.items()):
        member = name.removeprefix("ckernel::")
        if "::" in member:
            owner = name[: len(name) - len(member)] + member.split("::", 1)[0]
            status.setdefault((unit, owner), set()).update(st)
    for st in status.values():
        if len(st) > 1:
            st.discard("same")
    header = {}
    for d in ours:
        if d.kind in ("function", "macro", "class", "enum") or (d.kind == "variable" and "::" not in d.name):
            header.setdefault((d.unit, d.name), d.header[0])
    classes = {d.name for d in ours if d.kind == "class"}
    rows: dict[tuple, list[str]] = {}
    unmodelled = []
    for (unit, name), h in sorted(header.items()):
        if name.rsplit("::", 1)[0] in classes or (unit, name) not in status:
            continue
        model = model_of(name, models)
        if model is None:
            unmodelled.append(f"[{unit}] {name}")
            continue
        st = ", ".join(sorted(status[(unit, name)]))
        rows.setdefault((unit, h, st, model), []).append(f"`{name.removeprefix('ckernel::')}`")  # as kernels call it
    out = ["| API | ditmk's header | Calls | Against 0.81.1 | Model |", "|---|---|---|---|---|"]
    for (unit, h, st, model), names in sorted(rows.items()):
        out.append(f"| {unit} | `{h}` | {', '.join(names)} | {st} | {model} |")
    return "\n".join(out), unmodelled

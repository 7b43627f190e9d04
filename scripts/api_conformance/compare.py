"""Compares ditmk's declarations with 0.81.1's, name by name, and says each difference in one line.

Compared: every name ditmk's public headers export, every name 0.81.1 declares in a header ditmk
also has, and every name of 0.81.1's object-style dataflow API (OBJECT_API), per translation unit
(a call can be in both the data-movement and the compute API, from different headers). A name's
declarations on a side are a set of signatures (the overloads; a macro and a variable of the same
name are two entries), so a difference is an overload one side has and the other lacks, or, when
each side has exactly one the other lacks, the pair. The header check asks whether a kernel that
includes the header 0.81.1 declares a name in gets it from ditmk's headers too; the public header
files are compared as well.
"""
from __future__ import annotations

import collections
import dataclasses

from .decls import Decl

# 0.81.1's object-style dataflow API (Noc, CircularBuffer, the endpoints, semaphores).
OBJECT_API = ("api/dataflow/noc.h", "api/dataflow/circular_buffer.h", "api/dataflow/endpoints.h",
              "api/dataflow/noc_semaphore.h", "api/dataflow/semaphore_dm_impl.h")


# Headers of ops ditmk models whose 0.81.1 file name differs from ditmk's (transpose_wh.h).
MORE_HEADERS = ("api/compute/transpose.h",)


@dataclasses.dataclass
class Result:
    compared: list[tuple[str, str]]  # (unit, name) compared
    same: list[tuple[str, str]]  # of those, declared alike on both sides
    differences: list[str]  # one line each
    reference_names: set[tuple[str, str]]  # every (unit, name) 0.81.1's public headers declare themselves
    covered: set[tuple[str, str]]  # of those, the ones ditmk declares too


def _entry(d: Decl) -> str:
    return d.signature if d.kind in ("function", "macro", "enum", "class") else f"{d.kind} {d.signature}"


def _owner(name: str) -> str | None:
    return name.rsplit("::", 1)[0] if "::" in name else None


def compare(ours: list[Decl], ours_reach: dict, theirs: list[Decl], theirs_reach: dict) -> Result:
    mine = collections.defaultdict(list)
    ref = collections.defaultdict(list)
    for d in ours:
        mine[(d.unit, d.name)].append(d)
    for d in theirs:
        ref[(d.unit, d.name)].append(d)

    reference_names = {(d.unit, d.name) for d in theirs if d.written_in_public}
    # Besides ditmk's names: all that 0.81.1 declares in the headers ditmk also has (the calls of the
    # ops it models, under their 0.81.1 names), in MORE_HEADERS, and its object-style API.
    mirrored = {(unit, h) for unit, headers in ours_reach.items() for h in headers} | {
        (unit, h) for unit in ours_reach for h in MORE_HEADERS + OBJECT_API}
    theirs_compared = {(d.unit, d.name) for d in theirs
                       if d.written_in_public and any((d.unit, h) in mirrored for h in d.header)}
    compared = sorted(set(mine) | theirs_compared)

    diffs: list[str] = []
    same: list[tuple[str, str]] = []
    # Compute kernels call ckernel's functions unqualified: a global one of ditmk's stands for
    # 0.81.1's ckernel:: one of that name (the namespace matters only to a qualified call).
    in_ckernel = {(unit, name): (unit, f"ckernel::{name}") for unit, name in mine
                  if "::" not in name and (unit, name) not in ref and (unit, f"ckernel::{name}") in ref}
    stood_for = set(in_ckernel.values())
    for unit, name in compared:
        if (unit, name) in stood_for and (unit, name) not in mine:
            continue
        m, r = mine.get((unit, name), []), ref.get((unit, name), [])
        where = f"[{unit}] {name}"
        if (unit, name) in in_ckernel:
            r = ref[in_ckernel[(unit, name)]]
            diffs.append(f"{where}: 0.81.1 declares it in namespace ckernel, ditmk in the global namespace")
        if not r:
            diffs.append(f"{where}: only ditmk declares it ({_kinds(m)}, {m[0].header[0]})")
            continue
        if not m:
            owner = _owner(name)
            if owner is not None and not mine.get((unit, owner)) and ref.get((unit, owner)):
                continue  # its class is missing: one line says so
            diffs.append(f"{where}: 0.81.1 declares it ({_kinds(r)}, {_headers(r)}), ditmk does not")
            continue
        before = len(diffs)
        ms, rs = {_entry(d) for d in m}, {_entry(d) for d in r}
        only_m, only_r = sorted(ms - rs), sorted(rs - ms)
        if len(only_m) == 1 and len(only_r) == 1 and only_m[0].startswith("enum") and only_r[0].startswith("enum"):
            diffs += _enum_difference(where, only_m[0], only_r[0])
        elif len(only_m) == 1 and len(only_r) == 1:
            diffs.append(f"{where}: ditmk `{only_m[0]}`, 0.81.1 `{only_r[0]}`")
        else:
            diffs += [f"{where}: only ditmk has `{s}`" for s in only_m]
            diffs += [f"{where}: only 0.81.1 has `{s}`" for s in only_r]
        diffs += _header_difference(where, m, r, ours_reach.get(unit, {}))
        if len(diffs) == before:
            same.append((unit, name))
    diffs += _header_files(ours_reach, theirs_reach)
    covered = {k for k in reference_names if k in mine}
    return Result(compared, same, _merge_units(diffs), reference_names, covered)


def _merge_units(lines: list[str]) -> list[str]:
    """One line for a difference both units show: "[compute, dataflow] name: ..."."""
    units = collections.defaultdict(list)
    for line in lines:
        unit, rest = line[1:].split("] ", 1)
        units[rest].append(unit)
    return sorted(f"[{', '.join(sorted(set(u)))}] {rest}" for rest, u in units.items())


def _enum_difference(where: str, mine: str, ref: str) -> list[str]:
    """An enum's kind (scoped or not, underlying type) and the enumerators one side lacks."""
    def split(sig):
        head, body = sig.split(" {", 1)
        return head, set(body.rstrip("}").split(", ")) - {""}
    (mh, mv), (rh, rv) = split(mine), split(ref)
    out = []
    if mh != rh:
        out.append(f"{where}: ditmk `{mh}`, 0.81.1 `{rh}`")
    if mv - rv:
        out.append(f"{where}: only ditmk has {', '.join(sorted(mv - rv))}")
    if rv - mv:
        out.append(f"{where}: only 0.81.1 has {', '.join(sorted(rv - mv))}")
    return out


def _header_files(ours_reach: dict, theirs_reach: dict) -> list[str]:
    """The public headers one side has and the other lacks: a kernel that includes one does not
    compile on the other side."""
    out = []
    for unit in sorted(set(ours_reach) | set(theirs_reach)):
        mine, ref = set(ours_reach.get(unit, {})), set(theirs_reach.get(unit, {}))
        out += [f"[{unit}] header {h}: only ditmk has it" for h in sorted(mine - ref)]
        out += [f"[{unit}] header {h}: only 0.81.1 has it" for h in sorted(ref - mine)]
    return out


def _kinds(ds: list[Decl]) -> str:
    return "/".join(sorted({d.kind for d in ds}))


def _headers(ds: list[Decl]) -> str:
    declared = sorted({h for d in ds if d.written_in_public for h in d.header})
    return ", ".join(declared or sorted({h for d in ds for h in d.header})[:3])


def _header_difference(where: str, m: list[Decl], r: list[Decl], reach: dict[str, set[str]]) -> list[str]:
    """A kernel that includes a header 0.81.1 declares the name in must get it from ditmk's too."""
    declared_in = sorted({h for d in r if d.written_in_public for h in d.header})
    if not declared_in:
        return []  # 0.81.1 declares it in an internal header: any public header that brings it will do
    ours = {h for d in m for h in d.header}
    ok = [h for h in declared_in if reach.get(h, set()) & ours]
    if ok:
        return []
    return [f"{where}: 0.81.1 declares it in {', '.join(declared_in)}; ditmk in {', '.join(sorted(ours))}"]

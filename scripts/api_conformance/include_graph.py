"""Who includes whom among the files of one translation unit, and so which public header exports a
declaration written in an internal one, and which public headers a kernel that includes one gets."""
from __future__ import annotations

import re
from pathlib import Path

from .decls import Side, relative


_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


class IncludeGraph:
    """Who includes whom among the files of one translation unit, read from their #include lines
    (so a header skipped by #pragma once still counts as included where it is written)."""

    def __init__(self, side: Side, files: set[str]):
        self.side = side
        self.children: dict[str, set[str]] = {f: set() for f in files}
        self.parents: dict[str, set[str]] = {f: set() for f in files}
        for f in files:
            try:
                text = Path(f).read_text(errors="replace")
            except OSError:
                continue
            for name in _INCLUDE.findall(text):
                for d in [Path(f).parent] + list(side.include_dirs):
                    target = str((Path(d) / name).resolve())
                    if target in self.children:
                        self.children[f].add(target)
                        self.parents[target].add(f)
                        break
        self._exporters: dict[str, tuple[str, ...]] = {}

    def public_name(self, f: str) -> str | None:
        rel = relative(f, self.side.roots)
        return rel if rel is not None and self.side.is_public(rel) else None

    def exporters(self, f: str) -> tuple[str, ...]:
        """The public headers nearest above a file (the file itself when it is public)."""
        if f not in self._exporters:
            found, seen, todo = set(), {f}, [f]
            while todo:
                g = todo.pop()
                name = self.public_name(g)
                if name is not None:
                    found.add(name)
                    continue
                for p in self.parents.get(g, ()):
                    if p not in seen:
                        seen.add(p)
                        todo.append(p)
            self._exporters[f] = tuple(sorted(found))
        return self._exporters[f]

    def reach(self) -> dict[str, set[str]]:
        """For each public header, the public headers a kernel that includes it also gets."""
        out = {}
        for f in self.children:
            name = self.public_name(f)
            if name is None:
                continue
            seen, todo = {f}, [f]
            while todo:
                for c in self.children[todo.pop()]:
                    if c not in seen:
                        seen.add(c)
                        todo.append(c)
            out[name] = {n for n in map(self.public_name, seen) if n is not None}
        return out

"""What the comparison speaks of: a declaration one side exports (Decl), and a side (Side): its
headers, the folders they are found in, and the translation units it is read as."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable


@dataclasses.dataclass(frozen=True)
class Decl:
    kind: str  # function, class, enum, variable, type, macro
    name: str  # qualified, e.g. ckernel::mm_init, Noc::async_read
    header: tuple[str, ...]  # the public headers nearest above its file (relative to the API root)
    signature: str  # what is compared besides the header
    written_in_public: bool  # declared in a public header itself (not reached through an internal one)
    unit: str = ""  # the translation unit (dataflow, compute) it was seen in


@dataclasses.dataclass
class Side:
    name: str
    roots: list[Path]  # API roots: a header's name is its path relative to the first that holds it
    include_dirs: list[Path]
    is_public: Callable[[str], bool]  # relative header path -> bool
    defines: dict[str, list[str]]  # translation unit name -> -D flags
    headers: dict[str, list[str]]  # translation unit name -> public headers to include
    owned: list[Path]  # files outside these (the C++ library, stand-ins) belong to neither side
    prelude: dict[str, list[str]] = dataclasses.field(default_factory=dict)  # included first, unattributed


def relative(path: str, roots: list[Path]) -> str | None:
    p = Path(path).resolve()
    for root in roots:
        try:
            return str(p.relative_to(root))
        except ValueError:
            pass
    return None

"""Reads the declarations a set of device headers export, through libclang (python3-clang-14).

One side (ditmk's headers or tt-metal 0.81.1's) is parsed as a few translation units, each the
#includes of that side's public headers under one processor's defines (data movement, compute).
Function bodies are skipped: only declarations are compared, and tt-metal's bodies need the RISC-V
compiler's builtins. Headers the reference tree does not carry (the SFPI compiler's sfpi.h and
lltt.h, tt-llk's sanitizer/api.h) are found by parsing and are stood in for by empty files in a
temporary folder, never when the missing header is one of the side's own public headers.

Each declaration becomes a Decl: the header that exports it (its own file when that is public,
else the nearest public header that includes it), a kind, a qualified name and a signature string
built from canonical types (so uint32_t and std::uint32_t compare equal; parameter names do not
count, default values and template parameters do).
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from clang import cindex

from .decls import Decl, Side, relative
from .include_graph import IncludeGraph

K = cindex.CursorKind

LIBCLANG = "/usr/lib/llvm-14/lib/libclang.so.1"


def _library():
    if not cindex.Config.loaded:
        cindex.Config.set_library_file(LIBCLANG)


def _tokens(cursor) -> list[str]:
    return [t.spelling for t in cursor.get_tokens()]


def _default(cursor) -> str:
    """The default of a parameter or template parameter, as written (normalised spacing)."""
    toks = _tokens(cursor)
    depth = 0
    for i, t in enumerate(toks):
        if t in ("<", "(", "[", "{"):
            depth += 1
        elif t in (">", ")", "]", "}"):
            depth -= 1
        elif t == "=" and depth == 0:
            return " ".join(toks[i + 1:])
    return ""


def _value(t) -> str:
    """A by-value parameter's or return type without its top-level const (not part of the signature)."""
    c = t.get_canonical()
    s = _canonical(t)
    if c.is_const_qualified() and c.kind not in (cindex.TypeKind.LVALUEREFERENCE, cindex.TypeKind.RVALUEREFERENCE):
        s = re.sub(r"^const |(?<=\*) ?const$", "", s).strip()
    return s


def _canonical(t) -> str:
    # Through typedefs to the type itself; a template's own parameters print by position
    # (type-parameter-0-0), so two templates compare whatever their parameters are called.
    return re.sub(r"\s+", " ", t.get_canonical().spelling)


def _template_params(cursor) -> list[str]:
    out = []
    for c in cursor.get_children():
        if c.kind == K.TEMPLATE_TYPE_PARAMETER:
            toks = _tokens(c)
            pack = "..." if "..." in toks else ""
            s = f"typename{pack}"
        elif c.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
            toks = _tokens(c)
            pack = "..." if "..." in toks else ""
            ty = "auto" if toks and toks[0] == "auto" else _canonical(c.type)
            s = f"{ty}{pack}"
        elif c.kind == K.TEMPLATE_TEMPLATE_PARAMETER:
            s = "template"
        else:
            continue
        d = _default(c)
        out.append(f"{s} = {d}" if d else s)
    return out


def _is_constexpr(cursor) -> bool:
    # The specifiers come before the declared name; stop there (a body may say constexpr too).
    for t in cursor.get_tokens():
        if t.spelling == cursor.spelling:
            return False
        if t.spelling in ("constexpr", "consteval"):
            return True
    return False


def _function_signature(cursor) -> str:
    params = [c for c in cursor.get_children() if c.kind == K.PARM_DECL]
    ps = []
    for p in params:
        d = _default(p)
        ty = _value(p.type)
        ps.append(f"{ty} = {d}" if d else ty)
    ret = _value(cursor.result_type)
    if cursor.type.kind == cindex.TypeKind.FUNCTIONPROTO and cursor.type.is_function_variadic():
        ps.append("...")
    sig = f"{ret}({', '.join(ps)})"
    if cursor.kind == K.FUNCTION_TEMPLATE:
        sig = f"template <{', '.join(_template_params(cursor))}> {sig}"
    if _is_constexpr(cursor):
        sig = "constexpr " + sig
    if cursor.kind == K.CXX_METHOD and cursor.is_const_method():
        sig += " const"
    if cursor.kind == K.CXX_METHOD and cursor.is_static_method():
        sig = "static " + sig
    return sig


# Namespaces that hold a side's plumbing rather than its API.
PRIVATE_NAMESPACES = {"ditmk", "detail", "internal", "internal_", "(anonymous)"}


def _private(namespace: str) -> bool:
    return (namespace in PRIVATE_NAMESPACES or namespace.endswith("_detail") or namespace.startswith("detail_")
            or namespace.endswith("_internal"))

FUNCTIONS = (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE)
CLASSES = (K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE, K.UNION_DECL)
MEMBER_FUNCTIONS = (K.CXX_METHOD, K.FUNCTION_TEMPLATE, K.CONSTRUCTOR)


def _members(cursor, qname, header, public, out):
    for m in cursor.get_children():
        if m.access_specifier not in (cindex.AccessSpecifier.PUBLIC, cindex.AccessSpecifier.INVALID):
            continue
        if m.kind in MEMBER_FUNCTIONS:
            if not m.spelling.startswith("<deduction guide"):
                out.append(Decl("function", f"{qname}::{m.spelling}", header, _function_signature(m), public))
        elif m.kind == K.FIELD_DECL:
            out.append(Decl("variable", f"{qname}::{m.spelling}", header, _canonical(m.type), public))
        elif m.kind == K.VAR_DECL:
            sig = ("constexpr " if _is_constexpr(m) else "static ") + _canonical(m.type)
            out.append(Decl("variable", f"{qname}::{m.spelling}", header, sig, public))


def _enum(cursor) -> str:
    underlying = cursor.enum_type.get_canonical()
    bits = 8 * max(underlying.get_size(), 1)
    unsigned = underlying.spelling.startswith("unsigned") or underlying.spelling in ("bool", "char8_t")

    def value(e) -> int:
        return e.enum_value % (1 << bits) if unsigned else e.enum_value

    # In value order: the order enumerators are written in does not change what a kernel can say.
    members = sorted((value(e), e.spelling) for e in cursor.get_children() if e.kind == K.ENUM_CONSTANT_DECL)
    vals = [f"{name} = {v}" for v, name in members]
    scoped = "class " if any(t in ("class", "struct") for t in _tokens(cursor)[:3]) else ""
    return f"enum {scoped}: {_canonical(cursor.enum_type)} {{{', '.join(vals)}}}"


def _macro(cursor) -> str:
    toks = list(cursor.get_tokens())
    if len(toks) >= 2 and toks[1].spelling == "(" and toks[1].extent.start.offset == toks[0].extent.end.offset:
        close = next(i for i, t in enumerate(toks) if t.spelling == ")")
        return "macro(" + "".join(t.spelling for t in toks[2:close]).replace(",", ", ") + ")"
    return "macro"


def _include_guard(cursor) -> bool:
    """A header's own guard macro (FOO_H defined empty) is no API."""
    name = cursor.spelling
    return re.search(r"_(H|HPP|H_|INL)$", name) is not None and len(list(cursor.get_tokens())) == 1


class _Walker:
    def __init__(self, side: Side, graph: IncludeGraph):
        self.side = side
        self.graph = graph
        self.cache: dict[str, tuple[tuple[str, ...], bool]] = {}
        self.out: list[Decl] = []

    def header_of(self, name: str) -> tuple[tuple[str, ...], bool]:
        """The public headers that export a file's declarations, and whether the file is one."""
        if name not in self.cache:
            f = str(Path(name).resolve())
            if relative(f, self.side.owned) is None:
                self.cache[name] = ((), False)
            else:
                self.cache[name] = (self.graph.exporters(f), self.graph.public_name(f) is not None)
        return self.cache[name]

    def walk(self, cursor, scope: list[str]):
        for c in cursor.get_children():
            if c.kind == K.NAMESPACE:
                self.walk(c, scope + [c.spelling or "(anonymous)"])
                continue
            if c.kind == K.LINKAGE_SPEC:
                self.walk(c, scope)
                continue
            if c.location.file is None or not c.spelling:
                continue
            header, public = self.header_of(c.location.file.name)
            if not header:
                continue
            if any(map(_private, scope)) or c.spelling.lower().startswith("ditmk_"):
                continue
            if c.spelling.startswith("<deduction guide"):
                continue  # how class template arguments are deduced; the constructors are compared
            qname = "::".join(scope + [c.spelling])
            if c.kind in FUNCTIONS:
                self.out.append(Decl("function", qname, header, _function_signature(c), public))
            elif c.kind in CLASSES and c.is_definition():
                tparams = _template_params(c) if c.kind == K.CLASS_TEMPLATE else []
                sig = f"template <{', '.join(tparams)}> class" if c.kind == K.CLASS_TEMPLATE else "class"
                self.out.append(Decl("class", qname, header, sig, public))
                _members(c, qname, header, public, self.out)
            elif c.kind == K.ENUM_DECL and c.is_definition():
                self.out.append(Decl("enum", qname, header, _enum(c), public))
            elif c.kind == K.VAR_DECL:
                sig = ("constexpr " if _is_constexpr(c) else "") + _canonical(c.type)
                self.out.append(Decl("variable", qname, header, sig, public))
            elif c.kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
                self.out.append(Decl("type", qname, header, _canonical(c.underlying_typedef_type), public))
            elif c.kind == K.MACRO_DEFINITION and not scope:
                if c.spelling.startswith("_") or c.spelling.startswith("DITMK_") or _include_guard(c):
                    continue
                self.out.append(Decl("macro", c.spelling, header, _macro(c), public))


_MISSING = re.compile(r"'([^']+)' file not found")


def parse_side(side: Side, shim_dir: Path) -> tuple[list[Decl], dict, list[str]]:
    """Every declaration the side's translation units export, which public headers each public
    header brings in (per unit), and clang's errors (for --verbose)."""
    _library()
    index = cindex.Index.create()
    decls: dict[tuple, Decl] = {}
    reach: dict[str, dict[str, set[str]]] = {}
    errors: list[str] = []
    opts = (cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
            | cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
            | cindex.TranslationUnit.PARSE_INCOMPLETE)
    for unit, headers in side.headers.items():
        present = [h for h in headers if any((r / h).is_file() for r in side.roots)]
        source = "".join(f'#include "{h}"\n' for h in side.prelude.get(unit, []) + present)
        name = f"{side.name}_{unit}.cpp"
        # -Wno-invalid-constexpr: a constexpr function that reads a constant table only when the JIT
        # defines one (cb_format.h's get_tile_size without DATA_FORMATS_DEFINED) is valid C++23 and
        # accepted by GCC; clang 14 reports it as an error by default.
        args = ["-x", "c++", "-std=c++20", "-w", "-Wno-invalid-constexpr", "-ferror-limit=0"]
        args += [f"-I{d}" for d in side.include_dirs] + [f"-I{shim_dir}"] + side.defines[unit]
        for _ in range(40):
            tu = index.parse(name, args=args, unsaved_files=[(name, source)], options=opts)
            missing = [m.group(1) for d in tu.diagnostics if d.severity >= cindex.Diagnostic.Fatal
                       for m in [_MISSING.search(d.spelling)] if m]
            if not missing:
                break
            for m in missing:
                if side.is_public(m):
                    raise RuntimeError(f"{side.name}: its public header {m} is missing")
                (shim_dir / m).parent.mkdir(parents=True, exist_ok=True)
                (shim_dir / m).write_text("// empty stand-in: the reference tree does not carry this header\n")
        files = {str(Path(i.include.name).resolve()) for i in tu.get_includes()}
        graph = IncludeGraph(side, files)
        for h, r in graph.reach().items():
            reach.setdefault(unit, {}).setdefault(h, set()).update(r)
        walker = _Walker(side, graph)
        walker.walk(tu.cursor, [])
        for d in walker.out:
            decls.setdefault((unit, d.kind, d.name, d.signature), dataclasses.replace(d, unit=unit))
        errors += [f"{unit}: {d.location.file}:{d.location.line}: {d.spelling}" for d in tu.diagnostics
                   if d.severity >= cindex.Diagnostic.Error]
    return list(decls.values()), reach, errors

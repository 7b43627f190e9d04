"""The allowed differences (tests/tt_reference/api_differences.json) against the ones found: what
is not allowed, what is listed but no longer occurs, and whether docs/tt-dialect.md states every
group's reason and shows the data file's table of groups."""
from __future__ import annotations

DOC_SECTION = "## The API against 0.81.1"
CLASSES = ("deviating", "older form", "not modelled", "header")


def doc_section(text: str) -> str:
    """The document's section on the API against 0.81.1 ("" when it has none)."""
    start = text.find(DOC_SECTION)
    if start < 0:
        return ""
    end = text.find("\n## ", start + len(DOC_SECTION))
    return text[start:end if end >= 0 else len(text)]


def groups_table(groups: list[dict]) -> str:
    rows = ["| Calls | Against 0.81.1 | Why |", "|---|---|---|"]
    for g in groups:
        rows.append(f"| {g['calls']} | {g['class']} | {g['reason']} |")
    return "\n".join(rows)


def judge(differences: list[str], groups: list[dict], doc_text: str) -> tuple[list[str], list[str], list[str], dict]:
    """(differences no group lists, listed ones that no longer occur, problems of the data file or
    the document, the count of differences per class)."""
    section = doc_section(doc_text)
    allowed: dict[str, dict] = {}
    problems: list[str] = []
    for g in groups:
        if g["class"] not in CLASSES:
            problems.append(f"group '{g['calls']}' has class '{g['class']}' (one of {', '.join(CLASSES)})")
        if g["reason"] not in section:
            problems.append(f"'{DOC_SECTION[3:]}' lacks the reason of group '{g['calls']}'")
        for line in g["differences"]:
            allowed[line] = g
    if groups_table(groups) not in section:
        problems.append(f"'{DOC_SECTION[3:]}' does not show the table of groups `--table` prints")
    found = set(differences)
    unexpected = [d for d in differences if d not in allowed]
    stale = [d for d in allowed if d not in found]
    by_class = {c: sum(1 for d in differences if d in allowed and allowed[d]["class"] == c) for c in CLASSES}
    return unexpected, stale, problems, by_class

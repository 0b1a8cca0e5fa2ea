"""``# mcpmigrate: ignore[MCP101, MCP102]`` suppression comments (DESIGN §6).

A comment on the reported line silences the listed rules there; ``# mcpmigrate: ignore`` with no
list silences every rule on that line. Comments are found with the tokenizer, so the marker
inside a string is not a suppression.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

_MARKER = re.compile(r"#\s*mcpmigrate:\s*ignore(?:\[(?P<ids>[^\]]*)\])?", re.IGNORECASE)


@dataclass
class Suppression:
    line: int
    ids: frozenset[str] | None  # None: every rule
    used: set[str] = field(default_factory=set)


def find_suppressions(source: bytes) -> dict[int, Suppression]:
    """Suppressions by 1-based line. Returns ``{}`` when the file has no marker at all."""
    if b"mcpmigrate" not in source:
        return {}
    out: dict[int, Suppression] = {}
    try:
        tokens = list(tokenize.tokenize(io.BytesIO(source).readline))
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        return out
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        m = _MARKER.search(tok.string)
        if not m:
            continue
        ids = m.group("ids")
        parsed = frozenset(i.strip().upper() for i in ids.split(",") if i.strip()) if ids is not None else None
        out[tok.start[0]] = Suppression(tok.start[0], parsed)
    return out


def is_suppressed(sups: dict[int, Suppression], line: int, end_line: int, rule: str) -> bool:
    """True when a suppression on the finding's first or last line covers ``rule``."""
    for ln in {line, end_line}:
        s = sups.get(ln)
        if s is not None and (s.ids is None or rule in s.ids):
            s.used.add(rule)
            return True
    return False

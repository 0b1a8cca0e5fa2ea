"""``# mcpmigrate: ignore[MCP101, MCP102]`` suppression comments (README.md, "Suppressions").

A comment on the reported line silences the listed rules there; ``# mcpmigrate: ignore`` with no
list silences every rule on that line. ruff's spelling, ``# noqa: MCP101``, does the same for the
``MCP`` codes it lists (the other codes belong to other tools; a bare ``# noqa`` is left to them).
``# mcpmigrate: ignore-file`` (every rule) or ``# mcpmigrate: ignore-file[MCP101]`` anywhere in
a file silences those rules in the whole file. Comments are found with the tokenizer, so a
marker inside a string is not a suppression.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

_MARKER = re.compile(r"#\s*mcpmigrate:\s*ignore(?!-file)(?:\[(?P<ids>[^\]]*)\])?", re.IGNORECASE)
#: ruff's and flake8's noqa comment with a code list (`noqa: CODE, CODE`; the colon and codes required here)
_NOQA = re.compile(r"#\s*noqa\s*:\s*(?P<ids>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)", re.IGNORECASE)
_FILE = re.compile(r"#\s*mcpmigrate:\s*ignore-file(?:\[(?P<ids>[^\]]*)\])?", re.IGNORECASE)
#: the key of a file-level suppression in :func:`find_suppressions`' answer (no line is 0)
FILE_LEVEL = 0


@dataclass
class Suppression:
    line: int
    ids: frozenset[str] | None  # None: every rule
    used: set[str] = field(default_factory=set)


def find_suppressions(source: bytes) -> dict[int, Suppression]:
    """Suppressions by 1-based line; a file-level one under :data:`FILE_LEVEL` (its ``line`` the
    comment's). Returns ``{}`` when the file has no marker at all."""
    lowered = source.lower()
    if b"mcpmigrate" not in lowered and b"noqa" not in lowered:
        return {}
    out: dict[int, Suppression] = {}
    try:
        tokens = list(tokenize.tokenize(io.BytesIO(source).readline))
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        return out
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        line = tok.start[0]
        m = _MARKER.search(tok.string)
        noqa = _NOQA.search(tok.string)
        whole = _FILE.search(tok.string)
        if whole and FILE_LEVEL not in out:
            out[FILE_LEVEL] = Suppression(line, _ids(whole.group("ids")))
        if not m and not noqa:
            continue
        ids = _ids(m.group("ids")) if m else frozenset()
        if noqa:
            codes = frozenset(c.upper() for c in re.split(r"[\s,]+", noqa.group("ids")) if c)
            mcp = frozenset(c for c in codes if c.startswith("MCP"))
            if not mcp and not m:
                continue  # another tool's codes only
            ids = None if ids is None else ids | mcp
        out[line] = Suppression(line, ids)
    return out


def _ids(listed: str | None) -> frozenset[str] | None:
    """The rule ids of a marker's ``[...]``; None (every rule) without one."""
    return frozenset(i.strip().upper() for i in listed.split(",") if i.strip()) if listed is not None else None


def is_suppressed(sups: dict[int, Suppression], line: int, end_line: int, rule: str) -> bool:
    """True when a suppression on the finding's first or last line, or the file's, covers ``rule``."""
    for ln in (line, end_line, FILE_LEVEL):
        s = sups.get(ln)
        if s is not None and (s.ids is None or rule in s.ids):
            s.used.add(rule)
            return True
    return False


def marker_span(line_text: str) -> tuple[int, int] | None:
    """1-based ``(column, end column)`` of the suppression marker in one line's text, or None."""
    m = _MARKER.search(line_text) or _NOQA.search(line_text) or _FILE.search(line_text)
    if m is None:
        return None
    return m.start() + 1, m.end() + 1


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _comment_safe_lines(source: bytes) -> set[int] | None:
    """1-based lines after whose end a comment can be added without changing the code: the line
    ends a logical line or a bracketed physical line (a NEWLINE or NL token), not inside a string
    and not after a backslash continuation. None when the source does not tokenize."""
    try:
        tokens = list(tokenize.tokenize(io.BytesIO(source).readline))
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        return None
    return {tok.start[0] for tok in tokens if tok.type in (tokenize.NEWLINE, tokenize.NL)}


def add_suppressions(
    source: bytes, requests: list[tuple[str, tuple[int, ...]]]
) -> tuple[bytes, int, list[tuple[str, int]]]:
    """Add ``# mcpmigrate: ignore[ID]`` comments (``--add-noqa``).

    ``requests`` holds ``(rule id, candidate lines)``: the comment goes on the first candidate
    line where a comment is safe (a finding's first line, else its last line; suppression honours
    both). An existing marker on that line is extended, other comments are kept. Returns the new
    source (encoding, BOM and newline style kept), the number of lines changed, and the
    ``(rule, line)`` requests no line could take.
    """
    safe = _comment_safe_lines(source)
    if safe is None:
        return source, 0, [(rid, candidates[0]) for rid, candidates in requests]
    wanted: dict[int, set[str]] = {}
    skipped: list[tuple[str, int]] = []
    for rid, candidates in requests:
        target = next((ln for ln in candidates if ln in safe), None)
        if target is None:
            skipped.append((rid, candidates[0]))
        else:
            wanted.setdefault(target, set()).add(rid)
    if not wanted:
        return source, 0, skipped
    encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    text = source.decode(encoding)
    lines = _LINE.findall(text)
    existing = find_suppressions(source)
    changed = 0
    for ln, ids in sorted(wanted.items()):
        if ln > len(lines):
            continue
        raw = lines[ln - 1]
        body = raw.rstrip("\r\n")
        eol = raw[len(body) :]
        sup = existing.get(ln)
        m = _MARKER.search(body)
        if sup is not None and (sup.ids is None or ids <= sup.ids):
            continue  # already covered (by this tool's marker or a noqa comment listing the rule)
        if sup is not None and sup.ids is not None and m is not None:
            merged = ", ".join(sorted(sup.ids | ids))
            body = body[: m.start()] + f"# mcpmigrate: ignore[{merged}]" + body[m.end() :]
        else:
            body = body.rstrip(" \t") if body.strip() else body
            body += f"  # mcpmigrate: ignore[{', '.join(sorted(ids))}]"
        lines[ln - 1] = body + eol
        changed += 1
    new = "".join(lines).encode(encoding)
    return new, changed, skipped

"""What a fix writes keeps the project's style: added imports go into their isort section in
sorted order, and a signature or call the fix rewrote that no longer fits the project's line
length is wrapped the way ruff format / black wrap it (README.md, "Fixes keep your style").

Only what the fix wrote is touched: an import statement it adds or merges a name into, a function
header whose text is new, a one-line statement whose text is new. The rest of the file stays as
the user wrote it, formatted or not.

The settings (:class:`Style`) are read from the nearest ``ruff.toml`` / ``.ruff.toml`` /
``pyproject.toml`` above the file that configures ruff, black or isort: ``line-length``
(``[tool.ruff]``, ``[tool.black]``, isort's ``line_length``; default 88, ruff's and black's),
``known-first-party`` and ``force-sort-within-sections`` (``[tool.ruff.lint.isort]``,
``[tool.ruff.isort]``, ``[tool.isort]``). Sections and order follow ruff's ``I001`` rule with
those settings (https://docs.astral.sh/ruff/settings/#lint_isort): future, standard library,
third party, first party, local folder; within a section ``import x`` before ``from x import``,
modules compared case-insensitively; imported names constants first, then classes, then the rest.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from mcpmigrate.config import tomllib

DEFAULT_LINE_LENGTH = 88  # ruff's and black's default
_CONFIG_FILES = (".ruff.toml", "ruff.toml", "pyproject.toml")


@dataclass(frozen=True)
class Style:
    """The project's formatting and import-sorting settings a fix honours."""

    line_length: int = DEFAULT_LINE_LENGTH
    known_first_party: frozenset[str] = frozenset()
    force_sort_within_sections: bool = False
    #: directories whose top-level packages and modules are first party (ruff's ``src``)
    src: tuple[str, ...] = ()


def _table(data: dict, *keys: str) -> dict:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None  # type: ignore[assignment]
    return data if isinstance(data, dict) else {}


def _style_of(path: Path, data: dict) -> Style | None:
    """The style a configuration file declares, or None when it configures none of the tools."""
    if path.name == "pyproject.toml":
        tool = _table(data, "tool")
        if not any(name in tool for name in ("ruff", "black", "isort")):
            return None
        ruff, black, isort = _table(tool, "ruff"), _table(tool, "black"), _table(tool, "isort")
    else:
        ruff, black, isort = data, {}, {}
    ruff_isort = _table(ruff, "lint", "isort") or _table(ruff, "isort")
    length = ruff.get("line-length", black.get("line-length", isort.get("line_length", DEFAULT_LINE_LENGTH)))
    first = ruff_isort.get("known-first-party", isort.get("known_first_party", []))
    force = ruff_isort.get("force-sort-within-sections", isort.get("force_sort_within_sections", False))
    src = ruff.get("src", [".", "src"])
    base = path.parent
    return Style(
        line_length=length if isinstance(length, int) and length > 0 else DEFAULT_LINE_LENGTH,
        known_first_party=frozenset(f for f in first if isinstance(f, str)) if isinstance(first, list) else frozenset(),
        force_sort_within_sections=force is True,
        src=tuple(str(base / s) for s in src if isinstance(s, str)) if isinstance(src, list) else (str(base),),
    )


def style_for(file: Path | None) -> Style:
    """The style of the nearest ruff, black or isort configuration above ``file`` (a file that
    cannot be read or parsed is skipped). Without one, ruff's and black's defaults — what
    ``ruff check``, ``ruff format`` and ``black`` apply to a project that configures nothing —
    with the nearest directory that holds a ``pyproject.toml``, ``setup.py``, ``setup.cfg`` or
    ``.git`` (else the file's own) as the root first-party packages are found under."""
    start = Path(os.path.abspath(file if file is not None else "x.py")).parent
    for directory in (start, *start.parents):
        for name in _CONFIG_FILES:
            candidate = directory / name
            if not candidate.is_file():
                continue
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            found = _style_of(candidate, data)
            if found is not None:
                return found
    root = next((d for d in (start, *start.parents) if any((d / m).exists() for m in _PROJECT_MARKERS)), start)
    return Style(src=(str(root), str(root / "src")))


_PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")


# -- imports -------------------------------------------------------------------------------------
FUTURE, STDLIB, THIRD_PARTY, FIRST_PARTY, LOCAL = range(5)
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))


def section(module: str, level: int, style: Style) -> int:
    """The isort section of ``from module import …`` (``level`` dots) or ``import module``."""
    if level:
        return LOCAL
    top = module.split(".")[0]
    if top == "__future__":
        return FUTURE
    if module in style.known_first_party or top in style.known_first_party:
        return FIRST_PARTY
    if top in _STDLIB:
        return STDLIB
    for src in style.src:
        if os.path.isdir(os.path.join(src, top)) or os.path.isfile(os.path.join(src, top + ".py")):
            return FIRST_PARTY
    return THIRD_PARTY


def _dotted(node: cst.BaseExpression | None) -> str:
    if node is None:
        return ""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _member_key(name: str) -> tuple[int, str, str]:
    """ruff's ``order-by-type``: CONSTANTS, then Classes, then everything else; case-insensitive."""
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name.lower(), name


def _alias_name(alias: cst.ImportAlias) -> str:
    return _dotted(alias.name)


def _import_key(stmt: cst.SimpleStatementLine, style: Style) -> tuple:
    """Where ruff sorts an import statement within its section."""
    small = stmt.body[0]
    if isinstance(small, cst.ImportFrom):
        module = "." * len(small.relative) + _dotted(small.module)
        straight = 1
    else:
        assert isinstance(small, cst.Import)
        module = _alias_name(small.names[0])
        straight = 0
    return (0 if style.force_sort_within_sections else straight, module.lower(), module, straight)


def _import_info(stmt: cst.CSTNode, style: Style) -> int | None:
    """The section of a one-import statement line, else None (not an import)."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if isinstance(small, cst.ImportFrom):
        return section(_dotted(small.module), len(small.relative), style)
    if isinstance(small, cst.Import):
        return section(_alias_name(small.names[0]), 0, style)
    return None


def _width(node: cst.CSTNode) -> int:
    return max(len(line) for line in cst.Module([]).code_for_node(node).splitlines() or [""])


def _wrapped_from(stmt: cst.SimpleStatementLine, style: Style, indent: str) -> cst.SimpleStatementLine:
    """A ``from m import a, b`` line that exceeds the line length, parenthesized one name per line
    with a trailing comma (what ruff's isort and formatter write); others as they are."""
    small = stmt.body[0]
    if not isinstance(small, cst.ImportFrom) or isinstance(small.names, cst.ImportStar) or small.lpar is not None:
        return stmt
    if _width(stmt) <= style.line_length:
        return stmt
    inner = _pw(indent)
    names = [
        a.with_changes(comma=cst.Comma(whitespace_after=inner if i < len(small.names) - 1 else _pw("")))
        for i, a in enumerate(small.names)
    ]
    return stmt.with_changes(
        body=[
            small.with_changes(
                names=names,
                lpar=cst.LeftParen(whitespace_after=inner),
                rpar=cst.RightParen(),
            )
        ]
    )


def _merge_name(stmt: cst.SimpleStatementLine, alias: cst.ImportAlias, style: Style, indent: str):
    """``from m import a, c`` + ``b`` → ``from m import a, b, c`` (at its sorted place when the
    names are sorted, else last), wrapped when it no longer fits."""
    small = stmt.body[0]
    assert isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar)
    names = list(small.names)
    keys = [_member_key(_alias_name(a)) for a in names]
    new_key = _member_key(_alias_name(alias))
    at = len(names)
    if keys == sorted(keys):
        at = next((i for i, k in enumerate(keys) if k > new_key), len(names))
    if at == len(names):
        # the new last name takes the old last one's comma (none, or the trailing one)
        last = names[-1]
        sep = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        if small.lpar is not None and isinstance(last.comma, cst.Comma):
            sep = last.comma.with_changes(whitespace_after=_copy_ws(last.comma.whitespace_after, names))
        names[-1] = last.with_changes(comma=sep)
        names.append(alias.with_changes(comma=last.comma))
    else:
        before = names[at - 1].comma if at > 0 else names[at].comma
        between = before if isinstance(before, cst.Comma) else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        names.insert(at, alias.with_changes(comma=between))
    return _wrapped_from(stmt.with_changes(body=[small.with_changes(names=names)]), style, indent)


def _copy_ws(ws: cst.BaseParenthesizableWhitespace, names: Sequence[cst.ImportAlias]):
    """The whitespace between two names of a parenthesized import (the line break and indent
    the names before use), not the one before the closing parenthesis."""
    for a in names[:-1]:
        if isinstance(a.comma, cst.Comma):
            return a.comma.whitespace_after
    return ws


def _pw(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), empty_lines=[], indent=True, last_line=cst.SimpleWhitespace(indent)
    )


def _existing(body: Sequence[cst.CSTNode]) -> tuple[dict[tuple[str, str], str | None], dict[str, int]]:
    """Top-level imports: ``{(module, name): alias}`` (name "" for ``import module``) and the
    index of the first ``from module import …`` of each module (a star import excluded)."""
    have: dict[tuple[str, str], str | None] = {}
    first_from: dict[str, int] = {}
    for i, stmt in enumerate(body):
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.ImportFrom) and not small.relative:
                mod = _dotted(small.module)
                if isinstance(small.names, cst.ImportStar):
                    continue
                first_from.setdefault(mod, i)
                for a in small.names:
                    have[(mod, _alias_name(a))] = _dotted(a.asname.name) if a.asname else None
            elif isinstance(small, cst.Import):
                for a in small.names:
                    have[(_alias_name(a), "")] = _dotted(a.asname.name) if a.asname else None
    return have, first_from


def _block(body: Sequence[cst.CSTNode], style: Style) -> tuple[int, int]:
    """``(start, end)`` of the module's first import block: the import lines after the docstring
    (end exclusive; start == end, after the docstring and ``__future__`` imports, without one)."""
    i = 0
    if body and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1:
        first = body[0].body[0]
        if isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
            i = 1
    start = i
    while i < len(body) and _import_info(body[i], style) is not None:
        i += 1
    return start, i


def add_imports(
    module: cst.Module, imports: Iterable[tuple[str, str]], aliases: dict[tuple[str, str], str], style: Style
) -> cst.Module:
    """``module`` with ``from module import name`` (``import module`` for name "") added where
    ruff's isort puts it (see the module docstring); one already imported is not added again, a
    name is merged into an existing ``from module import …`` line."""
    body = list(module.body)
    indent = module.default_indent
    for mod, name in sorted(imports):
        have, first_from = _existing(body)
        asname = aliases.get((mod, name))
        if (mod, name) in have and have[(mod, name)] == asname:
            continue
        alias = cst.ImportAlias(
            name=cst.parse_expression(name or mod),  # type: ignore[arg-type]
            asname=cst.AsName(cst.Name(asname)) if asname else None,
        )
        if name and mod in first_from and asname is None:
            i = first_from[mod]
            stmt = body[i]
            assert isinstance(stmt, cst.SimpleStatementLine)
            if len(stmt.body) == 1:
                body[i] = _merge_name(stmt, alias, style, indent)
                continue
        if name:
            small: cst.BaseSmallStatement = cst.ImportFrom(module=cst.parse_expression(mod), names=[alias])  # type: ignore[arg-type]
        else:
            small = cst.Import(names=[alias])
        new = _wrapped_from(cst.SimpleStatementLine(body=[small]), style, indent)
        _place(body, new, style)
    return module.with_changes(body=body)


_BLANK = cst.EmptyLine()


def _place(body: list, new: cst.SimpleStatementLine, style: Style) -> None:
    """Insert the import line ``new`` into the first import block of ``body`` (in place)."""
    start, end = _block(body, style)
    sec = _import_info(new, style)
    key = _import_key(new, style)
    same = [i for i in range(start, end) if _import_info(body[i], style) == sec]
    if same:
        at = next((i for i in same if _import_key(body[i], style) > key), same[-1] + 1)
        if at <= same[-1]:  # before a line of its section: it takes that line's blank lines
            _before(body, at, new, body[at].leading_lines and at == same[0])
        else:
            body.insert(at, new)
        return
    later = [i for i in range(start, end) if (_import_info(body[i], style) or 0) > (sec or 0)]
    if later:
        at = later[0]
        lead = list(body[at].leading_lines)
        blanks = _blank_prefix(lead)
        if at == start:
            # first in the block: the lines above the block stay above; the old first line
            # starts a new section
            body[at] = body[at].with_changes(leading_lines=[_BLANK, *lead[blanks:]])
            body.insert(at, new.with_changes(leading_lines=lead[:blanks]))
        else:
            body.insert(at, new.with_changes(leading_lines=lead[:blanks] or [_BLANK]))
            body[at + 1] = body[at + 1].with_changes(leading_lines=[_BLANK, *lead[blanks:]])
        return
    if end > start:
        body.insert(end, new.with_changes(leading_lines=[_BLANK]))
        return
    # no import yet: after the docstring (and a blank line), before the code
    body.insert(start, new.with_changes(leading_lines=[_BLANK] if start else []))
    if start + 1 < len(body) and not body[start + 1].leading_lines:
        body[start + 1] = body[start + 1].with_changes(leading_lines=[_BLANK])


def _blank_prefix(lines: Sequence[cst.EmptyLine]) -> int:
    n = 0
    while n < len(lines) and lines[n].comment is None:
        n += 1
    return n


def _before(body: list, at: int, new: cst.SimpleStatementLine, takes_lead: bool) -> None:
    """``new`` goes before ``body[at]``; when ``takes_lead``, the blank lines that separate
    ``body[at]`` from what is above go with ``new`` (a comment stays with its import)."""
    if takes_lead:
        lead = list(body[at].leading_lines)
        blanks = _blank_prefix(lead)
        body[at] = body[at].with_changes(leading_lines=lead[blanks:])
        body.insert(at, new.with_changes(leading_lines=lead[:blanks]))
    else:
        body.insert(at, new)


# -- layout --------------------------------------------------------------------------------------
def wrap_long_lines(original: cst.Module, module: cst.Module, style: Style) -> cst.Module:
    """``module`` with each statement the fix wrote or changed laid out as ruff format would lay
    it out (:func:`mcpmigrate.codemods.layout.relayout`), and the blank lines after its import
    block kept."""
    from mcpmigrate.codemods.layout import relayout

    return _blank_after_imports(original, relayout(original, module, style), style)


def _blank_after_imports(original: cst.Module, module: cst.Module, style: Style) -> cst.Module:
    """The first statement after the import block keeps the blank lines that separated the
    block from the code in the original (a fix that removes or moves that statement takes them)."""
    _, end = _block(original.body, style)
    if end == 0 or end >= len(original.body):
        return module
    want = _blank_prefix(original.body[end].leading_lines)
    body = list(module.body)
    start, new_end = _block(body, style)
    if new_end == start or new_end >= len(body) or want == 0:
        return module
    first = body[new_end]
    have = _blank_prefix(first.leading_lines)
    if have >= want:
        return module
    body[new_end] = first.with_changes(leading_lines=[_BLANK] * (want - have) + list(first.leading_lines))
    return module.with_changes(body=body)

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
from dataclasses import dataclass, field
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


def style_for(file: Path | None) -> Style | None:
    """The style of the nearest ruff, black or isort configuration above ``file``; None when the
    project configures none of them (its style is not known: the fix is not fitted) or ``file``
    is None. A file that cannot be read or parsed is skipped."""
    if file is None:
        return None
    start = Path(os.path.abspath(file)).parent
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
    return None


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


# -- signatures and calls ------------------------------------------------------------------------
def _flat(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Param) and isinstance(node.star, cst.MaybeSentinel):
        node = node.with_changes(star="")  # a parameter alone (its list gives the default)
    return cst.Module([]).code_for_node(node)


@dataclass
class _Wrap:
    style: Style
    unit: str
    base: int  # the width of the statement's own indentation
    changed: bool = field(default=False)

    def fits(self, width: int) -> bool:
        return width <= self.style.line_length

    def fit(self, node: cst.CSTNode, prefix: int, tail: int, level: int) -> cst.CSTNode:
        """``node`` (starting ``prefix`` columns in, followed by ``tail`` columns on its last
        line) split at its trailing bracket group, recursively, when it does not fit."""
        if "\n" in _flat(node) or self.fits(prefix + len(_flat(node)) + tail):
            return node
        group = _trailing_group(node)
        if group is None:
            return node
        text, inner = _flat(node), _flat(group)
        head = text.rfind(inner)  # the group ends the node, but for a parameter's ` = None`
        split = self.split(group, prefix + head, tail + len(text) - head - len(inner), level)
        return node.deep_replace(group, split) if split is not group else node

    def split(self, group: cst.CSTNode, prefix: int, tail: int, level: int) -> cst.CSTNode:
        """A call, subscript or function header exploded: its elements on one indented line when
        they fit, else one per line with a trailing comma (a lone call argument or subscript
        element stays on its own line, split further)."""
        elements = _elements(group)
        if not elements:
            return group
        inner, outer = self.unit * (level + 1), self.unit * level
        opening = _opening_width(group)
        close = _closing_width(group)
        content = ", ".join(_flat(_no_comma(e)).strip() for e in elements)
        one_line = self.fits(self.base + len(inner) + len(content)) and self.fits(self.base + len(outer) + close + tail)
        single = len(elements) == 1 and not isinstance(group, cst.FunctionDef)
        if not one_line and not single and not self.fits(prefix + opening):
            return group
        self.changed = True
        if one_line or single:
            items = [_with_comma(e, cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for e in elements[:-1]]
            last = _no_comma(elements[-1])
            if single:
                last = self.fit(last, self.base + len(inner), 0, level + 1)
            return _rebuild(group, [*items, last], _pw(inner), _pw(outer), trailing=False)
        items = [
            _with_comma(
                self.fit(_no_comma(e), self.base + len(inner), 1, level + 1), cst.Comma(whitespace_after=_pw(inner))
            )
            for e in elements[:-1]
        ]
        last = _with_comma(
            self.fit(_no_comma(elements[-1]), self.base + len(inner), 1, level + 1),
            cst.Comma(whitespace_after=_pw(outer)),
        )
        return _rebuild(group, [*items, last], _pw(inner), _pw(outer), trailing=True)


def _trailing_group(node: cst.CSTNode) -> cst.CSTNode | None:
    """The bracket group that ends ``node``: a call's arguments, a subscript's elements (of a
    parameter's annotation or default, an argument's value, an awaited call)."""
    if isinstance(node, (cst.Call, cst.Subscript)):
        return node
    if isinstance(node, cst.Param):
        # the default when it has brackets (`= Field(...)`), else the annotation (`Annotated[...]`)
        for target in (node.default, node.annotation.annotation if node.annotation else None):
            group = _trailing_group(target) if target is not None else None
            if group is not None:
                return group
        return None
    if isinstance(node, cst.Arg):
        return _trailing_group(node.value)
    if isinstance(node, cst.SubscriptElement) and isinstance(node.slice, cst.Index):
        return _trailing_group(node.slice.value)
    if isinstance(node, cst.Await):
        return _trailing_group(node.expression)
    return None


def _elements(group: cst.CSTNode) -> list:
    if isinstance(group, cst.Call):
        return list(group.args)
    if isinstance(group, cst.Subscript):
        return list(group.slice)
    if isinstance(group, cst.FunctionDef):
        p = group.params
        if p.posonly_params or isinstance(p.posonly_ind, cst.ParamSlash):
            return []
        star = [p.star_arg] if isinstance(p.star_arg, (cst.Param, cst.ParamStar)) else []
        kwargs = [p.star_kwarg] if p.star_kwarg is not None else []
        return [*p.params, *star, *p.kwonly_params, *kwargs]
    return []


def _opening_width(group: cst.CSTNode) -> int:
    if isinstance(group, cst.Call):
        return len(_flat(group.func)) + 1
    if isinstance(group, cst.Subscript):
        return len(_flat(group.value)) + 1
    return 0


def _closing_width(group: cst.CSTNode) -> int:
    if isinstance(group, cst.FunctionDef):
        ret = f" -> {_flat(group.returns.annotation)}" if group.returns is not None else ""
        return len(f"){ret}:")
    return 1


def _no_comma(e):
    e = e.with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if isinstance(e, cst.Param):
        e = e.with_changes(whitespace_after_param=cst.SimpleWhitespace(""))
    elif isinstance(e, cst.Arg):
        e = e.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))
    return e


def _with_comma(e, comma: cst.Comma):
    return e.with_changes(comma=comma)


def _rebuild(group, items: list, after_open, before_close, trailing: bool):
    """``group`` with ``items`` as its elements, the line break ``after_open`` after its opening
    bracket and ``before_close`` before its closing one (in the last element's comma when
    ``trailing``)."""
    if not trailing:
        last = items[-1]
        if isinstance(last, cst.Param):
            items[-1] = last.with_changes(whitespace_after_param=before_close)
        elif isinstance(last, cst.Arg):
            items[-1] = last.with_changes(whitespace_after_arg=before_close)
    if isinstance(group, cst.Call):
        return group.with_changes(whitespace_before_args=after_open, args=items)
    if isinstance(group, cst.Subscript):
        rb = cst.RightSquareBracket(whitespace_before=cst.SimpleWhitespace("") if trailing else before_close)
        return group.with_changes(lbracket=cst.LeftSquareBracket(whitespace_after=after_open), slice=items, rbracket=rb)
    p = group.params
    n, has_star = len(p.params), isinstance(p.star_arg, (cst.Param, cst.ParamStar))
    k = len(p.kwonly_params)
    params = p.with_changes(
        params=items[:n],
        star_arg=items[n] if has_star else p.star_arg,
        kwonly_params=items[n + has_star : n + has_star + k],
        star_kwarg=items[n + has_star + k] if p.star_kwarg is not None else None,
    )
    return group.with_changes(whitespace_before_params=after_open, params=params)


class _Headers(cst.CSTTransformer):
    """Wraps the headers and one-line statements of the module that are not in ``known``."""

    def __init__(self, known: set[str], style: Style, unit: str) -> None:
        self.known, self.style, self.unit = known, style, unit
        self.depth = [0]  # the width of the indentation of each enclosing block

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.depth.append(self.depth[-1] + len(node.indent if node.indent is not None else self.unit))

    def leave_IndentedBlock(self, original_node, updated_node):
        self.depth.pop()
        return updated_node

    def leave_FunctionDef(self, original_node, updated_node):
        header = _header(original_node)
        if header in self.known or "\n" in header:
            return updated_node
        base = self.depth[-1]
        # decorators are outside the header; the body's block was left already
        if base + len(header) <= self.style.line_length:
            return updated_node
        w = _Wrap(self.style, self.unit, base)
        prefix = base + header.index("(") + 1
        return w.split(updated_node, prefix, 0, 0)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        if len(updated_node.body) != 1:
            return updated_node
        line = _flat(updated_node.with_changes(leading_lines=[])).rstrip("\n")
        base = self.depth[-1]
        if "\n" in line or line in self.known or base + len(line) <= self.style.line_length:
            return updated_node
        small = updated_node.body[0]
        field_name = "exc" if isinstance(small, cst.Raise) and small.cause is None else "value"
        value = getattr(small, field_name, None)
        kinds = (cst.Expr, cst.Assign, cst.AnnAssign, cst.Return, cst.AugAssign, cst.Raise)
        if not isinstance(small, kinds) or not isinstance(value, cst.BaseExpression):
            return updated_node
        flat = _flat(value)
        if not line.endswith(flat):
            return updated_node  # a trailing comment
        w = _Wrap(self.style, self.unit, base)
        new_value = w.fit(value, base + len(line) - len(flat), 0, 0)
        if not w.changed and _trailing_group(value) is None and not value.lpar:
            # a right-hand side without brackets of its own (`a if b else c`) goes into
            # parentheses on its own line, as ruff format and black put it, when it fits there
            if isinstance(small, (cst.Assign, cst.AnnAssign, cst.Return)) and w.fits(base + len(self.unit) + len(flat)):
                w.changed = True
                new_value = value.with_changes(
                    lpar=[cst.LeftParen(whitespace_after=_pw(self.unit))],
                    rpar=[cst.RightParen(whitespace_before=_pw(""))],
                )
        if not w.changed:
            return updated_node
        return updated_node.with_changes(body=[small.with_changes(**{field_name: new_value})])


def _header(fn: cst.FunctionDef) -> str:
    """``async def name(params) -> ret:`` as written (several lines when it is wrapped)."""
    text = _flat(fn.with_changes(body=cst.SimpleStatementSuite([cst.Pass()]), decorators=[], leading_lines=[]))
    return text[: text.rstrip().rfind(":") + 1].rstrip() if text.rstrip().endswith("pass") else text


def _known_lines(original: cst.Module) -> set[str]:
    """Every line and function header of the original text (what the fix did not write)."""
    known = {line.strip() for line in original.code.splitlines()}
    headers: set[str] = set()

    class _Collect(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            headers.add(_header(node))

    original.visit(_Collect())
    return known | headers


def wrap_long_lines(original: cst.Module, module: cst.Module, style: Style) -> cst.Module:
    """``module`` with each function header and one-line statement the fix wrote (its text is
    not in ``original``) that exceeds ``style.line_length`` wrapped as ruff format would."""
    known = {k.strip() for k in _known_lines(original)}
    unit = module.default_indent

    class _Stripped(_Headers):
        def leave_FunctionDef(self, original_node, updated_node):
            if _header(original_node).strip() in known:
                return updated_node
            return super().leave_FunctionDef(original_node, updated_node)

    module = module.visit(_Stripped(known, style, unit))
    return _blank_after_imports(original, module, style)


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

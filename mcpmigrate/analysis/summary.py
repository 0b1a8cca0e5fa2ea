"""What a possible caller does, read with Python's own ``ast`` (one file at a time, for the
project pass of :mod:`mcpmigrate.analysis.project`): its imports, star imports, module-level names,
and every call of one of the names looked for, with the kinds of its arguments (a context or a
session, read off the caller's parameter annotations through its imports: the SDK classes of
:mod:`mcpmigrate.surfaces`; ``ctx.session`` / ``ctx.request_context`` on such a parameter).

:func:`summarize_all` is a worker pool's task (the engine runs the summaries there); nothing here
imports libcst.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from mcpmigrate import surfaces as S

#: Kind values (``analysis.kinds.Kind``) of the SDK classes an annotation can name, in order.
_ANNOTATION_KINDS = (
    (S.MCP_CONTEXT_V1, "mcp1-context"),
    (S.MCP_CONTEXT_V2, "mcp2-context"),
    (S.FASTMCP_CONTEXT, "fastmcp-context"),
    (S.LOWLEVEL_CONTEXT, "request-context"),
    (S.SESSION_TYPES, "session"),
)
_CONTEXT_KINDS = {"mcp1-context", "mcp2-context", "fastmcp-context"}


@dataclass
@dataclass
class ModuleSummary:
    """What :func:`summarize` reads off a possible caller with ``ast``."""

    imports: list[tuple[str, str, str | None, int]] = field(default_factory=list)  # (local, module, name, level)
    stars: list[tuple[str, int]] = field(default_factory=list)  # (module, level) of `from m import *`
    defs: set[str] = field(default_factory=set)  # module-level names it defines
    calls: list[tuple[str, str | None, str, tuple[tuple[int | str, str], ...]]] = field(default_factory=list)


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for an ``ast`` chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _annotation_kind(ann: ast.expr | None, imports: dict[str, str]) -> str | None:
    """The Kind value of the first SDK class an annotation names (``Optional``, ``Annotated``,
    unions, string annotations looked into)."""
    if ann is None:
        return None
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(ann, ast.BinOp):
        return _annotation_kind(ann.left, imports) or _annotation_kind(ann.right, imports)
    if isinstance(ann, ast.Subscript):
        inner = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        head = (dotted(ann.value) or "").rsplit(".", 1)[-1]
        if head == "Annotated":
            inner = inner[:1]
        elif head not in ("Optional", "Union"):
            inner = []
        for el in inner:
            k = _annotation_kind(el, imports)
            if k:
                return k
        return None
    name = dotted(ann)
    if not name:
        return None
    head, _, rest = name.partition(".")
    full = (imports[head] + ("." + rest if rest else "")) if head in imports else name
    for names, kind in _ANNOTATION_KINDS:
        if full in names:
            return kind
    return None


def _arg_kind(expr: ast.expr, params: dict[str, str]) -> str | None:
    """``ctx`` (a parameter with a kind), ``ctx.session``, ``ctx.request_context(.session)``."""
    name = dotted(expr)
    if not name:
        return None
    parts = name.split(".")
    k = params.get(parts[0])
    if k is None:
        return None
    for attr in parts[1:]:
        if attr == "session" and k in (*_CONTEXT_KINDS, "request-context"):
            k = "session"
        elif attr == "request_context" and k in _CONTEXT_KINDS:
            k = "request-context"
        else:
            return None
    return k


def _role(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Attribute):
            attr = target.attr
            if attr in S.HANDLER_DECORATORS:
                return S.HANDLER_DECORATORS[attr]
            if attr in S.DECORATOR_METHODS and isinstance(dec, ast.Call):
                return S.DECORATOR_METHODS[attr]
    return None


def summarize(source: bytes, names: set[str]) -> ModuleSummary | None:
    """The :class:`ModuleSummary` of a file (None: ``ast`` cannot parse it): its imports, and its
    calls of a name in ``names`` (the targets' functions it mentions), directly or as an
    attribute (``paths.album_dir``)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    out = ModuleSummary()
    imports: dict[str, str] = {}  # local name -> dotted name, for annotations
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.defs.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            _note_import(stmt, out, imports)
    _calls(tree.body, "", None, {}, imports, names, out)
    return out


def _note_import(node: ast.Import | ast.ImportFrom, out: ModuleSummary, imports: dict[str, str]) -> None:
    if isinstance(node, ast.Import):
        for al in node.names:
            local = al.asname or al.name  # `import pkg.paths`: calls spell `pkg.paths.f`
            imports[al.asname or al.name.split(".")[0]] = al.name if al.asname else al.name.split(".")[0]
            out.imports.append((local, al.name, None, 0))
        return
    mod = node.module or ""
    for al in node.names:
        if al.name == "*":
            out.stars.append((mod, node.level))
            continue
        local = al.asname or al.name
        if not node.level:
            imports[local] = f"{mod}.{al.name}"
        out.imports.append((local, mod, al.name, node.level))


def _calls(
    body: list[ast.stmt],
    prefix: str,
    fn: ast.FunctionDef | ast.AsyncFunctionDef | None,
    params: dict[str, str],
    imports: dict[str, str],
    names: set[str],
    out: ModuleSummary,
) -> None:
    """Record the calls of ``names`` in ``body`` (a function's, with its ``params`` kinds), and
    the imports inside functions."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = dict(params)
            args = node.args
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                k = _annotation_kind(a.annotation, imports)
                if k:
                    inner[a.arg] = k
                else:
                    inner.pop(a.arg, None)
            _calls(node.body, f"{prefix}{node.name}.", node, inner, imports, names, out)
            stack.extend(reversed(node.decorator_list))
            continue
        if isinstance(node, ast.ClassDef):
            _calls(node.body, f"{prefix}{node.name}.", None, {}, imports, names, out)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if fn is not None:
                _note_import(node, out, {})
            continue
        if isinstance(node, ast.Call) and fn is not None:
            func = node.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            name = dotted(func) if last in names else None
            if name:
                kinds: list[tuple[int | str, str]] = []
                for i, arg in enumerate(node.args):
                    if isinstance(arg, ast.Starred):
                        break
                    k = _arg_kind(arg, params)
                    if k:
                        kinds.append((i, k))
                for kw in node.keywords:
                    k = _arg_kind(kw.value, params) if kw.arg else None
                    if k and kw.arg:
                        kinds.append((kw.arg, k))
                out.calls.append((prefix[:-1], _role(fn), name, tuple(kinds)))
        stack.extend(ast.iter_child_nodes(node))


def summarize_all(jobs: list[tuple[bytes, frozenset[str]]]) -> list[ModuleSummary | None]:
    """:func:`summarize` of each ``(source, names)`` (a worker pool's task: picklable both ways)."""
    return [summarize(src, set(names)) for src, names in jobs]

"""Names, uses and literals: the small syntax helpers every detector and fix shares.

One place for "which names does this expression read", "what does this receiver chain start
from", "is this name free", "what string does this literal hold" — so the rules and the fixes
agree on them (see ``docs/architecture.md``, layer *analysis*). Pure functions of libcst nodes;
the few that need the whole module take a :class:`~mcpmigrate.analysis.ModuleAnalysis` and
memoize through :meth:`ModuleAnalysis.memo`.
"""

from __future__ import annotations

import builtins
import re
from typing import TYPE_CHECKING

import libcst as cst

from mcpmigrate.fastwalk import walk

if TYPE_CHECKING:
    from mcpmigrate.analysis import ModuleAnalysis

#: Every builtin name: a resolver or a moved statement may read these without a binding.
BUILTINS: frozenset[str] = frozenset(dir(builtins))

_PLAIN_STRING = re.compile(r"""(?:'[^'\\\n]*'|"[^"\\\n]*")""")


# -- literals --------------------------------------------------------------------------------
def string_value(node: cst.CSTNode | None) -> str | None:
    """The value of a plain or implicitly concatenated string literal (None otherwise)."""
    if type(node) is cst.SimpleString and _PLAIN_STRING.fullmatch(node.value):
        return node.value[1:-1]  # no prefix, no escapes: no literal_eval
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        try:
            value = node.evaluated_value
        except Exception:  # pragma: no cover - odd literals
            return None
        return value if isinstance(value, str) else None
    return None


def dict_get(node: cst.Dict, key: str, concatenated: bool = True) -> cst.DictElement | None:
    """The element of a dict display whose key is the string ``key``; with ``concatenated=False``
    only a key spelled as one string literal counts (not ``"prop" "erties"``)."""
    for el in node.elements:
        if (
            isinstance(el, cst.DictElement)
            and (concatenated or isinstance(el.key, cst.SimpleString))
            and string_value(el.key) == key
        ):
            return el
    return None


# -- names read ------------------------------------------------------------------------------
def ref_names(node: cst.CSTNode) -> list[cst.Name]:
    """Names read in ``node`` (not attribute names or keywords), minus comprehension/lambda locals."""
    out: list[cst.Name] = []
    bound: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.append(n)
            continue
        if isinstance(n, cst.Attribute):
            stack.append(n.value)
            continue
        if isinstance(n, cst.Arg):
            stack.append(n.value)
            continue
        if isinstance(n, cst.CompFor):
            bound |= {x.value for x in walk(n.target) if isinstance(x, cst.Name)}
        if isinstance(n, cst.Lambda):
            bound |= {p.name.value for p in n.params.params}
        stack.extend(n.children)
    return [x for x in out if x.value not in bound]


def ref_children(n: cst.CSTNode) -> list[cst.CSTNode]:
    """Children that can hold a reference to a name (attribute names, keywords, the names of
    parameters and definitions are not references)."""
    if isinstance(n, cst.Attribute):
        return [n.value]
    if isinstance(n, cst.Arg):
        return [n.value]
    if isinstance(n, cst.Param):
        return [x for x in (n.annotation, n.default) if x is not None]
    if isinstance(n, cst.FunctionDef):
        return [*n.decorators, n.params, *([n.returns] if n.returns else []), n.body]
    if isinstance(n, cst.ClassDef):
        return [*n.decorators, *n.bases, *n.keywords, n.body]
    if isinstance(n, (cst.Import, cst.ImportFrom)):
        return []
    return list(n.children)


def name_refs(node: cst.CSTNode, name: str, dead: set[int] | frozenset[int] = frozenset()) -> list[cst.Name]:
    """The references to ``name`` in ``node`` (see :func:`ref_children`), skipping the subtrees
    whose ids are in ``dead`` (statements a fix removes)."""
    out: list[cst.Name] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in dead:
            continue
        if isinstance(n, cst.Name):
            if n.value == name:
                out.append(n)
            continue
        stack.extend(ref_children(n))
    return out


def uses(node: cst.CSTNode, name: str) -> int:
    """How many times ``node`` reads ``name`` (by :func:`ref_names`)."""
    return sum(1 for n in ref_names(node) if n.value == name)


def name_nodes(node: cst.CSTNode) -> list[cst.Name]:
    """Every ``Name`` node in ``node``: references, attribute names, keywords, definitions."""
    return [n for n in walk(node) if isinstance(n, cst.Name)]


def contains_any(node: cst.CSTNode, ids: set[int]) -> bool:
    """Whether ``node`` or a node below it has its id in ``ids``."""
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in ids:
            return True
        stack.extend(n.children)
    return False


# -- names bound -----------------------------------------------------------------------------
def assigned(stmt: cst.CSTNode) -> set[str]:
    """Names a statement binds anywhere inside it: assignment targets, ``for``/``with``/``as``
    targets, walrus targets."""
    out: set[str] = set()
    for n in walk(stmt):
        targets: list[cst.CSTNode] = []
        if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For, cst.CompFor)):
            targets.append(n.target)
        elif isinstance(n, cst.AsName):
            targets.append(n.name)
        for t in targets:
            out |= {x.value for x in walk(t) if isinstance(x, cst.Name)}
    return out


def binds(node: cst.CSTNode, name: str) -> bool:
    """Whether ``node`` binds ``name`` (see :func:`assigned`)."""
    return name in assigned(node)


def fresh(taken: set[str], base: str) -> str:
    """``base``, or ``base_2``, ``base_3`` … — the first not in ``taken``; added to ``taken``."""
    name, i = base, 2
    while name in taken:
        name, i = f"{base}_{i}", i + 1
    taken.add(name)
    return name


def module_names(a: ModuleAnalysis) -> set[str]:
    """Names bound at module level: imports, assignments, classes, functions (memoized)."""

    def compute() -> set[str]:
        names = set(a.imports) | {n for n, _ in a.module_assigns}
        # classes at module level only: one defined in a function body (a schema declared inside
        # the tool, requests-01) is not reachable from a module-level resolver
        for n in walk(a.module):
            if isinstance(n, cst.ClassDef):
                p = a.parents.get(id(n))
                while p is not None and not isinstance(p, (cst.FunctionDef, cst.ClassDef, cst.Module)):
                    p = a.parents.get(id(p))
                if p is None or isinstance(p, cst.Module):
                    names.add(n.name.value)
        names |= {f.name for f in a.functions if f.parent is None and f.class_name is None}
        for stmt in a.module.body:
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                names.add(stmt.name.value)
        return names

    return a.memo("names.module_names", compute)


def all_name_values(a: ModuleAnalysis) -> set[str]:
    """Every identifier spelled anywhere in the module (memoized): a new name outside this set
    can shadow nothing."""
    return a.memo("names.all_name_values", lambda: {n.value for n in walk(a.module) if isinstance(n, cst.Name)})


# -- receivers and statements ----------------------------------------------------------------
def base_name(expr: cst.BaseExpression, through_await: bool = True) -> str | None:
    """The name a receiver chain starts from: ``ctx`` in ``ctx.request_context.session`` or
    ``ctx.session.list_roots()``; through ``await`` unless ``through_await`` is false."""
    cur: cst.CSTNode = expr
    while True:
        if isinstance(cur, cst.Name):
            return cur.value
        if isinstance(cur, (cst.Attribute, cst.Subscript)):
            cur = cur.value
        elif isinstance(cur, cst.Call):
            cur = cur.func
        elif through_await and isinstance(cur, cst.Await):
            cur = cur.expression
        else:
            return None


def enclosing_stmt(a: ModuleAnalysis, node: cst.CSTNode) -> cst.BaseStatement | None:
    """The innermost statement (simple line or compound) that holds ``node``."""
    pm = a.parents
    cur: cst.CSTNode | None = node
    while cur is not None and not isinstance(cur, cst.BaseStatement):
        cur = pm.get(id(cur))
    return cur


def is_docstring(stmt: cst.CSTNode) -> bool:
    """Whether ``stmt`` is a string literal on a line of its own (a docstring where it comes first)."""
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )

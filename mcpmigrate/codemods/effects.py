"""Which statements have an effect: what a fix may move or repeat without changing behaviour.

Shared by the interim fixes (MCPServer, low-level, fastmcp, hand-rolled JSON-RPC): on 2026-07-28
the code before an interim result runs once per round, and a resolver runs before the tool body,
so a statement with an effect before the request changes what happens (see ``docs/architecture.md``).
"""

from __future__ import annotations

from collections.abc import Collection

import libcst as cst

#: Calls that have no side effect before the request (constructors, spelled with a capital, are
#: pure too).
PURE_CALLS = {
    "len",
    "str",
    "int",
    "float",
    "bool",
    "list",
    "dict",
    "tuple",
    "set",
    "frozenset",
    "sorted",
    "min",
    "max",
    "sum",
    "any",
    "all",
    "isinstance",
    "repr",
    "format",
    "range",
    "enumerate",
    "zip",
    "abs",
    "round",
    "Path",
    "PurePath",
    "PurePosixPath",
    "join",
    "strip",
    "lower",
    "upper",
    "split",
    "format_map",
    "get",
    "SamplingMessage",
    "TextContent",
    "ModelPreferences",
    "ModelHint",
}


def has_effect(stmt: cst.CSTNode, reads: Collection[int] = ()) -> bool:
    """Whether ``stmt`` awaits, calls something not known pure, raises, deletes, declares
    ``global``/``nonlocal``, or writes an attribute or an item (a path that returns is skipped).
    ``reads``: the ids of calls the caller resolved as pure reads (fastmcp's ``get_context()``,
    which a name alone cannot tell from a function of the project's own called alike)."""
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Return):
            continue  # a path that returns never reaches the request
        stack.extend(n.children)
        if isinstance(n, cst.Await):
            return True
        if isinstance(n, cst.Call) and id(n) not in reads:
            f = n.func
            last = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
            if last not in PURE_CALLS and not (last or "a")[0].isupper():  # constructors are pure
                return True
        if isinstance(n, (cst.Raise, cst.Del, cst.Global, cst.Nonlocal)):
            return True
        if isinstance(n, (cst.Assign, cst.AugAssign)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            if any(not isinstance(t, cst.Name) for t in targets):
                return True  # writes an attribute or an item
    return False


#: Calls a class body makes to declare itself (pydantic, dataclasses, typing), pure like constructors.
DECLARING_CALLS = frozenset(
    {
        "field",
        "field_validator",
        "model_validator",
        "validator",
        "root_validator",
        "field_serializer",
        "model_serializer",
        "computed_field",
        "dataclass",
        "constr",
        "conint",
        "confloat",
        "conlist",
        "conset",
        "condecimal",
        "cast",
        "classmethod",
        "staticmethod",
        "property",
    }
)


def definition_effect(cls: cst.ClassDef) -> cst.CSTNode | None:
    """The first part of ``cls`` that does something when the class is defined, besides binding its
    fields, methods and nested classes (its decorators, bases and keywords, each statement of its
    body, the decorators, defaults and annotations of its methods; method bodies run only when
    called). None: defining it again, or once instead of on every call, changes nothing."""
    for d in cls.decorators:
        if _applies(d):
            return d
    for b in (*cls.bases, *cls.keywords):
        if _calls(b):
            return b
    if isinstance(cls.body, cst.SimpleStatementSuite):  # `class Empty(Base): pass`
        return cls.body if any(_small_effect(s) for s in cls.body.body) else None
    for stmt in cls.body.body:
        if isinstance(stmt, cst.FunctionDef):
            head = [*param_parts(stmt.params), *([stmt.returns] if stmt.returns else [])]
            if any(_applies(d) for d in stmt.decorators) or any(_calls(x) for x in head):
                return stmt
        elif isinstance(stmt, cst.ClassDef):
            if definition_effect(stmt) is not None:
                return stmt
        elif isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            if any(_small_effect(s) for s in stmt.body):
                return stmt
        else:
            return stmt
    return None


def _applies(d: cst.Decorator) -> bool:
    """Whether applying the decorator ``d`` may do something: it is called with the class or the
    function, so its name (or the name of the call that makes it) must be known pure."""
    expr = d.decorator
    if isinstance(expr, cst.Call):
        return _calls(expr)
    last = expr.attr.value if isinstance(expr, cst.Attribute) else expr.value if isinstance(expr, cst.Name) else ""
    return not _pure_name(last)


def _pure_name(last: str) -> bool:
    return last in PURE_CALLS or last in DECLARING_CALLS or last[:1].isupper()


def _small_effect(s: cst.BaseSmallStatement) -> bool:
    if isinstance(s, cst.Pass):
        return False
    if isinstance(s, cst.Expr):
        return not isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString, cst.Ellipsis))
    if isinstance(s, cst.Assign):
        return any(not isinstance(t.target, cst.Name) for t in s.targets) or _calls(s.value)
    if isinstance(s, cst.AnnAssign):
        return not isinstance(s.target, cst.Name) or _calls(s.annotation) or (s.value is not None and _calls(s.value))
    return True


def _calls(node: cst.CSTNode) -> bool:
    """Whether evaluating ``node`` awaits, yields or calls something not known pure (a lambda's body
    is not evaluated)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Await, cst.Yield)):
            return True
        if isinstance(n, cst.Lambda):
            stack += param_parts(n.params)
            continue
        if isinstance(n, cst.Call):
            f = n.func
            last = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else ""
            if not _pure_name(last):
                return True
        stack.extend(n.children)
    return False


def param_parts(params: cst.Parameters) -> list[cst.CSTNode]:
    """The annotations and defaults of ``params`` (evaluated where the function is defined)."""
    out: list[cst.CSTNode] = []
    for p in (*params.posonly_params, *params.params, *params.kwonly_params, params.star_arg, params.star_kwarg):
        if isinstance(p, cst.Param):
            out += [x for x in (p.annotation, p.default) if x is not None]
    return out

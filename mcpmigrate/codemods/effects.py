"""Which statements have an effect: what a fix may move or repeat without changing behaviour.

Shared by the interim fixes (MCPServer, low-level, fastmcp, hand-rolled JSON-RPC): on 2026-07-28
the code before an interim result runs once per round, and a resolver runs before the tool body,
so a statement with an effect before the request changes what happens (see ``docs/architecture.md``).
"""

from __future__ import annotations

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


def has_effect(stmt: cst.CSTNode) -> bool:
    """Whether ``stmt`` awaits, calls something not known pure, raises, deletes, declares
    ``global``/``nonlocal``, or writes an attribute or an item (a path that returns is skipped)."""
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Return):
            continue  # a path that returns never reaches the request
        stack.extend(n.children)
        if isinstance(n, cst.Await):
            return True
        if isinstance(n, cst.Call):
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

"""Memos of the roots answer on the way to the request: module state that a function between the
tool and the request reads to skip asking, and that the path itself fills (a cached allow-list one
call above the request, ``_cache.get("roots") or await _refresh(...)``, an "already asked" flag, a
dict keyed on the session), or a cache decorator (``@lru_cache``) on a function of the path.

Kept behind a parameter, such a memo holds the first call's directories for every later call:
the new parameter is ignored after the first call (field cases roots-19, roots-20, bugs-19). The
memo inside the requesting function itself (``if _DIR is None: … _DIR = …``, roots-03) goes with
the request (``shapes.drop_memo``); any other memo makes the fix manual with the memo named, or
goes with the request where the whole memo is one function's early return and store
(:func:`drop_caller_memo`).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of
from mcpmigrate.codemods.param.fallbacks import gates
from mcpmigrate.codemods.remove import written
from mcpmigrate.names import name_nodes

#: Decorators that keep a function's answer across calls (functools, async-lru, cachetools, …).
CACHE_DECORATORS = {"lru_cache", "cache", "alru_cache", "cached", "memoize", "memoized", "cache_result"}


@dataclass(frozen=True)
class Memo:
    """A memo on the path to a roots request: ``state`` (module names) read in ``where`` to skip
    the call ``what`` (the request, or the call leading to it), filled by the path itself."""

    where: str
    state: tuple[str, ...]
    test: str  # the code that skips the request (`_cache.get("roots") or …`), or the decorator
    decorator: bool = False

    def reason(self) -> str:
        if self.decorator:
            held = f"`{self.where}` is cached (`@{self.test}`)"
        else:
            names = ", ".join(f"`{n}`" for n in self.state)
            held = f"the roots answer is memoised in the module state {names}, which `{self.where}` reads to skip asking (`{self.test}`)"
        return (
            f"{held}: as a parameter each call has its own directories, and the memo would keep the first "
            "call's for every later call; drop the memo (and any roots `list_changed` handler that invalidates "
            "it) together with the request, by hand"
        )


def _decorator_name(dec: cst.Decorator) -> str:
    d: cst.BaseExpression = dec.decorator
    if isinstance(d, cst.Call):
        d = d.func
    return d.attr.value if isinstance(d, cst.Attribute) else d.value if isinstance(d, cst.Name) else ""


def _state(a: ModuleAnalysis, funcs: list[FunctionInfo]) -> set[str]:
    """Module-level names that a function of the path writes (a ``global`` it assigns, a
    container it stores into or mutates)."""
    module_names = {n for n, _ in a.module_assigns}
    out: set[str] = set()
    for f in funcs:
        out |= written(f.node.body) & module_names
    return out


def _reads(expr: cst.CSTNode, state: set[str], dead: set[int]) -> list[str]:
    if id(expr) in dead:
        return []
    return sorted({n.value for n in name_nodes(expr) if n.value in state})


def _gates(a: ModuleAnalysis, f: FunctionInfo, node: cst.CSTNode, state: set[str], dead: set[int]) -> Memo | None:
    """A gate of ``node`` in ``f`` (``fallbacks.gates``: an enclosing ``if``, the left operand of an
    ``and``/``or``, an earlier ``if …: return``) whose test reads ``state``."""
    for header, test in gates(a, f, node, dead):
        if not isinstance(test, cst.Try) and (names := _reads(test, state, dead)):
            return Memo(f.qualname, tuple(names), header)
    return None


def chain_memo(
    a: ModuleAnalysis, fn: FunctionInfo, node: cst.CSTNode, funcs: list[FunctionInfo], edges: list, dead: set[int]
) -> Memo | None:
    """The memo on the path from the entry points to the request ``node`` in ``fn`` (``funcs``:
    ``fn`` and its callers; ``edges``: the calls between them; ``dead``: ids of nodes the fix
    already removes), or None."""
    for f in funcs:
        for dec in f.node.decorators:
            name = _decorator_name(dec)
            if name in CACHE_DECORATORS:
                return Memo(f.qualname, (), code_of(dec.decorator), decorator=True)
    state = _state(a, funcs)
    if not state:
        return None
    for f in funcs:
        points = [node] if f is fn else [e.call for e in edges if e.caller is f]
        for p in points:
            memo = _gates(a, f, p, state, dead)
            if memo is not None:
                return memo
    return None

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

import builtins
import sys
from dataclasses import dataclass
from functools import partial

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import REMOVE
from mcpmigrate.codemods.param.fallbacks import gates
from mcpmigrate.codemods.param.sites import Site
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

    def reason(self, kept: tuple[str, str] | None = None) -> str:
        if self.decorator:
            held = f"`{self.where}` is cached (`@{self.test}`)"
        else:
            names = ", ".join(f"`{n}`" for n in self.state)
            held = f"the roots answer is memoised in the module state {names}, which `{self.where}` reads to skip asking (`{self.test}`)"
        if kept is not None:
            obj, attr = kept
            return (
                f"{held}, and kept in `{obj}.{attr}`, an attribute of the module's `{obj}` object, which its "
                f"own methods read as `self.{attr}` where this module does not show (a cache, or a boundary "
                "such as a sandbox): as a parameter the caller would set it on every call; keep it with the "
                "server's configuration, or drop the memo together with the request, by hand"
            )
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


# -- a memo that goes with the request ----------------------------------------------------------
#: Calls that add to a container instead of replacing what it holds: a memo that accumulates.
_ACCUMULATE = {"append", "extend", "add", "update", "setdefault", "insert", "appendleft"}
#: Calls a memo's test or answer may make without an effect.
_PURE_CALLS = {"get", "len", "id", "isinstance", "bool"}
#: Calls that change a container (a list_changed handler clearing the memo only writes it).
_WRITES = _ACCUMULATE | {"clear", "pop", "popitem", "remove", "discard"}


def _pure(expr: cst.CSTNode) -> bool:
    """``expr`` has no effect: no ``await``, no call but a lookup (``_cache.get("roots")``)."""
    for n in walk(expr):
        if isinstance(n, (cst.Await, cst.Yield, cst.NamedExpr)):
            return False
        if isinstance(n, cst.Call):
            f = n.func
            name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
            if name not in _PURE_CALLS:
                return False
    return True


def _reads_state(a: ModuleAnalysis, f: FunctionInfo, state: set[str]) -> bool:
    """``f`` reads a ``state`` name (a ``global`` declaration, a store, a ``del`` or a change of
    the container is not a read: a list_changed handler that resets the memo only writes it)."""
    pm = a.parents
    for n in name_nodes(f.node):
        if n.value not in state:
            continue
        p = pm.get(id(n))
        if isinstance(p, cst.NameItem) or (isinstance(p, cst.AssignTarget) and p.target is n):
            continue
        g = pm.get(id(p)) if p is not None else None
        if isinstance(p, cst.Subscript) and p.value is n and isinstance(g, (cst.AssignTarget, cst.Del)):
            continue
        if isinstance(p, cst.Attribute) and p.value is n and isinstance(g, cst.Call) and p.attr.value in _WRITES:
            continue
        return True
    return False


def _stores(stmt: cst.CSTNode, state: set[str]) -> bool:
    for n in walk(stmt):
        if isinstance(n, cst.AssignTarget):
            t = n.target
            base = t.value if isinstance(t, cst.Subscript) else t
            if isinstance(base, cst.Name) and base.value in state:
                return True
    return False


def _right_operand(updated: cst.CSTNode) -> cst.CSTNode:
    """``<memo> or await ask(...)`` → ``await ask(...)`` (keeping the parentheses it had)."""
    assert isinstance(updated, cst.BooleanOperation)
    return updated.right.with_changes(lpar=updated.lpar, rpar=updated.rpar) if updated.lpar else updated.right


def object_store(a: ModuleAnalysis, funcs: list[FunctionInfo]) -> tuple[str, str] | None:
    """``(name, attr)`` of a store ``name.attr = …`` in a function of the path, where ``name`` is
    module state: an object whose own methods read the attribute as ``self.attr``, in this module
    or the one its class comes from, which :func:`_reads_state` cannot see (djinnvim keeps its
    sandbox in ``session.roots``, checked by ``Session`` in another module)."""
    state = _state(a, funcs) - _plain_records(a)
    for f in funcs:
        for n in walk(f.node.body):
            if (
                isinstance(n, cst.AssignTarget)
                and isinstance(n.target, cst.Attribute)
                and isinstance(n.target.value, cst.Name)
                and n.target.value.value in state
            ):
                return n.target.value.value, n.target.attr.value
    return None


def _plain_records(a: ModuleAnalysis) -> set[str]:
    """Module-level names bound to an object of the standard library or a builtin
    (``SimpleNamespace(...)``, ``argparse.Namespace()``, ``dict()``): no method of theirs reads an
    attribute the module stores, so such a memo is one this module sees whole."""
    out = set()
    for name, value in a.module_assigns:
        if not isinstance(value, cst.Call):
            continue
        q = a.qualname(value.func) or ""
        head = q.partition(".")[0]
        if (q and "." not in q and q in dir(builtins)) or (head and head in sys.stdlib_module_names and "." in q):
            out.add(name)
    return out


def drop_chain_memo(
    a: ModuleAnalysis, site: Site, fn: FunctionInfo, node: cst.CSTNode, funcs: list[FunctionInfo], edges: list
) -> bool:
    """The memo on the way to the request goes with it, when it is only a shortcut in front of the
    call: ``if <memo test>: return <memo>`` before the call (field case roots-20) or ``<memo> or
    await <call>`` (bugs-19), reading the module state the path stores (replacing it: no
    ``append``/``+=``) and nothing outside the path reads. Without the shortcut every call asks
    its own parameter and the state is overwritten before it is read (no ``await`` between a
    store and what follows it in a function of the path). Records the removal in ``site`` and
    returns True, or changes nothing and returns False (the fix stays manual)."""
    dead = set(site.changes)
    state = _state(a, funcs)
    on_path = {id(f) for f in funcs}
    if object_store(a, funcs) is not None:
        return False  # its readers (the object's methods) cannot all be seen
    for f in funcs:
        for n in walk(f.node.body):
            if isinstance(n, cst.AugAssign) and {x.value for x in name_nodes(n.target)} & state:
                return False
            if (
                isinstance(n, cst.Call)
                and isinstance(n.func, cst.Attribute)
                and isinstance(n.func.value, cst.Name)
                and n.func.value.value in state
                and n.func.attr.value in _ACCUMULATE
            ):
                return False
        body = list(f.node.body.body) if isinstance(f.node.body, cst.IndentedBlock) else []
        first = next((i for i, x in enumerate(body) if _stores(x, state)), None)
        if first is not None and any(isinstance(n, cst.Await) for x in body[first + 1 :] for n in walk(x)):
            return False  # another call may overwrite the state while this one waits
    if any(id(f) not in on_path and _reads_state(a, f, state) for f in a.functions):
        return False
    removals: list[tuple[cst.CSTNode, object]] = []
    for f in funcs:
        for p in [node] if f is fn else [e.call for e in edges if e.caller is f]:
            for _header, test in gates(a, f, p, dead):
                if isinstance(test, cst.Try) or not _reads(test, state, dead):
                    continue
                holder = a.parents.get(id(test))
                if (
                    isinstance(holder, cst.BooleanOperation)
                    and holder.left is test
                    and isinstance(holder.operator, cst.Or)
                    and _pure(test)
                ):
                    removals.append((holder, partial(_right_operand)))
                elif (
                    isinstance(holder, cst.If)
                    and holder.orelse is None
                    and not any(x is p for x in walk(holder))
                    and _pure(holder)
                ):
                    removals.append((holder, REMOVE))
                else:
                    return False
    if not removals:
        return False
    for n, change in removals:
        site.set(n, change)  # type: ignore[arg-type]
    return True

"""The callers' side of a roots request threaded across modules (issue 22, "path threading"): a
helper of one module that asks for the roots and is called by tools of other modules takes the
path parameter (its own module's fix, :func:`mcpmigrate.codemods.param.plan_roots_request`,
records it on its site, ``Site.across``, which the finding keeps as ``project_needs``); each
calling module then gets the same rewrite its own request would get — the calling tool takes the
documented parameter in place of the context it no longer needs, and the call passes the path where it passed the context — through the same
threading (:mod:`~mcpmigrate.codemods.param.thread`, :mod:`~mcpmigrate.codemods.param.record`).
A calling function that is a helper reached by tools of its module threads on to them.

Spec: 2026-07-28 deprecates roots (SEP-2577): take the directory or file as an ordinary,
documented tool parameter. Which files are rewritten together, and that they are written all or
none, is the engine's project step (``mcpmigrate/project_threads.py``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import partial

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.param.chains import chain_reason, closure, manual_reason, reach
from mcpmigrate.codemods.param.parameter import insert_element
from mcpmigrate.codemods.param.record import record_site
from mcpmigrate.codemods.param.sites import Site
from mcpmigrate.codemods.param.thread import RemoveParam, apply_param_op
from mcpmigrate.config import Config
from mcpmigrate.names import name_refs


@dataclass(frozen=True)
class CallerNeed:
    """One function of a calling module that must pass the path to ``callee`` (a function of the
    module ``helper`` that now takes ``name``). ``replaces``: the callee's parameter the new one
    took the place of (the argument bound to it becomes the path), at ``position`` among its old
    positional parameters; else the path is passed at ``insert_at`` (its place among the new
    positional parameters) when the call passes that many positional arguments, or by keyword."""

    caller: str  # qualname in the calling module
    callee: str
    helper: str  # the callee's module, as the run displays it
    name: str
    mode: str  # single | list
    replaces: str | None = None
    position: int | None = None
    insert_at: int | None = None
    present: bool = False  # the caller already takes ``name``: this run's fix of its own roots request added it


def _signature(src: bytes, qualname: str) -> tuple[list[str], list[str]] | None:
    """The positional and the keyword-only parameter names of the function ``qualname`` (``f``,
    ``Class.f``) in the module text ``src`` (None: no such function)."""
    scope: list[ast.stmt] = ast.parse(src).body
    *outer, name = qualname.split(".")
    for part in outer:
        cls = next((n for n in scope if isinstance(n, ast.ClassDef) and n.name == part), None)
        if cls is None:
            return None
        scope = cls.body
    for node in scope:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            args = node.args
            return [a.arg for a in [*args.posonlyargs, *args.args]], [a.arg for a in args.kwonlyargs]
    return None


def params_of(src: bytes, qualname: str) -> list[str] | None:
    """The parameter names of the function ``qualname`` in the module text ``src`` (None: no
    such function)."""
    sig = _signature(src, qualname)
    return None if sig is None else sig[0] + sig[1]


def signature_change(
    old: bytes, new: bytes, callee: str, name: str
) -> tuple[str | None, int | None, int | None] | None:
    """How the module-level function ``callee`` changed from the text ``old`` to ``new``: the
    parameter it gained, ``name``, took the place of which one (and that one's old positional
    index), and where ``name`` sits among the new positional parameters (None: keyword-only).
    None: ``callee`` has no parameter ``name`` in ``new``."""
    before, after = _signature(old, callee), _signature(new, callee)
    if before is None or after is None or name not in after[0] + after[1]:
        return None
    insert_at = after[0].index(name) if name in after[0] else None
    gone = [p for p in before[0] + before[1] if p not in after[0] + after[1]]
    if len(gone) == 1:
        return gone[0], before[0].index(gone[0]) if gone[0] in before[0] else None, insert_at
    return None, None, insert_at


def _callee_calls(a: ModuleAnalysis, fn: FunctionInfo, callee: str) -> list[cst.Call]:
    """The calls of ``callee`` (another module's function, imported under any name, or reached
    through its module: ``paths.album_dir(ctx)``) made in ``fn``."""
    out = []
    for call in fn.calls:
        q = a.qualname(call.func) or ""
        last = call.func.attr.value if isinstance(call.func, cst.Attribute) else getattr(call.func, "value", "")
        if q.split(".")[-1] == callee or (not q and last == callee):
            out.append(call)
    return out


def _bound(call: cst.Call, need: CallerNeed) -> cst.Arg | None:
    """The argument of ``call`` bound to the callee's replaced parameter."""
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == need.replaces:
                return arg
        elif i == need.position:
            return arg
    return None


def _pass_path(name: str, insert_at: int | None, updated: cst.CSTNode) -> cst.CSTNode:
    """The call passing ``name``: positionally at ``insert_at`` when it passes that many positional
    arguments (a parameter the callee gained before one the call fills by position), else as
    ``name=name`` last (before a ``**``)."""
    assert isinstance(updated, cst.Call)
    args = list(updated.args)
    leading = next((i for i, x in enumerate(args) if x.keyword is not None or x.star), len(args))
    if insert_at is not None and insert_at <= leading:
        return updated.with_changes(
            args=insert_element(args, insert_at, cst.Arg(cst.Name(name)), updated.whitespace_before_args)
        )
    new = cst.Arg(
        cst.Name(name),
        keyword=cst.Name(name),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    at = next((i for i, x in enumerate(args) if x.star == "**"), len(args))
    return updated.with_changes(args=insert_element(args, at, new, updated.whitespace_before_args))


def _site(a: ModuleAnalysis, config: Config, fn: FunctionInfo, call: cst.Call, need: CallerNeed) -> Site:
    """The call of the other module's function as this module's roots site: the argument bound
    to the replaced parameter becomes the path (what it read is the site's receiver: a context
    the caller no longer needs goes), or the call passes the path beside its arguments."""
    site = Site(fn, call, "request", need.name, need.mode, config=config)
    arg = _bound(call, need) if need.replaces is not None else None
    if arg is None:
        site.set(call, partial(_pass_path, need.name, need.insert_at))
    elif arg.keyword is not None:
        site.receiver = arg.value
        site.set(arg, arg.with_changes(keyword=cst.Name(need.name), value=cst.Name(need.name)))
    else:
        site.receiver = arg.value
        site.set(arg.value, cst.Name(need.name))
    return site


def _drop_param(name: str, _original: cst.CSTNode, node: cst.CSTNode) -> cst.CSTNode:
    """The function ``node`` without its parameter ``name``."""
    assert isinstance(node, cst.FunctionDef)
    return node.with_changes(params=apply_param_op(node.params, RemoveParam(name), node.whitespace_before_params))


def _pass_present(edits: Edits, fn: FunctionInfo, calls: list[cst.Call], need: CallerNeed) -> None:
    """``fn`` already takes the path (its own roots request went in this run): each call passes
    it where it passed the context, and the context parameter goes when nothing else reads it."""
    bases: set[str] = set()
    dead: set[int] = set()
    for call in calls:
        arg = _bound(call, need) if need.replaces is not None else None
        if arg is None:
            edits.transform(call, lambda _o, updated: _pass_path(need.name, need.insert_at, updated))
            continue
        if isinstance(arg.value, cst.Name):
            bases.add(arg.value.value)
        dead.add(id(arg))
        edits.replace(
            arg, arg.with_changes(keyword=cst.Name(need.name) if arg.keyword else None, value=cst.Name(need.name))
        )
    for base in sorted(bases):
        if base in fn.param_names() and not name_refs(fn.node.body, base, dead):
            edits.transform(fn.node, partial(_drop_param, base))


def caller_edits(a: ModuleAnalysis, config: Config, needs: list[CallerNeed]) -> Edits | str:
    """The edits that make each ``needs`` caller of this module pass the path, or why it cannot
    (the message names the caller and the reason in terms of its code). A caller that already
    takes the path (``CallerNeed.present``) passes it as it is."""
    sites: list[Site] = []
    edits = Edits()
    for need in needs:
        fn = next((f for f in a.functions if f.qualname == need.caller), None)
        if fn is None:
            return f"`{need.caller}` is not a function of this module"
        calls = _callee_calls(a, fn, need.callee)
        if not calls:
            return f"`{need.caller}` does not call `{need.callee}` by a name this module imports"
        if not fn.is_async:
            return f"`{need.caller}` is not async: the path cannot be threaded through a sync bridge"
        if need.present:
            _pass_present(edits, fn, calls, need)
            continue
        r = reach(a, fn)
        if r.external:
            return f"`{need.caller}` is called from another module too ({r.external[0].label})"
        why = manual_reason(a, fn, r)
        if why:
            return f"`{need.caller}`: {why}"
        funcs, edges = closure(a, fn)
        for call in calls:
            site = _site(a, config, fn, call, need)
            why = chain_reason(a, site, funcs, edges)
            if why:
                return why
            sites.append(site)
    for site in sites:
        record_site(site, edits, a)
    edits.finish()
    return edits

"""Call chains from the entry points to a roots request: which tools, prompts, resources and
low-level handlers reach it, which functions on the way need the path and which calls must pass
it, whether it can be threaded through all of them (or why not), and what on the way makes the
fix need review (a request made only on some paths; roots used as an allow-list)."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import NamedTuple

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of
from mcpmigrate.analysis.project import ExternalCall
from mcpmigrate.codemods.param.lowlevel import lowlevel_target
from mcpmigrate.codemods.param.sites import Site
from mcpmigrate.names import name_refs

DOCUMENTED_ROLES = ("tool", "prompt")  # entry points whose new parameter is declared in the signature
ENTRY_ROLES = {"tool", "prompt", "resource", "lowlevel-tool", "lowlevel-prompt", "lowlevel-resource"}


class Edge(NamedTuple):
    """A call on a chain to a roots request: ``caller`` calls ``callee`` at ``call``."""

    caller: FunctionInfo
    call: cst.Call
    callee: FunctionInfo


#: Calls that run a coroutine from sync code (a sync tool bridging into the event loop).
SYNC_BRIDGES = {
    "anyio.from_thread.run",
    "anyio.run",
    "asyncio.run",
    "asyncio.run_coroutine_threadsafe",
    "trio.from_thread.run",
    "trio.run",
}


@dataclass
class Reach:
    """What reaches a function with a roots request, within the module and from the project."""

    entries: list[FunctionInfo] = field(default_factory=list)  # tools, prompts, resources, low-level handlers
    chains: list[list[str]] = field(default_factory=list)  # per entry: qualnames, entry first
    leaves: str | None = None  # why the chain leaves the module (a callback, an export)
    handlers: list[tuple[FunctionInfo, list[str]]] = field(default_factory=list)  # other registered handlers
    bridge: tuple[str, str, str] | None = None  # (coroutine, bridge call, function bridging) of a sync bridge
    external: list[ExternalCall] = field(default_factory=list)  # callers in other modules of the project
    across: list[tuple[ExternalCall, str]] = field(default_factory=list)  # each with the function it calls here


def reach(a: ModuleAnalysis, fn: FunctionInfo) -> Reach:
    """Entry points (tools, prompts, resources, low-level handlers) whose call path reaches
    ``fn`` within the module and their call chains; the other registered handlers on the way
    (any registration is an entry point: ``tools/list``, ``request_handlers[...] =``, ``on_*=``);
    a coroutine run from sync code on the way (``anyio.from_thread.run(_ask)``); the callers in
    other modules of the project (:mod:`mcpmigrate.analysis.project`); and, when some function on
    the way is also used other than by a direct call (a callback, an export), the reason the
    chain leaves the module."""
    out = Reach()
    seen: set[int] = set()
    stack: list[tuple[FunctionInfo, list[str]]] = [(fn, [fn.qualname])]
    while stack:
        cur, chain = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        if cur.role in ENTRY_ROLES:
            out.entries.append(cur)
            out.chains.append(list(reversed(chain)))
            continue
        if cur.method is not None:
            out.handlers.append((cur, list(reversed(chain))))
            continue
        bridged = _bridged_from(a, cur) if cur.is_async else None
        if bridged is not None:
            bridge, outer = bridged
            if out.bridge is None:
                out.bridge = (cur.qualname, bridge, outer.qualname)
            stack.append((outer, chain + [outer.qualname]))
            continue
        for c in a.external_callers(cur):
            if c not in out.external:
                out.external.append(c)
                out.across.append((c, cur.name))
        callers = a.callers(cur)
        if a.references_outside_calls(cur) and out.leaves is None and not a.external_callers(cur):
            if cur is fn and not callers:
                out.leaves = (
                    f"`{cur.qualname}` is not called from a tool but passed on as a value (a lifespan, "
                    "a callback, a registered handler)"
                )
            else:
                out.leaves = (
                    f"`{cur.qualname}` is also used other than by a direct call in this module "
                    f"(chain: {' <- '.join(chain)})"
                )
        for caller, _call in callers:
            stack.append((caller, chain + [caller.qualname]))
    return out


def _bridged_from(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[str, FunctionInfo] | None:
    """``(bridge call, function)`` when a function runs the coroutine ``fn`` from sync code
    (``anyio.from_thread.run(_ask)``, ``asyncio.run(_ask())``,
    ``asyncio.run_coroutine_threadsafe(_ask(), loop)``)."""
    scopes = [fn.parent] if fn.parent is not None else [f for f in a.functions if f.parent is None]
    for scope in scopes:
        if scope is None or scope.is_async:
            continue
        for call in scope.calls:
            q = a.qualname(call.func)
            if q not in SYNC_BRIDGES or not call.args:
                continue
            arg = call.args[0].value
            target = arg.func if isinstance(arg, cst.Call) else arg
            if isinstance(target, cst.Name) and target.value == fn.name:
                return q, scope
    return None


def reaching_entries(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[list[FunctionInfo], list[list[str]], str | None]:
    """:func:`reach`'s entry points, their chains and the reason the chain leaves the module."""
    r = reach(a, fn)
    return r.entries, r.chains, r.leaves


def manual_reason(a: ModuleAnalysis, fn: FunctionInfo, r: Reach) -> str | None:
    """Why the path cannot be given to the entry points that reach ``fn`` (None: it can, as
    far as the entries go): a handler that takes no arguments, a sync bridge, callers in
    another module, a chain that leaves the module — or no entry point at all."""
    for h, chain in r.handlers:
        if h.method in S.INTERIM_METHODS:
            continue
        where = (
            f"the {h.method} handler `{h.qualname}`"
            if h is fn
            else f"`{fn.qualname}`, called from the {h.method} handler `{h.qualname}` ({' -> '.join(chain)})"
        )
        what = "the listing" if h.method and h.method.endswith("/list") else "what it needs"
        return (
            f"the request sits in {where}, which can take no tool arguments and may not return an interim "
            "result (only tools/call, prompts/get and resources/read can); "
            f"derive {what} from server configuration instead"
        )
    for h, _chain in r.handlers:
        return (
            f"`{h.qualname}` is registered for {h.method} as a raw request handler (`request_handlers[...]`): "
            "its arguments arrive in the request itself; rewrite by hand so the tool takes the path as an argument"
        )
    if r.bridge is not None:
        coro, bridge, outer = r.bridge
        reached = ", ".join(f"`{e.qualname}`" for e in r.entries) or "no tool in this module"
        return (
            f"`{coro}` runs through `{bridge}` in the sync function `{outer}` (a bridge into the event loop, "
            f"reached from {reached}): rewrite by hand so the tool takes the path as a parameter"
        )
    if r.external and across_reason(r) is not None:
        tools = list(dict.fromkeys(c.caller for c in r.external if c.role in ENTRY_ROLES))
        whom = ", ".join(f"`{t}`" for t in tools[:3]) if tools else "the tools that reach it"
        labels = list(dict.fromkeys(c.label for c in sorted(r.external, key=lambda c: c.rank)))
        shown = ", ".join(labels[:3]) + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")
        if len(tools) > 3:
            whom += f" and {len(tools) - 3} more tools"
        return (
            f"called from another module ({shown}); {across_reason(r)}: give {whom} a "
            f"documented path parameter and pass it to `{fn.qualname}` by hand"
        )
    if r.leaves:
        # the use that is not a call is in this module (a callback handed to `tg.start_soon`, a stored
        # reference): the chain does not leave the module, its callers cannot all be followed
        return f"the callers cannot all be followed: {r.leaves}"
    if not r.entries and not r.external:
        untyped = untyped_calls(a, fn)
        if untyped:
            return (
                f"`{fn.qualname}` has no call in this module that the analysis can tie to it, only perhaps "
                f"{untyped} (a `{fn.name}` of an object whose class it does not know), so the chain to a tool "
                "cannot be followed: pass the path in by hand from where it is needed"
            )
        wrapped = context_subclass(a, fn)
        if wrapped is not None:
            return (
                f"`{fn.qualname}` is a method of `{fn.class_name}`, a subclass of `{wrapped}` that tools receive as "
                f"their context: the tools that call `ctx.{fn.name}()` on it (in other modules, or in the code of "
                "this package's users) make the request; give those tools a documented path parameter, and "
                "deprecate this method"
            )
        return (
            f"no tool, prompt or resource reaches `{fn.qualname}` ({unreached_description(a, fn)}): "
            "there is no tool to give a path parameter. Delete it if it is dead code, or pass the "
            "path in from where it is needed"
        )
    return None


def context_subclass(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
    """The SDK or fastmcp context class that ``fn``'s class extends (a framework's own ``Context``,
    mcp-use's ``class Context(FastMCPContext)``, whose ``list_roots`` its users' tools call), or None."""
    if fn.class_name is None or fn.parent is not None:
        return None
    for base in a.class_bases.get(fn.class_name, []):
        if base in S.MCP_CONTEXT_V1 | S.MCP_CONTEXT_V2 | S.FASTMCP_CONTEXT:
            return base
    return None


def across_reason(r: Reach) -> str | None:
    """Why the path cannot be threaded into the callers in other modules (None: it can). It can
    when each of them is a tool or a prompt of that module (it takes a documented parameter; the
    project step rewrites it with the module that makes the request: ``mcpmigrate/project_threads.py``);
    a helper there, a low-level handler or a resource would need the chain followed on through
    that module."""
    for c in r.external:
        if c.role not in DOCUMENTED_ROLES:
            what = f"the {c.role} handler {c.label}" if c.role else c.label
            return f"{what} is no decorator tool or prompt, so the path would have to be threaded on through its module"
    return None


def untyped_calls(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
    """``"`manager.refresh()` in `wire._on_initialized`, `wire._on_changed`"``: the calls that may be
    calls of the method ``fn`` on an object of unknown class (:meth:`untyped_method_calls`); None
    when there are none."""
    found: dict[str, list[str]] = {}
    for f, call in a.untyped_method_calls(fn):
        found.setdefault(f"`{code_of(call.func)}()`", []).append(f"`{f.qualname}`")
    if not found:
        return None
    return "; ".join(f"{call} in {', '.join(dict.fromkeys(where))}" for call, where in found.items())


def unreached_description(a: ModuleAnalysis, fn: FunctionInfo) -> str:
    """How a function that no entry point reaches is (not) called: ``called only from `x`,
    which nothing calls``; a call that never runs is named as such (``its only call, in `x`,
    follows a `return` and never runs``)."""
    ends: list[tuple[list[str], FunctionInfo]] = []
    stack = [(fn, [fn.qualname])]
    seen: set[int] = set()
    while stack and len(ends) < 3:
        cur, chain = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        callers = a.callers(cur)
        if not callers:
            ends.append((chain, cur))
        for caller, _ in callers:
            stack.append((caller, chain + [caller.qualname]))
    if not ends or [chain for chain, _ in ends] == [[fn.qualname]]:
        return _never_runs(a, fn) or "nothing in this module calls it"
    parts = []
    for chain, end in ends:
        dead = _never_runs(a, end)
        parts.append(" <- ".join(f"`{q}`" for q in chain) + (f" ({dead})" if dead else ""))
    return "its only call chains end in functions nothing calls: " + "; ".join(parts)


def _never_runs(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
    """``its only call, in `x`, follows a `return` and never runs`` when every call of ``fn`` in
    the module sits after a ``return`` (``raise``, ``continue``, ``break``) of its block; None
    when nothing calls it at all."""
    dead = a.dead_callers(fn)
    if not dead:
        return None
    where = ", ".join(dict.fromkeys(f"`{caller.qualname}`" for caller, _ in dead))
    stops = " or ".join(f"`{k}`" for k in dict.fromkeys(a.stopped_by(call) or "return" for _, call in dead))
    if len(dead) == 1:
        return f"its only call, in {where}, follows a {stops} and never runs"
    return f"its calls, in {where}, follow a {stops} and never run"


def closure(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[list[FunctionInfo], list[Edge]]:
    """Functions that need the path (``fn`` and its callers up to the entry points) and the
    call edges ``(caller, call, callee)`` that must pass it."""
    funcs = [fn]
    edges: list[Edge] = []
    seen = {id(fn)}
    stack = [fn]
    while stack:
        cur = stack.pop()
        if cur.role in ENTRY_ROLES:
            continue
        for caller, call in a.callers(cur):
            edges.append(Edge(caller, call, cur))
            if id(caller) not in seen:
                seen.add(id(caller))
                funcs.append(caller)
                stack.append(caller)
    return funcs, edges


def chain_reason(a: ModuleAnalysis, site: Site, funcs: list[FunctionInfo], edges: list[Edge]) -> str | None:
    """Why the path cannot be threaded to every function that needs it (None: it can)."""
    dead = set(site.changes)
    for f in funcs:
        if f.role == "resource":
            return (
                f"`{f.qualname}` is a resource: its parameters come from its URI template; put the path in the "
                "template (or make it a tool) by hand"
            )
        if f.role in ("lowlevel-prompt", "lowlevel-resource"):
            return (
                f"`{f.qualname}` is a low-level {f.role[9:]} handler: there is no inputSchema to carry a path parameter"
            )
        if f.role == "prompt" and site.mode == "list":
            return f"`{f.qualname}` is a prompt and prompt arguments are strings: a list of paths cannot be passed"
        if f.role == "lowlevel-tool":
            nodes = [site.node] if f is site.fn else [c for caller, c, _ in edges if caller is f]
            for n in nodes:
                target = lowlevel_target(a, f, n, site.name)
                if isinstance(target, str):
                    return target
        if (
            site.name in f.param_names()
            or name_refs(f.node.params, site.name)
            or name_refs(f.node.body, site.name, dead)
        ):
            return (
                f"`{site.name}` is already a name in `{f.qualname}`: set another name with "
                "`[tool.mcpmigrate] path-parameter` or rename it"
            )
    return None


def from_registry(a: ModuleAnalysis, recv: cst.BaseExpression, fn: FunctionInfo) -> bool:
    """The receiver is a session read from module-level state (``SESSIONS[0]``, a global)."""
    base: cst.BaseExpression = recv
    while isinstance(base, (cst.Attribute, cst.Subscript)):
        if isinstance(base, cst.Subscript):
            return True
        base = base.value
    if isinstance(base, cst.Name):
        name = base.value
        local = name in fn.param_names() or any(n == name for n, _ in fn.assigns)
        if not local and name not in a.module_kinds:
            # a name defined neither locally nor as a known server: e.g. a loop over a registry
            return name not in ("self", "cls") and fn.parent is None and not _bound_in_parents(fn, name)
    return False


def _bound_in_parents(fn: FunctionInfo, name: str) -> bool:
    p = fn.parent
    while p is not None:
        if name in p.param_names() or any(n == name for n, _ in p.assigns):
            return True
        p = p.parent
    return False


_BOUNDARY_CHECKS = {"is_relative_to", "commonpath", "commonprefix"}  # not `relative_to`: also names paths
_GUARD_NAME = re.compile(r"allow|permit|authori[sz]|access|inside|within|sandbox", re.IGNORECASE)


def conditional_ancestor(a: ModuleAnalysis, node: cst.CSTNode, fn: FunctionInfo | None) -> str | None:
    """The header of the innermost ``if`` / ``try`` / loop in ``fn`` that the request sits in (it
    runs only on some paths), or None."""
    cur = a.parents.get(id(node))
    while cur is not None and (fn is None or cur is not fn.node):
        if isinstance(cur, cst.If) and not _is_tool_dispatch(cur.test):
            return "if " + code_of(cur.test)
        if isinstance(cur, cst.Try):
            return "try"
        if isinstance(cur, (cst.For, cst.While)):
            return "for" if isinstance(cur, cst.For) else "while"
        cur = a.parents.get(id(cur))
    return None


def _is_tool_dispatch(test: cst.BaseExpression) -> bool:
    """``params.name == "grep"`` / ``name == "grep"``: a low-level handler choosing the tool (the
    branch is the tool, not a fallback inside it)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return False
    for side, other in ((test.left, target.comparator), (target.comparator, test.left)):
        named = (isinstance(side, cst.Attribute) and side.attr.value == "name") or (
            isinstance(side, cst.Name) and side.value in ("name", "tool_name", "tool")
        )
        if named and isinstance(other, (cst.SimpleString, cst.ConcatenatedString)):
            return True
    return False


def _boundary_call(call: cst.Call) -> bool:
    """``p.is_relative_to(root)``, ``os.path.commonpath([...])``, ``str(p).startswith(str(root))``
    (a prefix check against a computed value, not a literal), or a call of a guard-named helper
    (``allowed(p)``, ``is_inside(p, roots)``, ``check_access(p)``)."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    if name is None:
        return False
    if name in _BOUNDARY_CHECKS:
        return True
    if name == "startswith" and isinstance(func, cst.Attribute):
        return bool(call.args) and not isinstance(
            call.args[0].value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
        )
    return bool(_GUARD_NAME.search(name))


def _checks_access(f: FunctionInfo) -> bool:
    return bool(_GUARD_NAME.search(f.name)) or any(_boundary_call(c) for c in f.calls)


def bounds_access(a: ModuleAnalysis, funcs: list[FunctionInfo]) -> str | None:
    """The qualname of a function that checks paths against a boundary where the roots can reach:
    one of ``funcs`` (the request's function and its callers up to the entry points) or a module
    function or method they call, directly or through others (``vault.admit(path)`` whose class
    checks ``target.is_relative_to(a) for a in self.allowed``). A check is
    ``p.is_relative_to(root)``, ``os.path.commonpath``, a computed ``startswith`` prefix, a
    guard-named call or function (``is_path_allowed``, ``inside``): roots used as an allow-list."""
    seen: set[int] = set()
    stack = list(funcs)
    while stack:
        f = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        if _checks_access(f):
            return f.qualname
        for call in f.calls:
            callee = a.callee_of(call, f)
            if callee is not None and id(callee) not in seen:
                stack.append(callee)
    return None


#: Modules whose objects hold no sandbox of the project's own (the SDKs, and pydantic models).
_FOREIGN_HEADS = ("mcp", "fastmcp", "pydantic")


def stored_outside(a: ModuleAnalysis, node: cst.CSTNode, funcs: list[FunctionInfo]) -> str | None:
    """```keeper.shelves``, an attribute of a ``Keeper`` (from ``keeper``)`` when the roots answer
    asked at ``node`` — directly, through a local, or returned by a function on the way — is stored
    on an attribute of an object whose class is defined in another module (imported: a module-level
    ``keeper = Keeper()`` or a parameter annotated with it). The methods of that class read the
    attribute where this module's analysis cannot see them, so they may check paths against it (an
    edit sandbox): as a tool parameter the caller could widen it. None when the answer goes no such
    place. Conservative: the class's code is not read."""
    for f, target in _stores(a, node, funcs):
        assert isinstance(target.value, cst.Name)
        owner = _imported_class(a, f, target.value.value)
        if owner is not None:
            cls, module = owner
            return f"`{target.value.value}.{target.attr.value}`, an attribute of a `{cls}` (from `{module}`)"
    return None


def stored_checked(a: ModuleAnalysis, node: cst.CSTNode, funcs: list[FunctionInfo]) -> str | None:
    """The qualname of a method that checks paths against a boundary (:func:`bounds_access`) in
    the class of this module whose module-level instance the roots answer is stored on
    (``keeper.shelves = await _granted(ctx)`` with ``keeper = Keeper()``): the check runs however
    the method is reached (a bound method passed as a value, ``_timed(keeper.fetch, path)``)."""
    for f, target in _stores(a, node, funcs):
        assert isinstance(target.value, cst.Name)
        name = target.value.value
        if name in f.param_names() or any(n == name for n, _v in f.assigns):
            continue
        cls = a.instance_class(name)
        if cls is not None:
            guard = bounds_access(a, [g for g in a.functions if g.class_name == cls])
            if guard is not None:
                return guard
    return None


def _stores(
    a: ModuleAnalysis, node: cst.CSTNode, funcs: list[FunctionInfo]
) -> list[tuple[FunctionInfo, cst.Attribute]]:
    """``(function, name.attr)`` for each assignment of the roots answer asked at ``node`` (the
    call itself, a local holding it, or a call of a function on the way that returns it) to an
    attribute of a plain name, in ``funcs``."""
    tainted_calls: set[int] = {id(node)}
    ids = {id(f) for f in funcs}
    for f in funcs:
        for call in f.calls:
            callee = a.callee_of(call, f)
            if callee is not None and id(callee) in ids:
                tainted_calls.add(id(call))
    out: list[tuple[FunctionInfo, cst.Attribute]] = []
    for f in funcs:
        names: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, value in f.assigns:
                if name not in names and _carries(value, tainted_calls, names):
                    names.add(name)
                    changed = True
        for stmt in _walk_assigns(f.node):
            if not _carries(stmt.value, tainted_calls, names):
                continue
            for t in stmt.targets:
                target = t.target
                if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
                    out.append((f, target))
    return out


def _walk_assigns(node: cst.CSTNode) -> list[cst.Assign]:
    out: list[cst.Assign] = []

    class _V(cst.CSTVisitor):
        def visit_Assign(self, n: cst.Assign) -> None:
            out.append(n)

    node.visit(_V())
    return out


def _carries(expr: cst.CSTNode, calls: set[int], names: set[str]) -> bool:
    """``expr`` holds one of ``calls`` or reads one of ``names``."""
    found = False

    class _V(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            found = found or id(n) in calls

        def visit_Name(self, n: cst.Name) -> None:
            nonlocal found
            found = found or n.value in names

    expr.visit(_V())
    return found


def _imported_class(a: ModuleAnalysis, f: FunctionInfo, name: str) -> tuple[str, str] | None:
    """``(class, module)`` when ``name`` in ``f`` is an object of a class imported from another
    module (not an SDK's): a module-level ``name = Cls(...)``, or a parameter annotated ``Cls``."""
    exprs: list[cst.BaseExpression] = []
    param = next((p for p in f.params if p.name.value == name), None)
    if param is not None:
        if param.annotation is not None:
            exprs.append(param.annotation.annotation)
    elif not any(n == name for n, _v in f.assigns):
        exprs += [v.func for n, v in a.module_assigns if n == name and isinstance(v, cst.Call)]
    for expr in exprs:
        head = get_full_name_for_node(expr)
        if not head:
            continue
        first, _, rest = head.partition(".")
        if first in a.relative_imports:
            level, dotted = a.relative_imports[first]
            where = "." * level + dotted.rpartition(".")[0]
            return (dotted.rpartition(".")[2] + (f".{rest}" if rest else ""), where)
        q = a.qualname(expr)
        if first in a.imports and q and "." in q and not q.startswith(tuple(h + "." for h in _FOREIGN_HEADS)):
            module, _, cls = q.rpartition(".")
            if module.partition(".")[0] not in sys.stdlib_module_names:
                return cls, module
    return None


def fence_of(a: ModuleAnalysis, node: cst.CSTNode, funcs: list[FunctionInfo]) -> str | None:
    """How the roots asked at ``node`` bound what a tool may touch, said for a review note (``an
    allow-list check in `read_book```, or the object of another module's class the answer is
    kept on: :func:`stored_outside`), or None."""
    guard = bounds_access(a, funcs) or stored_checked(a, node, funcs)
    if guard is not None:
        return f"an allow-list check in `{guard}`"
    kept = stored_outside(a, node, funcs)
    if kept is not None:
        return (
            f"the answer is kept in {kept}: that class is defined in another module, where its methods may check "
            "paths against it out of this fix's sight"
        )
    return None

"""The request context passed down from the handler, where mcp 1.x read it from the server
(MCP504: ``server.get_context()``; MCP505: the low-level ``server.request_context``).

mcp 2.3's ``MCPServer`` has no ``get_context()`` (the SDK's migration guide, “``MCPServer.get_context()``
removed”): a tool, prompt or template resource receives the context in a parameter annotated
``Context`` (``mcp/server/mcpserver/utilities/context_injection.py``, ``find_context_parameter``;
the parameter is left out of the tool's inputSchema and of a template's URI variables). The fix::

    @mcp.tool()                                   @mcp.tool()
    def lookup(q: str) -> str:                    def lookup(q: str, ctx: Context) -> str:
        ctx = mcp.get_context()          →            return _tag(q, ctx=ctx)
        return _tag(q)
                                                  def _tag(q: str, *, ctx: Context) -> str:
    def _tag(q: str) -> str:                          return f"{ctx.request_id}: {q}"
        return f"{mcp.get_context().request_id}: {q}"

- the handler takes the context as a parameter (the name of an existing ``Context`` parameter;
  else the name the removed ``x = mcp.get_context()`` bound; else ``ctx``, or a free variant);
- every function between it and the read — helpers, methods, nested functions of this module —
  takes it too (keyword-only when the parameter list has defaults or a ``*``), and every call on
  the way passes it by keyword;
- the ``get_context()`` call becomes that parameter.

Planned only when every caller of every function that changes signature is itself threaded (or is a
handler that has the context): a function that is used as a value (a callback, a ``to_thread``
target, a module-level call), or that nothing calls stays manual, named. A function that other
modules of the project call (the project pass: :mod:`mcpmigrate.analysis.project`) takes the
context when each calling function there passes the test this module's own do, read from its
file (:func:`outside_callers`): its site lists those calls (:class:`OutsideCall`, kept on the finding as ``project_needs``) and
the port's project step writes them (:mod:`.callers`), every module or none. A method of a
module-level class is followed the same way through the instances other modules make of it
(``executor = AgentExecutor(…)`` bound once in the calling function, then ``executor.execute(…)``;
the project pass keys it ``AgentExecutor.execute``), unless an instance leaves that function or
the class is used otherwise (subclassed, named, a factory method: :func:`_instances_escape`). A
function a factory returns to an mcp 1.x ``add_tool`` (``tool_func = make(cfg)``,
``mcp.add_tool(tool_func, …)``) is a tool there: it takes a ``Context`` parameter, which
``add_tool`` injects on mcp 1.x and 2.x alike (:func:`factory_tool`). The server may be
imported from the module that builds it (``from app import mcp``). A static resource (a URI without template variables) is manual: mcp 2.3 refuses a
``Context`` parameter there (``ValueError`` at registration).

On a low-level server (MCP505) the handlers are the ones the port wraps in an ``on_…`` adapter
(:mod:`.lowlevel`: decorator handlers, in the module or a factory, and methods registered by
calling the decorator on the bound method): the adapter receives mcp 2.x's
``ServerRequestContext`` as ``ctx`` and passes it to the handler (``LowlevelPort.contexts``),
which passes it down the same way; ``server.request_context`` becomes it (the guide's
“Lowlevel ``Server``: ``request_context`` property removed”).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis
from mcpmigrate.analysis.project import ExternalCall
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.imports import project_imports
from mcpmigrate.codemods.port.renames import module_bindings
from mcpmigrate.files import project_root, read_regular
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import fresh, module_names, name_refs, ref_names, string_value

CONTEXT_V2 = ("mcp.server.mcpserver", "Context")
LL_CONTEXT_V2 = ("mcp.server", "ServerRequestContext")
# 1.x spellings of the Context class the port's renames (MCP501) move to mcp.server.mcpserver.
_CONTEXT_V1 = {
    "mcp.server.fastmcp.Context",
    "mcp.server.fastmcp.server.Context",
    "mcp.server.mcpserver.Context",
    "mcp.server.mcpserver.server.Context",  # nexus-dev's `from mcp.server.fastmcp.server import Context`, renamed
}
ENTRY_ROLES = ("tool", "prompt", "resource")

FIX = FixInfo(
    Safety.SAFE,
    "port",
    "take the context as a `Context` parameter of the tool, resource or prompt (mcp 2.x's `MCPServer` injects it "
    "there and keeps it out of the inputSchema) and pass it down to the functions on the way",
)


FIX_LOWLEVEL = FixInfo(
    Safety.SAFE,
    "port",
    "read the handler's `ctx` (mcp 2.x's `ServerRequestContext`, which the port's adapter passes to the handler) "
    "instead, passed down to the functions on the way",
)


def is_get_context(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo | None) -> bool:
    """``server.get_context()`` on an mcp 1.x ``FastMCP`` (gone on mcp 2.x's ``MCPServer`` too): a
    server of this module, or one imported from the module of the project that builds it
    (:meth:`~mcpmigrate.analysis.ModuleAnalysis.build` types it)."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == "get_context"
        and a.kind_of(func.value, fn) is Kind.SERVER_HL
        and a.generation_of_server_expr(func.value, fn) != S.FASTMCP
    )


def is_request_context(a: ModuleAnalysis, node: cst.Attribute, fn: FunctionInfo | None) -> bool:
    """``server.request_context`` on a low-level ``Server`` (the property mcp 2.x removed)."""
    return node.attr.value == "request_context" and a.kind_of(node.value, fn) is Kind.SERVER_LL


def is_request_ctx_get(a: ModuleAnalysis, node: cst.CSTNode | None) -> bool:
    """``request_ctx.get()``: mcp 1.x's request context variable (gone on mcp 2.x), read inside a
    request the same ``RequestContext`` as ``server.request_context``."""
    return (
        isinstance(node, cst.Call)
        and not node.args
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "get"
        and a.qualname(node.func.value) in S.REQUEST_CTX_VARS
    )


def request_ctx_reads(a: ModuleAnalysis, alias: cst.ImportAlias) -> list[cst.Call] | None:
    """The ``request_ctx.get()`` reads of the name an import of ``request_ctx`` binds, or None when
    the name is used otherwise (passed on, ``.set()``, a ``.get(default)``) or not at all."""
    bound = alias.asname.name if alias.asname is not None else alias.name
    if not isinstance(bound, cst.Name):
        return None
    reads: list[cst.Call] = []
    for n in a.nodes(cst.Name):
        if n.value != bound.value or n is bound:
            continue
        get = a.parents.get(id(n))
        call = a.parents.get(id(get))
        if not (isinstance(get, cst.Attribute) and get.value is n and is_request_ctx_get(a, call)):
            return None
        reads.append(call)  # type: ignore[arg-type]
    return reads or None


@dataclass
class Threading:
    """The threading one ``get_context()`` read needs: per function on the way, the name its
    context goes by; the functions that take it as a new parameter; the calls that pass it."""

    names: dict[int, str] = field(default_factory=dict)  # id(FunctionDef) -> the context's name there
    added: list[cst.FunctionDef] = field(default_factory=list)  # functions that take a new parameter
    passes: list[tuple[cst.Call, str, str]] = field(default_factory=list)  # (call, callee's name, caller's name)
    # the calls other modules of the project make that must pass it (:func:`outside_callers`)
    outside: list[OutsideCall] = field(default_factory=list)


@dataclass(frozen=True, order=True)
class OutsideCall:
    """A function of another module of the project that calls a function which now takes the
    context: it passes its own, under the callee's parameter name (:mod:`.callers` writes it in
    the project step, so that the port writes both modules or neither)."""

    path: str  # the calling module, absolute
    shown: str  # as the finding names it (relative to the project root)
    caller: str  # the calling function's qualname
    callee: str  # the called function's name in the module that reads the context
    param: str  # the name of its new parameter

    def as_need(self) -> dict[str, str]:
        """Plain data the finding keeps (``Finding.project_needs``) for :mod:`.callers`."""
        return dataclasses.asdict(self)


@dataclass
class ContextRead:
    """One ``get_context()`` call: it becomes the name of its function's context (the line
    ``x = server.get_context()`` goes when ``x`` is that name), and the context is threaded to it.
    What several reads share (a parameter, a call passing it) is recorded once per round."""

    call: cst.BaseExpression  # `server.get_context()` or `server.request_context`
    fn: cst.FunctionDef
    dropped: cst.SimpleStatementLine | None
    threading: Threading
    lowlevel: bool = False  # `server.request_context`: the low-level `ServerRequestContext`

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        t = self.threading
        if self.dropped is not None:
            edits.remove(self.dropped, keep_comments=True)
            _close_gap(edits, analysis, self.dropped)
        else:
            name = t.names[id(self.fn)]
            edits.replace(_fallback_or(analysis, self.call, name), cst.Name(name))
        done: set[int] = edits.shared("port.context.done", set)  # parameters and calls already recorded
        for fn in t.added:
            add_param(edits, analysis, fn, t.names[id(fn)], lowlevel=self.lowlevel)
        for call, callee_name, caller_name in t.passes:
            if id(call) not in done:
                done.add(id(call))
                edits.transform(call, _pass_kwarg(callee_name, caller_name))

    def project_needs(self) -> list[dict[str, str]]:
        """The calls other modules make into the functions that take the context now, which the
        port's project step writes (:mod:`.callers`): plain data, kept on the finding when its
        libcst nodes are dropped (``FixSite.project_needs``)."""
        return [c.as_need() for c in self.threading.outside]


@dataclass
class PassedOn:
    """The calls ``fn`` makes into functions of another module that now take the context: each
    passes ``fn``'s own under the callee's parameter name, and ``fn`` gets the context the way a
    read there would (:func:`caller_threading`)."""

    fn: cst.FunctionDef
    calls: list[tuple[cst.Call, str]]  # (call, the callee's parameter name)
    threading: Threading

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        t = self.threading
        done: set[int] = edits.shared("port.context.done", set)
        for fn in t.added:
            add_param(edits, analysis, fn, t.names[id(fn)], lowlevel=False)
        passes = [*t.passes, *((call, param, t.names[id(self.fn)]) for call, param in self.calls)]
        for call, callee_name, caller_name in passes:
            if id(call) not in done:
                done.add(id(call))
                edits.transform(call, _pass_kwarg(callee_name, caller_name))


def caller_threading(a: ModuleAnalysis, fn: FunctionInfo) -> Threading | str:
    """The threading that gives ``fn`` (a function of a module that calls into another whose
    function now takes the context) the context of the tool, resource or prompt reaching it, or
    why it cannot have one (the test :func:`outside_callers` made on this module's file)."""
    return a.memo(f"port.context.{id(fn.node)}", lambda: _threading(a, fn))


def _close_gap(edits: Edits, analysis: ModuleAnalysis, stmt: cst.SimpleStatementLine) -> None:
    """When the removed line opened its block, the blank lines before the next statement go too
    (its comments stay)."""
    block = analysis.parents.get(id(stmt))
    if not isinstance(block, cst.IndentedBlock) or block.body[0] is not stmt or len(block.body) < 2:
        return
    nxt = block.body[1]

    def strip(_orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
        lines = getattr(upd, "leading_lines", ())
        while lines and lines[0].comment is None:
            lines = lines[1:]
        return upd.with_changes(leading_lines=lines)

    if getattr(nxt, "leading_lines", ()):
        edits.transform(nxt, strip)


def add_param(edits: Edits, analysis: ModuleAnalysis, fn: cst.FunctionDef, name: str, lowlevel: bool) -> None:
    """``fn`` takes the context as the parameter ``name`` (once per round, whichever site asks
    first: a read, or the low-level port's adapter that passes it)."""
    done: set[int] = edits.shared("port.context.done", set)
    if id(fn) in done:
        return
    done.add(id(fn))
    annotation = edits.import_name(analysis, *LL_CONTEXT_V2) if lowlevel else _spell_context(edits, analysis)
    edits.transform(fn.params, context_param(name, annotation))


def _spell_context(edits: Edits, analysis: ModuleAnalysis) -> str:
    """The module's own import of ``Context`` (under its 1.x module, which the port renames), else
    ``Context`` from ``mcp.server.mcpserver`` (under a free alias when the name is taken)."""
    for local, full in analysis.imports.items():
        if full in _CONTEXT_V1 and module_bindings(analysis).get(local) == 1:
            return local
    return edits.import_name(analysis, *CONTEXT_V2)


def context_param(name: str, annotation: str):
    """A transform of a function's ``Parameters``: ``name: annotation`` added last (keyword-only when the
    list has defaults or a ``*``; before ``**kwargs``). The interim fix's injected fastmcp ``Context``
    takes it too (:mod:`mcpmigrate.codemods.interim.inject`)."""

    def add(_orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(upd, cst.Parameters)
        param = cst.Param(cst.Name(name), annotation=cst.Annotation(cst.parse_expression(annotation)))
        keyword_only = (
            upd.star_arg is not cst.MaybeSentinel.DEFAULT
            or any(p.default is not None for p in upd.params)
            or bool(upd.kwonly_params)
        )
        if keyword_only:
            star = upd.star_arg if upd.star_arg is not cst.MaybeSentinel.DEFAULT else cst.ParamStar()
            return upd.with_changes(star_arg=star, kwonly_params=[*_commas(upd.kwonly_params), param])
        if upd.star_kwarg is None:
            return upd.with_changes(params=[*_commas(upd.params), param])
        return upd.with_changes(
            params=[
                *_commas(upd.params),
                param.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            ]
        )

    return add


def _commas(params) -> list[cst.Param]:
    """The parameters, each followed by a comma (the last one's comma kept as written)."""
    out = list(params)
    for i, p in enumerate(out):
        if p.comma is cst.MaybeSentinel.DEFAULT:
            out[i] = p.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return out


def _pass_kwarg(keyword: str, value: str):
    def add(_orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(upd, cst.Call)
        args = list(upd.args)
        if args and args[-1].comma is cst.MaybeSentinel.DEFAULT:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        eq = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
        return upd.with_changes(args=[*args, cst.Arg(cst.Name(value), keyword=cst.Name(keyword), equal=eq)])

    return add


# -- planning ----------------------------------------------------------------------------------
def plan(a: ModuleAnalysis, call: cst.Call) -> FixPlan:
    """The plan for one ``server.get_context()`` call: the threading of its function's context,
    or why the context cannot be passed down to it."""
    fn = a.enclosing_function(call)
    if fn is None:
        return FixPlan(
            manual="the call runs at module level, outside any request: there is no context to pass; "
            "move the code into the tool, resource or prompt that needs it"
        )
    t = a.memo(f"port.context.{id(fn.node)}", lambda: _threading(a, fn))
    if isinstance(t, str):
        return FixPlan(manual=t)
    names = _names(a)
    dropped = names[id(fn.node)][1]
    if dropped is not None and _dropped_stmt(a, call) is not dropped:
        dropped = None
    if not t.outside:
        return FixPlan(fix=FIX, site=ContextRead(call, fn.node, dropped, t))
    callers = list(dict.fromkeys(f"`{c.caller}` in {c.shown}" for c in t.outside))
    fix = FixInfo(
        FIX.safety,
        FIX.strategy,
        f"{FIX.description}, across modules: {', '.join(callers)} "
        f"{'passes its' if len(callers) == 1 else 'pass their'} own context too (the port writes every one of "
        "those modules or none)",
    )
    return FixPlan(fix=fix, site=ContextRead(call, fn.node, dropped, t))


def plan_request_context(a: ModuleAnalysis, node: cst.BaseExpression) -> FixPlan:
    """The plan for one ``server.request_context`` read on a low-level server: the handler's
    ``ctx`` (mcp 2.x's ``ServerRequestContext``, which the port's adapter passes) threaded to it,
    or why it cannot be."""
    fn = a.enclosing_function(node)
    if fn is None:
        return FixPlan(
            manual="the read runs at module level, outside any request: there is no context to pass; "
            "move the code into the handler that needs it"
        )
    t = a.memo(f"port.context.{id(fn.node)}", lambda: _threading(a, fn, lowlevel=True))
    if isinstance(t, str):
        return FixPlan(manual=t)
    dropped = _names(a)[id(fn.node)][1]
    if dropped is not None and _dropped_stmt(a, node) is not dropped:
        dropped = None
    return FixPlan(fix=FIX_LOWLEVEL, site=ContextRead(node, fn.node, dropped, t, lowlevel=True))


@dataclass(frozen=True)
class GoesWithReads:
    """The import of ``request_ctx``, left unused once each of its reads is the handler's ``ctx``
    (:class:`ContextRead`): the fix's unused-import pruning removes it, nothing to record here."""

    alias: cst.ImportAlias

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        return None


def plan_request_ctx_import(a: ModuleAnalysis, alias: cst.ImportAlias, why: str) -> FixPlan:
    """MCP509 on ``from mcp.server.lowlevel.server import request_ctx``: fixed with its reads when
    every use of the name is a ``request_ctx.get()`` the port threads the handler's ``ctx`` to;
    else manual (``why``, or the first read's reason)."""
    reads = request_ctx_reads(a, alias)
    if reads is None:
        return FixPlan(manual=f"{why} (`request_ctx` is used other than by `request_ctx.get()` reads)")
    for read in reads:
        p = plan_request_context(a, read)
        if p.fix is None:  # the read's own reason (`why` speaks of low-level handlers only)
            return FixPlan(manual=f"`request_ctx` is gone on mcp 2.x and its `request_ctx.get()` stays: {p.manual}")
    return FixPlan(
        fix=FixInfo(
            FIX_LOWLEVEL.safety,
            FIX_LOWLEVEL.strategy,
            "the import goes once each `request_ctx.get()` reads the handler's `ctx` instead (MCP505)",
        ),
        site=GoesWithReads(alias),
    )


def handler_context(a: ModuleAnalysis, fn: cst.FunctionDef) -> str | None:
    """The name under which a low-level handler the port wraps takes the request context (its
    adapter passes ``ctx`` under it), when a ``server.request_context`` read needs it."""
    entry = _names(a).get(id(fn))
    return entry[0] if entry is not None and entry[2] else None


def _names(a: ModuleAnalysis) -> dict[int, tuple[str, cst.SimpleStatementLine | None, bool]]:
    """Per function (``id`` of its node): the name of its context, the ``x = server.get_context()``
    line that goes, and whether the name is a new parameter — chosen once per module, so every
    read and every call agree."""
    return a.memo("port.context.names", dict)


def _threading(a: ModuleAnalysis, fn: FunctionInfo, lowlevel: bool = False) -> Threading | str:
    funcs, edges, reason = _closure(a, fn, lowlevel)
    if reason is not None:
        return reason
    names = _names(a)
    t = Threading()
    for f in funcs:
        if id(f.node) not in names:
            existing = _context_param(a, f)
            names[id(f.node)] = (existing, None, False) if existing is not None else (*_new_name(a, f, lowlevel), True)
        name, _dropped, added = names[id(f.node)]
        t.names[id(f.node)] = name
        if added:
            t.added.append(f.node)
    for caller, c, callee in edges:
        if caller is None:  # a call from another module
            if callee.node in t.added:
                t.outside.append(dataclasses.replace(c, param=t.names[id(callee.node)]))
        elif callee.node in t.added:
            t.passes.append((c, t.names[id(callee.node)], t.names[id(caller.node)]))
    t.outside.sort()
    return t


def _closure(
    a: ModuleAnalysis, fn: FunctionInfo, lowlevel: bool = False
) -> tuple[list[FunctionInfo], list[tuple], str | None]:
    """``fn`` and every function up to the handlers that must take the context, the calls that
    must pass it ``(caller, call, callee)``, or why they cannot all be given it."""
    funcs: list[FunctionInfo] = []
    edges: list[tuple] = []
    seen: set[int] = set()
    stack = [fn]
    while stack:
        f = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        funcs.append(f)
        reason, stop = _closure_role(a, f, lowlevel)
        if reason is not None:
            return funcs, edges, reason
        if stop:
            continue
        reason = _closure_reach(a, f, lowlevel, edges)
        if reason is not None:
            return funcs, edges, reason
        for caller, c in a.callers(f):
            edges.append((caller, c, f))
            stack.append(caller)
    return funcs, edges, None


def _closure_role(a: ModuleAnalysis, f: FunctionInfo, lowlevel: bool) -> tuple[str | None, bool]:
    """The check of ``f``'s role in :func:`_closure`: ``(reason, False)`` when ``f`` is a handler
    that cannot be given the context; ``(None, True)`` when ``f`` has it already (the handler the
    port's adapter wraps, or an entry with a context parameter) and its callers are not followed;
    ``(None, False)`` to go on with :func:`_closure_reach`."""
    if lowlevel and _ported_handler(a, f):
        if a.references_outside_calls(f) or a.callers(f) or a.external_callers(f):
            return (
                f"`{f.qualname}` is a handler that is also called or used elsewhere: only the port's adapter "
                "can give it the request context; pass it at the other uses by hand"
            ), False
        return None, True
    if lowlevel and (server := _high_level_server(a, f)) is not None:
        return (  # `request_ctx.get()` reached from a FastMCP tool: no adapter, its 2.x form takes a Context
            f"`{f.qualname}` is a `{f.method or f.role}` handler of the FastMCP server `{server}`, not a low-level "
            "one: on mcp 2.x give it a `ctx: Context` parameter and pass `ctx.request_context` down by hand"
        ), False
    if lowlevel and (f.role is not None or (bound := _bound_decorator(a, f)) is not None):
        how = f"a `{f.method or f.role}` handler" if f.role is not None else f"a handler with `{bound}()`"
        return (
            f"`{f.qualname}` is registered as {how}, which the port does not wrap in an adapter (MCP507): "
            "give it the `ctx` its mcp 2.x handler receives by hand"
        ), False
    if not lowlevel and f.role in ENTRY_ROLES:
        why = _entry_reason(a, f)
        if why is not None:
            return why, False
        if _context_param(a, f) is not None:
            return None, True  # it has the context: its callers pass it already
    elif f.role is not None:
        return (
            f"`{f.qualname}` is registered as a `{f.method or f.role}` handler, which mcp 2.x's `MCPServer` "
            "gives no context: pass one in by hand"
        ), False
    return None, False


def _closure_reach(a: ModuleAnalysis, f: FunctionInfo, lowlevel: bool, edges: list[tuple]) -> str | None:
    """The checks of how ``f`` is reached in :func:`_closure`: why its callers cannot all pass it
    the context (a foreign decorator, a caller in another module that cannot, a use other than a
    call, no caller at all), or None. Appends ``(None, call, f)`` to ``edges`` for each call from
    another module that can pass it."""
    if f.role is None and (deco := _foreign_decorator(f)) is not None:
        return (
            f"`{f.qualname}` is decorated with `@{deco}`, which would see the new context parameter (a cache "
            "would key on it, a wrapper may not pass it on): pass the context down by hand"
        )
    external = a.external_callers(f) or a.external_method_callers(f)
    if external and (why := _instances_escape(a, f)) is not None:
        return why
    if external:
        found = None if lowlevel else outside_callers(a, f, external)
        if not isinstance(found, list):
            where = ", ".join(sorted({e.label for e in external}))
            return found or (
                f"`{f.qualname}` is also called from {where}: the port passes a low-level handler's `ctx` "
                "within its module only; give the function a `ServerRequestContext` parameter and pass the "
                "handler's `ctx` there by hand"
            )
        edges.extend((None, c, f) for c in found)
    made_by_factory = factory_tool(a, f)
    if a.references_outside_calls(f) and not made_by_factory:
        return (
            f"`{f.qualname}` is used other than by calls from functions of this module (a callback, a "
            "module-level call, a stored or exported reference): those uses cannot be given the context"
        )
    if not a.callers(f) and f.role is None and not external and not made_by_factory:
        # nexus-dev: `AgentExecutor.execute` is called as `executor.execute(...)` in server.py's tools
        method = (
            f"; it is a method of `{f.class_name}`, and calls through its instances in other modules are not followed"
            if f.class_name is not None
            else ""
        )
        return (
            f"nothing in this module calls `{f.qualname}` and no tool, resource or prompt is it{method}: "
            "pass the context in from the handler that reaches it"
        )
    return None


def outside_callers(a: ModuleAnalysis, f: FunctionInfo, calls: tuple[ExternalCall, ...]) -> list[OutsideCall] | str:
    """The calls of ``f`` from other modules of the project, when each can pass the context
    (``param`` left empty: the caller of this function names it), or why one cannot: it runs at
    module level; or its function in the calling module (read from disk) is not a tool, resource
    template or prompt and not reached only from them through that module's own functions
    (:func:`_closure` there, the same test as in this module); or a function of that module that
    would take the context as a new parameter is imported by yet another module, whose calls
    would not pass it. Decided the same way wherever it is asked: each module of the project
    reads the same files."""
    out: list[OutsideCall] = []
    for c in calls:
        if not c.caller:
            return (
                f"`{f.qualname}` is also called at module level in {c.path}, outside any request: there is no "
                "context to pass there; move that call into the handler that needs it"
            )
        found = _calling_module(a, c.path)
        fn = None if found is None else next((g for g in found[1].functions if g.qualname == c.caller), None)
        if found is None or fn is None:
            return f"`{f.qualname}` is also called from {c.label}, which could not be read to pass the context there"
        path, other = found
        callee = f.qualname if f.class_name is not None else f.name
        if not any(calls_into(other, call, callee) for call in fn.calls):
            return (
                f"`{f.qualname}` is also called from {c.label}, through a name the port does not follow there (a star "
                "import, a re-export): pass the context by hand"
            )
        funcs, _edges, why = _closure(other, fn)
        if why is not None:
            return f"`{f.qualname}` is also called from {c.label}, where the context cannot be passed down: {why}"
        root = project_root(path) or path.parent
        imported = project_imports(path, root)
        for g in funcs:
            if g.parent is None and g.class_name is None and g.name in imported and _context_param(other, g) is None:
                return (
                    f"`{f.qualname}` is also called from {c.label}, and `{g.qualname}` there would take the context "
                    f"as a new parameter, but {imported[g.name]} imports it and would not pass it: pass it by hand"
                )
        out.append(OutsideCall(str(path), c.path, c.caller, callee, ""))
    return out


def calls_into(a: ModuleAnalysis, call: cst.Call, callee: str) -> bool:
    """``call`` calls the function ``callee`` of another module through this module's imports
    (``tag(…)`` after ``from helpers import tag`` or ``from .helpers import tag``, under an alias
    too; ``helpers.tag(…)``), or the method ``callee`` (``Class.method``) through an instance
    (:func:`_method_of_instance`)."""
    if "." in callee:
        return _method_of_instance(a, call, callee)
    name = get_full_name_for_node(call.func)
    if not name:
        return False
    head, _, rest = name.partition(".")
    full = a.imports.get(head) or (a.relative_imports[head][1] if head in a.relative_imports else None)
    if full is None:
        return False
    return (f"{full}.{rest}" if rest else full).rpartition(".")[2] == callee


def _method_of_instance(a: ModuleAnalysis, call: cst.Call, callee: str) -> bool:
    """``call`` is ``x.method(…)`` on ``x = Class(…)``, bound once in the calling function (the
    project pass's test, :func:`mcpmigrate.analysis.summary._instances`), or ``Class(…).method(…)``,
    ``Class`` imported from another module (``callee``: ``Class.method``)."""
    cls, _, meth = callee.partition(".")
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == meth):
        return False
    made: cst.BaseExpression | None = func.value if isinstance(func.value, cst.Call) else None
    fn = a.enclosing_function(call)
    if isinstance(func.value, cst.Name) and fn is not None:
        binds = [
            line.body[0]
            for line in _own_lines(fn.node)
            if isinstance(line.body[0], cst.Assign)
            and len(line.body[0].targets) == 1
            and isinstance(line.body[0].targets[0].target, cst.Name)
            and line.body[0].targets[0].target.value == func.value.value
        ]
        if len(binds) == 1 and _bindings(fn.node).count(func.value.value) == 1:
            made = binds[0].value
    if not isinstance(made, cst.Call):
        return False
    return calls_into(a, cst.Call(made.func), cls)


def _instances_escape(a: ModuleAnalysis, f: FunctionInfo) -> str | None:
    """Why the calls of the method ``f`` through instances of its class are not all known: an
    instance made in another module leaves the function that made it (stored, passed on,
    returned, made at module level: the project pass records it under the class's name), or one
    is made in this module; None for a function."""
    if f.class_name is None:
        return None
    leaving = a.incoming.get(f.class_name, ())
    if leaving:
        where = ", ".join(sorted({c.label for c in leaving}))
        return (
            f"`{f.qualname}` would take the context as a new parameter, but {where} uses `{f.class_name}` other "
            "than to make an instance whose methods it calls (the instance is stored, passed on or returned, or "
            "the class is subclassed or named), so not every call of it can be found: pass the context by hand"
        )
    made = any(isinstance(c.func, cst.Name) and c.func.value == "cls" for c in a.nodes(cst.Call))
    if name_refs(a.module, f.class_name) or made:
        return (
            f"`{f.qualname}` would take the context as a new parameter, but this module uses `{f.class_name}` "
            "too (an instance made, the class named or subclassed), whose calls the port does not follow: pass "
            "the context by hand"
        )
    return None


#: (path, mtime_ns, size) -> the analysis of a calling module, read from disk (None: unreadable)
_CALLING: dict[tuple[str, int, int], ModuleAnalysis | None] = {}


def _calling_module(a: ModuleAnalysis, shown: str) -> tuple[Path, ModuleAnalysis] | None:
    """The calling module ``shown`` (relative to the project root, as the project pass names it)
    and its analysis: looked up from this module's project root, then its parent folders."""
    if a.path is None:
        return None
    here = Path(os.path.abspath(a.path))
    root = project_root(here)
    for base in ([root] if root is not None else []) + list(here.parents):
        path = base / shown
        if path.is_file():
            break
    else:
        return None
    try:
        st = path.stat()
        key = (str(path), st.st_mtime_ns, st.st_size)
        if key not in _CALLING:
            _CALLING[key] = _analyse(read_regular(path, limit=2_000_000), path)
    except (OSError, ValueError):
        return None
    other = _CALLING[key]
    return (path, other) if other is not None else None


def _analyse(source: bytes, path: Path) -> ModuleAnalysis | None:
    try:
        return ModuleAnalysis.build(cst.parse_module(source), None, path)
    except (cst.ParserSyntaxError, RecursionError, MemoryError, ValueError):
        return None


def factory_tool(a: ModuleAnalysis, f: FunctionInfo) -> bool:
    """``f`` is a tool made by a factory: its enclosing function returns it (every ``return`` of
    its own code, the only use of ``f`` there besides setting its attributes, ``f.__doc__ = …``),
    and each call of the factory binds the result to a name that is only registered with an mcp
    1.x server's ``add_tool`` (``tool_func = make_tool(cfg)``, ``mcp.add_tool(tool_func, …)`` or
    ``fn=tool_func``), which injects a ``Context`` parameter on mcp 1.x and 2.x alike (nexus-dev's
    ``_register_agent_tools``)."""
    factory = f.parent
    if factory is None or f.role is not None or f.node.decorators:
        return False
    for ref in name_refs(factory.node.body, f.name):
        parent = a.parents.get(id(ref))
        if parent is f.node or isinstance(parent, cst.Return):
            continue
        if isinstance(parent, cst.Attribute) and isinstance(a.parents.get(id(parent)), cst.AssignTarget):
            continue
        return False
    returns = _own_nodes(factory.node, cst.Return)
    if not returns or any(not (isinstance(r.value, cst.Name) and r.value.value == f.name) for r in returns):
        return False
    calls = a.callers(factory)
    if not calls or a.references_outside_calls(factory) or a.external_callers(factory):
        return False
    return all(_registered_result(a, g, call) for g, call in calls)


def _registered_result(a: ModuleAnalysis, g: FunctionInfo, call: cst.Call) -> bool:
    """``call`` (of a tool factory, in ``g``) is ``name = factory(…)``, ``name`` bound once in
    ``g`` and read only as the function ``server.add_tool(name, …)`` (``fn=name``) registers, on
    an mcp 1.x ``FastMCP``."""
    assign = a.parents.get(id(call))
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1):
        return False
    target = assign.targets[0].target
    if not isinstance(target, cst.Name) or _bindings(g.node).count(target.value) != 1:
        return False
    reads = [r for r in name_refs(g.node.body, target.value) if r is not target]
    for ref in reads:
        arg = a.parents.get(id(ref))
        reg = a.parents.get(id(arg))
        if not (isinstance(arg, cst.Arg) and isinstance(reg, cst.Call) and isinstance(reg.func, cst.Attribute)):
            return False
        first = reg.args[0] is arg and arg.keyword is None
        named = arg.keyword is not None and arg.keyword.value == "fn"
        server = reg.func.value
        if not (
            reg.func.attr.value == "add_tool"
            and (first or named)
            and a.kind_of(server, g) is Kind.SERVER_HL
            and a.generation_of_server_expr(server, g) != S.FASTMCP
        ):
            return False
    return bool(reads)


def _own_nodes(fn: cst.FunctionDef, kind: type) -> list:
    """The nodes of ``kind`` in ``fn``'s own code (not in nested functions, classes or lambdas)."""
    out: list = []
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, kind):
            out.append(n)
        stack.extend(n.children)
    return out


def _foreign_decorator(f: FunctionInfo) -> str | None:
    """The first decorator of a helper other than ``staticmethod``/``classmethod`` (spelled as written)."""
    for dec in f.node.decorators:
        name = cst.Module([]).code_for_node(dec.decorator)
        if name not in ("staticmethod", "classmethod"):
            return name
    return None


def _high_level_server(a: ModuleAnalysis, f: FunctionInfo) -> str | None:
    """The FastMCP server whose decorator (``@mcp.tool()``) registers ``f``, or None."""
    for dec in f.node.decorators:
        d = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        if (
            isinstance(d, cst.Attribute)
            and isinstance(d.value, cst.Name)
            and a.kind_of(d.value, f.parent) is Kind.SERVER_HL
        ):
            return d.value.value
    return None


def _ported_handler(a: ModuleAnalysis, f: FunctionInfo) -> bool:
    """``f`` is registered with a low-level decorator the port turns into an adapter that receives
    ``ctx`` (:mod:`.lowlevel`): ``@server.call_tool()`` on a module's ``Server``, or the decorator
    called on the bound method (``self.server.call_tool()(self.call)``)."""
    from mcpmigrate.codemods.port.lowlevel import aliased  # it imports this module

    for dec in f.node.decorators:
        d = dec.decorator
        if (
            isinstance(d, cst.Call)
            and isinstance(d.func, cst.Attribute)
            and d.func.attr.value in S.LOWLEVEL_DECORATOR_PORTS
            and isinstance(d.func.value, cst.Name)
            and a.kind_of(d.func.value, f.parent) is Kind.SERVER_LL
        ):
            return True
    return aliased(a, f.node) is not None or _bound_decorator(a, f) in S.LOWLEVEL_DECORATOR_PORTS


def _bound_decorator(a: ModuleAnalysis, f: FunctionInfo) -> str | None:
    """The low-level decorator called on the bound method ``f`` (``self.server.call_tool()(self.f)``)."""
    if f.class_name is None:
        return None
    from mcpmigrate.codemods.port.lowlevel import bound_registration  # it imports this module

    for call in a.nodes(cst.Call):
        found = bound_registration(a, call, a.enclosing_function(call))
        if found is not None and found[2].fn is f.node:
            return found[2].decorator
    return None


def _entry_reason(a: ModuleAnalysis, f: FunctionInfo) -> str | None:
    if f.role != "resource":
        return None
    for dec in f.node.decorators:
        d = dec.decorator
        if isinstance(d, cst.Call) and d.args:
            uri = string_value(d.args[0].value)
            if uri is not None and "{" in uri:
                return None
            if uri is not None:
                return (
                    f"`{f.qualname}` is a static resource (`{uri}` has no template variables): mcp 2.x's `MCPServer` "
                    "refuses a `Context` parameter there (ValueError at registration); make it a template or read "
                    "what the context gave some other way"
                )
    return f"the URI of resource `{f.qualname}` is not a literal: whether mcp 2.x may inject a context there is unknown"


def _context_param(a: ModuleAnalysis, f: FunctionInfo) -> str | None:
    """The name of ``f``'s parameter annotated with a 1.x ``Context`` (the port renames it)."""
    for p in f.params:
        if p.annotation is not None and a.kind_of_annotation(p.annotation.annotation) in CONTEXTS:
            return p.name.value
    return None


def _fallback_or(a: ModuleAnalysis, call: cst.BaseExpression, name: str) -> cst.BaseExpression:
    """What becomes the context's name: the whole ``ctx or server.get_context()`` when ``ctx`` is
    that name (a tool whose optional ``Context`` parameter falls back to the server's context;
    ``ctx or ctx`` would read the same, and hide the plain alias ``context = ctx`` the interim fix
    follows), else the call itself."""
    parent = a.parents.get(id(call))
    if (
        isinstance(parent, cst.BooleanOperation)
        and isinstance(parent.operator, cst.Or)
        and parent.right is call
        and isinstance(parent.left, cst.Name)
        and parent.left.value == name
    ):
        return parent
    return call


def _dropped_stmt(a: ModuleAnalysis, call: cst.BaseExpression) -> cst.SimpleStatementLine | None:
    """The line ``x = server.get_context()`` when the call is its whole value."""
    parent = a.parents.get(id(call))
    if not (isinstance(parent, cst.Assign) and parent.value is call and len(parent.targets) == 1):
        return None
    if not isinstance(parent.targets[0].target, cst.Name):
        return None
    line = a.parents.get(id(parent))
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
        return line
    return None


def _new_name(a: ModuleAnalysis, f: FunctionInfo, lowlevel: bool) -> tuple[str, cst.SimpleStatementLine | None]:
    """The new parameter's name: what ``x = server.get_context()`` (``x = server.request_context``)
    bound — the line goes — when it is the name's only binding in ``f``, the line is in ``f``'s own
    code (a ``try`` or ``if`` block too, not a nested function) and nothing reads the name before it;
    else ``ctx`` or a free variant."""
    bound: dict[str, int] = {}
    for n in _bindings(f.node):
        bound[n] = bound.get(n, 0) + 1
    for stmt in _own_lines(f.node):
        small = stmt.body[0]
        if not isinstance(small, cst.Assign):
            continue
        value = small.value
        reads = (
            (isinstance(value, cst.Attribute) and is_request_context(a, value, f)) or is_request_ctx_get(a, value)
            if lowlevel
            else isinstance(value, cst.Call) and is_get_context(a, value, f)
        )
        if reads and _dropped_stmt(a, value) is stmt:
            target = small.targets[0].target
            assert isinstance(target, cst.Name)
            if bound.get(target.value) == 1 and not _read_before(f.node, target.value, stmt):
                return target.value, stmt
    taken = {n.value for n in ref_names(f.node)} | set(bound) | module_names(a)
    return fresh(taken, "ctx"), None


def _own_lines(fn: cst.FunctionDef) -> list[cst.SimpleStatementLine]:
    """The one-statement lines of ``fn``'s own code, in source order (not those of nested
    functions, classes or lambdas)."""
    out: list[cst.SimpleStatementLine] = []
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.SimpleStatementLine):
            if len(n.body) == 1:
                out.append(n)
            continue
        stack.extend(reversed(n.children))
    return out


def _bindings(fn: cst.FunctionDef) -> list[str]:
    """Every binding of a name in ``fn``'s own scope, once per binding: parameters, assignment,
    loop, ``with``/``except`` and walrus targets, nested ``def``/``class`` names."""
    out = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params, *fn.params.kwonly_params)]
    for star in (fn.params.star_arg, fn.params.star_kwarg):
        if isinstance(star, cst.Param):
            out.append(star.name.value)
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            out.append(n.name.value)
            continue
        if isinstance(n, cst.Lambda):
            continue
        target: cst.CSTNode | None = None
        if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For, cst.CompFor)):
            target = n.target
        elif isinstance(n, cst.AsName):
            target = n.name
        if target is not None:
            out.extend(x.value for x in _names_in(target))
        stack.extend(n.children)
    return out


def _names_in(target: cst.CSTNode) -> list[cst.Name]:
    """The names a target binds (``a``, ``a, b``, ``[a, *b]``; not ``x.a`` or ``x[a]``)."""
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for el in target.elements for n in _names_in(el.value)]
    if isinstance(target, cst.StarredElement):
        return _names_in(target.value)
    return []


def _read_before(fn: cst.FunctionDef, name: str, stmt: cst.CSTNode) -> bool:
    """``name`` is read in ``fn`` before ``stmt``, in source order."""
    reads = {id(r) for r in name_refs(fn, name)}
    stack: list[cst.CSTNode] = [fn.body]
    while stack:
        n = stack.pop()
        if n is stmt:
            return False
        if id(n) in reads:
            return True
        stack.extend(reversed(n.children))
    return False

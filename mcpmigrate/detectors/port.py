"""The port of mcp 1.x servers to mcp 2.x (MCP5xx; run only with ``--target-sdk mcp2``).

Each detector finds one API mcp 2.3 renamed, moved or removed (``mcpmigrate/surfaces.py``, the
port tables) and asks :mod:`mcpmigrate.codemods.port` for the plan; what has no exact codemod
is reported manual with the section of the SDK's migration guide to read.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind
from mcpmigrate.codemods.port import constructor, context, lowlevel, private_lowlevel, renames
from mcpmigrate.detectors.base import Detector, Report, ReportingVisitor
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixPlan, Severity
from mcpmigrate.names import name_refs
from mcpmigrate.positions import code_ranges
from mcpmigrate.screen import Facts


def names_mcp(facts: Facts) -> bool:
    """The screen of every port detector: a port site needs a name that resolves into mcp."""
    return facts.names_mcp


def reads_a_server(facts: Facts) -> bool:
    """The screen of the context reads (MCP504, MCP505, and MCP501's ``ctx.fastmcp``): :func:`names_mcp`, or a module that reads
    ``x.get_context``/``x.request_context``: the server may be imported from the project's module
    that builds it (``from .app import server``; the analysis types it, the detector asks)."""
    return facts.names_mcp or bool(facts.attrs & {"get_context", "request_context"})


GUIDE = S.MIGRATION_GUIDE


class PortRenameDetector(Detector):
    """MCP501 (``mcp.server.fastmcp`` → ``mcp.server.mcpserver``, ``FastMCP`` → ``MCPServer``,
    ``ctx.fastmcp`` → ``ctx.mcp_server``) and MCP502 (``McpError`` → ``MCPError``)."""

    rules = ("MCP501", "MCP502")
    tokens = (rb"fastmcp", rb"FastMCP", rb"McpError")
    screen = staticmethod(reads_a_server)  # `app.get_context().fastmcp` with `app` imported

    def detect(self) -> list[Report]:
        v = _RenameVisitor(self.analysis, self.config)
        self.analysis.flat.visit(v)
        return v.reports


def kept(a, config) -> set[str]:
    """Names other modules of the project import from the module of ``a`` (a port keeps their
    name: ``MCPServer as FastMCP``); once per module, shared by the port's detectors."""
    from mcpmigrate.codemods.imports import kept_names

    return a.memo("port.kept", lambda: kept_names(a.module, a.path, config.root))


class _RenameVisitor(ReportingVisitor):
    def __init__(self, analysis, config) -> None:
        super().__init__(analysis)
        self.config = config
        self.stubs: set[str] = set()  # the stand-in SDK modules already reported

    def kept(self) -> set[str]:
        return kept(self.a, self.config)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        mod = get_full_name_for_node(node.module) or ""
        if isinstance(node.names, cst.ImportStar):
            if mod == S.FASTMCP_V1_MODULE or mod.startswith(S.FASTMCP_V1_MODULE + "."):
                self.report(
                    "MCP501",
                    node,
                    f"`from {mod} import *`: the module is `{renames.new_module(mod)}` on mcp 2.x, and the names it "
                    f"brings in are renamed there (`FastMCP` is `MCPServer`; read “`FastMCP` renamed to `MCPServer`” "
                    f"in {GUIDE}).",
                    manual=f"import the names this module uses from `{renames.new_module(mod)}` by name "
                    "(`MCPServer` for `FastMCP`); the port does not rewrite a star import",
                )
            return
        names = {get_full_name_for_node(a.name) or "" for a in node.names}
        if mod == S.FASTMCP_V1_MODULE or mod.startswith(S.FASTMCP_V1_MODULE + "."):
            plan = self._refusals(
                renames.plan_import(self.a, node, renames.new_module(mod), S.MCPSERVER_RENAMES, self.kept())
            )
            self.reports.append(
                Report.planned(
                    "MCP501",
                    node,
                    f"`{mod}` is `{renames.new_module(mod)}` on mcp 2.x"
                    + "".join(f"; `{o}` is `{n}` there" for o, n in S.MCPSERVER_RENAMES.items() if o in names)
                    + ". "
                    f"mcp 2.x has no `mcp.server.fastmcp` (read “`FastMCP` renamed to `MCPServer`” in {GUIDE}).",
                    plan,
                )
            )
        elif mod == "mcp.server" and "FastMCP" in names:
            plan = self._refusals(renames.plan_import(self.a, node, mod, {"FastMCP": "MCPServer"}, self.kept()))
            self.reports.append(
                Report.planned(
                    "MCP501",
                    node,
                    "`mcp.server.FastMCP` is `mcp.server.MCPServer` on mcp 2.x. "
                    f"mcp 2.x has no `FastMCP` (read “`FastMCP` renamed to `MCPServer`” in {GUIDE}).",
                    plan,
                )
            )
        elif "McpError" in names and f"{mod}.McpError" in S.MCP_ERROR_V1:
            self._mcp_error(node, mod)

    def _refusals(self, plan: FixPlan) -> FixPlan:
        """MCP501's ``plan``, unsafe where tools of the module's 1.x FastMCP server leave the client's
        refusal of a sampling or elicitation request unhandled (what the client gets changes)."""
        from mcpmigrate.detectors.port_errors import unhandled_refusal_tools  # it imports this module

        if plan.fix is not None and (tools := unhandled_refusal_tools(self.a, self.config.strategy == "interim")):
            return renames.refused_in_tools(plan, tools)
        return plan

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = get_full_name_for_node(alias.name) or ""
            if full == S.FASTMCP_V1_MODULE or full.startswith(S.FASTMCP_V1_MODULE + "."):
                self.report(
                    "MCP501",
                    node,
                    f"`import {full}`: the module is `{renames.new_module(full)}` on mcp 2.x. "
                    f"mcp 2.x has no `mcp.server.fastmcp` (read “`FastMCP` renamed to `MCPServer`” in {GUIDE}).",
                    manual=f"rewrite the import and its dotted uses by hand (`FastMCP` is `MCPServer`); "
                    f"the port rewrites `from {S.FASTMCP_V1_MODULE} import …` forms",
                )

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        """``sys.modules["mcp.server.fastmcp"] = stub`` / ``types.ModuleType("mcp.server.fastmcp")``:
        a stand-in for the SDK module that the port's imports no longer ask for."""
        mod = node.evaluated_value
        if not isinstance(mod, str) or not (mod == S.FASTMCP_V1_MODULE or mod.startswith(S.FASTMCP_V1_MODULE + ".")):
            return
        if not self._names_a_module(node) or mod in self.stubs:
            return  # one finding per stand-in module, at its first mention
        self.stubs.add(mod)
        self.report(
            "MCP501",
            node,
            f"A stand-in for `{mod}` is installed as a module; the ported imports ask for "
            f"`{renames.new_module(mod)}` (with `MCPServer` for `FastMCP`), so this stub is no longer used and the "
            f"imports it served fail without the SDK (read “`FastMCP` renamed to `MCPServer`” in {GUIDE}).",
            manual=f"move the stub to `{renames.new_module(mod)}` and give it `MCPServer`",
        )

    def _names_a_module(self, node: cst.SimpleString) -> bool:
        """The string is a ``sys.modules`` key written (subscript, ``setdefault``) or the name
        given to ``types.ModuleType(...)``; an ``in sys.modules`` test installs nothing."""
        parent = self.a.parents.get(id(node))
        if isinstance(parent, cst.Index):
            sub = self.a.parents.get(id(self.a.parents.get(id(parent))))
            return isinstance(sub, cst.Subscript) and self.a.qualname(sub.value) == "sys.modules"
        if isinstance(parent, cst.Arg):
            call = self.a.parents.get(id(parent))
            if not isinstance(call, cst.Call) or not call.args or call.args[0] is not parent:
                return False
            q = self.a.qualname(call.func) or ""
            return q in ("types.ModuleType", "importlib.util.module_from_spec") or (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "setdefault"
                and self.a.qualname(call.func.value) == "sys.modules"
            )
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "fastmcp" and self.a.kind_of(node.value, self.fn(node)) is Kind.CONTEXT_MCP1:
            self.reports.append(
                Report.planned(
                    "MCP501",
                    node,
                    "`ctx.fastmcp` is `ctx.mcp_server` on mcp 2.x. "
                    f"The Context property was renamed with the class (read “`FastMCP` renamed to `MCPServer`” in {GUIDE}).",
                    renames.plan_attr_rename(node, "mcp_server"),
                )
            )

    # -- McpError ---------------------------------------------------------------------------
    def _mcp_error(self, node: cst.ImportFrom, mod: str) -> None:
        alias = next(a for a in node.names if isinstance(a.name, cst.Name) and a.name.value == "McpError")  # type: ignore[union-attr]
        local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else "McpError"
        plan = renames.plan_import(self.a, node, mod, {"McpError": "MCPError"}, self.kept())
        blockers: list[tuple[cst.CSTNode, str]] = []
        broken: list[tuple[cst.Call, str]] = []  # 1.x calls already in 2.x's shape: (call, 1.x's TypeError)
        if plan.fix is not None and renames.owns_uses(self.a, node, "McpError", local):
            site = plan.site
            for ref in name_refs(self.a.module, local):
                parent = self.a.parents.get(id(ref))
                if isinstance(parent, cst.Call) and parent.func is ref:
                    if len(parent.args) == 1 and parent.args[0].keyword is None and not parent.args[0].star:
                        site.calls.append(parent)
                    elif (error := _type_error_on_1x(parent)) is not None:
                        broken.append((parent, error))
                    else:
                        blockers.append((parent, "construct it as `MCPError(code, message, data)`"))
                elif isinstance(parent, cst.Arg) and isinstance(self.a.parents.get(id(parent)), cst.ClassDef):
                    blockers.append(
                        (
                            parent,
                            "a subclass of `McpError`: mcp 2.x's `MCPError.__init__` takes `(code, message, data)`, not an `ErrorData`",
                        )
                    )
            for handler_name in _caught_as(self.a.module, local):
                for read, ok in _error_reads(self.a, handler_name):
                    if ok:
                        site.error_reads.append(read)
                    else:
                        blockers.append(
                            (read, "mcp 2.x's `MCPError` has no `.error`: read `.code`, `.message`, `.data`")
                        )
        if blockers:
            for where, why in blockers:
                self.report(
                    "MCP502",
                    where,
                    f"`McpError` is used here in a way mcp 2.x's `MCPError` does not support. "
                    f"mcp 2.x renamed it and changed its constructor (read “`McpError` renamed to `MCPError`” in {GUIDE}).",
                    manual=why,
                )
            plan = FixPlan(manual="the uses reported next to this import need a hand port first")
        elif plan.fix is not None:
            from mcpmigrate.detectors.port_errors import unwrapped_mcp_error_tools  # it imports this module

            if broken:
                plan = renames.already_broken(plan, _broken_lines(self.a, broken), broken[0][1])
            if tools := unwrapped_mcp_error_tools(self.a):
                plan = renames.raised_in_tools(plan, tools)
        self.reports.append(
            Report.planned(
                "MCP502",
                node,
                f"`{mod}.McpError` is `{mod}.MCPError` on mcp 2.x. "
                f"mcp 2.x renamed the exception and builds it from `(code, message, data)` (read “`McpError` renamed to `MCPError`” in {GUIDE}).",
                plan,
            )
        )


def _type_error_on_1x(call: cst.Call) -> str | None:
    """The ``TypeError`` mcp 1.x's ``McpError.__init__(self, error: ErrorData)`` raises at a call
    already written in mcp 2.x's ``MCPError(code, message, data=None)`` shape (``McpError(INTERNAL_ERROR,
    "…")``, ``McpError(code=…, message=…)``), or None when the call has another shape."""
    if any(a.star for a in call.args):
        return None
    positional = [a for a in call.args if a.keyword is None]
    keywords = [a.keyword.value for a in call.args if a.keyword is not None]
    params = ("code", "message", "data")
    given = [*params[: len(positional)], *keywords]
    if len(positional) > 3 or len(set(given)) != len(given) or not set(given) <= set(params):
        return None
    if not {"code", "message"} <= set(given):
        return None
    if len(positional) >= 2:
        return f"McpError.__init__() takes 2 positional arguments but {len(positional) + 1} were given"
    return f"McpError.__init__() got an unexpected keyword argument '{keywords[1 - len(positional)] if positional else keywords[0]}'"


def _broken_lines(a, broken: list[tuple[cst.Call, str]]) -> list[int]:
    """The lines of the ``McpError(…)`` calls mcp 1.x could not make (port-08)."""
    lines = code_ranges(a.module, [call for call, _e in broken])
    return [lines[call].start.line for call, _e in broken]


def _caught_as(module: cst.Module, local: str) -> set[str]:
    """The ``as`` names of ``except`` clauses that catch ``local`` (alone or in a tuple)."""
    out: set[str] = set()
    for node in walk(module):
        if isinstance(node, cst.ExceptHandler) and node.name is not None and node.type is not None:
            caught = node.type.elements if isinstance(node.type, cst.Tuple) else [node.type]
            names = {get_full_name_for_node(getattr(c, "value", c)) for c in caught}
            if local in names and isinstance(node.name.name, cst.Name):
                out.add(node.name.name.value)
    return out


def _error_reads(a, name: str) -> list[tuple[cst.Attribute, bool]]:
    """``name.error.<field>`` reads (portable: ``name.<field>``) and bare ``name.error`` (not)."""
    out = []
    for ref in name_refs(a.module, name):
        parent = a.parents.get(id(ref))
        if isinstance(parent, cst.Attribute) and parent.value is ref and parent.attr.value == "error":
            outer = a.parents.get(id(parent))
            if isinstance(outer, cst.Attribute) and outer.value is parent and outer.attr.value in S.MCP_ERROR_FIELDS:
                out.append((outer, True))
            else:
                out.append((parent, False))
    return out


class PortLowlevelDetector(Detector):
    """MCP507: 1.x low-level decorator handlers (``@server.call_tool()`` …) → ``Server(on_…=…)``;
    MCP505: ``server.request_context`` (removed in 2.x)."""

    rules = ("MCP505", "MCP507")
    tokens = (S.PORT_TOKENS[-1], rb"request_context", rb"request_ctx", S.LOWLEVEL_DECORATOR_READ)
    screen = staticmethod(reads_a_server)

    def detect(self) -> list[Report]:
        v = _LowlevelVisitor(self.analysis)
        self.analysis.flat.visit(v)
        v.settle_aliases()
        out = v.reports
        for server, handlers in v.handlers.items():
            ctor = v.ctors.get(server)
            plan = lowlevel.plan(self.analysis, ctor, server[1], handlers)
            for h in handlers:
                kw = f"on_{h.decorator}"
                held = (
                    f"`@{h.alias.target.value}{'' if h.alias.called else '()'}` (`{server[1]}.{h.decorator}` held as "
                    f"`{h.alias.target.value}`)"
                    if h.alias is not None
                    else f"`@{server[1]}.{h.decorator}()`"
                )
                out.append(
                    Report.planned(
                        "MCP507",
                        h.deco,
                        f"{held} registers `{h.fn.name.value}` with a decorator mcp 2.x's "
                        f"low-level `Server` no longer has; handlers are `Server({kw}=…)` arguments there, called "
                        f"as `(ctx, params)` and returning the full result (read “{lowlevel.GUIDE_DECORATORS}” in {GUIDE}).",
                        lowlevel.handler_plan(plan, h, handlers, f"`@{server[1]}."),
                    )
                )
        for (_cls, receiver), handlers in v.bound.items():
            plan = lowlevel.plan_bound(self.analysis, receiver, handlers)
            for h in handlers:
                out.append(
                    Report.planned(
                        "MCP507",
                        h.deco,
                        f"`{receiver}.{h.decorator}()({lowlevel.RECEIVER}{h.fn.name.value})` registers a handler with a "
                        f"decorator mcp 2.x's low-level `Server` no longer has; handlers are registered there with "
                        f"`add_request_handler` (or as `Server(on_…=…)` arguments), called as `(ctx, params)` and "
                        f"returning the full result (read “{lowlevel.GUIDE_DECORATORS}” in {GUIDE}).",
                        lowlevel.handler_plan(plan, h, handlers, f"`{receiver}."),
                    )
                )
        return out


class _LowlevelVisitor(ReportingVisitor):
    def __init__(self, analysis) -> None:
        super().__init__(analysis)
        self.handlers: dict[tuple[int, str], list[lowlevel.Handler]] = {}
        # (id of the class's node, "self.server") -> handlers registered on bound methods
        self.bound: dict[tuple[int, str], list[lowlevel.Handler]] = {}
        self.ctors: dict[tuple[int, str], cst.SimpleStatementLine] = {}
        # the decorator attributes of the registrations above (``server.call_tool`` of ``@server.call_tool()``)
        self.registering: set[int] = set()
        # (scope, name) -> a decorator held under another name (``register = server.call_tool``)
        self.aliases: dict[tuple[int, str], lowlevel.Alias] = {}
        self.alias_uses: dict[int, list[tuple[cst.FunctionDef, cst.Decorator]]] = {}  # id(alias stmt) -> uses
        self.reads: list[tuple[cst.Attribute, FunctionInfo | None]] = []  # decorators read as values

    def _scope(self, node: cst.CSTNode) -> int:
        fn = self.fn(node)
        return id(fn) if fn is not None else 0

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        alias = lowlevel.alias_of(self.a, node, self.fn(node))
        if alias is not None:
            self.aliases[(self._scope(node), alias.target.value)] = alias
            self.alias_uses[id(node)] = []
        if len(node.body) != 1 or not isinstance(node.body[0], cst.Assign):
            return
        assign = node.body[0]
        if (
            len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)
            and isinstance(assign.value, cst.Call)
            and self.a.resolves_to(assign.value.func, S.LOWLEVEL_SERVERS)
        ):
            self.ctors[(self._scope(node), assign.targets[0].target.value)] = node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        for deco in node.decorators:
            call = deco.decorator
            named = call.func if isinstance(call, cst.Call) else call
            alias = self.aliases.get((self._scope(node), named.value)) if isinstance(named, cst.Name) else None
            if alias is not None and (alias.called is None) == isinstance(call, cst.Call):
                self.alias_uses[id(alias.stmt)].append((node, deco))
                continue
            if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)):
                continue
            attr = call.func.attr.value
            if attr not in S.LOWLEVEL_DECORATOR_PORTS and attr not in S.LOWLEVEL_DECORATORS_MANUAL:
                continue
            receiver = call.func.value
            if not isinstance(receiver, cst.Name):
                continue
            if self.a.kind_of(receiver, self.fn(node)) is not Kind.SERVER_LL:
                continue
            key = (self._scope(node), receiver.value)
            self.handlers.setdefault(key, []).append(lowlevel.Handler(attr, node, deco))
            self.registering.add(id(call.func))

    def visit_Call(self, node: cst.Call) -> None:
        """``self.server.call_tool()(self.call)``: a decorator called on a bound method;
        ``request_ctx.get()``: mcp 1.x's request context variable."""
        if context.is_request_ctx_get(self.a, node):
            self.reports.append(
                Report.planned(
                    "MCP505",
                    node,
                    f"`{get_full_name_for_node(node.func)}()` reads mcp 1.x's request context variable, which mcp 2.x "
                    "removed; the request context is the `ctx` argument of each `on_…` handler. Pass it down from "
                    f"the handler (read “Lowlevel `Server`: `request_context` property removed” in {GUIDE}).",
                    context.plan_request_context(self.a, node),
                )
            )
        found = lowlevel.bound_registration(self.a, node, self.fn(node))
        if found is not None:
            cls, server, handler = found
            self.bound.setdefault((cls, server), []).append(handler)
            if isinstance(node.func, cst.Call):
                self.registering.add(id(node.func.func))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        fn = self.fn(node)
        self.reads.append((node, fn))
        if not context.is_request_context(self.a, node, fn):
            return
        message = (
            f"`{get_full_name_for_node(node)}` is gone on mcp 2.x's low-level `Server`; the request context is the "
            f"`ctx` argument of each `on_…` handler. Pass it down from the handler "
            f"(read “Lowlevel `Server`: `request_context` property removed” in {GUIDE})."
        )
        if fn is not None and _unreached(self.a, fn):
            self.report(
                "MCP505",
                node,
                message,
                manual=f"nothing calls `{fn.qualname}` (no handler reaches it): it does not block the port, delete it or pass `ctx` down",
                severity=Severity.ADVISORY,
            )
            return
        self.reports.append(Report.planned("MCP505", node, message, context.plan_request_context(self.a, node)))

    def settle_aliases(self) -> None:
        """The aliases each applied once as the decorator of a function of their block, and named
        nowhere else, register that function as ``@server.<decorator>()`` would; then the reads of
        decorators that are left are reported (:meth:`_decorator_read`)."""
        why: dict[int, str] = {}
        for (scope, _name), alias in self.aliases.items():
            uses = self.alias_uses[id(alias.stmt)]
            holder = self.a.parents.get(id(alias.stmt))
            owner = self.fn(alias.stmt)
            where: cst.CSTNode = owner.node if owner is not None else self.a.module
            reason = lowlevel.alias_reason(alias, where, [d for _f, d in uses])
            if reason is None and any(self.a.parents.get(id(f)) is not holder for f, _d in uses):
                reason = (
                    f"`{alias.target.value}` holds `{alias.server}.{alias.decorator}` in one block and decorates a "
                    "function of another: move that function to "
                    f"`Server(on_{alias.decorator}=…)` by hand"
                )
            if reason is not None:
                why[id(alias.read)] = reason
                continue
            (handler, deco), *_ = uses
            key = (scope, alias.server)
            self.handlers.setdefault(key, []).append(lowlevel.Handler(alias.decorator, handler, deco, alias))
            self.registering.add(id(alias.read))
        for node, fn in self.reads:
            self._decorator_read(node, fn, why.get(id(node)))

    def _decorator_read(self, node: cst.Attribute, fn, why: str | None) -> None:
        """``local.list_tools`` read as a value (``register = cast(..., local.list_tools)``, then
        ``@register()``): the registration goes through an alias the port cannot follow."""
        attr = node.attr.value
        if id(node) in self.registering or (
            attr not in S.LOWLEVEL_DECORATOR_PORTS and attr not in S.LOWLEVEL_DECORATORS_MANUAL
        ):
            return
        if self.a.kind_of(node.value, fn) is not Kind.SERVER_LL:
            return
        spelled = get_full_name_for_node(node)
        message = (
            f"`{spelled}` reads a decorator mcp 2.x's low-level `Server` no longer has, so this line raises "
            f"`AttributeError` there; handlers are `Server(on_…=…)` arguments, called as `(ctx, params)` and "
            f"returning the full result (read “{lowlevel.GUIDE_DECORATORS}” in {GUIDE})."
        )
        private = node.value if isinstance(node.value, cst.Attribute) and why is None else None
        ported = private_lowlevel.plan(self.a, private) if private is not None else None
        if ported is not None:  # `@mcp._mcp_server.set_logging_level()` of a 1.x FastMCP (MCP509's plan too)
            self.planned("MCP507", node, message, ported)
            return
        self.report(
            "MCP507",
            node,
            message,
            manual=why
            or _direct_decorator_reason(self.a, node, spelled)
            or f"the handlers are registered through `{spelled}` held as a value, not with `@{spelled}()` on "
            f"each function, and the port does not follow that value to the functions it registers: move each "
            f"to `Server(on_{attr}=…)` by hand",
        )


def _direct_decorator_reason(a, node: cst.Attribute, spelled: str | None) -> str | None:
    """Why ``@<node>()`` applied directly to a function is not ported, else None (``node`` is read
    otherwise): its server is not one the port rewrites (``@mcp._mcp_server.set_logging_level()``, a
    1.x FastMCP's private low-level server, which mcp 2.x's ``MCPServer`` calls ``_lowlevel_server``)."""
    call = a.parents.get(id(node))
    deco = a.parents.get(id(call))
    fdef = a.parents.get(id(deco))
    if not (
        isinstance(call, cst.Call)
        and call.func is node
        and isinstance(deco, cst.Decorator)
        and isinstance(fdef, cst.FunctionDef)
    ):
        return None
    recv = cst.Module([]).code_for_node(node.value)
    private = isinstance(node.value, cst.Attribute) and node.value.attr.value == "_mcp_server"
    target = f"{cst.Module([]).code_for_node(node.value.value)}._lowlevel_server" if private else recv  # type: ignore[attr-defined]  # private: node.value is an Attribute
    what = f"FastMCP's private low-level server `{recv}`, which is `{target}` on mcp 2.x" if private else f"`{recv}`"
    port = S.LOWLEVEL_DECORATOR_PORTS.get(node.attr.value)
    how = (
        f'`{target}.add_request_handler("{port[0]}", {port[1]}, handler)`, the handler called as `(ctx, params)` '
        f"(a `ServerRequestContext` and a `{port[1]}`) and returning the `{port[2]}` itself"
        if port
        else "the mcp 2.x API the migration guide names"
    )
    return (
        f"`@{spelled}()` decorates `{fdef.name.value}` on {what}, a server the port does not rewrite: register "
        f"`{fdef.name.value}` there by hand with {how}"
    )


def _unreached(a, fn) -> bool:
    """No tool, prompt, resource or handler reaches ``fn``: it has no role, is not referenced
    other than by direct calls, no other module of the project calls it, and every caller is
    unreached too."""
    # a decorated function is registered somewhere
    return not any(
        f.role
        or f.node.decorators
        or a.references_outside_calls(f)
        or a.external_callers(f)
        or a.external_registrations(f)
        for f in a.with_callers(fn)
    )


class PortServerDetector(Detector):
    """MCP503: the ``FastMCP(...)`` constructor on 2.x (transport settings, positional order,
    default name); MCP504: ``server.get_context()`` (removed in 2.x)."""

    rules = ("MCP503", "MCP504")
    tokens = (rb"FastMCP\(", rb"get_context\(", rb"settings\.")
    screen = staticmethod(reads_a_server)

    def detect(self) -> list[Report]:
        v = _ServerVisitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports + self._settings() + self._mount_paths()

    def _mount_paths(self) -> list[Report]:
        """``mcp.sse_app(args.mount_path)`` (code-index-mcp), ``run_sse_async(path)``, ``run("sse",
        path)``: mcp 1.x's ``mount_path`` argument, which mcp 2.x's keyword-only starts and app
        factories do not take (``TypeError: MCPServer.sse_app() takes 1 positional argument but 2
        were given``, measured on 2.3.0)."""
        a = self.analysis
        out: list[Report] = []
        for node in a.flat.order:
            if not (
                isinstance(node, cst.Call)
                and isinstance(node.func, cst.Attribute)
                and node.func.attr.value in ("sse_app", "run_sse_async", "run")
                and isinstance(node.func.value, cst.Name)
                and _built_v1(a, node.func.value.value)
            ):
                continue
            method = node.func.attr.value
            skip = 1 if method == "run" else 0  # run(transport, mount_path)
            positional = [x for x in node.args if x.keyword is None and not x.star][skip:]
            if not positional and not any(x.keyword is not None and x.keyword.value == "mount_path" for x in node.args):
                continue
            shown = f"{node.func.value.value}.{method}()"
            out.append(
                Report(
                    "MCP503",
                    node,
                    f"`{shown}` passes mcp 1.x's `mount_path`, which mcp 2.x's `MCPServer` dropped: its starts and app "
                    f"factories take keywords only and no `mount_path`, so this call raises `TypeError` there (read "
                    f"“{constructor.GUIDE}” in {GUIDE}).",
                    manual=f"mcp 1.x prefixed the SSE message endpoint with this `mount_path`; on mcp 2.x mount the app "
                    f"under that path (`Mount(path, app=…)`) and its SSE transport reads the prefix from ASGI's "
                    f"`root_path`: call `{shown}` without it by hand",
                )
            )
        return out

    def _settings(self) -> list[Report]:
        """``server.settings.host`` (and the other transport settings) of a 1.x FastMCP server, read
        or written: mcp 2.x's ``MCPServer.settings`` has no such field. A server built from a
        subclass of ``FastMCP`` defined here, and ``self.settings`` in one, stay manual unless the
        subclass provably leaves the settings to FastMCP (:func:`_subclass_use`)."""
        a = self.analysis
        out: list[Report] = []
        for node in a.flat.order:
            if not (
                isinstance(node, cst.Attribute)
                and node.attr.value in constructor.SETTINGS_GONE
                and isinstance(node.value, cst.Attribute)
                and node.value.attr.value == "settings"
                and isinstance(node.value.value, cst.Name)
            ):
                continue
            server, field = node.value.value.value, node.attr.value
            target = a.parents.get(id(node))
            write = isinstance(target, cst.AssignTarget) or (
                isinstance(target, cst.AugAssign) and target.target is node
            )
            raises = (
                f'this write raises `ValueError: "Settings" object has no field "{field}"`'
                if write
                else "this read raises `AttributeError`"
            )
            message = (
                f"`{server}.settings.{field}` is gone on mcp 2.x: `MCPServer.settings` has no transport settings, so "
                f"{raises} (read “{constructor.GUIDE}” in {GUIDE})."
            )
            why = _subclass_settings(a, node, server, write)
            if why is not None:
                out.append(Report("MCP503", node, message, manual=why))
            elif _built_v1(a, server):
                out.append(Report.planned("MCP503", node, message, constructor.settings_plan(a, node, server)))
        return out


def _built_v1(a, name: str) -> bool:
    """``name`` is bound in the module only to ``FastMCP(...)`` (or ``MCPServer(...)``) calls, or
    to calls of this module's subclasses of them that leave the settings to FastMCP."""
    built = [v for n, v in a.module_assigns if n == name and isinstance(v, cst.Call)]
    classes = _server_classes(a)
    return bool(built) and all(
        a.resolves_to(v.func, _SDK_SERVERS)
        or (isinstance(v.func, cst.Name) and v.func.value in classes and _subclass_use(a, v.func.value) is None)
        for v in built
    )


_SDK_SERVERS = S.FASTMCP_V1_SERVER | S.MCPSERVER_V2  # an `MCPServer` too: the port's rename makes it one
# what a subclass may call or override that reads mcp 1.x's settings
_SETTINGS_READERS = {*constructor.STARTS, "run", "run_stdio_async", "settings", "__init__"}


def _server_classes(a) -> dict[str, cst.ClassDef]:
    """The module's classes that subclass ``FastMCP`` (or ``MCPServer``), directly or through
    each other, by name."""

    def compute() -> dict[str, cst.ClassDef]:
        defs = [n for n in a.flat.order if isinstance(n, cst.ClassDef)]
        found: dict[str, cst.ClassDef] = {}
        grew = True
        while grew:
            grew = False
            for c in defs:
                if c.name.value not in found and any(
                    a.resolves_to(b.value, _SDK_SERVERS) or (isinstance(b.value, cst.Name) and b.value.value in found)
                    for b in c.bases
                ):
                    found[c.name.value] = c
                    grew = True
        return found

    return a.memo("port.server_classes", compute)


def _subclass_use(a, name: str) -> str | None:
    """Where the subclass ``name`` (or one of its bases here) may read mcp 1.x's settings — it
    reads ``self.settings``, calls or overrides a start or an app factory, defines ``__init__``, or
    passes ``self`` on — as a text naming the line (``self.settings`` first); None when it
    provably leaves them to FastMCP."""
    classes = _server_classes(a)
    todo, seen = [name], set()
    uses: list[tuple[int, str, cst.CSTNode]] = []
    while todo:
        cls = classes.get(todo.pop())
        if cls is None or cls.name.value in seen:
            continue
        seen.add(cls.name.value)
        todo += [b.value.value for b in cls.bases if isinstance(b.value, cst.Name)]
        for n in walk(cls.body):
            where = f"`{_method_of(a, n, classes) or cls.name.value}`"
            if isinstance(n, cst.FunctionDef) and n.name.value in _SETTINGS_READERS:
                uses.append((1, f"`{cls.name.value}` defines `{n.name.value}()`", n))
            elif isinstance(n, cst.Attribute) and n.attr.value in _SETTINGS_READERS and _own(n.value):
                spelled = get_full_name_for_node(n) or f"super().{n.attr.value}"
                uses.append((0 if n.attr.value == "settings" else 1, f"{where} uses `{spelled}`", n))
            elif isinstance(n, cst.Name) and n.value == "self" and not _receiver(a, n):
                uses.append((2, f"{where} passes `self` on", n))
    if not uses:
        return None
    _rank, text, node = min(uses, key=lambda u: (u[0], code_ranges(a.module, [u[2]])[u[2]].start.line))
    return f"{text} at line {code_ranges(a.module, [node])[node].start.line}"


def _own(value: cst.BaseExpression) -> bool:
    """``value`` is ``self`` or ``super()``."""
    return (isinstance(value, cst.Name) and value.value == "self") or (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "super"
    )


def _receiver(a, name: cst.Name) -> bool:
    """``name`` is read only as the object of an attribute (``self.x``), or is a parameter."""
    parent = a.parents.get(id(name))
    return (isinstance(parent, cst.Attribute) and parent.value is name) or isinstance(parent, cst.Param)


def _subclass_settings(a, node: cst.Attribute, server: str, write: bool) -> str | None:
    """The manual reason for ``server.settings.<field>`` (``node``) when ``server`` is ``self`` in a
    method of a FastMCP subclass here, or is built from such a subclass that may read the settings
    itself; None otherwise."""
    field, classes = node.attr.value, _server_classes(a)
    shown = f"`{server}.settings.{field}` is {'written' if write else 'read'}"
    fix = (
        f"mcp 2.x's `MCPServer` has no transport settings: hold `{field}` in the subclass's own attribute and pass "
        f"it to `run(transport=…, {field}=…)`, `run_sse_async()`/`run_streamable_http_async()` or the app factory "
        f"call by hand (read “{constructor.GUIDE}” in {GUIDE})"
    )
    method = _method_of(a, node, classes)
    if method is not None and server == "self":
        return f"{shown} in `{method}`: {fix}"
    built = [v for n, v in a.module_assigns if n == server and isinstance(v, cst.Call)]
    subs = [v.func.value for v in built if isinstance(v.func, cst.Name) and v.func.value in classes]
    if not subs or not all(
        a.resolves_to(v.func, _SDK_SERVERS) or get_full_name_for_node(v.func) in subs for v in built
    ):
        return None  # not a FastMCP subclass's instance, or built otherwise too: not a server the port knows
    for sub in subs:
        use = _subclass_use(a, sub)
        if use is not None:
            return f"{shown} on a `{sub}`, a subclass of `FastMCP`, and {use}, which may read it: {fix}"
    return None


def _method_of(a, node: cst.CSTNode, classes: dict[str, cst.ClassDef]) -> str | None:
    """``Class.method`` when ``node`` is in a method of one of ``classes``."""
    cur = a.parents.get(id(node))
    while cur is not None and not isinstance(cur, cst.FunctionDef):
        cur = a.parents.get(id(cur))
    if cur is None:
        return None
    block = a.parents.get(id(cur))
    cls = a.parents.get(id(block))
    if isinstance(cls, cst.ClassDef) and classes.get(cls.name.value) is cls:
        return f"{cls.name.value}.{cur.name.value}"
    return _method_of(a, cur, classes)


class _ServerVisitor(ReportingVisitor):
    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        v1 = self.a.resolves_to(func, S.FASTMCP_V1_SERVER)
        moved = {a.keyword.value for a in node.args if a.keyword is not None} & {*S.TRANSPORT_KWARGS, *S.REMOVED_KWARGS}
        if v1 or (moved and self.a.resolves_to(func, S.MCPSERVER_V2)):  # 2.x raises TypeError on them
            parent = self.a.parents.get(id(node))
            server = None
            if (
                isinstance(parent, cst.Assign)
                and len(parent.targets) == 1
                and isinstance(parent.targets[0].target, cst.Name)
            ):
                server = parent.targets[0].target.value
            plan = constructor.plan(self.a, node, server, self.fn(node) is None, v1)
            if plan is not None:
                self.reports.append(
                    Report.planned(
                        "MCP503",
                        node,
                        "`FastMCP(...)` passes arguments `MCPServer(...)` takes elsewhere or in another order on mcp 2.x. "
                        "Transport settings moved to `run()` and the app factories, the positional order is "
                        "`name, title, description, instructions, …`, and an unnamed server reports `mcp-server` "
                        f"(read “{constructor.GUIDE}” in {GUIDE}).",
                        plan,
                    )
                )
        elif context.is_get_context(self.a, node, self.fn(node)):
            self.reports.append(
                Report.planned(
                    "MCP504",
                    node,
                    f"`{get_full_name_for_node(func) or 'get_context'}()` is gone on mcp 2.x's `MCPServer`. "
                    "There is no ambient context: the framework injects it into a parameter annotated `Context` "
                    f"(read “`MCPServer.get_context()` removed” in {GUIDE}).",
                    context.plan(self.a, node),
                )
            )

"""The renames of the port to mcp 2.x: ``mcp.server.fastmcp`` → ``mcp.server.mcpserver`` with
``FastMCP`` → ``MCPServer`` (MCP501), and ``McpError`` → ``MCPError`` (MCP502).

Source: mcp 2.3's ``mcp.server.mcpserver`` (every submodule of 1.27's ``mcp.server.fastmcp``
under the same name; ``FastMCP`` and ``FastMCPError`` renamed) and ``mcp.shared.exceptions``
(``MCPError(code, message, data)``, ``MCPError.from_error_data``; no ``.error`` attribute).
A rename is planned only when every reference to the imported name can be renamed with it:
the name is bound once, by the import (no shadowing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import name_refs

_BINDERS = (
    cst.FunctionDef,
    cst.ClassDef,
    cst.Param,
    cst.ImportAlias,
    cst.AssignTarget,
    cst.AnnAssign,
    cst.AugAssign,
    cst.NamedExpr,
    cst.For,
    cst.CompFor,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.WithItem,
)


def module_bindings(analysis: ModuleAnalysis) -> dict[str, int]:
    """How many times each name is bound anywhere in the module (imports, assignment targets,
    definitions, parameters, ``except … as``, ``with … as``, loop and comprehension targets,
    ``:=``), memoized. Read off the libcst tree, so any grammar the module parses with counts."""

    def compute() -> dict[str, int]:
        counts: dict[str, int] = {}

        def bind(name: str | None) -> None:
            if name:
                counts[name] = counts.get(name, 0) + 1

        def targets(expr: cst.CSTNode) -> None:
            if isinstance(expr, cst.Name):
                bind(expr.value)
            elif isinstance(expr, (cst.Tuple, cst.List)):
                for el in expr.elements:
                    targets(el.value)
            elif isinstance(expr, cst.StarredElement):
                targets(expr.value)

        order = analysis.flat.order  # the module's pre-order, computed once by the analysis
        for i in analysis.flat.of_types(_BINDERS):
            n = order[i]
            if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Param)):
                bind(n.name.value)
            elif isinstance(n, cst.ImportAlias):
                bind(
                    get_full_name_for_node(n.asname.name)
                    if n.asname
                    else (get_full_name_for_node(n.name) or "").split(".")[0]
                )
            elif isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For, cst.CompFor)):
                targets(n.target)
            elif isinstance(n, (cst.ExceptHandler, cst.ExceptStarHandler, cst.WithItem)):
                name = n.name if not isinstance(n, cst.WithItem) else n.asname
                if name is not None:
                    targets(name.name)
        return counts

    return analysis.memo("port.bindings", compute)


@dataclass
class ImportRename:
    """One ``from <module> import …`` statement to rewrite: its new module, the imported names to
    rename (old → new) and, for names imported without ``as``, every reference to rename."""

    node: cst.ImportFrom
    module: str
    names: dict[str, str]
    refs: list[cst.Name] = field(default_factory=list)
    aliased: set[str] = field(default_factory=set)  # imported from this module elsewhere: `New as Old`
    calls: list[cst.Call] = field(default_factory=list)  # McpError(error_data) → MCPError.from_error_data(…)
    error_reads: list[cst.Attribute] = field(default_factory=list)  # e.error.message → e.message

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        names = self.names
        module = self.module
        aliased = self.aliased

        def renamed(a: cst.ImportAlias) -> cst.ImportAlias:
            if not (isinstance(a.name, cst.Name) and a.name.value in names):
                return a
            old = a.name.value
            if old in aliased:
                return a.with_changes(name=cst.Name(names[old]), asname=cst.AsName(cst.Name(old)))
            return a.with_changes(name=cst.Name(names[old]))

        def rewrite(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(upd, cst.ImportFrom) and not isinstance(upd.names, cst.ImportStar)
            aliases = [renamed(a) for a in upd.names]
            return upd.with_changes(module=cst.parse_expression(module), names=aliases)

        edits.transform(self.node, rewrite)
        for ref in self.refs:
            new = names.get(ref.value)
            if new:
                edits.replace(ref, cst.Name(new))
        for call in self.calls:
            edits.transform(
                call,
                lambda o, u: (
                    u.with_changes(func=cst.Attribute(u.func, cst.Name("from_error_data")))
                    if isinstance(u, cst.Call)
                    else u
                ),
            )
        for read in self.error_reads:
            edits.transform(read, _drop_error_hop)


def _drop_error_hop(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
    """``e.error.message`` → ``e.message`` (the ``.error`` hop of 1.x's McpError)."""
    assert isinstance(upd, cst.Attribute) and isinstance(upd.value, cst.Attribute)
    return upd.with_changes(value=upd.value.value)


def _same_imports(analysis: ModuleAnalysis, name: str, module: str, local: str | None = None) -> list[cst.ImportFrom]:
    """The ``from <module> import <name>`` statements of the module that bind ``local`` (default:
    ``name``, no ``as``), in source order, one per import: repeating the same import (a test
    importing it in each function) binds the same object every time."""
    local = local or name
    out = []
    for node in analysis.flat.order:
        if isinstance(node, cst.ImportFrom) and node.module is not None and not isinstance(node.names, cst.ImportStar):
            if get_full_name_for_node(node.module) == module:
                out += [node for a in node.names if get_full_name_for_node(a.name) == name and _local(a) == local]
    return out


def owns_uses(analysis: ModuleAnalysis, node: cst.ImportFrom, name: str, local: str | None = None) -> bool:
    """Whether ``node`` is the import whose plan rewrites the module's uses of ``local`` (the name
    ``name`` is bound to): the first of its repeats (:func:`_same_imports`), so that each use is
    rewritten once however many functions import it again (``McpError(…)`` →
    ``MCPError.from_error_data(…)``, not ``….from_error_data.from_error_data(…)``)."""
    module = get_full_name_for_node(node.module) if node.module is not None else None
    same = _same_imports(analysis, name, module or "", local)
    return not same or same[0] is node


WRAP_STR = FixInfo(Safety.SAFE, "port", "pass `str(AnyUrl(...))`: the same normalised URI text mcp 1.x sent")
SAFE_RENAME = FixInfo(
    Safety.SAFE,
    "port",
    "rename the import and its uses to mcp 2.x's names (same objects, same behaviour)",
)


def new_module(module: str) -> str:
    """``mcp.server.fastmcp[.sub]`` → ``mcp.server.mcpserver[.sub]``."""
    return S.MCPSERVER_V2_MODULE + module[len(S.FASTMCP_V1_MODULE) :]


def plan_import(
    analysis: ModuleAnalysis, node: cst.ImportFrom, module: str, renames: dict[str, str], imported_elsewhere: set[str]
) -> FixPlan:
    """The plan for one ``from module import …`` of the port: rename the module (already
    decided by the caller, ``module``) and the names of ``renames`` with every reference.
    Manual when a renamed name is bound again elsewhere (a reference could be the other binding),
    or when the import names something the 2.x module no longer has. A name another module of the
    project imports from this one (``imported_elsewhere``) keeps its name: ``MCPServer as FastMCP``."""
    assert not isinstance(node.names, cst.ImportStar)
    old_module = get_full_name_for_node(node.module) if node.module is not None else ""
    old_module = old_module or ""
    gone = S.MCPSERVER_GONE.get(old_module, set())
    bindings = module_bindings(analysis)
    site = ImportRename(node, module, {})
    for alias in node.names:
        name = get_full_name_for_node(alias.name) or ""
        if name in gone:
            return FixPlan(
                manual=f"`{name}` is no longer in `{old_module}` on mcp 2.x: import it from where mcp 2.x defines it "
                f"(see {S.MIGRATION_GUIDE})"
            )
        if name in renames:
            site.names[name] = renames[name]
            if alias.asname is None and name in imported_elsewhere:
                site.aliased.add(name)
            elif alias.asname is None:
                if bindings.get(name, 0) != len(_same_imports(analysis, name, old_module)):
                    return FixPlan(
                        manual=f"`{name}` is bound more than once in this module: rename its uses to `{renames[name]}` by hand"
                    )
                if owns_uses(analysis, node, name):
                    site.refs.extend(name_refs(analysis.module, name))
    return FixPlan(fix=SAFE_RENAME, site=site)


@dataclass
class AttrRename:
    """``ctx.fastmcp`` → ``ctx.mcp_server``."""

    node: cst.Attribute
    new: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        new = self.new
        edits.transform(
            self.node, lambda o, u: u.with_changes(attr=cst.Name(new)) if isinstance(u, cst.Attribute) else u
        )


@dataclass
class StringRename:
    """``getattr(tool, "inputSchema")`` → ``getattr(tool, "input_schema")``: the literal attribute
    name of a ``getattr``/``hasattr`` call, its prefix and quotes kept."""

    node: cst.SimpleString
    new: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        new = self.new

        def apply(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            if not isinstance(u, cst.SimpleString):
                return u
            return u.with_changes(value=f"{u.prefix}{u.quote}{new}{u.quote}")

        edits.transform(self.node, apply)


def snake(name: str) -> str:
    """``inputSchema`` → ``input_schema`` (mcp 2.x's attribute for each 1.x camelCase field)."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def types_class(analysis: ModuleAnalysis, expr: cst.BaseExpression) -> str | None:
    """The ``mcp.types`` class an annotation or a constructor call names (``X | None`` and
    ``Optional[X]`` looked into), or None."""
    if isinstance(expr, cst.Call):
        expr = expr.func
    elif isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.BitOr):
        parts = [p for p in (expr.left, expr.right) if not (isinstance(p, cst.Name) and p.value == "None")]
        return types_class(analysis, parts[0]) if len(parts) == 1 else None
    elif isinstance(expr, cst.Subscript) and (analysis.qualname(expr.value) or "").endswith("Optional"):
        inner = expr.slice[0].slice if expr.slice else None
        return types_class(analysis, inner.value) if isinstance(inner, cst.Index) else None
    q = analysis.qualname(expr) or ""
    head, _, cls = q.rpartition(".")
    return cls if (head in S.TYPES_MODULES or head == "mcp") and cls in S.CAMEL_FIELDS_V1 else None


def bound_class(
    analysis: ModuleAnalysis,
    name: str,
    scope: cst.CSTNode,
    of_value: Callable[[cst.BaseExpression], str | None] | None = None,
    of_item: Callable[[cst.BaseExpression], str | None] | None = None,
) -> str | None:
    """The ``mcp.types`` class every binding of ``name`` in ``scope`` (a function or the module,
    nested functions and classes excluded) gives it: parameters and ``x: T`` by annotation,
    ``x = T(...)`` by constructor, and (with ``of_value``, the class of an assigned value) ``x = v``
    and ``x := v``; (with ``of_item``, the class of an element of an iterable) ``for x in v``; None
    when a binding says nothing or they disagree."""
    found: set[str | None] = set()
    stack: list[cst.CSTNode] = list(scope.children) if isinstance(scope, cst.Module) else [scope.params, scope.body]  # type: ignore[attr-defined]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        stack.extend(n.children)
        if isinstance(n, cst.Param) and n.name.value == name:
            found.add(types_class(analysis, n.annotation.annotation) if n.annotation else None)
        elif isinstance(n, cst.AnnAssign) and isinstance(n.target, cst.Name) and n.target.value == name:
            found.add(types_class(analysis, n.annotation.annotation))
        elif isinstance(n, cst.Assign) and any(
            isinstance(t.target, cst.Name) and t.target.value == name for t in n.targets
        ):
            cls = types_class(analysis, n.value) if isinstance(n.value, cst.Call) else None
            found.add(of_value(n.value) if cls is None and of_value is not None else cls)
        elif isinstance(n, cst.NamedExpr) and of_value is not None and _is_name(n.target, name):
            found.add(of_value(n.value))
        elif isinstance(n, (cst.For, cst.CompFor)) and of_item is not None and _is_name(n.target, name):
            found.add(of_item(n.iter))
        elif isinstance(n, (cst.For, cst.CompFor, cst.WithItem, cst.ExceptHandler, cst.NamedExpr, cst.AugAssign)):
            target = getattr(n, "target", None) or getattr(n, "asname", None) or getattr(n, "name", None)
            if target is not None and any(isinstance(x, cst.Name) and x.value == name for x in _walk_names(target)):
                found.add(None)
    return found.pop() if len(found) == 1 else None


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _walk_names(node: cst.CSTNode) -> list[cst.Name]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.append(n)
        stack.extend(n.children)
    return out


@dataclass
class WrapStr:
    """``uri=AnyUrl(...)`` → ``uri=str(AnyUrl(...))``: the same text 1.x sent (pydantic's
    normalisation kept), as the ``str`` mcp 2.x's field takes."""

    node: cst.Call

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        edits.transform(
            self.node, lambda o, u: cst.Call(cst.Name("str"), [cst.Arg(u)]) if isinstance(u, cst.Call) else u
        )


# mcp 1.x's low-level ``Server.notification_handlers`` was keyed by the notification class and
# called ``await handler(notification)`` (``mcp/server/lowlevel/server.py``
# ``_handle_notification``); mcp 2.3 keys them by method with
# ``add_notification_handler(method, params_type, handler)`` and calls ``handler(ctx, params)``
# (``mcp/server/runner.py``). The 1.x classes a client sends, with their 2.x method and params.
NOTIFICATION_HANDLER_PORTS = {
    "RootsListChangedNotification": ("notifications/roots/list_changed", "NotificationParams"),
    "ProgressNotification": ("notifications/progress", "ProgressNotificationParams"),
    "InitializedNotification": ("notifications/initialized", "NotificationParams"),
}
NOTIFICATION_FIX = FixInfo(
    Safety.SAFE,
    "port",
    "register the handler with mcp 2.x's `add_notification_handler(method, params_type, handler)` on the same "
    "low-level server, through a lambda that rebuilds the notification it took on mcp 1.x",
)
NOTIFICATION_FIX_READS = FixInfo(
    Safety.UNSAFE,
    "port",
    "register the handler with mcp 2.x's `add_notification_handler(method, params_type, handler)` on the same "
    "low-level server, through a lambda that rebuilds the notification it took on mcp 1.x (review: the handler "
    "reads its notification; mcp 2.x validates absent params as the params model with its defaults, so "
    "`notification.params` is that model where mcp 1.x gave `None`)",
)


@dataclass
class NotificationHandlerPort:
    """``server.notification_handlers[types.X] = handler`` (a FastMCP's ``_mcp_server`` is the
    low-level server: ``_lowlevel_server`` on mcp 2.x) → ``server.add_notification_handler(
    "method", NotificationParams, lambda ctx, params: handler(types.X(params=params)))``."""

    stmt: cst.SimpleStatementLine
    server: str  # the 2.x spelling of the low-level server expression
    notification: cst.BaseExpression  # ``types.X`` as written (the class is in mcp 2.x's types too)
    handler: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        cls = get_full_name_for_node(self.notification) or ""
        method, params_t = NOTIFICATION_HANDLER_PORTS[cls.rsplit(".", 1)[-1]]
        params = edits.import_name(analysis, "mcp.types", params_t)
        note = cst.Module([]).code_for_node(self.notification)
        code = (
            f'{self.server}.add_notification_handler("{method}", {params}, '
            f"lambda ctx, params: {self.handler}({note}(params=params)))\n"
        )
        new = cst.parse_statement(code)
        stmt = self.stmt
        edits.transform(stmt, lambda o, u: new.with_changes(leading_lines=stmt.leading_lines))


# Names mcp 1.27's modules only re-exported from other packages (their own imports), gone from
# mcp 2.3's counterparts (surfaces.MCP1_NAMES_GONE): each is imported from the package that
# defines it (read off mcp 1.27: the object's module, or the public package exporting it).
_PYDANTIC = ("AnyUrl", "BaseModel", "ConfigDict", "Field", "FileUrl", "RootModel", "UrlConstraints")
_TYPING = ("Annotated", "Any", "Final", "Generic", "Literal", "TypeAlias", "TypeVar")
_STREAMS = ("MemoryObjectReceiveStream", "MemoryObjectSendStream")
REEXPORTS: dict[str, str] = {
    **{f"mcp.types.{n}": "pydantic" for n in _PYDANTIC},
    **{f"mcp.types.{n}": "typing" for n in _TYPING},
    "mcp.types.Callable": "collections.abc",
    "mcp.types.datetime": "datetime",
    "mcp.types.deprecated": "typing_extensions",
    "mcp.server.elicitation.Sequence": "collections.abc",
    **{f"mcp.server.elicitation.{n}": "typing" for n in ("Union", "get_args", "get_origin")},
    "mcp.server.lowlevel.server.AnyUrl": "pydantic",
    "mcp.server.lowlevel.server.AsyncExitStack": "contextlib",
    "mcp.server.lowlevel.server.Iterable": "collections.abc",
    "mcp.server.lowlevel.server.TypeAlias": "typing",
    "mcp.server.lowlevel.server.cast": "typing",
    "mcp.server.session.Enum": "enum",
    "mcp.server.streamable_http_manager.HTTPStatus": "http",
    "mcp.shared.context.dataclass": "dataclasses",
    "mcp.shared.context.field": "dataclasses",
    "mcp.shared.memory.Any": "typing",
    "mcp.shared.memory.timedelta": "datetime",
    **{
        f"{m}.{n}": "anyio.streams.memory"
        for m in (
            "mcp.server.lowlevel.server",
            "mcp.server.session",
            "mcp.server.sse",
            "mcp.server.stdio",
            "mcp.shared.memory",
        )
        for n in _STREAMS
    },
}
REEXPORT_FIX = FixInfo(
    Safety.SAFE,
    "port",
    "import the name from the package that defines it (mcp 1.x only re-exported it: the same object)",
)


@dataclass
class ReexportMove:
    """``from mcp.types import FileUrl`` → ``from pydantic import FileUrl`` (the alias leaves the
    mcp import, which goes when it is left empty); ``types.FileUrl`` → ``FileUrl`` imported so."""

    node: cst.ImportAlias | cst.Attribute
    origin: str  # the package that defines the name
    name: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        if isinstance(self.node, cst.Attribute):
            edits.replace(self.node, cst.Name(edits.import_name(analysis, self.origin, self.name)))
            return
        alias = self.node
        local = get_full_name_for_node(alias.asname.name) if alias.asname else self.name
        stmt = analysis.parents.get(id(alias))
        edits.add_import(self.origin, self.name, local)
        name = self.name

        def drop(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode | cst.RemovalSentinel:
            assert isinstance(upd, cst.ImportFrom) and not isinstance(upd.names, cst.ImportStar)
            keep = [a for a in upd.names if get_full_name_for_node(a.name) != name or _local(a) != local]
            if not keep:
                return cst.RemoveFromParent()
            last = upd.names[-1].comma
            keep[-1] = keep[-1].with_changes(comma=last)
            return upd.with_changes(names=keep)

        assert stmt is not None
        edits.transform(stmt, drop)


def _local(alias: cst.ImportAlias) -> str | None:
    return get_full_name_for_node(alias.asname.name) if alias.asname else get_full_name_for_node(alias.name)


# -- the plans the port detectors ask for (docs/architecture.md, "How a finding becomes a fix") --
def plan_attr_rename(node: cst.Attribute | cst.SimpleString, new: str) -> FixPlan:
    """MCP501/MCP506/MCP519: ``recv.old`` → ``recv.new`` (a renamed property or field: the same
    value), or the literal name of ``getattr(recv, "old")``/``hasattr`` → ``"new"``."""
    site = AttrRename(node, new) if isinstance(node, cst.Attribute) else StringRename(node, new)
    return FixPlan(fix=SAFE_RENAME, site=site)


def plan_wrap_str(value: cst.Call) -> FixPlan:
    """MCP508: ``uri=AnyUrl(...)`` → ``uri=str(AnyUrl(...))``."""
    return FixPlan(fix=WRAP_STR, site=WrapStr(value))


def plan_reexport(node: cst.ImportAlias | cst.Attribute, origin: str, name: str) -> FixPlan:
    """MCP507: a name mcp 1.x only re-exported, imported from ``origin`` (the package that
    defines it)."""
    return FixPlan(fix=REEXPORT_FIX, site=ReexportMove(node, origin, name))


def plan_notification_handler(
    stmt: cst.SimpleStatementLine, server: str, notification: cst.BaseExpression, handler: str, reads: bool
) -> FixPlan:
    """MCP509: ``server.notification_handlers[types.X] = handler`` → ``add_notification_handler``;
    unsafe when the handler reads its notification (``reads``: absent params become the params
    model with its defaults)."""
    site = NotificationHandlerPort(stmt, server, notification, handler)
    return FixPlan(fix=NOTIFICATION_FIX_READS if reads else NOTIFICATION_FIX, site=site)


# mcp 1.27 FastMCP's Tool.run turned an McpError into the tool error result; mcp 2.3 MCPServer
# re-raises MCPError and the kernel answers with a JSON-RPC error (MCP510's wrapper keeps 1.27's
# answer, but not in a tool it leaves to a human).
_MCP_ERROR_IN_TOOL = (
    " (review: FastMCP tool{s} {tools} {verb} an `McpError` (in the tool or a helper it calls), which mcp 1.x sent the "
    "client as a tool error result (`isError: true`, `Error executing tool <name>: <message>`); mcp 2.x's `MCPServer` "
    "answers the renamed `MCPError` with a JSON-RPC error response instead, and MCP510 cannot wrap the tool's body: "
    "wrap it by hand or raise `ToolError`)"
)


def raised_in_tools(plan: FixPlan, tools: list[str]) -> FixPlan:
    """MCP502's import rename ``plan`` when FastMCP ``tools`` raise the renamed ``McpError`` and
    MCP510 cannot wrap them: unsafe, the review note naming them."""
    assert plan.fix is not None
    review = _MCP_ERROR_IN_TOOL.format(
        tools=", ".join(tools), s="s" if len(tools) > 1 else "", verb="raise" if len(tools) > 1 else "raises"
    )
    return FixPlan(fix=FixInfo(Safety.UNSAFE, plan.fix.strategy, plan.fix.description + review), site=plan.site)


# mcp 1.27 FastMCP's Tool.run turned the client's refusal of a sampling or elicitation request (an
# McpError: a client that did not declare the capability answers the request with an error) into the
# tool error result; mcp 2.3 MCPServer re-raises it and the kernel answers with a JSON-RPC error.
_REFUSAL_IN_TOOL = (
    " (review: FastMCP tool{s} {tools} ask{verb} the client where no `except` handles its refusal: a client "
    "that did not declare the capability (it answers the request with an error) got the tool error result "
    "`Error executing tool <name>: <the client's error message>` (`isError: true`) from mcp 1.x; mcp 2.x's "
    "`MCPServer` answers that refusal (`MCPError`) with a JSON-RPC error response instead, on legacy connections "
    "too (the interim fix's resolver: error -32021 before the tool runs). To keep the tool error result, catch it "
    "in the tool: `except MCPError as exc: raise ToolError(str(exc)) from exc`)"
)


def refused_in_tools(plan: FixPlan, tools: list[str]) -> FixPlan:
    """MCP501's import rename ``plan`` when FastMCP ``tools`` make a sampling or elicitation request
    whose refusal nothing handles: unsafe, the review note naming them and what the client gets."""
    assert plan.fix is not None
    review = _REFUSAL_IN_TOOL.format(
        tools=", ".join(tools), s="s" if len(tools) > 1 else "", verb="" if len(tools) > 1 else "s"
    )
    return FixPlan(fix=FixInfo(Safety.UNSAFE, plan.fix.strategy, plan.fix.description + review), site=plan.site)


def already_broken(plan: FixPlan, lines: list[int], error: str) -> FixPlan:
    """MCP502's import rename ``plan`` when it mends ``McpError(…)`` calls (at ``lines``) mcp 1.x
    could not make (port-08: the call raised ``TypeError: <error>`` there, whose text the client
    got, e.g. FastMCP's ``Error executing tool <name>: <that text>``; mcp 2.x raises the
    ``MCPError`` the code meant): unsafe, the review note naming the lines and the error."""
    assert plan.fix is not None
    review = (
        f" (review: `McpError(…)` at line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))} is already written in mcp 2.x's `(code, message, data)` shape, which "
        f"mcp 1.x's `McpError(error: ErrorData)` does not take: there it raises `TypeError: {error}` and the client "
        "gets that text; renamed, it raises the intended `MCPError` with its own message, so the client's answer "
        "changes to that message)"
    )
    return FixPlan(fix=FixInfo(Safety.UNSAFE, plan.fix.strategy, plan.fix.description + review), site=plan.site)

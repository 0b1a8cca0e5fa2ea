"""The rest of revision 2026-07-28 (``specification/2026-07-28/changelog``): MCP602
http-sse-transport, MCP603 resource-not-found-code, MCP604 removed-method-handler, MCP605
sse-resumability, MCP606 sampling-include-context, MCP607 dynamic-client-registration.

- MCP602: the HTTP+SSE transport is Deprecated (changelog "Deprecated" 2, SEP-2596): a
  FastMCP / MCPServer / fastmcp server run or served with it (``run(transport="sse")``,
  ``run_async(transport="sse")``, ``http_app(transport="sse")``, ``sse_app()``,
  ``run_sse_async()``), and the SDK's ``SseServerTransport`` or fastmcp's ``create_sse_app``
  wired by hand. The server is recognised through the analysis (``Kind.SERVER_HL``), the SDK
  classes through the imports.
- MCP603: the resource-not-found error code ``-32002`` (changelog, minor change 6: it is
  ``-32602`` now; mcp_types lists -32002 as reserved-never-reused, and mcp 2.x's own
  ``ResourceNotFoundError`` answers -32602 in both eras). Reported where the literal is an error
  code a server sends: an argument of an error constructor, a ``"code"`` entry, or a module
  constant; a comparison (``e.code == -32002``: reading an answer) is not. A JSON-RPC module
  without MCP evidence (``_mcp_module``, shared with MCP604) speaks another protocol: LSP's
  ServerNotInitialized is -32002 too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cached_property, partial
from typing import ClassVar

import libcst as cst
import libcst.matchers as m

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis
from mcpmigrate.codemods.revision import (
    RENAMED_METHODS,
    STREAMABLE,
    plan_drop_context,
    plan_not_found,
    plan_sse_method,
    plan_sse_transport,
)
from mcpmigrate.detectors._shared import CatalogVisitor, branch_condition, dict_get, in_test_function, string_value
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.model import FixPlan, Severity
from mcpmigrate.screen import Facts

# -- MCP602 -----------------------------------------------------------------------------------
SSE_TRANSPORT_CLASSES = {"mcp.server.sse.SseServerTransport", "mcp.server.sse.SseServerTransport.connect_sse"}
SSE_APP_FACTORIES = {"fastmcp.server.http.create_sse_app", "fastmcp.server.create_sse_app"}
TRANSPORT_METHODS = {"run", "run_async", "http_app"}  # take transport="sse"
SSE_ONLY_KEYWORDS = {"mount_path", "sse_path", "message_path"}
SERVER_FACTORIES = {"from_openapi", "from_fastapi", "as_proxy"}  # fastmcp classmethods that build a server

_MSG_602 = (
    "The server is served over the HTTP+SSE transport ({what}); HTTP+SSE is deprecated "
    "(2026-07-28 changelog, SEP-2596) in favour of Streamable HTTP, which is the transport "
    '2026-07-28 clients speak. Serve Streamable HTTP (`transport="streamable-http"`, '
    "`streamable_http_app()`), and point client configurations at its endpoint (`/mcp` by default)."
)
_MANUAL_MOUNTED = (
    "the app is mounted inside another app, which does not run its lifespan: switch to "
    "`streamable_http_app()` and start the server's session manager in the outer app's lifespan "
    "(`async with mcp.session_manager.run(): yield`)"
)
_MANUAL_TRANSPORT = (
    "hand-wired SSE: replace the `SseServerTransport` routes with the SDK's Streamable HTTP app "
    "(`StreamableHTTPSessionManager(app=server)`, its `handle_request` mounted at `/mcp`, and "
    "`session_manager.run()` in the app's lifespan), then update the client configurations"
)


def _screen_602(f: Facts) -> bool:
    return f.names_mcp and bool(
        "sse" in f.strings
        or {"sse_app", "run_sse_async"} & f.attrs
        or {"SseServerTransport", "create_sse_app"} & (set(f.imported.values()) | f.attrs | f.names)
    )


class SseTransportDetector(Detector):
    rules = ("MCP602",)
    tokens = (rb"[\"']sse[\"']", rb"sse_app", rb"run_sse_async", rb"SseServerTransport", rb"create_sse_app")
    screen = staticmethod(_screen_602)

    def detect(self) -> Iterable[Report]:
        v = _SseVisitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports


_MANUAL_BOTH = (
    "the server already serves Streamable HTTP ({where}): turning this SSE entry into a second "
    "Streamable HTTP one duplicates it (two `streamable_http_app()` of one server share a session "
    "manager that runs once: the server fails at startup) and keeps announcing SSE where it no "
    "longer serves it. Remove the SSE entry (its routes, option or command) once SSE clients have "
    "moved to the Streamable HTTP endpoint, or keep it for them while it lasts"
)
STREAMABLE_ENTRIES = {"streamable_http_app", "run_streamable_http_async"}
STREAMABLE_TRANSPORTS = {STREAMABLE, "http", "streamable_http"}


class _SseVisitor(CatalogVisitor):
    @cached_property
    def _serves_streamable(self) -> str | None:
        """Where the module already serves Streamable HTTP (``mcp.streamable_http_app()``,
        ``run(transport="streamable-http")``), as the user wrote it; None when it does not."""
        for call in self.a.nodes(cst.Call):
            func = call.func
            if not isinstance(func, cst.Attribute):
                continue
            arg = _transport_arg(call) if func.attr.value in TRANSPORT_METHODS else None
            if func.attr.value in STREAMABLE_ENTRIES or (
                arg is not None and string_value(arg.value) in STREAMABLE_TRANSPORTS
            ):
                return f"`{cst.Module([]).code_for_node(call)}`"
        return None

    def visit_Call(self, node: cst.Call) -> None:
        if in_test_function(self.a, node):
            return
        func = node.func
        fn = self.fn(node)
        q = self.a.qualname(func)
        if q in SSE_TRANSPORT_CLASSES or q in SSE_APP_FACTORIES:
            name = q.rsplit(".", 1)[-1]
            self.report("MCP602", node, _MSG_602.format(what=f"`{name}`"), manual=_MANUAL_TRANSPORT)
            return
        if not isinstance(func, cst.Attribute) or not self._server(func.value, fn):
            return
        attr = func.attr.value
        if attr in TRANSPORT_METHODS:
            arg = _transport_arg(node)
            if arg is None:
                return
            if string_value(arg.value) == "sse":
                plan = partial(plan_sse_transport, [arg.value])
                self._planned(node, arg.value, f'`{attr}(transport="sse")`', plan, attr == "http_app", fn)
                return
            self._chosen_at_run_time(node, attr, arg.value, fn)
        elif attr in RENAMED_METHODS:
            self._planned(node, node, f"`{attr}()`", partial(plan_sse_method, func.attr), attr == "sse_app", fn)

    def _chosen_at_run_time(
        self, call: cst.Call, attr: str, value: cst.BaseExpression, fn: FunctionInfo | None
    ) -> None:
        """``run(transport=<expression>)``: a conditional whose branches name ``"sse"`` is fixed like
        the literal (each ``"sse"`` branch serves Streamable HTTP); any other expression (an
        environment variable, a command-line option) is reported, manual, when the module names
        ``"sse"`` at all (an option's choices, a default) — with no ``"sse"`` in the module it
        cannot select SSE and nothing is reported."""
        code = cst.Module([]).code_for_node(value)
        branches, literal_only = _sse_branches(value)
        if branches:
            plan = partial(plan_sse_transport, branches)
            self._planned(call, value, f"`{attr}(transport={code})`", plan, attr == "http_app", fn)
        elif not literal_only and self._offers_sse(value):
            message = _MSG_602.format(what=f'`{attr}(transport={code})`, where the module offers "sse"')
            self.report("MCP602", value, message, manual=_MANUAL_RUN_TIME.format(code=code))

    def _offers_sse(self, value: cst.BaseExpression) -> bool:
        """``"sse"`` is in the expression (an environment variable's default) or elsewhere in the
        module outside the transport argument of a serving call (an option's choices)."""
        if any(string_value(s) == "sse" for s in m.findall(value, m.SimpleString())):
            return True
        spent: set[int] = set()  # the literals of other serving calls' transport arguments
        for call in self.a.nodes(cst.Call):
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in TRANSPORT_METHODS:
                arg = _transport_arg(call)
                if arg is not None:
                    spent |= {id(s) for s in m.findall(arg.value, m.SimpleString())}
        return any(string_value(s) == "sse" and id(s) not in spent for s in self.a.nodes(cst.SimpleString))

    def _server(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """A FastMCP / MCPServer / fastmcp server: typed by the analysis, or a name bound (in the
        function or at module level) to one of fastmcp's factories (``FastMCP.from_openapi(...)``)."""
        if self.a.kind_of(expr, fn) is Kind.SERVER_HL:
            return True
        if not isinstance(expr, cst.Name):
            return False
        scope, values = fn, []
        while scope is not None:
            values += [v for n, v in scope.assigns if n == expr.value]
            scope = scope.parent
        values += [v for n, v in self.a.module_assigns if n == expr.value]
        return bool(values) and all(
            isinstance(v, cst.Call)
            and isinstance(v.func, cst.Attribute)
            and v.func.attr.value in SERVER_FACTORIES
            and self.a.resolves_to(v.func.value, S.HIGH_LEVEL_SERVERS)
            for v in values
        )

    def _planned(
        self,
        call: cst.Call,
        at: cst.CSTNode,
        what: str,
        plan: Callable[[list[cst.Arg]], FixPlan],
        app: bool,
        fn: FunctionInfo | None,
    ) -> None:
        """Report the SSE entry ``call`` at ``at``: manual where it cannot become Streamable HTTP
        alone, else with ``plan(dropped)`` (the revision fix's plan; ``dropped``: the SSE-only
        keywords that go)."""
        message = _MSG_602.format(what=what)
        both = self._serves_streamable
        if both is not None:
            self.report("MCP602", at, message, manual=_MANUAL_BOTH.format(where=both))
            return
        if app and self._mounted(call):
            self.report("MCP602", at, message, manual=_MANUAL_MOUNTED)
            return
        dropped = [a for a in call.args if a.keyword is not None and a.keyword.value in SSE_ONLY_KEYWORDS]
        self.reports.append(Report.planned("MCP602", at, message, plan(dropped)))

    def _mounted(self, call: cst.Call) -> bool:
        """The app ``call`` builds is an argument of ``Mount(...)`` / ``app.mount(...)`` (Starlette
        runs no lifespan of a mounted app, and the Streamable HTTP app needs its own)."""
        parent = self.a.parents.get(id(call))
        if isinstance(parent, cst.Arg):
            outer = self.a.parents.get(id(parent))
            if isinstance(outer, cst.Call):
                name = self.full(outer.func) or ""
                return name.rsplit(".", 1)[-1] in ("Mount", "mount", "Host")
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Name):
                for n in self.a.nodes(cst.Arg):
                    if isinstance(n.value, cst.Name) and n.value.value == target.value:
                        outer = self.a.parents.get(id(n))
                        if isinstance(outer, cst.Call):
                            name = self.full(outer.func) or ""
                            if name.rsplit(".", 1)[-1] in ("Mount", "mount", "Host"):
                                return True
        return False


_MANUAL_RUN_TIME = (
    'the transport is chosen at run time (`{code}`) and the module offers "sse" as a value (an '
    "option's choices, an environment variable's default): offer \"streamable-http\" where it offers "
    '"sse" (choices, defaults, the documentation of the option or variable) and move the client '
    "configurations that select SSE to the Streamable HTTP endpoint (`/mcp` by default)"
)


def _sse_branches(value: cst.BaseExpression) -> tuple[list[cst.SimpleString], bool]:
    """The ``"sse"`` literals among the branches of a (nested) conditional expression, and
    whether every branch is a string literal (its value is then known)."""
    if not isinstance(value, cst.IfExp):
        return [], isinstance(value, cst.SimpleString)
    found: list[cst.SimpleString] = []
    literal_only = True
    for branch in (value.body, value.orelse):
        if isinstance(branch, cst.SimpleString) and string_value(branch) == "sse":
            found.append(branch)
        inner, known = _sse_branches(branch)
        found += inner
        literal_only = literal_only and known
    return found, literal_only


def _transport_arg(call: cst.Call) -> cst.Arg | None:
    for i, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "transport":
            return arg
        if arg.keyword is None and not arg.star and i == 0:
            return arg
    return None


class _ServerCodeDetector(Detector):
    """A detector whose visitor reports server code only: a module that imports an SDK client
    (client code, which sends what a server receives) is skipped."""

    visitor: ClassVar[type[CatalogVisitor]]

    def detect(self) -> Iterable[Report]:
        v = self.visitor(self.analysis)
        if v.client_module:
            return []
        self.analysis.flat.visit(v)
        return v.reports


# -- MCP603 -----------------------------------------------------------------------------------
OLD_NOT_FOUND = 32002

_MSG_603 = (
    "The server sends error code -32002 for a missing resource{where}; 2026-07-28 answers a missing "
    "resource with -32602 (Invalid Params; changelog, minor change 6) and keeps -32002 reserved, never "
    "reused, so a modern client does not recognise it. Send -32602 (on mcp 2.x, raise "
    "`ResourceNotFoundError`, which answers -32602 in both eras)."
)


def _screen_603(f: Facts) -> bool:
    """The visitor reports only in a module that imports the SDK or speaks JSON-RPC, or in a
    hand-built error object (``{"code": -32002, "message": …}``)."""
    return f.names_mcp or "jsonrpc" in f.strings or {"code", "message"} <= f.dict_keys


class ResourceNotFoundCodeDetector(Detector):
    rules = ("MCP603",)
    # the negative literal only (``-32002``, ``- (32002)``): a generated ``x * 132002`` or a port
    # number is not a code, and would send a 5 MB module to libcst for nothing
    tokens = (rb"-[\s(]*32002(?![0-9_])",)
    screen = staticmethod(_screen_603)

    def detect(self) -> Iterable[Report]:
        v = _CodeVisitor(self.analysis)
        if v.client_module:
            return []
        self.analysis.flat.visit(v)
        return v.reports


def _serves_jsonrpc(a) -> bool:
    return any(isinstance(n, cst.SimpleString) and string_value(n) == "jsonrpc" for n in a.nodes(cst.SimpleString))


class _CodeVisitor(CatalogVisitor):
    def __init__(self, analysis: ModuleAnalysis) -> None:
        super().__init__(analysis)
        self._mcp = _mcp_module(analysis)
        # JSON-RPC without MCP evidence is another protocol: LSP's ServerNotInitialized is -32002 too
        self._other_protocol = not self._mcp and _serves_jsonrpc(analysis)

    def _error_object(self, node: cst.CSTNode) -> bool:
        """``node`` is the code of a hand-built JSON-RPC error (``{"code": -32002, "message": …}``)."""
        entry = self.a.parents.get(id(node))
        display = self.a.parents.get(id(entry)) if isinstance(entry, cst.DictElement) else None
        return (
            isinstance(entry, cst.DictElement)
            and string_value(entry.key) == "code"
            and isinstance(display, cst.Dict)
            and dict_get(display, "message") is not None
        )

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if not (
            isinstance(node.operator, cst.Minus)
            and isinstance(node.expression, cst.Integer)
            and node.expression.evaluated_value == OLD_NOT_FOUND
        ):
            return
        parent = self.a.parents.get(id(node))
        if isinstance(parent, (cst.ComparisonTarget, cst.Comparison, cst.MatchValue)):
            return  # reading a code (an answer from elsewhere), not sending one
        hand_built = self._error_object(node) and not self._other_protocol
        if not (self._mcp or hand_built) or in_test_function(self.a, node):
            return
        fn = self.fn(node)
        where = f" in `{fn.name}`" if fn is not None else ""
        if isinstance(parent, cst.Assign) and fn is None:
            names = [t.target.value for t in parent.targets if isinstance(t.target, cst.Name)]
            where = f" (`{names[0]}`)" if names else where
        self.reports.append(Report.planned("MCP603", node, _MSG_603.format(where=where), plan_not_found(node)))


# -- MCP604 -----------------------------------------------------------------------------------
HANDSHAKE_METHODS = {"initialize", "notifications/initialized"}
REMOVED_METHODS = {
    "ping": "`ping` is removed",
    "tasks/list": "`tasks/list` is removed from the tasks extension",
    "tasks/result": "the blocking `tasks/result` is replaced by polling `tasks/get` (and `tasks/update`)",
}
REMOVED_METHODS.update(
    {
        m: "the `initialize` handshake is removed (each request carries its version and capabilities in `_meta`)"
        for m in HANDSHAKE_METHODS
    }
)
# words too common to mean an MCP method unless the module is MCP code (imports mcp, or names an MCP
# method or `protocolVersion`)
_COMMON_WORDS = {"ping", "initialize"}
# the method namespaces of MCP (schema/2026-07-28 and earlier): a string starting with one names MCP
_MCP_NAMESPACES = (
    "tools/",
    "resources/",
    "prompts/",
    "notifications/",
    "sampling/",
    "elicitation/",
    "roots/",
    "logging/",
    "completion/",
    "tasks/",
    "server/discover",
    "subscriptions/",
)
REMOVED_TYPES = {
    **{
        f"{m}.{n}": method
        for m in ("mcp.types", "mcp_types")
        for n, method in (
            ("PingRequest", "ping"),
            ("InitializeRequest", "initialize"),
            ("InitializedNotification", "notifications/initialized"),
            ("ListTasksRequest", "tasks/list"),
            ("GetTaskPayloadRequest", "tasks/result"),
        )
    },
}
DISCOVER = "server/discover"

_BIDIRECTIONAL = {"ping", "tasks/list", "tasks/result"}
_CLIENT_ONLY_METHODS = S.SERVER_METHODS | {
    "initialize",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "completion/complete",
}

_MSG_604 = (
    "The server handles `{method}` ({where}); {why} in 2026-07-28 (SEP-2575, SEP-2663), so a 2026-07-28 client "
    "never sends it; legacy clients still do. Keep it on handshake-era connections only, and drop it once the "
    "project no longer serves them."
)
_MSG_604_DISCOVER = (
    "The server implements the `initialize` handshake ({where}) and no `server/discover`; 2026-07-28 removes the "
    "handshake and requires `server/discover` (SEP-2575): a modern client's discover gets -32601 and it treats the "
    "server as legacy-only. Answer `server/discover` with the supported versions, capabilities and server info, "
    "and serve requests that carry their version in `_meta` without a prior `initialize`."
)
_MANUAL_604 = "route it only on handshake-era connections; remove it once legacy clients are no longer served"
_MANUAL_604_DISCOVER = "add a `server/discover` branch and serve requests without a prior handshake"


_MSG_604_HOOK = (
    "The fastmcp middleware `{cls}` handles `initialize` (`on_initialize`); the `initialize` handshake is removed "
    "in 2026-07-28 (SEP-2575), so on a 2026-07-28 connection this hook never runs and what it does (recording "
    "or checking the client, setting up state) is skipped for every modern client."
)
_MANUAL_604_HOOK = (
    "do it per request instead (`on_request` runs for every request in both eras; a 2026-07-28 request carries "
    "the client's info and capabilities in its `_meta`), and keep `on_initialize` only for handshake-era clients"
)


def _mcp_module(analysis: ModuleAnalysis) -> bool:
    """The module is MCP code: it imports mcp, or names an MCP method or the handshake's
    `protocolVersion`. JSON-RPC alone is not MCP: the Language Server Protocol (an LSP fake answering
    `initialize` with `{"capabilities": {}}`, or ServerNotInitialized, -32002), DAP and others speak it too."""
    return analysis.memo(
        "revision.mcp_module",  # asked by MCP603's and MCP604's visitors
        lambda: (
            analysis.imports_mcp()
            or any(
                s is not None and (s == "protocolVersion" or s.startswith(_MCP_NAMESPACES))
                for s in map(string_value, analysis.nodes(cst.SimpleString))
            )
        ),
    )


def _screen_604(f: Facts) -> bool:
    return (
        bool(set(REMOVED_METHODS) & (f.compared | f.dict_keys | f.strings))
        or bool({n.rsplit(".", 1)[-1] for n in REMOVED_TYPES} & (set(f.imported.values()) | f.attrs | f.names))
        or ("Middleware" in (set(f.imported.values()) | f.attrs | f.names) and f.imports_mcp)
    )


class _RemovedVisitor(CatalogVisitor):
    def __init__(self, analysis) -> None:
        super().__init__(analysis)
        strings = {string_value(n) for n in analysis.nodes(cst.SimpleString)}
        self._mcp = _mcp_module(analysis)
        # ping and tasks/* went both ways before 2026-07-28: a branch on them handles a client's
        # message only in a module that also dispatches a method only clients send (a relay that
        # forwards `ping` to the client is not a handler)
        self._serves = any(
            s in _CLIENT_ONLY_METHODS
            for n in analysis.nodes(cst.Comparison, cst.MatchValue)
            for _n, s in self.dispatch_literal(n)
        ) or any(string_value(n.key) in _CLIENT_ONLY_METHODS for n in analysis.nodes(cst.DictElement))
        self._discover = DISCOVER in strings or any(
            q.endswith(("DiscoverRequest", "DiscoverResult")) for q in analysis.imports.values()
        )

    def _method(self, node: cst.CSTNode, method: str, where: str, dispatch: bool) -> None:
        if in_test_function(self.a, node) or (method in _COMMON_WORDS and not self._mcp):
            return
        if dispatch and method in _BIDIRECTIONAL and not self._serves:
            return
        if method == "initialize" and dispatch and not self._discover:
            self.report(
                "MCP604",
                node,
                _MSG_604_DISCOVER.format(where=where),
                manual=_MANUAL_604_DISCOVER,
                severity=Severity.BREAKING,
            )
            return
        self.report(
            "MCP604", node, _MSG_604.format(method=method, where=where, why=REMOVED_METHODS[method]), manual=_MANUAL_604
        )

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if not branch_condition(self.a.parents, node):
            return
        for n, s in self.dispatch_literal(node):
            if s in REMOVED_METHODS and (s not in _COMMON_WORDS or _is_method_field(node)):
                self._method(n, s, "a dispatch branch", dispatch=True)
                return

    def visit_MatchValue(self, node: cst.MatchValue) -> None:
        subject = next((p for p in _ancestors(self.a.parents, node) if isinstance(p, cst.Match)), None)
        for n, s in self.dispatch_literal(node):
            if s in REMOVED_METHODS and (
                s not in _COMMON_WORDS or (subject is not None and _names_method(subject.subject))
            ):
                self._method(n, s, "a `case`", dispatch=True)

    def visit_DictElement(self, node: cst.DictElement) -> None:
        s = string_value(node.key)
        if s in REMOVED_METHODS and self.is_route_handler(node.value):
            self._method(node, s, "a route table", dispatch=True)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        """A fastmcp ``Middleware`` subclass's ``on_initialize`` hook (fastmcp 2.13+, 3, 4): a
        handler of ``initialize`` that a 2026-07-28 client never triggers."""
        if not any(self.a.qualname(b.value) in S.FASTMCP_MIDDLEWARE for b in node.bases):
            return
        for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else []:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "on_initialize":
                if not in_test_function(self.a, stmt):
                    message = _MSG_604_HOOK.format(cls=node.name.value)
                    self.report("MCP604", stmt.name, message, manual=_MANUAL_604_HOOK)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Name) and func.value == "isinstance" and len(node.args) == 2:
            types = node.args[1].value
            for t in types.elements if isinstance(types, cst.Tuple) else []:
                self._type(t.value, "an `isinstance` check")
            self._type(types, "an `isinstance` check")
        elif isinstance(func, cst.Attribute) and func.attr.value == "add_request_handler" and node.args:
            s = string_value(node.args[0].value)
            if s in REMOVED_METHODS:
                self._method(node, s, "`add_request_handler`", dispatch=False)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            key = _handler_table_key(t.target)
            if key is not None:
                self._type(key, "`request_handlers[...]`")

    def _type(self, expr: cst.BaseExpression, where: str) -> None:
        method = REMOVED_TYPES.get(self.a.qualname(expr) or "")
        if method is not None:
            self._method(expr, method, where, dispatch=False)


def _handler_table_key(target: cst.BaseAssignTargetExpression) -> cst.BaseExpression | None:
    """``T`` of ``server.request_handlers[T] = handler`` (libcst.matchers would cost a check ~0.2 s)."""
    if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
        return None
    table = target.value
    index = target.slice[0].slice
    named = isinstance(table, cst.Attribute) and table.attr.value == "request_handlers"
    return index.value if named and isinstance(index, cst.Index) else None


def _ancestors(parents: dict[int, cst.CSTNode], node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    p = parents.get(id(node))
    while p is not None:
        yield p
        p = parents.get(id(p))


def _names_method(expr: cst.BaseExpression) -> bool:
    """``expr`` is a JSON-RPC message's method: ``method``, ``request.method``, ``msg["method"]``,
    ``msg.get("method")`` (a tool named ``ping`` compared against ``name`` is not a method)."""
    if isinstance(expr, cst.Name):
        return "method" in expr.value.lower()
    if isinstance(expr, cst.Attribute):
        return "method" in expr.attr.value.lower()
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
        return string_value(expr.slice[0].slice.value) == "method"
    if (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Attribute)
        and expr.func.attr.value == "get"
        and expr.args
    ):
        return string_value(expr.args[0].value) == "method"
    return False


def _is_method_field(node: cst.Comparison) -> bool:
    return _names_method(node.left) or any(_names_method(t.comparator) for t in node.comparisons)


# -- MCP605 -----------------------------------------------------------------------------------
LAST_EVENT_ID = "last-event-id"
EVENT_STORE = {"mcp.server.streamable_http.EventStore"}

_MSG_605 = (
    "The server implements SSE stream resumability ({what}); 2026-07-28 removes resumability and "
    "`Last-Event-ID` (SEP-2575): a broken stream loses the in-flight request and a modern client re-issues it "
    "under a new id, so this replays only to legacy clients. Drop it once the project no longer serves them."
)
_MANUAL_605 = "keep it for handshake-era clients; remove the event store and the replay once they are no longer served"


def _screen_605(f: Facts) -> bool:
    return (
        any(s.lower() == LAST_EVENT_ID for s in f.strings)
        or "EventStore" in set(f.imported.values()) | f.attrs | f.names
        or "event_store" in f.keywords
    )


class _ResumeVisitor(CatalogVisitor):
    def _is_header(self, expr: cst.BaseExpression) -> bool:
        s = string_value(expr)
        return s is not None and s.lower() == LAST_EVENT_ID

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if any(self.a.resolves_to(b.value, EVENT_STORE) for b in node.bases):
            self.report(
                "MCP605", node.name, _MSG_605.format(what=f"`{node.name.value}` is an `EventStore`"), manual=_MANUAL_605
            )

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        args = [a for a in node.args if a.keyword is None and not a.star]
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and args and self._is_header(args[0].value):
            self.report("MCP605", node, _MSG_605.format(what="the `Last-Event-ID` header is read"), manual=_MANUAL_605)
            return
        for arg in node.args:
            if (
                arg.keyword is not None
                and arg.keyword.value == "event_store"
                and not (isinstance(arg.value, cst.Name) and arg.value.value == "None")
                and (self.a.qualname(func) or "").startswith(("mcp.", "fastmcp."))
                or arg.keyword is not None
                and arg.keyword.value == "event_store"
                and isinstance(func, cst.Attribute)
                and self.a.kind_of(func.value, self.fn(node)) is Kind.SERVER_HL
            ):
                self.report(
                    "MCP605", arg, _MSG_605.format(what="an event store is passed to the transport"), manual=_MANUAL_605
                )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if (
            len(node.slice) == 1
            and isinstance(node.slice[0].slice, cst.Index)
            and self._is_header(node.slice[0].slice.value)
        ):
            self.report("MCP605", node, _MSG_605.format(what="the `Last-Event-ID` header is read"), manual=_MANUAL_605)


# -- MCP606 -----------------------------------------------------------------------------------
DEPRECATED_CONTEXT = {"thisServer", "allServers"}
CONTEXT_KEYWORDS = {"include_context", "includeContext"}
SAMPLING_TYPES = {f"{m}.CreateMessageRequestParams" for m in ("mcp.types", "mcp_types")}

_MSG_606 = (
    "Sampling asks the client to include context from `{value}`; `includeContext` values `thisServer` and "
    "`allServers` are deprecated (2026-07-28 changelog, Deprecated 3; SEP-2596) and go no later than Sampling "
    "itself. Omit the field (or use `none`) and put what the model needs into the messages."
)


def _screen_606(f: Facts) -> bool:
    return bool(CONTEXT_KEYWORDS & (f.keywords | f.dict_keys)) and bool(DEPRECATED_CONTEXT & f.strings)


class _ContextVisitor(CatalogVisitor):
    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        fn = self.fn(node)
        sdk = self.a.resolves_to(func, SAMPLING_TYPES) or (
            isinstance(func, cst.Attribute)
            and func.attr.value in ("create_message", "sample", "sample_step")
            and (self.is_session(func.value, fn) or self.context_kind(func.value, fn) is not None)
        )
        if not sdk:
            return
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in CONTEXT_KEYWORDS:
                value = string_value(arg.value)
                if value in DEPRECATED_CONTEXT:
                    plan = plan_drop_context(arg, arg.keyword.value)
                    self.reports.append(Report.planned("MCP606", arg, _MSG_606.format(value=value), plan))

    def visit_DictElement(self, node: cst.DictElement) -> None:
        if string_value(node.key) == "includeContext" and string_value(node.value) in DEPRECATED_CONTEXT:
            if self.a.imports_mcp():
                plan = plan_drop_context(node, '"includeContext"')
                self.reports.append(
                    Report.planned("MCP606", node, _MSG_606.format(value=string_value(node.value)), plan)
                )


# -- MCP607 -----------------------------------------------------------------------------------
AUTH_PROVIDERS = {
    "mcp.server.auth.provider.OAuthAuthorizationServerProvider",
    "fastmcp.server.auth.OAuthProvider",
    "fastmcp.server.auth.auth.OAuthProvider",
}
REGISTRATION_OPTIONS = {
    "mcp.server.auth.settings.ClientRegistrationOptions",
    "fastmcp.server.auth.auth.ClientRegistrationOptions",
}

_MSG_607 = (
    "The server's authorization accepts Dynamic Client Registration ({what}); 2026-07-28 deprecates RFC 7591 "
    "registration in favour of Client ID Metadata Documents (changelog, Deprecated 4): a client's `client_id` is "
    "the HTTPS URL of its metadata document. Keep registration while clients rely on it, and accept "
    "metadata-document client ids as well."
)
_MANUAL_607 = (
    "keep it for clients and authorization servers without Client ID Metadata Documents; add CIMD support "
    "(fetch and validate the metadata document a URL `client_id` names)"
)


def _screen_607(f: Facts) -> bool:
    names = f.names | f.attrs
    return bool({"OAuthAuthorizationServerProvider", "OAuthProvider", "ClientRegistrationOptions"} & names)


class _RegistrationVisitor(CatalogVisitor):
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if not any(self.a.resolves_to(b.value, AUTH_PROVIDERS) for b in node.bases):
            return
        for stmt in node.body.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "register_client":
                self.report(
                    "MCP607",
                    stmt.name,
                    _MSG_607.format(what=f"`{node.name.value}.register_client`"),
                    manual=_MANUAL_607,
                )

    def visit_Call(self, node: cst.Call) -> None:
        if not self.a.resolves_to(node.func, REGISTRATION_OPTIONS):
            return
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "enabled" and self.full(arg.value) == "True":
                self.report(
                    "MCP607", arg, _MSG_607.format(what="`ClientRegistrationOptions(enabled=True)`"), manual=_MANUAL_607
                )


# -- the detectors of MCP604-MCP606 (after their visitors) ------------------------------------


class RemovedMethodDetector(_ServerCodeDetector):
    rules = ("MCP604",)
    tokens = (
        rb"[\"']ping[\"']",
        rb"[\"']initialize[\"']",
        rb"notifications/initialized",
        rb"tasks/(list|result)",
        rb"PingRequest",
        rb"InitializeRequest",
        rb"InitializedNotification",
        rb"ListTasksRequest",
        rb"GetTaskPayloadRequest",
        rb"on_initialize",
    )
    screen = staticmethod(_screen_604)
    visitor = _RemovedVisitor


class ResumabilityDetector(_ServerCodeDetector):
    rules = ("MCP605",)
    tokens = (rb"(?i:last-event-id)", rb"EventStore", rb"event_store")
    screen = staticmethod(_screen_605)
    visitor = _ResumeVisitor


class IncludeContextDetector(_ServerCodeDetector):
    rules = ("MCP606",)
    tokens = (rb"thisServer", rb"allServers")
    screen = staticmethod(_screen_606)
    visitor = _ContextVisitor


class DynamicClientRegistrationDetector(_ServerCodeDetector):
    rules = ("MCP607",)
    tokens = (rb"register_client", rb"ClientRegistrationOptions")
    screen = staticmethod(_screen_607)
    visitor = _RegistrationVisitor

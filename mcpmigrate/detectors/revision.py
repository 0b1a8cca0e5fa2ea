"""The rest of revision 2026-07-28 (``specification/2026-07-28/changelog``): MCP602
http-sse-transport, MCP603 resource-not-found-code.

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
  constant; a comparison (``e.code == -32002``: reading an answer) is not.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, Kind
from mcpmigrate.codemods.revision import Rewrite, plan
from mcpmigrate.detectors._shared import CatalogVisitor, string_value
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.model import Safety
from mcpmigrate.screen import Facts

# -- MCP602 -----------------------------------------------------------------------------------
SSE_TRANSPORT_CLASSES = {"mcp.server.sse.SseServerTransport", "mcp.server.sse.SseServerTransport.connect_sse"}
SSE_APP_FACTORIES = {"fastmcp.server.http.create_sse_app", "fastmcp.server.create_sse_app"}
TRANSPORT_METHODS = {"run", "run_async", "http_app"}  # take transport="sse"
RENAMED_METHODS = {"sse_app": "streamable_http_app", "run_sse_async": "run_streamable_http_async"}
SSE_ONLY_KEYWORDS = {"mount_path", "sse_path", "message_path"}
STREAMABLE = "streamable-http"

_MSG_602 = (
    "The server is served over the HTTP+SSE transport ({what}); HTTP+SSE is deprecated "
    "(2026-07-28 changelog, SEP-2596) in favour of Streamable HTTP, which is the transport "
    '2026-07-28 clients speak. Serve Streamable HTTP (`transport="streamable-http"`, '
    "`streamable_http_app()`), and point client configurations at its endpoint (`/mcp` by default)."
)
_REVIEW_602 = (
    "(review: clients connect to the Streamable HTTP endpoint, `/mcp` by default, instead of `/sse`: "
    "update their configurations{dropped})"
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


class _SseVisitor(CatalogVisitor):
    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        fn = self.fn(node)
        q = self.a.qualname(func)
        if q in SSE_TRANSPORT_CLASSES or q in SSE_APP_FACTORIES:
            name = q.rsplit(".", 1)[-1]
            self.report("MCP602", node, _MSG_602.format(what=f"`{name}`"), manual=_MANUAL_TRANSPORT)
            return
        if not isinstance(func, cst.Attribute) or self.a.kind_of(func.value, fn) is not Kind.SERVER_HL:
            return
        attr = func.attr.value
        if attr in TRANSPORT_METHODS:
            arg = _transport_arg(node)
            if arg is None or string_value(arg.value) != "sse":
                return
            new = _string_like(arg.value, STREAMABLE)
            site = Rewrite(replace=[(arg.value, new)])
            self._planned(node, arg.value, f'`{attr}(transport="sse")`', site, attr == "http_app", fn)
        elif attr in RENAMED_METHODS:
            site = Rewrite(replace=[(func.attr, cst.Name(RENAMED_METHODS[attr]))])
            self._planned(node, node, f"`{attr}()`", site, attr == "sse_app", fn)

    def _planned(
        self, call: cst.Call, at: cst.CSTNode, what: str, site: Rewrite, app: bool, fn: FunctionInfo | None
    ) -> None:
        message = _MSG_602.format(what=what)
        if app and self._mounted(call):
            self.report("MCP602", at, message, manual=_MANUAL_MOUNTED)
            return
        dropped = [a for a in call.args if a.keyword is not None and a.keyword.value in SSE_ONLY_KEYWORDS]
        site.remove.extend(dropped)
        names = ", ".join(f"`{a.keyword.value}`" for a in dropped if a.keyword is not None)
        review = _REVIEW_602.format(dropped=f"; the SSE-only {names} goes" if names else "")
        self.reports.append(
            Report.planned(
                "MCP602", at, message, plan(site, Safety.UNSAFE, f"serve Streamable HTTP instead of SSE {review}")
            )
        )

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


def _transport_arg(call: cst.Call) -> cst.Arg | None:
    for i, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "transport":
            return arg
        if arg.keyword is None and not arg.star and i == 0:
            return arg
    return None


def _string_like(old: cst.BaseExpression, value: str) -> cst.SimpleString:
    quote = old.quote if isinstance(old, cst.SimpleString) else '"'
    prefix = old.prefix if isinstance(old, cst.SimpleString) else ""
    return cst.SimpleString(f"{prefix}{quote}{value}{quote}")


# -- MCP603 -----------------------------------------------------------------------------------
OLD_NOT_FOUND = 32002
NEW_NOT_FOUND = "-32602"

_MSG_603 = (
    "The server sends error code -32002 for a missing resource{where}; 2026-07-28 answers a missing "
    "resource with -32602 (Invalid Params; changelog, minor change 6) and keeps -32002 reserved, never "
    "reused, so a modern client does not recognise it. Send -32602 (on mcp 2.x, raise "
    "`ResourceNotFoundError`, which answers -32602 in both eras)."
)
_REVIEW_603 = (
    "use -32602 (review: a legacy client that matched -32002 sees -32602, as it does from mcp 2.x's "
    "own ResourceNotFoundError)"
)


def _screen_603(f: Facts) -> bool:
    return True  # numbers are not facts; the token (32002) is specific


class ResourceNotFoundCodeDetector(Detector):
    rules = ("MCP603",)
    tokens = (rb"32002",)
    screen = staticmethod(_screen_603)

    def detect(self) -> Iterable[Report]:
        v = _CodeVisitor(self.analysis)
        if v.client_module or not (self.analysis.imports_mcp() or _serves_jsonrpc(self.analysis)):
            return []
        self.analysis.flat.visit(v)
        return v.reports


def _serves_jsonrpc(a) -> bool:
    return any(isinstance(n, cst.SimpleString) and string_value(n) == "jsonrpc" for n in a.nodes(cst.SimpleString))


class _CodeVisitor(CatalogVisitor):
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
        fn = self.fn(node)
        where = f" in `{fn.name}`" if fn is not None else ""
        if isinstance(parent, cst.Assign) and fn is None:
            names = [t.target.value for t in parent.targets if isinstance(t.target, cst.Name)]
            where = f" (`{names[0]}`)" if names else where
        new = cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(NEW_NOT_FOUND[1:]))
        site = Rewrite(replace=[(node, new)])
        self.reports.append(
            Report.planned("MCP603", node, _MSG_603.format(where=where), plan(site, Safety.UNSAFE, _REVIEW_603))
        )

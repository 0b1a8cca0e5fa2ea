"""Server-to-client requests other than roots/sampling/elicitation: MCP203 server-ping,
MCP204 raw-server-request, MCP205 elicitation-complete.

Spec: 2026-07-28 changelog (no server-to-client requests; ``ping`` removed;
``notifications/elicitation/complete`` removed; a URL elicitation has no ``elicitationId``).
SDK: mcp 2.3 (``send_ping`` / ``send_request`` raise ``NoBackChannelError`` on a 2026
connection, ``send_elicit_complete`` is dropped); names in ``mcpmigrate/surfaces.py``. A raw
request says what it is whatever the receiver: ``types.ServerRequest(...)`` (mcp 1.x, the union of
server-to-client requests) or a ``PingRequest`` outside client code, also through a local name
(``req = …; send_request(req, …)``). The SDK helper ``mcp.server.elicitation.elicit_url(session,
message, url, elicitation_id)`` carries the id MCP205 reports.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo
from mcpmigrate.codemods import drop
from mcpmigrate.codemods.drop import ping_failure_expected, ping_is_loop_exit
from mcpmigrate.detectors._shared import (
    CatalogVisitor,
    dict_get,
    in_test_function,
    legacy_era_only,
    sent_payloads,
    string_value,
    walk,
)
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.model import Safety
from mcpmigrate.screen import server_requests as screen_server_requests


class ServerRequestsDetector(Detector):
    rules = ("MCP203", "MCP204", "MCP205")
    tokens = S.CATALOG_SEND_TOKENS
    screen = staticmethod(screen_server_requests)

    def detect(self) -> Iterable[Report]:
        v = _Visitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports  # MCP205's legacy-only label: drop.settle


_MSG_PING = (
    "The server pings the client; `ping` is removed in 2026-07-28 (mcp 2.x raises NoBackChannelError "
    "on a modern connection). Delete the call: a liveness check has no replacement."
)
_MSG_204 = (
    "The server sends its own request to the client; 2026-07-28 has no server-to-client requests "
    "(mcp 2.x raises NoBackChannelError). Ask inside a result instead: from tools/call, prompts/get or "
    "resources/read return an `InputRequiredResult` with the request under a key in `input_requests` "
    "(roots, sampling or elicitation only) and read the client's answer from `input_responses` on the retry."
)
_MSG_205 = (
    "`notifications/elicitation/complete` is removed in 2026-07-28 (mcp 2.x drops it on a modern "
    "connection); legacy clients still receive it. For 2026-07-28, correlate a URL elicitation through "
    "`requestState` instead of its id; delete the send once the project no longer serves legacy clients."
)
_MSG_205_ID = (
    "`elicitationId` is gone from URL elicitations in 2026-07-28 (and with it "
    "`notifications/elicitation/complete`). Don't correlate on it: carry what you need in `requestState`."
)


# What a server module imports (servers, contexts, sessions): without any, a module is no server.
_SERVER_SURFACE = frozenset(
    S.HIGH_LEVEL_SERVERS
    | S.LOWLEVEL_SERVERS
    | S.MCP_CONTEXT_V1
    | S.MCP_CONTEXT_V2
    | S.FASTMCP_CONTEXT
    | S.LOWLEVEL_CONTEXT
    | S.SESSION_TYPES
)


class _Visitor(CatalogVisitor):
    def __init__(self, analysis) -> None:
        super().__init__(analysis)
        self._inside_complete: set[int] = set()
        self._serves: bool | None = None

    @property
    def serves_requests(self) -> bool:
        """Computed on first need (a whole-module walk; most modules never ask)."""
        if self._serves is None:
            self._serves = self._serves_requests()
        return self._serves

    def _serves_requests(self) -> bool:
        """The module is a hand-rolled server: it dispatches on a client-to-server method."""
        for n in self.a.flat.order:
            if isinstance(n, (cst.Comparison, cst.MatchValue)):
                if any(s in S.SERVER_METHODS for _n, s in self.dispatch_literal(n)):
                    return True
            elif isinstance(n, cst.DictElement) and string_value(n.key) in S.SERVER_METHODS:
                return True
        return False

    def _client_side_id(self, node: cst.CSTNode) -> bool:
        """An ``elicitationId`` a client builds or reads, not one a server correlates on: client
        code or a test, in a module that imports no server surface (a URL elicitation's params
        handed to the client's own callback, a received payload parsed). A test that runs a server
        tool raising ``UrlElicitationRequiredError`` through a ``Client`` is still server code."""
        return (self.client_module or self._in_test(node)) and not self.a.memo(
            "server_requests.server_surface",
            lambda: any(_SERVER_SURFACE.intersection(self._spellings(v)) for v in self.a.imports.values()),
        )

    @staticmethod
    def _spellings(q: str) -> set[str]:
        """``q`` and the class a framework name stands for (``surfaces.FRAMEWORK_CLASSES``)."""
        return {q, S.FRAMEWORK_CLASSES.get(q, q)}

    def _in_test(self, node: cst.CSTNode) -> bool:
        return in_test_function(self.a, node)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        fn = self.fn(node)
        if isinstance(func, cst.Attribute) and legacy_era_only(self.a.parents, node):
            return  # the legacy half of a server written for both eras
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr == S.SEND_PING_ATTR and self.is_session(func.value, fn):
                self._removable("MCP203", node, _MSG_PING, "delete the ping")
            elif attr == S.SEND_REQUEST_ATTR:
                self._send_request(node, fn, self.is_session(func.value, fn))
            elif attr == S.SEND_ELICIT_COMPLETE_ATTR and self.is_session(func.value, fn):
                self._removable("MCP205", node, _MSG_205, "delete the send", id_arg=_id_arg(node))
            elif attr == S.SEND_NOTIFICATION_ATTR and (
                self.is_session(func.value, fn) or self.context_kind(func.value, fn)
            ):
                if any(
                    isinstance(n, cst.Call) and self.a.resolves_to(n.func, S.ELICIT_COMPLETE_NOTIFICATION)
                    for n in walk(node)
                ):
                    self._removable("MCP205", node, _MSG_205, "delete the send")
        q = self.a.qualname(func)
        # the SDK helper's id (requests-04); on `ctx.elicit_url` / `session.elicit_url` the id is a
        # required parameter of the push MCP202 reports, and goes with it
        id_at = S.SDK_ELICIT_HELPERS.get(q or "", (None, None))[1]
        if id_at is not None:
            self._elicitation_id(node, id_at)
        if q in S.ELICIT_URL_PARAMS and not self._client_side_id(node):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in S.ELICITATION_ID_KEYS:
                    self.report("MCP205", arg, _MSG_205_ID, manual="drop the id and correlate through requestState")
        elif q in S.JSONRPC_REQUEST and not self.client_module and self.serves_requests and not self._in_test(node):
            method = next((a for a in node.args if a.keyword is not None and a.keyword.value == "method"), None)
            if method is not None and string_value(method.value) in S.CLIENT_BOUND_OTHER:
                self.report("MCP204", node, _MSG_204, manual="a hand-built request cannot be rewritten automatically")
            elif method is not None and string_value(method.value) == S.PING_METHOD:
                self.report("MCP203", node, _MSG_PING, manual="delete the hand-built ping and the code that sends it")

    def _elicitation_id(self, node: cst.Call, index: int) -> None:
        """The ``elicitation_id`` a URL elicitation is pushed with (``session.elicit_url(message,
        url, elicitation_id)``, ``elicit_url(session, message, url, elicitation_id)``)."""
        positional = [a for a in node.args if a.keyword is None and not a.star]
        arg = next((a for a in node.args if a.keyword is not None and a.keyword.value == "elicitation_id"), None)
        if arg is None and len(positional) > index:
            arg = positional[index]
        if arg is not None:
            self.report("MCP205", arg, _MSG_205_ID, manual="drop the id and correlate through requestState")

    def _removable(
        self, rule: str, node: cst.Call, message: str, what: str, id_arg: cst.BaseExpression | None = None
    ) -> None:
        if id(node) not in self.bare:
            self.report(
                rule,
                node,
                message,
                manual=self.SHARED_LINE
                if self.shares_line(node)
                else "its result is used: remove the call and what depends on it by hand",
            )
            return
        if rule == "MCP203":
            loop_exit = ping_is_loop_exit(self.a, node) or ping_failure_expected(self.a, node)
            if loop_exit is not None:
                self.report(rule, node, message, manual=loop_exit)
                return
        safety, description = Safety.SAFE, what
        if isinstance(id_arg, cst.Name) and self.a.name_counts.get(id_arg.value, 0) > 2:
            # the id is used elsewhere: the send goes, what depended on the id needs a look
            safety = Safety.UNSAFE
            description = f"{what}; `{id_arg.value}` is used elsewhere for correlation: review it"
            message += f" `{id_arg.value}` is also used elsewhere: that correlation no longer happens at 2026-07-28."
        self.planned(rule, node, message, drop.plan(node, safety, description))

    def _send_request(self, node: cst.Call, fn: FunctionInfo | None, session: bool) -> None:
        """A raw request sent to the client: on a session, or on any receiver when the request
        says so itself — ``types.ServerRequest(...)`` (mcp 1.x: the union of server-to-client
        requests) or a ``PingRequest`` in a module that is not client code."""
        payloads = sent_payloads(self.a, node, fn)[1:]
        if not payloads:
            payload = next(
                (a.value for a in node.args if a.keyword is not None and a.keyword.value == "request"),
                node.args[0].value if node.args else None,
            )
            payloads = [payload] if payload is not None else []
        kinds = set()
        for n in (n for p in payloads for n in walk(p)):
            if isinstance(n, cst.Call):
                q = self.a.qualname(n.func)
                if q in S.PING_REQUEST:
                    kinds.add("ping")
                elif q in S.REQUEST_TYPES_WITH_OWN_RULE:
                    kinds.add("other-rule")
                elif q in S.SERVER_REQUEST:
                    kinds.add("server-request")
            elif isinstance(n, cst.Dict):
                m = dict_get(n, "method")
                s = string_value(m.value) if m is not None else None
                if s == S.PING_METHOD:
                    kinds.add("ping")
                elif s in S.CLIENT_BOUND_WITH_OWN_RULE:
                    kinds.add("other-rule")
        if not session and not ("server-request" in kinds or ("ping" in kinds and not self.client_module)):
            return
        if "ping" in kinds:
            self.report(
                "MCP203", node, _MSG_PING, manual="a raw ping request is not rewritten automatically: delete it"
            )
        elif not kinds - {"server-request"}:
            self.report(
                "MCP204", node, _MSG_204, manual="no automatic rewrite: move the question into an interim result"
            )

    def visit_Dict(self, node: cst.Dict) -> None:
        m = dict_get(node, "method")
        method = string_value(m.value) if m is not None else None
        if id(node) in self._inside_complete:
            return
        if method == S.ELICIT_COMPLETE_METHOD:
            self.report(
                "MCP205", node, _MSG_205, manual="delete the hand-built notification and the code that sends it"
            )
            self._inside_complete.update(id(n) for n in walk(node))
            return
        if (
            method in S.BIDIRECTIONAL_METHODS
            and dict_get(node, "id") is not None
            and self.is_jsonrpc_message(node)
            and self.serves_requests
            and not self.client_module
            and not self._in_test(node)
        ):
            # ping and tasks/* go both ways: only a module that serves MCP requests itself
            # (dispatches on tools/call, initialize …) is sending them *to the client*
            if method == S.PING_METHOD:
                self.report("MCP203", node, _MSG_PING, manual="delete the hand-built ping and the code that sends it")
            elif method in S.CLIENT_BOUND_OTHER:
                self.report("MCP204", node, _MSG_204, manual="a hand-built request cannot be rewritten automatically")
        for key in S.ELICITATION_ID_KEYS[:1]:
            el = dict_get(node, key)
            if el is not None and method is None and not self._client_side_id(node):
                self.report("MCP205", el, _MSG_205_ID, manual="drop the id and correlate through requestState")


def _id_arg(node: cst.Call) -> cst.BaseExpression | None:
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == "elicitation_id":
            return arg.value
    if node.args and node.args[0].keyword is None:
        return node.args[0].value
    return None

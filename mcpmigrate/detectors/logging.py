"""Protocol logging: MCP401 protocol-logging, MCP402 set-logging-level-handler.

Spec: 2026-07-28 changelog (Logging deprecated by SEP-2577; ``notifications/message`` is
request-scoped and sent only when the request carried the ``io.modelcontextprotocol/logLevel``
``_meta`` key; ``logging/setLevel`` removed). SDK: mcp 2.3 drops ctx logging at 2026-07-28 without the opt-in; fastmcp's argument order differs;
never match ``logging``/``loguru``/``structlog`` loggers or a click/typer ``ctx``: only a receiver
typed as an MCP context or session is matched (names in ``mcpmigrate/surfaces.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, code_of
from mcpmigrate.codemods import drop, stdlib_logging
from mcpmigrate.codemods.deletions import plan_route
from mcpmigrate.codemods.stdlib_logging import module_name
from mcpmigrate.detectors._shared import (
    CatalogVisitor,
    branch_condition,
    dict_get,
    sent_payloads,
    string_value,
    walk,
)
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.screen import logging as screen_logging


class LoggingDetector(Detector):
    rules = ("MCP401", "MCP402")
    tokens = S.LOGGING_TOKENS
    screen = staticmethod(screen_logging)

    def detect(self) -> Iterable[Report]:
        v = _Visitor(self.analysis)
        self.analysis.flat.visit(v)
        # the MCP401 labels that depend on the module's other log calls: stdlib_logging.settle;
        # MCP402's legacy-only label (kept while a log call remains): drop.settle
        return v.reports


_MSG_401 = (
    "{call} is MCP protocol logging: deprecated in 2026-07-28 (SEP-2577) and silently dropped on a "
    "modern connection unless the request opted in. Log with the standard library instead: "
    "`logger = logging.getLogger(__name__)` at module level and `logger.{method}(...)` (stderr on stdio "
    "servers; OpenTelemetry for observability)."
)
_MSG_401_HELD = (
    "{call} is MCP protocol logging on a session kept from an earlier request and used outside one: deprecated in "
    "2026-07-28 (SEP-2577), where `notifications/message` is request-scoped (sent only on the stream of a request "
    'that opted in with `_meta["io.modelcontextprotocol/logLevel"]`), so a broadcast outside any request never '
    "reaches a modern client. Send the fan-out to the standard library (`logger.{method}(...)`, stderr on stdio "
    "servers) or OpenTelemetry, or send it within each request that opted in."
)
_MSG_402 = (
    "`logging/setLevel` is removed in 2026-07-28 (the level arrives per request in "
    '`_meta["io.modelcontextprotocol/logLevel"]`), so this handler can never be reached on a modern '
    "connection; legacy clients still send it, and the registration declares the `logging` capability to "
    "them. Remove it once the project no longer serves legacy clients."
)


class _Visitor(CatalogVisitor):
    def __init__(self, analysis) -> None:
        super().__init__(analysis)
        # the local name of the stdlib `logging` (aliased when `logging` is something else here)
        self.logging_name = module_name(analysis, "logging")[0]

    # -- MCP401 ---------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        fn = self.fn(node)
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr in S.CONTEXT_LOG_LEVEL_METHODS or attr == S.CONTEXT_LOG_METHOD:
                kind = self.context_kind(func.value, fn)
                if kind is not None:
                    self._context_log(node, func, kind, fn)
            elif attr == S.SEND_LOG_MESSAGE_ATTR and self.is_session(func.value, fn):
                # a session held by an object (`self._session`) is used by its callers, often within a
                # request; one passed around or read from a registry outside any request is a broadcast
                held = not code_of(func.value).startswith("self.") and self._outside_requests(func.value, fn)
                self._send_log_message(node, func, held)
            elif (
                attr == S.SEND_NOTIFICATION_ATTR
                and node.args
                and (self.is_session(func.value, fn) or self.context_kind(func.value, fn))
            ):
                if any(
                    isinstance(n, cst.Call) and self.a.resolves_to(n.func, S.LOGGING_MESSAGE_NOTIFICATION)
                    for p in sent_payloads(self.a, node, fn, keyword="notification")[1:]
                    for n in walk(p)
                ):
                    self.report(
                        "MCP401",
                        node,
                        _MSG_401.format(call=f"`{_short(node)}`", method="info"),
                        manual="a hand-built LoggingMessageNotification is not rewritten automatically",
                    )
            elif attr == "add_request_handler" and node.args and string_value(node.args[0].value) == S.SET_LEVEL_METHOD:
                if id(node) in self.bare:
                    self.reports.append(
                        Report.planned(
                            "MCP402",
                            node,
                            _MSG_402,
                            drop.plan_set_level(
                                node,
                                "remove the handler registration",
                                "call",
                                _handler(node.args[-1].value) if len(node.args) > 1 else None,
                            ),
                        )
                    )
                else:
                    self.report("MCP402", node, _MSG_402, manual="remove the registration by hand")
        if self.a.resolves_to(func, S.LOWLEVEL_SERVERS):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == S.SET_LEVEL_KWARG:
                    self.reports.append(
                        Report.planned(
                            "MCP402",
                            arg,
                            _MSG_402,
                            drop.plan_set_level(
                                arg, "remove the on_set_logging_level handler", "kwarg", _handler(arg.value)
                            ),
                        )
                    )

    def _context_log(self, node: cst.Call, func: cst.Attribute, kind: Kind, fn: FunctionInfo | None) -> None:
        gen = self.a.generation_of_kind(kind)
        attr = func.attr.value
        pos = [a for a in node.args if a.keyword is None and not a.star]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        star = any(a.star for a in node.args)
        level: cst.BaseExpression | str | None
        extra: list[tuple[str, cst.BaseExpression]] = []
        extra_expr: cst.BaseExpression | None = None
        logger_name = kw.pop("logger_name", None)
        if attr != S.CONTEXT_LOG_METHOD:
            level = attr
            msg = pos[0].value if pos else kw.pop("message", None) or kw.pop("data", None)
            if gen == S.FASTMCP:
                if len(pos) > 1:
                    logger_name = pos[1].value
                if len(pos) > 2:
                    extra_expr = pos[2].value
                extra_expr = kw.pop("extra", extra_expr)
        elif gen == S.FASTMCP:
            # fastmcp: log(message, level=None, logger_name=None, extra=None); level None is "info"
            msg = pos[0].value if pos else kw.pop("message", None)
            level = pos[1].value if len(pos) > 1 else kw.pop("level", None)
            if len(pos) > 2:
                logger_name = pos[2].value
            if len(pos) > 3:
                extra_expr = pos[3].value
            extra_expr = kw.pop("extra", extra_expr)
            if level is None or (isinstance(level, cst.Name) and level.value == "None"):
                level = "info"
        else:
            # mcp: log(level, message / data, *, logger_name=None)
            level = pos[0].value if pos else kw.pop("level", None)
            msg = pos[1].value if len(pos) > 1 else kw.pop("message", None) or kw.pop("data", None)
        if gen == S.MCP1:
            extra = list(kw.items())  # 1.x info(message, **extra)
            kw = {}
        self._plan_401(node, level, msg, logger_name, extra, extra_expr, star or bool(kw), fastmcp=gen == S.FASTMCP)

    def _outside_requests(self, recv: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """The send runs outside any request: no context is at hand where it is, nor in any of
        its function's callers in the module (their callers, …), and no other module calls it
        (field case notify-14: a registry fan-out from a queue consumer)."""
        if self.in_request(recv, fn):
            return False
        seen: set[int] = set()
        todo = [fn]
        while todo:
            f = todo.pop()
            if f is None or id(f) in seen:
                continue
            seen.add(id(f))
            if f.role is not None or self.context_in_scope(f) is not None or self.a.external_callers(f):
                return False
            todo.extend(caller for caller, _call in self.a.callers(f))
        return fn is not None

    def _send_log_message(self, node: cst.Call, func: cst.Attribute, held: bool) -> None:
        pos = [a for a in node.args if a.keyword is None and not a.star]
        kw = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        names = ["level", "data", "logger", "related_request_id"]
        vals = dict(kw)
        for i, a in enumerate(pos[: len(names)]):
            vals[names[i]] = a.value
        unknown = set(vals) - set(names) or any(a.star for a in node.args)
        related = vals.get("related_request_id")
        deliberate = related is not None and not (isinstance(related, cst.Name) and related.value == "None")
        self._plan_401(
            node,
            vals.get("level"),
            vals.get("data"),
            vals.get("logger"),
            [],
            None,
            bool(unknown),
            deliberate,
            template=_MSG_401_HELD if held else _MSG_401,
        )

    def _plan_401(
        self,
        node: cst.Call,
        level: cst.BaseExpression | str | None,
        msg: cst.BaseExpression | None,
        logger_name: cst.BaseExpression | None,
        extra: list[tuple[str, cst.BaseExpression]],
        extra_expr: cst.BaseExpression | None,
        odd: bool,
        related: bool = False,
        fastmcp: bool = False,
        template: str = "",
    ) -> None:
        """Report one protocol log call with the plan of the ``logging`` fix
        (:func:`mcpmigrate.codemods.stdlib_logging.plan`); ``fastmcp``: a call on fastmcp's
        ``Context``, whose messages the SDK keeps delivering; ``related``: a
        ``related_request_id`` send; ``template``: the message (``_MSG_401`` unless the session is
        held outside any request)."""
        level_name = level if isinstance(level, str) else string_value(level)
        method = S.MCP_TO_STDLIB_LEVEL.get(level_name or "", None)
        message = (template or _MSG_401).format(call=f"`{_short(node)}`", method=method or "info")
        stmt = self.stmt_of.get(id(node)) if id(node) in self.bare else None
        send = stdlib_logging.LogSend(
            node,
            method,
            msg,
            logger_name,
            tuple(extra),
            extra_expr,
            odd,
            related,
            fastmcp,
            stmt,
            self.SHARED_LINE if stmt is None and self.shares_line(node) else None,
        )
        self.reports.append(Report.planned("MCP401", node, message, stdlib_logging.plan(self.a, send)))

    def visit_Dict(self, node: cst.Dict) -> None:
        m = dict_get(node, "method")
        method = string_value(m.value) if m is not None else None
        if method == S.LOG_MESSAGE_METHOD and dict_get(node, "jsonrpc") is not None and not self.client_module:
            self.report(
                "MCP401",
                node,
                _MSG_401.format(call="A hand-built `notifications/message`", method="info"),
                manual="hand-rolled JSON-RPC servers are not rewritten automatically",
            )
        if m is None and not self.client_module:
            for el in node.elements:
                if (
                    isinstance(el, cst.DictElement)
                    and string_value(el.key) == S.SET_LEVEL_METHOD
                    and self.is_route_handler(el.value)
                ):
                    self.planned("MCP402", el, _MSG_402, plan_route("remove this route; the method no longer exists"))

    # -- MCP402 ---------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        fn = self.a.by_node.get(node)
        for dec in node.decorators:
            d = dec.decorator
            target = d.func if isinstance(d, cst.Call) else d
            if isinstance(target, cst.Attribute) and target.attr.value == S.SET_LEVEL_DECORATOR:
                if self.a.kind_of(target.value, fn.parent if fn else None) is Kind.SERVER_LL:
                    self.reports.append(
                        Report.planned(
                            "MCP402",
                            dec,
                            _MSG_402,
                            drop.plan_set_level(
                                dec,
                                "remove the decorator (and the handler when nothing else uses it)",
                                "decorator",
                                node.name.value,
                            ),
                        )
                    )

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            tgt = t.target
            if (
                isinstance(tgt, cst.Subscript)
                and isinstance(tgt.value, cst.Attribute)
                and tgt.value.attr.value == "request_handlers"
            ):
                for el in tgt.slice:
                    if isinstance(el.slice, cst.Index) and self.a.resolves_to(el.slice.value, S.SET_LEVEL_REQUEST):
                        self.reports.append(
                            Report.planned(
                                "MCP402",
                                node,
                                _MSG_402,
                                drop.plan_set_level(
                                    node, "remove the handler registration", "assign", _handler(node.value)
                                ),
                            )
                        )

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if self.client_module or not branch_condition(self.a.parents, node):
            return
        for n, s in self.dispatch_literal(node):
            if s == S.SET_LEVEL_METHOD:
                self.planned(
                    "MCP402", n, _MSG_402, plan_route("remove this dispatch branch; the method no longer exists")
                )
                return

    def visit_MatchValue(self, node: cst.MatchValue) -> None:
        if self.client_module:
            return
        for n, s in self.dispatch_literal(node):
            if s == S.SET_LEVEL_METHOD:
                self.planned("MCP402", n, _MSG_402, plan_route("remove this case; the method no longer exists"))


def _handler(expr: cst.BaseExpression) -> str | None:
    return expr.value if isinstance(expr, cst.Name) else None


def _short(node: cst.Call) -> str:
    return code_of(node.func) + "(…)"

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
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis, code_of
from mcpmigrate.codemods import log_handlers
from mcpmigrate.codemods.effects import PURE_CALLS
from mcpmigrate.codemods.stdlib_logging import LOGGER, module_logger, module_name
from mcpmigrate.config import Config
from mcpmigrate.detectors._shared import (
    CatalogVisitor,
    branch_condition,
    dict_get,
    plan_legacy_only,
    sent_payloads,
    string_value,
    walk,
)
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.model import FixInfo, Safety
from mcpmigrate.screen import logging as screen_logging


class LoggingDetector(Detector):
    rules = ("MCP401", "MCP402")
    tokens = S.LOGGING_TOKENS
    screen = staticmethod(screen_logging)

    def detect(self) -> Iterable[Report]:
        v = _Visitor(self.analysis)
        self.analysis.flat.visit(v)
        sends = any(r.rule == "MCP401" for r in v.reports)
        _plan_fixes(self.analysis, self.config, [r for r in v.reports if r.rule == "MCP401"])
        return plan_legacy_only(self.config, v.reports, lambda _r: _STILL_LOGS if sends else None)


def _plan_fixes(a: ModuleAnalysis, config: Config, reports: list[Report]) -> None:
    """The MCP401 labels, once every call of the module is known: a tool whose only output is
    its protocol log messages keeps them (manual); a rewrite is unsafe when its messages were
    deliberately request-scoped (``related_request_id``) or its INFO/DEBUG record would reach no
    handler; where the module has an entry point, the fix configures a stderr handler there
    instead (``codemods/log_handlers.py``)."""
    by_fn: dict[int, list[Report]] = {}
    for r in reports:
        fn = a.enclosing_function(r.node)
        if fn is not None:
            by_fn.setdefault(id(fn.node), []).append(r)
    for rs in by_fn.values():
        fn = a.enclosing_function(rs[0].node)
        if fn is not None and any(r.fix for r in rs) and _only_output(fn, {id(r.node) for r in rs}):
            for r in rs:
                if r.fix is not None:
                    r.fix, r.manual = None, _ONLY_OUTPUT.format(fn=fn.qualname)
    fixed = [r for r in reports if r.fix is not None]
    quiet = [r for r in fixed if r.data["method"] in _BELOW_LAST_RESORT]
    main = None
    if quiet and not log_handlers.configured(a, config):
        main = log_handlers.main_block(a.module)
        level = "DEBUG" if any(r.data["method"] == "debug" for r in quiet) else "INFO"
        lg, sys_name = module_name(a, "logging")[0], module_name(a, "sys")[0]
        setup = f"`{lg}.basicConfig(stream={sys_name}.stderr, level={lg}.{level})`"
        for r in quiet:
            if main is not None:
                r.data["configure"] = level
                r.fix = FixInfo(r.fix.safety, r.fix.strategy, r.fix.description + _CONFIGURED.format(setup=setup))  # type: ignore[union-attr]
            else:
                r.data["reviews"].append(_NO_HANDLER.format(level=r.data["method"].upper(), setup=setup))
    sdk = log_handlers.hides_debug(a, config) if any(r.data["method"] == "debug" for r in fixed) else None
    for r in fixed:
        if sdk is not None and r.data["method"] == "debug":
            r.data["reviews"].append(_DEBUG_HIDDEN.format(sdk=sdk))
    for r in fixed:
        reviews = r.data["reviews"]
        if reviews:
            assert r.fix is not None
            r.fix = FixInfo(Safety.UNSAFE, r.fix.strategy, f"{r.fix.description} (review: {'; '.join(reviews)})")


def _only_output(fn: FunctionInfo, logs: set[int]) -> bool:
    """``fn`` is a tool whose protocol log messages (``logs``: ids of the calls) are all it does
    besides returning a fixed result: no other call than pure ones and sleeps, no store but to
    locals, and one result, built from literals only (field case notify-08)."""
    if fn.role not in _TOOL_ROLES or not isinstance(fn.node.body, cst.IndentedBlock):
        return False
    stack: list[cst.CSTNode] = list(fn.node.body.body)
    results: set[str] = set()
    while stack:
        n = stack.pop()
        if id(n) in logs:
            continue
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal, cst.Del, cst.Raise)):
            return False
        if isinstance(n, (cst.Yield, cst.AugAssign, cst.With, cst.Try)):
            return False
        if isinstance(n, cst.Call):
            name = (code_of(n.func).rsplit(".", 1)[-1]).strip()
            if not (name in PURE_CALLS or name in _QUIET_CALLS or name[:1].isupper()):
                return False
        if isinstance(n, cst.AssignTarget) and not isinstance(n.target, cst.Name):
            return False
        if isinstance(n, cst.Return) and n.value is not None:
            if _reads_data(n.value):
                return False
            results.add(code_of(n.value))
        stack.extend(n.children)
    return len(results) <= 1  # `return "invalid"` / `return "ok"`: the result says something


def _reads_data(expr: cst.BaseExpression) -> bool:
    """``expr`` reads a name other than a constructor (``TextContent``, ``types.TextContent``), a
    keyword or a constant."""
    calls = [c for c in walk(expr) if isinstance(c, cst.Call)]
    skip = {id(x) for c in calls if code_of(c.func).rsplit(".", 1)[-1][:1].isupper() for x in walk(c.func)}
    skip |= {id(arg.keyword) for c in calls for arg in c.args if arg.keyword}
    return any(
        isinstance(n, cst.Name) and id(n) not in skip and n.value not in ("None", "True", "False") for n in walk(expr)
    )


_MSG_401 = (
    "{call} is MCP protocol logging: deprecated in 2026-07-28 (SEP-2577) and silently dropped on a "
    "modern connection unless the request opted in. Log with the standard library instead: "
    "`logger = logging.getLogger(__name__)` at module level and `logger.{method}(...)` (stderr on stdio "
    "servers; OpenTelemetry for observability)."
)
_MSG_402 = (
    "`logging/setLevel` is removed in 2026-07-28 (the level arrives per request in "
    '`_meta["io.modelcontextprotocol/logLevel"]`), so this handler can never be reached on a modern '
    "connection; legacy clients still send it, and the registration declares the `logging` capability to "
    "them. Remove it once the project no longer serves legacy clients."
)
_ONLY_OUTPUT = (
    "these messages are all `{fn}` does besides returning a fixed result, and 2026-07-28 still delivers them on "
    'the request\'s own stream when the request opts in (`_meta["io.modelcontextprotocol/logLevel"]`, mcp 2.x '
    "`Client(log_level=...)`): moved to the standard library, clients would stop seeing them. Keep them while "
    "clients opt in (deprecated, SEP-2577), or return what they say in the tool's result"
)
_RELATED = (
    "the call passes `related_request_id`: its messages are deliberate output on this request's own stream, "
    'which 2026-07-28 still delivers when the request opts in (`_meta["io.modelcontextprotocol/logLevel"]`, '
    "mcp 2.x `Client(log_level=...)`); after the rewrite clients stop seeing them, only the server's log has them"
)
#: fastmcp 2.14, 3.4 and 4.2 ``Context.log`` (``fastmcp/server/context.py``) sends every message as
#: a ``notifications/message`` scoped to the request (``related_request_id``); fastmcp deprecates
#: none of it (fastmcp 4 keeps it "per compat directive", the mcp 2.x session underneath warns
#: ``MCPDeprecationWarning``) and on fastmcp 4 the mcp 2.x session delivers it to a 2026-07-28
#: request that carries the ``io.modelcontextprotocol/logLevel`` ``_meta`` key, which fastmcp's
#: own ``Client`` sets on every request.
_FASTMCP_DELIVERS = (
    "fastmcp (2, 3 and 4) still delivers {call} to clients: a legacy client receives it (fastmcp 3 and 4 hold "
    "back levels below one the client set with `logging/setLevel`), a 2026-07-28 client when the request opts in "
    'with `_meta["io.modelcontextprotocol/logLevel"]` (fastmcp\'s own `Client` always does); after the rewrite '
    "clients stop receiving this message, which then goes to the server's own logging only"
)
_NO_HANDLER = (
    "nothing in the project configures logging and the SDK does not (the low-level `Server` and fastmcp leave the "
    "root logger alone), so this {level} record reaches only Python's last-resort handler, which prints WARNING "
    "and above: clients saw the message, now nobody does; configure a handler at the entry point, e.g. {setup}"
)
_DEBUG_HIDDEN = (
    "`{sdk}` configures the root logger at its `log_level`, INFO by default, so this DEBUG record is printed "
    'nowhere: clients saw the message, now nobody does unless the server runs with `log_level="DEBUG"`'
)
_CONFIGURED = (
    '; nothing in the project configures logging, so {setup} is added under `if __name__ == "__main__":` '
    "(stderr on stdio servers)"
)
_BELOW_LAST_RESORT = ("debug", "info")
_TOOL_ROLES = ("tool", "lowlevel-tool")
#: Calls that produce nothing a client sees: waiting, and closing a stream the client reopens.
_QUIET_CALLS = frozenset({"sleep", "close_sse_stream", "close_standalone_sse_stream"})
_STILL_LOGS = (
    "the module still sends protocol log notifications (MCP401), and the registration is what declares the "
    "`logging` capability a server that sends them must declare: move them to the standard library first, "
    "then the registration can go"
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
                self._send_log_message(node, func)
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
                    self.report(
                        "MCP402",
                        node,
                        _MSG_402,
                        fix=FixInfo(Safety.SAFE, "remove", "remove the handler registration"),
                        form="call",
                        handler=_handler(node.args[-1].value) if len(node.args) > 1 else None,
                    )
                else:
                    self.report("MCP402", node, _MSG_402, manual="remove the registration by hand")
        if self.a.resolves_to(func, S.LOWLEVEL_SERVERS):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == S.SET_LEVEL_KWARG:
                    self.report(
                        "MCP402",
                        arg,
                        _MSG_402,
                        fix=FixInfo(Safety.SAFE, "remove", "remove the on_set_logging_level handler"),
                        form="kwarg",
                        handler=_handler(arg.value),
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
        delivered = _FASTMCP_DELIVERS.format(call=f"`{_short(node)}`") if gen == S.FASTMCP else None
        self._plan_401(node, level, msg, logger_name, extra, extra_expr, star or bool(kw), delivered=delivered)

    def _send_log_message(self, node: cst.Call, func: cst.Attribute) -> None:
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
            node, vals.get("level"), vals.get("data"), vals.get("logger"), [], None, bool(unknown), deliberate
        )

    def _plan_401(
        self,
        node: cst.Call,
        level,
        msg,
        logger_name,
        extra,
        extra_expr,
        odd: bool,
        related: bool = False,
        delivered: str | None = None,
    ) -> None:
        """Report one protocol log call; ``delivered`` is the review note of a call whose messages
        the SDK keeps delivering to clients (fastmcp's ``Context``), ``related`` marks a
        ``related_request_id`` send."""
        level_name = level if isinstance(level, str) else string_value(level)
        method = S.MCP_TO_STDLIB_LEVEL.get(level_name or "", None)
        message = _MSG_401.format(call=f"`{_short(node)}`", method=method or "info")
        why = None
        if odd:
            why = "the call has arguments the stdlib rewrite does not map"
        elif msg is None:
            why = "no message argument"
        elif method is None:
            why = "the level is not a literal MCP log level: pick the stdlib level by hand"
        elif id(node) not in self.bare:
            why = self.SHARED_LINE if self.shares_line(node) else "the call's result is used: rewrite it by hand"
        if why:
            self.report("MCP401", node, message, manual=why)
            return
        target = f"{self.logging_name}.getLogger({code_of(logger_name)})" if logger_name is not None else LOGGER
        args = _percent_form(msg)
        extra_code = None
        if extra:
            extra_code = "{" + ", ".join(f"{k!r}: {code_of(v)}" for k, v in extra) + "}"
        elif extra_expr is not None and not (isinstance(extra_expr, cst.Name) and extra_expr.value == "None"):
            extra_code = code_of(extra_expr)
        call = f"{target}.{method}({', '.join(args)}{', extra=' + extra_code if extra_code else ''})"
        reviews = [delivered] if delivered else []
        if extra_code:
            reviews.append("`extra` keys must not clash with LogRecord attributes")
        if related:
            reviews.append(_RELATED)
        stmt = self.stmt_of[id(node)]
        already = _logged_just_before(self.a, stmt, msg)
        if already is not None:  # the operator has the line already: a stdlib copy would log it twice
            self.report(
                "MCP401",
                node,
                message,
                fix=FixInfo(
                    Safety.SAFE, "logging", f"drop it: the statement before already logs the same message (`{already}`)"
                ),
                stmt=stmt,
                drop=True,
                method=None,
                reviews=reviews,
            )
            return
        desc = f"log with the standard library: `{call.replace(LOGGER, module_logger(self.a))}`"
        # the safety is settled in _plan_fixes, once every call of the module is known
        self.report(
            "MCP401",
            node,
            message,
            fix=FixInfo(Safety.SAFE, "logging", desc),
            stmt=self.stmt_of[id(node)],
            code=call,
            uses_module_logger=logger_name is None,
            method=method,
            reviews=reviews,
        )

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
                    self.report(
                        "MCP402", el, _MSG_402, manual="remove this route; the method no longer exists", route=True
                    )

    # -- MCP402 ---------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        fn = self.a.by_node.get(node)
        for dec in node.decorators:
            d = dec.decorator
            target = d.func if isinstance(d, cst.Call) else d
            if isinstance(target, cst.Attribute) and target.attr.value == S.SET_LEVEL_DECORATOR:
                if self.a.kind_of(target.value, fn.parent if fn else None) is Kind.SERVER_LL:
                    self.report(
                        "MCP402",
                        dec,
                        _MSG_402,
                        fix=FixInfo(
                            Safety.SAFE, "remove", "remove the decorator (and the handler when nothing else uses it)"
                        ),
                        form="decorator",
                        handler=node.name.value,
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
                        self.report(
                            "MCP402",
                            node,
                            _MSG_402,
                            fix=FixInfo(Safety.SAFE, "remove", "remove the handler registration"),
                            form="assign",
                            handler=_handler(node.value),
                        )

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if self.client_module or not branch_condition(self.a.parents, node):
            return
        for n, s in self.dispatch_literal(node):
            if s == S.SET_LEVEL_METHOD:
                self.report(
                    "MCP402", n, _MSG_402, manual="remove this dispatch branch; the method no longer exists", route=True
                )
                return

    def visit_MatchValue(self, node: cst.MatchValue) -> None:
        if self.client_module:
            return
        for n, s in self.dispatch_literal(node):
            if s == S.SET_LEVEL_METHOD:
                self.report("MCP402", n, _MSG_402, manual="remove this case; the method no longer exists", route=True)


def _handler(expr: cst.BaseExpression) -> str | None:
    return expr.value if isinstance(expr, cst.Name) else None


def _short(node: cst.Call) -> str:
    return code_of(node.func) + "(…)"


def _percent_form(msg: cst.BaseExpression) -> list[str]:
    """``f"Processing {x}"`` → ``['"Processing %s"', 'x']`` (lazy %-formatting); any other message
    unchanged. An f-string with format specs, ``=`` or ``!a`` stays an f-string."""
    if not isinstance(msg, cst.FormattedString) or msg.prefix.lower() != "f":
        return [code_of(msg)]
    args: list[str] = []
    pieces: list[str | None] = []  # text, or None for a placeholder
    conversions: list[str] = []
    for part in msg.parts:
        if isinstance(part, cst.FormattedStringText):
            pieces.append(part.value.replace("{{", "{").replace("}}", "}"))
        elif isinstance(part, cst.FormattedStringExpression):  # the only other kind of part
            conv = part.conversion
            if part.format_spec or part.equal or conv not in (None, "r", "s"):
                return [code_of(msg)]
            pieces.append(None)
            conversions.append("%r" if conv == "r" else "%s")
            args.append(code_of(part.expression))
    # without arguments logging does not %-format, so a literal % stays as written
    conv_iter = iter(conversions)
    text = "".join(next(conv_iter) if p is None else (p.replace("%", "%%") if args else p) for p in pieces)
    return [f"{msg.start[len(msg.prefix) :]}{text}{msg.end}"] + args


_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical"})


def _logged_just_before(a: ModuleAnalysis, stmt: cst.CSTNode, msg: cst.BaseExpression | None) -> str | None:
    """The statement right before ``stmt`` in its block when it logs ``msg`` (the same expression)
    through another logger — ``logger.error(error_msg)`` then ``await ctx.error(error_msg)``, as
    awslabs document-loader does — as code; else None. The protocol call is then dropped, not
    copied to a stdlib logger that would print the line a second time."""
    block = a.parents.get(id(stmt))
    body = getattr(block, "body", None)
    if msg is None or not isinstance(body, (list, tuple)) or stmt not in body:
        return None
    i = body.index(stmt)
    prev = body[i - 1] if i > 0 else None
    if not (isinstance(prev, cst.SimpleStatementLine) and len(prev.body) == 1 and isinstance(prev.body[0], cst.Expr)):
        return None
    call = prev.body[0].value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)):
        return None
    if call.func.attr.value not in _LOG_METHODS or not call.args or call.args[0].keyword is not None:
        return None
    if a.kind_of(call.func.value, a.enclosing_function(call)) is not None:
        return None  # an MCP context or session: a protocol log call itself
    return code_of(call) if code_of(call.args[0].value) == code_of(msg) else None

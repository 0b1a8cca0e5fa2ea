"""Change notifications and subscriptions: MCP301 list-changed-push, MCP302
resource-subscribe-handler.

Spec: 2026-07-28 changelog (``notifications/*/list_changed`` and ``notifications/resources/updated``
reach a client only on a ``subscriptions/listen`` stream it opened; ``resources/subscribe`` and
``resources/unsubscribe`` are removed, replaced by the listen filter ``resourceSubscriptions``).
SDK: mcp 2.3 drops the session sends at 2026-07-28; the ``ctx.notify_*`` helpers reach listen
streams only; low-level servers publish through ``ListenHandler(bus)``; emit both sends, or legacy
clients go deaf (names in ``mcpmigrate/surfaces.py``). A session kept from an earlier request and
used outside one (a registry broadcast) has no 2026-07-28 counterpart: mcp 2.x hands each request a
proxy, and the broadcast becomes ``bus.publish(ToolsListChanged())`` on the bus passed as
``MCPServer(subscriptions=bus)`` (``mcp.server.subscriptions``). The four change sends exist only on
``ServerSession`` (and mcp 2.x ``Connection``), so an untyped receiver of one is a session unless it
is provably something else. Hand-rolled servers: a relay that forwards messages whose method is a
change notification, and notifications whose method is an f-string, are pushes too.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, code_of
from mcpmigrate.codemods import subscription
from mcpmigrate.codemods.subscription_bus import all_servers
from mcpmigrate.detectors._relays import RelayVisitor, is_change
from mcpmigrate.detectors._shared import (
    branch_condition,
    dict_get,
    fastmcp_pinned,
    legacy_era_only,
    sent_payloads,
    string_value,
    walk,
)
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.model import Severity
from mcpmigrate.screen import notifications as screen_notifications


class NotificationsDetector(Detector):
    rules = ("MCP301", "MCP302")
    tokens = S.NOTIFICATION_TOKENS
    screen = staticmethod(screen_notifications)

    def detect(self) -> Iterable[Report]:
        v = _Visitor(self.analysis)
        v.legacy_clients = self.config.legacy_clients
        self.analysis.flat.visit(v)
        return v.reports


_MSG_301 = (
    "{send} pushes a change notification on the session; on 2026-07-28 it reaches a client only on a "
    "`subscriptions/listen` stream, so mcp 2.x silently drops this send on modern connections. {todo}"
)
# fastmcp 4's request-scoped `ctx.send_notification(...)`: delivered, but not where 2026-07-28 puts it
_MSG_301_SCOPED = (
    "{send} sends a change notification on the current request's stream; on 2026-07-28 the specification "
    "delivers change notifications only on a `subscriptions/listen` stream. {todo}"
)
_TODO_MCP2 = "Keep it for legacy clients and also call `await {ctx}.{helper}({args})` for 2026 listen streams."
_TODO_LL = (
    "Keep it for legacy clients and also publish `{event}` on a subscription bus served with "
    "`Server(..., on_subscriptions_listen=ListenHandler(bus))`."
)
_TODO_HELD = (
    "This session was kept from an earlier request and is used outside one: 2026-07-28 has no session to "
    "hold (mcp 2.x hands each request a proxy of its own), so the broadcast becomes a publish on the "
    "server's subscription bus: create `bus = InMemorySubscriptionBus()` (`mcp.server.subscriptions`), pass it "
    "as `MCPServer(..., subscriptions=bus)` and call `await bus.publish({event})` here; keep the session send "
    "only for legacy clients."
)
_TODO_V1 = (
    "{sdk} cannot serve 2026-07-28 at all: upgrade to mcp>=2.3 (`MCPServer`), then keep this send for "
    "legacy clients and add `await {ctx}.{helper}({args})` for listen streams."
)
_MSG_302 = (
    "`resources/subscribe` / `resources/unsubscribe` are removed in 2026-07-28: clients ask for updates with "
    "the `resourceSubscriptions` filter of `subscriptions/listen`. mcp 2.x `MCPServer` serves listen itself "
    "(publish with `await ctx.notify_resource_updated(uri)`); a low-level `Server` passes "
    "`on_subscriptions_listen=ListenHandler(bus)` and calls `await bus.publish(ResourceUpdated(uri=...))`. "
    "This handler only serves legacy clients."
)
_MANUAL_302 = "replace the subscription bookkeeping with subscriptions/listen (no automatic rewrite)"
_MSG_302_DUAL = (
    "`resources/subscribe` / `resources/unsubscribe` are removed in 2026-07-28; this server also serves "
    "`subscriptions/listen` (`on_subscriptions_listen=`), so this handler only answers handshake-era (legacy) "
    "clients, which is right while you support them. Remove it when you drop legacy clients."
)
_MANUAL_302_DUAL = "nothing to change while legacy clients are served; remove the handler when they are dropped"


def _manual_302_route(found: list[str], legacy_clients: bool) -> str:
    """The advice for a hand-rolled dispatch on ``resources/subscribe``/``unsubscribe``: it points
    at the method strings, never at the branch, which may also route methods that still exist
    (``found``: every method string the dispatch compares against)."""
    gone = [s for s in found if s in S.SUBSCRIBE_METHODS]
    kept = [s for s in found if s not in S.SUBSCRIBE_METHODS]
    names = ", ".join(f"`{s}`" for s in gone)
    keep = f"keep routing {', '.join(f'`{s}`' for s in kept)} (it still exists); " if kept else ""
    if legacy_clients:
        return (
            f"{keep}route {names} only on handshake-era connections (they do not exist on 2026-07-28; legacy "
            "clients still use them), and serve `subscriptions/listen` for 2026-07-28 clients"
        )
    return f"{keep}stop routing {names}; serve `subscriptions/listen` instead"


class _Visitor(RelayVisitor):
    def __init__(self, analysis) -> None:
        super().__init__(analysis)
        self._migrated: dict[int, set[str]] = {}
        self.legacy_clients = True

    # -- MCP301 ---------------------------------------------------------------------------
    def migrated_kinds(self, fn: FunctionInfo | None) -> set[str]:
        """Kinds (tools/prompts/resources/resource) already published to listen streams in the
        function (a dual send is the migrated form)."""
        key = id(fn)
        if key not in self._migrated:
            root = fn.node if fn is not None else self.a.module
            kinds: set[str] = set()
            by_helper = {v[1]: v[0] for v in S.LIST_CHANGED_SENDS.values()}
            by_event = {v[2]: v[0] for v in S.LIST_CHANGED_SENDS.values()}
            for n in self.a.flat.subtree(root):
                if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute):
                    if n.func.attr.value in by_helper:
                        kinds.add(by_helper[n.func.attr.value])
                    elif n.func.attr.value == "publish" and n.args and isinstance(n.args[0].value, cst.Call):
                        ev = self.full(n.args[0].value.func) or ""
                        if ev.split(".")[-1] in by_event:
                            kinds.add(by_event[ev.split(".")[-1]])
            self._migrated[key] = kinds
        return self._migrated[key]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        fn = self.fn(node)
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr in S.LIST_CHANGED_SENDS:
                if (
                    self.is_session(func.value, fn)
                    or self.context_kind(func.value, fn) is Kind.CONTEXT_FASTMCP
                    or self.session_by_method(func.value, fn, attr)
                ):
                    uri = node.args[0].value if node.args and attr == "send_resource_updated" else None
                    self._push(node, attr, func.value, fn, uri)
            elif attr == S.SEND_NOTIFICATION_ATTR and node.args:
                if self.is_session(func.value, fn) or self.context_kind(func.value, fn):
                    # the notification itself, or what the name handed over was bound to
                    payloads = sent_payloads(self.a, node, fn, keyword="notification")[1:]
                    send = next(filter(None, (self._notification_send(p) for p in payloads)), None)
                    if send is not None:
                        self._push(node, send, func.value, fn, None, via_notification=True)
            elif (
                attr == "add_request_handler" and node.args and string_value(node.args[0].value) in S.SUBSCRIBE_METHODS
            ):
                self.report("MCP302", node, _MSG_302, manual=_MANUAL_302)
        if self.a.resolves_to(func, S.LOWLEVEL_SERVERS):
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in S.SUBSCRIBE_KWARGS:
                    if any(a.keyword is not None and a.keyword.value == S.LISTEN_KWARG for a in node.args):
                        # kept next to a listen handler on purpose: modern clients never send
                        # resources/subscribe, handshake-era clients still do
                        self.report("MCP302", arg, _MSG_302_DUAL, manual=_MANUAL_302_DUAL, severity=Severity.ADVISORY)
                    else:
                        self.report("MCP302", arg, _MSG_302, manual=_MANUAL_302)

    def _notification_send(self, payload: cst.CSTNode) -> str | None:
        for n in walk(payload):
            if isinstance(n, cst.Call):
                short = self.short(n.func)
                if short in S.LIST_CHANGED_NOTIFICATIONS:
                    return S.LIST_CHANGED_NOTIFICATIONS[short]
        return None

    def listen_wired(self) -> bool:
        """A low-level ``Server(...)`` somewhere in the module (a factory included) is given
        ``on_subscriptions_listen=`` (any expression), or a ``subscriptions/listen`` request handler
        is added: the module serves 2026-07-28 listen streams. Asked once per module."""
        return self.a.memo(
            "notifications.listen_wired",
            lambda: any(
                isinstance(n, cst.Call)
                and (
                    (
                        self.a.resolves_to(n.func, S.LOWLEVEL_SERVERS)
                        and any(a.keyword is not None and a.keyword.value == S.LISTEN_KWARG for a in n.args)
                    )
                    # `server.add_request_handler("subscriptions/listen", …, ListenHandler(bus))`
                    # (how a fastmcp 4 app wires it on its `_mcp_server`)
                    or (
                        isinstance(n.func, cst.Attribute)
                        and n.func.attr.value == "add_request_handler"
                        and bool(n.args)
                        and string_value(n.args[0].value) == "subscriptions/listen"
                    )
                )
                for n in self.a.flat.subtree(self.a.module)
            ),
        )

    def _push(
        self,
        node: cst.Call,
        send: str,
        recv: cst.BaseExpression,
        fn: FunctionInfo | None,
        uri: cst.BaseExpression | None,
        via_notification: bool = False,
    ) -> None:
        kind, helper, event = S.LIST_CHANGED_SENDS[send]
        if kind in self.migrated_kinds(fn):
            return
        if legacy_era_only(self.a.parents, node) and (self.listen_wired() or kind in self.migrated_kinds(None)):
            return  # the legacy half of a dual send (the modern branch publishes to listen streams)
        if self.listen_wired() and kind in self.migrated_kinds(None):
            # a dual-era server: listen streams get the event from a bus publish elsewhere in the
            # module (e.g. the producer), and this session send serves handshake-era subscribers
            return
        shown = f"{code_of(recv)}.{'send_notification' if via_notification else send}(…)"
        gen = self.generation(recv, fn)
        args = code_of(uri) if uri is not None else ("uri" if kind == "resource" else "")
        ctx = self._mcp2_context(recv, fn) if gen == S.MCP2 else None
        request_scoped = False
        held = not self.in_request(recv, fn) and not (gen == S.MCP2 and all_servers(self.a))
        event_call = f"{event}({'uri=' + args if kind == 'resource' else ''})"
        if held and gen in (S.MCP1, S.MCP2, None):
            todo = _TODO_HELD.format(event=event_call)
            if gen != S.MCP2:
                todo = f"{'mcp 1.x' if gen == S.MCP1 else 'An SDK before mcp 2.3'} cannot serve 2026-07-28 at all: upgrade to mcp>=2.3. {todo}"
        elif gen == S.MCP2 and ctx is not None:
            todo = _TODO_MCP2.format(ctx=ctx, helper=helper, args=args)
        elif gen == S.MCP2:
            todo = _TODO_LL.format(event=event_call)
        elif gen == S.MCP1:
            todo = _TODO_V1.format(sdk="mcp 1.x", helper=helper, args=args, ctx=self._context_name(recv, fn))
        elif gen == S.FASTMCP:
            request_scoped = (
                via_notification and isinstance(recv, cst.Name) and self.a.kind_of(recv, fn) is Kind.CONTEXT_FASTMCP
            )
            todo = self._fastmcp_todo(kind, event, helper, request_scoped)
        else:
            todo = (
                "Keep it for legacy clients and also publish to 2026 listen streams (mcp 2.x: "
                f"`await {self._context_name(recv, fn)}.{helper}({args})`, or `bus.publish({event}(...))`)."
            )
        new, _pin = fastmcp_pinned(self.a) if request_scoped else (None, None)
        message = (_MSG_301_SCOPED if new else _MSG_301).format(send=f"`{shown}`", todo=todo)
        stmt = self.stmt_of.get(id(node)) if id(node) in self.bare else None
        push = subscription.Push(
            node,
            kind,
            helper,
            event,
            gen,
            ctx,
            uri,
            fn,
            stmt,
            self.SHARED_LINE if stmt is None and self.shares_line(node) else None,
            held,
            self._broadcast_loop(node, recv, fn),
            fastmcp_pinned(self.a)[0] if gen == S.FASTMCP else None,
        )
        self.reports.append(Report.planned("MCP301", node, message, subscription.plan(self.a, push)))

    def _broadcast_loop(self, node: cst.Call, recv: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """The send goes to a session other than the request's own (not rooted at a context),
        inside a loop or comprehension of its function: a broadcast to held sessions."""
        root = self.root_name(recv)
        if root is not None and self.a.kind_of(root, fn) in (CONTEXTS | {Kind.LL_CONTEXT}):
            return False
        cur = self.a.parents.get(id(node))
        while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module)):
            if isinstance(cur, (cst.For, cst.While, cst.CompFor)):
                return True
            cur = self.a.parents.get(id(cur))
        return False

    def _fastmcp_todo(self, kind: str, event: str, helper: str, request_scoped: bool = False) -> str:
        """What works on the fastmcp the project pins. fastmcp 4 (on mcp 2.x) serves no
        `subscriptions/listen` of its own (-32601), has no `ctx.notify_*` helper, and its
        `ctx.send_notification(...)` relates the notification to the current request, so it rides
        that request's stream (fastmcp.server.context.Context.send_notification): when the send is
        already that (``request_scoped``), it is not advised again."""
        new, pin = fastmcp_pinned(self.a)
        notification = S.LIST_CHANGED_NOTIFICATION_OF.get(kind)
        servers = [n for n, k in self.a.module_kinds.items() if k is Kind.SERVER_HL]
        app = servers[0] if len(servers) == 1 else "app"
        listen = (
            f'register a listen handler on the low-level server (`{app}._mcp_server.add_request_handler("subscriptions/'
            'listen", SubscriptionsListenRequestParams, ListenHandler(bus))`, `bus = InMemorySubscriptionBus()`, both '
            f"from `mcp.server.subscriptions`) and publish `{event}` on that bus"
        )
        on4 = (
            f"keep it for legacy clients; for 2026-07-28 clients {listen} (fastmcp 4 serves no `subscriptions/listen` "
            "itself)"
            + (
                f", or, as a stopgap the SDK delivers but the specification does not bless, send it request-scoped "
                f"with `await ctx.send_notification({notification}())`."
                if notification
                else "."
            )
        )
        if new and request_scoped:
            return (
                f"On fastmcp 4 ({pin}) it does reach 2026-07-28 clients that way, which the specification does not "
                f"bless; to conform, {listen} as well."
            )
        if new:
            return f"On fastmcp 4 ({pin}): " + on4
        if new is False:
            return (
                f"fastmcp 2.x/3.x ({pin}) runs on mcp<2 and cannot serve 2026-07-28: upgrade to fastmcp 4 "
                "(mcp>=2.3); there, " + on4
            )
        return "fastmcp 2.x/3.x cannot serve 2026-07-28 (upgrade to fastmcp 4 if this is one); on fastmcp 4: " + on4

    def _context_name(self, recv: cst.BaseExpression, fn: FunctionInfo | None) -> str:
        """How the hint spells the request's context: the receiver's root when it is one (``self``
        in a method of a Context subclass, a ``context`` parameter), else a context in scope, else
        ``ctx`` (field case notify-19)."""
        root = self.root_name(recv)
        if root is not None and self.a.kind_of(root, fn) in CONTEXTS:
            return root.value
        found = self.context_in_scope(fn)
        return found[0] if found is not None else "ctx"

    def _mcp2_context(self, recv: cst.BaseExpression, fn: FunctionInfo | None) -> str | None:
        root = self.root_name(recv)
        if root is not None and self.a.kind_of(root, fn) is Kind.CONTEXT_MCP2:
            return root.value
        found = self.context_in_scope(fn)
        if found is not None and found[1] is Kind.CONTEXT_MCP2:
            return found[0]
        return None

    def visit_Dict(self, node: cst.Dict) -> None:
        m = dict_get(node, "method")
        method = string_value(m.value) if m is not None else None
        if m is not None and isinstance(m.value, cst.FormattedString):
            method = next((x for x in sorted(self._formatted(m.value, self.fn(node))) if is_change(x)), None)
        if (
            method is not None
            and is_change(method)
            and dict_get(node, "jsonrpc") is not None
            and not self.client_module
        ):
            self.report(
                "MCP301",
                node,
                _MSG_301.format(
                    send=f"A hand-built `{method}`"
                    if isinstance(m and m.value, cst.SimpleString)
                    else f"A hand-built `{method}` (method built with an f-string)",
                    todo="Send it only on a `subscriptions/listen` stream the client opened (tagged with its subscriptionId).",
                ),
                manual="hand-rolled JSON-RPC servers are not rewritten automatically",
            )
        if m is None and not self.client_module:
            for el in node.elements:
                if (
                    isinstance(el, cst.DictElement)
                    and string_value(el.key) in S.SUBSCRIBE_METHODS
                    and self.is_route_handler(el.value)
                ):
                    self.report("MCP302", el, _MSG_302, manual=_MANUAL_302)

    # -- MCP302 ---------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        fn = self.a.by_node.get(node)
        for dec in node.decorators:
            d = dec.decorator
            target = d.func if isinstance(d, cst.Call) else d
            if isinstance(target, cst.Attribute) and target.attr.value in S.SUBSCRIBE_DECORATORS:
                if self.a.kind_of(target.value, fn.parent if fn else None) is Kind.SERVER_LL:
                    self.report("MCP302", dec, _MSG_302, manual=_MANUAL_302)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            tgt = t.target
            if (
                isinstance(tgt, cst.Subscript)
                and isinstance(tgt.value, cst.Attribute)
                and tgt.value.attr.value == "request_handlers"
            ):
                for el in tgt.slice:
                    if isinstance(el.slice, cst.Index) and self.a.resolves_to(el.slice.value, S.SUBSCRIBE_REQUESTS):
                        self.report("MCP302", node, _MSG_302, manual=_MANUAL_302)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if self.client_module or not branch_condition(self.a.parents, node):
            return
        self._relay(node)
        found = [s for _n, s in self.dispatch_literal(node)]
        if any(s in S.SUBSCRIBE_METHODS for s in found):
            self.report("MCP302", node, _MSG_302, manual=_manual_302_route(found, self.legacy_clients))

    def visit_MatchValue(self, node: cst.MatchValue) -> None:
        if self.client_module:
            return
        found = [s for _n, s in self.dispatch_literal(node)]
        if any(s in S.SUBSCRIBE_METHODS for s in found):
            self.report("MCP302", node, _MSG_302, manual=_manual_302_route(found, self.legacy_clients))

"""The ``subscription`` fix (MCP301): a pushed change notification also reaches 2026-07-28
``subscriptions/listen`` streams, and the session send stays for legacy clients (the listen-side
send never reaches a legacy client — mcp 2.3 ``ListenHandler`` streams exist only for 2026-07-28 clients — so a one-for-one rewrite
would silently deafen them).

- mcp 2.x ``MCPServer``: ``await ctx.session.send_tool_list_changed()`` is followed by
  ``await ctx.notify_tools_changed()`` (prompts, resources, ``notify_resource_updated(uri)``
  likewise).
- mcp 2.x low-level ``Server``: followed by ``await bus.publish(ToolsListChanged())``; the server
  gets ``on_subscriptions_listen=ListenHandler(bus)`` (an existing ``ListenHandler(<bus>)`` is
  reused) and ``bus = InMemorySubscriptionBus()`` goes where the handler sees it
  (:mod:`mcpmigrate.codemods.subscription_bus`): before a module-level ``server = Server(…)``; in
  a factory, right before the statement holding ``Server(…)`` (closures); before the factory at
  module level when a module function is the handler.

mcp 1.x and fastmcp <4 cannot serve 2026-07-28 and are reported, not rewritten.

The MCP301 detector reports what it found at a send (:class:`Push`); :func:`plan` decides the fix
and its site — :class:`ContextSend` or :class:`BusPublish` — which records its edits
(``docs/architecture.md``, "How a finding becomes a fix").
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.imports import name_uses
from mcpmigrate.codemods.subscription_bus import bus_site
from mcpmigrate.model import FixInfo, FixPlan, Safety

STRATEGY = "subscription"
RULES = ("MCP301",)


def _free_name(module: cst.Module, taken: set[str], *candidates: str) -> str:
    used = set(name_uses(module)) | taken
    for c in candidates:
        if c not in used:
            return c
    i = 2
    while f"{candidates[0]}{i}" in used:
        i += 1
    return f"{candidates[0]}{i}"


def _with_listen_arg(call: cst.Call, listen_arg: cst.Arg) -> cst.Call:
    """``Server(...)`` with ``on_subscriptions_listen=ListenHandler(bus)`` last, in the layout of the
    arguments before it."""
    args = list(call.args)
    last = args[-1]
    multiline = isinstance(last.comma, cst.Comma) or any(
        isinstance(a.comma, cst.Comma) and "\n" in code_of(a.comma) for a in args
    )
    if multiline and isinstance(last.comma, cst.Comma):
        # one argument per line with a trailing comma: same layout for the new one
        new = listen_arg.with_changes(comma=last.comma)
        prev_comma = args[-2].comma if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) else last.comma
        args[-1] = last.with_changes(comma=prev_comma)
        args.append(new)
    else:
        args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(listen_arg)
    return call.with_changes(args=args)


@dataclass(frozen=True)
class Push:
    """What the MCP301 detector found at one session change send (the input of :func:`plan`).

    ``kind``, ``helper``, ``event``: the send's row of ``surfaces.LIST_CHANGED_SENDS`` (``tools``,
    ``notify_tools_changed``, ``ToolsListChanged``); ``gen``: the SDK generation of the receiver
    (``surfaces.MCP1``/``MCP2``/``FASTMCP``, None when unknown); ``ctx``: the local name of the
    mcp 2.x context in scope; ``uri``: ``send_resource_updated``'s argument; ``fn``: the function
    the send is in; ``stmt``: the statement the call (or ``await`` of it) is alone in, None when
    it is part of a larger expression (``shared_line``: a whole statement on a line with others);
    ``held``: the session is kept from an earlier request; ``broadcast``: the send is in a loop
    over held sessions; ``fastmcp4``: the project pins fastmcp 4 (None: unknown)."""

    node: cst.Call
    kind: str
    helper: str
    event: str
    gen: str | None
    ctx: str | None
    uri: cst.BaseExpression | None
    fn: FunctionInfo | None
    stmt: cst.SimpleStatementLine | None
    shared_line: str | None
    held: bool
    broadcast: bool
    fastmcp4: bool | None


@dataclass(frozen=True)
class ContextSend:
    """mcp 2.x ``MCPServer``: ``await <ctx>.<helper>(<uri>)`` right after the session send ``stmt``."""

    stmt: cst.SimpleStatementLine
    ctx: str
    helper: str
    uri: cst.BaseExpression | None

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        uri = code_of(self.uri) if self.uri is not None else None
        _add_after(edits, self.stmt, f"await {self.ctx}.{self.helper}({uri or ''})")


@dataclass(frozen=True)
class BusPublish:
    """mcp 2.x low-level ``Server``: ``await <bus>.publish(<event>(...))`` right after the session
    send ``stmt``, on the bus ``server_call``'s listen handler serves: ``bus`` when the call already
    passes ``ListenHandler(<bus>)``, else one added before ``holder`` (a local of ``scope``, the
    factory, or a module global when ``scope`` is None) the first time a site of that server
    records, with ``on_subscriptions_listen=ListenHandler(bus)`` in the call."""

    stmt: cst.SimpleStatementLine
    event: str
    uri: cst.BaseExpression | None
    server_call: cst.Call
    bus: str | None
    holder: cst.BaseStatement
    scope: cst.FunctionDef | None

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        uri = code_of(self.uri) if self.uri is not None else None
        # id(server call) -> (bus added, its function)
        buses: dict[int, tuple[str, cst.FunctionDef | None]] = edits.shared("subscription.buses", dict)
        known = buses.get(id(self.server_call))
        bus = self.bus or (known[0] if known else None)
        if bus is None:
            # a local bus only avoids the module's buses and the other locals of its factory
            scope = self.scope
            taken = {n for n, s in buses.values() if scope is None or s is None or s is scope}
            bus = _add_bus(analysis, edits, self, taken)
            buses[id(self.server_call)] = (bus, scope)
        event = edits.import_name(analysis, S.SUBSCRIPTIONS_MODULE, self.event)
        _add_after(edits, self.stmt, f"await {bus}.publish({event}({'uri=str(' + uri + ')' if uri else ''}))")


def _add_after(edits: Edits, stmt: cst.SimpleStatementLine, code: str) -> None:
    """``code`` as a statement right after ``stmt`` (after what other sites added there already)."""
    after: dict[int, list[cst.BaseStatement]] = edits.shared("subscription.after", dict)
    new = after.get(id(stmt))
    if new is None:
        new = after[id(stmt)] = []
        edits.transform(stmt, lambda _o, u: cst.FlattenSentinel([u, *new]))
    new.append(cst.parse_statement(code + "\n"))


def _add_bus(analysis: ModuleAnalysis, ed: Edits, site: BusPublish, taken: set[str]) -> str:
    """``bus = InMemorySubscriptionBus()`` right before ``site.holder`` (the statement that
    creates the server, or at module level the one holding its factory), with the blank lines and
    comments that stood above it, and ``on_subscriptions_listen=ListenHandler(bus)`` in the call."""
    holders: set[int] = ed.shared("subscription.holders", set)
    name = _free_name(analysis.module, taken, "bus", "subscription_bus")
    holder = site.holder
    bus_cls = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, "InMemorySubscriptionBus")
    listen = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, "ListenHandler")
    line = cst.parse_statement(f"{name} = {bus_cls}()\n")
    if isinstance(holder, (cst.FunctionDef, cst.ClassDef)):
        # before a factory: the factory keeps its comments and blank lines, the bus gets the blanks
        line = line.with_changes(leading_lines=[e for e in holder.leading_lines if e.comment is None])
    elif id(holder) not in holders:  # a second bus before the same statement keeps no comments
        holders.add(id(holder))
        line = line.with_changes(leading_lines=holder.leading_lines)  # type: ignore[attr-defined]  # every statement has them
        ed.transform(holder, lambda _o, u: u.with_changes(leading_lines=[]))
    ed.insert_before(holder, [line])
    listen_arg = cst.Arg(
        keyword=cst.Name(S.LISTEN_KWARG),
        value=cst.parse_expression(f"{listen}({name})"),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )
    ed.transform(site.server_call, lambda _o, u, arg=listen_arg: _with_listen_arg(u, arg))  # type: ignore[misc]
    return name


def plan(a: ModuleAnalysis, push: Push) -> FixPlan:
    """The MCP301 plan for one session change send: a :class:`ContextSend` (mcp 2.x ``MCPServer``)
    or a :class:`BusPublish` (mcp 2.x low-level ``Server``), else the reason it is left for a
    human (an SDK with no listen stream, a send inside a larger expression or a sync function, a
    computed uri, a held session, a broadcast loop). Spec: 2026-07-28 changelog, change
    notifications reach a client only on ``subscriptions/listen``; SDK names in
    ``mcpmigrate/surfaces.py``."""
    out = _plan(a, push)
    if push.held and out.manual is not None and push.gen == S.MCP2:
        return FixPlan(
            manual="the session is held outside a request: publish on the server's subscription bus "
            "(`MCPServer(subscriptions=bus)`) by hand"
        )
    if out.fix is not None and push.broadcast:
        # one listen-stream publish reaches every subscriber: the fix would add one per session
        return FixPlan(
            manual=f"the send is in a loop over held sessions: add one `await {push.ctx or 'ctx'}.{push.helper}(…)` "
            "(or bus publish) after the loop by hand"
        )
    return out


def _plan(a: ModuleAnalysis, push: Push) -> FixPlan:
    """:func:`plan` before the held-session and broadcast-loop exceptions."""
    gen, fn = push.gen, push.fn
    if gen != S.MCP2:
        if gen == S.FASTMCP:
            return FixPlan(
                manual=(
                    "fastmcp has no listen-stream helper to pair this with: "
                    + ("" if push.fastmcp4 else "on fastmcp 4, ")
                    + "register a ListenHandler on the low-level server and publish on its bus by hand"
                )
            )
        sdk = "mcp 1.x" if gen == S.MCP1 else "this SDK"
        return FixPlan(
            manual=f"{sdk} has no subscriptions/listen: upgrade the SDK (mcp>=2.3), then add the listen-stream send"
        )
    if push.stmt is None:
        return FixPlan(
            manual=push.shared_line or "the send is part of a larger expression: add the listen-stream send by hand"
        )
    if fn is not None and not fn.is_async:
        # the added `await …` needs an async function (found by the fuzz harness)
        return FixPlan(manual=f"`{fn.qualname}` is not async: add the listen-stream send by hand")
    if push.kind == "resource" and not _simple(push.uri):
        return FixPlan(manual="the uri is not a plain name or literal: add the listen-stream send by hand")
    if push.ctx is not None:
        return FixPlan(
            FixInfo(
                Safety.SAFE,
                STRATEGY,
                f"keep the session send for legacy clients and add `await {push.ctx}.{push.helper}(…)` for 2026 listen streams",
            ),
            site=ContextSend(push.stmt, push.ctx, push.helper, push.uri),
        )
    # low-level server (2.x): publish on a bus that the server's listen handler serves
    if fn is None:
        return FixPlan(manual="no request context here: publish on the server's subscription bus by hand")
    site = bus_site(a, fn)
    if isinstance(site, str):
        return FixPlan(manual=site)
    listen = next(
        (x for x in site.server_call.args if x.keyword is not None and x.keyword.value == S.LISTEN_KWARG), None
    )
    bus: str | None = None
    if listen is not None:
        v = listen.value
        if (
            isinstance(v, cst.Call)
            and a.resolves_to(v.func, S.LISTEN_HANDLER)
            and v.args
            and isinstance(v.args[0].value, cst.Name)
        ):
            bus = v.args[0].value.value
        else:
            return FixPlan(
                manual="the server's listen handler is not `ListenHandler(<bus>)`: publish on its bus by hand"
            )
    where = ""
    if bus is None and site.shared and site.factory is not None:
        where = f" (a module-level bus, shared by every server `{site.factory.qualname}` builds)"
    elif bus is None and site.factory is not None:
        where = f" (a local of `{site.factory.qualname}`, seen by its handlers)"
    return FixPlan(
        FixInfo(
            Safety.SAFE,
            STRATEGY,
            f"keep the session send for legacy clients and publish `{push.event}` on the subscription bus served by "
            f"`on_subscriptions_listen`{where}",
        ),
        site=BusPublish(
            push.stmt,
            push.event,
            push.uri,
            site.server_call,
            bus,
            site.holder,
            None if site.shared or site.factory is None else site.factory.node,
        ),
    )


def _simple(expr: cst.BaseExpression | None) -> bool:
    """A plain name or literal (no call, await, yield, walrus or lambda in it)."""
    if expr is None:
        return False
    return not any(isinstance(n, (cst.Call, cst.Await, cst.Yield, cst.NamedExpr, cst.Lambda)) for n in walk(expr))

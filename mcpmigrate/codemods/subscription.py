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
  (``mcpmigrate/detectors/_lowlevel_bus.py``): before a module-level ``server = Server(…)``; in
  a factory, right before the statement holding ``Server(…)`` (closures); before the factory at
  module level when a module function is the handler.

mcp 1.x and fastmcp <4 cannot serve 2026-07-28 and are reported, not rewritten.
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis, code_of
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.imports import name_uses
from mcpmigrate.config import Config

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


def _add_bus(analysis: ModuleAnalysis, ed: Edits, d: dict, taken: set[str], holders: set[int]) -> str:
    """``bus = InMemorySubscriptionBus()`` right before ``d["bus_holder"]`` (the statement that
    creates the server, or at module level the one holding its factory), with the blank lines and
    comments that stood above it, and ``on_subscriptions_listen=ListenHandler(bus)`` in the call."""
    name = _free_name(analysis.module, taken, "bus", "subscription_bus")
    holder = d["bus_holder"]
    bus_cls = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, "InMemorySubscriptionBus")
    listen = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, "ListenHandler")
    line = cst.parse_statement(f"{name} = {bus_cls}()\n")
    if isinstance(holder, (cst.FunctionDef, cst.ClassDef)):
        # before a factory: the factory keeps its comments and blank lines, the bus gets the blanks
        line = line.with_changes(leading_lines=[e for e in holder.leading_lines if e.comment is None])
    elif id(holder) not in holders:  # a second bus before the same statement keeps no comments
        holders.add(id(holder))
        line = line.with_changes(leading_lines=holder.leading_lines)
        ed.transform(holder, lambda _o, u: u.with_changes(leading_lines=[]))
    ed.insert_before(holder, [line])
    listen_arg = cst.Arg(
        keyword=cst.Name(S.LISTEN_KWARG),
        value=cst.parse_expression(f"{listen}({name})"),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )
    ed.transform(d["server_call"], lambda _o, u, arg=listen_arg: _with_listen_arg(u, arg))  # type: ignore[misc]
    return name


def edits(analysis: ModuleAnalysis, findings: list, config: Config) -> Edits:
    """After each change notification sent on the session, the same change published for
    2026-07-28 listeners (the bus and its listen handler added once)."""
    ed = Edits()
    after: dict[int, tuple[cst.SimpleStatementLine, list[cst.BaseStatement]]] = {}
    buses: dict[int, tuple[str, cst.FunctionDef | None]] = {}  # id(server call) -> (bus added, its function)
    holders: set[int] = set()
    for f in findings:
        d = f.data
        stmt = d.get("stmt")
        if stmt is None:
            continue
        uri = code_of(d["uri"]) if d.get("uri") is not None else None
        if d.get("form") == "context":
            code = f"await {d['ctx']}.{d['helper']}({uri or ''})"
        elif d.get("form") == "bus":
            known = buses.get(id(d["server_call"]))
            bus = d["bus"] or (known[0] if known else None)
            if bus is None:
                # a local bus only avoids the module's buses and the other locals of its factory
                scope = d["bus_scope"]
                taken = {n for n, s in buses.values() if scope is None or s is None or s is scope}
                bus = _add_bus(analysis, ed, d, taken, holders)
                buses[id(d["server_call"])] = (bus, scope)
            event = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, d["event"])
            code = f"await {bus}.publish({event}({'uri=str(' + uri + ')' if uri else ''}))"
        else:
            continue
        after.setdefault(id(stmt), (stmt, []))[1].append(cst.parse_statement(code + "\n"))
    for stmt, new in after.values():  # the new statements right after the session send
        ed.transform(stmt, lambda _o, u, new=new: cst.FlattenSentinel([u, *new]))  # type: ignore[misc]
    return ed

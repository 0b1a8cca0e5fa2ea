"""The ``subscription`` fix (MCP301): a pushed change notification also reaches 2026-07-28
``subscriptions/listen`` streams, and the session send stays for legacy clients (the listen-side
send never reaches a legacy client — mcp 2.3 ``ListenHandler`` streams exist only for 2026-07-28 clients — so a one-for-one rewrite
would silently deafen them).

- mcp 2.x ``MCPServer``: ``await ctx.session.send_tool_list_changed()`` is followed by
  ``await ctx.notify_tools_changed()`` (prompts, resources, ``notify_resource_updated(uri)``
  likewise).
- mcp 2.x low-level ``Server``: followed by ``await bus.publish(ToolsListChanged())``; the module
  gets ``bus = InMemorySubscriptionBus()`` and the server ``on_subscriptions_listen=ListenHandler(bus)``
  (an existing ``ListenHandler(<bus>)`` is reused).

mcp 1.x and fastmcp <4 cannot serve 2026-07-28 and are reported, not rewritten.
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.imports import name_uses
from mcpmigrate.config import Config

STRATEGY = "subscription"
RULES = ("MCP301",)


def _free_name(module: cst.Module, *candidates: str) -> str:
    used = name_uses(module)
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


def edits(analysis: ModuleAnalysis, findings: list, config: Config) -> Edits:
    """After each change notification sent on the session, the same change published for
    2026-07-28 listeners (the bus and its listen handler added once)."""
    module = analysis.module
    ed = Edits()
    after: dict[int, tuple[cst.SimpleStatementLine, list[cst.BaseStatement]]] = {}
    bus_name: str | None = None
    for f in findings:
        d = f.data
        stmt = d.get("stmt")
        if stmt is None:
            continue
        uri = code_of(d["uri"]) if d.get("uri") is not None else None
        if d.get("form") == "context":
            code = f"await {d['ctx']}.{d['helper']}({uri or ''})"
        elif d.get("form") == "bus":
            if d.get("bus"):
                bus = d["bus"]
            else:
                if bus_name is None:
                    bus_name = _free_name(module, "bus", "subscription_bus")
                    server_call = d["server_call"]
                    holder = next((s for s in module.body if any(n is server_call for n in walk(s))), None)
                    if holder is None:
                        continue
                    # the bus goes before the statement that creates the server, with the blank
                    # lines and comments that stood above it
                    bus_cls = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, "InMemorySubscriptionBus")
                    listen = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, "ListenHandler")
                    ed.insert_before(
                        holder,
                        [
                            cst.parse_statement(f"{bus_name} = {bus_cls}()\n").with_changes(
                                leading_lines=holder.leading_lines
                            )
                        ],
                    )
                    ed.transform(holder, lambda _o, u: u.with_changes(leading_lines=[]))
                    listen_arg = cst.Arg(
                        keyword=cst.Name(S.LISTEN_KWARG),
                        value=cst.parse_expression(f"{listen}({bus_name})"),
                        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
                    )
                    ed.transform(server_call, lambda _o, u, arg=listen_arg: _with_listen_arg(u, arg))  # type: ignore[misc]
                bus = bus_name
            event = ed.import_name(analysis, S.SUBSCRIPTIONS_MODULE, d["event"])
            code = f"await {bus}.publish({event}({'uri=str(' + uri + ')' if uri else ''}))"
        else:
            continue
        after.setdefault(id(stmt), (stmt, []))[1].append(cst.parse_statement(code + "\n"))
    for stmt, new in after.values():  # the new statements right after the session send
        ed.transform(stmt, lambda _o, u, new=new: cst.FlattenSentinel([u, *new]))  # type: ignore[misc]
    return ed

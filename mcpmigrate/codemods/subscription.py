"""The ``subscription`` fix (MCP301): a pushed change notification also reaches 2026-07-28
``subscriptions/listen`` streams, and the session send stays for legacy clients (the listen-side
send never reaches a legacy client: ``mcp-python-surfaces.md`` §11.1, so a one-for-one rewrite
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
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.imports import name_uses
from mcpmigrate.config import Config

STRATEGY = "subscription"
ALWAYS = True
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


class _Inserter(cst.CSTTransformer):
    def __init__(self, after: dict[int, list[cst.BaseStatement]], before: dict[int, list[cst.BaseStatement]],
                 server_call: cst.Call | None, listen_arg: cst.Arg | None) -> None:
        self.after = after
        self.before = before
        self.server_call = server_call
        self.listen_arg = listen_arg

    def _splice(self, original_body, updated_body):
        out = []
        for orig, upd in zip(original_body, updated_body):
            ahead = list(self.before.get(id(orig), ()))
            if ahead:
                # the new statements take the blank lines/comments that stood above the old one
                ahead[0] = ahead[0].with_changes(leading_lines=upd.leading_lines)
                upd = upd.with_changes(leading_lines=[])
            out.extend(ahead)
            out.append(upd)
            out.extend(self.after.get(id(orig), ()))
        return out

    def leave_IndentedBlock(self, original_node, updated_node):
        return updated_node.with_changes(body=self._splice(original_node.body, updated_node.body))

    def leave_Module(self, original_node, updated_node):
        return updated_node.with_changes(body=self._splice(original_node.body, updated_node.body))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if self.server_call is None or original_node is not self.server_call or self.listen_arg is None:
            return updated_node
        args = list(updated_node.args)
        last = args[-1]
        multiline = isinstance(last.comma, cst.Comma) or any(
            isinstance(a.comma, cst.Comma) and "\n" in code_of(a.comma) for a in args)
        if multiline and isinstance(last.comma, cst.Comma):
            # one argument per line with a trailing comma: same layout for the new one
            new = self.listen_arg.with_changes(comma=last.comma)
            prev_comma = args[-2].comma if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) else last.comma
            args[-1] = last.with_changes(comma=prev_comma)
            args.append(new)
        else:
            args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(self.listen_arg)
        return updated_node.with_changes(args=args)


def apply(module: cst.Module, analysis: ModuleAnalysis, findings: list, config: Config):
    after: dict[int, list[cst.BaseStatement]] = {}
    before: dict[int, list[cst.BaseStatement]] = {}
    imports: set[tuple[str, str]] = set()
    applied = []
    server_call: cst.Call | None = None
    listen_arg: cst.Arg | None = None
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
                    before[id(holder)] = [cst.parse_statement(f"{bus_name} = InMemorySubscriptionBus()\n")]
                    listen_arg = cst.Arg(keyword=cst.Name(S.LISTEN_KWARG), value=cst.parse_expression(f"ListenHandler({bus_name})"),
                                         equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
                    imports.add((S.SUBSCRIPTIONS_MODULE, "InMemorySubscriptionBus"))
                    imports.add((S.SUBSCRIPTIONS_MODULE, "ListenHandler"))
                bus = bus_name
            event = d["event"]
            imports.add((S.SUBSCRIPTIONS_MODULE, event))
            code = f"await {bus}.publish({event}({'uri=str(' + uri + ')' if uri else ''}))"
        else:
            continue
        after.setdefault(id(stmt), []).append(cst.parse_statement(code + "\n"))
        applied.append(f)
    if not applied:
        return module, [], []
    new = module.visit(_Inserter(after, before, server_call, listen_arg))
    if imports:
        ctx = CodemodContext()
        for mod, name in sorted(imports):
            AddImportsVisitor.add_needed_import(ctx, mod, name)
        new = AddImportsVisitor(ctx).transform_module(new)
    return new, applied, []



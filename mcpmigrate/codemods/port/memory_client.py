"""mcp 1.x's in-memory test helper → mcp 2.x's ``Client`` (MCP509, the port to mcp 2.x).

mcp 2.x removed ``mcp.shared.memory.create_connected_server_and_client_session`` (the SDK's
migration guide, “``create_connected_server_and_client_session`` removed”): a test connects to a
server in-process with ``mcp.Client(server)`` (``mcp/client/client.py``: a ``Server`` or an
``MCPServer`` is connected in memory; entering it connects and initializes, as the 1.x helper
did). The fix::

    from mcp.shared.memory import create_connected_server_and_client_session
                                                              →   from mcp import Client
    async with create_connected_server_and_client_session(app._mcp_server) as client:
        r = await client.call_tool("add", {"a": 1})               async with Client(app) as client:
                                                                      r = await client.call_tool("add", {"a": 1})

- the server argument is passed as is, but for a 1.x ``FastMCP``'s private ``_mcp_server`` (gone on
  mcp 2.x): ``Client`` takes the ``MCPServer`` itself and connects to its low-level server;
- the helper's keywords are ``Client``'s fields under the same names (``sampling_callback``,
  ``list_roots_callback``, ``logging_callback``, ``message_handler``, ``client_info``,
  ``raise_exceptions``, ``elicitation_callback``); with a ``logging_callback`` the client keeps
  the legacy era (``mode="legacy"``): on a 2026-07-28 connection log messages reach a client only
  for requests that opt in (``Client.log_level``);
- what the block does with the session is what ``Client`` offers under the same names
  (``call_tool``, ``list_tools``, ``read_resource``, ``get_prompt`` … return the same result
  classes; their camelCase fields are MCP506's).

Manual, with what to change, where a use is not that: the helper called other than as
``helper(server, **keywords)`` bound by ``async with … as name``, a keyword with another type
on mcp 2.x (``read_timeout_seconds``: a ``timedelta`` there, seconds here), or the session used
other than by those methods (passed to a function, ``send_request``, ``initialize`` …: mcp 2.x's
``ClientSession`` is ``client.session``, with its own API).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import Kind, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import name_refs

HELPER = "mcp.shared.memory.create_connected_server_and_client_session"
CLIENT = ("mcp", "Client")
# The helper's keywords that are `Client` fields of the same name and type (mcp 1.27 / mcp 2.3).
SAME_KEYWORDS = frozenset(
    {
        "sampling_callback",
        "list_roots_callback",
        "logging_callback",
        "message_handler",
        "client_info",
        "raise_exceptions",
        "elicitation_callback",
    }
)
# What a 1.27 `ClientSession` and a 2.3 `Client` both offer under one name, with the same result.
SESSION_METHODS = frozenset(
    {
        "call_tool",
        "complete",
        "get_prompt",
        "list_prompts",
        "list_resource_templates",
        "list_resources",
        "list_tools",
        "read_resource",
        "send_ping",
        "send_progress_notification",
        "send_roots_list_changed",
        "set_logging_level",
        "subscribe_resource",
        "unsubscribe_resource",
    }
)

FIX = FixInfo(
    Safety.SAFE,
    "port",
    "connect with mcp 2.x's `Client(server)` (in memory; entering it connects and initializes, as the helper "
    "did), which offers the requests the block makes under the same names",
)


@dataclass
class ClientPort:
    """The helper's import alias (it goes) and every call of it (each becomes ``Client(…)``)."""

    alias: cst.ImportAlias
    calls: list[cst.Call] = field(default_factory=list)
    servers: list[cst.Attribute] = field(default_factory=list)  # `app._mcp_server` → `app`
    legacy: list[cst.Call] = field(default_factory=list)  # calls that keep the legacy era

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        client = edits.import_name(analysis, *CLIENT)
        for call in self.calls:
            edits.transform(call, _to_client(client, call in self.legacy))
        for server in self.servers:
            edits.replace(server, server.value)
        stmt = analysis.parents.get(id(self.alias))
        alias = self.alias

        def drop(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode | cst.RemovalSentinel:
            assert isinstance(orig, cst.ImportFrom) and isinstance(upd, cst.ImportFrom)
            assert not isinstance(orig.names, cst.ImportStar) and not isinstance(upd.names, cst.ImportStar)
            keep = [u for o, u in zip(orig.names, upd.names) if o is not alias]
            if not keep:
                return cst.RemoveFromParent()
            keep[-1] = keep[-1].with_changes(comma=upd.names[-1].comma)
            return upd.with_changes(names=keep)

        assert stmt is not None
        edits.transform(stmt, drop)


def _to_client(name: str, legacy: bool):
    def to(_orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(upd, cst.Call)
        args = list(upd.args)
        if legacy:
            if args[-1].comma is cst.MaybeSentinel.DEFAULT:
                args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            eq = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
            args.append(cst.Arg(cst.SimpleString('"legacy"'), keyword=cst.Name("mode"), equal=eq))
        return upd.with_changes(func=cst.parse_expression(name), args=args)

    return to


def plan(a: ModuleAnalysis, alias: cst.ImportAlias) -> FixPlan:
    """The plan for ``from mcp.shared.memory import create_connected_server_and_client_session``
    (under any alias): every use becomes ``Client(…)``, or the first use that cannot, and why."""
    return a.memo(f"port.memory_client.{id(alias)}", lambda: _plan(a, alias))


def _plan(a: ModuleAnalysis, alias: cst.ImportAlias) -> FixPlan:
    local = get_full_name_for_node(alias.asname.name if alias.asname else alias.name) or ""
    if a.imports.get(local) != HELPER or sum(1 for q in a.imports.values() if q == HELPER) != 1:
        return FixPlan(manual=_manual("the helper is imported more than once or its name is bound again"))
    site = ClientPort(alias)
    for ref in name_refs(a.module, local):
        call = a.parents.get(id(ref))
        if not (isinstance(call, cst.Call) and call.func is ref):
            return FixPlan(manual=_manual(f"`{local}` is used other than called"))
        why = _call(a, call, site)
        if why is not None:
            return FixPlan(manual=_manual(why))
    if not site.calls:
        return FixPlan(manual=_manual(f"nothing calls `{local}`"))
    return FixPlan(fix=FIX, site=site)


def _call(a: ModuleAnalysis, call: cst.Call, site: ClientPort) -> str | None:
    """Why ``call`` cannot become ``Client(…)`` (None: recorded in ``site``)."""
    positional = [arg for arg in call.args if arg.keyword is None]
    if any(arg.star for arg in call.args) or len(positional) != 1 or call.args[0] is not positional[0]:
        return "a call passes other than the server and keywords"
    keywords = [arg.keyword.value for arg in call.args if arg.keyword is not None]
    other = [k for k in keywords if k not in SAME_KEYWORDS]
    if other:
        return (
            f"`{other[0]}=` is no `Client` field of the same type on mcp 2.x (`read_timeout_seconds` takes "
            "seconds there, not a `timedelta`)"
        )
    item = a.parents.get(id(call))
    if not (isinstance(item, cst.WithItem) and item.item is call and isinstance(item.asname, cst.AsName)):
        return "a call is not entered by `async with … as name`"
    target = item.asname.name
    with_stmt = a.parents.get(id(item))
    if not (isinstance(target, cst.Name) and isinstance(with_stmt, cst.With) and with_stmt.asynchronous):
        return "a call is not entered by `async with … as name`"
    use = _session_use(a, with_stmt, target.value)
    if use is not None:
        return use
    server = positional[0].value
    fn = a.enclosing_function(call)
    # the helper takes a low-level `Server` or a 1.x `FastMCP`: `x._mcp_server` is a FastMCP's (a
    # low-level `Server` has none), unless the analysis knows `x` as something else
    if (
        isinstance(server, cst.Attribute)
        and server.attr.value == "_mcp_server"
        and a.kind_of(server.value, fn) in (Kind.SERVER_HL, None)
        and a.generation_of_server_expr(server.value, fn) != S.FASTMCP
    ):
        site.servers.append(server)
    site.calls.append(call)
    if "logging_callback" in keywords:
        site.legacy.append(call)
    return None


def _session_use(a: ModuleAnalysis, with_stmt: cst.With, name: str) -> str | None:
    """Why the block's uses of the session ``name`` are not all ``Client``'s (None: they are)."""
    for ref in name_refs(with_stmt.body, name):
        attr = a.parents.get(id(ref))
        if not (isinstance(attr, cst.Attribute) and attr.value is ref):
            return (
                f"`{name}` is used other than by calling its requests (passed on or stored): it would be a `Client`, "
                "not a `ClientSession`"
            )
        if attr.attr.value not in SESSION_METHODS:
            return (
                f"`{name}.{attr.attr.value}` is no `Client` request of the same name (mcp 2.x's `ClientSession` is "
                "`client.session`, with its own API)"
            )
    return None


def _manual(why: str) -> str:
    return f"use `mcp.Client(server)` ({why}: port this use by hand)"


def passes_server(a: ModuleAnalysis, node: cst.Attribute) -> bool:
    """``node`` (``app._mcp_server``) is the server a planned ``Client(…)`` rewrite passes as
    ``app`` (MCP509 does not report it again)."""
    call = a.parents.get(id(a.parents.get(id(node))))
    if not isinstance(call, cst.Call) or a.qualname(call.func) != HELPER:
        return False
    for stmt in a.nodes(cst.ImportFrom):
        if isinstance(stmt.names, cst.ImportStar):
            continue
        for alias in stmt.names:
            if get_full_name_for_node(alias.asname.name if alias.asname else alias.name) == get_full_name_for_node(
                call.func
            ):
                site = plan(a, alias).site
                return isinstance(site, ClientPort) and node in site.servers
    return False

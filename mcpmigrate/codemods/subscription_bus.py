"""Where a low-level mcp 2.x ``Server`` gets the subscription bus its ``subscriptions/listen``
handler serves (MCP301, the ``subscription`` fix): which ``Server(...)`` call serves the handler
that sends a change notification, and which scope the bus must live in so that handler sees it.

SDK: ``mcp.server.lowlevel.Server(name, on_call_tool=…, on_subscriptions_listen=ListenHandler(bus))``
(``mcp.server.subscriptions``); a handler publishes with ``await bus.publish(ToolsListChanged())``.
Real mcp 2.x servers build their ``Server`` in a function (a factory) whose closures are the
handlers, or pass module functions as the ``on_*=`` handlers; a module-level ``server = Server(…)``
is the rarer shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, walk

_SENDS = {*S.LIST_CHANGED_SENDS, S.SEND_NOTIFICATION_ATTR}


@dataclass(frozen=True)
class BusSite:
    """The ``Server(...)`` call that gets ``on_subscriptions_listen=ListenHandler(bus)``, and the
    statement the bus assignment goes right before (``holder``): the statement holding the call
    when the bus is a local of ``factory``, else a module-level statement (``shared``: the bus is
    a module global, and every server ``factory`` builds publishes on it)."""

    server_call: cst.Call
    holder: cst.BaseStatement
    factory: FunctionInfo | None
    shared: bool


def lowlevel_servers(a: ModuleAnalysis, fn: FunctionInfo | None) -> list[cst.Call]:
    """The low-level ``Server(...)`` calls made directly in ``fn`` (module level for None, where
    only assigned ones count: ``server = Server(…)``)."""
    if fn is None:
        return [
            v for _n, v in a.module_assigns if isinstance(v, cst.Call) and a.resolves_to(v.func, S.LOWLEVEL_SERVERS)
        ]
    return [c for c in fn.calls if a.resolves_to(c.func, S.LOWLEVEL_SERVERS)]


def bus_site(a: ModuleAnalysis, fn: FunctionInfo) -> BusSite | str:
    """The bus site for a change notification sent in ``fn``, or why there is no single one.

    - ``fn`` is a closure of a function that constructs one ``Server(...)``: a local bus of that
      function (unless a module function handler of the same call also sends: then a module bus).
    - ``fn`` is a module function named in the ``on_*=`` arguments of one ``Server(...)`` call: a
      module bus.
    - otherwise the one ``server = Server(...)`` at module level, if there is exactly one."""
    scope = fn.parent
    while scope is not None:
        calls = lowlevel_servers(a, scope)
        if len(calls) > 1:
            return (
                f"`{scope.qualname}` constructs {len(calls)} low-level Servers, and `{fn.name}` cannot tell which one "
                "it serves: give each its own `on_subscriptions_listen=ListenHandler(bus)` by hand"
            )
        if calls:
            return _site(a, calls[0], scope)
        scope = scope.parent
    if fn.parent is None and fn.class_name is None:
        refs = [c for c in all_servers(a) if fn.name in _module_handlers(a, c)]
        if len(refs) > 1:
            where = ", ".join(f"`{f.qualname}`" if (f := a.enclosing_function(c)) else "module level" for c in refs)
            return (
                f"`{fn.name}` is the handler of {len(refs)} low-level Servers ({where}): whether they share one "
                "subscription bus or each publishes to its own listeners is a choice to make by hand "
                "(`on_subscriptions_listen=ListenHandler(bus)` in each)"
            )
        if refs:
            return _site(a, refs[0], a.enclosing_function(refs[0]))
    calls = lowlevel_servers(a, None)
    if len(calls) == 1:
        return _site(a, calls[0], None)
    return (
        "no single low-level `Server(...)` call serves this handler (it is neither a closure of the function that "
        "constructs one nor named in one's `on_*=` arguments): wire `on_subscriptions_listen=ListenHandler(bus)` by hand"
    )


def all_servers(a: ModuleAnalysis) -> list[cst.Call]:
    """Every low-level ``Server(...)`` call of the module, wherever it is made. Memoized."""

    def compute() -> list[cst.Call]:
        return [
            n for n in a.flat.subtree(a.module) if isinstance(n, cst.Call) and a.resolves_to(n.func, S.LOWLEVEL_SERVERS)
        ]

    return a.memo("lowlevel_bus.all_servers", compute)


def _module_handlers(a: ModuleAnalysis, call: cst.Call) -> dict[str, FunctionInfo]:
    """Module functions named (``on_call_tool=call_tool``) in ``call``'s ``on_*=`` arguments, a
    name the function around ``call`` binds itself (a closure of that name) left out."""
    factory = a.enclosing_function(call)
    local: set[str] = set()
    scope = factory
    while scope is not None:
        local |= {f.name for f in a.functions if f.parent is scope}
        local |= {n for n, _v in scope.assigns} | set(scope.param_names())
        scope = scope.parent
    found: dict[str, FunctionInfo] = {}
    for arg in call.args:
        v = arg.value
        if arg.keyword is None or not arg.keyword.value.startswith("on_") or not isinstance(v, cst.Name):
            continue
        if v.value in local:
            continue
        target = next((f for f in a.functions if f.name == v.value and f.parent is None and f.class_name is None), None)
        if target is not None:
            found[v.value] = target
    return found


def _sends(fn: FunctionInfo) -> bool:
    return any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute) and n.func.attr.value in _SENDS
        for n in walk(fn.node)
    )


def _site(a: ModuleAnalysis, call: cst.Call, factory: FunctionInfo | None) -> BusSite | str:
    shared = factory is not None and any(_sends(f) for f in _module_handlers(a, call).values())
    if factory is None or shared:
        top = next((s for s in a.module.body if any(n is call for n in walk(s))), None)
        if top is None:
            return "the low-level Server is not in a module-level statement: wire `on_subscriptions_listen=ListenHandler(bus)` by hand"
        return BusSite(call, top, factory, shared)
    node: cst.CSTNode | None = call
    while node is not None and not isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
        node = a.parents.get(id(node))
    if node is None or node is factory.node:
        return f"the low-level Server is not built in a statement of `{factory.qualname}`: wire `on_subscriptions_listen=ListenHandler(bus)` by hand"
    return BusSite(call, node, factory, False)

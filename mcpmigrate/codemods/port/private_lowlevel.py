"""Handlers a 1.x FastMCP registers on its private low-level server, ported to mcp 2.x (MCP507,
MCP509).

FastMCP 1.x has no public API for ``logging/setLevel`` and ``resources/(un)subscribe``, so servers
(the python-sdk's own everything-server) reach for the low-level server it wraps::

    @mcp._mcp_server.set_logging_level()
    async def handle_set_logging_level(level: str) -> None: ...

    async def handle_subscribe(uri: AnyUrl) -> None: ...

    mcp._mcp_server.subscribe_resource()(handle_subscribe)

mcp 1.27's decorators (``mcp/server/lowlevel/server.py``) register ``request_handlers[SetLevelRequest]``
(``SubscribeRequest``, ``UnsubscribeRequest``) as a handler that awaits ``func(req.params.level)``
(``func(req.params.uri)``, an ``AnyUrl``) and answers ``EmptyResult``; an exception is the error
``(0, str(exc))``. mcp 2.3's ``MCPServer`` keeps its low-level ``Server`` as ``_lowlevel_server``
(``mcp/server/mcpserver/server.py``), which registers none of these three methods; its handlers are
keyed by method and called as ``(ctx, params)`` (``SetLevelRequestParams``/``SubscribeRequestParams``/
``UnsubscribeRequestParams``), return the result itself, and ``add_request_handler(method,
params_type, handler)`` fills the table ``get_capabilities`` reads (``mcp/server/lowlevel/server.py``).
As for the ``tools/call`` wrapper (:mod:`.handler_wrapper`), the port keeps the user's function and
registers next to it the adapter the low-level port writes (:mod:`.lowlevel`)::

    async def handle_set_logging_level(level: str) -> None: ...


    async def on_set_logging_level(ctx: ServerRequestContext, params: SetLevelRequestParams) -> EmptyResult:
        try:
            await handle_set_logging_level(params.level)
        except MCPError:
            raise
        except Exception as exc:
            raise MCPError(0, str(exc)) from exc
        return EmptyResult()


    mcp._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, on_set_logging_level)

The call form's statement becomes the registration, the adapter goes right after the function.

What clients see in ``initialize`` (measured on 1.27.0 / 2.3.0, a FastMCP with a resource): 1.x
declares ``logging: {}`` once ``set_logging_level`` is registered, and so does 2.x's low-level
server with a ``logging/setLevel`` handler; but 1.x's ``get_capabilities`` hard-codes
``resources.subscribe: false``, while 2.x derives it on legacy connections from a registered
``resources/subscribe`` handler — the port of ``subscribe_resource`` turns it to ``true`` there
(2026-07-28 derives it from ``subscriptions/listen`` in both), so that one fix is unsafe, with that
review note.

Planned only for a module-level ``async def`` of the module, decorated by the registration alone,
or named by a registration statement of the module below it (and bound once); each kind once per
server. Anything else keeps the manual reason.
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.port import lowlevel
from mcpmigrate.codemods.port.renames import module_bindings
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import all_name_values, fresh

PORTED = ("set_logging_level", "subscribe_resource", "unsubscribe_resource")
PRIVATE, LOWLEVEL = "_mcp_server", "_lowlevel_server"

_WHAT = (
    "register `{fn}` on `{low}` (the MCPServer's low-level server) with `add_request_handler({method}, "
    "{params}, …)` through an adapter that calls it as mcp 1.x's `{deco}()` did ({arg}), answers the `EmptyResult` and its "
    "exception as the error `(0, message)`"
)


def _fix(decorator: str, fn: str, low: str) -> FixInfo:
    """The fix of one registration of ``fn`` by ``decorator`` (:data:`PORTED`) moved to ``low``: safe,
    but for ``subscribe_resource``, unsafe with :data:`.lowlevel.SUBSCRIBE_REVIEW` (the flag legacy
    clients read turns ``true``)."""
    method, params, _result, shape = S.LOWLEVEL_DECORATOR_PORTS[decorator]
    arg = "the level as sent" if shape == "level" else "the URI as an `AnyUrl`"
    what = _WHAT.format(fn=fn, low=low, method=f'"{method}"', params=params, deco=decorator, arg=arg)
    if decorator == "subscribe_resource":
        return FixInfo(Safety.UNSAFE, "port", f"{what}; {lowlevel.SUBSCRIBE_REVIEW}")
    return FixInfo(Safety.SAFE, "port", what + " (clients see the same answers and capabilities)")


def _registration(
    analysis: ModuleAnalysis, private: cst.Attribute
) -> tuple[str, str, cst.Decorator | cst.Call, cst.CSTNode] | None:
    """``server._mcp_server.<decorator>()`` applied as ``@…`` or called on a function
    (``…()(fn)``): (server, decorator, the decorator or the outer call, the function def or the
    registration's statement); None for any other use."""
    attr = analysis.parents.get(id(private))
    call = analysis.parents.get(id(attr))
    if not (
        isinstance(private.value, cst.Name)
        and private.attr.value == PRIVATE
        and analysis.generation_of_server_expr(private.value, analysis.enclosing_function(private)) in (S.MCP1, S.MCP2)
        and isinstance(attr, cst.Attribute)
        and attr.value is private
        and attr.attr.value in PORTED
        and isinstance(call, cst.Call)
        and call.func is attr
        and not call.args
    ):
        return None
    holder = analysis.parents.get(id(call))
    if isinstance(holder, cst.Decorator):
        fdef = analysis.parents.get(id(holder))
        return (private.value.value, attr.attr.value, holder, fdef) if isinstance(fdef, cst.FunctionDef) else None
    expr = analysis.parents.get(id(holder))
    stmt = analysis.parents.get(id(expr))
    if (
        isinstance(holder, cst.Call)
        and holder.func is call
        and isinstance(expr, cst.Expr)
        and isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
    ):
        return private.value.value, attr.attr.value, holder, stmt
    return None


def _function_name(found: tuple[str, str, cst.Decorator | cst.Call, cst.CSTNode]) -> str | None:
    """The name of the function a :func:`_registration` registers (its def's, or the call's argument)."""
    _server, _deco, applied, where = found
    if isinstance(where, cst.FunctionDef):
        return where.name.value
    arg = applied.args[0].value if isinstance(applied, cst.Call) and len(applied.args) == 1 else None
    return arg.value if isinstance(arg, cst.Name) else None


def plan(analysis: ModuleAnalysis, private: cst.Attribute) -> FixPlan | None:
    """The port of the registration ``private`` (a 1.x FastMCP's ``server._mcp_server``) is part
    of, shared by its MCP507 and MCP509 findings; None when it is not a registration of
    :data:`PORTED` (the findings keep their manual reasons)."""
    found = _registration(analysis, private)
    if found is None:
        return None
    _server, _deco, applied, _where = found
    return analysis.memo(f"port.private_lowlevel.{id(applied)}", lambda: _plan(analysis, *found))


def _registrations(analysis: ModuleAnalysis) -> list[tuple[str, str, cst.Decorator | cst.Call, cst.CSTNode]]:
    """Every :func:`_registration` of the module, in source order (one walk per module, shared by
    the plans of all of them)."""
    return analysis.memo(
        "port.private_lowlevel.registrations",
        lambda: [
            r
            for n in walk(analysis.module)
            if isinstance(n, cst.Attribute)
            and n.attr.value == PRIVATE
            and (r := _registration(analysis, n)) is not None
        ],
    )


def _plan(
    analysis: ModuleAnalysis, server: str, decorator: str, applied: cst.Decorator | cst.Call, where: cst.CSTNode
) -> FixPlan:
    """The port of ``server._mcp_server.<decorator>()`` ``applied`` (the ``@…`` decorator, or the
    ``…()(fn)`` call) at ``where`` (its function, or its statement): manual when the kind is
    registered more than once on that server, the function is not a lone module-level ``async def``
    of the module (defined once, above a call form), or :func:`.lowlevel.checked` refuses it."""
    spelled = f"`{server}.{PRIVATE}.{decorator}()`"
    low = f"{server}.{LOWLEVEL}"
    section = f"read “{lowlevel.GUIDE_DECORATORS}” in {S.MIGRATION_GUIDE} and register it by hand"
    every = _registrations(analysis)
    found = [r for r in every if r[0] == server]
    twice = [r for r in found if r[1] == decorator]
    if len(twice) > 1:
        return FixPlan(
            manual=f"{spelled} registers {len(twice)} functions; on mcp 1.x the last one replaces the others: "
            f"keep the one that is served ({section})"
        )
    if isinstance(applied, cst.Decorator):
        assert isinstance(where, cst.FunctionDef)
        fdef, line = where, None
        if len(fdef.decorators) != 1:
            return FixPlan(manual=f"`{fdef.name.value}` has other decorators around {spelled} ({section})")
    else:
        assert isinstance(where, cst.SimpleStatementLine)
        line, target = where, applied.args[0].value if len(applied.args) == 1 else None
        if not (
            isinstance(target, cst.Name)
            and applied.args[0].keyword is None
            and not applied.args[0].star
            and analysis.parents.get(id(line)) is analysis.module
        ):
            return FixPlan(manual=f"{spelled} is not called on a function of the module at module level ({section})")
        body = list(analysis.module.body)
        defs = [s for s in body[: body.index(line)] if isinstance(s, cst.FunctionDef) and s.name.value == target.value]
        if len(defs) != 1 or module_bindings(analysis).get(target.value, 0) != 1:
            return FixPlan(
                manual=f"`{target.value}` is not a function of the module defined once above {spelled} ({section})"
            )
        fdef = defs[0]
    if analysis.parents.get(id(fdef)) is not analysis.module:
        return FixPlan(manual=f"`{fdef.name.value}` is not a module-level function ({section})")
    also = sorted({r[1] for r in found if r[1] != decorator and _function_name(r) == fdef.name.value})
    if also:  # each port registers its own adapter, keyed by the function: one would be lost
        return FixPlan(
            manual=f"`{fdef.name.value}` is also registered with `{server}.{PRIVATE}.{also[0]}()`: the port writes one "
            f"adapter per function, for one of its registrations only ({section})"
        )
    handler = lowlevel.Handler(decorator, fdef, applied)
    done = lowlevel.checked(analysis, low, [handler], section, list(analysis.module.body), None, None)
    if not isinstance(done.site, lowlevel.LowlevelPort):
        return done
    if line is not None:
        done.site.registrations[id(fdef)] = line
    # the same kind on another server of the module: each port picks its adapter's name alone, so
    # the registrations take the free names in their order (one `on_set_logging_level` would serve both)
    taken = set(all_name_values(analysis))
    for r in (r for r in every if r[1] == decorator):
        name = fresh(taken, f"on_{decorator}")
        if r[2] is applied:
            done.site.adapters[id(fdef)] = name
    return FixPlan(fix=_fix(decorator, fdef.name.value, low), site=done.site)

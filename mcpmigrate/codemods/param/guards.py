"""MCP102 on a capability guard around a roots request: its label follows the request's fix
(part of the ``param`` fix's settle step, :func:`mcpmigrate.codemods.param.settle`).

The roots ``param`` fix removes the guards that only protect the request it drops (a local, a
private helper, a ``client_params``/``capabilities`` read, ``isinstance`` on the session,
``if <capability>:`` around the request; ``codemods/param/shapes.py``): kept, they would answer a
client without the roots capability — every 2026-07-28 client (2026-07-28 changelog: capabilities
per request, no ``initialize``) — as before, and the new parameter would never be read. The
MCP102 finding on such a guard carries that fix ("removed with the MCP101 fix at L:C", with its
safety), so the label ``check`` prints is what ``fix`` does; a guard of a request left for a
human is left too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis, walk
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.param import shapes as param_shapes
from mcpmigrate.codemods.param import sites as param_site
from mcpmigrate.model import FixInfo, FixPlan, Planned, Safety
from mcpmigrate.positions import code_ranges


def msg_102(guard: str = "") -> str:
    """The MCP102 message for a capability read from the session; ``guard`` says what becomes of
    a guard around a roots request (:data:`GUARD_REMOVED`, :data:`GUARD_LEFT`)."""
    return (
        "Client capabilities are read from the session; on 2026-07-28 they arrive in every "
        f"request's _meta and must not be inferred from the connection{guard}. Read them per request "
        "(`ctx.client_capabilities` in mcp 2.x)."
    )


GUARD_REMOVED = " — this guard only protects the roots request, which the param fix removes"
GUARD_LEFT = " — this guard protects a roots request that is left for a human"
GUARD_CONFIGURED = " — this guard stays in front of the roots request the config fix answers from the server's setting"


@dataclass(frozen=True)
class GuardWithRequest:
    """The site of an MCP102 capability check that goes with the roots request it guards: planned
    by :func:`plan_guard` for a check of the ``roots`` capability, given by ``param.settle`` to a
    guard settled with its request, and left for a human by :func:`settle_guards` (no fix) when
    the request stays. The ``if not …: return/raise`` around ``check`` is removed when the round
    threads the path through its function (``record.record_site``)."""

    check: cst.CSTNode

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        # the round's state lives in record.py, which imports this module
        from mcpmigrate.codemods.param.record import gathered

        gathered(edits, analysis).guards.append(self.check)


def guards_roots(check: cst.CSTNode) -> bool:
    """The capability check ``check`` (a call) asks for the roots capability (a ``roots=``
    argument anywhere inside it)."""
    return any(isinstance(n, cst.Arg) and n.keyword and n.keyword.value == "roots" for n in walk(check))


def plan_guard(check: cst.CSTNode, advice: str) -> FixPlan:
    """MCP102's plan for a capability read from the session (``check``, the call): a check of the
    roots capability goes with the roots request it guards (settled by :func:`settle_guards`),
    any other is left for a human with ``advice`` (what to read instead on the project's SDK)."""
    if guards_roots(check):
        return FixPlan(
            FixInfo(Safety.SAFE, "param", "removed together with the roots request it guards"),
            site=GuardWithRequest(check),
            message=msg_102(GUARD_REMOVED),
        )
    return FixPlan(manual=advice, message=msg_102())


def settle_guards(
    a: ModuleAnalysis,
    reports: Sequence[Planned],
    plans: list[FixPlan],
    removable: Callable[[ModuleAnalysis, cst.CSTNode], bool],
) -> None:
    """Settle the MCP102 plans (``plans[i]`` is ``reports[i]``'s, replaced by a new plan) once the
    module's MCP101 plans are known; ``removable``: the MCP102 check is a guard the param fix can
    delete."""
    with_request = _with_requests(a, reports, plans)
    # A capability guard goes away only with a roots request the param fix removes in the
    # same function; when that request is left for a human, so is its guard.
    fixed_fns = {
        id(a.enclosing_function(r.node))
        for r in reports
        if r.rule == "MCP101" and r.plan.fix is not None and r.plan.fix.strategy == "param"
    }
    # the `config` fix answers the request from the server's setting and keeps the guard in front of it
    configured = {
        id(a.enclosing_function(r.node))
        for r in reports
        if r.rule == "MCP101" and r.plan.fix is not None and r.plan.fix.strategy == "config"
    }
    for i, r in enumerate(reports):
        p = plans[i]
        if r.rule != "MCP102" or i in with_request:
            continue
        if isinstance(p.site, GuardWithRequest) and id(a.enclosing_function(r.node)) not in fixed_fns:
            if id(a.enclosing_function(r.node)) in configured or _answers_from_setting(a, r.node):
                plans[i] = replace(
                    p,
                    fix=None,
                    message=msg_102(GUARD_CONFIGURED),
                    manual=(
                        "kept: the `config` fix answers the roots request it guards from the server's setting, and a "
                        "client that declares no roots capability still takes the path it took before; when porting "
                        "to mcp 2.x, read the capability from the request (`ctx.client_capabilities`)"
                    ),
                )
            elif not any(q.rule == "MCP101" for q in reports):  # e.g. after the request's fix
                plans[i] = replace(
                    p,
                    fix=None,
                    message=msg_102(),
                    manual=(
                        "no roots request is left in this module: delete this check if nothing uses it, or read the "
                        "capability from the request (`ctx.client_capabilities`)"
                    ),
                )
            else:
                plans[i] = replace(
                    p,
                    fix=None,
                    message=msg_102(GUARD_LEFT),
                    manual="it guards a roots request that is left for a human: remove it together with that request",
                )
        elif p.fix is not None and not removable(a, r.node):
            plans[i] = replace(
                p,
                fix=None,
                manual=(
                    "the capability check is not a plain `if not …: return/raise` guard: remove it by hand "
                    "together with the roots request"
                ),
            )


def _answers_from_setting(a: ModuleAnalysis, check: cst.CSTNode) -> bool:
    """The function holding ``check`` calls the helper the ``config`` fix added (a later round:
    the guard still stands in front of the configured folders)."""
    from mcpmigrate.codemods.configured import HELPER_NAMES

    fn = a.enclosing_function(check)
    defined = {f.name for f in a.functions if f.parent is None and f.class_name is None}
    return fn is not None and any(
        isinstance(c.func, cst.Name) and c.func.value in HELPER_NAMES and c.func.value in defined for c in fn.calls
    )


def _with_requests(a: ModuleAnalysis, reports: Sequence[Planned], plans: list[FixPlan]) -> set[int]:
    """MCP102 on what a fixed MCP101 site removes gets that request's fix; MCP102 in a helper the
    fix keeps, whose guarding call it removes, says so. Returns the indexes of the MCP102 plans
    settled here."""
    requests = [
        r for r in reports if r.rule == "MCP101" and r.plan.fix is not None and isinstance(r.plan.site, param_site.Site)
    ]
    done: set[int] = set()
    if not requests:
        return done
    for i, r in enumerate(reports):
        if r.rule != "MCP102":
            continue
        owner = next((q for q in requests if param_shapes.removes(a, q.plan.site, r.node)), None)
        helper = a.enclosing_function(r.node)
        if owner is None and helper is not None and helper.parent is None and helper.class_name is None:
            if any(_calls_removed(a, q.plan.site, helper.name) for q in requests):
                # a public helper the fix keeps: another module may import it
                done.add(i)
                plans[i] = replace(
                    plans[i],
                    fix=None,
                    manual=(
                        f"the call of `{helper.name}` that guards the roots request goes with the MCP101 fix; "
                        f"`{helper.name}` itself stays (another module may import it): delete it once nothing uses it"
                    ),
                )
            continue
        owner_fix = owner.plan.fix if owner is not None else None
        if owner is None or owner_fix is None:
            continue
        at = code_ranges(a.module, [owner.node])[owner.node].start
        done.add(i)
        plans[i] = replace(
            plans[i],
            fix=FixInfo(owner_fix.safety, "param", f"removed with the MCP101 fix at {at.line}:{at.column + 1}"),
            manual=None,
            message=msg_102(GUARD_REMOVED),
        )
    return done


def _calls_removed(a: ModuleAnalysis, site: param_site.Site, name: str) -> bool:
    """A call of the module function ``name`` is in what the param site removes."""
    return any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == name
        for node, _change in site.changes.values()
        for n in walk(node)
        if param_shapes.removes(a, site, n)
    )


def guard_if(a: ModuleAnalysis, call: cst.CSTNode) -> cst.If | None:
    """``if not session.check_client_capability(...): raise/return …`` around ``call``."""
    pm = a.parents
    test: cst.CSTNode = call
    p = pm.get(id(call))
    if isinstance(p, cst.UnaryOperation) and isinstance(p.operator, cst.Not):
        test, p = p, pm.get(id(p))
    if not (isinstance(p, cst.If) and p.test is test and p.orelse is None and isinstance(p.body, cst.IndentedBlock)):
        return None
    for s in p.body.body:
        if not (isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, (cst.Raise, cst.Return)) for x in s.body)):
            return None
    return p

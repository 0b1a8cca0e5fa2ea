"""MCP102 on a capability guard around a roots request: its label follows the request's fix.

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

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis, walk
from mcpmigrate.codemods import param as param_fix
from mcpmigrate.codemods.param import shapes as param_shapes
from mcpmigrate.codemods.param import sites as param_site
from mcpmigrate.detectors.base import Report
from mcpmigrate.model import FixInfo
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


def plan_guards(a: ModuleAnalysis, reports: list[Report]) -> None:
    """Settle the MCP102 labels of ``reports`` once the module's MCP101 plans are known."""
    _with_requests(a, reports)
    # A capability guard goes away only with a roots request the param fix removes in the
    # same function; when that request is left for a human, so is its guard.
    fixed_fns = {id(a.enclosing_function(r.node)) for r in reports if r.rule == "MCP101" and r.fix is not None}
    for r in reports:
        if r.rule != "MCP102" or r.data.get("with_request"):
            continue
        if r.data.get("guards_roots") and id(a.enclosing_function(r.node)) not in fixed_fns:
            r.fix = None
            if not any(q.rule == "MCP101" for q in reports):  # e.g. after the request's fix
                r.message = msg_102()
                r.manual = (
                    "no roots request is left in this module: delete this check if nothing uses it, or read the "
                    "capability from the request (`ctx.client_capabilities`)"
                )
            else:
                r.message = msg_102(GUARD_LEFT)
                r.manual = "it guards a roots request that is left for a human: remove it together with that request"
        elif r.fix is not None and not param_fix.removable_guard(a, r.node):
            r.fix = None
            r.manual = (
                "the capability check is not a plain `if not …: return/raise` guard: remove it by hand "
                "together with the roots request"
            )


def _with_requests(a: ModuleAnalysis, reports: list[Report]) -> None:
    """MCP102 on what a fixed MCP101 site removes gets that request's fix; MCP102 in a helper the
    fix keeps, whose guarding call it removes, says so."""
    requests = [r for r in reports if r.rule == "MCP101" and r.fix is not None and isinstance(r.site, param_site.Site)]
    if not requests:
        return
    for r in reports:
        if r.rule != "MCP102":
            continue
        owner = next((q for q in requests if param_shapes.removes(a, q.site, r.node)), None)
        helper = a.enclosing_function(r.node)
        if owner is None and helper is not None and helper.parent is None and helper.class_name is None:
            if any(_calls_removed(a, q.site, helper.name) for q in requests):
                # a public helper the fix keeps: another module may import it
                r.fix, r.data["with_request"] = None, True
                r.manual = (
                    f"the call of `{helper.name}` that guards the roots request goes with the MCP101 fix; "
                    f"`{helper.name}` itself stays (another module may import it): delete it once nothing uses it"
                )
            continue
        if owner is None or owner.fix is None:
            continue
        at = code_ranges(a.module, [owner.node])[owner.node].start
        r.fix = FixInfo(owner.fix.safety, "param", f"removed with the MCP101 fix at {at.line}:{at.column + 1}")
        r.manual = None
        r.message = msg_102(GUARD_REMOVED)
        r.data["with_request"] = True


def _calls_removed(a: ModuleAnalysis, site: param_site.Site, name: str) -> bool:
    """A call of the module function ``name`` is in what the param site removes."""
    return any(
        isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value == name
        for node, _change in site.changes.values()
        for n in walk(node)
        if param_shapes.removes(a, site, n)
    )

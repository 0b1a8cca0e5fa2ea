"""The ``remove`` fix: registrations and fields that no longer exist in 2026-07-28 are deleted,
whatever the strategy.

- MCP103: ``server.notification_handlers[RootsListChangedNotification] = h``,
  ``Server(on_roots_list_changed=h)`` and ``add_notification_handler("notifications/roots/list_changed", h)``
  are removed (the notification is gone from the 2026-07-28 schema), and so is the handler
  function when nothing else in the module uses it. Only when the project no longer serves legacy
  clients (``legacy-clients = false``), and never while the handler invalidates state that a roots
  request of the module still fills (:func:`roots_cache_blocker`): it goes with that request.
- MCP104: ``listChanged`` is dropped from a roots capability (``RootsCapability(listChanged=True)``,
  ``{"roots": {"listChanged": True}}``): the 2026-07-28 ``RootsCapability`` is ``{}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.deletions import DispatchRoute, delete, deleted, legacy_plan, spellings
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan, Planned, Safety
from mcpmigrate.names import ref_names

STRATEGY = "remove"
RULES = ("MCP103", "MCP104")


def _handler_name(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Assign):
        return get_full_name_for_node(node.value)
    if isinstance(node, cst.Arg):
        return get_full_name_for_node(node.value)
    if isinstance(node, cst.Call) and len(node.args) >= 2:
        return get_full_name_for_node(node.args[-1].value)
    return None


def roots_cache_blocker(analysis: ModuleAnalysis, registration: cst.CSTNode) -> str | None:
    """Why the roots ``list_changed`` handler registered by ``registration`` cannot be removed on
    its own, or None (:func:`roots_cache_of`). Removed alone, the cache would go stale for every
    legacy client whose roots change; it goes with the roots request (the MCP101 fix)."""
    found = roots_cache_of(analysis, registration)
    if found is None:
        return None
    handler, cache, filler = found
    return (
        f"`{handler}` invalidates `{cache}`, which `{filler}` fills from the roots request: it goes "
        "together with that request (the MCP101 fix), never alone while the cache stays"
    )


def roots_cache_of(analysis: ModuleAnalysis, registration: cst.CSTNode) -> tuple[str, str, str] | None:
    """``(handler, cache, filler)`` when the roots ``list_changed`` handler registered by
    ``registration`` touches a module-level name (``cache``) that a function asking for the roots
    (``filler``, it calls ``list_roots``) also reads or fills; else None."""
    name = _handler_name(registration)
    fn = analysis.function_named(name) if name and "." not in name else None
    if name is None or fn is None:
        return None
    # state outside the handler: names the module, or a function the handler is nested in, assigns
    outer = {n for n, _v in analysis.module_assigns}
    scope = fn.parent
    while scope is not None:
        outer |= {n for n, _v in scope.assigns}
        scope = scope.parent
    touched = written(fn.node.body) & outer
    if not touched:
        return None
    for other in analysis.functions:
        if other is fn or not any(
            isinstance(c.func, cst.Attribute) and c.func.attr.value == "list_roots" for c in other.calls
        ):
            continue
        # the cache may be read where the request is, or in a function on the way to it (a memo
        # one call above the request: field case roots-19)
        for on_path in analysis.with_callers(other):
            shared = sorted(touched & {n.value for n in ref_names(on_path.node.body)})
            if shared:
                return name, shared[0], other.name
    return None


_MUTATORS = {
    "clear",
    "pop",
    "popitem",
    "update",
    "remove",
    "discard",
    "add",
    "append",
    "extend",
    "insert",
    "setdefault",
    "set",
    "reset",
    "invalidate",
    "cache_clear",
}


def written(body: cst.CSTNode) -> set[str]:
    """Names whose state ``body`` changes: ``global`` names it assigns, ``x[k] = …`` / ``del x[k]`` /
    ``x.a = …`` bases, and ``x.clear()``-style mutating calls (a logger it only reads is not state)."""
    out: set[str] = set()
    declared = {item.name.value for s in _walk(body) if isinstance(s, cst.Global) for item in s.names}
    for n in _walk(body):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.Assign):
            targets = [t.target for t in n.targets]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.Del)):
            targets = [n.target]
        elif (
            isinstance(n, cst.Call)
            and isinstance(n.func, cst.Attribute)
            and n.func.attr.value in _MUTATORS
            and isinstance(n.func.value, cst.Name)
        ):
            out.add(n.func.value.value)
        for t in targets:
            if isinstance(t, cst.Name) and t.value in declared:
                out.add(t.value)
            elif isinstance(t, (cst.Subscript, cst.Attribute)) and isinstance(t.value, cst.Name):
                out.add(t.value.value)
    return out


def _walk(node: cst.CSTNode):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


@dataclass(frozen=True)
class HandlerRegistration:
    """An MCP103 roots ``list_changed`` handler registration ``node`` (an assignment into
    ``notification_handlers``, an ``on_roots_list_changed=`` argument, an
    ``add_notification_handler(...)`` call): it goes, and so does the handler function when
    nothing else in the module uses it."""

    node: cst.CSTNode

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        gone = deleted(edits, analysis)
        gone.nodes.append(self.node)
        handler = unused_handler(analysis, self.node)
        if handler is not None:
            gone.handlers[handler[0]] = handler[1]


@dataclass(frozen=True)
class ListChangedField:
    """An MCP104 ``listChanged`` argument or dict entry ``node`` of a roots capability: it goes."""

    node: cst.CSTNode

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        deleted(edits, analysis).nodes.append(self.node)


def plan_registration(node: cst.CSTNode, description: str) -> FixPlan:
    """The removal of the roots ``list_changed`` handler registration ``node`` (MCP103), before
    :func:`settle` (legacy-only) and ``param.settle`` (a handler that goes with its roots request)."""
    return FixPlan(FixInfo(Safety.SAFE, STRATEGY, description), site=HandlerRegistration(node))


def plan_field(node: cst.CSTNode, description: str) -> FixPlan:
    """The removal of a roots capability's ``listChanged`` field ``node`` (MCP104)."""
    return FixPlan(FixInfo(Safety.SAFE, STRATEGY, description), site=ListChangedField(node))


def settle(analysis: ModuleAnalysis, config: Config, reports: Sequence[Planned]) -> list[FixPlan]:
    """MCP103 is legacy-only: its removal is kept while the project serves legacy clients
    (:func:`~mcpmigrate.codemods.deletions.legacy_plan`), and never offered alone while the handler
    invalidates a cache a roots request fills (:func:`roots_cache_blocker`). Runs after
    ``param.settle``, which has given a handler that goes with its roots request that request's
    fix. One plan per report, in order."""
    return [
        legacy_plan(
            config,
            r.rule,
            r.plan,
            isinstance(r.plan.site, DispatchRoute),
            partial(roots_cache_blocker, analysis, r.node),
        )
        for r in reports
    ]


def unused_handler(analysis: ModuleAnalysis, registration: cst.CSTNode) -> tuple[str, cst.FunctionDef] | None:
    """The module function the MCP103 ``registration`` registers, by name, when nothing else in the
    module uses it (only its ``def`` and the registration spell its name), else None."""
    name = _handler_name(registration)
    if not name or "." in name:
        return None
    fn = analysis.function_named(name)
    if fn is not None and spellings(analysis, name) <= 2:
        return name, fn.node
    return None


def delete_handlers(ed: Edits, analysis: ModuleAnalysis, registrations: list[cst.CSTNode]) -> None:
    """Record the deletion of the MCP103 ``registrations`` and of the handlers left unused: the
    param fix's, for a handler that goes with the roots request (the ``remove`` fix's own sites
    record through :class:`HandlerRegistration`)."""
    dead: dict[str, cst.FunctionDef] = {}
    for node in registrations:
        handler = unused_handler(analysis, node)
        if handler is not None:
            dead[handler[0]] = handler[1]
    delete(ed, analysis, registrations, dead.values())

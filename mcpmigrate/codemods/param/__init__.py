"""The ``param`` fix: the roots request disappears and each tool whose call path reaches it gains
a documented path parameter.

Spec: 2026-07-28 deprecates roots (SEP-2577) and names the migration: take the directory or file
as an ordinary, documented tool parameter. SDK: a parameter ``Annotated[str, Field(description=…)]``
puts ``description`` into the tool's ``inputSchema.properties``.

The roots rules call :func:`plan_roots_request` (MCP101) and :func:`plan_roots_interim` (MCP106)
once per site; each returns a :class:`~mcpmigrate.model.FixPlan` whose ``site`` (a
:class:`~mcpmigrate.codemods.param.sites.Site`) is what its ``record`` later applies, so the label
``check`` shows is the one of the rewrite ``fix`` makes (``docs/architecture.md``, "How a finding
becomes a fix"). An MCP102 capability check guarding only the removed request goes with it, and so
does an MCP103 roots ``list_changed`` handler that invalidates the cache the request filled
(``codemods.remove.roots_cache_of``; its site, :class:`HandlerWithRequest`, names the request's
function): :func:`settle` decides both once the module's MCP101 plans are known (``guards``).

The package, one job per module: ``sites`` (what a roots site turns into), ``chains`` (which entry
points reach it and whether the path can be threaded to them), ``thread`` (threading the
parameter through helper chains), ``lowlevel`` (low-level servers' inputSchema and arguments),
``parameter`` (the new parameter and list layout), ``round`` (the edits of one round and what the
threading reads back), ``record`` (each site's ``record`` and the round's last step, which threads
every request's path at once), ``across`` (the callers in other modules: their tools take the
path too, rewritten by the engine's project step, ``mcpmigrate/project_threads.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.param.chains import (
    DOCUMENTED_ROLES,
    ENTRY_ROLES,
    Edge,
    Reach,
    chain_reason,
    closure,
    conditional_ancestor,
    fence_of,
    from_registry,
    manual_reason,
    reach,
    reaching_entries,
)
from mcpmigrate.codemods.param.fallbacks import explicit_argument, fallback_gate, keep_fallback
from mcpmigrate.codemods.param.guards import GuardWithRequest, guard_if, settle_guards
from mcpmigrate.codemods.param.lowlevel import lowlevel_target, undocumented
from mcpmigrate.codemods.param.memos import chain_memo, drop_chain_memo, object_store
from mcpmigrate.codemods.param.parameter import name_candidates
from mcpmigrate.codemods.param.record import HandlerWithRequest
from mcpmigrate.codemods.param.shapes import drop_capability_guards, drop_memo, make_optional
from mcpmigrate.codemods.param.sites import Site, irr_site, request_await, request_site, resolve_site
from mcpmigrate.codemods.remove import roots_cache_of
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan, Planned, Safety

__all__ = [
    "STRATEGY",
    "RULES",
    "ENTRY_ROLES",
    "plan_roots_request",
    "plan_roots_interim",
    "reaching_entries",
    "removable_guard",
    "settle",
    "GuardWithRequest",
    "HandlerWithRequest",
]

STRATEGY = "param"
RULES = ("MCP101", "MCP102", "MCP103", "MCP104", "MCP106")


# -- MCP101: a roots request -------------------------------------------------------------------
#: What :func:`_request_plan_site` answers: the site (None: manual), the reason it stays manual,
#: the entry points reaching the request and their call chains.
RequestPlan = tuple[Site | None, str | None, list, list]


def _manual(reason: str | None) -> RequestPlan:
    return None, reason, [], []


def _request_plan_site(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None) -> RequestPlan:
    """The site a roots request turns into, or the reason it stays manual; the entry points
    reaching it and their call chains. The steps, in order, each of which may leave the request
    to a human: where the request is made (:func:`_outside_a_request`), what reaches it
    (``reach``, ``manual_reason``), the parameter's name (:func:`_named_site`), what goes with
    the request (capability guards, memos: :func:`_memo_reason`), whether it is asked only on some
    paths (:func:`_still_optional`), whether callers in other modules can follow
    (:func:`_across_reason`), and the review notes and labels (:func:`_describe`)."""
    if fn is None:
        return _manual("the request is made outside any function: there is no tool to give a parameter")
    if not isinstance(node, cst.Call):
        return _manual(
            "`list_roots` is passed as a callable (bridged from sync code or scheduled), not awaited "
            "in a request handler: rewrite by hand so the tool takes the path as a parameter"
        )
    why = _outside_a_request(a, node, fn)
    if why:
        return _manual(why)
    r = reach(a, fn)
    why = manual_reason(a, fn, r)
    if why:
        return _manual(why)
    funcs, edges = closure(a, fn)
    site, why = _named_site(a, config, node, fn, funcs, edges)
    if why:
        return _manual(why)
    unwrapped = drop_capability_guards(a, site)
    memo = drop_memo(a, site)
    why = _memo_reason(a, site, node, fn, funcs, edges, memo)
    if why:
        return _manual(why)
    # A memo of the roots answer goes with the request: its `if` is not a fallback.
    optional = None if memo else conditional_ancestor(a, node, fn)
    if optional in unwrapped:
        optional = None  # `if <capability>:` around the request goes with it: not a fallback
    guard = fence_of(a, node, funcs)
    if guard and optional:
        # The code already has a server-side boundary for when the roots are missing: the fix that
        # keeps the fence is to use it, which only a human can decide.
        return _manual(
            f"the roots bound what the tool may touch ({guard}) and "
            f"are asked only on some paths (inside `{optional}`), so the other paths already have their own "
            "boundary: as a parameter the caller would choose it. Keep the boundary server-side (the "
            "fallback's configuration) and drop the roots request by hand"
        )
    optional = _still_optional(a, site, node, fn, funcs, edges, r.entries, optional, memo)
    why = _across_reason(site, r, optional, guard)
    if why:
        return _manual(why)
    _describe(a, site, r, edges, optional, guard)
    return site, None, r.entries, r.chains


def _outside_a_request(a: ModuleAnalysis, node: cst.Call, fn: FunctionInfo) -> str | None:
    """Why the request ``node`` in ``fn`` is not made for a request a tool could be given the
    path in (None: it is): not awaited in an async handler, or on a session kept in a registry."""
    if not fn.is_async or request_await(a, node) is None:
        return (
            "the request is not awaited inside an async request handler (a sync tool bridging into "
            "the event loop, or a background task): rewrite by hand"
        )
    recv = node.func.value if isinstance(node.func, cst.Attribute) else None
    if recv is not None and from_registry(a, recv, fn):
        return (
            "the session was captured outside the request (a module-level registry) and is used "
            "outside any tool call: there is no request to carry a parameter"
        )
    return None


def _named_site(
    a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo, funcs: list[FunctionInfo], edges: list[Edge]
) -> tuple[Site, str | None]:
    """The request's site under the first candidate name (``name_candidates``) that no function
    on the chain already uses, and why the path cannot be threaded (None: it can; when every name
    is taken, the first name's reason)."""
    first_reason = None
    for cfg in name_candidates(config):
        site = request_site(a, cfg, node, fn)
        reason = chain_reason(a, site, funcs, edges)
        if reason and reason.startswith(f"`{site.name}` is already a name"):
            first_reason = first_reason or reason
            continue
        break
    else:
        reason = first_reason
    return site, reason


def _memo_reason(
    a: ModuleAnalysis,
    site: Site,
    node: cst.Call,
    fn: FunctionInfo,
    funcs: list[FunctionInfo],
    edges: list[Edge],
    memo: str | None,
) -> str | None:
    """Why a memo of the roots answer keeps the request manual (None: there is none, or it goes
    with the request): ``memo`` is :func:`drop_memo`'s answer; a memo on the way from the entry
    points (``chain_memo``) goes too when ``drop_chain_memo`` can drop it."""
    if memo and memo.startswith("manual:"):
        return memo[len("manual:") :]
    held = chain_memo(a, fn, node, funcs, edges, set(site.changes))
    if held is not None and (held.decorator or not drop_chain_memo(a, site, fn, node, funcs, edges)):
        return held.reason(None if held.decorator else object_store(a, funcs))
    return None


def _still_optional(
    a: ModuleAnalysis,
    site: Site,
    node: cst.Call,
    fn: FunctionInfo,
    funcs: list[FunctionInfo],
    edges: list[Edge],
    entries: list[FunctionInfo],
    optional: str | None,
    memo: str | None,
) -> str | None:
    """``optional`` (the header of the ``if``/``try`` the request is asked inside), or None when
    the site keeps the other paths working: the new parameter optional and used only where the
    roots were (``make_optional``, ``keep_fallback``)."""
    if optional and fn.role in ("tool", "prompt") and funcs == [fn] and make_optional(a, site):
        return None  # an optional parameter used only where the roots were: calls that worked keep working
    if not memo and all(e.role in DOCUMENTED_ROLES for e in entries):
        # Reached only where no other directory was given (in a helper, behind an argument, an
        # environment variable or a `try`): the new parameter is optional and used only there.
        # what goes with the request (a capability guard); a `try` unwrapped around it is a fallback
        dead = {k for k, (n, _c) in site.changes.items() if not isinstance(n, cst.Try)}
        gate = fallback_gate(a, fn, node, funcs, edges, dead)
        if gate and keep_fallback(a, site, gate, *explicit_argument(a, fn, node, funcs, edges, dead)):
            return None
    return optional


def _across_reason(site: Site, r: Reach, optional: str | None, guard: str | None) -> str | None:
    """Why the callers in other modules (``r.across``) cannot be given the path (None: they can,
    or there are none)."""
    prompt = next((c for c, _callee in r.across if c.role == "prompt"), None)
    if prompt is not None and site.mode == "list":
        return f"{prompt.label} is a prompt and prompt arguments are strings: a list of paths cannot be passed"
    if r.across and (optional or site.optional or site.fallback or guard):
        return (
            "called from another module and asked only on some paths or as an allow-list: the other "
            "module's tools would change too; rewrite by hand"
        )
    return None


def _describe(
    a: ModuleAnalysis, site: Site, r: Reach, edges: list[Edge], optional: str | None, guard: str | None
) -> None:
    """The site's review notes (a fallback made required, an allow-list, undocumented low-level
    arguments), the entry points its label names and the callers in other modules."""
    if optional:
        site.unsafe.append(
            f"the roots are asked only on some paths (inside `{optional}`), as a fallback; the new parameter is "
            "required on every call, so callers that relied on the other path must now pass it"
        )
    if guard:
        site.unsafe.append(
            f"the roots bound what the tool may touch ({guard}); as a parameter the caller "
            "chooses that boundary, so enforce it with server configuration instead"
        )
    site.labels = [_entry_label(a, site, e, edges) for e in r.entries]
    site.unsafe += _undocumented(a, site, r.entries, edges)
    site.labels += list(dict.fromkeys(c.label for c, _callee in r.across))
    site.across = [(c.path, c.caller, callee) for c, callee in r.across]


def _entry_label(a: ModuleAnalysis, site: Site, e: FunctionInfo, edges: list[Edge]) -> str:
    if e.role != "lowlevel-tool":
        return f"`{e.qualname}`"
    nodes = [site.node] if e is site.fn else [c for caller, c, _ in edges if caller is e]
    tools = sorted({t.tool for t in (lowlevel_target(a, e, n, site.name) for n in nodes) if not isinstance(t, str)})
    return ", ".join(f"tool {t!r}" for t in tools) + f" (low-level handler `{e.qualname}`)"


def _undocumented(a: ModuleAnalysis, site: Site, entries: list[FunctionInfo], edges: list[Edge]) -> list[str]:
    """The review notes of the low-level tools among ``entries`` that no inputSchema of the module
    lists (the argument is read, but documented nowhere)."""
    notes: list[str] = []
    for e in entries:
        if e.role != "lowlevel-tool":
            continue
        for n in [site.node] if e is site.fn else [c for caller, c, _ in edges if caller is e]:
            target = lowlevel_target(a, e, n, site.name)
            note = undocumented(target, site.name) if not isinstance(target, str) else None
            if note and note not in notes:
                notes.append(note)
    return notes


def plan_roots_request(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None) -> FixPlan:
    """Decide the fix for one roots request (MCP101)."""
    site, reason, entries, chains = _request_plan_site(a, config, node, fn)
    if site is None:
        return FixPlan(manual=reason)
    names = ", ".join(site.labels)
    if site.optional and site.fallback:  # when it is used, as its description says (fallback_note)
        desc = f"add an optional documented `{site.name}` parameter to {names}, u{site.fallback[1:-1]}, and drop the roots request"
    elif site.fallback:
        desc = (
            f"add an optional documented `{site.name}` parameter to {names}, used only where the roots were "
            f"asked (inside `{site.gate}`), and drop the roots request"
        )
    else:
        desc = f"add a documented `{site.name}` parameter to {names} and drop the roots request"
    if site.unsafe:
        desc += " (review: " + "; ".join(site.unsafe) + ")"
    fix = FixInfo(Safety.UNSAFE if site.unsafe else Safety.SAFE, STRATEGY, desc)
    return FixPlan(fix, None, site)


# -- MCP106: roots asked through an interim result ---------------------------------------------
def _interim_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> Site:
    q = a.qualname(node.func) if isinstance(node, cst.Call) else None
    if q in S.LIST_ROOTS_MARKER:
        return resolve_site(a, config, node, fn)
    site = irr_site(a, config, node, fn)
    if site.reason is None and fn is not None:  # irr_site gives a reason when fn is None
        site.reason = chain_reason(a, site, [fn], [])
    return site


def plan_roots_interim(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> FixPlan:
    """Decide the fix for roots asked through an interim result (MCP106)."""
    site = _interim_site(a, config, node, fn)
    if site.reason:
        return FixPlan(manual=site.reason)
    if site.kind == "resolve":
        where = ", ".join(f"`{t.qualname}`" for t in site.tools)
        desc = f"replace the `Resolve(...)` roots parameter of {where} with a documented `{site.name}` parameter"
    else:
        where = f"`{fn.qualname}`" if fn else "the handler"
        desc = f"replace the interim roots round of {where} with a documented `{site.name}` argument in the tool's inputSchema"
    notes = _undocumented(a, site, [fn], []) if site.kind == "irr" and fn is not None else []
    if notes:
        desc += " (review: " + "; ".join(notes) + ")"
    return FixPlan(FixInfo(Safety.UNSAFE if notes else Safety.SAFE, STRATEGY, desc), None, site)


# -- MCP102: a capability check guarding the request ------------------------------------------
def removable_guard(a: ModuleAnalysis, call: cst.CSTNode) -> bool:
    """The MCP102 capability check is an ``if not …: return/raise`` guard the fix can delete."""
    return guard_if(a, call) is not None


# -- settling the plans that follow a roots request ----------------------------------------------
def settle(a: ModuleAnalysis, config: Config, reports: Sequence[Planned]) -> list[FixPlan]:
    """The roots family's plans that follow the module's MCP101 plans (``reports``: the reports of
    :data:`RULES`; one plan returned per report, in order): an MCP102 capability guard goes with
    the request it guards, or stays with it (``guards.settle_guards``); an MCP103 roots
    ``list_changed`` handler that invalidates a cache a roots request fills goes with that request
    when the param fix removes it (same safety), never alone while the cache stays (its removal
    alone is planned afterwards by ``remove.settle``)."""
    plans = [r.plan for r in reports]
    settle_guards(a, reports, plans, removable_guard)
    for i, r in enumerate(reports):
        fix = plans[i].fix
        if r.rule == "MCP102" and fix is not None and fix.strategy == STRATEGY:
            if plans[i].site is None:  # a guard settled with its request (guards._with_requests)
                plans[i] = replace(plans[i], site=GuardWithRequest(r.node))
    requests = {id(a.enclosing_function(r.node)): r.plan for r in reports if r.rule == "MCP101"}
    for i, r in enumerate(reports):
        cache = roots_cache_of(a, r.node) if r.rule == "MCP103" and plans[i].fix is not None else None
        filler = a.function_named(cache[2]) if cache else None
        request = requests.get(id(filler)) if filler is not None else None
        if cache and request is not None and request.fix is not None and request.fix.strategy == STRATEGY:
            fix = FixInfo(
                request.fix.safety,
                STRATEGY,
                f"removed together with the roots request in `{cache[2]}`, whose cache `{cache[1]}` it invalidates",
            )
            plans[i] = replace(plans[i], fix=fix, site=HandlerWithRequest(cache[2], r.node))
    return plans

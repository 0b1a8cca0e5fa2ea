"""The ``interim`` fix: a request the server pushed to the client mid-call (roots, sampling,
elicitation) moves into the multi-round-trip pattern, era-portable where the SDK allows.

Spec: 2026-07-28 removes server-to-client requests; ``tools/call``, ``prompts/get`` and
``resources/read`` may answer with ``InputRequiredResult`` (``inputRequests`` keyed by the server,
the client retries with ``inputResponses`` at the same keys; declining is not retrying). The
README's ``interim`` strategy says what users get; this package decides and writes it.

:func:`plan_request` (called by the detectors) decides, once per request, which form applies and
returns a :class:`~mcpmigrate.model.FixPlan` whose ``site`` is that decision; its ``record``
(``sites.Site.record``, called by the engine for ``fix``) records the rewrite, never deciding again, so the
label ``check`` prints is the rewrite ``fix`` makes. One module per SDK generation, plus the shared
logic:

- :mod:`.sites` — what kind of request a call is, the decided :class:`~.sites.Site`, and the checks
  every form shares (where the request sits, what runs before it, what it is built from);
- :mod:`.refusals` — the generation once the project's dependency pins are heard; mcp 1.x refused;
- :mod:`.mcpserver` — mcp 2.x ``MCPServer`` tools: a resolver (``Elicit``/``Sample``/``ListRoots``);
- :mod:`.helpers` — a request made in a helper the tools call, and context aliases;
- :mod:`.guard` — an ``MCPServer`` tool's request in a ``try`` with fallbacks (no resolver form): the
  round in place, the ``try`` kept; :mod:`.relay` — such a request in a helper: the tools return its
  interim result;
- :mod:`.scope` — what a resolver may read: pure locals it recomputes, a factory's names;
- :mod:`.lowlevel` — mcp 2.x low-level ``Server`` handlers (and fastmcp 4): an
  ``InputRequiredResult`` round, several requests of a handler in one result;
- :mod:`.fastmcp` — fastmcp 4's guard-pattern pieces; fastmcp 2.x/3.x code refused;
- :mod:`.capability` — the capability check before an ``InputRequiredResult`` (-32021 otherwise);
- :mod:`.dual_sdk` — a module that also supports mcp 1.x, refused while the pins allow it;
- :mod:`.transport` — stateless HTTP, which limits the fix to 2026-07-28 clients (the label says so);
- :mod:`.common_edits` — the edits all forms share.

Fixes that change the order of side effects (the question is asked before the body, or the code
before it runs once per round), or unwrap a fail-open ``try`` around the request (MCP207: clients
without the capability now get an error instead of the unconfirmed action), are **unsafe**.
"""

from __future__ import annotations

from functools import partial

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.interim.capability import capability_names
from mcpmigrate.codemods.interim.dual_sdk import dual_sdk_refusal
from mcpmigrate.codemods.interim.fastmcp import fastmcp3_reason, fastmcp_reason, upgrade_how
from mcpmigrate.codemods.interim.guard import guard_reason, in_try, refusal_note
from mcpmigrate.codemods.interim.helpers import helper_reason
from mcpmigrate.codemods.interim.inject import Injection, describe_injection
from mcpmigrate.codemods.interim.joint import describe_joints, joint_reason
from mcpmigrate.codemods.interim.lowlevel import lowlevel_reason
from mcpmigrate.codemods.interim.mcpserver import MCPSERVER_NOT_TOOL, resolver_reason
from mcpmigrate.codemods.interim.refusals import framework_refusal, mcp1_refusal, open_pin_risk, pinned_generation
from mcpmigrate.codemods.interim.relay import relay_plan
from mcpmigrate.codemods.interim.sites import (
    ELICITATION,
    HL_ROLES,
    LL_ROLES,
    ROOTS,
    SAMPLING,
    Site,
    answer_name,
    callers_generation,
    discarded,
    discarded_name,
    exits_before,
    generation,
    legacy_only,
    request_kind,
    side_effects_before,
    unassigned_reason,
    where_reason,
)
from mcpmigrate.codemods.interim.thread import describe_thread, requests_reached, thread_reason, threaded_form
from mcpmigrate.codemods.interim.transport import stateless_http, stateless_note
from mcpmigrate.codemods.param.chains import untyped_calls
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import enclosing_stmt

__all__ = [
    "STRATEGY",
    "RULES",
    "ROOTS",
    "SAMPLING",
    "ELICITATION",
    "request_kind",
    "legacy_only",
    "plan_request",
    "plan_gate",
    "fail_open_try",
    "edits",
]

STRATEGY = "interim"
RULES = ("MCP101", "MCP201", "MCP202", "MCP207")


# ---------------------------------------------------------------------------------------------
# Planning (called by the detectors)


def plan_request(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None, kind: str) -> FixPlan:
    """The interim fix for one pushed request (MCP101/MCP201/MCP202): the fix and its site, or why
    the request is left for a human."""
    site = _site(a, node, fn, kind, python=config.target_version)
    if isinstance(site, str):
        return FixPlan(manual=site)
    resolver = site.form == "resolver"
    # The label is read off the text, never off the run's history: a second `fix` sees only the
    # written text, so a later round must label a site as a fresh run would (pipeline._verify).
    # Here the text is mcp 1.x code this run ports: the port and this resolver together change what
    # a client without the capability gets (unsafe, as the port's MCP501 rename is). In a later round
    # (`a.ported_from_mcp1`) the text is mcp 2.x code, whose refusal is already a JSON-RPC error: the
    # note stays, the label is a fresh run's.
    review = resolver and _ported_in_this_run(a, site)
    changed = resolver and not review and a.ported_from_mcp1
    desc = _describe(
        site,
        refusal_note(a, site),
        resolver_refusal_from_mcp1(site.kind) if changed else "",
        [resolver_refusal_from_mcp1(site.kind)] if review else [],
    )
    fix = FixInfo(Safety.UNSAFE if site.unsafe or review else Safety.SAFE, STRATEGY, desc)
    return FixPlan(fix, None, site)


def resolver_refusal_from_mcp1(kind: str) -> str:
    """What a resolver changes for a client without the capability of its request (``kind``), when
    this run ports mcp 1.x code. Measured with mcp 1.27 → 2.3 and the mcp 2.3 client without the
    callback (tests/test_port_refusals.py, tests/test_port_interim.py): mcp 1.x sent the request
    anyway, the client refused it and FastMCP turned the exception into a tool error; mcp 2.x's
    resolver checks the capability first ("Client did not declare the roots capability required by
    resolver '…'", "the sampling capability", "the form elicitation capability")."""
    declared = {ROOTS: "roots", SAMPLING: "sampling", ELICITATION: "elicitation"}[kind]
    needed = {ROOTS: "roots", SAMPLING: "sampling", ELICITATION: "form elicitation"}[kind]
    return (
        f"a client that did not declare {declared} got a tool error result (`isError: true`, the client's refusal "
        f'as its text) from the mcp 1.x tool, and now gets a JSON-RPC error -32021 instead (`MCPError` "Client did '
        f'not declare the {needed} capability required by resolver …", raised before the tool runs), on '
        "legacy connections too"
    )


def _ported_in_this_run(a: ModuleAnalysis, site: Site) -> bool:
    """This run ports the request's mcp 1.x code to mcp 2.x (``--target-sdk mcp2``): the text says so
    (an earlier fix round that already ported it is ``a.ported_from_mcp1``)."""
    if a.target_sdk != "mcp2" or not isinstance(site.call, cst.Call):
        return False
    return (generation(a, site.call, site.fn) or callers_generation(a, site.fn)) == S.MCP1


def plan_gate(request: FixPlan) -> FixPlan:
    """MCP207's plan for a consent gate that fails open around a pushed request whose interim fix
    is ``request`` (:func:`plan_request`, with a fix): the same site — rewriting the request closes
    the gate, the body runs only with an answer — labelled unsafe, since clients that cannot elicit
    can no longer run the tool at all, which is the point (``rules/MCP207.toml``)."""
    assert request.fix is not None
    if isinstance(request.site, Site) and (request.site.form == "guard" or request.site.kept is not None):
        how = "no resolver form: `guard`" if request.site.form == "guard" else "fastmcp 4's round in the kept `try`"
        return FixPlan(
            manual=f"the interim fix writes the request's round in place, inside this `try` ({how}), so this "
            "handler still lets the tool go on without an answer when the client cannot answer: close the gate by "
            "hand (return or raise in the handler)"
        )
    return FixPlan(FixInfo(Safety.UNSAFE, request.fix.strategy, request.fix.description), None, request.site)


def _where(
    a: ModuleAnalysis, call: cst.CSTNode, fn: FunctionInfo | None, kind: str
) -> tuple[FunctionInfo, cst.Call, cst.Await, str, str | None, bool] | str:
    """Where the request is made, as the interim fix needs it: a call awaited directly in an async
    tool or handler that only the SDK calls (or in a helper of one, on mcp 2.x), of a server whose
    SDK generation has an interim form. Returns the function, the call, its ``await``, the
    generation, the pin it was decided by and whether the function is a helper; else why the
    request stays manual."""
    if fn is None or not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
        return (
            "the request is not a direct call inside a request handler (made at module level, or the method "
            "is passed as a callable): rewrite by hand"
        )
    framework = framework_refusal(a, call, fn, kind)
    if framework:
        return framework
    # the fastmcp 4 advice names the whole path: fastmcp 4 also removed `ctx.sample`, say what replaces it
    gen, refusal, pin_note = pinned_generation(
        a, generation(a, call, fn) or callers_generation(a, fn), kind, how=upgrade_how(call)
    )
    if refusal:
        return refusal
    if gen == S.MCP1:
        return mcp1_refusal(a, kind)
    if gen == S.FASTMCP:
        reason = fastmcp3_reason(a, call, fn, kind, pinned=pin_note)
        if reason:
            return reason
    dual = dual_sdk_refusal(a)
    if dual:
        return dual
    pm = a.parents
    aw = pm.get(id(call))
    if not (isinstance(aw, cst.Await) and aw.expression is call) or not fn.is_async:
        return "the request is not awaited directly in an async handler: rewrite by hand"
    helper = fn.role not in HL_ROLES | LL_ROLES
    if helper and gen != S.MCP2:
        where = f"`{fn.qualname}`"
        if not a.callers(fn) and not a.references_outside_calls(fn) and not a.external_callers(fn):
            untyped = untyped_calls(a, fn)
            if untyped:
                return (
                    f"{where} has no call in this module that the analysis can tie to it, only perhaps {untyped} "
                    f"(a `{fn.name}` of an object whose class it does not know): the interim fix cannot follow "
                    "the chain to the tool; move the question into the tool by hand"
                )
            return (
                f"{where} is neither registered nor called in this project as far as the analysis follows (a "
                "decorator of the project's own, a table of tools?): "
                "the interim fix cannot tell whether it is the tool itself or a helper; move the question into the "
                "tool by hand"
            )
        if gen != S.FASTMCP:
            return (
                f"the request is made in the helper {where}{a.external_chain(fn)}, not in the tool or handler itself: "
                "an interim result can only be returned by the handler; move the request into it (or pass the answer in)"
            )
    direct = [f"`{c.qualname}`" for c, _call in a.callers(fn)] + [c.label for c in a.external_callers(fn)]
    if not helper and direct:  # the handler's result changes: those calls would get an interim result
        return (
            f"`{fn.name}` is also called directly (from {', '.join(dict.fromkeys(direct))}), not only by the SDK: "
            "on 2026-07-28 it would hand that caller an interim result instead of its answer (and a resolver "
            "parameter would have to be passed there); rewrite by hand (or call a plain helper from both)"
        )
    if gen not in (S.MCP2, S.FASTMCP):
        return "cannot tell which SDK this server is written for (no mcp 2.x `MCPServer` or low-level `Server`)"
    return fn, call, aw, gen, pin_note, helper


def _site(
    a: ModuleAnalysis,
    call: cst.CSTNode,
    fn: FunctionInfo | None,
    kind: str,
    alone: bool = False,
    python: str | None = None,
    guard: bool = False,
) -> Site | str:
    """The interim rewrite of one request, or the reason it stays manual; ``python``: the version the
    project's code targets (``Config.target_version``); ``guard``: an ``MCPServer`` tool's round in
    place (:mod:`.guard`), tried where its request in a ``try`` has no resolver form."""
    where = _where(a, call, fn, kind)
    if isinstance(where, str):
        return where
    fn, call, aw, gen, pin_note, helper = where
    stmt = enclosing_stmt(a, call)
    assert stmt is not None
    form = "fastmcp" if gen == S.FASTMCP else "resolver" if fn.role in HL_ROLES or helper else "lowlevel"
    if guard:
        form = "guard"
    if helper and form == "resolver" and threaded_form(a, fn) == "lowlevel":
        form = "lowlevel"  # a helper of low-level handlers: they ask, in their round
    if form == "fastmcp" and fn.role not in HL_ROLES and not helper:
        return "the request is not made in a fastmcp tool, prompt or resource: rewrite by hand"
    if form == "resolver" and fn.role != "tool" and not helper:
        return MCPSERVER_NOT_TOOL.format(role=fn.role)
    site = Site(form, kind, fn, call, stmt, aw, alone=alone, pin=pin_note, stateless=stateless_http(a))
    site.unsafe += [risk] if (risk := open_pin_risk(a, gen)) else []
    name = answer_name(site)
    if name is not None and sum(1 for n, _ in fn.assigns if n == name) == 1 and name not in fn.param_names():
        site.result = name
    elif form != "resolver" and not helper and discarded(stmt, aw):  # `await <request>`, its answer thrown away
        site.result = discarded_name(a, site)  # the round binds it; legacy keeps the statement as it is
    reason = where_reason(a, site) or (guard_reason(a, site) if form == "guard" else None)
    if reason:
        return _in_place(a, site, reason, python)
    if helper and form == "guard":  # it asks in place, its calling tools relay the interim result
        site.unsafe += side_effects_before(a, site)
        return relay_plan(a, site) or site
    if helper and site.reask is not None:  # a fastmcp helper's re-ask loop: its rounds in place, relayed
        site.unsafe += side_effects_before(a, site)
        if site.result is None:
            return unassigned_reason(site)
        return fastmcp_reason(a, site) or relay_plan(a, site) or site
    if helper:
        site.unsafe += side_effects_before(a, site, "the question is now asked before the calling tool's body runs")
        if site.form != "resolver":  # the handlers ask only where the helper would (thread.skip_conditions)
            reason = thread_reason(a, site, python)
            if not reason and not alone:  # with the other requests its handlers reach, in one round
                reason = joint_reason(a, site, partial(_alone, a, python))
            return reason or site
        exits = exits_before(a, site.unwrap or site.stmt, fn)
        if exits:
            site.unsafe.append(
                f"`{exits}` can end `{fn.name}` before the request today; the question is now asked on every call"
            )
        return helper_reason(a, site) or site
    return _handler_site(a, site, alone, python)


def _handler_site(a: ModuleAnalysis, site: Site, alone: bool, python: str | None) -> Site | str:
    """The rest of :func:`_site` for a request made in the tool or handler itself: its form's checks
    (a resolver, else the round in place, else the low-level/fastmcp round with its group)."""
    fn = site.fn
    reason: str | None = None
    site.unsafe += side_effects_before(a, site)
    if site.form == "resolver":
        exits = exits_before(a, site.unwrap or site.stmt, fn)
        if exits:
            site.unsafe.append(
                f"`{exits}` can end `{fn.name}` before the request today; the question is now asked on every call"
            )
        reason = resolver_reason(a, site)
        if reason:
            return _in_place(a, site, reason, python)
    elif site.form == "guard":
        mine = {id(c) for c in fn.calls}
        if any(id(c) not in mine for c in requests_reached(a, fn)):
            reason = (
                f"`{fn.qualname}` also reaches requests its helpers make, and this one sits in a `try` with "
                "fallbacks: their one interim round cannot keep the fallback; rewrite by hand"
            )
    else:

        def member(c: cst.Call) -> Site | str:  # another request of the handler, checked as one of its group
            return _site(a, c, fn, request_kind(a, c, fn) or "", alone=True)

        mine = {id(c) for c in fn.calls}
        joint = any(id(c) not in mine for c in requests_reached(a, fn))  # its helpers ask too
        others = [c for c in fn.calls if c is not site.call and request_kind(a, c, fn) is not None]
        if site.kept is not None and (joint or others):
            return (
                f"`{fn.qualname}` makes or reaches {len(others) + 1 if others else 'more'} requests and this one sits "
                "in a `try` that also guards statements that do not use its answer: their one interim round cannot "
                "keep the `try`'s fallback for each; rewrite by hand"
            )
        if joint:
            site.alone = True  # its requests are grouped with its helpers' (joint_reason)
        reason = fastmcp_reason(a, site) if site.form == "fastmcp" else None
        reason = reason or lowlevel_reason(a, site, member)
        if not reason and joint and not alone:
            reason = joint_reason(a, site, partial(_alone, a, python))
    return reason or site


def _in_place(a: ModuleAnalysis, site: Site, reason: str, python: str | None) -> Site | str:
    """Where an ``MCPServer`` tool's request in a ``try`` with handlers has no resolver form
    (``reason``), its round in place (:mod:`.guard`), which keeps the ``try``; else the reason (the
    round's own when the request sits in such a ``try``)."""
    if site.form != "resolver" or site.fn.role not in ("tool", None) or not in_try(a, site.stmt):
        return reason
    return _site(a, site.call, site.fn, site.kind, python=python, guard=True)


def _alone(a: ModuleAnalysis, python: str | None, call: cst.Call) -> Site | str:
    """The interim rewrite of one request on its own (not grouped with the others of its handler)."""
    fn = a.enclosing_function(call)
    return _site(a, call, fn, request_kind(a, call, fn) or "", alone=True, python=python)


def _describe(site: Site, refusal: str, changed: str = "", review: list[str] | None = None) -> str:
    """The fix's one-line description (what ``check`` prints): the form, where, and what to review;
    ``refusal``: what a client that did not declare the capability gets (a round in place);
    ``changed``: what such a client got before the port and gets now (a resolver written after the
    port, a note); ``review``: what to review besides the site's own (``site.unsafe``)."""
    what = {ROOTS: "`ListRoots()`", SAMPLING: "`Sample(...)`", ELICITATION: "`Elicit(...)`"}[site.kind]
    eras = stateless_note(site.stateless, writes_state=True) if site.stateless else "works on both eras"
    if site.thread is not None:
        desc = describe_thread(site)
        refused = capability_names([h.site for h in site.thread.handoffs][:1])
        desc += f" (a client that did not declare {refused} gets error -32021 instead, as from the SDK's resolvers)"
        if site.form == "fastmcp":
            desc += f" (fastmcp 4's guard pattern: needs fastmcp>=4{'; ' + site.pin if site.pin else ''})"
    elif site.callers is not None:
        tools = ", ".join(dict.fromkeys(f"`{c.fn.qualname}`" for c in site.callers))
        desc = (
            f"move the request out of the helper `{site.fn.qualname}` into a resolver returning {what} for each "
            f"call, injected into {tools} with `Annotated[..., Resolve(fn)]` and handed to the helper in place of "
            f"the request ({eras})"
        )
    elif site.form == "resolver":
        desc = (
            f"move the request into a resolver returning {what}, injected into `{site.fn.qualname}` with "
            f"`Annotated[..., Resolve(fn)]` ({eras})"
        )
    else:
        names = {ROOTS: "ListRootsRequest", SAMPLING: "CreateMessageRequest", ELICITATION: "ElicitRequest"}
        where = (
            f"`{site.ctx_param}.input_responses`" if site.form in ("fastmcp", "guard") else "`params.input_responses`"
        )
        refused = f"a client that did not declare {capability_names(site.group or [site])} gets " + (
            refusal
            if site.kept is not None or site.form == "guard"
            else "error -32021 instead, as from the SDK's resolvers"
        )
        if site.group:
            reqs = ", ".join(f"`{names[m.kind]}` under {m.key or m.result!r}" for m in site.group)
            desc = (
                f"on 2026-07-28 `{site.fn.qualname}` returns one `InputRequiredResult` with all "
                f"{len(site.group)} of its requests ({reqs}) until {where} holds every answer "
                f"({refused}; no requestState is written); legacy keeps the requests"
            )
        elif site.reask is not None:
            desc = (
                f"on 2026-07-28 each ask of the `while True:` loop in `{site.fn.qualname}` is one `InputRequiredResult` "
                f"round with a `{names[site.kind]}` under key '{site.key or site.result}_<n>' (n: the round, carried "
                f"in requestState, which fastmcp 4 seals) and reads the answer from {where} on the retry ({refused}); "
                "legacy keeps the loop"
            )
        else:
            desc = (
                f"on 2026-07-28 `{site.fn.qualname}` returns `InputRequiredResult` with a `{names[site.kind]}` "
                f"under key {site.key or site.result!r} and reads the answer from {where} on the retry "
                f"({refused}; no requestState is written); legacy keeps the request"
            )
        if site.stateless:
            desc += f" ({stateless_note(site.stateless, site.reask is not None, 'the re-ask round', 'FastMCP')})"
        if site.form == "fastmcp":
            desc += f" (fastmcp 4's guard pattern: needs fastmcp>=4{'; ' + site.pin if site.pin else ''})"
    for fn, inject in _injections(site).items():
        desc += f" ({describe_injection(fn, inject)})"
    if site.moved:  # a resolver's (a tool's own, or each calling tool's for a helper's request)
        whose, sees = ("helper", "resolvers see") if site.callers is not None else ("tool", "resolver sees")
        classes = ", ".join(f"`{c.name.value}`" for c in site.moved)
        desc += f" (the class {classes} moves from the {whose} body to right above the {whose}, where the {sees} it)"
    if site.joints and (joint := describe_joints(site)):
        desc += f" ({joint})"
    if site.pin and site.form != "fastmcp":
        desc += f" (mcp 2.x: {site.pin})"
    if changed:
        desc += f" ({changed})"
    if site.unsafe or review:
        desc += " (review: " + "; ".join([*site.unsafe, *(review or [])]) + ")"
    return desc


def _injections(site: Site) -> dict[FunctionInfo, Injection]:
    """The handlers whose requests of this fix go through ``get_context()``, with their injected
    ``Context`` parameter: the site's own, its group's, and those of the handlers that ask for it
    (a helper's request) or with it (a joint round)."""
    members = [*(site.group or [site])]
    if site.thread is not None:
        members += [h.site for h in site.thread.handoffs]
    members += [k.site for joint in site.joints.values() for rd in joint.rounds for k in rd]
    return {m.fn: m.inject for m in members if m.inject is not None}


def fail_open_try(a: ModuleAnalysis, call: cst.CSTNode) -> cst.Try | None:
    """The innermost ``try`` whose body holds ``call`` (for MCP207)."""
    pm = a.parents
    child: cst.CSTNode = call
    cur = pm.get(id(call))
    while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module)):
        if isinstance(cur, cst.Try) and child is cur.body:
            return cur
        child, cur = cur, pm.get(id(cur))
    return None

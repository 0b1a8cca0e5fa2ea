"""fastmcp: the 4.x guard pattern's own pieces, and the refusal of fastmcp 2.x/3.x code.

fastmcp 4 (``from fastmcp import FastMCP, Context``) runs on mcp 2.x: on a 2026-07-28 connection
a tool returns ``mcp_types.InputRequiredResult(input_requests={key: …})`` while
``ctx.input_responses`` lacks the answer and reads it on the retry; fastmcp rejects an interim
result on a legacy connection, so the original request stays there. The round itself is written
by :mod:`.lowlevel` (the same shape as the low-level ``Server``); this module checks that the
request goes through the tool's fastmcp ``Context`` and rebuilds ``ctx.elicit``'s outcome with
fastmcp's own ``parse_elicit_response_type`` / ``handle_elicit_accept``.

fastmcp 2.x/3.x code (``ctx.sample``, ``ctx.list_roots``, ``sampling_handler=``, an ``elicit``
without a response type, mcp 1.x imports) has no interim form: it is refused, naming the
fastmcp 4 upgrade.
"""

from __future__ import annotations

import textwrap

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Spell, as_is
from mcpmigrate.codemods.interim.inject import injection
from mcpmigrate.codemods.interim.sites import ELICITATION, Site, arg_map, elicit_outcome_code
from mcpmigrate.names import base_name

FASTMCP_REFUSE = (
    "fastmcp 2.x/3.x code ({why}) has no interim form: fastmcp 4's guard pattern (return "
    "`InputRequiredResult(input_requests={{…}})` while `ctx.input_responses` lacks the answer, read it on "
    "the retry) needs fastmcp 4 (mcp>=2.3). Upgrade to fastmcp 4{how} and run `fix --strategy interim` again"
)
_ELICITATION = "fastmcp.server.elicitation"
# what fastmcp 2/3 sent for `ctx.elicit` without a response type
EMPTY_FORM = '{"type": "object", "properties": {}}'
# fastmcp 2.x/3.x context methods fastmcp 4 removed, and what a fastmcp 4 tool does instead.
_FASTMCP3_ONLY = {
    "sample": ", sample through `ctx.session.create_message(...)` (or call the model provider directly: "
    "sampling is deprecated)",
    "sample_step": ", sample through `ctx.session.create_message(...)` (or call the model provider directly: "
    "sampling is deprecated)",
    "list_roots": ", ask through `ctx.session.list_roots()` (or take the directory as a tool parameter with "
    "`fix --strategy param`)",
    "send_tool_list_changed": "",
    "send_resource_list_changed": "",
    "send_prompt_list_changed": "",
}


# ---------------------------------------------------------------------------------------------
# fastmcp 2.x/3.x: refused


def upgrade_how(call: cst.Call) -> str:
    """What the fastmcp 4 upgrade advice adds for this call (``FASTMCP_REFUSE``'s ``how``): when
    fastmcp 4 also removed the method itself (``ctx.sample``), what replaces it; else nothing."""
    attr = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
    if _FASTMCP3_ONLY.get(attr):
        return f" (which removed `ctx.{attr}`){_FASTMCP3_ONLY[attr]},"
    return ""


def fastmcp3_reason(
    a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo, kind: str, pinned: str | None = None
) -> str | None:
    """Why this fastmcp code is 2.x/3.x code (no interim form), else None. fastmcp 4 removed
    ``ctx.sample``/``sample_step``/``list_roots``/``send_*_list_changed`` and ``sampling_handler=``,
    made ``elicit``'s response type required, and runs on mcp 2.x only. ``pinned``: the pin note when
    the project pins fastmcp 4, so only what this call itself uses counts, not the rest of the module."""
    attr = call.func.attr.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    if attr in _FASTMCP3_ONLY and a.kind_of(call.func.value, fn) is Kind.CONTEXT_FASTMCP:  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
        if pinned and _FASTMCP3_ONLY[attr]:  # already on fastmcp 4: no upgrade to advise
            return (
                f"`ctx.{attr}` does not exist in fastmcp 4 ({pinned}), so this call fails there; "
                f"{_FASTMCP3_ONLY[attr][2:]}, then run `fix --strategy interim` again"
            )
        return FASTMCP_REFUSE.format(why=f"`ctx.{attr}` was removed in fastmcp 4", how=_FASTMCP3_ONLY[attr])
    if (
        kind == ELICITATION
        and not pinned  # on fastmcp 4 the round asks for the empty form itself (``legacy_request``)
        and a.kind_of(call.func.value, fn) is Kind.CONTEXT_FASTMCP  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
        and empty_form(call)
    ):
        return FASTMCP_REFUSE.format(
            why="`ctx.elicit` without a response type, which fastmcp 4 requires",
            how=" and pass the response type (`bool` for a confirmation)",
        )
    evidence = None if pinned else _fastmcp3_evidence(a)
    if evidence:
        return FASTMCP_REFUSE.format(why=f"the module uses {evidence}", how="")
    return None


def empty_form(call: cst.Call) -> bool:
    """``ctx.elicit(message)`` or ``response_type=None``: fastmcp 2/3 sent the empty form
    (:data:`EMPTY_FORM`) and answered an accept with ``data={}``; fastmcp 4's ``ctx.elicit`` rejects it
    (``parse_elicit_response_type(None)`` raises ``TypeError``)."""
    rt = arg_map(call, ["message", "response_type"]).get("response_type")
    return not any(x.star for x in call.args) and (rt is None or _is_none(rt))


def _is_none(expr: cst.BaseExpression) -> bool:
    """``None`` (fastmcp 4 rejects ``response_type=None``: ``parse_elicit_response_type`` raises)."""
    return isinstance(expr, cst.Name) and expr.value == "None"


def _fastmcp3_evidence(a: ModuleAnalysis) -> str | None:
    """What in the module is fastmcp 2.x/3.x code (memoized per module), else None."""
    return a.memo("interim.fastmcp3", lambda: _find_fastmcp3(a))


def _find_fastmcp3(a: ModuleAnalysis) -> str | None:
    found = None
    if S.MCP1 in a.generations:
        found = "mcp 1.x imports (fastmcp 4 runs on mcp 2.x)"
    for n in walk(a.module):
        if found:
            break
        if not isinstance(n, cst.Call):
            continue
        if isinstance(n.func, cst.Attribute) and n.func.attr.value in _FASTMCP3_ONLY:
            if a.kind_of(n.func.value, a.enclosing_function(n)) is Kind.CONTEXT_FASTMCP:
                found = f"`ctx.{n.func.attr.value}`, which fastmcp 4 removed"
        elif a.qualname(n.func) in S.FASTMCP_SERVER and any(
            x.keyword is not None and x.keyword.value == S.SAMPLING_HANDLER_KWARG for x in n.args
        ):
            found = "`sampling_handler=`, which fastmcp 4 rejects"
    return found


# ---------------------------------------------------------------------------------------------
# fastmcp 4: the guard pattern


def _background_task(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
    """The ``task=…`` argument of the fastmcp decorator that registers ``fn`` as a background
    task tool (fastmcp 4 ``@mcp.tool(task=True)`` / ``task=TaskConfig(...)``), or of its
    registration in another module (``server.tool(task=True)(fn)``, with where), else None. In a
    task, ``Context.request_context`` is None and ``Context.elicit`` raises ToolError
    (``fastmcp/server/context.py``: ``_TASK_ELICIT_ERROR``)."""
    for reg in a.external_registrations(fn):
        if reg.task:
            return f"{reg.task}, registered in {reg.label}"
    for dec in fn.node.decorators:
        if isinstance(dec.decorator, cst.Call):
            for arg in dec.decorator.args:
                if arg.keyword is not None and arg.keyword.value == "task":
                    value = arg.value
                    if isinstance(value, cst.Name) and value.value in ("False", "None"):
                        return None
                    return f"task={code_of(value)}"
    return None


def fastmcp_reason(a: ModuleAnalysis, site: Site, threaded: bool = False) -> str | None:
    """Why a fastmcp 4 request has no guard-pattern form (not through the tool's fastmcp ``Context``,
    ``ctx.elicit`` without a message and a response type), else None; records the context on ``site``.
    fastmcp 2/3's empty form (:func:`empty_form`) has one only where the fix can write the legacy
    request itself (:func:`legacy_request`): a helper's request the handler asks (``threaded``), or
    ``name = await ctx.elicit(...)`` in the handler."""
    fn, call = site.fn, site.call
    recv = call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    base = base_name(recv, through_await=False)
    if base is None or (fn.kinds.get(base) or a.lookup(base, fn)) is not Kind.CONTEXT_FASTMCP:
        inj = injection(a, fn, call)  # `get_context()` (or handed to the helper): the handler's injected `Context`
        if isinstance(inj, str):
            return inj
        if inj is None:
            return (
                f"the request is not made through the {fn.role or 'tool'}'s own fastmcp `Context` parameter "
                "(`ctx.elicit(...)`, `ctx.session.create_message(...)`"
                + (f"; here through `{code_of(recv)}`" if "get_context" in code_of(recv) else "")
                + "): the guard pattern reads `ctx.input_responses`; take `ctx: Context` as a parameter and make the "
                "request through it, then run the fix again"
            )
        site.inject, base = inj, inj.name
    site.ctx_param = base
    task = _background_task(a, fn)
    if task:
        return (
            f"`{fn.qualname}` is a background task tool (`{task}`): there `ctx.request_context` is None, so the "
            "era check of this fix fails, and fastmcp 4 already refuses imperative requests in a task in both eras "
            "(ToolError); write the guard pattern by hand without the era check (return an `InputRequiredResult`, "
            "read `ctx.input_responses` when the task re-runs)"
        )
    if site.kind == ELICITATION and _on_context(site):
        names = set(arg_map(call, ["message", "response_type"]))
        if empty_form(call) and not threaded and site.result is None:
            return (
                "`ctx.elicit` without a response type asks for fastmcp 2/3's empty form, which fastmcp 4's "
                "`ctx.elicit` rejects (`TypeError`), and its outcome is not assigned to a name the legacy branch could "
                "bind from the same request made through `ctx.session.elicit`: write `reply = await ctx.elicit(...)` "
                "on its own line, or pass the response type (`bool` for a confirmation)"
            )
        if empty_form(call):
            if names - {"message", "response_type"}:  # fastmcp 2/3 raised: no field to label
                return "`ctx.elicit` labels a field of the empty form (which has none): rewrite by hand"
            names.add("response_type")
        if not {"message", "response_type"} <= names or names - {
            "message",
            "response_type",
            "response_title",
            "response_description",
        }:
            return "`ctx.elicit` is not called with a message and a response type: rewrite by hand"
    return None


def elicit_config(site: Site, spell: Spell = as_is) -> str:
    """``parse_elicit_response_type(<type>, …)``: fastmcp's own schema and answer handling for
    ``ctx.elicit``; for fastmcp 2/3's empty form, the ``ElicitConfig`` fastmcp 2/3 built for it (fastmcp
    4's ``handle_elicit_accept`` still answers it with ``data={}``); ``spell(module, name)`` is the
    local name of an imported name."""
    if empty_form(site.call):
        return f"{spell('fastmcp.server.elicitation', 'ElicitConfig')}(schema={EMPTY_FORM}, response_type=None, is_raw=False)"
    m = arg_map(site.call, ["message", "response_type"])
    extra = "".join(f", {k}={code_of(m[k])}" for k in ("response_title", "response_description") if k in m)
    return f"{spell('fastmcp.server.elicitation', 'parse_elicit_response_type')}({code_of(m['response_type'])}{extra})"


def context_elicit(site: Site, form: str = "fastmcp") -> bool:
    """Whether the request is ``ctx.elicit(...)`` on a context name in a fix of ``form`` (fastmcp's,
    or mcp 2.x's ``guard`` form): its outcome is rebuilt after the round."""
    return site.form == form and site.kind == ELICITATION and _on_context(site)


def _on_context(site: Site) -> bool:
    """The request is a method of the context itself (``ctx.elicit``, not ``ctx.session.elicit``): made
    on a context name, or on the ``get_context()`` the handler's injected parameter replaces."""
    recv = site.call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    return isinstance(recv, cst.Name) or (site.inject is not None and isinstance(recv, cst.Call))


def elicit_outcome(site: Site, key: str, spell: Spell = as_is) -> str:
    """The lines (inside the 2026-07-28 branch) that turn the answer under ``key`` into what
    fastmcp's ``ctx.elicit`` returns: its accepted/declined/cancelled outcome, the data validated as
    fastmcp does (``handle_elicit_accept``)."""
    accepted = f"{spell(_ELICITATION, 'handle_elicit_accept')}({elicit_config(site, spell)}, {key}.content)"
    return elicit_outcome_code(key, accepted, _ELICITATION, spell)


def legacy_request(site: Site, result: str, spell: Spell = as_is) -> list[cst.BaseStatement]:
    """What a legacy connection runs where the handler makes a helper's request itself:
    ``<result> = await <request>``; for fastmcp 2/3's empty form, which fastmcp 4's ``ctx.elicit``
    rejects, the same request through the session (as ``ctx.elicit`` makes it: ``related_request_id``),
    its outcome rebuilt as fastmcp does."""
    call = site.call
    if not (context_elicit(site) and empty_form(call)):
        return [cst.parse_statement(f"{result} = await {code_of(call)}\n")]
    ctx = site.ctx_param if site.inject is not None else code_of(call.func.value)  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    message = code_of(arg_map(call, ["message"])["message"])
    code = (
        f"{result} = await {ctx}.session.elicit(\n    message={message},\n    requested_schema={EMPTY_FORM},\n"
        f"    related_request_id={ctx}.request_id,\n)\n"
    )
    outcome = elicit_outcome(site, result, spell)
    return list(cst.parse_module(code + textwrap.dedent(outcome)).body)

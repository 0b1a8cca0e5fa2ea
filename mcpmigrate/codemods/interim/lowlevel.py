"""mcp 2.x low-level ``Server(on_call_tool=…)`` (and fastmcp 4 tools): the request becomes an
``InputRequiredResult`` round.

On a 2026-07-28 connection the handler returns ``InputRequiredResult(input_requests={key:
<Request>})`` while ``params.input_responses`` (fastmcp: ``ctx.input_responses``) lacks the answer
and reads it on the retry; on a legacy connection it keeps the original request (a hand-built
interim result there is ``-32603``). No ``requestState`` is written: the handler re-runs from its
arguments and the answers (nothing to protect). Several requests of one handler travel in one
interim result (each retry carries only the answers to the latest ``inputRequests``) when they
sit in one block and each is built from values that exist before the first; requests on paths no
single call shares (the ``if params.name == "…": … return`` dispatch of one ``call_tool``) are each
rewritten on their own, under an ``inputRequests`` key of their own (``reply``, ``reply_2``). The
code before the request now runs once per round: with side effects the fix is unsafe.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits, Spell, as_is
from mcpmigrate.codemods.effects import has_effect
from mcpmigrate.codemods.interim.capability import capability_check
from mcpmigrate.codemods.interim.common_edits import function_edit, unwrap_try
from mcpmigrate.codemods.interim.fastmcp import (
    EMPTY_FORM,
    context_elicit,
    elicit_config,
    elicit_outcome,
    empty_form,
    legacy_request,
)
from mcpmigrate.codemods.interim.guard import (
    elicit_schema,
    guard_context_elicit,
    guard_elicit_outcome,
    local_spell,
    widen_refusals,
)
from mcpmigrate.codemods.interim.inject import record_injection
from mcpmigrate.codemods.interim.sites import (
    ELICITATION,
    ROOTS,
    Site,
    arg_map,
    can_leave,
    first_line,
    request_kind,
    unassigned_reason,
)
from mcpmigrate.codemods.stdlib_logging import module_name
from mcpmigrate.names import all_name_values, assigned, fresh, ref_names

#: The site of another request of the same handler (checked as a member of a group), or why it has none.
Member = Callable[[cst.Call], "Site | str"]


def lowlevel_reason(a: ModuleAnalysis, site: Site, member: Member) -> str | None:
    """Why the request has no interim round (its handler, its answer, its arguments, the handler's
    other requests — each decided by ``member``), else None; a group is recorded on its sites."""
    fn, call = site.fn, site.call
    attr = call.func.attr.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    if len(fn.params) < 2 and site.form == "lowlevel":
        return "the handler does not take `(ctx, params)`: rewrite by hand"
    others = [c for c in fn.calls if c is not call and request_kind(a, c, fn) is not None]
    # requests on paths no single call shares (`if params.name == "…": … return` branches) are
    # rewritten each on its own (a group only with those a call can make with this one), under keys
    # unique across the handler
    on_path = [o for o in others if not exclusive_paths(a, call, [o])]
    if others and site.result is None:
        site.result = _path_answer_name(a, site)
    if site.result is None:
        return unassigned_reason(site)
    if others:  # keys unique across the handler's paths
        site.key = path_keys(a, fn, [call, *others]).get(id(call))
    if site.kind == ELICITATION and attr == "elicit_url":
        return (
            "URL-mode elicitation correlated by `elicitation_id` (gone in 2026-07-28): build the "
            "`ElicitRequestURLParams` request and its correlation through `requestState` by hand"
        )
    if any(x.star for x in call.args):
        return "the request's arguments are passed with `*`/`**`: rewrite by hand"
    if site.reask is not None and others:
        return (
            f"the request is re-asked by `while True:` and `{fn.name}` makes other requests too: each re-ask is "
            "a round of its own, whose retry carries only its answer, so the other answers would be lost; "
            "rewrite by hand"
        )
    ann = fn.node.returns
    if ann is not None and "InputRequiredResult" in code_of(ann.annotation) and site.unwrap is None:
        return "the handler already returns interim results: add this request to them by hand"
    if on_path and not site.alone:
        group = _group(a, site, on_path, member)
        if isinstance(group, str):
            return group
    return None


def exclusive_paths(a: ModuleAnalysis, call: cst.CSTNode, others: Sequence[cst.CSTNode]) -> bool:
    """No single call of the handler makes ``call`` and any of ``others``: each pair sits in the
    ``if`` and ``else`` of one statement (or two ``case``s of one ``match``), or the earlier one in an ``if`` whose body ends with
    ``return``/``raise`` (the usual ``if params.name == "…": … return`` dispatch)."""
    pm = a.parents

    def chain(n: cst.CSTNode) -> list[cst.CSTNode]:
        out = [n]
        while (n := pm.get(id(n))) is not None and not isinstance(n, cst.FunctionDef):  # type: ignore[assignment]
            out.append(n)
        return out

    def apart(x: cst.CSTNode, y: cst.CSTNode) -> bool:
        cx, cy = chain(x), chain(y)
        ids_y = {id(n) for n in cy}
        common = next((n for n in cx if id(n) in ids_y), None)
        if common is None:
            return False
        below_x = cx[cx.index(common) - 1] if cx.index(common) else None
        below_y = cy[[id(n) for n in cy].index(id(common)) - 1] if cy[0] is not common else None
        if isinstance(common, cst.If) and {id(below_x), id(below_y)} == {id(common.body), id(common.orelse)}:
            return True
        if isinstance(common, cst.Match) and isinstance(below_x, cst.MatchCase) and below_x is not below_y:
            return True  # two cases of one `match params.name:`
        if isinstance(common, cst.IndentedBlock) and below_x is not None and below_y is not None:
            body = list(common.body)
            first = below_x if body.index(below_x) < body.index(below_y) else below_y  # type: ignore[arg-type]
            if isinstance(first, cst.If) and isinstance(first.body, cst.IndentedBlock) and first.body.body:
                last = first.body.body[-1]
                exits = isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))
                inside = chain(x if first is below_x else y)
                return exits and any(n is first.body for n in inside)
        return False

    return all(apart(call, o) for o in others)


def answer_target(a: ModuleAnalysis, call: cst.Call) -> cst.Name | None:
    """``x`` of ``x = await <call>``."""
    aw = a.parents.get(id(call))
    assign = a.parents.get(id(aw)) if isinstance(aw, cst.Await) else None
    if isinstance(assign, cst.Assign) and assign.value is aw and len(assign.targets) == 1:
        target = assign.targets[0].target
        return target if isinstance(target, cst.Name) else None
    return None


def _path_answer_name(a: ModuleAnalysis, site: Site) -> str | None:
    """The answer's name when every other binding of it in the handler is on a path this request
    never shares (another branch of the dispatch): on its own path the name is bound once."""
    target = answer_target(a, site.call)
    if target is None or target.value in site.fn.param_names():
        return None
    inside = {id(n) for n in walk(site.stmt)}
    for n in walk(site.fn.node.body):
        if id(n) in inside or a.enclosing_function(n) is not site.fn or target.value not in _binds_here(n):
            continue
        if not exclusive_paths(a, site.stmt, [n]):
            return None
    return target.value


def _binds_here(n: cst.CSTNode) -> set[str]:
    """Names ``n`` itself binds (an assignment target, ``for``/``as``/walrus target)."""
    if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For, cst.CompFor)):
        return {x.value for x in walk(n.target) if isinstance(x, cst.Name)}
    if isinstance(n, cst.AsName):
        return {x.value for x in walk(n.name) if isinstance(x, cst.Name)}
    return set()


def path_keys(a: ModuleAnalysis, fn: FunctionInfo, calls: list[cst.Call]) -> dict[int, str]:
    """An ``inputRequests`` key per request on its own path, in source order: its answer's name, then
    ``name_2`` … when an earlier path already uses it (a retry that takes another path, e.g. after a
    state change, then asks anew instead of reading an answer to another question)."""
    taken: set[str] = set()
    keys: dict[int, str] = {}
    for c in sorted(calls, key=fn.calls.index):
        name = answer_target(a, c)
        if name is not None:
            keys[id(c)] = fresh(taken, name.value)
    return keys


def _group(a: ModuleAnalysis, site: Site, others: list[cst.Call], member: Member) -> list[Site] | str:
    """Several requests in one handler travel in one interim result (each retry carries only the
    answers to the latest ``inputRequests``). Possible when they sit in one block and each is built
    from values that exist before the first one: then all are asked together where the first was."""
    intro = "the handler makes several requests, which must travel in one interim result"
    members = [site]
    for c in others:
        other = member(c)
        if isinstance(other, str):
            return f"{intro}, and `{first_line(c)}` cannot be rewritten: {other}"
        members.append(other)
    pm = a.parents
    block = pm.get(id(site.stmt))
    if not isinstance(block, cst.IndentedBlock) or any(pm.get(id(m.stmt)) is not block for m in members):
        return f"{intro}, but they are not in one block (some run only on some paths): combine them by hand"
    if any(m.unwrap is not None for m in members):
        return f"{intro}, but one sits in a `try`: combine them by hand"
    body = list(block.body)
    members.sort(key=lambda m: body.index(m.stmt))
    first = members[0]
    start = body.index(first.stmt)
    stmts = {id(m.stmt) for m in members}
    for m in members[1:]:
        earlier = body[start : body.index(m.stmt)]
        bound = set().union(*(assigned(x) for x in earlier))
        used = {n.value for n in ref_names(m.call)}
        blocked = sorted(used & bound)
        if blocked:
            names = ", ".join(f"`{b}`" for b in blocked)
            return (
                f"{intro}, but `{first_line(m.stmt)}` is built from {names}, which is set after the first "
                f"request (`{first_line(first.stmt)}`), from its answer or later: the questions cannot be asked "
                "together; ask them in one go by hand (or carry the earlier answer in an integrity-protected "
                "requestState)"
            )
    notes = between_notes(body[start : body.index(members[-1].stmt)], stmts)
    unsafe = list(first.unsafe) + notes
    for m in members:
        m.group, m.unsafe = members, unsafe
    return members


def between_notes(between: list[cst.BaseStatement], requests: set[int]) -> list[str]:
    """The review notes of the statements ``between`` the first and the last request of one round
    (the requests' own statements, ids in ``requests``, aside): on 2026-07-28 they run once every
    question is answered."""
    notes: list[str] = []
    for x in between:
        if id(x) in requests:
            continue
        if can_leave(x):
            notes.append(
                f"`{first_line(x)}` can end the call between the requests today; on 2026-07-28 all the "
                "questions are asked together, before it runs"
            )
        elif has_effect(x):
            notes.append(
                f"`{first_line(x)}` runs between the requests today; on 2026-07-28 it runs once all are answered"
            )
    return notes


def lowlevel_parts(site: Site, spell: Spell = as_is) -> tuple[str, str, set[tuple[str, str]]]:
    """(request expression, answer type(s), imports) for the low-level and fastmcp forms;
    ``spell(module, name)`` is the local name of each imported name (``edits.import_name``)."""
    types = "mcp_types" if site.form == "fastmcp" else "mcp.types"
    req, answer, imports = _request_parts(site, lambda mod, name: spell(types if mod == "mcp.types" else mod, name))
    return req, answer, {(types if mod == "mcp.types" else mod, name) for mod, name in imports}


def _request_parts(site: Site, spell: Spell = as_is) -> tuple[str, str, set[tuple[str, str]]]:
    """(request expression, answer type, imports), the types from ``mcp.types``."""
    call = site.call
    t = partial(spell, "mcp.types")
    attr = call.func.attr.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    if site.kind == ROOTS:
        return (
            f"{t('ListRootsRequest')}()",
            t("ListRootsResult"),
            {("mcp.types", "ListRootsRequest"), ("mcp.types", "ListRootsResult")},
        )
    if guard_context_elicit(site):
        message, schema = elicit_schema(site, spell)
        return (
            f"{t('ElicitRequest')}(params={t('ElicitRequestFormParams')}(message={message}, requested_schema={schema}))",
            t("ElicitResult"),
            {("mcp.types", n) for n in ("ElicitRequest", "ElicitRequestFormParams", "ElicitResult")}
            | {("mcp.server.elicitation", "render_elicitation_schema")},
        )
    if context_elicit(site):
        m = arg_map(call, ["message", "response_type"])
        req = (
            f"{t('ElicitRequest')}(params={t('ElicitRequestFormParams')}(message={code_of(m['message'])}, "
            f"requested_schema={EMPTY_FORM if empty_form(call) else elicit_config(site, spell) + '.schema'}))"
        )
        return (
            req,
            t("ElicitResult"),
            {("mcp.types", n) for n in ("ElicitRequest", "ElicitRequestFormParams", "ElicitResult")}
            | ({("fastmcp.server.elicitation", "parse_elicit_response_type")} if not empty_form(call) else set()),
        )
    if site.kind == ELICITATION:
        m = arg_map(call, ["message", "requested_schema"])
        if "requestedSchema" in m:
            m["requested_schema"] = m.pop("requestedSchema")
        req = (
            f"{t('ElicitRequest')}(params={t('ElicitRequestFormParams')}(message={code_of(m['message'])}, "
            f"requested_schema={code_of(m['requested_schema'])}))"
        )
        return (
            req,
            t("ElicitResult"),
            {("mcp.types", n) for n in ("ElicitRequest", "ElicitRequestFormParams", "ElicitResult")},
        )
    assert attr == "create_message"
    m = arg_map(call, ["messages"])
    m.pop("related_request_id", None)
    inner = ", ".join(f"{k}={code_of(v)}" for k, v in m.items())
    with_tools = "tools" in m or "tool_choice" in m
    result = "CreateMessageResultWithTools" if with_tools else "CreateMessageResult"
    return (
        f"{t('CreateMessageRequest')}(params={t('CreateMessageRequestParams')}({inner}))",
        t(result),
        {("mcp.types", n) for n in ("CreateMessageRequest", "CreateMessageRequestParams", result)},
    )


def round_statement(a: ModuleAnalysis, group: list[Site], ed: Edits) -> cst.If:
    """``if is_version_at_least(<version>, "2026-07-28"): <read every answer, or return one
    InputRequiredResult asking for the missing ones> else: pass`` for the requests of ``group``
    (made in ``group[0].fn``, each answer named by its ``result``); the caller puts the legacy
    requests in the ``else``. The imports are recorded on ``ed``."""
    site = group[0]
    fn = site.fn
    types = "mcp_types" if site.form == "fastmcp" else "mcp.types"
    spell = partial(ed.import_name, a)  # records each import under the name it spells
    for m in group:  # a request through `get_context()`: the handler reads its (new) `Context` parameter
        if m.inject is not None:
            record_injection(a, fn, m.inject, ed)
    if site.form == "guard":  # a name the function imports itself is spelled as it imports it
        spell = partial(local_spell, a, site, ed)
    irr = spell(types, "InputRequiredResult")
    at_least = spell(f"{types}.version", "is_version_at_least")
    if site.form in ("fastmcp", "guard"):  # the tool's context
        version = f"{site.ctx_param}.{'request_context.' if site.form == 'fastmcp' else ''}protocol_version"
        responses = f"{site.ctx_param}.input_responses"
        session = f"{site.ctx_param}.session"
    else:
        version = f"{fn.params[0].name.value}.protocol_version"
        responses = f"{fn.params[1].name.value}.input_responses"
        session = f"{fn.params[0].name.value}.session"
    declared = fresh(set(all_name_values(a)), "declared")
    check = capability_check(group, session, declared, types, spell)
    parts = []
    keys = {}
    for m in group:
        req, answer_type, _imports = lowlevel_parts(m, spell)
        assert m.result is not None
        parts.append((m, m.result, req, answer_type))
        keys[m.result] = m.key or m.result  # the key differs from the answer's name on a dispatch path
    code = f'if {at_least}({version}, "2026-07-28"):\n'
    if site.reask is not None:  # a re-ask loop: each ask is a round, under its own key, numbered in requestState
        code += _reask_lines(parts[0][1:], keys, responses, check, irr, *reask_counter(a, site, ed))
    else:
        code += _ask_lines(parts, keys, responses, check, irr)
    for m, key, _, _ in parts:
        if context_elicit(m):  # what `ctx.elicit` returns, rebuilt as fastmcp does
            code += elicit_outcome(m, key, spell)
        elif guard_context_elicit(m):  # what mcp 2.x's `ctx.elicit` returns
            code += guard_elicit_outcome(m, key, spell)
    code += "else:\n    pass\n"
    new_stmt = cst.parse_statement(code)
    assert isinstance(new_stmt, cst.If) and isinstance(new_stmt.orelse, cst.Else)
    return new_stmt


def _ask_lines(parts: list[Any], keys: dict[str, str], responses: str, check: str, irr: str) -> str:
    """The 2026-07-28 branch's first lines: read each answer, or return one interim result asking
    for them all (``parts``: (site, answer name, request, answer type))."""
    code = "".join(f'    {key} = ({responses} or {{}}).get("{keys[key]}")\n' for _, key, _, _ in parts)
    if len(parts) == 1:
        _, key, req, answer_type = parts[0]
        code += f"    if not isinstance({key}, {answer_type}):\n{check}"
        return code + f'        return {irr}(input_requests={{"{keys[key]}": {req}}})\n'
    missing = " and ".join(f"isinstance({key}, {answer_type})" for _, key, _, answer_type in parts)
    code += f"    if not ({missing}):\n{check}        return {irr}(\n            input_requests={{\n"
    code += "".join(f'                "{keys[key]}": {req},\n' for _, key, req, _ in parts)
    return code + "            }\n        )\n"


def _reask_lines(
    part: tuple[str, str, str], keys: dict[str, str], responses: str, check: str, irr: str, count: str, json: str
) -> str:
    """The same for a request re-asked by a loop: the answer of round ``count`` under its own key, or
    an interim result asking it with the round in ``requestState`` (a JSON object: the round under
    the request's key, so a calling tool can add the answers its earlier rounds gave,
    :mod:`.carry`); once read, the next ask is the next round."""
    key, req, answer_type = part
    key_n = f'f"{keys[key]}_{{{count}}}"'
    state = f'{json}.dumps({{"{keys[key]}": {count}}})'
    return (
        f"    {key} = ({responses} or {{}}).get({key_n})\n"
        f"    if not isinstance({key}, {answer_type}):\n{check}"
        f"        return {irr}(input_requests={{{key_n}: {req}}}, request_state={state})\n"
        f"    {count} += 1\n"
    )


def reask_counter(a: ModuleAnalysis, site: Site, ed: Edits) -> tuple[str, str]:
    """The name of the re-ask loop's round number, set before the loop (``site.reask``) from the
    ``requestState`` the retry echoes (1 on the first call): the round whose answer the retry brings,
    and the key the next ask takes; and the local name of the ``json`` module (imported when
    needed). fastmcp 4 seals ``requestState`` on the wire and refuses a tampered one before the tool
    runs; a number the client picks would only choose under which key its own answer is read."""
    assert site.reask is not None and site.result is not None
    count = fresh(ed.shared("interim.taken", lambda: set(all_name_values(a))), f"{site.result}_round")
    json, add = module_name(a, "json")
    if add:
        ed.add_import("json", None, json)
    state = f"{site.ctx_param}.request_state"
    key = site.key or site.result
    ed.insert_before(site.reask, [cst.parse_statement(f'{count} = {json}.loads({state} or "{{}}").get("{key}", 1)\n')])
    return count, json


def widen_returns(ed: Edits, fn: FunctionInfo) -> None:
    """``fn``'s return annotation also admits ``InputRequiredResult`` (when it has one)."""
    ret = fn.node.returns
    if ret is not None and "InputRequiredResult" not in code_of(ret.annotation):
        function_edit(ed, fn.node).returns = f"{code_of(ret.annotation)} | InputRequiredResult"


def _legacy_of(
    a: ModuleAnalysis, group: list[Site], ed: Edits, kept: cst.BaseStatement, original: cst.CSTNode
) -> list[cst.BaseStatement]:
    """What a legacy connection runs for the request statement ``original`` (``kept``: as the
    legacy branch keeps it): the statement itself, or for fastmcp 2/3's empty form, which fastmcp 4's
    ``ctx.elicit`` rejects, the same request through the session (:func:`.fastmcp.legacy_request`)."""
    for m in group:
        if m.stmt is original and m.result is not None and context_elicit(m) and empty_form(m.call):
            return legacy_request(m, m.result, partial(ed.import_name, a))
    return [kept]


def lowlevel_edits(a: ModuleAnalysis, group: list[Site], ed: Edits) -> None:
    """One ``InputRequiredResult`` asks for every request of ``group`` (in order, one block) where the
    first one was; each original request stays for legacy connections."""
    site = group[0]
    fn = site.fn
    new_stmt = round_statement(a, group, ed)
    assert isinstance(new_stmt.orelse, cst.Else)
    version = new_stmt.test.args[0].value  # type: ignore[attr-defined]  # is_version_at_least(<version>, …)
    # The legacy branch is the original statements themselves (a multi-line call keeps its layout):
    # the first request and those right after it; a later one gets its own legacy-only `if`.
    stmt = site.stmt
    block = a.parents.get(id(stmt))
    body = list(block.body) if isinstance(block, cst.IndentedBlock) else [stmt]
    legacy_stmts = [stmt]
    rest: list[Site] = []
    for m in group[1:]:
        if not rest and body.index(m.stmt) == body.index(legacy_stmts[-1]) + 1:
            legacy_stmts.append(m.stmt)
            ed.remove(m.stmt)
        else:
            rest.append(m)
    legacy = new_stmt.orelse.body.with_changes(
        body=[
            y
            for x in legacy_stmts
            for y in _legacy_of(a, group, ed, x.with_changes(leading_lines=[]) if x is stmt else x, x)
        ]
    )
    new_stmt = new_stmt.with_changes(
        leading_lines=stmt.leading_lines,  # type: ignore[attr-defined]  # libcst types BaseStatement without leading_lines; every statement has them
        orelse=new_stmt.orelse.with_changes(body=legacy),
    )
    ed.replace(stmt, new_stmt)
    for m in rest:
        later = cst.parse_statement(f'if not is_version_at_least({code_of(version)}, "2026-07-28"):\n    pass\n')
        assert isinstance(later, cst.If)
        later_body = later.body.with_changes(
            body=_legacy_of(a, group, ed, m.stmt.with_changes(leading_lines=[]), m.stmt)
        )
        ed.replace(m.stmt, later.with_changes(body=later_body, leading_lines=m.stmt.leading_lines))  # type: ignore[attr-defined]  # libcst types BaseStatement without leading_lines; every statement has them
    if site.unwrap is not None:
        unwrap_try(ed, site.unwrap)
    if site.kept is not None:  # the `try` stays: its refusal tests also match the round's -32021
        widen_refusals(a, site, ed)
    widen_returns(ed, fn)

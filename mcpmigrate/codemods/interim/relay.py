"""A helper whose request sits in a ``try`` with fallbacks, called by ``MCPServer`` tools: the helper
asks in place (:mod:`.guard`) and each calling tool relays its interim result.

Threading the answer (:mod:`.thread`) moves the request out of the helper into each tool, so the
helper's ``try`` no longer guards it: its fallbacks (``except MCPError as e: if e.code ==
METHOD_NOT_FOUND: raise ValueError("Client does not support elicitation…")``) and the statements
that build the request in it (``Consent = type(…, {"ok": Field(description=text)})``) would stay
behind. Here the request keeps its place, its ``try`` and what builds it: on 2026-07-28 the helper
returns the ``InputRequiredResult`` of its round, and each call ``await helper(…)`` (a statement of
its own, in a tool) becomes::

    interim = await helper(…)
    if isinstance(interim, InputRequiredResult):
        return interim

so the tool returns it; the retry runs the tool again up to the call and the helper reads the
answer from ``ctx.input_responses``. On a legacy connection nothing changes (the helper makes the
request; ``interim`` is what it returned before, discarded as before). The answer's key is the
helper's own (``<helper>.<answer>``), apart from the tools' keys.

A tool that reaches another question on a path it shares with the call (its own request, or an
interim result it already returns there) is manual: one round answers only its own questions.
Calls from other modules are written by the project step (``project_answers.py``, all files or
none) with :func:`relay_edits`, checked with :func:`relay_reason`.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.interim.carry import carry_edits, kept_answers
from mcpmigrate.codemods.interim.lowlevel import answer_target, exclusive_paths, widen_returns
from mcpmigrate.codemods.interim.sites import Site, first_line, legacy_only
from mcpmigrate.codemods.interim.thread import reached_asks, scope_names
from mcpmigrate.codemods.port.context import factory_tool
from mcpmigrate.names import enclosing_stmt, fresh

RETURNED = "return"  # relay_target: the call is `return await helper(…)` (no name can be a keyword)


def relay_plan(a: ModuleAnalysis, site: Site) -> str | None:
    """Why the helper ``site.fn`` (its request in a kept ``try``) cannot ask in place and have its
    callers relay the interim result, else None: records the callers on ``site``. The helper is a
    module-level function, or a method of a module-level class called through an instance that a
    tool of another module makes (``executor = AgentExecutor(…)``, ``return await
    executor.execute(…)``)."""
    helper = site.fn
    intro = f"the request is made in the helper `{helper.qualname}`, " + (
        "re-asked by `while True:`" if site.reask is not None else "in a `try` with fallbacks"
    )
    tool_kind = "fastmcp tool" if site.form == "fastmcp" else "mcp 2.x `MCPServer` tool"
    method = (
        helper.class_name is not None
        and helper.parent is None
        and helper.qualname == f"{helper.class_name}.{helper.name}"
    )
    if not method and (helper.parent is not None or helper.class_name is not None or helper.node not in a.module.body):
        return f"{intro}, which is not a module-level function or a method of a module-level class: move the request into the tool by hand"
    used = _method_value_use(a, helper) if method else a.references_outside_calls(helper)
    if used:
        return f"{intro}, which is used other than by direct calls (passed as a callable, stored): rewrite by hand"
    external = a.external_method_callers(helper) if method else a.external_callers(helper)
    for c in external:
        if c.role is None and c.caller:  # maybe a tool a factory makes, or a helper whose tools relay in turn:
            continue  # the project step decides (relay_reason, relay_through)
        if c.role != "tool" or not c.caller:
            return (
                f"{intro}, which {c.label} calls, and that is not a {tool_kind} (only a tool "
                "can return the interim result): rewrite by hand"
            )
    site.relays = []
    for tool, call in a.callers(helper):
        why = relay_reason(a, tool, call, helper.name, tool_kind=tool_kind, reask=site.reask is not None)
        if why:
            return f"{intro}; {why}"
        site.relays.append((tool, call))
    if not site.relays and not external:
        return f"{intro}, which no tool calls: rewrite by hand"
    site.key = f"{helper.name}.{site.result}"
    site.across = [
        {
            "path": c.path,
            "caller": c.caller,
            "callee": helper.name,
            "form": "relay",
            "kind": site.kind,
            "types": "mcp_types" if site.form == "fastmcp" else "mcp.types",
            "tool_kind": tool_kind,
            "reask": site.reask is not None,
        }
        | ({"cls": helper.class_name} if method else {})
        for c in external
    ]
    callers = [f"`{t.qualname}`" for t, _ in site.relays] + [
        c.label if c.role is not None or "." in c.caller else f"each tool that calls {c.label}" for c in external
    ]
    site.unsafe.append(
        f"on 2026-07-28 each calling tool ({', '.join(dict.fromkeys(callers))}) runs again up to its call of "
        f"`{helper.name}` on the retry: the code before that call runs once per round"
    )
    if external and site.form == "fastmcp":  # the project step keeps a calling tool's earlier answers (.carry)
        site.unsafe.append(
            "a calling tool that asked a question of its own first (a round of its own) keeps that answer in "
            "requestState with the round, since a retry brings only the latest round's answer"
        )
    return None


def _method_value_use(a: ModuleAnalysis, helper: FunctionInfo) -> bool:
    """``<x>.<method>`` appears in the helper's module other than as the function of a call (a bound
    method passed or stored): its callers cannot all be seen."""
    for n in walk(a.module):
        if isinstance(n, cst.Attribute) and n.attr.value == helper.name:
            parent = a.parents.get(id(n))
            if not (isinstance(parent, cst.Call) and parent.func is n):
                return True
    return False


def relay_reason(
    a: ModuleAnalysis,
    tool: FunctionInfo,
    call: cst.Call,
    callee: str,
    settled: bool = False,
    tool_kind: str = "mcp 2.x `MCPServer` tool",
    reask: bool = False,
) -> str | None:
    """Why ``tool``'s call ``call`` of the helper cannot relay its interim result (in terms of the
    code), else None. ``settled``: ``a`` is the calling module as this run's own fixes left it (the
    project step), so a request the tool reaches that no round asks (not only on legacy
    connections, no interim result in the tool) runs on every connection as it does today and is
    no other question of a round. ``reask``: the helper's request is re-asked by a loop, a round per
    ask."""
    where = f"`{first_line(call)}` in `{tool.qualname}`"
    if not (tool.role == "tool" or (settled and factory_tool(a, tool))) or not tool.is_async:
        return f"{where} is not in an async {tool_kind} (only a tool can return the interim result)"
    if relay_target(a, call) is None:
        return (
            f"{where} is not a statement `await {callee}(…)`, `name = await {callee}(…)` or `return await "
            f"{callee}(…)` of its own: rewrite by hand"
        )
    stmt = enclosing_stmt(a, call)
    cur = a.parents.get(id(stmt))
    while cur is not None and cur is not tool.node:
        if isinstance(cur, (cst.For, cst.While)):
            return f"{where} is in a loop: each round would ask again under one key; rewrite by hand"
        cur = a.parents.get(id(cur))
    calls = [c for c in tool.calls if (a.qualname(c.func) or "").rpartition(".")[2] == callee]
    if len(calls) != 1:
        return f"`{tool.qualname}` calls `{callee}` {len(calls)} times: each asks today; rewrite by hand"
    resolved = [x for x in tool.node.params.params if x.annotation and "Resolve(" in code_of(x.annotation.annotation)]
    if resolved:
        return (
            f"`{tool.qualname}` takes `{code_of(resolved[0].name)}` from a resolver: mcp 2.x refuses a tool that both "
            "has `Resolve(...)` parameters and returns an interim result; ask them in one round by hand"
        )
    others = path_others(a, tool, call, settled)
    keeps = settled and tool_kind == "fastmcp tool" and relay_target(a, call) != RETURNED
    if others and not (keeps and stmt is not None and kept_answers(a, tool, stmt, others) is not None):
        return f"`{tool.qualname}` reaches another question on the path of {where} (`{first_line(others[0])}`): " + (
            "each re-ask is a round of its own and a retry brings only the latest round's answer, so that "
            "question's answer would be gone at the first re-ask; rewrite by hand"
            if reask
            else "one interim round answers only its own questions; ask them in one round by hand"
        )
    return None


def path_others(a: ModuleAnalysis, tool: FunctionInfo, call: cst.Call, settled: bool) -> list[cst.CSTNode]:
    """What else ``tool`` asks, or hands on as an interim result, on a path that also makes ``call``
    (``settled``: as :func:`relay_reason`)."""
    stmt = enclosing_stmt(a, call)
    others: list[cst.CSTNode] = [
        anchor for r, anchor in reached_asks(a, tool) if anchor is not call and not (settled and not legacy_only(a, r))
    ]
    others += _interim_returns(tool)
    return [o for o in others if stmt is None or not exclusive_paths(a, stmt, [o])]


def relay_target(a: ModuleAnalysis, call: cst.Call) -> str | None:
    """How the tool's call of the helper can hand on an interim result: ``RETURNED`` for the
    statement ``return await helper(…)`` (the tool already returns what the helper returns), ``""``
    for the statement ``await helper(…)`` and ``name`` for ``name = await helper(…)`` (the relay is
    written after it, ``name`` then tested and returned when it is an interim result), else None."""
    aw = a.parents.get(id(call))
    stmt = enclosing_stmt(a, call)
    if not (isinstance(aw, cst.Await) and isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Return) and small.value is aw:
        return RETURNED
    if isinstance(small, cst.Expr) and small.value is aw:
        return ""
    target = answer_target(a, call)  # `name = await helper(…)`, when that assignment is the statement
    return target.value if target is not None and aw is not None and a.parents.get(id(aw)) is small else None


def _interim_returns(tool: FunctionInfo) -> list[cst.CSTNode]:
    """Where the tool already hands on an interim result: its ``return InputRequiredResult(…)``
    statements (a round already written) and its relays of a helper's (``if isinstance(x,
    InputRequiredResult): return x``)."""
    out: list[cst.CSTNode] = []
    for n in walk(tool.node.body):
        if (
            (
                isinstance(n, cst.Return)
                and isinstance(n.value, cst.Call)
                and "InputRequiredResult" in code_of(n.value.func)
            )
            or isinstance(n, cst.If)
            and "InputRequiredResult" in code_of(n.test)
        ):
            out.append(n)
    return out


def relay_call(
    a: ModuleAnalysis, ed: Edits, tool: FunctionInfo, call: cst.Call, types: str = "mcp.types", settled: bool = False
) -> None:
    """``await helper(…)`` in ``tool`` keeps what the helper returns (``name = await helper(…)``:
    in ``name``) and returns it when it is an interim result; the tool's return annotation admits it.
    ``types``: the module the SDK's ``InputRequiredResult`` is imported from. ``settled`` (the
    project step): the answers of the tool's own earlier rounds on the path are kept in the
    returned round's ``requestState`` (:mod:`.carry`)."""
    stmt = enclosing_stmt(a, call)
    target = relay_target(a, call)
    assert isinstance(stmt, cst.SimpleStatementLine) and target is not None  # relay_reason checked the statement
    others = path_others(a, tool, call, settled) if settled else []
    kept = kept_answers(a, tool, stmt, others) if others else None
    if target == RETURNED:  # `return await helper(…)`: the tool returns the interim result as is
        if tool.node.returns is not None:  # its annotation admits it (mcp 2.x keeps it out of the output schema)
            ed.import_name(a, types, "InputRequiredResult")
        widen_returns(ed, tool)
        return
    irr = ed.import_name(a, types, "InputRequiredResult")
    name = target or fresh(scope_names(tool), "interim")
    handed = name
    if kept:
        json, carried = carry_edits(a, ed, tool, kept)
        state = f'{json}.dumps({{**{carried}, **{json}.loads({name}.request_state or "{{}}")}})'
        handed = f'{name}.model_copy(update={{"request_state": {state}}})'

    def relay(original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.SimpleStatementLine)
        small = updated.body[0]
        assert isinstance(small, (cst.Expr, cst.Assign))
        keep = cst.SimpleStatementLine(
            [cst.Assign([cst.AssignTarget(cst.Name(name))], small.value)],
            leading_lines=updated.leading_lines,
            trailing_whitespace=updated.trailing_whitespace,
        )
        check = cst.parse_statement(f"if isinstance({name}, {irr}):\n    return {handed}\n")
        return cst.FlattenSentinel([keep, check])  # type: ignore[return-value]  # a statement becomes two

    ed.transform(stmt, relay)
    widen_returns(ed, tool)


def relay_edits(a: ModuleAnalysis, needs: list[dict[str, Any]], ed: Edits) -> str | None:
    """The calls of the helper in this module's tools named by ``needs`` (the project step) relay
    its interim result; or why one cannot (naming the caller). A method's call must be made through
    an instance the tool makes of the helper's class (``executor = AgentExecutor(…)``)."""
    todo: list[tuple[FunctionInfo, cst.Call, str]] = []
    for need in needs:
        fn = next((f for f in a.functions if f.qualname == need["caller"]), None)
        if fn is None:
            return f"`{need['caller']}` is not a function of this module"
        calls = [
            c
            for c in fn.calls
            if (a.qualname(c.func) or "").rpartition(".")[2] == need["callee"] and a.callee_of(c, fn) is None
        ]
        if len(calls) != 1:
            return f"`{need['caller']}` calls `{need['callee']}` {len(calls)} times: each asks today; rewrite by hand"
        if fn.role is None and not factory_tool(a, fn) and not need.get("cls"):  # a helper: its tools relay in turn
            through = relay_through(a, fn, calls[0], need)
            if isinstance(through, str):
                return through
            todo += [(f, c, need.get("types", "mcp.types")) for f, c in through]
            continue
        why = _instance_reason(a, fn, calls[0], need) or relay_reason(
            a,
            fn,
            calls[0],
            need["callee"],
            settled=True,
            tool_kind=need.get("tool_kind", "mcp 2.x `MCPServer` tool"),
            reask=need.get("reask", False),
        )
        if why:
            return why
        todo.append((fn, calls[0], need.get("types", "mcp.types")))
    for fn, call, types in todo:
        relay_call(a, ed, fn, call, types, settled=True)
    return None


def relay_through(
    a: ModuleAnalysis, helper: FunctionInfo, call: cst.Call, need: dict[str, Any]
) -> list[tuple[FunctionInfo, cst.Call]] | str:
    """The relays that hand the interim result of ``call`` (the request's helper, of another module)
    on through ``helper``, a module-level function of this module that only tools of this module
    call: ``call`` in ``helper``, then each tool's call of ``helper`` (``[(function, call)]``); or
    why not, in terms of the code. ``helper`` keeps what it did (on a legacy connection it returns
    what it returned; on 2026-07-28 it returns the round's ``InputRequiredResult``, which its tools
    return)."""
    where = f"`{first_line(call)}` in `{helper.qualname}`"
    intro = f"{where} is in a helper, not a tool; "
    if helper.parent is not None or helper.class_name is not None or helper.node not in a.module.body:
        return intro + "it is not a module-level function: move the request into the tool by hand"
    if not helper.is_async:
        return intro + "it is not async, so it cannot hand on the interim result: rewrite by hand"
    if a.references_outside_calls(helper):
        return (
            intro
            + f"`{helper.name}` is used other than by direct calls (passed as a callable, stored): rewrite by hand"
        )
    outside = a.external_callers(helper)
    if outside:
        return intro + f"`{helper.name}` is also called by {outside[0].label}: rewrite by hand"
    if relay_target(a, call) in (None, RETURNED):
        return f"{where} is not a statement `await …(…)` or `name = await …(…)` of its own: rewrite by hand"
    cur = a.parents.get(id(enclosing_stmt(a, call)))
    while cur is not None and cur is not helper.node:
        if isinstance(cur, (cst.For, cst.While)):
            return f"{where} is in a loop: each round would ask again under one key; rewrite by hand"
        cur = a.parents.get(id(cur))
    others = [anchor for r, anchor in reached_asks(a, helper) if anchor is not call and not legacy_only(a, r)]
    if others + _interim_returns(helper):
        return intro + f"`{helper.name}` asks other questions too: ask them in one round by hand"
    callers = a.callers(helper)
    if not callers:
        return intro + f"no tool calls `{helper.name}`: rewrite by hand"
    out = [(helper, call)]
    for tool, c in callers:
        why = relay_reason(
            a,
            tool,
            c,
            helper.name,
            settled=True,
            tool_kind=need.get("tool_kind", "mcp 2.x `MCPServer` tool"),
            reask=need.get("reask", False),
        )
        if why:
            return f"the interim result of {where} would be handed on by `{helper.name}`, but {why}"
        out.append((tool, c))
    return out


def _instance_reason(a: ModuleAnalysis, fn: FunctionInfo, call: cst.Call, need: dict[str, Any]) -> str | None:
    """For a method (``need["cls"]``): why ``call`` is not made through an instance ``fn`` makes of
    that class (every assignment of the receiver is ``<cls>(…)``), else None."""
    cls = need.get("cls")
    if cls is None:
        return None
    recv = call.func.value if isinstance(call.func, cst.Attribute) else None
    made = [v for n, v in fn.assigns if isinstance(recv, cst.Name) and n == recv.value]
    if not made or not all(
        isinstance(v, cst.Call) and (a.qualname_of_class(v.func) or "").rpartition(".")[2] == cls for v in made
    ):
        return (
            f"`{first_line(call)}` in `{need['caller']}` is not made through an instance of `{cls}` the tool makes "
            f"(`x = {cls}(…)`): rewrite by hand"
        )
    return None

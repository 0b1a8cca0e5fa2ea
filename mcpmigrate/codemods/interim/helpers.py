"""Helpers and aliases: a request made in a helper the tools call, rewritten for mcp 2.x ``MCPServer``.

A helper that makes the request (``async def confirm(ctx, what): r = await ctx.elicit(...)``) is
rewritten when every caller is a module-level tool that awaits it on every path, with its own
context and with values built from its arguments and module-level names: each call gets its own
resolver (the helper's parameters bound to what that call passes), the tool its ``Resolve``
parameter, and the helper takes the answer where it took the context (before it, when it still
uses the context). Anything else (a caller that is not a tool, a value that exists only mid-body,
a helper passed around or making several requests) is manual, naming the caller and the names.
Statements of the tool before the call, and of the helper before the request, now run after the
question: the fix is then unsafe. Local aliases of the context (``c = ctx``, ``session =
ctx.session``) are followed on both sides (:func:`.sites.context_alias`) and dropped when the
moved request was their only use (:class:`.common_edits.FunctionEdit`).
"""

from __future__ import annotations

from functools import partial

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis, code_of
from mcpmigrate.codemods.edits import Edits, import_name, rewrite
from mcpmigrate.codemods.effects import has_effect
from mcpmigrate.codemods.interim.common_edits import function_edit, place_resolver, take_out
from mcpmigrate.codemods.interim.mcpserver import ANSWER_NAME, marker_reason, place_reason, related_args, resolver_parts
from mcpmigrate.codemods.interim.moved import move, move_reason
from mcpmigrate.codemods.interim.scope import Outer, copy_locals, inputs, outer_scope
from mcpmigrate.codemods.interim.sites import (
    ELICITATION,
    Caller,
    Site,
    always_runs,
    context_of,
    exits_before,
    first_line,
    request_kind,
    side_effects_before,
    slot_reason,
    without,
)
from mcpmigrate.names import (
    BUILTINS,
    assigned,
    base_name,
    enclosing_stmt,
    fresh,
    module_names,
    name_nodes,
    ref_names,
    uses,
)


def helper_reason(a: ModuleAnalysis, site: Site) -> str | None:
    """A request made in a helper (``async def confirm(ctx, what): r = await ctx.elicit(...)``): sound to
    move when every caller is an mcp 2.x ``MCPServer`` tool that calls it on every path with its own
    context and with values that exist before its body runs. Then each calling tool gets a resolver
    built from what it passes, and the helper takes the answer in place of the request."""
    helper, call = site.fn, site.call
    intro = f"the request is made in the helper `{helper.qualname}`"
    recv = call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    if helper.parent is not None:
        return f"{intro}, a nested function: move the request into the tool by hand"
    if helper.class_name is None and helper.node not in a.module.body:
        return f"{intro}, which is not a module-level function: move the request into the tool by hand"
    if a.references_outside_calls(helper):
        return (
            f"{intro}, which is used other than by direct calls in this module (passed as a callable, "
            "stored or exported): its callers cannot all be rewritten; move the request into the tools by hand"
        )
    if a.external_callers(helper):  # its signature changes: those calls would break
        elsewhere = ", ".join(dict.fromkeys(c.label for c in a.external_callers(helper)))
        return (
            f"{intro}, which is also called from another module ({elsewhere}): the fix hands the helper the "
            "answer in place of its context, and those calls would still pass the context; move the request "
            "into the tools by hand"
        )
    if any(c is not call and request_kind(a, c, helper) is not None for c in helper.calls):
        return f"{intro}, which makes several requests: move them into the tools by hand"
    # The helper's side: the context it asks through, and what the request is built from.
    base = base_name(recv, through_await=False)
    target = context_of(a, helper, recv) if base is not None else None
    if isinstance(target, str):
        return target
    if target is None and base in helper.param_names() and helper.kinds.get(base) is Kind.SESSION:
        target = (base, [])
    if target is None:
        return f"{intro}, not through a context or session parameter of the helper: rewrite by hand"
    ctx_name, site.aliases = target
    site.ctx_param = ctx_name
    reason = marker_reason(a, site)
    if reason:
        return reason
    hparams = helper.param_names()
    related = related_args(a, site)
    if isinstance(related, str):
        return f"{intro}; {related}"
    needed, blocking = inputs(a, helper, [x.value for x in call.args if x not in related], ctx_name)
    if blocking:  # pure locals of the helper are recomputed in each resolver, after its parameters
        anchor = site.unwrap if site.unwrap is not None else site.stmt
        movable = partial(move_reason, a, helper, Outer(), where="helper")
        copied = copy_locals(a, helper, blocking, anchor, ctx_name, Outer(), where="helper", movable=movable)
        if isinstance(copied, str):
            return f"{intro}, built from {copied}"
        site.copied, more, site.moved = copied.stmts, copied.needed, copied.moved
        needed += [n for n in more if n not in needed]
    if site.kind == ELICITATION and any(n.value in needed for n in ref_names(call.args[1].value)):
        return f"{intro}, and its schema is a parameter of the helper: rewrite by hand"
    site.helper_params = [p for p in hparams if p in needed]
    slot = slot_reason(helper, ctx_name)
    if slot:
        return f"{intro}; in the helper, {slot}: rewrite by hand"
    # The callers' side: every one must be a tool the resolver can be added to.
    callers = a.callers(helper)
    if not callers:
        return f"{intro}, which no tool of this module calls: rewrite by hand"
    site.callers = []
    for tool, hcall in callers:
        caller = _caller_reason(a, site, tool, hcall, ctx_name)
        if isinstance(caller, str):
            return f"{intro}; `{first_line(hcall)}` in `{tool.qualname}` {caller}"
        site.callers.append(caller)
    return _moved_order_reason(a, site, intro)


def _moved_order_reason(a: ModuleAnalysis, site: Site, intro: str) -> str | None:
    """Why the classes of the helper's body the request reads cannot move right above the helper: a
    calling tool (whose resolver reads them when it is defined) comes before the helper."""
    if not site.moved or site.callers is None:
        return None
    at = a.module.body.index(site.fn.node)  # a module-level function (checked first)
    for c in site.callers:
        top = c.fn
        while top.parent is not None:
            top = top.parent
        if top.node in a.module.body and a.module.body.index(top.node) < at:
            return (
                f"{intro}, built from `{site.moved[0].name.value}`, a class defined inside the helper: it would move "
                f"right above the helper, after `{c.fn.qualname}`, whose resolver reads it where it is defined; "
                "define the class at module level by hand"
            )
    return None


def _caller_reason(a: ModuleAnalysis, site: Site, tool: FunctionInfo, hcall: cst.Call, ctx_name: str) -> Caller | str:
    """The resolver a calling tool gets for its call of the helper, or why it cannot have one; what
    the tool does before the call is added to ``site.unsafe``."""
    helper = site.fn
    if tool.role != "tool":
        return (
            "is not in an mcp 2.x `MCPServer` tool (only a tool's call can return the interim result): rewrite by hand"
        )
    where = place_reason(a, tool)
    if where:
        return f"is in a tool that cannot have a resolver next to it ({where})"
    outer = outer_scope(tool)
    shadowed = sorted(_helper_reads(site) & (outer.visible | outer.late))
    if shadowed:
        return (
            f"is in a tool defined inside `{tool.parent.qualname if tool.parent else ''}`, which binds "
            f"`{shadowed[0]}` too: a resolver next to the tool would read that one, not the module's; rewrite by hand"
        )
    aw = a.parents.get(id(hcall))
    if not (isinstance(aw, cst.Await) and aw.expression is hcall) or not tool.is_async:
        return "is not awaited directly in an async tool: rewrite by hand"
    why = always_runs(a, aw, tool)
    if why:
        return f"cannot ask before the tool runs: {why}; rewrite by hand"
    values = call_values(hcall, helper)
    if isinstance(values, str):
        return values + ": rewrite by hand"
    ctx_arg = values.get(ctx_name)
    if ctx_arg is None:
        return f"does not pass `{ctx_name}`: rewrite by hand"
    owner = context_of(a, tool, ctx_arg.value)
    # a run that ports the project to mcp 2.x writes every module or none (codemods/port/project.py):
    # the mcp 1.x `Context` of the tool is mcp 2.x's once the port's rename is written with this fix
    own = {Kind.CONTEXT_MCP2, Kind.CONTEXT_MCP1} if a.target_sdk == "mcp2" else {Kind.CONTEXT_MCP2}
    if not isinstance(owner, tuple) or tool.kinds.get(owner[0]) not in own:
        return (
            f"passes `{code_of(ctx_arg.value)}`, not the tool's own mcp 2.x `Context` parameter"
            + (f" ({owner})" if isinstance(owner, str) else "")
            + ": rewrite by hand"
        )
    caller = Caller(tool, hcall, ctx_arg, owner[0], {}, aliases=owner[1])
    module = module_names(a)
    blocking: list[str] = []
    hparams = {p.name.value: p for p in helper.params}
    for name in site.helper_params:
        arg = values.get(name)
        if arg is None:
            default = hparams[name].default
            if (
                default is None
                or not isinstance(default, (cst.Name, cst.SimpleString, cst.Integer, cst.Float))
                or (isinstance(default, cst.Name) and default.value not in module | BUILTINS)
            ):
                return f"leaves `{name}` to a default the resolver cannot rebuild: rewrite by hand"
            caller.values[name] = default
            continue
        expr = arg.value
        if has_effect(expr):
            return (
                f"computes `{name}` as `{code_of(expr)}`, which does something (the resolver would run it "
                "again on every round): compute it in a module-level function of the tool's arguments first"
            )
        caller.values[name] = expr
    stmt = enclosing_stmt(a, hcall)
    assert stmt is not None  # the helper call sits in a statement of the tool
    used, blocking = inputs(a, tool, [v for v in caller.values.values()], caller.ctx_param, outer)
    if blocking:  # pure locals of the tool are recomputed in the resolver
        copied = copy_locals(a, tool, blocking, stmt, caller.ctx_param, outer)
        if isinstance(copied, str):
            return f"passes {copied}"
        caller.copied, more = copied.stmts, copied.needed
        used += [n for n in more if n not in used]
    caller.args = [p for p in tool.param_names() if p in used]
    slot = slot_reason(tool, caller.ctx_param)
    if slot:
        return f"is in a tool where {slot}: add the resolver by hand"
    notes = _order_notes(a, site, tool, hcall, stmt, aw)
    site.unsafe += [f"in `{tool.qualname}`: {n}" for n in notes]
    return caller


def _order_notes(
    a: ModuleAnalysis, site: Site, tool: FunctionInfo, hcall: cst.Call, stmt: cst.BaseStatement, aw: cst.Await
) -> list[str]:
    """What the calling ``tool`` does before it calls the helper (``hcall``, awaited as ``aw`` in
    ``stmt``) and now runs after the question, for the review note."""
    helper = site.fn
    notes: list[str] = []
    if stmt is tool.node:  # a one-line body (`async def t(...): return await helper(...)`)
        head: cst.CSTNode = tool.node.body
    else:
        probe = Site("resolver", site.kind, tool, hcall, stmt, aw)
        notes += side_effects_before(a, probe, "the question is now asked before the tool body runs")
        exits = exits_before(a, stmt, tool)
        if exits:
            notes.append(
                f"`{exits}` can end the call before `{helper.name}` is called today; the question is now "
                "asked on every call"
            )
        head = stmt.test if isinstance(stmt, cst.If) else stmt
    if has_effect(without(head, aw)) or any(has_effect(x.value) for x in hcall.args):
        notes.append(
            f"`{first_line(head if stmt is tool.node else stmt)}` does something before calling `{helper.name}` today; the question is "
            "now asked first"
        )
    return notes


def _helper_reads(site: Site) -> set[str]:
    """The module-level names the moved request (and the helper's locals copied with it) read."""
    local = set(site.fn.param_names()) | {n for s in site.copied for n in assigned(s)}
    exprs: list[cst.CSTNode] = [*site.call.args, *site.copied]
    return {n.value for e in exprs for n in ref_names(e)} - local


def call_values(call: cst.Call, callee: FunctionInfo) -> dict[str, cst.Arg] | str:
    """Helper parameter -> the argument a call passes it (the analysis' mapping: a method called
    through its class or an instance skips ``self``/``cls``)."""
    names = callee.param_names()
    offset = 1 if names and names[0] in ("self", "cls") and isinstance(call.func, cst.Attribute) else 0
    positional = [p.name.value for p in list(callee.node.params.posonly_params) + list(callee.node.params.params)]
    return bind_args(call, positional[offset:])


def bind_args(call: cst.Call, positional: list[str]) -> dict[str, cst.Arg] | str:
    """Parameter -> the argument ``call`` passes it, the positional ones named by ``positional``;
    or why the call cannot be read so (``*``/``**``, too many positional arguments)."""
    out: dict[str, cst.Arg] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return "passes arguments with `*`/`**`"
        if arg.keyword is not None:
            out[arg.keyword.value] = arg
        elif i < len(positional):
            out[positional[i]] = arg
        else:
            return "passes more positional arguments than the helper takes"
    return out


def helper_edits(a: ModuleAnalysis, site: Site, ed: Edits, taken: set[str], tool_names: dict[int, set[str]]) -> None:
    """The helper takes the answer where it took the context (or right before it, when it still uses
    the context); each calling tool gets a resolver built from what it passes, a ``Resolve`` parameter,
    and passes the answer on."""
    helper = site.fn
    assert site.callers is not None and site.ctx_param is not None
    spell = partial(import_name, a)
    _, _, param_ann, imports = resolver_parts(site, spell)
    for mod, name in imports:
        ed.import_name(a, mod, name)
    hname = site.result if site.result else fresh(taken, ANSWER_NAME[site.kind])
    # The helper's own edits, tried on the helper alone to learn whether it still uses its context.
    mine = Edits()
    take_out(site, mine, hname)
    if site.aliases:
        function_edit(mine, helper.node).add_aliases(list(site.aliases))
    trial = rewrite(helper.node, mine)
    ctx = site.ctx_param
    drop = uses(trial.body, ctx) == 0 and not any(uses(d, ctx) for d in helper.node.decorators)  # type: ignore[union-attr]
    take_out(site, ed, hname)
    move(ed, helper.node, site.moved, nested=False)  # above the helper, which comes before its tools
    fe = function_edit(ed, helper.node)
    fe.add_aliases(site.aliases + site.copied)
    fe.params.append((ctx, cst.Param(cst.Name(hname), cst.Annotation(cst.parse_expression(param_ann)))))
    fe.ctx = ctx
    fe.force_drop = drop
    for c in site.callers:  # one resolver per call
        _resolver_for(a, site, c, ed, taken, tool_names, hname, drop)


def _caller_call(site: Site, c: Caller) -> tuple[cst.Call, list[tuple[str, cst.BaseExpression]]]:
    """The request as the resolver of caller ``c`` makes it, and the helper parameters it binds
    first (``name = <what c passes>``): a parameter given a tool argument of another name is
    renamed in the request instead, unless something is bound too (then all are bound at once)."""
    renames: dict[str, str] = {}
    bindings: list[tuple[str, cst.BaseExpression]] = []
    for name in site.helper_params:
        value = c.values[name]
        if isinstance(value, cst.Name) and value.value in c.args:
            if value.value != name:
                renames[name] = value.value
        else:
            bindings.append((name, value))
    if (bindings or site.copied) and renames:  # simultaneous: bind everything at once
        bindings = [(n, v) for n in site.helper_params if not (isinstance(v := c.values[n], cst.Name) and v.value == n)]
        renames = {}
    call = site.call
    if renames:
        subst = Edits()
        for n in ref_names(cst.Call(func=cst.Name("_"), args=site.call.args)):
            if n.value in renames:
                subst.transform(n, lambda o, u, new=renames[n.value]: u.with_changes(value=new))  # type: ignore[misc]
        rewritten = rewrite(site.call, subst)
        assert isinstance(rewritten, cst.Call)  # only names inside the call's arguments are renamed
        call = rewritten
    return call, bindings


def _resolver_for(
    a: ModuleAnalysis,
    site: Site,
    c: Caller,
    ed: Edits,
    taken: set[str],
    tool_names: dict[int, set[str]],
    hname: str,
    drop: bool,
) -> None:
    """The resolver of calling tool ``c``: built from what it passes the helper, a ``Resolve``
    parameter of the tool, and the call handing the answer (``hname``) to the helper where it
    handed the context (or right before it, unless the helper no longer uses it: ``drop``)."""
    spell = partial(import_name, a)
    tool = c.fn
    call, bindings = _caller_call(site, c)
    ret_ann, ret_expr, tool_ann, _ = resolver_parts(
        Site(site.form, site.kind, tool, call, site.stmt, site.await_node), spell
    )
    # The tool's parameter only has to be new in the tool (the names it binds or reads).
    local = tool_names.get(id(tool.node))
    if local is None:
        local = tool_names[id(tool.node)] = {n.value for n in name_nodes(tool.node)}
    tname = fresh(local, hname)
    rname = fresh(taken, f"{tool.name}_{site.kind}")
    params = [
        p.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_param=cst.SimpleWhitespace(""), star="")
        for p in tool.params
        if p.name.value in c.args
    ]
    body = ""
    read = {n.value for _, v in bindings for n in ref_names(v)}
    if len(bindings) > 1 and read & {n for n, _ in bindings}:  # `a, b = b, a`: bind them at once
        body = f"    {', '.join(n for n, _ in bindings)} = {', '.join(code_of(v) for _, v in bindings)}\n"
    else:
        body = "".join(f"    {n} = {code_of(v)}\n" for n, v in bindings)
    copy = [code_of(x.with_changes(leading_lines=[])) for x in c.copied]
    body = (
        "".join(f"    {x}" for x in copy)
        + body
        + "".join(f"    {code_of(x.with_changes(leading_lines=[]))}" for x in site.copied)
    )
    resolver = cst.parse_statement(
        f"def {rname}({', '.join(code_of(p) for p in params)}) -> {ret_ann}:\n{body}    return {ret_expr}\n"
    )
    place_resolver(ed, tool.node, resolver, nested=tool.parent is not None)
    new_param = cst.Param(
        cst.Name(tname),
        cst.Annotation(
            cst.parse_expression(
                f"{spell('typing', 'Annotated')}[{tool_ann}, {spell('mcp.server.mcpserver', 'Resolve')}({rname})]"
            )
        ),
    )
    fe = function_edit(ed, tool.node)
    fe.params.append((c.ctx_param, new_param))
    fe.ctx = c.ctx_param
    fe.add_aliases(c.aliases + c.copied)  # each goes when the call no longer uses it
    # The call hands the answer over where it handed the context (or right before it).
    answer = c.ctx_arg.with_changes(
        value=cst.Name(tname), keyword=cst.Name(hname) if c.ctx_arg.keyword is not None else None
    )
    if drop:
        ed.replace(c.ctx_arg, answer)
    else:
        answer = answer.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        ed.transform(c.ctx_arg, lambda original, updated, answer=answer: cst.FlattenSentinel([answer, original]))  # type: ignore[misc]

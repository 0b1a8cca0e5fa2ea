"""Answer threading: a request made in a helper (a function, a nested function or a method the
handlers call, directly or through other helpers) is asked by each handler that reaches it, and the
helper — with every function on the way — receives the answer as a parameter.

Used for the guard-pattern forms (mcp 2.x low-level ``Server`` handlers, fastmcp 4 tools; the mcp
2.x ``MCPServer`` resolver form of a helper is :mod:`.helpers`'s). The call chains are the param
fix's (:func:`mcpmigrate.codemods.param.chains.reach` / ``closure``: the handlers that reach the
helper, the calls on the way, a sync bridge, a callable passed on, callers in other modules). For
each handler the request is rebuilt as the handler would make it — every helper parameter it reads
replaced by what the call on the way passes — and the handler's round (:func:`.lowlevel.round_statement`)
goes right before the handler's statement that starts the chain: on 2026-07-28 the handler returns
``InputRequiredResult`` while its ``input_responses`` lack the answer, on a legacy connection it
makes the request itself (through its own context); either way the answer is passed down the chain
where the context was (or right before it, when a function still uses its context). A handler
that reaches several requests (its own and its helpers', or several helpers') asks them in one
round (:mod:`.joint`), each under the handler's own name for its answer (:func:`answer_names`).

Manual, with the reason in terms of the code: a chain that leaves the module (callers in another
module, the helper passed on as a callable, e.g. to a third-party library), a coroutine run from
sync code (a sync bridge), a call that is not awaited (a background task: no request waits for its
answer), a request or a call on the way that runs only on some paths or in a loop (each round would
ask anew), a function on the way (not a handler) that reaches the request through more than one
call or reaches several requests (a handler calling a helper twice asks twice, in one round), a call reached only on one outcome of an earlier
request (``await a(ctx) and await b(ctx)``), a fallback request (asked only on some calls) of a
handler that reaches others, a request built from a helper's locals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

import libcst as cst

from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits, rewrite
from mcpmigrate.codemods.effects import has_effect
from mcpmigrate.codemods.interim.common_edits import function_edit, take_out
from mcpmigrate.codemods.interim.fastmcp import context_elicit, fastmcp_reason, legacy_request
from mcpmigrate.codemods.interim.helpers import call_values
from mcpmigrate.codemods.interim.lowlevel import (
    answer_target,
    lowlevel_parts,
    path_keys,
    round_statement,
    widen_returns,
)
from mcpmigrate.codemods.interim.mcpserver import ANSWER_NAME
from mcpmigrate.codemods.interim.scope import inputs, scope_nodes
from mcpmigrate.codemods.interim.sites import (
    ELICITATION,
    LL_ROLES,
    Site,
    always_runs,
    can_leave,
    context_reads,
    exist,
    exits_before,
    first_line,
    request_kind,
    side_effects_before,
)
from mcpmigrate.codemods.param.chains import Edge, Reach, closure, reach
from mcpmigrate.names import BUILTINS, base_name, enclosing_stmt, fresh, module_names, name_nodes, ref_names, uses

#: Calls that start a coroutine in the background (no request waits for what it asks).
_BACKGROUND = {"create_task", "ensure_future", "start_soon", "start", "spawn", "run_in_executor"}
#: Receivers of a request that stand for the context they are read from.
_THROUGH = ("session", "request_context")
#: Kinds of the parameter a helper asks through.
_ASKS_THROUGH = set(CONTEXTS) | {Kind.LL_CONTEXT, Kind.SESSION}


@dataclass(eq=False)
class Handoff:
    """One handler's part: its call that starts the chain, the statement its round goes before, and
    the request as the handler makes it (``site``: its ``call`` is the rebuilt request, its
    ``result`` the handler's name for the answer)."""

    edge: Edge | None  # None: the helper is in another module (the project step passes the answer)
    stmt: cst.BaseStatement
    site: Site
    skip: list[cst.BaseExpression] = field(default_factory=list)  # tests on which the helper does not ask
    binds: list[tuple[str, cst.BaseExpression]] = field(default_factory=list)  # locals assigned before the round


@dataclass(eq=False)
class Thread:
    """The decided threading of one helper's request (``Site.thread``)."""

    names: dict[int, str] = field(default_factory=dict)  # id(function node) -> its name for the answer
    skip: bool = False  # the helper returns before its request on some paths (the answer may be None)
    ctx: dict[int, str] = field(default_factory=dict)  # id(function node) -> the parameter that carried the context
    edges: list[Edge] = field(default_factory=list)  # calls between the functions that take the answer
    handoffs: list[Handoff] = field(default_factory=list)
    across: list[dict[str, Any]] = field(default_factory=list)  # callers in other modules (the project step's data)
    edge_names: dict[int, str] = field(
        default_factory=dict
    )  # id(a handler's call on the chain) -> its name for the answer


def _receiver_param(fn: FunctionInfo, recv: cst.BaseExpression) -> str | None:
    """The parameter of ``fn`` the request goes through (``ctx``, ``ctx.session``,
    ``ctx.request_context.session``), when it is a context or session parameter."""
    e = recv
    while isinstance(e, cst.Attribute) and e.attr.value in _THROUGH:
        e = e.value
    if isinstance(e, cst.Name) and e.value in fn.param_names() and fn.kinds.get(e.value) in _ASKS_THROUGH:
        return e.value
    return None


#: The name of the carrier call ``_(request, *skip tests, **bindings)`` a request travels in up the chain.
CARRIER = "__mcpmigrate_ask__"


def skip_conditions(a: ModuleAnalysis, site: Site, ctx: str) -> list[cst.BaseExpression] | str:
    """The tests of the ``if <test>: … return`` statements before the helper's request (at the top of
    its body): on those paths the helper never asks, so the handler's round is skipped there too
    (the answer is then ``None``, which the helper never reads). Each test must read only the
    helper's arguments and module-level names and do nothing; else the first line of the statement
    that can end the helper first (the fix then asks on every call: a review note)."""
    helper = site.fn
    body = helper.node.body
    anchor = site.stmt
    if not isinstance(body, cst.IndentedBlock) or anchor not in body.body:
        exits = exits_before(a, anchor, helper)
        return exits if exits else []
    tests: list[cst.BaseExpression] = []
    before = body.body[: body.body.index(anchor)]
    for i, x in enumerate(before):
        if not can_leave(x):
            continue
        read = _state_read(a, helper, before[i - 1], ctx) if i else None
        ok = (
            isinstance(x, cst.If)
            and x.orelse is None
            and isinstance(x.body, cst.IndentedBlock)
            and isinstance(last := x.body.body[-1], cst.SimpleStatementLine)
            and isinstance(last.body[-1], (cst.Return, cst.Raise))
            and not has_effect(cst.Expr(x.test))
            and not [b for b in inputs(a, helper, [x.test], ctx)[1] if read is None or b != read[0]]
            and not any(can_leave(y) for y in x.body.body[:-1])
        )
        if not ok:
            return first_line(x)
        assert isinstance(x, cst.If)
        tests.append(_read_in(x.test, read) if read is not None else x.test)
    return tests


def _state_read(a: ModuleAnalysis, helper: FunctionInfo, stmt: cst.CSTNode, ctx: str) -> tuple[str, cst.Await] | None:
    """``(name, await)`` when ``stmt`` is ``name = await <ctx>.get_state(<key>)`` — fastmcp's read of
    the session state, which the handler may make again right before the helper makes it (nothing
    runs between) — with a key from the helper's arguments and module-level names, and ``name``
    bound only there; else None."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return None
    assign = stmt.body[0]
    target, aw = assign.targets[0].target, assign.value
    if len(assign.targets) != 1 or not isinstance(target, cst.Name) or not isinstance(aw, cst.Await):
        return None
    call = aw.expression
    if not (
        isinstance(call, cst.Call)
        and isinstance(call.func, cst.Attribute)
        and call.func.attr.value == "get_state"
        and isinstance(call.func.value, cst.Name)
        and call.func.value.value == ctx
        and (helper.kinds.get(ctx) or a.lookup(ctx, helper)) is Kind.CONTEXT_FASTMCP
        and len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
    ):
        return None
    key = call.args[0].value
    if has_effect(cst.Expr(key)) or inputs(a, helper, [key], ctx)[1]:
        return None
    if sum(1 for n, _ in helper.assigns if n == target.value) != 1:
        return None
    return target.value, aw


def _read_in(test: cst.BaseExpression, read: tuple[str, cst.Await]) -> cst.BaseExpression:
    """``test`` with the name ``read`` binds replaced by the read itself."""
    name, aw = read
    if isinstance(test, cst.Name) and test.value == name:
        return aw
    ed = Edits()
    for n in ref_names(test):
        if n.value == name:
            ed.replace(n, aw.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
    ed.finish()
    return rewrite(test, ed)  # type: ignore[return-value]  # an expression stays one


def scope_names(f: FunctionInfo) -> set[str]:
    """The names ``f``'s own scope spells (its nested functions' bodies are other scopes)."""
    return {n.value for node in scope_nodes(f.node.body) for n in name_nodes(node) if isinstance(node, cst.Name)} | set(
        f.param_names()
    )


def _closure_context(a: ModuleAnalysis, helper: FunctionInfo, recv: cst.BaseExpression) -> str | None:
    """The name of the context a nested ``helper`` asks through when it is a context or session
    parameter of the function around it, which the helper does not bind itself."""
    e = recv
    while isinstance(e, cst.Attribute) and e.attr.value in _THROUGH:
        e = e.value
    parent = helper.parent
    if not isinstance(e, cst.Name) or parent is None or e.value in helper.param_names():
        return None
    if any(n == e.value for n, _ in helper.assigns):
        return None
    if e.value in parent.param_names() and parent.kinds.get(e.value) in _ASKS_THROUGH:
        return e.value
    return None


def _atom(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr`` in parentheses unless it is an atom (a name, an attribute, a call, a literal …)."""
    if isinstance(
        expr,
        (
            cst.Name,
            cst.Attribute,
            cst.Call,
            cst.Subscript,
            cst.SimpleString,
            cst.FormattedString,
            cst.Integer,
            cst.Float,
        ),
    ) or (expr.lpar and expr.rpar):
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def substitute(carrier: cst.Call, values: dict[str, cst.BaseExpression]) -> cst.Call:
    """The ``carrier`` (``_(request, *tests, **bindings)``) with each name it reads that ``values``
    maps replaced by that expression. A string put into an f-string whose quotes it cannot take
    (Python before 3.12 rejects nested same quotes and backslashes) is bound instead: a placeholder
    goes into the f-string and ``placeholder=<value>`` into the carrier's keywords, which the
    handler assigns to a local before it asks."""
    subst = Edits()
    quotes: dict[int, str] = {}
    for f in walk(carrier):
        if isinstance(f, cst.FormattedString):
            for n in walk(f):
                quotes.setdefault(id(n), f.quote)
    bound: list[cst.Arg] = []
    for n in ref_names(carrier):
        if n.value not in values:
            continue
        value = _atom(values[n.value])
        outer = quotes.get(id(n))
        if outer is not None and any(isinstance(x, (cst.SimpleString, cst.FormattedString)) for x in walk(value)):
            requoted = _requote(value, outer)
            if requoted is None:
                taken = {k.keyword.value for k in [*carrier.args, *bound] if k.keyword is not None}
                placeholder = fresh(taken, f"{CARRIER}{n.value}")
                bound.append(cst.Arg(value, keyword=cst.Name(placeholder)))
                requoted = cst.Name(placeholder)
            value = requoted
        subst.replace(n, value)
    out = rewrite(carrier, subst)
    assert isinstance(out, cst.Call)  # only names inside it are replaced
    return out.with_changes(args=[*out.args, *bound])


def _requote(value: cst.BaseExpression, outer: str) -> cst.BaseExpression | None:
    """``value`` with its string literals in the quote ``outer`` does not use (to sit inside an
    f-string quoted with ``outer``), or None when one cannot be."""
    other = "'" if outer[0] == '"' else '"'
    fix = Edits()
    for x in walk(value):
        if isinstance(x, (cst.SimpleString, cst.FormattedString)):
            text = cst.Module([]).code_for_node(x)
            prefix = x.prefix
            quote = x.quote
            if len(quote) != 1 or other in text or "\\" in text:
                return None
            if quote == other:
                continue
            fix.replace(x, cst.parse_expression(prefix + other + text[len(prefix) + 1 : -1] + other))
    out = rewrite(value, fix)
    assert isinstance(out, cst.BaseExpression)
    return out


def _in_statement_reason(a: ModuleAnalysis, aw: cst.CSTNode, stmt: cst.CSTNode) -> str | None:
    """Why the awaited call ``aw`` does not run whenever its statement ``stmt`` runs."""
    pm = a.parents
    child, cur = aw, pm.get(id(aw))
    while cur is not None and cur is not stmt:
        if isinstance(cur, cst.BooleanOperation) and child is not cur.left:
            return "is on the right of `and`/`or` (it runs only on some paths)"
        if isinstance(cur, cst.IfExp) and child is not cur.test:
            return "is in a branch of a conditional expression (it runs only on some paths)"
        if isinstance(cur, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.Lambda)):
            return "is in a comprehension or a lambda"
        child, cur = cur, pm.get(id(cur))
    return None


def _after_outcome(a: ModuleAnalysis, aw: cst.Await, stmt: cst.CSTNode, entry: FunctionInfo) -> str | None:
    """Why the awaited call ``aw`` of ``entry`` must stay after another request it reaches: it is on
    the right of ``and``/``or`` (or in a branch of a conditional expression) whose test awaits a call
    that asks first, so it runs only on one outcome of that answer."""
    pm = a.parents
    child: cst.CSTNode = aw
    cur = pm.get(id(aw))
    while cur is not None and cur is not stmt:
        first: cst.BaseExpression | None = None
        if isinstance(cur, cst.BooleanOperation) and child is not cur.left:
            first, how = (
                cur.left,
                f"`{code_of(cur.left)}` is {'true' if isinstance(cur.operator, cst.And) else 'false'}",
            )
        elif isinstance(cur, cst.IfExp) and child is not cur.test:
            first, how = cur.test, f"`{code_of(cur.test)}` is {'true' if child is cur.body else 'false'}"
        if first is not None and _asks(a, first, entry):
            return (
                f"`{code_of(aw)}` in `{entry.qualname}` runs only when {how}, which depends on the answer to the "
                "request asked first: the second request is reached only on one outcome of the first, and one "
                "interim round asking both on every call would change behaviour; keep them in order by hand"
            )
        child, cur = cur, pm.get(id(cur))
    return None


def _asks(a: ModuleAnalysis, expr: cst.BaseExpression, fn: FunctionInfo) -> bool:
    """Whether ``expr`` makes a request or calls a function of the module that reaches one."""
    for c in walk(expr):
        if isinstance(c, cst.Call):
            if request_kind(a, c, fn) is not None:
                return True
            callee = a.callee_of(c, fn)
            if callee is not None and requests_reached(a, callee):
                return True
    return False


def _loop_around(a: ModuleAnalysis, stmt: cst.CSTNode, fn: FunctionInfo) -> bool:
    cur = a.parents.get(id(stmt))
    while cur is not None and cur is not fn.node:
        if isinstance(cur, (cst.For, cst.While)):
            return True
        cur = a.parents.get(id(cur))
    return False


def _not_awaited(a: ModuleAnalysis, call: cst.Call) -> str:
    """Why a call on the chain that is not awaited directly cannot pass the answer."""
    outer = a.parents.get(id(a.parents.get(id(call))))
    if isinstance(outer, cst.Call) and isinstance(outer.func, (cst.Attribute, cst.Name)):
        name = outer.func.attr.value if isinstance(outer.func, cst.Attribute) else outer.func.value
        if name in _BACKGROUND:
            return (
                f"runs it as a background task (`{code_of(outer.func)}(...)`): no request waits for its answer, "
                "so no handler can return the interim result for it; ask in the handler before starting the task "
                "and pass the answer in by hand"
            )
    return "does not await it directly: rewrite by hand"


def requests_reached(a: ModuleAnalysis, fn: FunctionInfo) -> list[cst.Call]:
    """Every request (roots, sampling, elicitation) ``fn`` makes or reaches through the module's
    functions it calls, in the order they are found."""
    out: list[cst.Call] = []
    seen: set[int] = set()
    todo = [fn]
    while todo:
        f = todo.pop(0)
        if id(f) in seen:
            continue
        seen.add(id(f))
        for c in f.calls:
            if request_kind(a, c, f) is not None:
                out.append(c)
            callee = a.callee_of(c, f)
            if callee is not None:
                todo.append(callee)
    return out


def reached_asks(a: ModuleAnalysis, entry: FunctionInfo) -> list[tuple[cst.Call, cst.Call]]:
    """Every question ``entry`` asks, in its order: ``(request, anchor)`` — the anchor is the request
    itself (the handler's own) or the handler's call that reaches it through a helper (a helper
    called twice asks twice)."""
    out: list[tuple[cst.Call, cst.Call]] = []
    for c in entry.calls:
        if request_kind(a, c, entry) is not None:
            out.append((c, c))
            continue
        callee = a.callee_of(c, entry)
        if callee is not None and callee is not entry:
            out += [(r, c) for r in requests_reached(a, callee)]
    return out


def answer_names(a: ModuleAnalysis, entry: FunctionInfo) -> dict[tuple[int, int], str]:
    """The handler's name for the answer to each question it asks through a helper (``(id`` of the
    request, ``id`` of the handler's call that reaches it``)`` -> name), when it asks several: the
    helper's name for it (``reply`` of ``reply = await …``, else ``answer``/``sampled``/``roots``),
    made distinct from the handler's names, its own requests' keys and each other in the handler's
    order — so one round asks each under a key of its own, whichever of them is planned first."""
    asks = reached_asks(a, entry)
    own = [r for r, anchor in asks if r is anchor]
    taken = scope_names(entry) | set(path_keys(a, entry, own).values())
    out: dict[tuple[int, int], str] = {}
    for r, anchor in asks:
        if r is anchor:
            continue
        fn = a.enclosing_function(r)
        target = answer_target(a, r)
        out[(id(r), id(anchor))] = fresh(
            taken, target.value if target is not None else ANSWER_NAME[request_kind(a, r, fn) or ELICITATION]
        )
    return out


def thread_reason(a: ModuleAnalysis, site: Site, python: str | None = None) -> str | None:
    """Why the request made in the helper ``site.fn`` cannot be asked by the handlers that reach it
    (None: it can; the decision is recorded on ``site.thread``, review notes on ``site.unsafe``).
    ``python``: the version the project targets (unused: strings an f-string cannot nest are bound first).

    The checks run in this order, the first reason found wins: :func:`_reach_reason`,
    :func:`_helper_context`, :func:`_fan_out_reason`, :func:`_several_requests_reason`,
    :func:`_handoffs_reason`; then :func:`_add_across` records the callers in other modules."""
    del python
    helper, call = site.fn, site.call
    intro = f"the request is made in the helper `{helper.qualname}`"
    r = reach(a, helper)
    why = _reach_reason(a, site, r, intro)
    if why is not None:
        return why
    found = _helper_context(a, site, intro)
    if isinstance(found, str):
        return found
    ctx, closure_ctx = found
    skip = skip_conditions(a, site, ctx)
    if isinstance(skip, str):
        site.unsafe.append(
            f"`{skip}` can end `{helper.qualname}` before the request today; the question is now asked on every call"
        )
        skip = []
    funcs, edges = closure(a, helper)
    th = Thread(ctx={id(helper.node): ctx}, edges=[e for e in edges if e.caller.role not in ENTRY], skip=bool(skip))
    outgoing: dict[int, list[Edge]] = {}
    for e in edges:
        outgoing.setdefault(id(e.caller), []).append(e)
    why = _fan_out_reason(funcs, outgoing, intro)
    if why is not None:
        return why
    entries = [f for f in funcs if f.role in ENTRY]
    # what each function would ask, carried with the tests that skip it: `_(request, test, …)`
    made: dict[int, cst.Call] = {id(helper.node): cst.Call(cst.Name(CARRIER), [cst.Arg(call), *map(cst.Arg, skip)])}
    cx = _Chain(a, site, th, outgoing, made, closure_ctx)
    taken_all = module_names(a) | {n.value for f in funcs for n in name_nodes(f.node)}
    hname = site.result or fresh(taken_all, ANSWER_NAME[site.kind])
    for f in funcs:
        if f is helper:
            th.names[id(f.node)] = hname
        else:
            th.names[id(f.node)] = fresh(scope_names(f), hname)
    why = _several_requests_reason(a, funcs, intro)
    if why is not None:
        return why
    why = _handoffs_reason(cx, entries, intro)
    if why is not None:
        return why
    if r.external:  # the callers in other modules ask too (the project step: project_answers.py)
        _add_across(site, r, th, skip, ctx)
    site.thread = th
    return None


def _reach_reason(a: ModuleAnalysis, site: Site, r: Reach, intro: str) -> str | None:
    """Why the handlers that reach the helper ``site.fn`` (``r``: its :func:`reach`) cannot ask
    its request: reached from another module other than by a handler calling it there, through a
    sync bridge, by code outside the module, by a handler of a method without interim results,
    by no handler, or asked on every call; None when none of these holds."""
    helper = site.fn
    direct = a.external_callers(helper)
    if r.external and (
        any(c not in direct for c in r.external)
        or helper.parent is not None
        or helper.class_name is not None
        or any(c.registers or c.role not in ENTRY or not c.caller for c in direct)
    ):
        labels = ", ".join(dict.fromkeys(c.label for c in r.external))
        plain = [c for c in direct if c.caller and not c.registers and c.role is None]
        if plain and helper.parent is None and helper.class_name is None:
            names = ", ".join(dict.fromkeys(c.label for c in plain))
            return (
                f"{intro}; in another module it is called by {names}, a helper, not a tool or handler: the answer "
                "would have to come down from whatever reaches that helper, through every call on the way; rewrite "
                "by hand"
            )
        return (
            f"{intro}, which is also reached from another module ({labels}) other than by a handler there calling "
            "this module-level helper itself: move the question into the handlers there by hand"
        )
    if r.bridge is not None:
        coroutine, bridge, outer = r.bridge
        return (
            f"{intro}, and `{outer}` runs `{coroutine}` from sync code through `{bridge}`: a sync bridge has no "
            "handler on the way that could return the interim result; make the chain async up to the handler by hand"
        )
    if r.leaves is not None:
        return (
            f"{intro}; {r.leaves}: whoever calls it there (a third-party library, a callback) cannot pass the "
            "answer in; rewrite by hand"
        )
    if r.handlers:
        names = ", ".join(f"`{h.qualname}`" for h, _ in r.handlers)
        return f"{intro}, which is also reached from {names}, registered for a method that cannot return an interim result: rewrite by hand"
    if not r.entries and not r.external:
        return f"{intro}, which no handler of this module reaches: rewrite by hand"
    why = always_runs(a, site.await_node, helper)
    if why:
        return f"{intro}, where {why.replace('it ', 'the request ', 1)}: the handler would ask on every call; rewrite by hand"
    return None


def _helper_context(a: ModuleAnalysis, site: Site, intro: str) -> tuple[str, str | None] | str:
    """``(ctx, closure_ctx)``: the context parameter of the helper ``site.fn`` the request goes
    through (``""`` when a nested helper asks through ``closure_ctx``, its parent's), or why there
    is none or the request is built from values only the helper has."""
    helper, call = site.fn, site.call
    recv = call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    ctx = _receiver_param(helper, recv)
    closure_ctx = _closure_context(a, helper, recv) if ctx is None else None
    if closure_ctx is not None:  # a nested helper asking through its parent's context
        ctx = ""
    if ctx is None:
        return (
            f"{intro}, through `{code_of(recv)}`, not a context or session parameter of the helper: pass the "
            "context in as a parameter, then run the fix again"
        )
    _, blocking = inputs(a, helper, [x.value for x in call.args], ctx)
    if blocking:
        local = list(dict.fromkeys(blocking))
        return (
            f"{intro}, built from {', '.join(f'`{b}`' for b in local)}, which {exist(local)} in the helper: the "
            "handler asks before the helper runs; compute it in the callers and pass it in, then run the fix again"
        )
    return ctx, closure_ctx


def _fan_out_reason(funcs: list[FunctionInfo], outgoing: dict[int, list[Edge]], intro: str) -> str | None:
    """Why a function of ``funcs`` other than a handler reaches the request through several calls
    (``outgoing``: per ``id`` of a caller, its edges), each asking today; None when none does."""
    for f in funcs:
        out = outgoing.get(id(f), [])
        if len(out) > 1 and f.role not in ENTRY:  # a handler asks once per call, in one round (.joint)
            calls = ", ".join(f"`{first_line(e.call)}`" for e in out)
            return (
                f"{intro}; `{f.qualname}` reaches it through {len(out)} calls ({calls}), each of which asks today: "
                "one answer cannot stand for them; rewrite by hand"
            )
    return None


@dataclass(eq=False)
class _Chain:
    """What :func:`_request_in` reads and fills while it builds the request per function: the
    module, the site, its thread, per ``id`` of a caller its outgoing edges, per ``id`` of a
    function node the request it makes, and the parent's context a nested helper asks through."""

    a: ModuleAnalysis
    site: Site
    th: Thread
    outgoing: dict[int, list[Edge]]
    made: dict[int, cst.Call]
    closure_ctx: str | None


def _request_in(cx: _Chain, f: FunctionInfo, via: Edge | None = None) -> cst.Call | str:
    """The request as ``f`` would make it (a handler: through its call ``via``), or why it cannot."""
    a, site, th, outgoing, made, closure_ctx = cx.a, cx.site, cx.th, cx.outgoing, cx.made, cx.closure_ctx
    if via is None and id(f.node) in made:
        return made[id(f.node)]
    (e,) = [via] if via is not None else outgoing[id(f)]
    inner = _request_in(cx, e.callee)
    if isinstance(inner, str):
        return inner
    where = f"`{first_line(e.call)}` in `{f.qualname}`"
    aw = a.parents.get(id(e.call))
    if not (isinstance(aw, cst.Await) and aw.expression is e.call):
        return f"{where} {_not_awaited(a, e.call)}"
    if f.role not in ENTRY:
        why_not = always_runs(a, aw, f)
        if why_not:
            return f"{where}: {why_not}; the handler would ask on every call, rewrite by hand"
        stmt = enclosing_stmt(a, e.call)
        assert stmt is not None  # a call inside a function sits in a statement
        probe = Site(site.form, site.kind, f, e.call, stmt, aw)
        when = f"the question is now asked before `{f.qualname}` runs"
        site.unsafe += side_effects_before(a, probe, when)
        exits = exits_before(a, stmt, f)
        if exits:
            site.unsafe.append(
                f"`{exits}` can end `{f.qualname}` before it calls `{e.callee.name}` today; the question is now "
                "asked on every call"
            )
    values = call_values(e.call, e.callee)
    if isinstance(values, str):
        return f"{where} {values}: rewrite by hand"
    callee_ctx = th.ctx[id(e.callee.node)]
    ctx_arg = values.get(callee_ctx) if callee_ctx else None
    if ctx_arg is None and callee_ctx:
        return f"{where} does not pass `{callee_ctx}`: rewrite by hand"
    if not callee_ctx and (e.callee.parent is not f or closure_ctx not in f.param_names()):
        return (
            f"{where}: `{e.callee.qualname}` asks through `{closure_ctx}` of the function around it, and only "
            "that function's own call can pass the answer in; rewrite by hand"
        )
    mapping: dict[str, cst.BaseExpression] = {}
    params = {p.name.value: p for p in e.callee.params}
    for name in {n.value for n in ref_names(inner)} & set(params):
        arg = values.get(name)
        if arg is None:
            default = params[name].default
            if not isinstance(default, (cst.Name, cst.SimpleString, cst.Integer, cst.Float)) or (
                isinstance(default, cst.Name) and default.value not in module_names(a) | BUILTINS
            ):
                return f"{where} leaves `{name}` to a default the handler cannot rebuild: rewrite by hand"
            mapping[name] = default
        elif has_effect(arg.value, context_reads(a, f)):
            return (
                f"{where} computes `{name}` as `{code_of(arg.value)}`, which does something (the handler would "
                "run it again to ask): compute it into a variable first, then run the fix again"
            )
        else:
            mapping[name] = arg.value
    if f.role not in ENTRY:
        if ctx_arg is None:
            assert closure_ctx is not None  # the nested helper's parent, which takes that context
            ctx_arg = cst.Arg(cst.Name(closure_ctx))
        passed = ctx_arg.value
        if not (isinstance(passed, cst.Name) and passed.value in f.param_names()):
            return f"{where} passes `{code_of(passed)}`, not a context parameter of `{f.qualname}`: rewrite by hand"
        th.ctx[id(f.node)] = passed.value
        _, blocked = inputs(a, f, [v for k, v in mapping.items() if k != callee_ctx], passed.value)
        if blocked:
            names = list(dict.fromkeys(blocked))
            return (
                f"{where} passes {', '.join(f'`{b}`' for b in names)}, which {exist(names)} in "
                f"`{f.qualname}`: the handler asks before it runs; rewrite by hand"
            )
    out = substitute(inner, mapping)
    if via is None:
        made[id(f.node)] = out
    return out


def _several_requests_reason(a: ModuleAnalysis, funcs: list[FunctionInfo], intro: str) -> str | None:
    """Why a function of ``funcs`` other than a handler reaches several requests; None when none does."""
    for f in funcs:
        if f.role not in ENTRY and len(asked := requests_reached(a, f)) > 1:
            listed = ", ".join(f"`{first_line(c)}`" for c in asked[:3])
            return (
                f"{intro}; `{f.qualname}` reaches {len(asked)} requests ({listed}) and is not a handler: only a "
                "handler can ask them together in one interim result, and one parameter of it cannot carry "
                "several answers; rewrite by hand"
            )
    return None


def _handoffs_reason(cx: _Chain, entries: list[FunctionInfo], intro: str) -> str | None:
    """Adds to ``cx.th`` a handoff per call of each handler of ``entries`` on the way to the
    request (its answer name in ``th.edge_names``, review notes on ``site.unsafe``), or returns why
    one cannot be made; None when all are."""
    a, site, th, outgoing = cx.a, cx.site, cx.th, cx.outgoing
    call, form = site.call, site.form
    roles = {"tool"} if form == "fastmcp" else LL_ROLES
    for entry in entries:
        if entry.role not in roles:
            what = (
                "a fastmcp tool"
                if form == "fastmcp"
                else "a low-level tools/call, prompts/get or resources/read handler"
            )
            return f"{intro}, which `{entry.qualname}` reaches, and that is not {what}: only such a handler can return the interim result"
        joint = len(reached_asks(a, entry)) > 1  # asked with the others in one round (.joint)
        for e in outgoing[id(entry)]:  # a call of its own each (several: in one round, .joint)
            made_here = _request_in(cx, entry, e)
            if isinstance(made_here, str):
                return f"{intro}; {made_here}"
            name = answer_names(a, entry).get((id(call), id(e.call))) if joint else th.names[id(entry.node)]
            if name is None:  # the chain the closure follows is not one the handler's own calls reach
                return f"{intro}; `{first_line(e.call)}` in `{entry.qualname}` reaches it other than through a call of a function of this module: rewrite by hand"
            th.edge_names[id(e.call)] = name
            h = make_handoff(a, form, site.kind, entry, e.call, made_here, name, e.callee.qualname)
            if isinstance(h, str):
                return f"{intro}; {h}"
            h.edge = e
            if joint and h.skip:
                tests = " or ".join(code_of(_atom(t)) for t in h.skip)
                return (
                    f"{intro}, which asks only when `{tests}` is false, and `{entry.qualname}` reaches other requests "
                    "too: their one interim round would ask this question on every call; rewrite by hand"
                )
            if not joint:  # a joint round notes what runs before its first request (.joint)
                site.unsafe += [f"in `{entry.qualname}`: {n}" for n in side_effects_before(a, h.site)]
            th.handoffs.append(h)
    return None


def _add_across(site: Site, r: Reach, th: Thread, skip: list[cst.BaseExpression], ctx: str) -> None:
    """Appends to ``th.across`` one record (a dict of path, caller, callee, params, ctx, drop,
    request, skip, kind, form, name) per caller of the helper ``site.fn`` in another module
    (``r``: its :func:`reach`), for the project step (project_answers.py)."""
    helper, call, form = site.fn, site.call, site.form
    skip_code = [code_of(t) for t in skip]
    drop = helper_drop(site, th.names[id(helper.node)], ctx)
    positional = [p.name.value for p in [*helper.node.params.posonly_params, *helper.node.params.params]]
    for c in r.external:
        th.across.append(
            {
                "path": c.path,
                "caller": c.caller,
                "callee": helper.name,
                "params": positional,
                "ctx": ctx,
                "drop": drop,
                "request": code_of(call),
                "skip": skip_code,
                "kind": site.kind,
                "form": form,
                "name": th.names[id(helper.node)],
            }
        )


def helper_drop(site: Site, hname: str, ctx: str) -> bool:
    """Whether the helper no longer uses its context once the answer replaces its request."""
    mine = Edits()
    take_out(site, mine, hname)
    return _unused(rewrite(site.fn.node, mine), ctx)  # type: ignore[arg-type]  # a FunctionDef stays one


def make_handoff(
    a: ModuleAnalysis,
    form: str,
    kind: str,
    entry: FunctionInfo,
    call: cst.Call,
    carrier: cst.Call,
    result: str,
    callee: str,
) -> Handoff | str:
    """The round of handler ``entry`` for its call ``call`` of the helper ``callee``: ``carrier``
    (``_(request, *skip tests, **bindings)``) is the request as ``entry`` makes it, ``result`` its
    name for the answer; or why it cannot ask there (in terms of the code)."""
    stmt = enclosing_stmt(a, call)
    aw = a.parents.get(id(call))
    if stmt is None or not (isinstance(aw, cst.Await) and aw.expression is call):
        return f"`{first_line(call)}` in `{entry.qualname}` {_not_awaited(a, call)}"
    after = _after_outcome(a, aw, stmt, entry)
    if after:
        return after
    why_not = _in_statement_reason(a, aw, stmt)
    if why_not:
        return f"`{first_line(call)}` in `{entry.qualname}` {why_not}: rewrite by hand"
    if _loop_around(a, stmt, entry) or isinstance(stmt, (cst.For, cst.While)):
        return (
            f"`{entry.qualname}` calls `{callee}` in a loop: each round would need its own question and key; "
            "rewrite by hand"
        )
    request, *tests = (x.value for x in carrier.args if x.keyword is None)
    assert isinstance(request, cst.Call)  # the carrier's first argument
    # strings bound before the round (they cannot sit in the request's f-string): a local each
    scope = scope_names(entry) | {result}
    binds: list[tuple[str, cst.BaseExpression]] = []
    renames: dict[str, cst.BaseExpression] = {}
    for x in carrier.args:
        if x.keyword is not None:
            bind_name = fresh(scope, x.keyword.value[len(CARRIER) :])
            binds.append((bind_name, x.value))
            renames[x.keyword.value] = cst.Name(bind_name)
    if renames:
        renamed = substitute(cst.Call(cst.Name(CARRIER), [cst.Arg(request), *map(cst.Arg, tests)]), renames)
        request, *tests = (x.value for x in renamed.args)
        assert isinstance(request, cst.Call)
    hsite = Site(form, kind, entry, request, stmt, aw, result=result)
    if form == "fastmcp":
        reason = fastmcp_reason(a, hsite, threaded=True)
        if reason:
            return f"`{entry.qualname}` reaches it; {reason}"
    else:
        base = base_name(request.func.value, through_await=False)  # type: ignore[attr-defined]  # a method call
        if len(entry.params) < 2 or base != entry.params[0].name.value:
            return f"`{entry.qualname}` reaches it without passing its own request context (`ctx`, `ctx.session`): rewrite by hand"
        hsite.ctx_param = base
        if kind == ELICITATION and request.func.attr.value == "elicit_url":  # type: ignore[attr-defined]  # a method call
            return "URL-mode elicitation has no interim form this fix writes; rewrite by hand"
        ann = entry.node.returns
        if ann is not None and "InputRequiredResult" in code_of(ann.annotation):
            return f"`{entry.qualname}` already returns interim results: add this request to them by hand"
    return Handoff(None, stmt, hsite, tests, binds)


ENTRY = {"tool", "prompt", "resource", *LL_ROLES}


def thread_edits(a: ModuleAnalysis, site: Site, ed: Edits) -> None:
    """The helper's request goes (the answer is its new parameter); each function on the way takes
    the answer and passes it on; each handler asks in its round right before the call that starts
    the chain (legacy connections: the request itself, through the handler's context)."""
    th = site.thread
    assert th is not None
    helper = site.fn
    spell = partial(ed.import_name, a)
    hname = th.names[id(helper.node)]
    _req, plain, _ = lowlevel_parts(site)  # only the answer's type is imported here
    if context_elicit(site):  # what fastmcp's `ctx.elicit` returns
        el = partial(spell, "fastmcp.server.elicitation")
        answer_type = (
            f"{el('AcceptedElicitation')}[{spell('typing', 'Any')}] | {el('DeclinedElicitation')} | "
            f"{el('CancelledElicitation')}"
        )
    else:
        answer_type = spell("mcp_types" if site.form == "fastmcp" else "mcp.types", plain)
    if th.skip:  # None where the helper returns before reading it
        answer_type += " | None"
    # Whether each function still uses its context once the answer replaces the request: decided
    # from the helper up (a caller passes the answer in place of the context only when its callee
    # drops it).
    drop: dict[int, bool] = {id(helper.node): helper_drop(site, hname, th.ctx[id(helper.node)])}
    pending = list(th.edges)
    while pending:
        ready = [e for e in pending if id(e.callee.node) in drop and not any(p.callee is e.caller for p in pending)]
        if not ready:
            break
        for e in ready:
            pending.remove(e)
            trial = Edits()
            _pass_answer(trial, e, th, drop)
            drop[id(e.caller.node)] = _unused(rewrite(e.caller.node, trial), th.ctx[id(e.caller.node)])  # type: ignore[arg-type]  # a FunctionDef stays one
    take_out(site, ed, hname)
    for node_id, name in th.names.items():
        if node_id not in drop:
            continue
        fn = next(f for f in [helper, *(e.caller for e in th.edges)] if id(f.node) == node_id)
        param = cst.Param(cst.Name(name), cst.Annotation(cst.parse_expression(answer_type)))
        if not th.ctx[node_id]:  # a nested helper asking through its parent's context: the answer comes first
            ed.transform(fn.node, partial(_first_param, param))
            continue
        fe = function_edit(ed, fn.node)
        fe.params.append((th.ctx[node_id], param))
        fe.ctx = th.ctx[node_id]
        fe.force_drop = drop[node_id]
    for e in th.edges:
        _pass_answer(ed, e, th, drop)
    for h in th.handoffs:
        joint = site.joints.get(id(h.site.fn.node))
        if joint is not None:  # one round asks every request the handler reaches
            from mcpmigrate.codemods.interim.joint import write_joint  # joint reads this module

            write_joint(a, joint, ed)
        else:
            write_round(a, ed, h)
        assert h.edge is not None  # a handler of this module
        _pass_answer(ed, h.edge, th, drop)


def write_round(a: ModuleAnalysis, ed: Edits, h: Handoff) -> None:
    """The handler's round right before its statement that starts the chain (the bindings first,
    then the skip tests, the 2026-07-28 round and the legacy request)."""
    guard = round_statement(a, [h.site], ed)
    legacy = legacy_request(h.site, h.site.result or "", partial(ed.import_name, a))
    assert isinstance(guard.orelse, cst.Else)
    guard = guard.with_changes(orelse=guard.orelse.with_changes(body=guard.orelse.body.with_changes(body=legacy)))
    if h.skip:  # where the helper would not ask, neither does the handler
        test = " or ".join(code_of(_atom(t)) for t in h.skip)
        skipped = cst.parse_statement(f"if {test}:\n    {h.site.result} = None\n")
        assert isinstance(skipped, cst.If)
        guard = skipped.with_changes(orelse=guard)
    # the statement's leading blank lines and comments now lead the round
    binds = [cst.parse_statement(f"{name} = {code_of(value)}\n") for name, value in h.binds]
    first_stmt, *rest = [*binds, guard]
    ed.insert_before(h.stmt, [first_stmt.with_changes(leading_lines=h.stmt.leading_lines), *rest])  # type: ignore[attr-defined]  # every statement has leading_lines
    ed.transform(h.stmt, lambda original, updated: updated.with_changes(leading_lines=[]))
    widen_returns(ed, h.site.fn)


def _unused(fn: cst.FunctionDef, ctx: str) -> bool:
    return uses(fn.body, ctx) == 0 and not any(uses(d, ctx) for d in fn.decorators)


def _pass_answer(ed: Edits, e: Edge, th: Thread, drop: dict[int, bool]) -> None:
    """The call ``e`` passes the caller's answer where it passed the context (or right before it,
    when the callee still takes the context)."""
    mine = th.edge_names.get(id(e.call)) or th.names[id(e.caller.node)]
    if not th.ctx[id(e.callee.node)]:  # the answer goes first
        ed.transform(e.call, partial(_first_arg, cst.Arg(cst.Name(mine))))
        return
    values = call_values(e.call, e.callee)
    assert not isinstance(values, str)  # checked while planning
    ctx_arg = values[th.ctx[id(e.callee.node)]]
    answer = ctx_arg.with_changes(
        value=cst.Name(mine),
        keyword=cst.Name(th.names[id(e.callee.node)]) if ctx_arg.keyword is not None else None,
    )
    if drop[id(e.callee.node)]:
        ed.replace(ctx_arg, answer)
    else:
        answer = answer.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        ed.transform(ctx_arg, lambda original, updated, answer=answer: cst.FlattenSentinel([answer, original]))  # type: ignore[misc]


def _first_param(param: cst.Param, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
    """``param`` becomes the first positional parameter of the function ``updated``."""
    assert isinstance(updated, cst.FunctionDef)
    params = updated.params
    rest = list(params.params)
    if rest or params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params:
        param = param.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return updated.with_changes(params=params.with_changes(params=[param, *rest]))


def _first_arg(arg: cst.Arg, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
    """``arg`` becomes the first argument of the call ``updated``."""
    assert isinstance(updated, cst.Call)
    if updated.args:
        arg = arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return updated.with_changes(args=[arg, *updated.args])


def describe_thread(site: Site) -> str:
    """The fix's description for a threaded request."""
    th = site.thread
    assert th is not None
    names = {"roots": "ListRootsRequest", "sampling": "CreateMessageRequest", "elicitation": "ElicitRequest"}
    handlers = ", ".join(
        dict.fromkeys(
            [f"`{h.site.fn.qualname}`" for h in th.handoffs] + [f"`{c['caller']}` in {c['path']}" for c in th.across]
        )
    )
    hname = th.names[id(site.fn.node)]
    chain = ", ".join(dict.fromkeys([f"`{site.fn.qualname}`", *(f"`{e.caller.qualname}`" for e in th.edges)]))
    where = "`ctx.input_responses`" if site.form == "fastmcp" else "`params.input_responses`"
    keys = ", ".join(dict.fromkeys(repr(h.site.result) for h in th.handoffs))
    return (
        f"the request leaves the helper `{site.fn.qualname}`: on 2026-07-28 {handlers} return `InputRequiredResult` "
        f"with a `{names[site.kind]}` under {'keys' if ', ' in keys else 'key'} {keys} and read the answer from {where} on the retry (no requestState "
        f"is written), on legacy connections they make the request themselves; {chain} take the answer as the "
        f"parameter `{hname}`"
    )


def threaded_form(a: ModuleAnalysis, helper: FunctionInfo) -> str | None:
    """``lowlevel`` when every handler that reaches the mcp 2.x ``helper`` is a low-level handler
    (they ask in their round), ``resolver`` when every one is an ``MCPServer`` tool, else None."""
    roles = {f.role for f in reach(a, helper).entries}
    if roles and roles <= LL_ROLES:
        return "lowlevel"
    if roles and roles <= {"tool", "prompt", "resource"}:
        return "resolver"
    return None

"""The hand-rolled interim fix's decision: which shape a request is sent in (sync, helper, pending)
and so what the rewrite changes — a :class:`Site` — or why the request is left for a human.

Reads the shapes through ``branch`` (the send, the read, the ``tools/call`` branch); builds nothing
(``rewriting`` makes the new statements from the :class:`Site`). The shapes and their limits are
described in the package docstring and in ``README.md`` (the interim fix's manual cases).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.interim_jsonrpc.branch import (
    KEYS,
    assigned_name,
    block_of,
    find_branch,
    find_read,
    find_send,
    in_nested_def,
    is_attr_name,
    requests_in,
    result_use,
    short,
    single,
    spelled,
)
from mcpmigrate.names import (
    BUILTINS,
    all_name_values,
    assigned,
    dict_get,
    enclosing_stmt,
    fresh,
    is_docstring,
    module_names,
    ref_names,
    string_value,
)

_LEGACY = (
    "legacy (2025-11-25) clients, whose calls declare no capabilities in `_meta`, now get error -32021 "
    "instead of the request: the hand-rolled server has no era switch, so add one by hand if it must keep "
    "serving them"
)


@dataclass(eq=False)
class Site:
    """What the fix changes for one request (``FixPlan.site``); nodes of the module the rules ran on."""

    shape: str  # sync | pending | helper
    method: str
    key: str
    request: cst.Dict
    send: cst.SimpleStatementLine  # the statement that sends the request
    sent: cst.CSTNode  # what `send` sends: the dict, or the name bound to it
    message: str  # the tools/call message variable at the site
    replaced: cst.BaseStatement  # replaced by `answer = …` + `if answer is None: … else: …`
    lead: cst.BaseStatement  # whose leading lines the new statements take
    result_var: str  # `resp` (sync) / the response message (pending)
    rest: list[cst.BaseStatement] = field(default_factory=list)  # what runs with the answer
    bind: tuple[str, cst.BaseExpression] | None = None  # pending: `call = <the tools/call>`
    remove: list[cst.CSTNode] = field(default_factory=list)
    promote: cst.If | None = None  # pending: the response branch (`if` → its `elif`)
    drop_names: list[str] = field(default_factory=list)  # module-level names, when left unused
    unsafe: list[str] = field(default_factory=list)
    helper: str | None = None
    exit: cst.SimpleStatementLine | None = None  # the bare return/continue/break the rest ends with
    # helper: `<call_line's target> = <answer_expr, its read_call turned into the answer>`
    call_line: cst.SimpleStatementLine | None = None
    answer_expr: cst.BaseExpression | None = None
    read_call: cst.CSTNode | None = None

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        """Record this site's rewrite (``rewriting.record``) with a fresh name for the answer (the
        names the sites of the round take are shared); the module-level names every site leaves
        unused go after the last site (``rewriting.drop_unused``)."""
        # rewriting reads Site: imported here, not at the top of this module
        from mcpmigrate.codemods.interim_jsonrpc.rewriting import drop_unused, record

        taken: set[str] = edits.shared("interim_jsonrpc.taken", lambda: set(all_name_values(analysis)))
        unused: list[str] = edits.shared(
            "interim_jsonrpc.drop", list, last=partial(drop_unused, edits, analysis.module)
        )
        record(edits, analysis, self, fresh(taken, f"{self.key}_answer"))
        unused += self.drop_names


def site_for(a: ModuleAnalysis, req: cst.Dict, method: str) -> Site | str:
    """The rewrite of one hand-built request dict, or why it stays manual (memoized per module:
    the rules ask for it through ``plan`` and ``rewritable``)."""
    cache: dict[int, Site | str] = a.memo("interim_jsonrpc.plans", dict)
    if id(req) not in cache:
        cache[id(req)] = _decide(a, req, method)
    return cache[id(req)]


def _decide(a: ModuleAnalysis, req: cst.Dict, method: str) -> Site | str:
    if any(
        not isinstance(el, cst.DictElement) or string_value(el.key) not in ("jsonrpc", "id", "method", "params")
        for el in req.elements
    ):
        return "the request dict has keys other than jsonrpc/id/method/params (or `**`): rewrite by hand"
    sending = find_send(a, req)
    if isinstance(sending, str):
        return sending
    send, sent, req_line = sending
    body = block_of(a, send)
    if body is None:
        return "the request is not sent from a block of statements: rewrite by hand"
    i = body.index(send)
    nxt = body[i + 1] if i + 1 < len(body) else None
    read = assigned_name(nxt) if nxt is not None else None
    key = KEYS[method]
    if read is not None and isinstance(nxt, cst.SimpleStatementLine) and find_read(read[1]) is not None:
        plan = _plan_sync(a, req, method, key, send, sent, req_line, nxt, read[0], body[i + 2 :])
        last = single(body[-1], cst.Return) if i + 3 == len(body) else None
        returned = last.value if last is not None else None
        uses = spelled(returned, read[0]) if returned is not None else []
        outside_branch = isinstance(find_branch(a, send, False, {id(x) for x in body}), str)
        if (
            isinstance(plan, str) and outside_branch and returned is not None and len(uses) == 1
        ):  # a helper: `resp = read_message()`, `return resp[...]`
            return _plan_helper(a, req, method, key, send, sent, req_line, returned, uses[0])
        return plan
    ret = single(nxt, cst.Return) if nxt is not None else None
    returned = ret.value if ret is not None else None
    read_call = find_read(returned) if returned is not None else None
    if returned is not None and read_call is not None and i + 2 == len(body):
        return _plan_helper(a, req, method, key, send, sent, req_line, returned, read_call)
    store = _store(a, req, body[:i])
    if store is not None:
        return _plan_pending(a, req, method, key, send, sent, req_line, body[:i], store)
    return (
        "after sending the request the code neither reads the answer on the next line (`resp = "
        "read_message()`) nor parks the call in a map keyed by the request id (`pending[request_id] = "
        "message`): rewrite by hand"
    )


def _helper_locals_reason(
    a: ModuleAnalysis,
    fn_name: str,
    req: cst.Dict,
    send: cst.CSTNode,
    sent: cst.CSTNode,
    more: Sequence[cst.CSTNode] = (),
) -> str | None:
    """The request (its method and params) and the statement sending it move from the helper to the
    call site: they may use module-level names only."""
    inner = [
        el.value
        for el in req.elements
        if isinstance(el, cst.DictElement) and string_value(el.key) in ("method", "params")
    ]
    outside = [n for n in walk(send) if isinstance(n, cst.Name) and not any(n is x for x in walk(sent))]
    for node in [*inner, *outside, *more]:
        for n in walk(node):
            if (
                isinstance(n, cst.Name)
                and n.value not in module_names(a)
                and n.value not in BUILTINS
                and not is_attr_name(a, n)
            ):
                return f"the request is built from `{n.value}`, a local of the helper `{fn_name}`: rewrite by hand"
    return None


def _called_once(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[cst.SimpleStatementLine, cst.Call] | str:
    callers = a.callers(fn)
    if len(callers) != 1 or a.references_outside_calls(fn):
        return f"the helper `{fn.name}` is not called exactly once, directly: rewrite by hand"
    call = callers[0][1]
    line = enclosing_stmt(a, call)
    small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    if (
        not isinstance(line, cst.SimpleStatementLine)
        or not isinstance(small, (cst.Expr, cst.Assign))
        or small.value is not call
    ):
        return f"`{fn.name}(...)` is not called as a statement of its own (`x = {fn.name}(...)`): rewrite by hand"
    return line, call


def _plan_helper(
    a: ModuleAnalysis,
    req: cst.Dict,
    method: str,
    key: str,
    send: cst.SimpleStatementLine,
    sent: cst.CSTNode,
    req_line: cst.SimpleStatementLine | None,
    value: cst.BaseExpression,
    read_call: cst.CSTNode,
) -> Site | str:
    """A helper that sends the request and returns (something of) the answer it reads, called once
    from the tools/call branch as ``x = helper()``. ``read_call`` is what stands for the client's
    response in the returned ``value`` (the read call, or the variable it was assigned to)."""
    fn = a.enclosing_function(send)
    if fn is None or fn.parent is not None or fn.class_name is not None:
        return "the request is sent and read in a method or nested function: rewrite by hand"
    own = [s for s in fn.node.body.body if not is_docstring(s)]
    if own[0] is not (req_line or send):
        return (
            f"the helper `{fn.name}` does more than send the request and read the answer "
            f"(`{short(own[0])}`): rewrite by hand"
        )
    p = fn.node.params
    if p.params or p.kwonly_params or p.posonly_params or isinstance(p.star_arg, cst.Param) or p.star_kwarg:
        return (
            f"the helper `{fn.name}` takes arguments: move the request into the `tools/call` branch (or "
            "make the helper take none), then run the fix again"
        )
    rest_of_value = [n for n in walk(value) if isinstance(n, cst.Name) and not any(n is x for x in walk(read_call))]
    reason = _helper_locals_reason(a, fn.name, req, send, sent, rest_of_value)
    if reason:
        return reason
    once = _called_once(a, fn)
    if isinstance(once, str):
        return once
    line, _call = once
    block = block_of(a, line) or []
    rest = block[block.index(line) + 1 :]
    found = find_branch(a, line, False, {id(s) for s in rest})
    if isinstance(found, str):
        return found
    message, branch, effects = found
    exit_ = _rest_exit(rest)
    if isinstance(exit_, str):
        return exit_
    remove: list[cst.CSTNode] = [*rest, fn.node]
    plan = Site(
        "helper",
        method,
        key,
        req,
        send,
        sent,
        message,
        replaced=line,
        lead=line,
        result_var="",
        rest=rest,
        remove=remove,
        helper=fn.name,
        call_line=line,
        answer_expr=value,
        read_call=read_call,
        exit=exit_,
    )
    reason = _common_checks(a, plan, branch)
    if reason:
        return reason
    plan.unsafe = _unsafe(effects)
    return plan


def _rest_exit(rest: list[cst.BaseStatement]) -> cst.SimpleStatementLine | None | str:
    """How the statements that go on with the answer leave the branch: the bare ``return`` /
    ``continue`` / ``break`` they end with (the interim reply must leave the same way, or the code after
    the dispatch would run for it), None when they fall through; a reason when the branch hands its
    reply to the caller (``return <value>``), which the rewrite does not follow."""
    for s in rest:
        for n in walk(s):
            if isinstance(n, cst.Return) and n.value is not None and not in_nested_def(s, n):
                return (
                    f"the `tools/call` branch hands its reply to the caller (`{short(n)}`) instead of "
                    "sending it: return the interim result the same way by hand"
                )
    last = rest[-1] if rest else None
    small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) else None
    if isinstance(small, (cst.Return, cst.Continue, cst.Break)):
        return cst.SimpleStatementLine(body=[small])
    return None


def _common_checks(a: ModuleAnalysis, plan: Site, branch: cst.IndentedBlock) -> str | None:
    if requests_in(a, branch) > 1:
        return (
            "the `tools/call` branch sends several requests to the client: they must travel in one interim "
            "result (or carry the earlier answers in an integrity-protected requestState); rewrite by hand"
        )
    return None


def _plan_sync(
    a: ModuleAnalysis,
    req: cst.Dict,
    method: str,
    key: str,
    send: cst.SimpleStatementLine,
    sent: cst.CSTNode,
    req_line: cst.SimpleStatementLine | None,
    read_line: cst.SimpleStatementLine,
    var: str,
    rest: list[cst.BaseStatement],
) -> Site | str:
    skip = {id(read_line), *(id(s) for s in rest)} | ({id(req_line)} if req_line is not None else set())
    found = find_branch(a, send, False, skip)
    if isinstance(found, str):
        return found
    message, branch, effects = found
    if var == message:
        return (
            f"the client's response is read into `{var}`, the variable that holds the `tools/call` request: "
            "read it into a name of its own, then run the fix again"
        )
    exit_ = _rest_exit(rest)
    if isinstance(exit_, str):
        return exit_
    remove: list[cst.CSTNode] = [read_line, *rest]
    if req_line is not None:
        remove.append(req_line)
    plan = Site(
        "sync",
        method,
        key,
        req,
        send,
        sent,
        message,
        replaced=send,
        lead=req_line or send,
        result_var=var,
        rest=rest,
        remove=remove,
        exit=exit_,
    )
    reason = _common_checks(a, plan, branch)
    if reason:
        return reason
    plan.unsafe = _unsafe(effects)
    other = [n for s in rest for n in spelled(s, var) if result_use(a, n) is None]
    if other:
        plan.unsafe.append(
            f'`{var}` is used other than as `{var}["result"]` (an error check?): it is now '
            f'`{{"result": <the answer>}}`, since a 2026-07-28 client that does not answer never retries'
        )
    return plan


def _store(
    a: ModuleAnalysis, req: cst.Dict, before: list[cst.BaseStatement]
) -> tuple[cst.SimpleStatementLine, str, cst.BaseExpression] | None:
    """``pending[<the request's id>] = <call>`` before the send: (statement, map name, call)."""
    rid = dict_get(req, "id")
    if rid is None:
        return None
    for s in before:
        small = single(s, cst.Assign)
        if small is None or not isinstance(s, cst.SimpleStatementLine) or len(small.targets) != 1:
            continue
        t = small.targets[0].target
        if (
            isinstance(t, cst.Subscript)
            and isinstance(t.value, cst.Name)
            and len(t.slice) == 1
            and isinstance(t.slice[0].slice, cst.Index)
            and code_of(t.slice[0].slice.value) == code_of(rid.value)
        ):
            return s, t.value.value, small.value
    return None


def _plan_pending(
    a: ModuleAnalysis,
    req: cst.Dict,
    method: str,
    key: str,
    send: cst.SimpleStatementLine,
    sent: cst.CSTNode,
    req_line: cst.SimpleStatementLine | None,
    before: list[cst.BaseStatement],
    store: tuple[cst.SimpleStatementLine, str, cst.BaseExpression],
) -> Site | str:
    store_line, pmap, waiting = store
    bookkeeping: list[cst.CSTNode] = [store_line]
    if req_line is not None:
        bookkeeping.append(req_line)
    drop_names = [pmap]
    rid = dict_get(req, "id")
    assert rid is not None
    scope_fn = a.enclosing_function(send)
    scope: cst.CSTNode = scope_fn.node if scope_fn else a.module
    if isinstance(rid.value, cst.Name):  # `request_id = next(_ids)`: goes with the bookkeeping when only used there
        rname = rid.value.value
        line = next((s for s in before if (assigned_name(s) or ("", None))[0] == rname), None)
        counter = assigned_name(line) if line is not None else None
        if line is not None and counter is not None and len(spelled(scope, rname)) == 3:
            bookkeeping.append(line)
            value = counter[1]
            drop_names += [n.value for n in ref_names(value) if n.value in module_names(a)]
    if pmap not in module_names(a):
        return f"`{pmap}` (the pending map) is not a module-level name: rewrite by hand"
    skip = {id(s) for s in bookkeeping}
    helper = None
    found = find_branch(a, send, True, skip)
    ask: cst.BaseStatement = send
    if isinstance(found, str):
        through = _through_helper(a, scope_fn, found, send, skip, waiting, req, sent)
        if isinstance(through, str):
            return through
        found, ask, waiting, helper = through
    message, branch, effects = found
    answer = _response_branch(a, pmap)
    if isinstance(answer, str):
        return answer
    cont_call, response, owner, cont = answer
    plan = Site(
        "pending",
        method,
        key,
        req,
        send,
        sent,
        message,
        replaced=ask,
        lead=ask if helper else next(s for s in before + [send] if id(s) in skip or s is send),
        result_var=response.value,
        rest=cont,
        bind=(cont_call, waiting),
        remove=[] if helper else bookkeeping,
        promote=owner,
        drop_names=drop_names,
        helper=helper,
    )
    if helper:
        helper_fn = a.function_named(helper)
        assert helper_fn is not None  # the function the request is sent from
        plan.remove.append(helper_fn.node)
    reason = _common_checks(a, plan, branch)
    if reason:
        return reason
    plan.unsafe = _unsafe(effects)
    return plan


def _through_helper(
    a: ModuleAnalysis,
    scope_fn: FunctionInfo | None,
    not_found: str,
    send: cst.SimpleStatementLine,
    skip: set[int],
    waiting: cst.BaseExpression,
    req: cst.Dict,
    sent: cst.CSTNode,
) -> tuple[tuple[str, cst.IndentedBlock, list[str]], cst.BaseStatement, cst.BaseExpression, str] | str:
    """The request is sent from a one-purpose helper (``ask_for_roots(message)``) called once, as a
    statement of its own with the waiting call, from the ``tools/call`` branch: that branch (as
    ``find_branch`` gives it), the statement that calls the helper, the waiting call's expression
    and the helper's name; else why it stays manual (``not_found``: why the send itself is in no
    branch)."""
    # a one-purpose helper (`ask_for_roots(message)`), called once, from the tools/call branch
    fn = scope_fn
    if fn is None or fn.parent is not None or fn.class_name is not None:
        return not_found
    own = [s for s in fn.node.body.body if not is_docstring(s)]
    extra = [s for s in own if s is not send and id(s) not in skip]
    if extra:
        return f"the helper `{fn.name}` does more than send the request (`{short(extra[0])}`): rewrite by hand"
    params = [p.name.value for p in fn.node.params.params]
    if (
        fn.node.params.star_arg is not cst.MaybeSentinel.DEFAULT
        and fn.node.params.star_arg is not None
        or fn.node.params.kwonly_params
        or fn.node.params.posonly_params
        or fn.node.params.star_kwarg
        or len(params) != 1
        or not isinstance(waiting, cst.Name)
        or waiting.value != params[0]
    ):
        return f"the helper `{fn.name}` takes more than the waiting call: rewrite by hand"
    once = _called_once(a, fn)
    if isinstance(once, str):
        return once
    ask_stmt, call = once
    if (
        not isinstance(ask_stmt.body[0], cst.Expr)
        or len(call.args) != 1
        or call.args[0].keyword is not None
        or call.args[0].star
    ):
        return f"`{fn.name}(...)` is not called as a statement of its own with the waiting call: rewrite by hand"
    found = find_branch(a, ask_stmt, True, set())
    if isinstance(found, str):
        return found
    ask = ask_stmt
    waiting = call.args[0].value
    helper = fn.name
    reason = _helper_locals_reason(a, fn.name, req, send, sent)
    if reason:
        return reason
    return found, ask, waiting, helper


def _response_branch(a: ModuleAnalysis, pmap: str) -> tuple[str, cst.Name, cst.If, list[cst.BaseStatement]] | str:
    """The response branch of the pending map ``pmap``: ``call = pmap.pop(response["id"])``, first
    in an ``if`` body without ``else``, and the only use of the map besides its definition and one
    store. Returns the name bound to the waiting call, the response variable, the ``if`` and the
    statements after the pop; else why it stays manual."""
    pops = [
        n
        for n in walk(a.module)
        if isinstance(n, cst.Call)
        and isinstance(n.func, cst.Attribute)
        and isinstance(n.func.value, cst.Name)
        and n.func.value.value == pmap
        and n.func.attr.value == "pop"
    ]
    uses = [n for n in walk(a.module) if isinstance(n, cst.Name) and n.value == pmap]
    if len(pops) != 1 or len(uses) != 3:  # definition, store, pop
        return (
            f"`{pmap}` is used other than by one store and one `{pmap}.pop(...)` (e.g. for several kinds of "
            "request, or a timeout sweep): rewrite by hand"
        )
    pop = pops[0]
    pop_line = enclosing_stmt(a, pop)
    bound = assigned_name(pop_line) if pop_line is not None else None
    if pop_line is None or bound is None or bound[1] is not pop or len(pop.args) != 1:
        return f'the answer is taken from `{pmap}` other than by `call = {pmap}.pop(message["id"])`: rewrite by hand'
    cont_call = bound[0]
    rkey = pop.args[0].value
    response = (
        rkey.value
        if isinstance(rkey, cst.Subscript)
        else rkey.func.value
        if isinstance(rkey, cst.Call) and isinstance(rkey.func, cst.Attribute)
        else None
    )
    if not isinstance(response, cst.Name):
        return f"cannot tell which variable holds the client's response (`{code_of(rkey)}`): rewrite by hand"
    block = a.parents.get(id(pop_line))
    owner = a.parents.get(id(block))
    if (
        not isinstance(block, cst.IndentedBlock)
        or not isinstance(owner, cst.If)
        or owner.body is not block
        or list(block.body)[0] is not pop_line
    ):
        return (
            f"`{code_of(pop_line).strip()}` is not the first statement of an `if` branch that handles the "
            "client's responses: rewrite by hand"
        )
    if isinstance(owner.orelse, cst.Else):
        return "the response branch has an `else`: rewrite by hand"
    cont = list(block.body)[1:]
    reason = _continuation_reason(a, cont, cont_call, response.value)
    if reason:
        return reason
    return cont_call, response, owner, cont


def _continuation_reason(a: ModuleAnalysis, cont: list[cst.BaseStatement], call: str, response: str) -> str | None:
    """What the response branch does after the pop must make sense in the tools/call branch: it may use
    the waiting call, ``response["result"]``, its own names and module-level names only."""
    for s in cont:
        for n in walk(s):
            if isinstance(n, (cst.Yield, cst.Continue, cst.Break, cst.Global, cst.Nonlocal)) or (
                isinstance(n, cst.Return) and n.value is not None
            ):
                return (
                    f"the response branch ends with `{short(n)}`, which means something else in the "
                    "`tools/call` branch: rewrite by hand"
                )
    own: set[str] = set().union(*(assigned(s) for s in cont))
    module = module_names(a)
    blocking: list[str] = []
    for s in cont:
        for n in ref_names(s):
            v = n.value
            if v == response:
                if result_use(a, n) is None:
                    blocking.append(f'`{response}` other than `{response}["result"]`')
            elif v not in own and v != call and v not in module and v not in BUILTINS:
                blocking.append(f"`{v}`")
    if blocking:
        names = ", ".join(dict.fromkeys(blocking))
        return f"the response branch uses {names}, which the `tools/call` branch does not have: rewrite by hand"
    return None


def _unsafe(effects: list[str]) -> list[str]:
    out = [_LEGACY]
    if effects:
        out.append(f"{', '.join(effects[:2])} runs before the request today; on 2026-07-28 it runs once per round")
    return out

"""The ``interim`` fix for hand-rolled JSON-RPC servers (no SDK: plain dicts, json over stdio) that
push ``roots/list``, ``sampling/createMessage`` or ``elicitation/create`` from a ``tools/call``
branch (MCP101, MCP201, MCP202; issue 3).

Spec (2026-07-28): a server sends no requests; ``tools/call`` answers with
``{"resultType": "input_required", "inputRequests": {key: {"method": …, "params": …}}}`` and the
client retries the same call, under a new id, with ``params.inputResponses = {key: <result>}``.
The fix writes no ``requestState``: the retried call carries its original arguments, and the
branch re-runs from them.

Shapes rewritten (``plan`` decides, ``apply`` rewrites; both use ``_plan`` so the label ``check``
shows is the rewrite ``fix`` makes):

- **sync**: in the ``tools/call`` branch the request dict is sent (``send({...})``, or
  ``request = {...}`` then ``send(request)``) and the very next statement blocks for the client's
  response (``resp = json.loads(sys.stdin.readline())``, ``resp = read_message()``). After the fix
  the branch reads ``<call>["params"].get("inputResponses", {}).get(key)``; while it is missing it
  answers the call with the interim result (written with the same call that sent the request),
  otherwise it runs the rest of the branch with the answer in place of ``resp["result"]``. The
  interim reply leaves the branch the way the rest did (a final bare ``return``/``continue``/``break``
  is repeated after it); a branch that hands its reply to the caller (``return {...}``) stays manual.
- **helper**: the same, through a helper without arguments called once from the branch as
  ``x = helper()``, whose body sends the request and returns (part of) what it reads
  (``return read_message()["result"]["roots"]``): ``x`` gets that part of the answer, the helper goes.
- **pending**: the request is sent with its id stored in a map (``pending[request_id] = call``),
  inline in the branch or in a one-purpose helper called from it, and a response branch
  (``call = pending.pop(message["id"])`` first in an ``if`` body) finishes the call. After the fix
  the branch runs that continuation itself with the answer from the retry; the helper, the
  response branch and the map go.

Every rewrite is labelled **unsafe**: a hand-rolled server has no era switch, so a legacy
(2025-11-25) client gets the interim result too; code with side effects before the request now runs
once per round. Anything else stays manual with the reason (``plan`` returns it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.effects import has_effect
from mcpmigrate.config import Config
from mcpmigrate.names import BUILTINS, dict_get, fresh, module_names, ref_names, string_value
from mcpmigrate.model import FixInfo, Safety

STRATEGY = "interim"
RULES = ("MCP101", "MCP201", "MCP202")

KEYS = {S.ROOTS_METHOD: "roots", S.SAMPLING_METHOD: "sampling", S.ELICITATION_METHOD: "elicitation"}
TOOLS_CALL = "tools/call"
# What the statement right after the send must look like to be the blocking read of the answer.
_READ_HINTS = ("read", "recv", "stdin", "loads", "receive")
_LEGACY = ("legacy (2025-11-25) clients get the interim result too: the hand-rolled server has no era "
           "switch, so add one by hand if it must keep serving them")

MANUAL = (
    "{reason}. By hand: answer the `tools/call` with `{{\"resultType\": \"input_required\", \"inputRequests\": "
    "{{\"{key}\": {{\"method\": \"{method}\", \"params\": {{…}}}}}}}}` and read the answer from the retried "
    "call's `params[\"inputResponses\"][\"{key}\"]` (write no `requestState`, or sign it: it is attacker-controlled)"
)


@dataclass(eq=False)
class _Plan:
    shape: str                                  # sync | pending | helper
    method: str
    key: str
    request: cst.Dict
    send: cst.SimpleStatementLine               # the statement that sends the request
    sent: cst.CSTNode                           # what `send` sends: the dict, or the name bound to it
    message: str                                # the tools/call message variable at the site
    site: cst.BaseStatement                     # replaced by `answer = …` + `if answer is None: … else: …`
    lead: cst.BaseStatement                     # whose leading lines the new statements take
    result_var: str                             # `resp` (sync) / the response message (pending)
    rest: list[cst.BaseStatement] = field(default_factory=list)  # what runs with the answer
    bind: tuple[str, cst.BaseExpression] | None = None           # pending: `call = <the tools/call>`
    remove: list[cst.CSTNode] = field(default_factory=list)
    promote: cst.If | None = None               # pending: the response branch (`if` → its `elif`)
    drop_names: list[str] = field(default_factory=list)          # module-level names, when left unused
    unsafe: list[str] = field(default_factory=list)
    helper: str | None = None
    exit: cst.SimpleStatementLine | None = None  # the bare return/continue/break the rest ends with
    # helper: `<call_line's target> = <answer_expr, its read_call turned into the answer>`
    call_line: cst.SimpleStatementLine | None = None
    answer_expr: cst.BaseExpression | None = None
    read_call: cst.CSTNode | None = None


def _short(node: cst.CSTNode, limit: int = 80) -> str:
    """The first line of ``node``'s code, cut at ``limit`` characters (for messages)."""
    line = code_of(node).strip().splitlines()[0]
    return line if len(line) <= limit else line[:limit - 1] + "…"


def _stmt_of(a: ModuleAnalysis, node: cst.CSTNode) -> cst.CSTNode | None:
    cur: cst.CSTNode | None = node
    while cur is not None and not isinstance(cur, cst.BaseStatement):
        cur = a.parents.get(id(cur))
    return cur


def _block(a: ModuleAnalysis, stmt: cst.CSTNode) -> list[cst.BaseStatement] | None:
    parent = a.parents.get(id(stmt))
    if isinstance(parent, (cst.IndentedBlock, cst.Module)):
        return list(parent.body)
    return None


def _single(stmt: cst.CSTNode, kind: type) -> Any:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], kind):
        return stmt.body[0]
    return None


def _assigned_name(stmt: cst.CSTNode) -> tuple[str, cst.BaseExpression] | None:
    small = _single(stmt, cst.Assign)
    if small is not None and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    return None


def _names(node: cst.CSTNode, name: str) -> list[cst.Name]:
    return [n for n in walk(node) if isinstance(n, cst.Name) and n.value == name]


def _result_use(a: ModuleAnalysis, name: cst.CSTNode) -> cst.BaseExpression | None:
    """``name["result"]`` or ``name.get("result")`` around ``name`` (a name or a read call), else None."""
    parent = a.parents.get(id(name))
    if isinstance(parent, cst.Subscript) and parent.value is name and len(parent.slice) == 1:
        idx = parent.slice[0].slice
        if isinstance(idx, cst.Index) and string_value(idx.value) == "result":
            return parent
    if isinstance(parent, cst.Attribute) and parent.value is name and parent.attr.value == "get":
        call = a.parents.get(id(parent))
        if isinstance(call, cst.Call) and call.func is parent and len(call.args) == 1 \
                and string_value(call.args[0].value) == "result":
            return call
    return None


# ---------------------------------------------------------------------------------------------
# Analysis


def _sending(a: ModuleAnalysis, req: cst.Dict) -> tuple[cst.SimpleStatementLine, cst.CSTNode, cst.SimpleStatementLine | None] | str:
    """(the send statement, what it sends, the ``request = {...}`` line before it or None)."""
    not_sent = ("the request dict is not sent by a statement of its own right where it is built (`send({...})`, "
                "or `request = {...}` then `send(request)`): rewrite by hand")
    stmt = _stmt_of(a, req)
    if stmt is None or not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return not_sent
    small = stmt.body[0]
    if isinstance(small, cst.Expr) and isinstance(small.value, (cst.Call, cst.Await)):
        return stmt, req, None
    bound = _assigned_name(stmt)
    if bound is None or bound[1] is not req:
        return not_sent
    name = bound[0]
    body = _block(a, stmt)
    if body is None or body.index(stmt) + 1 >= len(body):
        return not_sent
    nxt = body[body.index(stmt) + 1]
    uses = _names(nxt, name)
    if _single(nxt, cst.Expr) is None or not isinstance(nxt.body[0].value, (cst.Call, cst.Await)) or len(uses) != 1:  # type: ignore[attr-defined]
        return not_sent
    scope = a.enclosing_function(stmt)
    total = len(_names(scope.node if scope else a.module, name))
    if total != 2:
        return f"`{name}` (the request) is used after it is sent: rewrite by hand"
    return nxt, uses[0], stmt


def _dispatch_message(a: ModuleAnalysis, test: cst.BaseExpression, scope: cst.CSTNode) -> str | None:
    """The name of the message a ``tools/call`` dispatch test reads the method of."""
    for comp in walk(test):
        if not isinstance(comp, cst.Comparison):
            continue
        for c in comp.comparisons:
            if not isinstance(c.operator, cst.Equal):
                continue
            for side, other in ((comp.left, c.comparator), (c.comparator, comp.left)):
                if string_value(side) == TOOLS_CALL:
                    return _method_source(a, other, scope)
    return None


def _method_source(a: ModuleAnalysis, expr: cst.BaseExpression, scope: cst.CSTNode) -> str | None:
    """``X`` for ``X["method"]`` / ``X.get("method")``, or a name assigned from one of those."""
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) and len(expr.slice) == 1:
        idx = expr.slice[0].slice
        if isinstance(idx, cst.Index) and string_value(idx.value) == "method":
            return expr.value.value
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "get" \
            and isinstance(expr.func.value, cst.Name) and expr.args and string_value(expr.args[0].value) == "method":
        return expr.func.value.value
    if isinstance(expr, cst.Name):
        found = {src for n in walk(scope) if isinstance(n, cst.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0].target, cst.Name) and n.targets[0].target.value == expr.value
                 for src in [_method_source(a, n.value, scope)] if src}
        if len(found) == 1:
            return found.pop()
    return None


def _dispatch(a: ModuleAnalysis, stmt: cst.CSTNode, tail_from_start: bool, skip: set[int]) -> tuple[str, cst.IndentedBlock, list[str]] | str:
    """Climb from ``stmt`` to the ``tools/call`` branch around it: (message variable, branch body,
    side effects before ``stmt``). ``stmt`` and every block around it up to the branch must be in
    tail position (nothing after them in the branch runs once the interim reply is sent)."""
    effects: list[str] = []
    node: cst.CSTNode = stmt
    first = True
    scope_fn = a.enclosing_function(stmt)
    scope: cst.CSTNode = scope_fn.node if scope_fn else a.module
    while True:
        parent = a.parents.get(id(node))
        if parent is None or isinstance(parent, cst.Module):
            return ("the request is not made in a `tools/call` branch (`if method == \"tools/call\":`) of the "
                    "function that sends it")
        if isinstance(parent, cst.IndentedBlock):
            body = list(parent.body)
            idx = body.index(node)  # type: ignore[arg-type]
            after = [s for s in body[idx + 1:] if id(s) not in skip]
            if after and (tail_from_start or not first):
                return (f"`{_short(after[0])}` follows the request in the `tools/call` branch "
                        "and would also run after the interim reply: rewrite by hand")
            for s in body[:idx]:
                if id(s) not in skip and has_effect(s):
                    effects.append(f"`{_short(s)}`")
            owner = a.parents.get(id(parent))
            if isinstance(owner, cst.If) and owner.body is parent:
                message = _dispatch_message(a, owner.test, scope)
                if message is not None:
                    return message, parent, effects
                if any(string_value(n) == TOOLS_CALL for n in walk(owner.test)):
                    return ("cannot tell which variable holds the `tools/call` request (the dispatch reads its "
                            "method in a way the fix does not follow): rewrite by hand")
            if isinstance(owner, cst.MatchCase) and isinstance(owner.pattern, cst.MatchValue) \
                    and string_value(owner.pattern.value) == TOOLS_CALL:
                match = a.parents.get(id(owner))
                message = _method_source(a, match.subject, scope) if isinstance(match, cst.Match) else None
                if message is not None:
                    return message, parent, effects
                return "cannot tell which variable holds the `tools/call` request (`match` subject): rewrite by hand"
            if isinstance(owner, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
                return ("the request is not made in a `tools/call` branch (`if method == \"tools/call\":`) of the "
                        "function that sends it")
            first = False
        elif isinstance(parent, (cst.Lambda, cst.CompFor)):
            return "the request is made inside an expression: rewrite by hand"
        node = parent


def _requests_in(a: ModuleAnalysis, node: cst.CSTNode, seen: set[int] | None = None) -> int:
    """Hand-built server requests (roots / sampling / elicitation) sent under ``node``, following
    calls to module-level functions."""
    seen = seen if seen is not None else set()
    count = 0
    for n in walk(node):
        if isinstance(n, cst.Dict) and _request_method(n) is not None:
            count += 1
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Name):
            f = a.function_named(n.func.value)
            if f is not None and f.parent is None and f.class_name is None and id(f) not in seen:
                seen.add(id(f))
                count += _requests_in(a, f.node, seen)
    return count


def _request_method(d: cst.Dict) -> str | None:
    m = dict_get(d, "method")
    method = string_value(m.value) if m is not None else None
    if method in KEYS and (dict_get(d, "jsonrpc") is not None or dict_get(d, "id") is not None):
        return method
    return None


def _plan(a: ModuleAnalysis, req: cst.Dict, method: str) -> _Plan | str:
    cache: dict[int, _Plan | str] = a.memo("interim_jsonrpc.plans", dict)
    if id(req) not in cache:
        cache[id(req)] = _plan_uncached(a, req, method)
    return cache[id(req)]


def _plan_uncached(a: ModuleAnalysis, req: cst.Dict, method: str) -> _Plan | str:
    if any(not isinstance(el, cst.DictElement) or string_value(el.key) not in ("jsonrpc", "id", "method", "params")
           for el in req.elements):
        return "the request dict has keys other than jsonrpc/id/method/params (or `**`): rewrite by hand"
    sending = _sending(a, req)
    if isinstance(sending, str):
        return sending
    send, sent, req_line = sending
    body = _block(a, send)
    if body is None:
        return "the request is not sent from a block of statements: rewrite by hand"
    i = body.index(send)
    nxt = body[i + 1] if i + 1 < len(body) else None
    read = _assigned_name(nxt) if nxt is not None else None
    key = KEYS[method]
    if read is not None and _read_call(read[1]) is not None:
        plan = _plan_sync(a, req, method, key, send, sent, req_line, nxt, read[0], body[i + 2:])  # type: ignore[arg-type]
        last = _single(body[-1], cst.Return) if i + 3 == len(body) else None
        uses = _names(last.value, read[0]) if last is not None and last.value is not None else []
        outside_branch = isinstance(_dispatch(a, send, False, {id(x) for x in body}), str)
        if isinstance(plan, str) and outside_branch and len(uses) == 1:  # a helper: `resp = read_message()`, `return resp[...]`
            return _plan_helper(a, req, method, key, send, sent, req_line, last.value, uses[0])  # type: ignore[union-attr]
        return plan
    ret = _single(nxt, cst.Return) if nxt is not None else None
    if ret is not None and ret.value is not None and _read_call(ret.value) is not None and i + 2 == len(body):
        return _plan_helper(a, req, method, key, send, sent, req_line, ret.value, _read_call(ret.value))  # type: ignore[arg-type]
    store = _store(a, req, body[:i])
    if store is not None:
        return _plan_pending(a, req, method, key, send, sent, req_line, body[:i], store)
    return ("after sending the request the code neither reads the answer on the next line (`resp = "
            "read_message()`) nor parks the call in a map keyed by the request id (`pending[request_id] = "
            "message`): rewrite by hand")


def _read_call(expr: cst.CSTNode) -> cst.Call | None:
    """The one call in ``expr`` that reads the client's response (``read_message()``,
    ``json.loads(sys.stdin.readline())``): the outermost call whose code has a read hint."""
    calls = [n for n in walk(expr) if isinstance(n, cst.Call) and any(h in code_of(n) for h in _READ_HINTS)]
    if not calls:
        return None
    outer = calls[0]
    return outer if all(any(c is x for x in walk(outer)) for c in calls) else None


def _helper_locals_reason(a: ModuleAnalysis, fn_name: str, req: cst.Dict, send: cst.CSTNode, sent: cst.CSTNode,
                          more: list[cst.CSTNode] | None = None) -> str | None:
    """The request (its method and params) and the statement sending it move from the helper to the
    call site: they may use module-level names only."""
    inner = [el.value for el in req.elements if string_value(el.key) in ("method", "params")]  # type: ignore[union-attr]
    outside = [n for n in walk(send) if isinstance(n, cst.Name) and not any(n is x for x in walk(sent))]
    for node in [*inner, *outside, *(more or [])]:
        for n in walk(node):
            if isinstance(n, cst.Name) and n.value not in module_names(a) and n.value not in BUILTINS \
                    and not _is_attr_name(a, n):
                return f"the request is built from `{n.value}`, a local of the helper `{fn_name}`: rewrite by hand"
    return None


def _called_once(a: ModuleAnalysis, fn: Any) -> tuple[cst.SimpleStatementLine, cst.Call] | str:
    callers = a.callers(fn)
    if len(callers) != 1 or a.references_outside_calls(fn):
        return f"the helper `{fn.name}` is not called exactly once, directly: rewrite by hand"
    call = callers[0][1]
    line = _stmt_of(a, call)
    small = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
    if not isinstance(small, (cst.Expr, cst.Assign)) or small.value is not call:
        return f"`{fn.name}(...)` is not called as a statement of its own (`x = {fn.name}(...)`): rewrite by hand"
    return line, call  # type: ignore[return-value]


def _plan_helper(a: ModuleAnalysis, req: cst.Dict, method: str, key: str, send: cst.SimpleStatementLine, sent: cst.CSTNode,
                 req_line: cst.SimpleStatementLine | None, value: cst.BaseExpression,
                 read_call: cst.CSTNode) -> _Plan | str:
    """A helper that sends the request and returns (something of) the answer it reads, called once
    from the tools/call branch as ``x = helper()``. ``read_call`` is what stands for the client's
    response in the returned ``value`` (the read call, or the variable it was assigned to)."""
    fn = a.enclosing_function(send)
    if fn is None or fn.parent is not None or fn.class_name is not None:
        return "the request is sent and read in a method or nested function: rewrite by hand"
    own = [s for s in fn.node.body.body if not _docstring(s)]  # type: ignore[union-attr]
    if own[0] is not (req_line or send):
        return (f"the helper `{fn.name}` does more than send the request and read the answer "
                f"(`{_short(own[0])}`): rewrite by hand")
    p = fn.node.params
    if p.params or p.kwonly_params or p.posonly_params or isinstance(p.star_arg, cst.Param) or p.star_kwarg:
        return (f"the helper `{fn.name}` takes arguments: move the request into the `tools/call` branch (or "
                "make the helper take none), then run the fix again")
    rest_of_value = [n for n in walk(value) if isinstance(n, cst.Name) and not any(n is x for x in walk(read_call))]
    reason = _helper_locals_reason(a, fn.name, req, send, sent, rest_of_value)
    if reason:
        return reason
    once = _called_once(a, fn)
    if isinstance(once, str):
        return once
    line, _call = once
    block = _block(a, line) or []
    rest = block[block.index(line) + 1:]
    found = _dispatch(a, line, False, {id(s) for s in rest})
    if isinstance(found, str):
        return found
    message, branch, effects = found
    exit_ = _rest_exit(rest)
    if isinstance(exit_, str):
        return exit_
    plan = _Plan("helper", method, key, req, send, sent, message, site=line, lead=line, result_var="", rest=rest,
                 remove=[*rest, fn.node], helper=fn.name, call_line=line, answer_expr=value, read_call=read_call,
                 exit=exit_)
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
            if isinstance(n, cst.Return) and n.value is not None and not _in_nested_def(s, n):
                return (f"the `tools/call` branch hands its reply to the caller (`{_short(n)}`) instead of "
                        "sending it: return the interim result the same way by hand")
    last = rest[-1] if rest else None
    small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) else None
    if isinstance(small, (cst.Return, cst.Continue, cst.Break)):
        return cst.SimpleStatementLine(body=[small])
    return None


def _in_nested_def(top: cst.CSTNode, node: cst.CSTNode) -> bool:
    for d in walk(top):
        if isinstance(d, (cst.FunctionDef, cst.Lambda)) and any(x is node for x in walk(d)):
            return True
    return False


def _common_checks(a: ModuleAnalysis, plan: _Plan, branch: cst.IndentedBlock) -> str | None:
    if _requests_in(a, branch) > 1:
        return ("the `tools/call` branch sends several requests to the client: they must travel in one interim "
                "result (or carry the earlier answers in an integrity-protected requestState); rewrite by hand")
    return None


def _plan_sync(a: ModuleAnalysis, req: cst.Dict, method: str, key: str, send: cst.SimpleStatementLine, sent: cst.CSTNode,
               req_line: cst.SimpleStatementLine | None, read_line: cst.SimpleStatementLine, var: str,
               rest: list[cst.BaseStatement]) -> _Plan | str:
    skip = {id(read_line), *(id(s) for s in rest)} | ({id(req_line)} if req_line is not None else set())
    found = _dispatch(a, send, False, skip)
    if isinstance(found, str):
        return found
    message, branch, effects = found
    if var == message:
        return (f"the client's response is read into `{var}`, the variable that holds the `tools/call` request: "
                "read it into a name of its own, then run the fix again")
    exit_ = _rest_exit(rest)
    if isinstance(exit_, str):
        return exit_
    plan = _Plan("sync", method, key, req, send, sent, message, site=send, lead=req_line or send,
                 result_var=var, rest=rest, remove=[read_line, *rest] + ([req_line] if req_line else []), exit=exit_)
    reason = _common_checks(a, plan, branch)
    if reason:
        return reason
    plan.unsafe = _unsafe(effects)
    other = [n for s in rest for n in _names(s, var) if _result_use(a, n) is None]
    if other:
        plan.unsafe.append(f"`{var}` is used other than as `{var}[\"result\"]` (an error check?): it is now "
                           f"`{{\"result\": <the answer>}}`, since a 2026-07-28 client that does not answer never retries")
    return plan


def _store(a: ModuleAnalysis, req: cst.Dict, before: list[cst.BaseStatement]) -> tuple[cst.SimpleStatementLine, str, cst.BaseExpression] | None:
    """``pending[<the request's id>] = <call>`` before the send: (statement, map name, call)."""
    rid = dict_get(req, "id")
    if rid is None:
        return None
    for s in before:
        small = _single(s, cst.Assign)
        if small is None or len(small.targets) != 1:
            continue
        t = small.targets[0].target
        if isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and len(t.slice) == 1 \
                and isinstance(t.slice[0].slice, cst.Index) and code_of(t.slice[0].slice.value) == code_of(rid.value):
            return s, t.value.value, small.value
    return None


def _plan_pending(a: ModuleAnalysis, req: cst.Dict, method: str, key: str, send: cst.SimpleStatementLine, sent: cst.CSTNode,
                  req_line: cst.SimpleStatementLine | None, before: list[cst.BaseStatement],
                  store: tuple[cst.SimpleStatementLine, str, cst.BaseExpression]) -> _Plan | str:
    store_line, pmap, waiting = store
    bookkeeping: list[cst.CSTNode] = [store_line] + ([req_line] if req_line is not None else [])
    drop_names = [pmap]
    rid = dict_get(req, "id")
    assert rid is not None
    scope_fn = a.enclosing_function(send)
    scope: cst.CSTNode = scope_fn.node if scope_fn else a.module
    if isinstance(rid.value, cst.Name):  # `request_id = next(_ids)`: goes with the bookkeeping when only used there
        rname = rid.value.value
        line = next((s for s in before if (_assigned_name(s) or ("", None))[0] == rname), None)
        if line is not None and len(_names(scope, rname)) == 3:
            bookkeeping.append(line)
            value = _assigned_name(line)[1]  # type: ignore[index]
            drop_names += [n.value for n in ref_names(value) if n.value in module_names(a)]
    if pmap not in module_names(a):
        return f"`{pmap}` (the pending map) is not a module-level name: rewrite by hand"
    skip = {id(s) for s in bookkeeping}
    helper = None
    found = _dispatch(a, send, True, skip)
    ask: cst.BaseStatement = send
    if isinstance(found, str):
        # a one-purpose helper (`ask_for_roots(message)`), called once, from the tools/call branch
        fn = scope_fn
        if fn is None or fn.parent is not None or fn.class_name is not None:
            return found
        own = [s for s in fn.node.body.body if not _docstring(s)]  # type: ignore[union-attr]
        extra = [s for s in own if s is not send and id(s) not in skip]
        if extra:
            return (f"the helper `{fn.name}` does more than send the request (`{_short(extra[0])}`): "
                    "rewrite by hand")
        params = [p.name.value for p in fn.node.params.params]
        if fn.node.params.star_arg is not cst.MaybeSentinel.DEFAULT and fn.node.params.star_arg is not None \
                or fn.node.params.kwonly_params or fn.node.params.posonly_params or fn.node.params.star_kwarg \
                or len(params) != 1 or not isinstance(waiting, cst.Name) or waiting.value != params[0]:
            return f"the helper `{fn.name}` takes more than the waiting call: rewrite by hand"
        once = _called_once(a, fn)
        if isinstance(once, str):
            return once
        ask_stmt, call = once
        if not isinstance(ask_stmt.body[0], cst.Expr) or len(call.args) != 1 or call.args[0].keyword is not None \
                or call.args[0].star:
            return f"`{fn.name}(...)` is not called as a statement of its own with the waiting call: rewrite by hand"
        found = _dispatch(a, ask_stmt, True, set())
        if isinstance(found, str):
            return found
        ask = ask_stmt
        waiting = call.args[0].value
        helper = fn.name
        reason = _helper_locals_reason(a, fn.name, req, send, sent)
        if reason:
            return reason
    message, branch, effects = found
    # The response branch: `call = pending.pop(response["id"])`, first in an `if` body.
    pops = [n for n in walk(a.module) if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
            and isinstance(n.func.value, cst.Name) and n.func.value.value == pmap and n.func.attr.value == "pop"]
    uses = [n for n in walk(a.module) if isinstance(n, cst.Name) and n.value == pmap]
    if len(pops) != 1 or len(uses) != 3:  # definition, store, pop
        return (f"`{pmap}` is used other than by one store and one `{pmap}.pop(...)` (e.g. for several kinds of "
                "request, or a timeout sweep): rewrite by hand")
    pop = pops[0]
    pop_line = _stmt_of(a, pop)
    bound = _assigned_name(pop_line) if pop_line is not None else None
    if bound is None or bound[1] is not pop or len(pop.args) != 1:
        return f"the answer is taken from `{pmap}` other than by `call = {pmap}.pop(message[\"id\"])`: rewrite by hand"
    cont_call = bound[0]
    rkey = pop.args[0].value
    response = rkey.value if isinstance(rkey, cst.Subscript) else rkey.func.value if isinstance(rkey, cst.Call) \
        and isinstance(rkey.func, cst.Attribute) else None  # type: ignore[union-attr]
    if not isinstance(response, cst.Name):
        return f"cannot tell which variable holds the client's response (`{code_of(rkey)}`): rewrite by hand"
    block = a.parents.get(id(pop_line))
    owner = a.parents.get(id(block))
    if not isinstance(block, cst.IndentedBlock) or not isinstance(owner, cst.If) or owner.body is not block \
            or list(block.body)[0] is not pop_line:
        return (f"`{code_of(pop_line).strip()}` is not the first statement of an `if` branch that handles the "
                "client's responses: rewrite by hand")
    if isinstance(owner.orelse, cst.Else):
        return "the response branch has an `else`: rewrite by hand"
    cont = list(block.body)[1:]
    reason = _continuation_reason(a, cont, cont_call, response.value)
    if reason:
        return reason
    plan = _Plan("pending", method, key, req, send, sent, message, site=ask, lead=ask if helper else
                 next(s for s in before + [send] if id(s) in skip or s is send),
                 result_var=response.value, rest=cont, bind=(cont_call, waiting), remove=[] if helper else bookkeeping,
                 promote=owner, drop_names=drop_names, helper=helper)
    if helper:
        plan.remove.append(a.function_named(helper).node)  # type: ignore[union-attr]
    reason = _common_checks(a, plan, branch)
    if reason:
        return reason
    plan.unsafe = _unsafe(effects)
    return plan


def _docstring(stmt: cst.CSTNode) -> bool:
    small = _single(stmt, cst.Expr)
    return small is not None and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString))


def _is_attr_name(a: ModuleAnalysis, n: cst.Name) -> bool:
    parent = a.parents.get(id(n))
    return (isinstance(parent, cst.Attribute) and parent.attr is n) or (isinstance(parent, cst.Arg) and parent.keyword is n)


def _continuation_reason(a: ModuleAnalysis, cont: list[cst.BaseStatement], call: str, response: str) -> str | None:
    """What the response branch does after the pop must make sense in the tools/call branch: it may use
    the waiting call, ``response["result"]``, its own names and module-level names only."""
    own: set[str] = set()
    for s in cont:
        for n in walk(s):
            if isinstance(n, (cst.Yield, cst.Continue, cst.Break, cst.Global, cst.Nonlocal)) \
                    or (isinstance(n, cst.Return) and n.value is not None):
                return (f"the response branch ends with `{_short(n)}`, which means something else in the "
                        "`tools/call` branch: rewrite by hand")
            if isinstance(n, cst.AssignTarget):
                own |= {x.value for x in walk(n.target) if isinstance(x, cst.Name)}
            elif isinstance(n, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr, cst.AsName)):
                target = n.name if isinstance(n, cst.AsName) else n.target
                own |= {x.value for x in walk(target) if isinstance(x, cst.Name)}
    module = module_names(a)
    blocking: list[str] = []
    for s in cont:
        for n in ref_names(s):
            v = n.value
            if v == response:
                if _result_use(a, n) is None:
                    blocking.append(f"`{response}` other than `{response}[\"result\"]`")
            elif v not in own and v != call and v not in module and v not in BUILTINS:
                blocking.append(f"`{v}`")
    if blocking:
        names = ", ".join(dict.fromkeys(blocking))
        return (f"the response branch uses {names}, which the `tools/call` branch does not have: rewrite by hand")
    return None


def _unsafe(effects: list[str]) -> list[str]:
    out = [_LEGACY]
    if effects:
        out.append(f"{', '.join(effects[:2])} runs before the request today; on 2026-07-28 it runs once per round")
    return out


# ---------------------------------------------------------------------------------------------
# check: the label


def _describe(plan: _Plan) -> str:
    if plan.shape == "sync":
        where = f"in place of `{plan.result_var}[\"result\"]`, the response it read from the client"
    elif plan.shape == "helper":
        where = (f"where `{code_of(plan.site).strip()}` stood (the helper `{plan.helper}`, which sent the request and "
                 "read the response, goes)")
    else:
        where = ("running what the response branch did with it (the response branch, the pending map and its "
                 "bookkeeping go" + (f", with the helper `{plan.helper}`)" if plan.helper else ")"))
    return (f"the `tools/call` branch answers `{{\"resultType\": \"input_required\", \"inputRequests\": "
            f"{{\"{plan.key}\": {{\"method\": \"{plan.method}\", …}}}}}}` until the retried call's "
            f"`params[\"inputResponses\"][\"{plan.key}\"]` holds the answer, then goes on with it {where}; "
            f"no requestState is written (review: {'; '.join(plan.unsafe)}; like before, it asks without checking "
            f"that the call's `_meta` declares the client's `{plan.key}` capability, which 2026-07-28 requires "
            "(error -32021 otherwise): add that check by hand)")


def plan(a: ModuleAnalysis, config: Config, node: cst.Dict, method: str) -> tuple[FixInfo | None, str | None, dict[str, Any]]:
    """The interim fix for one hand-built request dict: ``(fix, manual, data)``."""
    p = _plan(a, node, method)
    if isinstance(p, str):
        return None, MANUAL.format(reason=p, key=KEYS[method], method=method), {}
    old = _older_protocol_versions(a)
    if old:
        p.unsafe[0] = (f"this server answers `initialize` with protocolVersion {', '.join(map(repr, old))}: every "
                       "client then speaks that version, where an interim result is not valid, so the tool stops "
                       "working until the server also negotiates 2026-07-28 (keep the old version for legacy "
                       "clients with an era switch)")
    return FixInfo(Safety.UNSAFE, STRATEGY, _describe(p)), None, {"handrolled": p.shape}


def _older_protocol_versions(a: ModuleAnalysis) -> list[str]:
    """Protocol versions before 2026-07-28 the module answers with (a ``"protocolVersion"`` entry
    whose value is a date literal, or a module constant holding one)."""
    constants = {n: string_value(v) for n, v in a.module_assigns}
    found: set[str] = set()
    for n in a.flat.of_types((cst.DictElement,)):
        el = a.flat.order[n]
        if string_value(el.key) != "protocolVersion":  # type: ignore[attr-defined]
            continue
        v = el.value  # type: ignore[attr-defined]
        value = string_value(v) if not isinstance(v, cst.Name) else constants.get(v.value)
        if value and len(value) == 10 and value[4] == "-" and value < "2026-07-28":
            found.add(value)
    return sorted(found)


def rewritable(a: ModuleAnalysis, node: cst.Dict, method: str) -> bool:
    return not isinstance(_plan(a, node, method), str)


# ---------------------------------------------------------------------------------------------
# fix: the rewrite


def apply(module: cst.Module, analysis: ModuleAnalysis, findings: list, config: Config) -> tuple[cst.Module, list, list[str]]:
    a = analysis
    applied, notes, plans = [], [], []
    taken = {n.value for n in walk(module) if isinstance(n, cst.Name)}
    for f in sorted(findings, key=lambda f: (f.line, f.column)):
        if not f.data.get("handrolled") or not isinstance(f.node, cst.Dict):
            continue
        method = _request_method(f.node)
        p = _plan(a, f.node, method) if method else "not a hand-built request"
        if isinstance(p, str):
            notes.append(f"{f.rule} line {f.line}: {p}")
            continue
        applied.append(f)
        plans.append(p)
    if not plans:
        return module, [], notes
    repl: dict[int, Any] = {}
    for p in plans:
        answer = fresh(taken, f"{p.key}_answer")
        for node in p.remove:
            repl[id(node)] = cst.RemoveFromParent()
        if p.promote is not None:
            repl[id(p.promote)] = "promote"
        repl[id(p.site)] = cst.FlattenSentinel(_new_statements(a, p, answer))
    new = module.visit(_Rewriter(repl))
    new = _drop_unused(new, [n for p in plans for n in p.drop_names])
    return new, applied, notes


def _new_statements(a: ModuleAnalysis, p: _Plan, answer: str) -> list[cst.BaseStatement]:
    lookup = cst.parse_statement(f'{answer} = {p.message}["params"].get("inputResponses", {{}}).get("{p.key}")\n')
    lookup = lookup.with_changes(leading_lines=p.lead.leading_lines)  # type: ignore[attr-defined]
    inner = p.request.with_changes(elements=[el for el in p.request.elements
                                             if string_value(el.key) not in ("jsonrpc", "id")])  # type: ignore[union-attr]
    jsonrpc = dict_get(p.request, "jsonrpc")
    framing = f'"jsonrpc": {code_of(jsonrpc.value)}, ' if jsonrpc is not None else ""
    response = cst.parse_expression(
        f'{{{framing}"id": {p.message}["id"], "result": {{\n'
        f'    "resultType": "input_required",\n'
        f'    "inputRequests": {{"{p.key}": __request__}},\n'
        f'}}}}')
    response = response.visit(_Swap({"__request__": inner.visit(_Indent())}))
    reply = p.send.visit(_SwapNode(p.sent, response)).with_changes(leading_lines=[])
    later: list[cst.BaseStatement] = []
    if p.bind is not None:
        later.append(cst.parse_statement(f"{p.bind[0]} = {code_of(p.bind[1])}\n"))
    uses = [n for s in p.rest for n in _names(s, p.result_var)]
    results = [_result_use(a, n) for n in uses]
    if p.shape == "pending" or all(r is not None for r in results):
        swap = {id(r): cst.Name(answer) for r in results if r is not None}
        rest = [s.visit(_SwapIds(swap)) for s in p.rest]
    else:
        later.append(cst.parse_statement(f'{p.result_var} = {{"result": {answer}}}\n'))
        rest = list(p.rest)
    if p.call_line is not None:  # helper: `x = <what it returned, the answer for the response>`
        assert p.answer_expr is not None and p.read_call is not None
        r = _result_use(a, p.read_call)
        swap = {id(r): cst.Name(answer)} if r is not None else {
            id(p.read_call): cst.parse_expression(f'{{"result": {answer}}}')}
        small = p.call_line.body[0]
        later.append(p.call_line.with_changes(body=[small.with_changes(value=p.answer_expr.visit(_SwapIds(swap)))],
                                              leading_lines=[]))
    if rest:
        rest[0] = rest[0].with_changes(leading_lines=[l for l in rest[0].leading_lines if l.comment is not None])  # type: ignore[attr-defined]
    branch = cst.parse_statement(f"if {answer} is None:\n    pass\nelse:\n    pass\n")
    assert isinstance(branch, cst.If) and isinstance(branch.orelse, cst.Else)
    branch = branch.with_changes(
        body=branch.body.with_changes(body=[reply] + ([p.exit] if p.exit is not None else [])),
        orelse=branch.orelse.with_changes(body=branch.orelse.body.with_changes(body=later + rest or [cst.parse_statement("pass\n")])),
    )
    return [lookup, branch]


class _Swap(cst.CSTTransformer):
    def __init__(self, names: dict[str, cst.CSTNode]) -> None:
        self.names = names

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> Any:
        return self.names.get(original_node.value, updated_node)


class _Indent(cst.CSTTransformer):
    """One level deeper: the request now sits inside the interim result's ``inputRequests``."""

    def leave_ParenthesizedWhitespace(self, original_node: cst.ParenthesizedWhitespace,
                                      updated_node: cst.ParenthesizedWhitespace) -> cst.ParenthesizedWhitespace:
        return updated_node.with_changes(last_line=cst.SimpleWhitespace(updated_node.last_line.value + "    "))


class _SwapIds(cst.CSTTransformer):
    def __init__(self, nodes: dict[int, cst.CSTNode]) -> None:
        self.nodes = nodes

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:  # type: ignore[override]
        return self.nodes.get(id(original_node), updated_node)


class _SwapNode(_SwapIds):
    def __init__(self, old: cst.CSTNode, new: cst.CSTNode) -> None:
        super().__init__({id(old): new})


class _Rewriter(cst.CSTTransformer):
    def __init__(self, repl: dict[int, Any]) -> None:
        self.repl = repl

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:  # type: ignore[override]
        r = self.repl.get(id(original_node))
        if r is None:
            return updated_node
        if r == "promote":  # drop the response branch: its `elif` becomes the `if`
            assert isinstance(updated_node, cst.If)
            nxt = updated_node.orelse
            if nxt is None:
                return cst.RemoveFromParent()
            assert isinstance(nxt, cst.If)
            return nxt.with_changes(leading_lines=updated_node.leading_lines)
        return r


def _drop_unused(module: cst.Module, names: list[str]) -> cst.Module:
    """Module-level ``name = …`` / ``name: T = …`` statements of ``names`` nothing reads any more."""
    counts: dict[str, int] = {}
    for n in walk(module):
        if isinstance(n, cst.Name):
            counts[n.value] = counts.get(n.value, 0) + 1
    body = []
    for stmt in module.body:
        target = None
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            target = small.targets[0].target.value
        elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
            target = small.target.value
        if target in names and counts.get(target) == 1:
            continue
        body.append(stmt)
    return module.with_changes(body=body)

"""Where a hand-built JSON-RPC request sits: the statement that sends it, the statement that reads
the answer, and the ``tools/call`` dispatch branch around them.

The part of the hand-rolled interim fix that reads shapes (see ``planning`` for the decision made
from them): which statement sends the request dict (``send({...})``, or ``request = {...}`` then
``send(request)``), which call reads the client's response, which ``if method == "tools/call":``
branch (or ``case "tools/call":``) holds it and which variable is the ``tools/call`` message there,
and the small statement-shape helpers these share.
"""

from __future__ import annotations

from typing import TypeVar

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.effects import has_effect
from mcpmigrate.names import dict_get, enclosing_stmt, name_nodes, string_value

#: The request methods the fix rewrites, and the ``inputRequests`` key each gets.
KEYS = {S.ROOTS_METHOD: "roots", S.SAMPLING_METHOD: "sampling", S.ELICITATION_METHOD: "elicitation"}
TOOLS_CALL = "tools/call"
# What the statement right after the send must look like to be the blocking read of the answer.
_READ_HINTS = ("read", "recv", "stdin", "loads", "receive")


def short(node: cst.CSTNode, limit: int = 80) -> str:
    """The first line of ``node``'s code, cut at ``limit`` characters (for messages)."""
    line = code_of(node).strip().splitlines()[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def block_of(a: ModuleAnalysis, stmt: cst.CSTNode) -> list[cst.BaseStatement] | None:
    """The statements of the block ``stmt`` is in (an indented block or the module)."""
    parent = a.parents.get(id(stmt))
    if isinstance(parent, (cst.IndentedBlock, cst.Module)):
        return list(parent.body)
    return None


_Small = TypeVar("_Small", bound=cst.BaseSmallStatement)


def single(stmt: cst.CSTNode, kind: type[_Small]) -> _Small | None:
    """The one small statement of a statement line, when it is a ``kind``."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], kind):
        return stmt.body[0]
    return None


def assigned_name(stmt: cst.CSTNode) -> tuple[str, cst.BaseExpression] | None:
    """(name, value) for a line ``name = value``."""
    small = single(stmt, cst.Assign)
    if small is not None and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    return None


def spelled(node: cst.CSTNode, name: str) -> list[cst.Name]:
    """Every ``Name`` node in ``node`` spelling ``name`` (references, attribute names, keywords)."""
    return [n for n in name_nodes(node) if n.value == name]


def result_use(a: ModuleAnalysis, name: cst.CSTNode) -> cst.BaseExpression | None:
    """``name["result"]`` or ``name.get("result")`` around ``name`` (a name or a read call), else None."""
    parent = a.parents.get(id(name))
    if isinstance(parent, cst.Subscript) and parent.value is name and len(parent.slice) == 1:
        idx = parent.slice[0].slice
        if isinstance(idx, cst.Index) and string_value(idx.value) == "result":
            return parent
    if isinstance(parent, cst.Attribute) and parent.value is name and parent.attr.value == "get":
        call = a.parents.get(id(parent))
        if (
            isinstance(call, cst.Call)
            and call.func is parent
            and len(call.args) == 1
            and string_value(call.args[0].value) == "result"
        ):
            return call
    return None


def find_send(
    a: ModuleAnalysis, req: cst.Dict
) -> tuple[cst.SimpleStatementLine, cst.CSTNode, cst.SimpleStatementLine | None] | str:
    """(the send statement, what it sends, the ``request = {...}`` line before it or None)."""
    not_sent = (
        "the request dict is not sent by a statement of its own right where it is built (`send({...})`, "
        "or `request = {...}` then `send(request)`): rewrite by hand"
    )
    stmt = enclosing_stmt(a, req)
    if stmt is None or not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return not_sent
    small = stmt.body[0]
    if isinstance(small, cst.Expr) and isinstance(small.value, (cst.Call, cst.Await)):
        return stmt, req, None
    bound = assigned_name(stmt)
    if bound is None or bound[1] is not req:
        return not_sent
    name = bound[0]
    body = block_of(a, stmt)
    if body is None or body.index(stmt) + 1 >= len(body):
        return not_sent
    nxt = body[body.index(stmt) + 1]
    uses = spelled(nxt, name)
    sending = single(nxt, cst.Expr)
    if (
        not isinstance(nxt, cst.SimpleStatementLine)
        or sending is None
        or not isinstance(sending.value, (cst.Call, cst.Await))
        or len(uses) != 1
    ):
        return not_sent
    scope = a.enclosing_function(stmt)
    total = len(spelled(scope.node if scope else a.module, name))
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
    if (
        isinstance(expr, cst.Call)
        and isinstance(expr.func, cst.Attribute)
        and expr.func.attr.value == "get"
        and isinstance(expr.func.value, cst.Name)
        and expr.args
        and string_value(expr.args[0].value) == "method"
    ):
        return expr.func.value.value
    if isinstance(expr, cst.Name):
        found = {
            src
            for n in walk(scope)
            if isinstance(n, cst.Assign)
            and len(n.targets) == 1
            and isinstance(n.targets[0].target, cst.Name)
            and n.targets[0].target.value == expr.value
            for src in [_method_source(a, n.value, scope)]
            if src
        }
        if len(found) == 1:
            return found.pop()
    return None


def find_branch(
    a: ModuleAnalysis, stmt: cst.CSTNode, tail_from_start: bool, skip: set[int]
) -> tuple[str, cst.IndentedBlock, list[str]] | str:
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
            return (
                'the request is not made in a `tools/call` branch (`if method == "tools/call":`) of the '
                "function that sends it"
            )
        if isinstance(parent, cst.IndentedBlock):
            body: list[cst.CSTNode] = list(parent.body)
            idx = body.index(node)
            after = [s for s in body[idx + 1 :] if id(s) not in skip]
            if after and (tail_from_start or not first):
                return (
                    f"`{short(after[0])}` follows the request in the `tools/call` branch "
                    "and would also run after the interim reply: rewrite by hand"
                )
            for s in body[:idx]:
                if id(s) not in skip and has_effect(s):
                    effects.append(f"`{short(s)}`")
            owner = a.parents.get(id(parent))
            if isinstance(owner, cst.If) and owner.body is parent:
                message = _dispatch_message(a, owner.test, scope)
                if message is not None:
                    return message, parent, effects
                if any(string_value(n) == TOOLS_CALL for n in walk(owner.test)):
                    return (
                        "cannot tell which variable holds the `tools/call` request (the dispatch reads its "
                        "method in a way the fix does not follow): rewrite by hand"
                    )
            if (
                isinstance(owner, cst.MatchCase)
                and isinstance(owner.pattern, cst.MatchValue)
                and string_value(owner.pattern.value) == TOOLS_CALL
            ):
                match = a.parents.get(id(owner))
                message = _method_source(a, match.subject, scope) if isinstance(match, cst.Match) else None
                if message is not None:
                    return message, parent, effects
                return "cannot tell which variable holds the `tools/call` request (`match` subject): rewrite by hand"
            if isinstance(owner, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
                return (
                    'the request is not made in a `tools/call` branch (`if method == "tools/call":`) of the '
                    "function that sends it"
                )
            first = False
        elif isinstance(parent, (cst.Lambda, cst.CompFor)):
            return "the request is made inside an expression: rewrite by hand"
        node = parent


def requests_in(a: ModuleAnalysis, node: cst.CSTNode, seen: set[int] | None = None) -> int:
    """Hand-built server requests (roots / sampling / elicitation) sent under ``node``, following
    calls to module-level functions."""
    seen = seen if seen is not None else set()
    count = 0
    for n in walk(node):
        if isinstance(n, cst.Dict) and request_method(n) is not None:
            count += 1
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Name):
            f = a.function_named(n.func.value)
            if f is not None and f.parent is None and f.class_name is None and id(f) not in seen:
                seen.add(id(f))
                count += requests_in(a, f.node, seen)
    return count


def request_method(d: cst.Dict) -> str | None:
    """The method of a hand-built server request dict (roots / sampling / elicitation), else None."""
    m = dict_get(d, "method")
    method = string_value(m.value) if m is not None else None
    if method in KEYS and (dict_get(d, "jsonrpc") is not None or dict_get(d, "id") is not None):
        return method
    return None


def find_read(expr: cst.CSTNode) -> cst.Call | None:
    """The one call in ``expr`` that reads the client's response (``read_message()``,
    ``json.loads(sys.stdin.readline())``): the outermost call whose code has a read hint."""
    calls = [n for n in walk(expr) if isinstance(n, cst.Call) and any(h in code_of(n) for h in _READ_HINTS)]
    if not calls:
        return None
    outer = calls[0]
    return outer if all(any(c is x for x in walk(outer)) for c in calls) else None


def is_attr_name(a: ModuleAnalysis, n: cst.Name) -> bool:
    """Whether ``n`` names an attribute or a keyword (not a variable)."""
    parent = a.parents.get(id(n))
    return (isinstance(parent, cst.Attribute) and parent.attr is n) or (
        isinstance(parent, cst.Arg) and parent.keyword is n
    )


def in_nested_def(top: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Whether ``node`` is inside a function or lambda defined in ``top``."""
    return any(isinstance(d, (cst.FunctionDef, cst.Lambda)) and any(x is node for x in walk(d)) for d in walk(top))

"""The hand-rolled interim fix's rewrite: the statements that replace a request's send, recorded
into an :class:`~mcpmigrate.codemods.edits.Edits` from the :class:`Site` ``planning`` decided.

The replaced statement becomes ``answer = <call>["params"].get("inputResponses", {}).get(key)``
and ``if answer is None: <send the interim result> else: <the rest, with the answer>``; the read,
the helper, the response branch and the pending-map bookkeeping the site lists go. The new
statements are built from the original ones (a moved statement keeps its layout and comments):
names are swapped in those detached copies with the one applier (``rewrite_subtree``).
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis, code_of
from mcpmigrate.codemods.edits import Edits, rewrite_subtree
from mcpmigrate.codemods.interim_jsonrpc.branch import result_use, spelled
from mcpmigrate.codemods.interim_jsonrpc.planning import Site
from mcpmigrate.names import dict_get, name_nodes, string_value


def record(edits: Edits, a: ModuleAnalysis, site: Site, answer: str) -> None:
    """Record the rewrite of one site; ``answer`` is the fresh name the answer is read into."""
    for node in site.remove:
        edits.remove(node)
    if site.promote is not None:
        edits.transform(site.promote, _promote)
    edits.remove(site.replaced)
    edits.insert_before(site.replaced, _new_statements(a, site, answer))


def drop_unused(edits: Edits, module: cst.Module, names: list[str]) -> None:
    """Drop the module-level ``name = …`` / ``name: T = …`` statements of ``names`` (the pending
    map, its id counter) that nothing reads once the rest of the rewrite is made."""
    if names:
        edits.transform(module, lambda _original, updated: _without_unused(updated, names))


def _promote(_original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode | cst.RemovalSentinel:
    """The response branch goes: its ``elif`` becomes the ``if``."""
    assert isinstance(updated, cst.If)
    nxt = updated.orelse
    if nxt is None:
        return cst.RemoveFromParent()
    assert isinstance(nxt, cst.If)
    return nxt.with_changes(leading_lines=updated.leading_lines)


def _without_unused(module: cst.CSTNode, names: list[str]) -> cst.Module:
    assert isinstance(module, cst.Module)
    counts: dict[str, int] = {}
    for n in name_nodes(module):
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


def _swapped(node: cst.CSTNode, pairs: list[tuple[cst.CSTNode, cst.CSTNode]]) -> cst.CSTNode:
    """A copy of the detached ``node`` with each ``old`` node of ``pairs`` replaced by its ``new``."""
    ed = Edits()
    for old, new in pairs:
        ed.replace(old, new)
    return _rewritten(node, ed)


def _indented(node: cst.CSTNode) -> cst.CSTNode:
    """``node`` one level deeper: the request now sits inside the interim result's ``inputRequests``."""
    ed = Edits()
    stack = [node]  # whitespace is trivia to `walk`: every child here
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        if isinstance(n, cst.ParenthesizedWhitespace):
            ed.transform(n, _deeper)
    return _rewritten(node, ed)


def _deeper(_original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
    """A line break in parentheses, its next line indented four more spaces."""
    assert isinstance(updated, cst.ParenthesizedWhitespace)
    return updated.with_changes(last_line=cst.SimpleWhitespace(updated.last_line.value + "    "))


def _rewritten(node: cst.CSTNode, ed: Edits) -> cst.CSTNode:
    """``rewrite_subtree`` for a detached copy whose root the edits replace at most, never remove."""
    out = rewrite_subtree(node, ed)
    assert isinstance(out, cst.CSTNode)
    return out


def _new_statements(a: ModuleAnalysis, site: Site, answer: str) -> list[cst.BaseStatement]:
    """``answer = …`` and ``if answer is None: <the interim reply> else: <the rest>``."""
    lookup = cst.parse_statement(f'{answer} = {site.message}["params"].get("inputResponses", {{}}).get("{site.key}")\n')
    # every statement has leading_lines, though libcst declares them on its two kinds, not BaseStatement
    lookup = lookup.with_changes(leading_lines=site.lead.leading_lines)  # type: ignore[attr-defined]
    inner = site.request.with_changes(
        elements=[
            el
            for el in site.request.elements
            if not isinstance(el, cst.DictElement) or string_value(el.key) not in ("jsonrpc", "id")
        ]
    )
    jsonrpc = dict_get(site.request, "jsonrpc")
    framing = f'"jsonrpc": {code_of(jsonrpc.value)}, ' if jsonrpc is not None else ""
    response: cst.CSTNode = cst.parse_expression(
        f'{{{framing}"id": {site.message}["id"], "result": {{\n'
        f'    "resultType": "input_required",\n'
        f'    "inputRequests": {{"{site.key}": __request__}},\n'
        f"}}}}"
    )
    request = _indented(inner)
    response = _swapped(response, [(n, request) for n in spelled(response, "__request__")])
    reply = _swapped(site.send, [(site.sent, response)]).with_changes(leading_lines=[])
    later: list[cst.BaseStatement] = []
    if site.bind is not None:
        later.append(cst.parse_statement(f"{site.bind[0]} = {code_of(site.bind[1])}\n"))
    uses = [n for s in site.rest for n in spelled(s, site.result_var)]
    results = [result_use(a, n) for n in uses]
    if site.shape == "pending" or all(r is not None for r in results):
        swap: list[tuple[cst.CSTNode, cst.CSTNode]] = [(r, cst.Name(answer)) for r in results if r is not None]
        rest = [_swapped(s, swap) for s in site.rest]
    else:
        later.append(cst.parse_statement(f'{site.result_var} = {{"result": {answer}}}\n'))
        rest = list(site.rest)
    if site.call_line is not None:  # helper: `x = <what it returned, the answer for the response>`
        assert site.answer_expr is not None and site.read_call is not None
        r = result_use(a, site.read_call)
        swap = (
            [(r, cst.Name(answer))]
            if r is not None
            else [(site.read_call, cst.parse_expression(f'{{"result": {answer}}}'))]
        )
        small = site.call_line.body[0]
        later.append(
            site.call_line.with_changes(
                body=[small.with_changes(value=_swapped(site.answer_expr, swap))], leading_lines=[]
            )
        )
    if rest:
        kept = [line for line in rest[0].leading_lines if line.comment is not None]  # type: ignore[attr-defined]  # as above
        rest[0] = rest[0].with_changes(leading_lines=kept)
    refusal = _swapped(site.send, [(site.sent, _capability_error(site, framing))]).with_changes(leading_lines=[])
    declared = f'{site.message}["params"].get("_meta", {{}}).get("{CLIENT_CAPABILITIES}", {{}})'
    branch = cst.parse_statement(
        f'if {answer} is None and "{site.key}" not in {declared}:\n    pass\n'
        f"elif {answer} is None:\n    pass\nelse:\n    pass\n"
    )
    assert isinstance(branch, cst.If) and isinstance(branch.orelse, cst.If)
    asking = branch.orelse
    assert isinstance(asking.orelse, cst.Else)
    leave = [site.exit] if site.exit is not None else []
    asking = asking.with_changes(
        body=asking.body.with_changes(body=[reply, *leave]),
        orelse=asking.orelse.with_changes(
            body=asking.orelse.body.with_changes(body=later + rest or [cst.parse_statement("pass\n")])
        ),
    )
    branch = branch.with_changes(body=branch.body.with_changes(body=[refusal, *leave]), orelse=asking)
    return [lookup, branch]


#: Where a 2026-07-28 request carries the client's capabilities (spec 2026-07-28, basic/lifecycle;
#: ``mcp_types.CLIENT_CAPABILITIES_META_KEY``).
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
#: What the error data names as required, per ``inputRequests`` key.
_REQUIRED = {"roots": "{}", "sampling": "{}", "elicitation": '{"form": {}}'}


def _capability_error(site: Site, framing: str) -> cst.BaseExpression:
    """The error reply to a call whose ``_meta`` does not declare the capability the input request
    needs: what mcp 2.x's resolvers answer (``MISSING_REQUIRED_CLIENT_CAPABILITY``, -32021, with
    ``requiredCapabilities``; mcp/server/mcpserver/resolve.py). Spec 2026-07-28, basic/patterns:
    "Servers MUST NOT send an inputRequests that the client has not declared support for"."""
    name = "form elicitation" if site.key == "elicitation" else site.key
    return cst.parse_expression(
        f'{{{framing}"id": {site.message}["id"], "error": {{\n'
        '    "code": -32021,\n'
        f'    "message": "Client did not declare the {name} capability required by input request {site.key!r}",\n'
        f'    "data": {{"requiredCapabilities": {{"{site.key}": {_REQUIRED[site.key]}}}}},\n'
        "}}"
    )

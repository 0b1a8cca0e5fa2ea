"""A wrapper around a 1.x FastMCP's ``tools/call`` handler, ported to mcp 2.x (MCP509).

telegram-mcp annotates every tool result by wrapping the low-level handler FastMCP registered::

    def _install_annotation_hook() -> None:
        from mcp.types import CallToolRequest, ServerResult, CallToolResult

        original_handler = mcp._mcp_server.request_handlers[CallToolRequest]

        async def annotated_handler(req):
            response = await original_handler(req)
            if isinstance(response, ServerResult) and isinstance(response.root, CallToolResult):
                response.root.content = [...]
            return response

        mcp._mcp_server.request_handlers[CallToolRequest] = annotated_handler

mcp 2.3 (``mcp/server/lowlevel/server.py``): the FastMCP's low-level server is ``MCPServer._lowlevel_server``,
its handlers are ``HandlerEntry(params_type, handler)`` keyed by method (``get_request_handler("tools/call")``,
registered by ``MCPServer.__init__`` as ``on_call_tool``), a handler is called as ``(ctx, params)`` — a
``ServerRequestContext`` and the validated ``CallToolRequestParams``, looked up per request by
``ServerRunner`` (``mcp/server/runner.py``), so a replacement registered after the constructor is the one
called — and returns the result itself (``CallToolResult``, or ``InputRequiredResult`` on a 2026-07-28
round: ``ServerResult`` is a plain union, there is no ``.root``); ``add_request_handler("tools/call",
CallToolRequestParams, handler)`` replaces the entry. So the wrapper above becomes::

        original_handler = mcp._lowlevel_server.get_request_handler("tools/call").handler

        async def annotated_handler(ctx, params):
            response = await original_handler(ctx, params)
            if isinstance(response, CallToolResult):
                response.content = [...]
            return response

        mcp._lowlevel_server.add_request_handler("tools/call", CallToolRequestParams, annotated_handler)

Only that exact shape is ported (one function holds the read, the wrapper and the write back, each
once; the wrapper passes its one parameter on to the handler and nothing else; the handler's answer is
read only through ``.root``, the ``isinstance(r, ServerResult) and isinstance(r.root, X)`` test, and
returned); anything else keeps MCP509's manual reason.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixInfo, FixPlan, Safety

KEY = "CallToolRequest"
METHOD = "tools/call"
PARAMS = "CallToolRequestParams"

FIX = FixInfo(
    Safety.SAFE,
    "port",
    "port the wrapper of the `tools/call` handler to mcp 2.x's low-level server: read it with "
    '`get_request_handler("tools/call").handler`, call it with `(ctx, params)`, read its result without `.root`, '
    'register the wrapper with `add_request_handler("tools/call", CallToolRequestParams, …)` (the same handler '
    "wrapped the same way)",
)


@dataclass
class WrapperPort:
    read: cst.Subscript  # server._mcp_server.request_handlers[CallToolRequest] (the handler read)
    server: str  # the server expression as written (`mcp`)
    wrapper: cst.FunctionDef
    call: cst.Call  # original(req)
    pair: cst.BooleanOperation  # isinstance(r, ServerResult) and isinstance(r.root, X)
    roots: list[cst.Attribute]  # every r.root
    write: cst.SimpleStatementLine  # server._mcp_server.request_handlers[CallToolRequest] = wrapper
    names: tuple[str, str]  # the wrapper's two new parameters
    local_import: cst.ImportFrom | None = (
        None  # `from mcp.types import CallToolRequest, ServerResult, …` in the function
    )

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        low = f"{self.server}._lowlevel_server"
        edits.replace(self.read, cst.parse_expression(f'{low}.get_request_handler("{METHOD}").handler'))
        ctx, params = self.names
        two = [cst.Name(ctx), cst.Name(params)]
        edits.replace(self.wrapper.params, self.wrapper.params.with_changes(params=[cst.Param(n) for n in two]))
        edits.transform(self.call, lambda o, u: u.with_changes(args=[cst.Arg(n) for n in two]))
        edits.transform(self.pair, lambda o, u: u.right)  # type: ignore[attr-defined]
        for attr in self.roots:
            edits.replace(attr, attr.value)
        if self.local_import is not None:  # the function's own import of the names the port replaces
            local = PARAMS
            edits.transform(self.local_import, _swap_import)
        else:
            local = edits.import_name(analysis, "mcp.types", PARAMS)  # the names it replaces go if unused
        new = cst.parse_statement(f'{low}.add_request_handler("{METHOD}", {local}, {self.wrapper.name.value})\n')
        write = self.write
        edits.transform(write, lambda o, u: new.with_changes(leading_lines=write.leading_lines))


def _swap_import(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
    """``from mcp.types import CallToolRequest, ServerResult, CallToolResult`` → ``from mcp.types
    import CallToolRequestParams, CallToolResult``."""
    assert isinstance(upd, cst.ImportFrom) and not isinstance(upd.names, cst.ImportStar)
    names = []
    for alias in upd.names:
        name = get_full_name_for_node(alias.name)
        if name == "ServerResult":
            continue
        names.append(alias.with_changes(name=cst.Name(PARAMS)) if name == KEY else alias)
    names[-1] = names[-1].with_changes(comma=upd.names[-1].comma)
    return upd.with_changes(names=names)


def _local_import(fn: cst.FunctionDef, body: list[cst.BaseStatement]) -> cst.ImportFrom | None:
    """The function's own ``from mcp.types import CallToolRequest, ServerResult, …`` when only the
    wrapper's read, test and write use those names there (the port swaps them for
    ``CallToolRequestParams``); None otherwise (the params type is imported at module level)."""
    for s in body:
        imp = s.body[0] if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 else None
        if not (
            isinstance(imp, cst.ImportFrom)
            and not imp.relative
            and get_full_name_for_node(imp.module) == "mcp.types"  # type: ignore[arg-type]
            and not isinstance(imp.names, cst.ImportStar)
        ):
            continue
        names = {get_full_name_for_node(a.name): a for a in imp.names}
        if KEY not in names or any(a.asname is not None for a in imp.names) or _names(fn, PARAMS):
            return None
        uses = {KEY: 3, "ServerResult": 2}  # the import and the read and write / the import and the test
        if all(len(_names(fn, n)) == uses[n] for n in uses if n in names):
            return imp
    return None


def plan(analysis: ModuleAnalysis, private: cst.Attribute) -> FixPlan | None:
    """The port of the wrapper around the ``tools/call`` handler that ``private`` (a 1.x FastMCP's
    ``server._mcp_server``) reads or writes, shared by both findings; None when it is not that
    shape (the finding keeps its manual reason)."""
    fn = analysis.enclosing_function(private)
    if fn is None or not isinstance(fn.node, cst.FunctionDef):
        return None
    node = fn.node
    return analysis.memo(f"port.handler_wrapper.{id(node)}", lambda: _plan(analysis, node))


def _names(node: cst.CSTNode, name: str) -> list[cst.Name]:
    return [n for n in walk(node) if isinstance(n, cst.Name) and n.value == name]


def _table_item(analysis: ModuleAnalysis, node: cst.CSTNode) -> tuple[str, cst.BaseExpression] | None:
    """``server._mcp_server.request_handlers[Key]`` → (``server``, ``Key``)."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)):
        return None
    table = node.value
    if not (
        isinstance(table, cst.Attribute)
        and table.attr.value == "request_handlers"
        and isinstance(table.value, cst.Attribute)
        and table.value.attr.value == "_mcp_server"
        and isinstance(table.value.value, cst.Name)
    ):
        return None
    key = node.slice[0].slice.value
    if (analysis.qualname(key) or "") != f"mcp.types.{KEY}":
        return None
    return table.value.value.value, key


def _plan(analysis: ModuleAnalysis, fn: cst.FunctionDef) -> FixPlan | None:
    if not isinstance(fn.body, cst.IndentedBlock):
        return None
    body = list(fn.body.body)
    assigns = [
        (s, s.body[0])
        for s in body
        if isinstance(s, cst.SimpleStatementLine)
        and len(s.body) == 1
        and isinstance(s.body[0], cst.Assign)
        and len(s.body[0].targets) == 1
    ]
    reads = [s for s, a in assigns if isinstance(a.targets[0].target, cst.Name) and _table_item(analysis, a.value)]
    writes = [s for s, a in assigns if isinstance(a.value, cst.Name) and _table_item(analysis, a.targets[0].target)]
    if len(reads) != 1 or len(writes) != 1 or sum(1 for n in walk(fn) if _private(n)) != 2:
        return None
    read_assign, write_assign = reads[0].body[0], writes[0].body[0]
    assert isinstance(read_assign, cst.Assign) and isinstance(write_assign, cst.Assign)
    server, _key = _table_item(analysis, read_assign.value)  # type: ignore[misc]
    if _table_item(analysis, write_assign.targets[0].target)[0] != server:  # type: ignore[index]
        return None
    original = read_assign.targets[0].target.value  # type: ignore[attr-defined]
    wrapper_name = write_assign.value.value  # type: ignore[attr-defined]
    wrappers = [s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == wrapper_name]
    if len(wrappers) != 1 or not body.index(reads[0]) < body.index(wrappers[0]) < body.index(writes[0]):
        return None
    wrapper = wrappers[0]
    shape = _wrapper_shape(analysis, fn, wrapper, original)
    if shape is None or len(_names(fn, wrapper_name)) != 2:
        return None
    call, pair, roots, names = shape
    site = WrapperPort(
        read_assign.value,  # type: ignore[arg-type]
        server,
        wrapper,
        call,
        pair,
        roots,
        writes[0],
        names,
        _local_import(fn, body),
    )
    return FixPlan(fix=FIX, site=site)


def _private(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.Attribute) and node.attr.value == "_mcp_server"


def _wrapper_shape(
    analysis: ModuleAnalysis, fn: cst.FunctionDef, wrapper: cst.FunctionDef, original: str
) -> tuple[cst.Call, cst.BooleanOperation, list[cst.Attribute], tuple[str, str]] | None:
    """The wrapper's call of the handler, the ``ServerResult`` test and the ``.root`` reads, and
    the names of its new parameters; None when it is not the ported shape."""
    p = wrapper.params
    if wrapper.asynchronous is None or wrapper.decorators or len(p.params) != 1 or p.posonly_params:
        return None
    if p.kwonly_params or p.star_arg is not cst.MaybeSentinel.DEFAULT or p.star_kwarg or p.params[0].default:
        return None
    req = p.params[0].name.value
    refs = _names(fn, original)
    if len(refs) != 2:  # the read's target and the wrapper's call
        return None
    call = analysis.parents.get(id(refs[1]))
    awaited = analysis.parents.get(id(call))
    assign = analysis.parents.get(id(awaited))
    stmt = analysis.parents.get(id(assign))
    if not (
        isinstance(call, cst.Call)
        and call.func is refs[1]
        and len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
        and isinstance(call.args[0].value, cst.Name)
        and call.args[0].value.value == req
        and len(_names(wrapper.body, req)) == 1
        and isinstance(awaited, cst.Await)
        and isinstance(assign, cst.Assign)
        and len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
        and isinstance(stmt, cst.SimpleStatementLine)
        and analysis.parents.get(id(stmt)) is wrapper.body
    ):
        return None
    response = assign.targets[0].target.value
    found = _result_uses(analysis, wrapper, response, assign.targets[0].target)
    if found is None:
        return None
    pair, roots = found
    taken = {n.value for n in walk(fn) if isinstance(n, cst.Name)}
    if "ctx" in taken or "params" in taken:
        return None
    return call, pair, roots, ("ctx", "params")


def _result_uses(
    analysis: ModuleAnalysis, wrapper: cst.FunctionDef, response: str, target: cst.Name
) -> tuple[cst.BooleanOperation, list[cst.Attribute]] | None:
    """The ``isinstance(r, ServerResult) and isinstance(r.root, X)`` test and the ``r.root`` reads
    of the handler's answer ``r``, when those and ``return r`` are its only uses."""
    pair: cst.BooleanOperation | None = None
    roots: list[cst.Attribute] = []
    for name in _names(wrapper.body, response):
        if name is target:
            continue
        parent = analysis.parents.get(id(name))
        if isinstance(parent, cst.Attribute) and parent.value is name and parent.attr.value == "root":
            use = analysis.parents.get(id(parent))  # `r.root.content`, or `r.root` in the union test
            if not (isinstance(use, cst.Attribute) and use.value is parent) and not isinstance(use, cst.Arg):
                return None
            roots.append(parent)
        elif isinstance(parent, cst.Return):
            continue
        elif isinstance(parent, cst.Arg) and _server_result_test(analysis, parent, response):
            if pair is not None:
                return None
            pair = analysis.parents.get(id(analysis.parents.get(id(parent))))  # type: ignore[assignment]
        else:
            return None
    server_results = [n for n in walk(wrapper.body) if isinstance(n, cst.Name) and n.value == "ServerResult"]
    if pair is None or len(server_results) != 1:
        return None
    tested = [r for r in roots if isinstance(analysis.parents.get(id(r)), cst.Arg)]
    if any(analysis.parents.get(id(analysis.parents.get(id(r)))) is not pair.right for r in tested):
        return None  # `r.root` handed to anything but the union test's `isinstance`
    return pair, roots


def _server_result_test(analysis: ModuleAnalysis, arg: cst.Arg, response: str) -> bool:
    """``arg`` is ``r`` in ``isinstance(r, ServerResult)``, the left side of ``… and
    isinstance(r.root, X)``."""
    call = analysis.parents.get(id(arg))
    pair = analysis.parents.get(id(call))
    if not (
        isinstance(call, cst.Call)
        and get_full_name_for_node(call.func) == "isinstance"
        and len(call.args) == 2
        and call.args[0] is arg
        and (analysis.qualname(call.args[1].value) or "") == "mcp.types.ServerResult"
        and isinstance(pair, cst.BooleanOperation)
        and isinstance(pair.operator, cst.And)
        and pair.left is call
        and isinstance(pair.right, cst.Call)
        and get_full_name_for_node(pair.right.func) == "isinstance"
        and len(pair.right.args) == 2
    ):
        return False
    first = pair.right.args[0].value
    return (
        isinstance(first, cst.Attribute)
        and first.attr.value == "root"
        and isinstance(first.value, cst.Name)
        and first.value.value == response
    )

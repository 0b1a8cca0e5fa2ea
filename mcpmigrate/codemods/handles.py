"""The ``handle`` fix of MCP601: state keyed on the client's session moves under a handle the
server mints (``docs/architecture.md``, "How a finding becomes a fix").

Spec: SEP-2567 (2026-07-28 changelog, major change 1) removes sessions; the replacement it names
is a tool-design pattern — "returning an explicit handle from a creation tool and accepting that
handle as an argument on subsequent calls" (``specification/2026-07-28/server/tools``, Stateful
Tools), with an unknown or expired handle answered by "a tool execution error that says so", the
handle minted "with sufficient entropy" and its lifetime stated in the creation tool's
description.

Mechanical where the key is read in the tools themselves: every keyed site of the module is in a
module-level tool registered with a decorator on one FastMCP (mcp 1.x) / MCPServer (mcp 2.x) /
fastmcp server, and the key is an expression that only names the session (``id(ctx.session)``,
``ctx.session_id``, ``headers["mcp-session-id"]`` / ``headers.get("mcp-session-id")``). Then:

- a module-level registry of the minted handles and a new tool (``open_handle``) that mints one
  (``secrets.token_urlsafe(16)``), registers it and returns it, its docstring naming the tools
  that take it and its lifetime (the process);
- each of those tools takes a documented ``handle`` parameter (first), answers a handle it did not
  mint with the framework's ``ToolError`` (a tool result with ``isError``), and the session key
  expression becomes the handle.

The store itself is untouched: what was kept per session is kept per handle. Always unsafe: the
tools' interface changes (a required argument a client gets from the new tool). A keyed site in a
helper, a session object used as the key (a ``WeakKeyDictionary`` cannot hold a str), fastmcp's
``set_state`` or a header test keeps the whole module manual: half the state keyed on a handle
and half on the session would be worse than either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.param.parameter import insert_element, str_lit
from mcpmigrate.model import FixInfo, FixPlan, Safety

STRATEGY = "handle"
RULES = ("MCP601",)

# the ToolError each framework turns into a tool result with isError and the message (mcp 2.3's
# MCPServer hides the message of any other exception: "Error executing tool <name>")
TOOL_ERRORS = (
    ("mcp.server.fastmcp", "mcp.server.fastmcp.exceptions"),
    ("mcp.server.mcpserver", "mcp.server.mcpserver.exceptions"),
    ("fastmcp", "fastmcp.exceptions"),
)
_MINT_NAMES = ("open_handle", "open_state_handle", "new_state_handle")
_PARAM_NAMES = ("handle", "state_handle", "mcp_state_handle")
_REGISTRY_NAMES = ("_handles", "_minted_handles", "_mcp_state_handles")


@dataclass(eq=False)
class Keyed:
    """What the MCP601 detector found at one keyed site (the input of :func:`plan`): ``node`` the
    reported node, ``fn`` the function it is in, ``keys`` the expressions that only name the
    session and become the handle (empty: the site is not of that shape, e.g. a session object
    used as a key), ``manual`` the migration to do by hand when there is no fix."""

    node: cst.CSTNode
    fn: FunctionInfo | None
    keys: list[cst.BaseExpression] = field(default_factory=list)
    manual: str = ""


@dataclass(eq=False)
class HandleMigration:
    """One module's migration, shared by all its MCP601 sites (recorded once)."""

    tools: tuple[FunctionInfo, ...]
    keys: tuple[cst.BaseExpression, ...]
    decorator: cst.Decorator
    error_module: str
    mint: str
    param: str
    registry: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        token = edits.import_name(analysis, "secrets", "token_urlsafe")
        annotated = edits.import_name(analysis, "typing", "Annotated")
        field_ = edits.import_name(analysis, "pydantic", "Field")
        error = edits.import_name(analysis, self.error_module, "ToolError")
        names = ", ".join(f"`{_mcp_name(t)}`" for t in self.tools)
        first = self.tools[0].node  # the sites come in source order
        registry = cst.parse_statement(f"{self.registry}: set[str] = set()\n")
        doc = (
            f"Start new state and return its handle: pass it as `{self.param}` to {names}. "
            "Handles last until the server restarts."
        )
        mint = cst.parse_statement(
            f"def {self.mint}() -> str:\n"
            f'    """{doc}"""\n'
            f"    handle = {token}(16)\n"
            f"    {self.registry}.add(handle)\n"
            f"    return handle\n"
        )
        assert isinstance(mint, cst.FunctionDef)
        blank = [cst.EmptyLine(), cst.EmptyLine()]
        edits.insert_before(
            first,
            [
                registry.with_changes(leading_lines=[*first.leading_lines]),
                mint.with_changes(decorators=[self.decorator], leading_lines=blank),
            ],
        )
        edits.transform(first, partial(_blank_lines, blank))
        description = f"Handle returned by `{self.mint}`: the state this call works on."
        param = cst.Param(
            cst.Name(self.param),
            cst.Annotation(cst.parse_expression(f"{annotated}[str, {field_}(description={str_lit(description)})]")),
        )
        check = cst.parse_statement(
            f"if {self.param} not in {self.registry}:\n"
            f'    raise {error}(f"Unknown or expired handle {{{self.param}!r}}: call `{self.mint}` for a new one.")\n'
        )
        for tool in self.tools:
            edits.transform(tool.node, partial(_take_handle, param, check))
        for key in self.keys:
            edits.replace(key, cst.Name(self.param))


def _blank_lines(lines: list[cst.EmptyLine], _original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
    """The first tool keeps two blank lines before it once the new tool stands above it."""
    assert isinstance(updated, cst.FunctionDef)
    return updated.with_changes(leading_lines=lines)


def _take_handle(
    param: cst.Param, check: cst.BaseStatement, _original: cst.CSTNode, updated: cst.CSTNode
) -> cst.CSTNode:
    """``handle`` first among the tool's parameters, and the check first in its body (after a
    docstring)."""
    assert isinstance(updated, cst.FunctionDef) and isinstance(updated.body, cst.IndentedBlock)
    params = updated.params
    ws = updated.whitespace_before_params
    new_params = params.with_changes(params=insert_element(list(params.params), 0, param, ws))
    body = list(updated.body.body)
    at = 1 if body and _is_docstring(body[0]) else 0
    body.insert(at, check)
    return updated.with_changes(params=new_params, body=updated.body.with_changes(body=body))


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _tool_decorator(a: ModuleAnalysis, fn: FunctionInfo) -> cst.Decorator | None:
    """The decorator that registers ``fn`` as a tool on a high-level server (``@mcp.tool()``,
    ``@mcp.tool``, ``@mcp.tool(name=…)``), with its arguments dropped: the new tool's."""
    for d in fn.node.decorators:
        target = d.decorator
        call = target if isinstance(target, cst.Call) else None
        func = call.func if call is not None else target
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "tool"
            and isinstance(func.value, cst.Name)
            and a.kind_of(func.value, None) is Kind.SERVER_HL
        ):
            bare = call.with_changes(args=()) if call is not None else target
            return cst.Decorator(decorator=bare)
    return None


def _mcp_name(fn: FunctionInfo) -> str:
    """The name clients call the tool by: a literal ``name=`` (or first positional string) of its
    ``@server.tool(...)`` decorator, else the function's name."""
    for d in fn.node.decorators:
        call = d.decorator
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "tool":
            for i, arg in enumerate(call.args):
                named = arg.keyword is not None and arg.keyword.value == "name"
                if (named or (i == 0 and arg.keyword is None)) and isinstance(arg.value, cst.SimpleString):
                    value = arg.value.evaluated_value
                    if isinstance(value, str):
                        return value
    return fn.registered_name or fn.name


def _server_of(d: cst.Decorator) -> str:
    target = d.decorator
    func = target.func if isinstance(target, cst.Call) else target
    assert isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
    return func.value.value


def _error_module(a: ModuleAnalysis, server: str) -> str | None:
    """The module of the ToolError of the framework ``server`` is built with."""
    for name, value in a.module_assigns:
        if name != server:
            continue
        cls = a.qualname(value.func) if isinstance(value, cst.Call) else None
        for prefix, module in TOOL_ERRORS:
            if cls is not None and (cls == prefix or cls.startswith(prefix + ".")):
                return module
    return None


def _free(candidates: tuple[str, ...], taken: set[str]) -> str | None:
    return next((n for n in candidates if n not in taken), None)


def _why_manual(a: ModuleAnalysis, found: list[Keyed]) -> str | None:
    """Why the module's keyed state cannot be moved under a minted handle mechanically."""
    for k in found:
        fn = k.fn
        if not k.keys:
            return "the session itself (not an id of it) is the key, or the site is not a read of the key"
        if fn is None or fn.role != "tool" or fn.parent is not None or fn.class_name is not None:
            return "the state is keyed outside the tools themselves (a helper or the module)"
        if not isinstance(fn.node.body, cst.IndentedBlock) or fn.node.params.posonly_params:
            return "the tool's signature or body is of a shape the fix does not rewrite"
        if _tool_decorator(a, fn) is None:
            return "the tool is not registered with a server's `@tool` decorator"
    return None


def plan(a: ModuleAnalysis, found: list[Keyed]) -> list[FixPlan]:
    """One plan per keyed site of the module: all share one :class:`HandleMigration`, or all keep
    their manual migration (``Keyed.manual``)."""
    manual = [FixPlan(manual=k.manual) for k in found]
    if not found or _why_manual(a, found) is not None:
        return manual
    tools: list[FunctionInfo] = []
    for k in found:
        assert k.fn is not None
        if k.fn not in tools:
            tools.append(k.fn)
    decorators = [_tool_decorator(a, t) for t in tools]
    servers = {_server_of(d) for d in decorators if d is not None}
    if len(servers) != 1:
        return manual
    server = servers.pop()
    error_module = _error_module(a, server)
    if error_module is None:
        return manual
    module_names = {n for n, _v in a.module_assigns} | set(a.imports) | {f.name for f in a.functions}
    tool_names = {_mcp_name(f) for f in a.functions if f.role == "tool"}
    local_names = {n for t in tools for n in (*t.param_names(), *(n for n, _v in t.assigns))}
    mint = _free(_MINT_NAMES, module_names | tool_names)
    param = _free(_PARAM_NAMES, local_names | module_names)
    registry = _free(_REGISTRY_NAMES, module_names | local_names)
    if mint is None or param is None or registry is None:
        return manual
    keys = tuple(key for k in found for key in k.keys)
    first_decorator = decorators[0]
    assert first_decorator is not None
    site = HandleMigration(tuple(tools), keys, first_decorator, error_module, mint, param, registry)
    names = ", ".join(f"`{_mcp_name(t)}`" for t in tools)
    description = (
        f"key the state on a handle the new tool `{mint}` mints and {names} take as a required `{param}` "
        f"argument (review: the tools' interface changes — every client, prompt and agent that calls them "
        f"must call `{mint}` first and pass its handle; state lives per handle in this process until it "
        f"restarts, not per connection; a type annotation of the store's key now holds a str)"
    )
    return [FixPlan(fix=FixInfo(Safety.UNSAFE, STRATEGY, description), site=site) for _k in found]

"""A tool's error text on mcp 2.x as on mcp 1.x (MCP510).

mcp 1.27's ``Tool.run`` (``mcp/server/fastmcp/tools/base.py``) raises
``ToolError(f"Error executing tool {name}: {e}")`` for any exception of the tool; mcp 2.3's
(``mcp/server/mcpserver/tools/base.py``) does so only for ``ToolError``/``ResourceError`` and
raises ``UnexpectedToolError(f"Error executing tool {name}")`` — no message — for the rest, and
re-raises ``MCPError`` as a JSON-RPC error where 1.27 sent it as the tool error result. The fix
wraps the tool's body::

    try:
        <body>
    except (ToolError, UrlElicitationRequiredError):
        raise
    except Exception as exc:
        raise ToolError(str(exc)) from exc

so mcp 2.3 sends ``Error executing tool <name>: <str(exc)>``, the text 1.27 sent, also for an
``MCPError`` (``str`` is its message on both SDKs). A ``ToolError`` goes on untouched, and so does
``UrlElicitationRequiredError``, the one protocol error 1.27's ``Tool.run`` re-raised; the original
exception stays the ``__cause__``. The docstring stays the body's first
statement (it is the tool's description).

A tool whose own decorator (below the registration) is where its exceptions leave it — an
error-handling decorator that re-raises a project exception (``ToolFailure(f"Failed: {exc}")``),
of this module or imported from another — is not wrapped in its body (the decorator would catch the
``ToolError`` and raise its own again): a decorator is added below the registration, defined once
in the module before the first such tool, doing the same ``try`` around the decorated function
(``functools.wraps`` keeps the signature the SDK reads; an ``async`` function gets an ``async``
wrapper).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.port.renames import module_bindings
from mcpmigrate.model import FixInfo, FixPlan, Safety, Severity
from mcpmigrate.names import is_docstring
from mcpmigrate.surfaces import DECORATOR_METHODS

TOOL_ERROR = ("mcp.server.mcpserver.exceptions", "ToolError")
URL_ERROR = ("mcp.shared.exceptions", "UrlElicitationRequiredError")
RESOURCE_ERROR = ("mcp.server.mcpserver.exceptions", "ResourceError")
# 1.x spellings the port's renames (MCP501) turn into the 2.x import of the same name.
_PORTED = {
    "ToolError": {"mcp.server.fastmcp.exceptions.ToolError", "mcp.server.mcpserver.exceptions.ToolError"},
    "UrlElicitationRequiredError": {"mcp.shared.exceptions.UrlElicitationRequiredError"},
    "ResourceError": {"mcp.server.fastmcp.exceptions.ResourceError", "mcp.server.mcpserver.exceptions.ResourceError"},
}

# What mcp 1.27's FastMCP sent for an exception of a resource function (any, `ResourceError` too), by
# kind: ``FunctionResource.read`` (``resources/types.py``) raised ``ValueError(f"Error reading resource
# {uri}: {e}")``; a template's ``create_resource`` (``resources/templates.py``) and the resource
# manager's ``get_resource`` each put ``Error creating resource from template: `` before it. mcp 2.3
# sends ``ResourceError``'s text as it is and only ``Error reading resource <uri>`` / ``Error
# creating resource from template <uri>`` for the rest (``MCPServer.read_resource``).
RESOURCE_PREFIX = "Error reading resource {uri}: "
TEMPLATE_PREFIX = "Error creating resource from template: Error creating resource from template: "
RESOURCE_FIX = FixInfo(
    Safety.SAFE,
    "port",
    "wrap the resource function's body so any exception is raised as `ResourceError` with the text mcp 1.x sent "
    "(`Error reading resource <uri>: <message>`; a template's `Error creating resource from template: …`); the "
    "error code is mcp 2.x's -32603 either way (1.x sent 0)",
)

FIX = FixInfo(
    Safety.SAFE,
    "port",
    "wrap the tool's body so any other exception (`MCPError` too) is raised as `ToolError(str(exc))`: mcp 2.x "
    "then sends the client the tool error result `Error executing tool <name>: <message>`, the text mcp 1.x sent",
)


FIX_DECORATED = FixInfo(
    Safety.SAFE,
    "port",
    "add a decorator below the registration that raises any other exception of the decorated tool (`MCPError` too) "
    "as `ToolError(str(exc))`: mcp 2.x then sends the client the tool error result `Error executing tool <name>: "
    "<message>`, the text mcp 1.x sent",
)


def _top_statement(analysis: ModuleAnalysis, node: cst.CSTNode) -> cst.CSTNode | None:
    """The module-level statement holding ``node``."""
    while node is not None:
        parent = analysis.parents.get(id(node))
        if isinstance(parent, cst.Module):
            return node
        node = parent  # type: ignore[assignment]
    return None


@dataclass
class ToolErrorWrap:
    """One tool whose body is wrapped."""

    fn: cst.FunctionDef
    exc: str = "exc"
    # a resource's: the text mcp 1.x put before the exception's message (:data:`RESOURCE_PREFIX`)
    prefix: str | None = None

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        exc = self.exc
        if self.prefix is not None:
            resource_error = _spell(edits, analysis, *RESOURCE_ERROR)
            text = self.prefix.replace("\\", "\\\\").replace('"', '\\"').replace("{", "{{").replace("}", "}}")
            catch = f'except Exception as {exc}:\n    raise {resource_error}(f"{text}{{{exc}}}") from {exc}\n'
        else:
            tool_error = _spell(edits, analysis, *TOOL_ERROR)
            url_error = _spell(edits, analysis, *URL_ERROR)
            catch = (
                f"except ({tool_error}, {url_error}):\n    raise\n"
                f"except Exception as {exc}:\n    raise {tool_error}(str({exc})) from {exc}\n"
            )

        def wrap(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(upd, cst.FunctionDef) and isinstance(upd.body, cst.IndentedBlock)
            body = list(upd.body.body)
            head = body[:1] if is_docstring(body[0]) else []
            rest = body[len(head) :]
            handlers = cst.parse_statement(f"try:\n    pass\n{catch}")
            assert isinstance(handlers, cst.Try)
            first = rest[0]
            lead = (
                first.leading_lines if isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) else ()
            )
            rest[0] = first.with_changes(leading_lines=())
            wrapped = handlers.with_changes(body=cst.IndentedBlock(body=rest), leading_lines=lead)
            return upd.with_changes(body=upd.body.with_changes(body=[*head, wrapped]))

        edits.transform(self.fn, wrap)


def _spell(edits: Edits, analysis: ModuleAnalysis, module: str, name: str) -> str:
    """The local name of ``name``: the module's own import of it (under its 1.x module, which the
    port renames), else ``edits.import_name`` (imported, under a free alias if ``name`` is taken)."""
    if analysis.qualname(cst.Name(name)) in _PORTED[name] and module_bindings(analysis).get(name) == 1:
        return name
    return edits.import_name(analysis, module, name)


def registers(analysis: ModuleAnalysis, expr: cst.BaseExpression) -> bool:
    """``expr`` (a decorator) registers the function: ``@mcp.tool()``, ``@mcp.resource(...)``, or
    a module-level alias of one (``tool = mcp.tool``; ``register = mcp.tool()``)."""
    target = expr.func if isinstance(expr, cst.Call) else expr
    if isinstance(target, cst.Name):
        bound = [v for name, v in analysis.module_assigns if name == target.value]
        if bound:
            target = bound[-1].func if isinstance(bound[-1], cst.Call) else bound[-1]
    return isinstance(target, cst.Attribute) and target.attr.value in DECORATOR_METHODS


def below_registration(analysis: ModuleAnalysis, fn: cst.FunctionDef) -> int | None:
    """The index in ``fn``'s decorators just below its last registration (the decorators from
    there on shape the function the server calls), or None when none registers it."""
    at = [i for i, d in enumerate(fn.decorators) if registers(analysis, d.decorator)]
    return at[-1] + 1 if at else None


_HELPER = """\
def {name}(fn):
    \"\"\"mcp 1.x's FastMCP sent the client the text of any exception of a tool; mcp 2.x sends it only
    for `ToolError`: raise the others as `ToolError(str(exc))` (mcpmigrate MCP510).\"\"\"
    if {iscoroutinefunction}(fn):

        @{wraps}(fn)
        async def run_async(*args, **kwargs):
            try:
                return await fn(*args, **kwargs)
            except ({tool_error}, {url_error}):
                raise
            except Exception as exc:
                raise {tool_error}(str(exc)) from exc

        return run_async

    @{wraps}(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ({tool_error}, {url_error}):
            raise
        except Exception as exc:
            raise {tool_error}(str(exc)) from exc

    return run
"""


@dataclass
class DecoratedWrap:
    """One tool whose decorated function is wrapped: ``@keep_error_text`` below its registration,
    the helper defined once before the first such tool's top-level statement."""

    fn: cst.FunctionDef
    at: int  # the decorator index the helper's decorator goes to
    top: cst.CSTNode  # the module-level statement holding the tool
    helper: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        helper = self.helper

        def define() -> bool:
            code = _HELPER.format(
                name=helper,
                iscoroutinefunction=edits.import_name(analysis, "inspect", "iscoroutinefunction"),
                wraps=edits.import_name(analysis, "functools", "wraps"),
                tool_error=_spell(edits, analysis, *TOOL_ERROR),
                url_error=_spell(edits, analysis, *URL_ERROR),
            )
            stmt = cst.parse_statement(code)
            edits.insert_before(self.top, [stmt.with_changes(leading_lines=list(_top_lead(self.top)))])
            return True

        edits.shared("tool_errors.helper", define)
        at = self.at

        def add(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(upd, cst.FunctionDef)
            decorators = list(upd.decorators)
            decorators.insert(at, cst.Decorator(cst.Name(helper)))
            return upd.with_changes(decorators=decorators)

        edits.transform(self.fn, add)


def _top_lead(top: cst.CSTNode) -> tuple[cst.EmptyLine, ...]:
    """The helper's blank lines: those of the statement it goes before (two at most)."""
    lead = getattr(top, "leading_lines", ())
    return tuple(line for line in lead if line.comment is None)[-2:]


def helper_name(analysis: ModuleAnalysis) -> str:
    taken = set(module_bindings(analysis))
    name, i = "keep_error_text", 2
    while name in taken:
        name, i = f"keep_error_text{i}", i + 1
    return name


def resource_plan(analysis: ModuleAnalysis, fn: FunctionInfo, uri: str | None, outside: bool) -> FixPlan:
    """The plan for one resource function of a 1.x FastMCP server registered with the literal ``uri``."""
    if uri is None or outside or not isinstance(fn.node.body, cst.IndentedBlock):
        return FixPlan(
            manual='wrap the resource function so any exception is raised as `ResourceError(f"Error reading resource '
            '<uri>: {exc}")` (a template: `Error creating resource from template: Error creating resource from '
            "template: {exc}`), the text mcp 1.x sent",
        )
    prefix = TEMPLATE_PREFIX if "{" in uri else RESOURCE_PREFIX.format(uri=uri)
    return FixPlan(fix=RESOURCE_FIX, site=ToolErrorWrap(fn.node, _free_exc(analysis), prefix))


def _free_exc(analysis: ModuleAnalysis) -> str:
    taken = set(module_bindings(analysis))
    exc = "exc"
    i = 2
    while exc in taken:
        exc, i = f"exc{i}", i + 1
    return exc


def _asks_in_place(analysis: ModuleAnalysis, fn: FunctionInfo, asks: str) -> bool:
    """The tool is a method (no resolver can sit next to it) and each of its ``asks`` requests sits in
    a ``try`` with handlers: the interim fix then writes the round in place, inside that ``try``
    (``codemods/interim/guard.py``), which a ``try`` around the whole body does not disturb."""
    if fn.class_name is None:
        return False
    calls = [c for c in fn.calls if isinstance(c.func, cst.Attribute) and c.func.attr.value == asks]
    for call in calls:
        child: cst.CSTNode = call
        cur = analysis.parents.get(id(call))
        while cur is not None and cur is not fn.node:
            if isinstance(cur, cst.Try) and child is cur.body and cur.handlers and cur.finalbody is None:
                break
            child, cur = cur, analysis.parents.get(id(cur))
        else:
            return False
    return bool(calls)


def plan(analysis: ModuleAnalysis, fn: FunctionInfo, asks: str | None = None, outside: bool = False) -> FixPlan:
    """The plan for one tool: wrap its body, naming the caught exception a name the body does
    not use. Left to a human when the tool makes a client request (``asks``) the roots, sampling
    or elicitation fixes rewrite in the next round: they read the tool's body, and a ``try``
    around it reads as a request made only on some paths (the roots fix's review, the interim
    fix's refusal). That site does not block the port (advisory) (a ``global`` statement may stay inside the ``try``: it applies to the whole function).
    Manual when the body is on the ``def`` line."""
    body = fn.node.body
    if asks is not None and not _asks_in_place(analysis, fn, asks):
        return FixPlan(
            manual=f"the tool's `{asks}` request is rewritten by the roots/sampling/elicitation fixes, which cannot "
            "see through a `try` around the body: after them, wrap the body by hand in `try: … except (ToolError, "
            "UrlElicitationRequiredError): raise` / `except Exception as exc: raise ToolError(str(exc)) from exc`",
            severity=Severity.ADVISORY,
        )
    if outside:
        at = below_registration(analysis, fn.node)
        top = _top_statement(analysis, fn.node)
        if at is None or top is None:
            return FixPlan(
                manual="the tool's decorator raises the exceptions and the tool is not registered with a decorator "
                "at module level here: wrap the decorated function so other exceptions are raised as `ToolError(str(exc))`"
            )
        return FixPlan(fix=FIX_DECORATED, site=DecoratedWrap(fn.node, at, top, helper_name(analysis)))
    if not isinstance(body, cst.IndentedBlock):
        return FixPlan(manual="the tool's body is on its `def` line: put it on its own lines, then run the port again")
    return FixPlan(fix=FIX, site=ToolErrorWrap(fn.node, _free_exc(analysis)))

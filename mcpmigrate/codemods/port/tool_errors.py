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
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.port.renames import module_bindings
from mcpmigrate.model import FixInfo, FixPlan, Safety, Severity
from mcpmigrate.names import is_docstring

TOOL_ERROR = ("mcp.server.mcpserver.exceptions", "ToolError")
URL_ERROR = ("mcp.shared.exceptions", "UrlElicitationRequiredError")
# 1.x spellings the port's renames (MCP501) turn into the 2.x import of the same name.
_PORTED = {
    "ToolError": {"mcp.server.fastmcp.exceptions.ToolError", "mcp.server.mcpserver.exceptions.ToolError"},
    "UrlElicitationRequiredError": {"mcp.shared.exceptions.UrlElicitationRequiredError"},
}

FIX = FixInfo(
    Safety.SAFE,
    "port",
    "wrap the tool's body so any other exception (`MCPError` too) is raised as `ToolError(str(exc))`: mcp 2.x "
    "then sends the client the tool error result `Error executing tool <name>: <message>`, the text mcp 1.x sent",
)


@dataclass
class ToolErrorWrap:
    """One tool whose body is wrapped."""

    fn: cst.FunctionDef
    exc: str = "exc"

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        tool_error = _spell(edits, analysis, *TOOL_ERROR)
        url_error = _spell(edits, analysis, *URL_ERROR)
        exc = self.exc

        def wrap(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(upd, cst.FunctionDef) and isinstance(upd.body, cst.IndentedBlock)
            body = list(upd.body.body)
            head = body[:1] if is_docstring(body[0]) else []
            rest = body[len(head) :]
            handlers = cst.parse_statement(
                f"try:\n    pass\nexcept ({tool_error}, {url_error}):\n    raise\n"
                f"except Exception as {exc}:\n    raise {tool_error}(str({exc})) from {exc}\n"
            )
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


def plan(analysis: ModuleAnalysis, fn: FunctionInfo, asks: str | None = None) -> FixPlan:
    """The plan for one tool: wrap its body, naming the caught exception a name the body does
    not use. Left to a human when the tool makes a client request (``asks``) the roots, sampling
    or elicitation fixes rewrite in the next round: they read the tool's body, and a ``try``
    around it reads as a request made only on some paths (the roots fix's review, the interim
    fix's refusal). That site does not block the port (advisory) (a ``global`` statement may stay inside the ``try``: it applies to the whole function).
    Manual when the body is on the ``def`` line."""
    body = fn.node.body
    if asks is not None:
        return FixPlan(
            manual=f"the tool's `{asks}` request is rewritten by the roots/sampling/elicitation fixes, which cannot "
            "see through a `try` around the body: after them, wrap the body by hand in `try: … except (ToolError, "
            "UrlElicitationRequiredError): raise` / `except Exception as exc: raise ToolError(str(exc)) from exc`",
            severity=Severity.ADVISORY,
        )
    if not isinstance(body, cst.IndentedBlock):
        return FixPlan(manual="the tool's body is on its `def` line: put it on its own lines, then run the port again")
    taken = set(module_bindings(analysis))
    exc = "exc"
    i = 2
    while exc in taken:
        exc, i = f"exc{i}", i + 1
    return FixPlan(fix=FIX, site=ToolErrorWrap(fn.node, exc))

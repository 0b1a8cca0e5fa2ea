# port-08 — manual findings whose work is mechanical or whose reason misleads (no behaviour at risk,
# but each one blocks the whole project-wide port).
#
# NOW (`check --target-sdk mcp2`):
#  (a) MCP504 at `srv.get_context()` inside the resource template `doc://{name}`: manual "add a
#      `ctx: Context` parameter to the tool, resource or prompt that reaches this code and pass it down";
#      the port is blocked.
#  (b) MCP502 at `raise McpError(INTERNAL_ERROR, "…")`: manual "construct it as `MCPError(code, message,
#      data)`" — the call already has that shape, and on mcp 1.27 it raises `TypeError:
#      McpError.__init__() takes 2 positional arguments but 3 were given` (the client gets that text).
# SHOULD: (a) when the call is in the handler's own body, add `ctx: Context` to it and use it (safe:
#      MCPServer injects it in templates, tools and prompts); keep manual only for helpers reached
#      from several handlers. (b) say that the 1.x call is already broken and that the rename makes
#      it raise the intended MCPError (unsafe: the client's answer changes from the TypeError text).
# Seen in: johnhuang316/code-index-mcp@5e8d5fce:src/code_index_mcp/server.py (l.336);
#   reading-plus-ai/mcp-server-data-exploration@0cd67660:src/mcp_server_ds/server.py (l.172, 194, 311)
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError, UrlElicitationRequiredError
from mcp.types import INTERNAL_ERROR

srv = MCPServer("docs-lite")
DOCS = {"intro": "hello"}


@srv.resource("doc://{name}")
def read_doc(name: str, ctx: Context) -> str:
    prefix = f"[{ctx.request_id}] " if ctx.request_id else ""
    return prefix + DOCS.get(name, "")


@srv.tool()
def must_exist(name: str) -> str:
    try:
        if name not in DOCS:
            raise MCPError(INTERNAL_ERROR, f"unknown doc {name}")
        return name
    except (ToolError, UrlElicitationRequiredError):
        raise
    except Exception as exc:
        raise ToolError(str(exc)) from exc

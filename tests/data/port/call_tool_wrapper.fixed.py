"""telegram-mcp's annotation hook (runtime.py), minimal: every text block of a tool result is
marked as user content by a wrapper around the low-level tools/call handler."""

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import UrlElicitationRequiredError
from mcp.types import Annotations, TextContent

mcp = MCPServer("notes")
_USER_AUDIENCE = Annotations(audience=["user"])


def _install_annotation_hook() -> None:
    from mcp.types import CallToolRequestParams, CallToolResult

    original_handler = mcp._lowlevel_server.get_request_handler("tools/call").handler

    async def annotated_handler(ctx, params):
        response = await original_handler(ctx, params)
        if isinstance(response, CallToolResult):
            content = response.content
            if content:
                response.content = [
                    (
                        block.model_copy(update={"annotations": _USER_AUDIENCE})
                        if isinstance(block, TextContent) and block.annotations is None
                        else block
                    )
                    for block in content
                ]
        return response

    mcp._lowlevel_server.add_request_handler(
        "tools/call", CallToolRequestParams, annotated_handler
    )


_install_annotation_hook()


@mcp.tool()
def echo(text: str) -> str:
    """Say it back."""
    return text


@mcp.tool()
def fail(text: str) -> str:
    """Always fails."""
    try:
        raise ValueError(f"no {text}")
    except (ToolError, UrlElicitationRequiredError):
        raise
    except Exception as exc:
        raise ToolError(str(exc)) from exc

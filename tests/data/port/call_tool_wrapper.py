"""telegram-mcp's annotation hook (runtime.py), minimal: every text block of a tool result is
marked as user content by a wrapper around the low-level tools/call handler."""

from mcp.server.fastmcp import FastMCP
from mcp.types import Annotations, TextContent

mcp = FastMCP("notes")
_USER_AUDIENCE = Annotations(audience=["user"])


def _install_annotation_hook() -> None:
    from mcp.types import CallToolRequest, ServerResult, CallToolResult

    original_handler = mcp._mcp_server.request_handlers[CallToolRequest]

    async def annotated_handler(req):
        response = await original_handler(req)
        if isinstance(response, ServerResult) and isinstance(response.root, CallToolResult):
            content = response.root.content
            if content:
                response.root.content = [
                    (
                        block.model_copy(update={"annotations": _USER_AUDIENCE})
                        if isinstance(block, TextContent) and block.annotations is None
                        else block
                    )
                    for block in content
                ]
        return response

    mcp._mcp_server.request_handlers[CallToolRequest] = annotated_handler


_install_annotation_hook()


@mcp.tool()
def echo(text: str) -> str:
    """Say it back."""
    return text


@mcp.tool()
def fail(text: str) -> str:
    """Always fails."""
    raise ValueError(f"no {text}")

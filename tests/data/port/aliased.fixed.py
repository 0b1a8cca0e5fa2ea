"""A relay whose handlers are registered through its decorators held under other names."""

from collections.abc import Awaitable, Callable

from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
)

Lister = Callable[[], Awaitable[list[types.Tool]]]

relay: Server[object] = Server("relay")


def in_request(ctx: ServerRequestContext) -> str:
    return f"in a request: {ctx.request_id is not None}"


async def tools() -> list[types.Tool]:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    return [types.Tool(name="echo", inputSchema=schema)]


async def on_list_tools(
    ctx: ServerRequestContext, params: PaginatedRequestParams | None
) -> ListToolsResult:
    return ListToolsResult(tools=list(await tools()))


relay.add_request_handler("tools/list", PaginatedRequestParams, on_list_tools)


async def call(
    name: str, arguments: dict, ctx: ServerRequestContext
) -> list[types.TextContent]:
    return [
        types.TextContent(
            type="text", text=f"{name} {arguments.get('text')!r}, {in_request(ctx=ctx)}"
        )
    ]


async def on_call_tool(
    ctx: ServerRequestContext, params: CallToolRequestParams
) -> CallToolResult:
    arguments = params.arguments or {}
    try:
        content = await call(params.name, arguments, ctx=ctx)
    except Exception as exc:
        return CallToolResult(
            content=[TextContent(type="text", text=str(exc))], is_error=True
        )
    return CallToolResult(content=list(content), is_error=False)


relay.add_request_handler("tools/call", CallToolRequestParams, on_call_tool)

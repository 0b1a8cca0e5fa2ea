"""A relay whose handlers are registered through its decorators held under other names."""

from collections.abc import Awaitable, Callable
from typing import cast

from mcp import types
from mcp.server import Server
from mcp.server.lowlevel.server import request_ctx

Lister = Callable[[], Awaitable[list[types.Tool]]]

relay: Server[object] = Server("relay")
add_lister = cast(Callable[[], Callable[[Lister], Lister]], relay.list_tools)
add_caller = relay.call_tool(validate_input=False)


def in_request() -> str:
    return f"in a request: {request_ctx.get().request_id is not None}"


@add_lister()
async def tools() -> list[types.Tool]:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    return [types.Tool(name="echo", inputSchema=schema)]


@add_caller
async def call(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text=f"{name} {arguments.get('text')!r}, {in_request()}")]

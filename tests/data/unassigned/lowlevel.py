from typing import Any

from mcp import types
from mcp.server import Server, ServerRequestContext


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    topic = (params.arguments or {}).get("topic", "")
    _sampled = f"warmed {topic}"
    await ctx.session.create_message(
        messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=topic))],
        max_tokens=5,
    )
    return types.CallToolResult(content=[types.TextContent(type="text", text=_sampled)])


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="warm", input_schema={"type": "object"})])


server = Server("x", on_call_tool=call_tool, on_list_tools=list_tools)

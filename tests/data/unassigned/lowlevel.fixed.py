from typing import Any

from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    InputRequiredResult,
)
from mcp.types.version import is_version_at_least


async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult | InputRequiredResult:
    topic = (params.arguments or {}).get("topic", "")
    _sampled = f"warmed {topic}"
    if is_version_at_least(ctx.protocol_version, "2026-07-28"):
        _sampled_2 = (params.input_responses or {}).get("_sampled_2")
        if not isinstance(_sampled_2, CreateMessageResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.sampling is None:
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the sampling capability required by input request '_sampled_2'",
                    {"requiredCapabilities": {"sampling": {}}},
                )
            return InputRequiredResult(
                input_requests={
                    "_sampled_2": CreateMessageRequest(
                        params=CreateMessageRequestParams(
                            messages=[
                                types.SamplingMessage(
                                    role="user",
                                    content=types.TextContent(type="text", text=topic),
                                )
                            ],
                            max_tokens=5,
                        )
                    )
                }
            )
    else:
        await ctx.session.create_message(
            messages=[
                types.SamplingMessage(
                    role="user", content=types.TextContent(type="text", text=topic)
                )
            ],
            max_tokens=5,
        )
    return types.CallToolResult(content=[types.TextContent(type="text", text=_sampled)])


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="warm", input_schema={"type": "object"})])


server = Server("x", on_call_tool=call_tool, on_list_tools=list_tools)

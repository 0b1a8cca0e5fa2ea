from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
)
from mcp.types.version import is_version_at_least

OK: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
WHY: dict[str, Any] = {"type": "object", "properties": {"why": {"type": "string"}}, "required": ["why"]}
DROPPED: list[str] = []


async def confirm(reply: ElicitResult, name: str) -> bool:
    return reply.action == "accept" and bool((reply.content or {}).get("ok"))


async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult | InputRequiredResult:
    name = (params.arguments or {}).get("name", "a")
    if is_version_at_least(ctx.protocol_version, "2026-07-28"):
        why = (params.input_responses or {}).get("why")
        reply = (params.input_responses or {}).get("reply")
        if not (isinstance(why, ElicitResult) and isinstance(reply, ElicitResult)):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input requests 'why', 'reply'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "why": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Why drop {name}?", requested_schema=WHY
                        )
                    ),
                    "reply": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Drop {name}?", requested_schema=OK
                        )
                    ),
                }
            )
    else:
        why = await ctx.session.elicit_form(f"Why drop {name}?", WHY)
    if not is_version_at_least(ctx.protocol_version, "2026-07-28"):
        reply = await ctx.session.elicit_form(f"Drop {name}?", OK)
    if not await confirm(reply, name):
        return types.CallToolResult(content=[types.TextContent(text="kept")])
    DROPPED.append(name)
    reason = (why.content or {}).get("why", "-") if why.action == "accept" else "-"
    return types.CallToolResult(content=[types.TextContent(text=f"dropped {name}: {reason}")])


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="drop", input_schema={"type": "object"})])


server = Server("drop", on_call_tool=call_tool, on_list_tools=list_tools)

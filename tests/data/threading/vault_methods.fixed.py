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

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


class Vaults:
    def __init__(self) -> None:
        self.items: dict[str, list[str]] = {"a": ["x"], "b": ["y"]}

    async def _confirm(self, reply: ElicitResult, name: str) -> bool:
        return reply.action == "accept" and bool((reply.content or {}).get("ok"))

    async def empty(self, reply: ElicitResult, name: str) -> str:
        if not await self._confirm(reply, name):
            return "kept"
        self.items[name].clear()
        return "emptied"


VAULTS = Vaults()


async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult | InputRequiredResult:
    name = (params.arguments or {}).get("name", "a")
    if is_version_at_least(ctx.protocol_version, "2026-07-28"):
        reply = (params.input_responses or {}).get("reply")
        if not isinstance(reply, ElicitResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'reply'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "reply": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Empty the vault {name}?", requested_schema=SCHEMA
                        )
                    )
                }
            )
    else:
        reply = await ctx.session.elicit_form(f"Empty the vault {name}?", SCHEMA)
    text = await VAULTS.empty(reply, name)
    return types.CallToolResult(content=[types.TextContent(text=text)])


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="empty_vault", input_schema={"type": "object"})])


server = Server("vault", on_call_tool=call_tool, on_list_tools=list_tools)

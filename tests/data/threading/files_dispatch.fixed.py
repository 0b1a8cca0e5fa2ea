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
NAME: dict[str, Any] = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def text(value: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=value)])


async def confirm(reply: ElicitResult, what: str) -> bool:
    return reply.action == "accept" and bool((reply.content or {}).get("ok"))


async def pick_name(picked: ElicitResult, old: str) -> str:
    return str((picked.content or {}).get("name", old)) if picked.action == "accept" else old


async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult | InputRequiredResult:
    old = str((params.arguments or {}).get("name", "a"))
    if params.name == "wipe":
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
                                message=f"{f'Wipe {old}'}?", requested_schema=OK
                            )
                        )
                    }
                )
        else:
            reply = await ctx.session.elicit_form(f"{f'Wipe {old}'}?", OK)
        if not await confirm(reply, f"Wipe {old}"):
            return text("kept")
        return text(f"wiped {old}")
    if is_version_at_least(ctx.protocol_version, "2026-07-28"):
        picked = (params.input_responses or {}).get("picked")
        ok = (params.input_responses or {}).get("ok")
        if not (isinstance(picked, ElicitResult) and isinstance(ok, ElicitResult)):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input requests 'picked', 'ok'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "picked": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"New name for {old}?", requested_schema=NAME
                        )
                    ),
                    "ok": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Rename {old}?", requested_schema=OK
                        )
                    ),
                }
            )
    else:
        picked = await ctx.session.elicit_form(f"New name for {old}?", NAME)
    new = await pick_name(picked, old)
    if not is_version_at_least(ctx.protocol_version, "2026-07-28"):
        ok = await ctx.session.elicit_form(f"Rename {old}?", OK)
    if ok.action != "accept" or not (ok.content or {}).get("ok"):
        return text("kept")
    return text(f"renamed {old} to {new}")


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    tools = [types.Tool(name=n, input_schema={"type": "object"}) for n in ("wipe", "rename")]
    return types.ListToolsResult(tools=tools)


server = Server("files", on_call_tool=call_tool, on_list_tools=list_tools)

from typing import Any

from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    handle_elicit_accept,
    parse_elicit_response_type,
)
from mcp.shared.exceptions import MCPError
from mcp_types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
)
from mcp_types.version import is_version_at_least

app = FastMCP("move")


async def confirm(
    reply: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation,
    what: str,
) -> bool:
    return reply.action == "accept" and bool(reply.data)


@app.tool()
async def move(src: str, dst: str, ctx: Context) -> str | InputRequiredResult:
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        reply = (ctx.input_responses or {}).get("reply")
        reply_2 = (ctx.input_responses or {}).get("reply_2")
        if not (isinstance(reply, ElicitResult) and isinstance(reply_2, ElicitResult)):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input requests 'reply', 'reply_2'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "reply": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"{f'Take {src}'}?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    ),
                    "reply_2": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"{f'Overwrite {dst}'}?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    ),
                }
            )
        reply = (
            handle_elicit_accept(parse_elicit_response_type(bool), reply.content)
            if reply.action == "accept"
            else DeclinedElicitation()
            if reply.action == "decline"
            else CancelledElicitation()
        )
        reply_2 = (
            handle_elicit_accept(parse_elicit_response_type(bool), reply_2.content)
            if reply_2.action == "accept"
            else DeclinedElicitation()
            if reply_2.action == "decline"
            else CancelledElicitation()
        )
    else:
        reply = await ctx.elicit(f"{f'Take {src}'}?", response_type=bool)
    take = await confirm(reply, f"Take {src}")
    if not is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        reply_2 = await ctx.elicit(f"{f'Overwrite {dst}'}?", response_type=bool)
    put = await confirm(reply_2, f"Overwrite {dst}")
    if not (take and put):
        return "stayed"
    return f"moved {src} to {dst}"

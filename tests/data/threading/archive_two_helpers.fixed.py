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

app = FastMCP("archive")
ARCHIVED: list[str] = []


async def confirm(
    reply: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation,
    what: str,
) -> bool:
    return reply.action == "accept" and bool(reply.data)


async def pick_label(
    reply: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation,
    what: str,
) -> str:
    return reply.data if reply.action == "accept" else "unlabelled"


@app.tool()
async def archive(name: str, ctx: Context) -> str | InputRequiredResult:
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
                            message=f"Archive {name}?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    ),
                    "reply_2": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Label for {name}?",
                            requested_schema=parse_elicit_response_type(str).schema,
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
            handle_elicit_accept(parse_elicit_response_type(str), reply_2.content)
            if reply_2.action == "accept"
            else DeclinedElicitation()
            if reply_2.action == "decline"
            else CancelledElicitation()
        )
    else:
        reply = await ctx.elicit(f"Archive {name}?", response_type=bool)
    ok = await confirm(reply, name)
    if not is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        reply_2 = await ctx.elicit(f"Label for {name}?", response_type=str)
    label = await pick_label(reply_2, name)
    if not ok:
        return "kept"
    ARCHIVED.append(name)
    return f"archived {name} as {label}"


@app.tool()
async def purge(name: str, ctx: Context) -> str | InputRequiredResult:
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        reply = (ctx.input_responses or {}).get("reply")
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
                            message=f"Archive {f'{name} for good'}?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    )
                }
            )
        reply = (
            handle_elicit_accept(parse_elicit_response_type(bool), reply.content)
            if reply.action == "accept"
            else DeclinedElicitation()
            if reply.action == "decline"
            else CancelledElicitation()
        )
    else:
        reply = await ctx.elicit(f"Archive {f'{name} for good'}?", response_type=bool)
    if not await confirm(reply, f"{name} for good"):
        return "kept"
    return f"purged {name}"

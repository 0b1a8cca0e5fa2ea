from typing import Any

from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    ElicitConfig,
    handle_elicit_accept,
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

atlas = FastMCP("atlas")


class OutboundRefused(Exception):
    pass


async def confirm_outbound(
    reply: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation | None,
    ctx: Context,
) -> None:
    granted = await ctx.get_state("outbound_granted")
    if granted:
        return
    if reply.action == "accept":
        await ctx.set_state("outbound_granted", True)
        return
    raise OutboundRefused(reply.action)


@atlas.tool()
async def tile(x: int, y: int, ctx: Context) -> str | InputRequiredResult:
    try:
        if await ctx.get_state("outbound_granted"):
            reply = None
        elif is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
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
                                message="Atlas will fetch tiles from the network. Go ahead?",
                                requested_schema={"type": "object", "properties": {}},
                            )
                        )
                    }
                )
            reply = (
                handle_elicit_accept(
                    ElicitConfig(
                        schema={"type": "object", "properties": {}},
                        response_type=None,
                        is_raw=False,
                    ),
                    reply.content,
                )
                if reply.action == "accept"
                else DeclinedElicitation()
                if reply.action == "decline"
                else CancelledElicitation()
            )
        else:
            reply = await ctx.session.elicit(
                message="Atlas will fetch tiles from the network. Go ahead?",
                requested_schema={"type": "object", "properties": {}},
                related_request_id=ctx.request_id,
            )
            reply = (
                handle_elicit_accept(
                    ElicitConfig(
                        schema={"type": "object", "properties": {}},
                        response_type=None,
                        is_raw=False,
                    ),
                    reply.content,
                )
                if reply.action == "accept"
                else DeclinedElicitation()
                if reply.action == "decline"
                else CancelledElicitation()
            )
        await confirm_outbound(reply, ctx)
        return f"tile {x}/{y} fetched"
    except OutboundRefused as refused:
        return f"no tile: {refused}"


@atlas.tool()
async def legend(ctx: Context) -> str | InputRequiredResult:
    if await ctx.get_state("outbound_granted"):
        reply = None
    elif is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
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
                            message="Atlas will fetch tiles from the network. Go ahead?",
                            requested_schema={"type": "object", "properties": {}},
                        )
                    )
                }
            )
        reply = (
            handle_elicit_accept(
                ElicitConfig(
                    schema={"type": "object", "properties": {}},
                    response_type=None,
                    is_raw=False,
                ),
                reply.content,
            )
            if reply.action == "accept"
            else DeclinedElicitation()
            if reply.action == "decline"
            else CancelledElicitation()
        )
    else:
        reply = await ctx.session.elicit(
            message="Atlas will fetch tiles from the network. Go ahead?",
            requested_schema={"type": "object", "properties": {}},
            related_request_id=ctx.request_id,
        )
        reply = (
            handle_elicit_accept(
                ElicitConfig(
                    schema={"type": "object", "properties": {}},
                    response_type=None,
                    is_raw=False,
                ),
                reply.content,
            )
            if reply.action == "accept"
            else DeclinedElicitation()
            if reply.action == "decline"
            else CancelledElicitation()
        )
    await confirm_outbound(reply, ctx)
    return "legend fetched"

from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import (
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

from consent import require_ack

app = FastMCP("buckets")
DELETED: list[str] = []


@app.tool()
async def delete_bucket(name: str, ctx: Context) -> str | InputRequiredResult:
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
                            message=f"{f'Delete bucket {name}'}. Acknowledge?",
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
        reply = await ctx.elicit(
            f"{f'Delete bucket {name}'}. Acknowledge?", response_type=bool
        )
    if not await require_ack(reply, f"Delete bucket {name}"):
        return "kept"
    DELETED.append(name)
    return f"deleted {name}"


@app.tool()
async def empty_bucket(name: str, ctx: Context) -> str | InputRequiredResult:
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
                            message=f"{f'Empty bucket {name}'}. Acknowledge?",
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
        reply = await ctx.elicit(
            f"{f'Empty bucket {name}'}. Acknowledge?", response_type=bool
        )
    ok = await require_ack(reply, summary=f"Empty bucket {name}")
    return f"emptied {name}" if ok else "kept"

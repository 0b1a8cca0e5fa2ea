import logging

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
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    SamplingMessage,
    TextContent,
)
from mcp_types.version import is_version_at_least

log = logging.getLogger("echo")
mcp = FastMCP("x")


@mcp.tool
async def echo(ctx: Context, text: str | None = None) -> str | InputRequiredResult:
    try:
        log.info("echo %r", text)
        value = text if text is not None else "nothing"
        # the model is asked, its answer dropped: the client only sees the prompt
        if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
            _sampled = (ctx.input_responses or {}).get("_sampled")
            if not isinstance(_sampled, CreateMessageResult):
                declared = ctx.session.client_capabilities or ClientCapabilities()
                if declared.sampling is None:
                    raise MCPError(
                        MISSING_REQUIRED_CLIENT_CAPABILITY,
                        "Client did not declare the sampling capability required by input request '_sampled'",
                        {"requiredCapabilities": {"sampling": {}}},
                    )
                return InputRequiredResult(
                    input_requests={
                        "_sampled": CreateMessageRequest(
                            params=CreateMessageRequestParams(
                                max_tokens=16,
                                messages=[
                                    SamplingMessage(
                                        role="user",
                                        content=TextContent(type="text", text=value),
                                    )
                                ],
                            )
                        )
                    }
                )
        else:
            await ctx.session.create_message(
                max_tokens=16,
                messages=[
                    SamplingMessage(
                        role="user", content=TextContent(type="text", text=value)
                    )
                ],
            )
        log.info("echoing %r", value)
        return value
    except Exception as e:
        return f"Error: {e}"


@mcp.tool
async def confirm_twice(what: str, ctx: Context) -> str | InputRequiredResult:
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        _elicited = (ctx.input_responses or {}).get("_elicited")
        _elicited_2 = (ctx.input_responses or {}).get("_elicited_2")
        if not (
            isinstance(_elicited, ElicitResult)
            and isinstance(_elicited_2, ElicitResult)
        ):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input requests '_elicited', '_elicited_2'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "_elicited": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"First look at {what}?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    ),
                    "_elicited_2": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Second look at {what}?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    ),
                }
            )
        _elicited = (
            handle_elicit_accept(parse_elicit_response_type(bool), _elicited.content)
            if _elicited.action == "accept"
            else DeclinedElicitation()
            if _elicited.action == "decline"
            else CancelledElicitation()
        )
        _elicited_2 = (
            handle_elicit_accept(parse_elicit_response_type(bool), _elicited_2.content)
            if _elicited_2.action == "accept"
            else DeclinedElicitation()
            if _elicited_2.action == "decline"
            else CancelledElicitation()
        )
    else:
        await ctx.elicit(f"First look at {what}?", response_type=bool)
        await ctx.elicit(f"Second look at {what}?", response_type=bool)
    return f"{what} looked at"

"""A fastmcp 4 shop whose handlers ask the client through ``get_context()`` (no ``Context`` parameter):
a resource template samples, a static resource and a tool elicit, a prompt that already takes the
context asks through ``get_context()`` all the same."""

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
from pydantic import BaseModel

shop = FastMCP("shop")


@shop.resource("menu://dish/{dish}")
async def describe(dish: str, ctx: Context) -> str | InputRequiredResult:
    # only fetches the context
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        reply = (ctx.input_responses or {}).get("reply")
        if not isinstance(reply, CreateMessageResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.sampling is None:
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the sampling capability required by input request 'reply'",
                    {"requiredCapabilities": {"sampling": {}}},
                )
            return InputRequiredResult(
                input_requests={
                    "reply": CreateMessageRequest(
                        params=CreateMessageRequestParams(
                            max_tokens=40,
                            messages=[
                                SamplingMessage(
                                    role="user",
                                    content=TextContent(
                                        type="text", text=f"Describe {dish}"
                                    ),
                                )
                            ],
                        )
                    )
                }
            )
    else:
        reply = await ctx.session.create_message(
            max_tokens=40,
            messages=[
                SamplingMessage(
                    role="user",
                    content=TextContent(type="text", text=f"Describe {dish}"),
                )
            ],
        )
    return reply.content.text


@shop.resource("menu://today")
async def today(ctx: Context) -> str | InputRequiredResult:
    class Spicy(BaseModel):
        hot: bool

    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        choice = (ctx.input_responses or {}).get("choice")
        if not isinstance(choice, ElicitResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'choice'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "choice": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message="Spicy today?",
                            requested_schema=parse_elicit_response_type(Spicy).schema,
                        )
                    )
                }
            )
        choice = (
            handle_elicit_accept(parse_elicit_response_type(Spicy), choice.content)
            if choice.action == "accept"
            else DeclinedElicitation()
            if choice.action == "decline"
            else CancelledElicitation()
        )
    else:
        choice = await ctx.elicit("Spicy today?", Spicy)
    if choice.action == "accept":
        return f"today: {'vindaloo' if choice.data.hot else 'korma'}"
    return f"today: {choice.action}"


@shop.tool
async def order(
    dish: str, count: int = 1, *, ctx: Context
) -> str | InputRequiredResult:
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        answer = (ctx.input_responses or {}).get("answer")
        if not isinstance(answer, ElicitResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'answer'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "answer": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Confirm {count} x {dish}?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    )
                }
            )
        answer = (
            handle_elicit_accept(parse_elicit_response_type(bool), answer.content)
            if answer.action == "accept"
            else DeclinedElicitation()
            if answer.action == "decline"
            else CancelledElicitation()
        )
    else:
        answer = await ctx.elicit(f"Confirm {count} x {dish}?", bool)
    return f"{count} x {dish}: {answer.action}"


@shop.prompt
async def pairing(dish: str, ctx: Context) -> str | InputRequiredResult:
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        wine = (ctx.input_responses or {}).get("wine")
        if not isinstance(wine, ElicitResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'wine'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "wine": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Wine with {dish}?",
                            requested_schema=parse_elicit_response_type(str).schema,
                        )
                    )
                }
            )
        wine = (
            handle_elicit_accept(parse_elicit_response_type(str), wine.content)
            if wine.action == "accept"
            else DeclinedElicitation()
            if wine.action == "decline"
            else CancelledElicitation()
        )
    else:
        wine = await ctx.elicit(f"Wine with {dish}?", str)
    return f"{dish} with {wine.data if wine.action == 'accept' else 'water'} ({ctx.request_id is not None})"

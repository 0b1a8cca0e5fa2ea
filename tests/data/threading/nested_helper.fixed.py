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

app = FastMCP("janitor")
WIPED: list[str] = []


@app.tool()
async def wipe(name: str, ctx: Context) -> str | InputRequiredResult:
    async def confirmed(
        answer: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation,
        what: str,
    ) -> bool:
        return answer.action == "accept" and bool(answer.data)

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
                            message=f"Wipe {name}?",
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
        answer = await ctx.elicit(f"Wipe {name}?", response_type=bool)
    if not await confirmed(answer, name):
        return "kept"
    WIPED.append(name)
    return f"wiped {name}"

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

app = FastMCP("files")


async def pick_folder(
    picked: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation | None,
    folder: str | None,
) -> str:
    if folder:
        return folder
    return picked.data if picked.action == "accept" else "."


@app.tool()
async def listing(ctx: Context, folder: str | None = None) -> str | InputRequiredResult:
    if folder:
        picked = None
    elif is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        picked = (ctx.input_responses or {}).get("picked")
        if not isinstance(picked, ElicitResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'picked'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "picked": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message="Which folder?",
                            requested_schema=parse_elicit_response_type(str).schema,
                        )
                    )
                }
            )
        picked = (
            handle_elicit_accept(parse_elicit_response_type(str), picked.content)
            if picked.action == "accept"
            else DeclinedElicitation()
            if picked.action == "decline"
            else CancelledElicitation()
        )
    else:
        picked = await ctx.elicit("Which folder?", response_type=str)
    where = await pick_folder(picked, folder)
    return f"listing {where}"

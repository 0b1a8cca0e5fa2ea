from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import (
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

shelf = FastMCP("shelf")
SHELVES = ["inbox"]


@shelf.tool()
async def add_shelf(name: str, ctx: Context) -> str | InputRequiredResult:
    if name in SHELVES:
        return f"{name} exists"
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        result = (ctx.input_responses or {}).get("result")
        if not isinstance(result, ElicitResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'result'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "result": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"Create shelf {name}?",
                            requested_schema={"type": "object", "properties": {}},
                        )
                    )
                }
            )
        result = (
            handle_elicit_accept(
                ElicitConfig(
                    schema={"type": "object", "properties": {}},
                    response_type=None,
                    is_raw=False,
                ),
                result.content,
            )
            if result.action == "accept"
            else DeclinedElicitation()
            if result.action == "decline"
            else CancelledElicitation()
        )
    else:
        result = await ctx.session.elicit(
            message=f"Create shelf {name}?",
            requested_schema={"type": "object", "properties": {}},
            related_request_id=ctx.request_id,
        )
        result = (
            handle_elicit_accept(
                ElicitConfig(
                    schema={"type": "object", "properties": {}},
                    response_type=None,
                    is_raw=False,
                ),
                result.content,
            )
            if result.action == "accept"
            else DeclinedElicitation()
            if result.action == "decline"
            else CancelledElicitation()
        )
    if result.action != "accept":
        return "creation cancelled"
    SHELVES.append(name)
    return f"created {name}"

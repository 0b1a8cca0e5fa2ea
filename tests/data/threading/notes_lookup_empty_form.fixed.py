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

board = FastMCP("board")
NOTES = {"n1": "Old"}


async def find(note_id: str) -> str:
    if note_id not in NOTES:
        raise ValueError(f"Note with ID '{note_id}' not found.")
    return NOTES[note_id]


@board.tool()
async def rename(note_id: str, title: str, ctx: Context) -> str | InputRequiredResult:
    existing = await find(note_id)
    if title == existing:
        return f"No changes detected for note '{existing}'."
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
                            message=f"Rename note '{existing}' to '{title}'?",
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
            message=f"Rename note '{existing}' to '{title}'?",
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
        return "Note update cancelled."
    NOTES[note_id] = title
    return f"renamed {existing} -> {title}"

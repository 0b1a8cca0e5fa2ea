"""Consent before a destructive shop operation."""

from mcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    render_elicitation_schema,
)
from mcp.types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
)
from mcp.types.version import is_version_at_least


async def confirm(summary: str, risk: str, ctx) -> None | InputRequiredResult:
    """Ask the user to confirm; raises ValueError when they do not, or cannot."""
    from mcp.shared.exceptions import MCPError
    from mcp.types import METHOD_NOT_FOUND
    from pydantic import BaseModel, Field

    try:
        Ack = type(
            "Ack",
            (BaseModel,),
            {"__annotations__": {"ok": bool}, "ok": Field(description=risk)},
        )
        if is_version_at_least(ctx.protocol_version, "2026-07-28"):
            reply = (ctx.input_responses or {}).get("confirm.reply")
            if not isinstance(reply, ElicitResult):
                declared = ctx.session.client_capabilities or ClientCapabilities()
                if declared.elicitation is None or (
                    declared.elicitation.form is None
                    and declared.elicitation.url is not None
                ):
                    raise MCPError(
                        MISSING_REQUIRED_CLIENT_CAPABILITY,
                        "Client did not declare the form elicitation capability required by input request 'confirm.reply'",
                        {"requiredCapabilities": {"elicitation": {"form": {}}}},
                    )
                return InputRequiredResult(
                    input_requests={
                        "confirm.reply": ElicitRequest(
                            params=ElicitRequestFormParams(
                                message=f"{summary}\n\nConfirm to go on.",
                                requested_schema=render_elicitation_schema(Ack),
                            )
                        )
                    }
                )
            reply = (
                AcceptedElicitation(data=Ack.model_validate(reply.content))
                if reply.action == "accept"
                else DeclinedElicitation()
                if reply.action == "decline"
                else CancelledElicitation()
            )
        else:
            reply = await ctx.elicit(
                message=f"{summary}\n\nConfirm to go on.", schema=Ack
            )
        if reply.action != "accept" or not reply.data.ok:
            raise ValueError("The user said no.")
    except MCPError as e:
        if e.code in (METHOD_NOT_FOUND, MISSING_REQUIRED_CLIENT_CAPABILITY):
            raise ValueError("This client cannot ask for confirmation.")
        raise e


from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("one")


@mcp.tool()
async def drop_table(table: str, ctx: Context) -> str | InputRequiredResult:
    try:
        interim = await confirm(
            f"Drop table {table}.", "I know the rows are gone for good.", ctx
        )
        if isinstance(interim, InputRequiredResult):
            return interim
    except ValueError as e:
        return f"not dropped: {e}"
    return f"dropped {table}"

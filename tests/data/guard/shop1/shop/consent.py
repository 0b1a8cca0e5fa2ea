"""Consent before a destructive shop operation."""


async def confirm(summary: str, risk: str, ctx) -> None:
    """Ask the user to confirm; raises ValueError when they do not, or cannot."""
    from mcp.shared.exceptions import McpError
    from mcp.types import METHOD_NOT_FOUND
    from pydantic import BaseModel, Field

    try:
        Ack = type(
            "Ack",
            (BaseModel,),
            {"__annotations__": {"ok": bool}, "ok": Field(description=risk)},
        )
        reply = await ctx.elicit(message=f"{summary}\n\nConfirm to go on.", schema=Ack)
        if reply.action != "accept" or not reply.data.ok:
            raise ValueError("The user said no.")
    except McpError as e:
        if e.error.code == METHOD_NOT_FOUND:
            raise ValueError("This client cannot ask for confirmation.")
        raise e

"""Consent before a destructive shop operation."""


async def confirm(summary: str, risk: str, ctx) -> None:
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
        reply = await ctx.elicit(message=f"{summary}\n\nConfirm to go on.", schema=Ack)
        if reply.action != "accept" or not reply.data.ok:
            raise ValueError("The user said no.")
    except MCPError as e:
        if e.code == METHOD_NOT_FOUND:
            raise ValueError("This client cannot ask for confirmation.")
        raise e


from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("one")


@mcp.tool()
async def drop_table(table: str, ctx: Context) -> str:
    try:
        await confirm(f"Drop table {table}.", "I know the rows are gone for good.", ctx)
    except ValueError as e:
        return f"not dropped: {e}"
    return f"dropped {table}"

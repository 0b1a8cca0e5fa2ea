"""requests-14's kind on fastmcp 4 (written for this project): a tool confirms through `ctx.elicit`
before it empties the vault; the interim fix gives it fastmcp 4's guard pattern."""

from fastmcp import Context, FastMCP

mcp = FastMCP("vault")
VAULT = {"a": 1, "b": 2}


@mcp.tool
async def empty_vault(ctx: Context) -> str:
    reply = await ctx.elicit("Empty the vault?", bool)
    if reply.action != "accept" or not reply.data:
        return "kept"
    VAULT.clear()
    return "emptied"

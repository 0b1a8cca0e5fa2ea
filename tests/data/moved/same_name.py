"""Two mcp 2.x MCPServer tools each define their own schema class `Choice`, with different fields
(written for this project): one module-level name cannot hold both."""

from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("menu")


@mcp.tool()
async def pick_drink(ctx: Context) -> str:
    class Choice(BaseModel):
        drink: str = "water"

    answer = await ctx.elicit("Which drink?", Choice)
    return answer.data.drink if answer.action == "accept" else "none"


@mcp.tool()
async def pick_meal(ctx: Context) -> str:
    class Choice(BaseModel):
        meal: str = "soup"
        spicy: bool = False

    answer = await ctx.elicit("Which meal?", Choice)
    return answer.data.meal if answer.action == "accept" else "none"

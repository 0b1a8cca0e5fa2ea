"""An mcp 2.x MCPServer tool whose schema class reads the tool's parameter in a field default
(written for this project): the class cannot leave the tool, and the request stays manual."""

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("shop")


@mcp.tool()
async def order(item: str, limit: int, ctx: Context) -> str:
    class Quantity(BaseModel):
        count: int = Field(default=1, le=limit, description=f"How many {item}?")

    answer = await ctx.elicit(f"Order {item}", Quantity)
    return f"{answer.data.count} {item}" if answer.action == "accept" else "nothing"

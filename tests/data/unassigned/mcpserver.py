from mcp.server.mcpserver import Context, MCPServer
from mcp.types import SamplingMessage, TextContent
from pydantic import BaseModel

mcp = MCPServer("x")
SEEN: list[str] = []


class Seen(BaseModel):
    ok: bool


@mcp.tool()
async def warm(topic: str, ctx: Context) -> str:
    # ask the model once so the client shows a sampling prompt; the answer is not used
    await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=topic))], max_tokens=5
    )
    return f"warmed {topic}"


@mcp.tool()
async def notify(what: str, ctx: Context) -> str:
    try:
        label = what.upper()
        await ctx.elicit(message=f"Seen {label}?", schema=Seen)
        SEEN.append(label)
        return f"noted {label}"
    except Exception as e:
        return f"Error: {e}"

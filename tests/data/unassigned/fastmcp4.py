import logging

from fastmcp import Context, FastMCP
from mcp_types import SamplingMessage, TextContent

log = logging.getLogger("echo")
mcp = FastMCP("x")


@mcp.tool
async def echo(ctx: Context, text: str | None = None) -> str:
    try:
        log.info("echo %r", text)
        value = text if text is not None else "nothing"
        # the model is asked, its answer dropped: the client only sees the prompt
        await ctx.session.create_message(
            max_tokens=16,
            messages=[SamplingMessage(role="user", content=TextContent(type="text", text=value))],
        )
        log.info("echoing %r", value)
        return value
    except Exception as e:
        return f"Error: {e}"


@mcp.tool
async def confirm_twice(what: str, ctx: Context) -> str:
    await ctx.elicit(f"First look at {what}?", response_type=bool)
    await ctx.elicit(f"Second look at {what}?", response_type=bool)
    return f"{what} looked at"

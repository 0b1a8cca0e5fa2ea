"""Extra tools registered on the shared server object: takes `Context` from the app module."""

from .app import Context, mcp


@mcp.tool()
async def scale(grams: int, factor: float, ctx: Context) -> str:
    """Scale an ingredient amount."""
    return f"{grams * factor:.0f} g"

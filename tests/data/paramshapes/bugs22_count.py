"""Counts the client's workspaces (field case bugs-22): every root matters, not the first."""

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("workspace-counter")


@mcp.tool()
async def count(ctx: Context) -> str:
    roots = await ctx.session.list_roots()
    match len(roots.roots):
        case 1 | 2:
            return "few"
        case _:
            return "many"


@mcp.tool()
async def how_many(ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    if not listing.roots:
        return "no workspace"
    return f"{len(listing.roots)} workspaces"

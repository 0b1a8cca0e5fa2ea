"""Recipe server: the server object lives here; other modules import what they need from here."""

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("recipes")


@mcp.tool()
async def pantry_dir(ctx: Context) -> str:
    """Where the pantry files are."""
    roots = await ctx.session.list_roots()
    return str(roots.roots[0].uri)

from mcp.server.mcpserver import MCPServer as FastMCP

mcp = FastMCP("relay")


@mcp.tool()
def echo(text: str) -> str:
    """Say it back."""
    return text

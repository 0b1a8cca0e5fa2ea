from mcp.server.fastmcp import FastMCP

mcp = FastMCP("relay", stateless_http=True)


@mcp.tool()
def echo(text: str) -> str:
    """Say it back."""
    return text

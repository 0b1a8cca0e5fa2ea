"""A shop server (mcp 1.x FastMCP) whose tools live in a class of another module."""

from mcp.server.mcpserver import MCPServer

from shop.tools import ShopTools

mcp = MCPServer("shop")
ShopTools().register(mcp)

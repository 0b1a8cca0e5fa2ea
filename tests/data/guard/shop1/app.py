"""A shop server (mcp 1.x FastMCP) whose tools live in a class of another module."""

from mcp.server.fastmcp import FastMCP

from shop.tools import ShopTools

mcp = FastMCP("shop")
ShopTools().register(mcp)

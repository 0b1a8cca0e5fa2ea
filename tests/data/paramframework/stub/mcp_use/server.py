"""A stand-in for mcp-use's server module, for the proof runs on mcp 1.x (mcp-use pins mcp 1.x):
its `Context` subclasses mcp 1.x FastMCP's and its `list_roots` awaits the session's request and
returns the answer's roots, as mcp-use's `Context.list_roots` does; `MCPServer` is FastMCP handing
its tools that `Context` (as mcp-use's `MCPServer.get_context` does)."""

from mcp.server.fastmcp import Context as FastMCPContext
from mcp.server.fastmcp import FastMCP
from mcp.types import Root


class Context(FastMCPContext):
    async def list_roots(self) -> list[Root]:
        result = await self.session.list_roots()
        return result.roots


class MCPServer(FastMCP):
    def get_context(self) -> Context:
        try:
            request_context = self._mcp_server.request_context
        except LookupError:
            request_context = None
        return Context(request_context=request_context, fastmcp=self)

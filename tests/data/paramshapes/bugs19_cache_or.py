"""A low-level server that caches the roots in a dict and reads the cache before asking (field
case bugs-19)."""

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("shelf-indexer")
_seen: dict[str, list[str]] = {}


async def _load(session) -> list[str]:
    result = await session.list_roots()
    _seen["roots"] = [str(r.uri) for r in result.roots]
    return _seen["roots"]


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="where", description="Show roots", inputSchema={"type": "object", "properties": {}})]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    roots = _seen.get("roots") or await _load(server.request_context.session)
    return [types.TextContent(type="text", text=",".join(roots))]

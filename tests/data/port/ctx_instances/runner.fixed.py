from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server.mcpserver import Context

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


class Runner:
    def __init__(self, server: MCPServer) -> None:
        self.server = server

    async def run(self, task: str, prefix: str | None = None, *, ctx: Context) -> str:
        return f"{prefix or ''}{task} via {ctx.mcp_server.name}#{ctx.request_id is not None}"

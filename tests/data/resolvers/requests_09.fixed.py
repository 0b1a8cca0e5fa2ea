# requests-09: a tool defined inside a factory function (`def build() -> MCPServer:`) is never
# rewritten, although a resolver defined next to it works.
#
# What mcpmigrate does now: MCP202 "manual: the tool is not a module-level function: add the
# resolver by hand". mcp 2.3 accepts a nested resolver: `def wipe_question(name: str) ->
# Elicit[Confirm]` defined inside `build()` and used as `Annotated[ElicitationResult[Confirm],
# Resolve(wipe_question)]` asked the question and ran the tool in both eras (checked with the
# mcp 2.3.0 Client, legacy and 2026-07-28, in-memory). Seen on
# modelcontextprotocol/python-sdk@57394b05:examples/stories/sampling/server.py:13 and
# examples/stories/legacy_elicitation/server.py:20 (every story builds its server in a
# `build_server()` factory); factories are also how larger servers register tools.
#
# What it should do: put the resolver in the same scope as the tool (right before its
# decorator), using only names visible there, and apply the same fix; keep it manual only
# when the request uses names bound later in the factory or inside the tool body.
from typing import Annotated

from pydantic import BaseModel

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve


class Confirm(BaseModel):
    ok: bool


def build() -> MCPServer:
    app = MCPServer("janitor")

    def wipe_elicitation(name: str) -> Elicit[Confirm]:
        return Elicit(f"Wipe {name}?", Confirm)

    @app.tool()
    async def wipe(
        name: str,
        answer: Annotated[ElicitationResult[Confirm], Resolve(wipe_elicitation)],
    ) -> str:
        if answer.action == "accept" and answer.data.ok:
            return f"wiped {name}"
        return "kept"

    return app

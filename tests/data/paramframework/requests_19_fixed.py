# requests-19: on a framework Context that wraps the SDK session, `ctx.sample(...)` and
# `ctx.elicit(...)` are now reported, but `ctx.list_roots()` - the same framework's wrapper around
# `session.list_roots()` - is not.
#
# What mcpmigrate does now (2b744c9, `check`): MCP201 on `ask_model` and MCP202 on `pick_color`
# ("the framework's `sample` sends `sampling/createMessage` through the SDK session ..."), and
# nothing on `show_roots`, although mcp_use's `Context.list_roots` is `await
# self.session.list_roots()` (flagged as MCP101 inside the framework itself,
# mcp-use/mcp-use@5865e5c1:libraries/python/mcp_use/server/context.py:151). Old repro
# field case requests-03 (sample/elicit only) passes now; this is the half it did not test.
#
# What it should do: MCP101 roots-request on `ctx.list_roots()` of the framework Context, manual
# ("the framework's `list_roots` sends `roots/list` through the SDK session: take the directory as
# a documented tool parameter"); with `--strategy param` the same parameter rewrite as for the SDK
# Context would be possible, since only the tool's signature changes.
#
# Seen in: mcp-use/mcp-use@5865e5c1:libraries/python/tests/integration/servers_for_testing/
# primitive_server.py:137 and libraries/python/examples/server/context_example.py:116.
import json
from pathlib import Path
from typing import Annotated

from mcp.types import Root, SamplingMessage, TextContent
from mcp_use.server import Context, MCPServer
from pydantic import BaseModel, Field

server = MCPServer(name="palette")


class Color(BaseModel):
    name: str


@server.tool()
async def ask_model(word: str, ctx: Context) -> str:
    reply = await ctx.sample(messages=[SamplingMessage(role="user", content=TextContent(type="text", text=word))])
    return reply.content.text if isinstance(reply.content, TextContent) else ""


@server.tool()
async def pick_color(ctx: Context) -> str:
    answer = await ctx.elicit(message="Favourite colour?", schema=Color)
    return answer.data.name if answer.action == "accept" else "none"


@server.tool()
async def show_roots(
    root_paths: Annotated[
        list[str],
        Field(
            description="Absolute paths of the directories to work in (formerly the client's MCP roots)."
        ),
    ],
) -> str:
    roots = [Root(uri=Path(p).as_uri()) for p in root_paths]
    return json.dumps([str(r.uri) for r in roots])

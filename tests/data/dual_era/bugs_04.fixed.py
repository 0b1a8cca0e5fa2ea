# bugs-04: the SAFE MCP103 fix deletes a roots/list_changed handler that invalidates a roots cache,
# while the cached roots request itself stays (its fix needs --unsafe-fixes). After a plain
# `mcpmigrate fix` the server serves stale roots forever. Wrong fix (labelled safe).
#
# What mcpmigrate does now: `fix` (default, safe only) removes `on_roots_changed` and its
# `notification_handlers[...]` registration ("fix (safe, remove)"), and leaves MCP101 on `_refresh`
# ("needs --unsafe-fixes"). This is an mcp 1.x server: it can only ever talk to legacy clients,
# for which the notification does fire. Driven with the mcp 1.27 client: before the fix, calling
# `where`, changing the client's roots (send_roots_list_changed), and calling again returns the
# new root; after the safe fix the second call still returns the old root.
# Shape: modelcontextprotocol/python-sdk PR #1043 (server-side roots-changed handler to refresh
# roots), staleness complaint in PrefectHQ/fastmcp#326.
#
# What it should do: when the handler's only effect is to invalidate state that a roots request in
# the same module fills, do not offer the removal as a separate safe fix: apply it together with
# the MCP101 fix (same safety as that fix), or report both as manual. The removal alone must not
# be applied on an SDK generation (mcp 1.x) that cannot serve 2026-07-28 at all.
from pathlib import Path

import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.types import ListRootsResult, Root

server = Server("shelf-indexer")
_cache: dict[str, list[str]] = {}


async def _refresh(root_paths: list[str]) -> list[str]:
    result = ListRootsResult(roots=[Root(uri=Path(p).as_uri()) for p in root_paths])
    _cache["roots"] = [str(r.uri) for r in result.roots]
    return _cache["roots"]


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="where",
            description="Show roots",
            inputSchema={
                "type": "object",
                "properties": {
                    "root_paths": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Absolute paths of the directories to work in (formerly the client's MCP roots).",
                    }
                },
                "required": ["root_paths"],
            },
        )
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    root_paths = arguments["root_paths"]
    roots = await _refresh(root_paths)
    return [types.TextContent(type="text", text=",".join(roots))]

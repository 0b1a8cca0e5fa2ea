# A roots request of an mcp 1.x tool, fixed with `fix --target-sdk mcp2 --strategy config`: the
# `config` fix has a safe dual-era form only on mcp 2.x (the request stays on legacy connections,
# `ctx.session.can_send_request`), and an unsafe config-only form on mcp 1.x code. With
# --unsafe-fixes the run used to apply the unsafe form to the 1.x code before the port ran, so the
# user who allowed unsafe fixes got the worse one; the fix now waits for the ported code.
"""Notes kept under the client's first root."""

import os
from pathlib import Path
from urllib.parse import unquote, urlparse

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_REQUEST, ListRootsResult, Root

notes = MCPServer("notes")


# The folders this server may work in come from its configuration, no longer from the
# client's roots (deprecated in MCP 2026-07-28): absolute paths joined with os.pathsep,
# read once at start; other entries are ignored. Unset, a call fails as it did for a
# client without roots.
NOTES_ROOTS = os.environ.get("NOTES_ROOTS")


def _configured_roots() -> ListRootsResult:
    """The roots the operator configured in NOTES_ROOTS, answered as the client did."""
    if NOTES_ROOTS is None:
        raise MCPError(
            INVALID_REQUEST,
            "NOTES_ROOTS is not set: set it to the folders this server may work in",
        )
    paths = [p for p in NOTES_ROOTS.split(os.pathsep) if os.path.isabs(p)]
    return ListRootsResult(roots=[Root(uri=Path(p).as_uri()) for p in paths])


@notes.tool()
async def read_note(name: str, ctx: Context) -> str:
    """The text of the note ``name`` in the first root the client shares."""
    result = (
        await ctx.session.list_roots()
        if ctx.session.can_send_request
        else _configured_roots()
    )
    base = Path(unquote(urlparse(str(result.roots[0].uri)).path))
    return (base / name).read_text(encoding="utf-8")

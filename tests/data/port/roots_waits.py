# A roots request of an mcp 1.x tool, fixed with `fix --target-sdk mcp2 --strategy config`: the
# `config` fix has a safe dual-era form only on mcp 2.x (the request stays on legacy connections,
# `ctx.session.can_send_request`), and an unsafe config-only form on mcp 1.x code. With
# --unsafe-fixes the run used to apply the unsafe form to the 1.x code before the port ran, so the
# user who allowed unsafe fixes got the worse one; the fix now waits for the ported code.
"""Notes kept under the client's first root."""

from pathlib import Path
from urllib.parse import unquote, urlparse

from mcp.server.fastmcp import Context, FastMCP

notes = FastMCP("notes")


@notes.tool()
async def read_note(name: str, ctx: Context) -> str:
    """The text of the note ``name`` in the first root the client shares."""
    result = await ctx.session.list_roots()
    base = Path(unquote(urlparse(str(result.roots[0].uri)).path))
    return (base / name).read_text(encoding="utf-8")

"""A desk server whose folders are pinned by the operator, else the client's roots, else a
configured folder; a capability check answers None for a client without roots (the shape of
anschnapp/djinnvim's `_client_roots` / `_ensure_roots`)."""

import os
from pathlib import Path

from mcp import types
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("desk")
PINNED = os.environ.get("DESK_ROOT")


async def _client_dirs(ctx: Context) -> list[Path] | None:
    caps = types.ClientCapabilities(roots=types.RootsCapability())
    if not ctx.session.check_client_capability(caps):
        return None
    result = await ctx.session.list_roots()
    return [Path(r.uri.path) for r in result.roots] or None


async def _dirs(ctx: Context) -> list[Path]:
    if PINNED is not None:
        return [Path(PINNED)]
    found = await _client_dirs(ctx)
    return found if found is not None else [Path(os.environ.get("DESK_FALLBACK", "."))]


@mcp.tool()
async def listing(ctx: Context) -> str:
    """The files in the desk's folders."""
    return ",".join(sorted(p.name for d in await _dirs(ctx) for p in d.iterdir()))

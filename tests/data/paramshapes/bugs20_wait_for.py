"""A photo lister that asks for the roots under a time limit and falls back to a configured folder
(field case bugs-20)."""

import asyncio
import os
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("photo-share")
LIMIT = float(os.environ.get("ROOTS_LIMIT", "5"))


async def _albums(ctx: Context) -> list[Path]:
    try:
        answer = await asyncio.wait_for(ctx.session.list_roots(), timeout=LIMIT)
        return [Path(r.uri.path) for r in answer.roots]
    except Exception:
        return [Path(os.environ.get("ALBUM_DIR", "/nonexistent"))]


@mcp.tool()
async def list_photos(ctx: Context) -> str:
    """The photos in the folders the client shared."""
    dirs = await _albums(ctx)
    return ",".join(sorted(p.name for d in dirs for p in d.glob("*.jpg")))

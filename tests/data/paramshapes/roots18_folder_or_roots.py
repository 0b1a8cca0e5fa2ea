"""A note search whose tool takes a folder and asks for the client's roots only when none is given,
through two helpers (field case roots-18)."""

from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

notes = FastMCP("note-search")


@notes.tool()
async def find_notes(word: str, folder: str | None = None, ctx: Context | None = None) -> list[str]:
    """Note files under `folder` (or the client's workspace) that mention `word`."""
    base = await _choose(folder, ctx)
    if base is None:
        return []
    return sorted(p.name for p in Path(base).glob("*.md") if word in p.read_text())


async def _choose(folder: str | None, ctx: Context | None) -> str | None:
    if folder and Path(folder).is_absolute():
        return folder
    found = await _workspace(ctx)
    return str(found[0]) if found else None


async def _workspace(ctx: Context | None) -> list[Path]:
    if ctx is None:
        return []
    try:
        listing = await ctx.session.list_roots()
    except Exception:
        return []
    return [Path(str(r.uri).removeprefix("file://")) for r in listing.roots]

"""pleibers/quick-context-mcp's shape (quick_search.py): the roots answer a call without
`directory`, and resolve a relative `directory` (through a local computed from it)."""

from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

notes = FastMCP("notes")


@notes.tool()
async def find_notes(word: str, directory: str | None = None, ctx: Context | None = None) -> list[str]:
    """Note files under `directory` (or the client's workspace) that contain `word`."""
    base = await _resolve(directory, ctx)
    if base is None:
        return []
    return sorted(p.name for p in Path(base).glob("*.md") if word in p.read_text())


async def _resolve(directory: str | None, ctx: Context | None) -> str | None:
    if directory is None:
        found = await _client_dirs(ctx)
        return str(found[0]) if found else None
    candidate = Path(directory).expanduser()
    if candidate.is_absolute():
        return str(candidate)
    found = await _client_dirs(ctx)
    return str(found[0] / candidate) if found else None


async def _client_dirs(ctx: Context | None) -> list[Path]:
    if ctx is None:
        return []
    try:
        listing = await ctx.session.list_roots()
    except Exception:
        return []
    return [Path(str(r.uri).removeprefix("file://")) for r in listing.roots]

"""A shelf reader whose allow-list is cached one call above the roots request, with a stale flag
a roots list_changed handler sets (field cases roots-19 and roots-20)."""

from pathlib import Path

from mcp import types
from mcp.server.fastmcp import Context, FastMCP

shelf = FastMCP("shelf")

_GRANTED: list[Path] | None = None
_dirty = False


async def _on_roots_changed(_note: types.RootsListChangedNotification) -> None:
    global _dirty
    _dirty = True


shelf._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed


async def _ask(ctx: Context) -> list[Path]:
    listing = await ctx.session.list_roots()
    return [Path(str(r.uri).removeprefix("file://")) for r in listing.roots]


async def _granted(ctx: Context) -> list[Path]:
    global _GRANTED, _dirty
    if _GRANTED is not None and not _dirty:
        return _GRANTED
    _GRANTED = await _ask(ctx)
    _dirty = False
    return _GRANTED


@shelf.tool()
async def read_note(path: str, ctx: Context) -> str:
    """Read a note, but only inside a directory the client granted."""
    target = Path(path).resolve()
    if not any(target.is_relative_to(g) for g in await _granted(ctx)):
        return "refused"
    return target.read_text()

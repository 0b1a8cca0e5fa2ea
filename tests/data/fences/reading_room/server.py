from pathlib import Path

from keeper import Keeper
from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ClientCapabilities, RootsCapability

library = FastMCP("library")
keeper = Keeper()


async def _granted(ctx: Context) -> list[Path]:
    if not ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
        return []  # a client without roots opens no shelf
    listing = await ctx.session.list_roots()
    return [Path(str(r.uri).removeprefix("file://")) for r in listing.roots]


async def _open_room(ctx: Context) -> None:
    """Ask once which shelves are open; the keeper checks every read against them."""
    if keeper.shelves is not None:
        return
    shelves = await _granted(ctx)
    keeper.shelves = shelves


def _timed(op, *args):
    return op(*args)


@library.tool()
async def read_book(path: str, ctx: Context) -> str:
    """Read a file, but only from a shelf the client granted."""
    await _open_room(ctx)
    return _timed(keeper.fetch, path)

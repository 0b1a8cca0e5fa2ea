import os
from pathlib import Path

from keeper import Keeper
from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import (
    INVALID_REQUEST,
    ClientCapabilities,
    ErrorData,
    ListRootsResult,
    Root,
    RootsCapability,
)

library = FastMCP("library")
keeper = Keeper()


# The folders this server may work in come from its configuration, no longer from the
# client's roots (deprecated in MCP 2026-07-28): absolute paths joined with os.pathsep,
# read once at start; other entries are ignored. Unset, a call fails as it did for a
# client without roots.
LIBRARY_ROOTS = os.environ.get("LIBRARY_ROOTS")


def _configured_roots() -> ListRootsResult:
    """The roots the operator configured in LIBRARY_ROOTS, answered as the client did."""
    if LIBRARY_ROOTS is None:
        raise McpError(
            ErrorData(
                code=INVALID_REQUEST,
                message="LIBRARY_ROOTS is not set: set it to the folders this server may work in",
            )
        )
    paths = [p for p in LIBRARY_ROOTS.split(os.pathsep) if os.path.isabs(p)]
    return ListRootsResult(roots=[Root(uri=Path(p).as_uri()) for p in paths])


async def _granted(ctx: Context) -> list[Path]:
    if not ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
        return []  # a client without roots opens no shelf
    listing = _configured_roots()
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

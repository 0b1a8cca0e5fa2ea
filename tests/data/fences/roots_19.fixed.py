# roots-19 — a roots list_changed handler whose flag/cache is read one call above the function
#   that makes the request is not seen as invalidating the roots cache: under `--no-legacy-clients` the
#   safe fix removes it alone
# NOW (mcpmigrate 2b744c9): default run: MCP103 at 35:1 kept for legacy clients (right). With
#   `--no-legacy-clients`, plain `fix` (safe) deletes `_mark_stale` and its registration while the roots
#   request (MCP101 at 39:21, unsafe) and the cached allow-list `_ALLOWED` stay. Measured on mcp 1.27
#   (the only era an mcp 1.x server has: every client is a handshake-era client): the client grants
#   {a, b}, the server reads b/x.txt; the user narrows the roots to {a} and the client
#   sends notifications/roots/list_changed; original -> "refused", fixed -> still reads b/x.txt.
#   With the request inlined in `_allowed` (flag and request in one function) the same handler is
#   recognised ("removed together with the roots request in `_allowed`, whose cache `_stale` it
#   invalidates"), as is field case roots-07.
# SHOULD: a handler that sets state read on the path to the roots request (here in `_allowed`, the
#   request's caller) counts as invalidating that cache: keep it with the request ("goes together
#   with the MCP101 fix, never alone"), as for roots-07. Also: `--no-legacy-clients` on a project pinned to
#   mcp 1.x deserves a warning — such a server has no other clients.
# Seen in: anschnapp/djinnvim@2b8e4ea7:src/djinnvim/server.py:76 (`_roots_stale = True`, read by
#   `_ensure_roots`; the roots are the edit sandbox).
import os
from pathlib import Path

from mcp import types
from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import INVALID_REQUEST, ErrorData, ListRootsResult, Root

library = FastMCP("library")

_ALLOWED: list[Path] | None = None
_stale = False


async def _mark_stale(_note: types.RootsListChangedNotification) -> None:
    global _stale
    _stale = True


library._mcp_server.notification_handlers[types.RootsListChangedNotification] = _mark_stale


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


async def _fetch(ctx: Context) -> list[Path]:
    listing = _configured_roots()
    return [Path(str(r.uri).removeprefix("file://")) for r in listing.roots]


async def _allowed(ctx: Context) -> list[Path]:
    global _ALLOWED, _stale
    if _ALLOWED is not None and not _stale:
        return _ALLOWED
    _ALLOWED = await _fetch(ctx)
    _stale = False
    return _ALLOWED


@library.tool()
async def read_book(path: str, ctx: Context) -> str:
    """Read a file, but only inside a directory the client granted."""
    target = Path(path).resolve()
    if not any(target.is_relative_to(a) for a in await _allowed(ctx)):
        return "refused"
    return target.read_text()

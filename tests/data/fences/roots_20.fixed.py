# roots-20 — the param fix keeps a roots cache that lives one call above the request
#   (memo + stale flag in the caller of the helper that asks): the new parameter is ignored after the
#   first call
# NOW (mcpmigrate 2b744c9): `fix --unsafe-fixes` (param) rewrites `_fetch(ctx)` -> `_fetch(roots)` and
#   `_allowed(ctx)` -> `_allowed(roots)` and adds a required `roots` to `read_book`, but keeps
#   `if _ALLOWED is not None and not _stale: return _ALLOWED`. Review note: "... the roots bound what the
#   tool may touch (an allow-list check in `read_book`) ..." (the boundary is named; the cache is not).
#   Measured on mcp 1.27: read_book(a/x.txt, roots=[a]) -> "in-a"; then read_book(b/x.txt, roots=[b]) ->
#   "refused" (the allow-list is still [a]). The memo inside the requesting function itself is dropped
#   now (field case roots-03 passes).
# SHOULD: follow the cached value one call up: drop the memo, the flag and the global with the request
#   (`_allowed(roots)` -> `return [Path(p) for p in roots]`), or make the fix manual naming the cache;
#   never keep a cache of the client's answer behind a parameter the caller sets per call.
# Seen in: anschnapp/djinnvim@2b8e4ea7:src/djinnvim/server.py:86/103 (`_ensure_roots` caches into
#   `session.roots` until `_roots_stale`; the request is in `_client_roots`), CoderDayton/semantic-cache-mcp@2050040:
#   src/semantic_cache_mcp/server/tools/__init__.py:116 (a second shape of the same kind: a boolean
#   `_client_root_resolved` memo around the request *inside* the requesting function is kept too — checked
#   with a 25-line variant; the `if _X is None:` memo of field case roots-03 is dropped).
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

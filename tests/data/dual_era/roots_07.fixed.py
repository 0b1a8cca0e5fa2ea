# roots-07 — MCP103 "safe" removal of a roots-changed handler that invalidates a roots-derived cache,
# applied on its own while the roots request it serves stays (MCP101 is unsafe/manual)
# NOW: MCP103 at 28:1, "fix (safe, remove): remove the handler registration"; plain `mcpmigrate fix`
#   deletes `_revoke` and its registration; MCP101 at 35:25 stays (unsafe). On mcp 1.x — the only
#   SDK this file runs on, and only legacy clients can reach it — the user narrows the granted folders
#   from {A, B} to {A}, the client sends roots/list_changed, and the fixed server keeps serving B
#   (mcp 1.27, proven: before "denied", after the file content). A security check got weaker.
# SHOULD: MCP103 at 28:1; when the handler invalidates state that a roots request in the same module
#   still fills (here `_GRANTED`), the removal is not "safe": tie it to the MCP101 fix (remove both
#   together) or report it unsafe/manual with that reason. Unconditional removal is only safe when
#   nothing the handler touches is read elsewhere.
# Seen in: anschnapp/djinnvim (sandbox re-read flag, proven regression), itstanner5216/multi-mcp
#   (retrieval roots cache; there the roots request itself is missed, see roots-10).
from pathlib import Path

from mcp.server.fastmcp import FastMCP
from pydantic import Field
from typing import Annotated

pantry = FastMCP("pantry-notes")
_GRANTED: list[Path] | None = None


@pantry.tool()
async def read_shelf(path: str, roots: Annotated[list[str], Field(description="Absolute paths of the directories to work in (formerly the client's MCP roots).")]) -> str:
    global _GRANTED
    if _GRANTED is None:
        _GRANTED = [Path(r) for r in roots]
    target = Path(path).resolve()
    if not any(target.is_relative_to(g) for g in _GRANTED):
        return "denied"
    return target.read_text()

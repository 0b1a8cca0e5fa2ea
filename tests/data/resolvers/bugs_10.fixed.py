# bugs-10: MCP207 says a gate "silently opens" on 2026-07-28 when the code right above catches
# NoBackChannelError and refuses; the refusal is exactly the fail-closed fix the rule asks for.
# Misleading security message. (The same tool also gets a wrong manual reason for MCP202.)
#
# What mcpmigrate does now: `check` reports
#   MCP207 at `except MCPError:` -- "On a 2026-07-28 connection the push always fails, so this
#   `except` silently opens the gate and `remove_layer` runs without the user's confirmation."
#   MCP202 manual -- "the `try` around the request also guards statements that do not use its
#   answer" (the try holds only the elicit call; cf. requests-07).
# Checked with the mcp 2.3.0 Client: on 2026-07-28 the call returns "refused: this connection
# cannot ask for confirmation" (NoBackChannelError is an MCPError subclass and is caught first),
# with or without LAYERS_SKIP_CONFIRM=1; the MCPError branch can only open for a *legacy* client
# without elicitation support, and only when the operator opted in. This is the shape
# nkarasiak/qgis-mcp PR #41 introduced to fix the fail-open; the tool tells that user the fix
# itself is the vulnerability.
#
# What it should do: when an earlier handler of the same try catches NoBackChannelError (or
# ToolError on fastmcp 4) and stops, do not claim 2026-07-28 fail-open; at most report the
# legacy-only opt-out as advisory, and offer the interim rewrite for the elicit itself.
import os
from typing import Annotated

from mcp.server.mcpserver import (
    AcceptedElicitation,
    Elicit,
    ElicitationResult,
    MCPServer,
    Resolve,
)
from pydantic import BaseModel

mcp = MCPServer("map-layers")
LAYERS = {"roads", "rivers"}
SKIP_IF_UNSUPPORTED = os.environ.get("LAYERS_SKIP_CONFIRM", "0") == "1"


class Confirm(BaseModel):
    ok: bool


def remove_layer_elicitation(name: str) -> Elicit[Confirm]:
    return Elicit(f"Remove layer {name}?", Confirm)


@mcp.tool()
async def remove_layer(
    name: str,
    answer: Annotated[ElicitationResult[Confirm], Resolve(remove_layer_elicitation)],
) -> str:
    """Remove a layer after confirmation."""
    if answer is not None and not (isinstance(answer, AcceptedElicitation) and answer.data.ok):
        return "kept"
    LAYERS.discard(name)
    return f"removed {name}"

# The shapes of mcp-use's own roots tools (field case requests-19): the roots listed with their
# names and counted (primitive_server.py `get_client_roots`), asked inside a `try` whose `except`
# answers the error while the context stays in use (examples/server/context_example.py), and the
# first root's path.
import json
from pathlib import Path
from typing import Annotated

from mcp.types import Root
from mcp_use.server import Context, MCPServer
from pydantic import Field

server = MCPServer(name="frames")


@server.tool()
async def listing(
    root_paths: Annotated[
        list[str],
        Field(
            description="Absolute paths of the directories to work in (formerly the client's MCP roots)."
        ),
    ],
) -> str:
    roots = [Root(uri=Path(p).as_uri()) for p in root_paths]
    if not roots:
        return json.dumps({"roots": [], "count": 0})
    return json.dumps({"roots": [{"uri": str(r.uri), "name": r.name} for r in roots], "count": len(roots)})


@server.tool()
async def described(
    context: Context,
    root_paths: Annotated[
        list[str] | None,
        Field(
            description="Absolute paths of the directories to work in (formerly the client's MCP roots). Optional: used only where the server has no other directory to work in."
        ),
    ] = None,
) -> str:
    try:
        if root_paths is None:
            raise ValueError("pass `root_paths`")
        roots = [Root(uri=Path(p).as_uri()) for p in root_paths]
        if not roots:
            return "none"
        lines = [f"{context.request_id is not None}: {len(roots)}"]
        for root in roots:
            lines.append(f"{root.name or '(unnamed)'}: {root.uri}")
        return "\n".join(lines)
    except Exception as e:
        return f"error: {e}"


@server.tool()
async def first_dir(
    root: Annotated[
        str,
        Field(
            description="Absolute path of the directory to work in (formerly the client's MCP root)."
        ),
    ],
) -> str:
    return root

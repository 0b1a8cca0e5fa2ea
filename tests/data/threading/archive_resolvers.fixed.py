from typing import Annotated

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel

app = MCPServer("archive")


class Ok(BaseModel):
    ok: bool


class Label(BaseModel):
    label: str


async def confirm(reply: ElicitationResult[Ok], what: str) -> bool:
    return reply.action == "accept" and reply.data.ok


async def pick_label(reply: ElicitationResult[Label], what: str) -> str:
    return reply.data.label if reply.action == "accept" else "unlabelled"


def archive_elicitation(name: str) -> Elicit[Ok]:
    return Elicit(f"Archive {name}?", Ok)


def archive_elicitation_2(name: str) -> Elicit[Label]:
    return Elicit(f"Label for {name}?", Label)


@app.tool()
async def archive(
    name: str,
    reply: Annotated[ElicitationResult[Ok], Resolve(archive_elicitation)],
    reply_2: Annotated[ElicitationResult[Label], Resolve(archive_elicitation_2)],
) -> str:
    ok = await confirm(reply, name)
    label = await pick_label(reply_2, name)
    if not ok:
        return "kept"
    return f"archived {name} as {label}"

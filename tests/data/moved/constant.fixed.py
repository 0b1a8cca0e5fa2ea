"""An mcp 2.x MCPServer tool whose schema class, defined in the tool, reads a module constant in a
`Field` default and a pydantic validator (written for this project)."""

from typing import Annotated

from pydantic import BaseModel, Field, field_validator

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve

mcp = MCPServer("search")
DEFAULT_LIMIT = 5
MAX_LIMIT = 50


class SearchPrefs(BaseModel):
    limit: int = Field(default=DEFAULT_LIMIT, description=f"At most {MAX_LIMIT}")
    exact: bool = False

    @field_validator("limit")
    @classmethod
    def cap(cls, value: int) -> int:
        return min(value, MAX_LIMIT)


def search_elicitation(query: str) -> Elicit[SearchPrefs]:
    return Elicit(f"How should I search for {query!r}?", SearchPrefs)


@mcp.tool()
async def search(
    query: str,
    answer: Annotated[ElicitationResult[SearchPrefs], Resolve(search_elicitation)],
) -> str:
    if answer.action != "accept":
        return f"{answer.action}: default {SearchPrefs().limit}"
    return f"{query}: limit {answer.data.limit}, exact {answer.data.exact}"

"""An mcp 2.x MCPServer tool whose schema class, defined in the tool, reads a module constant in a
`Field` default and a pydantic validator (written for this project)."""

from pydantic import BaseModel, Field, field_validator

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("search")
DEFAULT_LIMIT = 5
MAX_LIMIT = 50


@mcp.tool()
async def search(query: str, ctx: Context) -> str:
    class SearchPrefs(BaseModel):
        limit: int = Field(default=DEFAULT_LIMIT, description=f"At most {MAX_LIMIT}")
        exact: bool = False

        @field_validator("limit")
        @classmethod
        def cap(cls, value: int) -> int:
            return min(value, MAX_LIMIT)

    answer = await ctx.elicit(f"How should I search for {query!r}?", SearchPrefs)
    if answer.action != "accept":
        return f"{answer.action}: default {SearchPrefs().limit}"
    return f"{query}: limit {answer.data.limit}, exact {answer.data.exact}"

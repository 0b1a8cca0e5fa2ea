from fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("x")
EVENTS: list[str] = []


class Consent(BaseModel):
    ok: bool


@mcp.tool
async def consent(what: str, ctx: Context) -> str:
    try:
        label = what.upper()
        result = await ctx.elicit(message=f"Allow {label}?", response_type=Consent)
        EVENTS.append(label)
        return f"{label}: {result.action}"
    except Exception:
        return f"cannot confirm {what}"

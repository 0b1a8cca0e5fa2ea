"""An mcp 1.x FastMCP tool whose elicitation schema is a class of the tool body (the shape of
lastmile-ai/mcp-agent's examples/mcp/mcp_elicitation/demo_server.py; written for this project)."""

from mcp.server.elicitation import AcceptedElicitation, DeclinedElicitation
from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("tables")


@mcp.tool()
async def reserve(day: str, guests: int, ctx: Context) -> str:
    """Reserve a table once the caller confirms."""

    # The client renders this form: primitive fields only
    class ConfirmReservation(BaseModel):
        confirm: bool = Field(description="Confirm the reservation?")
        notes: str = Field(default="", description="Anything we should know")

    result = await ctx.elicit(message=f"Reserve for {guests} on {day}?", schema=ConfirmReservation)

    schema = sorted(ConfirmReservation.model_json_schema()["properties"])
    match result:
        case AcceptedElicitation(data=data):
            if data.confirm:
                return f"reserved ({data.notes or 'no notes'}) {schema}"
            return "not confirmed"
        case DeclinedElicitation():
            return "declined"
        case _:
            return "cancelled"

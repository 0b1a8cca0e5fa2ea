"""A fastmcp 4 shop whose handlers ask the client through ``get_context()`` (no ``Context`` parameter):
a resource template samples, a static resource and a tool elicit, a prompt that already takes the
context asks through ``get_context()`` all the same."""

from fastmcp import Context, FastMCP
from fastmcp.server.dependencies import get_context
from mcp_types import SamplingMessage, TextContent
from pydantic import BaseModel

shop = FastMCP("shop")


@shop.resource("menu://dish/{dish}")
async def describe(dish: str) -> str:
    # only fetches the context
    get_context()
    reply = await get_context().session.create_message(
        max_tokens=40,
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"Describe {dish}"))],
    )
    return reply.content.text


@shop.resource("menu://today")
async def today() -> str:
    class Spicy(BaseModel):
        hot: bool

    choice = await get_context().elicit("Spicy today?", Spicy)
    if choice.action == "accept":
        return f"today: {'vindaloo' if choice.data.hot else 'korma'}"
    return f"today: {choice.action}"


@shop.tool
async def order(dish: str, count: int = 1) -> str:
    answer = await get_context().elicit(f"Confirm {count} x {dish}?", bool)
    return f"{count} x {dish}: {answer.action}"


@shop.prompt
async def pairing(dish: str, ctx: Context) -> str:
    wine = await get_context().elicit(f"Wine with {dish}?", str)
    return f"{dish} with {wine.data if wine.action == 'accept' else 'water'} ({ctx.request_id is not None})"

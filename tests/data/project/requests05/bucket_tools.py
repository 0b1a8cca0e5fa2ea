# The tools module that calls the consent helper of consent.py (requests-05) with its typed
# Context; written for this test.
from mcp.server.fastmcp import Context, FastMCP

from consent import require_ack

buckets = FastMCP("buckets")


@buckets.tool()
async def delete_bucket(name: str, ctx: Context) -> str:
    await require_ack(f"Delete bucket {name}", ctx)
    return f"deleted {name}"

# telegram-mcp's `_serve` (runner.py) in one module: `mcp.settings.host`/`port` written, then the
# server started over Streamable HTTP or SSE in the branches of an `if` (stdio in the outer `else`).
# Each HTTP start takes the values on mcp 2.x, with 1.x's DNS-rebinding protection.
import asyncio
import os
import sys

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("trace-relay")


@mcp.tool()
def ping_back(text: str) -> str:
    return text[::-1]


async def serve(transport: str) -> None:
    if transport in ("http", "sse"):
        mcp.settings.host = os.getenv("TRACE_HOST", "127.0.0.1")
        mcp.settings.port = int(os.getenv("TRACE_PORT", "8765"))
        print("serving", transport, file=sys.stderr)
        if transport == "http":
            await mcp.run_streamable_http_async()
        else:
            await mcp.run_sse_async()
    else:
        await mcp.run_stdio_async()


if __name__ == "__main__":
    asyncio.run(serve(os.getenv("TRACE_TRANSPORT", "http")))

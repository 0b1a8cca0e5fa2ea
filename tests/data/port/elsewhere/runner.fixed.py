import asyncio
import os

from mcp.server.transport_security import TransportSecuritySettings

from app import *


def _configure_transport_security() -> TransportSecuritySettings | None:
    """Allow the hosts MCP_ALLOWED_HOSTS names (behind a proxy)."""
    raw_hosts = os.getenv("MCP_ALLOWED_HOSTS", "")
    allowed_hosts = [h.strip() for h in raw_hosts.split(",") if h.strip()]
    if not allowed_hosts:
        return

    from mcp.server.transport_security import TransportSecuritySettings

    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=allowed_hosts,
    )


async def _serve(transport: str) -> None:
    if transport in ("http", "sse"):
        transport_security = _configure_transport_security()
        if transport_security is None:
            transport_security = TransportSecuritySettings(
                enable_dns_rebinding_protection=True,
                allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
                allowed_origins=[
                    "http://127.0.0.1:*",
                    "http://localhost:*",
                    "http://[::1]:*",
                ],
            )
        if transport == "http":
            await mcp.run_streamable_http_async(
                host=os.getenv("MCP_HOST", "127.0.0.1"),
                port=int(os.getenv("MCP_PORT", "8765")),
                transport_security=transport_security,
                stateless_http=True,
            )
        else:
            await mcp.run_sse_async(
                host=os.getenv("MCP_HOST", "127.0.0.1"),
                port=int(os.getenv("MCP_PORT", "8765")),
                transport_security=transport_security,
            )
    else:
        await mcp.run_stdio_async()


if __name__ == "__main__":
    asyncio.run(_serve(os.getenv("MCP_TRANSPORT", "stdio")))

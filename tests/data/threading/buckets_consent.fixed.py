from typing import Any

from fastmcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
)


async def require_ack(
    reply: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation,
    summary: str,
) -> bool:
    return reply.action == "accept" and bool(reply.data)

import json
import logging

from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import (
    CancelledElicitation,
    DeclinedElicitation,
    handle_elicit_accept,
    parse_elicit_response_type,
)
from mcp.shared.exceptions import MCPError
from mcp_types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
)
from mcp_types.version import is_version_at_least

logger = logging.getLogger(__name__)

vault = FastMCP("vault")
STORED: dict[str, str] = {}


@vault.tool()
async def connect(service: str, ctx: Context) -> str | InputRequiredResult:
    if service in STORED:
        return f"{service}: stored key"
    reply_round = json.loads(ctx.request_state or "{}").get("reply", 1)
    while True:
        if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
            reply = (ctx.input_responses or {}).get(f"reply_{reply_round}")
            if not isinstance(reply, ElicitResult):
                declared = ctx.session.client_capabilities or ClientCapabilities()
                if declared.elicitation is None or (
                    declared.elicitation.form is None
                    and declared.elicitation.url is not None
                ):
                    raise MCPError(
                        MISSING_REQUIRED_CLIENT_CAPABILITY,
                        "Client did not declare the form elicitation capability required by input request 'reply'",
                        {"requiredCapabilities": {"elicitation": {"form": {}}}},
                    )
                return InputRequiredResult(
                    input_requests={
                        f"reply_{reply_round}": ElicitRequest(
                            params=ElicitRequestFormParams(
                                message=f"API key for {service}:",
                                requested_schema=parse_elicit_response_type(str).schema,
                            )
                        )
                    },
                    request_state=json.dumps({"reply": reply_round}),
                )
            reply_round += 1
            reply = (
                handle_elicit_accept(parse_elicit_response_type(str), reply.content)
                if reply.action == "accept"
                else DeclinedElicitation()
                if reply.action == "decline"
                else CancelledElicitation()
            )
        else:
            reply = await ctx.elicit(f"API key for {service}:", response_type=str)
        if reply.action == "accept":
            key = reply.data.strip()
            if key:
                STORED[service] = key
                return f"{service}: key ending {key[-2:]} stored"
        elif reply.action == "decline":
            raise ValueError("API key required")
        else:
            raise ValueError("cancelled")
        logger.info("Invalid API key. Enter a valid one.")

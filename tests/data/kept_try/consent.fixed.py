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
from pydantic import BaseModel

mcp = FastMCP("x")
EVENTS: list[str] = []


class Consent(BaseModel):
    ok: bool


@mcp.tool
async def consent(what: str, ctx: Context) -> str | InputRequiredResult:
    try:
        label = what.upper()
        if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
            result = (ctx.input_responses or {}).get("result")
            if not isinstance(result, ElicitResult):
                declared = ctx.session.client_capabilities or ClientCapabilities()
                if declared.elicitation is None or (
                    declared.elicitation.form is None
                    and declared.elicitation.url is not None
                ):
                    raise MCPError(
                        MISSING_REQUIRED_CLIENT_CAPABILITY,
                        "Client did not declare the form elicitation capability required by input request 'result'",
                        {"requiredCapabilities": {"elicitation": {"form": {}}}},
                    )
                return InputRequiredResult(
                    input_requests={
                        "result": ElicitRequest(
                            params=ElicitRequestFormParams(
                                message=f"Allow {label}?",
                                requested_schema=parse_elicit_response_type(
                                    Consent
                                ).schema,
                            )
                        )
                    }
                )
            result = (
                handle_elicit_accept(
                    parse_elicit_response_type(Consent), result.content
                )
                if result.action == "accept"
                else DeclinedElicitation()
                if result.action == "decline"
                else CancelledElicitation()
            )
        else:
            result = await ctx.elicit(message=f"Allow {label}?", response_type=Consent)
        EVENTS.append(label)
        return f"{label}: {result.action}"
    except Exception:
        return f"cannot confirm {what}"

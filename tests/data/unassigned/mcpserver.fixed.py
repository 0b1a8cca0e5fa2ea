from typing import Annotated

from mcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    render_elicitation_schema,
)
from mcp.server.mcpserver import Context, MCPServer, Resolve, Sample
from mcp.shared.exceptions import MCPError
from mcp.types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    SamplingMessage,
    TextContent,
)
from mcp.types.version import is_version_at_least
from pydantic import BaseModel

mcp = MCPServer("x")
SEEN: list[str] = []


class Seen(BaseModel):
    ok: bool


def warm_sampling(topic: str) -> Sample:
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=topic))],
        max_tokens=5,
    )


@mcp.tool()
async def warm(
    topic: str, sampled: Annotated[CreateMessageResult, Resolve(warm_sampling)]
) -> str:
    # ask the model once so the client shows a sampling prompt; the answer is not used
    return f"warmed {topic}"


@mcp.tool()
async def notify(what: str, ctx: Context) -> str | InputRequiredResult:
    try:
        label = what.upper()
        if is_version_at_least(ctx.protocol_version, "2026-07-28"):
            _elicited = (ctx.input_responses or {}).get("_elicited")
            if not isinstance(_elicited, ElicitResult):
                declared = ctx.session.client_capabilities or ClientCapabilities()
                if declared.elicitation is None or (
                    declared.elicitation.form is None
                    and declared.elicitation.url is not None
                ):
                    raise MCPError(
                        MISSING_REQUIRED_CLIENT_CAPABILITY,
                        "Client did not declare the form elicitation capability required by input request '_elicited'",
                        {"requiredCapabilities": {"elicitation": {"form": {}}}},
                    )
                return InputRequiredResult(
                    input_requests={
                        "_elicited": ElicitRequest(
                            params=ElicitRequestFormParams(
                                message=f"Seen {label}?",
                                requested_schema=render_elicitation_schema(Seen),
                            )
                        )
                    }
                )
            _elicited = (
                AcceptedElicitation(data=Seen.model_validate(_elicited.content))
                if _elicited.action == "accept"
                else DeclinedElicitation()
                if _elicited.action == "decline"
                else CancelledElicitation()
            )
        else:
            await ctx.elicit(message=f"Seen {label}?", schema=Seen)
        SEEN.append(label)
        return f"noted {label}"
    except Exception as e:
        return f"Error: {e}"

# requests-21: a consent helper whose context parameter is annotated `Any` is invisible, even
# when every caller is a tool of the same module passing its typed `ctx: Context`; and the
# fastmcp 4 port then declares the project clean although the helper's call fails on fastmcp 4.
#
# Setup: next to a pyproject.toml with [project].dependencies = ["fastmcp>=3.0.0"].
#
# What mcpmigrate does now (2b744c9): `check` -> 0 findings. Drop the `: Any` annotation and the
# same file gives MCP202 on the helper. `fix --target-sdk fastmcp4 --strategy interim
# --unsafe-fixes .` rewrites the pin to `fastmcp>=4.2,<5` and prints "All checks passed!" - no
# MCP202 and no MCP516 for `response_type=None`, which fastmcp 4 rejects. Ran with fastmcp 4.2.3
# + mcp 2.3.0 (legacy and 2026-07-28, accept/decline/no capability): every call of `snap_screen`
# now answers the tool error "ctx.elicit() requires a response_type ..." (on fastmcp 2.14.7 the
# original asked, and a decline gave "not captured (decline)"). The gate stays closed, but the tool
# is dead on both eras.
#
# What it should do: follow the helper's callers (as it does for unannotated and cross-module
# helpers): report MCP202 on `_ask_capture` ("made in the helper ... called from `snap_screen`"),
# and on the port MCP516 for `response_type=None`, blocking the port as it does for the same call
# made on a typed ctx. `Any` should mean "unknown", not "not an MCP context".
#
# Seen in: Stonefish-Labs/public-marketplace@0ab9e3d2:plugins/sys-macos-screenshot/mcp-servers/
# mcp-screenshot/server.py:34-43 (`_confirm_high_risk_capture(ctx: Any, ...)`, 4 capture tools).
# Related: field case requests-05 (untyped helper with callers in other modules; still fails).
from typing import Any

from fastmcp import Context, FastMCP
from fastmcp.server.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    ElicitConfig,
    handle_elicit_accept,
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

cam = FastMCP("camera")


async def _ask_capture(
    answer: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation,
    label: str,
) -> str | None:
    if answer.action == "accept":
        return None
    return f"{label}: not captured ({answer.action})"


@cam.tool()
async def snap_screen(
    ctx: Context, label: str = "Full screen"
) -> str | InputRequiredResult:
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        answer = (ctx.input_responses or {}).get("answer")
        if not isinstance(answer, ElicitResult):
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'answer'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
            return InputRequiredResult(
                input_requests={
                    "answer": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message=f"{label} may capture private windows. Go ahead?",
                            requested_schema={"type": "object", "properties": {}},
                        )
                    )
                }
            )
        answer = (
            handle_elicit_accept(
                ElicitConfig(
                    schema={"type": "object", "properties": {}},
                    response_type=None,
                    is_raw=False,
                ),
                answer.content,
            )
            if answer.action == "accept"
            else DeclinedElicitation()
            if answer.action == "decline"
            else CancelledElicitation()
        )
    else:
        answer = await ctx.session.elicit(
            message=f"{label} may capture private windows. Go ahead?",
            requested_schema={"type": "object", "properties": {}},
            related_request_id=ctx.request_id,
        )
        answer = (
            handle_elicit_accept(
                ElicitConfig(
                    schema={"type": "object", "properties": {}},
                    response_type=None,
                    is_raw=False,
                ),
                answer.content,
            )
            if answer.action == "accept"
            else DeclinedElicitation()
            if answer.action == "decline"
            else CancelledElicitation()
        )
    refused = await _ask_capture(answer, label)
    if refused:
        return refused
    return f"{label}: captured"

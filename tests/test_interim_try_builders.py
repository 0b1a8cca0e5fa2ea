"""``fix --strategy interim`` (issue 22): a ``try`` around a request that also holds the statements
that only build it (``Model = type(...)``, ``params = {...}`` read by the request's arguments) is
unwrapped with them; they stay before the request. With any other statement there the `try` stays and
the round is written inside it."""

from __future__ import annotations

from pathlib import Path

from tests.test_interim_threading import _check, _client_call, _fix, _interim_round, _project, _server

SOURCE = """from fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("x")


@mcp.tool
async def consent(what: str, ctx: Context) -> str:
    try:
        ConsentModel = type("ConsentModel", (BaseModel,), {"__annotations__": {"ok": bool}})
        result = await ctx.elicit(message=f"Allow {what}?", response_type=ConsentModel)
        return str(result.action)
    except Exception:
        return "no"
"""

FIXED = """from fastmcp import Context, FastMCP
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


@mcp.tool
async def consent(what: str, ctx: Context) -> str | InputRequiredResult:
    ConsentModel = type("ConsentModel", (BaseModel,), {"__annotations__": {"ok": bool}})
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
                            message=f"Allow {what}?",
                            requested_schema=parse_elicit_response_type(
                                ConsentModel
                            ).schema,
                        )
                    )
                }
            )
        result = (
            handle_elicit_accept(
                parse_elicit_response_type(ConsentModel), result.content
            )
            if result.action == "accept"
            else DeclinedElicitation()
            if result.action == "decline"
            else CancelledElicitation()
        )
    else:
        result = await ctx.elicit(message=f"Allow {what}?", response_type=ConsentModel)
    return str(result.action)
"""

ACCEPT = {"action": "accept", "content": {"ok": True}}


def test_a_statement_that_builds_the_request_is_unwrapped_with_it(tmp_path: Path) -> None:
    target = _project(tmp_path, SOURCE, ["fastmcp>=4"])
    [finding] = _check(target.parent)
    assert finding["fix"]["safety"] == "unsafe" and "runs before the request" not in finding["fix"]["description"]
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == FIXED
    asked, result = _interim_round(_server(target, "mcp"), "consent", {"what": "x"}, ACCEPT)
    assert asked["result"]["params"]["message"] == "Allow x?" and result == ["accept"]
    assert _client_call(_server(target, "mcp"), "legacy", "consent", {"what": "x"}, ACCEPT) == ["accept"]


def test_an_unrelated_call_in_the_try_keeps_the_try(tmp_path: Path) -> None:
    """The ``try`` cannot be unwrapped (``log_event()`` does not use the answer): the round is written
    inside it (tests/test_interim_fastmcp_kept_try.py), the builder stays where it was."""
    source = SOURCE.replace("        result = await", "        log_event()\n        result = await")
    source = source.replace('mcp = FastMCP("x")\n', 'mcp = FastMCP("x")\n\n\ndef log_event() -> None:\n    pass\n')
    target = _project(tmp_path, source, ["fastmcp>=4"])
    [finding] = _check(target.parent)
    assert finding["fix"]["safety"] == "unsafe"
    assert finding["fix"]["description"].endswith(
        "(review: `log_event()` runs before the request today — on 2026-07-28 the code before the request runs "
        "once per round)"
    )
    _fix(target.parent)
    fixed = target.read_text(encoding="utf-8")
    assert (
        '    try:\n        ConsentModel = type("ConsentModel", (BaseModel,), {"__annotations__": {"ok": bool}})\n'
        "        log_event()\n"
        '        if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):\n'
    ) in fixed, fixed
    assert fixed.endswith(
        "            result = await ctx.elicit(\n"
        '                message=f"Allow {what}?", response_type=ConsentModel\n'
        "            )\n"
        '        return str(result.action)\n    except Exception:\n        return "no"\n'
    ), fixed
    asked, result = _interim_round(_server(target, "mcp"), "consent", {"what": "x"}, ACCEPT)
    assert asked["result"]["params"]["message"] == "Allow x?" and result == ["accept"]
    assert _client_call(_server(target, "mcp"), "legacy", "consent", {"what": "x"}, ACCEPT) == ["accept"]
    assert _client_call(_server(target, "mcp"), "2026-07-28", "consent", {"what": "x"}, None) == ["no"]

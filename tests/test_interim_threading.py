"""Answer threading (issue 22, item 2): a request made in a helper — a function, a method, reached
through other helpers — is asked by each handler that reaches it (fastmcp 4 and mcp 2.x low-level:
the guard pattern with ``InputRequiredResult``), and the helper receives the answer as a parameter.

The field cases are copied unchanged from the shared field cases (requests-21: ``tests/data/hidden/``);
each fixed server is run in memory against the real SDK (mcp 2.3 ``Client``, fastmcp 4.2) in both
eras: on 2026-07-28 the first call returns the input request and the retry with ``inputResponses``
gets the tool's answer; on a legacy connection the fixed server answers as the original did.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.helpers import cli
from tests.proof import run_proof
from tests.test_interim_trust import ELICITATION_CHECK as TRUST_CHECK
from tests.test_interim_trust import _leaf, _load

DATA = Path(__file__).resolve().parent / "data" / "hidden"  # requests-21 (issue 25 copied it)
MODERN = "2026-07-28"


def _project(tmp_path: Path, source: str, deps: list[str], name: str = "server.py") -> Path:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    target = root / name
    target.write_text(source, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "x"\nversion = "0"\ndependencies = {json.dumps(deps)}\n', encoding="utf-8"
    )
    return target


def _check(directory: Path) -> list[dict[str, Any]]:
    res = cli(["check", "--no-cache", "--output-format", "json", "."], directory)
    assert res.exception is None and res.json["errors"] == [], str(res)
    return list(res.json["findings"])


def _fix(directory: Path) -> list[dict[str, Any]]:
    """``fix --strategy interim --unsafe-fixes``, twice: the second run changes nothing."""
    args = ["fix", "--no-cache", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", "."]
    res = cli(args, directory)
    assert res.exception is None and res.json["errors"] == [], str(res)
    files = {p: p.read_bytes() for p in directory.rglob("*.py")}
    again = cli(args, directory)
    assert again.exception is None
    assert {p: p.read_bytes() for p in directory.rglob("*.py")} == files, "a second fix changed a file"
    return list(res.json.get("fixed", []))


def _server(path: Path, attr: str) -> Any:
    server = getattr(_load(path), attr)
    return getattr(server, "_mcp_server", server)  # fastmcp 4: its SDK `Server`


def _texts(result: Any) -> Any:
    if getattr(result, "is_error", False):
        return ("error", [c.text for c in result.content])
    return [c.text for c in result.content]


def _client_call(server: Any, mode: str, tool: str, arguments: dict[str, Any], reply: dict[str, Any] | None) -> Any:
    """One call through the mcp 2.3 ``Client`` whose elicitation callback answers with ``reply``
    (``{"action": …, "content": …}``): the texts, ``("error", texts)`` for a tool error, or
    ``("raised", message)``."""
    import mcp
    from mcp import types

    async def elicit(context: Any, params: Any) -> Any:
        assert reply is not None
        return types.ElicitResult(**reply)

    async def run() -> Any:
        callbacks = {"elicitation_callback": elicit} if reply is not None else {}
        try:
            async with mcp.Client(server, mode=mode, **callbacks) as client:  # type: ignore[arg-type]
                return _texts(await client.call_tool(tool, arguments))
        except BaseException as exc:  # the client raises out of its task group
            return ("raised", str(_leaf(exc)))

    return anyio.run(run)


def _interim_round(
    server: Any, tool: str, arguments: dict[str, Any], reply: dict[str, Any]
) -> tuple[dict[str, Any], Any]:
    """On 2026-07-28, by hand: the first call returns the ``InputRequiredResult`` (its
    ``inputRequests`` as JSON), the retry with ``inputResponses`` at the same keys gets the result."""
    import mcp
    from mcp import types

    async def elicit(context: Any, params: Any) -> Any:  # declares the capability; never called here
        raise AssertionError("the round is driven by hand")

    async def run() -> tuple[dict[str, Any], Any]:
        async with mcp.Client(server, mode=MODERN, elicitation_callback=elicit) as client:  # type: ignore[arg-type]
            first = await client.session.call_tool(tool, arguments, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult), first
            asked = {
                k: v.model_dump(mode="json", by_alias=True, exclude_none=True) for k, v in first.input_requests.items()
            }
            answers = {k: types.ElicitResult(**reply) for k in first.input_requests}
            retry = await client.session.call_tool(
                tool, arguments, input_responses=answers, request_state=first.request_state, allow_input_required=True
            )
            assert not isinstance(retry, types.InputRequiredResult), retry
            return asked, _texts(retry)

    return anyio.run(run)


# ---------------------------------------------------------------------------------------------
# requests-21: a consent helper (`ctx: Any`) called by the capture tools, on fastmcp 4

#: What the port's MCP516 asks for on fastmcp 4 (`response_type=None` is rejected there), and a
#: second capture tool: the real server's helper guards four of them.
R21_FASTMCP4 = {"response_type=None": "response_type=bool"}
R21_SECOND_TOOL = """

@cam.tool()
async def snap_window(window: str, ctx: Context) -> str:
    if refused := await _ask_capture(ctx, f"Window {window}"):
        return refused
    return f"{window}: captured"
"""

ELICITATION_CHECK = TRUST_CHECK.replace("'reply'", "'answer'")


def _guard(message: str) -> str:
    return (
        """\
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        answer = (ctx.input_responses or {}).get("answer")
        if not isinstance(answer, ElicitResult):
"""
        + ELICITATION_CHECK
        + f"""\
            return InputRequiredResult(input_requests={{"answer": ElicitRequest(params=ElicitRequestFormParams(message={message}, requested_schema=parse_elicit_response_type(bool).schema))}})
        answer = (
            handle_elicit_accept(parse_elicit_response_type(bool), answer.content)
            if answer.action == "accept"
            else DeclinedElicitation() if answer.action == "decline" else CancelledElicitation()
        )
    else:
        answer = await ctx.elicit({message}, response_type=bool)
"""
    )


R21_FIXED = (
    """\
async def _ask_capture(answer: AcceptedElicitation[Any] | DeclinedElicitation | CancelledElicitation, label: str) -> str | None:
    if answer.action == "accept":
        return None
    return f"{label}: not captured ({answer.action})"


@cam.tool()
async def snap_screen(ctx: Context, label: str = "Full screen") -> str | InputRequiredResult:
"""
    + _guard('f"{label} may capture private windows. Go ahead?"')
    + """\
    refused = await _ask_capture(answer, label)
    if refused:
        return refused
    return f"{label}: captured"


@cam.tool()
async def snap_window(window: str, ctx: Context) -> str | InputRequiredResult:
"""
    + _guard("f\"{f'Window {window}'} may capture private windows. Go ahead?\"")
    + """\
    if refused := await _ask_capture(answer, f"Window {window}"):
        return refused
    return f"{window}: captured"
"""
)
R21_IMPORTS = (
    "from fastmcp.server.elicitation import AcceptedElicitation, CancelledElicitation, DeclinedElicitation, "
    "handle_elicit_accept, parse_elicit_response_type\n"
    "from mcp.shared.exceptions import MCPError\n"
    "from mcp_types import ClientCapabilities, ElicitRequest, ElicitRequestFormParams, ElicitResult, "
    "InputRequiredResult, MISSING_REQUIRED_CLIENT_CAPABILITY\n"
    "from mcp_types.version import is_version_at_least\n"
)
R21_LABEL = (
    "the request leaves the helper `_ask_capture`: on 2026-07-28 `snap_screen`, `snap_window` return "
    "`InputRequiredResult` with a `ElicitRequest` under key 'answer' and read the answer from `ctx.input_responses` "
    "on the retry (no requestState is written), on legacy connections they make the request themselves; "
    "`_ask_capture` take the answer as the parameter `answer` (a client that did not declare form elicitation gets "
    "error -32021 instead, as from the SDK's resolvers) (fastmcp 4's guard pattern: needs fastmcp>=4; "
)

ACCEPT = {"action": "accept", "content": {"value": True}}
DECLINE = {"action": "decline"}


def test_requests_21_original_declines_on_fastmcp3(tmp_path: Path, fastmcp3_python: str) -> None:
    """The field case as written (fastmcp 3, `response_type=None`) on its own SDK, legacy: a decline
    gives "not captured (decline)", the header's observation the fastmcp 4 form below keeps."""
    before = tmp_path / "before.py"
    before.write_bytes((DATA / "requests_21.py").read_bytes())
    calls = [{"tool": "snap_screen", "arguments": {}}]
    out = run_proof(fastmcp3_python, before, "cam", "legacy", [], calls, client={"elicitation": {"action": "decline"}})
    assert [c["text"] for c in out["calls"]] == [["Full screen: not captured (decline)"]]


def test_requests_21_helper_is_asked_by_each_tool(tmp_path: Path) -> None:
    source = (DATA / "requests_21.py").read_text(encoding="utf-8")
    for old, new in R21_FASTMCP4.items():
        source = source.replace(old, new)
    target = _project(tmp_path, source + R21_SECOND_TOOL, ["fastmcp>=4.2,<5"])
    before = tmp_path / "before.py"
    before.write_bytes(target.read_bytes())
    [finding] = _check(target.parent)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP202", 32, 20)
    assert finding["fix"]["safety"] == "safe"
    assert finding["fix"]["description"].startswith(R21_LABEL), finding["fix"]["description"]
    _fix(target.parent)
    text = target.read_text(encoding="utf-8")
    assert R21_FIXED in text
    assert R21_IMPORTS in text
    assert _check(target.parent) == []

    # Legacy: the fixed server answers as the original did, for both tools and both answers.
    for tool, args in (("snap_screen", {}), ("snap_window", {"window": "Mail"})):
        for reply in (ACCEPT, DECLINE):
            got = _client_call(_server(target, "cam"), "legacy", tool, args, reply)
            assert got == _client_call(_server(before, "cam"), "legacy", tool, args, reply)
    assert _client_call(_server(before, "cam"), "legacy", "snap_screen", {}, DECLINE) == [
        "Full screen: not captured (decline)"
    ]
    # 2026-07-28: the original cannot ask (fastmcp 4 refuses the push); the fixed tools ask in an
    # interim round, each with its own arguments, and the retry gets the answer.
    assert _client_call(_server(before, "cam"), MODERN, "snap_screen", {}, ACCEPT)[0] in ("error", "raised")
    asked, result = _interim_round(_server(target, "cam"), "snap_screen", {}, ACCEPT)
    assert asked == {
        "answer": {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Full screen may capture private windows. Go ahead?",
                "requestedSchema": asked["answer"]["params"]["requestedSchema"],
            },
        }
    }
    assert result == ["Full screen: captured"]
    asked, result = _interim_round(_server(target, "cam"), "snap_window", {"window": "Mail"}, DECLINE)
    assert asked["answer"]["params"]["message"] == "Window Mail may capture private windows. Go ahead?"
    assert result == ["Window Mail: not captured (decline)"]
    # The SDK client drives the round itself with its callback.
    assert _client_call(_server(target, "cam"), MODERN, "snap_window", {"window": "Mail"}, ACCEPT) == ["Mail: captured"]


@pytest.mark.parametrize("strategy", ["interim"])
def test_requests_21_as_written_stays_manual(tmp_path: Path, strategy: str) -> None:
    """fastmcp 4 rejects `response_type=None`: the field case as written has no interim form."""
    target = _project(tmp_path, (DATA / "requests_21.py").read_text(encoding="utf-8"), ["fastmcp>=4.2,<5"])
    [finding] = _check(target.parent)
    assert finding["fix"] is None
    assert "`ctx.elicit` without a response type" in finding["manual"]

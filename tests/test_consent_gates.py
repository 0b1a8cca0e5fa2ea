"""MCP207 names what runs without the user's confirmation: the tool, not the consent helper it
calls (through any number of helpers), or the function itself when nothing in the module calls
it (a tool registered by another module); and requests-16's fastmcp 4 resource gets fastmcp
advice, not mcp ``MCPServer``/``Resolve`` advice nor "cannot tell which SDK"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcpmigrate import pins
from tests.helpers import cli
from tests.proof import LEAVE, answer_of

DATA = Path(__file__).parent / "data" / "pins"
REQUESTS_16 = (DATA / "requests16_server.py").read_text(encoding="utf-8")
FASTMCP4 = '[project]\nname = "misc"\nversion = "1"\ndependencies = ["fastmcp>=4.2"]\n'
# evalstate/fast-agent@610a2f57's pins for its sampling resource server
FAST_AGENT = '[project]\nname = "fa"\nversion = "1"\ndependencies = ["fastmcp-slim[server]>=4.0.0b2", "mcp==2.0.0"]\n'


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    pins.clear_cache()


def _check(tmp_path: Path, server: str, pyproject: str = FASTMCP4) -> list[dict]:
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (tmp_path / "server.py").write_text(server, encoding="utf-8")
    res = cli(["check", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    return res.json["findings"]


def _gate_finding(findings: list[dict]) -> dict:
    [f] = [f for f in findings if f["rule"] == "MCP207"]
    return f


def _unconfirmed(message: str) -> str:
    return message.split("silently opens the gate and ", 1)[1].split(" without the user's confirmation")[0]


# -- MCP207: the tool that runs unconfirmed ------------------------------------------------------


def test_requests16_names_the_tool_that_calls_the_gate(tmp_path: Path) -> None:
    f = _gate_finding(_check(tmp_path, REQUESTS_16))
    assert (f["line"], f["column"]) == (40, 5)
    assert _unconfirmed(f["message"]) == "`erase_disk` (through `_gate`) runs"
    assert "`_gate` runs" not in f["message"]


HELPERS = """\
from fastmcp import Context, FastMCP

app = FastMCP("disks")


async def _gate(ctx: Context, text: str) -> bool:
    try:
        answer = await ctx.elicit(text, response_type=bool)
    except Exception:
        return True
    return answer.action == "accept" and bool(answer.data)


async def _confirm_destructive(ctx: Context, what: str) -> bool:
    return await _gate(ctx, f"Really {what}?")


async def _guarded(ctx: Context, what: str) -> bool:
    return await _confirm_destructive(ctx, what)


@app.tool
async def erase_disk(disk: str, ctx: Context) -> str:
    if not await _guarded(ctx, f"erase {disk}"):
        return "kept"
    return f"erased {disk}"


@app.tool
async def format_disk(disk: str, ctx: Context) -> str:
    if not await _confirm_destructive(ctx, f"format {disk}"):
        return "kept"
    return f"formatted {disk}"
"""


def test_the_tools_behind_several_helpers_are_named(tmp_path: Path) -> None:
    f = _gate_finding(_check(tmp_path, HELPERS))
    assert (f["line"], f["column"]) == (9, 5)
    assert _unconfirmed(f["message"]) == "`format_disk`, `erase_disk` (through `_gate`) run"


# apelogic-ai/db-mcp@6ff33d0: the tool function lives in tools/generation.py and server.py
# registers it (`server.tool(name="get_data")(_get_data)`); nothing in its own module calls it.
REGISTERED_ELSEWHERE = """\
from fastmcp import Context


async def _get_data(intent: str, ctx: Context) -> dict:
    approved = False
    try:
        answer = await ctx.elicit(f"Approve {intent}?", response_type=bool)
        if answer.action != "accept" or not answer.data:
            return {"status": "cancelled"}
        approved = True
    except Exception:
        approved = True  # elicitation not supported: auto-approve
    return {"status": "ran", "approved": approved}
"""


def test_a_function_registered_by_another_module_is_named_not_called_a_helper(tmp_path: Path) -> None:
    findings = _check(tmp_path, REGISTERED_ELSEWHERE)
    f = _gate_finding(findings)
    assert (f["line"], f["column"]) == (11, 5)
    assert _unconfirmed(f["message"]) == (
        "`_get_data` (no tool of this module calls it: it is registered or called elsewhere) runs"
    )
    assert f["manual"] == (
        "make the failure path stop (return or raise) instead of going on; `_get_data` is neither registered nor "
        "called in this project as far as the analysis follows (a decorator of the project's own, a table of "
        "tools?): the interim fix cannot tell whether it is the tool itself or a helper; move the question into "
        "the tool by hand"
    )
    [request] = [x for x in findings if x["rule"] == "MCP202"]
    assert request["manual"] == f["manual"].split("going on; ", 1)[1]  # the request's own finding says the same


def test_a_chain_that_leaves_the_module_names_its_last_function(tmp_path: Path) -> None:
    """``_gate`` is called by ``get_data``, which nothing here registers: that is what runs."""
    server = HELPERS.split("\n\n@app.tool")[0] + (
        "\n\nasync def get_data(what: str, ctx: Context) -> str:\n"
        "    if not await _guarded(ctx, what):\n        return 'kept'\n    return 'data'\n"
    )
    f = _gate_finding(_check(tmp_path, server))
    assert _unconfirmed(f["message"]) == "`get_data` (through `_gate`) runs"


# -- requests-16: the fastmcp 4 resource -----------------------------------------------------------


@pytest.mark.parametrize("pyproject", [FASTMCP4, FAST_AGENT], ids=["fastmcp>=4.2", "fast-agent"])
def test_requests16_resource_gets_fastmcp_advice(tmp_path: Path, pyproject: str) -> None:
    [f] = [f for f in _check(tmp_path, REQUESTS_16, pyproject) if f["rule"] == "MCP201"]
    assert (f["line"], f["column"]) == (31, 19)
    # fastmcp 4 lets a resource return an InputRequiredResult (fastmcp.resources.base.
    # InputRequiredResourceResult, FastMCP._on_read_resource) and injects a `Context` parameter into a
    # resource template, so the request through `get_context()` goes through that parameter, then the
    # guard pattern applies (tests/test_interim_fastmcp_get_context.py runs it)
    assert f["fix"] is not None and f["fix"]["safety"] == "safe", f
    assert "(fastmcp 4's guard pattern: needs fastmcp>=4" in f["fix"]["description"]
    assert f["fix"]["description"].endswith(
        " (`story` takes a `ctx: Context` parameter (fastmcp injects it and keeps it out of the URI parameters) and "
        "reads it in place of `get_context()`)"
    )
    for wrong in ("cannot tell which SDK", "MCPServer", "Resolve"):
        assert wrong not in f["fix"]["description"]


def test_requests16_resource_with_its_context_gets_the_guard_pattern(tmp_path: Path) -> None:
    server = REQUESTS_16.replace(
        "async def story(topic: str) -> str:", "async def story(topic: str, ctx: Context) -> str:"
    ).replace("await get_context().session.create_message", "await ctx.session.create_message")
    [f] = [f for f in _check(tmp_path, server) if f["rule"] == "MCP201"]
    assert f["fix"] is not None and f["fix"]["safety"] == "safe", f
    assert "`story` returns `InputRequiredResult`" in f["fix"]["description"]
    assert "fastmcp 4's guard pattern" in f["fix"]["description"]


DRIVE_RESOURCE = (
    LEAVE
    + """\
import json, sys
import anyio
import mcp
from mcp import types
import server


async def sampling(context, params):
    text = "once upon " + params.messages[0].content.text
    return types.CreateMessageResult(role="assistant", model="m", content=types.TextContent(type="text", text=text))


async def main(mode):
    async with mcp.Client(server.app._mcp_server, mode=mode, sampling_callback=sampling) as c:
        r = await c.read_resource("story://cats")
        print(json.dumps([c.protocol_version, [x.text for x in r.contents]]))


for mode in sys.argv[1:]:
    anyio.run(main, mode)
leave()
"""
)


def test_requests16_fixed_resource_reads_on_fastmcp4_in_both_eras(tmp_path: Path) -> None:
    """The guard pattern on a fastmcp 4 resource template, run on fastmcp 4 / mcp 2.x: on 2026-07-28
    the read returns an InputRequiredResult the SDK client answers with its sampling callback and
    retries; a legacy client is sampled as before. Both read the same text."""
    server = REQUESTS_16.replace(
        "async def story(topic: str) -> str:", "async def story(topic: str, ctx: Context) -> str:"
    ).replace("await get_context().session.create_message", "await ctx.session.create_message")
    _check(tmp_path, server, FASTMCP4 + '\n[tool.mcpmigrate]\nstrategy = "interim"\n')
    res = cli(["fix", "--select", "MCP201", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    fixed = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert (
        "            return InputRequiredResult(\n"
        "                input_requests={\n"
        '                    "reply": CreateMessageRequest(\n'
    ) in fixed
    (tmp_path / "drive.py").write_text(DRIVE_RESOURCE, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "drive.py", "2026-07-28", "legacy"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert [json.loads(line) for line in answer_of(proc, "drive.py").splitlines()] == [
        ["2026-07-28", ["once upon cats"]],
        ["2025-11-25", ["once upon cats"]],
    ]

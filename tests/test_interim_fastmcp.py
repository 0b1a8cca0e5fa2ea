"""``fix --strategy interim`` on fastmcp code: fastmcp 4 tools get the guard pattern
(fixtures/{elicitation,sampling}/fastmcp4_guard prove it runs); fastmcp 2.x/3.x code is refused with
a message naming the fastmcp 4 upgrade, and the file is left unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli

HEAD = "from dataclasses import dataclass\n\nfrom fastmcp import Context, FastMCP\n\n"

BOOK = """
@mcp.tool
async def book(flight: str, ctx: Context) -> str:
    seat = await ctx.elicit(f"Row on {flight}?", int)
    return str(seat.action)
"""

FASTMCP3 = {
    "sample elsewhere": (
        HEAD
        + 'mcp = FastMCP("x")\n'
        + BOOK
        + """

@mcp.tool
async def haiku(topic: str, ctx: Context) -> str:
    return (await ctx.sample(topic, max_tokens=40)).text
""",
        "`ctx.sample`, which fastmcp 4 removed",
    ),
    "sampling_handler": (
        HEAD + "async def llm(messages, params, context):\n    return 'x'\n\n\n"
        'mcp = FastMCP("x", sampling_handler=llm)\n' + BOOK,
        "`sampling_handler=`, which fastmcp 4 rejects",
    ),
    "list_roots elsewhere": (
        HEAD
        + 'mcp = FastMCP("x")\n'
        + BOOK
        + """

@mcp.tool
async def where(ctx: Context) -> str:
    return str(await ctx.list_roots())
""",
        "`ctx.list_roots`, which fastmcp 4 removed",
    ),
    "elicit without a response type": (
        HEAD + 'mcp = FastMCP("x")\n' + BOOK.replace(", int)", ")"),
        "`ctx.elicit` without a response type, which fastmcp 4 requires",
    ),
}


def _json(args: list[str], cwd: Path) -> dict:
    result = cli([*args, "--output-format", "json"], cwd)
    assert result.exception is None, str(result)
    return result.json


@pytest.mark.parametrize("name", sorted(FASTMCP3))
def test_fastmcp3_code_is_refused(name: str, tmp_path: Path) -> None:
    source, why = FASTMCP3[name]
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    report = _json(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"], tmp_path)
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == source
    elicit = [f for f in report["findings"] if f["rule"] == "MCP202"]
    assert len(elicit) == 1 and elicit[0]["fix"] is None
    manual = elicit[0]["manual"]
    assert why in manual and "Upgrade to fastmcp 4" in manual and "fix --strategy interim" in manual


def test_fastmcp4_elicit_is_fixed_safely(tmp_path: Path) -> None:
    source = HEAD + 'mcp = FastMCP("x")\n' + BOOK
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    report = _json(["check", "server.py"], tmp_path)
    [finding] = report["findings"]
    assert finding["rule"] == "MCP202" and finding["fix"]["safety"] == "safe"
    assert "ctx.input_responses" in finding["fix"]["description"]
    _json(["fix", "--strategy", "interim", "server.py"], tmp_path)
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert (
        'return InputRequiredResult(\n                input_requests={\n                    "seat": ElicitRequest('
        in after
    ), after
    assert "parse_elicit_response_type(int)" in after and "from mcp_types import" in after
    assert _json(["check", "server.py"], tmp_path)["findings"] == []


def test_fastmcp4_side_effect_before_the_request_is_unsafe(tmp_path: Path) -> None:
    source = HEAD + 'mcp = FastMCP("x")\nLOG = []\n' + BOOK.replace("    seat =", "    LOG.append(flight)\n    seat =")
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    [finding] = _json(["check", "server.py"], tmp_path)["findings"]
    assert finding["fix"]["safety"] == "unsafe" and "once per round" in finding["fix"]["description"]


@pytest.mark.parametrize("task", ["task=True", 'task=TaskConfig(mode="optional")'])
def test_fastmcp4_background_task_tool_is_manual(task: str, tmp_path: Path) -> None:
    """fastmcp 4 runs a ``task=…`` tool in a background worker, where ``ctx.request_context`` is
    None (the fix's era check would raise) and ``ctx.elicit`` raises ToolError in both eras: the
    guard pattern has to be written by hand, without the era check."""
    source = HEAD + 'mcp = FastMCP("x")\n' + BOOK.replace("@mcp.tool\n", f"@mcp.tool({task})\n")
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    report = _json(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"], tmp_path)
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == source
    [finding] = report["findings"]
    assert finding["fix"] is None
    assert finding["manual"].startswith(
        f"`book` is a background task tool (`{task}`): there `ctx.request_context` is None"
    )
    plain = source.replace(f"@mcp.tool({task})\n", "@mcp.tool(task=False)\n")
    (tmp_path / "server.py").write_text(plain, encoding="utf-8")
    assert _json(["check", "server.py"], tmp_path)["findings"][0]["fix"]["safety"] == "safe"

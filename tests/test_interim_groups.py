"""Several requests in one low-level handler: each retry carries only the answers to the
latest ``inputRequests``, so the interim fix asks them in one ``InputRequiredResult`` where their
inputs allow it (fixtures/sampling/mcp2_lowlevel_two_requests and elicitation/fastmcp4_guard prove it
runs), and says why where they don't."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

HEAD = """from mcp.server import Server, ServerRequestContext
from mcp.types import CallToolRequestParams, CallToolResult, SamplingMessage, TextContent

SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
    name = (params.arguments or {})["name"]
"""
TAIL = """    return CallToolResult(content=[TextContent(type="text", text=str(first.action))])


server = Server("x", on_call_tool=call_tool)
"""
SAMPLE = 'SamplingMessage(role="user", content=TextContent(type="text", text={text}))'


def _check(tmp_path: Path, body: str) -> list[dict]:
    (tmp_path / "server.py").write_text(HEAD + body + TAIL, encoding="utf-8")
    result = cli(["check", "server.py", "--output-format", "json"], tmp_path)
    assert result.exception is None, str(result)
    findings = result.json["findings"]
    assert sorted(f["rule"] for f in findings) == ["MCP201", "MCP202"], findings
    return findings


def test_independent_requests_are_one_safe_group(tmp_path: Path) -> None:
    body = (
        '    first = await ctx.session.elicit_form(f"Go {name}?", SCHEMA)\n'
        f"    second = await ctx.session.create_message([{SAMPLE.format(text='name')}], max_tokens=5)\n"
    )
    for f in _check(tmp_path, body):
        assert f["fix"]["safety"] == "safe" and "one `InputRequiredResult` with all 2" in f["fix"]["description"]
    result = cli(["fix", "--strategy", "interim", "server.py"], tmp_path)
    assert result.exception is None, str(result)
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert after.count("return InputRequiredResult(") == 1 and '"first": ElicitRequest(' in after
    assert '"second": CreateMessageRequest(' in after
    compile(after, "server.py", "exec")


def test_a_request_built_from_an_earlier_answer_is_manual(tmp_path: Path) -> None:
    body = (
        '    first = await ctx.session.elicit_form(f"Go {name}?", SCHEMA)\n'
        "    topic = str(first.content)\n"
        f"    second = await ctx.session.create_message([{SAMPLE.format(text='topic')}], max_tokens=5)\n"
    )
    for f in _check(tmp_path, body):
        assert f["fix"] is None
        assert "is built from `topic`, which is set after the first request" in f["manual"]


def test_a_return_between_the_requests_makes_the_group_unsafe(tmp_path: Path) -> None:
    body = (
        '    first = await ctx.session.elicit_form(f"Go {name}?", SCHEMA)\n'
        '    if first.action != "accept":\n'
        '        return CallToolResult(content=[TextContent(type="text", text="no")])\n'
        f"    second = await ctx.session.create_message([{SAMPLE.format(text='name')}], max_tokens=5)\n"
    )
    for f in _check(tmp_path, body):
        assert f["fix"]["safety"] == "unsafe"
        assert "can end the call between the requests today" in f["fix"]["description"]
    cli(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"], tmp_path)
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert after.count("return InputRequiredResult(") == 1
    assert 'if not is_version_at_least(ctx.protocol_version, "2026-07-28"):\n        second = await' in after


def test_requests_on_different_paths_are_manual(tmp_path: Path) -> None:
    body = (
        '    first = await ctx.session.elicit_form(f"Go {name}?", SCHEMA)\n'
        "    if name:\n"
        f"        second = await ctx.session.create_message([{SAMPLE.format(text='name')}], max_tokens=5)\n"
    )
    for f in _check(tmp_path, body):
        assert f["fix"] is None and "not in one block" in f["manual"]

"""MCP401 on a fastmcp ``Context`` (fmproof finding F3, awslabs aws-api's ``await ctx.error(...)``):
fastmcp 2, 3 and 4 send ``ctx.<level>(...)`` to the client as a request-scoped
``notifications/message`` and keep doing so on both eras (``fastmcp/server/context.py``
``Context.log``; fastmcp 4's "Upgrading from FastMCP 3" guide, "SDK Deprecation Warnings"). The
rewrite to the standard library stops that, so it is unsafe with a review note saying so — proven
here by serving the same server on fastmcp 3.4 (legacy) and fastmcp 4.2 (both eras) before and after
``fix --unsafe-fixes``. The mcp SDK's own ``Context`` keeps its safe label (mcp 2.x deprecates the
call, ``MCPDeprecationWarning``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import FIXTURES, cli
from tests.proof import LEAVE, PROCESS_TIMEOUT_S, json_answer
from tests.test_proof_catalog import observe

SERVER = """from fastmcp import Context, FastMCP
from fastmcp.server.dependencies import get_context

mcp = FastMCP("search")


async def suggest(query: str) -> list[str]:
    ctx = get_context()
    await ctx.warning(f"no suggestions for {query}")
    return []


@mcp.tool
async def check(q: str, ctx: Context) -> str:
    if not q.strip():
        await ctx.error("Empty query provided")
        raise ValueError("Empty query provided")
    return f"{q}: {await suggest(q)}"
"""
FIXED = (
    SERVER.replace(
        "from fastmcp.server.dependencies import get_context\n",
        "from fastmcp.server.dependencies import get_context\n\nlogger = logging.getLogger(__name__)\n",
    )
    .replace("from fastmcp import Context", "import logging\n\nfrom fastmcp import Context")
    .replace(
        '    await ctx.warning(f"no suggestions for {query}")', '    logger.warning("no suggestions for %s", query)'
    )
    .replace('        await ctx.error("Empty query provided")', '        logger.error("Empty query provided")')
)
CALLS = [{"tool": "check", "arguments": {"q": " "}}, {"tool": "check", "arguments": {"q": "boto"}}]
SENT = [("error", "Empty query provided"), ("warning", "no suggestions for boto")]


def delivers(call: str) -> str:
    return (
        f"fastmcp (2, 3 and 4) still delivers `{call}(…)` to clients: a legacy client receives it (fastmcp 3 and 4 "
        "hold back levels below one the client set with `logging/setLevel`), a 2026-07-28 client when the request "
        'opts in with `_meta["io.modelcontextprotocol/logLevel"]` (fastmcp\'s own `Client` always does); after the '
        "rewrite clients stop receiving this message, which then goes to the server's own logging only"
    )


def _labels(tmp_path: Path) -> list[tuple]:
    res = cli(["check", "--output-format", "json", "server.py"], tmp_path)
    return [
        (f["rule"], f["line"], f["column"], f["fix"]["safety"], f["fix"]["description"]) for f in res.json["findings"]
    ]


def test_a_fastmcp_context_log_call_gets_an_unsafe_fix_saying_clients_stop_receiving_it(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(SERVER, encoding="utf-8")
    assert _labels(tmp_path) == [
        (
            "MCP401",
            9,
            11,
            "unsafe",
            'log with the standard library: `logger.warning("no suggestions for %s", query)` '
            f"(review: {delivers('ctx.warning')})",
        ),
        (
            "MCP401",
            16,
            15,
            "unsafe",
            f'log with the standard library: `logger.error("Empty query provided")` (review: {delivers("ctx.error")})',
        ),
    ]
    cli(["fix", "server.py"], tmp_path)  # safe fixes only: nothing to apply
    assert server.read_text() == SERVER
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    assert server.read_text() == FIXED


def test_the_mcp_sdk_context_keeps_its_safe_label(tmp_path: Path) -> None:
    """mcp 1.x ``FastMCP``'s (and mcp 2.x ``MCPServer``'s) ``Context`` is not fastmcp's: no note."""
    (tmp_path / "server.py").write_text(
        SERVER.replace("from fastmcp import Context, FastMCP", "from mcp.server.fastmcp import Context, FastMCP")
        .replace("from fastmcp.server.dependencies import get_context\n", "")
        .replace("    ctx = get_context()\n", "    ctx: Context = mcp.get_context()\n")
        .replace("@mcp.tool\n", "@mcp.tool()\n"),
        encoding="utf-8",
    )
    assert [(line, safety) for _r, line, _c, safety, _d in _labels(tmp_path)] == [(8, "safe"), (15, "safe")]


def test_fastmcp3_delivers_the_messages_before_the_fix_and_not_after(tmp_path: Path, fastmcp3_python: str) -> None:
    """fastmcp 3.4 (mcp 1.x, legacy only): the client receives both messages; after the fix it
    receives none, the results are the same and the server's logging has both records."""
    server = tmp_path / "server.py"
    server.write_text(SERVER, encoding="utf-8")
    before, _ = observe(fastmcp3_python, server, "mcp", "legacy", CALLS)
    assert [(m["level"], m["data"]["msg"]) for m in before["client_logs"]] == SENT
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    after, stderr = observe(fastmcp3_python, server, "mcp", "legacy", CALLS)
    assert after["calls"] == before["calls"]
    assert before["calls"][0]["is_error"] and before["calls"][1]["text"] == ["boto: []"]
    assert after["client_logs"] == []
    assert [(r["level"], r["message"]) for r in after["records"]] == [(lv.upper(), msg) for lv, msg in SENT]
    assert any(line.startswith("ERROR:") and line.endswith(":Empty query provided") for line in stderr.splitlines())


# fastmcp 4's own client (mcp 2.x's Client does not take a fastmcp server): call the tools on one
# era and print the results and the notifications/message the client received.
DRIVE_FASTMCP4 = (
    LEAVE
    + r"""
import asyncio, importlib.util, json, sys, warnings
warnings.simplefilter("ignore")
spec = importlib.util.spec_from_file_location("server", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from fastmcp import Client


async def main():
    logs, calls = [], []

    async def on_log(message):
        logs.append([message.level, message.data["msg"]])

    async with Client(module.mcp, mode=sys.argv[2], log_handler=on_log) as client:
        for call in json.loads(sys.argv[3]):
            result = await client.call_tool_mcp(call["tool"], call["arguments"])
            calls.append([result.is_error, [c.text for c in result.content]])
        await asyncio.sleep(0.2)
        print(json.dumps({"protocol_version": client.protocol_version, "calls": calls, "logs": logs}))


asyncio.run(main())
leave()
"""
)


def _fastmcp4(tmp_path: Path, mode: str) -> dict:
    (tmp_path / "drive.py").write_text(DRIVE_FASTMCP4, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "drive.py", "server.py", mode, json.dumps(CALLS)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT_S,
    )
    return json_answer(proc, f"drive.py ({mode})", last_line=True)


def test_fastmcp4_delivers_the_messages_on_both_eras_before_the_fix_and_not_after(tmp_path: Path) -> None:
    """fastmcp 4.2 (mcp 2.x): a legacy client and a 2026-07-28 client (fastmcp's ``Client`` opts in
    to logging on every request) both receive the messages; after the fix neither does."""
    server = tmp_path / "server.py"
    server.write_text(SERVER, encoding="utf-8")
    before = {mode: _fastmcp4(tmp_path, mode) for mode in ("legacy", "2026-07-28")}
    assert [before[m]["protocol_version"] for m in before] == ["2025-11-25", "2026-07-28"]
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    for mode, answer in before.items():
        assert answer["logs"] == [list(s) for s in SENT], mode
        assert answer["calls"] == [[True, ["Error calling tool 'check': Empty query provided"]], [False, ["boto: []"]]]
        after = _fastmcp4(tmp_path, mode)
        assert after["calls"] == answer["calls"], mode
        assert after["logs"] == [], mode


def test_every_fastmcp_spelling_gets_the_note(tmp_path: Path) -> None:
    """fixtures/logging/fastmcp2_logging: ``get_context().warning(..., logger_name=)`` in a helper,
    ``ctx.log(message, level=)``, ``ctx.info(..., extra=)``: each unsafe with the note first."""
    (tmp_path / "server.py").write_text(
        (FIXTURES / "logging" / "fastmcp2_logging" / "before.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    labels = _labels(tmp_path)
    assert [(line, safety) for _r, line, _c, safety, _d in labels] == [(12, "unsafe"), (18, "unsafe"), (19, "unsafe")]
    for (_r, _l, _c, _s, description), call in zip(labels, ("ctx.warning", "ctx.log", "ctx.info"), strict=True):
        assert f"(review: {delivers(call)}" in description

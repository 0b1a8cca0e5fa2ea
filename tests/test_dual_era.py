"""Field cases of the fix-trust issue: a removal never turns into a hang (bugs-07), and removing what
only legacy clients use is not a fix while the project serves them (requests-13, notify-02,
notify-03, notify-07, roots-07, bugs-04). Each case's right value, exactly: rule, line, severity,
fix or manual gist, and the rewritten code where a fix applies."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

# bugs-07: a keep-alive whose only exit is the ping failing.
KEEPALIVE = '''\
import anyio
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("exporter")


async def _beat_direct(session, every: float) -> None:
    while True:
        await anyio.sleep(every)
        try:
            await session.send_ping()
        except Exception:
            return


async def _beat_bare(session, every: float) -> None:
    while True:
        await anyio.sleep(every)
        await session.send_ping()


async def _beat_swallowed(session, every: float) -> None:
    while True:
        await anyio.sleep(every)
        try:
            await session.send_ping()
        except Exception:
            pass


async def _beat_until(session, every: float, stop: anyio.Event) -> None:
    while True:
        if stop.is_set():
            break
        await anyio.sleep(every)
        await session.send_ping()


@mcp.tool()
async def watch(ctx: Context) -> str:
    """Block until the client goes away."""
    await _beat_direct(ctx.session, 0.01)
    await _beat_bare(ctx.session, 0.01)
    await _beat_swallowed(ctx.session, 0.01)
    await _beat_until(ctx.session, 0.01, anyio.Event())
    return "client gone"
'''

LOOP_EXIT = ("the ping is the only way out of a `while True` loop (through {how}: on 2026-07-28 it fails "
             "at once, on a legacy connection when the peer goes away); deleting it alone leaves a loop that "
             "never ends. Remove the keep-alive loop (and what waits for it) by hand")


def _run(tmp_path: Path, source: str, *args: str, name: str = "server.py") -> tuple[dict, str]:
    target = tmp_path / name
    target.write_text(source, encoding="utf-8")
    res = cli([*args, "--output-format", "json", name], tmp_path)
    assert res.exception is None, str(res)
    return res.json, target.read_text(encoding="utf-8")


def _rows(findings: list[dict]) -> list[tuple]:
    return [(f["rule"], f["line"], f["severity"],
             (f["fix"]["safety"], f["fix"]["description"]) if f["fix"] else None, f["manual"]) for f in findings]


def test_bugs07_a_ping_that_ends_a_keepalive_loop_is_manual(tmp_path: Path) -> None:
    out, _ = _run(tmp_path, KEEPALIVE, "check")
    assert _rows(out["findings"]) == [
        ("MCP203", 11, "breaking", None, LOOP_EXIT.format(how="its `except` handler's exit")),
        ("MCP203", 19, "breaking", None, LOOP_EXIT.format(how="the exception it raises")),
        ("MCP203", 26, "breaking", ("safe", "delete the ping"), None),
        ("MCP203", 36, "breaking", ("safe", "delete the ping"), None),
    ]


def test_bugs07_fix_deletes_only_the_pings_that_are_not_the_loop_exit(tmp_path: Path) -> None:
    out, fixed = _run(tmp_path, KEEPALIVE, "fix", "--unsafe-fixes")
    assert out["errors"] == []
    assert fixed == KEEPALIVE.replace('''        try:
            await session.send_ping()
        except Exception:
            pass
''', '''        try:
            pass
        except Exception:
            pass
''').replace('''        await anyio.sleep(every)
        await session.send_ping()


@mcp.tool()''', '''        await anyio.sleep(every)


@mcp.tool()''')
    assert "try:\n            await session.send_ping()\n        except Exception:\n            return" in fixed

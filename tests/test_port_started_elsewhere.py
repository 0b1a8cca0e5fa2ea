"""MCP503 on a server built with transport settings in one module and started in another (issue
22 item 1, telegram-mcp: ``mcp = FastMCP("telegram", stateless_http=True)`` in runtime.py, started
by runner.py after ``from telegram_mcp.runtime import *``, which also writes
``mcp.settings.host``/``port``/``transport_security`` — fields mcp 2.x's ``Settings`` does not
have). The port cannot move the settings there, so the finding stays manual; its reason names the
module, the start calls and the settings writes, and the port writes nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli

PYPROJECT = '[project]\nname = "relay"\nversion = "0"\ndependencies = ["mcp==1.27.0"]\n'
APP = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("relay", stateless_http=True)\n'
RUNNER = """import asyncio
import os

from app import *


def _security() -> None:
    mcp.settings.transport_security = None


async def _serve(transport: str) -> None:
    if transport == "http":
        mcp.settings.port = int(os.getenv("PORT", "8765"))
        _security()
        await mcp.run_streamable_http_async()
    else:
        await mcp.run_stdio_async()


if __name__ == "__main__":
    asyncio.run(_serve(os.getenv("TRANSPORT", "stdio")))
"""
SECTION = (
    "(read “Transport-specific parameters moved from MCPServer constructor to run()/app methods” in the "
    "python-sdk migration guide (docs/migration.md))"
)
STARTS = (
    "`mcp` is not started in this module but in runner.py: `mcp.run_streamable_http_async()` in `_serve` (line 15), "
    "`mcp.run_stdio_async()` in `_serve` (line 17)"
)


def _project(where: Path, runner: str) -> Path:
    where.mkdir()
    (where / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (where / "app.py").write_text(APP, encoding="utf-8")
    (where / "runner.py").write_text(runner, encoding="utf-8")
    return where


@pytest.mark.parametrize(
    ("runner", "reason"),
    [
        (
            RUNNER,
            f"{STARTS}, which also set `mcp.settings.transport_security` in `_security` (line 8), `mcp.settings.port` "
            "in `_serve` (line 13): mcp 2.x's `Settings` has no such field (assigning one raises `ValueError`); pass "
            f"those values and `stateless_http=` to the start calls there by hand {SECTION}",
        ),
        (
            RUNNER.replace(
                '        mcp.settings.port = int(os.getenv("PORT", "8765"))\n        _security()\n', ""
            ).replace("def _security() -> None:\n    mcp.settings.transport_security = None\n\n\n", ""),
            f"{STARTS.replace('line 15', 'line 9').replace('line 17', 'line 11')}: pass `stateless_http=` to the start "
            f"calls there by hand {SECTION}",
        ),
        (
            RUNNER.replace('mcp.settings.port = int(os.getenv("PORT", "8765"))', 'mcp.settings.host = "0.0.0.0"'),
            f"{STARTS}, which also set `mcp.settings.transport_security` in `_security` (line 8), `mcp.settings.host` "
            "in `_serve` (line 13): mcp 2.x's `Settings` has no such field (assigning one raises `ValueError`); pass "
            "those values and `stateless_http=` to the start calls there by hand, and keep the DNS-rebinding "
            "protection: mcp 1.x's constructor fixed it for its own host (127.0.0.1 unless given) whatever "
            "`settings.host` became, while mcp 2.x's start derives it from `host=` (none for 0.0.0.0), so pass "
            f"`transport_security=` with `host=` {SECTION}",
        ),
    ],
    ids=["settings-written-there", "started-there", "host-written-there"],
)
def test_a_server_started_in_another_module_names_where_and_writes_nothing(
    tmp_path: Path, runner: str, reason: str
) -> None:
    where = _project(tmp_path / "p", runner)
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    found = [(f["path"], f["line"], f["column"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP503"]
    assert found == [("app.py", 3, 7, reason)]
    fixed = cli(["fix", "--target-sdk", "mcp2", "."], where)
    assert fixed.exit_code != 0
    assert (where / "app.py").read_text(encoding="utf-8") == APP
    assert (where / "runner.py").read_text(encoding="utf-8") == runner

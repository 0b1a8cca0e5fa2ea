"""MCP503 on a server built with transport settings in one module and started in another (issue
22 item 1, telegram-mcp: ``mcp = FastMCP("telegram", stateless_http=True)`` in runtime.py, started
by runner.py after ``from telegram_mcp.runtime import *``, which also writes
``mcp.settings.host``/``port``/``transport_security`` — fields mcp 2.x's ``Settings`` does not
have). Where the starting module is the shape :mod:`mcpmigrate.codemods.port.elsewhere` writes, the
port moves the settings to its starts, in both modules or neither (exactly to
``data/port/elsewhere/*.fixed.py``), and the port on mcp 2.3 serves HTTP like the original on mcp 1.27:
the same DNS-rebinding answers (421 for a foreign Host header when bound to 127.0.0.1 or 0.0.0.0,
``MCP_ALLOWED_HOSTS`` honoured), stateless (no session id), the same tool answers in both eras.
Otherwise the finding stays manual; its reason names the module, the start calls and the settings
writes, and the port writes nothing.
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
            RUNNER.replace('mcp.settings.port = int(os.getenv("PORT", "8765"))', 'mcp.settings.host = "0.0.0.0"'),
            f"{STARTS}, which also set `mcp.settings.transport_security` in `_security` (line 8), `mcp.settings.host` "
            "in `_serve` (line 13): mcp 2.x's `Settings` has no such field (assigning one raises `ValueError`); pass "
            "those values and `stateless_http=` to the start calls there by hand, and keep the DNS-rebinding "
            "protection: mcp 1.x's constructor fixed it for its own host (127.0.0.1 unless given) whatever "
            "`settings.host` became, while mcp 2.x's start derives it from `host=` (none for 0.0.0.0), so pass "
            f"`transport_security=` with `host=` {SECTION}",
        ),
    ],
    ids=["settings-written-there", "host-written-there"],
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


# -- the starting module the port writes (codemods/port/elsewhere.py) ------------------------------
DATA = Path(__file__).resolve().parent / "data" / "port" / "elsewhere"
# Posts an initialize with each Host header of argv[2] (status, whether a session id came back),
# then calls argv[3]'s tools with mcp 2.3's Client over streamable HTTP in each era of argv[4].
_PROBE = """
import json, sys
import anyio, httpx, mcp
url, hosts, calls, modes = sys.argv[1], *(json.loads(a) for a in sys.argv[2:5])
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}}
accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
out = {"hosts": {}}
for h in hosts:
    r = httpx.post(url, json=init, headers={**accept, "Host": h}, timeout=20)
    out["hosts"][h] = [r.status_code, "mcp-session-id" in r.headers]
async def run():
    for mode in modes:
        async with mcp.Client(url, mode=mode) as c:
            got = [(await c.call_tool(n, a)).model_dump(mode="json", exclude_none=True) for n, a in calls]
            out[mode] = [{k: g.get(k) for k in ("content", "structured_content", "is_error")} for g in got]
anyio.run(run)
print(json.dumps(out))
"""


def _port_project(where: Path) -> Path:
    where.mkdir()
    (where / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for name in ("app.py", "runner.py"):
        (where / name).write_bytes((DATA / name).read_bytes())
    return where


def test_the_settings_move_to_the_starts_of_the_starting_module(tmp_path: Path) -> None:
    where = _port_project(tmp_path / "p")
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    found = [(f["path"], f["line"], f["fix"]["safety"]) for f in res.json["findings"] if f["rule"] == "MCP503"]
    assert found == [("app.py", 3, "safe")]
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    for name in ("app", "runner"):
        assert (where / f"{name}.py").read_text(encoding="utf-8") == (DATA / f"{name}.fixed.py").read_text(
            encoding="utf-8"
        )
    again = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert again.json["fixed"] == [] and again.json["findings"] == []
    assert (where / "runner.py").read_text(encoding="utf-8") == (DATA / "runner.fixed.py").read_text(encoding="utf-8")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _served_http(python: str, runner: Path, env: dict[str, str], hosts: list[str], modes: list[str]) -> dict:
    """What the probe got from ``runner`` (started by ``python`` over streamable HTTP with ``env``);
    ``{port}`` in a host is the server's port."""
    import json
    import os
    import socket
    import subprocess
    import sys
    import time

    port = _free_port()
    full = {**os.environ, **env, "MCP_TRANSPORT": "http", "MCP_PORT": str(port)}
    server = subprocess.Popen(
        [python, str(runner)], cwd=runner.parent, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        for _ in range(300):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        shown = [h.format(port=port) for h in hosts]
        args = [json.dumps(x) for x in (shown, [["echo", {"text": "hi"}]], modes)]
        probe = subprocess.run(
            [sys.executable, "-c", _PROBE, f"http://127.0.0.1:{port}/mcp", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert probe.returncode == 0, probe.stderr
        out = json.loads(probe.stdout)
        out["hosts"] = {h: out["hosts"][s] for h, s in zip(hosts, shown)}
        return out
    finally:
        server.terminate()
        server.wait(timeout=30)


HOSTS = ["127.0.0.1:{port}", "evil.example", "10.1.2.3:{port}"]


@pytest.mark.parametrize(
    ("env", "answers"),
    [
        ({}, [[200, False], [421, False], [421, False]]),
        ({"MCP_HOST": "0.0.0.0"}, [[200, False], [421, False], [421, False]]),  # 1.x kept its constructor's protection
        ({"MCP_ALLOWED_HOSTS": "evil.example"}, [[421, False], [200, False], [421, False]]),
    ],
    ids=["local", "any-address", "allowed-hosts"],
)
def test_the_port_serves_http_as_the_original_did(
    tmp_path: Path, env: dict[str, str], answers: list, legacy_python: str, mcp2_python: str
) -> None:
    where = _port_project(tmp_path / "p")
    local = not env.get("MCP_ALLOWED_HOSTS")  # else the client's own Host header (127.0.0.1) is refused
    before = _served_http(legacy_python, where / "runner.py", env, HOSTS, ["legacy"] if local else [])
    assert cli(["fix", "--target-sdk", "mcp2", "."], where).exit_code == 0
    after = _served_http(mcp2_python, where / "runner.py", env, HOSTS, ["legacy", "2026-07-28"] if local else [])
    assert list(before["hosts"].values()) == list(after["hosts"].values()) == answers  # no session id: stateless
    if local:
        assert before["legacy"] == after["legacy"] == after["2026-07-28"]
        assert after["legacy"][0]["content"] == [{"type": "text", "text": "hi"}]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "        _configure_transport_security()\n",
            "        _configure_transport_security()\n        _configure_transport_security()\n",
        ),
        (
            "        allowed_hosts=allowed_hosts,\n    )\n",
            "        allowed_hosts=allowed_hosts,\n    )\n    print(mcp.name)\n",
        ),
        ("    if not allowed_hosts:\n        return\n", "    if not allowed_hosts:\n        return None\n"),
        (
            'mcp.settings.port = int(os.getenv("MCP_PORT", "8765"))',
            'mcp.settings.port = int(os.getenv("MCP_PORT", "8765"))\n        os = None',
        ),
        ('if __name__ == "__main__":\n', 'if __name__ == "__main__":\n    mcp = wrapped(mcp)\n'),
    ],
    ids=["helper-called-twice", "helper-goes-on", "helper-returns", "value-rebound", "server-rebound"],
)
def test_any_other_starting_module_stays_manual(tmp_path: Path, old: str, new: str) -> None:
    where = _port_project(tmp_path / "p")
    runner = (DATA / "runner.py").read_text(encoding="utf-8")
    assert old in runner
    (where / "runner.py").write_text(runner.replace(old, new, 1), encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    found = [f["manual"] for f in res.json["findings"] if f["rule"] == "MCP503"]
    assert len(found) == 1 and found[0].startswith("`mcp` is not started in this module but in runner.py: "), found
    assert (where / "app.py").read_bytes() == (DATA / "app.py").read_bytes()
    assert (where / "runner.py").read_text(encoding="utf-8") == runner.replace(old, new, 1)


def test_a_run_that_does_not_check_the_starting_module_writes_nothing(tmp_path: Path) -> None:
    where = _port_project(tmp_path / "p")
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "app.py"], where)
    assert [e["message"] for e in res.json["errors"]] == [
        "blocks the port to mcp 2.x: `mcp` is started in runner.py, where its transport settings cannot be moved to "
        "the starts: this run does not check that module: name it too; nothing was written"
    ]
    for name in ("app.py", "runner.py"):
        assert (where / name).read_bytes() == (DATA / name).read_bytes()
    assert (where / "pyproject.toml").read_text(encoding="utf-8") == PYPROJECT

"""Field cases of the port (issue 24): ``roots-17``, ``bugs-24``, ``notify-18``.

Each case is copied unchanged into ``tests/data/port/`` (its header says what the tool did and
what it should do). Each test ports a copy with ``fix --target-sdk mcp2``, asserts the exact
rewritten code and that a second ``fix`` changes nothing, then serves the original on mcp 1.27
(the legacy venv) and the port on mcp 2.3 over a legacy and a 2026-07-28 connection, and compares
what the client receives.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import LEAVE, json_answer, run_proof

DATA = Path(__file__).resolve().parent / "data" / "port"
MODES = ["legacy", "modern"]
PORT = ("--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json")


def _project(tmp: Path, case: str, pin: str = "mcp>=1.20,<2") -> Path:
    """A copy of the case as ``server.py`` of a project pinned to mcp 1.x."""
    where = tmp / case
    src = DATA / case
    if src.is_dir():
        shutil.copytree(src, where)
    else:
        where.mkdir(parents=True)
        shutil.copyfile(DATA / f"{case}.py", where / "server.py")
        (where / "pyproject.toml").write_text(f'[project]\nname="c"\nversion="0"\ndependencies=["{pin}"]\n')
    return where / "server.py"


def _fix(where: Path):
    res = cli(["fix", *PORT, "."], where)
    assert res.exception is None, str(res)
    return res


def _ported(tmp: Path, case: str) -> tuple[Path, str, dict]:
    """The port of a copy of ``case``: (file, its text, the run's JSON); a second run changes nothing."""
    target = _project(tmp, case)
    res = _fix(target.parent)
    text = target.read_text(encoding="utf-8")
    again = _fix(target.parent)
    assert again.json["fixed"] == [], str(again)
    assert target.read_text(encoding="utf-8") == text
    return target, text, res.json


def _calls(answer: dict) -> list[dict]:
    return [{k: c.get(k) for k in ("error", "is_error", "text")} for c in answer["calls"]]


# -- roots-17: `client_params.clientInfo` is `client_info` on mcp 2.x ------------------------------
def test_roots17_the_port_renames_client_info(tmp_path: Path) -> None:
    target, text, run = _ported(tmp_path, "roots_17")
    original = (DATA / "roots_17.py").read_text(encoding="utf-8")
    assert text == original.replace(
        "from mcp.server.fastmcp import Context, FastMCP", "from mcp.server.mcpserver import Context, MCPServer"
    ).replace('labels = FastMCP("label-printer")', 'labels = MCPServer("label-printer")').replace(
        "{info.clientInfo.name}/{info.clientInfo.version}", "{info.client_info.name}/{info.client_info.version}"
    )
    assert sorted((f["rule"], f["line"], f["column"]) for f in run["fixed"]) == [
        ("MCP501", 17, 1),
        ("MCP506", 28, 18),
        ("MCP506", 28, 41),
    ]
    assert run["findings"] == [] and run["errors"] == []
    assert 'dependencies=["mcp>=2.3,<3"]' in (target.parent / "pyproject.toml").read_text()


@pytest.mark.parametrize("mode", MODES)
def test_roots17_the_port_names_the_client_as_the_original(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """mcp 1.27 answers with the client's name and version; the unported read crashed on mcp 2.3
    (``AttributeError: … no attribute 'clientInfo'``); the port answers as the original."""
    target, _text, _run = _ported(tmp_path, "roots_17")
    calls = [{"tool": "print_label", "arguments": {"text": "box"}}]
    old = run_proof(legacy_python, DATA / "roots_17.py", "labels", "legacy", [], calls)
    new = run_proof(mcp2_python, target, "labels", mode, [], calls)
    assert _calls(new) == _calls(old) == [{"error": None, "is_error": False, "text": ["label printed for mcp/0.1.0"]}]
    assert new["tools"] == old["tools"]


# -- bugs-24: `mcp.settings.host/port = …` move to the start ---------------------------------------
def test_bugs24_settings_writes_move_to_run(tmp_path: Path) -> None:
    target, text, run = _ported(tmp_path, "bugs_24")
    original = (DATA / "bugs_24" / "server.py").read_text(encoding="utf-8")
    assert text == original.replace(
        "from mcp.server.fastmcp import FastMCP", "from mcp.server.mcpserver import MCPServer"
    ).replace(
        'mcp = FastMCP("trace-http")\n'
        'mcp.settings.host = os.environ.get("TRACE_HOST", "127.0.0.1")\n'
        'mcp.settings.port = int(os.environ.get("TRACE_PORT", "8765"))\n',
        'mcp = MCPServer("trace-http")\n',
    ).replace(
        'mcp.run(transport="streamable-http")',
        'mcp.run(transport="streamable-http", host=os.environ.get("TRACE_HOST", "127.0.0.1"), '
        'port=int(os.environ.get("TRACE_PORT", "8765")))',
    )
    assert sorted((f["rule"], f["line"]) for f in run["fixed"]) == [("MCP501", 18), ("MCP503", 21), ("MCP503", 22)]
    assert run["findings"] == [] and run["errors"] == []
    assert 'dependencies=["mcp>=2.3,<3"]' in (target.parent / "pyproject.toml").read_text()


# The client: mcp 2.x's Client over Streamable HTTP at the port the server was told through
# TRACE_PORT; lists the tools and calls one (one JSON line), retrying while the server starts.
HTTP_CLIENT = (
    LEAVE
    + """
import anyio, json, sys
import mcp


async def ask():
    async with mcp.Client(f"http://127.0.0.1:{sys.argv[1]}/mcp", mode=sys.argv[2]) as c:
        tools = [t.name for t in (await c.list_tools()).tools]
        r = await c.call_tool("ping_back", {"text": "abc"})
        return [tools, [b.text for b in r.content], r.is_error]


answer = None
for attempt in range(100):  # the server is starting
    try:
        answer = anyio.run(ask)
        break
    except Exception:
        anyio.run(anyio.sleep, 0.2)
print(json.dumps(answer))
leave()
"""
)


def _served(python: str, server: Path, mode: str) -> object:
    """Start ``server`` as ``__main__`` with TRACE_PORT set and ask it over HTTP."""
    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"TRACE_HOST": "127.0.0.1", "TRACE_PORT": str(port), "PATH": "/usr/bin:/bin"}
    proc = subprocess.Popen(
        [python, str(server)], cwd=server.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", HTTP_CLIENT, str(port), mode], capture_output=True, text=True, timeout=90
        )
        return json_answer(out, f"HTTP client of {server}", last_line=True)
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_bugs24_the_port_serves_where_the_original_did(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """mcp 1.27 serves Streamable HTTP at TRACE_HOST:TRACE_PORT; the unported module died at import
    on mcp 2.3 (``"Settings" object has no field "host"``); the port serves at the same address,
    legacy and 2026-07-28 clients alike."""
    target, _text, _run = _ported(tmp_path, "bugs_24")
    expected = [["ping_back"], ["cba"], False]
    assert _served(legacy_python, DATA / "bugs_24" / "server.py", "legacy") == expected
    assert _served(mcp2_python, target, mode) == expected

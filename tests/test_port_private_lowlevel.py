"""Handlers a 1.x FastMCP registers on its private low-level server, and its transport settings
split between the constructor and a ``settings`` write before ``run()`` (the python-sdk's own
v1.27 everything-server: ``@mcp._mcp_server.set_logging_level()``,
``mcp._mcp_server.subscribe_resource()(handle_subscribe)``, ``FastMCP(…, event_store=…,
retry_interval=100)`` and ``mcp.settings.port = port`` before ``mcp.run(transport="streamable-http")``).

The port (``codemods/port/private_lowlevel.py``, ``codemods/port/constructor.py``) registers each
handler on mcp 2.x's ``MCPServer._lowlevel_server`` through the adapter the low-level port writes,
and moves both the constructor's keywords and the written setting to the one start. Proved on a
small server of our own (``BOARD``) served over Streamable HTTP: the original on mcp 1.27, the port
on mcp 2.3 in both eras — the same answers on legacy connections, where only ``resources.subscribe``
changes (``false`` → ``true``: why that fix is unsafe), ``-32601`` for the three handshake-era
methods on 2026-07-28, and ``json_response`` still honoured. Any other shape stays manual.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import LEAVE, json_answer

BOARD = """\
import sys

from mcp.server.fastmcp import FastMCP
from pydantic import AnyUrl

board = FastMCP(name="bulletin", json_response=True)
levels: list[str] = []
watched: set[str] = set()


@board.resource("board://notes")
def notes() -> str:
    return "no notes yet"


@board.tool()
def state() -> str:
    return f"levels={levels} watched={sorted(watched)}"


@board._mcp_server.set_logging_level()
async def on_level(level: str) -> None:
    if level == "debug":
        raise ValueError("debug is not offered here")
    levels.append(level)


async def watch(uri: AnyUrl) -> None:
    watched.add(str(uri))


async def unwatch(uri: AnyUrl) -> None:
    watched.discard(str(uri))


board._mcp_server.subscribe_resource()(watch)
board._mcp_server.unsubscribe_resource()(unwatch)


def main(port: int) -> None:
    board.settings.port = port
    board.run(transport="streamable-http")


if __name__ == "__main__":
    main(int(sys.argv[1]))
"""

PORTED = """\
import sys

from mcp.server import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import (
    EmptyResult,
    SetLevelRequestParams,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)
from pydantic import AnyUrl

board = MCPServer(name="bulletin")
levels: list[str] = []
watched: set[str] = set()


@board.resource("board://notes")
def notes() -> str:
    return "no notes yet"


@board.tool()
def state() -> str:
    return f"levels={levels} watched={sorted(watched)}"


async def on_level(level: str) -> None:
    if level == "debug":
        raise ValueError("debug is not offered here")
    levels.append(level)


async def on_set_logging_level(
    ctx: ServerRequestContext, params: SetLevelRequestParams
) -> EmptyResult:
    try:
        await on_level(params.level)
    except MCPError:
        raise
    except Exception as exc:
        raise MCPError(0, str(exc)) from exc
    return EmptyResult()


board._lowlevel_server.add_request_handler(
    "logging/setLevel", SetLevelRequestParams, on_set_logging_level
)


async def watch(uri: AnyUrl) -> None:
    watched.add(str(uri))


async def on_subscribe_resource(
    ctx: ServerRequestContext, params: SubscribeRequestParams
) -> EmptyResult:
    try:
        await watch(AnyUrl(params.uri))
    except MCPError:
        raise
    except Exception as exc:
        raise MCPError(0, str(exc)) from exc
    return EmptyResult()


async def unwatch(uri: AnyUrl) -> None:
    watched.discard(str(uri))


async def on_unsubscribe_resource(
    ctx: ServerRequestContext, params: UnsubscribeRequestParams
) -> EmptyResult:
    try:
        await unwatch(AnyUrl(params.uri))
    except MCPError:
        raise
    except Exception as exc:
        raise MCPError(0, str(exc)) from exc
    return EmptyResult()


board._lowlevel_server.add_request_handler(
    "resources/subscribe", SubscribeRequestParams, on_subscribe_resource
)
board._lowlevel_server.add_request_handler(
    "resources/unsubscribe", UnsubscribeRequestParams, on_unsubscribe_resource
)


def main(port: int) -> None:
    board.run(transport="streamable-http", json_response=True, port=port)


if __name__ == "__main__":
    main(int(sys.argv[1]))
"""


def _project(where: Path, source: str = BOARD) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "pyproject.toml").write_text(
        '[project]\nname = "bulletin"\nversion = "0"\ndependencies = ["mcp==1.27.0"]\n', encoding="utf-8"
    )
    target = where / "server.py"
    target.write_text(source, encoding="utf-8")
    return target


def _run(where: Path, command: str, *args: str):
    res = cli([command, "--target-sdk", "mcp2", *args, "--output-format", "json", "."], where)
    assert res.exception is None, str(res)
    return res


def test_the_registrations_and_the_transport_settings_are_ported_exactly(tmp_path: Path) -> None:
    target = _project(tmp_path)
    found = _run(tmp_path, "check").json["findings"]
    port = [(f["rule"], f["line"], f["fix"] and f["fix"]["safety"]) for f in found if f["rule"].startswith("MCP50")]
    assert port == [
        ("MCP501", 3, "safe"),
        ("MCP503", 6, "safe"),
        ("MCP507", 21, "safe"),
        ("MCP509", 21, "safe"),
        ("MCP507", 36, "unsafe"),
        ("MCP509", 36, "unsafe"),
        ("MCP507", 37, "safe"),
        ("MCP509", 37, "safe"),
        ("MCP503", 41, "safe"),
    ]
    subscribe = next(f for f in found if f["rule"] == "MCP507" and f["line"] == 36)["fix"]["description"]
    assert "a legacy client's `initialize` now reads `resources: {subscribe: true}`" in subscribe
    # the port is all or nothing: without --unsafe-fixes the subscribe registration blocks it
    blocked = _run(tmp_path, "fix")
    assert blocked.exit_code == 1 and target.read_text(encoding="utf-8") == BOARD
    assert "MCP507 at line 36: its fix needs --unsafe-fixes" in blocked.json["errors"][0]["message"]
    res = _run(tmp_path, "fix", "--unsafe-fixes")
    assert res.json["errors"] == [], str(res)
    assert target.read_text(encoding="utf-8") == PORTED
    assert sorted((f["rule"], f["severity"]) for f in res.json["findings"]) == [
        ("MCP302", "breaking"),
        ("MCP302", "breaking"),
        ("MCP402", "legacy-only"),
    ]
    again = _run(tmp_path, "fix", "--unsafe-fixes")
    assert again.json["fixed"] == [] and target.read_text(encoding="utf-8") == PORTED


# Connects to the server at argv[1] (mcp 2.3's client, each era of argv[2] in turn), runs the steps
# and prints per era: the capabilities, each answer (the result, or the JSON-RPC error's code and
# message) and the `state` tool's text; then the content type of a raw `initialize` answer (the
# constructor's `json_response=True`: `application/json`, not an SSE stream).
_DRIVER = (
    LEAVE
    + """
import anyio, httpx, json, sys
import mcp
from mcp import MCPError

STEPS = [("level", "warning"), ("level", "debug"), ("subscribe", "board://notes"), ("subscribe", "board://old"),
         ("unsubscribe", "board://old")]


async def main():
    url, out = sys.argv[1], {}
    for mode in json.loads(sys.argv[2]):
        async with mcp.Client(url, mode=mode) as c:
            caps = c.server_capabilities.model_dump(mode="json", by_alias=True, exclude_none=True)
            caps.pop("experimental", None)
            answers = []
            for kind, arg in STEPS:
                call = {"level": c.set_logging_level, "subscribe": c.subscribe_resource,
                        "unsubscribe": c.unsubscribe_resource}[kind]
                try:
                    r = await call(arg)
                    answers.append(r.model_dump(mode="json", by_alias=True, exclude_none=True, exclude={"result_type"}))
                except MCPError as e:
                    answers.append({"error": [e.code, e.message]})
            state = (await c.call_tool("state", {})).content[0].text
            out[mode] = {"capabilities": caps, "answers": answers, "state": state}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
            "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with httpx.AsyncClient() as h:
        r = await h.post(url, json=init, headers=headers)
        out["content_type"] = r.headers["content-type"]
    print(json.dumps(out))


anyio.run(main)
leave()
"""
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _served(python: str, server: Path, modes: list[str]) -> dict:
    """Start ``server`` with ``python`` on a free port (its own ``main``), drive it, stop it."""
    port = _free_port()
    proc = subprocess.Popen(
        [python, str(server), str(port)], cwd=server.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        for _ in range(300):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if proc.poll() is not None:
                raise AssertionError(f"{server} under {python} ended: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            time.sleep(0.1)
        out = subprocess.run(
            [sys.executable, "-c", _DRIVER, f"http://127.0.0.1:{port}/mcp", json.dumps(modes)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        return json_answer(out, f"the driver of {server.name} under {python}", last_line=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_port_answers_as_the_original_on_both_eras(tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    before = _project(tmp_path / "before")
    after = _project(tmp_path / "after")
    assert _run(after.parent, "fix", "--unsafe-fixes").json["errors"] == []
    old = _served(legacy_python, before, ["legacy"])
    new = _served(mcp2_python, after, ["2026-07-28", "legacy"])  # 2026 first: its calls change no state
    assert old["legacy"] == {
        "capabilities": {
            "logging": {},
            "prompts": {"listChanged": False},
            "resources": {"subscribe": False, "listChanged": False},
            "tools": {"listChanged": False},
        },
        "answers": [{}, {"error": [0, "debug is not offered here"]}, {}, {}, {}],
        "state": "levels=['warning'] watched=['board://notes']",
    }
    # legacy: the same answers and state; mcp 2.x declares `resources.subscribe` from the handler
    expected = json.loads(json.dumps(old["legacy"]))
    expected["capabilities"]["resources"]["subscribe"] = True
    assert new["legacy"] == expected
    # 2026-07-28: the three handshake-era methods do not exist; nothing reached the handlers
    assert new["2026-07-28"]["answers"] == [{"error": [-32601, "Method not found"]}] * 5
    assert new["2026-07-28"]["state"] == "levels=[] watched=[]"
    # json_response=True moved to run(): answered as JSON on both
    assert old["content_type"] == new["content_type"] == "application/json"


@pytest.mark.parametrize(
    ("old", "new", "at", "reason"),
    [
        (
            "board._mcp_server.unsubscribe_resource()(unwatch)\n",
            "board._mcp_server.unsubscribe_resource()(unwatch)\nboard._mcp_server.unsubscribe_resource()(watch)\n",
            "unsubscribe_resource()(unwatch)",
            "`board._mcp_server.unsubscribe_resource()` registers 2 functions; on mcp 1.x the last one replaces the "
            "others: keep the one that is served",
        ),
        (
            "board._mcp_server.subscribe_resource()(watch)\n",
            "board._mcp_server.subscribe_resource()(lambda uri: watch(uri))\n",
            "subscribe_resource()(lambda",
            "`board._mcp_server.subscribe_resource()` is not called on a function of the module at module level",
        ),
        (
            "async def watch(uri: AnyUrl) -> None:\n    watched.add(str(uri))\n",
            "async def watch(uri: AnyUrl) -> None:\n    watched.add(str(uri))\n\n\nwatch = unwatch\n",
            "subscribe_resource()(watch)",
            "`watch` is not a function of the module defined once above `board._mcp_server.subscribe_resource()`",
        ),
        (
            "@board._mcp_server.set_logging_level()\n",
            "@board._mcp_server.set_logging_level()\n@staticmethod\n",
            "set_logging_level()",
            "`on_level` has other decorators around `board._mcp_server.set_logging_level()`",
        ),
        (
            "async def on_level(level: str) -> None:",
            "def on_level(level: str) -> None:",
            "set_logging_level()",
            "`on_level` is not `async`",
        ),
        (
            "board._mcp_server.unsubscribe_resource()(unwatch)\n",
            "board._mcp_server.unsubscribe_resource()(watch)\n",
            "unsubscribe_resource()(watch)",
            "`watch` is also registered with `board._mcp_server.subscribe_resource()`: the port writes one adapter per "
            "function, for one of its registrations only",
        ),
    ],
    ids=["registered-twice", "lambda", "rebound", "stacked", "not-async", "one-function-two-kinds"],
)
def test_any_other_registration_stays_manual_and_blocks_the_port(
    tmp_path: Path, old: str, new: str, at: str, reason: str
) -> None:
    """``at``: the text of the registration's line (both findings are reported there)."""
    assert old in BOARD
    source = BOARD.replace(old, new, 1)
    line = next(i for i, text in enumerate(source.splitlines(), 1) if at in text)
    target = _project(tmp_path, source)
    res = _run(tmp_path, "fix", "--unsafe-fixes")
    left = {
        f["rule"]: f["manual"] for f in res.json["findings"] if f["line"] == line and f["rule"] in ("MCP507", "MCP509")
    }
    assert set(left) == {"MCP507", "MCP509"}, res.json["findings"]
    assert left["MCP507"].startswith(reason), left
    assert target.read_text(encoding="utf-8") == source


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        (
            "    board.settings.port = port\n",
            "    board.settings.port = port\n    print(board.settings.port)\n",
            "`board.settings` holds no transport settings on mcp 2.x",
        ),
        (
            "    board.settings.port = port\n",
            "    board.settings.json_response = False\n",
            "`board.settings` holds no transport settings on mcp 2.x",
        ),
        (
            '    board.run(transport="streamable-http")\n',
            '    print(port)\n    board.run(transport="streamable-http")\n',
            "`board.settings` holds no transport settings on mcp 2.x",
        ),
    ],
    ids=["read-back", "constructor-keyword-written", "not-right-before"],
)
def test_a_constructor_whose_settings_are_used_otherwise_stays_manual(
    tmp_path: Path, old: str, new: str, reason: str
) -> None:
    """Only a write MCP503 moves to the start itself lets the constructor's keywords join it."""
    source = BOARD.replace(old, new, 1)
    _project(tmp_path, source)
    found = _run(tmp_path, "check").json["findings"]
    (ctor,) = [f for f in found if f["rule"] == "MCP503" and f["line"] == 6]
    assert ctor["fix"] is None and ctor["manual"].startswith(reason), ctor


# -- the same flag on a 1.x low-level `Server` (codemods/port/lowlevel.py) ------------------------
# mcp 1.27 hard-codes `resources.subscribe: false`; once `@server.subscribe_resource()` is an
# `on_subscribe_resource=` adapter on a server that lists resources, mcp 2.3 declares `true` to
# legacy clients: that port is unsafe too, with the same note (without a listing there is no
# `resources` capability to change: notify-18 in test_port_field.py stays safe).
LISTED = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("shelf")
seen: list[str] = []


@server.list_resources()
async def resources() -> list[types.Resource]:
    return [types.Resource(uri="shelf://a", name="a")]


@server.subscribe_resource()
async def watch(uri) -> None:
    seen.append(str(uri))
"""
# prints the capabilities a legacy client reads in `initialize` (mcp 1.x's in-memory session, 2.x's Client)
_CAPABILITIES = (
    LEAVE
    + """
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("shelf", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
try:
    import mcp
    client, caps = mcp.Client(m.server, mode="legacy"), lambda c: c.server_capabilities
except (ImportError, AttributeError):
    from mcp.shared.memory import create_connected_server_and_client_session
    client, caps = create_connected_server_and_client_session(m.server), lambda c: c.get_server_capabilities()
async def main():
    async with client as c:
        await c.subscribe_resource("shelf://a")
        print(json.dumps([caps(c).model_dump(mode="json", by_alias=True, exclude_none=True)["resources"], m.seen]))
anyio.run(main)
leave()
"""
)


def test_a_lowlevel_subscribe_handler_beside_a_listing_is_ported_unsafe(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    before = _project(tmp_path / "before", LISTED)
    after = _project(tmp_path / "after", LISTED)
    found = _run(after.parent, "check").json["findings"]
    labels = [(f["line"], f["fix"]["safety"]) for f in found if f["rule"] == "MCP507"]
    assert labels == [(8, "unsafe"), (13, "unsafe")]
    assert "a legacy client's `initialize` now reads `resources: {subscribe: true}`" in found[-1]["fix"]["description"]
    assert _run(after.parent, "fix").exit_code == 1 and after.read_text(encoding="utf-8") == LISTED
    assert _run(after.parent, "fix", "--unsafe-fixes").json["errors"] == []
    answers = [
        json_answer(
            subprocess.run([py, "-c", _CAPABILITIES, str(f)], capture_output=True, text=True, timeout=120),
            f"{f} under {py}",
            last_line=True,
        )
        for py, f in ((legacy_python, before), (mcp2_python, after))
    ]
    assert answers == [
        [{"subscribe": False, "listChanged": False}, ["shelf://a"]],
        [{"subscribe": True, "listChanged": False}, ["shelf://a"]],
    ]


TWO_BOARDS = """\
from mcp.server.fastmcp import FastMCP

notes = FastMCP(name="notes")
board = FastMCP(name="board")
levels: list[str] = []


@notes.tool()
def state() -> str:
    return f"levels={levels}"


async def notes_level(level: str) -> None:
    levels.append(f"notes:{level}")


async def board_level(level: str) -> None:
    levels.append(f"board:{level}")


notes._mcp_server.set_logging_level()(notes_level)
board._mcp_server.set_logging_level()(board_level)
"""

#: Sets the level on each server in memory, prints what the handlers saw (argv: the module's path).
SET_EACH = {
    "1": """\
import importlib.util, sys, anyio
from mcp.shared.memory import create_connected_server_and_client_session
spec = importlib.util.spec_from_file_location("m", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
async def main():
    for name in ("notes", "board"):
        async with create_connected_server_and_client_session(getattr(m, name)._mcp_server) as s:
            await s.set_logging_level(name == "notes" and "info" or "error")
    print(m.levels)
anyio.run(main)
""",
    "2": """\
import importlib.util, sys, anyio, mcp
spec = importlib.util.spec_from_file_location("m", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
async def main():
    for name in ("notes", "board"):
        async with mcp.Client(getattr(m, name), mode="legacy") as c:
            await c.set_logging_level(name == "notes" and "info" or "error")
    print(m.levels)
anyio.run(main)
""",
}


def test_the_same_registration_on_two_servers_gets_two_adapters(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """Each server's port named its adapter alone: both wrote ``on_set_logging_level`` and the port
    failed with an error (the module would bind it twice). The registrations take the free names in
    their order, and each server still calls its own handler."""
    target = _project(tmp_path, TWO_BOARDS)
    res = _run(tmp_path, "fix")
    assert res.json["errors"] == [], res.json["errors"]
    ported = target.read_text(encoding="utf-8")
    assert ported.endswith(
        'notes._lowlevel_server.add_request_handler(\n    "logging/setLevel", SetLevelRequestParams, on_set_logging_level\n)\n'
        'board._lowlevel_server.add_request_handler(\n    "logging/setLevel", SetLevelRequestParams, on_set_logging_level_2\n)\n'
    )
    assert "        await board_level(params.level)\n" in ported.split("async def on_set_logging_level_2(")[1]
    _run(tmp_path, "fix")
    assert target.read_text(encoding="utf-8") == ported  # idempotent
    before = tmp_path / "before.py"
    before.write_text(TWO_BOARDS, encoding="utf-8")
    seen = {
        era: subprocess.run(
            [python, "-c", SET_EACH[era], str(path)], capture_output=True, text=True, timeout=120, check=True
        ).stdout.strip()
        for era, python, path in (("1", legacy_python, before), ("2", mcp2_python, target))
    }
    assert seen == {"1": "['notes:info', 'board:error']", "2": "['notes:info', 'board:error']"}

"""The rest of revision 2026-07-28 (MCP6xx): what the TOML examples cannot express.

- MCP602's fix is proven by running: a server served over HTTP+SSE answers an SSE client; after
  ``fix --unsafe-fixes`` the same server, started the same way, answers a Streamable HTTP client at
  ``/mcp`` with the same tool result — on mcp 1.27 (a legacy connection) and on mcp 2.3 (a legacy
  and a 2026-07-28 connection).
- MCP601's findings name the tools the migration changes, and are one per site.
- The new rules fire on the other families' fixtures only where a finding was judged true.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, cli, findings_of, load_toml
from tests.proof import run_proof

_CLIENT = r"""
import anyio, json, sys
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client

url, kind = sys.argv[1], sys.argv[2]

async def main():
    if kind == "sse":
        async with sse_client(url) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                result = await session.call_tool("forecast", {"city": "Oslo"})
                print(json.dumps([result.content[0].text]))
        return
    async with Client(url, mode=kind) as client:
        result = await client.call_tool("forecast", {"city": "Oslo"})
        print(json.dumps([result.content[0].text, client.protocol_version]))

anyio.run(main)
"""

MCP1_SERVER = """
import os

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather", port=int(os.environ["PORT"]))


@mcp.tool()
def forecast(city: str) -> str:
    return f"sunny in {city}"


if __name__ == "__main__":
    mcp.run(transport="sse", mount_path="/")
"""

MCP2_SERVER = """
import os

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("weather")


@mcp.tool()
def forecast(city: str) -> str:
    return f"sunny in {city}"


if __name__ == "__main__":
    mcp.run(transport="sse", port=int(os.environ["PORT"]), sse_path="/sse")
"""


def _mcp601(tmp_path: Path) -> list[dict]:
    """MCP601's findings on ``server.py`` in ``tmp_path`` (JSON report entries)."""
    out = cli(["check", "--output-format", "json", "--select", "MCP601", "server.py"], tmp_path)
    return json.loads(out.stdout)["findings"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(python: str, path: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [python, str(path)],
        env={**os.environ, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    for _ in range(300):  # until it listens (or dies); not a timing assertion
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("server never listened")


def _ask(url: str, kind: str) -> list:
    out = subprocess.run([sys.executable, "-c", _CLIENT, url, kind], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _served(python: str, path: Path, url_path: str, kinds: list[str]) -> list[list]:
    port = _free_port()
    proc = _serve(python, path, port)
    try:
        return [_ask(f"http://127.0.0.1:{port}{url_path}", k) for k in kinds]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _fix(tmp_path: Path, source: str) -> tuple[Path, str]:
    path = tmp_path / "server.py"
    path.write_text(source)
    check = cli(["check", "--output-format", "json", "--select", "MCP602", str(path)], tmp_path)
    assert findings_of(check) == [("MCP602", 15)], check.stdout
    cli(["fix", "--unsafe-fixes", "--select", "MCP602", str(path)], tmp_path)
    return path, path.read_text()


def test_sse_fix_serves_streamable_http_on_mcp1(tmp_path: Path, legacy_python: str) -> None:
    before = tmp_path / "before.py"
    before.write_text(MCP1_SERVER)
    assert _served(legacy_python, before, "/sse", ["sse"]) == [["sunny in Oslo"]]
    path, fixed = _fix(tmp_path, MCP1_SERVER)
    assert '    mcp.run(transport="streamable-http")\n' in fixed
    assert fixed.replace('transport="streamable-http"', 'transport="sse", mount_path="/"') == MCP1_SERVER
    # mcp 1.27 knows only the handshake: the 2.3 client falls back to it
    assert _served(legacy_python, path, "/mcp", ["legacy"]) == [["sunny in Oslo", "2025-11-25"]]


def test_sse_fix_serves_streamable_http_on_mcp2_in_both_eras(tmp_path: Path) -> None:
    before = tmp_path / "before.py"
    before.write_text(MCP2_SERVER)
    assert _served(sys.executable, before, "/sse", ["sse"]) == [["sunny in Oslo"]]
    path, fixed = _fix(tmp_path, MCP2_SERVER)
    assert '    mcp.run(transport="streamable-http", port=int(os.environ["PORT"]))\n' in fixed
    answers = _served(sys.executable, path, "/mcp", ["legacy", "auto"])
    assert answers == [["sunny in Oslo", "2025-11-25"], ["sunny in Oslo", "2026-07-28"]]


SESSION_SERVER = """
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("notes")
NOTES: dict[int, list[str]] = {}


def _notes(ctx: Context) -> list[str]:
    return NOTES.setdefault(id(ctx.session), [])


@mcp.tool()
async def add_note(text: str, ctx: Context) -> str:
    _notes(ctx).append(text)
    return "ok"


@mcp.tool(name="list-notes")
async def list_notes(ctx: Context) -> list[str]:
    return _notes(ctx)
"""


def test_session_key_in_a_helper_names_every_tool_that_reaches_it(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SESSION_SERVER)
    [finding] = _mcp601(tmp_path)
    assert (finding["line"], finding["column"], finding["severity"]) == (9, 29, "breaking")
    assert "`id(ctx.session)`" in finding["message"] and "in `_notes`" in finding["message"]
    assert "give `add_note`, `list_notes` a documented `handle` parameter" in finding["manual"]


def test_session_id_only_logged_is_advisory_and_a_stored_one_is_breaking(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "from mcp.server.mcpserver import Context, MCPServer\n"
        "\n"
        'mcp = MCPServer("x")\n'
        "\n"
        "\n"
        "class Tracker:\n"
        "    sid: str | None = None\n"
        "\n"
        "\n"
        "tracker = Tracker()\n"
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def hello(ctx: Context) -> str:\n"
        '    print("session", ctx.session_id)\n'
        "    tracker.sid = ctx.session_id\n"
        '    return "hi"\n'
    )
    out = cli(["check", "--output-format", "json", "--select", "MCP601", "server.py"], tmp_path)
    got = [(f["line"], f["severity"]) for f in json.loads(out.stdout)["findings"]]
    assert got == [(15, "advisory"), (16, "breaking")]


def test_client_code_reading_the_session_header_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "client.py").write_text(
        "import httpx\n"
        "from mcp.client.streamable_http import streamablehttp_client\n"
        "\n"
        "\n"
        "def session_of(resp: httpx.Response) -> str | None:\n"
        '    return resp.headers.get("mcp-session-id")\n'
    )
    out = cli(["check", "--select", "MCP601", "client.py"], tmp_path)
    assert out.exit_code == 0, out.stdout


@pytest.mark.parametrize("case", sorted(p.parent for p in FIXTURES.glob("*/*/before.py")), ids=lambda p: p.name)
def test_new_rules_on_the_other_families_fixtures_are_the_ones_judged(case: Path) -> None:
    """The MCP6xx rules fire on the earlier families' fixtures only where a finding was read and
    judged true: the hand-rolled servers answer `initialize` without `server/discover`, or `ping`
    (MCP604). Each is listed in that fixture's case.toml (tests/test_fixtures.py checks them exactly)."""
    out = cli(["check", "--output-format", "json", "--select", "MCP6", "--ignore", "MCP608", "before.py"], case)
    expected = sorted(
        (f["rule"], f["line"])
        for f in load_toml(case / "case.toml").get("findings", [])
        if f["rule"].startswith("MCP6")
    )
    assert findings_of(out) == expected, out.stdout
    assert all(rule == "MCP604" for rule, _line in expected) and (case.name.startswith("handrolled") or not expected)


#: MCP608 on the earlier families' fixtures, each read and judged true: the hand-rolled servers
#: answer `tools/list` / `tools/call` with results they build themselves, without `resultType`
#: (and a list without `ttlMs` / `cacheScope`). Not listed in their case.toml: MCP608's safe fix
#: would then be part of their after files (tests/test_fixtures.py `_fix_flags`). Missed on
#: purpose: a result built in a helper the branch calls (roots/handrolled_jsonrpc `list_files`).
MCP608_ON_FIXTURES = [
    ("elicitation/handrolled_read_helper", 36),
    ("elicitation/handrolled_read_helper", 60),
    ("roots/handrolled_jsonrpc", 52),
    ("roots/handrolled_sync_helper", 41),
    ("sampling/handrolled_pending_inline", 36),
    ("sampling/handrolled_sync_stdin", 33),
    ("sampling/handrolled_sync_stdin", 47),
    ("server_requests/handrolled_jsonrpc", 39),
]


def test_result_fields_on_the_other_families_fixtures_are_the_ones_judged() -> None:
    got = []
    for before in sorted(FIXTURES.glob("*/*/before.py")):
        out = cli(["check", "--output-format", "json", "--select", "MCP608", "before.py"], before.parent)
        got += [(f"{before.parent.parent.name}/{before.parent.name}", line) for _rule, line in findings_of(out)]
    assert got == MCP608_ON_FIXTURES


def test_session_id_in_a_path_is_state_and_in_a_log_line_is_not(tmp_path: Path) -> None:
    """A session id embedded in a name (a per-session workspace directory) scopes state to the
    session; the same f-string in a log call does not (the shape of a public artifact-upload tool)."""
    (tmp_path / "server.py").write_text(
        "import logging\n"
        "from pathlib import Path\n"
        "\n"
        "from fastmcp import Context, FastMCP\n"
        "\n"
        'mcp = FastMCP("x")\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def artifact(name: str, ctx: Context) -> str:\n"
        "    sid = ctx.session_id\n"
        '    return str(Path("/tmp") / f"session_{sid}" / name)\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def hello(ctx: Context) -> str:\n"
        "    sid = ctx.session_id\n"
        '    logging.info(f"hello from {sid}")\n'
        '    return "hi"\n'
    )
    out = cli(["check", "--output-format", "json", "--select", "MCP601", "server.py"], tmp_path)
    got = [(f["line"], f["severity"]) for f in json.loads(out.stdout)["findings"]]
    assert got == [(11, "breaking"), (17, "advisory")]


def test_sse_on_a_server_a_fastmcp_factory_built(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(
        "from fastmcp import FastMCP\n"
        "\n"
        'mcp = FastMCP.from_openapi(openapi_spec={}, client=None, name="api")\n'
        "\n"
        'if __name__ == "__main__":\n'
        '    mcp.run(transport="sse", host="127.0.0.1", port=4201)\n'
    )
    out = cli(["fix", "--unsafe-fixes", "--select", "MCP602", "server.py"], tmp_path)
    assert out.exception is None, out.stdout
    assert (
        (tmp_path / "server.py")
        .read_text()
        .endswith('    mcp.run(transport="streamable-http", host="127.0.0.1", port=4201)\n')
    )


def test_hand_built_error_object_without_sdk_and_tests_of_legacy_paths(tmp_path: Path) -> None:
    """A hand-built JSON-RPC error `{"code": -32002, "message": …}` is the old code even in a module that
    imports nothing of MCP (the peer's fixer_roundtrip/errors.py); a test that constructs the SSE
    transport on purpose, or asserts on the old code, is not the server's migration."""
    (tmp_path / "errors.py").write_text(
        "def read_resource(handle: str) -> dict:\n"
        "    if not handle:\n"
        '        return {"code": -32002, "message": "resource not found"}\n'
        '    return {"contents": handle}\n'
        "\n"
        "\n"
        "RETRY_AFTER = {-32002: 5}\n"
    )
    (tmp_path / "test_compat.py").write_text(
        "from mcp.server.sse import SseServerTransport\n"
        "\n"
        "\n"
        "def test_legacy_transport_still_constructs():\n"
        '    assert SseServerTransport("/messages") is not None\n'
        '    assert {"code": -32002, "message": "x"}["code"] == -32002\n'
    )
    out = cli(["check", "--output-format", "json", "--select", "MCP6", "."], tmp_path)
    assert findings_of(out) == [("MCP603", 3)]


def test_weak_registry_of_sessions_in_a_factory_server_is_one_finding_naming_every_tool(tmp_path: Path) -> None:
    """The shape of a public Firefox-bridge server: grants bound to a uuid minted per `ctx.session`
    (a `WeakKeyDictionary[ServerSession, str]` typed under TYPE_CHECKING, read through a local
    alias), tools defined in a factory that reach it through a nested helper. On 2026-07-28 every
    call gets a new session, so a new client id, and no grant ever matches."""
    (tmp_path / "server.py").write_text(
        "from __future__ import annotations\n"
        "\n"
        "from typing import TYPE_CHECKING, Any\n"
        "from uuid import uuid4\n"
        "from weakref import WeakKeyDictionary\n"
        "\n"
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "\n"
        "if TYPE_CHECKING:\n"
        "    from mcp.server.session import ServerSession\n"
        "\n"
        "_SESSION_IDS: WeakKeyDictionary[ServerSession, str] = WeakKeyDictionary()\n"
        "\n"
        "\n"
        "def _client_id(ctx: Context) -> str:\n"
        "    session = ctx.session\n"
        "    if session not in _SESSION_IDS:\n"
        "        _SESSION_IDS[session] = str(uuid4())\n"
        "    return _SESSION_IDS[session]\n"
        "\n"
        "\n"
        "def create_mcp(bridge: Any) -> FastMCP:\n"
        '    mcp = FastMCP("ff")\n'
        "\n"
        "    async def call(ctx: Context, method: str) -> Any:\n"
        "        return await bridge.request(method, _client_id(ctx))\n"
        "\n"
        "    @mcp.tool()\n"
        "    async def browser_tabs(ctx: Context) -> Any:\n"
        '        return await call(ctx, "tabs.list")\n'
        "\n"
        "    @mcp.tool()\n"
        "    async def browser_revoke(grant_id: str, ctx: Context) -> Any:\n"
        '        return await call(ctx, "grants.revoke")\n'
        "\n"
        "    return mcp\n"
    )
    [finding] = _mcp601(tmp_path)
    assert (finding["line"], finding["column"]) == (18, 22)
    assert "give `browser_revoke`, `browser_tabs` a documented `handle` parameter" in finding["manual"]


def test_fastmcp_visibility_per_session_and_state_set_by_middleware(tmp_path: Path) -> None:
    """fastmcp 4 keys `ctx.enable_components` on the per-request session id of a 2026-07-28
    connection (reported, with the server-wide alternative); a middleware that sets state the tool
    of the same request reads is not cross-call state."""
    (tmp_path / "server.py").write_text(
        "from fastmcp import Context, FastMCP\n"
        "from fastmcp.server.middleware import Middleware, MiddlewareContext\n"
        "\n"
        'mcp = FastMCP("mw")\n'
        "\n"
        "\n"
        "class Stamp(Middleware):\n"
        "    async def on_call_tool(self, context: MiddlewareContext, call_next):\n"
        "        ctx: Context = context.fastmcp_context\n"
        '        await ctx.set_state("caller", "via middleware")\n'
        "        return await call_next(context)\n"
        "\n"
        "\n"
        "@mcp.tool\n"
        "async def who(ctx: Context) -> str:\n"
        '    return await ctx.get_state("caller")\n'
        "\n"
        "\n"
        "@mcp.tool\n"
        "async def unlock(ctx: Context) -> str:\n"
        '    await ctx.enable_components(tags={"admin"})\n'
        '    return "unlocked"\n'
    )
    [finding] = _mcp601(tmp_path)
    assert finding["line"] == 21 and "server-wide `mcp.enable(...)`" in finding["manual"]


def test_fastmcp_state_under_a_key_a_tool_is_given(tmp_path: Path) -> None:
    """fastmcp's own session-state example: `set_state(key, value)` with the tool's argument as
    the key, read back by another tool's `get_state(key)` — one finding, at the `set_state`."""
    (tmp_path / "server.py").write_text(
        "from fastmcp import Context, FastMCP\n"
        "\n"
        'server = FastMCP("state")\n'
        "\n"
        "\n"
        "@server.tool\n"
        "async def set_value(key: str, value: str, ctx: Context) -> str:\n"
        "    await ctx.set_state(key, value)\n"
        '    return "ok"\n'
        "\n"
        "\n"
        "@server.tool\n"
        "async def get_value(key: str, ctx: Context) -> str:\n"
        "    return str(await ctx.get_state(key))\n"
        "\n"
        "\n"
        "@server.tool\n"
        "async def remember(ctx: Context) -> str:\n"
        '    await ctx.set_state("seen", True)\n'
        '    return "ok"\n'
    )
    found = _mcp601(tmp_path)
    assert [(f["line"], f["severity"]) for f in found] == [(8, "breaking")]
    assert "`set_state(key)`, read back by another call" in found[0]["message"]
    assert "`get_value`, `set_value`" in found[0]["manual"]


def test_sse_beside_streamable_http_of_the_same_server_is_manual(tmp_path: Path) -> None:
    """A server that already serves Streamable HTTP (an `sse` command beside a `streamable-http`
    one; `sse_app()` combined with `streamable_http_app()` in one Starlette app) keeps its SSE entry:
    rewriting it would start a second Streamable HTTP app whose session manager runs once
    (RuntimeError at startup, seen on a real server) — manual, naming where Streamable HTTP is
    served; fix leaves the file byte-identical."""
    (tmp_path / "cmds.py").write_text(
        "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n"
        "def run_sse() -> None:\n    mcp.run(transport='sse')\n\n\n"
        "def run_http() -> None:\n    mcp.run(transport='streamable-http')\n"
    )
    (tmp_path / "apps.py").write_text(
        "from mcp.server.fastmcp import FastMCP\nfrom starlette.applications import Starlette\n\n"
        "mcp = FastMCP('x')\n\n\ndef app() -> Starlette:\n    sse = mcp.sse_app()\n"
        "    http = mcp.streamable_http_app()\n    return Starlette(routes=[*sse.routes, *http.routes])\n"
    )
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    out = cli(["check", "--output-format", "json", "--select", "MCP602", "."], tmp_path)
    found = {(f["path"], f["line"]): f["manual"] for f in json.loads(out.stdout)["findings"]}
    assert set(found) == {("cmds.py", 7), ("apps.py", 8)}, out.stdout
    assert found[("cmds.py", 7)].startswith(
        "the server already serves Streamable HTTP (`mcp.run(transport='streamable-http')`)"
    )
    assert found[("apps.py", 8)].startswith("the server already serves Streamable HTTP (`mcp.streamable_http_app()`)")
    cli(["fix", "--unsafe-fixes", "--select", "MCP602", "."], tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_sse_chosen_at_run_time(tmp_path: Path) -> None:
    """port-01's `run(transport="sse" if "--sse" in sys.argv else "stdio")` (haris-musa/excel-mcp-server)
    is fixed like the literal: the SSE branch serves Streamable HTTP, the stdio one is untouched. A
    transport read from an option or the environment is manual where the module offers "sse" (the
    option's choices, the variable's default) and is not reported where it does not: such a value
    can select SSE only if something names it."""
    (tmp_path / "flag.py").write_text(
        "import sys\n\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n"
        'if __name__ == "__main__":\n'
        '    mcp.run(transport="sse" if "--sse" in sys.argv else "stdio")\n'
    )
    (tmp_path / "options.py").write_text(
        "import argparse\nimport os\n\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n\n\n"
        "def main() -> None:\n"
        "    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--transport", choices=["stdio", "sse"], default="stdio")\n'
        "    mcp.run(transport=parser.parse_args().transport)\n\n\n"
        "def from_env() -> None:\n"
        '    mcp.run(transport=os.getenv("MCP_TRANSPORT", "sse"))\n'
    )
    (tmp_path / "stdio_or_http.py").write_text(
        "import os\n\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n"
        'mcp.run(transport=os.getenv("MCP_TRANSPORT", "stdio"))\n'
    )
    out = cli(["check", "--output-format", "json", "--select", "MCP602", "."], tmp_path)
    found = {
        (f["path"], f["line"]): (f["fix"] or {}).get("safety") or f["manual"]
        for f in json.loads(out.stdout)["findings"]
    }
    assert set(found) == {("flag.py", 8), ("options.py", 12), ("options.py", 16)}, out.stdout
    assert found[("flag.py", 8)] == "unsafe"
    assert found[("options.py", 12)].startswith("the transport is chosen at run time (`parser.parse_args().transport`)")
    assert found[("options.py", 16)].startswith(
        'the transport is chosen at run time (`os.getenv("MCP_TRANSPORT", "sse")`)'
    )
    options = (tmp_path / "options.py").read_bytes()
    cli(["fix", "--unsafe-fixes", "--select", "MCP602", "."], tmp_path)
    assert (
        (tmp_path / "flag.py")
        .read_text()
        .endswith('    mcp.run(transport="streamable-http" if "--sse" in sys.argv else "stdio")\n')
    )
    assert (tmp_path / "options.py").read_bytes() == options
    again = cli(["check", "--output-format", "json", "--select", "MCP602", "flag.py"], tmp_path)
    assert findings_of(again) == [], again.stdout


_RECORDER = """from fastmcp import FastMCP
from fastmcp.server.middleware import Middleware, MiddlewareContext

clients: dict[str, str] = {}


class ClientRecorder(Middleware):
    async def on_initialize(self, context: MiddlewareContext, call_next):
        result = await call_next(context)
        clients["last"] = context.message.params.client_info.name
        return result


mcp = FastMCP("x")
mcp.add_middleware(ClientRecorder())


@mcp.tool()
def who() -> str:
    return clients.get("last", "unknown")
"""


def test_fastmcp_middleware_on_initialize_is_a_removed_method_handler(tmp_path: Path) -> None:
    """A fastmcp middleware's `on_initialize` handles the removed handshake: run on fastmcp 4.2, the
    hook records the client on a legacy connection and never runs on a 2026-07-28 one (the tool
    answers "unknown"). A class of the project named `Middleware` is not fastmcp's."""
    (tmp_path / "server.py").write_text(_RECORDER)
    (tmp_path / "own.py").write_text(
        "class Middleware:\n    pass\n\n\nclass Foo(Middleware):\n    async def on_initialize(self, context, call_next):\n"
        "        return None\n"
    )
    out = cli(["check", "--output-format", "json", "--select", "MCP604", "."], tmp_path)
    found = json.loads(out.stdout)["findings"]
    assert [(f["path"], f["line"], f["column"]) for f in found] == [("server.py", 8, 15)], out.stdout
    assert found[0]["manual"].startswith("do it per request instead (`on_request` runs for every request")
    calls = [{"tool": "who", "arguments": {}}]
    answers = {
        mode: [c["text"] for c in run_proof(sys.executable, tmp_path / "server.py", "mcp", mode, [], calls)["calls"]]
        for mode in ("legacy", "modern")
    }
    assert answers == {"legacy": [["mcp"]], "modern": [["unknown"]]}

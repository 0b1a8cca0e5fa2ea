"""Field cases of the port (issue 24): ``roots-17``, ``bugs-24``, ``notify-18``.

Each case is copied unchanged into ``tests/data/port/`` (its header says what the tool did and
what it should do). Each test ports a copy with ``fix --target-sdk mcp2``, asserts the exact
rewritten code and that a second ``fix`` changes nothing, then serves the original on mcp 1.27
(the legacy venv) and the port on mcp 2.3 over a legacy and a 2026-07-28 connection, and compares
what the client receives.
"""

from __future__ import annotations

import json
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
        "from mcp.server.fastmcp import FastMCP",
        "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.transport_security import TransportSecuritySettings",
    ).replace(
        'mcp = FastMCP("trace-http")\n'
        'mcp.settings.host = os.environ.get("TRACE_HOST", "127.0.0.1")\n'
        'mcp.settings.port = int(os.environ.get("TRACE_PORT", "8765"))\n',
        'mcp = MCPServer("trace-http")\n',
    ).replace(
        'mcp.run(transport="streamable-http")',
        """mcp.run(
        transport="streamable-http",
        host=os.environ.get("TRACE_HOST", "127.0.0.1"),
        transport_security=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
            allowed_origins=[
                "http://127.0.0.1:*",
                "http://localhost:*",
                "http://[::1]:*",
            ],
        ),
        port=int(os.environ.get("TRACE_PORT", "8765")),
    )""",
    )
    assert sorted((f["rule"], f["line"]) for f in run["fixed"]) == [("MCP501", 18), ("MCP503", 21), ("MCP503", 22)]
    assert run["findings"] == [] and run["errors"] == []
    assert 'dependencies=["mcp>=2.3,<3"]' in (target.parent / "pyproject.toml").read_text()


# The client: mcp 2.x's Client over Streamable HTTP at the port the server was told through
# TRACE_PORT; lists the tools and calls one (one JSON line), retrying while the server starts; then
# the status an `initialize` with a foreign Host header gets (421: DNS-rebinding protection).
HTTP_CLIENT = (
    LEAVE
    + """
import anyio, json, sys, urllib.error, urllib.request
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
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}
foreign = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/mcp", data=json.dumps(init).encode(), headers={
    "Host": "example.com", "Accept": "application/json, text/event-stream", "Content-Type": "application/json"})
try:
    status = urllib.request.urlopen(foreign, timeout=10).status
except urllib.error.HTTPError as e:
    status = e.code
print(json.dumps([*answer, status]))
leave()
"""
)


def _served(python: str, server: Path, mode: str, host: str = "127.0.0.1") -> object:
    """Start ``server`` as ``__main__`` with TRACE_HOST and TRACE_PORT set and ask it over HTTP."""
    with socket.socket() as s:  # a free port
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"TRACE_HOST": host, "TRACE_PORT": str(port), "PATH": "/usr/bin:/bin"}
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
    legacy and 2026-07-28 clients alike. Bound to every address (TRACE_HOST=0.0.0.0), mcp 1.27 still
    refuses a foreign Host header (its constructor fixed the protection for 127.0.0.1), and so does
    the port, which passes that protection (without it mcp 2.3 answers 200)."""
    target, _text, _run = _ported(tmp_path, "bugs_24")
    for host in ("127.0.0.1", "0.0.0.0"):
        expected = [["ping_back"], ["cba"], False, 421]
        assert _served(legacy_python, DATA / "bugs_24" / "server.py", "legacy", host) == expected
        assert _served(mcp2_python, target, mode, host) == expected


# -- telegram-mcp's `_serve`: the writes dominate a start in each branch of an `if` ----------------
PROTECTION = """TransportSecuritySettings(
                    enable_dns_rebinding_protection=True,
                    allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
                    allowed_origins=[
                        "http://127.0.0.1:*",
                        "http://localhost:*",
                        "http://[::1]:*",
                    ],
                )"""


def test_settings_written_before_a_start_in_each_branch_move_to_each(tmp_path: Path) -> None:
    target, text, run = _ported(tmp_path, "relay_branches")
    original = (DATA / "relay_branches.py").read_text(encoding="utf-8")
    moved = f"""(
                host=os.getenv("TRACE_HOST", "127.0.0.1"),
                transport_security={PROTECTION},
                port=int(os.getenv("TRACE_PORT", "8765")),
            )"""
    assert text == original.replace(
        "from mcp.server.fastmcp import FastMCP",
        "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.transport_security import TransportSecuritySettings",
    ).replace('mcp = FastMCP("trace-relay")', 'mcp = MCPServer("trace-relay")').replace(
        """        mcp.settings.host = os.getenv("TRACE_HOST", "127.0.0.1")
        mcp.settings.port = int(os.getenv("TRACE_PORT", "8765"))
""",
        "",
    ).replace("await mcp.run_streamable_http_async()", f"await mcp.run_streamable_http_async{moved}").replace(
        "await mcp.run_sse_async()", f"await mcp.run_sse_async{moved}"
    )
    assert sorted((f["rule"], f["line"]) for f in run["fixed"]) == [("MCP501", 8), ("MCP503", 20), ("MCP503", 21)]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_settings_moved_to_branch_starts_serve_where_the_original_did(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """The original on mcp 1.27 and the port on 2.3, over Streamable HTTP at TRACE_HOST:TRACE_PORT:
    same tools and answer, and a foreign Host header refused on both, also bound to 0.0.0.0."""
    target, _text, _run = _ported(tmp_path, "relay_branches")
    for host in ("127.0.0.1", "0.0.0.0"):
        expected = [["ping_back"], ["cba"], False, 421]
        assert _served(legacy_python, DATA / "relay_branches.py", "legacy", host) == expected
        assert _served(mcp2_python, target, mode, host) == expected


# -- notify-18: `@server.set_logging_level()` / `@server.subscribe_resource()` are ported ---------
# The driver serves the module's low-level `server` in memory (mcp 1.x: the SDK's connected
# session; mcp 2.x: `Client(server, mode=…)`), runs the steps (argv[3], JSON) and prints what each
# answered — its result, or the JSON-RPC error's code and message — the server's capabilities
# (without `experimental`: mcp 1.x always sends an empty map, 2.x none), and the module-level
# names of argv[4] afterwards (what the handlers recorded).
LOWLEVEL_DRIVER = (
    LEAVE
    + """
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("port_case", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
mode, steps, names = sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
try:
    import mcp
    from mcp import MCPError as Failed
    client, caps = mcp.Client(m.server, mode=mode), lambda c: c.server_capabilities
except (ImportError, AttributeError):
    from mcp.shared.exceptions import McpError as Failed
    from mcp.shared.memory import create_connected_server_and_client_session
    client, caps = create_connected_server_and_client_session(m.server), lambda c: c.get_server_capabilities()
import mcp.types as types


async def step(c, kind, arg):
    if kind == "level":
        return await c.set_logging_level(arg)
    if kind == "subscribe":
        return await c.subscribe_resource(arg)
    if kind == "unsubscribe":
        return await c.unsubscribe_resource(arg)
    if kind == "complete":
        return await c.complete(types.PromptReference(type="ref/prompt", name=arg[0]), arg[1])
    return await c.call_tool(arg, {})


async def main():
    async with client as c:
        out = {"capabilities": caps(c).model_dump(mode="json", by_alias=True, exclude_none=True)}
        out["capabilities"].pop("experimental", None)
        out["steps"] = []
        for kind, arg in steps:
            try:
                r = await step(c, kind, arg)
                answer = r.model_dump(mode="json", by_alias=True, exclude_none=True)
                answer.pop("resultType", None)  # mcp 2.x's result models carry it (a 2026-07-28 field)
                answer.pop("_meta", None)  # on 2026-07-28 mcp 2.x adds the server's name and version
                out["steps"].append(answer)
            except Failed as e:
                err = getattr(e, "error", e)
                out["steps"].append({"error": [err.code, err.message]})
        out["state"] = {n: sorted(v) if isinstance(v, set) else v for n, v in ((n, getattr(m, n)) for n in names)}
        print(json.dumps(out))


anyio.run(main)
leave()
"""
)


def _drive(python: str, file: Path, mode: str, steps: list, names: list[str]) -> dict:
    out = subprocess.run(
        [python, "-c", LOWLEVEL_DRIVER, str(file), mode, json.dumps(steps), json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return json_answer(out, f"{file.name} under {python} ({mode})", last_line=True)


def test_notify18_level_and_subscribe_handlers_are_ported(tmp_path: Path) -> None:
    """Both decorators are ported like the others (an adapter each, registered on the
    constructor) and kept: MCP402 and MCP302 then say what legacy clients still use them for."""
    target, text, run = _ported(tmp_path, "notify_18")
    assert text == (DATA / "notify_18.fixed.py").read_text(encoding="utf-8")
    assert sorted((f["rule"], f["line"]) for f in run["fixed"]) == [
        ("MCP507", 29),
        ("MCP507", 34),
        ("MCP507", 39),
        ("MCP507", 44),
    ]
    assert sorted((f["rule"], f["severity"]) for f in run["findings"]) == [
        ("MCP302", "breaking"),
        ("MCP402", "legacy-only"),
    ]
    assert 'dependencies=["mcp>=2.3,<3"]' in (target.parent / "pyproject.toml").read_text()


NOTIFY18_STEPS = [["level", "warning"], ["subscribe", "file:///tmp/a.txt"], ["tool", "balance"]]


def test_notify18_the_port_answers_legacy_clients_as_the_original(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """mcp 1.27's handlers record the level and the subscribed URI; the port's do the same on a
    legacy connection of mcp 2.3, and declare the same capabilities."""
    target, _text, _run = _ported(tmp_path, "notify_18")
    names = ["floor", "watched"]
    old = _drive(legacy_python, DATA / "notify_18.py", "legacy", NOTIFY18_STEPS, names)
    new = _drive(mcp2_python, target, "legacy", NOTIFY18_STEPS, names)
    assert new == old
    assert old["state"] == {"floor": {"level": "warning"}, "watched": ["file:///tmp/a.txt"]}
    assert old["capabilities"] == {"logging": {}, "tools": {"listChanged": False}}
    assert old["steps"][2]["content"] == [{"type": "text", "text": "42"}]


def test_notify18_the_port_serves_2026_clients(tmp_path: Path, mcp2_python: str) -> None:
    """On 2026-07-28 neither method exists (the client does not send them); the tool answers."""
    target, _text, _run = _ported(tmp_path, "notify_18")
    new = _drive(mcp2_python, target, "2026-07-28", [["tool", "balance"]], ["floor", "watched"])
    assert new["steps"][0]["content"] == [{"type": "text", "text": "42"}]
    assert new["state"] == {"floor": {"level": "info"}, "watched": []}


# The rest of notify-18's kind: a failing level handler, `unsubscribe_resource` reading the URI as
# the AnyUrl 1.x passed, and `completion` (None is an empty completion).
WORDS = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("words")
seen: list[str] = []


@server.set_logging_level()
async def level(level: types.LoggingLevel) -> None:
    if level == "debug":
        raise ValueError("debug output is not available")
    seen.append(level)


@server.unsubscribe_resource()
async def drop(uri) -> None:
    seen.append(f"{uri.scheme} {uri.host} {uri.path}")


@server.list_prompts()
async def prompts() -> list[types.Prompt]:
    return [types.Prompt(name="greet", arguments=[types.PromptArgument(name="who")])]


@server.completion()
async def complete(ref, argument, context):
    if argument.name != "who":
        return None
    return types.Completion(values=[v for v in ("ann", "bob") if v.startswith(argument.value)], hasMore=False)
"""
WORDS_STEPS = [
    ["level", "warning"],
    ["level", "debug"],
    ["unsubscribe", "https://Example.com/a b"],
    ["complete", ["greet", {"name": "who", "value": "a"}]],
    ["complete", ["greet", {"name": "tone", "value": ""}]],
]


@pytest.mark.parametrize("mode", MODES)
def test_level_subscription_and_completion_handlers_answer_as_on_mcp1(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    (tmp_path / "before").mkdir()
    before = tmp_path / "before" / "server.py"
    before.write_text(WORDS, encoding="utf-8")
    (tmp_path / "after").mkdir()
    target = tmp_path / "after" / "server.py"
    target.write_text(WORDS, encoding="utf-8")
    res = _fix(target.parent)
    assert sorted(f["line"] for f in res.json["fixed"]) == [8, 15, 20, 25], str(res)
    assert "@server" not in target.read_text(encoding="utf-8")
    old = _drive(legacy_python, before, "legacy", WORDS_STEPS, ["seen"])
    assert old["steps"] == [
        {},
        {"error": [0, "debug output is not available"]},
        {},
        {"completion": {"values": ["ann"], "hasMore": False}},
        {"completion": {"values": []}},
    ]
    assert old["state"] == {"seen": ["warning", "https example.com /a%20b"]}
    if mode == "legacy":
        assert _drive(mcp2_python, target, "legacy", WORDS_STEPS, ["seen"]) == old
    else:  # 2026-07-28 has no logging/setLevel or resources/unsubscribe; completion answers the same
        new = _drive(mcp2_python, target, "2026-07-28", WORDS_STEPS[3:], ["seen"])
        assert new["steps"] == old["steps"][3:]


# -- camelCase fields named by a literal in getattr/hasattr (issue 24 item 3) ---------------------
# dbt-mcp's shape (roots-17's "Seen in"): the client's name read defensively. On mcp 2.x
# `getattr(info, "clientInfo", None)` is None and `hasattr(info, "protocolVersion")` False — the
# tool silently answers otherwise; the port renames the literal as it renames the attribute.
GETATTR = """\
from mcp.server.fastmcp import Context, FastMCP
from mcp.types import Tool

app = FastMCP("ga")


@app.tool()
async def who(ctx: Context) -> str:
    info = ctx.session.client_params
    client = getattr(info, "clientInfo", None)
    name = getattr(client, "name", "?") if client else "nobody"
    return f"{name} {hasattr(info, 'protocolVersion')} {hasattr(info, 'capabilities')}"


def schema(tool: Tool) -> dict:
    return getattr(tool, "inputSchema")
"""


def _getattr_project(tmp: Path, source: str, pin: str) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "pyproject.toml").write_text(f'[project]\nname="c"\nversion="0"\ndependencies=["{pin}"]\n')
    (tmp / "server.py").write_text(source, encoding="utf-8")
    return tmp / "server.py"


def test_getattr_and_hasattr_literals_are_renamed(tmp_path: Path) -> None:
    target = _getattr_project(tmp_path, GETATTR, "mcp>=1.20,<2")
    found = cli(["check", "--target-sdk", "mcp2", "--select", "MCP506", "--output-format", "json", "."], tmp_path)
    assert [(f["line"], f["column"], f["message"].split(" on mcp 2.x")[0]) for f in found.json["findings"]] == [
        (10, 28, '`getattr(info, "clientInfo", None)` is `getattr(info, "client_info", None)`'),
        (12, 36, "`hasattr(info, 'protocolVersion')` is `hasattr(info, 'protocol_version')`"),
        (16, 26, '`getattr(tool, "inputSchema")` is `getattr(tool, "input_schema")`'),
    ]
    _fix(tmp_path)
    assert target.read_text(encoding="utf-8") == GETATTR.replace("FastMCP", "MCPServer").replace(
        "mcp.server.fastmcp", "mcp.server.mcpserver"
    ).replace('"clientInfo"', '"client_info"').replace("'protocolVersion'", "'protocol_version'").replace(
        '"inputSchema"', '"input_schema"'
    )
    assert _fix(tmp_path).json["fixed"] == []


def test_a_literal_on_an_unknown_receiver_or_a_rebound_getattr_is_not_renamed(tmp_path: Path) -> None:
    source = GETATTR.replace("def schema(tool: Tool)", "def schema(tool)").replace(
        "from mcp.types import Tool\n", "from mcp.types import Tool\nfrom operator import attrgetter as hasattr\n"
    )
    _getattr_project(tmp_path, source, "mcp>=1.20,<2")
    found = cli(["check", "--target-sdk", "mcp2", "--select", "MCP506", "--output-format", "json", "."], tmp_path)
    assert [f["line"] for f in found.json["findings"]] == [11]  # getattr on the client params only


@pytest.mark.parametrize("mode", MODES)
def test_the_ported_getattr_reads_answer_as_on_mcp1(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    before = _getattr_project(tmp_path / "before", GETATTR, "mcp>=1.20,<2")
    after = _getattr_project(tmp_path / "after", GETATTR, "mcp>=1.20,<2")
    _fix(after.parent)
    calls = [{"tool": "who", "arguments": {}}]
    old = run_proof(legacy_python, before, "app", "legacy", [], calls)
    new = run_proof(mcp2_python, after, "app", mode, [], calls)
    assert _calls(new) == _calls(old) == [{"error": None, "is_error": False, "text": ["mcp True True"]}]


FASTMCP_GETATTR = """\
from fastmcp import Context, FastMCP

app = FastMCP("ga")


@app.tool
async def who(ctx: Context) -> str:
    info = ctx.session.client_params
    client = getattr(info, "clientInfo", None)
    return f"{getattr(client, 'name', '?') if client else 'nobody'} {hasattr(info, 'protocolVersion')}"
"""


@pytest.mark.parametrize("mode", MODES)
def test_the_fastmcp4_port_renames_getattr_literals_too(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """MCP519: fastmcp 4 hands the tool mcp 2.x's `InitializeRequestParams`; fastmcp 2.14 answered
    with the client's name, and so does the port."""
    before = _getattr_project(tmp_path / "before", FASTMCP_GETATTR, "fastmcp>=2.10,<3")
    after = _getattr_project(tmp_path / "after", FASTMCP_GETATTR, "fastmcp>=2.10,<3")
    res = cli(["fix", "--target-sdk", "fastmcp4", "--output-format", "json", "."], after.parent)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == [("MCP519", 9), ("MCP519", 10)], str(res)
    assert after.read_text(encoding="utf-8") == FASTMCP_GETATTR.replace('"clientInfo"', '"client_info"').replace(
        "'protocolVersion'", "'protocol_version'"
    )
    calls = [{"tool": "who", "arguments": {}}]
    old = run_proof(legacy_python, before, "app", "legacy", [], calls)
    new = run_proof(mcp2_python, after, "app", mode, [], calls)
    assert _calls(new) == _calls(old) == [{"error": None, "is_error": False, "text": ["mcp True"]}]


# -- a blocked port's positions are those of the file on disk (issue 24 item 5) -------------------
# The first server's port adds imports and adapters above the second server, whose
# `progress_notification()` handler blocks the port: nothing is written, so every position
# printed — the left findings and the blocking error — is a line of the file as it is.
HELD = """\
import mcp.types as types
from mcp.server import Server

server = Server("ledger")


@server.list_tools()
async def tools() -> list[types.Tool]:
    return [types.Tool(name="balance", inputSchema={"type": "object"})]


@server.call_tool()
async def call(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text="42")]


other = Server("progress")


@other.progress_notification()
async def progress(token, done, total, message) -> None:
    pass
"""


def test_a_blocked_port_prints_positions_of_the_file_on_disk(tmp_path: Path) -> None:
    target = _getattr_project(tmp_path, HELD, "mcp>=1.20,<2")
    res = _fix(tmp_path)
    assert res.exit_code == 1 and res.json["fixed"] == []
    assert target.read_text(encoding="utf-8") == HELD
    assert [(f["rule"], f["line"], f["column"]) for f in res.json["findings"]] == [
        ("MCP507", 7, 1),
        ("MCP507", 12, 1),
        ("MCP507", 20, 1),
    ]
    (error,) = res.json["errors"]
    assert (error["line"], error["column"]) == (20, 1)
    assert error["message"].startswith(
        "blocks the port to mcp 2.x: MCP507 at line 20: `@other.progress_notification()`"
    )
    text = cli(["fix", "--target-sdk", "mcp2", "."], tmp_path).stdout
    assert "left   server.py:20:1 MCP507 port-lowlevel-decorators: manual: `@other.progress_notification()`" in text
    assert HELD.splitlines()[19] == "@other.progress_notification()"


# LinkupPlatform/python-mcp-server's shape (notify-18's "Seen in"): the setLevel handler is named
# like its decorator and reads `server.request_context`. The decorator's attribute name is no
# other use of the function: the handler takes the adapter's `ctx` and the port goes through.
LINKUP = """\
import logging

import mcp.types as types
from mcp.server import Server

server = Server("linkup-like")
logger = logging.getLogger("linkup-like")
seen: list[str] = []


@server.set_logging_level()
async def set_logging_level(level: types.LoggingLevel) -> types.EmptyResult:
    logger.setLevel(level.upper())
    seen.append(f"{level} in a request: {server.request_context.session is not None}")
    return types.EmptyResult()
"""


def test_a_handler_named_like_its_decorator_takes_the_context(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    target = _getattr_project(tmp_path / "after", LINKUP, "mcp>=1.0.0")
    res = _fix(target.parent)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == [("MCP505", 14), ("MCP507", 11)], str(res)
    text = target.read_text(encoding="utf-8")
    assert (
        "async def set_logging_level(\n    level: types.LoggingLevel, ctx: ServerRequestContext\n) -> types.EmptyResult:"
        in text
    )
    assert "        await set_logging_level(params.level, ctx=ctx)\n" in text
    before = _getattr_project(tmp_path / "before", LINKUP, "mcp>=1.0.0")
    old = _drive(legacy_python, before, "legacy", [["level", "error"]], ["seen"])
    assert old["state"] == {"seen": ["error in a request: True"]}
    assert _drive(mcp2_python, target, "legacy", [["level", "error"]], ["seen"]) == old


# -- a tool error raised by a method of a handler object of another module (tumf/mcp-text-editor) --
def test_a_tool_delegating_to_a_handler_object_of_another_module_keeps_its_error_text(tmp_path: Path) -> None:
    """MCP510 sees no raise in the tools' module; the handler objects' methods raise (in
    ``handlers.py``): the calls into them are raise sites, and the tools' bodies are wrapped."""
    target, text, run = _ported(tmp_path, "handler_errors")
    wrap = (
        "    try:\n        {call}\n    except (ToolError, UrlElicitationRequiredError):\n        raise\n"
        "    except Exception as exc:\n        raise ToolError(str(exc)) from exc\n"
    )
    original = (DATA / "handler_errors" / "server.py").read_text(encoding="utf-8")
    assert text == original.replace(
        "from mcp.server.fastmcp import FastMCP\n",
        "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.mcpserver.exceptions import ToolError\n"
        "from mcp.shared.exceptions import UrlElicitationRequiredError\n",
    ).replace("class NotebookServer(FastMCP):", "class NotebookServer(MCPServer):").replace(
        "    return reader.run(path)\n", wrap.format(call="return reader.run(path)")
    ).replace("    return await adder.run(path, text)\n", wrap.format(call="return await adder.run(path, text)"))
    assert sorted((f["rule"], f["line"]) for f in run["fixed"]) == [("MCP501", 1), ("MCP510", 16), ("MCP510", 22)]
    assert run["findings"] == [] and run["errors"] == []
    fresh = _project(tmp_path / "fresh", "handler_errors").parent
    checked = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], fresh).json
    assert [f["message"].split(";")[0] for f in checked["findings"] if f["rule"] == "MCP510"] == [
        "Tool `read_note` raises what `reader.run` (an instance of `ReadNote` from `handlers`) raises (line 18)",
        "Tool `add_note` raises what `adder.run` (an instance of `AddNote` from `handlers`) raises (line 24)",
    ]


@pytest.mark.parametrize("mode", MODES)
def test_the_handler_errors_port_answers_as_the_original(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    target, _text, _run = _ported(tmp_path, "handler_errors")
    existing = tmp_path / "there.txt"
    existing.write_text("old\n")
    calls = [
        {"tool": "read_note", "arguments": {"path": "relative.txt"}},
        {"tool": "read_note", "arguments": {"path": str(tmp_path / "missing.txt")}},
        {"tool": "read_note", "arguments": {"path": str(existing)}},
        {"tool": "add_note", "arguments": {"path": str(existing), "text": "x"}},
        {"tool": "count_words", "arguments": {"text": "a b c"}},
    ]
    old = run_proof(legacy_python, DATA / "handler_errors" / "server.py", "notes", "legacy", [], calls)
    new = run_proof(mcp2_python, target, "notes", mode, [], calls)
    assert (
        _calls(new)
        == _calls(old)
        == [
            {
                "error": None,
                "is_error": True,
                "text": ["Error executing tool read_note: Note path must be absolute: relative.txt"],
            },
            {
                "error": None,
                "is_error": True,
                "text": ["Error executing tool read_note: Cannot read note: No such file or directory"],
            },
            {"error": None, "is_error": False, "text": ["old\n"]},
            {
                "error": None,
                "is_error": True,
                "text": [f"Error executing tool add_note: Note already exists: {existing}"],
            },
            {"error": None, "is_error": False, "text": ["3"]},
        ]
    )


# -- a session matched against the sessions earlier calls stored (hesreallyhim/mcp-observer-server) --
def test_a_session_matched_against_stored_sessions_is_left_with_the_difference(tmp_path: Path) -> None:
    """mcp 1.x's ``server.request_context.session`` was one object per connection; the port's
    ``ctx.session`` is one per request: ``session in subs`` / ``subs.discard(session)`` never match
    on mcp 2.x. The port goes through and leaves both sites, saying what changes."""
    target = _project(tmp_path, "session_matches")
    res = cli(["fix", *PORT, "."], target.parent)
    run = res.json
    assert sorted((f["rule"], f["line"]) for f in run["fixed"]) == [("MCP505", 20), ("MCP507", 8), ("MCP507", 17)]
    left = [(f["rule"], f["severity"], f["message"].split(";")[0]) for f in run["findings"]]
    assert left == [
        (
            "MCP601",
            "breaking",
            "`session in subs` in `call_tool` looks for this client's session among the sessions earlier calls stored",
        ),
        (
            "MCP601",
            "breaking",
            "`subs.discard(session)` in `call_tool` looks for this client's session among the sessions earlier "
            "calls stored",
        ),
    ]
    assert "on mcp 2.x it never finds one an earlier call stored" in run["findings"][0]["message"]
    assert all(f["manual"].startswith("a handle has to be designed by hand") for f in run["findings"])
    assert res.exit_code == 1


@pytest.mark.parametrize("mode", MODES)
def test_the_session_matches_port_differs_as_reported(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """What the finding says, measured: a client that follows then unfollows a topic is told
    "stopped following" by the original on mcp 1.27, "not following" by the port on mcp 2.3."""
    target = _project(tmp_path, "session_matches")
    cli(["fix", *PORT, "."], target.parent)
    calls = [
        {"tool": "follow", "arguments": {"topic": "rain"}},
        {"tool": "follow", "arguments": {"topic": "rain"}},
        {"tool": "unfollow", "arguments": {"topic": "rain"}},
    ]
    old = run_proof(legacy_python, DATA / "session_matches.py", "server", "legacy", [], calls)
    new = run_proof(mcp2_python, target, "server", mode, [], calls)
    assert [c["text"] for c in old["calls"]] == [
        ["following rain (1)"],
        ["following rain (1)"],
        ["stopped following rain"],
    ]
    assert [c["text"] for c in new["calls"]] == [["following rain (1)"], ["following rain (2)"], ["not following rain"]]

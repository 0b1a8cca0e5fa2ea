"""The port to mcp 2.x of a low-level server whose decorators are held under other names
(scholens-mcp-connector's shape, issue 22): ``register = cast(T, server.list_tools)`` applied as
``@register()``, ``register = server.call_tool(validate_input=False)`` applied as ``@register``,
and ``request_ctx.get()`` read in a helper the tool handler calls.

- ``tests/data/port/aliased.py`` is ported exactly to ``aliased.fixed.py``: each alias line goes,
  each handler gets its ``on_…`` adapter registered with ``add_request_handler`` (the server is built
  with an annotation, so in place), ``validate_input=False`` is kept (no schema check), the helper
  takes the handler's ``ctx`` and the ``request_ctx`` import goes.
- The original on mcp 1.27 and the port on mcp 2.3 answer the same, in both eras, also to the call
  whose arguments the listed schema would refuse (1.x did not check them there).
- The shapes the port cannot follow keep MCP507 with the reason, and the port writes nothing.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.test_port_threading import serve

DATA = Path(__file__).resolve().parent / "data" / "port"
PYPROJECT = '[project]\nname = "case"\nversion = "0"\ndependencies = ["mcp>=1.0,<2"]\n'


def _project(where: Path, source: str | None = None) -> Path:
    where.mkdir()
    (where / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    server = where / "server.py"
    if source is None:
        shutil.copy(DATA / "aliased.py", server)
    else:
        server.write_text(source, encoding="utf-8")
    return server


def test_aliased_decorators_are_ported_exactly(tmp_path: Path) -> None:
    server = _project(tmp_path / "p")
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    got = [(f["rule"], f["line"], f["column"], f["fix"]["safety"] if f["fix"] else None) for f in res.json["findings"]]
    assert got == [
        ("MCP509", 8, 40, "safe"),
        ("MCP505", 18, 29, "safe"),
        ("MCP507", 21, 1, "safe"),
        ("MCP507", 27, 1, "safe"),
    ]
    messages = {f["line"]: f["message"] for f in res.json["findings"]}
    assert messages[21].startswith(
        "`@add_lister()` (`relay.list_tools` held as `add_lister`) registers `tools` with a decorator"
    )
    assert messages[27].startswith(
        "`@add_caller` (`relay.call_tool` held as `add_caller`) registers `call` with a decorator"
    )
    fixed = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    assert fixed.json["errors"] == [] and fixed.json["findings"] == [], str(fixed)
    assert server.read_text(encoding="utf-8") == (DATA / "aliased.fixed.py").read_text(encoding="utf-8")
    again = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    assert again.json["fixed"] == []
    assert server.read_text(encoding="utf-8") == (DATA / "aliased.fixed.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_ported_relay_answers_as_the_original(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    before = _project(tmp_path / "before")
    after = _project(tmp_path / "after")
    assert cli(["fix", "--target-sdk", "mcp2", "."], after.parent).exit_code == 0
    calls = [("echo", {"text": "hi"}), ("echo", {})]
    old = serve(legacy_python, before, "relay", calls=calls)
    assert old == [
        {"echo": ["text"]},
        {"is_error": False, "texts": ["echo 'hi', in a request: True"]},
        # validate_input=False: 1.x did not check the arguments against the listed schema
        {"is_error": False, "texts": ["echo None, in a request: True"]},
    ]
    assert serve(mcp2_python, after, "relay", mode, calls=calls) == old


ALIAS_HEAD = """\
from mcp import types
from mcp.server import Server

relay = Server("relay")
"""


@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        (
            "add = relay.call_tool()\n\n\n@add\nasync def one(name, arguments):\n    return []\n\n\n"
            "@add\nasync def two(name, arguments):\n    return []\n",
            5,
            "`relay.call_tool` is held as `add` and applied to 2 functions; on mcp 1.x the last one replaces the "
            "others: keep the one that is served and move it to `Server(on_call_tool=…)` by hand",
        ),
        (
            "add = relay.call_tool\nREGISTRARS = [add]\n\n\n@add()\nasync def one(name, arguments):\n    return []\n",
            5,
            "`relay.call_tool` is held as `add`, which is also used other than as the decorator of a function of the "
            "same block (passed on, called, or bound again), so the port cannot tell which functions it registers: "
            "move each to `Server(on_call_tool=…)` by hand",
        ),
        (
            "add = relay.list_tools\n\n\ndef build():\n    @add()\n    async def listed():\n        return []\n",
            5,
            "`relay.list_tools` is held as `add`, which is used other than as the decorator of a function of the "
            "same block (passed on, called, or bound again), so the port cannot tell which functions it registers: "
            "move each to `Server(on_list_tools=…)` by hand",
        ),
    ],
    ids=["applied-twice", "passed-on", "other-block"],
)
def test_an_alias_the_port_cannot_follow_keeps_mcp507_with_the_reason(
    tmp_path: Path, body: str, line: int, reason: str
) -> None:
    source = ALIAS_HEAD + body
    server = _project(tmp_path / "p", source)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    assert server.read_text(encoding="utf-8") == source
    manual = [(f["line"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP507"]
    assert manual == [(line, reason)]
    assert f"blocks the port to mcp 2.x: MCP507 at line {line}" in res.json["errors"][0]["message"]


# -- scholens' `_client_roots`: the roots request read through `request_ctx.get()` --------------------
# The port threads the handler's `ctx` to the helper, and `--unsafe-fixes` answers the roots from the
# server's configuration in the same run: the report lists that MCP101 fix (scholens22 saw it missing).
ROOTS_VIA_REQUEST_CTX = """\
from pathlib import Path

import mcp.types as types
from mcp.server import Server
from mcp.server.lowlevel.server import request_ctx
from mcp.shared.exceptions import McpError

files = Server("files")


async def _client_roots() -> list[Path]:
    try:
        response = await request_ctx.get().session.list_roots()
    except (McpError, RuntimeError):
        return []
    return [Path(str(root.uri).removeprefix("file://")) for root in response.roots]


def resolve(path: str, roots: list[Path]) -> Path:
    target = Path(path).resolve()
    if not any(target.is_relative_to(root) for root in roots):
        raise ValueError(f"{path} is outside the roots")
    return target


@files.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    target = resolve(arguments["path"], await _client_roots())
    return [types.TextContent(type="text", text=target.read_text())]


@files.list_tools()
async def list_tools() -> list[types.Tool]:
    schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    return [types.Tool(name="read", inputSchema=schema)]
"""


def test_a_roots_request_read_through_request_ctx_is_ported_and_answered_from_configuration(
    tmp_path: Path, legacy_python: str, mcp2_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.proof import run_proof

    before = _project(tmp_path / "before", ROOTS_VIA_REQUEST_CTX)
    server = _project(tmp_path / "after", ROOTS_VIA_REQUEST_CTX)
    args = ["fix", "--no-cache", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."]
    res = cli(args, server.parent)
    assert res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == [
        ("MCP101", 13),
        ("MCP502", 6),
        ("MCP505", 13),
        ("MCP507", 26),
        ("MCP507", 32),
        ("MCP509", 5),
    ]
    [roots] = [f for f in res.json["fixed"] if f["rule"] == "MCP101"]
    # planned on the ported text (pipeline._round_findings): the request stays on legacy connections
    assert roots["fix"]["safety"] == "safe"
    assert roots["fix"]["description"].startswith(
        "answer the roots request on 2026-07-28 connections from the `FILES_ROOTS` environment variable (server "
        "configuration, read once at start; unset, those calls fail as they do today), and keep it on legacy "
        "connections (`ctx.session.can_send_request`): the roots bound what the tool may touch (an allow-list check "
        "in `resolve`)"
    )
    text = server.read_text(encoding="utf-8")
    assert "request_ctx" not in text
    assert (
        "            await ctx.session.list_roots()\n            if ctx.session.can_send_request\n            else _configured_roots()\n"
        in text
    )
    assert cli(args, server.parent).json["fixed"] == []
    assert server.read_text(encoding="utf-8") == text

    work = tmp_path / "w"
    work.mkdir()
    (work / "note.txt").write_text("inside", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("outside", encoding="utf-8")
    calls = [{"tool": "read", "arguments": {"path": str(p)}} for p in (work / "note.txt", tmp_path / "secret.txt")]

    def answers(python: str, where: Path, mode: str, roots: list[str]) -> list[tuple[bool, list[str]]]:
        out = run_proof(python, where, "files", mode, roots, calls)
        return [(c["is_error"], c["text"]) for c in out["calls"]]

    old = answers(legacy_python, before, "legacy", [work.as_uri()])
    assert old == [(False, ["inside"]), (True, [f"{tmp_path / 'secret.txt'} is outside the roots"])]
    assert answers(mcp2_python, server, "legacy", [work.as_uri()]) == old  # the client's roots, as before
    monkeypatch.setenv("FILES_ROOTS", str(work))
    assert answers(mcp2_python, server, "modern", []) == old
    monkeypatch.delenv("FILES_ROOTS")  # unset: every call fails as for a client without roots
    assert answers(mcp2_python, server, "modern", [])[0] == (True, [f"{work / 'note.txt'} is outside the roots"])


def test_request_ctx_read_under_a_fastmcp_tool_stays_manual_naming_the_tool(tmp_path: Path) -> None:
    """A FastMCP tool (no adapter of the port's) reaching ``request_ctx.get()``: the reasons say it is
    that server's tool, which takes a ``Context`` on mcp 2.x, not a low-level handler's ``ctx``."""
    source = (
        "from mcp.server.fastmcp import FastMCP\n"
        "from mcp.server.lowlevel.server import request_ctx\n\n"
        'mcp = FastMCP("x")\n\n\n'
        "def _client_name() -> str:\n"
        "    return request_ctx.get().session.client_params.clientInfo.name\n\n\n"
        "@mcp.tool()\n"
        "def who() -> str:\n"
        "    return _client_name()\n"
    )
    server = _project(tmp_path / "p", source)
    res = cli(["fix", "--no-cache", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    assert server.read_text(encoding="utf-8") == source
    why = (
        "`who` is a `tools/call` handler of the FastMCP server `mcp`, not a low-level one: on mcp 2.x give it a "
        "`ctx: Context` parameter and pass `ctx.request_context` down by hand"
    )
    manual = {(f["rule"], f["line"]): f["manual"] for f in res.json["findings"] if f["rule"] in ("MCP505", "MCP509")}
    assert manual == {
        ("MCP509", 2): f"`request_ctx` is gone on mcp 2.x and its `request_ctx.get()` stays: {why}",
        ("MCP505", 8): why,
    }


# -- python-sdk v1.27.0's everything-server: `@mcp._mcp_server.set_logging_level()` ---------------------
# The decorator is applied directly, on FastMCP's private low-level server: the port registers the
# function on mcp 2.x's `_lowlevel_server` (codemods/port/private_lowlevel.py; proved over HTTP in
# test_port_private_lowlevel.py). A decorator of that server it does not register keeps the reason
# saying where to register it (it used to say the decorator was "held as a value").
PRIVATE_SET_LEVEL = """\
import logging

from mcp.server.fastmcp import FastMCP

logger = logging.getLogger(__name__)
mcp = FastMCP("levels")
levels: list[str] = []


@mcp._mcp_server.set_logging_level()
async def handle_set_logging_level(level: str) -> None:
    logger.info(f"Log level set to: {level}")
    levels.append(level)
"""
PRIVATE_COMPLETION = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("levels")


@mcp._mcp_server.completion()
async def complete(ref, argument, context):
    return None
"""


def test_a_decorator_on_fastmcps_private_server_is_registered_on_its_lowlevel_server(
    tmp_path: Path, mcp2_python: str
) -> None:
    server = _project(tmp_path / "p", PRIVATE_SET_LEVEL)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    assert res.json["errors"] == [], str(res)
    ported = server.read_text(encoding="utf-8")
    assert ported.endswith(
        "async def handle_set_logging_level(level: str) -> None:\n"
        '    logger.info(f"Log level set to: {level}")\n'
        "    levels.append(level)\n\n\n"
        "async def on_set_logging_level(\n"
        "    ctx: ServerRequestContext, params: SetLevelRequestParams\n"
        ") -> EmptyResult:\n"
        "    try:\n"
        "        await handle_set_logging_level(params.level)\n"
        "    except MCPError:\n"
        "        raise\n"
        "    except Exception as exc:\n"
        "        raise MCPError(0, str(exc)) from exc\n"
        "    return EmptyResult()\n\n\n"
        "mcp._lowlevel_server.add_request_handler(\n"
        '    "logging/setLevel", SetLevelRequestParams, on_set_logging_level\n'
        ")\n"
    ), ported
    run = (
        "import anyio, importlib.util, mcp, sys\n"
        "spec = importlib.util.spec_from_file_location('s', sys.argv[1]); m = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(m)\n"
        "async def main():\n"
        "    async with mcp.Client(m.mcp, mode='legacy') as c:\n"
        "        await c.set_logging_level('debug')\n"
        "        print(c.server_capabilities.logging is not None, m.levels)\n"
        "anyio.run(main)\n"
    )
    out = subprocess.run([mcp2_python, "-c", run, str(server)], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "True ['debug']", out.stderr


def test_a_decorator_the_port_does_not_register_says_where_to_register_it(tmp_path: Path) -> None:
    server = _project(tmp_path / "p", PRIVATE_COMPLETION)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    assert server.read_text(encoding="utf-8") == PRIVATE_COMPLETION
    manual = [(f["line"], f["column"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP507"]
    assert manual == [
        (
            6,
            2,
            "`@mcp._mcp_server.completion()` decorates `complete` on FastMCP's private "
            "low-level server `mcp._mcp_server`, which is `mcp._lowlevel_server` on mcp 2.x, a server the port does "
            "not rewrite: register `complete` there by hand with "
            '`mcp._lowlevel_server.add_request_handler("completion/complete", CompleteRequestParams, handler)`, the '
            "handler called as `(ctx, params)` (a `ServerRequestContext` and a `CompleteRequestParams`) and "
            "returning the `CompleteResult` itself",
        )
    ]
    assert "blocks the port to mcp 2.x: MCP507 at line 6" in res.json["errors"][0]["message"]

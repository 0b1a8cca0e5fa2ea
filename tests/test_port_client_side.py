"""The port to mcp 2.x of a proxy: a low-level server that forwards to an upstream server through
mcp 1.x's client (scholens-mcp-connector's shape). Three things mcp 2.x changed there used to pass
the port silently and crash the ported server at start-up: handler decorators read as values
(``register = cast(..., local.list_tools)``), the 3-tuple ``streamable_http_client`` yielded on 1.x
(2 on 2.x), and ``ClientSession(read_timeout_seconds=timedelta(...))`` (seconds on 2.x)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

# The decorators of a low-level `Server` held as values and applied under another name.
ALIASED = """\
from collections.abc import Awaitable, Callable
from typing import cast

from mcp import types
from mcp.server import Server

Lister = Callable[[], Awaitable[list[types.Tool]]]


def build() -> Server:
    relay: Server[object] = Server("relay")
    add_lister = cast(Callable[[], Callable[[Lister], Lister]], relay.list_tools)

    @add_lister()
    async def tools() -> list[types.Tool]:
        return []

    @relay.call_tool()
    async def call(name: str, arguments: dict) -> list[types.TextContent]:
        return [types.TextContent(type="text", text=name)]

    return relay
"""


def _project(where: Path, source: str) -> Path:
    (where / "pyproject.toml").write_text(
        '[project]\nname = "case"\nversion = "0"\ndependencies = ["mcp>=1.0,<2"]\n', encoding="utf-8"
    )
    target = where / "server.py"
    target.write_text(source, encoding="utf-8")
    return target


def test_a_decorator_read_as_a_value_blocks_the_port(tmp_path: Path) -> None:
    """mcp 2.x's `Server` has no `list_tools`: the alias line raises `AttributeError` at start-up, so the
    port refuses (writes nothing) with the reason, instead of porting only the direct decorator."""
    target = _project(tmp_path, ALIASED)
    res = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], tmp_path)
    assert target.read_text(encoding="utf-8") == ALIASED
    assert "mcp>=1.0,<2" in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    (alias,) = [f for f in res.json["findings"] if f["line"] == 12]
    assert (alias["rule"], alias["column"], alias["manual"]) == (
        "MCP507",
        65,
        "the handlers are registered through `relay.list_tools` held as a value, not with `@relay.list_tools()` "
        "on each function, and the port does not follow that value to the functions it registers: move each to "
        "`Server(on_list_tools=…)` by hand",
    )
    # the direct decorator of the same server is reported once, not as a value read
    assert [(f["rule"], f["line"]) for f in res.json["findings"] if f["rule"] == "MCP507"] == [
        ("MCP507", 12),
        ("MCP507", 18),
    ]
    (error,) = res.json["errors"]
    assert "blocks the port to mcp 2.x: MCP507 at line 12" in error["message"]


# A proxy's upstream connection: the session id read (manual), a timeout held in a module constant.
UPSTREAM = """\
from datetime import timedelta

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

PATIENCE = timedelta(minutes=2)


async def tools(url: str) -> list[str]:
    async with streamable_http_client(url) as (read, write, session_id):
        async with ClientSession(read, write, PATIENCE) as session:
            await session.initialize()
            print(session_id())
            return [t.name for t in (await session.list_tools()).tools]
"""


def test_a_read_session_id_blocks_and_a_timedelta_constant_is_converted(tmp_path: Path) -> None:
    target = _project(tmp_path, UPSTREAM)
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert [(f["rule"], f["line"], f["column"], f["manual"]) for f in res.json["findings"]] == [
        (
            "MCP522",
            10,
            48,
            "`session_id` (the session-id callback) is used in the code: mcp 2.x's transport yields no such "
            "callback, so decide what replaces each use of `session_id` and unpack `(read, write)` by hand",
        ),
        ("MCP522", 11, 47, None),
    ]
    fixed = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert target.read_text(encoding="utf-8") == UPSTREAM and fixed.json["errors"]
    # without the read, the port writes both
    target.write_text(UPSTREAM.replace("            print(session_id())\n", ""), encoding="utf-8")
    cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert target.read_text(encoding="utf-8") == UPSTREAM.replace("            print(session_id())\n", "").replace(
        "(read, write, session_id)", "(read, write)"
    ).replace("ClientSession(read, write, PATIENCE)", "ClientSession(read, write, PATIENCE.total_seconds())")

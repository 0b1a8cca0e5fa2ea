"""The port to mcp 2.x of a proxy: a low-level server that forwards to an upstream server through
mcp 1.x's client (scholens-mcp-connector's shape). Three things mcp 2.x changed there used to pass
the port silently and crash the ported server at start-up: handler decorators read as values
(``register = cast(..., local.list_tools)``, now ported when the alias is applied once in its
block), the 3-tuple ``streamable_http_client`` yielded on 1.x (2 on 2.x), and
``ClientSession(read_timeout_seconds=timedelta(...))`` (seconds on 2.x).

The client rewrite is run for real: the original client on mcp 1.27 and its port on mcp 2.3
connect to the same streamable HTTP server and get the same answers. mcp 2.3's transport is
written for ``httpx2`` (``streamable_http_client(url, http_client: httpx2.AsyncClient)``); the
``httpx.AsyncClient`` scholens passes (headers, timeout) still works there, so the port leaves it."""

from __future__ import annotations

import socket
import subprocess
import time
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


# ALIASED ported: the alias line goes, and both handlers (one through the alias, one with the
# decorator itself) get their adapters, registered in place (the server is built with an annotation)
ALIASED_PORTED = """\
from collections.abc import Awaitable, Callable

import jsonschema
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
)

Lister = Callable[[], Awaitable[list[types.Tool]]]


def build() -> Server:
    relay: Server[object] = Server("relay")

    async def tools() -> list[types.Tool]:
        return []

    async def on_list_tools(
        ctx: ServerRequestContext, params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        return ListToolsResult(tools=list(await tools()))

    relay.add_request_handler("tools/list", PaginatedRequestParams, on_list_tools)

    async def call(name: str, arguments: dict) -> list[types.TextContent]:
        return [types.TextContent(type="text", text=name)]

    async def on_call_tool(
        ctx: ServerRequestContext, params: CallToolRequestParams
    ) -> CallToolResult:
        arguments = params.arguments or {}
        try:
            tool = next((t for t in await tools() if t.name == params.name), None)
            if tool is not None:
                try:
                    jsonschema.validate(instance=arguments, schema=tool.input_schema)
                except jsonschema.ValidationError as exc:
                    return CallToolResult(
                        content=[
                            TextContent(
                                type="text",
                                text=f"Input validation error: {exc.message}",
                            )
                        ],
                        is_error=True,
                    )
            content = await call(params.name, arguments)
        except Exception as exc:
            return CallToolResult(
                content=[TextContent(type="text", text=str(exc))], is_error=True
            )
        return CallToolResult(content=list(content), is_error=False)

    relay.add_request_handler("tools/call", CallToolRequestParams, on_call_tool)

    return relay
"""


def test_a_decorator_held_under_another_name_is_ported_with_the_direct_one(tmp_path: Path) -> None:
    """The alias is applied once, in the block that holds it, and named nowhere else: `@add_lister()`
    is `@relay.list_tools()`, so the port writes it as it writes the direct decorator beside it
    (the shapes it cannot follow, and the real SDK run, are in tests/test_port_aliased.py)."""
    target = _project(tmp_path, ALIASED)
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert [(f["rule"], f["line"], f["manual"]) for f in res.json["findings"]] == [
        ("MCP507", 14, None),
        ("MCP507", 18, None),
    ]
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert res.json["errors"] == [] and res.json["findings"] == []
    assert target.read_text(encoding="utf-8") == ALIASED_PORTED
    assert "mcp>=2.3,<3" in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")


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


# scholens' upstream connection: its own httpx client (bearer header, timeout), the session id never
# read, the read timeout a timedelta, a camelCase field of the upstream result.
UPSTREAM_CLIENT = """\
import sys
from datetime import timedelta

import anyio
import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def upstream(url: str) -> list[str]:
    http = httpx.AsyncClient(headers={"Authorization": "Bearer k"}, timeout=httpx.Timeout(30, connect=10))
    try:
        async with (
            streamable_http_client(url, http_client=http) as (read, write, _session_id),
            ClientSession(read, write, read_timeout_seconds=timedelta(seconds=30)) as session,
        ):
            await session.initialize()
            listed = [t.name for t in (await session.list_tools()).tools]
            result = await session.call_tool("greet", {"name": "ada"})
            return [*listed, result.content[0].text, str(result.isError)]
    finally:
        await http.aclose()


if __name__ == "__main__":
    print(anyio.run(upstream, sys.argv[1]))
"""
UPSTREAM_SERVER = """\
import sys

from mcp.server.fastmcp import FastMCP

app = FastMCP("upstream", host="127.0.0.1", port=int(sys.argv[1]), stateless_http=True)


@app.tool()
def greet(name: str) -> str:
    return f"hello {name}"


app.run(transport="streamable-http")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_ported_client_connects_and_answers_as_the_original(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    target = _project(tmp_path, UPSTREAM_CLIENT)
    original = tmp_path.parent / f"{tmp_path.name}-original.py"
    original.write_text(UPSTREAM_CLIENT, encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert target.read_text(encoding="utf-8") == UPSTREAM_CLIENT.replace(
        "from datetime import timedelta\n", ""
    ).replace("(read, write, _session_id)", "(read, write)").replace(
        "read_timeout_seconds=timedelta(seconds=30)", "read_timeout_seconds=30"
    ).replace("result.isError", "result.is_error")
    server_file = tmp_path.parent / f"{tmp_path.name}-upstream.py"
    server_file.write_text(UPSTREAM_SERVER, encoding="utf-8")
    port = _free_port()
    server = subprocess.Popen([legacy_python, str(server_file), str(port)], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the upstream server did not start"
                time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/mcp"
        answers = [
            subprocess.run([python, str(file), url], capture_output=True, text=True, timeout=60)
            for python, file in ((legacy_python, original), (mcp2_python, target))
        ]
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert [(a.returncode, a.stdout) for a in answers] == [(0, "['greet', 'hello ada', 'False']\n")] * 2, answers


# Where scholens reads camelCase fields of the upstream's results: a handler nested in the block
# that opens the session, the items of a result's list, `next(...)` over an annotated sequence.
READS = """\
from collections.abc import Sequence

from mcp import ClientSession, types


def output_of(tools: Sequence[types.Tool]) -> object:
    ingest = next(tool for tool in tools if tool.name == "ingest")
    return ingest.outputSchema


async def relay(read, write) -> None:
    async with ClientSession(read, write) as remote:

        async def templates() -> list[types.ResourceTemplate]:
            return (await remote.list_resource_templates()).resourceTemplates

        async def mimes(uri: str) -> list[str | None]:
            result = await remote.read_resource(uri)
            return [item.mimeType for item in result.contents]

        print(await templates(), await mimes("a://b"))
"""


def test_camelcase_reads_of_upstream_results_are_typed(tmp_path: Path) -> None:
    """Each of these raised `AttributeError` on mcp 2.3 (checked there): MCP506 types them and the
    port renames them."""
    target = _project(tmp_path, READS)
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert [(f["rule"], f["line"], f["column"]) for f in res.json["findings"]] == [
        ("MCP506", 8, 12),
        ("MCP506", 15, 20),
        ("MCP506", 19, 21),
    ]
    cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert target.read_text(encoding="utf-8") == READS.replace("outputSchema", "output_schema").replace(
        ").resourceTemplates", ").resource_templates"
    ).replace("item.mimeType", "item.mime_type")

"""The port to mcp 2.x on shapes seen in real 1.x servers (the "Seen in" servers of the field
cases): low-level handlers registered on a ``Server`` built elsewhere (nodestradamus's
``register_graph_tools(server: Server)``), FastMCP's private ``_mcp_server`` handler table
(djinnvim's roots list_changed handler). Exact findings, exact rewritten code, and the ported
server run on mcp 2.3 in both eras against the original on mcp 1.x."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import run_proof

# A server built in one module, its handlers registered by a function of another.
REGISTER = '''from typing import Any

from mcp.server import Server
from mcp.types import TextContent, Tool

TOOLS = [Tool(name="echo", description="Echo", inputSchema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})]


def register_tools(server: Server) -> None:
    """Register the tools."""

    @server.list_tools()
    async def list_tools() -> list[Tool]:
        return TOOLS

    @server.call_tool()
    async def call_tool(name: str, arguments: dict[str, Any]) -> list[TextContent]:
        if name != "echo":
            raise ValueError(f"unknown tool {name}")
        return [TextContent(type="text", text=arguments["text"])]
'''
APP = """from mcp.server import Server

from tools import register_tools

server = Server("echo")
register_tools(server)
"""
REGISTERED = (
    "from typing import Any\n"
    "\n"
    "import jsonschema\n"
    "from mcp.server import Server, ServerRequestContext\n"
    "from mcp.types import (\n"
    "    CallToolRequestParams,\n"
    "    CallToolResult,\n"
    "    ListToolsResult,\n"
    "    PaginatedRequestParams,\n"
    "    TextContent,\n"
    "    Tool,\n"
    ")\n"
    "\n"
    'TOOLS = [Tool(name="echo", description="Echo", inputSchema={"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})]\n'
    "\n"
    "\n"
    "def register_tools(server: Server) -> None:\n"
    '    """Register the tools."""\n'
    "\n"
    "    async def list_tools() -> list[Tool]:\n"
    "        return TOOLS\n"
    "\n"
    "    async def on_list_tools(\n"
    "        ctx: ServerRequestContext, params: PaginatedRequestParams | None\n"
    "    ) -> ListToolsResult:\n"
    "        return ListToolsResult(tools=list(await list_tools()))\n"
    "\n"
    '    server.add_request_handler("tools/list", PaginatedRequestParams, on_list_tools)\n'
    "\n"
    "    async def call_tool(name: str, arguments: dict[str, Any]) -> list[TextContent]:\n"
    '        if name != "echo":\n'
    '            raise ValueError(f"unknown tool {name}")\n'
    '        return [TextContent(type="text", text=arguments["text"])]\n'
    "\n"
    "    async def on_call_tool(\n"
    "        ctx: ServerRequestContext, params: CallToolRequestParams\n"
    "    ) -> CallToolResult:\n"
    "        arguments = params.arguments or {}\n"
    "        try:\n"
    "            tool = next((t for t in await list_tools() if t.name == params.name), None)\n"
    "            if tool is not None:\n"
    "                try:\n"
    "                    jsonschema.validate(instance=arguments, schema=tool.input_schema)\n"
    "                except jsonschema.ValidationError as exc:\n"
    "                    return CallToolResult(\n"
    "                        content=[\n"
    "                            TextContent(\n"
    '                                type="text",\n'
    '                                text=f"Input validation error: {exc.message}",\n'
    "                            )\n"
    "                        ],\n"
    "                        is_error=True,\n"
    "                    )\n"
    "            content = await call_tool(params.name, arguments)\n"
    "        except Exception as exc:\n"
    "            return CallToolResult(\n"
    '                content=[TextContent(type="text", text=str(exc))], is_error=True\n'
    "            )\n"
    "        return CallToolResult(content=list(content), is_error=False)\n"
    "\n"
    '    server.add_request_handler("tools/call", CallToolRequestParams, on_call_tool)\n'
)
# The same in one file: the server is built at module level, the handlers in a function that
# receives it (so the constructor is outside the handlers' view).
ONE_FILE = REGISTER + '\n\nserver = Server("echo")\nregister_tools(server)\n'
CALLS = [
    {"tool": "echo", "arguments": {"text": "hi"}},
    {"tool": "echo", "arguments": {}},
    {"tool": "nope", "arguments": {"text": "x"}},
]


def _project(tmp_path: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp>=1.2\n", encoding="utf-8")


def test_handlers_on_a_server_built_elsewhere_are_found(tmp_path: Path) -> None:
    _project(tmp_path, {"tools.py": REGISTER, "app.py": APP})
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP5", "--output-format", "json", "."], tmp_path)
    got = [(f["path"], f["rule"], f["line"], f["column"], f["fix"]["safety"]) for f in res.json["findings"]]
    assert got == [("tools.py", "MCP507", 12, 5, "safe"), ("tools.py", "MCP507", 16, 5, "safe")], str(res)


def test_handlers_on_a_server_built_elsewhere_are_registered_in_place(tmp_path: Path) -> None:
    _project(tmp_path, {"tools.py": REGISTER, "app.py": APP})
    res = cli(["fix", "--target-sdk", "mcp2", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "tools.py").read_text(encoding="utf-8") == REGISTERED
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == APP  # the constructor is kept as is
    assert (tmp_path / "requirements.txt").read_text(encoding="utf-8") == "mcp>=2.3,<3\n"


def test_a_kind_registered_twice_in_place_is_left_manual(tmp_path: Path) -> None:
    twice = REGISTER + "\n    @server.list_tools()\n    async def more_tools() -> list[Tool]:\n        return []\n"
    _project(tmp_path, {"tools.py": twice})
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1 and (tmp_path / "tools.py").read_text(encoding="utf-8") == twice
    (error,) = res.json["errors"]
    assert error["message"].startswith(
        "blocks the port to mcp 2.x: MCP507 at line 12: a handler kind is registered twice on `server`"
    )


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_handlers_registered_in_place_serve_like_the_original(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    before = tmp_path / "before"
    before.mkdir()
    (before / "app.py").write_text(ONE_FILE, encoding="utf-8")
    after = tmp_path / "after"
    after.mkdir()
    (after / "app.py").write_text(ONE_FILE, encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "app.py"], after)
    assert res.exit_code == 0, str(res)
    assert "add_request_handler" in (after / "app.py").read_text(encoding="utf-8")
    old = run_proof(legacy_python, before / "app.py", "server", "legacy", [], CALLS)
    new = run_proof(mcp2_python, after / "app.py", "server", mode, [], CALLS)
    keys = ("tool", "is_error", "text", "structured", "error")
    assert [{k: c.get(k) for k in keys} for c in new["calls"]] == [{k: c.get(k) for k in keys} for c in old["calls"]]
    assert new["tools"] == old["tools"]
    assert old["calls"][0]["text"] == ["hi"] and old["calls"][1]["is_error"]  # the calls ran


# FastMCP's private low-level server and its notification table (djinnvim's roots list_changed
# handler, anschnapp/djinnvim src/djinnvim/server.py).
TABLE = """from mcp import types
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")
stale = []


async def _on_roots_changed(_notification: types.RootsListChangedNotification) -> None:
    stale.append(True)


mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = (
    _on_roots_changed
)


@mcp.tool()
def is_stale() -> bool:
    return bool(stale)
"""
TABLE_PORTED = (
    "from mcp import types\n"
    "from mcp.server.mcpserver import MCPServer\n"
    "from mcp.types import NotificationParams\n"
    "\n"
    'mcp = MCPServer("notes")\n'
    "stale = []\n"
    "\n"
    "\n"
    "async def _on_roots_changed(_notification: types.RootsListChangedNotification) -> None:\n"
    "    stale.append(True)\n"
    "\n"
    "\n"
    "mcp._lowlevel_server.add_notification_handler(\n"
    '    "notifications/roots/list_changed",\n'
    "    NotificationParams,\n"
    "    lambda ctx, params: _on_roots_changed(types.RootsListChangedNotification(params=params)),\n"
    ")\n"
    "\n"
    "\n"
    "@mcp.tool()\n"
    "def is_stale() -> bool:\n"
    "    return bool(stale)\n"
)
LOWLEVEL_TABLE = """import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("progress")
seen = []


async def on_progress(notification: types.ProgressNotification) -> None:
    seen.append(notification.params.progress)


server.notification_handlers[types.ProgressNotification] = on_progress
server.request_handlers[types.PingRequest] = on_progress
"""


def test_the_private_handler_table_is_found(tmp_path: Path) -> None:
    _project(tmp_path, {"notes.py": TABLE, "progress.py": LOWLEVEL_TABLE})
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP509", "--output-format", "json", "."], tmp_path)
    got = [
        (f["path"], f["line"], f["column"], (f["fix"] or {}).get("safety"), (f["manual"] or "")[:35])
        for f in res.json["findings"]
    ]
    assert got == [
        ("notes.py", 12, 1, "safe", ""),
        ("progress.py", 12, 1, "unsafe", ""),
        ("progress.py", 13, 1, None, "the handler table is read or writte"),
    ], str(res)


def test_the_private_handler_table_is_ported(tmp_path: Path) -> None:
    _project(tmp_path, {"notes.py": TABLE})
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert (tmp_path / "notes.py").read_text(encoding="utf-8") == TABLE_PORTED
    # what is left is MCP103's legacy-only note on the handler (kept for legacy clients)
    assert [(f["rule"], f["line"]) for f in res.json["findings"]] == [("MCP103", 13)] and not res.json["errors"]


def test_a_request_handler_table_blocks_the_port(tmp_path: Path) -> None:
    _project(tmp_path, {"progress.py": LOWLEVEL_TABLE})
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1 and (tmp_path / "progress.py").read_text(encoding="utf-8") == LOWLEVEL_TABLE
    (error,) = res.json["errors"]
    assert error["message"].startswith("blocks the port to mcp 2.x: MCP509 at line 13: the handler table is read")


def test_the_ported_notification_handler_runs_on_mcp2(tmp_path: Path) -> None:
    """mcp 2.3 dispatches `notifications/roots/list_changed` to the registered lambda, which calls
    the 1.x handler with the notification it took (mcp/server/runner.py ``_on_notify``)."""
    import importlib.util

    import anyio
    from mcp.types import NotificationParams

    (tmp_path / "notes.py").write_text(TABLE_PORTED, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("notes_ported", tmp_path / "notes.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    entry = module.mcp._lowlevel_server.get_notification_handler("notifications/roots/list_changed")
    assert entry is not None and entry.params_type is NotificationParams
    anyio.run(entry.handler, None, NotificationParams())
    assert module.stale == [True]


# Names mcp 1.x's modules only re-exported (djinnvim e2e/e2e_roots.py: `types.FileUrl(...)`).
REEXPORTED = """from mcp import types
from mcp.types import Field, Root
from mcp.types import AnyUrl as Url
from mcp.shared.memory import MemoryObjectSendStream

root = Root(uri=types.FileUrl("file:///tmp"))
url = Url("https://example.com")
size: int = Field(default=1)
stream: MemoryObjectSendStream | None = None
"""
REEXPORTED_PORTED = (
    "from anyio.streams.memory import MemoryObjectSendStream\n"
    "from mcp.types import Root\n"
    "from pydantic import AnyUrl as Url, Field, FileUrl\n"
    "\n"
    'root = Root(uri=FileUrl("file:///tmp"))\n'
    'url = Url("https://example.com")\n'
    "size: int = Field(default=1)\n"
    "stream: MemoryObjectSendStream | None = None\n"
)


def test_re_exported_names_are_found(tmp_path: Path) -> None:
    _project(tmp_path, {"roots.py": REEXPORTED})
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP509", "--output-format", "json", "."], tmp_path)
    got = [
        (f["line"], f["column"], f["fix"]["safety"], f["message"].rsplit(" It is ", 1)[1]) for f in res.json["findings"]
    ]
    assert got == [
        (2, 23, "safe", "`pydantic.Field`."),
        (3, 23, "safe", "`pydantic.AnyUrl`."),
        (4, 31, "safe", "`anyio.streams.memory.MemoryObjectSendStream`."),
        (6, 17, "safe", "`pydantic.FileUrl`."),
    ], str(res)


def test_re_exported_names_are_imported_from_their_package(tmp_path: Path, legacy_python: str) -> None:
    import subprocess
    import sys

    _project(tmp_path, {"roots.py": REEXPORTED})
    res = cli(["fix", "--target-sdk", "mcp2", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "roots.py").read_text(encoding="utf-8") == REEXPORTED_PORTED
    # the same objects: the port imports on mcp 2.x and builds what the original built on mcp 1.x
    (tmp_path / "orig.py").write_text(REEXPORTED, encoding="utf-8")
    probe = "import {m}; print(str({m}.root.uri), str({m}.url), {m}.size)"
    old = subprocess.run([legacy_python, "-c", probe.format(m="orig")], cwd=tmp_path, capture_output=True, text=True)
    new = subprocess.run([sys.executable, "-c", probe.format(m="roots")], cwd=tmp_path, capture_output=True, text=True)
    assert new.returncode == 0 and old.returncode == 0, new.stderr + old.stderr
    assert new.stdout == old.stdout and new.stdout.startswith("file:///tmp https://example.com/ ")


def test_project_imports_follow_the_tree_between_runs(tmp_path: Path) -> None:
    """The project pass caches the layout and each file's imports (a large project such as
    awslabs/mcp asked it once per module); a file added, changed or removed is still seen."""
    import os
    import time

    from mcpmigrate.codemods.imports import project_imports

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "app.py").write_text("mcp = 1\nContext = 2\n", encoding="utf-8")
    (pkg / "tools.py").write_text("from pkg.app import mcp\n", encoding="utf-8")
    assert project_imports(pkg / "app.py", tmp_path) == {"mcp": "pkg/tools.py"}
    sub = pkg / "more"
    sub.mkdir()
    (sub / "__init__.py").write_text("", encoding="utf-8")
    (sub / "ctx.py").write_text("import pkg.app as a\nx = a.Context\n", encoding="utf-8")
    assert project_imports(pkg / "app.py", tmp_path) == {"mcp": "pkg/tools.py", "Context": "pkg/more/ctx.py"}
    (pkg / "tools.py").write_text("from pkg.app import Context as C\n", encoding="utf-8")
    later = time.time() + 5
    os.utime(pkg / "tools.py", (later, later))  # a new version even on a coarse clock
    (sub / "ctx.py").unlink()
    assert project_imports(pkg / "app.py", tmp_path) == {"Context": "pkg/tools.py"}


HOOKED = """from mcp.server.fastmcp import FastMCP
from mcp.types import CallToolRequest

mcp = FastMCP("telegram")


def _install_annotation_hook() -> None:
    original_handler = mcp._mcp_server.request_handlers[CallToolRequest]
    mcp._mcp_server.request_handlers[CallToolRequest] = original_handler
"""


def test_a_private_mcp_server_use_blocks_the_port_after_the_rename_too(tmp_path: Path) -> None:
    """telegram-mcp wraps FastMCP's low-level handler through `mcp._mcp_server.request_handlers`.
    The rename to `MCPServer` (applied in the same run) must not hide it: an `MCPServer` has no
    `_mcp_server` either, so the module would fail at import on mcp 2.x — the port writes nothing."""
    _project(tmp_path, {"runtime.py": HOOKED})
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1
    assert (tmp_path / "runtime.py").read_text() == HOOKED
    assert (tmp_path / "requirements.txt").read_text() == "mcp>=1.2\n"
    assert [(e["path"], e["line"]) for e in res.json["errors"]] == [("runtime.py", 8)]
    assert "blocks the port to mcp 2.x: MCP509 at line 8" in res.json["errors"][0]["message"]
    ported = HOOKED.replace("from mcp.server.fastmcp import FastMCP", "from mcp.server.mcpserver import MCPServer")
    (tmp_path / "runtime.py").write_text(ported.replace('FastMCP("telegram")', 'MCPServer("telegram")'))
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert [(f["rule"], f["line"], f["column"]) for f in res.json["findings"]] == [("MCP509", 8, 24), ("MCP509", 9, 5)]
    # what the table is on mcp 2.x, so the wrapper can be ported by hand (issue 22)
    assert {f["manual"] for f in res.json["findings"]} == {
        "FastMCP's private `_mcp_server` is `mcp._lowlevel_server` on mcp 2.x, whose handlers are keyed by method: "
        '`request_handlers[CallToolRequest]` is `mcp._lowlevel_server.get_request_handler("tools/call").handler` '
        "there, called as `(ctx, params)` (a `ServerRequestContext` and a `CallToolRequestParams`, not the "
        "`CallToolRequest`) and returning the result itself (no `.root`: `ServerResult` is a plain union on mcp 2.x); "
        'a wrapper is registered with `mcp._lowlevel_server.add_request_handler("tools/call", CallToolRequestParams, '
        "handler)`: port this use by hand (read “Lowlevel `Server`: decorator-based handlers replaced with "
        "constructor `on_*` params” in the python-sdk migration guide (docs/migration.md))"
    }


DEAD_AFTER_RETURN = """from mcp.server import Server
from mcp.types import Tool

server = Server("thoth")


@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name="scan", inputSchema={"type": "object"})]

    async def by_roots() -> list[str]:
        roots = await server.request_context.session.list_roots()
        return [str(r.uri) for r in roots.roots]

    dirs = await by_roots()
    return [Tool(name=d, inputSchema={"type": "object"}) for d in dirs]
"""


def test_code_after_a_return_reaches_nothing_and_does_not_block_the_port(tmp_path: Path) -> None:
    """thothctl 0.17.4's `list_tools` returns, then defines and calls its roots helper: that call
    never runs, so the helper is reached by nothing — MCP505 is advisory there and the port of the
    handler goes through (a new-user trial found the port blocked by code that cannot run)."""
    _project(tmp_path, {"service.py": DEAD_AFTER_RETURN})
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    found = {(f["rule"], f["line"], f["severity"]) for f in res.json["findings"]}
    assert ("MCP505", 12, "advisory") in found
    assert not [f for f in res.json["findings"] if f["rule"] == "MCP505" and f["severity"] != "advisory"]
    fixed = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert fixed.json["errors"] == [], str(fixed)
    assert "on_list_tools" in (tmp_path / "service.py").read_text()
    assert (tmp_path / "requirements.txt").read_text() == "mcp>=2.3,<3\n"


def test_a_helper_called_only_after_a_return_is_named_as_such(tmp_path: Path) -> None:
    """thothctl@c8aedbfa: MCP101 in the roots helper that `list_tools` defines and calls after its
    `return` is manual, and the reason names that call (before: "nothing in this module calls it",
    false on its face: the call is there, it never runs); a helper no code calls keeps the old words."""
    _project(tmp_path, {"service.py": DEAD_AFTER_RETURN})
    res = cli(["check", "--select", "MCP101", "--output-format", "json", "."], tmp_path)
    assert [f["manual"] for f in res.json["findings"]] == [
        "no tool, prompt or resource reaches `list_tools.by_roots` (its only call, in `list_tools`, follows a "
        "`return` and never runs): there is no tool to give a path parameter. Delete it if it is dead code, or "
        "pass the path in from where it is needed"
    ]
    (tmp_path / "service.py").write_text(DEAD_AFTER_RETURN.replace("    dirs = await by_roots()\n", "    dirs = []\n"))
    res = cli(["check", "--select", "MCP101", "--output-format", "json", "."], tmp_path)
    assert [f["manual"] for f in res.json["findings"]] == [
        "no tool, prompt or resource reaches `list_tools.by_roots` (nothing in this module calls it): there is no "
        "tool to give a path parameter. Delete it if it is dead code, or pass the path in from where it is needed"
    ]


UNTYPED_RECEIVER = """from mcp.server.fastmcp import FastMCP

mcp = FastMCP("roots-cache")


class RootsCache:
    def __init__(self) -> None:
        self.session = None
        self.roots: list[str] = []

    async def refresh(self) -> None:
        result = await self.session.list_roots()
        self.roots = [str(r.uri) for r in result.roots]


def wire(server, cache: RootsCache) -> None:
    async def on_initialized(notification) -> None:
        cache.session = server.request_context.session
        await cache.refresh()

    server.notification_handlers["initialized"] = on_initialized


@mcp.tool()
async def roots() -> list[str]:
    return []
"""


def test_a_method_called_on_an_object_of_unknown_class_is_not_called_unreached(tmp_path: Path) -> None:
    """Dev10x-Guru/Dev10x-Claude@110c084 (roots_manager.py:189): `ClientRootsManager.refresh` asks
    for the roots and is called as `manager.refresh()` in two notification handlers on a parameter
    `manager`. The reason said "nothing in this module calls it ... Delete it if it is dead code",
    false on its face; it now names those calls. A method that really has no such call keeps the
    old words."""
    _project(tmp_path, {"server.py": UNTYPED_RECEIVER})
    res = cli(["check", "--no-cache", "--select", "MCP101", "--output-format", "json", "."], tmp_path)
    assert [(f["line"], f["manual"]) for f in res.json["findings"]] == [
        (
            12,
            "`RootsCache.refresh` has no call in this module that the analysis can tie to it, only perhaps "
            "`cache.refresh()` in `wire.on_initialized` (a `refresh` of an object whose class it does not know), "
            "so the chain to a tool cannot be followed: pass the path in by hand from where it is needed",
        )
    ]
    (tmp_path / "server.py").write_text(UNTYPED_RECEIVER.replace("        await cache.refresh()\n", ""))
    res = cli(["check", "--no-cache", "--select", "MCP101", "--output-format", "json", "."], tmp_path)
    assert [f["manual"] for f in res.json["findings"]] == [
        "no tool, prompt or resource reaches `RootsCache.refresh` (nothing in this module calls it): there is no "
        "tool to give a path parameter. Delete it if it is dead code, or pass the path in from where it is needed"
    ]
    # a method of an imported module (`asyncio.run`) or of another class of the module is no hint
    renamed = "import asyncio\n" + UNTYPED_RECEIVER.replace("refresh", "run").replace(
        "        await cache.run()\n", "        asyncio.run(None)\n        Other.run()\n"
    )
    (tmp_path / "server.py").write_text(renamed + "\n\nclass Other:\n    @staticmethod\n    def stop() -> None: ...\n")
    res = cli(["check", "--no-cache", "--select", "MCP101", "--output-format", "json", "."], tmp_path)
    assert [f["manual"] for f in res.json["findings"]] == [
        "no tool, prompt or resource reaches `RootsCache.run` (nothing in this module calls it): there is no "
        "tool to give a path parameter. Delete it if it is dead code, or pass the path in from where it is needed"
    ]


UNTYPED_SAMPLER = """from mcp.server.session import ServerSession


class Sampler:
    def __init__(self, session: ServerSession) -> None:
        self.session = session

    async def ask(self, prompt: str) -> str:
        result = await self.session.create_message(messages=[], max_tokens=10)
        return str(result.content)


SAMPLERS: list[Sampler] = []


async def request_sampling(prompt: str) -> str:
    manager = SAMPLERS[-1]
    return await manager.ask(prompt)
"""

SAMPLING_TOOL = """from mcp.server.fastmcp import FastMCP

from sampler import request_sampling

mcp = FastMCP("sampler")


@mcp.tool()
async def summarize(text: str) -> str:
    return await request_sampling(text)
"""


def test_a_sampling_method_called_on_an_object_of_unknown_class_names_the_call(tmp_path: Path) -> None:
    """Dev10x-Claude's `SamplingManager.create_message` (sampling_manager.py:142), reached from the
    `request_sampling` tool through the module function `request_sampling`, as
    `manager.create_message(…)` on the manager a registry holds. The reason guessed "a decorator of
    the project's own, a table of tools?"; it now names the call the analysis cannot tie to the
    method."""
    _project(tmp_path, {"sampler.py": UNTYPED_SAMPLER, "server.py": SAMPLING_TOOL})
    res = cli(["check", "--no-cache", "--select", "MCP201", "--output-format", "json", "."], tmp_path)
    assert [(f["path"], f["line"], f["manual"]) for f in res.json["findings"]] == [
        (
            "sampler.py",
            9,
            "`Sampler.ask` has no call in this module that the analysis can tie to it, only perhaps "
            "`manager.ask()` in `request_sampling` (a `ask` of an object whose class it does not know): the "
            "interim fix cannot follow the chain to the tool; move the question into the tool by hand",
        )
    ]

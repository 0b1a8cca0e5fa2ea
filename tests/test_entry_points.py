"""Every way of registering a handler makes an entry point (never "dead code"), and a roots
request in a handler that cannot take arguments, or behind a sync bridge, gets that reason.

Field cases ``roots-11`` (the request in the ``tools/list`` handler) and ``roots-12`` (a sync
tool bridging into the loop through a nested coroutine) are copied under
``tests/data/project/entry/``; the other tests are the same kinds in other spellings.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from tests.helpers import cli

DATA = Path(__file__).parent / "data" / "project" / "entry"

LISTING = (
    "the request sits in the {method} handler `{fn}`, which can take no tool arguments and may not return an "
    "interim result (only tools/call, prompts/get and resources/read can); derive the listing from server "
    "configuration instead"
)
BRIDGE = (
    "`{coro}` runs through `{bridge}` in the sync function `{outer}` (a bridge into the event loop, reached from "
    "{tools}): rewrite by hand so the tool takes the path as a parameter"
)


def _roots_findings(root: Path, name: str) -> list[dict]:
    res = cli(["check", "--no-cache", "--output-format", "json", name], root)
    assert res.exception is None, str(res)
    return [f for f in res.json["findings"] if f["rule"] == "MCP101"]


def _check(tmp_path: Path, source: str) -> list[dict]:
    (tmp_path / "server.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return _roots_findings(tmp_path, "server.py")


def test_roots11_request_in_the_tools_list_handler(tmp_path: Path) -> None:
    shutil.copy(DATA / "roots-11.py", tmp_path)
    [f] = _roots_findings(tmp_path, "roots-11.py")
    assert (f["line"], f["column"]) == (21, 21)
    assert f["fix"] is None
    assert f["manual"] == LISTING.format(method="tools/list", fn="list_tools")


def test_roots12_sync_tool_bridging_through_a_nested_coroutine(tmp_path: Path) -> None:
    shutil.copy(DATA / "roots-12.py", tmp_path)
    nested, direct = _roots_findings(tmp_path, "roots-12.py")
    assert (nested["line"], nested["column"]) == (22, 29)
    assert nested["manual"] == BRIDGE.format(
        coro="_granted_dirs._ask", bridge="anyio.from_thread.run", outer="_granted_dirs", tools="`newest_upload`"
    )
    assert (direct["line"], direct["column"]) == (36, 34)
    assert direct["manual"].startswith("`list_roots` is passed as a callable (bridged from sync code")


LOWLEVEL_HEAD = """\
import mcp.types as types
from mcp.server import Server

shelf = Server("book-shelf")
"""


@pytest.mark.parametrize(
    ("registration", "method", "fn"),
    [
        # an alias of the decorator
        (
            "listing = shelf.list_tools()\n\n\n@listing\nasync def tools_of_shelf():\n{body}",
            "tools/list",
            "tools_of_shelf",
        ),
        # direct application
        ("async def tools_of_shelf():\n{body}\n\nshelf.list_tools()(tools_of_shelf)\n", "tools/list", "tools_of_shelf"),
        # request_handlers[...] =
        (
            "async def prompts_of_shelf(req):\n{body}\n\nshelf.request_handlers[types.ListPromptsRequest] = prompts_of_shelf\n",
            "prompts/list",
            "prompts_of_shelf",
        ),
        # a prompts/list decorator
        ("@shelf.list_prompts()\nasync def prompts_of_shelf():\n{body}", "prompts/list", "prompts_of_shelf"),
    ],
)
def test_registered_listing_handlers_are_entry_points(tmp_path: Path, registration: str, method: str, fn: str) -> None:
    body = (
        "    listing = await shelf.request_context.session.list_roots()\n    return [r.name for r in listing.roots]\n"
    )
    [f] = _check(tmp_path, LOWLEVEL_HEAD + "\n\n" + registration.format(body=body))
    assert f["manual"] == LISTING.format(method=method, fn=fn)


def test_on_keyword_of_a_2x_server_and_a_helper_it_calls(tmp_path: Path) -> None:
    """``Server(on_list_resources=…)``: the handler, and a helper it calls, are entry-reached."""
    [f] = _check(
        tmp_path,
        """\
        from mcp.server import Server, ServerRequestContext


        async def granted(ctx: ServerRequestContext) -> list[str]:
            listing = await ctx.session.list_roots()
            return [str(r.uri) for r in listing.roots]


        async def resources(ctx: ServerRequestContext, params) -> list:
            return await granted(ctx)


        server = Server("files", on_list_resources=resources)
        """,
    )
    assert f["manual"] == (
        "the request sits in `granted`, called from the resources/list handler `resources` (resources -> granted), "
        "which can take no tool arguments and may not return an interim result (only tools/call, prompts/get and "
        "resources/read can); derive the listing from server configuration instead"
    )


def test_bound_method_registered_by_direct_application(tmp_path: Path) -> None:
    [f] = _check(
        tmp_path,
        """\
        from mcp.server import Server


        class Shelf:
            def __init__(self) -> None:
                self.server = Server("shelf")
                self.server.list_tools()(self.tools)

            async def tools(self):
                listing = await self.server.request_context.session.list_roots()
                return [r.name for r in listing.roots]
        """,
    )
    assert f["manual"] == LISTING.format(method="tools/list", fn="Shelf.tools")


def test_tool_registered_through_an_alias_gets_the_param_fix(tmp_path: Path) -> None:
    """``tool = mcp.tool`` then ``@tool()``: a tool like any other (the safe param fix)."""
    [f] = _check(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("photos")
        tool = mcp.tool


        @tool()
        async def count_photos(ctx: Context) -> int:
            listing = await ctx.session.list_roots()
            return len(listing.roots[0].uri.path)
        """,
    )
    assert f["fix"] == {
        "safety": "safe",
        "strategy": "param",
        "description": "add a documented `root` parameter to `count_photos` and drop the roots request",
    }


@pytest.mark.parametrize(
    ("bridge_call", "bridge"),
    [
        ("asyncio.run(_ask())", "asyncio.run"),
        ("asyncio.run_coroutine_threadsafe(_ask(), LOOP).result()", "asyncio.run_coroutine_threadsafe"),
        ("anyio.from_thread.run(_ask)", "anyio.from_thread.run"),
    ],
)
def test_sync_bridges_of_a_nested_coroutine(tmp_path: Path, bridge_call: str, bridge: str) -> None:
    [f] = _check(
        tmp_path,
        f"""\
        import asyncio

        import anyio
        from mcp.server.fastmcp import Context, FastMCP

        drop = FastMCP("upload-drop")
        LOOP = asyncio.new_event_loop()


        def granted(ctx: Context) -> list[str]:
            async def _ask():
                return await ctx.session.list_roots()

            return {bridge_call}.roots


        @drop.tool()
        def first(ctx: Context) -> str:
            return granted(ctx)[0]


        @drop.tool()
        def count(ctx: Context) -> int:
            return len(granted(ctx))
        """,
    )
    assert f["fix"] is None
    tools = {"`first`, `count`", "`count`, `first`"}
    reasons = {BRIDGE.format(coro="granted._ask", bridge=bridge, outer="granted", tools=t) for t in tools}
    assert f["manual"] in reasons


def test_a_roots_method_also_handed_to_a_task_group_is_not_said_to_leave_the_module(tmp_path: Path) -> None:
    """itstanner5216/multi-mcp's proxy asks for roots in a method that a notification handler
    awaits and the session setup hands to `tg.start_soon` (a use that is not a call, in this very
    module): the reason says its callers cannot all be followed, not that the chain leaves the module."""
    [f] = _check(
        tmp_path,
        """\
        import anyio
        from mcp.server.lowlevel import Server
        from mcp.server.session import ServerSession


        class Proxy:
            def __init__(self, server: Server, session: ServerSession) -> None:
                self.server = server
                self.session = session
                self.roots: list[str] = []

            async def refresh_roots(self) -> None:
                try:
                    result = await self.session.list_roots()
                    self.roots = [str(r.uri) for r in result.roots]
                except Exception:
                    self.roots = []

            async def on_roots_changed(self) -> None:
                await self.refresh_roots()

            async def start(self) -> None:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self.refresh_roots)
        """,
    )
    assert (f["line"], f["column"]) == (14, 28)
    assert f["manual"] == (
        "the callers cannot all be followed: `Proxy.refresh_roots` is also used other than by a direct call in "
        "this module (chain: Proxy.refresh_roots)"
    )

"""Planners tested on snippets without the CLI (``tests/planning.py``): the typed sites the fix
modules plan (``docs/architecture.md``, "How a finding becomes a fix"), the settle step of the
logging fix, and the roots fix's threading of the path parameter through helper chains
(``codemods/param/thread.py``), on exact rewritten code."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from mcpmigrate.codemods.drop import SetLevelRegistration
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.param.guards import GuardWithRequest
from mcpmigrate.codemods.param.thread import (
    AfterRequired,
    AtEnd,
    InsertBefore,
    ParamOp,
    RemoveParam,
    ReplaceParam,
    apply_param_op,
)
from mcpmigrate.codemods.stdlib_logging import LogCall
from mcpmigrate.codemods.subscription import ContextSend
from mcpmigrate.model import Safety
from tests.helpers import ANNOTATED_ROOT, ANNOTATED_ROOTS, exploded
from tests.planning import apply, plan_for, plans_for


# -- the callers' side of a helper threaded across modules (param/across.py) --------------------
def test_caller_edits_thread_the_path_from_a_tool_through_its_helper_to_another_modules_function() -> None:
    # `album_dir` (another module) took `root` in place of `ctx`: the local helper and the tool that
    # reaches it take the path, every call passes it where it passed the context (the edits as
    # planned: `fix` then lays the header out as ruff format does, codemods/layout.py)
    from mcpmigrate.analysis import ModuleAnalysis
    from mcpmigrate.codemods.edits import apply_edits
    from mcpmigrate.codemods.param.across import CallerNeed, caller_edits
    from mcpmigrate.config import Config

    source = (
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom paths import album_dir\n\n"
        'mcp = FastMCP("p")\n\n\n'
        "async def folder(ctx: Context, sub: str) -> str:\n    return await album_dir(ctx=ctx) + sub\n\n\n"
        "@mcp.tool()\nasync def scan(sub: str, ctx: Context) -> str:\n    return await folder(ctx, sub)\n"
    )
    module = cst.parse_module(source)
    a = ModuleAnalysis.build(module, None, None)
    need = CallerNeed("folder", "album_dir", "paths.py", "root", "single", "ctx", 0, 0)
    edits = caller_edits(a, Config(), [need])
    assert not isinstance(edits, str)
    assert apply_edits(module, edits).code == (
        "from typing import Annotated\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        "from paths import album_dir\nfrom pydantic import Field\n\n"
        'mcp = FastMCP("p")\n\n\n'
        "async def folder(root: str, sub: str) -> str:\n    return await album_dir(root=root) + sub\n\n\n"
        '@mcp.tool()\nasync def scan(sub: str, root: Annotated[str, Field(description="Absolute path of the directory '
        "to work in (formerly the client's MCP root).\")]) -> str:\n    return await folder(root, sub)\n"
    )
    # a function of this module that does not call it is named, not guessed at
    assert caller_edits(a, Config(), [CallerNeed("scan", "album_dir", "paths.py", "root", "single", "ctx", 0, 0)]) == (
        "`scan` does not call `album_dir` by a name this module imports"
    )


# -- threading the roots parameter (param fix) ---------------------------------------------------
def test_a_helper_chain_swaps_the_context_for_the_path(tmp_path: Path) -> None:
    # every function between the tool and the request takes `root` where it took `ctx`, and every
    # call on the chain passes it there
    source = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("files")\n\n\n'
        "async def first_root(ctx: Context) -> str:\n"
        "    roots = await ctx.session.list_roots()\n"
        "    return str(roots.roots[0].uri)\n\n\n"
        "async def count(ctx: Context, pattern: str) -> int:\n"
        "    return len(await first_root(ctx)) + len(pattern)\n\n\n"
        "@mcp.tool()\n"
        "async def scan(pattern: str, ctx: Context) -> int:\n"
        "    return await count(ctx, pattern)\n"
    )
    assert apply(source, tmp_path) == (
        "from pathlib import Path\n"
        "from typing import Annotated\n"
        "\n"
        "from mcp.server.fastmcp import FastMCP\n"
        "from mcp.types import ListRootsResult, Root\n"
        "from pydantic import Field\n"
        "\n"
        'mcp = FastMCP("files")\n'
        "\n"
        "\n"
        "async def first_root(root: str) -> str:\n"
        "    roots = ListRootsResult(roots=[Root(uri=Path(root).as_uri())])\n"
        "    return str(roots.roots[0].uri)\n"
        "\n"
        "\n"
        "async def count(root: str, pattern: str) -> int:\n"
        "    return len(await first_root(root)) + len(pattern)\n"
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def scan(\n"
        "    pattern: str,\n"
        "    root: Annotated[\n"
        "        str,\n"
        "        Field(\n"
        '            description="Absolute path of the directory to work in (formerly the client\'s MCP root)."\n'
        "        ),\n"
        "    ],\n"
        ") -> int:\n"
        "    return await count(root, pattern)\n"
    )
    plan = plan_for(source, "MCP101", tmp_path)
    assert plan.site.labels == ["`scan`"]  # the entry point the path is threaded from (to count, first_root)


def test_a_context_still_used_keeps_its_place_and_the_path_goes_before_it(tmp_path: Path) -> None:
    # `listing` still logs through ctx: ctx stays, `roots` goes right before it, and the caller
    # passes it positionally at that place
    source = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("files")\n\n\n'
        "async def listing(ctx: Context, pattern: str) -> list[str]:\n"
        '    await ctx.info("listing")\n'
        "    result = await ctx.session.list_roots()\n"
        "    return [str(r.uri) for r in result.roots if pattern in str(r.uri)]\n\n\n"
        "@mcp.tool()\n"
        "async def find(pattern: str, ctx: Context) -> list[str]:\n"
        "    return await listing(ctx, pattern)\n"
    )
    assert apply(source, tmp_path, select=["MCP101"]) == (
        "from pathlib import Path\n"
        "from typing import Annotated\n"
        "\n"
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "from mcp.types import ListRootsResult, Root\n"
        "from pydantic import Field\n"
        "\n"
        'mcp = FastMCP("files")\n'
        "\n"
        "\n"
        "async def listing(roots: list[str], ctx: Context, pattern: str) -> list[str]:\n"
        '    await ctx.info("listing")\n'
        "    result = ListRootsResult(roots=[Root(uri=Path(p).as_uri()) for p in roots])\n"
        "    return [str(r.uri) for r in result.roots if pattern in str(r.uri)]\n"
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def find(\n"
        "    pattern: str,\n"
        "    roots: Annotated[\n"
        "        list[str],\n"
        "        Field(\n"
        '            description="Absolute paths of the directories to work in (formerly the client\'s MCP roots)."\n'
        "        ),\n"
        "    ],\n"
        "    ctx: Context,\n"
        ") -> list[str]:\n"
        "    return await listing(roots, ctx, pattern)\n"
    )


def test_a_context_after_a_defaulted_parameter_gives_way_to_a_required_path(tmp_path: Path) -> None:
    # `root` has no default, so it cannot take ctx's place after `verbose: bool = False`
    source = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("files")\n\n\n'
        "@mcp.tool()\n"
        "async def where(verbose: bool = False, ctx: Context = None) -> str:\n"
        "    result = await ctx.session.list_roots()\n"
        "    return result.roots[0].uri.path\n"
    )
    assert apply(source, tmp_path) == (
        "from typing import Annotated\n"
        "\n"
        "from mcp.server.fastmcp import FastMCP\n"
        "from pydantic import Field\n"
        "\n"
        'mcp = FastMCP("files")\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def where(\n"
        "    root: Annotated[\n"
        "        str,\n"
        "        Field(\n"
        '            description="Absolute path of the directory to work in (formerly the client\'s MCP root)."\n'
        "        ),\n"
        "    ],\n"
        "    verbose: bool = False,\n"
        ") -> str:\n"
        "    return root\n"
    )
    plan = plan_for(source, "MCP101", tmp_path)
    assert plan.fix is not None and plan.fix.safety is Safety.SAFE


# The threading planner (`param/thread.py`: `_give_names`, `_placement`, `_pass_name`) on the call
# shapes issues 22/23 extend: each snippet's helper asks for the roots, the tools reach it.
FASTMCP_HEAD = 'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("files")\n\n\n'
FIXED_HEAD = (
    "from pathlib import Path\n"
    "from typing import Annotated\n\n"
    "from mcp.server.fastmcp import FastMCP\n"
    "from mcp.types import ListRootsResult, Root\n"
    "from pydantic import Field\n\n"
    'mcp = FastMCP("files")\n\n\n'
)
FIRST_ROOT = "    roots = await {recv}.list_roots()\n    return str(roots.roots[0].uri)\n\n\n"
FIRST_ROOT_FIXED = (
    "    roots = ListRootsResult(roots=[Root(uri=Path(root).as_uri())])\n    return str(roots.roots[0].uri)\n\n\n"
)


def test_a_keyword_context_argument_becomes_a_keyword_path(tmp_path: Path) -> None:
    # `first_root(ctx=ctx)`: the argument bound to the replaced parameter keeps its form
    source = (
        FASTMCP_HEAD
        + "async def first_root(ctx: Context) -> str:\n"
        + FIRST_ROOT.format(recv="ctx.session")
        + "@mcp.tool()\nasync def scan(pattern: str, ctx: Context) -> str:\n"
        + "    return await first_root(ctx=ctx) + pattern\n"
    )
    assert apply(source, tmp_path) == (
        FIXED_HEAD
        + "async def first_root(root: str) -> str:\n"
        + FIRST_ROOT_FIXED
        + "@mcp.tool()\n"
        + exploded("async def scan", "pattern: str", ANNOTATED_ROOT, returns="str")
        + "    return await first_root(root=root) + pattern\n"
    )


def test_two_tools_reaching_one_helper_both_take_the_path(tmp_path: Path) -> None:
    # the second tool's context sits before a defaulted parameter: the path takes its place there
    source = (
        FASTMCP_HEAD
        + "async def first_root(ctx: Context) -> str:\n"
        + FIRST_ROOT.format(recv="ctx.session")
        + "@mcp.tool()\nasync def scan(ctx: Context) -> str:\n    return await first_root(ctx)\n\n\n"
        + "@mcp.tool()\nasync def size(ctx: Context, limit: int = 3) -> int:\n"
        + "    return len(await first_root(ctx)) + limit\n"
    )
    assert apply(source, tmp_path) == (
        FIXED_HEAD
        + "async def first_root(root: str) -> str:\n"
        + FIRST_ROOT_FIXED
        + "@mcp.tool()\n"
        + exploded("async def scan", ANNOTATED_ROOT, returns="str")
        + "    return await first_root(root)\n\n\n"
        + "@mcp.tool()\n"
        + exploded("async def size", ANNOTATED_ROOT, "limit: int = 3", returns="int")
        + "    return len(await first_root(root)) + limit\n"
    )
    plan = plan_for(source, "MCP101", tmp_path)
    assert plan.fix is not None and "`size`, `scan`" in plan.fix.description


def test_a_method_called_on_an_instance_takes_the_path_after_self(tmp_path: Path) -> None:
    source = (
        FASTMCP_HEAD
        + "class Finder:\n    async def first_root(self, ctx: Context) -> str:\n"
        + "        roots = await ctx.session.list_roots()\n        return str(roots.roots[0].uri)\n\n\n"
        + "finder = Finder()\n\n\n"
        + "@mcp.tool()\nasync def scan(ctx: Context) -> str:\n    return await finder.first_root(ctx)\n"
    )
    assert apply(source, tmp_path) == (
        FIXED_HEAD
        + "class Finder:\n    async def first_root(self, root: str) -> str:\n"
        + "        roots = ListRootsResult(roots=[Root(uri=Path(root).as_uri())])\n"
        + "        return str(roots.roots[0].uri)\n\n\n"
        + "finder = Finder()\n\n\n"
        + "@mcp.tool()\n"
        + exploded("async def scan", ANNOTATED_ROOT, returns="str")
        + "    return await finder.first_root(root)\n"
    )


def test_a_session_passed_to_a_helper_is_replaced_by_the_path(tmp_path: Path) -> None:
    # the helper takes `ctx.session`, not the context: the argument `ctx.session` becomes `root`
    source = (
        FASTMCP_HEAD
        + "async def first_root(session, verbose: bool) -> str:\n"
        + FIRST_ROOT.format(recv="session")
        + "@mcp.tool()\nasync def scan(ctx: Context) -> str:\n    return await first_root(ctx.session, True)\n"
    )
    assert apply(source, tmp_path) == (
        FIXED_HEAD
        + "async def first_root(root: str, verbose: bool) -> str:\n"
        + FIRST_ROOT_FIXED
        + "@mcp.tool()\n"
        + exploded("async def scan", ANNOTATED_ROOT, returns="str")
        + "    return await first_root(root, True)\n"
    )


def test_a_capability_guard_is_planned_as_a_site_that_goes_with_its_request(tmp_path: Path) -> None:
    # MCP102 records through its own typed site (settled by param.settle), the request's round removes it
    source = (
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "from mcp.types import ClientCapabilities, RootsCapability\n\n"
        'mcp = FastMCP("files")\n\n\n'
        "@mcp.tool()\nasync def scan(ctx: Context) -> str:\n"
        "    if not ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability())):\n"
        '        return "no roots"\n'
        "    roots = await ctx.session.list_roots()\n"
        "    return roots.roots[0].uri.path\n"
    )
    plan = plan_for(source, "MCP102", tmp_path)
    assert isinstance(plan.site, GuardWithRequest)
    assert plan.fix is not None and plan.fix.description == "removed with the MCP101 fix at 11:19"
    assert apply(source, tmp_path) == (
        "from typing import Annotated\n\nfrom mcp.server.fastmcp import FastMCP\nfrom pydantic import Field\n\n"
        'mcp = FastMCP("files")\n\n\n'
        "@mcp.tool()\n" + exploded("async def scan", ANNOTATED_ROOT, returns="str") + "    return root\n"
    )


def test_a_path_before_a_keyword_only_context_is_passed_by_keyword(tmp_path: Path) -> None:
    # `listing(pattern, *, ctx)` keeps ctx (it logs): `roots` goes before it, keyword-only too, so
    # the call passes it by keyword (positionally it would be one argument too many)
    source = (
        FASTMCP_HEAD
        + "async def listing(pattern: str, *, ctx: Context) -> list[str]:\n"
        + '    await ctx.info("listing")\n'
        + "    result = await ctx.session.list_roots()\n"
        + "    return [str(r.uri) for r in result.roots if pattern in str(r.uri)]\n\n\n"
        + "@mcp.tool()\nasync def find(pattern: str, ctx: Context) -> list[str]:\n"
        + "    return await listing(pattern, ctx=ctx)\n"
    )
    fixed = apply(source, tmp_path, select=["MCP101"])
    assert "async def listing(pattern: str, *, roots: list[str], ctx: Context) -> list[str]:\n" in fixed
    assert "    return await listing(pattern, ctx=ctx, roots=roots)\n" in fixed
    assert exploded("async def find", "pattern: str", ANNOTATED_ROOTS, "ctx: Context", returns="list[str]") in fixed


NEW = cst.Param(cst.Name("root"), cst.Annotation(cst.Name("str")))
OPTIONAL = cst.Param(cst.Name("root"), cst.Annotation(cst.Name("str")), default=cst.Name("None"))


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        (RemoveParam("ctx"), "def f(a, b=1): ..."),
        (ReplaceParam("ctx", NEW), "def f(a, root: str, b=1): ..."),
        (InsertBefore("ctx", NEW), "def f(a, root: str, ctx, b=1): ..."),
        (AfterRequired(NEW), "def f(a, ctx, root: str, b=1): ..."),
        (AtEnd(OPTIONAL), "def f(a, ctx, b=1, root: str = None): ..."),
        (RemoveParam("nope"), "def f(a, ctx, b=1): ..."),
    ],
)
def test_each_parameter_change(op: ParamOp, expected: str) -> None:
    fn = cst.ensure_type(cst.parse_statement("def f(a, ctx, b=1): ..."), cst.FunctionDef)
    params = apply_param_op(fn.params, op, fn.whitespace_before_params)
    assert cst.Module([fn.with_changes(params=params)]).code.strip() == expected


# -- the subscription fix (MCP301) -------------------------------------------------------------
MCP2_PUSH = (
    "from mcp.server.mcpserver import Context, MCPServer\n\n"
    'mcp = MCPServer("tools")\n\n\n'
    "@mcp.tool()\n"
    "async def enable(name: str, ctx: Context) -> str:\n"
    "    await ctx.session.send_tool_list_changed()\n"
    "    return name\n"
)


def test_an_mcpserver_push_is_planned_as_a_context_send(tmp_path: Path) -> None:
    plan = plan_for(MCP2_PUSH, "MCP301", tmp_path)
    assert isinstance(plan.site, ContextSend)
    assert (plan.site.ctx, plan.site.helper, plan.site.uri) == ("ctx", "notify_tools_changed", None)
    assert plan.fix is not None and plan.fix.safety is Safety.SAFE and plan.fix.strategy == "subscription"
    assert apply(MCP2_PUSH, tmp_path) == MCP2_PUSH.replace(
        "    await ctx.session.send_tool_list_changed()\n",
        "    await ctx.session.send_tool_list_changed()\n    await ctx.notify_tools_changed()\n",
    )


def test_a_push_in_a_sync_function_is_left_for_a_human(tmp_path: Path) -> None:
    source = MCP2_PUSH.replace("async def enable", "def enable").replace("    await ctx.session", "    ctx.session")
    plan = plan_for(source, "MCP301", tmp_path)
    assert (plan.fix, plan.site) == (None, None)
    assert plan.manual == "`enable` is not async: add the listen-stream send by hand"


# -- the logging fix (MCP401): plan, then settle -------------------------------------------------
LOGS = (
    "from mcp.server.fastmcp import Context, FastMCP\n\n"
    'mcp = FastMCP("tools")\n\n\n'
    "@mcp.tool()\n"
    "async def ping(ctx: Context) -> str:\n"
    '    await ctx.info("pinged")\n'
    '    return "ok"\n\n\n'
    "@mcp.tool()\n"
    "async def work(n: int, ctx: Context) -> int:\n"
    '    await ctx.debug(f"working on {n}")\n'
    "    return n * 2\n"
)


def test_settle_keeps_a_tools_only_output_and_reviews_a_hidden_debug_record(tmp_path: Path) -> None:
    ping, work = plans_for(LOGS, "MCP401", tmp_path)
    # `ping` says nothing but its log message: kept (manual), no site
    assert ping.fix is None and ping.site is None
    assert ping.manual is not None and ping.manual.startswith("these messages are all `ping` does")
    # FastMCP (mcp 1.x) configures the root logger at INFO: the DEBUG record would be printed nowhere
    assert isinstance(work.site, LogCall)
    assert (work.site.code, work.site.method) == ('__mcpmigrate_logger__.debug("working on %s", n)', "debug")
    assert work.fix is not None and work.fix.safety is Safety.UNSAFE
    assert work.fix.description.startswith(
        'log with the standard library: `logger.debug("working on %s", n)` (review: `FastMCP` configures the root '
        "logger at its `log_level`, INFO by default"
    )
    assert apply(LOGS, tmp_path) == (
        "import logging\n"
        "\n"
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "\n"
        "logger = logging.getLogger(__name__)\n"
        "\n"
        'mcp = FastMCP("tools")\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def ping(ctx: Context) -> str:\n"
        '    await ctx.info("pinged")\n'
        '    return "ok"\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def work(n: int, ctx: Context) -> int:\n"
        '    logger.debug("working on %s", n)\n'
        "    return n * 2\n"
    )
    # without --unsafe-fixes the reviewed rewrite is not applied
    assert apply(LOGS, tmp_path, unsafe_fixes=False) == LOGS


# -- deletions: legacy-only labels (drop.settle) and the round's one deletion --------------------
SET_LEVEL = (
    "from mcp.server.lowlevel import Server\n\n"
    'server = Server("logs")\n\n\n'
    "@server.set_logging_level()\n"
    "async def set_level(level) -> None:\n"
    "    return None\n"
)
LOG_CALL = (
    "\n\n@server.call_tool()\n"
    "async def call(name: str, arguments: dict) -> list:\n"
    '    await server.request_context.session.send_log_message(level="info", data="hi")\n'
    "    return []\n"
)


def test_a_set_level_registration_is_kept_while_legacy_clients_are_served(tmp_path: Path) -> None:
    plan = plan_for(SET_LEVEL, "MCP402", tmp_path)
    assert plan.fix is None and plan.manual is not None and plan.manual.startswith("kept: ")
    assert isinstance(plan.site, SetLevelRegistration) and plan.site.handler == "set_level"


def test_a_set_level_registration_goes_with_its_handler_once_legacy_clients_are_not_served(tmp_path: Path) -> None:
    plan = plan_for(SET_LEVEL, "MCP402", tmp_path, legacy_clients=False)
    assert plan.fix is not None and plan.fix.strategy == "remove" and plan.manual is None
    assert apply(SET_LEVEL, tmp_path, legacy_clients=False) == (
        'from mcp.server.lowlevel import Server\n\nserver = Server("logs")\n'
    )


def test_a_set_level_registration_stays_while_the_module_sends_protocol_logs(tmp_path: Path) -> None:
    # drop.settle reads the module's MCP401 reports (SETTLE_READS): the registration declares the
    # `logging` capability those log notifications need
    plan = plan_for(SET_LEVEL + LOG_CALL, "MCP402", tmp_path, legacy_clients=False)
    assert plan.fix is None and plan.manual is not None
    assert plan.manual.startswith("the module still sends protocol log notifications (MCP401)")


def test_shared_last_steps_run_once_after_every_site_in_the_order_first_asked() -> None:
    edits = Edits()
    ran: list[tuple[str, list[int]]] = []
    for i in range(3):
        edits.shared("b", list, last=lambda v: ran.append(("b", v))).append(i)
        edits.shared("a", list, last=lambda v: ran.append(("a", v))).append(-i)
    assert ran == []
    edits.finish()
    edits.finish()
    assert ran == [("b", [0, 1, 2]), ("a", [0, -1, -2])]

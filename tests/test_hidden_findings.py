"""Findings real servers hid, and the ones that cried wolf (issue 25): receivers typed ``Any`` or
reached through a constructor, a notification built into a variable, a Context subclass's own
wrappers and ``super()`` delegation, a framework context's ``list_roots``; a relay's request
variable resolved per branch; clientInfo read through ``getattr``, a walrus or an ``and`` guard,
and the protocol version; MCP207 on a handler a failed push never reaches, MCP205/MCP101 on
client-side test code, MCP207 naming the tool of another module; SDK names through a star
import, and a ``sys.modules`` stand-in of an SDK module on the port.

The field cases under ``tests/data/hidden/`` (copied from the shared field cases) are checked at
every line and column their headers ask for; the inline sources cover the rest of each kind
(other names, nesting, spellings) and the look-alikes that must stay quiet.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.helpers import cli
from tests.test_receivers import at, sites

DATA = Path(__file__).parent / "data" / "hidden"


def check(tmp_path: Path, *args: str) -> list[dict]:
    result = cli(["check", "--no-cache", "--output-format", "json", *args], tmp_path)
    assert result.exception is None, str(result)
    return result.json["findings"]


def run(tmp_path: Path, source: str, name: str = "server.py") -> list[dict]:
    (tmp_path / name).write_text(source, encoding="utf-8")
    return check(tmp_path, name)


def run_case(tmp_path: Path, case: str, *args: str) -> list[dict]:
    shutil.copy(DATA / case, tmp_path / case)
    return check(tmp_path, *args, case)


# -- receivers --------------------------------------------------------------------------------


def test_requests_21_any_typed_helper_gets_its_callers_context(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "requests_21.py")
    assert sites(findings) == [("MCP202", 32, 20)]
    assert "`_ask_capture`" in findings[0]["message"]
    # fastmcp 4 rejects `response_type=None` (its interim form would raise): the call is fastmcp 3 code
    assert findings[0]["fix"] is None and "`ctx.elicit` without a response type" in findings[0]["manual"]


def test_requests_21_port_to_fastmcp4_reports_the_missing_response_type(tmp_path: Path) -> None:
    shutil.copy(DATA / "requests_21.py", tmp_path / "server.py")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "cam"\nversion = "0"\ndependencies = ["fastmcp>=3.0.0"]\n', encoding="utf-8"
    )
    findings = check(tmp_path, "--target-sdk", "fastmcp4", ".")
    # MCP520 (advisory): the tool's listing changes on fastmcp 4 (issue 24)
    assert sites(findings) == [("MCP202", 32, 20), ("MCP516", 32, 20), ("MCP520", 39, 11)]


HELPER_SPELLINGS = """\
import typing
from typing import Any, Optional

from mcp.server.fastmcp import Context, FastMCP

app = FastMCP("x")


async def ask_any(ctx: "Any") -> None:
    await ctx.elicit("ok?", schema=dict)


async def ask_object(ctx: object) -> None:
    await ctx.session.send_ping()


async def ask_optional(ctx: Optional[typing.Any] = None) -> None:
    await ctx.session.list_roots()


async def not_a_context(ctx: str) -> None:
    await ctx.elicit("ok?", schema=dict)


@app.tool()
async def tool(ctx: Context) -> str:
    await ask_any(ctx)
    await ask_object(ctx=ctx)
    await ask_optional(ctx)
    await not_a_context(ctx)
    return "done"
"""


def test_helper_parameters_that_say_nothing_take_the_callers_context(tmp_path: Path) -> None:
    findings = run(tmp_path, HELPER_SPELLINGS)
    # `ctx: str` is trusted (another type): no finding on line 22
    assert sites(findings) == [("MCP101", 18, 11), ("MCP202", 10, 11), ("MCP203", 14, 11)]


NOTIFY_RECEIVERS = """\
from typing import Any

import mcp.types as types
from mcp.server.fastmcp import Context, FastMCP

app = FastMCP("x")


class Progress:
    def __init__(self, label: str, session: Any = None) -> None:
        self.label = label
        self._session = session

    async def say(self, text: str) -> None:
        await self._session.send_log_message(level="info", data=text)


class NotASession:
    def __init__(self, session: str) -> None:
        self._session = session

    async def say(self, text: str) -> None:
        await self._session.send_log_message(level="info", data=text)


@app.tool()
async def build(ctx: Context) -> str:
    await Progress("build", ctx.session).say("building")
    await NotASession("x").say("quiet")
    changed = types.ServerNotification(types.ToolListChangedNotification(method="notifications/tools/list_changed"))
    await ctx.session.send_notification(changed)
    line = types.ServerNotification(
        types.LoggingMessageNotification(params=types.LoggingMessageNotificationParams(level="info", data="x"))
    )
    await ctx.session.send_notification(notification=line)
    return "ok"
"""


def test_constructor_arguments_and_notification_variables_are_receivers(tmp_path: Path) -> None:
    findings = run(tmp_path, NOTIFY_RECEIVERS)
    assert sites(findings) == [("MCP301", 31, 11), ("MCP401", 15, 15), ("MCP401", 35, 11)]
    assert "hand-built LoggingMessageNotification" in at(findings, 35)["manual"]


def test_notify_14_logging_on_an_any_session_and_a_stored_session(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "notify_14.py")
    assert sites(findings) == [("MCP301", 38, 11), ("MCP401", 37, 11), ("MCP401", 52, 19)]
    assert at(findings, 37)["fix"] is None  # the level is not a literal


def test_notify_19_a_context_subclass_wrapper_is_the_session_push(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "notify_19.py")
    assert sites(findings) == [("MCP301", 25, 15), ("MCP301", 29, 15)]
    assert at(findings, 25)["message"].startswith("`self.session.send_tool_list_changed(…)` pushes")


SUBCLASSES = """\
from fastmcp import Context as FastContext
from mcp.server.fastmcp import Context


class Audited(FastContext):
    async def elicit(self, message, response_type=None):
        return await super().elicit(message, response_type=response_type)

    async def list_roots(self):
        return await super().list_roots()


class Plain:
    async def elicit(self, message):
        return await super().elicit(message)

    async def send_ping(self):
        return await self.session.send_ping()


class Pinging(Context):
    async def check(self) -> None:
        await self.session.send_ping()
"""


def test_super_delegation_and_self_in_context_subclasses(tmp_path: Path) -> None:
    findings = run(tmp_path, SUBCLASSES)
    # `Plain` is no context: its `super()` and `self.session` stay quiet (lines 15 and 18)
    assert sites(findings) == [("MCP101", 10, 22), ("MCP202", 7, 22), ("MCP203", 23, 15)]


def test_requests_19_a_framework_contexts_list_roots(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "requests_19.py")
    assert sites(findings) == [("MCP101", 46, 19), ("MCP201", 34, 19), ("MCP202", 40, 20)]
    roots = at(findings, 46)
    assert roots["fix"] is None
    assert roots["manual"] == (
        "`ctx` is `mcp_use.server.Context`, mcp_use's subclass of the SDK's `Context`, whose `list_roots` makes the "
        "request itself (`await self.session.list_roots()` in mcp_use/server/context.py): no rewrite of this call "
        "changes what it sends. Migrate the wrapper first: `Context.list_roots` (mcpmigrate reports that line where "
        "the framework's source is checked, and leaves it manual too: it requests through `self.session`, not "
        "through a context parameter), then its callers: here, take the directory as a documented tool parameter "
        "instead of `list_roots`"
    )
    sample = at(findings, 34)
    assert sample["fix"] is None
    assert sample["manual"] == (
        "`ctx` is `mcp_use.server.Context`, mcp_use's subclass of the SDK's `Context`, whose `sample` makes the "
        "request itself (`await self.session.create_message(...)` in mcp_use/server/context.py): no rewrite of this "
        "call changes what it sends. Migrate the wrapper first: `Context.sample` (mcpmigrate reports that line where "
        "the framework's source is checked, and leaves it manual too: it requests through `self.session`, not "
        "through a context parameter), then its callers: here, call an LLM provider directly instead of `sample`"
    )


# -- relays -----------------------------------------------------------------------------------


def test_requests_18_each_branch_of_a_relay_gets_its_own_rule(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "requests_18.py")
    assert sites(findings) == [("MCP101", 33, 21), ("MCP201", 27, 21), ("MCP202", 30, 21), ("MCP203", 36, 21)]
    assert all(f["fix"] is None for f in findings)


MATCH_RELAY = """\
import mcp.types as types


async def relay(session, method: str, params: dict):
    req = None
    match method:
        case "roots/list":
            req = types.ServerRequest(types.ListRootsRequest(method=method))
            return await session.send_request(req, types.ListRootsResult)
        case "ping":
            req = types.ServerRequest(types.PingRequest(method="ping"))
            return await session.send_request(req, types.EmptyResult)
    if params:
        req = types.ServerRequest(types.PingRequest(method="ping"))
    return await session.send_request(req, types.EmptyResult)
"""


def test_match_cases_of_a_relay_and_a_binding_before_the_send(tmp_path: Path) -> None:
    findings = run(tmp_path, MATCH_RELAY)
    # the last send may get the ping bound under `if params:`, never the match cases' requests
    assert sites(findings) == [("MCP101", 9, 26), ("MCP203", 12, 26), ("MCP203", 15, 18)]


# -- clientInfo -------------------------------------------------------------------------------


def test_roots_22_client_info_read_through_getattr(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "roots_22.py")
    assert sites(findings) == [("MCP102", 27, 20)]
    (f,) = findings
    assert f["severity"] == "advisory"
    assert "clientInfo" in f["message"] and "None-guarded" in f["message"]
    assert "read `client_info` on mcp 2.x" in f["manual"]


CLIENT_PARAMS = """\
from mcp.server.fastmcp import Context, FastMCP

app = FastMCP("x")


@app.tool()
async def walrus(ctx: Context) -> str:
    if (p := ctx.session.client_params) and p.clientInfo:
        return p.clientInfo.name
    return "?"


@app.tool()
async def anded(ctx: Context) -> str:
    name = ctx.session.client_params and ctx.session.client_params.clientInfo.name
    return name or "?"


@app.tool()
async def version(ctx: Context) -> str:
    return getattr(ctx.session.client_params, "protocolVersion", "")


@app.tool()
async def caps(ctx: Context) -> bool:
    return ctx.session.client_params.capabilities.roots is not None
"""


def test_client_params_reads_get_the_message_of_what_they_read(tmp_path: Path) -> None:
    findings = run(tmp_path, CLIENT_PARAMS)
    assert sites(findings) == [("MCP102", 8, 14), ("MCP102", 15, 42), ("MCP102", 21, 20), ("MCP102", 26, 12)]
    assert "client's name/version (clientInfo)" in at(findings, 8)["message"]
    assert "client's name/version (clientInfo)" in at(findings, 15)["message"]  # the `and` guard: no second one
    assert "protocol version" in at(findings, 21)["message"]
    assert "io.modelcontextprotocol/protocolVersion" in at(findings, 21)["message"]
    assert "capabilities arrive in every request's _meta" in at(findings, 26)["message"]


# -- false alarms -----------------------------------------------------------------------------


def test_requests_22_a_validation_error_that_asks_again_is_no_open_gate(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "requests_22.py")
    assert sites(findings) == [("MCP202", 38, 28)]


GATES = """\
from fastmcp import Context, FastMCP

app = FastMCP("x")


@app.tool()
async def parse_only(ctx: Context) -> str:
    try:
        answer = await ctx.elicit("Delete?", response_type=bool)
    except (KeyError, ValueError):
        pass
    return "deleted"


@app.tool()
async def asks_again(ctx: Context) -> str:
    for _ in range(3):
        try:
            answer = await ctx.elicit("Delete?", response_type=bool)
        except Exception:
            continue
        break
    return "deleted"


@app.tool()
async def opens(ctx: Context) -> str:
    try:
        answer = await ctx.elicit("Delete?", response_type=bool)
    except Exception:
        pass
    return "deleted"
"""


def test_only_a_handler_that_catches_the_push_failure_and_goes_on_opens_the_gate(tmp_path: Path) -> None:
    findings = [f for f in run(tmp_path, GATES) if f["rule"] == "MCP207"]
    assert sites(findings) == [("MCP207", 30, 5)]
    assert "`opens` runs without" in findings[0]["message"]


def test_requests_17_url_elicitation_params_of_client_side_tests(tmp_path: Path) -> None:
    assert run_case(tmp_path, "requests_17.py") == []


SERVER_TEST = """\
from mcp.client.session import ClientSession
from mcp.server.fastmcp import FastMCP
from mcp.types import ElicitRequestURLParams

app = FastMCP("x")


def test_builds_params() -> None:
    ElicitRequestURLParams(mode="url", message="m", url="https://x.example", elicitation_id="e1")
"""


def test_a_server_modules_elicitation_id_is_still_reported(tmp_path: Path) -> None:
    # a test that runs a server through a client is still server code
    assert sites(run(tmp_path, SERVER_TEST)) == [("MCP205", 9, 78)]


def test_roots_21_a_stubbed_list_roots_is_no_request(tmp_path: Path) -> None:
    assert run_case(tmp_path, "roots_21.py") == []


STUBS = """\
from unittest.mock import AsyncMock

from mcp.server.fastmcp import Context


async def test_stub(ctx: Context) -> None:
    ctx.session.list_roots = AsyncMock()
    ctx.session.list_roots.assert_not_awaited()
    (ctx.session.list_roots, other) = (AsyncMock(), 1)


async def bridged(ctx: Context, run) -> None:
    run(ctx.session.list_roots)
"""


def test_list_roots_stubs_stay_quiet_a_bridged_reference_does_not(tmp_path: Path) -> None:
    assert sites(run(tmp_path, STUBS)) == [("MCP101", 13, 9)]


def test_mcp207_names_the_tool_in_another_module(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n', encoding="utf-8")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "consent.py").write_text(
        "from mcp.server.fastmcp import Context\n\n\n"
        "async def confirm(ctx: Context, what: str) -> bool:\n"
        "    try:\n"
        '        answer = await ctx.elicit(message=f"Delete {what}?", schema=dict)\n'
        '        return answer.action == "accept"\n'
        "    except Exception:\n"
        "        return True\n",
        encoding="utf-8",
    )
    (pkg / "tools.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        "from pkg.consent import confirm\n\n"
        'app = FastMCP("x")\n\n\n'
        "@app.tool()\n"
        "async def delete_file(path: str, ctx: Context) -> str:\n"
        "    if await confirm(ctx, path):\n"
        '        return "deleted"\n'
        '    return "kept"\n',
        encoding="utf-8",
    )
    (f,) = [f for f in check(tmp_path, ".") if f["rule"] == "MCP207"]
    assert (f["path"], f["line"]) == ("pkg/consent.py", 8)
    assert "`delete_file` in pkg/tools.py (through `confirm`) runs without" in f["message"]


# -- imports ----------------------------------------------------------------------------------


def test_bugs_27_names_from_a_star_import_of_the_sdk(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "bugs_27.py")
    assert sites(findings) == [("MCP101", 21, 19), ("MCP203", 22, 11)]
    port = run_case(tmp_path, "bugs_27.py", "--target-sdk", "mcp2")
    star = at(port, 14)
    assert star["rule"] == "MCP501" and star["fix"] is None
    assert star["manual"].startswith("import the names this module uses from `mcp.server.mcpserver` by name")


def test_bugs_26_a_sys_modules_stand_in_of_the_sdk_blocks_the_port(tmp_path: Path) -> None:
    shutil.copytree(DATA / "bugs_26", tmp_path / "case")
    findings = check(tmp_path / "case", "--target-sdk", "mcp2", ".")
    assert sorted((f["path"], f["rule"], f["line"], f["column"]) for f in findings) == [
        ("server.py", "MCP501", 1, 1),
        ("viewer.py", "MCP501", 20, 29),
    ]
    stub = [f for f in findings if f["path"] == "viewer.py"][0]
    assert stub["manual"] == "move the stub to `mcp.server.mcpserver` and give it `MCPServer`"
    assert check(tmp_path / "case", ".") == []  # not a finding without the port


def test_string_spellings_that_are_no_module_stand_in_stay_quiet(tmp_path: Path) -> None:
    source = (
        "import importlib\nimport sys\n\n"
        'NAME = "mcp.server.fastmcp"\n'
        'mod = importlib.import_module("mcp.server.fastmcp")\n'
        'print("mcp.server.fastmcp" in sys.modules, sys.modules.get("mcp.server.fastmcp"))\n'
        'sys.modules["mcp.server.fastmcp.tools"] = mod\n'
    )
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    assert sites(check(tmp_path, "--target-sdk", "mcp2", "server.py")) == [("MCP501", 7, 13)]


# -- a deleted statement's directive comments -------------------------------------------------


def test_bugs_28_a_deleted_pings_fmt_off_stays(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_bytes((DATA / "bugs_28.py").read_bytes())
    result = cli(["fix", "--no-cache", "server.py"], tmp_path)
    assert result.exception is None and result.exit_code == 0, str(result)
    fixed = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert fixed.endswith(
        "async def cell(r: int, c: int, ctx: Context) -> str:\n"
        "    # fmt: off\n"
        "    value   =   TABLE[r][c]\n"
        "    # fmt: on\n"
        "    return str(value)\n"
    )


DIRECTIVES = """\
from mcp.server.fastmcp import Context, FastMCP

app = FastMCP("x")


@app.tool()
async def only_ping(ctx: Context) -> None:
    # pragma: no cover
    await ctx.session.send_ping()


@app.tool()
async def pinged(ctx: Context) -> str:
    # say hello first
    await ctx.session.send_ping()
    # type: ignore
    await ctx.session.send_ping()
    return "ok"
"""


def test_directives_go_to_the_next_statement_or_the_pass_other_comments_go(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(DIRECTIVES, encoding="utf-8")
    result = cli(["fix", "--no-cache", "server.py"], tmp_path)
    assert result.exception is None and result.exit_code == 0, str(result)
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'app = FastMCP("x")\n\n\n'
        "@app.tool()\n"
        "async def only_ping(ctx: Context) -> None:\n"
        "    # pragma: no cover\n"
        "    pass\n\n\n"
        "@app.tool()\n"
        "async def pinged(ctx: Context) -> str:\n"
        "    # type: ignore\n"
        '    return "ok"\n'
    )


# -- a project's Context subclass defined in another module --------------------------------------
SHOP_CONTEXT = """from mcp.server.fastmcp import Context


class ShopContext(Context):
    async def audit(self, text: str) -> None:
        await self.info(text)
"""
SHOP_SERVER = """from mcp.server.fastmcp import FastMCP

from {ctx_import} import ShopContext

mcp = FastMCP("shop")


@mcp.tool()
async def checkout(ctx: ShopContext) -> str:
    answer = await ctx.elicit("Ship now?", schema=dict)
    await ctx.session.send_tool_list_changed()
    return str(answer)
"""


def test_a_context_subclass_of_another_module_is_a_context(tmp_path: Path) -> None:
    """``ctx: ShopContext`` where ``ShopContext(Context)`` is defined in another module of the
    project, imported absolutely or relatively: its requests and pushes are the SDK's."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "shop"\n', encoding="utf-8")
    pkg = tmp_path / "shop"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "context.py").write_text(SHOP_CONTEXT, encoding="utf-8")
    for spelling in ("shop.context", ".context"):
        (pkg / "server.py").write_text(SHOP_SERVER.format(ctx_import=spelling), encoding="utf-8")
        assert sites(check(tmp_path, "shop/server.py")) == [("MCP202", 10, 20), ("MCP301", 11, 11)], spelling
    (pkg / "context.py").write_text(SHOP_CONTEXT.replace("(Context)", "").replace("from mcp", "# from mcp"))
    # a class of its own: `ctx.elicit` is no request (`ctx.session` stays one by its name)
    assert sites(check(tmp_path, "shop/server.py")) == [("MCP301", 11, 11)]

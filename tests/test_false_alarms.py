"""No false alarms, and messages that tell the truth: shapes from public MCP servers (and their
tests) that a migration linter must not report, or must report with the right reason and
severity. Each test checks exact rule ids, lines and the gist of the message."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli


def run(tmp_path: Path, source: str, *args: str, name: str = "server.py", pyproject: str | None = None) -> list[dict]:
    (tmp_path / name).write_text(source, encoding="utf-8")
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    result = cli([*(args or ("check", "--no-cache")), "--output-format", "json", name], tmp_path)
    assert result.exception is None, str(result)
    return result.json["findings"]


def sites(findings: list[dict]) -> list[tuple[str, int, int]]:
    return [(f["rule"], f["line"], f["column"]) for f in findings]


# -- MCP102: client info is not capabilities; mcp 2.x reads per request; stores are not reads ----

CLIENT_INFO_MCP1 = """\
from mcp.server.fastmcp import Context, FastMCP

board = FastMCP("kanban-telemetry")


@board.tool()
async def move_card(card: str, lane: str, ctx: Context) -> str:
    tag = "?"
    who = ctx.session.client_params
    if who is not None:
        tag = who.clientInfo.name
    return f"{card} -> {lane} (by {tag})"


@board.tool()
def card_footer(ctx: Context) -> str:
    return "via " + ctx.session.client_params.clientInfo.name.lower()


@board.tool()
def card_header(context: Context) -> str:
    info = context.request_context.session.client_params
    return info.clientInfo.version if info else "-"
"""


def test_client_info_reads_have_their_own_message_and_severity(tmp_path: Path) -> None:
    found = run(tmp_path, CLIENT_INFO_MCP1)
    assert sites(found) == [("MCP102", 9, 11), ("MCP102", 17, 21), ("MCP102", 22, 12)]
    guarded, unguarded, truthy = found
    for f in found:
        assert "clientInfo" in f["message"] and "not its capabilities" in f["message"]
        assert "io.modelcontextprotocol/clientInfo" in f["message"]
        assert "client_info" in f["message"]  # the mcp 2.x spelling
        assert "ctx.client_capabilities" not in f["message"] + (f["manual"] or "")
    assert guarded["severity"] == "advisory" and "degrades" in guarded["message"]
    assert truthy["severity"] == "advisory"
    assert unguarded["severity"] == "breaking" and "raises AttributeError" in unguarded["message"]
    assert "guard the read for None" in unguarded["manual"]


PER_REQUEST_MCP2 = """\
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ClientCapabilities, ElicitationCapability

desk = MCPServer("front-desk")


@desk.tool()
async def clerk_name(ctx: Context) -> str:
    params = ctx.session.client_params
    return params.client_info.name if params is not None else "guest"


@desk.tool()
async def can_confirm(ctx: Context) -> bool:
    return ctx.session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability()))


@desk.tool()
async def clerk_name_unguarded(ctx: Context) -> str:
    return ctx.session.client_params.client_info.name


@desk.tool()
async def old_spelling(ctx: Context) -> str:
    p = ctx.session.client_params
    return p.clientInfo.name if p else "guest"
"""


def test_mcp2_per_request_reads_are_not_breaking(tmp_path: Path) -> None:
    found = run(tmp_path, PER_REQUEST_MCP2)
    # clerk_name (None-guarded) and can_confirm (the session checks this request's capabilities)
    # are right on mcp 2.x; an unguarded read raises when no client info came; `clientInfo` is
    # not an attribute of mcp 2.x's InitializeRequestParams.
    assert sites(found) == [("MCP102", 20, 12), ("MCP102", 25, 9)]
    assert all(f["severity"] == "breaking" for f in found)
    assert "raises AttributeError" in found[0]["message"]
    assert "names the field `client_info`" in found[1]["message"]


def test_mcp2_check_client_capability_through_a_helper_session(tmp_path: Path) -> None:
    source = PER_REQUEST_MCP2.replace(
        "    return ctx.session.check_client_capability(",
        "    session = ctx.session\n    return session.check_client_capability(",
    )
    assert sites(run(tmp_path, source)) == [("MCP102", 21, 12), ("MCP102", 26, 9)]


LOWLEVEL_MCP2_CAPABILITY = """\
from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    caps = types.ClientCapabilities(elicitation=types.ElicitationCapability())
    text = "yes" if ctx.session.check_client_capability(caps) else "no"
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


server = Server("x", on_call_tool=call_tool)
"""


def test_mcp2_lowlevel_capability_check_is_per_request(tmp_path: Path) -> None:
    """An mcp 2.x low-level handler (its `ServerRequestContext`, or a `Server(on_…=…)` constructor,
    which mcp 1.x does not have) checks the capabilities of the request it serves: no MCP102, also
    with an untyped context. The same read through mcp 1.x's `server.request_context` stays."""
    assert run(tmp_path, LOWLEVEL_MCP2_CAPABILITY) == []
    untyped = LOWLEVEL_MCP2_CAPABILITY.replace("ServerRequestContext[Any]", "Any").replace(
        "from mcp.server.context import ServerRequestContext\n", ""
    )
    assert run(tmp_path, untyped) == []
    mcp1 = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("x")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    caps = types.ClientCapabilities(elicitation=types.ElicitationCapability())
    ok = server.request_context.session.check_client_capability(caps)
    return [types.TextContent(type="text", text="yes" if ok else "no")]
"""
    assert sites(run(tmp_path, mcp1)) == [("MCP102", 10, 10)]


def test_mcp1_capability_reads_stay_breaking(tmp_path: Path) -> None:
    source = """\
from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ClientCapabilities, SamplingCapability

mcp = FastMCP("x")


@mcp.tool()
async def can_sample(ctx: Context) -> bool:
    return ctx.session.check_client_capability(ClientCapabilities(sampling=SamplingCapability()))


@mcp.tool()
async def caps(ctx: Context) -> bool:
    return ctx.session.client_params.capabilities.sampling is not None
"""
    found = run(tmp_path, source)
    assert sites(found) == [("MCP102", 9, 12), ("MCP102", 14, 12)]
    assert all(f["severity"] == "breaking" and "ctx.client_capabilities" in f["message"] for f in found)


TEST_DOUBLES = """\
from unittest import mock
from unittest.mock import MagicMock

from mcp.types import ClientCapabilities, Implementation, InitializeRequestParams


def test_footer_names_the_client() -> None:
    fake = MagicMock()
    fake.session.client_params = InitializeRequestParams(
        protocolVersion="2025-06-18",
        capabilities=ClientCapabilities(),
        clientInfo=Implementation(name="bench-client", version="9"),
    )
    fake.request_context.session.client_params = None
    (fake.session.client_params, other) = (None, 1)
    del fake.session.client_params
    assert fake.session is not None


def test_reads_back_from_a_double() -> None:
    ctx = mock.AsyncMock()
    assert ctx.session.client_params.clientInfo.name


def test_reads_back_from_a_fixture(fake_ctx: MagicMock) -> None:
    assert fake_ctx.session.client_params.clientInfo.name
"""


def test_stores_and_test_doubles_are_not_reads(tmp_path: Path) -> None:
    assert run(tmp_path, TEST_DOUBLES, name="test_dispatcher.py") == []


# -- MCP105: a root built invalid on purpose to test its rejection ------------------------------

INVALID_ON_PURPOSE = """\
import unittest

import pytest
from pydantic import ValidationError
from mcp.types import ListRootsResult, Root


def test_bare_names_are_rejected() -> None:
    with pytest.raises(ValidationError):
        ListRootsResult.model_validate({"roots": [{"uri": "workspace"}]})
    with pytest.raises(ValidationError, match="uri"):
        if True:
            Root(uri="https://example.com")
    pytest.raises(ValidationError, Root, uri="s3://bucket")


class Case(unittest.TestCase):
    def test_rejected(self) -> None:
        with self.assertRaises(ValidationError):
            Root(uri="workspace")


def published() -> list[Root]:
    return [Root(uri="https://example.com/repo")]
"""


def test_invalid_root_inside_pytest_raises_is_not_a_finding(tmp_path: Path) -> None:
    found = run(tmp_path, INVALID_ON_PURPOSE, name="test_roots.py")
    assert sites(found) == [("MCP105", 24, 22)]  # the server that publishes a non-file root


# -- MCP302/MCP402/MCP103: a comparison with a method name is a dispatch only in a branch test ----

CLIENT_SIDE_TEST = """\
class FakeUpstream:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    async def request(self, method: str, params: dict) -> dict:
        self.sent.append({"method": method, "params": params})
        return {}


async def test_gateway_forwards_subscribe(gateway) -> None:
    upstream = FakeUpstream()
    await gateway.subscribe("mem://a", upstream)
    first = next(m for m in upstream.sent if m.get("method") == "resources/subscribe")
    assert first["params"] == {"uri": "mem://a"}
    assert upstream.sent[-1]["method"] == "resources/subscribe"
    seen = [m for m in upstream.sent if m["method"] in ("logging/setLevel", "notifications/roots/list_changed")]
    assert not seen


async def test_gateway_does_not_resubscribe(gateway) -> None:
    upstream = FakeUpstream()
    await gateway.resync(upstream)
    assert not any(m.get("method") == "resources/unsubscribe" for m in upstream.sent)
    assert all(m["method"] != "logging/setLevel" for m in upstream.sent)
    is_level = upstream.sent[0]["method"] == "logging/setLevel"
    assert not is_level


def dispatch(msg: dict) -> dict:
    method = msg["method"]
    if method == "resources/subscribe":
        return {}
    elif not method == "logging/setLevel" and method != "x":
        return {"x": 1}
    while method == "notifications/roots/list_changed":
        break
    return {"ok": True} if method == "resources/unsubscribe" else {}
"""


def test_method_comparisons_outside_branch_tests_are_not_dispatch(tmp_path: Path) -> None:
    found = run(tmp_path, CLIENT_SIDE_TEST, name="test_channel.py")
    assert sites(found) == [("MCP302", 31, 8), ("MCP402", 33, 14), ("MCP103", 35, 11), ("MCP302", 37, 28)]


# -- MCP301/MCP302: a server already written for both eras ---------------------------------------

DUAL_ERA = """\
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated

FEED = "feed://latest"


def build_server() -> Server:
    bus = InMemorySubscriptionBus()
    listen = ListenHandler(bus)
    legacy_senders: list = []

    async def on_new_item() -> None:
        await bus.publish(ResourceUpdated(uri=FEED))
        for send in legacy_senders:
            await send()

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        async def send() -> None:
            await ctx.session.send_resource_updated(FEED)

        legacy_senders.append(send)
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        legacy_senders.clear()
        return types.EmptyResult()

    async def touch(ctx: Any, params: Any) -> None:
        await ctx.session.send_tool_list_changed()

    server = Server(
        "feed",
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_subscriptions_listen=listen,
    )
    return server
"""


def test_dual_era_server_is_not_breaking(tmp_path: Path) -> None:
    found = run(tmp_path, DUAL_ERA)
    # the resource send pairs with the bus publish elsewhere; the tools send publishes nothing
    assert sites(found) == [("MCP301", 32, 15), ("MCP302", 36, 9), ("MCP302", 37, 9)]
    assert found[0]["severity"] == "breaking"
    for f in found[1:]:
        assert f["severity"] == "advisory" and "only answers handshake-era (legacy) clients" in f["message"]


def test_subscribe_handlers_without_listen_stay_breaking(tmp_path: Path) -> None:
    source = DUAL_ERA.replace("        on_subscriptions_listen=listen,\n", "")
    found = run(tmp_path, source)
    assert [(r, line) for r, line, _ in sites(found)] == [
        ("MCP301", 22),
        ("MCP301", 32),
        ("MCP302", 36),
        ("MCP302", 37),
    ]
    assert all(f["severity"] == "breaking" for f in found)


ERA_BRANCHES = """\
from mcp.server.mcpserver import Context, MCPServer
from mcp.types.version import MODERN_PROTOCOL_VERSIONS, is_version_at_least

app = MCPServer("eras")


@app.tool()
async def ping_legacy(ctx: Context) -> str:
    if not is_version_at_least(ctx.session.protocol_version, "2026-07-28"):
        await ctx.session.send_ping()
    return "ok"


@app.tool()
async def roots_legacy(ctx: Context) -> str:
    if ctx.session.can_send_request:
        listing = await ctx.session.list_roots()
        return listing.roots[0].uri.path
    return "."


@app.tool()
async def sample_legacy(ctx: Context) -> str:
    if ctx.session.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return "no sampling on 2026-07-28"
    reply = await ctx.session.create_message(messages=[], max_tokens=5)
    return str(reply)


@app.tool()
async def sample_always(ctx: Context) -> str:
    reply = await ctx.session.create_message(messages=[], max_tokens=5)
    return str(reply)
"""


def test_legacy_only_paths_behind_era_checks_are_not_breaking(tmp_path: Path) -> None:
    found = run(tmp_path, ERA_BRANCHES)
    assert sites(found) == [("MCP201", 32, 19)]


# -- MCP207: every fail-open form, and not where NoBackChannelError refuses ----------------------

REFUSES_FIRST = """\
import os

from mcp.server.mcpserver import AcceptedElicitation, Context, MCPServer
from mcp.shared.exceptions import MCPError, NoBackChannelError
from pydantic import BaseModel

mcp = MCPServer("map-layers")
LAYERS = {"roads", "rivers"}
SKIP_IF_UNSUPPORTED = os.environ.get("LAYERS_SKIP_CONFIRM", "0") == "1"


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def remove_layer(name: str, ctx: Context) -> str:
    try:
        answer = await ctx.elicit(f"Remove layer {name}?", Confirm)
    except NoBackChannelError:
        return "refused: this connection cannot ask for confirmation"
    except MCPError:
        if not SKIP_IF_UNSUPPORTED:
            return "refused: client cannot confirm"
        answer = None
    if answer is not None and not (isinstance(answer, AcceptedElicitation) and answer.data.ok):
        return "kept"
    LAYERS.discard(name)
    return f"removed {name}"


@mcp.tool()
async def remove_all(ctx: Context) -> str:
    try:
        answer = await ctx.elicit("Remove every layer?", Confirm)
    except MCPError:
        answer = None
    except NoBackChannelError:
        return "refused"
    if answer is not None and not answer.data.ok:
        return "kept"
    LAYERS.clear()
    return "removed all"
"""


def test_no_back_channel_refusal_is_not_fail_open(tmp_path: Path) -> None:
    found = [f for f in run(tmp_path, REFUSES_FIRST) if f["rule"] == "MCP207"]
    # remove_layer refuses on NoBackChannelError first; in remove_all the MCPError handler comes
    # first and catches NoBackChannelError (its subclass), so that gate still opens
    assert sites(found) == [("MCP207", 36, 5)]
    assert "`remove_all` runs without" in found[0]["message"]


FAIL_OPEN_HELPERS = """\
from fastmcp import Context, FastMCP

app = FastMCP("misc")
ERASED: list[str] = []


async def _gate(ctx: Context, text: str) -> bool:
    try:
        answer = await ctx.elicit(text, response_type=bool)
    except Exception:
        return True
    return answer.action == "accept" and bool(answer.data)


async def confirm(ctx: Context, text: str, default: bool = False) -> bool:
    try:
        answer = await ctx.elicit(text, response_type=bool)
    except Exception: return default
    return answer.action == "accept" and bool(answer.data)


async def confirm_strict(ctx: Context, text: str, default: bool = False) -> bool:
    try:
        answer = await ctx.elicit(text, response_type=bool)
    except Exception:
        return default
    return answer.action == "accept" and bool(answer.data)


async def _destructive(ctx: Context, what: str) -> bool:
    return await _gate(ctx, f"Erase {what}?")


@app.tool
async def erase_disk(disk: str, ctx: Context) -> str:
    if not await _destructive(ctx, disk):
        return "kept"
    ERASED.append(disk)
    return f"erased {disk}"


@app.tool
async def wipe_cache(ctx: Context) -> str:
    if not await _gate(ctx, "Wipe the cache?"):
        return "kept"
    return "wiped"


@app.tool
async def format_disk(disk: str, ctx: Context) -> str:
    if not await confirm(ctx, f"Format {disk}?", default=True):
        return "kept"
    return f"formatted {disk}"


@app.tool
async def rename_disk(disk: str, ctx: Context) -> str:
    if not await confirm_strict(ctx, f"Rename {disk}?", False):
        return "kept"
    return f"renamed {disk}"
"""


def test_fail_open_helpers_name_the_tools_that_run(tmp_path: Path) -> None:
    found = [f for f in run(tmp_path, FAIL_OPEN_HELPERS) if f["rule"] == "MCP207"]
    # `return default` fails open where a caller passes default=True; confirm_strict's callers
    # pass False, so its failure path refuses
    assert sites(found) == [("MCP207", 10, 5), ("MCP207", 18, 5)]
    assert (
        "`erase_disk`, `wipe_cache` (through `_gate`) run without" in found[0]["message"]
        or "`wipe_cache`, `erase_disk` (through `_gate`) run without" in found[0]["message"]
    )
    assert "`format_disk` (through `confirm`) runs without" in found[1]["message"]


# -- fastmcp 4: pins read, advice the pinned framework can serve --------------------------------

FASTMCP_TOGGLE = """\
from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context

app = FastMCP(name="feature-flags")
enabled = {"beta": False}


@app.tool
async def toggle_beta() -> str:
    enabled["beta"] = not enabled["beta"]
    await get_context().session.send_tool_list_changed()
    return f"beta={'on' if enabled['beta'] else 'off'}"
"""


def _project(deps: str) -> str:
    return f'[project]\nname = "x"\nversion = "0"\ndependencies = [{deps}]\n'


def test_fastmcp4_pin_gets_fastmcp4_advice(tmp_path: Path) -> None:
    found = run(tmp_path, FASTMCP_TOGGLE, "fix", "--diff", pyproject=_project('"fastmcp>=4.2", "mcp>=2.3"'))
    assert sites(found) == [("MCP301", 11, 11)]
    text = found[0]["message"] + found[0]["manual"]
    assert "upgrade" not in text.lower()
    assert "On fastmcp 4 (`fastmcp>=4.2` in pyproject.toml" in text
    assert 'app._mcp_server.add_request_handler("subscriptions/listen"' in text
    assert "ctx.send_notification(mcp.types.ToolListChangedNotification())" in text


def test_fastmcp3_pin_names_the_upgrade(tmp_path: Path) -> None:
    found = run(tmp_path, FASTMCP_TOGGLE, pyproject=_project('"fastmcp>=3.1,<4"'))
    assert sites(found) == [("MCP301", 11, 11)]
    assert "fastmcp 2.x/3.x (`fastmcp>=3.1,<4` in pyproject.toml" in found[0]["message"]
    assert "upgrade to fastmcp 4" in found[0]["message"]


def test_fastmcp4_listen_wired_by_hand_is_migrated(tmp_path: Path) -> None:
    source = (
        FASTMCP_TOGGLE.replace(
            'app = FastMCP(name="feature-flags")\n',
            'app = FastMCP(name="feature-flags")\nbus = InMemorySubscriptionBus()\n'
            'app._mcp_server.add_request_handler("subscriptions/listen", SubscriptionsListenRequestParams, ListenHandler(bus))\n',
        ).replace(
            "from fastmcp.server.dependencies import get_context\n",
            "from fastmcp.server.dependencies import get_context\nfrom mcp.types import SubscriptionsListenRequestParams\n"
            "from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged\n",
        )
        + "\n\nasync def on_flag_change() -> None:\n    await bus.publish(ToolsListChanged())\n"
    )
    assert run(tmp_path, source, pyproject=_project('"fastmcp>=4.2"')) == []


# -- one-line statements: the result is not used -------------------------------------------------

ONE_LINERS = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("one-liners")


@mcp.tool()
async def step(flag: bool, ctx: Context) -> str:
    if flag: await ctx.info("flag set")
    await ctx.info("step"); return "ok"


@mcp.tool()
async def probe(ctx: Context) -> str:
    await ctx.session.send_ping(); await ctx.info("pinged")
    ok = await ctx.session.send_ping()
    return str(ok)
"""


def test_statements_sharing_a_line_are_not_used_results(tmp_path: Path) -> None:
    found = run(tmp_path, ONE_LINERS, "fix", "--diff")
    assert sites(found) == [
        ("MCP401", 8, 20),
        ("MCP401", 9, 11),
        ("MCP203", 14, 11),
        ("MCP401", 14, 42),
        ("MCP203", 15, 16),
    ]
    for f in found[:4]:
        assert f["manual"].startswith("the statement shares its line with other statements")
    assert found[4]["manual"].startswith("its result is used")


# -- `fix --strategy interim` refusals that are true, the blocking reason first ----------------

INTERIM = ("fix", "--diff", "--strategy", "interim", "--unsafe-fixes")


def manual_of(found: list[dict], rule: str) -> list[str]:
    return [f["manual"] for f in found if f["rule"] == rule]


MCP1_LOWLEVEL_HELPER = """\
import mcp.types as types
from mcp.server import Server

depot = Server("depot")


async def _depot_dirs() -> list[str]:
    listing = await depot.request_context.session.list_roots()
    return [r.uri.path for r in listing.roots]


async def _first_dir() -> str:
    return (await _depot_dirs())[0]


@depot.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "depot_home":
        return [types.TextContent(type="text", text=await _first_dir())]
    raise ValueError(name)
"""


def test_mcp1_helper_is_refused_for_mcp1_not_for_the_helper(tmp_path: Path) -> None:
    found = run(tmp_path, MCP1_LOWLEVEL_HELPER, *INTERIM)
    assert sites(found) == [("MCP101", 8, 21)]
    manual = found[0]["manual"]
    assert manual.startswith("mcp 1.x has no interim form") and "fix --strategy param" in manual
    assert "helper" not in manual


DUAL_SDK = """\
from pathlib import Path

try:
    from mcp.server.mcpserver import Context, MCPServer as ServerClass
except ImportError:  # mcp < 2
    from mcp.server.fastmcp import Context, FastMCP as ServerClass

mcp = ServerClass("trace-viewer")


@mcp.tool()
async def list_traces(ctx: Context) -> str:
    roots = await ctx.session.list_roots()
    base = Path(roots.roots[0].uri.path)
    return "\\n".join(sorted(p.name for p in base.glob("*.trace")))
"""


def test_mcp2_first_compatibility_import_is_recognised(tmp_path: Path) -> None:
    found = run(tmp_path, DUAL_SDK, *INTERIM, pyproject=_project('"mcp>=2.3,<3"'))
    assert sites(found) == [("MCP101", 13, 19)]
    manual = found[0]["manual"]
    assert manual.startswith("this module also supports mcp 1.x (the `except ImportError` fallback")
    assert "drop the 1.x fallback" in manual and "`fix --strategy param`, which works on both" in manual
    assert "upgrade" not in manual
    # the param fix applies to the dual-SDK module as it is
    (param,) = run(tmp_path, DUAL_SDK)
    assert param["fix"] is not None and param["fix"]["strategy"] == "param"


FASTMCP_SAMPLE = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("poem-demo")


@mcp.tool()
async def limerick(topic: str, ctx: Context) -> str:
    result = await ctx.sample(messages=f"Write a limerick about {topic}.", max_tokens=150)
    return result.text or ""
"""


def test_fastmcp3_sample_refusal_gives_the_whole_path(tmp_path: Path) -> None:
    (f,) = run(tmp_path, FASTMCP_SAMPLE, *INTERIM, pyproject=_project('"fastmcp[tasks]>=3.4.3,<4.0.0"'))
    assert (f["rule"], f["line"]) == ("MCP201", 8)
    assert (
        "Upgrade to fastmcp 4 (which removed `ctx.sample`), sample through `ctx.session.create_message(...)`"
        in f["manual"]
    )
    assert "call the model provider directly" in f["manual"]


def test_fastmcp4_pin_is_not_told_to_upgrade_to_fastmcp4(tmp_path: Path) -> None:
    (f,) = run(tmp_path, FASTMCP_SAMPLE, *INTERIM, pyproject=_project('"fastmcp[tasks]>=4.0.2,<5"'))
    assert f["manual"].startswith(
        "`ctx.sample` does not exist in fastmcp 4 (the project pins `fastmcp[tasks]>=4.0.2,<5`"
    )
    assert "upgrade" not in f["manual"].lower() and "fastmcp 2.x/3.x" not in f["manual"]
    assert "ctx.session.create_message(...)" in f["manual"]


FASTMCP4_RESOURCE = """\
from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context
from mcp_types import SamplingMessage, TextContent

app = FastMCP("misc")


@app.resource("story://{topic}")
async def story(topic: str) -> str:
    reply = await get_context().session.create_message(
        max_tokens=60, messages=[SamplingMessage(role="user", content=TextContent(type="text", text=topic))]
    )
    return reply.content.text
"""


def test_fastmcp_site_is_phrased_in_fastmcp_terms(tmp_path: Path) -> None:
    for deps in ('"fastmcp>=4.2"', '"fastmcp-slim[server]>=4.0.0b2", "mcp==2.0.0"'):
        (f,) = run(tmp_path, FASTMCP4_RESOURCE, "check", "--no-cache", pyproject=_project(deps))
        assert (f["rule"], f["line"]) == ("MCP201", 10)
        desc = f["fix"]["description"]
        assert "fastmcp 4's guard pattern" in desc and "`story` takes a `ctx: Context` parameter" in desc
        assert "cannot tell which SDK" not in desc and "Resolve" not in desc


LOWLEVEL_TWO_TOOLS = """\
from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

NICK: dict[str, Any] = {"type": "object", "properties": {"nick": {"type": "string"}}, "required": ["nick"]}
CITY: dict[str, Any] = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "nickname":
        reply = await ctx.session.elicit_form("Pick a nickname", NICK)
        if reply.action != "accept" or reply.content is None:
            return types.CallToolResult(content=[types.TextContent(text="no nickname")])
        return types.CallToolResult(content=[types.TextContent(text=f"hi {reply.content['nick']}")])
    if params.name == "hometown":
        reply = await ctx.session.elicit_form("Where are you from?", CITY)
        return types.CallToolResult(content=[types.TextContent(text=f"from {reply.content}")])
    raise ValueError(params.name)


server = Server("profile", on_call_tool=call_tool)
"""


def test_requests_on_different_paths_are_each_rewritten(tmp_path: Path) -> None:
    """Each `params.name` branch gets its own interim round (tests/test_lowlevel_factories.py has the
    exact code and the run on mcp 2.3); neither the shared nor a distinct answer name blocks it."""
    for source in (
        LOWLEVEL_TWO_TOOLS,
        LOWLEVEL_TWO_TOOLS.replace(
            'reply = await ctx.session.elicit_form("Where', 'where = await ctx.session.elicit_form("Where'
        ).replace("{reply.content}", "{where.content}"),
    ):
        found = run(tmp_path, source, *INTERIM)
        assert [f for f in found if f["rule"] == "MCP202"] == []  # both fixed, none left for a human


def test_answer_bound_twice_is_named(tmp_path: Path) -> None:
    # bound again only in the `except` handlers the unwrapping drops: fixed (tests/test_interim_resolvers.py)
    assert manual_of(run(tmp_path, REFUSES_FIRST, *INTERIM), "MCP202") == []
    bound_before = REFUSES_FIRST.replace(
        "Context) -> str:\n    try:\n", "Context) -> str:\n    answer = None\n    try:\n", 1
    )
    assert manual_of(run(tmp_path, bound_before, *INTERIM), "MCP202")[0] == (
        "the answer's name `answer` is bound more than once in `remove_layer`: give this answer a name that is "
        "bound only here, then run the fix again"
    )


FACTORY_TOOL = """\
from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer


class Confirm(BaseModel):
    ok: bool


def build() -> MCPServer:
    app = MCPServer("janitor")

    @app.tool()
    async def wipe(name: str, ctx: Context) -> str:
        answer = await ctx.elicit(f"Wipe {name}?", Confirm)
        if answer.action == "accept" and answer.data.ok:
            return f"wiped {name}"
        return "kept"

    return app
"""


def test_factory_tool_gets_a_resolver_in_its_scope(tmp_path: Path) -> None:
    # tests/test_interim_resolvers.py proves the rewrite (requests-09) and its edges
    assert run(tmp_path, FACTORY_TOOL, *INTERIM) == []
    (f,) = run(tmp_path, FACTORY_TOOL)
    assert (f["rule"], f["line"]) == ("MCP202", 15)
    assert f["fix"]["safety"] == "safe" and "injected into `build.wipe`" in f["fix"]["description"]


def test_fastmcp4_tool_error_refusal_is_not_fail_open(tmp_path: Path) -> None:
    source = """\
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from mcp_types import TextContent

app = FastMCP("disks")


@app.tool
async def erase(disk: str, ctx: Context) -> str:
    try:
        answer = await ctx.elicit(f"Erase {disk}?", response_type=bool)
    except ToolError:
        return "refused: this connection cannot ask"
    except Exception:
        answer = None
    if answer is not None and not answer.data:
        return "kept"
    return f"erased {disk}"
"""
    found = run(tmp_path, source, pyproject=_project('"fastmcp>=4.2"'))
    assert [f["rule"] for f in found] == ["MCP202"]


def test_a_plan_can_decide_its_sites_severity() -> None:
    """A site's own severity travels as the explicit ``severity`` field (Report, FixPlan), not as
    a key of ``data``; None means the rule's."""
    import libcst as cst

    from mcpmigrate.detectors.base import Report
    from mcpmigrate.model import FixPlan, Severity

    node = cst.Name("x")
    assert (
        Report.planned("MCP302", node, "m", FixPlan(manual="why", severity=Severity.ADVISORY)).severity
        is Severity.ADVISORY
    )
    plain = Report.planned("MCP302", node, "m", FixPlan(manual="why"))
    assert plain.severity is None

"""The receivers real servers use: sessions held in registries and attributes and broadcast to
later, sessions handed to started tasks, framework contexts, raw server requests on any
receiver, the SDK's elicitation helpers, and hand-rolled relays of change notifications.

The field cases under ``tests/data/receivers/`` (copied from the shared field cases) are checked
at every line and column their headers ask for; the inline sources cover the rest of each kind
(other names, nesting, spellings) and the look-alikes that must stay quiet.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import cli

DATA = Path(__file__).parent / "data" / "receivers"


def run(tmp_path: Path, source: str, name: str = "server.py") -> list[dict]:
    (tmp_path / name).write_text(source, encoding="utf-8")
    result = cli(["check", "--no-cache", "--output-format", "json", name], tmp_path)
    assert result.exception is None, str(result)
    return result.json["findings"]


def run_case(tmp_path: Path, case: str) -> list[dict]:
    shutil.copy(DATA / case, tmp_path / case)
    result = cli(["check", "--no-cache", "--output-format", "json", case], tmp_path)
    assert result.exception is None, str(result)
    return result.json["findings"]


def sites(findings: list[dict]) -> list[tuple[str, int, int]]:
    return sorted((f["rule"], f["line"], f["column"]) for f in findings)


def at(findings: list[dict], line: int) -> dict:
    (found,) = [f for f in findings if f["line"] == line]
    return found


# -- field cases ------------------------------------------------------------------------------


def test_notify_01_every_held_session_send_is_reported(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "notify_01.py")
    assert sites(findings) == [("MCP301", 37, 15), ("MCP301", 42, 15), ("MCP301", 46, 11), ("MCP301", 55, 19)]
    for f in findings:
        assert f["fix"] is None and f["manual"]
        assert "no session to hold" in f["message"]
        assert "MCPServer(..., subscriptions=bus)" in f["message"]
    assert "`await bus.publish(ToolsListChanged())`" in at(findings, 37)["message"]
    assert "`await bus.publish(ResourceUpdated(uri=item_uri))`" in at(findings, 42)["message"]
    assert "`await bus.publish(ResourcesListChanged())`" in at(findings, 46)["message"]
    assert "`await bus.publish(PromptsListChanged())`" in at(findings, 55)["message"]


def test_bugs_08_broadcast_to_captured_sessions_is_reported(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "bugs_08.py")
    assert sites(findings) == [("MCP301", 29, 11), ("MCP301", 36, 15), ("MCP301", 38, 19)]
    in_request = at(findings, 29)["message"]
    assert "no session to hold" not in in_request and "ctx.notify_resource_updated" in in_request
    assert "`await bus.publish(ToolsListChanged())`" in at(findings, 36)["message"]
    assert '`await bus.publish(ResourceUpdated(uri=f"catalog://{item}"))`' in at(findings, 38)["message"]


def test_requests_02_raw_requests_on_an_untyped_session(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "requests_02.py")
    assert sites(findings) == [("MCP201", 32, 21), ("MCP203", 35, 22)]
    assert all(f["fix"] is None and f["manual"] for f in findings)


def test_requests_03_framework_context(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "requests_03.py")
    assert sites(findings) == [("MCP201", 32, 19), ("MCP202", 38, 20)]
    assert "framework" in at(findings, 32)["manual"]


def test_requests_04_sdk_elicitation_helpers(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "requests_04.py")
    assert sites(findings) == [("MCP202", 30, 20), ("MCP202", 36, 18), ("MCP205", 36, 89)]
    assert "`elicit_with_validation`" in at(findings, 30)["message"]
    assert "ctx.elicit(message, Model)" in at(findings, 30)["manual"]


def test_notify_11_hand_rolled_relays(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "notify_11.py")
    assert sites(findings) == [("MCP301", 31, 8), ("MCP301", 39, 15), ("MCP302", 43, 8)]
    relay = at(findings, 31)["message"]
    assert "`notifications/tools/list_changed`" in relay and "`notifications/resources/updated`" in relay
    assert "f-string" in at(findings, 39)["message"]


def test_bugs_07_session_handed_to_a_started_task(tmp_path: Path) -> None:
    findings = run_case(tmp_path, "bugs_07.py")
    assert [s for s in sites(findings) if s[0] == "MCP203"] == [("MCP203", 29, 15), ("MCP203", 36, 19)]


# -- sessions held in containers and attributes -------------------------------------------------

REGISTRIES = """\
import asyncio
import weakref
from typing import Any

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.session import ServerSession

app = FastMCP("hub")
BY_ID: dict[str, ServerSession] = {}
ordered: list = []


class Hub:
    def __init__(self) -> None:
        self._sessions = {}
        self.watchers: "weakref.WeakSet[ServerSession]" = weakref.WeakSet()

    def join(self, sid: str, ctx: Context) -> None:
        self._sessions[sid] = ctx.session

    async def tools_changed(self) -> None:
        for _sid, s in self._sessions.items():
            await s.send_tool_list_changed()
        for s in self._sessions.copy().values():
            await s.send_prompt_list_changed()
        for s in list(self.watchers):
            await s.send_resource_list_changed()

    async def one(self, sid: str) -> None:
        target = self._sessions.get(sid)
        await target.send_tool_list_changed()


@app.tool()
async def register(ctx: Context) -> str:
    ordered.append(ctx.session)
    return "ok"


async def fan_out(uri: str) -> None:
    await asyncio.gather(*(s.send_resource_updated(uri) for s in ordered))
    for i, s in enumerate(ordered):
        await s.send_tool_list_changed()
    await BY_ID["a"].send_tool_list_changed()
"""


def test_registries_of_every_shape(tmp_path: Path) -> None:
    findings = run(tmp_path, REGISTRIES)
    assert sites(findings) == [
        ("MCP301", 23, 19),
        ("MCP301", 25, 19),
        ("MCP301", 27, 19),
        ("MCP301", 31, 15),
        ("MCP301", 41, 28),
        ("MCP301", 43, 15),
        ("MCP301", 44, 11),
    ]
    assert all("no session to hold" in f["message"] for f in findings)


LOOK_ALIKES = """\
from mcp.server.fastmcp import FastMCP
from myapp.notify import Notifier

app = FastMCP("x")


class Client:
    async def send_tool_list_changed(self) -> None: ...


clients: set[Client] = set()
others: "set[Notifier]" = set()


async def push(notifier: Notifier) -> None:
    for c in clients:
        await c.send_tool_list_changed()
    for o in others:
        await o.send_prompt_list_changed()
    await notifier.send_resource_list_changed()
"""


def test_look_alikes_are_not_sessions(tmp_path: Path) -> None:
    assert run(tmp_path, LOOK_ALIKES) == []


def test_no_mcp_no_session(tmp_path: Path) -> None:
    source = "async def push(session):\n    await session.send_tool_list_changed()\n"
    assert run(tmp_path, source) == []


# -- sessions handed to started tasks -----------------------------------------------------------

SPAWNS = """\
import asyncio
import functools

import anyio
from mcp.server.fastmcp import Context, FastMCP

app = FastMCP("spawns")


async def beat(session, every):
    await session.send_ping()


def blocking(session):
    session.send_ping()


class Worker:
    async def loop(self, session):
        await session.send_ping()

    async def run(self, ctx: Context):
        async with anyio.create_task_group() as tg:
            tg.start_soon(self.loop, ctx.session)


@app.tool()
async def work(ctx: Context) -> str:
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, blocking, ctx.session)
    later = functools.partial(beat, ctx.session, 5)
    async with anyio.create_task_group() as tg:
        tg.start_soon(beat, ctx.session, 1, name="beat")
    return "ok"


async def unrelated(queue):
    await queue.send_ping()


async def starts_unrelated() -> None:
    async with anyio.create_task_group() as tg:
        tg.start_soon(unrelated, object())
"""


def test_sessions_handed_to_started_tasks(tmp_path: Path) -> None:
    findings = run(tmp_path, SPAWNS)
    assert [s for s in sites(findings) if s[0] == "MCP203"] == [
        ("MCP203", 11, 11),
        ("MCP203", 15, 5),
        ("MCP203", 20, 15),
    ]


# -- frameworks ---------------------------------------------------------------------------------

MCP_AGENT = """\
from mcp.types import SamplingMessage, TextContent
from mcp_agent.app import MCPApp

app = MCPApp(name="booking")


@app.tool()
async def book(party: int) -> str:
    result = await app.context.upstream_session.elicit(message="Confirm?", requestedSchema={"type": "object"})
    haiku = await app.context.upstream_session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text="hi"))], max_tokens=10
    )
    return str(result) + str(haiku)
"""


def test_mcp_agent_upstream_session(tmp_path: Path) -> None:
    assert sites(run(tmp_path, MCP_AGENT)) == [("MCP201", 10, 19), ("MCP202", 9, 20)]


MCP_USE_SUBCLASS = """\
from mcp_use.server import Context as UseContext, MCPServer

server = MCPServer(name="shop")


class ShopContext(UseContext):
    pass


@server.tool()
async def tagline(product: str, ctx: ShopContext) -> str:
    reply = await ctx.sample(messages=product)
    return str(reply)


@server.tool()
async def sample_lookalike(product: str, ctx) -> str:
    return str(await ctx.sample(product))
"""


def test_mcp_use_context_subclass(tmp_path: Path) -> None:
    findings = run(tmp_path, MCP_USE_SUBCLASS)
    assert sites(findings) == [("MCP201", 12, 19)]
    assert at(findings, 12)["manual"].startswith(
        "`ctx` is a `ShopContext`, a subclass of `mcp_use.server.Context`, mcp_use's subclass of the SDK's "
        "`Context`, whose `sample` makes the request itself (`await self.session.create_message(...)` in "
        "mcp_use/server/context.py): no rewrite of this call changes what it sends. Migrate the wrapper first: "
        "`Context.sample` ("
    )


# -- raw server requests on any receiver --------------------------------------------------------

RAW = """\
from typing import Any

import mcp.types as types


async def relay(session: Any, inner: Any, params: dict) -> None:
    req = types.ServerRequest(types.ListRootsRequest(method="roots/list"))
    await session.send_request(request=req, result_type=types.ListRootsResult)
    ask = types.ServerRequest(types.ElicitRequest(method="elicitation/create", params=params))
    await session.send_request(ask, types.ElicitResult)
    await session.send_request(types.ServerRequest(inner), types.EmptyResult)
    await session.send_request(types.PingRequest(method="ping"), types.EmptyResult)
"""


def test_raw_requests_on_any_receiver(tmp_path: Path) -> None:
    assert sites(run(tmp_path, RAW)) == [
        ("MCP101", 8, 11),
        ("MCP202", 10, 11),
        ("MCP203", 12, 11),
        ("MCP204", 11, 11),
    ]


CLIENT_PING = """\
import mcp.types as types
from mcp import ClientSession


async def keepalive(session: ClientSession) -> None:
    await session.send_request(types.ClientRequest(types.PingRequest(method="ping")), types.EmptyResult)


async def untyped(conn) -> None:
    await conn.send_request(types.PingRequest(method="ping"), types.EmptyResult)
"""


def test_client_pings_are_not_server_requests(tmp_path: Path) -> None:
    assert run(tmp_path, CLIENT_PING) == []


# -- the SDK's elicitation helpers --------------------------------------------------------------

HELPERS = """\
from pydantic import BaseModel

from mcp.server import elicitation as el
from mcp.server.fastmcp import Context, FastMCP

try:
    from mcp.server.elicitation import elicit_url as open_url
except ImportError:
    open_url = None

app = FastMCP("x")


class Size(BaseModel):
    size: str


@app.tool()
async def order(ctx: Context) -> str:
    s = ctx.session
    picked = await el.elicit_with_validation(s, "Which size?", Size)
    done = await open_url(s, "Pay", "https://pay.example/x", elicitation_id="pay-1")
    return picked.action + done.action


@app.tool()
async def login(ctx: Context) -> str:
    done = await ctx.session.elicit_url("Sign in", "https://example.com/login", "login-1")
    return done.action
"""


def test_elicitation_helpers_every_spelling(tmp_path: Path) -> None:
    assert sites(run(tmp_path, HELPERS)) == [
        ("MCP202", 21, 20),
        ("MCP202", 22, 18),
        ("MCP202", 28, 18),
        ("MCP205", 22, 62),
    ]


# -- hand-rolled relays -------------------------------------------------------------------------

RELAYS = """\
import json

CHANGES = frozenset({"notifications/prompts/list_changed", "notifications/resources/updated"})


async def pump(ws, upstream) -> None:
    async for raw in upstream:
        msg = json.loads(raw)
        method = msg["method"]
        if method in CHANGES:
            await ws.send_json(msg)
        elif msg.get("method") == "notifications/tools/list_changed":
            await ws.send_text(json.dumps(msg))


async def announce(ws, kinds: list[str]) -> None:
    for kind in kinds:
        await ws.send_json({"jsonrpc": "2.0", "method": f"notifications/{kind}/list_changed"})
"""


def test_relays_and_f_string_methods(tmp_path: Path) -> None:
    findings = run(tmp_path, RELAYS)
    assert sites(findings) == [("MCP301", 10, 12), ("MCP301", 12, 14), ("MCP301", 18, 28)]


NOT_RELAYS = """\
import logging

log = logging.getLogger(__name__)


def on_message(msg: dict, tools) -> None:
    if msg.get("method") == "notifications/tools/list_changed":
        log.info("tools changed: %s", msg)
        tools.refresh()


def welcome(write) -> None:
    for kind in ["message"]:
        write({"jsonrpc": "2.0", "method": f"notifications/{kind}", "params": {}})


def route(body: dict, write) -> None:
    if body.get("method") != "resources/subscribe":
        write("not a subscribe")
    write(body)
"""


def test_consumers_and_non_guards_are_not_relays(tmp_path: Path) -> None:
    assert [f for f in run(tmp_path, NOT_RELAYS) if f["rule"] in ("MCP301", "MCP302")] == []


GUARDS = """\
def set_level_route(body: dict) -> dict:
    if body.get("method") != "logging/setLevel":
        raise ValueError("bad method")
    return {"jsonrpc": "2.0", "id": body["id"], "result": {}}


def unsubscribe_route(body: dict) -> dict:
    if not body or body["method"] != "resources/unsubscribe":
        return {"error": "bad"}
    return {"jsonrpc": "2.0", "id": body["id"], "result": {}}
"""


@pytest.mark.parametrize("rule, line, column", [("MCP402", 2, 8), ("MCP302", 8, 20)])
def test_not_equal_guards_are_dispatches(tmp_path: Path, rule: str, line: int, column: int) -> None:
    assert (rule, line, column) in sites(run(tmp_path, GUARDS))


SUBCLASSES = """\
import fastmcp
from mcp.server.fastmcp import Context as V1Context
from mcp.server.session import ServerSession

app = fastmcp.FastMCP("x")


class MyCtx(fastmcp.Context):
    pass


class AppCtx(V1Context):
    pass


class MySession(ServerSession):
    pass


@app.tool()
async def a(ctx: MyCtx) -> str:
    return str(await ctx.sample("hi"))


async def b(c: AppCtx) -> str:
    return str(await c.session.create_message(messages=[], max_tokens=5))


async def c(s: "MySession") -> None:
    await s.send_ping()
"""


def test_subclasses_of_sdk_contexts_and_sessions(tmp_path: Path) -> None:
    assert sites(run(tmp_path, SUBCLASSES)) == [("MCP201", 22, 22), ("MCP201", 26, 22), ("MCP203", 30, 11)]


HELD_ELSEWHERE = """\
import asyncio

from mcp.server.fastmcp import Context, FastMCP

app = FastMCP("held")
state = object()
inbox: asyncio.Queue = asyncio.Queue()
everyone = set()


@app.tool()
async def hello(ctx: Context) -> str:
    state.session = ctx.session
    await inbox.put(ctx.session)
    everyone.add(ctx.session)
    asyncio.create_task(later(ctx.session))
    return "hi"


async def later(session) -> None:
    await session.send_ping()


async def keepalive() -> None:
    await state.session.send_ping()
    s = await inbox.get()
    await s.create_message(messages=[], max_tokens=5)
    for peer in everyone:
        await peer.list_roots()
"""


def test_sessions_held_reach_every_rule(tmp_path: Path) -> None:
    assert sites(run(tmp_path, HELD_ELSEWHERE)) == [
        ("MCP101", 29, 15),
        ("MCP201", 27, 11),
        ("MCP203", 21, 11),
        ("MCP203", 25, 11),
    ]


@pytest.mark.parametrize(
    "start",
    [
        "tg.start_soon(beat, ctx.session)",
        "await tg.start(beat, ctx.session)",
        "await anyio.to_thread.run_sync(beat, ctx.session)",
        "await asyncio.to_thread(beat, ctx.session)",
        "pool.submit(beat, ctx.session)",
        "await asyncio.get_running_loop().run_in_executor(None, beat, ctx.session)",
        "functools.partial(beat, ctx.session)",
        "asyncio.create_task(beat(ctx.session))",
    ],
)
def test_every_task_starter(tmp_path: Path, start: str) -> None:
    source = (
        "import asyncio\nimport functools\n\nimport anyio\nfrom mcp.server.fastmcp import Context\n\n\n"
        "def beat(session):\n    session.send_ping()\n\n\n"
        f"async def tool(ctx: Context, tg, pool) -> None:\n    {start}\n"
    )
    assert sites(run(tmp_path, source)) == [("MCP203", 9, 5)]


SAME_NAME_ELSEWHERE = """\
from mcp.server.fastmcp import Context, FastMCP

app = FastMCP("x")


@app.tool()
async def remember(ctx: Context) -> str:
    sessions = []
    sessions.append(ctx.session)

    async def later() -> None:
        for s in sessions:
            await s.send_ping()

    await later()
    return "ok"


async def database_work(pool) -> None:
    sessions = pool.all()
    for s in sessions:
        await s.send_ping()
"""


def test_a_local_container_is_not_another_functions(tmp_path: Path) -> None:
    assert sites(run(tmp_path, SAME_NAME_ELSEWHERE)) == [("MCP203", 13, 19)]


ANNOTATED_LOCALS = """\
from mcp.server.session import ServerSession


async def broadcast(everyone: list[ServerSession]) -> None:
    seen: set[ServerSession] = set(everyone)
    for s in seen:
        await s.send_ping()
    for t in everyone:
        await t.send_ping()
"""


def test_annotated_local_and_parameter_containers(tmp_path: Path) -> None:
    assert sites(run(tmp_path, ANNOTATED_LOCALS)) == [("MCP203", 7, 15), ("MCP203", 9, 15)]


BROADCAST_IN_A_TOOL = """\
from mcp.server.mcpserver import Context, MCPServer

app = MCPServer("hub")
joined = set()


@app.tool()
async def join(ctx: Context) -> str:
    joined.add(ctx.session)
    for s in joined:
        await s.send_tool_list_changed()
    return "ok"
"""


def test_a_broadcast_loop_in_a_tool_gets_no_per_session_fix(tmp_path: Path) -> None:
    (finding,) = run(tmp_path, BROADCAST_IN_A_TOOL)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP301", 11, 15)
    assert finding["fix"] is None
    assert finding["manual"].startswith("the send is in a loop over held sessions")
    assert "`await ctx.notify_tools_changed()`" in finding["message"]


# -- the SDK names the messages and tables rely on ----------------------------------------------


def test_the_bus_a_broadcast_becomes_exists_in_mcp2() -> None:
    """The MCP301 broadcast message: `MCPServer(..., subscriptions=bus)` and `await
    bus.publish(ToolsListChanged())` / `ResourceUpdated(uri=...)` (mcp 2.3)."""
    import inspect

    import anyio
    from mcp.server.mcpserver import MCPServer
    from mcp.server.subscriptions import InMemorySubscriptionBus, ResourceUpdated, ToolsListChanged

    assert "subscriptions" in inspect.signature(MCPServer).parameters
    bus = InMemorySubscriptionBus()
    MCPServer("hub", subscriptions=bus)
    got: list = []
    bus.subscribe(got.append)
    anyio.run(bus.publish, ToolsListChanged())
    anyio.run(bus.publish, ResourceUpdated(uri="catalog://a"))
    assert got == [ToolsListChanged(), ResourceUpdated(uri="catalog://a")]


HELPER_SIGNATURES = """\
import inspect
from mcp.server import elicitation
print(list(inspect.signature(elicitation.elicit_with_validation).parameters)[:3])
print(list(inspect.signature(elicitation.elicit_url).parameters)[:4])
"""


def test_the_sdk_elicitation_helpers_in_both_generations(legacy_python: str) -> None:
    """``surfaces.SDK_ELICIT_HELPERS``: the same helpers, the id fourth, in mcp 1.27 and 2.3."""
    import subprocess
    import sys

    expected = "['session', 'message', 'schema']\n['session', 'message', 'url', 'elicitation_id']\n"
    for python in (sys.executable, legacy_python):
        out = subprocess.run([python, "-c", HELPER_SIGNATURES], capture_output=True, text=True, check=True)
        assert out.stdout == expected


MATCH_RELAY = """\
async def pump(client, msg: dict) -> None:
    match msg["method"]:
        case "notifications/tools/list_changed" | "notifications/prompts/list_changed":
            await client.send(msg)
        case "notifications/resources/updated":
            print(msg)
        case _:
            pass
"""


def test_a_match_relay(tmp_path: Path) -> None:
    (finding,) = run(tmp_path, MATCH_RELAY)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP301", 3, 14)
    assert "`notifications/prompts/list_changed`" in finding["message"]


UNRESOLVED_CONTEXT = """\
from mcp.server.lowlevel import Server
from myapp.types import Ctx

server = Server("x")


async def emit(ctx: Ctx, params) -> dict:
    await ctx.session.send_tool_list_changed()
    return {}
"""


def test_ctx_session_of_an_unresolved_context_is_in_a_request(tmp_path: Path) -> None:
    (finding,) = run(tmp_path, UNRESOLVED_CONTEXT)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP301", 8, 11)
    assert "no session to hold" not in finding["message"]

"""mcp 2.x low-level ``Server(on_…=…)`` servers as real code writes them: built in a function
(a factory) whose closures, or module functions named in its ``on_*=`` arguments, are the
handlers. MCP301's ``subscription`` fix puts the subscription bus where the sending handler sees
it and wires ``on_subscriptions_listen=ListenHandler(bus)`` into that ``Server(...)`` call; the
rewritten server is run on mcp 2.3 in both eras (tests/proof/observe.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.test_proof_catalog import observe

DATA = Path(__file__).resolve().parent / "data" / "lowlevel"
BUS = "keep the session send for legacy clients and publish `{event}` on the subscription bus served by `on_subscriptions_listen`"
# wrapped as ruff format wraps it (88 columns: the test projects configure no formatter)
IMPORT = "from mcp.server.subscriptions import (\n    InMemorySubscriptionBus,\n    ListenHandler,\n    {event},\n)\n"


def _run(tmp_path: Path, source: str, *args: str) -> tuple[dict, str]:
    target = tmp_path / "server.py"
    target.write_text(source, encoding="utf-8")
    res = cli([*args, "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    return res.json, target.read_text(encoding="utf-8")


def _301(out: dict) -> list[tuple]:
    return [
        (f["line"], f["column"], (f["fix"]["safety"], f["fix"]["description"]) if f["fix"] else None, f["manual"])
        for f in out["findings"]
        if f["rule"] == "MCP301"
    ]


def _proof(tmp_path: Path, before: str, after: str, build: str, tool: str) -> None:
    """The server ``build`` (a factory call) builds, before and after the fix: a legacy client hears
    ``notifications/resources/list_changed`` both times; a 2026-07-28 client that opened
    ``subscriptions/listen`` hears nothing before and ``ResourcesListChanged`` after."""
    import sys

    files = {}
    for label, source in (("before", before), ("after", after)):
        files[label] = tmp_path / f"{label}_run.py"
        files[label].write_text(source + f"\n\nserver = {build}\n", encoding="utf-8")
    calls = [{"tool": tool}]
    listen = {"resources_list_changed": True}
    for label in ("before", "after"):
        legacy, _ = observe(sys.executable, files[label], "server", "legacy", calls)
        assert legacy["protocol_version"] == "2025-11-25"
        assert [c["error"] for c in legacy["calls"]] == [None]
        assert "notifications/resources/list_changed" in legacy["notifications"]
    modern_before, _ = observe(sys.executable, files["before"], "server", "modern", calls, listen)
    modern_after, _ = observe(sys.executable, files["after"], "server", "modern", calls, listen)
    assert modern_after["protocol_version"] == "2026-07-28"
    assert modern_before["events"] == []
    assert modern_after["listen_error"] is None
    assert [(e["type"], e["uri"]) for e in modern_after["events"]] == [("ResourcesListChanged", None)]
    assert [c["text"] for c in modern_after["calls"]] == [c["text"] for c in modern_before["calls"]]


# --- notify-13: closures of the factory that returns Server(...) ----------------------------
NOTIFY_13_AFTER_TAIL = """\
        pages.append(f"page-{next(counter)}")
        await ctx.session.send_resource_list_changed()
        await bus.publish(ResourcesListChanged())
        return types.CallToolResult(content=[types.TextContent(type="text", text=pages[-1])])

    bus = InMemorySubscriptionBus()
    return Server(
        "wiki",
        on_list_resources=list_resources,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_subscriptions_listen=ListenHandler(bus),
    )
"""


def _notify13_expected(source: str) -> str:
    head, _sep, _tail = source.partition('        pages.append(f"page-{next(counter)}")\n')
    head = head.replace(
        "from mcp.server.lowlevel import Server\n",
        "from mcp.server.lowlevel import Server\n" + IMPORT.format(event="ResourcesListChanged"),
    )
    return head + NOTIFY_13_AFTER_TAIL


def test_notify13_the_bus_is_a_local_of_the_factory_and_both_eras_hear_the_change(tmp_path: Path) -> None:
    source = (DATA / "notify_13.py").read_text(encoding="utf-8")
    out, _ = _run(tmp_path, source, "check")
    desc = BUS.format(event="ResourcesListChanged") + " (a local of `build_server`, seen by its handlers)"
    assert _301(out) == [(40, 15, ("safe", desc), None)]
    out, fixed = _run(tmp_path, source, "fix")
    assert fixed == _notify13_expected(source)
    assert _301(out) == []  # the dual send is the migrated form
    _proof(tmp_path, source, fixed, "build_server()", "new_page")


def test_notify13_ctx_any_is_mcp2_because_the_server_takes_on_keywords(tmp_path: Path) -> None:
    """``ctx: Any`` says nothing about the SDK; ``Server(..., on_call_tool=…)`` does (mcp 2.x only)."""
    source = (DATA / "notify_13.py").read_text(encoding="utf-8").replace("ctx: ServerRequestContext[Any]", "ctx: Any")
    out, _ = _run(tmp_path, source, "check")
    desc = BUS.format(event="ResourcesListChanged") + " (a local of `build_server`, seen by its handlers)"
    assert _301(out) == [(40, 15, ("safe", desc), None)]
    assert "has no subscriptions/listen" not in out["findings"][0]["message"]
    _out, fixed = _run(tmp_path, source, "fix")
    assert fixed == _notify13_expected(source)


# --- the rest of the kind -------------------------------------------------------------------
HEAD = """\
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server
"""
HEAD_FIXED = HEAD + IMPORT.format(event="ResourcesListChanged")

TOOLS = """\
async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="touch", input_schema={"type": "object"})])


async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=[])
"""

MODULE_HANDLER = """\
async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
    await ctx.session.send_resource_list_changed(){publish}
    return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])
"""

WITH_HANDLER = HEAD + "\n\n" + MODULE_HANDLER.format(publish="")


def test_a_module_function_handler_gets_a_module_bus_shared_by_the_factorys_servers(tmp_path: Path) -> None:
    factory = """

# the factory
def make_server(name: str) -> Server:
    server = Server(name, on_list_tools=list_tools, on_list_resources=list_resources, on_call_tool=call_tool)
    return server
"""
    source = HEAD + "\n\n" + TOOLS + "\n\n" + MODULE_HANDLER.format(publish="") + factory
    out, _ = _run(tmp_path, source, "check")
    desc = (
        BUS.format(event="ResourcesListChanged") + " (a module-level bus, shared by every server `make_server` builds)"
    )
    assert _301(out) == [(16, 11, ("safe", desc), None)]
    _out, fixed = _run(tmp_path, source, "fix")
    expected = (
        HEAD_FIXED
        + "\n\n"
        + TOOLS
        + "\n\n"
        + MODULE_HANDLER.format(publish="\n    await bus.publish(ResourcesListChanged())")
        + factory.replace("\n\n# the factory\n", "\n\nbus = InMemorySubscriptionBus()\n\n\n# the factory\n").replace(
            "Server(name, on_list_tools=list_tools, on_list_resources=list_resources, on_call_tool=call_tool)",
            "Server(\n        name,\n        on_list_tools=list_tools,\n        on_list_resources=list_resources,\n"
            "        on_call_tool=call_tool,\n        on_subscriptions_listen=ListenHandler(bus),\n    )",
        )
    )
    assert fixed == expected
    _proof(tmp_path, source, fixed, "make_server('m')", "touch")


def test_a_factory_that_assigns_then_returns_gets_the_bus_before_the_assignment(tmp_path: Path) -> None:
    source = (
        HEAD
        + '''

def build() -> Server:
    """Wiki server."""

    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        await ctx.session.send_resource_list_changed()
        return types.CallToolResult(content=[])

    # the server
    server = Server(
        "wiki",
        on_call_tool=call_tool,
    )
    return server
'''
    )
    out, _ = _run(tmp_path, source, "check")
    desc = BUS.format(event="ResourcesListChanged") + " (a local of `build`, seen by its handlers)"
    assert _301(out) == [(11, 15, ("safe", desc), None)]
    _out, fixed = _run(tmp_path, source, "fix")
    assert fixed == (
        "from typing import Any\n"
        "\n"
        "import mcp.types as types\n"
        "from mcp.server.lowlevel import Server\n"
        "from mcp.server.subscriptions import (\n"
        "    InMemorySubscriptionBus,\n"
        "    ListenHandler,\n"
        "    ResourcesListChanged,\n"
        ")\n"
        "\n"
        "\n"
        "def build() -> Server:\n"
        '    """Wiki server."""\n'
        "\n"
        "    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:\n"
        "        await ctx.session.send_resource_list_changed()\n"
        "        await bus.publish(ResourcesListChanged())\n"
        "        return types.CallToolResult(content=[])\n"
        "\n"
        "    # the server\n"
        "    bus = InMemorySubscriptionBus()\n"
        "    server = Server(\n"
        '        "wiki",\n'
        "        on_call_tool=call_tool,\n"
        "        on_subscriptions_listen=ListenHandler(bus),\n"
        "    )\n"
        "    return server\n"
    )


def test_two_factories_with_their_own_closures_get_a_bus_each(tmp_path: Path) -> None:
    one = """
def build_{n}() -> Server:
    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        await ctx.session.send_resource_list_changed(){publish}
        return types.CallToolResult(content=[])
{bus}
    return Server({listen})
"""
    fixed_parts = dict(
        publish="\n        await bus.publish(ResourcesListChanged())",
        bus="\n    bus = InMemorySubscriptionBus()",
        listen='\n        "{n}", on_call_tool=call_tool, on_subscriptions_listen=ListenHandler(bus)\n    ',
    )
    source = HEAD + "".join(
        "\n" + one.format(n=n, publish="", bus="", listen=f'"{n}", on_call_tool=call_tool') for n in ("a", "b")
    )
    out, _ = _run(tmp_path, source, "check")
    assert [r[:2] for r in _301(out)] == [(9, 15), (17, 15)]
    assert all(r[2] is not None for r in _301(out))
    _out, fixed = _run(tmp_path, source, "fix")
    assert fixed == HEAD_FIXED + "".join(
        "\n" + one.format(n=n, **{**fixed_parts, "listen": fixed_parts["listen"].format(n=n)}) for n in ("a", "b")
    )


def test_a_closure_and_a_module_handler_of_one_server_share_a_module_bus(tmp_path: Path) -> None:
    """Both must publish on the bus the one listen handler serves: the module function cannot see a
    local of the factory, so the bus goes to module level for both."""
    source = (
        WITH_HANDLER
        + """

def build() -> Server:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        await ctx.session.send_tool_list_changed()
        return types.ListToolsResult(tools=[])

    return Server("x", on_list_tools=list_tools, on_call_tool=call_tool)
"""
    )
    out, _ = _run(tmp_path, source, "check")
    shared = " (a module-level bus, shared by every server `build` builds)"
    assert _301(out) == [
        (8, 11, ("safe", BUS.format(event="ResourcesListChanged") + shared), None),
        (14, 15, ("safe", BUS.format(event="ToolsListChanged") + shared), None),
    ]
    _out, fixed = _run(tmp_path, source, "fix")
    assert fixed.count("bus = InMemorySubscriptionBus()") == 1
    assert "\n\nbus = InMemorySubscriptionBus()\n\n\ndef build() -> Server:\n" in fixed
    assert fixed.count("await bus.publish(") == 2
    assert (
        "    return Server(\n"
        '        "x",\n'
        "        on_list_tools=list_tools,\n"
        "        on_call_tool=call_tool,\n"
        "        on_subscriptions_listen=ListenHandler(bus),\n"
        "    )\n"
    ) in fixed


TWO_FACTORIES = (
    WITH_HANDLER
    + """

def stdio_server() -> Server:
    return Server("x", on_call_tool=call_tool)


def http_server() -> Server:
    return Server("x", on_call_tool=call_tool)
"""
)
TWO_SERVERS = (
    HEAD
    + """

def build() -> tuple[Server, Server]:
    async def call_tool(ctx: Any, params: Any) -> types.CallToolResult:
        await ctx.session.send_resource_list_changed()
        return types.CallToolResult(content=[])

    return Server("a", on_call_tool=call_tool), Server("b", on_call_tool=call_tool)
"""
)
MANUAL = [
    # (source, line, column, the reason)
    (
        TWO_FACTORIES,
        8,
        11,
        "`call_tool` is the handler of 2 low-level Servers (`stdio_server`, `http_server`): whether they share "
        "one subscription bus or each publishes to its own listeners is a choice to make by hand "
        "(`on_subscriptions_listen=ListenHandler(bus)` in each)",
    ),
    (
        TWO_SERVERS,
        9,
        15,
        "`build` constructs 2 low-level Servers, and `call_tool` cannot tell which one it serves: give each its "
        "own `on_subscriptions_listen=ListenHandler(bus)` by hand",
    ),
]


@pytest.mark.parametrize("case", MANUAL, ids=["one handler, two factories", "one factory, two servers"])
def test_no_single_server_is_manual_with_the_reason(tmp_path: Path, case: tuple) -> None:
    source, line, column, reason = case
    out, fixed = _run(tmp_path, source, "fix")
    assert fixed == source
    assert _301(out) == [(line, column, None, reason)]


@pytest.mark.parametrize("shadow", ["call_tool = wrap(call_tool)\n    ", "def call_tool(): ...\n    "])
def test_a_name_the_factory_binds_itself_is_not_the_module_handler(tmp_path: Path, shadow: str) -> None:
    """``on_call_tool=call_tool`` inside a factory that binds ``call_tool`` itself is not the module
    function of that name: no server is known to serve the module function."""
    source = (
        WITH_HANDLER
        + f"""

def build() -> Server:
    {shadow}return Server("x", on_call_tool=call_tool)
"""
    )
    out, _ = _run(tmp_path, source, "check")
    [(line, _col, fix, manual)] = _301(out)
    assert (line, fix) == (8, None)
    assert manual.startswith("no single low-level `Server(...)` call serves this handler")


# --- requests-08: one request per `params.name` branch ------------------------------------------
def _requests08_branch(question: str, schema: str, key: str) -> str:
    return f'''\
        if is_version_at_least(ctx.protocol_version, "2026-07-28"):
            reply = (params.input_responses or {{}}).get("{key}")
            if not isinstance(reply, ElicitResult):
                declared = ctx.session.client_capabilities or ClientCapabilities()
                if declared.elicitation is None or (
                    declared.elicitation.form is None
                    and declared.elicitation.url is not None
                ):
                    raise MCPError(
                        MISSING_REQUIRED_CLIENT_CAPABILITY,
                        "Client did not declare the form elicitation capability required by input request '{key}'",
                        {{"requiredCapabilities": {{"elicitation": {{"form": {{}}}}}}}},
                    )
                return InputRequiredResult(
                    input_requests={{
                        "{key}": ElicitRequest(
                            params=ElicitRequestFormParams(
                                message="{question}", requested_schema={schema}
                            )
                        )
                    }}
                )
        else:
            reply = await ctx.session.elicit_form("{question}", {schema})
'''


def _requests08_expected(source: str) -> str:
    out = source.replace(
        "from mcp.server.lowlevel import Server\n",
        "from mcp.server.lowlevel import Server\n"
        "from mcp.shared.exceptions import MCPError\n"
        "from mcp.types import (\n"
        "    MISSING_REQUIRED_CLIENT_CAPABILITY,\n"
        "    ClientCapabilities,\n"
        "    ElicitRequest,\n"
        "    ElicitRequestFormParams,\n"
        "    ElicitResult,\n"
        "    InputRequiredResult,\n"
        ")\n"
        "from mcp.types.version import is_version_at_least\n",
    )
    out = out.replace(
        "async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:",
        "async def call_tool(\n    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams\n"
        ") -> types.CallToolResult | InputRequiredResult:",
    )
    out = out.replace(
        '        reply = await ctx.session.elicit_form("Pick a nickname", NICK)\n',
        _requests08_branch("Pick a nickname", "NICK", "reply"),
    )
    return out.replace(
        '        reply = await ctx.session.elicit_form("Where are you from?", CITY)\n',
        _requests08_branch("Where are you from?", "CITY", "reply_2"),
    )


def _interim_desc(key: str) -> str:
    return (
        "on 2026-07-28 `call_tool` returns `InputRequiredResult` with a `ElicitRequest` under key "
        f"'{key}' and reads the answer from `params.input_responses` on the retry (a client that did not declare "
        "form elicitation gets error -32021 instead, as from the SDK's resolvers; no requestState is written); "
        "legacy keeps the request"
    )


INTERIM = ("fix", "--strategy", "interim", "--unsafe-fixes")


def _as_match(source: str) -> str:
    """The same dispatch as `match params.name:` (each case one level deeper)."""
    head, sep, rest = source.partition('    if params.name == "nickname":\n')
    body, sep2, tail = rest.partition("    raise ValueError(params.name)\n")
    body = body.replace('    if params.name == "hometown":\n', 'case "hometown":\n')
    lines = ["    match params.name:\n", '        case "nickname":\n']
    lines += [("    " + ln if ln.strip() else ln) for ln in body.splitlines(keepends=True)]
    lines = [ln.replace('    case "hometown":', '        case "hometown":') for ln in lines]
    return head + "".join(lines) + sep2 + tail


@pytest.mark.parametrize("spelling", ["if", "elif", "match"])
def test_requests08_each_dispatch_branch_gets_its_own_interim_round(tmp_path: Path, spelling: str) -> None:
    source = (DATA / "requests_08.py").read_text(encoding="utf-8")
    expected = _requests08_expected(source)
    if spelling == "elif":  # the same dispatch as an `if`/`elif` chain
        source = source.replace('    if params.name == "hometown":', '    elif params.name == "hometown":')
        expected = expected.replace('    if params.name == "hometown":', '    elif params.name == "hometown":')
    if spelling == "match":
        source, expected = _as_match(source), _as_match(expected)
    compile(source, "requests_08", "exec")
    out, fixed = _run(tmp_path, source, *INTERIM)
    assert fixed == expected
    assert [f for f in out["findings"] if f["rule"] == "MCP202"] == []


def test_requests08_check_labels_name_each_branchs_key(tmp_path: Path) -> None:
    source = (DATA / "requests_08.py").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    out, _ = _run(tmp_path, source, "check")
    got = [
        (
            f["line"],
            f["column"],
            f["fix"]["safety"] if f["fix"] else None,
            f["fix"] and f["fix"]["description"],
            f["manual"],
        )
        for f in out["findings"]
        if f["rule"] == "MCP202"
    ]
    assert got == [
        (31, 23, "safe", _interim_desc("reply"), None),
        (36, 23, "safe", _interim_desc("reply_2"), None),
    ]


def test_requests08_the_rewritten_server_answers_as_before_on_both_eras(tmp_path: Path) -> None:
    import sys

    from tests.proof import run_proof

    source = (DATA / "requests_08.py").read_text(encoding="utf-8")
    _out, fixed = _run(tmp_path, source, *INTERIM)
    before, after = tmp_path / "before_run.py", tmp_path / "after_run.py"
    # the harness lists the tools first: the field case's server gets an `on_list_tools`
    listing = """

async def _list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name=n, input_schema={"type": "object"}) for n in ("nickname", "hometown")])


server = Server("profile", on_call_tool=call_tool, on_list_tools=_list_tools)
"""
    before.write_text(source + listing, encoding="utf-8")
    after.write_text(fixed + listing, encoding="utf-8")
    calls = [{"tool": "nickname"}, {"tool": "hometown"}]
    client = {"elicitation": {"action": "accept", "content": {"nick": "zed", "city": "Oslo"}}}
    declines = {"elicitation": {"action": "decline"}}

    def texts(file: Path, mode: str, answers: dict) -> list:
        answer = run_proof(sys.executable, file, "server", mode, [], calls, client=answers)
        return [c["error"] and "<error>" or "\n".join(c["text"]) for c in answer["calls"]]

    assert texts(before, "legacy", client) == ["hi zed", "from Oslo"]
    assert texts(before, "modern", client) == ["<error>", "<error>"]  # no server-originated requests
    for mode in ("legacy", "modern"):
        assert texts(after, mode, client) == ["hi zed", "from Oslo"]
        assert texts(after, mode, declines) == ["no nickname", "no city"]


def test_requests08_a_name_bound_twice_on_one_path_is_the_reason(tmp_path: Path) -> None:
    source = (
        (DATA / "requests_08.py")
        .read_text(encoding="utf-8")
        .replace(
            '    if params.name == "nickname":\n',
            '    if params.name == "nickname":\n        reply = None\n',
        )
    )
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    out, _ = _run(tmp_path, source, "check")
    got = [(f["line"], f["fix"] is None, f["manual"]) for f in out["findings"] if f["rule"] == "MCP202"]
    assert got[0] == (
        32,
        True,
        "the answer's name `reply` is bound more than once in `call_tool`: give this answer a name that is bound "
        "only here, then run the fix again",
    )
    assert got[1][:2] == (37, False)  # the other branch is rewritten on its own


MIXED = """\
from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

ASK: dict[str, Any] = {"type": "object"}


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "hometown":
        city = await ctx.session.elicit_form("Where are you from?", ASK)
        return types.CallToolResult(content=[types.TextContent(text=f"from {city.content}")])
    if params.name == "profile":
        nick = await ctx.session.elicit_form("Pick a nickname", ASK)
        city = await ctx.session.elicit_form("Where are you from?", ASK)
        return types.CallToolResult(content=[types.TextContent(text=f"{nick.content} {city.content}")])
    raise ValueError(params.name)


server = Server("profile", on_call_tool=call_tool)
"""


def test_a_branch_asking_twice_gets_one_round_and_keys_stay_unique_across_branches(tmp_path: Path) -> None:
    """The two requests of `profile` travel in one interim result; `hometown` gets its own; the
    second `city` answer is asked under `city_2`, so no path reads another path's answer."""
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    out, _ = _run(tmp_path, MIXED, "check")
    descs = [(f["line"], f["fix"]["description"]) for f in out["findings"] if f["rule"] == "MCP202"]
    assert descs[0] == (12, _interim_desc("city"))
    assert descs[1][0] == 15 and "(`ElicitRequest` under 'nick', `ElicitRequest` under 'city_2')" in descs[1][1]
    assert descs[2] == (16, descs[1][1])
    _out, fixed = _run(tmp_path, MIXED, *INTERIM)
    assert fixed.count('.get("city")') == 1 and fixed.count('.get("city_2")') == 1
    assert '"nick": ElicitRequest(' in fixed and '"city_2": ElicitRequest(' in fixed
    assert 'input_requests={\n                        "city": ElicitRequest(' in fixed

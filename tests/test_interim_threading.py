"""Answer threading (issue 22, item 2): a request made in a helper — a function, a method, reached
through other helpers — is asked by each handler that reaches it (fastmcp 4 and mcp 2.x low-level:
the guard pattern with ``InputRequiredResult``), and the helper receives the answer as a parameter.

The field cases are copied unchanged from the shared field cases (requests-21: ``tests/data/hidden/``);
each fixed server is run in memory against the real SDK (mcp 2.3 ``Client``, fastmcp 4.2) in both
eras: on 2026-07-28 the first call returns the input request and the retry with ``inputResponses``
gets the tool's answer; on a legacy connection the fixed server answers as the original did.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import anyio

from tests.helpers import cli
from tests.proof import run_proof
from tests.test_interim_trust import _leaf, _load

DATA = Path(__file__).resolve().parent / "data" / "hidden"  # requests-21 (issue 25 copied it)
#: what fix writes for the servers below, whole (laid out as ruff format does, codemods/layout.py)
FIXED = Path(__file__).resolve().parent / "data" / "threading"
MODERN = "2026-07-28"


def _project(tmp_path: Path, source: str, deps: list[str], name: str = "server.py") -> Path:
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    target = root / name
    target.write_text(source, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "x"\nversion = "0"\ndependencies = {json.dumps(deps)}\n', encoding="utf-8"
    )
    return target


def _check(directory: Path) -> list[dict[str, Any]]:
    res = cli(["check", "--no-cache", "--output-format", "json", "."], directory)
    assert res.exception is None and res.json["errors"] == [], str(res)
    return list(res.json["findings"])


def _fix(directory: Path) -> list[dict[str, Any]]:
    """``fix --strategy interim --unsafe-fixes``, twice: the second run changes nothing."""
    args = ["fix", "--no-cache", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", "."]
    res = cli(args, directory)
    assert res.exception is None and res.json["errors"] == [], str(res)
    files = {p: p.read_bytes() for p in directory.rglob("*.py")}
    again = cli(args, directory)
    assert again.exception is None
    assert {p: p.read_bytes() for p in directory.rglob("*.py")} == files, "a second fix changed a file"
    return list(res.json.get("fixed", []))


def _server(path: Path, attr: str) -> Any:
    server = getattr(_load(path), attr)
    return getattr(server, "_mcp_server", server)  # fastmcp 4: its SDK `Server`


def _texts(result: Any) -> Any:
    if getattr(result, "is_error", False):
        return ("error", [c.text for c in result.content])
    return [c.text for c in result.content]


def _client_call(server: Any, mode: str, tool: str, arguments: dict[str, Any], reply: dict[str, Any] | None) -> Any:
    """One call through the mcp 2.3 ``Client`` whose elicitation callback answers with ``reply``
    (``{"action": …, "content": …}``): the texts, ``("error", texts)`` for a tool error, or
    ``("raised", message)``."""
    import mcp
    from mcp import types

    async def elicit(context: Any, params: Any) -> Any:
        assert reply is not None
        return types.ElicitResult(**reply)

    async def run() -> Any:
        callbacks = {"elicitation_callback": elicit} if reply is not None else {}
        try:
            async with mcp.Client(server, mode=mode, **callbacks) as client:  # type: ignore[arg-type]
                return _texts(await client.call_tool(tool, arguments))
        except BaseException as exc:  # the client raises out of its task group
            return ("raised", str(_leaf(exc)))

    return anyio.run(run)


def _interim_round(
    server: Any, tool: str, arguments: dict[str, Any], reply: dict[str, Any]
) -> tuple[dict[str, Any], Any]:
    """On 2026-07-28, by hand: the first call returns the ``InputRequiredResult`` (its
    ``inputRequests`` as JSON), the retry with ``inputResponses`` at the same keys gets the result."""
    import mcp
    from mcp import types

    async def elicit(context: Any, params: Any) -> Any:  # declares the capability; never called here
        raise AssertionError("the round is driven by hand")

    async def run() -> tuple[dict[str, Any], Any]:
        async with mcp.Client(server, mode=MODERN, elicitation_callback=elicit) as client:  # type: ignore[arg-type]
            first = await client.session.call_tool(tool, arguments, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult), first
            asked = {
                k: v.model_dump(mode="json", by_alias=True, exclude_none=True) for k, v in first.input_requests.items()
            }
            answers = {k: types.ElicitResult(**reply) for k in first.input_requests}
            retry = await client.session.call_tool(
                tool, arguments, input_responses=answers, request_state=first.request_state, allow_input_required=True
            )
            assert not isinstance(retry, types.InputRequiredResult), retry
            return asked, _texts(retry)

    return anyio.run(run)


# ---------------------------------------------------------------------------------------------
# requests-21: a consent helper (`ctx: Any`) called by the capture tools, on fastmcp 4

#: What the port's MCP516 asks for on fastmcp 4 (`response_type=None` is rejected there), and a
#: second capture tool: the real server's helper guards four of them.
R21_FASTMCP4 = {"response_type=None": "response_type=bool"}
R21_SECOND_TOOL = """

@cam.tool()
async def snap_window(window: str, ctx: Context) -> str:
    if refused := await _ask_capture(ctx, f"Window {window}"):
        return refused
    return f"{window}: captured"
"""


R21_LABEL = (
    "the request leaves the helper `_ask_capture`: on 2026-07-28 `snap_screen`, `snap_window` return "
    "`InputRequiredResult` with a `ElicitRequest` under key 'answer' and read the answer from `ctx.input_responses` "
    "on the retry (no requestState is written), on legacy connections they make the request themselves; "
    "`_ask_capture` take the answer as the parameter `answer` (a client that did not declare form elicitation gets "
    "error -32021 instead, as from the SDK's resolvers) (fastmcp 4's guard pattern: needs fastmcp>=4; "
)

ACCEPT = {"action": "accept", "content": {"value": True}}
DECLINE = {"action": "decline"}


def test_requests_21_original_declines_on_fastmcp3(tmp_path: Path, fastmcp3_python: str) -> None:
    """The field case as written (fastmcp 3, `response_type=None`) on its own SDK, legacy: a decline
    gives "not captured (decline)", the header's observation the fastmcp 4 form below keeps."""
    before = tmp_path / "before.py"
    before.write_bytes((DATA / "requests_21.py").read_bytes())
    calls = [{"tool": "snap_screen", "arguments": {}}]
    out = run_proof(fastmcp3_python, before, "cam", "legacy", [], calls, client={"elicitation": {"action": "decline"}})
    assert [c["text"] for c in out["calls"]] == [["Full screen: not captured (decline)"]]


def test_requests_21_helper_is_asked_by_each_tool(tmp_path: Path) -> None:
    source = (DATA / "requests_21.py").read_text(encoding="utf-8")
    for old, new in R21_FASTMCP4.items():
        source = source.replace(old, new)
    target = _project(tmp_path, source + R21_SECOND_TOOL, ["fastmcp>=4.2,<5"])
    before = tmp_path / "before.py"
    before.write_bytes(target.read_bytes())
    [finding] = _check(target.parent)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP202", 32, 20)
    assert finding["fix"]["safety"] == "safe"
    assert finding["fix"]["description"].startswith(R21_LABEL), finding["fix"]["description"]
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (FIXED / "requests_21_two_tools.fixed.py").read_text(encoding="utf-8")
    assert _check(target.parent) == []

    # Legacy: the fixed server answers as the original did, for both tools and both answers.
    for tool, args in (("snap_screen", {}), ("snap_window", {"window": "Mail"})):
        for reply in (ACCEPT, DECLINE):
            got = _client_call(_server(target, "cam"), "legacy", tool, args, reply)
            assert got == _client_call(_server(before, "cam"), "legacy", tool, args, reply)
    assert _client_call(_server(before, "cam"), "legacy", "snap_screen", {}, DECLINE) == [
        "Full screen: not captured (decline)"
    ]
    # 2026-07-28: the original cannot ask (fastmcp 4 refuses the push); the fixed tools ask in an
    # interim round, each with its own arguments, and the retry gets the answer.
    assert _client_call(_server(before, "cam"), MODERN, "snap_screen", {}, ACCEPT)[0] in ("error", "raised")
    asked, result = _interim_round(_server(target, "cam"), "snap_screen", {}, ACCEPT)
    assert asked == {
        "answer": {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Full screen may capture private windows. Go ahead?",
                "requestedSchema": asked["answer"]["params"]["requestedSchema"],
            },
        }
    }
    assert result == ["Full screen: captured"]
    asked, result = _interim_round(_server(target, "cam"), "snap_window", {"window": "Mail"}, DECLINE)
    assert asked["answer"]["params"]["message"] == "Window Mail may capture private windows. Go ahead?"
    assert result == ["Window Mail: not captured (decline)"]
    # The SDK client drives the round itself with its callback.
    assert _client_call(_server(target, "cam"), MODERN, "snap_window", {"window": "Mail"}, ACCEPT) == ["Mail: captured"]


def test_requests_21_as_written_asks_for_the_empty_form(tmp_path: Path, fastmcp3_python: str) -> None:
    """fastmcp 4 rejects `response_type=None`, but the round asks for fastmcp 2/3's empty form itself
    and the legacy branch makes that request through `ctx.session.elicit`: the field case as written
    works on fastmcp 4 again, and answers as it did on fastmcp 3."""
    target = _project(tmp_path, (DATA / "requests_21.py").read_text(encoding="utf-8"), ["fastmcp>=4.2,<5"])
    [finding] = _check(target.parent)
    assert finding["fix"]["description"].startswith(R21_LABEL.replace("`snap_screen`, `snap_window`", "`snap_screen`"))
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (FIXED / "requests_21_empty_form.fixed.py").read_text(encoding="utf-8")
    calls = [{"tool": "snap_screen", "arguments": {}}]
    for reply in ({"action": "accept", "content": {}}, DECLINE):
        before = run_proof(
            fastmcp3_python, DATA / "requests_21.py", "cam", "legacy", [], calls, client={"elicitation": reply}
        )
        assert _client_call(_server(target, "cam"), "legacy", "snap_screen", {}, reply) == before["calls"][0]["text"]
    asked, result = _interim_round(_server(target, "cam"), "snap_screen", {}, DECLINE)
    assert asked["answer"]["params"]["requestedSchema"] == {"type": "object", "properties": {}}
    assert result == ["Full screen: not captured (decline)"]
    accepted = _interim_round(_server(target, "cam"), "snap_screen", {}, {"action": "accept", "content": {}})[1]
    assert accepted == ["Full screen: captured"]


# ---------------------------------------------------------------------------------------------
# A method on a class, reached through another method (mcp 2.x low-level): the shape of
# class-based servers whose handlers delegate to a service object (Mizuro0/AutoLinkingBrain's
# McpContext methods, roots-04's "Seen in"; the python-sdk's stickynotes low-level story asks
# in the handler itself)

VAULTS = """\
from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

SCHEMA: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}


class Vaults:
    def __init__(self) -> None:
        self.items: dict[str, list[str]] = {"a": ["x"], "b": ["y"]}

    async def _confirm(self, ctx: ServerRequestContext[Any], name: str) -> bool:
        reply = await ctx.session.elicit_form(f"Empty the vault {name}?", SCHEMA)
        return reply.action == "accept" and bool((reply.content or {}).get("ok"))

    async def empty(self, ctx: ServerRequestContext[Any], name: str) -> str:
        if not await self._confirm(ctx, name):
            return "kept"
        self.items[name].clear()
        return "emptied"


VAULTS = Vaults()


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    name = (params.arguments or {}).get("name", "a")
    text = await VAULTS.empty(ctx, name)
    return types.CallToolResult(content=[types.TextContent(text=text)])


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="empty_vault", input_schema={"type": "object"})])


server = Server("vault", on_call_tool=call_tool, on_list_tools=list_tools)
"""


def test_a_method_reached_through_another_method_gets_the_handlers_answer(tmp_path: Path) -> None:
    target = _project(tmp_path, VAULTS, ["mcp>=2.3,<3"])
    before = tmp_path / "before.py"
    before.write_bytes(target.read_bytes())
    [finding] = _check(target.parent)
    assert (finding["rule"], finding["line"]) == ("MCP202", 15)
    assert finding["fix"]["safety"] == "safe"
    assert "`Vaults._confirm`, `Vaults.empty` take the answer as the parameter `reply`" in finding["fix"]["description"]
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (FIXED / "vault_methods.fixed.py").read_text(encoding="utf-8")
    ok = {"action": "accept", "content": {"ok": True}}
    no = {"action": "decline"}
    for reply in (ok, no):
        got = _client_call(_server(target, "server"), "legacy", "empty_vault", {"name": "b"}, reply)
        assert got == _client_call(_server(before, "server"), "legacy", "empty_vault", {"name": "b"}, reply)
    assert _client_call(_server(before, "server"), MODERN, "empty_vault", {}, ok)[0] == "raised"
    asked, result = _interim_round(_server(target, "server"), "empty_vault", {"name": "b"}, ok)
    assert asked["reply"]["params"]["message"] == "Empty the vault b?"
    assert result == ["emptied"]
    assert _interim_round(_server(target, "server"), "empty_vault", {"name": "a"}, no)[1] == ["kept"]


# ---------------------------------------------------------------------------------------------
# A nested helper asking through the tool's own context, and a helper whose request is a fallback

NESTED = """\
from fastmcp import Context, FastMCP

app = FastMCP("janitor")
WIPED: list[str] = []


@app.tool()
async def wipe(name: str, ctx: Context) -> str:
    async def confirmed(what: str) -> bool:
        answer = await ctx.elicit(f"Wipe {what}?", response_type=bool)
        return answer.action == "accept" and bool(answer.data)

    if not await confirmed(name):
        return "kept"
    WIPED.append(name)
    return f"wiped {name}"
"""

FALLBACK = """\
from fastmcp import Context, FastMCP

app = FastMCP("files")


async def pick_folder(ctx: Context, folder: str | None) -> str:
    if folder:
        return folder
    picked = await ctx.elicit("Which folder?", response_type=str)
    return picked.data if picked.action == "accept" else "."


@app.tool()
async def listing(ctx: Context, folder: str | None = None) -> str:
    where = await pick_folder(ctx, folder)
    return f"listing {where}"
"""


def test_a_nested_helper_takes_the_answer_first(tmp_path: Path) -> None:
    target = _project(tmp_path, NESTED, ["fastmcp>=4.2,<5"])
    before = tmp_path / "before.py"
    before.write_bytes(target.read_bytes())
    [finding] = _check(target.parent)
    assert finding["fix"]["safety"] == "safe", finding["fix"]
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (FIXED / "nested_helper.fixed.py").read_text(encoding="utf-8")
    yes = {"action": "accept", "content": {"value": True}}
    for reply in (yes, DECLINE):
        got = _client_call(_server(target, "app"), "legacy", "wipe", {"name": "tmp"}, reply)
        assert got == _client_call(_server(before, "app"), "legacy", "wipe", {"name": "tmp"}, reply)
    asked, result = _interim_round(_server(target, "app"), "wipe", {"name": "tmp"}, yes)
    assert asked["answer"]["params"]["message"] == "Wipe tmp?" and result == ["wiped tmp"]


def test_a_fallback_request_is_asked_only_where_the_helper_asks(tmp_path: Path) -> None:
    target = _project(tmp_path, FALLBACK, ["fastmcp>=4.2,<5"])
    before = tmp_path / "before.py"
    before.write_bytes(target.read_bytes())
    [finding] = _check(target.parent)
    assert finding["fix"]["safety"] == "safe", finding["fix"]  # no "asked on every call" note: it is not
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (FIXED / "fallback_helper.fixed.py").read_text(encoding="utf-8")
    pick = {"action": "accept", "content": {"value": "/srv"}}
    for args in ({"folder": "/tmp"}, {}):
        got = _client_call(_server(target, "app"), "legacy", "listing", args, pick)
        assert got == _client_call(_server(before, "app"), "legacy", "listing", args, pick)
    # 2026-07-28: with the folder given nothing is asked (a client without elicitation still works) …
    assert _client_call(_server(target, "app"), MODERN, "listing", {"folder": "/tmp"}, None) == ["listing /tmp"]
    # … without it the tool asks in an interim round.
    asked, result = _interim_round(_server(target, "app"), "listing", {}, pick)
    assert asked["picked"]["params"]["message"] == "Which folder?" and result == ["listing /srv"]


# ---------------------------------------------------------------------------------------------
# What stays manual, in terms of the code

MANUAL = """\
import asyncio

import anyio
import tenacity
from fastmcp import Context, FastMCP

app = FastMCP("shapes")


async def ask_bg(ctx: Context, what: str) -> None:
    await ctx.elicit(f"Note {what}?", response_type=bool)


async def ask_cb(ctx: Context) -> bool:
    r = await ctx.elicit("Retry?", response_type=bool)
    return r.action == "accept"


async def ask_sync(ctx: Context) -> bool:
    r = await ctx.elicit("Sync?", response_type=bool)
    return r.action == "accept"


async def ask_one(ctx: Context) -> bool:
    r = await ctx.elicit("One?", response_type=bool)
    return r.action == "accept"


async def ask_two(ctx: Context) -> bool:
    r = await ctx.elicit("Two?", response_type=bool)
    return r.action == "accept"


@app.tool()
async def background(ctx: Context) -> str:
    asyncio.create_task(ask_bg(ctx, "x"))
    return "started"


@app.tool()
async def callback(ctx: Context) -> str:
    retrying = tenacity.AsyncRetrying(stop=tenacity.stop_after_attempt(2))
    return str(await retrying(ask_cb, ctx))


@app.tool()
def bridged(ctx: Context) -> str:
    return str(anyio.from_thread.run(ask_sync, ctx))


@app.tool()
async def both(ctx: Context) -> str:
    return str(await ask_one(ctx) and await ask_two(ctx))


@app.tool()
async def other_module(ctx: Context) -> str:
    return str(await ask_elsewhere(ctx))
"""

CONSENT = """\
from fastmcp import Context


async def ask_elsewhere(ctx: Context) -> bool:
    r = await ctx.elicit("Elsewhere?", response_type=bool)
    return r.action == "accept"
"""


def test_what_stays_manual_says_why_in_terms_of_the_code(tmp_path: Path) -> None:
    target = _project(tmp_path, MANUAL, ["fastmcp>=4.2,<5"])
    manual = {(f["path"], f["line"]): f["manual"] for f in _check(target.parent) if f["rule"] == "MCP202"}
    assert all(m is not None for m in manual.values()), manual
    assert (
        '`ask_bg(ctx, "x")` in `background` runs it as a background task (`asyncio.create_task(...)`)'
        in manual[("server.py", 11)]
    )
    assert "`ask_cb` is not called from a tool but passed on as a value" in manual[("server.py", 15)]
    assert "third-party library" in manual[("server.py", 15)]
    assert "`bridged` runs `ask_sync` from sync code through `anyio.from_thread.run`" in manual[("server.py", 20)]
    # `await ask_one(ctx) and await ask_two(ctx)`: the second is asked only on one answer to the first
    after = (
        "`await ask_two(ctx)` in `both` runs only when `await ask_one(ctx)` is true, which depends on the answer to "
        "the request asked first: the second request is reached only on one outcome of the first, and one interim "
        "round asking both on every call would change behaviour; keep them in order by hand"
    )
    assert manual[("server.py", 30)] == f"the request is made in the helper `ask_two`; {after}"
    assert manual[("server.py", 25)] == (
        '`both` reaches 2 requests (`ctx.elicit("One?", response_type=bool)`, `ctx.elicit("Two?", response_type=bool)`), '
        'which must travel in one interim result, and `ctx.elicit("Two?", response_type=bool)` cannot be asked: '
        f"the request is made in the helper `ask_two`; {after}"
    )


# ---------------------------------------------------------------------------------------------
# Stonefish-Labs/public-marketplace@0ab9e3d2 mcp-screenshot/server.py (requests-21's "Seen in"),
# after its port to fastmcp 4: the helper's message is an f-string, and the tools pass f-strings
# with quotes and escapes it cannot nest before Python 3.12: they are bound to a local first.

SCREENSHOT = """\
from typing import Any

from fastmcp import Context, FastMCP

mcp = FastMCP(name="ScreenshotServer")


async def _confirm_high_risk_capture(ctx: Any, action_label: str, details: str) -> str | None:
    result = await ctx.elicit(
        f"{action_label} will capture potentially sensitive on-screen data.\\n\\n{details}\\n\\nProceed?",
        response_type=bool,
    )
    if result.action == "accept":
        return None
    if result.action == "decline":
        return "Capture declined by user."
    return "Capture cancelled by user."


@mcp.tool()
async def screenshot_smart(ctx: Context, context: str | None = None, quality_mode: str = "balanced") -> str:
    blocked = await _confirm_high_risk_capture(ctx, "Smart capture", f"Context: {context or 'none'}\\nMode: {quality_mode}")
    if blocked:
        return blocked
    return f"captured {context}"
"""


def test_screenshot_server_binds_the_details_before_asking(tmp_path: Path) -> None:
    target = _project(tmp_path, SCREENSHOT, ["fastmcp>=4.2,<5"])
    before = tmp_path / "before.py"
    before.write_bytes(target.read_bytes())
    _fix(target.parent)
    text = target.read_text(encoding="utf-8")
    assert (
        "    details = f\"Context: {context or 'none'}\\nMode: {quality_mode}\"\n"
        '    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):\n'
    ) in text
    assert (
        "    else:\n        result = await ctx.elicit(\n"
        "            f\"{'Smart capture'} will capture potentially sensitive on-screen data.\\n\\n{details}\\n\\nProceed?\",\n"
    ) in text
    args = {"context": "mail"}
    for reply in (ACCEPT, DECLINE):
        got = _client_call(_server(target, "mcp"), "legacy", "screenshot_smart", args, reply)
        assert got == _client_call(_server(before, "mcp"), "legacy", "screenshot_smart", args, reply)
    asked, result = _interim_round(_server(target, "mcp"), "screenshot_smart", args, DECLINE)
    assert asked["result"]["params"]["message"] == (
        "Smart capture will capture potentially sensitive on-screen data.\n\nContext: mail\nMode: balanced\n\nProceed?"
    )
    assert result == ["Capture declined by user."]


# ---------------------------------------------------------------------------------------------
# A consent helper in another module of the project (awslabs' request_consent in common.py with
# callers in two tools modules, requests-05; telegram-mcp's runtime.py helpers, roots-04): the
# helper takes the answer, each calling tool asks — both files written, or neither.

CONSENT = """\
from fastmcp import Context


async def require_ack(ctx: Context, summary: str) -> bool:
    reply = await ctx.elicit(f"{summary}. Acknowledge?", response_type=bool)
    return reply.action == "accept" and bool(reply.data)
"""

BUCKETS = """\
from fastmcp import Context, FastMCP

from consent import require_ack

app = FastMCP("buckets")
DELETED: list[str] = []


@app.tool()
async def delete_bucket(name: str, ctx: Context) -> str:
    if not await require_ack(ctx, f"Delete bucket {name}"):
        return "kept"
    DELETED.append(name)
    return f"deleted {name}"


@app.tool()
async def empty_bucket(name: str, ctx: Context) -> str:
    ok = await require_ack(ctx, summary=f"Empty bucket {name}")
    return f"emptied {name}" if ok else "kept"
"""


def _load_in(directory: Path, attr: str) -> Any:
    """``server.py`` of ``directory`` with its sibling modules importable (a fresh ``consent``)."""
    sys.modules.pop("consent", None)
    sys.path.insert(0, str(directory))
    try:
        return _server(directory / "server.py", attr)
    finally:
        sys.path.remove(str(directory))


def test_a_helper_in_another_module_is_asked_by_the_tools_there(tmp_path: Path) -> None:
    target = _project(tmp_path, BUCKETS, ["fastmcp>=4.2,<5"])
    (target.parent / "consent.py").write_text(CONSENT, encoding="utf-8")
    before = tmp_path / "before"
    shutil.copytree(target.parent, before)
    [finding] = _check(target.parent)
    assert (finding["path"], finding["line"], finding["rule"]) == ("consent.py", 5, "MCP202")
    assert (
        "`delete_bucket` in server.py, `empty_bucket` in server.py return `InputRequiredResult`"
        in finding["fix"]["description"]
    )
    _fix(target.parent)
    assert (target.parent / "consent.py").read_text(encoding="utf-8") == (FIXED / "buckets_consent.fixed.py").read_text(
        encoding="utf-8"
    )
    assert target.read_text(encoding="utf-8") == (FIXED / "buckets_server.fixed.py").read_text(encoding="utf-8")
    assert _check(target.parent) == []
    yes = {"action": "accept", "content": {"value": True}}
    for tool in ("delete_bucket", "empty_bucket"):
        for reply in (yes, DECLINE):
            got = _client_call(_load_in(target.parent, "app"), "legacy", tool, {"name": "logs"}, reply)
            assert got == _client_call(_load_in(before, "app"), "legacy", tool, {"name": "logs"}, reply)
    assert _client_call(_load_in(before, "app"), MODERN, "delete_bucket", {"name": "logs"}, yes)[0] in (
        "error",
        "raised",
    )
    asked, result = _interim_round(_load_in(target.parent, "app"), "delete_bucket", {"name": "logs"}, yes)
    assert asked["reply"]["params"]["message"] == "Delete bucket logs. Acknowledge?" and result == ["deleted logs"]
    asked, result = _interim_round(_load_in(target.parent, "app"), "empty_bucket", {"name": "tmp"}, DECLINE)
    assert asked["reply"]["params"]["message"] == "Empty bucket tmp. Acknowledge?" and result == ["kept"]


def test_a_caller_the_step_cannot_rewrite_holds_every_file(tmp_path: Path) -> None:
    twice = (
        BUCKETS
        + """

@app.tool()
async def drop_two(a: str, b: str, ctx: Context) -> str:
    return str(await require_ack(ctx, a) and await require_ack(ctx, b))
"""
    )
    target = _project(tmp_path, twice, ["fastmcp>=4.2,<5"])
    (target.parent / "consent.py").write_text(CONSENT, encoding="utf-8")
    files = {p: p.read_bytes() for p in target.parent.rglob("*.py")}
    res = cli(
        ["fix", "--no-cache", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", "."], target.parent
    )
    assert res.exception is None
    assert {p: p.read_bytes() for p in target.parent.rglob("*.py")} == files  # nothing written
    [error] = res.json["errors"]
    assert error["path"] == "consent.py"
    assert "`drop_two` calls `require_ack` 2 times: each asks today" in error["message"]

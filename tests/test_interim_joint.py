"""Several requests reached from one handler (issue 22, item 2): each retry carries only the
answers to the latest ``inputRequests``, so a handler that reaches several requests — through
several helpers, or its own request and a helper's — asks them all in one ``InputRequiredResult``
under distinct keys, reads each answer from ``input_responses`` on the retry and hands each helper
its own; a legacy connection makes the requests itself, in their original order. Where one round
cannot keep the order (the second request depends on the first answer) the fix stays manual and
says so.

Each fixed server is asserted whole (``tests/data/threading``) and run against the real SDK (mcp 2.3
``Client``; fastmcp 4.2) in both eras: legacy answers as the original did, 2026-07-28 asks every
question in one interim round and the retry gets the tool's answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.test_interim_threading import FALLBACK, FIXED, MODERN, _check, _fix, _project, _server, _texts
from tests.test_interim_trust import _leaf


def _call(server: Any, mode: str, tool: str, arguments: dict[str, Any], replies: dict[str, dict[str, Any]]) -> Any:
    """One call through the mcp 2.3 ``Client`` whose elicitation callback answers each question
    with the reply of the first key of ``replies`` its message starts with (the texts,
    ``("error", texts)`` or ``("raised", message)``); ``asked`` collects the messages, in order."""
    import mcp
    from mcp import types

    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        reply = next(r for prefix, r in replies.items() if params.message.startswith(prefix))
        return types.ElicitResult(**reply)

    async def run() -> Any:
        try:
            async with mcp.Client(server, mode=mode, elicitation_callback=elicit) as client:  # type: ignore[arg-type]
                return _texts(await client.call_tool(tool, arguments))
        except BaseException as exc:  # the client raises out of its task group
            return ("raised", str(_leaf(exc)))

    return anyio.run(run), asked


def _reply(replies: dict[str, dict[str, Any]], key: str, message: str) -> dict[str, Any]:
    """The reply for the question at ``key``: ``replies[key]``, else the first whose key the message
    starts with (the SDK's resolvers choose their own keys)."""
    return replies[key] if key in replies else next(r for p, r in replies.items() if message.startswith(p))


def _joint_round(
    server: Any, tool: str, arguments: dict[str, Any], replies: dict[str, dict[str, Any]]
) -> tuple[dict[str, str], Any]:
    """On 2026-07-28, by hand: the first call returns one ``InputRequiredResult`` (its questions'
    messages by key), the retry answers each with :func:`_reply` and gets the result."""
    import mcp
    from mcp import types

    async def elicit(context: Any, params: Any) -> Any:  # declares the capability; never called here
        raise AssertionError("the round is driven by hand")

    async def run() -> tuple[dict[str, str], Any]:
        async with mcp.Client(server, mode=MODERN, elicitation_callback=elicit) as client:  # type: ignore[arg-type]
            first = await client.session.call_tool(tool, arguments, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult), first
            asked = {k: v.params.message for k, v in first.input_requests.items()}  # type: ignore[union-attr]  # elicitations only here
            answers = {k: types.ElicitResult(**_reply(replies, k, asked[k])) for k in first.input_requests}
            retry = await client.session.call_tool(
                tool, arguments, input_responses=answers, request_state=first.request_state, allow_input_required=True
            )
            assert not isinstance(retry, types.InputRequiredResult), retry
            return asked, _texts(retry)

    return anyio.run(run)


def _fixed(tmp_path: Path, source: str, deps: list[str], expected: str) -> tuple[Path, Path, list[dict[str, Any]]]:
    """The project fixed (``fix`` twice: the second changes nothing), its text the whole expected
    file, nothing left to report; returns the fixed file, the original and the findings before."""
    target = _project(tmp_path, source, deps)
    before = tmp_path / "before.py"
    before.write_bytes(target.read_bytes())
    findings = _check(target.parent)
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (FIXED / expected).read_text(encoding="utf-8")
    assert _check(target.parent) == []
    return target, before, findings


# ---------------------------------------------------------------------------------------------
# fastmcp 4: one tool reaching two helpers that each ask (both name their answer `reply`), one of
# them reached from another tool too, which asks it alone

ARCHIVE = """\
from fastmcp import Context, FastMCP

app = FastMCP("archive")
ARCHIVED: list[str] = []


async def confirm(ctx: Context, what: str) -> bool:
    reply = await ctx.elicit(f"Archive {what}?", response_type=bool)
    return reply.action == "accept" and bool(reply.data)


async def pick_label(ctx: Context, what: str) -> str:
    reply = await ctx.elicit(f"Label for {what}?", response_type=str)
    return reply.data if reply.action == "accept" else "unlabelled"


@app.tool()
async def archive(name: str, ctx: Context) -> str:
    ok = await confirm(ctx, name)
    label = await pick_label(ctx, name)
    if not ok:
        return "kept"
    ARCHIVED.append(name)
    return f"archived {name} as {label}"


@app.tool()
async def purge(name: str, ctx: Context) -> str:
    if not await confirm(ctx, f"{name} for good"):
        return "kept"
    return f"purged {name}"
"""

YES = {"action": "accept", "content": {"value": True}}
BLUE = {"action": "accept", "content": {"value": "blue"}}
DECLINE = {"action": "decline"}


def test_two_helpers_of_one_tool_are_asked_in_one_round(tmp_path: Path) -> None:
    target, before, findings = _fixed(tmp_path, ARCHIVE, ["fastmcp>=4.2,<5"], "archive_two_helpers.fixed.py")
    assert [(f["rule"], f["line"], f["fix"]["safety"]) for f in findings] == [
        ("MCP202", 8, "safe"),
        ("MCP202", 13, "safe"),
    ]
    joint = (
        " (`archive` asks 'reply', 'reply_2' together in one `InputRequiredResult`, as a retry carries only the answers "
        "to the latest inputRequests; legacy connections get those requests in their original order)"
    )
    assert "under key 'reply' " in findings[0]["fix"]["description"]
    assert "under key 'reply_2' " in findings[1]["fix"]["description"]
    assert all(f["fix"]["description"].endswith(joint) for f in findings)
    # Legacy: the fixed tool asks as the original did, in the same order, with the same outcome.
    for replies in (
        {"Archive": YES, "Label": BLUE},
        {"Archive": DECLINE, "Label": BLUE},
        {"Archive": YES, "Label": DECLINE},
    ):
        got = _call(_server(target, "app"), "legacy", "archive", {"name": "logs"}, replies)
        assert got == _call(_server(before, "app"), "legacy", "archive", {"name": "logs"}, replies)
    assert _call(_server(target, "app"), "legacy", "archive", {"name": "logs"}, {"Archive": YES, "Label": BLUE}) == (
        ["archived logs as blue"],
        ["Archive logs?", "Label for logs?"],
    )
    # 2026-07-28: the original cannot ask; the fixed tool asks both in one round, and the retry
    # hands each helper its own answer.
    assert _call(_server(before, "app"), MODERN, "archive", {"name": "logs"}, {"": YES})[0][0] in ("error", "raised")
    asked, result = _joint_round(_server(target, "app"), "archive", {"name": "logs"}, {"reply": YES, "reply_2": BLUE})
    assert asked == {"reply": "Archive logs?", "reply_2": "Label for logs?"}
    assert result == ["archived logs as blue"]
    assert _joint_round(_server(target, "app"), "archive", {"name": "x"}, {"reply": DECLINE, "reply_2": BLUE})[1] == [
        "kept"
    ]
    # The SDK client drives the round with its callback: one round, both questions.
    got, asked_msgs = _call(
        _server(target, "app"), MODERN, "archive", {"name": "tmp"}, {"Archive": YES, "Label": DECLINE}
    )
    assert got == ["archived tmp as unlabelled"]
    assert sorted(asked_msgs) == ["Archive tmp?", "Label for tmp?"]
    # `purge` reaches `confirm` alone: its own round, its own answer.
    for reply in (YES, DECLINE):
        got = _call(_server(target, "app"), "legacy", "purge", {"name": "logs"}, {"": reply})
        assert got == _call(_server(before, "app"), "legacy", "purge", {"name": "logs"}, {"": reply})
    asked, result = _joint_round(_server(target, "app"), "purge", {"name": "logs"}, {"reply": YES})
    assert asked == {"reply": "Archive logs for good?"} and result == ["purged logs"]


def test_what_a_helper_does_after_its_request_makes_every_request_of_the_round_unsafe(tmp_path: Path) -> None:
    """Today `confirm` logs before `pick_label` asks; on 2026-07-28 both are asked first. Both
    requests carry the note (one is applied only with the other)."""
    source = ARCHIVE.replace(
        '    return reply.action == "accept" and bool(reply.data)',
        '    ARCHIVED.append(f"asked {what}")\n    return reply.action == "accept" and bool(reply.data)',
    )
    findings = _check(_project(tmp_path, source, ["fastmcp>=4.2,<5"]).parent)
    note = (
        '(review: `ARCHIVED.append(f"asked {what}")` in `confirm` runs after its request today, before the next one '
        "is asked; on 2026-07-28 it runs once all are answered)"
    )
    assert [(f["fix"]["safety"], f["fix"]["description"].endswith(note)) for f in findings] == [("unsafe", True)] * 2


# ---------------------------------------------------------------------------------------------
# fastmcp 4: one helper called twice by a tool asks twice — two questions of one round, each
# call handed its own answer

MOVE = """\
from fastmcp import Context, FastMCP

app = FastMCP("move")


async def confirm(ctx: Context, what: str) -> bool:
    reply = await ctx.elicit(f"{what}?", response_type=bool)
    return reply.action == "accept" and bool(reply.data)


@app.tool()
async def move(src: str, dst: str, ctx: Context) -> str:
    take = await confirm(ctx, f"Take {src}")
    put = await confirm(ctx, f"Overwrite {dst}")
    if not (take and put):
        return "stayed"
    return f"moved {src} to {dst}"
"""


def test_a_helper_called_twice_asks_both_questions_in_one_round(tmp_path: Path) -> None:
    target, before, findings = _fixed(tmp_path, MOVE, ["fastmcp>=4.2,<5"], "move_helper_twice.fixed.py")
    [finding] = findings
    assert finding["fix"]["safety"] == "safe"
    assert (
        "`move` return `InputRequiredResult` with a `ElicitRequest` under keys 'reply', 'reply_2'"
        in (finding["fix"]["description"])
    )
    for replies in ({"Take": YES, "Overwrite": YES}, {"Take": YES, "Overwrite": DECLINE}, {"Take": DECLINE, "": YES}):
        got = _call(_server(target, "app"), "legacy", "move", {"src": "a", "dst": "b"}, replies)
        assert got == _call(_server(before, "app"), "legacy", "move", {"src": "a", "dst": "b"}, replies)
    assert _call(_server(target, "app"), "legacy", "move", {"src": "a", "dst": "b"}, {"": YES}) == (
        ["moved a to b"],
        ["Take a?", "Overwrite b?"],
    )
    asked, result = _joint_round(
        _server(target, "app"), "move", {"src": "a", "dst": "b"}, {"reply": YES, "reply_2": YES}
    )
    assert asked == {"reply": "Take a?", "reply_2": "Overwrite b?"} and result == ["moved a to b"]
    assert _joint_round(_server(target, "app"), "move", {"src": "a", "dst": "b"}, {"reply": YES, "reply_2": DECLINE})[
        1
    ] == ["stayed"]


# ---------------------------------------------------------------------------------------------
# mcp 2.x `MCPServer`: each helper's request becomes a resolver of the tool, and the SDK batches
# every pending resolver of one call into one `InputRequiredResult` (`resolve_arguments`)

ARCHIVE_MCPSERVER = """\
from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

app = MCPServer("archive")


class Ok(BaseModel):
    ok: bool


class Label(BaseModel):
    label: str


async def confirm(ctx: Context, what: str) -> bool:
    reply = await ctx.elicit(f"Archive {what}?", Ok)
    return reply.action == "accept" and reply.data.ok


async def pick_label(ctx: Context, what: str) -> str:
    reply = await ctx.elicit(f"Label for {what}?", Label)
    return reply.data.label if reply.action == "accept" else "unlabelled"


@app.tool()
async def archive(name: str, ctx: Context) -> str:
    ok = await confirm(ctx, name)
    label = await pick_label(ctx, name)
    if not ok:
        return "kept"
    return f"archived {name} as {label}"
"""


def test_two_helpers_of_an_mcpserver_tool_become_resolvers_asked_in_one_round(tmp_path: Path) -> None:
    target, before, findings = _fixed(tmp_path, ARCHIVE_MCPSERVER, ["mcp>=2.3,<3"], "archive_resolvers.fixed.py")
    # the second resolver's question is now asked before `confirm(...)` runs: a review note (each
    # resolver is its own fix; the SDK batches whichever are applied)
    assert [(f["line"], f["fix"]["safety"]) for f in findings] == [(16, "safe"), (21, "unsafe")]
    ok, label = {"action": "accept", "content": {"ok": True}}, {"action": "accept", "content": {"label": "blue"}}
    for replies in ({"Archive": ok, "Label": label}, {"Archive": DECLINE, "Label": label}):
        got = _call(_server(target, "app"), "legacy", "archive", {"name": "logs"}, replies)
        assert got == _call(_server(before, "app"), "legacy", "archive", {"name": "logs"}, replies)
    asked, result = _joint_round(_server(target, "app"), "archive", {"name": "logs"}, {"Archive": ok, "Label": label})
    assert sorted(asked.values()) == ["Archive logs?", "Label for logs?"] and result == ["archived logs as blue"]


# ---------------------------------------------------------------------------------------------
# mcp 2.x low-level: the handler asks itself and reaches a helper that asks too (this was
# `helpers_also_ask`'s manual case)

DROP = """\
from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

OK: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
WHY: dict[str, Any] = {"type": "object", "properties": {"why": {"type": "string"}}, "required": ["why"]}
DROPPED: list[str] = []


async def confirm(ctx: ServerRequestContext[Any], name: str) -> bool:
    reply = await ctx.session.elicit_form(f"Drop {name}?", OK)
    return reply.action == "accept" and bool((reply.content or {}).get("ok"))


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    name = (params.arguments or {}).get("name", "a")
    why = await ctx.session.elicit_form(f"Why drop {name}?", WHY)
    if not await confirm(ctx, name):
        return types.CallToolResult(content=[types.TextContent(text="kept")])
    DROPPED.append(name)
    reason = (why.content or {}).get("why", "-") if why.action == "accept" else "-"
    return types.CallToolResult(content=[types.TextContent(text=f"dropped {name}: {reason}")])


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="drop", input_schema={"type": "object"})])


server = Server("drop", on_call_tool=call_tool, on_list_tools=list_tools)
"""

OK = {"action": "accept", "content": {"ok": True}}
NO = {"action": "accept", "content": {"ok": False}}
WHY = {"action": "accept", "content": {"why": "stale"}}


def test_a_handler_request_and_its_helpers_are_asked_in_one_round(tmp_path: Path) -> None:
    target, before, findings = _fixed(tmp_path, DROP, ["mcp>=2.3,<3"], "drop_own_and_helper.fixed.py")
    assert [(f["rule"], f["line"], f["fix"]["safety"]) for f in findings] == [
        ("MCP202", 13, "safe"),
        ("MCP202", 19, "safe"),
    ]
    joint = "(`call_tool` asks 'why', 'reply' together in one `InputRequiredResult`"
    assert all(joint in f["fix"]["description"] for f in findings)
    assert findings[1]["fix"]["description"].startswith(
        "on 2026-07-28 `call_tool` returns `InputRequiredResult` with a `ElicitRequest` under key 'why'"
    )
    for replies in ({"Why": WHY, "Drop": OK}, {"Why": WHY, "Drop": NO}, {"Why": DECLINE, "Drop": OK}):
        got = _call(_server(target, "server"), "legacy", "drop", {"name": "b"}, replies)
        assert got == _call(_server(before, "server"), "legacy", "drop", {"name": "b"}, replies)
    assert _call(_server(target, "server"), "legacy", "drop", {"name": "b"}, {"Why": WHY, "Drop": OK}) == (
        ["dropped b: stale"],
        ["Why drop b?", "Drop b?"],
    )
    assert _call(_server(before, "server"), MODERN, "drop", {"name": "b"}, {"": OK})[0][0] == "raised"
    asked, result = _joint_round(_server(target, "server"), "drop", {"name": "b"}, {"why": WHY, "reply": OK})
    assert asked == {"why": "Why drop b?", "reply": "Drop b?"}
    assert result == ["dropped b: stale"]
    assert _joint_round(_server(target, "server"), "drop", {"name": "b"}, {"why": WHY, "reply": NO})[1] == ["kept"]
    got, asked_msgs = _call(_server(target, "server"), MODERN, "drop", {"name": "c"}, {"Why": DECLINE, "Drop": OK})
    assert got == ["dropped c: -"] and sorted(asked_msgs) == ["Drop c?", "Why drop c?"]


# ---------------------------------------------------------------------------------------------
# mcp 2.x low-level dispatch: requests on paths no call shares get a round each (`wipe` asks the
# helper's question alone), those one call shares are asked together (`rename`: a helper's and the
# handler's own)

FILES = """\
from typing import Any

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

OK: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
NAME: dict[str, Any] = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def text(value: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=value)])


async def confirm(ctx: ServerRequestContext[Any], what: str) -> bool:
    reply = await ctx.session.elicit_form(f"{what}?", OK)
    return reply.action == "accept" and bool((reply.content or {}).get("ok"))


async def pick_name(ctx: ServerRequestContext[Any], old: str) -> str:
    picked = await ctx.session.elicit_form(f"New name for {old}?", NAME)
    return str((picked.content or {}).get("name", old)) if picked.action == "accept" else old


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    old = str((params.arguments or {}).get("name", "a"))
    if params.name == "wipe":
        if not await confirm(ctx, f"Wipe {old}"):
            return text("kept")
        return text(f"wiped {old}")
    new = await pick_name(ctx, old)
    ok = await ctx.session.elicit_form(f"Rename {old}?", OK)
    if ok.action != "accept" or not (ok.content or {}).get("ok"):
        return text("kept")
    return text(f"renamed {old} to {new}")


async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
    tools = [types.Tool(name=n, input_schema={"type": "object"}) for n in ("wipe", "rename")]
    return types.ListToolsResult(tools=tools)


server = Server("files", on_call_tool=call_tool, on_list_tools=list_tools)
"""

NAME = {"action": "accept", "content": {"name": "b"}}


def test_a_dispatch_handler_asks_each_path_its_own_round(tmp_path: Path) -> None:
    target, before, findings = _fixed(tmp_path, FILES, ["mcp>=2.3,<3"], "files_dispatch.fixed.py")
    assert [(f["line"], f["fix"]["safety"]) for f in findings] == [(16, "safe"), (21, "safe"), (32, "safe")]
    calls = [
        ("wipe", {"Wipe": OK}),
        ("wipe", {"Wipe": NO}),
        ("rename", {"New name": NAME, "Rename": OK}),
        ("rename", {"New name": DECLINE, "Rename": OK}),
        ("rename", {"New name": NAME, "Rename": NO}),
    ]
    for tool, replies in calls:
        got = _call(_server(target, "server"), "legacy", tool, {"name": "a"}, replies)
        assert got == _call(_server(before, "server"), "legacy", tool, {"name": "a"}, replies)
    asked, result = _joint_round(_server(target, "server"), "wipe", {"name": "a"}, {"reply": OK})
    assert asked == {"reply": "Wipe a?"} and result == ["wiped a"]
    asked, result = _joint_round(_server(target, "server"), "rename", {"name": "a"}, {"picked": NAME, "ok": OK})
    assert asked == {"picked": "New name for a?", "ok": "Rename a?"} and result == ["renamed a to b"]
    assert _joint_round(_server(target, "server"), "rename", {"name": "a"}, {"picked": NAME, "ok": NO})[1] == ["kept"]


# ---------------------------------------------------------------------------------------------
# Where one round cannot keep the order: manual, saying why

HELPERS = """\
from fastmcp import Context, FastMCP

app = FastMCP("labels")


async def confirm(ctx: Context, what: str) -> bool:
    reply = await ctx.elicit(f"Archive {what}?", response_type=bool)
    return reply.action == "accept" and bool(reply.data)


async def pick_label(ctx: Context, what: str) -> str:
    reply = await ctx.elicit(f"Label for {what}?", response_type=str)
    return reply.data if reply.action == "accept" else "unlabelled"
"""

BUILT_FROM_ANSWER = """

@app.tool()
async def relabel(name: str, ctx: Context) -> str:
    label = await pick_label(ctx, name)
    ok = await confirm(ctx, label)
    return f"{name}: {label}" if ok else "kept"
"""

ON_ONE_OUTCOME = """

@app.tool()
async def archive(name: str, ctx: Context) -> str:
    if not await confirm(ctx, name):
        return "kept"
    label = await pick_label(ctx, name)
    return f"archived {name} as {label}"
"""

ARCHIVE_Q = 'ctx.elicit(f"Archive {what}?", response_type=bool)'
LABEL_Q = 'ctx.elicit(f"Label for {what}?", response_type=str)'
IN_A_BRANCH = """

@app.tool()
async def tag(name: str, ctx: Context) -> str:
    ok = await confirm(ctx, name)
    if ok:
        label = await pick_label(ctx, name)
        return f"{name}: {label}"
    return "kept"
"""

REACHES = "`{tool}` reaches 2 requests (`{first}`, `{second}`), which must travel in one interim result, but "


def _manual(tmp_path: Path, source: str) -> list[str]:
    target = _project(tmp_path, HELPERS + source, ["fastmcp>=4.2,<5"])
    findings = _check(target.parent)
    assert [f["fix"] for f in findings] == [None, None], findings
    return [f["manual"] for f in findings]


#: (the tool's code, the exact reason both of its requests stay manual)
ORDER_KEPT = {
    "built-from-the-first-answer": (
        BUILT_FROM_ANSWER,
        REACHES.format(tool="relabel", first=LABEL_Q, second=ARCHIVE_Q)
        + 'the request `ctx.elicit(f"Archive {label}?", response_type=bool)` (reached through '
        "`ok = await confirm(ctx, label)`) is built from `label`, set once `label = await pick_label(ctx, name)` has "
        "asked (from its answer or later): the second request depends on the first answer, and one interim round "
        "asking both would change behaviour; keep them in order by hand",
    ),
    "after-a-return-on-the-first-answer": (
        ON_ONE_OUTCOME,
        REACHES.format(tool="archive", first=ARCHIVE_Q, second=LABEL_Q)
        + "`if not await confirm(ctx, name):` can end the call depending on the answer to the request it reaches: "
        "`label = await pick_label(ctx, name)` is reached only on one outcome of the first request, and one interim "
        "round asking both on every call would change behaviour; keep them in order by hand",
    ),
    "in-a-branch-on-the-first-answer": (
        IN_A_BRANCH,
        REACHES.format(tool="tag", first=ARCHIVE_Q, second=LABEL_Q)
        + "`label = await pick_label(ctx, name)` runs inside `if ok:`, which tests `ok`, set once "
        "`ok = await confirm(ctx, name)` has asked: it is reached only on one outcome of the first request, and one "
        "interim round asking both on every call would change behaviour; keep them in order by hand",
    ),
}


@pytest.mark.parametrize("case", list(ORDER_KEPT))
def test_where_one_round_cannot_keep_the_order_both_stay_manual(tmp_path: Path, case: str) -> None:
    source, reason = ORDER_KEPT[case]
    assert _manual(tmp_path, source) == [reason, reason]


#: test_interim_threading's fallback helper, with a second helper the tool reaches after it
FALLBACK_AND_ANOTHER = FALLBACK.replace(
    """@app.tool()
async def listing(ctx: Context, folder: str | None = None) -> str:
    where = await pick_folder(ctx, folder)
    return f"listing {where}"
""",
    """async def confirm(ctx: Context, what: str) -> bool:
    reply = await ctx.elicit(f"List {what}?", response_type=bool)
    return reply.action == "accept" and bool(reply.data)


@app.tool()
async def listing(ctx: Context, name: str, folder: str | None = None) -> str:
    where = await pick_folder(ctx, folder)
    ok = await confirm(ctx, name)
    return f"listing {where}" if ok else "no"
""",
)


def test_a_fallback_request_with_another_of_its_handler_stays_manual(tmp_path: Path) -> None:
    """A request asked only on some calls (the helper returns first when `folder` is given) cannot
    share a round that every call returns."""
    assert "async def confirm" in FALLBACK_AND_ANOTHER
    findings = _check(_project(tmp_path, FALLBACK_AND_ANOTHER, ["fastmcp>=4.2,<5"]).parent)
    why = (
        "the request is made in the helper `pick_folder`, which asks only when `folder` is false, and `listing` "
        "reaches other requests too: their one interim round would ask this question on every call; rewrite by hand"
    )
    assert [f["manual"] for f in findings] == [
        why,
        '`listing` reaches 2 requests (`ctx.elicit("Which folder?", response_type=str)`, '
        '`ctx.elicit(f"List {what}?", response_type=bool)`), which must travel in one interim result, and '
        f'`ctx.elicit("Which folder?", response_type=str)` cannot be asked: {why}',
    ]

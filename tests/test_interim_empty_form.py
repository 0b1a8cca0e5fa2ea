"""fastmcp 2/3's empty form (issue 22): ``ctx.elicit(message, response_type=None)`` in a helper the
tools call. fastmcp 4's ``ctx.elicit`` rejects it (the port's MCP516), but the interim round can
ask for exactly that schema, and the legacy branch the fix writes makes the same request through
``ctx.session.elicit``; its outcome is rebuilt as fastmcp 2/3 built it (``data={}`` on accept).

Shape of Stonefish-Labs/public-marketplace@0ab9e3d2 ``plugins/cloud-google-maps/mcp-servers/
google-maps-server/tools_maps.py`` (``ensure_external_call_consent``: a one-time session consent
read from ``ctx.get_state`` before the request, called from seven tools inside their ``try``);
the fixture is our own. The original runs on fastmcp 3.4 (legacy), the fixed server on fastmcp
4.2 (legacy and 2026-07-28) in one session of several calls, so the consent given once is seen to
hold for the session on legacy connections as it did.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio

from tests.helpers import cli
from tests.proof import run_proof
from tests.test_interim_threading import _load_in, _texts

FIXED = Path(__file__).resolve().parent / "data" / "threading"
MODERN = "2026-07-28"
ASK = "Atlas will fetch tiles from the network. Go ahead?"

ATLAS = """\
from fastmcp import Context, FastMCP

atlas = FastMCP("atlas")


class OutboundRefused(Exception):
    pass


async def confirm_outbound(ctx: Context) -> None:
    granted = await ctx.get_state("outbound_granted")
    if granted:
        return
    reply = await ctx.elicit("Atlas will fetch tiles from the network. Go ahead?", response_type=None)
    if reply.action == "accept":
        await ctx.set_state("outbound_granted", True)
        return
    raise OutboundRefused(reply.action)


@atlas.tool()
async def tile(x: int, y: int, ctx: Context) -> str:
    try:
        await confirm_outbound(ctx)
        return f"tile {x}/{y} fetched"
    except OutboundRefused as refused:
        return f"no tile: {refused}"


@atlas.tool()
async def legend(ctx: Context) -> str:
    await confirm_outbound(ctx)
    return "legend fetched"
"""

CALLS = [
    {"tool": "tile", "arguments": {"x": 1, "y": 2}},
    {"tool": "legend", "arguments": {}},
    {"tool": "tile", "arguments": {"x": 3, "y": 4}},
]


def _project(tmp_path: Path, source: str, deps: list[str]) -> Path:
    root = tmp_path / "project"
    root.mkdir(parents=True)
    (root / "server.py").write_text(source, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "x"\nversion = "0"\ndependencies = {json.dumps(deps)}\n', encoding="utf-8"
    )
    return root


def _port(root: Path) -> Any:
    args = ["fix", "--no-cache", "--target-sdk", "fastmcp4", "--strategy", "interim", "--unsafe-fixes"]
    return cli([*args, "--output-format", "json", "."], root)


def _session(server: Any, mode: str, reply: dict[str, Any] | None) -> tuple[list[Any], list[Any]]:
    """The calls of ``CALLS`` in one mcp 2.3 ``Client`` session whose elicitation callback (none when
    ``reply`` is None) answers with ``reply``: the texts of each call and what the client was asked
    (message and requested schema)."""
    import mcp
    from mcp import types

    asked: list[Any] = []

    async def elicit(context: Any, params: Any) -> Any:
        assert reply is not None
        asked.append((params.message, params.requested_schema))
        return types.ElicitResult(**reply)

    async def run() -> list[Any]:
        callbacks = {"elicitation_callback": elicit} if reply is not None else {}
        out: list[Any] = []
        async with mcp.Client(server, mode=mode, **callbacks) as client:  # type: ignore[arg-type]
            for c in CALLS:
                try:
                    out.append(_texts(await client.call_tool(c["tool"], c["arguments"])))
                except mcp.MCPError as exc:  # a JSON-RPC error answers the call
                    out.append(("raised", f"{exc.error.code}: {exc.error.message}"))
        return out

    return anyio.run(run), asked


def _original(python: str, root: Path, client: dict[str, Any] | None) -> list[Any]:
    out = run_proof(python, root / "server.py", "atlas", "legacy", [], CALLS, client=client)
    return [c["error"] or (("error", c["text"]) if c["is_error"] else c["text"]) for c in out["calls"]]


def test_a_helper_asking_for_the_empty_form_is_ported_and_threaded(tmp_path: Path, fastmcp3_python: str) -> None:
    before = _project(tmp_path / "before", ATLAS, ["fastmcp>=3.2,<4"])
    root = _project(tmp_path, ATLAS, ["fastmcp>=3.2,<4"])
    res = _port(root)
    assert res.exception is None and res.json["errors"] == [], str(res)
    assert [(f["rule"], f["line"]) for f in res.json["fixed"]] == [("MCP202", 14)]
    assert (root / "server.py").read_text(encoding="utf-8") == (FIXED / "atlas_empty_form.fixed.py").read_text(
        encoding="utf-8"
    )
    assert 'dependencies = ["fastmcp>=4.2,<5"]' in (root / "pyproject.toml").read_text(encoding="utf-8")
    empty = {"type": "object", "properties": {}}
    accept, decline = {"action": "accept", "content": {}}, {"action": "decline"}

    # Legacy: as the original on fastmcp 3.4 — asked once per session after an accept, every time
    # after a decline; a client without elicitation gets the same failure.
    assert _original(fastmcp3_python, before, {"elicitation": accept}) == [
        ["tile 1/2 fetched"],
        ["legend fetched"],
        ["tile 3/4 fetched"],
    ]
    texts, asked = _session(_load_in(root, "atlas"), "legacy", accept)
    assert texts == [["tile 1/2 fetched"], ["legend fetched"], ["tile 3/4 fetched"]]
    assert asked == [(ASK, empty)]
    assert _original(fastmcp3_python, before, {"elicitation": decline}) == [
        ["no tile: decline"],
        ("error", ["Error calling tool 'legend': decline"]),
        ["no tile: decline"],
    ]
    texts, asked = _session(_load_in(root, "atlas"), "legacy", decline)
    assert texts == [["no tile: decline"], ("error", ["Error calling tool 'legend': decline"]), ["no tile: decline"]]
    assert asked == [(ASK, empty)] * 3
    assert _original(fastmcp3_python, before, None) == [
        ("error", ["Error calling tool 'tile': Elicitation not supported"]),
        ("error", ["Error calling tool 'legend': Elicitation not supported"]),
        ("error", ["Error calling tool 'tile': Elicitation not supported"]),
    ]
    texts, _ = _session(_load_in(root, "atlas"), "legacy", None)
    assert texts == [
        ("error", ["Error calling tool 'tile': Elicitation not supported"]),
        ("error", ["Error calling tool 'legend': Elicitation not supported"]),
        ("error", ["Error calling tool 'tile': Elicitation not supported"]),
    ]

    # 2026-07-28: each call is an InputRequiredResult round for the same empty form (fastmcp's
    # session state is per request there, so nothing is remembered between calls).
    texts, asked = _session(_load_in(root, "atlas"), MODERN, accept)
    assert texts == [["tile 1/2 fetched"], ["legend fetched"], ["tile 3/4 fetched"]]
    assert asked == [(ASK, empty)] * 3
    texts, asked = _session(_load_in(root, "atlas"), MODERN, decline)
    assert texts == [["no tile: decline"], ("error", ["Error calling tool 'legend': decline"]), ["no tile: decline"]]
    texts, _ = _session(_load_in(root, "atlas"), MODERN, None)
    refused = "-32021: Client did not declare the form elicitation capability required by input request 'reply'"
    assert texts == [("raised", refused)] * 3


KEYPAD = """\
from fastmcp import Context, FastMCP

pad = FastMCP("keypad")


async def read_pin(ctx: Context) -> str:
    while True:
        typed = await ctx.elicit("Enter the 4-digit PIN:", response_type=str)
        if typed.action != "accept":
            raise ValueError("PIN required")
        if len(typed.data) == 4 and typed.data.isdigit():
            return typed.data


@pad.tool()
async def unlock(ctx: Context) -> str:
    return "unlocked" if await read_pin(ctx) else "locked"


@pad.tool()
async def label_all(names: list[str], ctx: Context) -> list[str]:
    out = []
    for name in names:
        out.append((await ctx.elicit(f"Label for {name}?", response_type=str)).data)
    return out


@pad.tool()
async def ping(ctx: Context) -> str:
    return (await ctx.elicit("Still there?")).action
"""


def test_what_stays_manual_says_why(tmp_path: Path) -> None:
    root = _project(tmp_path, KEYPAD, ["fastmcp>=3.2,<4"])
    res = _port(root)
    assert res.exception is None
    manual = {f["line"]: (f["rule"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP202"}
    assert manual == {
        # a re-ask loop in a helper asks round by round in place when each tool relays its result
        # (tests/test_interim_reask.py); here the call sits inside an expression
        8: (
            "MCP202",
            "the request is made in the helper `read_pin`, re-asked by `while True:`; `read_pin(ctx)` in `unlock` is "
            "not a statement `await read_pin(…)`, `name = await read_pin(…)` or `return await read_pin(…)` of its own: rewrite by hand",
        ),
        24: ("MCP202", "the request is made in a loop: each round would need its own stable key; rewrite by hand"),
        # the empty form asked in the tool itself: its legacy branch would be this very call
        30: (
            "MCP202",
            "`ctx.elicit` without a response type asks for fastmcp 2/3's empty form, which fastmcp 4's `ctx.elicit` "
            "rejects (`TypeError`), and its outcome is not assigned to a name the legacy branch could bind from the "
            "same request made through `ctx.session.elicit`: write `reply = await ctx.elicit(...)` on its own line, "
            "or pass the response type (`bool` for a confirmation)",
        ),
    }
    assert any(f["rule"] == "MCP516" and f["line"] == 30 for f in res.json["findings"])
    # so the port is blocked by the call fastmcp 4 rejects, and nothing is written
    [error] = res.json["errors"]
    assert error["message"].startswith("blocks the port to fastmcp 4: MCP516 at line 30: ")
    assert (root / "server.py").read_text(encoding="utf-8") == KEYPAD


LISTS = """\
from fastmcp import Context, FastMCP

shelf = FastMCP("shelf")
SHELVES = ["inbox"]


@shelf.tool()
async def add_shelf(name: str, ctx: Context) -> str:
    if name in SHELVES:
        return f"{name} exists"
    result = await ctx.elicit(f"Create shelf {name}?", response_type=None)
    if result.action != "accept":
        return "creation cancelled"
    SHELVES.append(name)
    return f"created {name}"
"""


def test_the_empty_form_asked_in_the_tool_itself(tmp_path: Path, fastmcp3_python: str) -> None:
    """apple-reminders' shape (``result = await ctx.elicit(message, response_type=None)`` in each
    write tool): the tool's own round, the legacy request through ``ctx.session.elicit``."""
    before = _project(tmp_path / "before", LISTS, ["fastmcp>=3.2,<4"])
    root = _project(tmp_path, LISTS, ["fastmcp>=3.2,<4"])
    res = _port(root)
    assert res.exception is None and res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert (root / "server.py").read_text(encoding="utf-8") == (FIXED / "shelf_empty_form.fixed.py").read_text(
        encoding="utf-8"
    )
    calls = [{"tool": "add_shelf", "arguments": {"name": "inbox"}}, {"tool": "add_shelf", "arguments": {"name": "x"}}]
    for reply in ({"action": "accept", "content": {}}, {"action": "decline"}, {"action": "cancel"}):
        out = run_proof(
            fastmcp3_python, before / "server.py", "shelf", "legacy", [], calls, client={"elicitation": reply}
        )
        want = [c["text"] for c in out["calls"]]
        assert want[0] == ["inbox exists"]
        for mode in ("legacy", MODERN):
            got = run_proof(
                sys.executable,
                root / "server.py",
                "shelf",
                "modern" if mode == MODERN else mode,
                [],
                calls,
                client={"elicitation": reply},
            )
            assert [c["text"] for c in got["calls"]] == want, (mode, reply)
    assert want == [["inbox exists"], ["creation cancelled"]]  # the last reply: cancel


NOTES = """\
from fastmcp import Context, FastMCP

board = FastMCP("board")
NOTES = {"n1": "Old"}


async def find(note_id: str) -> str:
    if note_id not in NOTES:
        raise ValueError(f"Note with ID '{note_id}' not found.")
    return NOTES[note_id]


@board.tool()
async def rename(note_id: str, title: str, ctx: Context) -> str:
    existing = await find(note_id)
    if title == existing:
        return f"No changes detected for note '{existing}'."
    result = await ctx.elicit(f"Rename note '{existing}' to '{title}'?", response_type=None)
    if result.action != "accept":
        return "Note update cancelled."
    NOTES[note_id] = title
    return f"renamed {existing} -> {title}"
"""


def test_the_empty_form_after_an_awaited_lookup(tmp_path: Path, fastmcp3_python: str) -> None:
    """apple-reminders' `update_reminder` / `delete_reminder` (reminders.py:219/267): the tool awaits a
    lookup that raises for an unknown id, returns early when nothing changes, then asks. The fixed
    server answers every call as the original on fastmcp 3.4 in both eras, and an accepted rename is
    written once (the next identical rename finds no change) though the lookup runs once per round."""
    before = _project(tmp_path / "before", NOTES, ["fastmcp>=3.2,<4"])
    root = _project(tmp_path, NOTES, ["fastmcp>=3.2,<4"])
    res = _port(root)
    assert res.exception is None and res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert [(f["rule"], f["line"]) for f in res.json["fixed"]] == [("MCP202", 18)]
    assert (root / "server.py").read_text(encoding="utf-8") == (FIXED / "notes_lookup_empty_form.fixed.py").read_text(
        encoding="utf-8"
    )
    calls = [
        {"tool": "rename", "arguments": {"note_id": "n1", "title": "Old"}},
        {"tool": "rename", "arguments": {"note_id": "n9", "title": "X"}},
        {"tool": "rename", "arguments": {"note_id": "n1", "title": "New"}},
        {"tool": "rename", "arguments": {"note_id": "n1", "title": "New"}},
    ]
    wants = {}
    for action in ("accept", "decline", "cancel"):
        reply = {"action": action, "content": {}} if action == "accept" else {"action": action}
        out = run_proof(
            fastmcp3_python, before / "server.py", "board", "legacy", [], calls, client={"elicitation": reply}
        )
        wants[action] = want = [(c["is_error"], c["text"]) for c in out["calls"]]
        for mode in ("legacy", "modern"):
            got = run_proof(sys.executable, root / "server.py", "board", mode, [], calls, client={"elicitation": reply})
            assert [(c["is_error"], c["text"]) for c in got["calls"]] == want, (mode, action)
    unknown = (True, ["Error calling tool 'rename': Note with ID 'n9' not found."])
    same = (False, ["No changes detected for note 'Old'."])
    assert wants["accept"] == [
        same,
        unknown,
        (False, ["renamed Old -> New"]),
        (False, ["No changes detected for note 'New'."]),
    ]
    assert wants["decline"] == [same, unknown, (False, ["Note update cancelled."]), (False, ["Note update cancelled."])]
    assert wants["cancel"] == wants["decline"]

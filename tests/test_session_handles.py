"""MCP601's fix: state keyed on the client's session moves under a handle the server mints
(``mcpmigrate/codemods/handles.py``; specification/2026-07-28/server/tools, Stateful Tools).

Proven by running (``tests/proof/run_server.py``): before the fix, two ``add_note`` calls and a
``list_notes`` keep the notes on mcp 1.27 (one session per connection) and lose them on mcp 2.3
in both eras (``ctx.session`` is built per request); after it, on mcp 1.27 and on mcp 2.3 in both
eras, notes added under a minted handle are listed under it, another handle sees none, and a
handle the server never minted is a tool error that says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli, findings_of
from tests.proof import run_proof

BEFORE = '''from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("notes")
notes_by_session: dict[int, list[str]] = {}


@mcp.tool()
async def add_note(text: str, ctx: Context) -> str:
    """Add a note."""
    notes_by_session.setdefault(id(ctx.session), []).append(text)
    return f"{len(notes_by_session[id(ctx.session)])} notes"


@mcp.tool()
async def list_notes(ctx: Context) -> str:
    return ",".join(notes_by_session.get(id(ctx.session), []))


@mcp.tool()
def echo(text: str) -> str:
    return text
'''

AFTER = '''from secrets import token_urlsafe
from typing import Annotated

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from pydantic import Field

mcp = FastMCP("notes")
notes_by_session: dict[int, list[str]] = {}


_handles: set[str] = set()


@mcp.tool()
def open_handle() -> str:
    """Start new state and return its handle: pass it as `handle` to `add_note`, `list_notes`. Handles last until the server restarts."""
    handle = token_urlsafe(16)
    _handles.add(handle)
    return handle


@mcp.tool()
async def add_note(
    handle: Annotated[
        str,
        Field(
            description="Handle returned by `open_handle`: the state this call works on."
        ),
    ],
    text: str,
    ctx: Context,
) -> str:
    """Add a note."""
    if handle not in _handles:
        raise ToolError(
            f"Unknown or expired handle {handle!r}: call `open_handle` for a new one."
        )
    notes_by_session.setdefault(handle, []).append(text)
    return f"{len(notes_by_session[handle])} notes"


@mcp.tool()
async def list_notes(
    handle: Annotated[
        str,
        Field(
            description="Handle returned by `open_handle`: the state this call works on."
        ),
    ],
    ctx: Context,
) -> str:
    if handle not in _handles:
        raise ToolError(
            f"Unknown or expired handle {handle!r}: call `open_handle` for a new one."
        )
    return ",".join(notes_by_session.get(handle, []))


@mcp.tool()
def echo(text: str) -> str:
    return text
'''

MCP2 = (
    ("from mcp.server.fastmcp import Context, FastMCP", "from mcp.server.mcpserver import Context, MCPServer"),
    ("from mcp.server.fastmcp.exceptions import ToolError", "from mcp.server.mcpserver.exceptions import ToolError"),
    ('FastMCP("notes")', 'MCPServer("notes")'),
)

BEFORE_CALLS = [
    {"tool": "add_note", "arguments": {"text": "a"}},
    {"tool": "add_note", "arguments": {"text": "b"}},
    {"tool": "list_notes", "arguments": {}},
]
AFTER_CALLS = [
    {"tool": "open_handle", "arguments": {}},
    {"tool": "open_handle", "arguments": {}},
    {"tool": "add_note", "arguments": {"handle": "{result:0}", "text": "a"}},
    {"tool": "add_note", "arguments": {"handle": "{result:0}", "text": "b"}},
    {"tool": "list_notes", "arguments": {"handle": "{result:0}"}},
    {"tool": "list_notes", "arguments": {"handle": "{result:1}"}},
    {"tool": "list_notes", "arguments": {"handle": "bsk_not_minted"}},
]
UNKNOWN = "Unknown or expired handle 'bsk_not_minted': call `open_handle` for a new one."


def _mcp2(source: str) -> str:
    for old, new in MCP2:
        source = source.replace(old, new)
    return source


def _fixed(tmp_path: Path, source: str) -> tuple[Path, Path]:
    before, after = tmp_path / "before.py", tmp_path / "server.py"
    before.write_text(source)
    after.write_text(source)
    check = cli(["check", "--output-format", "json", "--select", "MCP601", "server.py"], tmp_path)
    assert findings_of(check) == [("MCP601", 10), ("MCP601", 16)], check.stdout
    labels = {f["fix"]["safety"] for f in json.loads(check.stdout)["findings"]}
    assert labels == {"unsafe"}
    cli(["fix", "--select", "MCP601", "server.py"], tmp_path)
    assert after.read_text() == source  # unsafe: not applied without --unsafe-fixes
    cli(["fix", "--unsafe-fixes", "--select", "MCP601", "server.py"], tmp_path)
    return before, after


def _answers(python: str, file: Path, mode: str, calls: list[dict]) -> list:
    out = run_proof(python, file, "mcp", mode, [], calls)
    return [(c["is_error"], c["text"], c["error"]) for c in out["calls"]]


def _after_ok(answers: list) -> None:
    (_, [h1], _), (_, [h2], _) = answers[:2]
    assert len(h1) >= 20 and h1 != h2
    assert answers[2:6] == [
        (False, ["1 notes"], None),
        (False, ["2 notes"], None),
        (False, ["a,b"], None),
        (False, [""], None),
    ]
    is_error, [text], error = answers[6]
    assert is_error is True and error is None and text.endswith(UNKNOWN)


def test_fix_mints_a_handle_exact_output_and_nothing_left(tmp_path: Path) -> None:
    _before, after = _fixed(tmp_path, BEFORE)
    assert after.read_text() == AFTER
    again = cli(["check", "--select", "MCP601", "server.py"], tmp_path)
    assert again.exit_code == 0, again.stdout


def test_handles_keep_state_on_mcp1_where_the_session_did(tmp_path: Path, legacy_python: str) -> None:
    before, after = _fixed(tmp_path, BEFORE)
    assert _answers(legacy_python, before, "legacy", BEFORE_CALLS) == [
        (False, ["1 notes"], None),
        (False, ["2 notes"], None),
        (False, ["a,b"], None),
    ]
    _after_ok(_answers(legacy_python, after, "legacy", AFTER_CALLS))


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_handles_keep_state_on_mcp2_where_the_session_lost_it(tmp_path: Path, mcp2_python: str, mode: str) -> None:
    before, after = _fixed(tmp_path, _mcp2(BEFORE))
    assert after.read_text() == _mcp2(AFTER)
    # mcp 2.3 builds ctx.session per request in both eras: the session-keyed notes are gone. The
    # proof keys on the session object, not its id(): a collected session's id() may be reused by
    # the next request's, which then finds the other call's notes ("2 notes" in a CI run) — the
    # state leaks instead of resetting, at random, so only the object key answers the same each run
    keyed_on_object = tmp_path / "before_object_key.py"
    keyed_on_object.write_text(before.read_text().replace("id(ctx.session)", "ctx.session"))
    got = _answers(mcp2_python, keyed_on_object, mode, BEFORE_CALLS)
    assert got == [(False, ["1 notes"], None), (False, ["1 notes"], None), (False, [""], None)]
    out = run_proof(mcp2_python, after, "mcp", mode, [], AFTER_CALLS)
    assert out["protocol_version"] == ("2026-07-28" if mode == "modern" else "2025-11-25")
    _after_ok([(c["is_error"], c["text"], c["error"]) for c in out["calls"]])
    schemas = {t["name"]: t["inputSchema"] for t in out["tools"]}
    assert schemas["open_handle"]["properties"] == {}
    for tool in ("add_note", "list_notes"):
        prop = schemas[tool]["properties"]["handle"]
        assert prop["type"] == "string" and "open_handle" in prop["description"]
        assert "handle" in schemas[tool]["required"]
    assert "handle" not in schemas["echo"]["properties"]


FASTMCP4 = """from fastmcp import Context, FastMCP

mcp = FastMCP("shop")
carts: dict[str | None, list[str]] = {}


@mcp.tool(name="add-item")
def add_item(item: str, ctx: Context) -> str:
    sid = ctx.session_id
    carts.setdefault(sid, []).append(item)
    return f"{len(carts[sid])} items"


@mcp.tool
def show_cart(ctx: Context) -> str:
    return ",".join(carts.get(ctx.session_id, []))
"""


def test_fastmcp4_session_id_key_in_both_eras(tmp_path: Path, mcp2_python: str) -> None:
    """fastmcp 4 keeps ``ctx.session_id`` per connection on a legacy one and per request on a
    2026-07-28 one; the handle keeps the cart in both. The registered name (``add-item``) is what
    the new tool's description names, and the no-parentheses ``@mcp.tool`` is kept."""
    (tmp_path / "server.py").write_text(FASTMCP4)
    before = tmp_path / "before.py"
    before.write_text(FASTMCP4)
    cli(["fix", "--unsafe-fixes", "--select", "MCP601", "server.py"], tmp_path)
    after = (tmp_path / "server.py").read_text()
    assert "from fastmcp.exceptions import ToolError\n" in after
    assert "    sid = handle\n" in after and "carts.get(handle, [])" in after
    assert "pass it as `handle` to `add-item`, `show_cart`." in after
    assert "@mcp.tool\ndef show_cart(\n    handle: Annotated[\n        str,\n        Field(\n" in after
    calls = [
        {"tool": "open_handle", "arguments": {}},
        {"tool": "add-item", "arguments": {"handle": "{result:0}", "item": "a"}},
        {"tool": "add-item", "arguments": {"handle": "{result:0}", "item": "b"}},
        {"tool": "show_cart", "arguments": {"handle": "{result:0}"}},
        {"tool": "show_cart", "arguments": {"handle": "bsk_not_minted"}},
    ]
    before_calls = [
        {"tool": "add-item", "arguments": {"item": "a"}},
        {"tool": "add-item", "arguments": {"item": "b"}},
        {"tool": "show_cart", "arguments": {}},
    ]
    assert _answers(mcp2_python, before, "legacy", before_calls)[2] == (False, ["a,b"], None)
    assert _answers(mcp2_python, before, "modern", before_calls)[2] == (False, [""], None)
    for mode in ("legacy", "modern"):
        got = _answers(mcp2_python, tmp_path / "server.py", mode, calls)
        assert got[1:4] == [(False, ["1 items"], None), (False, ["2 items"], None), (False, ["a,b"], None)]
        assert got[4] == (True, [UNKNOWN], None)


def test_one_site_in_a_helper_keeps_the_whole_module_manual(tmp_path: Path) -> None:
    """Half the state under a handle and half under the session would be worse than either."""
    source = BEFORE.replace(
        '@mcp.tool()\nasync def list_notes(ctx: Context) -> str:\n    return ",".join(notes_by_session.get(id(ctx.session), []))\n',
        "def _mine(ctx: Context) -> list[str]:\n    return notes_by_session.get(id(ctx.session), [])\n\n\n"
        '@mcp.tool()\nasync def list_notes(ctx: Context) -> str:\n    return ",".join(_mine(ctx))\n',
    )
    assert source != BEFORE
    (tmp_path / "server.py").write_text(source)
    check = cli(["check", "--output-format", "json", "--select", "MCP601", "server.py"], tmp_path)
    found = json.loads(check.stdout)["findings"]
    assert [(f["line"], f["fix"]) for f in found] == [(10, None), (15, None)]
    assert all("a handle has to be designed by hand" in f["manual"] for f in found)
    cli(["fix", "--unsafe-fixes", "--select", "MCP601", "server.py"], tmp_path)
    assert (tmp_path / "server.py").read_text() == source

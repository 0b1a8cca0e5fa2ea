"""The ``config`` fix of a roots request on fastmcp 4 (field case: semantic-cache-mcp at 2050040, a
fastmcp 3 server that remembers the first root of the first call in module state): fastmcp 4 serves
both eras and its ``ctx.session`` is mcp 2.x's session, so the request stays on legacy connections
(``ctx.session.can_send_request``) and only 2026-07-28 ones read the setting, as on mcp 2.x. fastmcp
3's ``ctx.list_roots()``, which fastmcp 4 removed, is kept as ``(await
ctx.session.list_roots()).roots`` when the run ports the project (``--target-sdk fastmcp4``): safe,
so the port goes through without ``--unsafe-fixes``. Run on fastmcp 3.4 (before) and 4.2 (after,
in both eras)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import run_proof

NOTES = '''\
from pathlib import Path

from fastmcp import Context, FastMCP

notes = FastMCP("notes")

_workspace: Path | None = None
_asked = False


async def _workspace_of(ctx: Context) -> Path | None:
    global _workspace, _asked
    if not _asked:
        try:
            roots = await ctx.list_roots()
            if roots:
                _workspace = Path(str(roots[0].uri).removeprefix("file://"))
        except Exception:
            pass
        _asked = True
    return _workspace


@notes.tool()
async def read_note(name: str, ctx: Context) -> str:
    """Read a note of the workspace (a relative name resolves against it)."""
    base = await _workspace_of(ctx)
    path = base / name if base is not None else Path(name).resolve()
    return path.read_text() if path.exists() else f"no note {name}"
'''

FIXED = '''\
import os
from pathlib import Path

from fastmcp import Context, FastMCP
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_REQUEST, ListRootsResult, Root

notes = FastMCP("notes")

_workspace: Path | None = None
_asked = False


# The folders this server may work in come from its configuration, no longer from the
# client's roots (deprecated in MCP 2026-07-28): absolute paths joined with os.pathsep,
# read once at start; other entries are ignored. Unset, a call fails as it did for a
# client without roots.
NOTES_ROOTS = os.environ.get("NOTES_ROOTS")


def _configured_roots() -> ListRootsResult:
    """The roots the operator configured in NOTES_ROOTS, answered as the client did."""
    if NOTES_ROOTS is None:
        raise MCPError(
            INVALID_REQUEST,
            "NOTES_ROOTS is not set: set it to the folders this server may work in",
        )
    paths = [p for p in NOTES_ROOTS.split(os.pathsep) if os.path.isabs(p)]
    return ListRootsResult(roots=[Root(uri=Path(p).as_uri()) for p in paths])


async def _workspace_of(ctx: Context) -> Path | None:
    global _workspace, _asked
    if not _asked:
        try:
            roots = (
                (await ctx.session.list_roots()).roots
                if ctx.session.can_send_request
                else _configured_roots().roots
            )
            if roots:
                _workspace = Path(str(roots[0].uri).removeprefix("file://"))
        except Exception:
            pass
        _asked = True
    return _workspace
'''

KEPT = (
    "answer the roots request on 2026-07-28 connections from the `NOTES_ROOTS` environment variable (server "
    "configuration, read once at start; unset, those calls fail as they do today), and keep it on legacy "
    "connections (`ctx.session.can_send_request`)"
)


def _project(tmp_path: Path, source: str, fastmcp: str) -> tuple[Path, list[object]]:
    """``tmp_path/notes`` holding ``source`` as server.py, pinned to ``fastmcp``, with ``strategy =
    "config"`` chosen; and the MCP101 findings ``check`` reports there (``--target-sdk fastmcp4``
    when the pin is fastmcp 3's)."""
    proj = tmp_path / "notes"
    proj.mkdir()
    (proj / "pyproject.toml").write_text(
        f'[project]\nname = "notes"\nversion = "0.1.0"\ndependencies = ["{fastmcp}"]\n\n'
        '[tool.mcpmigrate]\nstrategy = "config"\n',
        encoding="utf-8",
    )
    (proj / "server.py").write_text(source, encoding="utf-8")
    port = ["--target-sdk", "fastmcp4"] if fastmcp.startswith("fastmcp>=3") else []
    report = cli(["check", "--no-cache", *port, "--output-format", "json", "."], proj).json
    return proj, [(f["line"], f["fix"]) for f in report["findings"] if f["rule"] == "MCP101"]


def _texts(python: str, file: Path, mode: str, shelf: Path, tool: str, arguments: dict[str, str]) -> list[object]:
    """The answer of one call of ``tool`` to the server ``notes`` of ``file``, on a client whose root
    is ``shelf``: its texts, or its error."""
    out = run_proof(python, file, "notes", mode, [shelf.as_uri()], [{"tool": tool, "arguments": arguments}])
    return [c["text"] if c["error"] is None else c["error"] for c in out["calls"]]


def test_the_port_keeps_the_request_for_legacy_connections(
    tmp_path: Path, fastmcp3_python: str, mcp2_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    proj, found = _project(tmp_path, NOTES, "fastmcp>=3.2")
    assert found == [(15, {"safety": "safe", "strategy": "config", "description": KEPT})]
    res = cli(["fix", "--no-cache", "--target-sdk", "fastmcp4", "."], proj)
    assert res.exception is None, res
    after = (proj / "server.py").read_text(encoding="utf-8")
    assert after == FIXED + NOTES[NOTES.index("\n\n@notes.tool()") :]
    assert 'dependencies = ["fastmcp>=4.2,<5"]' in (proj / "pyproject.toml").read_text(encoding="utf-8")

    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "todo.txt").write_text("water the plants")
    before = tmp_path / "before.py"
    before.write_text(NOTES, encoding="utf-8")

    def texts(python: str, file: Path, mode: str) -> list[object]:
        return _texts(python, file, mode, shelf, "read_note", {"name": "todo.txt"})

    monkeypatch.delenv("NOTES_ROOTS", raising=False)
    assert texts(fastmcp3_python, before, "legacy") == [["water the plants"]]
    # a legacy client keeps its roots without the setting; a 2026-07-28 one takes the `except` path
    assert texts(mcp2_python, proj / "server.py", "legacy") == [["water the plants"]]
    assert texts(mcp2_python, proj / "server.py", "modern") == [["no note todo.txt"]]
    monkeypatch.setenv("NOTES_ROOTS", str(shelf))
    assert texts(mcp2_python, proj / "server.py", "modern") == [["water the plants"]]
    assert texts(mcp2_python, proj / "server.py", "legacy") == [["water the plants"]]


WHERE = '''\
from fastmcp import Context, FastMCP
from mcp.shared.exceptions import MCPError

notes = FastMCP("notes")


@notes.tool()
async def where(ctx: Context) -> str:
    """The first folder the client shares."""
    try:
        result = await ctx.session.list_roots()
    except MCPError:
        return "no folders shared"
    return str(result.roots[0].uri) if result.roots else "none"
'''


def test_a_fastmcp4_session_request_keeps_its_fallback(
    tmp_path: Path, mcp2_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fastmcp 4 code (pinned `fastmcp>=4.2`) asking through `ctx.session`: kept on legacy
    connections; on 2026-07-28 with the setting unset the helper raises the `MCPError` the request
    raised there (`NoBackChannelError`), so the `except MCPError` fallback still answers."""
    proj, found = _project(tmp_path, WHERE, "fastmcp>=4.2")
    assert found == [(11, {"safety": "safe", "strategy": "config", "description": KEPT})]
    assert cli(["fix", "--no-cache", "."], proj).exception is None
    after = (proj / "server.py").read_text(encoding="utf-8")
    assert (
        "        result = (\n            await ctx.session.list_roots()\n            if ctx.session.can_send_request\n"
        "            else _configured_roots()\n        )\n"
    ) in after
    assert "        raise MCPError(\n            INVALID_REQUEST,\n" in after
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    before = tmp_path / "before.py"
    before.write_text(WHERE, encoding="utf-8")

    def texts(file: Path, mode: str) -> list[object]:
        return _texts(mcp2_python, file, mode, shelf, "where", {})

    monkeypatch.delenv("NOTES_ROOTS", raising=False)
    assert texts(before, "legacy") == texts(proj / "server.py", "legacy") == [[shelf.as_uri()]]
    assert texts(before, "modern") == texts(proj / "server.py", "modern") == [["no folders shared"]]
    monkeypatch.setenv("NOTES_ROOTS", str(shelf))
    assert texts(proj / "server.py", "modern") == [[shelf.as_uri()]]

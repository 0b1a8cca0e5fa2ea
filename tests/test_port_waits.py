"""An unsafe fix planned on code the port is still rewriting waits for the ported code.

``--unsafe-fixes`` only adds fixes: it never trades a safe form of a fix for an unsafe one. The
roots ``config`` fix of an mcp 1.x tool has a safe dual-era form once the code is on mcp 2.x (the
request stays on legacy connections), and only an unsafe config-only form on the 1.x code; a
``--target-sdk mcp2 --unsafe-fixes`` run gives the same file as the run without it, and the port
answers as the original on legacy connections and from the setting on 2026-07-28 ones.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import run_proof

DATA = Path(__file__).resolve().parent / "data" / "port"
SOURCE = DATA / "roots_waits.py"
FIXED = DATA / "roots_waits.fixed.py"
NO_BACK_CHANNEL = "this transport context has no back-channel for server-initiated requests."


def _fixed(tmp: Path, *flags: str) -> tuple[Path, dict]:
    where = tmp / "notes"
    where.mkdir()
    shutil.copyfile(SOURCE, where / "server.py")
    (where / "pyproject.toml").write_text('[project]\nname="c"\nversion="0"\ndependencies=["mcp>=1.20,<2"]\n')
    args = ["fix", "--target-sdk", "mcp2", "--strategy", "config", *flags, "--output-format", "json", "."]
    res = cli(args, where)
    assert res.exception is None, str(res)
    again = cli(args, where)
    assert again.json["fixed"] == [] and again.json["findings"] == [], str(again)
    return where / "server.py", res.json


@pytest.mark.parametrize("flags", [(), ("--unsafe-fixes",)])
def test_the_roots_config_fix_has_its_safe_dual_era_form_with_or_without_unsafe_fixes(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    target, run = _fixed(tmp_path, *flags)
    assert target.read_text(encoding="utf-8") == FIXED.read_text(encoding="utf-8")
    fixed = {f["rule"]: f for f in run["fixed"]}
    assert sorted(fixed) == ["MCP101", "MCP501"]
    roots = fixed["MCP101"]
    assert (roots["line"], roots["fix"]["safety"]) == (19, "safe")
    assert roots["fix"]["description"] == (
        "answer the roots request on 2026-07-28 connections from the `NOTES_ROOTS` environment variable "
        "(server configuration, read once at start; unset, those calls fail as they do today), and keep it "
        "on legacy connections (`ctx.session.can_send_request`)"
    )
    assert run["findings"] == [] and run["errors"] == []


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_port_answers_as_the_original(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mcp 1.27 reads the note under the client's root; the port reads it under the client's root
    on a legacy connection (the setting unset: it is not used there) and under ``NOTES_ROOTS`` on
    a 2026-07-28 one, where without the setting the call fails as the request did before."""
    target, _run = _fixed(tmp_path, "--unsafe-fixes")
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "a.txt").write_text("milk, eggs", encoding="utf-8")
    calls = [{"tool": "read_note", "arguments": {"name": "a.txt"}}]
    roots = [shelf.as_uri()]
    old = run_proof(legacy_python, SOURCE, "notes", "legacy", roots, calls)
    assert [c["text"] for c in old["calls"]] == [["milk, eggs"]]
    if mode == "legacy":
        new = run_proof(mcp2_python, target, "notes", mode, roots, calls)
        assert [c["text"] for c in new["calls"]] == [["milk, eggs"]]
        return
    # the port without the roots fix: on 2026-07-28 the request raised NoBackChannelError, an
    # MCPError (INVALID_REQUEST) the client got as a JSON-RPC error, not as a tool result
    text = target.read_text(encoding="utf-8")
    asked = "(\n        await ctx.session.list_roots()\n        if ctx.session.can_send_request\n        else _configured_roots()\n    )"
    assert asked in text
    before = tmp_path / "before.py"
    before.write_text(text.replace(asked, "await ctx.session.list_roots()"), encoding="utf-8")
    failed = run_proof(mcp2_python, before, "notes", mode, roots, calls)["calls"][0]
    assert (failed["is_error"], failed["error"]) == (
        None,
        "NoBackChannelError: Cannot send 'roots/list': " + NO_BACK_CHANNEL,
    )
    # unset, the fix fails the same way (an MCPError with INVALID_REQUEST, so an `except MCPError`
    # fallback still runs), and the client reads what the operator must set
    unset = run_proof(mcp2_python, target, "notes", mode, roots, calls)["calls"][0]
    assert (unset["is_error"], unset["error"]) == (
        None,
        "MCPError: NOTES_ROOTS is not set: set it to the folders this server may work in",
    )
    monkeypatch.setenv("NOTES_ROOTS", str(shelf))
    new = run_proof(mcp2_python, target, "notes", mode, [], calls)
    assert [c["text"] for c in new["calls"]] == [["milk, eggs"]]


def test_a_manual_request_with_the_same_text_does_not_undo_the_wait(tmp_path: Path) -> None:
    """A second roots request of the tool that stays manual (a lambda, never awaited there) has the
    same message as the one that waited: it was manual from the start, so it does not count as a
    waited fix left unfixed, and the run keeps the dual-era form (review of lead36)."""
    where = tmp_path / "notes"
    where.mkdir()
    source = SOURCE.read_text(encoding="utf-8").replace(
        "    result = await ctx.session.list_roots()\n",
        "    result = await ctx.session.list_roots()\n"
        "    later = lambda: ctx.session.list_roots()  # noqa: E731\n"
        "    notes.later = later\n",
    )
    (where / "server.py").write_text(source, encoding="utf-8")
    (where / "pyproject.toml").write_text('[project]\nname="c"\nversion="0"\ndependencies=["mcp>=1.20,<2"]\n')
    args = ["fix", "--target-sdk", "mcp2", "--strategy", "config", "--unsafe-fixes", "--output-format", "json", "."]
    run = cli(args, where).json
    text = (where / "server.py").read_text(encoding="utf-8")
    assert "        await ctx.session.list_roots()\n        if ctx.session.can_send_request\n" in text
    assert [(f["rule"], f["fix"]["safety"]) for f in run["fixed"] if f["rule"] == "MCP101"] == [("MCP101", "safe")]
    assert [(f["rule"], f["line"]) for f in run["findings"]] == [("MCP101", 45)]  # the lambda, in the fixed text

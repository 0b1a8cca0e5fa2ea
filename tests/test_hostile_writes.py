"""``fix`` under hostile conditions at write time (README.md, "Fix safety"): an edit saved while
the run goes on is never overwritten, nothing is written through a symlink to a file outside the
paths given, and a port is written whole or not at all — a read-only module or a write that
fails half-way leaves every file and the pins as they were.

The races are made deterministic: the file is edited in-process between the analysis and the
write (a wrapped ``worker`` or port ``settle``), never by a second process racing a sleep.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mcpmigrate import engine
from mcpmigrate import files as F
from mcpmigrate.codemods.port import project as port_project
from tests.helpers import MCP101_SERVER, MCP104_FIXED, MCP104_SOURCE, cli, findings_of, write_pyproject

CHANGED = "changed during the run; not rewritten (run fix again)"
SAVED = '\n\ndef added_by_the_user() -> str:\n    return "saved while fix ran"\n'
FASTMCP_SERVER = (
    'from mcp.server.fastmcp import FastMCP\n\nsrv = FastMCP("{n}")\n\n\n@srv.tool()\ndef ping_{n}() -> str:\n'
    '    return "{n}"\n'
)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _leftovers(root: Path) -> list[str]:
    return [p.name for p in root.rglob("*") if p.name.endswith(".mcpmigrate.tmp")]


def _errors(res) -> list[tuple[str, str]]:
    return [(e["path"], e["message"]) for e in res.json["errors"]]


def _trio(root: Path) -> None:
    """user-02's project: three FastMCP modules of one package pinned to mcp 1.x."""
    (root / "pyproject.toml").write_text('[project]\nname = "trio"\nversion = "0"\ndependencies = ["mcp>=1.20"]\n')
    (root / "pkg").mkdir()
    for n in ("alpha", "beta", "gamma"):
        (root / "pkg" / f"{n}.py").write_text(FASTMCP_SERVER.format(n=n))


# -- compare before replace ---------------------------------------------------------------------
def test_edit_saved_during_fix_survives_and_fails_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edited, other = tmp_path / "edited.py", tmp_path / "other.py"
    edited.write_text(MCP104_SOURCE)
    other.write_text(MCP104_SOURCE)
    analyse = engine.worker

    def analyse_then_save(task: tuple):  # the user saves edited.py once the run has read and fixed it
        res = analyse(task)
        if res.display == "edited.py":
            with open(edited, "a") as fh:
                fh.write(SAVED)
        return res

    monkeypatch.setattr(engine, "worker", analyse_then_save)
    res = cli(["fix", "--output-format", "json", "."], tmp_path)
    assert edited.read_text() == MCP104_SOURCE + SAVED, "the edit saved during the run was overwritten"
    assert other.read_text() == MCP104_FIXED  # an unchanged file is written as usual
    assert _errors(res) == [("edited.py", CHANGED)]
    assert res.json["changed_files"] == ["other.py"]
    assert findings_of(res) == [("MCP104", 3)]  # edited.py's finding is reported, not fixed
    assert res.exit_code == 1
    assert _leftovers(tmp_path) == []

    monkeypatch.setattr(engine, "worker", analyse)
    again = cli(["fix", "."], tmp_path)  # "run fix again": the fix applies on top of the edit
    assert again.exit_code == 0, str(again)
    assert edited.read_text() == MCP104_FIXED + SAVED


def test_edit_saved_during_fix_text_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edited = tmp_path / "edited.py"
    edited.write_text(MCP104_SOURCE)
    analyse = engine.worker

    def analyse_then_save(task: tuple):
        res = analyse(task)
        edited.write_text("# rewritten by hand\n")
        return res

    monkeypatch.setattr(engine, "worker", analyse_then_save)
    res = cli(["fix", "edited.py"], tmp_path)
    assert edited.read_text() == "# rewritten by hand\n"
    assert f"error: edited.py: {CHANGED}" in res.stderr, str(res)
    assert "All checks passed" not in res.stdout and "Fixed" not in res.stdout
    assert res.exit_code == 1


def test_pin_file_edited_during_a_port_holds_the_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _trio(tmp_path)
    settle = port_project.settle
    added = 'optional-dependencies = {dev = ["pytest"]}\n'

    def settle_then_save(*args, **kwargs):  # pyproject.toml saved after the port planned its re-pin
        pins = settle(*args, **kwargs)
        with open(tmp_path / "pyproject.toml", "a") as fh:
            fh.write(added)
        return pins

    monkeypatch.setattr(port_project, "settle", settle_then_save)
    before = _snapshot(tmp_path)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json"], tmp_path)
    after = _snapshot(tmp_path)
    assert after.pop("pyproject.toml") == before.pop("pyproject.toml") + added.encode()
    assert after == before  # no module ported
    assert _errors(res) == [("pyproject.toml", f"blocks the port to mcp 2.x: {CHANGED}; nothing was written")]
    assert res.json["changed_files"] == [] and res.json["fixed"] == []
    assert res.exit_code == 1


def test_atomic_write_compares_before_replacing(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"read by the run\n")
    F.atomic_write(target, b"fixed\n", expected=b"read by the run\n")
    assert target.read_bytes() == b"fixed\n"
    target.write_bytes(b"saved meanwhile\n")
    with pytest.raises(F.ChangedOnDisk, match="changed during the run"):
        F.atomic_write(target, b"fixed again\n", expected=b"fixed\n")
    assert target.read_bytes() == b"saved meanwhile\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]
    assert F.write_problem(target, b"fixed\n") == CHANGED
    assert F.write_problem(target, b"saved meanwhile\n") is None


# -- stay inside --------------------------------------------------------------------------------
@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """user-04: ``project/link.py -> ../elsewhere/other_server.py`` (a roots request to fix) next
    to a file of the project's own with a fix."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    victim = elsewhere / "other_server.py"
    victim.write_text(MCP101_SERVER)
    os.symlink("../elsewhere/other_server.py", project / "link.py")
    (project / "own.py").write_text(MCP104_SOURCE)
    return project, victim


OUTSIDE = (
    "not rewritten: symlink to a file outside . (../elsewhere/other_server.py); "
    "name the link on the command line to fix its target"
)


def test_symlink_to_outside_is_checked_not_written(linked: tuple[Path, Path]) -> None:
    project, victim = linked
    res = cli(["fix", "--output-format", "json", "."], project)
    assert victim.read_text() == MCP101_SERVER, "a file outside the given path was rewritten"
    assert (project / "link.py").is_symlink()
    assert (project / "own.py").read_text() == MCP104_FIXED
    assert _errors(res) == [("link.py", OUTSIDE)]
    assert findings_of(res) == [("MCP101", 8)]  # checked: its finding is reported
    assert res.json["changed_files"] == ["own.py"]
    assert res.exit_code == 1

    text = cli(["fix", "."], project)
    assert f"error: link.py: {OUTSIDE}" in text.stderr, str(text)
    assert "left   link.py:8:20 MCP101" in text.stdout  # listed with what is left for a human


def test_symlink_to_outside_is_left_out_of_the_diff(linked: tuple[Path, Path]) -> None:
    project, victim = linked
    (project / "own.py").write_text("x = 1\n")
    res = cli(["fix", "--diff", "."], project)
    assert res.stdout == ""
    assert f"error: link.py: {OUTSIDE}" in res.stderr, str(res)
    assert victim.read_text() == MCP101_SERVER


def test_symlink_named_on_the_command_line_is_followed(linked: tuple[Path, Path]) -> None:
    project, victim = linked
    res = cli(["fix", "--output-format", "json", "link.py"], project)
    assert res.json["errors"] == [] and res.json["changed_files"] == ["link.py"]
    assert (project / "link.py").is_symlink()
    assert "    root: Annotated[\n        str,\n" in victim.read_text()


def test_symlink_inside_the_project_root_is_written(tmp_path: Path, linked: tuple[Path, Path]) -> None:
    """The target is outside the path given (``project``) but inside the configured project root."""
    project, victim = linked
    write_pyproject(tmp_path, "")
    res = cli(["fix", "--output-format", "json", "project"], tmp_path)
    assert res.json["errors"] == []
    assert sorted(res.json["changed_files"]) == ["project/link.py", "project/own.py"]
    assert "    root: Annotated[\n        str,\n" in victim.read_text()


def test_symlink_inside_the_given_path_is_written(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "caps.py"
    target.write_text(MCP104_SOURCE)
    os.symlink("real/caps.py", tmp_path / "alias.py")  # walked first, but the file has its own name
    res = cli(["fix", "--output-format", "json", "."], tmp_path)
    assert res.json["errors"] == [] and res.json["changed_files"] == ["real/caps.py"]
    assert target.read_text() == MCP104_FIXED and (tmp_path / "alias.py").is_symlink()


# -- all or nothing -----------------------------------------------------------------------------
def test_read_only_module_holds_the_whole_port(tmp_path: Path) -> None:
    """user-02: one module of the port cannot be written: no module is ported, no pin moves."""
    _trio(tmp_path)
    beta = tmp_path / "pkg" / "beta.py"
    beta.chmod(0o444)
    before = _snapshot(tmp_path)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json"], tmp_path)
    assert _snapshot(tmp_path) == before
    assert stat.S_IMODE(beta.stat().st_mode) == 0o444
    blocked = "blocks the port to mcp 2.x: cannot write the fix: file is read-only; nothing was written"
    assert _errors(res) == [("pkg/beta.py", blocked)]
    assert res.json["changed_files"] == [] and res.json["fixed"] == []
    assert findings_of(res) == [("MCP501", 1), ("MCP501", 1), ("MCP501", 1)]
    assert res.exit_code == 1

    text = cli(["fix", "--target-sdk", "mcp2"], tmp_path)
    assert f"error: pkg/beta.py: {blocked}" in text.stderr, str(text)
    assert "pinned" not in text.stdout and "Fixed" not in text.stdout
    assert _snapshot(tmp_path) == before


def _failing_write(monkeypatch: pytest.MonkeyPatch, failing: set[int]) -> list[tuple[str, bytes]]:
    """``atomic_write`` fails ("No space left on device") on the calls numbered in ``failing``
    (1-based); returns the log of calls (file name, bytes)."""
    write = F.atomic_write
    calls: list[tuple[str, bytes]] = []

    def flaky(path: Path, data: bytes, expected: bytes | None = None) -> None:
        calls.append((Path(path).name, data))
        if len(calls) in failing:
            raise OSError(28, "No space left on device")
        write(path, data, expected)

    monkeypatch.setattr(F, "atomic_write", flaky)
    return calls


def test_write_failing_mid_port_restores_the_files_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _trio(tmp_path)
    before = _snapshot(tmp_path)
    calls = _failing_write(monkeypatch, {2})
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json"], tmp_path)
    # alpha written, beta fails, alpha put back; gamma and the pin never written
    assert [(name, b"MCPServer" in data) for name, data in calls] == [
        ("alpha.py", True),
        ("beta.py", True),
        ("alpha.py", False),
    ]
    assert _snapshot(tmp_path) == before
    assert _errors(res) == [
        (
            "pkg/beta.py",
            "blocks the port to mcp 2.x: cannot write the fix: No space left on device; "
            "nothing was written (1 file already written was restored)",
        )
    ]
    assert res.json["changed_files"] == [] and res.json["fixed"] == []
    assert res.exit_code == 1
    assert _leftovers(tmp_path) == []


def test_pin_write_failing_restores_every_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _trio(tmp_path)
    before = _snapshot(tmp_path)
    calls = _failing_write(monkeypatch, {4})  # the pin is written last
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json"], tmp_path)
    assert [name for name, _data in calls] == ["alpha.py", "beta.py", "gamma.py", "pyproject.toml"] + [
        "gamma.py",
        "beta.py",
        "alpha.py",
    ]
    assert _snapshot(tmp_path) == before
    assert _errors(res) == [
        (
            "pyproject.toml",
            "blocks the port to mcp 2.x: cannot write the fix: No space left on device; "
            "nothing was written (3 files already written were restored)",
        )
    ]


def test_failed_restore_is_reported_not_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _trio(tmp_path)
    _failing_write(monkeypatch, {2, 3})  # beta fails, then putting alpha back fails too
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json"], tmp_path)
    assert "MCPServer" in (tmp_path / "pkg" / "alpha.py").read_text()
    assert (tmp_path / "pyproject.toml").read_text().count("mcp>=1.20") == 1
    assert _errors(res) == [
        (
            "pkg/alpha.py",
            "holds the port's rewrite: restoring it failed: cannot write the fix: No space left on device",
        ),
        (
            "pkg/beta.py",
            "blocks the port to mcp 2.x: cannot write the fix: No space left on device; the port is half "
            "written (restore the files whose restore failed from version control)",
        ),
    ]
    assert res.exit_code == 1


def test_plain_fix_writes_file_by_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a port each file is written on its own (README.md, "Fix safety"): a failed write
    keeps that file's findings, the other files are fixed."""
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_text(MCP104_SOURCE)
    _failing_write(monkeypatch, {2})
    res = cli(["fix", "--output-format", "json", "."], tmp_path)
    assert [(p.name, p.read_text() == MCP104_FIXED) for p in sorted(tmp_path.glob("*.py"))] == [
        ("a.py", True),
        ("b.py", False),
        ("c.py", True),
    ]
    assert _errors(res) == [("b.py", "cannot write the fix: No space left on device")]
    assert res.json["changed_files"] == ["a.py", "c.py"]
    assert findings_of(res) == [("MCP104", 3)]


def test_interrupted_port_puts_the_written_files_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C between two writes of a port: the files already written are put back, then the
    interruption goes on."""
    from mcpmigrate.config import load_config
    from mcpmigrate.engine import Options, run

    _trio(tmp_path)
    before = _snapshot(tmp_path)
    write = F.atomic_write
    calls: list[str] = []

    def interrupted(path: Path, data: bytes, expected: bytes | None = None) -> None:
        calls.append(Path(path).name)
        if len(calls) == 3:
            raise KeyboardInterrupt
        write(path, data, expected)

    monkeypatch.setattr(F, "atomic_write", interrupted)
    config = load_config(start=tmp_path)
    config.target_sdk = "mcp2"
    with pytest.raises(KeyboardInterrupt):
        run([tmp_path], config, Options(mode="fix"), cwd=tmp_path)
    assert calls == ["alpha.py", "beta.py", "gamma.py", "beta.py", "alpha.py"]
    assert _snapshot(tmp_path) == before
    assert _leftovers(tmp_path) == []


def test_dependency_file_symlinked_outside_holds_the_port(tmp_path: Path) -> None:
    """A ``pyproject.toml`` that is a link to a shared file elsewhere: the port would re-pin every
    project that shares it, so it writes nothing."""
    project = tmp_path / "project"
    project.mkdir()
    _trio(project)
    shared = tmp_path / "shared.toml"
    (project / "pyproject.toml").rename(shared)
    os.symlink("../shared.toml", project / "pyproject.toml")
    before = _snapshot(tmp_path)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "pkg"], project)
    assert _snapshot(tmp_path) == before
    assert _errors(res) == [
        (
            "pyproject.toml",
            "blocks the port to mcp 2.x: not rewritten: symlink to a file outside . (../shared.toml); "
            "nothing was written",
        )
    ]
    assert res.exit_code == 1


def test_add_noqa_does_not_write_through_a_symlink_to_outside(linked: tuple[Path, Path]) -> None:
    project, victim = linked
    res = cli(["check", "--add-noqa", "."], project)
    assert victim.read_text() == MCP101_SERVER
    assert "# mcpmigrate: ignore[MCP104]" in (project / "own.py").read_text()
    assert (
        "error: link.py: suppressions not added: not rewritten: symlink to a file outside . "
        "(../elsewhere/other_server.py)" in res.stderr
    ), str(res)
    assert res.exit_code == 1


def test_in_tree_alias_reports_the_file_under_its_own_name(tmp_path: Path) -> None:
    """A new user's tree held ``alias.py -> server.py``: the findings were listed under
    ``alias.py`` only, a name nobody edits. The file is checked once, under its own name."""
    (tmp_path / "server.py").write_text(MCP101_SERVER)
    os.symlink("server.py", tmp_path / "alias.py")
    res = cli(["check", "--output-format", "json", "--no-cache", "."], tmp_path)
    assert {f["path"] for f in res.json["findings"]} == {"server.py"}
    assert res.json["files_checked"] == 1

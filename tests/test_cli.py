"""The command line contract (README "Usage", "Output formats"): exit codes, JSON shape, selection, suppression,
``rules``/``explain``, ``fix`` and ``--diff``, and ``[tool.mcpmigrate]`` configuration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mcpmigrate import __version__
from mcpmigrate.catalog import load_catalog
from tests.helpers import (
    FIRST_ROOT,
    MCP101_SERVER,
    MCP104_FIXED,
    MCP104_SOURCE,
    cli,
    copy_to,
    findings_of,
    write_pyproject,
)

CLEAN = "import os\n\nprint(os.getcwd())\n"
# MCP104 (line 3) and MCP105 (line 4) in one file: two families to select between.
TWO_RULES = (
    "from mcp.types import ClientCapabilities, Root, RootsCapability\n"
    "\n"
    "caps = ClientCapabilities(roots=RootsCapability(listChanged=True))\n"
    'REPO = Root(uri="https://example.com/repo", name="repo")\n'
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    return tmp_path


# --- exit codes ---------------------------------------------------------------------------


def test_exit_0_when_clean(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text(CLEAN)
    res = cli(["check", "clean.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert "All checks passed" in res.stdout


def test_exit_1_with_findings(project: Path) -> None:
    res = cli(["check", "."], project)
    assert res.exit_code == 1, str(res)
    assert "caps.py" in res.stdout and "MCP104" in res.stdout


def test_exit_0_on_an_empty_directory_tree(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    res = cli(["check", "--output-format", "json", "pkg"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert res.json["files_checked"] == 0


def test_default_path_is_the_working_directory(project: Path) -> None:
    res = cli(["check", "--output-format", "json"], project)
    assert res.exit_code == 1
    assert res.json["files_checked"] == 2
    assert findings_of(res) == [("MCP104", 3)]


def test_subprocess_entry_point(project: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mcpmigrate", "check", "--output-format", "concise", "caps.py"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("caps.py:3:"), proc.stdout
    assert "MCP104" in proc.stdout
    version = subprocess.run(
        [sys.executable, "-m", "mcpmigrate", "--version"], capture_output=True, text=True, timeout=120
    )
    assert version.returncode == 0 and __version__ in version.stdout


def test_exit_2_unknown_config_key_named(project: Path) -> None:
    write_pyproject(project, 'selct = ["MCP1"]\n')
    res = cli(["check", "."], project)
    assert res.exit_code == 2, str(res)
    assert "selct" in res.stderr
    assert "pyproject.toml" in res.stderr


def test_exit_2_unknown_nested_config_key(project: Path) -> None:
    write_pyproject(project, '[tool.mcpmigrate.path-parameter]\nnmae = "workspace"\n')
    res = cli(["check", "."], project)
    assert res.exit_code == 2
    assert "nmae" in res.stderr


def test_exit_2_unknown_rule_id_in_select(project: Path) -> None:
    res = cli(["check", "--select", "MCP999", "."], project)
    assert res.exit_code == 2, str(res)
    assert "MCP999" in res.stderr
    res = cli(["fix", "--ignore", "NOPE", "."], project)
    assert res.exit_code == 2
    assert "NOPE" in res.stderr


@pytest.mark.parametrize(
    "body,named",
    [
        ('select = ["MCP1", "MCP999"]\n', "MCP999"),
        ('ignore = ["XYZ"]\n', "XYZ"),
        ('[tool.mcpmigrate.per-file-ignores]\n"tests/*" = ["MCP77"]\n', "MCP77"),
    ],
)
def test_exit_2_unknown_rule_id_in_config(project: Path, body: str, named: str) -> None:
    write_pyproject(project, body)
    res = cli(["check", "."], project)
    assert res.exit_code == 2, str(res)
    assert named in res.stderr


@pytest.mark.parametrize(
    "body,named",
    [
        ('strategy = "magic"\n', "strategy"),
        ('select = "MCP1"\n', "select"),
        ("exclude = [1]\n", "exclude"),
        ('[tool.mcpmigrate.path-parameter]\nname = "not an identifier"\n', "name"),
    ],
)
def test_exit_2_bad_config_value(project: Path, body: str, named: str) -> None:
    write_pyproject(project, body)
    res = cli(["check", "."], project)
    assert res.exit_code == 2, str(res)
    assert named in res.stderr


def test_exit_2_invalid_pyproject_toml_names_the_file(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.mcpmigrate\nselect = [\n")
    res = cli(["check", "."], project)
    assert res.exit_code == 2, str(res)
    assert "pyproject.toml" in res.stderr
    assert "invalid TOML" in res.stderr


def test_exit_2_explicit_config_that_does_not_exist(project: Path) -> None:
    res = cli(["check", "--config", "missing.toml", "."], project)
    assert res.exit_code == 2
    assert "missing.toml" in res.stderr


@pytest.mark.parametrize("command", ["check", "fix"])
def test_exit_2_path_that_does_not_exist(project: Path, command: str) -> None:
    res = cli([command, "caps.py", "no/such/dir"], project)
    assert res.exit_code == 2, str(res)
    assert "no/such/dir" in res.stderr
    assert "no such file" in res.stderr
    # nothing was run, so nothing was fixed either
    assert (project / "caps.py").read_text() == MCP104_SOURCE


def test_exit_2_usage_error(project: Path) -> None:
    assert cli(["check", "--output-format", "xml", "."], project).exit_code == 2
    assert cli(["frobnicate"], project).exit_code == 2


def test_unparseable_file_is_not_clean(tmp_path: Path) -> None:
    # a syntax error in a file with something MCP in it (one without is not parsed: README)
    (tmp_path / "broken.py").write_text(
        "from mcp.server.fastmcp import Context\n\n"
        'async def f(ctx: Context):\n    print "x", await ctx.session.list_roots()\n'
    )
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1, str(res)
    assert [e["path"] for e in res.json["errors"]] == ["broken.py"]
    assert res.json["findings"] == []


# --- JSON ------------------------------------------------------------------------------------


def test_json_shape(tmp_path: Path) -> None:
    sub = tmp_path / "src"
    sub.mkdir()
    (sub / "caps.py").write_text(MCP104_SOURCE)
    (sub / "bad.py").write_text("import mcp\ndef f(:\n    ctx.session.list_roots()\n")
    res = cli(["check", "--output-format", "json", "src"], tmp_path)
    doc = res.json
    assert {"version", "files_checked", "findings", "errors"} <= set(doc)
    assert doc["version"] == __version__
    assert doc["files_checked"] == 1  # bad.py is an error, not a checked file
    assert len(doc["findings"]) == 1
    f = doc["findings"][0]
    assert {"rule", "name", "severity", "path", "line", "column", "end_line", "end_column", "message", "fix"} <= set(f)
    assert f["rule"] == "MCP104"
    assert f["name"] == "roots-list-changed-capability"
    assert f["severity"] == "advisory"
    assert f["path"] == "src/caps.py"  # relative to the working directory, POSIX separators
    # `RootsCapability(listChanged=True)` on line 3: 1-based line and column, end exclusive
    line3 = MCP104_SOURCE.splitlines()[2]
    assert f["line"] == 3 and f["end_line"] == 3
    assert 1 <= f["column"] < f["end_column"] <= len(line3) + 1
    assert "listChanged" in line3[f["column"] - 1 : f["end_column"] - 1]
    assert f["message"]
    assert f["fix"] == {"safety": "safe", "strategy": "remove", "description": f["fix"]["description"]}
    assert f["fix"]["description"]
    # a syntax error has Python's message and its position
    assert doc["errors"] == [{"path": "src/bad.py", "message": doc["errors"][0]["message"], "line": 2, "column": 7}]
    assert doc["errors"][0]["message"].startswith("cannot parse: ")
    assert doc["errors"][0]["message"].endswith(" (line 2, column 7)")


def test_json_fix_is_null_without_a_fix(tmp_path: Path) -> None:
    (tmp_path / "r.py").write_text('from mcp.types import Root\n\nREPO = Root(uri="https://x.org/r", name="r")\n')
    res = cli(["check", "--output-format", "json", "r.py"], tmp_path)
    [f] = res.json["findings"]
    assert f["rule"] == "MCP105" and f["fix"] is None
    line3 = 'REPO = Root(uri="https://x.org/r", name="r")'
    assert f["line"] == 3 and f["end_line"] == 3
    # reported at the uri (1-based columns, end exclusive)
    assert line3[f["column"] - 1 : f["end_column"] - 1] == '"https://x.org/r"'


def test_json_path_relative_to_cwd_for_a_path_outside(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    other = tmp_path / "other"
    other.mkdir()
    (other / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["check", "--output-format", "json", str(other / "caps.py")], work)
    assert res.json["findings"][0]["path"] == "../other/caps.py"


# --- selection -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,expected",
    [
        ([], [("MCP104", 3), ("MCP105", 4)]),
        (["--select", "MCP104"], [("MCP104", 3)]),
        (["--select", "MCP10"], [("MCP104", 3), ("MCP105", 4)]),
        (["--select", "mcp105"], [("MCP105", 4)]),
        (["--select", "MCP104,MCP105"], [("MCP104", 3), ("MCP105", 4)]),
        (["--select", "MCP104", "--select", "MCP105"], [("MCP104", 3), ("MCP105", 4)]),
        (["--ignore", "MCP104"], [("MCP105", 4)]),
        (["--ignore", "MCP1"], []),
        (["--select", "MCP1", "--ignore", "MCP105"], [("MCP104", 3)]),
        (["--select", "ALL"], [("MCP104", 3), ("MCP105", 4)]),
    ],
)
def test_select_ignore(tmp_path: Path, args: list[str], expected: list) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["check", "--output-format", "json", *args, "two.py"], tmp_path)
    assert findings_of(res) == expected
    assert res.exit_code == (1 if expected else 0)


def test_cli_select_overrides_config_select_and_ignores_add_up(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    write_pyproject(tmp_path, 'select = ["MCP105"]\n')
    assert findings_of(cli(["check", "--output-format", "json", "two.py"], tmp_path)) == [("MCP105", 4)]
    assert findings_of(cli(["check", "--output-format", "json", "--select", "MCP104", "two.py"], tmp_path)) == [
        ("MCP104", 3)
    ]
    write_pyproject(tmp_path, 'ignore = ["MCP105"]\n')
    assert findings_of(cli(["check", "--output-format", "json", "two.py"], tmp_path)) == [("MCP104", 3)]
    assert findings_of(cli(["check", "--output-format", "json", "--ignore", "MCP104", "two.py"], tmp_path)) == []


# --- suppression -----------------------------------------------------------------------------


def _with_comment(comment: str) -> str:
    lines = TWO_RULES.splitlines()
    lines[2] += "  " + comment
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "comment,expected",
    [
        ("# mcpmigrate: ignore[MCP104]", [("MCP105", 4)]),
        ("# mcpmigrate: ignore", [("MCP105", 4)]),
        ("# mcpmigrate: ignore[MCP105]", [("MCP104", 3), ("MCP105", 4)]),  # wrong id: no effect
        ("# mcpmigrate:ignore[mcp104, MCP105]", [("MCP105", 4)]),
        ("# noqa", [("MCP104", 3), ("MCP105", 4)]),
    ],
)
def test_suppression(tmp_path: Path, comment: str, expected: list) -> None:
    (tmp_path / "two.py").write_text(_with_comment(comment))
    res = cli(["check", "--output-format", "json", "two.py"], tmp_path)
    assert findings_of(res) == expected


def test_suppression_marker_inside_a_string_does_not_count(tmp_path: Path) -> None:
    src = TWO_RULES.replace(
        "RootsCapability(listChanged=True))", 'RootsCapability(listChanged=True)); X = "# mcpmigrate: ignore"'
    )
    (tmp_path / "two.py").write_text(src)
    res = cli(["check", "--output-format", "json", "two.py"], tmp_path)
    assert ("MCP104", 3) in findings_of(res)


def test_unused_suppression_is_reported(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(_with_comment("# mcpmigrate: ignore[MCP104, MCP105]"))
    res = cli(["check", "--output-format", "json", "two.py"], tmp_path)
    assert res.json["unused_suppressions"] == [{"path": "two.py", "line": 3, "rule": "MCP105", "reason": "unused"}]
    text = cli(["check", "two.py"], tmp_path)
    assert "unused suppression" in text.stderr and "two.py:3" in text.stderr and "MCP105" in text.stderr
    # a suppression whose rule was not selected is not "unused"
    res = cli(["check", "--output-format", "json", "--select", "MCP104", "two.py"], tmp_path)
    assert res.json["unused_suppressions"] == []


def test_unused_bare_suppression_in_a_file_without_findings(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("x = 1  # mcpmigrate: ignore\n")
    res = cli(["check", "--output-format", "json", "clean.py"], tmp_path)
    assert res.json["unused_suppressions"] == [{"path": "clean.py", "line": 1, "rule": None, "reason": "unused"}]
    assert res.exit_code == 0


# --- rules / explain -------------------------------------------------------------------------


def test_rules_lists_every_id(tmp_path: Path) -> None:
    res = cli(["rules"], tmp_path)
    assert res.exit_code == 0
    for rid, meta in load_catalog().items():
        assert rid in res.stdout and meta.name in res.stdout
    res = cli(["rules", "--output-format", "json"], tmp_path)
    assert [r["id"] for r in res.json] == sorted(load_catalog())
    assert {"id", "name", "severity", "summary", "fix"} <= set(res.json[0])


def test_explain(tmp_path: Path) -> None:
    res = cli(["explain", "MCP101"], tmp_path)
    assert res.exit_code == 0
    assert "MCP101" in res.stdout and "roots-request" in res.stdout
    assert "Why" in res.stdout and "Fix" in res.stdout
    assert "list_roots" in res.stdout  # the example
    assert cli(["explain", "mcp104"], tmp_path).exit_code == 0


def test_explain_unknown_rule(tmp_path: Path) -> None:
    res = cli(["explain", "NOPE"], tmp_path)
    assert res.exit_code == 2
    assert "NOPE" in res.stderr


# --- fix -------------------------------------------------------------------------------------


def test_fix_diff_writes_nothing(project: Path) -> None:
    before = (project / "caps.py").stat().st_mtime_ns
    res = cli(["fix", "--diff", "."], project)
    assert (project / "caps.py").read_text() == MCP104_SOURCE
    assert (project / "caps.py").stat().st_mtime_ns == before
    assert res.exit_code == 1, str(res)
    assert "--- a/caps.py" in res.stdout and "+++ b/caps.py" in res.stdout
    assert "-caps = ClientCapabilities(roots=RootsCapability(listChanged=True))" in res.stdout
    assert "+caps = ClientCapabilities(roots=RootsCapability())" in res.stdout
    assert "clean.py" not in res.stdout
    # the diff applies: patch the file with it and get the fix
    assert "Would fix 1 finding" in res.stderr


def test_fix_diff_applies_with_patch(tmp_path: Path) -> None:
    import shutil

    src = MCP104_SOURCE.rstrip("\n")  # no newline at the end of the file
    (tmp_path / "a.py").write_text(src)
    res = cli(["fix", "--diff", "a.py"], tmp_path)
    assert "\\ No newline at end of file" in res.stdout
    if shutil.which("patch") is None:  # pragma: no cover
        pytest.skip("no patch(1)")
    proc = subprocess.run(["patch", "-p1"], input=res.stdout, cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "a.py").read_text() == MCP104_FIXED.rstrip("\n")


def test_fix_diff_json_is_one_document(project: Path) -> None:
    res = cli(["fix", "--diff", "--output-format", "json", "."], project)
    doc = res.json  # parses: the diff is inside, not before it
    assert doc["changed_files"] == ["caps.py"]
    assert "+caps = ClientCapabilities(roots=RootsCapability())" in doc["diff"]
    assert [f["rule"] for f in doc["fixed"]] == ["MCP104"]
    assert (project / "caps.py").read_text() == MCP104_SOURCE
    assert res.exit_code == 1


def test_fix_diff_exit_0_when_nothing_to_do(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text(CLEAN)
    res = cli(["fix", "--diff", "."], tmp_path)
    assert res.exit_code == 0 and res.stdout == ""


def test_fix_reports_changed_and_left(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["fix", "two.py"], tmp_path)
    assert res.exit_code == 1, str(res)  # MCP105 has no fix and remains
    assert (tmp_path / "two.py").read_text() == TWO_RULES.replace(
        "RootsCapability(listChanged=True)", "RootsCapability()"
    )
    assert "fixed" in res.stdout and "two.py:3" in res.stdout and "MCP104" in res.stdout
    assert "Fixed 1 finding" in res.stdout
    assert "Left for a human" in res.stdout and "MCP105" in res.stdout
    again = cli(["fix", "--output-format", "json", "two.py"], tmp_path)
    assert again.json["fixed"] == [] and again.json["changed_files"] == []
    assert findings_of(again) == [("MCP105", 4)]


def test_fix_exit_0_when_everything_fixed(project: Path) -> None:
    res = cli(["fix", "--output-format", "json", "."], project)
    assert res.exit_code == 0, str(res)
    assert (project / "caps.py").read_text() == MCP104_FIXED
    assert res.json["changed_files"] == ["caps.py"]
    assert [f["rule"] for f in res.json["fixed"]] == ["MCP104"]
    assert res.json["findings"] == []


def test_fix_respects_select(tmp_path: Path) -> None:
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["fix", "--select", "MCP105", "caps.py"], tmp_path)
    assert res.exit_code == 0
    assert (tmp_path / "caps.py").read_text() == MCP104_SOURCE
    res = cli(["fix", "--ignore", "MCP104", "caps.py"], tmp_path)
    assert (tmp_path / "caps.py").read_text() == MCP104_SOURCE


def test_fix_unsafe_needs_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unsafe fix is applied only with --unsafe-fixes (here MCP104's fix, made unsafe)."""
    import dataclasses

    from mcpmigrate.detectors.roots import RootsDetector
    from mcpmigrate.model import Safety

    real_detect = RootsDetector.detect

    def detect(self):
        for rep in real_detect(self):
            if rep.fix is not None:
                rep.fix = dataclasses.replace(rep.fix, safety=Safety.UNSAFE)
            yield rep

    monkeypatch.setattr(RootsDetector, "detect", detect)
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["check", "--output-format", "json", "caps.py"], tmp_path)
    assert res.json["findings"][0]["fix"]["safety"] == "unsafe"
    res = cli(["fix", "--output-format", "json", "caps.py"], tmp_path)
    assert (tmp_path / "caps.py").read_text() == MCP104_SOURCE
    assert res.exit_code == 1 and res.json["fixed"] == []
    text = cli(["check", "caps.py"], tmp_path)
    assert "--unsafe-fixes" in text.stdout
    res = cli(["fix", "--unsafe-fixes", "--output-format", "json", "caps.py"], tmp_path)
    assert (tmp_path / "caps.py").read_text() == MCP104_FIXED
    assert res.exit_code == 0 and [f["rule"] for f in res.json["fixed"]] == ["MCP104"]


def test_fix_param_on_a_fixture(tmp_path: Path) -> None:
    target = copy_to(FIRST_ROOT, tmp_path, "server.py")
    res = cli(["fix", "--unsafe-fixes", "--output-format", "json", "server.py"], tmp_path)
    assert res.json["errors"] == []
    assert target.read_bytes() == (FIRST_ROOT.parent / "after_param.py").read_bytes()


# --- configuration ---------------------------------------------------------------------------


def test_config_exclude(tmp_path: Path) -> None:
    for d in ("src", "vendor", "tests"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "caps.py").write_text(MCP104_SOURCE)
    write_pyproject(tmp_path, 'exclude = ["vendor", "tests/*.py"]\n')
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert sorted(f["path"] for f in res.json["findings"]) == ["src/caps.py"]
    assert res.json["files_checked"] == 1
    # an explicitly named file is checked even when excluded (as ruff does)
    res = cli(["check", "--output-format", "json", "vendor/caps.py"], tmp_path)
    assert [f["path"] for f in res.json["findings"]] == ["vendor/caps.py"]


def test_config_exclude_from_a_subdirectory(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "vendor").mkdir(parents=True)
    (tmp_path / "pkg" / "vendor" / "caps.py").write_text(MCP104_SOURCE)
    (tmp_path / "pkg" / "caps.py").write_text(MCP104_SOURCE)
    write_pyproject(tmp_path, 'exclude = ["pkg/vendor"]\n')
    res = cli(["check", "--output-format", "json", "."], tmp_path / "pkg")
    assert [f["path"] for f in res.json["findings"]] == ["caps.py"]


def test_config_per_file_ignores(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "two.py").write_text(TWO_RULES)
    (tmp_path / "two.py").write_text(TWO_RULES)
    write_pyproject(tmp_path, '[tool.mcpmigrate.per-file-ignores]\n"tests/*" = ["MCP104"]\n')
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    got = sorted((f["path"], f["rule"]) for f in res.json["findings"])
    assert got == [("tests/two.py", "MCP105"), ("two.py", "MCP104"), ("two.py", "MCP105")]
    # globs are relative to the project root, also when run from a subdirectory
    res = cli(["check", "--output-format", "json", "."], tmp_path / "tests")
    assert sorted(f["rule"] for f in res.json["findings"]) == ["MCP105"]


def test_config_per_file_ignores_prefix(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    write_pyproject(tmp_path, '[tool.mcpmigrate.per-file-ignores]\n"two.py" = ["MCP1"]\n')
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert res.json["findings"] == [] and res.exit_code == 0


def test_config_strategy_used_by_fix(tmp_path: Path) -> None:
    """``strategy = "interim"``: the interim fix is applied by ``fix``, not the param one (the remove fix still is),
    and ``--strategy`` on the command line wins over the configuration."""
    src = MCP101_SERVER + "\n\n" + MCP104_SOURCE.split("\n", 2)[2].replace("caps", "CAPS")
    src = src.replace(
        "from mcp.server.mcpserver import Context, MCPServer",
        "from mcp.server.mcpserver import Context, MCPServer\n"
        "from mcp.types import ClientCapabilities, RootsCapability",
    )
    (tmp_path / "s.py").write_text(src)
    write_pyproject(tmp_path, 'strategy = "interim"\n')
    res = cli(["fix", "--unsafe-fixes", "--output-format", "json", "s.py"], tmp_path)
    after = (tmp_path / "s.py").read_text()
    assert "RootsCapability()" in after  # the remove fix applies under every strategy
    assert "list_roots" not in after and "Resolve(" in after  # the interim fix, not the param one
    assert sorted(f["rule"] for f in res.json["fixed"]) == ["MCP101", "MCP104"]
    res = cli(["fix", "--strategy", "param", "--unsafe-fixes", "--output-format", "json", "s.py"], tmp_path)
    assert "ListRoots" not in (tmp_path / "s.py").read_text()
    assert [f["rule"] for f in res.json["fixed"]] == ["MCP106"]


def test_config_path_parameter(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(MCP101_SERVER)
    write_pyproject(
        tmp_path,
        '[tool.mcpmigrate.path-parameter]\nname = "workspace"\ndescription = "Folder with the project to count."\n',
    )
    res = cli(["fix", "--unsafe-fixes", "--output-format", "json", "s.py"], tmp_path)
    assert res.json["errors"] == []
    fixed = (tmp_path / "s.py").read_text()
    assert "list_roots" not in fixed
    assert 'workspace: Annotated[str, Field(description="Folder with the project to count.")]' in fixed
    assert "root:" not in fixed
    compile(fixed, "s.py", "exec")


def test_config_found_in_a_parent_directory(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "two.py").write_text(TWO_RULES)
    write_pyproject(tmp_path, 'ignore = ["MCP105"]\n')
    res = cli(["check", "--output-format", "json", "two.py"], tmp_path / "pkg")
    assert findings_of(res) == [("MCP104", 3)]


def test_pyproject_without_the_table_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert findings_of(res) == [("MCP104", 3)]


def test_statistics(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["check", "--statistics", "two.py"], tmp_path)
    assert "1  MCP104  roots-list-changed-capability" in res.stdout
    assert "1  MCP105  non-file-root-uri" in res.stdout


def test_suppressed_finding_is_not_fixed_and_does_not_block_the_others(tmp_path: Path) -> None:
    src = (
        MCP104_SOURCE
        + "keep = ClientCapabilities(roots=RootsCapability(listChanged=True))  # mcpmigrate: ignore[MCP104]\n"
    )
    (tmp_path / "a.py").write_text(src)
    res = cli(["fix", "--output-format", "json", "a.py"], tmp_path)
    assert res.json["errors"] == [], str(res)
    assert (tmp_path / "a.py").read_text() == MCP104_FIXED + src.splitlines(keepends=True)[-1]
    assert res.json["findings"] == [] and res.json["unused_suppressions"] == []
    assert res.exit_code == 0


ALLOW_LIST_SOURCE = """from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("reader")


@mcp.tool()
async def read_file(path: str, ctx: Context) -> str:
    roots = await ctx.session.list_roots()
    allowed = [Path(r.uri.path).resolve() for r in roots.roots]
    target = Path(path).resolve()
    if not any(target.is_relative_to(a) for a in allowed):
        raise ValueError("outside the workspace")
    return target.read_text()
"""


def test_fix_says_what_it_leaves_and_why(tmp_path: Path) -> None:
    """Roots used as an allow-list only get an unsafe fix; both fix --diff and fix say so."""
    (tmp_path / "reader.py").write_text(ALLOW_LIST_SOURCE)
    res = cli(["fix", "--diff", "reader.py"], tmp_path)
    assert res.stdout == ""  # nothing safe to apply
    assert "left   reader.py:10:19 MCP101 roots-request: needs --unsafe-fixes" in res.stderr
    assert "allow-list" in res.stderr
    res = cli(["fix", "reader.py"], tmp_path)
    assert (tmp_path / "reader.py").read_text() == ALLOW_LIST_SOURCE
    # the closing block lists what is left and why (no hint for a fix it did not apply)
    assert "left   reader.py:10:19 MCP101 roots-request: needs --unsafe-fixes" in res.stdout, res.stdout
    assert "fix (unsafe" not in res.stdout
    res = cli(["fix", "--unsafe-fixes", "reader.py"], tmp_path)
    # a fence's default fix answers from the server's configuration (tests/test_fences.py)
    assert "= _configured_roots()" in (tmp_path / "reader.py").read_text()


def test_summary_names_the_strategy_a_fix_needs(tmp_path: Path) -> None:
    """An elicitation's fix exists only under `--strategy interim`: a plain `fix` applies nothing,
    and the summary must not promise it does (found by a new-user trial)."""
    (tmp_path / "h.py").write_text(
        """from pydantic import BaseModel
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("x")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    r = await ctx.elicit(f"Delete {path}?", Confirm)
    return r.action
""",
        encoding="utf-8",
    )
    res = cli(["check", "h.py"], tmp_path)
    assert "0 fixable with `mcpmigrate fix`, 1 with `mcpmigrate fix --strategy interim`." in res.stdout, res.stdout


def test_a_guard_helper_checking_paths_against_the_roots_is_an_allow_list(tmp_path: Path) -> None:
    """The roots checked in a helper (``relative_to`` in a try, named like a guard) bound what
    the tool may touch: the param fix says the caller would now choose that boundary."""
    (tmp_path / "g.py").write_text(
        """from pathlib import Path
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("g")


async def is_path_allowed(requested: Path, ctx: Context) -> bool:
    roots = await ctx.session.list_roots()
    for root in roots.roots:
        try:
            requested.relative_to(Path(root.uri.path))
            return True
        except ValueError:
            continue
    return False


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    if not await is_path_allowed(Path(path), ctx):
        raise ValueError("outside the workspace")
    return Path(path).read_text()
""",
        encoding="utf-8",
    )
    res = cli(["check", "--output-format", "json", "g.py"], tmp_path)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP101"]
    assert f["fix"]["safety"] == "unsafe" and "allow-list" in f["fix"]["description"], f


def test_fix_diff_says_when_a_left_finding_is_placed_in_the_fixed_file(tmp_path: Path) -> None:
    """The ping before the roots request is deleted: the request moves up a line in the fixed
    file, which is what the diff shows and what `left` says."""
    (tmp_path / "reader.py").write_text(
        ALLOW_LIST_SOURCE.replace("    roots = await", "    await ctx.session.send_ping()\n    roots = await")
    )
    res = cli(["fix", "--diff", "reader.py"], tmp_path)
    assert "-    await ctx.session.send_ping()" in res.stdout
    assert "left   reader.py:10:19 (in the fixed file) MCP101" in res.stderr, res.stderr


def test_a_roots_fallback_gets_an_optional_parameter(tmp_path: Path) -> None:
    """Roots asked only when an optional argument is missing (found by the new-user trial on
    mcp-course's unit3 server; field case roots-02): a required parameter would make every call
    that passes `working_directory` fail validation, so the new one is optional, used only where
    the roots were, and the fix is safe."""
    (tmp_path / "w.py").write_text(
        """import os
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("w")


@mcp.tool()
async def where(ctx: Context, working_directory: str | None = None) -> str:
    if working_directory is None:
        roots = await ctx.session.list_roots()
        working_directory = roots.roots[0].uri.path
    return working_directory or os.getcwd()
""",
        encoding="utf-8",
    )
    res = cli(["check", "--output-format", "json", "w.py"], tmp_path)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP101"]
    assert f["fix"]["safety"] == "safe", f
    cli(["fix", "w.py"], tmp_path)
    assert (
        (tmp_path / "w.py").read_text()
        == """import os
from typing import Annotated
from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("w")


@mcp.tool()
async def where(
    working_directory: str | None = None,
    root: Annotated[
        str | None,
        Field(
            description="Absolute path of the directory to work in (formerly the client's MCP root). Used only when `working_directory` is not given."
        ),
    ] = None,
) -> str:
    if working_directory is None:
        if root is None:
            raise ValueError("pass `working_directory` or `root`")
        working_directory = root
    return working_directory or os.getcwd()
"""
    )


def test_a_method_to_type_table_is_not_a_route(tmp_path: Path) -> None:
    """`{"logging/setLevel": types.SetLevelRequest}` maps methods to message types (the SDK's own
    tables): no MCP402/MCP302. A handler in the same position is still a route."""
    (tmp_path / "m.py").write_text(
        """from mcp import types

REQUESTS = {
    "logging/setLevel": types.SetLevelRequest,
    "resources/subscribe": types.SubscribeRequest,
}


def handle_level(params):
    return {}


ROUTES = {"logging/setLevel": handle_level}
""",
        encoding="utf-8",
    )
    res = cli(["check", "--output-format", "json", "m.py"], tmp_path)
    assert [(f["rule"], f["line"]) for f in res.json["findings"]] == [("MCP402", 13)], res.json["findings"]


def test_a_clients_own_roots_capability_gets_no_automatic_fix(tmp_path: Path) -> None:
    """From the new-user trial: the SDK client's `RootsCapability(list_changed=True)` is what it
    tells legacy servers; MCP104 stays reported there, with no safe rewrite."""
    (tmp_path / "c.py").write_text(
        """from mcp import ClientSession, types

CAPS = types.ClientCapabilities(roots=types.RootsCapability(list_changed=True))
""",
        encoding="utf-8",
    )
    res = cli(["check", "--output-format", "json", "c.py"], tmp_path)
    [f] = res.json["findings"]
    assert f["rule"] == "MCP104" and f["fix"] is None and f["manual"].startswith("this is client code"), f


CHOSEN = (
    'from mcp.server.mcpserver import Context, MCPServer\n\nnotes = MCPServer("notes")\n\n\n'
    "@notes.tool()\nasync def where(ctx: Context) -> str:\n    listing = await ctx.session.list_roots()\n"
    "    return str(listing.roots[0].uri)\n"
)


@pytest.mark.parametrize("strategy", ["param", "interim", "config"])
def test_check_strategy_reports_the_fix_that_fix_strategy_applies(tmp_path: Path, strategy: str) -> None:
    """`check --strategy X` labels each finding with the fix `fix --strategy X` applies (a user used
    to have to run `fix --diff --strategy X` to see it: `check` had no such option)."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "notes"\nversion = "0"\ndependencies = ["mcp>=2.3,<3"]\n', encoding="utf-8"
    )
    (tmp_path / "s.py").write_text(CHOSEN, encoding="utf-8")
    [found] = cli(["check", "--strategy", strategy, "--output-format", "json", "s.py"], tmp_path).json["findings"]
    [fixed] = cli(["fix", "--strategy", strategy, "--unsafe-fixes", "--output-format", "json", "s.py"], tmp_path).json[
        "fixed"
    ]
    assert (found["rule"], found["line"]) == ("MCP101", 8)
    assert found["fix"]["strategy"] == strategy
    assert found["fix"] == fixed["fix"]

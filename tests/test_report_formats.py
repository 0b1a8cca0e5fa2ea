"""Output formats: the JSON and SARIF reports of a real run validate against their
schemas; github annotations, concise lines, text with the source line and caret, colour only on
a terminal and never under NO_COLOR, --statistics, and the progress bar's when-to-show rules."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcpmigrate.catalog import load_catalog
from tests.helpers import FIXTURES, MCP104_SOURCE, REPO, cli

jsonschema = pytest.importorskip("jsonschema")  # a test extra; CI installs it

REPORT_SCHEMA = REPO / "schemas" / "report.schema.json"
# The OASIS SARIF 2.1.0 schema, kept in the repository as test data (tests/data/README.md says
# where it comes from and under which terms).
SARIF_SCHEMA = REPO / "tests" / "data" / "sarif-2.1.0.schema.json"

TWO_RULES = (
    "from mcp.types import ClientCapabilities, Root, RootsCapability\n"
    "\n"
    "caps = ClientCapabilities(roots=RootsCapability(listChanged=True))\n"
    'REPO = Root(uri="https://example.com/repo", name="repo")\n'
)


@pytest.fixture(scope="module")
def real_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every fixture server, plus an unparseable file, an unknown and an unused suppression."""
    root = tmp_path_factory.mktemp("tree")
    shutil.copytree(FIXTURES, root / "fixtures")
    (root / "broken.py").write_text("import mcp\ndef f(:\n    ctx.session.list_roots()\n")
    (root / "two.py").write_text(
        TWO_RULES.replace('name="repo")', 'name="repo")  # mcpmigrate: ignore[MCP105, MCP999]')
    )
    return root


def _sarif_schema() -> dict:
    return json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))


def _validate(doc: object, schema: dict) -> None:
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


# --- JSON ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["check", "--extend-select", "unused-suppression"],
        ["fix", "--diff"],
    ],
)
def test_json_report_of_a_real_run_validates(real_tree: Path, args: list[str]) -> None:
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    res = cli([*args, "--output-format", "json", "."], real_tree)
    doc = res.json
    _validate(doc, schema)
    assert len(doc["findings"]) >= 5 and doc["errors"]
    rules = {f["rule"] for f in doc["findings"]}
    assert {"MCP101", "MCP105"} <= rules
    if "unused-suppression" in args:
        assert "unused-suppression" in rules
    assert {(u["rule"], u["reason"]) for u in doc["unused_suppressions"]} == {("MCP999", "unknown-rule")}


def test_json_fix_report_validates(tmp_path: Path) -> None:
    schema = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["fix", "--output-format", "json", "."], tmp_path)
    _validate(res.json, schema)
    assert res.json["changed_files"] == ["two.py"]


# --- SARIF -----------------------------------------------------------------------------------


def test_sarif_of_a_real_run_validates_against_the_official_schema(real_tree: Path) -> None:
    schema = _sarif_schema()
    res = cli(["check", "--output-format", "sarif", "--extend-select", "unused-suppression", "."], real_tree)
    assert res.exit_code == 1, str(res)
    doc = res.json
    _validate(doc, schema)
    assert doc["version"] == "2.1.0"
    [run] = doc["runs"]
    rules = run["tool"]["driver"]["rules"]
    catalog = load_catalog()
    # every rule of rules/*.toml, with its metadata
    by_id = {r["id"]: r for r in rules}
    for rid, meta in catalog.items():
        r = by_id[rid]
        assert r["name"] == meta.name
        assert r["shortDescription"]["text"] == meta.summary
        assert f"mcpmigrate explain {rid}" in r["help"]["text"]
        assert (
            r["defaultConfiguration"]["level"]
            == {"breaking": "error", "deprecated": "warning", "legacy-only": "note", "advisory": "note"}[
                meta.severity.value
            ]
        )
    assert "unused-suppression" in by_id
    results = run["results"]
    assert results
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    levels = {r["ruleId"]: r["level"] for r in results}
    assert levels["MCP101"] == "error" and levels["MCP104"] == "note"
    # a region spans the finding (1-based, end exclusive, code points)
    [mcp104] = [
        r
        for r in results
        if r["ruleId"] == "MCP104" and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "two.py"
    ]
    region = mcp104["locations"][0]["physicalLocation"]["region"]
    line = TWO_RULES.splitlines()[2]
    assert region["startLine"] == region["endLine"] == 3
    assert "listChanged" in line[region["startColumn"] - 1 : region["endColumn"] - 1]
    assert run["columnKind"] == "unicodeCodePoints"
    # the unparseable file is a notification, not lost
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert any("broken.py" in n["message"]["text"] for n in notes)


def test_sarif_clean_run_validates(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("x = 1\n")
    res = cli(["check", "--output-format", "sarif", "."], tmp_path)
    assert res.exit_code == 0
    _validate(res.json, _sarif_schema())
    assert res.json["runs"][0]["results"] == []


# --- github, concise, text -------------------------------------------------------------------


def test_github_annotations(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    (tmp_path / "bad.py").write_text("import mcp\ndef f(:\n    ctx.session.list_roots()\n")
    res = cli(["check", "--output-format", "github", "."], tmp_path)
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert lines[0].startswith("::notice file=two.py,line=3,col=")
    assert ",endLine=3,endColumn=" in lines[0]
    assert "title=MCP104 roots-list-changed-capability::MCP104 " in lines[0]
    assert any(ln.startswith("::notice file=two.py,line=4,") and "MCP105" in ln for ln in lines)
    assert any(ln.startswith("::error file=bad.py,") for ln in lines)
    assert all(ln.startswith("::") for ln in lines)


def test_github_escapes_workflow_command_data() -> None:
    from mcpmigrate.model import Finding, Severity
    from mcpmigrate.report.github import annotation

    f = Finding("MCP101", "roots-request", Severity.BREAKING, "a,b:c.py", 1, 1, 1, 2, "50% done\nnext")
    line = annotation(f)
    assert line.startswith("::error file=a%2Cb%3Ac.py,")
    assert "50%25 done%0Anext" in line and "\n" not in line


def test_concise(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["check", "--output-format", "concise", "."], tmp_path)
    lines = res.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("two.py:3:") and ": MCP104 " in lines[0]
    assert lines[1].startswith("two.py:4:") and ": MCP105 " in lines[1]


def test_text_groups_by_file_with_caret_hint_and_summary(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["check", "."], tmp_path)
    out = res.stdout
    assert out.index("caps.py") < out.index("two.py")  # grouped, sorted by file
    assert out.count("two.py\n") == 1
    line = TWO_RULES.splitlines()[2]
    col = line.index("listChanged") + 1
    src_row = next(ln for ln in out.splitlines() if ln.endswith(line))
    caret_row = out.splitlines()[out.splitlines().index(src_row) + 1]
    assert caret_row[len(src_row) - len(line) :].startswith(" " * (col - 1) + "^")
    assert "MCP104 roots-list-changed-capability (advisory)" in out
    assert "fix (safe): " in out  # a removal applies under every strategy: none is named
    assert "manual:" in out  # MCP105 has no automatic fix
    assert "Found 3 findings (3 advisory) in 2 files" in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_text_caret_lines_up_after_tabs(tmp_path: Path) -> None:
    src = 'from mcp.types import Root\n\nif True:\n\tREPO = Root(uri="https://x.org/r", name="r")\n'
    (tmp_path / "t.py").write_text(src)
    res = cli(["check", "t.py"], tmp_path)
    rows = res.stdout.splitlines()
    i = next(i for i, r in enumerate(rows) if 'REPO = Root(uri="https://x.org/r"' in r)
    assert rows[i + 1].index("^") == rows[i].index('"https')
    assert rows[i + 1].rstrip().endswith("^" * len('"https://x.org/r"'))


def _run_on_pty(args: list[str], cwd: Path, env: dict[str, str], stream: str = "stdout") -> tuple[str, str]:
    """Run mcpmigrate with ``stream`` on a pseudo-terminal; returns (tty output, other stream)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    kwargs = (
        {"stdout": slave, "stderr": subprocess.PIPE}
        if stream == "stdout"
        else {"stdout": subprocess.PIPE, "stderr": slave}
    )
    proc = subprocess.Popen([sys.executable, "-m", "mcpmigrate", *args], cwd=cwd, env=env, **kwargs)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    other = (proc.stderr if stream == "stdout" else proc.stdout).read()  # type: ignore[union-attr]
    proc.wait(timeout=120)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace"), other.decode("utf-8", "replace")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CI", "GITHUB_ACTIONS")}
    env.update(TERM="xterm-256color", COLUMNS="120", **extra)
    return env


@pytest.mark.skipif(os.name == "nt", reason="needs a POSIX pseudo-terminal")
def test_colour_only_on_a_terminal_and_never_under_no_color(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    tty, _ = _run_on_pty(["check", "."], tmp_path, _env())
    assert "\x1b[" in tty and "MCP104" in tty
    tty, _ = _run_on_pty(["check", "."], tmp_path, _env(NO_COLOR="1"))
    assert "\x1b[" not in tty and "MCP104" in tty
    piped = subprocess.run(
        [sys.executable, "-m", "mcpmigrate", "check", "."],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "\x1b[" not in piped.stdout and "MCP104" in piped.stdout


@pytest.mark.skipif(os.name == "nt", reason="needs a POSIX pseudo-terminal")
def test_progress_bar_on_a_terminal_for_big_trees_only(tmp_path: Path) -> None:
    from mcpmigrate.cli import PROGRESS_MIN_FILES

    big = tmp_path / "big"
    big.mkdir()
    for i in range(PROGRESS_MIN_FILES + 20):
        (big / f"m{i}.py").write_text(f"X{i} = {i}\n")
    err, out = _run_on_pty(["check", "--output-format", "concise", "big"], tmp_path, _env(), stream="stderr")
    assert "checking" in err and str(PROGRESS_MIN_FILES + 20) in err
    assert out == ""  # stdout untouched
    err, _ = _run_on_pty(["check", "--output-format", "concise", "big"], tmp_path, _env(CI="true"), stream="stderr")
    assert "checking" not in err
    err, out = _run_on_pty(["check", "--output-format", "json", "big"], tmp_path, _env(), stream="stderr")
    assert "checking" not in err and json.loads(out)["files_checked"] == PROGRESS_MIN_FILES + 20
    # a small tree: no bar
    err, _ = _run_on_pty(["check", "--output-format", "concise", "big/m1.py"], tmp_path, _env(), stream="stderr")
    assert "checking" not in err


def test_statistics(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    res = cli(["check", "--statistics", "--output-format", "concise", "."], tmp_path)
    assert "    2  MCP104  roots-list-changed-capability  (advisory, 2 fixable)" in res.stdout
    assert "    1  MCP105  non-file-root-uri  (advisory)" in res.stdout
    # machine-readable stdout stays one document; the statistics go to stderr
    res = cli(["check", "--statistics", "--output-format", "json", "."], tmp_path)
    assert len(res.json["findings"]) == 3
    assert "MCP104" in res.stderr

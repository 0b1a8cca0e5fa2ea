"""Adoption on a legacy codebase: --add-noqa, unused and unknown suppressions as
findings (--extend-select unused-suppression), and --baseline."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import MCP104_SOURCE, cli, write_pyproject

TWO_RULES = (
    "from mcp.types import ClientCapabilities, Root, RootsCapability\n"
    "\n"
    "caps = ClientCapabilities(roots=RootsCapability(listChanged=True))\n"
    'REPO = Root(uri="https://example.com/repo", name="repo")\n'
)


def test_add_noqa_silences_every_current_finding(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["check", "--add-noqa", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert "Added 2 suppression comments in 1 file" in res.stdout
    assert (tmp_path / "two.py").read_text() == (
        "from mcp.types import ClientCapabilities, Root, RootsCapability\n"
        "\n"
        "caps = ClientCapabilities(roots=RootsCapability(listChanged=True))  # mcpmigrate: ignore[MCP104]\n"
        'REPO = Root(uri="https://example.com/repo", name="repo")  # mcpmigrate: ignore[MCP105]\n'
    )
    after = cli(["check", "--extend-select", "unused-suppression", "--output-format", "json", "."], tmp_path)
    assert after.exit_code == 0 and after.json["findings"] == [], str(after)
    again = cli(["check", "--add-noqa", "."], tmp_path)
    assert "Added 0 suppression comments" in again.stdout


def test_add_noqa_keeps_bytes_and_merges_existing_comments(tmp_path: Path) -> None:
    src = "\ufeff" + TWO_RULES.replace('name="repo")', 'name="repo")  # keep me').replace(
        "caps = ClientCapabilities(roots=RootsCapability(listChanged=True))",
        "caps = ClientCapabilities(roots=RootsCapability(listChanged=True))  # mcpmigrate: ignore[MCP105]",
    )
    data = src.replace("\n", "\r\n").encode("utf-8")
    (tmp_path / "two.py").write_bytes(data)
    res = cli(["check", "--add-noqa", "two.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    out = (tmp_path / "two.py").read_bytes()
    assert (
        out.startswith(b"\xef\xbb\xbf")
        and out.count(b"\r\n") == data.count(b"\r\n")
        and b"\n" not in out.replace(b"\r\n", b"")
    )
    text = out.decode("utf-8-sig")
    assert "listChanged=True))  # mcpmigrate: ignore[MCP104, MCP105]\r\n" in text
    assert 'name="repo")  # keep me  # mcpmigrate: ignore[MCP105]\r\n' in text


def test_add_noqa_on_a_multiline_finding_uses_a_safe_line(tmp_path: Path) -> None:
    src = (
        "from mcp.types import ClientCapabilities, RootsCapability\n"
        "\n"
        "caps = ClientCapabilities(roots=RootsCapability(listChanged=\\\n"
        "    True))\n"
    )
    (tmp_path / "c.py").write_text(src)
    res = cli(["check", "--add-noqa", "c.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    new = (tmp_path / "c.py").read_text()
    compile(new, "c.py", "exec")
    assert new.endswith("    True))  # mcpmigrate: ignore[MCP104]\n")
    assert cli(["check", "c.py"], tmp_path).exit_code == 0


def test_unused_and_unknown_suppressions_as_findings(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(
        TWO_RULES.replace("listChanged=True))", "listChanged=True))  # mcpmigrate: ignore[MCP104, MCP105, MCP999]")
    )
    (tmp_path / "clean.py").write_text("x = 1  # mcpmigrate: ignore\n")
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert [f["rule"] for f in res.json["findings"]] == ["MCP105"]
    assert sorted((u["path"], u["rule"], u["reason"]) for u in res.json["unused_suppressions"]) == [
        ("clean.py", None, "unused"),
        ("two.py", "MCP105", "unused"),
        ("two.py", "MCP999", "unknown-rule"),
    ]
    res = cli(["check", "--extend-select", "unused-suppression", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1
    got = [(f["path"], f["line"], f["rule"]) for f in res.json["findings"]]
    assert got == [
        ("clean.py", 1, "unused-suppression"),
        ("two.py", 3, "unused-suppression"),
        ("two.py", 3, "unused-suppression"),
        ("two.py", 4, "MCP105"),
    ]
    msgs = " ".join(f["message"] for f in res.json["findings"])
    assert "MCP999" in msgs and "Unknown rule id" in msgs and "Unused suppression of MCP105" in msgs
    f = res.json["findings"][0]
    assert (f["column"], f["end_column"]) == (8, 8 + len("# mcpmigrate: ignore"))
    # from the configuration too
    write_pyproject(tmp_path, 'extend-select = ["unused-suppression"]\n')
    res = cli(["check", "--output-format", "concise", "clean.py"], tmp_path)
    assert res.exit_code == 1 and "clean.py:1:8: unused-suppression " in res.stdout


def test_extend_select_adds_rule_ids(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["check", "--select", "MCP105", "--extend-select", "MCP104", "--output-format", "json", "."], tmp_path)
    assert sorted(f["rule"] for f in res.json["findings"]) == ["MCP104", "MCP105"]
    assert cli(["check", "--extend-select", "NOPE", "."], tmp_path).exit_code == 2


def test_baseline_reports_only_new_findings(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    base = cli(["check", "--output-format", "json", "."], tmp_path)
    (tmp_path / "baseline.json").write_text(base.stdout)
    res = cli(["check", "--baseline", "baseline.json", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert "2 findings hidden by the baseline" in res.stdout
    # code moves: still matched (by path, rule and message, not line)
    (tmp_path / "two.py").write_text("import os\n\n" + TWO_RULES)
    assert cli(["check", "--baseline", "baseline.json", "."], tmp_path).exit_code == 0
    # a new finding is reported
    (tmp_path / "new.py").write_text(MCP104_SOURCE)
    res = cli(["check", "--baseline", "baseline.json", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1
    assert [(f["path"], f["rule"]) for f in res.json["findings"]] == [("new.py", "MCP104")]
    assert res.json["baselined"] == 2


def test_baseline_errors(tmp_path: Path) -> None:
    (tmp_path / "two.py").write_text(TWO_RULES)
    res = cli(["check", "--baseline", "missing.json", "."], tmp_path)
    assert res.exit_code == 2 and "missing.json" in res.stderr
    (tmp_path / "bad.json").write_text(json.dumps({"nope": 1}))
    res = cli(["check", "--baseline", "bad.json", "."], tmp_path)
    assert res.exit_code == 2 and "bad.json" in res.stderr and "not a baseline" in res.stderr

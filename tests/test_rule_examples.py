"""Every rule's TOML examples run (DESIGN §6, Fixit style), and the catalog matches DESIGN §3."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from mcpmigrate.catalog import load_catalog, rules_dir
from mcpmigrate.detectors import all_detectors
from tests.helpers import RULES, cli, load_toml

# DESIGN §3: ids are fixed, names are kebab-case.
DESIGN_CATALOG = {
    "MCP101": ("roots-request", "breaking"),
    "MCP102": ("session-capability-inference", "breaking"),
    "MCP103": ("roots-list-changed-handler", "breaking"),
    "MCP104": ("roots-list-changed-capability", "advisory"),
    "MCP105": ("non-file-root-uri", "advisory"),
    "MCP106": ("roots-interim", "deprecated"),
    "MCP201": ("sampling-request", "breaking"),
    "MCP202": ("elicitation-push", "breaking"),
    "MCP203": ("server-ping", "breaking"),
    "MCP204": ("raw-server-request", "breaking"),
    "MCP205": ("elicitation-complete", "breaking"),
    "MCP206": ("interim-on-unsupported-method", "breaking"),
    "MCP207": ("elicitation-fails-open", "breaking"),
    "MCP301": ("list-changed-push", "breaking"),
    "MCP302": ("resource-subscribe-handler", "breaking"),
    "MCP401": ("protocol-logging", "deprecated"),
    "MCP402": ("set-logging-level-handler", "breaking"),
}

TOMLS = sorted(RULES.glob("*.toml"))


def _examples(kind: str) -> list[tuple[str, int, dict]]:
    out = []
    for path in TOMLS:
        data = load_toml(path)
        for i, ex in enumerate(data.get("examples", {}).get(kind, [])):
            out.append((data["id"], i, ex))
    return out


INVALID = _examples("invalid")
VALID = _examples("valid")


def _detected_rules() -> set[str]:
    return {r for det in all_detectors() for r in det.rules}


def test_catalog_loads_from_the_repository_rules() -> None:
    assert rules_dir().resolve() == RULES.resolve()
    assert set(load_catalog()) == {p.stem for p in TOMLS}


@pytest.mark.parametrize("path", TOMLS, ids=[p.stem for p in TOMLS])
def test_toml_id_matches_file_and_design(path: Path) -> None:
    data = load_toml(path)
    assert data["id"] == path.stem
    assert data["id"] in DESIGN_CATALOG, "rule id not in DESIGN §3"
    name, severity = DESIGN_CATALOG[data["id"]]
    assert data["name"] == name
    assert data["severity"] == severity
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", data["name"])
    for key in ("summary", "rationale"):
        assert data.get(key, "").strip(), f"{key} is empty"
    assert data.get("spec"), "no spec references"
    assert "fix" in data and "description" in data["fix"]
    assert data.get("examples", {}).get("invalid"), "no invalid example"
    assert data.get("examples", {}).get("valid"), "no valid example"


def test_every_detected_rule_has_a_toml_and_every_toml_a_detector() -> None:
    detected = _detected_rules()
    assert detected, "no detectors registered"
    assert detected <= set(DESIGN_CATALOG), f"detectors report ids not in DESIGN §3: {detected - set(DESIGN_CATALOG)}"
    have_toml = {p.stem for p in TOMLS}
    assert detected - have_toml == set(), "rules with a detector but no rules/<ID>.toml"
    assert have_toml - detected == set(), "rules/<ID>.toml without a detector"


def _check(code: str, tmp_path: Path) -> list[dict]:
    (tmp_path / "example.py").write_text(code, encoding="utf-8")
    res = cli(["check", "--output-format", "json", "example.py"], tmp_path)
    assert res.exception is None, str(res)
    assert res.json["errors"] == [], str(res)
    return res.json["findings"]


@pytest.mark.parametrize("rule,index,example", INVALID, ids=[f"{r}-invalid-{i}" for r, i, _ in INVALID])
def test_invalid_example_is_reported(rule: str, index: int, example: dict, tmp_path: Path) -> None:
    findings = _check(example["code"], tmp_path)
    lines = sorted(f["line"] for f in findings if f["rule"] == rule)
    assert lines, f"{rule} not reported; got {findings}"
    if "lines" in example:
        assert lines == sorted(example["lines"])


@pytest.mark.parametrize(
    "rule,index,example",
    [e for e in INVALID if "fixed" in e[2]],
    ids=[f"{r}-invalid-{i}" for r, i, ex in INVALID if "fixed" in ex],
)
def test_invalid_example_fix(rule: str, index: int, example: dict, tmp_path: Path) -> None:
    target = tmp_path / "example.py"
    target.write_text(example["code"], encoding="utf-8")
    strategy = example.get("strategy", "param")
    res = cli(["fix", "--strategy", strategy, "--unsafe-fixes", "--output-format", "json", "example.py"], tmp_path)
    assert res.exception is None, str(res)
    assert res.json["errors"] == [], str(res)
    got = target.read_text(encoding="utf-8")
    if got != example["fixed"]:
        diff = "".join(difflib.unified_diff(example["fixed"].splitlines(True), got.splitlines(True), "fixed (TOML)", "fix output"))
        pytest.fail(f"fix output differs:\n{diff}")
    assert rule not in {f["rule"] for f in res.json["findings"]}
    assert rule in {f["rule"] for f in res.json["fixed"]}


@pytest.mark.parametrize("rule,index,example", VALID, ids=[f"{r}-valid-{i}" for r, i, _ in VALID])
def test_valid_example_is_clean(rule: str, index: int, example: dict, tmp_path: Path) -> None:
    findings = _check(example["code"], tmp_path)
    assert [f for f in findings if f["rule"] == rule] == []

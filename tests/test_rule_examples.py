"""Every rule's TOML examples run (in the style of Fixit's rule examples), the catalog in
``rules/*.toml`` is well formed, every rule has a detector, and every detector can run: its tokens
and screen let its own examples through the engine's prefilter."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from mcpmigrate.catalog import load_catalog, rules_dir
from mcpmigrate.detectors import DetectorRegistrationError, all_detectors, check_runnable
from mcpmigrate.model import Severity
from mcpmigrate.screen import facts_of
from tests.helpers import RULES, cli, load_toml

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
# A dependency-file example (MCP517's pyproject.toml; MCP521's, beside its module) is read by the
# engine once per run, not through a detector's prefilter.
PREFILTERED = [
    e for e in INVALID if e[2].get("file", "example.py").endswith(".py") and not load_catalog()[e[0]].project_findings
]


def _detected_rules() -> set[str]:
    return {r for det in all_detectors() for r in det.rules}


def test_catalog_loads_from_the_repository_rules() -> None:
    assert rules_dir().resolve() == RULES.resolve()
    assert set(load_catalog()) == {p.stem for p in TOMLS}


@pytest.mark.parametrize("path", TOMLS, ids=[p.stem for p in TOMLS])
def test_toml_metadata(path: Path) -> None:
    data = load_toml(path)
    assert data["id"] == path.stem
    assert re.fullmatch(r"MCP[1-9]\d\d", data["id"]), "rule ids are MCP followed by three digits"
    assert data["severity"] in {s.value for s in Severity}
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", data["name"]), "rule names are kebab-case"
    for key in ("summary", "rationale"):
        assert data.get(key, "").strip(), f"{key} is empty"
    assert data.get("spec"), "no spec references"
    assert "fix" in data and "description" in data["fix"]
    assert data.get("examples", {}).get("invalid"), "no invalid example"
    assert data.get("examples", {}).get("valid"), "no valid example"


def test_rule_names_are_unique() -> None:
    names = [load_toml(p)["name"] for p in TOMLS]
    assert len(names) == len(set(names)), f"two rules share a name: {sorted(n for n in names if names.count(n) > 1)}"


def test_every_detected_rule_has_a_toml_and_every_toml_a_detector() -> None:
    detected = _detected_rules()
    assert detected, "no detectors registered"
    have_toml = {p.stem for p in TOMLS}
    assert detected - have_toml == set(), "rules with a detector but no rules/<ID>.toml"
    assert have_toml - detected == set(), "rules/<ID>.toml without a detector"


@pytest.mark.parametrize("det", all_detectors(), ids=lambda d: d.__name__)
def test_every_detector_has_tokens_and_a_screen(det: type) -> None:
    assert det.tokens, f"{det.__name__}: no tokens, so the engine's prefilter never runs it"
    assert callable(det.screen), f"{det.__name__}: no screen (mcpmigrate/screen.py)"
    check_runnable(det)


@pytest.mark.parametrize("rule,index,example", PREFILTERED, ids=[f"{r}-invalid-{i}" for r, i, _ in PREFILTERED])
def test_invalid_example_passes_its_detectors_prefilter(rule: str, index: int, example: dict) -> None:
    """The byte tokens and the screen of the detector reporting ``rule`` both let the example
    through: a detector whose tokens or screen miss its own sites would pass ``check`` clean."""
    source = example["code"].encode("utf-8")
    (det,) = [d for d in all_detectors() if rule in d.rules]
    assert re.search(b"|".join(det.tokens), source), f"none of {det.__name__}.tokens occurs in the example"
    facts = facts_of(source)
    assert facts is not None and det.screen(facts), f"{det.__name__}.screen rejects the example"


def test_a_detector_the_engine_could_never_run_is_an_error() -> None:
    attrs = {"rules": ("MCP999",), "screen": None, "__module__": __name__}
    with pytest.raises(DetectorRegistrationError, match=r"NoTokens .*MCP999.*no tokens"):
        check_runnable(type("NoTokens", (), {**attrs, "tokens": ()}))
    with pytest.raises(DetectorRegistrationError, match=r"BadToken .*not a valid"):
        check_runnable(type("BadToken", (), {**attrs, "tokens": (rb"(",)}))
    with pytest.raises(DetectorRegistrationError, match=r"BadScreen .*screen"):
        check_runnable(type("BadScreen", (), {**attrs, "tokens": (rb"x",), "screen": "yes"}))


def _target(example: dict) -> list[str]:
    """``target-sdk = "mcp2"`` in an example (the port rules, MCP5xx, run only with it)."""
    return ["--target-sdk", example["target-sdk"]] if "target-sdk" in example else []


def _check(
    code: str, tmp_path: Path, args: list[str] | None = None, name: str = "example.py", pyproject: str | None = None
) -> list[dict]:
    """``check`` of ``code`` written to ``name`` (an example's ``file``: a dependency file for MCP517),
    beside an example's ``pyproject`` (the project's pins, for a rule that reads them: MCP520)."""
    (tmp_path / name).write_text(code, encoding="utf-8")
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    res = cli(["check", *(args or []), "--output-format", "json", name if name.endswith(".py") else "."], tmp_path)
    assert res.exception is None, str(res)
    assert res.json["errors"] == [], str(res)
    return res.json["findings"]


@pytest.mark.parametrize("rule,index,example", INVALID, ids=[f"{r}-invalid-{i}" for r, i, _ in INVALID])
def test_invalid_example_is_reported(rule: str, index: int, example: dict, tmp_path: Path) -> None:
    findings = _check(
        example["code"], tmp_path, _target(example), example.get("file", "example.py"), example.get("pyproject")
    )
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
    args = example.get("args", []) + _target(example)  # e.g. --no-legacy-clients for legacy-only removals
    res = cli(
        ["fix", "--strategy", strategy, "--unsafe-fixes", *args, "--output-format", "json", "example.py"], tmp_path
    )
    assert res.exception is None, str(res)
    assert res.json["errors"] == [], str(res)
    got = target.read_text(encoding="utf-8")
    if got != example["fixed"]:
        diff = "".join(
            difflib.unified_diff(example["fixed"].splitlines(True), got.splitlines(True), "fixed (TOML)", "fix output")
        )
        pytest.fail(f"fix output differs:\n{diff}")
    assert rule not in {f["rule"] for f in res.json["findings"]}
    assert rule in {f["rule"] for f in res.json["fixed"]}


@pytest.mark.parametrize("rule,index,example", VALID, ids=[f"{r}-valid-{i}" for r, i, _ in VALID])
def test_valid_example_is_clean(rule: str, index: int, example: dict, tmp_path: Path) -> None:
    findings = _check(
        example["code"], tmp_path, _target(example), example.get("file", "example.py"), example.get("pyproject")
    )
    assert [f for f in findings if f["rule"] == rule] == []

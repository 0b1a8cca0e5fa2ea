"""Every fixture case (fixtures/README.md): exact findings of its family on before.py, the exact
output of ``fix --strategy param --unsafe-fixes``, idempotence, and what is left afterwards.

A fixture owns its family (``FAMILY_RULES``): its family's findings are exact; another family's
finding it lists must appear, others may (a new rule of another family edits no fixture of this
one); ``other_families = "exact"`` in case.toml pins every rule's findings.

The proof that the fixture servers run lives in tests/test_proof_fixtures.py.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import cli, copy_to, findings_of, fixture_cases, load_toml

CASES = fixture_cases()
IDS = [f"{p.parent.name}/{p.name}" for p in CASES]


def _flags(case: dict) -> list[str]:
    """``legacy_clients = false`` in case.toml: the case is run as a project that no longer serves
    legacy clients (the removals of legacy-only rules apply); ``target_sdk``: ported to it."""
    flags = [] if case.get("legacy_clients", True) else ["--no-legacy-clients"]
    # ``target_sdk = "mcp2"``: a port fixture (fixtures/port/), run with the port rules on
    return flags + (["--target-sdk", case["target_sdk"]] if "target_sdk" in case else [])


def _expected(case: dict, key: str) -> list[tuple[str, int]]:
    return sorted((f["rule"], f["line"]) for f in case.get(key, []))


#: The rules each fixture family owns (its folder under fixtures/); fixtures/project/ owns every rule.
FAMILY_RULES = {
    "roots": "MCP1",
    "sampling": "MCP2",
    "elicitation": "MCP2",
    "server_requests": "MCP2",
    "notifications": "MCP3",
    "logging": "MCP4",
    "port": "MCP5",
}


def _fix_flags(case_dir: Path, case: dict) -> list[str]:
    """The flags of ``fix`` (and of the check after it) for a case: :func:`_flags`, with the MCP6xx
    rules (the rest of the revision, a family with no fixture folder) left out unless the case lists
    their findings — a fixture owns its family's fixes as it owns its findings, so MCP608's safe fix
    of a hand-rolled server's results edits no roots or sampling fixture (fixtures/README.md)."""
    owned = _owned(case_dir, case)
    listed = {
        f["rule"] for key in ("findings", "findings_after_param", "findings_after_interim") for f in case.get(key, [])
    }
    rules = sorted(p.stem for p in (Path(__file__).parent.parent / "rules").glob("MCP*.toml"))
    others = [r for r in rules if not owned(r) and r not in listed and r.startswith("MCP6")]
    return _flags(case) + (["--ignore", ",".join(others)] if others else [])


def _fix(case_dir: Path, case: dict, strategy: str, target: Path, tmp_path: Path):
    """``fix --strategy <strategy> --unsafe-fixes`` on the case's copy, JSON report."""
    flags = _fix_flags(case_dir, case)
    return cli(
        ["fix", "--strategy", strategy, "--unsafe-fixes", *flags, "--output-format", "json", target.name], tmp_path
    )


def _owned(case_dir: Path, case: dict) -> Callable[[str], bool]:
    """Whether a rule's findings are pinned exactly in this case: its family's, or every rule's
    with ``other_families = "exact"``."""
    prefix = FAMILY_RULES.get(case_dir.parent.name)
    if prefix is None or case.get("other_families") == "exact":
        return lambda _rule: True
    return lambda rule: rule.startswith(prefix)


def _assert_findings(
    found: list[tuple[str, int]], expected: list[tuple[str, int]], owned: Callable[[str], bool]
) -> None:
    """``found`` has exactly the ``expected`` findings of the owned rules, and every expected
    finding of another family."""
    assert [f for f in found if owned(f[0])] == [e for e in expected if owned(e[0])]
    missing = Counter(e for e in expected if not owned(e[0])) - Counter(f for f in found if not owned(f[0]))
    assert not missing, f"listed findings of another family are gone: {sorted(missing)}"


def test_there_are_fixtures() -> None:
    assert len(CASES) >= 10


@pytest.mark.parametrize("case_dir", CASES, ids=IDS)
def test_check_reports_exactly_the_findings(case_dir: Path, tmp_path: Path) -> None:
    case = load_toml(case_dir / "case.toml")
    before = copy_to(case_dir / "before.py", tmp_path)
    res = cli(["check", *_flags(case), "--output-format", "json", before.name], tmp_path)
    assert res.json["errors"] == [], str(res)
    found = findings_of(res)
    _assert_findings(found, _expected(case, "findings"), _owned(case_dir, case))
    assert res.exit_code == (1 if found else 0), str(res)


@pytest.mark.parametrize("case_dir", CASES, ids=IDS)
def test_fix_param(case_dir: Path, tmp_path: Path) -> None:
    case = load_toml(case_dir / "case.toml")
    original = (case_dir / "before.py").read_bytes()
    target = copy_to(case_dir / "before.py", tmp_path)
    after_path = case_dir / "after_param.py"
    expected = after_path.read_bytes() if after_path.exists() else original

    first = _fix(case_dir, case, "param", target, tmp_path)
    assert first.exception is None, str(first)
    assert first.json["errors"] == [], str(first)
    got = target.read_bytes()
    if got != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.decode("utf-8").splitlines(keepends=True),
                got.decode("utf-8").splitlines(keepends=True),
                "expected (after_param.py)" if after_path.exists() else "expected (before.py, unchanged)",
                "fix output",
            )
        )
        pytest.fail(f"fix output differs:\n{diff}\n{first}")
    assert got == expected  # bytes too (newlines, trailing whitespace)
    assert first.json["changed_files"] == ([target.name] if expected != original else [])

    second = _fix(case_dir, case, "param", target, tmp_path)
    assert target.read_bytes() == got, "a second fix changed the file again"
    assert second.json["changed_files"] == [] and second.json["fixed"] == []

    remaining = cli(["check", *_fix_flags(case_dir, case), "--output-format", "json", target.name], tmp_path)
    assert remaining.json["errors"] == []
    # Without after_param.py the file is unchanged, so everything remains; otherwise what the
    # case lists under findings_after_param (default: none).
    left = findings_of(remaining)
    _assert_findings(
        left, _expected(case, "findings_after_param" if after_path.exists() else "findings"), _owned(case_dir, case)
    )
    assert remaining.exit_code == (1 if left else 0)
    assert first.exit_code == (1 if left else 0)


INTERIM_CASES = [p for p in CASES if (p / "after_interim.py").exists()]


@pytest.mark.parametrize("case_dir", INTERIM_CASES, ids=[f"{p.parent.name}/{p.name}" for p in INTERIM_CASES])
def test_fix_interim(case_dir: Path, tmp_path: Path) -> None:
    """``fix --strategy interim --unsafe-fixes`` gives after_interim.py, once; ``findings_after_interim`` remain."""
    case = load_toml(case_dir / "case.toml")
    target = copy_to(case_dir / "before.py", tmp_path)
    expected = (case_dir / "after_interim.py").read_bytes()

    first = _fix(case_dir, case, "interim", target, tmp_path)
    assert first.exception is None, str(first)
    assert first.json["errors"] == [], str(first)
    got = target.read_bytes()
    if got != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.decode("utf-8").splitlines(keepends=True),
                got.decode("utf-8").splitlines(keepends=True),
                "expected (after_interim.py)",
                "fix output",
            )
        )
        pytest.fail(f"fix output differs:\n{diff}\n{first}")

    second = _fix(case_dir, case, "interim", target, tmp_path)
    assert target.read_bytes() == got, "a second fix changed the file again"
    assert second.json["changed_files"] == [] and second.json["fixed"] == []

    remaining = cli(["check", *_fix_flags(case_dir, case), "--output-format", "json", target.name], tmp_path)
    assert remaining.json["errors"] == []
    _assert_findings(findings_of(remaining), _expected(case, "findings_after_interim"), _owned(case_dir, case))

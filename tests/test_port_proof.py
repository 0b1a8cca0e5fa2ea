"""Proof by execution of the port to mcp 2.x (``fix --target-sdk mcp2``) on the fixtures of
``fixtures/port/``: ``before.py`` served by mcp 1.27 (legacy connection) and ``after_param.py``
(the exact port output, checked by tests/test_fixtures.py) served by mcp 2.3 on a legacy and a
2026-07-28 connection list the same tools and answer every ``[[port_proof]]`` call the same
(text, structured content, is_error, or the same error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import fixture_cases, load_toml
from tests.proof import run_proof

CASES = [p for p in fixture_cases() if "port_proof" in load_toml(p / "case.toml")]


def _calls(case: dict) -> list[dict]:
    return [{"tool": c["tool"], "arguments": c.get("arguments", {})} for c in case["port_proof"]]


def _answers(answer: dict) -> tuple[list, list]:
    calls = [{k: c.get(k) for k in ("tool", "is_error", "text", "structured", "error")} for c in answer["calls"]]
    return sorted(answer["tools"], key=lambda t: t["name"]), calls


def test_there_are_port_proofs() -> None:
    assert len(CASES) >= 3


@pytest.mark.parametrize("case_dir", CASES, ids=[p.name for p in CASES])
@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_port_serves_like_the_original(case_dir: Path, mode: str, legacy_python: str, mcp2_python: str) -> None:
    case = load_toml(case_dir / "case.toml")
    calls = _calls(case)
    before = run_proof(legacy_python, case_dir / "before.py", case["server"], "legacy", [], calls)
    after = run_proof(mcp2_python, case_dir / "after_param.py", case["server"], mode, [], calls)
    assert _answers(after) == _answers(before)
    assert all(c.get("error") is None or c["tool"] == "nope" for c in before["calls"]), before  # the calls ran

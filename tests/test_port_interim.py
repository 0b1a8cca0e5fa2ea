"""One run to a migrated server: ``fix --target-sdk mcp2 --strategy interim`` ports an mcp 1.x
FastMCP server that pushes sampling or elicitation to the client, then applies the interim fix
to the ported code (the interim planner hears the requirement the port writes,
``pins.ported``). The result, on mcp 2.3, answers every ``[[interim_proof]]`` scenario of the
fixture on a legacy and a 2026-07-28 connection as ``before.py`` does on mcp 1.27 (legacy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli, copy_to, fixture_cases, load_toml
from tests.proof import run_proof

CASES = [
    p
    for p in fixture_cases()
    if (case := load_toml(p / "case.toml")).get("sdk") == "mcp1"
    and case.get("interim_proof")
    and not (p / "after_interim.py").exists()
]


def _answers(answer: dict[str, Any]) -> list[tuple]:
    return [(r["error"], r["is_error"], r["text"], r["structured"]) for r in answer["calls"]]


def _port(case_dir: Path, tmp_path: Path) -> Path:
    target = copy_to(case_dir / "before.py", tmp_path)
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")  # refused without the port
    res = cli(
        ["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--output-format", "json", target.name], tmp_path
    )
    assert res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert (tmp_path / "requirements.txt").read_text() == "mcp>=2.3,<3\n"
    return target


def test_there_are_mcp1_interim_cases() -> None:
    assert {p.parent.name for p in CASES} >= {"sampling", "elicitation"}


@pytest.mark.parametrize("case_dir", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_port_then_interim(case_dir: Path, tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    case = load_toml(case_dir / "case.toml")
    after = _port(case_dir, tmp_path)
    server = case.get("server", "mcp")
    for scenario in case["interim_proof"]:
        calls = [{"tool": c["tool"], "arguments": c.get("arguments", {})} for c in scenario["calls"]]
        client = scenario.get("client")
        before = run_proof(legacy_python, case_dir / "before.py", server, "legacy", [], calls, client=client)
        for mode in ("legacy", "modern"):
            got = run_proof(mcp2_python, after, server, mode, [], calls, client=client)
            assert _answers(got) == _answers(before), f"{mode}, client {client}: {got['calls']} vs {before['calls']}"

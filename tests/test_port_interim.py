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


TOOLS = """from mcp.server.fastmcp import Context, FastMCP

from common import request_consent

mcp = FastMCP("ops")


@mcp.tool()
async def stop(name: str, ctx: Context) -> str:
    await request_consent(f"Stop {name}?", ctx)
    return f"stopped {name}"
"""
COMMON = """from pydantic import BaseModel


class Consent(BaseModel):
    acknowledge: bool


async def request_consent(what: str, ctx) -> None:
    result = await ctx.elicit(message=what, schema=Consent)
    if result.action != "accept" or not result.data.acknowledge:
        raise ValueError("User rejected the operation.")
"""


def test_a_helper_reached_from_an_mcp1_tool_of_another_module_is_judged_as_ported(tmp_path: Path) -> None:
    """In the one run, the helper's context comes from an mcp 1.x tool of another module (read
    before that module is ported): it is mcp 2.x code once written, so the reason it stays manual
    is where it sits (awslabs aws-for-sap-management's `request_consent`), not "mcp 1.x has no
    interim form"."""
    (tmp_path / "tools.py").write_text(TOOLS, encoding="utf-8")
    (tmp_path / "common.py").write_text(COMMON, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--output-format", "json", "."], tmp_path)
    (left,) = res.json["findings"]
    assert (left["rule"], left["path"], left["line"], left["column"]) == ("MCP202", "common.py", 9, 20)
    assert left["manual"] == (
        "the request is made in the helper `request_consent`, which is also called from another module "
        "(`stop` in tools.py); cross-module rewrite not supported"
    )
    assert "from mcp.server.mcpserver import Context, MCPServer" in (tmp_path / "tools.py").read_text()

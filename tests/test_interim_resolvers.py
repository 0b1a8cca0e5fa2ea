"""``fix --strategy interim`` on the shapes real mcp 2.x ``MCPServer`` tools have (issue 11): a request
built from a pure local of the tool (requests-06), a ``try`` whose statements use the answer through a
derived local and a ``related_request_id=`` (requests-07), a tool defined inside a factory function
(requests-09), an answer whose name the dropped ``except`` handlers also bind (bugs-10). requests-07 is
the fixture sampling/mcp2_mcpserver_try_derived (its ``label_linked``), proven by tests/test_proof_interim.py.

Each field case (tests/data/resolvers/, copied unchanged) is fixed to exactly its ``.fixed.py``, and
both files are served in memory with the mcp 2.x Client (tests/proof): the fixed server gives the
original's legacy answers on legacy *and* on 2026-07-28 connections; the original fails there. The
edges of each kind (other spellings, and what stays manual, with its reason) follow.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli
from tests.proof import run_proof

DATA = Path(__file__).resolve().parent / "data" / "resolvers"
ERROR = "<error>"
ACCEPT = {"elicitation": {"action": "accept", "content": {"ok": True}}}
REFUSE = {"elicitation": {"action": "accept", "content": {"ok": False}}}
DECLINE = {"elicitation": {"action": "decline"}}
SAMPLING = {"sampling": True}

# case -> (the server object, or the factory building it; the calls; the clients to run them with)
CASES: dict[str, tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = {
    "requests_06": ("app", [{"tool": "poem", "arguments": {"topic": "the sea"}}], [SAMPLING]),
    "requests_09": ("build()", [{"tool": "wipe", "arguments": {"name": "cache"}}], [ACCEPT, REFUSE, DECLINE]),
    "bugs_10": ("mcp", [{"tool": "remove_layer", "arguments": {"name": "roads"}}], [ACCEPT, REFUSE, DECLINE]),
}


def _serve(tmp_path: Path, source: Path, server: str) -> Path:
    """A copy of ``source`` that the proof harness can serve: a factory is called at module level."""
    target = tmp_path / source.name
    text = source.read_text(encoding="utf-8")
    if server.endswith("()"):
        text += f"\n\nserved = {server}\n"
    target.write_text(text, encoding="utf-8")
    return target


def _texts(answer: dict[str, Any]) -> list[str]:
    return [ERROR if (r["error"] is not None or r["is_error"]) else "\n".join(r["text"]) for r in answer["calls"]]


def _fix(tmp_path: Path, name: str) -> tuple[dict, str]:
    target = tmp_path / f"{name}.py"
    shutil.copyfile(DATA / f"{name}.py", target)
    res = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", target.name], tmp_path)
    assert res.exception is None, str(res)
    return res.json, target.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(CASES))
def test_field_case_is_fixed_exactly(tmp_path: Path, name: str) -> None:
    out, fixed = _fix(tmp_path, name)
    assert fixed == (DATA / f"{name}.fixed.py").read_text(encoding="utf-8")
    assert [f for f in out["findings"] if f["rule"] in ("MCP201", "MCP202", "MCP207")] == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixed_server_answers_like_the_original_in_both_eras(tmp_path: Path, name: str, mcp2_python: str) -> None:
    server, calls, clients = CASES[name]
    (tmp_path / "before").mkdir()
    (tmp_path / "after").mkdir()
    before = _serve(tmp_path / "before", DATA / f"{name}.py", server)
    after = _serve(tmp_path / "after", DATA / f"{name}.fixed.py", server)
    attr = "served" if server.endswith("()") else server
    for client in clients:
        legacy = run_proof(mcp2_python, before, attr, "legacy", [], calls, client=client)
        assert ERROR not in _texts(legacy), legacy
        modern_before = run_proof(mcp2_python, before, attr, "modern", [], calls, client=client)
        assert _texts(modern_before) != _texts(legacy), f"{name}: the original already works on 2026-07-28"
        for mode in ("legacy", "modern"):
            got = run_proof(mcp2_python, after, attr, mode, [], calls, client=client)
            assert got["protocol_version"] == ("2026-07-28" if mode == "modern" else "2025-11-25")
            assert _texts(got) == _texts(legacy), f"{name} ({mode}, {client}): {got['calls']} vs {legacy['calls']}"

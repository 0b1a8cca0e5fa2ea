"""The interim fixtures run (README "How it is proven"): before.py and after_interim.py, in memory, against
the SDK client with its roots / sampling / elicitation callbacks answering.

Two kinds of proof:

- ``[[interim_proof]]`` scenarios (sampling and elicitation fixtures): each runs its ``calls`` on one
  connection whose client answers as ``client`` says (tests/proof/run_server.py). For every scenario:
  before.py on a legacy connection gives ``before_legacy_expect`` (when given); on 2026-07-28 it
  fails or degrades (``before_modern_expect`` pins the degraded answers, e.g. a gate that opened);
  after_interim.py gives the legacy answers of before.py on *both* eras (``compare = false``: it gives
  ``after_expect`` instead, where ``"<error>"`` means the call failed, e.g. a failing client must not
  reach the guarded action). A scenario whose client declines gives the original's decline branch.
- roots fixtures with an after_interim.py reuse their ``[[proof]]`` calls: after_interim.py, with the
  client's roots answering and the *original* arguments, gives before.py's legacy answers on both eras.

mcp 1.x fixtures with scenarios (the fix refuses them) still run before.py on legacy, so the
fixtures are real servers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomllib

from tests.proof import run_proof

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SDK_PYTHON_FIXTURE = {"mcp1": "legacy_python", "mcp2": "mcp2_python"}
ERROR = "<error>"


def _load(case_dir: Path) -> dict[str, Any]:
    return tomllib.loads((case_dir / "case.toml").read_text(encoding="utf-8"))


def _case_id(case_dir: Path) -> str:
    return f"{case_dir.parent.name}/{case_dir.name}"


ALL = sorted(p.parent for p in FIXTURES.glob("*/*/case.toml"))
SCENARIO_CASES = [c for c in ALL if _load(c).get("interim_proof") and _load(c).get("sdk", "none") != "none"]
AFTER_SCENARIO_CASES = [c for c in SCENARIO_CASES if (c / "after_interim.py").is_file()]
ROOTS_AFTER_CASES = [c for c in ALL if (c / "after_interim.py").is_file() and _load(c).get("proof")]


def test_every_after_interim_is_proven() -> None:
    # Hand-rolled servers (sdk "none", `[[handrolled_proof]]`) run in tests/test_proof_handrolled.py,
    # fastmcp 4 ports (`target_sdk = "fastmcp4"`) in tests/test_port_fastmcp.py.
    with_after = {
        c
        for c in ALL
        if (c / "after_interim.py").is_file()
        and not _load(c).get("handrolled_proof")
        and _load(c).get("target_sdk") != "fastmcp4"
    }
    assert with_after == set(AFTER_SCENARIO_CASES) | set(ROOTS_AFTER_CASES)
    for c in with_after:
        assert _load(c).get("sdk") == "mcp2", f"{c}: after_interim.py is an mcp 2.x server"


def _python(request: pytest.FixtureRequest, case: dict[str, Any]) -> str:
    return request.getfixturevalue(SDK_PYTHON_FIXTURE[case["sdk"]])


def _texts(answer: dict[str, Any]) -> list[str]:
    return [ERROR if (r["error"] is not None or r["is_error"]) else "\n".join(r["text"]) for r in answer["calls"]]


def _run(python: str, file: Path, case: dict[str, Any], mode: str, scenario: dict[str, Any]) -> dict[str, Any]:
    calls = [{"tool": c["tool"], "arguments": c.get("arguments", {})} for c in scenario["calls"]]
    return run_proof(python, file, case.get("server", "mcp"), mode, [], calls, client=scenario.get("client"))


def _scenarios(cases: list[Path]) -> list[tuple[Path, int]]:
    return [(c, i) for c in cases for i in range(len(_load(c)["interim_proof"]))]


def _scenario_id(item: tuple[Path, int]) -> str:
    return f"{_case_id(item[0])}#{item[1]}"


@pytest.mark.parametrize("item", _scenarios(SCENARIO_CASES), ids=_scenario_id)
def test_before_on_legacy(item: tuple[Path, int], request: pytest.FixtureRequest) -> None:
    case_dir, index = item
    case = _load(case_dir)
    scenario = case["interim_proof"][index]
    answer = _run(_python(request, case), case_dir / "before.py", case, "legacy", scenario)
    got = _texts(answer)
    if "before_legacy_expect" in scenario:
        assert got == scenario["before_legacy_expect"], answer
    elif scenario.get("compare", True):
        assert ERROR not in got, answer


@pytest.mark.parametrize("item", _scenarios([c for c in SCENARIO_CASES if _load(c)["sdk"] == "mcp2"]), ids=_scenario_id)
def test_before_on_modern_fails_or_degrades(item: tuple[Path, int], request: pytest.FixtureRequest) -> None:
    case_dir, index = item
    case = _load(case_dir)
    scenario = case["interim_proof"][index]
    python = _python(request, case)
    modern = _texts(_run(python, case_dir / "before.py", case, "modern", scenario))
    if "before_modern_expect" in scenario:  # pinned degradation (a gate that opened)
        assert modern == scenario["before_modern_expect"]
        return
    legacy = _texts(_run(python, case_dir / "before.py", case, "legacy", scenario))
    if scenario.get("compare", True):
        assert modern != legacy, f"before.py answers the same on 2026-07-28: {modern}"


@pytest.mark.parametrize("mode", ["legacy", "modern"])
@pytest.mark.parametrize("item", _scenarios(AFTER_SCENARIO_CASES), ids=_scenario_id)
def test_after_interim(item: tuple[Path, int], mode: str, request: pytest.FixtureRequest) -> None:
    case_dir, index = item
    case = _load(case_dir)
    scenario = case["interim_proof"][index]
    python = _python(request, case)
    after = _run(python, case_dir / "after_interim.py", case, mode, scenario)
    label = f"after_interim.py ({mode}, client {scenario.get('client')})"
    if mode == "modern":
        assert after["protocol_version"] == "2026-07-28"
    if not scenario.get("compare", True):
        assert _texts(after) == scenario["after_expect"], f"{label}: {after}"
        return
    before = _run(python, case_dir / "before.py", case, "legacy", scenario)
    assert _texts(before) == _texts(after), f"{label}: {after['calls']} vs before.py (legacy) {before['calls']}"
    assert [r["structured"] for r in after["calls"]] == [r["structured"] for r in before["calls"]]


def _substitute(value: Any, root: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{root_uri}", root.as_uri()).replace("{root}", str(root))
    if isinstance(value, list):
        return [_substitute(v, root) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, root) for k, v in value.items()}
    return value


@pytest.fixture(scope="session")
def interim_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("interim-root")
    (root / "a.txt").write_text("alpha", encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "b.txt").write_text("beta", encoding="utf-8")
    return root


@pytest.mark.parametrize("mode", ["legacy", "modern"])
@pytest.mark.parametrize("case_dir", ROOTS_AFTER_CASES, ids=_case_id)
def test_roots_after_interim(case_dir: Path, mode: str, request: pytest.FixtureRequest, interim_root: Path) -> None:
    case = _load(case_dir)
    python = _python(request, case)
    for proof in case["proof"]:
        roots = _substitute(proof.get("roots", []), interim_root)
        calls = [{"tool": proof["tool"], "arguments": _substitute(proof.get("arguments", {}), interim_root)}]
        before = run_proof(python, case_dir / "before.py", case.get("server", "mcp"), "legacy", roots, calls)
        after = run_proof(python, case_dir / "after_interim.py", case.get("server", "mcp"), mode, roots, calls)
        assert _texts(before) == _texts(after), f"{proof['tool']} ({mode}): {after['calls']} vs {before['calls']}"
        assert ERROR not in _texts(after)
        if "expect_text" in proof:
            assert _texts(after) == [proof["expect_text"]]

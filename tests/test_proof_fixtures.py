"""The fixture pairs themselves run: before.py and after_param.py, in memory, against the SDK.

For every fixture with ``sdk != "none"`` (fixtures/README.md):
- before.py works on a legacy connection and, for mcp 2.x, breaks (fails or degrades) on a
  2026-07-28 one, unless case.toml says otherwise (``before_on_legacy`` / ``before_on_modern``);
- after_param.py shows each ``proof_schema`` parameter in tools/list, with its type and a
  description, and, called with ``after_arguments`` by a client that exposes *no* roots, returns
  what before.py returned with its roots (in the era where it works), on a legacy connection
  and (mcp 2.x) a modern one.

This checks the hand-written fixture pairs; the codemod's output is compared to after_param.py
elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomllib

from tests.proof import run_proof

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

SDK_PYTHON_FIXTURE = {"mcp1": "legacy_python", "mcp2": "mcp2_python"}


def _cases() -> list[Path]:
    found = []
    for case_toml in sorted(FIXTURES.glob("*/*/case.toml")):
        case = tomllib.loads(case_toml.read_text(encoding="utf-8"))
        if case.get("sdk", "none") != "none" and case.get("proof"):  # sampling/elicitation: test_proof_interim.py
            found.append(case_toml.parent)
    return found


def _load(case_dir: Path) -> dict[str, Any]:
    case = tomllib.loads((case_dir / "case.toml").read_text(encoding="utf-8"))
    assert case["sdk"] in SDK_PYTHON_FIXTURE, f"{case_dir}: unknown sdk {case['sdk']!r}"
    assert case.get("proof"), f"{case_dir}: an executed fixture needs [[proof]] calls"
    return case


def _case_id(case_dir: Path) -> str:
    return f"{case_dir.parent.name}/{case_dir.name}"


CASES = _cases()
AFTER_CASES = [c for c in CASES if (c / "after_param.py").is_file()]
MCP2_CASES = [c for c in CASES if _load(c)["sdk"] == "mcp2"]
MCP2_AFTER_CASES = [c for c in AFTER_CASES if c in MCP2_CASES]


def _substitute(value: Any, root: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{root_uri}", root.as_uri()).replace("{root}", str(root))
    if isinstance(value, list):
        return [_substitute(v, root) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, root) for k, v in value.items()}
    return value


@pytest.fixture(scope="session")
def proof_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory the proof calls work in: a.txt ("alpha") and sub/b.txt ("beta")."""
    root = tmp_path_factory.mktemp("proof-root")
    (root / "a.txt").write_text("alpha", encoding="utf-8")
    (root / "sub").mkdir()
    (root / "sub" / "b.txt").write_text("beta", encoding="utf-8")
    return root


def _python(request: pytest.FixtureRequest, case: dict[str, Any]) -> str:
    return request.getfixturevalue(SDK_PYTHON_FIXTURE[case["sdk"]])


_BEFORE_CACHE: dict[tuple[str, str, str], list[dict[str, Any]]] = {}


def _run_before(python: str, case_dir: Path, case: dict[str, Any], mode: str, root: Path) -> list[dict[str, Any]]:
    """Run every proof call on before.py; one harness run per distinct roots list. Cached."""
    key = (python, str(case_dir), mode)
    if key in _BEFORE_CACHE:
        return _BEFORE_CACHE[key]
    results: list[dict[str, Any] | None] = [None] * len(case["proof"])
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, proof in enumerate(case["proof"]):
        groups.setdefault(tuple(_substitute(proof.get("roots", []), root)), []).append(index)
    for roots, indexes in groups.items():
        calls = [
            {"tool": case["proof"][i]["tool"], "arguments": _substitute(case["proof"][i].get("arguments", {}), root)}
            for i in indexes
        ]
        answer = run_proof(python, case_dir / "before.py", case.get("server", "mcp"), mode, list(roots), calls)
        assert len(answer["calls"]) == len(indexes)
        for i, record in zip(indexes, answer["calls"]):
            results[i] = record
    done = [r for r in results if r is not None]
    _BEFORE_CACHE[key] = done
    return done


def _run_after(python: str, case_dir: Path, case: dict[str, Any], mode: str, root: Path) -> dict[str, Any]:
    """Run every proof call on after_param.py with a client that has no roots at all."""
    calls = [
        {"tool": proof["tool"], "arguments": _substitute(proof.get("after_arguments", {}), root)}
        for proof in case["proof"]
    ]
    return run_proof(python, case_dir / "after_param.py", case.get("server", "mcp"), mode, [], calls)


def _succeeded(record: dict[str, Any]) -> bool:
    return record["error"] is None and not record["is_error"]


def _check_expect_text(case: dict[str, Any], records: list[dict[str, Any]], label: str) -> None:
    for proof, record in zip(case["proof"], records):
        if "expect_text" in proof:
            assert "\n".join(record["text"]) == proof["expect_text"], (
                f"{label}: {proof['tool']} returned {record['text']!r}, expected {proof['expect_text']!r}"
            )


def _check_schema(case: dict[str, Any], tools: list[dict[str, Any]], label: str) -> None:
    by_name = {tool["name"]: tool["inputSchema"] for tool in tools}
    for expected in case.get("proof_schema", []):
        assert expected["tool"] in by_name, f"{label}: tool {expected['tool']!r} not in tools/list"
        schema = by_name[expected["tool"]]
        prop = schema.get("properties", {}).get(expected["parameter"])
        assert prop is not None, f"{label}: {expected['tool']} has no parameter {expected['parameter']!r}: {schema}"
        typed = prop
        if "anyOf" in prop:
            # an optional parameter (`str | None = None`): one typed branch and null, default None
            branches = [b for b in prop["anyOf"] if b.get("type") != "null"]
            assert len(branches) == 1 and len(prop["anyOf"]) == 2 and prop.get("default", ...) is None, (
                f"{label}: {expected['parameter']} is a union other than `T | None = None`: {prop}"
            )
            typed = branches[0]
        assert typed.get("type") == expected["type"], f"{label}: {expected['parameter']} type {prop}"
        if expected["type"] == "array":
            assert typed.get("items", {}).get("type") == "string", f"{label}: {expected['parameter']} items {prop}"
        assert isinstance(prop.get("description"), str) and prop["description"].strip(), (
            f"{label}: {expected['parameter']} has no description: {prop}"
        )
        if "default" not in prop:
            assert expected["parameter"] in schema.get("required", []), (
                f"{label}: {expected['parameter']} has no default but is not required: {schema}"
            )


def _reaches_roots(case: dict[str, Any], proof: dict[str, Any]) -> bool:
    """A proof call exercises the migrated surface iff its tool gains a parameter (has
    proof_schema), or the proof says so with ``breaks = true`` (e.g. a ping the fix deletes)."""
    if proof.get("breaks"):
        return True
    return any(schema["tool"] == proof["tool"] for schema in case.get("proof_schema", []))


def _expectation(case: dict[str, Any], mode: str) -> str:
    key, default = ("before_on_legacy", "works") if mode == "legacy" else ("before_on_modern", "breaks")
    value = case.get(key, default)
    assert value in ("works", "breaks"), f"{key} must be 'works' or 'breaks', got {value!r}"
    return value


def _baseline_mode(case: dict[str, Any]) -> str:
    """The era in which before.py works: its answers are what after_param.py must reproduce."""
    if _expectation(case, "legacy") == "works":
        return "legacy"
    assert case["sdk"] == "mcp2" and _expectation(case, "modern") == "works", (
        "before.py must work on at least one era (before_on_legacy / before_on_modern)"
    )
    return "modern"


def _check_before(case_dir: Path, request: pytest.FixtureRequest, proof_root: Path, mode: str) -> None:
    case = _load(case_dir)
    python = _python(request, case)
    records = _run_before(python, case_dir, case, mode, proof_root)
    baseline_mode = _baseline_mode(case)
    baseline = _run_before(python, case_dir, case, baseline_mode, proof_root) if baseline_mode != mode else None
    label = f"before.py ({mode})"
    if _expectation(case, mode) == "works":
        for index, (proof, record) in enumerate(zip(case["proof"], records)):
            assert _succeeded(record), f"{label} {proof['tool']} failed: {record}"
            if baseline is not None:
                assert record["text"] == baseline[index]["text"], (
                    f"{label} {proof['tool']} answers {record['text']!r}, on {baseline_mode} {baseline[index]['text']!r}"
                )
        _check_expect_text(case, records, label)
        return
    # "breaks": a call that reaches the roots request fails (error / is_error) or degrades (answers
    # something else than in the era where before.py works); any other call answers the same.
    assert baseline is not None
    assert any(_reaches_roots(case, proof) for proof in case["proof"]), "no proof call reaches the roots request"
    for proof, now, was in zip(case["proof"], records, baseline):
        if _reaches_roots(case, proof):
            assert not _succeeded(now) or now["text"] != was["text"], (
                f"{label} {proof['tool']} unexpectedly worked: {now}"
            )
        else:
            assert _succeeded(now) and now["text"] == was["text"], (
                f"{label} {proof['tool']} (no roots involved) differs: {now} vs {baseline_mode} {was}"
            )


@pytest.mark.parametrize("case_dir", CASES, ids=_case_id)
def test_before_on_legacy(case_dir: Path, request: pytest.FixtureRequest, proof_root: Path) -> None:
    """``before_on_legacy = "works"`` (default) or ``"breaks"`` (a hand-built interim result)."""
    _check_before(case_dir, request, proof_root, "legacy")


@pytest.mark.parametrize("case_dir", MCP2_CASES, ids=_case_id)
def test_before_on_modern(case_dir: Path, request: pytest.FixtureRequest, proof_root: Path) -> None:
    """``before_on_modern = "breaks"`` (default) or ``"works"`` (already era-portable)."""
    _check_before(case_dir, request, proof_root, "modern")


def _check_after(case_dir: Path, request: pytest.FixtureRequest, proof_root: Path, mode: str) -> None:
    case = _load(case_dir)
    python = _python(request, case)
    baseline_mode = _baseline_mode(case)
    before = _run_before(python, case_dir, case, baseline_mode, proof_root)
    after = _run_after(python, case_dir, case, mode, proof_root)
    label = f"after_param.py ({mode})"
    _check_schema(case, after["tools"], label)
    for proof, was, now in zip(case["proof"], before, after["calls"]):
        assert _succeeded(now), f"{label} {proof['tool']} failed: {now}"
        assert now["text"] == was["text"], (
            f"{label} {proof['tool']} returned {now['text']!r}; before.py ({baseline_mode}, with roots) "
            f"returned {was['text']!r}"
        )
        assert now["structured"] == was["structured"], f"{label} {proof['tool']} structured content differs"
    _check_expect_text(case, after["calls"], label)


@pytest.mark.parametrize("case_dir", AFTER_CASES, ids=_case_id)
def test_after_param_on_legacy(case_dir: Path, request: pytest.FixtureRequest, proof_root: Path) -> None:
    _check_after(case_dir, request, proof_root, "legacy")


@pytest.mark.parametrize("case_dir", MCP2_AFTER_CASES, ids=_case_id)
def test_after_param_on_modern(case_dir: Path, request: pytest.FixtureRequest, proof_root: Path) -> None:
    _check_after(case_dir, request, proof_root, "modern")


@pytest.mark.parametrize("case_dir", AFTER_CASES, ids=_case_id)
def test_before_does_not_have_the_parameter(case_dir: Path, request: pytest.FixtureRequest) -> None:
    case = _load(case_dir)
    answer = run_proof(_python(request, case), case_dir / "before.py", case.get("server", "mcp"), "legacy", [], [])
    by_name = {tool["name"]: tool["inputSchema"] for tool in answer["tools"]}
    for expected in case.get("proof_schema", []):
        assert expected["parameter"] not in by_name[expected["tool"]].get("properties", {}), (
            f"before.py already has {expected['parameter']!r}; the proof would show nothing"
        )

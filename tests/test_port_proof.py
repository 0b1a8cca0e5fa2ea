"""Proof by execution of the port to mcp 2.x (``fix --target-sdk mcp2``) on the fixtures of
``fixtures/port/``: ``before.py`` served by mcp 1.27 (legacy connection) and ``after_param.py``
(the exact port output, checked by tests/test_fixtures.py) served by mcp 2.3 on a legacy and a
2026-07-28 connection list the same tools and answer every ``[[port_proof]]`` call the same
(text, structured content, is_error, or the same error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import fixture_cases, load_toml
from tests.proof import LEAVE, json_answer, run_proof

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


RESOURCE_CASES = [p for p in fixture_cases() if "resources" in load_toml(p / "case.toml")]
# Each driver loads the file, lists the resources and reads each URI; prints one JSON line.
READ_V1 = (
    LEAVE
    + """
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("port_case", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
from mcp.shared.memory import create_connected_server_and_client_session as connect
from pydantic import AnyUrl
async def main():
    async with connect(getattr(m, sys.argv[2])) as c:
        listed = [str(r.uri) for r in (await c.list_resources()).resources]
        reads = []
        for uri in json.loads(sys.argv[3]):
            try:
                r = await c.read_resource(AnyUrl(uri))
                reads.append([x.model_dump(mode="json", by_alias=True, exclude_none=True) for x in r.contents])
            except Exception as e:
                reads.append("error: " + str(e))
        print(json.dumps([listed, reads]))
anyio.run(main)
leave()
"""
)
READ_V2 = (
    LEAVE
    + """
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("port_case", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
import mcp
async def main():
    async with mcp.Client(getattr(m, sys.argv[2]), mode=sys.argv[4]) as c:
        listed = [r.uri for r in (await c.list_resources()).resources]
        reads = []
        for uri in json.loads(sys.argv[3]):
            try:
                r = await c.read_resource(uri)
                reads.append([x.model_dump(mode="json", by_alias=True, exclude_none=True) for x in r.contents])
            except Exception as e:
                reads.append("error: " + str(e))
        print(json.dumps([listed, reads]))
anyio.run(main)
leave()
"""
)


def _read(python: str, driver: str, file: Path, case: dict, *mode: str) -> list:
    import json
    import subprocess

    out = subprocess.run(
        [python, "-c", driver, str(file), case["server"], json.dumps(case["resources"]), *mode],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return json_answer(out, f"{file.name} under {python}", last_line=True)


@pytest.mark.parametrize("case_dir", RESOURCE_CASES, ids=[p.name for p in RESOURCE_CASES])
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_port_reads_resources_like_the_original(
    case_dir: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    case = load_toml(case_dir / "case.toml")
    before = _read(legacy_python, READ_V1, case_dir / "before.py", case)
    after = _read(mcp2_python, READ_V2, case_dir / "after_param.py", case, mode)
    assert after == before
    assert all(r for r in before[1][:-1]), before  # the known URIs were read

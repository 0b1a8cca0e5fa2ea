"""The hand-rolled JSON-RPC fixtures run (README "How it is proven"): before.py and after_interim.py are started
as subprocesses and driven over stdio, one JSON object per line, by a fake client.

Each ``[[handrolled_proof]]`` scenario of a fixture (``sdk = "none"``, a server without any SDK) gives
the tool, its ``arguments``, the ``key`` the fix asks under, and the client's ``answer`` (the result it
returns for the server's question: roots, a sampled message, an elicitation outcome). Proven:

- before.py pushes a server-to-client request (a message with ``method`` and ``id``) from tools/call:
  a 2026-07-28 client, which never answers server requests, gets no reply to its call (the server
  waits for an answer that never comes);
- before.py on a legacy connection (initialize, then the call; the client answers the pushed request
  with ``answer``) replies with ``expect_text``: the baseline;
- after_interim.py on a 2026-07-28 connection (no initialize, ``_meta`` on every request) answers the
  first tools/call with ``resultType: "input_required"`` whose ``inputRequests`` is exactly
  ``{key: {"method", "params"}}`` of the request before.py pushed, with no ``requestState`` and without
  sending any request itself; the retry (new id, ``params.inputResponses = {key: answer}``) gets exactly
  the baseline result. A declining elicitation gives the original decline branch.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import tomllib

# `{root_uri}` / `{root}` in scenario values, and the directory they name (a.txt, sub/b.txt)
from tests.test_proof_interim import _substitute, interim_root  # noqa: F401 (a fixture)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {"roots": {}, "sampling": {}, "elicitation": {"form": {}}},
    "io.modelcontextprotocol/clientInfo": {"name": "fake-2026-client", "version": "0"},
}
TIMEOUT_S = 10.0
# How long a 2026-07-28 client waits for a reply that before.py never sends (it waits for our answer).
SILENCE_S = 1.0


def _load(case_dir: Path) -> dict[str, Any]:
    return tomllib.loads((case_dir / "case.toml").read_text(encoding="utf-8"))


ALL = sorted(p.parent for p in FIXTURES.glob("*/*/case.toml"))
CASES = [c for c in ALL if _load(c).get("handrolled_proof")]
SCENARIOS = [(c, i) for c in CASES for i in range(len(_load(c)["handrolled_proof"]))]


def _scenario_id(item: tuple[Path, int]) -> str:
    return f"{item[0].parent.name}/{item[0].name}#{item[1]}"


def test_every_handrolled_after_interim_is_proven() -> None:
    handrolled = {
        c
        for c in ALL
        if (c / "after_interim.py").is_file()
        and _load(c).get("sdk", "none") == "none"
        and _load(c).get("target_sdk") != "fastmcp4"  # run by tests/test_port_fastmcp.py
    }
    assert handrolled, "no hand-rolled interim fixtures"
    assert handrolled == set(CASES)


class Server:
    """A fixture server under a fake client: JSON lines in, JSON lines out (read on a thread)."""

    def __init__(self, file: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-u", str(file)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=str(file.parent),
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = TIMEOUT_S) -> dict[str, Any] | None:
        """The next message, or None when none comes within ``timeout`` (or the server exited)."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return json.loads(line) if line is not None else None

    def close(self) -> str:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        assert self.proc.stderr is not None
        return self.proc.stderr.read()


def _scenario(item: tuple[Path, int], root: Path) -> tuple[Path, dict[str, Any]]:
    case_dir, index = item
    return case_dir, _substitute(_load(case_dir)["handrolled_proof"][index], root)


def _call(request_id: int, scenario: dict[str, Any], modern: bool, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"name": scenario["tool"], "arguments": scenario.get("arguments", {}), **extra}
    if modern:
        params["_meta"] = META
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def _texts(result: dict[str, Any]) -> str:
    return "\n".join(item["text"] for item in result["content"] if item.get("type") == "text")


def _legacy_baseline(case_dir: Path, scenario: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """before.py on a legacy connection whose client answers the pushed request with the scenario's
    answer: (the request the server pushed, the tools/call result)."""
    server = Server(case_dir / "before.py")
    try:
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": LEGACY,
                    "capabilities": {"roots": {}, "sampling": {}, "elicitation": {"form": {}}},
                    "clientInfo": {"name": "fake-legacy-client", "version": "0"},
                },
            }
        )
        init = server.receive()
        assert init is not None and init.get("id") == 0 and "result" in init, init
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.send(_call(1, scenario, modern=False))
        pushed = server.receive()
        assert pushed is not None and "method" in pushed and "id" in pushed, f"no server request: {pushed}"
        server.send({"jsonrpc": "2.0", "id": pushed["id"], "result": scenario["answer"]})
        reply = server.receive()
        assert reply is not None and reply.get("id") == 1 and "result" in reply, reply
        return pushed, reply["result"]
    finally:
        server.close()


@pytest.mark.parametrize("item", SCENARIOS, ids=_scenario_id)
def test_before_pushes_a_request_a_2026_client_never_answers(item: tuple[Path, int], interim_root: Path) -> None:  # noqa: F811 (the imported fixture)
    case_dir, scenario = _scenario(item, interim_root)
    method = {"roots": "roots/list", "sampling": "sampling/createMessage", "elicitation": "elicitation/create"}
    server = Server(case_dir / "before.py")
    try:
        server.send(_call(1, scenario, modern=True))
        pushed = server.receive()
        assert pushed is not None, "before.py sent nothing"
        # A server-originated request: 2026-07-28 has no such thing, and the client does not answer it.
        assert pushed.get("method") == method[scenario["key"]] and "id" in pushed, pushed
        assert server.receive(timeout=SILENCE_S) is None, "before.py answered the call without the client's answer"
    finally:
        server.close()


@pytest.mark.parametrize("item", SCENARIOS, ids=_scenario_id)
def test_before_on_legacy_gives_the_expected_answer(item: tuple[Path, int], interim_root: Path) -> None:  # noqa: F811 (the imported fixture)
    case_dir, scenario = _scenario(item, interim_root)
    _pushed, result = _legacy_baseline(case_dir, scenario)
    if "expect_text" in scenario:
        assert _texts(result) == scenario["expect_text"], result


@pytest.mark.parametrize("item", SCENARIOS, ids=_scenario_id)
def test_after_interim_on_2026(item: tuple[Path, int], interim_root: Path) -> None:  # noqa: F811 (the imported fixture)
    case_dir, scenario = _scenario(item, interim_root)
    pushed, baseline = _legacy_baseline(case_dir, scenario)
    key = scenario["key"]
    server = Server(case_dir / "after_interim.py")
    try:
        server.send(_call(1, scenario, modern=True))
        first = server.receive()
        assert first is not None and first.get("id") == 1 and "method" not in first, f"not a reply to the call: {first}"
        interim = first["result"]
        assert interim["resultType"] == "input_required", interim
        asked = {k: pushed[k] for k in ("method", "params") if k in pushed}
        assert interim["inputRequests"] == {key: asked}, "the interim result does not ask what before.py pushed"
        assert "requestState" not in interim
        # The client answers and retries the same call under a new id.
        server.send(_call(2, scenario, modern=True, inputResponses={key: scenario["answer"]}))
        second = server.receive()
        assert second is not None and second.get("id") == 2 and "method" not in second, second
        assert second["result"] == baseline, f"after_interim.py: {second['result']} vs before.py (legacy) {baseline}"
        if "expect_text" in scenario:
            assert _texts(second["result"]) == scenario["expect_text"]
        assert server.receive(timeout=SILENCE_S / 4) is None, "after_interim.py sent something more"
    finally:
        stderr = server.close()
    assert "Traceback" not in stderr, stderr

"""Run fixture servers in memory against the official SDK client, in a given environment.

The work happens in ``run_server.py``, executed as a subprocess with the Python of the
environment whose SDK the fixture targets (see fixtures/README.md, "The proof harness").
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.proof.leave import DONE

RUN_SERVER = Path(__file__).resolve().with_name("run_server.py")

# The source of tests/proof/leave.py: a driver written as text starts with it and ends with
# ``leave()`` (after its answer), so it never runs the interpreter's shutdown.
LEAVE = Path(__file__).resolve().with_name("leave.py").read_text(encoding="utf-8") + "\n"

# Generous: a legacy-env start imports fastmcp (~2 s); each call has its own 20 s limit inside.
PROCESS_TIMEOUT_S = 180


class ProofError(RuntimeError):
    """The harness itself failed (import error, missing server object, bad output)."""


def run_proof(
    python: str,
    file: Path,
    server: str,
    mode: str,
    roots: list[str],
    calls: list[dict[str, Any]],
    client: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Serve ``server`` from ``file`` under ``python`` and return the harness's JSON answer.

    ``mode`` is ``"legacy"`` (2025-11-25 handshake) or ``"modern"`` (2026-07-28, mcp 2.x only).
    ``roots`` are the URIs the client's ``list_roots_callback`` answers with. ``calls`` are
    ``{"tool": name, "arguments": {...}}``. ``client`` optionally gives the client sampling and
    elicitation callbacks (see run_server.py). Raises ``ProofError`` carrying stderr when the
    harness fails; a failing *call* is not a harness failure (see the call's ``error``).
    """
    request = {
        "file": str(Path(file).resolve()),
        "server": server,
        "mode": mode,
        "roots": list(roots),
        "calls": [{"tool": c["tool"], "arguments": dict(c.get("arguments") or {})} for c in calls],
    }
    if client:
        request["client"] = client
    try:
        proc = subprocess.run(
            [str(python), str(RUN_SERVER)],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=PROCESS_TIMEOUT_S,
            cwd=str(Path(file).resolve().parent),
        )
    except subprocess.TimeoutExpired as exc:
        raise ProofError(f"proof harness timed out for {file} ({mode})\nstderr:\n{exc.stderr}") from exc
    return json_answer(proc, f"proof harness for {file} ({mode})")


def answer_of(proc: subprocess.CompletedProcess[str], what: str) -> str:
    """The answer a driver printed before :data:`~tests.proof.leave.DONE` (issue 21: a complete
    answer counts even when the process then died at shutdown, whatever its exit status). Raises
    ``ProofError`` with the exit status, stdout and stderr when the line is missing: the driver
    failed before answering."""
    answer, done, _ = proc.stdout.rpartition(DONE + "\n")
    if not done:
        raise ProofError(
            f"{what} gave no complete answer, exit {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}"
            f"\nstderr:\n{proc.stderr[-6000:]}"
        )
    return answer


def json_answer(proc: subprocess.CompletedProcess[str], what: str, last_line: bool = False) -> Any:
    """:func:`answer_of` as JSON (``last_line``: its last line only, after the lines a server printed)."""
    answer = answer_of(proc, what)
    text = answer.strip().splitlines()[-1] if last_line and answer.strip() else answer
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProofError(f"{what} printed no JSON\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}") from exc


__all__ = ["DONE", "LEAVE", "ProofError", "RUN_SERVER", "answer_of", "json_answer", "run_proof"]

"""Run fixture servers in memory against the official SDK client, in a given environment.

The work happens in ``run_server.py``, executed as a subprocess with the Python of the
environment whose SDK the fixture targets (see fixtures/README.md, "The proof harness").
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

RUN_SERVER = Path(__file__).resolve().with_name("run_server.py")

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
    if proc.returncode != 0:
        raise ProofError(f"proof harness failed for {file} ({mode}), exit {proc.returncode}\nstderr:\n{proc.stderr}")
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise ProofError(
            f"proof harness printed no JSON for {file} ({mode})\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
        ) from exc


__all__ = ["ProofError", "RUN_SERVER", "run_proof"]

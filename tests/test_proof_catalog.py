"""What the notification and logging fixes change is not a tool result but what the client
*receives*; test_proof_fixtures.py (results only) cannot show it. Here each fixture pair is run
through tests/proof/observe.py against the real SDK client (README "How it is proven"):

- MCP301: before.py reaches a legacy client but never a 2026-07-28 client that opened
  ``subscriptions/listen``; after_param.py reaches both (the session send stays for legacy
  clients, the listen-stream send is added), with the same tool results.
- MCP401: after_param.py returns the same results, sends no ``notifications/message``, and logs
  the same messages at the same levels through the standard library (and so to stderr).
- MCP402: after_param.py no longer answers ``logging/setLevel`` (the method is gone in
  2026-07-28) and its tools still work.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.proof import PROCESS_TIMEOUT_S, json_answer

OBSERVE = Path(__file__).resolve().parent / "proof" / "observe.py"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def observe(
    python: str, file: Path, server: str, mode: str, calls: list[dict[str, Any]], listen: dict[str, Any] | None = None
) -> tuple[dict[str, Any], str]:
    request = {"file": str(file), "server": server, "mode": mode, "calls": calls, "listen": listen}
    proc = subprocess.run(
        [python, str(OBSERVE)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT_S,
        cwd=str(file.parent),
    )
    return json_answer(proc, f"observe.py for {file} ({mode})"), proc.stderr


def _python(request: pytest.FixtureRequest, sdk: str) -> str:
    return request.getfixturevalue({"mcp1": "legacy_python", "mcp2": "mcp2_python"}[sdk])


def _ok(answer: dict[str, Any]) -> None:
    for call in answer["calls"]:
        assert call["error"] is None and not call["is_error"], call


def _results(answer: dict[str, Any]) -> list[tuple[Any, Any]]:
    return [(c["text"], c["structured"]) for c in answer["calls"]]


# --- MCP301 ----------------------------------------------------------------------------------
LIST_CHANGED = [
    # (fixture, server, calls, listen filter, expected methods on the connection, expected listen events)
    (
        "notifications/mcp2_mcpserver_list_changed",
        "mcp",
        [{"tool": "enable_extras"}, {"tool": "write_note", "arguments": {"name": "a", "text": "x"}}],
        {"tools_list_changed": True, "resources_list_changed": True, "resource_subscriptions": ["note://a"]},
        ["notifications/tools/list_changed", "notifications/resources/updated", "notifications/resources/list_changed"],
        [("ToolsListChanged", None), ("ResourceUpdated", "note://a"), ("ResourcesListChanged", None)],
    ),
    (
        "notifications/mcp2_lowlevel_list_changed",
        "server",
        [{"tool": "toggle"}],
        {"tools_list_changed": True},
        ["notifications/tools/list_changed"],
        [("ToolsListChanged", None)],
    ),
]


@pytest.mark.parametrize("case", LIST_CHANGED, ids=[c[0] for c in LIST_CHANGED])
def test_list_changed_reaches_legacy_and_listen_clients(case, mcp2_python: str) -> None:
    name, server, calls, listen, methods, events = case
    before, after = FIXTURES / name / "before.py", FIXTURES / name / "after_param.py"

    legacy_before, _ = observe(mcp2_python, before, server, "legacy", calls)
    legacy_after, _ = observe(mcp2_python, after, server, "legacy", calls)
    _ok(legacy_before)
    _ok(legacy_after)
    assert legacy_before["protocol_version"] == "2025-11-25"
    # a legacy client hears the change before and after the fix (the session send stays)
    assert [m for m in legacy_before["notifications"] if m in methods] == methods
    assert [m for m in legacy_after["notifications"] if m in methods] == methods
    assert _results(legacy_after) == _results(legacy_before)

    modern_before, _ = observe(mcp2_python, before, server, "modern", calls, listen)
    modern_after, _ = observe(mcp2_python, after, server, "modern", calls, listen)
    _ok(modern_before)
    _ok(modern_after)
    assert modern_after["protocol_version"] == "2026-07-28"
    # before: a 2026 client that opened subscriptions/listen hears nothing (or cannot listen at all)
    assert modern_before["events"] == []
    assert modern_after["listen_error"] is None
    assert [(e["type"], e["uri"]) for e in modern_after["events"]] == events
    assert _results(modern_after) == _results(modern_before) == _results(legacy_before)


# --- MCP401 / MCP402 -------------------------------------------------------------------------
LOGGING = [
    # (fixture, sdk, server, calls, expected stdlib records (logger, level, message) after the fix)
    (
        "logging/mcp1_fastmcp_ctx_logging",
        "mcp1",
        "mcp",
        [{"tool": "process", "arguments": {"item": "ab", "count": 2}}, {"tool": "check", "arguments": {"value": -1}}],
        [
            ("__name__", "INFO", "Processing 'ab' x2 (100% sure)"),
            ("__name__", "DEBUG", "starting"),
            ("rounds", "WARNING", "last round 1"),
            ("__name__", "ERROR", "negative value"),
        ],
    ),
    (
        "logging/mcp2_mcpserver_logging",
        "mcp2",
        "mcp",
        [{"tool": "restock", "arguments": {"sku": "x1", "amount": 150}}],
        [
            ("inventory", "INFO", "restock called"),
            ("inventory", "INFO", "restocking x1"),
            ("audit", "WARNING", "{'sku': 'x1', 'amount': 150}"),
            ("inventory", "INFO", "restock done"),
            ("orders", "CRITICAL", "huge order 150"),
        ],
    ),
    (
        "logging/mcp2_lowlevel_set_level",
        "mcp2",
        "server",
        [{"tool": "add", "arguments": {"a": 2, "b": 3}}],
        [("__name__", "DEBUG", "adding {'a': 2, 'b': 3}")],
    ),
    (
        "logging/mcp1_lowlevel_set_level",
        "mcp1",
        "server",
        [{"tool": "shout", "arguments": {"text": "hey"}}],
        [("shout", "INFO", "shouting hey")],
    ),
    (
        "logging/mcp1_fastmcp_set_level",
        "mcp1",
        "mcp",
        [{"tool": "double", "arguments": {"n": 21}}],
        [("__name__", "INFO", "doubling 21")],
    ),
    (
        "logging/fastmcp2_logging",
        "mcp1",
        "mcp",
        [{"tool": "deploy", "arguments": {"service": "api"}}],
        [
            ("__name__", "DEBUG", "deploying api"),
            ("__name__", "INFO", "deployed"),
            ("audit", "WARNING", "audit: deploy"),
        ],
    ),
]


@pytest.mark.parametrize("case", LOGGING, ids=[c[0] for c in LOGGING])
def test_protocol_logging_becomes_stdlib_logging(case, request: pytest.FixtureRequest) -> None:
    name, sdk, server, calls, expected = case
    python = _python(request, sdk)
    before, after = FIXTURES / name / "before.py", FIXTURES / name / "after_param.py"
    modes = ["legacy", "modern"] if sdk == "mcp2" else ["legacy"]
    baseline, _ = observe(python, before, server, "legacy", calls)
    _ok(baseline)
    assert baseline["client_logs"], "before.py should log through MCP (notifications/message)"
    for mode in modes:
        answer, stderr = observe(python, after, server, mode, calls)
        _ok(answer)
        # the tool's result is unchanged
        assert _results(answer) == _results(baseline), mode
        # nothing goes over MCP any more; the same messages go to the standard library instead
        assert answer["client_logs"] == [], mode
        assert [(r["logger"], r["level"], r["message"]) for r in answer["records"]] == expected, mode
        for _logger, level, message in expected:
            assert f"{level}:" in stderr and message in stderr, f"{message!r} not logged to stderr ({mode})"


SET_LEVEL = [
    ("logging/mcp2_lowlevel_set_level", "mcp2", "server", {"tool": "add", "arguments": {"a": 2, "b": 3}}),
    ("logging/mcp1_lowlevel_set_level", "mcp1", "server", {"tool": "shout", "arguments": {"text": "hey"}}),
    ("logging/mcp1_fastmcp_set_level", "mcp1", "mcp", {"tool": "double", "arguments": {"n": 21}}),
    ("logging/mcp2_mcpserver_add_request_handler", "mcp2", "mcp", {"tool": "greet", "arguments": {"name": "ada"}}),
]


@pytest.mark.parametrize("case", SET_LEVEL, ids=[c[0] for c in SET_LEVEL])
def test_set_logging_level_handler_is_gone(case, request: pytest.FixtureRequest) -> None:
    name, sdk, server, tool_call = case
    python = _python(request, sdk)
    calls = [{"request": "set_logging_level", "level": "debug"}, tool_call]
    before, _ = observe(python, FIXTURES / name / "before.py", server, "legacy", calls)
    after, _ = observe(python, FIXTURES / name / "after_param.py", server, "legacy", calls)
    _ok(before)
    # logging/setLevel no longer exists: the server answers "method not found"; the tool still works
    assert after["calls"][0]["error"] is not None and "not found" in after["calls"][0]["error"].lower(), after["calls"][
        0
    ]
    assert after["calls"][1]["error"] is None and after["calls"][1]["text"] == before["calls"][1]["text"]

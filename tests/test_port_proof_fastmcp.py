"""The pure logic of scripts/port_proof_fastmcp.py (the proof itself needs the real trees and their
venvs, see the script's docstring): normalisation of volatile values, result chaining, the
elicitation answer, the comparison that sets fastmcp 3's rendering changes aside, and the check
that the installed mcpmigrate knows ``--target-sdk fastmcp4``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("port_proof_fastmcp", REPO / "scripts" / "port_proof_fastmcp.py")
assert _spec and _spec.loader
proof = importlib.util.module_from_spec(_spec)
sys.modules["port_proof_fastmcp"] = proof
_spec.loader.exec_module(proof)


def test_norm_keeps_json_text_valid_and_masks_volatile_values() -> None:
    text = json.dumps(
        {
            "db": "sqlite:////tmp/port-proof-fm-x/state/a/shop.db",
            "other": "see /tmp/elsewhere/file",
            "duration_ms": 12.5,
            "id": "5f01556e-1c2d-4e5f-8a9b-0123456789ab",
            "file": "query_5f01556e_20261130_211304",
            "url": "http://127.0.0.1:9/b/k?AWSAccessKeyId=AK&Signature=ZaaR%2Bu&Expires=1796072896",
        }
    )
    out = proof.norm(
        {"text": text, "duration_ms": 3, "compact": '{"duration_ms":1.76}'}, {"state": "/tmp/port-proof-fm-x/state/a"}
    )
    assert out["duration_ms"] == 0
    assert json.loads(out["compact"]) == {"duration_ms": 0}
    assert json.loads(out["text"]) == {
        "db": "sqlite:///{state}/shop.db",
        "other": "see <tmp>",
        "duration_ms": 0,
        "id": "<uuid>",
        "file": "query_<id>",
        "url": "http://127.0.0.1:9/b/k?AWSAccessKeyId=AK&Signature=<v>&Expires=<v>",
    }


def test_chain_takes_a_key_from_an_earlier_result_even_inside_json_text() -> None:
    earlier = [None, [None, ['{\n  "valid": true,\n  "query_id": "q-1"\n}']], [{"query_id": "q-2"}, []]]
    assert proof.chain({"query_id": "$1.query_id", "connection": "default"}, earlier) == {
        "query_id": "q-1",
        "connection": "default",
    }
    assert proof.chain({"query_id": "$2.query_id"}, earlier) == {"query_id": "q-2"}
    assert proof.chain({"query_id": "$0.query_id"}, earlier) == {"query_id": None}


def test_elicit_content_answers_each_property_by_type() -> None:
    schema = {
        "type": "object",
        "properties": {"answer": {"type": "boolean"}, "name": {"type": "string"}, "pick": {"enum": ["b", "c"]}},
    }
    assert proof.elicit_content(schema) == {"answer": True, "name": "yes", "pick": "b"}


FM2_TOOL: dict[str, Any] = {
    "_meta": {"_fastmcp": {"tags": []}},
    "description": "Ping.\n\nArgs:\n    connection: Connection name.",
    "inputSchema": {"properties": {"connection": {"type": "string"}}, "required": ["connection"], "type": "object"},
    "name": "ping",
    "outputSchema": {
        "description": "Generic wrapper for non-object return types.",
        "properties": {"result": {"type": "string"}},
        "type": "object",
        "x-fastmcp-wrap-result": True,
    },
}
FM4_TOOL: dict[str, Any] = {
    "_meta": {"fastmcp": {"tags": []}},
    "description": "Ping.",
    "inputSchema": {
        "additionalProperties": False,
        "properties": {"connection": {"description": "Connection name.", "type": "string"}},
        "required": ["connection"],
        "type": "object",
    },
    "name": "ping",
    "outputSchema": {"properties": {"result": {"type": "string"}}, "type": "object", "x-fastmcp-wrap-result": True},
    "title": "Ping",
}


def _row(tools: list[dict], calls: list[dict]) -> dict:
    return {"error": None, "tools": [json.dumps(t, sort_keys=True) for t in tools], "calls": calls}


SPEC = proof.Spec("s", Path("."), ".", ".", [], "", "", calls=[("ping", {}), ("nope", {})])


def test_fastmcp3_rendering_is_set_aside_but_an_argument_change_is_not() -> None:
    inner = {"content": [{"type": "text", "text": "ok", "annotations": None}], "structuredContent": {"a": 1}}
    fm2_call = {"content": [{"type": "text", "text": json.dumps(inner)}], "is_error": False, "structured": inner}
    fm4_call = {"content": [{"type": "text", "text": "ok"}], "is_error": False, "structured": {"a": 1}}
    unknown2 = {"content": [{"type": "text", "text": "Unknown tool: nope"}], "is_error": True, "structured": None}
    unknown4 = {"content": [{"type": "text", "text": "Unknown tool: 'nope'"}], "is_error": True, "structured": None}
    base = _row([FM2_TOOL], [fm2_call, unknown2])
    row = _row([FM4_TOOL], [fm4_call, unknown4])
    assert proof.differences(base, row, SPEC) == ["tools/list (ping)", "call 0 ping", "call 1 nope"]
    assert proof.shape_differences(base, row, SPEC) == []
    changed = {**FM4_TOOL, "inputSchema": {**FM4_TOOL["inputSchema"], "required": []}}
    assert proof.shape_differences(base, _row([changed], [fm4_call, unknown4]), SPEC) == ["tools/list (ping)"]


def test_a_run_that_failed_is_reported_with_its_error() -> None:
    base = _row([FM2_TOOL], [])
    failed: dict[str, Any] = {"error": "ExceptionGroup: ImportError", "tools": None, "calls": []}
    assert proof.differences(base, failed, SPEC) == ["run: ExceptionGroup: ImportError"]
    assert proof.shape_differences(base, failed, SPEC) == ["run: ExceptionGroup: ImportError"]
    assert not proof.identical(base, failed)


def test_knows_target_reads_the_fix_help() -> None:
    without = [sys.executable, "-c", "print('--target-sdk {mcp2}')"]
    assert "does not know `fix --target-sdk fastmcp4`" in (proof.knows_target(without) or "")
    with_it = [sys.executable, "-c", "print('--target-sdk {mcp2,fastmcp4}')"]
    assert proof.knows_target(with_it) is None


def test_sites_counts_the_requests_that_ask_the_client() -> None:
    report = {
        "fixed": [{"rule": "MCP511"}, {"rule": "MCP202"}],
        "findings": [{"rule": "MCP201"}, {"rule": "MCP202"}, {"rule": "MCP102"}],
    }
    assert proof.sites(report) == "1/3 fixed (elicitation, sampling)"
    assert proof.sites({"fixed": [], "findings": []}) == "0/0 fixed (none)"
    assert proof.sites({"hand": "/tmp/x"}) == "—"


def test_last_exception_names_why_a_server_died() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "server.py", line 10, in <module>\n'
        "    from mcp.server.fastmcp import Context\n"
        "ModuleNotFoundError: No module named 'mcp.server.fastmcp'. This is mcp 2.x\n"
    )
    assert proof.last_exception(log) == "ModuleNotFoundError: No module named 'mcp.server.fastmcp'. This is mcp 2.x"
    assert proof.last_exception("INFO started\n") is None

"""MCP604 on JSON-RPC that is not MCP (field case: oraios/serena at 7fcbca7e,
test/solidlsp/dart/test_dart_startup.py, a fake language server answering the Language Server
Protocol's `initialize` with `{"capabilities": {}}`): JSON-RPC alone does not make a module MCP
code, so its `initialize` branch is not the MCP handshake. A hand-rolled MCP server names an MCP
method or the handshake's `protocolVersion`, and keeps its finding."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import cli

LSP_FAKE = """\
from typing import Any


class FakeLanguageServer:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send_payload(self, payload: dict[str, Any]) -> None:
        if "id" not in payload:
            return
        result: Any = {"capabilities": {}} if payload.get("method") == "initialize" else None
        self.sent.append({"jsonrpc": "2.0", "id": payload["id"], "result": result})
"""

MCP_HANDSHAKE = """\
import json
import sys


def answer(message: dict) -> dict:
    if message.get("method") == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {}, "serverInfo": {"name": "notes"}}
    else:
        result = {}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
"""


def test_an_lsp_initialize_branch_is_not_the_mcp_handshake(tmp_path: Path) -> None:
    (tmp_path / "fake_ls.py").write_text(LSP_FAKE)
    (tmp_path / "notes.py").write_text(MCP_HANDSHAKE)
    out = cli(["check", "--no-cache", "--output-format", "json", "--select", "MCP604", "."], tmp_path)
    found = json.loads(out.stdout)["findings"]
    assert [(f["path"], f["line"], f["column"], f["manual"]) for f in found] == [
        ("notes.py", 6, 8, "add a `server/discover` branch and serve requests without a prior handshake")
    ], out.stdout


LSP_NOT_INITIALIZED = """\
import json
import sys

READY = {"initialized": False}


def answer(message: dict) -> dict:
    if message.get("method") != "initialize" and not READY["initialized"]:
        error = {"code": -32002, "message": "server not initialized"}
        return {"jsonrpc": "2.0", "id": message["id"], "error": error}
    READY["initialized"] = True
    return {"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {}}}


for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
"""

MCP_NOT_FOUND = """\
import json
import sys

NOTES = {"note://first": "hello"}


def answer(message: dict) -> dict:
    if message.get("method") == "resources/read":
        uri = message["params"]["uri"]
        if uri not in NOTES:
            error = {"code": -32002, "message": f"no resource {uri}"}
            return {"jsonrpc": "2.0", "id": message["id"], "error": error}
        result = {"contents": [{"uri": uri, "text": NOTES[uri]}]}
        return {"jsonrpc": "2.0", "id": message["id"], "result": result}
    return {"jsonrpc": "2.0", "id": message["id"], "result": {}}


for line in sys.stdin:
    print(json.dumps(answer(json.loads(line))), flush=True)
"""


def test_lsp_server_not_initialized_is_not_the_old_resource_not_found_code(tmp_path: Path) -> None:
    """LSP's ServerNotInitialized is -32002 too: a JSON-RPC module without MCP evidence sends it for
    another protocol, while a hand-rolled MCP server (it dispatches `resources/read`) keeps MCP603."""
    (tmp_path / "fake_ls.py").write_text(LSP_NOT_INITIALIZED)
    (tmp_path / "notes.py").write_text(MCP_NOT_FOUND)
    out = cli(["check", "--no-cache", "--output-format", "json", "--select", "MCP603", "."], tmp_path)
    found = json.loads(out.stdout)["findings"]
    assert [(f["path"], f["line"], f["column"], f["rule"]) for f in found] == [("notes.py", 11, 30, "MCP603")], (
        out.stdout
    )

"""MCP608: results a hand-rolled server writes itself get the fields 2026-07-28 requires.

Proven by running: the server below (JSON-RPC over stdio, no SDK) answers ``tools/list`` and
``tools/call``; before the fix its results fail the 2026-07-28 requirements
(``schema/2026-07-28/schema.json``: ``ListToolsResult`` requires ``resultType``, ``ttlMs``,
``cacheScope``; ``CallToolResult`` requires ``resultType``), after ``mcpmigrate fix`` (safe) they
meet them with the values mcp 2.3 sends for the same result, and mcp 1.27's and mcp 2.3's result
models read the same tools and content from both.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

from tests.helpers import cli, findings_of

SERVER = """import json
import sys


def reply(msg_id, result):
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


def handle(request: dict) -> dict | None:
    method = request.get("method")
    if "id" not in request:
        return None
    if method == "tools/list":
        return reply(request["id"], {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    if method == "tools/call":
        text = request["params"]["arguments"]["text"]
        return {"jsonrpc": "2.0", "id": request["id"], "result": {"content": [{"type": "text", "text": text}]}}
    return {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}}


for line in sys.stdin:
    answer = handle(json.loads(line))
    if answer is not None:
        print(json.dumps(answer), flush=True)
"""

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
REQUESTS = [
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}},
    {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": META},
    },
]
# the requirements of schema/2026-07-28/schema.json on these two results
REQUIRED = {
    "tools/list": {
        "type": "object",
        "required": ["resultType", "ttlMs", "cacheScope", "tools"],
        "properties": {
            "ttlMs": {"type": "integer", "minimum": 0},
            "cacheScope": {"enum": ["public", "private"]},
            "resultType": {"type": "string"},
        },
    },
    "tools/call": {
        "type": "object",
        "required": ["resultType", "content"],
        "properties": {"resultType": {"type": "string"}},
    },
}

_READ = r"""
import json, sys
import mcp.types as t
lst, call = json.loads(sys.stdin.read())
tools = t.ListToolsResult.model_validate(lst)
res = t.CallToolResult.model_validate(call)
print(json.dumps([[x.name for x in tools.tools], [c.text for c in res.content]]))
"""


def _results(path: Path) -> list[dict]:
    lines = "".join(json.dumps(r) + "\n" for r in REQUESTS)
    out = subprocess.run([sys.executable, str(path)], input=lines, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return [json.loads(line)["result"] for line in out.stdout.splitlines()]


def _read(python: str, results: list[dict]) -> list:
    out = subprocess.run([python, "-c", _READ], input=json.dumps(results), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _valid(method: str, result: dict) -> bool:
    try:
        jsonschema.validate(result, REQUIRED[method])
    except jsonschema.ValidationError:
        return False
    return True


def test_results_meet_the_revision_after_the_safe_fix(tmp_path: Path, mcp2_python: str, legacy_python: str) -> None:
    server = tmp_path / "server.py"
    server.write_text(SERVER)
    check = cli(["check", "--output-format", "json", "--select", "MCP608", "server.py"], tmp_path)
    assert findings_of(check) == [("MCP608", 14), ("MCP608", 17)], check.stdout
    assert {f["fix"]["safety"] for f in json.loads(check.stdout)["findings"]} == {"safe"}
    before = _results(server)
    assert [_valid(m, r) for m, r in zip(REQUIRED, before, strict=True)] == [False, False]

    cli(["fix", "--select", "MCP608", "server.py"], tmp_path)
    fixed = server.read_text()
    # the rewritten returns laid out as ruff format lays them out (88 columns: no configuration)
    assert fixed == SERVER.replace(
        '        return reply(request["id"], {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})\n',
        "        return reply(\n"
        '            request["id"],\n'
        "            {\n"
        '                "tools": [{"name": "echo", "inputSchema": {"type": "object"}}],\n'
        '                "resultType": "complete",\n'
        '                "ttlMs": 0,\n'
        '                "cacheScope": "private",\n'
        "            },\n"
        "        )\n",
    ).replace(
        '        return {"jsonrpc": "2.0", "id": request["id"], "result": {"content": [{"type": "text", "text": text}]}}\n',
        "        return {\n"
        '            "jsonrpc": "2.0",\n'
        '            "id": request["id"],\n'
        '            "result": {\n'
        '                "content": [{"type": "text", "text": text}],\n'
        '                "resultType": "complete",\n'
        "            },\n"
        "        }\n",
    )
    after = _results(server)
    assert [_valid(m, r) for m, r in zip(REQUIRED, after, strict=True)] == [True, True]
    # the values are what mcp 2.3 sends for the same results
    import mcp_types

    sdk = mcp_types.ListToolsResult.model_validate(before[0]).model_dump(by_alias=True, mode="json", exclude_none=True)
    assert {k: sdk[k] for k in ("resultType", "ttlMs", "cacheScope")} == {
        k: after[0][k] for k in ("resultType", "ttlMs", "cacheScope")
    }
    # legacy (mcp 1.27) and modern (mcp 2.3) result models read the same tools and content
    for python in (legacy_python, mcp2_python):
        assert _read(python, before) == _read(python, after) == [["echo"], ["hi"]]
    again = cli(["check", "--select", "MCP608", "server.py"], tmp_path)
    assert again.exit_code == 0, again.stdout


def test_sdk_server_and_peer_envelope_shapes(tmp_path: Path) -> None:
    """An SDK-importing module is never reported (the SDK fills the fields), nor a result whose
    method cannot be told; a `resultType` put on the envelope instead of the result is still missing
    from the result."""
    (tmp_path / "server.py").write_text(
        "def handle(request):\n"
        "    if request['method'] == 'tools/list':\n"
        "        return {'jsonrpc': '2.0', 'id': request['id'], 'result': {'tools': []}, 'resultType': 'complete'}\n"
        "    return {'jsonrpc': '2.0', 'id': request['id'], 'result': {'ok': True}}\n"
    )
    check = cli(["check", "--output-format", "json", "--select", "MCP608", "server.py"], tmp_path)
    assert findings_of(check) == [("MCP608", 3)], check.stdout
    cli(["fix", "--select", "MCP608", "server.py"], tmp_path)
    # (the rewritten statement takes ruff format's double quotes)
    assert (
        '            "result": {\n'
        '                "tools": [],\n'
        '                "resultType": "complete",\n'
        '                "ttlMs": 0,\n'
        '                "cacheScope": "private",\n'
        "            },\n"
    ) in (tmp_path / "server.py").read_text()


def test_response_class_and_a_method_helper(tmp_path: Path) -> None:
    """A hand-rolled server with its own response class (``Response(jsonrpc=…, id=…, result=…)``)
    built in a method the dispatch calls as ``self._ok(result, id)`` — the shape of a serverless
    handler: each result display is reported at its call, `ping`'s and `initialize`'s are not."""
    (tmp_path / "server.py").write_text(
        "from dataclasses import dataclass\n"
        "\n"
        "\n"
        "@dataclass\n"
        "class Response:\n"
        "    jsonrpc: str\n"
        "    id: object\n"
        "    result: dict\n"
        "\n"
        "\n"
        "class Handler:\n"
        "    def _ok(self, result, request_id):\n"
        "        return Response(jsonrpc='2.0', id=request_id, result=result)\n"
        "\n"
        "    def handle(self, request):\n"
        "        if request.method == 'initialize':\n"
        "            return self._ok({'protocolVersion': '2025-06-18'}, request.id)\n"
        "        if request.method == 'tools/list':\n"
        "            return self._ok({'tools': []}, request.id)\n"
        "        if request.method == 'resources/read':\n"
        "            return self._ok({'contents': []}, request.id)\n"
        "        if request.method == 'ping':\n"
        "            return self._ok({}, request.id)\n"
    )
    check = cli(["check", "--output-format", "json", "--select", "MCP608", "server.py"], tmp_path)
    assert findings_of(check) == [("MCP608", 19), ("MCP608", 21)], check.stdout

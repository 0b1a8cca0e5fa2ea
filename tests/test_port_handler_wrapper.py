"""MCP509 on a wrapper around a 1.x FastMCP's ``tools/call`` handler (issue 22, telegram-mcp's
``_install_annotation_hook`` in runtime.py): the handler read from
``mcp._mcp_server.request_handlers[CallToolRequest]``, a wrapper that awaits it and annotates the
``CallToolResult`` inside the ``ServerResult``, written back. Ported to mcp 2.x's low-level server
(``codemods/port/handler_wrapper.py``) exactly to ``call_tool_wrapper.fixed.py``; the original on
mcp 1.27 and the port on mcp 2.3 (both eras) give the client the same blocks, annotations included.
Any other shape keeps MCP509's manual reason and blocks the port.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import LEAVE, json_answer

DATA = Path(__file__).resolve().parent / "data" / "port"
ORIGINAL = DATA / "call_tool_wrapper.py"
FIXED = DATA / "call_tool_wrapper.fixed.py"

# Loads argv[1], calls argv[2]'s tools (JSON) on its server `mcp`, prints every result whole (one JSON
# line): on mcp 1.x through its in-memory session, on mcp 2.x through `Client` in the era argv[3] names.
_DRIVER = (
    LEAVE
    + """
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("wrapped", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
async def main():
    if len(sys.argv) > 3:
        import mcp
        client = mcp.Client(m.mcp, mode=sys.argv[3])
    else:
        from mcp.shared.memory import create_connected_server_and_client_session as connect
        client = connect(m.mcp._mcp_server)
    async with client as c:
        out = []
        for name, args in json.loads(sys.argv[2]):
            d = (await c.call_tool(name, args)).model_dump(mode="json", by_alias=True, exclude_none=True)
            out.append({"isError": d.get("isError", False), "content": d["content"]})
        print(json.dumps(out))
anyio.run(main)
leave()
"""
)
CALLS = [["echo", {"text": "hi"}], ["fail", {"text": "luck"}], ["nope", {}]]
USER = {"audience": ["user"]}


def _served(python: str, file: Path, *mode: str) -> list[dict]:
    out = subprocess.run(
        [python, "-c", _DRIVER, str(file), json.dumps(CALLS), *mode],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=file.parent,
    )
    return json_answer(out, f"{file.name} under {python}", last_line=True)


def test_the_wrapper_is_ported_exactly(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_bytes(ORIGINAL.read_bytes())
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    wrapper = [(f["line"], f["column"], f["fix"]["safety"]) for f in res.json["findings"] if f["rule"] == "MCP509"]
    assert wrapper == [(14, 24, "safe"), (31, 5, "safe")]
    res = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], tmp_path)
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    assert server.read_text(encoding="utf-8") == FIXED.read_text(encoding="utf-8")
    again = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], tmp_path)
    assert again.json["fixed"] == [] and server.read_text(encoding="utf-8") == FIXED.read_text(encoding="utf-8")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_port_annotates_as_the_original_did(mode: str, legacy_python: str, mcp2_python: str) -> None:
    before = _served(legacy_python, ORIGINAL)
    after = _served(mcp2_python, FIXED, mode)
    assert after == before
    assert [c["content"][0].get("annotations") for c in after] == [USER, USER, USER]
    assert [(c["isError"], c["content"][0]["text"]) for c in after] == [
        (False, "hi"),
        (True, "Error executing tool fail: no luck"),
        (True, "Unknown tool: nope"),
    ]


MANUAL = (
    "FastMCP's private `_mcp_server` is `mcp._lowlevel_server` on mcp 2.x, whose handlers are keyed by method: "
    '`request_handlers[CallToolRequest]` is `mcp._lowlevel_server.get_request_handler("tools/call").handler` there, '
    "called as `(ctx, params)` (a `ServerRequestContext` and a `CallToolRequestParams`, not the `CallToolRequest`) and "
    "returning the result itself (no `.root`: `ServerResult` is a plain union on mcp 2.x); a wrapper is registered "
    'with `mcp._lowlevel_server.add_request_handler("tools/call", CallToolRequestParams, handler)`: port this use by '
    "hand (read “Lowlevel `Server`: decorator-based handlers replaced with constructor `on_*` params” in the "
    "python-sdk migration guide (docs/migration.md))"
)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("response = await original_handler(req)", "response = await original_handler(req)\n        print(req)"),
        ("        return response\n", "        return response.root\n"),
        ("        return response\n", "        return ServerResult(response.root)\n"),
        ("isinstance(response, ServerResult) and isinstance", "isinstance"),
        ("                response.root.content = [", "                response.root = [\n"),
    ],
    ids=["request-read", "root-returned", "result-rebuilt", "no-union-test", "root-rebound"],
)
def test_any_other_wrapper_stays_manual_and_blocks_the_port(tmp_path: Path, old: str, new: str) -> None:
    source = ORIGINAL.read_text(encoding="utf-8")
    assert old in source
    changed = source.replace(old, new, 1)
    if "response.root = [\n" in changed:
        changed = changed.replace("response.root = [\n\n", "response.root = [\n")
    server = tmp_path / "server.py"
    server.write_text(changed, encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], tmp_path)
    left = [(f["line"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP509"]
    assert [m for _line, m in left] == [MANUAL, MANUAL], left
    assert server.read_text(encoding="utf-8") == changed


def test_the_names_imported_at_module_level_are_swapped_there(tmp_path: Path) -> None:
    """``CallToolRequest``/``ServerResult`` imported by the module (not the function): the params
    type is imported there, and the names only the wrapper used go."""
    source = ORIGINAL.read_text(encoding="utf-8")
    source = source.replace(
        "from mcp.types import Annotations, TextContent\n",
        "from mcp.types import Annotations, CallToolRequest, CallToolResult, ServerResult, TextContent\n",
    ).replace("    from mcp.types import CallToolRequest, ServerResult, CallToolResult\n\n", "")
    server = tmp_path / "server.py"
    server.write_text(source, encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], tmp_path)
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    expected = (
        FIXED.read_text(encoding="utf-8")
        .replace(
            "from mcp.types import Annotations, TextContent\n",
            "from mcp.types import (\n    Annotations,\n    CallToolRequestParams,\n    CallToolResult,\n    TextContent,\n)\n",
        )
        .replace("    from mcp.types import CallToolRequestParams, CallToolResult\n\n", "")
    )
    assert server.read_text(encoding="utf-8") == expected


# -- MCP506 through FastMCP's own tool listing (telegram-mcp's `_apply_exposed_tools_mode`) -------
PRUNE = """from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

mcp = FastMCP("notes")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def read() -> str:
    return "r"


@mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
def write() -> str:
    return "w"


def prune(server: FastMCP = mcp) -> list[str]:
    removed = []
    for tool in list(server._tool_manager.list_tools()):
        annotations = getattr(tool, "annotations", None)
        if not getattr(annotations, "readOnlyHint", False):
            server._tool_manager.remove_tool(tool.name)
            removed.append(tool.name)
    return removed
"""


def test_a_camelcase_field_read_through_the_tool_managers_listing_is_renamed(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """``getattr(annotations, "readOnlyHint", False)`` on the ``annotations`` of an element of
    ``server._tool_manager.list_tools()``: on mcp 2.x it answers the default (False) and every tool
    is pruned, so it is renamed to ``read_only_hint``; both SDKs then prune the same tool."""
    server = tmp_path / "server.py"
    server.write_text(PRUNE, encoding="utf-8")
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert [(f["line"], f["column"]) for f in res.json["findings"] if f["rule"] == "MCP506"] == [(21, 37)]
    run = "import importlib.util, json, sys; spec = importlib.util.spec_from_file_location('m', sys.argv[1]); "
    run += "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); print(json.dumps(m.prune()))"
    before = subprocess.run([legacy_python, "-c", run, str(server)], capture_output=True, text=True, timeout=120)
    assert json.loads(before.stdout) == ["write"], before.stderr
    res = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], tmp_path)
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    fixed = server.read_text(encoding="utf-8")
    assert fixed == PRUNE.replace(
        "from mcp.server.fastmcp import FastMCP", "from mcp.server.mcpserver import MCPServer"
    ).replace("FastMCP", "MCPServer").replace('"readOnlyHint"', '"read_only_hint"')
    after = subprocess.run([mcp2_python, "-c", run, str(server)], capture_output=True, text=True, timeout=120)
    assert json.loads(after.stdout) == ["write"], after.stderr
    camel = tmp_path / "camel.py"  # the port without the rename: mcp 2.3 prunes every tool
    camel.write_text(fixed.replace('"read_only_hint"', '"readOnlyHint"'), encoding="utf-8")
    unfixed = subprocess.run([mcp2_python, "-c", run, str(camel)], capture_output=True, text=True, timeout=120)
    assert json.loads(unfixed.stdout) == ["read", "write"], unfixed.stderr

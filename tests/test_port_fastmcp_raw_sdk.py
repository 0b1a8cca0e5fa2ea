"""The fastmcp 4 port (``--target-sdk fastmcp4``) of what a fastmcp 2/3 project takes from the SDK
itself: FastMCP 1.0 imports (``from mcp.server.fastmcp import Context``, MCP511) and camelCase
fields of raw SDK objects (``ctx.session.client_params.clientInfo``, MCP519). Exact findings and
rewrites, and the proof by execution: the original served by fastmcp 2.14.7 and 3.4.11, its port
by fastmcp 4.2.3 (this venv), both client eras.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import LEAVE, json_answer

CONTEXT_TOOL = """\
from fastmcp import FastMCP
from mcp.server.fastmcp import Context

mcp = FastMCP("discover")


@mcp.tool
async def discover(source: str, ctx: Context | None = None) -> str:
    return f"{source}:{ctx is None}"
"""

CONTEXT_HELPER = """\
from fastmcp import FastMCP
from fastmcp import Context as ToolContext
from mcp.server.fastmcp import Context

mcp = FastMCP("discover")


async def note(ctx: Context, text: str) -> Context:
    seen: Context = ctx
    return seen


@mcp.tool
async def discover(source: str, ctx: ToolContext) -> str:
    await note(ctx, source)
    return source
"""

CLIENT_INFO = """\
from fastmcp import Context, FastMCP
from fastmcp.server.dependencies import get_context

mcp = FastMCP("who")


def agent() -> str:
    ctx = get_context()
    if params := ctx.session.client_params:
        return f"{bool(params.clientInfo.name)}/{bool(params.clientInfo.version)}"
    return "?"


@mcp.tool
async def who(ctx: Context) -> str:
    return agent() + " " + str(bool(ctx.session.client_params.clientInfo.name))
"""


def _run(tmp_path: Path, command: str, code: str) -> tuple[list[tuple], str]:
    (tmp_path / "server.py").write_text(code, encoding="utf-8")
    res = cli(
        [
            command,
            *(["--unsafe-fixes"] if command == "fix" else []),
            "--target-sdk",
            "fastmcp4",
            "--ignore",
            "MCP1,MCP2,MCP4",
            "--output-format",
            "json",
            ".",
        ],
        tmp_path,
    )
    assert res.exception is None, str(res)
    found = [(f["rule"], f["line"], f["column"], (f.get("fix") or {}).get("safety")) for f in res.json["findings"]]
    return found, (tmp_path / "server.py").read_text(encoding="utf-8")


def test_sdk_context_on_a_tool_parameter_is_ported_unsafe_with_why(tmp_path: Path) -> None:
    found, _ = _run(tmp_path, "check", CONTEXT_TOOL)
    assert found == [("MCP511", 2, 1, "unsafe")]
    res = cli(["check", "--target-sdk", "fastmcp4", "--output-format", "json", "."], tmp_path)
    (f,) = [f for f in res.json["findings"] if f["rule"] == "MCP511"]
    assert "`discover` (line 8) can be registered with fastmcp and takes `ctx: Context`" in f["fix"]["description"]
    assert "refuses a call that still passes `ctx` (`Unexpected keyword argument`)" in f["fix"]["description"]
    _, fixed = _run(tmp_path, "fix", CONTEXT_TOOL)
    assert fixed == CONTEXT_TOOL.replace("from mcp.server.fastmcp import Context", "from fastmcp import Context")


def test_sdk_context_only_on_helpers_and_locals_is_a_safe_move(tmp_path: Path) -> None:
    found, _ = _run(tmp_path, "check", CONTEXT_HELPER)
    assert found == [("MCP511", 3, 1, "safe")]
    _, fixed = _run(tmp_path, "fix", CONTEXT_HELPER)
    assert fixed == CONTEXT_HELPER.replace("from mcp.server.fastmcp import Context", "from fastmcp import Context")


def test_a_value_use_or_a_registered_helper_makes_it_unsafe(tmp_path: Path) -> None:
    code = CONTEXT_HELPER.replace("    seen: Context = ctx\n", "    seen = ctx if isinstance(ctx, Context) else None\n")
    assert _run(tmp_path, "check", code)[0] == [("MCP511", 3, 1, "unsafe")]
    code = CONTEXT_HELPER + "\n\nmcp.tool(note)\n"
    assert _run(tmp_path, "check", code)[0] == [("MCP511", 3, 1, "unsafe")]


def test_image_and_names_the_guide_does_not_map(tmp_path: Path) -> None:
    code = "from mcp.server.fastmcp import Image, Icon\nfrom mcp.server.fastmcp.exceptions import InvalidSignature\n"
    assert _run(tmp_path, "check", code)[0] == [("MCP511", 1, 1, "unsafe"), ("MCP511", 2, 1, None)]
    assert _run(tmp_path, "fix", code)[1] == code  # InvalidSignature has no fastmcp 4 home: the module blocks the port
    found, fixed = _run(tmp_path, "fix", "from mcp.server.fastmcp import Image, Icon\n")
    assert fixed == "from fastmcp.utilities.types import Image\nfrom mcp.types import Icon\n"


def test_client_info_read_through_get_context_and_walrus_is_renamed(tmp_path: Path) -> None:
    found, _ = _run(tmp_path, "check", CLIENT_INFO)
    assert found == [
        ("MCP519", 10, 24, "safe"),
        ("MCP519", 10, 55, "safe"),
        ("MCP519", 16, 37, "safe"),
    ]
    _, fixed = _run(tmp_path, "fix", CLIENT_INFO)
    assert fixed == CLIENT_INFO.replace("clientInfo", "client_info")


def test_bridged_reads_unresolved_receivers_and_mcp2_target_are_left(tmp_path: Path) -> None:
    code = """\
from fastmcp import Context, FastMCP
from mcp.types import CallToolResult, Tool

mcp = FastMCP("x")


def read(tool: Tool, result: CallToolResult, ctx) -> str:
    return f"{tool.inputSchema} {result.isError} {ctx.session.client_params.clientInfo}"


def write(tool: Tool) -> None:
    tool.inputSchema = {}
"""
    assert _run(tmp_path, "check", code)[0] == [("MCP519", 12, 5, "safe")]
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert "MCP519" not in {f["rule"] for f in res.json["findings"]}


DRIVER = (
    LEAVE
    + """\
import asyncio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("srv", sys.argv[1])
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
from fastmcp import Client
async def main():
    kw = {"mode": sys.argv[3]} if sys.argv[3] != "-" else {}
    async with Client(mod.mcp, **kw) as c:
        t = (await c.list_tools())[0]
        props = (getattr(t, "input_schema", None) or t.inputSchema).get("properties")
        r = await c.call_tool(t.name, json.loads(sys.argv[2]), raise_on_error=False)
        print(json.dumps({"properties": sorted(props), "text": [x.text for x in r.content]}))
asyncio.run(main())
leave()
"""
)


def _serve(python: str, code: str, args: dict, mode: str | None, tmp_path: Path) -> dict:
    (tmp_path / "driver.py").write_text(DRIVER, encoding="utf-8")
    (tmp_path / "served.py").write_text(code, encoding="utf-8")
    proc = subprocess.run(
        [python, str(tmp_path / "driver.py"), str(tmp_path / "served.py"), json.dumps(args), mode or "-"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(tmp_path),
    )
    return json_answer(proc, f"driver.py under {python}", last_line=True)


@pytest.mark.parametrize("mode", ["legacy", None], ids=["legacy", "modern"])
def test_ported_client_info_serves_like_fastmcp2_and_3(
    mode: str | None, legacy_python: str, fastmcp3_python: str, tmp_path: Path
) -> None:
    _, fixed = _run(tmp_path, "fix", CLIENT_INFO)
    want = {"properties": [], "text": ["True/True True"]}
    assert _serve(legacy_python, CLIENT_INFO, {}, None, tmp_path) == want
    assert _serve(fastmcp3_python, CLIENT_INFO, {}, None, tmp_path) == want
    assert _serve(sys.executable, fixed, {}, mode, tmp_path) == want
    assert "no attribute 'clientInfo'" in _serve(sys.executable, CLIENT_INFO, {}, mode, tmp_path)["text"][0]


@pytest.mark.parametrize("mode", ["legacy", None], ids=["legacy", "modern"])
def test_ported_sdk_context_imports_on_fastmcp4_and_changes_what_the_review_says(
    mode: str | None, legacy_python: str, fastmcp3_python: str, tmp_path: Path
) -> None:
    _, fixed = _run(tmp_path, "fix", CONTEXT_TOOL)
    for python in (legacy_python, fastmcp3_python):  # the SDK's Context is a tool argument there
        assert _serve(python, CONTEXT_TOOL, {"source": "a"}, None, tmp_path) == {
            "properties": ["ctx", "source"],
            "text": ["a:True"],
        }
        assert _serve(python, CONTEXT_TOOL, {"source": "a", "ctx": None}, None, tmp_path)["text"] == ["a:True"]
    assert _serve(sys.executable, fixed, {"source": "a"}, mode, tmp_path) == {
        "properties": ["source"],
        "text": ["a:False"],
    }
    refused = _serve(sys.executable, fixed, {"source": "a", "ctx": None}, mode, tmp_path)["text"][0]
    assert "Unexpected keyword argument" in refused
    _, helper = _run(tmp_path, "fix", CONTEXT_HELPER)  # the safe move: the same answers
    for python in (legacy_python, fastmcp3_python):
        assert _serve(python, CONTEXT_HELPER, {"source": "a"}, None, tmp_path) == {
            "properties": ["source"],
            "text": ["a"],
        }
    assert _serve(sys.executable, helper, {"source": "a"}, mode, tmp_path) == {"properties": ["source"], "text": ["a"]}


def test_what_else_mcp2_removed_is_found_as_mcp511_and_fastmcp_keeps_mcp_server(tmp_path: Path) -> None:
    code = """\
from fastmcp import FastMCP
from mcp.shared.session import RequestResponder
from mcp.types import Field

mcp = FastMCP("x")
low = mcp._mcp_server
"""
    found, _ = _run(tmp_path, "check", code)
    assert found == [("MCP511", 2, 1, None), ("MCP511", 3, 23, "safe")]
    res = cli(["check", "--target-sdk", "fastmcp4", "--output-format", "json", "."], tmp_path)
    assert [f["manual"] for f in res.json["findings"] if f["line"] == 2] == ["the module is gone"]


def test_the_sdk_fastmcp_named_only_in_annotations_is_a_safe_move(tmp_path: Path) -> None:
    code = """\
from mcp.server.fastmcp import FastMCP


def register(server: FastMCP) -> None:
    server.add_tool(len)
"""
    assert _run(tmp_path, "check", code)[0] == [("MCP511", 1, 1, "safe")]
    built = code + '\n\nserver = FastMCP("x")\n'
    assert _run(tmp_path, "check", built)[0] == [("MCP511", 1, 1, "unsafe")]
    assert _run(tmp_path, "fix", code)[1] == code.replace("mcp.server.fastmcp", "fastmcp")

"""MCP502 (``McpError`` → ``MCPError``): what a client gets from the raise, before and after the port.

mcp 1.27 answers an ``McpError`` raised in a FastMCP tool with the tool error result
(``isError: true``, ``Error executing tool <name>: <message>``: ``Tool.run`` in
``mcp/server/fastmcp/tools/base.py``) and one raised in a low-level ``call_tool`` handler with an
``isError`` result carrying the message (the decorator in ``mcp/server/lowlevel/server.py``).
mcp 2.3's ``MCPServer`` re-raises ``MCPError`` and the kernel answers with a JSON-RPC error
(``MCPServer._handle_call_tool``), so the rename is safe only where the port keeps 1.27's answer:
MCP510's wrapper around the tool's body, MCP507's ``on_call_tool`` adapter. Where MCP510 cannot
wrap (a tool making a request the next round rewrites), the rename is unsafe and says so — each
label proven by running the original on mcp 1.27 and the port on mcp 2.3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import FIXTURES, cli
from tests.proof import run_proof
from tests.test_port_tool_errors import ASKS

# tests/test_port_tool_errors.py's booking tool (MCP510 leaves it: it elicits), its helper raising McpError
BOOK = ASKS.replace(
    "from mcp.server.fastmcp import Context, FastMCP\n",
    "from mcp.server.fastmcp import Context, FastMCP\nfrom mcp.shared.exceptions import McpError\n"
    "from mcp.types import INVALID_PARAMS, ErrorData\n",
).replace(
    'raise ValueError(f"unknown flight {flight}")',
    'raise McpError(ErrorData(code=INVALID_PARAMS, message=f"unknown flight {flight}"))',
)
NOTE = (
    "rename the import and its uses to mcp 2.x's names (same objects, same behaviour) (review: FastMCP tool `book` "
    "(line 16) raises an `McpError` (in the tool or a helper it calls), which mcp 1.x sent the client as a tool error "
    "result (`isError: true`, `Error executing tool <name>: <message>`); mcp 2.x's `MCPServer` answers the renamed "
    "`MCPError` with a JSON-RPC error response instead, and MCP510 cannot wrap the tool's body: wrap it by hand or "
    "raise `ToolError`)"
)
BAD_FLIGHT = [{"tool": "book", "arguments": {"flight": "BA1"}}]
KEYS = ("error", "is_error", "text")

LOWLEVEL = """import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import McpError

server = Server("lookup")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="find", description="Find a key.", inputSchema={"type": "object"})]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    key = arguments.get("key", "")
    if not key:
        raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message="key is required"))
    return [types.TextContent(type="text", text=key)]
"""
LOOKUPS = [{"tool": "find", "arguments": {}}, {"tool": "find", "arguments": {"key": "k"}}]


def _project(where: Path, source: str) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    (where / "server.py").write_text(source, encoding="utf-8")
    return where / "server.py"


def _mcp502(where: Path) -> list[tuple]:
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP502", "--output-format", "json", "."], where)
    return [(f["line"], f["fix"]["safety"], f["fix"]["description"]) for f in res.json["findings"]]


def _answers(answer: dict) -> list[dict]:
    return [{k: c.get(k) for k in KEYS} for c in answer["calls"]]


def test_the_rename_is_unsafe_where_mcp510_cannot_wrap_the_tool(tmp_path: Path) -> None:
    _project(tmp_path, BOOK)
    assert _mcp502(tmp_path) == [(4, "unsafe", NOTE)]
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP510", "--output-format", "json", "."], tmp_path)
    assert [(f["line"], f["fix"]) for f in res.json["findings"]] == [(21, None)]  # MCP510: manual (elicit)


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_note_is_what_the_client_sees(tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str) -> None:
    """mcp 1.27: the tool error result; the port on mcp 2.3: a JSON-RPC error with the same message."""
    before = _project(tmp_path / "before", BOOK)
    after = _project(tmp_path / "after", BOOK)
    cli(["fix", "--target-sdk", "mcp2", "--select", "MCP5", "--unsafe-fixes", "."], after.parent)
    assert "from mcp.shared.exceptions import MCPError\n" in after.read_text(encoding="utf-8")
    old = _answers(run_proof(legacy_python, before, "mcp", "legacy", [], BAD_FLIGHT))
    assert old == [{"error": None, "is_error": True, "text": ["Error executing tool book: unknown flight BA1"]}]
    new = _answers(run_proof(mcp2_python, after, "mcp", mode, [], BAD_FLIGHT))
    assert new == [{"error": "MCPError: unknown flight BA1", "is_error": None, "text": []}]


def test_the_rename_is_safe_where_mcp510_wraps_the_tool(tmp_path: Path) -> None:
    """fixtures/port/fastmcp_tool_errors: the ``protocol`` tool raises ``McpError`` and MCP510 wraps
    it; tests/test_port_tool_errors.py runs it on both SDKs (the same text)."""
    _project(tmp_path, (FIXTURES / "port" / "fastmcp_tool_errors" / "before.py").read_text(encoding="utf-8"))
    assert [(line, safety) for line, safety, _d in _mcp502(tmp_path)] == [(5, "safe")]


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_a_lowlevel_handler_keeps_its_answer_through_the_adapter(
    tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str
) -> None:
    """The low-level ``call_tool`` handler: MCP507's adapter turns any exception into the
    ``isError`` result 1.27's decorator sent, so the rename stays safe."""
    before = _project(tmp_path / "before", LOWLEVEL)
    after = _project(tmp_path / "after", LOWLEVEL)
    assert [(line, safety) for line, safety, _d in _mcp502(after.parent)] == [(3, "safe")]
    assert cli(["fix", "--target-sdk", "mcp2", "."], after.parent).exit_code == 0
    old = _answers(run_proof(legacy_python, before, "server", "legacy", [], LOOKUPS))
    assert old[0] == {"error": None, "is_error": True, "text": ["key is required"]}
    assert _answers(run_proof(mcp2_python, after, "server", mode, [], LOOKUPS)) == old


def test_the_note_names_every_tool_it_cannot_wrap(tmp_path: Path) -> None:
    tool = BOOK[BOOK.index("@mcp.tool()") :]
    _project(tmp_path, BOOK + "\n\n" + tool.replace("def book(", "def rebook("))
    [(_line, safety, description)] = _mcp502(tmp_path)
    assert safety == "unsafe"
    assert "(review: FastMCP tools `book` (line 16), `rebook` (line 16) raise an `McpError`" in description


REPEATED = """from mcp.types import ErrorData


def make_{n}():
    from mcp.shared.exceptions import McpError{alias}

    try:
        raise {E}(ErrorData(code={n}, message="m{n}"))
    except {E} as e:
        return e.error.message
"""


@pytest.mark.parametrize("alias", ["", " as E"])
def test_an_import_repeated_in_each_function_rewrites_each_use_once(tmp_path: Path, alias: str) -> None:
    """awslabs aws-for-sap-management's tests import `McpError` inside each test: every import is
    renamed, and each construction and `.error` read is rewritten once (three imports once wrote
    `MCPError.from_error_data.from_error_data.from_error_data(…)`); the port runs on mcp 2.x."""
    name = "E" if alias else "McpError"
    head, body = REPEATED.split("\n\n\n")
    source = head + "\n" + "".join("\n\n" + body.format(n=n, alias=alias, E=name) for n in (1, 2, 3))
    (tmp_path / "t.py").write_text(source, encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "t.py"], tmp_path)
    assert res.json["errors"] == [] and res.json["findings"] == [], str(res)
    new = "E" if alias else "MCPError"
    expected = (
        head
        + "\n"
        + "".join(
            "\n\n"
            + body.format(n=n, alias=alias, E=name)
            .replace("import McpError", "import MCPError")
            .replace(f"raise {name}(", f"raise {new}.from_error_data(")
            .replace(f"except {name} ", f"except {new} ")
            .replace("e.error.message", "e.message")
            for n in (1, 2, 3)
        )
    )
    assert (tmp_path / "t.py").read_text() == expected
    namespace: dict = {}
    exec(compile(expected, "t.py", "exec"), namespace)  # the test environment has mcp 2.x
    assert [namespace[f"make_{n}"]() for n in (1, 2, 3)] == ["m1", "m2", "m3"]

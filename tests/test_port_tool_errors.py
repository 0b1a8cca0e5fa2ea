"""MCP510: the port to mcp 2.x keeps the text of a FastMCP tool's own exceptions.

mcp 1.27's FastMCP sent the client ``Error executing tool <name>: <message>`` for any exception
of a tool (``mcp/server/fastmcp/tools/base.py``, ``Tool.run``); mcp 2.3's MCPServer sends only
``Error executing tool <name>`` for anything but ``ToolError``/``ResourceError``
(``mcp/server/mcpserver/tools/base.py``) and answers ``MCPError`` with a JSON-RPC error where 1.27
sent the tool error result (MCP502's rename is safe because this wrapper keeps 1.27's answer, and
unsafe where it cannot wrap). Exact findings, exact rewritten code (fixtures/port/fastmcp_tool_errors), and the port run on
mcp 2.3 in both eras against the original on mcp 1.27 (the shape of pleibers/quick-context-mcp's
``quick_search.py``: tools that call helpers raising ``ValueError``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import run_proof

CASE = Path(__file__).parent.parent / "fixtures" / "port" / "fastmcp_tool_errors"
SOURCE = (CASE / "before.py").read_text(encoding="utf-8")
PORTED = (CASE / "after_param.py").read_text(encoding="utf-8")  # the exact port (tests/test_fixtures.py too)

CALLS = [
    {"tool": "search", "arguments": {"directory": "relative"}},
    {"tool": "search", "arguments": {"directory": "/abs"}},
    {"tool": "lookup", "arguments": {"key": ""}},
    {"tool": "lookup", "arguments": {"key": "k"}},
    {"tool": "count", "arguments": {"n": -1}},
    {"tool": "count", "arguments": {"n": 0}},
    {"tool": "count", "arguments": {"n": 3}},
    {"tool": "refuse", "arguments": {"reason": "mine"}},
    {"tool": "refuse", "arguments": {"reason": ""}},
    {"tool": "protocol", "arguments": {"code": -32001}},
    {"tool": "guarded", "arguments": {"directory": "relative"}},
]
PROTOCOL = [{"tool": "protocol", "arguments": {"code": -32001}}]
KEYS = ("error", "is_error", "text")


def _project(tmp_path: Path, source: str = SOURCE) -> Path:
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    return tmp_path / "server.py"


def _found(tmp_path: Path, *args: str) -> list[tuple]:
    res = cli(["check", *args, "--select", "MCP510", "--output-format", "json", "."], tmp_path)
    assert res.json["errors"] == [], str(res)
    return [
        (f["line"], f["column"], f["severity"], f["fix"]["safety"] if f["fix"] else None) for f in res.json["findings"]
    ]


def _answers(answer: dict) -> list[dict]:
    return [{k: c.get(k) for k in KEYS} for c in answer["calls"]]


def test_tools_raising_their_own_exceptions_are_found(tmp_path: Path) -> None:
    _project(tmp_path)
    # search (helper), lookup (two helpers deep, alias `tool = mcp.tool`), count (`mcp.tool()(count)`),
    # protocol (McpError); not refuse (ToolError and a subclass), guarded (the helper's ValueError is caught)
    assert _found(tmp_path, "--target-sdk", "mcp2") == [
        (35, 11, "breaking", "safe"),
        (41, 5, "breaking", "safe"),
        (45, 5, "breaking", "safe"),
        (64, 5, "breaking", "safe"),
    ]


def test_the_message_names_the_tool_and_the_raise_sites(tmp_path: Path) -> None:
    _project(tmp_path)
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP510", "--output-format", "json", "."], tmp_path)
    messages = [f["message"] for f in res.json["findings"]]
    assert messages[1].startswith(
        "Tool `lookup` raises `ValueError` (line 22, in `_resolve`), `NotFound` (line 31, in `_missing`); "
        "on mcp 2.x the client gets only `Error executing tool lookup`, not the message."
    )
    assert messages[2].startswith("Tool `count` raises `KeyError` (line 47), `RuntimeError` (line 49); ")
    assert messages[3].startswith(
        "Tool `protocol` raises `McpError` (line 65); on mcp 2.x the client gets a JSON-RPC error (`McpError`). "
        "mcp 1.x's FastMCP sent the tool error result `Error executing tool protocol: <message>`"
    )


def test_no_finding_without_the_port_or_on_mcp2_code(tmp_path: Path) -> None:
    _project(tmp_path)
    assert _found(tmp_path) == []
    _project(tmp_path, PORTED)
    assert _found(tmp_path, "--target-sdk", "mcp2") == []


def test_standalone_fastmcp_tools_are_not_found(tmp_path: Path) -> None:
    _project(tmp_path, SOURCE.replace("from mcp.server.fastmcp import FastMCP", "from fastmcp import FastMCP"))
    assert _found(tmp_path, "--target-sdk", "mcp2") == []


def test_the_port_wraps_each_tool_body(tmp_path: Path) -> None:
    target = _project(tmp_path)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert target.read_text(encoding="utf-8") == PORTED


def test_names_the_module_binds_are_not_reused(tmp_path: Path) -> None:
    source = (
        'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\nToolError = None\nexc = 1\n\n\n'
        '@mcp.tool()\ndef boom() -> str:\n    raise ValueError("boom")\n'
    )
    target = _project(tmp_path, source)
    res = cli(["fix", "--target-sdk", "mcp2", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert target.read_text(encoding="utf-8") == (
        "from mcp.server.mcpserver import MCPServer\n"
        "from mcp.server.mcpserver.exceptions import ToolError as McpToolError\n"
        "from mcp.shared.exceptions import UrlElicitationRequiredError\n\n"
        'mcp = MCPServer("x")\nToolError = None\nexc = 1\n\n\n'
        '@mcp.tool()\ndef boom() -> str:\n    try:\n        raise ValueError("boom")\n'
        "    except (McpToolError, UrlElicitationRequiredError):\n        raise\n"
        "    except Exception as exc2:\n        raise McpToolError(str(exc2)) from exc2\n"
    )


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_port_answers_with_mcp1_text(tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str) -> None:
    (tmp_path / "before").mkdir()
    (tmp_path / "after").mkdir()
    before, after = _project(tmp_path / "before"), _project(tmp_path / "after")
    res = cli(["fix", "--target-sdk", "mcp2", "."], tmp_path / "after")
    assert res.exit_code == 0, str(res)
    old = _answers(run_proof(legacy_python, before, "mcp", "legacy", [], CALLS))
    new = _answers(run_proof(mcp2_python, after, "mcp", mode, [], CALLS))
    assert new == old
    assert old[0] == {
        "error": None,
        "is_error": True,
        "text": ["Error executing tool search: directory does not exist: relative"],
    }
    assert old[2]["text"] == ["Error executing tool lookup: "]  # NotFound(""): the empty message too
    assert old[4]["text"] == ["Error executing tool count: -1"]  # str(KeyError(-1))
    assert old[9] == {"error": None, "is_error": True, "text": ["Error executing tool protocol: protocol says no"]}


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_without_the_wrapper_an_mcp_error_becomes_a_json_rpc_error(tmp_path: Path, mcp2_python: str, mode: str) -> None:
    """What MCP510 keeps MCP502's rename from changing: the port without its wrapper answers the
    ``protocol`` tool's ``MCPError`` with a JSON-RPC error on mcp 2.3 (1.27: the tool error result,
    ``test_the_port_answers_with_mcp1_text``)."""
    _project(tmp_path)
    assert cli(["fix", "--target-sdk", "mcp2", "--ignore", "MCP510", "."], tmp_path).exit_code == 0
    got = _answers(run_proof(mcp2_python, tmp_path / "server.py", "mcp", mode, [], PROTOCOL))
    assert got == [{"error": "MCPError: protocol says no", "is_error": None, "text": []}]


ASKS = """from pydantic import BaseModel

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("booking")


class Seat(BaseModel):
    row: int


def _check(flight: str) -> str:
    if not flight.startswith("LX"):
        raise ValueError(f"unknown flight {flight}")
    return flight


@mcp.tool()
async def book(flight: str, ctx: Context) -> str:
    _check(flight)
    answer = await ctx.elicit(f"Which row on {flight}?", Seat)
    return f"{flight}: row {answer.data.row}"
"""


def test_a_tool_the_interim_fix_rewrites_is_left_to_a_human(tmp_path: Path) -> None:
    """The interim fix reads the tool's body in the next round and refuses a request under a
    ``try``: MCP510 leaves that tool (advisory, the port goes on) and the run ends as without it."""
    _project(tmp_path, ASKS)
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP510", "--output-format", "json", "."], tmp_path)
    (f,) = res.json["findings"]
    assert (f["line"], f["column"], f["severity"], f["fix"]) == (19, 11, "advisory", None)
    assert f["manual"].startswith("the tool's `elicit` request is rewritten by the roots/sampling/elicitation fixes")
    outputs = []
    for extra in ([], ["--ignore", "MCP510"]):
        where = tmp_path / (extra[-1] if extra else "all")
        where.mkdir()
        _project(where, ASKS)
        cli(["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes", *extra, "."], where)
        outputs.append((where / "server.py").read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1] and "Resolve(" in outputs[0]


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("raise TE('deliberate')", False),  # ToolError imported as TE
        ("try:\n        open(path)\n    except OSError:\n        return ''\n    raise FileNotFoundError(path)", True),
        ("try:\n        raise FileNotFoundError(path)\n    except OSError:\n        return ''", False),
        ("try:\n        raise ValueError(path)\n    except ValueError:\n        raise", True),
        ("try:\n        raise ValueError(path)\n    except ValueError as e:\n        return str(e)", False),
        ("def inner():\n        raise ValueError(path)\n    return path", False),  # never called
        ("with open(path) as f:\n        return f.read()", True),  # the v1.27.0 snippet tool_errors.py
        (
            "try:\n        with open(path) as f:\n            return f.read()\n    except OSError:\n        return ''",
            False,
        ),
        ("open = str\n    return open(path)", False),  # not the builtin
        ("import subprocess\n    return subprocess.check_output(['ls', path], text=True)", True),
        (
            "import subprocess\n    try:\n        return subprocess.check_output(['ls', path], text=True)\n"
            "    except subprocess.CalledProcessError as e:\n        return str(e)",
            False,
        ),
        ("import os\n    return ','.join(os.listdir(path))", True),
    ],
)
def test_what_counts_as_a_raise_the_client_loses(tmp_path: Path, body: str, found: bool) -> None:
    source = (
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import ToolError as TE\n\n"
        f'mcp = FastMCP("x")\n\n\n@mcp.tool()\ndef read(path: str) -> str:\n    {body}\n'
    )
    _project(tmp_path, source)
    assert _found(tmp_path, "--target-sdk", "mcp2") == ([(8, 5, "breaking", "safe")] if found else [])


READ_CONFIG = """from mcp.server.fastmcp import FastMCP

mcp = FastMCP("files")


@mcp.tool()
def read_config(path: str) -> str:
    \"\"\"Read a configuration file.\"\"\"
    with open(path) as f:
        return f.read()
"""


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_an_oserror_from_open_keeps_its_text(tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str) -> None:
    """No `raise` in the tool: `open()` raises (python-sdk v1.27.0 snippets/servers/tool_errors.py,
    whose comment promises the client `Error executing tool read_config: ...`). Ported, mcp 2.3
    sends the same text."""
    (tmp_path / "before").mkdir()
    (tmp_path / "after").mkdir()
    before = _project(tmp_path / "before", READ_CONFIG)
    after = _project(tmp_path / "after", READ_CONFIG)
    assert cli(["fix", "--target-sdk", "mcp2", "."], tmp_path / "after").exit_code == 0
    calls = [{"tool": "read_config", "arguments": {"path": "/nonexistent/x"}}]
    old = _answers(run_proof(legacy_python, before, "mcp", "legacy", [], calls))
    new = _answers(run_proof(mcp2_python, after, "mcp", mode, [], calls))
    assert old == [
        {
            "error": None,
            "is_error": True,
            "text": ["Error executing tool read_config: [Errno 2] No such file or directory: '/nonexistent/x'"],
        }
    ]
    assert new == old

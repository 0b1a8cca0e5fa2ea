"""A port that never silently changes what clients get (issue 24).

Each test runs ``fix --target-sdk`` on the shape of a field case (``port-*``: real servers on mcp
1.x or fastmcp 2.x), asserts the exact rewritten code, that a second ``fix`` changes nothing, and —
where the port changes behaviour — serves the original on its SDK (mcp 1.27 / fastmcp 2.14.7, the
legacy venv) and the port on the target (mcp 2.3 / fastmcp 4.2.3) over a legacy and a 2026-07-28
connection, comparing what the client receives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import run_proof


def _project(where: Path, source: str, pin: str, name: str = "server.py") -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "pyproject.toml").write_text(
        f'[project]\nname = "case"\nversion = "0"\ndependencies = ["{pin}"]\n', encoding="utf-8"
    )
    target = where / name
    target.write_text(source, encoding="utf-8")
    return target


def _fix(where: Path, *args: str):
    res = cli(["fix", *args, "--output-format", "json", "."], where)
    assert res.exception is None, str(res)
    return res


def _texts(answer: dict) -> list[dict]:
    return [{k: c.get(k) for k in ("error", "is_error", "text")} for c in answer["calls"]]


# -- 1. what a fix makes reachable is checked in the same run (port-01) ----------------------------
# haris-musa/excel-mcp-server's shape: mcp 1.x's FastMCP with transport settings on the constructor.
# The MCP511 rewrite makes it fastmcp 4's FastMCP, which refuses them (`TypeError` at import):
# MCP514 is judged on the rewritten constructor in the same run.
SHEETS = """\
import os

from mcp.server.fastmcp import FastMCP

sheets = FastMCP(
    "sheet-helper",
    host=os.environ.get("SHEETS_HOST", "0.0.0.0"),
    port=int(os.environ.get("SHEETS_PORT", "8123")),
    instructions="Small spreadsheet helper",
)


@sheets.tool()
def column_letter(index: int) -> str:
    \"\"\"Spreadsheet column letter for a 1-based index.\"\"\"
    out = ""
    while index > 0:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


if __name__ == "__main__":
    sheets.run(transport=TRANSPORT)
"""
FASTMCP4 = ("--target-sdk", "fastmcp4", "--strategy", "interim", "--unsafe-fixes")


def test_a_constructor_the_import_rewrite_makes_fastmcp4_is_fixed_in_the_same_run(tmp_path: Path) -> None:
    target = _project(tmp_path, SHEETS.replace("TRANSPORT", '"sse"'), "fastmcp>=2.0,<3")
    res = _fix(tmp_path, *FASTMCP4)
    assert res.exit_code == 0, str(res)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == [
        ("MCP511", 3),
        ("MCP514", 7),
        ("MCP514", 8),
        ("MCP602", 24),  # the interim strategy's SSE → Streamable HTTP
    ]
    assert res.json["findings"] == []
    ported = target.read_text(encoding="utf-8")
    assert ported == SHEETS.replace("from mcp.server.fastmcp import", "from fastmcp import").replace(
        """    host=os.environ.get("SHEETS_HOST", "0.0.0.0"),
    port=int(os.environ.get("SHEETS_PORT", "8123")),
""",
        "",
    ).replace(
        "sheets.run(transport=TRANSPORT)",
        'sheets.run(transport="streamable-http", host=os.environ.get("SHEETS_HOST", "0.0.0.0"), '
        'port=int(os.environ.get("SHEETS_PORT", "8123")))',
    )
    again = _fix(tmp_path, *FASTMCP4)  # idempotent: the second run finds and changes nothing
    assert again.exit_code == 0 and again.json["fixed"] == [] and again.json["findings"] == [], str(again)
    assert target.read_text(encoding="utf-8") == ported


def test_a_constructor_fastmcp4_refuses_blocks_the_port_in_the_same_run(tmp_path: Path) -> None:
    """port-01 itself: `run()` picks stdio or SSE at run time, and fastmcp 4's stdio `run()` takes
    no `host`: MCP514 is left for a human and the port writes nothing (it never exits 0 with a
    module that raises `TypeError` at import)."""
    source = SHEETS.replace("TRANSPORT", '"sse" if "--sse" in sys.argv else "stdio"').replace(
        "import os\n", "import os\nimport sys\n"
    )
    target = _project(tmp_path, source, "fastmcp>=2.0,<3")
    res = _fix(tmp_path, *FASTMCP4)
    assert res.exit_code == 1, str(res)
    assert target.read_text(encoding="utf-8") == source
    assert "fastmcp>=2.0,<3" in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    left = sorted((f["rule"], f["line"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP514")
    assert left == [
        ("MCP514", 8, "pass `host` to `run()`/`run_http_async()`, or set FASTMCP_HOST"),
        ("MCP514", 9, "pass `port` to `run()`/`run_http_async()`, or set FASTMCP_PORT"),
    ]


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_same_run_port_serves_the_same_tools(
    tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str
) -> None:
    source = SHEETS.replace("TRANSPORT", '"sse"')
    before = _project(tmp_path / "before", source, "fastmcp>=2.0,<3")
    after = _project(tmp_path / "after", source, "fastmcp>=2.0,<3")
    assert _fix(tmp_path / "after", *FASTMCP4).exit_code == 0
    calls = [{"tool": "column_letter", "arguments": {"index": 28}}]
    old = run_proof(legacy_python, before, "sheets", "legacy", [], calls)
    new = run_proof(mcp2_python, after, "sheets", mode, [], calls)
    assert _texts(new) == _texts(old) == [{"error": None, "is_error": False, "text": ["AB"]}]

"""Helpers shared by the engine/CLI tests (no pytest fixtures here: plain functions).

``cli(args, cwd)`` runs ``mcpmigrate`` in-process with click's ``CliRunner`` from ``cwd`` and
returns a :class:`CliResult` (exit code, stdout, stderr, parsed JSON when asked for).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from click.testing import CliRunner

from mcpmigrate.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
RULES = REPO / "rules"
FIRST_ROOT = FIXTURES / "roots" / "mcp1_fastmcp_first_root" / "before.py"

# A file whose only finding is MCP104 with its safe `remove` fix (implemented, idempotent).
MCP104_SOURCE = (
    "from mcp.types import ClientCapabilities, RootsCapability\n"
    "\n"
    "caps = ClientCapabilities(roots=RootsCapability(listChanged=True))\n"
)
MCP104_FIXED = (
    "from mcp.types import ClientCapabilities, RootsCapability\n\ncaps = ClientCapabilities(roots=RootsCapability())\n"
)

# A small mcp 2.x server with one MCP101 finding and a param fix.
MCP101_SERVER = """\
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("files")


@mcp.tool()
async def count_lines(ctx: Context) -> int:
    result = await ctx.session.list_roots()
    base = result.roots[0].uri.path
    return len(base)
"""


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)

    def __str__(self) -> str:  # shown by pytest on a failed assertion
        return (
            f"exit={self.exit_code}\n--- stdout\n{self.stdout}\n--- stderr\n{self.stderr}\nexception={self.exception!r}"
        )


@contextmanager
def chdir(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def cli(args: list[str], cwd: Path) -> CliResult:
    """Run ``mcpmigrate *args`` from ``cwd``. Never raises for a non-zero exit."""
    runner = CliRunner()
    env = {"NO_COLOR": "1", "COLUMNS": "200"}
    with chdir(cwd):
        res = runner.invoke(main, [str(a) for a in args], env=env, catch_exceptions=True)
    exc = res.exception if not isinstance(res.exception, SystemExit) else None
    return CliResult(res.exit_code, res.stdout, res.stderr, exc)


def findings_of(result: CliResult) -> list[tuple[str, int]]:
    """``(rule, line)`` pairs of a ``--output-format json`` run, sorted."""
    assert result.exception is None, str(result)
    return sorted((f["rule"], f["line"]) for f in result.json["findings"])


def load_toml(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def fixture_cases() -> list[Path]:
    return sorted(p.parent for p in FIXTURES.glob("*/*/case.toml"))


def copy_to(src: Path, dest_dir: Path, name: str | None = None) -> Path:
    dest = dest_dir / (name or src.name)
    shutil.copyfile(src, dest)
    return dest


def write_pyproject(directory: Path, body: str) -> Path:
    path = directory / "pyproject.toml"
    path.write_text("[tool.mcpmigrate]\n" + body, encoding="utf-8")
    return path


#: The documented path parameters as ruff format lays them out in an exploded header (88 columns).
ANNOTATED_ROOT = (
    "    root: Annotated[\n"
    "        str,\n"
    "        Field(\n"
    '            description="Absolute path of the directory to work in (formerly the client\'s MCP root)."\n'
    "        ),\n"
    "    ],\n"
)
ANNOTATED_ROOTS = (
    "    roots: Annotated[\n"
    "        list[str],\n"
    "        Field(\n"
    '            description="Absolute paths of the directories to work in (formerly the client\'s MCP roots)."\n'
    "        ),\n"
    "    ],\n"
)


def exploded(head: str, *params: str, returns: str) -> str:
    """``head(`` / one parameter a line (an ``ANNOTATED_ROOT`` as it is, others with a trailing
    comma) / ``) -> returns:``: the header ruff format writes when it does not fit."""
    lines = "".join(p if p.endswith("\n") else f"    {p},\n" for p in params)
    return f"{head}(\n{lines}) -> {returns}:\n"

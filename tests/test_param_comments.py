"""Comments around a signature the param fix rewrites stay with what they describe: the
replaced parameter's trailing comment (plain or a PEP 484 ``# type:`` comment) goes with it, and
a function type comment on the first body line survives the deletion of the roots request."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

SOURCE = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("notes")


@mcp.tool()
async def where(
    pattern: str,  # glob chosen by the model
    ctx: Context,  # injected by FastMCP, not sent by the client
) -> str:
    roots = await ctx.session.list_roots()
    return roots.roots[0].uri.path + "/" + pattern


@mcp.tool()
async def where_legacy(pattern,  # type: str
                       ctx,  # type: Context
                       ):
    # type: (...) -> str
    roots = await ctx.session.list_roots()
    return roots.roots[0].uri.path + "/" + pattern
"""
ROOT = 'root: Annotated[str, Field(description="Absolute path of the directory to work in (formerly the client\'s MCP root).")]'
FIXED = f"""\
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("notes")


@mcp.tool()
async def where(
    pattern: str,  # glob chosen by the model
    {ROOT},
) -> str:
    return root + "/" + pattern


@mcp.tool()
async def where_legacy(pattern,  # type: str
                       {ROOT},
                       ):
    # type: (...) -> str
    return root + "/" + pattern
"""


def test_param_fix_keeps_comments_with_what_they_describe(tmp_path: Path) -> None:
    (tmp_path / "notes.py").write_text(SOURCE)
    res = cli(["fix", "notes.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "notes.py").read_text() == FIXED
    assert cli(["fix", "--diff", "notes.py"], tmp_path).stdout == ""  # a second fix changes nothing


def test_an_inserted_parameter_does_not_copy_its_neighbours_comment(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text("""\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("s")


@mcp.tool()
async def tool(
    pattern: str,  # glob chosen by the model
    limit: int = 3,  # at most this many
) -> str:
    ctx = mcp.get_context()
    roots = await ctx.session.list_roots()
    return roots.roots[0].uri.path + pattern
""")
    res = cli(["fix", "s.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (
        (tmp_path / "s.py").read_text()
        == f"""\
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("s")


@mcp.tool()
async def tool(
    pattern: str,  # glob chosen by the model
    {ROOT},
    limit: int = 3,  # at most this many
) -> str:
    return root + pattern
"""
    )

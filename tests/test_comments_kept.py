"""A statement a fix removes or replaces hands its comment lines and its trailing comment on to
the statement that takes its place (or the next one that stays): the interim resolver form's
request statement, an alias it leaves dead, a ``try`` unwrapped away with it, the roots request
the param fix drops, the ``ctx = mcp.get_context()`` line the port threads a parameter in for.
A user's comment is their data; the fix used to drop it (issue 22: mcp-agent's rentspider
example lost ``# Elicit search preferences from user``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli

INTERIM = ["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes"]

RESOLVER = '''\
from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("demo")


class Prefs(BaseModel):
    city: str


@mcp.tool()
async def search(ctx: Context) -> str:
    """Search."""

    # Elicit search preferences from user
    result = await ctx.elicit(message="Where?", schema=Prefs)  # ask once

    if result.action == "accept":
        return result.data.city
    return "none"
'''
RESOLVER_FIXED = '''\
from typing import Annotated

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel

mcp = MCPServer("demo")


class Prefs(BaseModel):
    city: str


def search_elicitation() -> Elicit[Prefs]:
    return Elicit("Where?", Prefs)


@mcp.tool()
async def search(
    result: Annotated[ElicitationResult[Prefs], Resolve(search_elicitation)],
) -> str:
    """Search."""

    # Elicit search preferences from user
    # ask once
    if result.action == "accept":
        return result.data.city
    return "none"
'''

TRY = """\
from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("demo")


class Prefs(BaseModel):
    city: str


@mcp.tool()
async def search(ctx: Context) -> str:
    # ask, tolerating failure
    try:
        # Elicit search preferences from user
        result = await ctx.elicit(message="Where?", schema=Prefs)  # ask once
    except Exception:
        return "failed"
    if result.action == "accept":
        return result.data.city
    return "none"
"""
TRY_FIXED = """\
from typing import Annotated

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel

mcp = MCPServer("demo")


class Prefs(BaseModel):
    city: str


def search_elicitation() -> Elicit[Prefs]:
    return Elicit("Where?", Prefs)


@mcp.tool()
async def search(
    result: Annotated[ElicitationResult[Prefs], Resolve(search_elicitation)],
) -> str:
    # ask, tolerating failure
    # Elicit search preferences from user
    # ask once
    if result.action == "accept":
        return result.data.city
    return "none"
"""

ALIAS = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def pick(ctx: Context) -> str:
    # the session asks
    session = ctx.session  # one session
    # ask the model
    res = await session.create_message(messages=[], max_tokens=5)  # once
    return str(res.content)
"""
ALIAS_FIXED = """\
from typing import Annotated

from mcp.server.mcpserver import MCPServer, Resolve, Sample
from mcp.types import CreateMessageResult

mcp = MCPServer("demo")


def pick_sampling() -> Sample:
    return Sample([], max_tokens=5)


@mcp.tool()
async def pick(res: Annotated[CreateMessageResult, Resolve(pick_sampling)]) -> str:
    # the session asks
    # one session
    # ask the model
    # once
    return str(res.content)
"""

ROOTS = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("notes")


@mcp.tool()
async def where(pattern: str, ctx: Context) -> str:
    # ask the client where we work
    roots = await ctx.session.list_roots()  # first root only
    return roots.roots[0].uri.path + "/" + pattern
"""
ROOTS_FIXED = """\
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("notes")


@mcp.tool()
async def where(
    pattern: str,
    root: Annotated[
        str,
        Field(
            description="Absolute path of the directory to work in (formerly the client's MCP root)."
        ),
    ],
) -> str:
    # ask the client where we work
    # first root only
    return root + "/" + pattern
"""

CONTEXT = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


@mcp.tool()
async def hello(name: str) -> str:
    # the request's context
    ctx = mcp.get_context()  # FastMCP's current one
    await ctx.info("hi " + name)
    return name
"""
CONTEXT_FIXED = """\
import logging

from mcp.server.mcpserver import Context, MCPServer

logger = logging.getLogger(__name__)

mcp = MCPServer("notes")


@mcp.tool()
async def hello(name: str, ctx: Context) -> str:
    # the request's context
    # FastMCP's current one
    logger.info("hi " + name)
    return name
"""


CASES = [
    pytest.param(RESOLVER, INTERIM, RESOLVER_FIXED, id="resolver-request-statement"),
    pytest.param(TRY, INTERIM, TRY_FIXED, id="try-unwrapped-away"),
    pytest.param(ALIAS, INTERIM, ALIAS_FIXED, id="dead-session-alias"),
    pytest.param(ROOTS, ["fix", "--unsafe-fixes"], ROOTS_FIXED, id="param-roots-request"),
    pytest.param(CONTEXT, ["fix", "--target-sdk", "mcp2", "--unsafe-fixes"], CONTEXT_FIXED, id="port-get-context-line"),
]


@pytest.mark.parametrize(("source", "args", "fixed"), CASES)
def test_a_removed_statement_hands_on_its_comments(tmp_path: Path, source: str, args: list[str], fixed: str) -> None:
    (tmp_path / "server.py").write_text(source)
    res = cli([*args, "server.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "server.py").read_text() == fixed
    assert cli([*args, "--diff", "server.py"], tmp_path).stdout == ""  # a second fix changes nothing

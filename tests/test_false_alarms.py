"""No false alarms, and messages that tell the truth: shapes from public MCP servers (and their
tests) that a migration linter must not report, or must report with the right reason and
severity. Each test checks exact rule ids, lines and the gist of the message."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli


def run(tmp_path: Path, source: str, *args: str, name: str = "server.py", pyproject: str | None = None) -> list[dict]:
    (tmp_path / name).write_text(source, encoding="utf-8")
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    result = cli([*(args or ("check", "--no-cache")), "--output-format", "json", name], tmp_path)
    assert result.exception is None, str(result)
    return result.json["findings"]


def sites(findings: list[dict]) -> list[tuple[str, int, int]]:
    return [(f["rule"], f["line"], f["column"]) for f in findings]


# -- MCP102: client info is not capabilities; mcp 2.x reads per request; stores are not reads ----

CLIENT_INFO_MCP1 = '''\
from mcp.server.fastmcp import Context, FastMCP

board = FastMCP("kanban-telemetry")


@board.tool()
async def move_card(card: str, lane: str, ctx: Context) -> str:
    tag = "?"
    who = ctx.session.client_params
    if who is not None:
        tag = who.clientInfo.name
    return f"{card} -> {lane} (by {tag})"


@board.tool()
def card_footer(ctx: Context) -> str:
    return "via " + ctx.session.client_params.clientInfo.name.lower()


@board.tool()
def card_header(context: Context) -> str:
    info = context.request_context.session.client_params
    return info.clientInfo.version if info else "-"
'''


def test_client_info_reads_have_their_own_message_and_severity(tmp_path: Path) -> None:
    found = run(tmp_path, CLIENT_INFO_MCP1)
    assert sites(found) == [("MCP102", 9, 11), ("MCP102", 17, 21), ("MCP102", 22, 12)]
    guarded, unguarded, truthy = found
    for f in found:
        assert "clientInfo" in f["message"] and "not its capabilities" in f["message"]
        assert "io.modelcontextprotocol/clientInfo" in f["message"]
        assert "client_info" in f["message"]  # the mcp 2.x spelling
        assert "ctx.client_capabilities" not in f["message"] + (f["manual"] or "")
    assert guarded["severity"] == "advisory" and "degrades" in guarded["message"]
    assert truthy["severity"] == "advisory"
    assert unguarded["severity"] == "breaking" and "raises AttributeError" in unguarded["message"]
    assert "guard the read for None" in unguarded["manual"]


PER_REQUEST_MCP2 = '''\
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import ClientCapabilities, ElicitationCapability

desk = MCPServer("front-desk")


@desk.tool()
async def clerk_name(ctx: Context) -> str:
    params = ctx.session.client_params
    return params.client_info.name if params is not None else "guest"


@desk.tool()
async def can_confirm(ctx: Context) -> bool:
    return ctx.session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability()))


@desk.tool()
async def clerk_name_unguarded(ctx: Context) -> str:
    return ctx.session.client_params.client_info.name


@desk.tool()
async def old_spelling(ctx: Context) -> str:
    p = ctx.session.client_params
    return p.clientInfo.name if p else "guest"
'''


def test_mcp2_per_request_reads_are_not_breaking(tmp_path: Path) -> None:
    found = run(tmp_path, PER_REQUEST_MCP2)
    # clerk_name (None-guarded) and can_confirm (the session checks this request's capabilities)
    # are right on mcp 2.x; an unguarded read raises when no client info came; `clientInfo` is
    # not an attribute of mcp 2.x's InitializeRequestParams.
    assert sites(found) == [("MCP102", 20, 12), ("MCP102", 25, 9)]
    assert all(f["severity"] == "breaking" for f in found)
    assert "raises AttributeError" in found[0]["message"]
    assert "names the field `client_info`" in found[1]["message"]


def test_mcp2_check_client_capability_through_a_helper_session(tmp_path: Path) -> None:
    source = PER_REQUEST_MCP2.replace(
        "    return ctx.session.check_client_capability(",
        "    session = ctx.session\n    return session.check_client_capability(",
    )
    assert sites(run(tmp_path, source)) == [("MCP102", 21, 12), ("MCP102", 26, 9)]


def test_mcp1_capability_reads_stay_breaking(tmp_path: Path) -> None:
    source = '''\
from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ClientCapabilities, SamplingCapability

mcp = FastMCP("x")


@mcp.tool()
async def can_sample(ctx: Context) -> bool:
    return ctx.session.check_client_capability(ClientCapabilities(sampling=SamplingCapability()))


@mcp.tool()
async def caps(ctx: Context) -> bool:
    return ctx.session.client_params.capabilities.sampling is not None
'''
    found = run(tmp_path, source)
    assert sites(found) == [("MCP102", 9, 12), ("MCP102", 14, 12)]
    assert all(f["severity"] == "breaking" and "ctx.client_capabilities" in f["message"] for f in found)


TEST_DOUBLES = '''\
from unittest import mock
from unittest.mock import MagicMock

from mcp.types import ClientCapabilities, Implementation, InitializeRequestParams


def test_footer_names_the_client() -> None:
    fake = MagicMock()
    fake.session.client_params = InitializeRequestParams(
        protocolVersion="2025-06-18",
        capabilities=ClientCapabilities(),
        clientInfo=Implementation(name="bench-client", version="9"),
    )
    fake.request_context.session.client_params = None
    (fake.session.client_params, other) = (None, 1)
    del fake.session.client_params
    assert fake.session is not None


def test_reads_back_from_a_double() -> None:
    ctx = mock.AsyncMock()
    assert ctx.session.client_params.clientInfo.name
'''


def test_stores_and_test_doubles_are_not_reads(tmp_path: Path) -> None:
    assert run(tmp_path, TEST_DOUBLES, name="test_dispatcher.py") == []


# -- MCP105: a root built invalid on purpose to test its rejection ------------------------------

INVALID_ON_PURPOSE = '''\
import unittest

import pytest
from pydantic import ValidationError
from mcp.types import ListRootsResult, Root


def test_bare_names_are_rejected() -> None:
    with pytest.raises(ValidationError):
        ListRootsResult.model_validate({"roots": [{"uri": "workspace"}]})
    with pytest.raises(ValidationError, match="uri"):
        if True:
            Root(uri="https://example.com")
    pytest.raises(ValidationError, Root, uri="s3://bucket")


class Case(unittest.TestCase):
    def test_rejected(self) -> None:
        with self.assertRaises(ValidationError):
            Root(uri="workspace")


def published() -> list[Root]:
    return [Root(uri="https://example.com/repo")]
'''


def test_invalid_root_inside_pytest_raises_is_not_a_finding(tmp_path: Path) -> None:
    found = run(tmp_path, INVALID_ON_PURPOSE, name="test_roots.py")
    assert sites(found) == [("MCP105", 24, 22)]  # the server that publishes a non-file root

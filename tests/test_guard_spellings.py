"""Capability guards in every spelling go with the roots request the param fix drops (issue 23,
item 5): a walrus, an ``and`` chain (negative guard or positive ``if`` around the request), a local
holding ``ClientCapabilities(roots=...)``. Kept, such a guard answers a client without the roots
capability as before and the new parameter is never read. Exact output, and the fixed server run
on mcp 1.27 (the SDK the code imports)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import ANNOTATED_ROOT, cli, exploded

HEAD = 'from mcp.server.fastmcp import Context, FastMCP\n{extra}\nmcp = FastMCP("x")\n\n\n'
CAPS = "from mcp.types import ClientCapabilities, RootsCapability\n"

SPELLINGS = {
    "walrus": (
        CAPS,
        """@mcp.tool()
async def first(ctx: Context) -> str:
    if not (ok := ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability()))):
        return "no roots"
    listing = await ctx.session.list_roots()
    return listing.roots[0].uri.path
""",
        9,
    ),
    "and_chain": (
        "",
        """@mcp.tool()
async def first(ctx: Context) -> str:
    params = ctx.session.client_params
    if not (params and params.capabilities.roots):
        return "no roots"
    listing = await ctx.session.list_roots()
    return listing.roots[0].uri.path
""",
        8,
    ),
    "and_chain_around_the_request": (
        "",
        """@mcp.tool()
async def first(ctx: Context) -> str:
    if ctx.session.client_params and ctx.session.client_params.capabilities.roots:
        listing = await ctx.session.list_roots()
        return listing.roots[0].uri.path
    return "no roots"
""",
        8,
    ),
    "local_capabilities": (
        CAPS,
        """@mcp.tool()
async def first(ctx: Context) -> str:
    wanted = ClientCapabilities(roots=RootsCapability())
    if not ctx.session.check_client_capability(wanted):
        return "no roots"
    listing = await ctx.session.list_roots()
    return listing.roots[0].uri.path
""",
        10,
    ),
}

#: laid out as ruff format does (codemods/layout.py): the added imports in their sections
FIXED = (
    "from typing import Annotated\n\nfrom mcp.server.fastmcp import FastMCP\nfrom pydantic import Field\n\n"
    'mcp = FastMCP("x")\n\n\n@mcp.tool()\n'
    + exploded("async def first", ANNOTATED_ROOT, returns="str")
    + "    return root\n"
)


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_capability_guard_goes_with_the_roots_request(tmp_path: Path, legacy_python: str, spelling: str) -> None:
    from tests.proof import run_proof

    extra, body, guard_line = SPELLINGS[spelling]
    source = HEAD.format(extra=extra) + body
    (tmp_path / "s.py").write_text(source, encoding="utf-8")
    found = {f["rule"]: f for f in cli(["check", "--output-format", "json", "s.py"], tmp_path).json["findings"]}
    request = found["MCP101"]
    assert request["fix"]["safety"] == "safe", request
    at = f"{request['line']}:{request['column']}"
    assert (found["MCP102"]["line"], found["MCP102"]["fix"]) == (
        guard_line,
        {"safety": "safe", "strategy": "param", "description": f"removed with the MCP101 fix at {at}"},
    )
    cli(["fix", "s.py"], tmp_path)
    assert (tmp_path / "s.py").read_text(encoding="utf-8") == FIXED
    out = run_proof(
        legacy_python, tmp_path / "s.py", "mcp", "legacy", [], [{"tool": "first", "arguments": {"root": "/srv/a"}}]
    )
    assert [c["text"] for c in out["calls"]] == [["/srv/a"]]


def test_a_walrus_whose_name_is_read_later_keeps_its_guard(tmp_path: Path) -> None:
    """The guard binds `caps`, read after the request: removing it would leave `caps` unbound."""
    source = HEAD.format(extra="") + (
        "@mcp.tool()\nasync def first(ctx: Context) -> str:\n"
        '    if not (caps := ctx.session.client_params.capabilities):\n        return "no caps"\n'
        "    listing = await ctx.session.list_roots()\n    return listing.roots[0].uri.path + str(caps.sampling)\n"
    )
    (tmp_path / "s.py").write_text(source, encoding="utf-8")
    cli(["fix", "s.py"], tmp_path)
    assert "    if not (caps := ctx.session.client_params.capabilities):\n" in (tmp_path / "s.py").read_text()

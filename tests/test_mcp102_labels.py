"""MCP102 on a capability guard the roots ``param`` fix removes with the request: the label
``check`` prints is what ``fix`` does (docs/architecture.md, "How a finding becomes a fix").

Every spelling ``codemods/param/shapes.py`` removes (a local, a private helper, a
``client_params.capabilities`` read, ``if <capability>:`` around the request, the plain ``if not
check_client_capability(...)`` guard) is labelled "removed with the MCP101 fix at L:C", with that
fix's safety, and is gone after ``fix``; a guard of a request left for a human stays manual, and
stays.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.test_param_shapes import GUARD_HEAD, GUARD_USE, GUARDS

SHAPES = {
    **GUARDS,
    "plain": """

@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    if not ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
        return []
""",
}
# (MCP102 line:col, MCP101 line:col) in each shape
SITES = {
    "capabilities_local": ((12, 12), (15, 21)),
    "helper": ((11, 12), (18, 21)),
    "local": ((12, 17), (15, 21)),
    "plain": ((12, 12), (14, 21)),
    "positive_if": ((12, 8), (13, 25)),
}


def _labels(tmp_path: Path, *args: str) -> list[tuple]:
    res = cli(["check", "--output-format", "json", *args, "s.py"], tmp_path)
    return [
        (f["rule"], f["line"], f["column"], f["fix"] and (f["fix"]["safety"], f["fix"]["description"]), f["manual"])
        for f in res.json["findings"]
    ]


@pytest.mark.parametrize("shape", sorted(SITES))
def test_the_guard_is_labelled_with_the_request_fix_and_fix_removes_it(tmp_path: Path, shape: str) -> None:
    use = "" if shape == "positive_if" else GUARD_USE
    (tmp_path / "s.py").write_text(GUARD_HEAD + SHAPES[shape] + use, encoding="utf-8")
    (guard_line, guard_col), (req_line, req_col) = SITES[shape]
    labels = _labels(tmp_path)
    assert [x for x in labels if x[0] == "MCP102"] == [
        ("MCP102", guard_line, guard_col, ("safe", f"removed with the MCP101 fix at {req_line}:{req_col}"), None)
    ]
    assert [(r, line, col, fix[0]) for r, line, col, fix, _m in labels if r == "MCP101"] == [
        ("MCP101", req_line, req_col, "safe")
    ]
    res = cli(["fix", "--output-format", "json", "s.py"], tmp_path)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == sorted(
        [("MCP101", req_line), ("MCP102", guard_line)]
    )
    assert _labels(tmp_path) == []  # the guard went with the request, as the label said
    out = (tmp_path / "s.py").read_text()
    assert "check_client_capability" not in out and "client_params" not in out
    assert "_supports_roots" not in out  # the private helper goes with its only call


def test_an_unsafe_request_fix_makes_its_guard_unsafe_too(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(
        GUARD_HEAD
        + GUARDS["local"]
        + "    listing = await ctx.session.list_roots()\n    return [str(r) for r in listing.roots]\n",
        encoding="utf-8",
    )
    labels = _labels(tmp_path)
    [(_r, _l, _c, request_fix, _m)] = [x for x in labels if x[0] == "MCP101"]
    assert request_fix[0] == "unsafe"
    assert [x for x in labels if x[0] == "MCP102"] == [
        ("MCP102", 12, 17, ("unsafe", "removed with the MCP101 fix at 15:21"), None)
    ]
    cli(["fix", "s.py"], tmp_path)  # safe only: neither goes
    assert [x[:3] for x in _labels(tmp_path)] == [("MCP102", 12, 17), ("MCP101", 15, 21)]
    cli(["fix", "--unsafe-fixes", "s.py"], tmp_path)
    assert _labels(tmp_path) == []


def test_a_guard_of_a_request_left_for_a_human_stays_manual_and_stays(tmp_path: Path) -> None:
    """No tool reaches `ls` (no decorator): the request is manual, so is its guard."""
    source = GUARD_HEAD + GUARDS["local"].replace("@mcp.tool()\n", "") + GUARD_USE
    (tmp_path / "s.py").write_text(source, encoding="utf-8")
    labels = _labels(tmp_path)
    assert [x for x in labels if x[0] == "MCP102"] == [
        (
            "MCP102",
            11,
            17,
            None,
            "it guards a roots request that is left for a human: remove it together with that request",
        )
    ]
    cli(["fix", "--unsafe-fixes", "s.py"], tmp_path)
    assert (tmp_path / "s.py").read_text() == source


def test_a_public_helper_stays_and_so_does_its_finding(tmp_path: Path) -> None:
    """Another module may import a public helper: only its call goes; the finding in it stays
    manual, with the reason, and stays after the fix."""
    source = GUARD_HEAD + GUARDS["helper"].replace("_supports_roots", "supports_roots") + GUARD_USE
    (tmp_path / "s.py").write_text(source, encoding="utf-8")
    manual = (
        "the call of `supports_roots` that guards the roots request goes with the MCP101 fix; `supports_roots` "
        "itself stays (another module may import it): delete it once nothing uses it"
    )
    assert [x for x in _labels(tmp_path) if x[0] == "MCP102"] == [("MCP102", 11, 12, None, manual)]
    cli(["fix", "s.py"], tmp_path)
    left = (
        "no roots request is left in this module: delete this check if nothing uses it, or read the capability "
        "from the request (`ctx.client_capabilities`)"
    )
    assert _labels(tmp_path) == [("MCP102", 13, 12, None, left)]
    assert "def supports_roots" in (tmp_path / "s.py").read_text()


CAPS = """from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


@mcp.tool()
async def caps(ctx: Context) -> str:
    params = ctx.session.client_params
    return str(params.capabilities.sampling is not None) if params else "none"
"""


@pytest.mark.parametrize(
    ("imports", "advice"),
    [
        ("from mcp.server.fastmcp import Context, FastMCP", "keep it while the server runs on a handshake-era SDK"),
        (
            "from mcp.server.mcpserver import Context, MCPServer as FastMCP",
            "read the capability from the request (`ctx.client_capabilities`) instead",
        ),
    ],
)
def test_capability_advice_names_an_accessor_the_sdk_has(tmp_path: Path, imports: str, advice: str) -> None:
    """`ctx.client_capabilities` exists on mcp 2.x's Context only: on mcp 1.x (every connection has a
    handshake) the advice is to keep the read until the port, which it names (mcp 1.27's Context
    has no `client_capabilities`: the old advice, followed there, raised AttributeError)."""
    (tmp_path / "server.py").write_text(CAPS.replace("from mcp.server.fastmcp import Context, FastMCP", imports))
    out = cli(["check", "--output-format", "json", "--select", "MCP102", "server.py"], tmp_path)
    [finding] = json.loads(out.stdout)["findings"]
    assert (finding["line"], finding["manual"].startswith(advice)) == (8, True), finding["manual"]
    if "mcpserver" not in imports:
        assert "`mcpmigrate fix --target-sdk mcp2`" in finding["manual"]

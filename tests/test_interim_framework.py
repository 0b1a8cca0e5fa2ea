"""The interim fix on a server built on mcp-use (field case: mcp-use's own test servers,
tests/integration/servers_for_testing/primitive_server.py and conformance_server.py at 5865e5c1):
mcp-use's ``MCPServer`` and ``Context`` subclass mcp 1.x's ``FastMCP`` and its ``Context``, and
mcp-use requires ``mcp>=1.24.0,<2.0.0``. The port to mcp 2.x renames the SDK's names, not
mcp-use's classes, so a resolver (``from mcp.server.mcpserver import Elicit, Resolve``) written into
such a tool under ``fix --target-sdk mcp2 --strategy interim`` never imports: the request stays
manual, naming the framework and its pin, and the server keeps answering legacy clients as before
(served on mcp 1.x beside the stand-in ``mcp_use`` of ``data/paramframework/stub``)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.helpers import cli
from tests.proof import run_proof

STUB = Path(__file__).resolve().parent / "data" / "paramframework" / "stub"

SHOP = '''\
from pydantic import BaseModel

from mcp.types import SamplingMessage, TextContent
from mcp_use.server import Context, MCPServer

server = MCPServer(name="shop")


class Order(BaseModel):
    quantity: int


@server.tool()
async def buy(item: str, ctx: Context) -> str:
    """Ask how many to buy."""
    answer = await ctx.elicit(message=f"How many {item}?", schema=Order)
    if answer.action == "accept":
        return f"{answer.data.quantity} x {item}"
    return "cancelled"


@server.tool()
async def praise(item: str, ctx: Context) -> str:
    """Ask the client's model for a line about the item."""
    reply = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"Praise {item}"))],
        max_tokens=20,
    )
    return reply.content.text
'''

_REST = (
    "mcp 1.x has no interim form, and neither `fix --strategy interim` nor the port (`--target-sdk mcp2`, which "
    "renames the SDK's names, not mcp-use's classes) can move this server to mcp 2.x. Keep the request while the "
    "server serves legacy clients; for 2026-07-28, register the tool on mcp 2.x's `MCPServer` by hand and run "
    "`fix --strategy interim` there"
)
CONTEXT = (
    "the context `ctx` is `mcp_use.server.Context`, mcp-use's subclass of mcp 1.x's `Context`, and mcp-use "
    "requires `mcp>=1.24.0,<2.0.0`: " + _REST
)
SERVER = (
    "the server is `mcp_use.server.MCPServer`, mcp-use's subclass of mcp 1.x's `FastMCP`, and mcp-use requires "
    "`mcp>=1.24.0,<2.0.0`: " + _REST
)


def _project(tmp_path: Path) -> Path:
    proj = tmp_path / "shop"
    proj.mkdir()
    (proj / "pyproject.toml").write_text(
        '[project]\nname = "shop"\nversion = "0.1.0"\ndependencies = ["mcp-use>=1.4"]\n', encoding="utf-8"
    )
    (proj / "server.py").write_text(SHOP, encoding="utf-8")
    return proj


def test_requests_of_an_mcp_use_server_stay_manual_under_the_port(tmp_path: Path) -> None:
    proj = _project(tmp_path)
    for args in (["check"], ["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes"]):
        res = cli([*args, "--no-cache", "--output-format", "json", "."], proj)
        assert res.exit_code == 1, res
        found = [(f["rule"], f["line"], f["fix"], f["manual"]) for f in res.json["findings"]]
        assert found == [("MCP202", 16, None, CONTEXT), ("MCP201", 25, None, SERVER)]
    assert (proj / "server.py").read_text(encoding="utf-8") == SHOP
    assert 'dependencies = ["mcp-use>=1.4"]' in (proj / "pyproject.toml").read_text(encoding="utf-8")


def test_the_kept_requests_still_answer_legacy_clients_on_mcp1(tmp_path: Path, legacy_python: str) -> None:
    """What the manual finding keeps: the server, unchanged, answers a legacy client's elicitation
    and sampling on mcp 1.x; and the resolver the fix used to write does not import there."""
    proj = _project(tmp_path)
    cli(["fix", "--no-cache", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes", "."], proj)
    run = tmp_path / "run"
    shutil.copytree(STUB, run)
    shutil.copy(proj / "server.py", run / "server.py")
    client = {"elicitation": {"action": "accept", "content": {"quantity": 2}}, "sampling": True}
    calls = [{"tool": "buy", "arguments": {"item": "apple"}}, {"tool": "praise", "arguments": {"item": "apple"}}]
    out = run_proof(legacy_python, run / "server.py", "server", "legacy", [], calls, client)
    assert [c["error"] for c in out["calls"]] == [None, None]
    assert out["calls"][0]["text"] == ["2 x apple"]
    echo = {"max_tokens": 20, "messages": ["Praise apple"], "model_hints": None, "system_prompt": None}
    assert [json.loads(out["calls"][1]["text"][0])] == [{**echo, "temperature": None}]
    probe = run / "probe.py"
    probe.write_text("from mcp.server.mcpserver import Resolve\n", encoding="utf-8")
    died = subprocess.run([legacy_python, str(probe)], capture_output=True, text=True, cwd=run, timeout=120)
    assert "No module named 'mcp.server.mcpserver'" in died.stderr

"""One run to a migrated server: ``fix --target-sdk mcp2 --strategy interim`` ports an mcp 1.x
FastMCP server that pushes sampling or elicitation to the client, then applies the interim fix
to the ported code (the interim planner hears the requirement the port writes,
``pins.ported``). The result, on mcp 2.3, answers every ``[[interim_proof]]`` scenario of the
fixture on a legacy and a 2026-07-28 connection as ``before.py`` does on mcp 1.27 (legacy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli, copy_to, fixture_cases, load_toml
from tests.proof import run_proof

CASES = [
    p
    for p in fixture_cases()
    if (case := load_toml(p / "case.toml")).get("sdk") == "mcp1"
    and case.get("interim_proof")
    and not (p / "after_interim.py").exists()
]


def _answers(answer: dict[str, Any]) -> list[tuple]:
    return [(r["error"], r["is_error"], r["text"], r["structured"]) for r in answer["calls"]]


def _port(case_dir: Path, tmp_path: Path) -> Path:
    """The fixture ported and fixed with ``--unsafe-fixes``: a tool that lets the client's refusal of
    its request escape answers a client without the capability differently on mcp 2.x (the port's
    and the resolver's review note, tests/test_port_refusals.py); the scenarios here have callbacks."""
    target = copy_to(case_dir / "before.py", tmp_path)
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")  # refused without the port
    res = cli(
        [
            "fix",
            "--target-sdk",
            "mcp2",
            "--strategy",
            "interim",
            "--unsafe-fixes",
            "--output-format",
            "json",
            target.name,
        ],
        tmp_path,
    )
    assert res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert (tmp_path / "requirements.txt").read_text() == "mcp>=2.3,<3\n"
    return target


def test_there_are_mcp1_interim_cases() -> None:
    assert {p.parent.name for p in CASES} >= {"sampling", "elicitation"}


@pytest.mark.parametrize("case_dir", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_port_then_interim(case_dir: Path, tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    case = load_toml(case_dir / "case.toml")
    after = _port(case_dir, tmp_path)
    server = case.get("server", "mcp")
    for scenario in case["interim_proof"]:
        calls = [{"tool": c["tool"], "arguments": c.get("arguments", {})} for c in scenario["calls"]]
        client = scenario.get("client")
        before = run_proof(legacy_python, case_dir / "before.py", server, "legacy", [], calls, client=client)
        for mode in ("legacy", "modern"):
            got = run_proof(mcp2_python, after, server, mode, [], calls, client=client)
            assert _answers(got) == _answers(before), f"{mode}, client {client}: {got['calls']} vs {before['calls']}"


TOOLS = """from mcp.server.fastmcp import Context, FastMCP

from common import request_consent

mcp = FastMCP("ops")


@mcp.tool()
async def stop(name: str, ctx: Context) -> str:
    await request_consent(f"Stop {name}?", ctx)
    return f"stopped {name}"
"""
COMMON = """from pydantic import BaseModel


class Consent(BaseModel):
    acknowledge: bool


async def request_consent(what: str, ctx) -> None:
    result = await ctx.elicit(message=what, schema=Consent)
    if result.action != "accept" or not result.data.acknowledge:
        raise ValueError("User rejected the operation.")
"""


def test_a_helper_reached_from_an_mcp1_tool_of_another_module_is_judged_as_ported(tmp_path: Path) -> None:
    """In the one run, the helper's context comes from an mcp 1.x tool of another module (read
    before that module is ported): it is mcp 2.x code once written, so the reason it stays manual
    is where it sits (awslabs aws-for-sap-management's `request_consent`), not "mcp 1.x has no
    interim form"."""
    (tmp_path / "tools.py").write_text(TOOLS, encoding="utf-8")
    (tmp_path / "common.py").write_text(COMMON, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--output-format", "json", "."], tmp_path)
    (left,) = res.json["findings"]
    assert (left["rule"], left["path"], left["line"], left["column"]) == ("MCP202", "common.py", 9, 20)
    assert left["manual"] == (
        "the request is made in the helper `request_consent`, which is also called from another module "
        "(`stop` in tools.py): the fix hands the helper the answer in place of its context, "
        "and those calls would still pass the context; move the request into the tools by hand"
    )
    assert "from mcp.server.mcpserver import Context, MCPServer" in (tmp_path / "tools.py").read_text()


GATE = """from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("layers")


class Confirm(BaseModel):
    ok: bool


async def _confirm(ctx: Context, text: str) -> bool:
    answer = await ctx.elicit(message=text, schema=Confirm)
    return answer.action == "accept" and answer.data.ok


@mcp.tool()
async def drop(ctx: Context, layer: str) -> str:
    if not await _confirm(ctx, f"Drop {layer}?"):
        return f"kept {layer}"
    return f"dropped {layer}"
"""


def test_a_helper_called_with_an_mcp1_tools_context_is_fixed_and_reported_in_the_porting_run(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """The helper takes the mcp 1.x `Context` of the tool, which the same run renames to mcp 2.x's
    (nkarasiak/qgis-mcp's `_confirm_destructive`, once its schema is a model): `check` offers the
    interim fix instead of "passes `ctx`, not the tool's own mcp 2.x `Context` parameter", and `fix`
    reports the site fixed (it was rewritten, unreported, in the run's second round)."""
    server = tmp_path / "server.py"
    server.write_text(GATE, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    (site,) = [f for f in res.json["findings"] if f["rule"] == "MCP202"]
    assert (site["line"], site["manual"]) == (12, None)
    assert site["fix"]["description"] == (
        "move the request out of the helper `_confirm` into a resolver returning `Elicit(...)` for each call, "
        "injected into `drop` with `Annotated[..., Resolve(fn)]` and handed to the helper in place of the "
        "request (works on both eras) (review: " + RESOLVER_REFUSAL + ")"
    )
    assert site["fix"]["safety"] == "unsafe"
    res = cli(
        ["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", "."],
        tmp_path,
    )
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == [("MCP202", 12), ("MCP501", 1)]
    scenarios = [
        ({"elicitation": {"action": "accept", "content": {"ok": True}}}, "dropped roads"),
        ({"elicitation": {"action": "accept", "content": {"ok": False}}}, "kept roads"),
        ({"elicitation": {"action": "decline"}}, "kept roads"),
    ]
    calls = [{"tool": "drop", "arguments": {"layer": "roads"}}]
    before = tmp_path / "before.py"
    before.write_text(GATE, encoding="utf-8")
    for client, text in scenarios:
        want = run_proof(legacy_python, before, "mcp", "legacy", [], calls, client=client)
        assert _answers(want)[0][2] == [text]
        for mode in ("legacy", "modern"):
            got = run_proof(mcp2_python, server, "mcp", mode, [], calls, client=client)
            assert _answers(got) == _answers(want), f"{mode}, {client}: {got['calls']} vs {want['calls']}"


def test_an_elicitation_given_a_dict_schema_stays_manual_and_the_port_is_written(tmp_path: Path) -> None:
    """`ctx.elicit(message=..., schema={...})` raises `AttributeError` (`schema.model_fields`) on mcp
    1.x and 2.x before sending anything (nkarasiak/qgis-mcp's `_confirm_destructive`, whose `except`
    then proceeds): there is no request to move, so the site is manual with that reason, and the
    port goes ahead (it used to be refused whole: the resolver written from the dict read
    `properties` as a name)."""
    src = GATE.replace("schema=Confirm", 'schema={"type": "object", "properties": {"ok": {"type": "boolean"}}}')
    (tmp_path / "server.py").write_text(src, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--output-format", "json", "."], tmp_path)
    assert res.json["errors"] == [], str(res)
    assert [(f["rule"], f["line"]) for f in res.json["fixed"]] == [("MCP501", 1)]
    (left,) = res.json["findings"]
    assert (left["rule"], left["line"], left["manual"]) == (
        "MCP202",
        12,
        "`ctx.elicit` is given a JSON-schema dict as its schema, but `Context.elicit` takes a pydantic model "
        "class and raises `AttributeError` on a dict before anything is sent: this request reaches no client "
        "today (on mcp 1.x and 2.x alike); pass a model (`class Confirm(BaseModel): confirm: bool`), then run "
        "the fix again",
    )
    assert "from mcp.server.mcpserver import Context, MCPServer" in (tmp_path / "server.py").read_text()


HAIKU = """from mcp.server.fastmcp import Context, FastMCP
from mcp.types import SamplingMessage, TextContent

mcp = FastMCP("haiku")


@mcp.tool()
async def get_haiku(topic: str, ctx: Context | None = None) -> str:
    context = ctx or mcp.get_context()
    result = await context.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"A haiku about {topic}"))],
        max_tokens=100,
    )
    if isinstance(result.content, TextContent):
        return result.content.text
    return "Haiku generation failed"
"""


def test_a_context_falling_back_to_get_context_is_ported_to_the_parameter_and_its_request_resolved(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """`context = ctx or mcp.get_context()` (lastmile-ai/mcp-agent's nested_sampling_server) becomes
    `context = ctx`, not `ctx or ctx`: the plain alias the interim fix follows, so the one run ports
    the tool and moves its sampling request into a resolver (the alias and the parameter, then
    unused, go), and the server answers as before on both eras."""
    server = tmp_path / "server.py"
    server.write_text(HAIKU, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    [site] = [f for f in res.json["findings"] if f["rule"] == "MCP201"]
    assert site["manual"] == (  # names the run below, which does the upgrade too
        "the project pins `mcp==1.27.0` in requirements.txt: mcp 1.x has no interim form (it cannot serve "
        "2026-07-28 at all): upgrade to mcp 2.x (`MCPServer`, or `Server(on_call_tool=…)`) and run "
        "`fix --strategy interim` again; `fix --target-sdk mcp2 --strategy interim` does both in one run"
    )
    # unsafe: a client without sampling got the tool error result from mcp 1.x and gets error -32021
    # from the resolver (tests/test_port_refusals.py); the port's label sees the request in round 1
    res = cli(
        ["fix", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", "."],
        tmp_path,
    )
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    # the request, manual in the original text, is reported fixed with the fix the second round applied
    fixed = [(f["rule"], f["line"], f["fix"]["description"][:40]) for f in res.json["fixed"]]
    assert fixed == [
        ("MCP501", 1, "rename the import and its uses to mcp 2."),
        ("MCP504", 9, "take the context as a `Context` paramete"),
        ("MCP201", 10, "move the request into a resolver returni"),
    ], fixed
    text = server.read_text()
    assert text.endswith(
        "@mcp.tool()\nasync def get_haiku(\n"
        "    topic: str, result: Annotated[CreateMessageResult, Resolve(get_haiku_sampling)]\n) -> str:\n"
        "    if isinstance(result.content, TextContent):\n        return result.content.text\n"
        '    return "Haiku generation failed"\n'
    ), text
    calls = [{"tool": "get_haiku", "arguments": {"topic": "rain"}}]
    before = tmp_path / "before.py"
    before.write_text(HAIKU, encoding="utf-8")
    want = run_proof(legacy_python, before, "mcp", "legacy", [], calls, client={"sampling": True})
    assert want["calls"][0]["is_error"] is False
    for mode in ("legacy", "modern"):
        got = run_proof(mcp2_python, server, "mcp", mode, [], calls, client={"sampling": True})
        assert _answers(got) == _answers(want), f"{mode}: {got['calls']} vs {want['calls']}"


BUY = """from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("shop")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def buy(item: str, ctx: Context) -> str:
    result = await ctx.elicit(message=f"Buy {item}?", schema=Confirm)
    if result.action == "accept" and result.data.ok:
        return f"bought {item}"
    return "cancelled"
"""

RESOLVER_REFUSAL = (
    "a client that did not declare elicitation got a tool error result (`isError: true`, the client's refusal "
    'as its text) from the mcp 1.x tool, and now gets a JSON-RPC error -32021 instead (`MCPError` "Client did '
    'not declare the form elicitation capability required by resolver …", raised before the tool runs), on '
    "legacy connections too"
)

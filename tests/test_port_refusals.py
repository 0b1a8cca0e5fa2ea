"""The port to mcp 2.x of a FastMCP tool whose client request the client may refuse, and labels
that later fix rounds read off the text.

Measured with the real SDKs (mcp 2.3 client without callbacks, legacy connection): a client that
did not declare elicitation (or sampling) answers the request with an error; mcp 1.27's FastMCP
sent that refusal as the tool error result ``Error executing tool buy: Elicitation not supported``
(``isError: true``), mcp 2.3's ``MCPServer`` as a JSON-RPC error (``MCPError: Elicitation not
supported``), and the interim resolver as error -32021 before the tool runs. A tool that catches
the refusal answers the same on both. So the port's rename (MCP501) is unsafe where the refusal
escapes a tool, and so is the resolver the same run writes on the mcp 1.x code; without
``--unsafe-fixes`` the port writes nothing and says why, and a second ``fix`` agrees.

A later fix round labels a site as a fresh run on the written text would: a round-2 fix that is
unsafe is left, reported with its note, the safe rounds before it are written, and a second
``fix`` changes nothing (a label read off the run's history made ``fix`` refuse the file as
"not idempotent")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli
from tests.proof import run_proof
from tests.test_port_interim import BUY, RESOLVER_REFUSAL

PORT_FIX = "rename the import and its uses to mcp 2.x's names (same objects, same behaviour)"
CONTEXT_FIX = (
    "take the context as a `Context` parameter of the tool, resource or prompt (mcp 2.x's `MCPServer` injects "
    "it there and keeps it out of the inputSchema) and pass it down to the functions on the way"
)


def _refusal_review(tools: str, verb: str = "asks") -> str:
    return (
        f" (review: FastMCP tool {tools} {verb} the client where no `except` handles its refusal: a client that did "
        "not declare the capability (it answers the request with an error) got the tool error result `Error executing "
        "tool <name>: <the client's error message>` (`isError: true`) from mcp 1.x; mcp 2.x's `MCPServer` answers that "
        "refusal (`MCPError`) with a JSON-RPC error response instead, on legacy connections too (the interim fix's "
        "resolver: error -32021 before the tool runs). To keep the tool error result, catch it in the tool: `except "
        "MCPError as exc: raise ToolError(str(exc)) from exc`)"
    )


BLOCKED = (
    "blocks the port to mcp 2.x: MCP501 at line 1: its fix needs --unsafe-fixes (its review note says what "
    "changes); nothing was written"
)


def _answers(answer: dict[str, Any]) -> list[tuple]:
    """(error, isError, text) per call; an absent isError (mcp 2.3) is mcp 1.27's `false`."""
    return [(r["error"], bool(r["is_error"]), r["text"]) for r in answer["calls"]]


def _project(tmp_path: Path, source: str) -> Path:
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    return tmp_path / "server.py"


def _fix(tmp_path: Path, *extra: str) -> dict[str, Any]:
    res = cli(["fix", "--no-cache", "--target-sdk", "mcp2", *extra, "--output-format", "json", "."], tmp_path)
    assert res.exception is None, str(res)
    return res.json


def _left(report: dict[str, Any]) -> list[tuple]:
    return [
        (f["rule"], f["line"], f["fix"]["safety"] if f["fix"] else None, f["fix"]["description"] if f["fix"] else None)
        for f in report["findings"]
    ]


def test_the_plain_port_of_a_tool_whose_elicitation_refusal_escapes_is_unsafe(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    server = _project(tmp_path, BUY)
    review = _refusal_review("`buy` (elicitation, line 13)")
    for _run in range(2):  # the second run agrees: nothing written, nothing else said
        report = _fix(tmp_path)
        assert [(e["path"], e["message"]) for e in report["errors"]] == [("server.py", BLOCKED)]
        assert report["fixed"] == [] and report["changed_files"] == []
        assert _left(report)[0] == ("MCP501", 1, "unsafe", PORT_FIX + review)
        assert server.read_text() == BUY
        assert (tmp_path / "requirements.txt").read_text() == "mcp==1.27.0\n"
    report = _fix(tmp_path, "--unsafe-fixes")
    assert report["errors"] == []
    assert [(f["rule"], f["fix"]["safety"], f["fix"]["description"]) for f in report["fixed"]] == [
        ("MCP501", "unsafe", PORT_FIX + review)
    ]
    assert server.read_text() == BUY.replace(
        "fastmcp import Context, FastMCP", "mcpserver import Context, MCPServer"
    ).replace('FastMCP("shop")', 'MCPServer("shop")')
    ported = server.read_text()
    assert _fix(tmp_path, "--unsafe-fixes")["changed_files"] == [] and server.read_text() == ported
    # what the review says, on the real SDKs (a client without an elicitation callback)
    before = tmp_path / "before.py"
    before.write_text(BUY, encoding="utf-8")
    calls = [{"tool": "buy", "arguments": {"item": "pen"}}]
    assert _answers(run_proof(legacy_python, before, "mcp", "legacy", [], calls)) == [
        (None, True, ["Error executing tool buy: Elicitation not supported"])
    ]
    assert _answers(run_proof(mcp2_python, server, "mcp", "legacy", [], calls)) == [
        ("MCPError: Elicitation not supported", False, [])
    ]


GUARDED = """from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("shop")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def buy(item: str, ctx: Context) -> str:
    try:
        result = await ctx.elicit(message=f"Buy {item}?", schema=Confirm)
    except Exception as exc:
        return f"no confirmation: {exc}"
    return f"{result.action} {item}"
"""


def test_a_tool_that_catches_the_refusal_is_ported_safely_and_answers_as_before(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    server = _project(tmp_path, GUARDED)
    report = _fix(tmp_path)
    assert report["errors"] == []
    assert [(f["rule"], f["fix"]["safety"], f["fix"]["description"]) for f in report["fixed"]] == [
        ("MCP501", "safe", PORT_FIX)
    ]
    before = tmp_path / "before.py"
    before.write_text(GUARDED, encoding="utf-8")
    calls = [{"tool": "buy", "arguments": {"item": "pen"}}]
    want = [(None, False, ["no confirmation: Elicitation not supported"])]
    assert _answers(run_proof(legacy_python, before, "mcp", "legacy", [], calls)) == want
    assert _answers(run_proof(mcp2_python, server, "mcp", "legacy", [], calls)) == want


def test_the_port_and_resolver_of_an_escaping_elicitation_need_unsafe_fixes(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """`--strategy interim`: the interim fix runs on the mcp 1.x text in the same round as the port
    (it would otherwise take the request out of the tool and let the port pass as safe)."""
    server = _project(tmp_path, BUY)
    resolver = (
        "move the request into a resolver returning `Elicit(...)`, injected into `buy` with "
        f"`Annotated[..., Resolve(fn)]` (works on both eras) (review: {RESOLVER_REFUSAL})"
    )
    report = _fix(tmp_path, "--strategy", "interim")
    assert [(e["path"], e["message"]) for e in report["errors"]] == [("server.py", BLOCKED)]
    assert _left(report) == [
        ("MCP501", 1, "unsafe", PORT_FIX + _refusal_review("`buy` (elicitation, line 13)")),
        ("MCP202", 13, "unsafe", resolver),
    ]
    assert server.read_text() == BUY
    report = _fix(tmp_path, "--strategy", "interim", "--unsafe-fixes")
    assert report["findings"] == [] and report["errors"] == [], report
    assert [(f["rule"], f["fix"]["description"]) for f in report["fixed"] if f["rule"] == "MCP202"] == [
        ("MCP202", resolver)
    ]
    fixed = server.read_text()
    assert _fix(tmp_path, "--strategy", "interim")["changed_files"] == [] and server.read_text() == fixed
    calls = [{"tool": "buy", "arguments": {"item": "pen"}}]
    for mode in ("legacy", "modern"):
        ((error, is_error, _text),) = _answers(run_proof(mcp2_python, server, "mcp", mode, [], calls))
        assert not is_error and error.startswith(
            "MCPError: Client did not declare the form elicitation capability required by resolver"
        ), (mode, error)


FALLBACK = """from mcp.server.fastmcp import Context, FastMCP
from pydantic import BaseModel

mcp = FastMCP("shop")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def buy(item: str, ctx: Context | None = None) -> str:
    context = ctx or mcp.get_context()
    result = await context.elicit(message=f"Buy {item}?", schema=Confirm)
    if result.action == "accept" and result.data.ok:
        return f"bought {item}"
    return "cancelled"
"""

FALLBACK_FIXED = """from typing import Annotated

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel

mcp = MCPServer("shop")


class Confirm(BaseModel):
    ok: bool


def buy_elicitation(item: str) -> Elicit[Confirm]:
    return Elicit(f"Buy {item}?", Confirm)


@mcp.tool()
async def buy(
    item: str, result: Annotated[ElicitationResult[Confirm], Resolve(buy_elicitation)]
) -> str:
    if result.action == "accept" and result.data.ok:
        return f"bought {item}"
    return "cancelled"
"""


def test_a_request_through_a_context_the_port_provides_is_judged_in_the_first_round(tmp_path: Path) -> None:
    """`context = ctx or mcp.get_context()`: the analysis types `context` only once the port (MCP504)
    has made it `ctx`, so the request is found, and resolved, in the second round. The port's label
    sees it in the first: without `--unsafe-fixes` nothing is written (not the context port alone,
    which would leave the module half on each SDK); with it the resolver follows as a later round's
    fix, reported as fixed (it used to go unreported), and a second `fix` changes nothing."""
    server = _project(tmp_path, FALLBACK)
    report = _fix(tmp_path, "--strategy", "interim")
    assert [(e["path"], e["message"]) for e in report["errors"]] == [("server.py", BLOCKED)]
    assert _left(report)[0] == ("MCP501", 1, "unsafe", PORT_FIX + _refusal_review("`buy` (elicitation, line 14)"))
    assert server.read_text() == FALLBACK
    report = _fix(tmp_path, "--strategy", "interim", "--unsafe-fixes")
    assert report["findings"] == [] and report["errors"] == [], report
    assert server.read_text() == FALLBACK_FIXED
    # the resolver, found only in the second round, is reported with the port (the note, a fresh label)
    assert [(f["rule"], f["line"], f["fix"]["safety"], f["fix"]["description"]) for f in report["fixed"]] == [
        ("MCP501", 1, "unsafe", PORT_FIX + _refusal_review("`buy` (elicitation, line 14)")),
        ("MCP504", 13, "safe", CONTEXT_FIX),
        (
            "MCP202",
            14,
            "safe",
            "move the request into a resolver returning `Elicit(...)`, injected into `buy` with "
            f"`Annotated[..., Resolve(fn)]` (works on both eras) ({RESOLVER_REFUSAL})",
        ),
    ]
    for flags in ((), ("--unsafe-fixes",)):
        again = _fix(tmp_path, "--strategy", "interim", *flags)
        assert again["changed_files"] == [] and again["errors"] == [] and again["findings"] == []
    assert server.read_text() == FALLBACK_FIXED


HAIKU = """from mcp.server.fastmcp import Context, FastMCP
from mcp.types import SamplingMessage, TextContent

mcp = FastMCP("haiku")
TOPICS: list[str] = []


@mcp.tool()
async def get_haiku(topic: str, ctx: Context | None = None) -> str:
    context = ctx or mcp.get_context()
    TOPICS.append(topic)
    try:
        result = await context.session.create_message(
            messages=[SamplingMessage(role="user", content=TextContent(type="text", text=f"A haiku about {topic}"))],
            max_tokens=100,
        )
    except Exception as exc:
        return f"no haiku: {exc}"
    return result.content.text if result.content.type == "text" else ""
"""

HAIKU_PORTED = (
    HAIKU.replace("fastmcp import Context, FastMCP", "mcpserver import Context, MCPServer")
    .replace('FastMCP("haiku")', 'MCPServer("haiku")')
    .replace("context = ctx or mcp.get_context()", "context = ctx")
)


def test_a_fix_unsafe_only_in_the_second_round_is_left_and_the_first_round_is_written(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """Round 1 (safe): the port (MCP501, MCP504: the refusal is caught). Round 2: the sampling request,
    now through the tool's `Context`, gets its resolver, which is unsafe (code runs before it, its
    `try` goes). `fix` writes round 1, reports the resolver as needing `--unsafe-fixes` with its note,
    and a second `fix` changes nothing; the written server answers a client without sampling as the
    original did."""
    server = _project(tmp_path, HAIKU)
    resolver = (
        "move the request into a resolver returning `Sample(...)`, injected into `get_haiku` with "
        "`Annotated[..., Resolve(fn)]` (works on both eras) (review: "
    )
    report = _fix(tmp_path, "--strategy", "interim")
    assert report["errors"] == []
    assert [(f["rule"], f["line"], f["fix"]["safety"]) for f in report["fixed"]] == [
        ("MCP501", 1, "safe"),
        ("MCP504", 10, "safe"),
    ]
    ((rule, line, safety, description),) = _left(report)
    assert (rule, line, safety) == ("MCP201", 13, "unsafe") and description.startswith(resolver)
    assert server.read_text() == HAIKU_PORTED
    assert (tmp_path / "requirements.txt").read_text() == "mcp>=2.3,<3\n"
    again = _fix(tmp_path, "--strategy", "interim")
    assert again["changed_files"] == [] and again["errors"] == [] and _left(again) == _left(report)
    assert server.read_text() == HAIKU_PORTED
    check = cli(["check", "--no-cache", "--output-format", "json", "."], tmp_path)
    assert [(f["rule"], f["line"], f["fix"]["safety"]) for f in check.json["findings"]] == [("MCP201", 13, "unsafe")]
    before = tmp_path / "before.py"
    before.write_text(HAIKU, encoding="utf-8")
    calls = [{"tool": "get_haiku", "arguments": {"topic": "rain"}}]
    want = [(None, False, ["no haiku: Sampling not supported"])]
    assert _answers(run_proof(legacy_python, before, "mcp", "legacy", [], calls)) == want
    assert _answers(run_proof(mcp2_python, server, "mcp", "legacy", [], calls)) == want


SUMMARIZE = """from mcp.server.fastmcp import Context, FastMCP
from mcp.types import SamplingMessage, TextContent

mcp = FastMCP("notes")


@mcp.tool()
async def summarize(text: str, ctx: Context) -> str:
    res = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=text))], max_tokens=20
    )
    return res.content.text if res.content.type == "text" else ""
"""

FIRST_ROOT = """from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri) if result.roots else "none"
"""


@pytest.mark.parametrize(
    ("source", "tool", "kind", "line", "rule", "marker", "refused"),
    [
        (SUMMARIZE, "summarize", "sampling", 9, "MCP201", "Sample(...)", "Sampling not supported"),
        (FIRST_ROOT, "first_root", "roots", 8, "MCP101", "ListRoots()", "List roots not supported"),
    ],
    ids=["sampling", "roots"],
)
def test_the_port_and_resolver_of_an_escaping_sampling_or_roots_request_need_unsafe_fixes(
    tmp_path: Path,
    legacy_python: str,
    mcp2_python: str,
    source: str,
    tool: str,
    kind: str,
    line: int,
    rule: str,
    marker: str,
    refused: str,
) -> None:
    """Under `--strategy interim` a sampling or roots request stays a request, answered through a
    resolver: mcp 1.27 sent a client without the capability `Error executing tool <name>: <refusal>`,
    the ported resolver answers error -32021 before the tool runs (on legacy connections too)."""
    server = _project(tmp_path, source)
    needed = "sampling" if kind == "sampling" else "roots"
    resolver = (
        f"move the request into a resolver returning `{marker}`, injected into `{tool}` with "
        f"`Annotated[..., Resolve(fn)]` (works on both eras) (review: a client that did not declare {kind} got a "
        "tool error result (`isError: true`, the client's refusal as its text) from the mcp 1.x tool, and now gets a "
        f'JSON-RPC error -32021 instead (`MCPError` "Client did not declare the {needed} capability required by '
        'resolver …", raised before the tool runs), on legacy connections too)'
    )
    report = _fix(tmp_path, "--strategy", "interim")
    assert [(e["path"], e["message"]) for e in report["errors"]] == [("server.py", BLOCKED)]
    assert _left(report)[:2] == [
        ("MCP501", 1, "unsafe", PORT_FIX + _refusal_review(f"`{tool}` ({kind}, line {line})")),
        (rule, line, "unsafe", resolver),
    ]
    assert server.read_text() == source
    report = _fix(tmp_path, "--strategy", "interim", "--unsafe-fixes")
    assert report["errors"] == [], report
    assert [f["fix"]["description"] for f in report["fixed"] if f["rule"] == rule] == [resolver]
    before = tmp_path / "before.py"
    before.write_text(source, encoding="utf-8")
    calls = [{"tool": tool, "arguments": {"text": "hi"} if kind == "sampling" else {}}]
    client = {"roots": False}  # no callbacks at all
    assert _answers(run_proof(legacy_python, before, "mcp", "legacy", [], calls, client)) == [
        (None, True, [f"Error executing tool {tool}: {refused}"])
    ]
    for mode in ("legacy", "modern"):
        ((error, is_error, _text),) = _answers(run_proof(mcp2_python, server, "mcp", mode, [], calls, client))
        assert not is_error and error.startswith(
            f"MCPError: Client did not declare the {needed} capability required by resolver"
        ), (mode, error)


def test_under_the_param_strategy_a_roots_request_does_not_make_the_port_unsafe(tmp_path: Path) -> None:
    """`param` (the default) takes the roots request out of the tool: the port's label leaves roots out."""
    _project(tmp_path, FIRST_ROOT)
    check = cli(["check", "--no-cache", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    [port] = [f for f in check.json["findings"] if f["rule"] == "MCP501"]
    assert (port["fix"]["safety"], port["fix"]["description"]) == ("safe", PORT_FIX)

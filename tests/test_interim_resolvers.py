"""``fix --strategy interim`` on the shapes real mcp 2.x ``MCPServer`` tools have (issue 11): a request
built from a pure local of the tool (requests-06), a ``try`` whose statements use the answer through a
derived local and a ``related_request_id=`` (requests-07), a tool defined inside a factory function
(requests-09), an answer whose name the dropped ``except`` handlers also bind (bugs-10). requests-07 is
the fixture sampling/mcp2_mcpserver_try_derived (its ``label_linked``), proven by tests/test_proof_interim.py.

Each field case (tests/data/resolvers/, copied unchanged) is fixed to exactly its ``.fixed.py``, and
both files are served in memory with the mcp 2.x Client (tests/proof): the fixed server gives the
original's legacy answers on legacy *and* on 2026-07-28 connections; the original fails there. The
edges of each kind (other spellings, and what stays manual, with its reason) follow.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli
from tests.proof import run_proof

DATA = Path(__file__).resolve().parent / "data" / "resolvers"
ERROR = "<error>"
ACCEPT = {"elicitation": {"action": "accept", "content": {"ok": True}}}
REFUSE = {"elicitation": {"action": "accept", "content": {"ok": False}}}
DECLINE = {"elicitation": {"action": "decline"}}
SAMPLING = {"sampling": True}

# case -> (the server object, or the factory building it; the calls; the clients to run them with)
CASES: dict[str, tuple[str, list[dict[str, Any]], list[dict[str, Any]]]] = {
    "requests_06": ("app", [{"tool": "poem", "arguments": {"topic": "the sea"}}], [SAMPLING]),
    "requests_09": ("build()", [{"tool": "wipe", "arguments": {"name": "cache"}}], [ACCEPT, REFUSE, DECLINE]),
    "bugs_10": ("mcp", [{"tool": "remove_layer", "arguments": {"name": "roads"}}], [ACCEPT, REFUSE, DECLINE]),
}


def _serve(tmp_path: Path, source: Path, server: str) -> Path:
    """A copy of ``source`` that the proof harness can serve: a factory is called at module level."""
    target = tmp_path / source.name
    text = source.read_text(encoding="utf-8")
    if server.endswith("()"):
        text += f"\n\nserved = {server}\n"
    target.write_text(text, encoding="utf-8")
    return target


def _texts(answer: dict[str, Any]) -> list[str]:
    return [ERROR if (r["error"] is not None or r["is_error"]) else "\n".join(r["text"]) for r in answer["calls"]]


def _fix(tmp_path: Path, name: str) -> tuple[dict, str]:
    target = tmp_path / f"{name}.py"
    shutil.copyfile(DATA / f"{name}.py", target)
    res = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", target.name], tmp_path)
    assert res.exception is None, str(res)
    return res.json, target.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(CASES))
def test_field_case_is_fixed_exactly(tmp_path: Path, name: str) -> None:
    out, fixed = _fix(tmp_path, name)
    assert fixed == (DATA / f"{name}.fixed.py").read_text(encoding="utf-8")
    assert [f for f in out["findings"] if f["rule"] in ("MCP201", "MCP202", "MCP207")] == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixed_server_answers_like_the_original_in_both_eras(tmp_path: Path, name: str, mcp2_python: str) -> None:
    server, calls, clients = CASES[name]
    (tmp_path / "before").mkdir()
    (tmp_path / "after").mkdir()
    before = _serve(tmp_path / "before", DATA / f"{name}.py", server)
    after = _serve(tmp_path / "after", DATA / f"{name}.fixed.py", server)
    attr = "served" if server.endswith("()") else server
    for client in clients:
        legacy = run_proof(mcp2_python, before, attr, "legacy", [], calls, client=client)
        assert ERROR not in _texts(legacy), legacy
        modern_before = run_proof(mcp2_python, before, attr, "modern", [], calls, client=client)
        assert _texts(modern_before) != _texts(legacy), f"{name}: the original already works on 2026-07-28"
        for mode in ("legacy", "modern"):
            got = run_proof(mcp2_python, after, attr, mode, [], calls, client=client)
            assert got["protocol_version"] == ("2026-07-28" if mode == "modern" else "2025-11-25")
            assert _texts(got) == _texts(legacy), f"{name} ({mode}, {client}): {got['calls']} vs {legacy['calls']}"


# -- the edges of each kind -------------------------------------------------------------------

HEAD = """from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import SamplingMessage, TextContent

mcp = MCPServer("x")
STYLE = "haiku"


class Confirm(BaseModel):
    ok: bool


"""


def _check(tmp_path: Path, body: str, head: str = HEAD) -> list[dict]:
    (tmp_path / "server.py").write_text(head + body, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    res = cli(["check", "--no-cache", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    return [f for f in res.json["findings"] if f["rule"] in ("MCP201", "MCP202")]


def _fixed(tmp_path: Path) -> str:
    res = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    return (tmp_path / "server.py").read_text(encoding="utf-8")


def test_a_chain_of_pure_locals_is_copied_in_order_and_leaves_the_tool(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def poem(topic: str, lines: int, ctx: Context) -> str:
    subject = topic.strip()
    prompt: str = f"Write {lines} lines of {STYLE} about {subject}"
    result = await ctx.session.create_message(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))], max_tokens=80
    )
    return f"{subject}: {result.content.text}"
"""
    [f] = _check(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    after = _fixed(tmp_path)
    assert after.endswith(
        """def poem_sampling(topic: str, lines: int) -> Sample:
    subject = topic.strip()
    prompt: str = f"Write {lines} lines of {STYLE} about {subject}"
    return Sample(
        [SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
        max_tokens=80,
    )


@mcp.tool()
async def poem(
    topic: str,
    lines: int,
    result: Annotated[CreateMessageResult, Resolve(poem_sampling)],
) -> str:
    subject = topic.strip()
    return f"{subject}: {result.content.text}"
"""
    )


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        ("    prompt = render(topic)\n", "`prompt` is computed by `render(topic)`, which calls or awaits something"),
        ('    prompt = "a"\n    prompt = topic\n', "`prompt` is bound more than once in the tool"),
        (
            "    prompt = [topic]\n    prompt.append(STYLE)\n",
            "`prompt` is used by `prompt.append(STYLE)` before the request, which may change it",
        ),
        (
            "    prompt = ctx.request_id\n",
            "`ctx` is the context (or an MCP object), which exists only while the tool runs",
        ),
        (
            "    if topic:\n        prompt = topic\n",
            "`prompt` is not bound by a plain assignment at the top of the tool",
        ),
        ("    topic = topic.strip()\n    prompt = topic\n", "`topic` is an argument the tool reassigns"),
        (
            # a class of the tool body moves above the tool unless it reads the tool's own names
            # (tests/test_interim_moved_class.py)
            "    class Prompt(str):\n        size = len(topic)\n\n    prompt = Prompt(topic)\n",
            "`Prompt` is a class defined inside the tool that reads the tool's parameter `topic`: a resolver does not "
            "see it, and it cannot move to module level without that parameter; define it at module level by hand; "
            "`prompt` is computed from it)",
        ),
        (
            "    rid = ctx.request_id\n    prompt = f'{rid}: {topic}'\n",
            "`ctx` is the context (or an MCP object), which exists only while the tool runs; `rid` is computed from it)",
        ),
    ],
)
def test_a_local_a_resolver_cannot_recompute_stays_manual(tmp_path: Path, setup: str, why: str) -> None:
    body = f"""def render(topic: str) -> str:
    return topic


@mcp.tool()
async def poem(topic: str, ctx: Context) -> str:
{setup}    result = await ctx.session.create_message([SamplingMessage(role="user", content=prompt)], max_tokens=8)
    return result.model
"""
    [f] = _check(tmp_path, body)
    assert f["fix"] is None
    assert f["manual"].startswith("the request is built from "), f["manual"]
    assert f"which a resolver cannot recompute ({why}" in f["manual"]


def test_a_related_request_id_of_another_request_stays_manual(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def label(item: str, other: str, ctx: Context) -> str:
    result = await ctx.session.create_message([], max_tokens=8, related_request_id=other)
    return result.model
"""
    [f] = _check(tmp_path, body)
    assert f["manual"] == (
        "the request passes `related_request_id=other`, not the tool's own request id: a resolver's request always "
        "goes with the tool call's request (mcp.server.mcpserver.resolve); rewrite by hand"
    )


def test_the_own_request_id_through_an_alias_goes_with_the_alias(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def label(item: str, ctx: Context) -> str:
    c = ctx
    result = await c.session.create_message([], max_tokens=8, related_request_id=c.request_context.request_id)
    return result.model
"""
    [f] = _check(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    assert _fixed(tmp_path).endswith(
        """def label_sampling() -> Sample:
    return Sample([], max_tokens=8)


@mcp.tool()
async def label(
    item: str, result: Annotated[CreateMessageResult, Resolve(label_sampling)]
) -> str:
    return result.model
"""
    )


FACTORY = """def build(prefix: str) -> MCPServer:
    app = MCPServer("janitor")
    question = prefix + " {}?"

    @app.tool()
    async def wipe(name: str, ctx: Context) -> str:
        answer = await ctx.elicit(question.format(name), Confirm)
        return answer.action

    return app
"""


def test_a_nested_tool_reads_what_the_factory_bound_before_it(tmp_path: Path) -> None:
    [f] = _check(tmp_path, FACTORY)
    assert f["fix"]["safety"] == "safe", f
    assert _fixed(tmp_path).endswith(
        """    question = prefix + " {}?"

    def wipe_elicitation(name: str) -> Elicit[Confirm]:
        return Elicit(question.format(name), Confirm)

    @app.tool()
    async def wipe(
        name: str,
        answer: Annotated[ElicitationResult[Confirm], Resolve(wipe_elicitation)],
    ) -> str:
        return answer.action

    return app
"""
    )


def test_a_nested_tool_reading_a_name_the_factory_binds_later_stays_manual(tmp_path: Path) -> None:
    late = FACTORY.replace('    question = prefix + " {}?"\n', "").replace(
        "    return app\n", '    question = prefix + " {}?"\n    return app\n'
    )
    [f] = _check(tmp_path, late)
    assert f["fix"] is None and "(`question` is bound in `build` after the tool)" in f["manual"]


def test_a_nested_tool_under_future_annotations_stays_manual(tmp_path: Path) -> None:
    [f] = _check(tmp_path, FACTORY, head="from __future__ import annotations\n\n" + HEAD)
    assert f["fix"] is None
    assert f["manual"].startswith(
        "the tool is defined inside `build` and the module has `from __future__ import annotations`"
    )


def test_the_dropped_fallback_is_what_the_review_note_says(tmp_path: Path, mcp2_python: str) -> None:
    # bugs-10's note: "a legacy client that cannot answer gets a tool error instead of" the fallback
    server, calls, _ = CASES["bugs_10"]
    before = run_proof(mcp2_python, DATA / "bugs_10.py", server, "legacy", [], calls)
    after = run_proof(mcp2_python, DATA / "bugs_10.fixed.py", server, "legacy", [], calls)
    assert _texts(before) == ["refused: client cannot confirm"]
    assert _texts(after) == [ERROR]


def _fix_and_prove(tmp_path: Path, source: str, python: str, calls: list[dict[str, Any]]) -> str:
    """Fix ``source`` (safe fixes only, nothing left), then serve both: the fixed server gives the
    original's legacy answers in both eras, whatever the client answers. Returns the fixed text."""
    (tmp_path / "before").mkdir()
    before = tmp_path / "before" / "server.py"
    before.write_text(source, encoding="utf-8")
    shutil.copyfile(before, tmp_path / "server.py")
    res = cli(["fix", "--strategy", "interim", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None and res.json["findings"] == [], res.json
    after = tmp_path / "server.py"
    for client in (ACCEPT, REFUSE, DECLINE):
        legacy = _texts(run_proof(python, before, "mcp", "legacy", [], calls, client=client))
        assert ERROR not in legacy
        for mode in ("legacy", "modern"):
            assert _texts(run_proof(python, after, "mcp", mode, [], calls, client=client)) == legacy, (mode, client)
    return after.read_text(encoding="utf-8")


HELPER_LOCALS = """from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("consent")
PREFIX = "Delete"


class Confirm(BaseModel):
    ok: bool


async def confirm(ctx: Context, what: str) -> bool:
    label = f"{PREFIX} {what.upper()}?"
    r = await ctx.elicit(label, Confirm)
    return r.action == "accept" and r.data.ok


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    target = path.strip("/")
    if not await confirm(ctx, target):
        return "kept"
    return f"deleted {target}"
"""


def test_pure_locals_around_a_helper_keep_the_answers_in_both_eras(tmp_path: Path, mcp2_python: str) -> None:
    # requests-06's kind through a consent helper: a local of the tool passed to it, a local of the helper
    calls = [{"tool": "delete", "arguments": {"path": "/tmp/x/"}}]
    assert _fix_and_prove(tmp_path, HELPER_LOCALS, mcp2_python, calls).endswith("""def delete_elicitation(path: str) -> Elicit[Confirm]:
    target = path.strip("/")
    what = target
    label = f"{PREFIX} {what.upper()}?"
    return Elicit(label, Confirm)


@mcp.tool()
async def delete(
    path: str, r: Annotated[ElicitationResult[Confirm], Resolve(delete_elicitation)]
) -> str:
    target = path.strip("/")
    if not await confirm(r, target):
        return "kept"
    return f"deleted {target}"
""")


FACTORY_HELPER = """from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer


class Confirm(BaseModel):
    ok: bool


async def confirm(ctx: Context, what: str) -> bool:
    r = await ctx.elicit(f"Delete {what}?", Confirm)
    return r.action == "accept" and r.data.ok


def build(root: str) -> MCPServer:
    app = MCPServer("x")

    @app.tool()
    async def delete(path: str, ctx: Context) -> str:
        target = root + path
        if not await confirm(ctx, target):
            return "kept"
        return f"deleted {target}"

    return app


mcp = build("/srv")
"""


def test_a_factory_tool_calling_a_helper_gets_its_resolver_in_the_factory(tmp_path: Path, mcp2_python: str) -> None:
    calls = [{"tool": "delete", "arguments": {"path": "/a/"}}]
    assert """def build(root: str) -> MCPServer:
    app = MCPServer("x")

    def delete_elicitation(path: str) -> Elicit[Confirm]:
        target = root + path
        what = target
        return Elicit(f"Delete {what}?", Confirm)

    @app.tool()
    async def delete(
        path: str, r: Annotated[ElicitationResult[Confirm], Resolve(delete_elicitation)]
    ) -> str:
        target = root + path
        if not await confirm(r, target):
""" in _fix_and_prove(tmp_path, FACTORY_HELPER, mcp2_python, calls)


def test_a_factory_that_shadows_a_name_of_the_helper_request_stays_manual(tmp_path: Path) -> None:
    shadowing = FACTORY_HELPER.replace('    app = MCPServer("x")\n', '    app = MCPServer("x")\n    Confirm = None\n')
    (tmp_path / "server.py").write_text(shadowing, encoding="utf-8")
    res = cli(["check", "--no-cache", "--output-format", "json", "server.py"], tmp_path)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP202"]
    assert f["fix"] is None
    assert f["manual"].endswith(
        "`confirm(ctx, target)` in `build.delete` is in a tool defined inside `build`, which binds `Confirm` too: "
        "a resolver next to the tool would read that one, not the module's; rewrite by hand"
    )


def test_a_helper_request_with_the_own_related_request_id_is_moved(tmp_path: Path) -> None:
    body = """async def ask(ctx: Context, topic: str) -> str:
    result = await ctx.session.create_message([], max_tokens=8, related_request_id=ctx.request_id)
    return result.model


@mcp.tool()
async def label(item: str, ctx: Context) -> str:
    return await ask(ctx, item)
"""
    [f] = _check(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    assert _fixed(tmp_path).endswith(
        """async def ask(result: CreateMessageResult, topic: str) -> str:
    return result.model


def label_sampling() -> Sample:
    return Sample([], max_tokens=8)


@mcp.tool()
async def label(
    item: str, result: Annotated[CreateMessageResult, Resolve(label_sampling)]
) -> str:
    return await ask(result, item)
"""
    )
    other = body.replace("related_request_id=ctx.request_id", "related_request_id=topic")
    [f] = _check(tmp_path, other)
    assert f["manual"].startswith(
        "the request is made in the helper `ask`; the request passes `related_request_id=topic`, not the tool's own"
    )


def test_a_tool_wrapped_by_a_decorator_of_its_own_stays_manual(tmp_path: Path) -> None:
    """mcp 2.3 registers (and calls) the wrapper ``inner(ok, ctx)``: the wrapped tool given a resolver
    parameter fails every call on both eras ("Error executing tool inner"), where it answered legacy
    clients before; a decorator above the registration wraps what it returns, and the tool is fixed."""
    wrapper = """def plain(fn):
    async def inner(ok: bool, ctx: Context) -> str:
        return await fn(ok, ctx)

    return inner


"""
    body = """async def confirm(ok: bool, ctx: Context) -> str:
    answer = await ctx.elicit("Sure?", Confirm)
    return answer.action
"""
    [finding] = _check(tmp_path, wrapper + "@mcp.tool()\n@plain\n" + body)
    assert (finding["fix"], finding["manual"]) == (
        None,
        "`confirm` is wrapped by `@plain` before the server registers it: the wrapper is what the SDK calls, and "
        "it would not pass the resolver parameter on; rewrite by hand",
    )
    [finding] = _check(tmp_path, wrapper + "@plain\n@mcp.tool()\n" + body)
    assert finding["fix"]["safety"] == "safe"

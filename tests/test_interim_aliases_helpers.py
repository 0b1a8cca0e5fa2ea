"""``fix --strategy interim`` on mcp 2.x ``MCPServer`` tools that ask through a context alias or a
helper. The fixtures prove the rewrites run (elicitation/mcp2_mcpserver_confirm_helper,
sampling/mcp2_mcpserver_session_alias, roots/mcp2_interim_alias_helper); these tests pin the
edges: what rewrites, with which label, and what stays manual and why."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

HEAD = """from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("x")
LOG: list[str] = []


class Confirm(BaseModel):
    ok: bool


"""


def _findings(tmp_path: Path, body: str) -> list[dict]:
    (tmp_path / "server.py").write_text(HEAD + body, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    result = cli(["check", "server.py", "--output-format", "json"], tmp_path)
    assert result.exception is None, str(result)
    return [f for f in result.json["findings"] if f["rule"] in ("MCP101", "MCP201", "MCP202")]


def _fix(tmp_path: Path) -> str:
    result = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"], tmp_path)
    assert result.exception is None, str(result)
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    compile(after, "server.py", "exec")
    again = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"], tmp_path)
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == after, "a second fix changed the file"
    assert again.exception is None
    return after


# -- aliases ----------------------------------------------------------------------------------


def test_a_context_alias_still_used_stays_with_the_context(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    c = ctx
    r = await c.elicit(f"Delete {path}?", Confirm)
    return f"{r.action} {c.request_id}"
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    after = _fix(tmp_path)
    assert (
        'def delete_elicitation(path: str) -> Elicit[Confirm]:\n    return Elicit(f"Delete {path}?", Confirm)' in after
    )
    assert (
        """async def delete(
    path: str,
    r: Annotated[ElicitationResult[Confirm], Resolve(delete_elicitation)],
    ctx: Context,
) -> str:
    c = ctx
    return"""
    ) in after


def test_an_alias_chain_goes_with_the_request(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def draft(topic: str, ctx: Context) -> str:
    s = ctx.session
    s2 = s
    r = await s2.create_message([], max_tokens=5)
    return r.model
"""
    [f] = _findings(tmp_path, body)
    assert f["rule"] == "MCP201" and f["fix"]["safety"] == "safe"
    after = _fix(tmp_path)
    assert (
        """async def draft(
    topic: str, r: Annotated[CreateMessageResult, Resolve(draft_sampling)]
) -> str:
    return r.model"""
        in after
    )
    assert "s2" not in after and "ctx" not in after


def test_an_alias_assigned_twice_is_manual(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def delete(path: str, ctx: Context, other: Context) -> str:
    c = ctx
    c = other
    r = await c.elicit("Go?", Confirm)
    return r.action
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None and "`c`, which is assigned more than once" in f["manual"]


def test_a_session_alias_elicit_form_is_manual_like_the_direct_form(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    session = ctx.session
    r = await session.elicit_form("Go?", {"type": "object", "properties": {}})
    return r.action
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None and "the session form takes a JSON-schema dict" in f["manual"]


def test_a_prompt_is_manual_resolvers_are_for_tools_only(tmp_path: Path) -> None:
    body = """@mcp.prompt()
async def review(path: str, ctx: Context) -> str:
    c = ctx
    r = await c.elicit("Go?", Confirm)
    return r.action
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None and "injects `Resolve(...)` parameters into tools only" in f["manual"]
    assert "in the prompt, return `InputRequiredResult(" in f["manual"]


# -- helpers ----------------------------------------------------------------------------------

CONFIRM = """async def confirm(ctx: Context, what: str) -> bool:
    r = await ctx.elicit(f"Delete {what}?", Confirm)
    return r.action == "accept" and r.data.ok


"""


def test_a_helper_called_from_two_tools_gets_a_resolver_per_tool(tmp_path: Path) -> None:
    body = (
        CONFIRM
        + """@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    if not await confirm(ctx, path):
        return "kept"
    return "deleted"


@mcp.tool()
async def purge(folder: str, pattern: str, ctx: Context) -> str:
    ok = await confirm(ctx, folder + "/" + pattern)
    return str(ok)
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    assert "`delete`, `purge`" in f["fix"]["description"]
    after = _fix(tmp_path)
    assert "async def confirm(r: ElicitationResult[Confirm], what: str) -> bool:\n    return r.action" in after
    assert (
        'def purge_elicitation(folder: str, pattern: str) -> Elicit[Confirm]:\n    what = folder + "/" + pattern\n'
        in after
    )
    assert "if not await confirm(r, path):" in after and 'ok = await confirm(r, folder + "/" + pattern)' in after
    assert "ctx" not in after


def test_a_helper_that_still_uses_its_context_takes_the_answer_before_it(tmp_path: Path) -> None:
    body = """async def ask(ctx: Context, what: str) -> str:
    r = await ctx.elicit(what, Confirm)
    return f"{r.action} {ctx.request_id}"


@mcp.tool()
async def go(path: str, ctx: Context) -> str:
    return await ask(ctx=ctx, what=path)
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "safe"
    after = _fix(tmp_path)
    assert "async def ask(r: ElicitationResult[Confirm], ctx: Context, what: str) -> str:" in after
    assert "return await ask(r=r, ctx=ctx, what=path)" in after


def test_a_static_method_helper(tmp_path: Path) -> None:
    body = """class Ask:
    @staticmethod
    async def confirm(ctx: Context, what: str) -> bool:
        r = await ctx.elicit(f"Delete {what}?", Confirm)
        return r.action == "accept"


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    return "deleted" if await Ask.confirm(ctx, path) else "kept"
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    after = _fix(tmp_path)
    assert "async def confirm(r: ElicitationResult[Confirm], what: str) -> bool:" in after
    assert 'return "deleted" if await Ask.confirm(r, path) else "kept"' in after


def test_swapped_arguments_are_renamed_together(tmp_path: Path) -> None:
    body = """async def ask(ctx: Context, a: str, b: str) -> str:
    r = await ctx.elicit(f"{a} then {b}", Confirm)
    return r.action


@mcp.tool()
async def go(a: str, b: str, ctx: Context) -> str:
    return await ask(ctx, b, a)
"""
    _findings(tmp_path, body)
    after = _fix(tmp_path)
    assert (
        'def go_elicitation(a: str, b: str) -> Elicit[Confirm]:\n    return Elicit(f"{b} then {a}", Confirm)' in after
    )


def test_side_effects_and_early_returns_before_the_helper_call_are_unsafe(tmp_path: Path) -> None:
    body = (
        CONFIRM
        + """@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    LOG.append(path)
    if not path:
        return "no path"
    if not await confirm(ctx, path):
        return "kept"
    return "deleted"
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "unsafe"
    desc = f["fix"]["description"]
    assert "in `delete`: `LOG.append(path)` runs before the request today" in desc
    assert "`if not path:` can end the call before `confirm` is called today" in desc


def test_a_side_effect_in_the_helper_before_the_request_is_unsafe(tmp_path: Path) -> None:
    body = """async def confirm(ctx: Context, what: str) -> bool:
    LOG.append(what)
    r = await ctx.elicit(f"Delete {what}?", Confirm)
    return r.action == "accept"


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    return str(await confirm(ctx, path))
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "unsafe"
    assert "`LOG.append(what)` runs before the request today" in f["fix"]["description"]


def test_a_pure_local_of_the_tool_is_recomputed_in_the_resolver(tmp_path: Path) -> None:
    # requests-06's kind through a helper (qgis-mcp's delete_features passes `target` to its consent helper)
    body = (
        CONFIRM
        + """@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    target = path.strip("/")
    return str(await confirm(ctx, target))
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    assert _fix(tmp_path).endswith(
        """def delete_elicitation(path: str) -> Elicit[Confirm]:
    target = path.strip("/")
    what = target
    return Elicit(f"Delete {what}?", Confirm)


@mcp.tool()
async def delete(
    path: str, r: Annotated[ElicitationResult[Confirm], Resolve(delete_elicitation)]
) -> str:
    target = path.strip("/")
    return str(await confirm(r, target))
"""
    )
    called = body.replace('target = path.strip("/")', "target = describe(path)")
    [f] = _findings(tmp_path, "def describe(path: str) -> str:\n    return path\n\n\n" + called)
    assert f["fix"] is None
    assert (
        "`confirm(ctx, target)` in `delete` passes `target`, which a resolver cannot recompute (`target` is computed "
        "by `describe(path)`, which calls or awaits something" in f["manual"]
    )


def test_a_value_computed_by_a_call_is_manual(tmp_path: Path) -> None:
    body = (
        CONFIRM
        + """def describe(path: str) -> str:
    return path.upper()


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    return str(await confirm(ctx, describe(path)))
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None and "computes `what` as `describe(path)`, which does something" in f["manual"]


def test_a_pure_local_of_the_helper_is_recomputed_after_its_parameters(tmp_path: Path) -> None:
    body = """async def confirm(ctx: Context, what: str) -> bool:
    label = what.upper()
    r = await ctx.elicit(label, Confirm)
    return r.action == "accept"


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    return str(await confirm(ctx, path))
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "safe", f
    assert _fix(tmp_path).endswith(
        """async def confirm(r: ElicitationResult[Confirm], what: str) -> bool:
    return r.action == "accept"


def delete_elicitation(path: str) -> Elicit[Confirm]:
    what = path
    label = what.upper()
    return Elicit(label, Confirm)


@mcp.tool()
async def delete(
    path: str, r: Annotated[ElicitationResult[Confirm], Resolve(delete_elicitation)]
) -> str:
    return str(await confirm(r, path))
"""
    )
    [f] = _findings(tmp_path, body.replace("label = what.upper()", "label = await describe(what)"))
    assert f["fix"] is None
    assert f["manual"].startswith(
        "the request is made in the helper `confirm`, built from `label`, which a resolver cannot recompute "
        "(`label` is computed by `await describe(what)`, which calls or awaits something"
    )


def test_a_helper_called_on_some_paths_only_is_manual(tmp_path: Path) -> None:
    for call in (
        "    if path:\n        await confirm(ctx, path)\n",
        "    ok = bool(path) and await confirm(ctx, path)\n",
        "    for p in path.split():\n        await confirm(ctx, p)\n",
    ):
        body = (
            CONFIRM
            + f"""@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
{call}    return "done"
"""
        )
        [f] = _findings(tmp_path, body)
        assert f["fix"] is None and "in `delete` cannot ask before the tool runs" in f["manual"], (call, f)


def test_a_helper_called_from_a_non_tool_is_manual(tmp_path: Path) -> None:
    body = (
        CONFIRM
        + """@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    return str(await confirm(ctx, path))


@mcp.prompt()
async def review(path: str, ctx: Context) -> str:
    return str(await confirm(ctx, path))
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None and "in `review` is not in an mcp 2.x `MCPServer` tool" in f["manual"]


def test_a_helper_passed_around_is_manual(tmp_path: Path) -> None:
    body = (
        CONFIRM
        + """CHECKS = [confirm]


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    return str(await confirm(ctx, path))
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None and "used other than by direct calls" in f["manual"]


def test_a_helper_given_another_context_is_manual(tmp_path: Path) -> None:
    body = (
        CONFIRM
        + """@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    return str(await confirm(mcp.get_context(), path))
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None and "not the tool's own mcp 2.x `Context` parameter" in f["manual"]


def test_a_one_line_tool_body(tmp_path: Path) -> None:
    body = (
        CONFIRM
        + """@mcp.tool()
async def delete(path: str, ctx: Context) -> str: return str(await confirm(ctx, path))


@mcp.tool()
async def noisy(path: str, ctx: Context) -> str: print(path); return str(await confirm(ctx, path))
"""
    )
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "unsafe"
    assert f["fix"]["description"].endswith(
        "(review: in `noisy`: `print(path); return str(await confirm(ctx, path))` does something before calling "
        "`confirm` today; the question is now asked first)"
    )
    after = _fix(tmp_path)
    assert (
        "async def delete(\n"
        "    path: str, r: Annotated[ElicitationResult[Confirm], Resolve(delete_elicitation)]\n"
        ") -> str: return str(await confirm(r, path))"
    ) in after


# -- the tool itself (found by the new-user trial on the SDK's docs_src/elicitation/tutorial001.py) --


def test_an_early_return_before_the_request_makes_the_resolver_fix_unsafe(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def book(date: str, ctx: Context) -> str:
    if date != "2025-12-25":
        return f"Booked {date}."
    r = await ctx.elicit(f"Nothing on {date}: another date?", Confirm)
    return r.action
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"]["safety"] == "unsafe", f
    assert "can end `book` before the request today; the question is now asked on every call" in f["fix"]["description"]


def test_a_tool_that_calls_itself_stays_manual(tmp_path: Path) -> None:
    body = """@mcp.tool()
async def book(date: str, ctx: Context) -> str:
    r = await ctx.elicit(f"Nothing on {date}: another date?", Confirm)
    if r.action == "accept" and r.data.ok:
        return await book("2025-12-26", ctx)
    return "no"
"""
    [f] = _findings(tmp_path, body)
    assert f["fix"] is None
    assert f["manual"].startswith("`book` is also called directly (from `book`), not only by the SDK"), f

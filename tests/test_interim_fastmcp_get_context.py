"""``fix --strategy interim`` on fastmcp 4 handlers that ask the client through ``get_context()``
(``fastmcp.server.dependencies``) instead of a ``Context`` parameter: the handler takes the
``ctx: Context`` parameter fastmcp injects (tools, resources — static and templates — and prompts;
kept out of the inputSchema, the URI parameters and the prompt's arguments), every ``get_context()``
of its own code reads it, and the guard pattern follows as for ``ctx.elicit(...)``.

``data/get_context/shop.py`` (written for this test) is fixed to exactly ``shop.fixed.py``; both are
served in memory with the mcp 2.3 ``Client`` on fastmcp 4.2 in both eras: on a legacy connection
the fixed shop answers as the original, whose requests fail on 2026-07-28, where the fixed shop
answers as on a legacy connection (the client answers the ``InputRequiredResult`` and retries); a
client without the capability gets what it got before on legacy, -32021 on 2026-07-28. Then what
stays manual (a helper asking through ``get_context()``, a handler also used as a value), and a
handler that hands ``get_context()`` to a helper taking the context, which asks for it in its round."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from tests.test_interim_threading import MODERN, _check, _fix, _project
from tests.test_interim_trust import _leaf, _load

DATA = Path(__file__).resolve().parent / "data" / "get_context"
SHOP = (DATA / "shop.py").read_text(encoding="utf-8")
SPICY = {"action": "accept", "content": {"hot": True}}
YES = {"action": "accept", "content": {"value": True}}
MERLOT = {"action": "accept", "content": {"value": "merlot"}}
DECLINE = {"action": "decline"}


def _drive(path: Path, mode: str, what: tuple[str, ...], sampling: bool, reply: dict[str, Any] | None) -> Any:
    """One read / call / prompt (``what``: ``("read", uri)``, ``("call", tool, arg)``, ``("prompt",
    name, dish)``) through the mcp 2.3 ``Client`` on the module's ``shop`` (``sampling``: the client
    samples, echoing the prompt; ``reply``: what its elicitation callback answers, None: no callback).
    The texts, ``("error", texts)`` for a tool error, or ``("raised", code, message)``."""
    import mcp
    from mcp import types

    async def sample(context: Any, params: Any) -> Any:
        text = f"sampled: {params.messages[0].content.text}"
        return types.CreateMessageResult(role="assistant", model="m", content=types.TextContent(type="text", text=text))

    async def elicit(context: Any, params: Any) -> Any:
        return types.ElicitResult(**(reply or {}))

    callbacks: dict[str, Any] = {"sampling_callback": sample} if sampling else {}
    if reply is not None:
        callbacks["elicitation_callback"] = elicit
    server = _load(path).shop._mcp_server

    async def run() -> Any:
        try:
            async with mcp.Client(server, mode=mode, **callbacks) as client:
                if what[0] == "read":
                    return [c.text for c in (await client.read_resource(what[1])).contents]
                if what[0] == "call":
                    result = await client.call_tool(what[1], {"dish": what[2]})
                    return (
                        ("error", [c.text for c in result.content])
                        if result.is_error
                        else [c.text for c in result.content]
                    )
                prompt = await client.get_prompt(what[1], {"dish": what[2]})
                return [m.content.text for m in prompt.messages]
        except BaseException as exc:  # the client raises out of its task group
            leaf = _leaf(exc)
            return ("raised", getattr(getattr(leaf, "error", None), "code", None), str(leaf))

    return anyio.run(run)


def _listing(path: Path, mode: str) -> Any:
    """What a client lists: the tools' input and output schemas, the resources and templates (with their
    MIME types), the prompts' arguments."""
    import mcp

    server = _load(path).shop._mcp_server

    async def run() -> Any:
        async with mcp.Client(server, mode=mode) as client:
            tools = {t.name: (t.input_schema, t.output_schema) for t in (await client.list_tools()).tools}
            resources = sorted((str(r.uri), r.mime_type) for r in (await client.list_resources()).resources)
            listed = (await client.list_resource_templates()).resource_templates
            templates = sorted((t.uri_template, t.mime_type) for t in listed)
            prompts = {p.name: [a.name for a in p.arguments or []] for p in (await client.list_prompts()).prompts}
            return tools, resources, templates, prompts

    return anyio.run(run)


#: Each question and what the client answers, with the answer the fixed shop gives on both eras.
CASES: list[tuple[tuple[str, ...], bool, dict[str, Any] | None, list[str]]] = [
    (("read", "menu://dish/soup"), True, None, ["sampled: Describe soup"]),
    (("read", "menu://today"), False, SPICY, ["today: vindaloo"]),
    (("read", "menu://today"), False, DECLINE, ["today: decline"]),
    (("call", "order", "soup"), False, YES, ["1 x soup: accept"]),
    (("prompt", "pairing", "soup"), False, MERLOT, ["soup with merlot (True)"]),
    (("prompt", "pairing", "soup"), False, DECLINE, ["soup with water (True)"]),
]


_NO_ELICIT = "elicitation via server-initiated requests is unavailable on 2026-07-28 connections."
#: What the original shop answers on 2026-07-28 (fastmcp 4.2.3, mcp 2.3): its requests have no back channel.
NO_BACK_CHANNEL: dict[str, Any] = {
    "sample": (
        "raised",
        -32600,
        "Cannot send 'sampling/createMessage': this transport context has no back-channel for server-initiated "
        "requests.",
    ),
    "read": ("raised", -32603, _NO_ELICIT),
    "prompt": ("raised", -32603, _NO_ELICIT),
    "call": ("error", [_NO_ELICIT]),
}


def test_get_context_requests_go_through_the_injected_context(tmp_path: Path) -> None:
    target = _project(tmp_path, SHOP, ["fastmcp>=4.2"])
    before = tmp_path / "before.py"
    before.write_text(SHOP, encoding="utf-8")
    findings = _check(target.parent)
    assert [(f["rule"], f["line"], f["fix"]["safety"]) for f in findings] == [
        ("MCP201", 17, "safe"),
        ("MCP202", 29, "safe"),
        ("MCP202", 37, "safe"),
        ("MCP202", 43, "safe"),
    ]
    assert [f["fix"]["description"].rsplit(" (`", 1)[1] for f in findings] == [
        "describe` takes a `ctx: Context` parameter (fastmcp injects it and keeps it out of the URI parameters) and "
        "reads it in place of `get_context()`)",
        "today` takes a `ctx: Context` parameter (fastmcp injects it and keeps it out of the URI parameters) and "
        "reads it in place of `get_context()`)",
        "order` takes a `ctx: Context` parameter (fastmcp injects it and keeps it out of the inputSchema) and reads "
        "it in place of `get_context()`)",
        "pairing` reads its `Context` parameter `ctx` in place of `get_context()`)",
    ]
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (DATA / "shop.fixed.py").read_text(encoding="utf-8")
    assert _check(target.parent) == []

    # What clients see of the handlers does not change: no `ctx` in a schema, a URI or the arguments.
    for mode in ("legacy", MODERN):
        assert _listing(target, mode) == _listing(before, mode)
    tools, resources, templates, prompts = _listing(target, MODERN)
    assert (list(tools["order"][0]["properties"]), tools["order"][1]["properties"], resources, templates, prompts) == (
        ["dish", "count"],
        {"result": {"type": "string"}},
        [("menu://today", "text/plain")],
        [("menu://dish/{dish}", "text/plain")],
        {"pairing": ["dish"]},
    )

    for what, sampling, reply, answer in CASES:
        # legacy: the same request, the same answer as before
        assert _drive(before, "legacy", what, sampling, reply) == answer, what
        assert _drive(target, "legacy", what, sampling, reply) == answer, what
        # 2026-07-28: the original cannot ask; the fixed handler asks in an interim round
        assert _drive(before, MODERN, what, sampling, reply) == NO_BACK_CHANNEL[what[0] if reply else "sample"], what
        assert _drive(target, MODERN, what, sampling, reply) == answer, what

    # A client that cannot answer: on legacy what it got before, on 2026-07-28 the -32021 of the round.
    no_sampling = _drive(target, "legacy", ("read", "menu://dish/soup"), False, None)
    assert no_sampling == _drive(before, "legacy", ("read", "menu://dish/soup"), False, None)
    assert no_sampling == ("raised", -32600, "Sampling not supported")
    assert _drive(target, MODERN, ("read", "menu://dish/soup"), False, None) == (
        "raised",
        -32021,
        "Client did not declare the sampling capability required by input request 'reply'",
    )
    no_form = _drive(target, "legacy", ("read", "menu://today"), False, None)
    assert no_form == _drive(before, "legacy", ("read", "menu://today"), False, None)
    assert _drive(target, MODERN, ("call", "order", "soup"), False, None) == (
        "raised",
        -32021,
        "Client did not declare the form elicitation capability required by input request 'answer'",
    )


MANUAL = """\
from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context

shop = FastMCP("shop")


async def confirm(dish: str) -> bool:
    answer = await get_context().elicit(f"Confirm {dish}?", bool)
    return answer.action == "accept"


@shop.tool
async def order(dish: str) -> str:
    return "ordered" if await confirm(dish) else "kept"


@shop.tool
async def refund(dish: str) -> str:
    answer = await get_context().elicit(f"Refund {dish}?", bool)
    return answer.action


BY_NAME = {"refund": refund}
"""


def test_what_stays_manual_says_why(tmp_path: Path) -> None:
    target = _project(tmp_path, MANUAL, ["fastmcp>=4.2"])
    findings = _check(target.parent)
    assert [(f["line"], f["fix"], f["manual"]) for f in findings] == [
        (
            8,
            None,
            "the request is made in the helper `confirm`, through `get_context()`, not a context or session parameter "
            "of the helper: pass the context in as a parameter, then run the fix again",
        ),
        (
            19,
            None,
            '`refund` is also used as a value (`BY_NAME = {"refund": refund}`), not only registered with fastmcp: '
            "whoever calls it that way would not pass a new `Context` parameter; take the context as a parameter by "
            "hand",
        ),
    ]
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == MANUAL
    # Without the table the tool takes the parameter; the helper still asks through `get_context()`.
    target.write_text(MANUAL.replace('\n\nBY_NAME = {"refund": refund}\n', ""), encoding="utf-8")
    _fix(target.parent)
    fixed = target.read_text(encoding="utf-8")
    assert "async def refund(dish: str, ctx: Context) -> str | InputRequiredResult:\n" in fixed
    assert '        answer = await ctx.elicit(f"Refund {dish}?", bool)\n' in fixed
    assert '    answer = await get_context().elicit(f"Confirm {dish}?", bool)\n' in fixed


HANDED = """\
from fastmcp import Context, FastMCP
from fastmcp.server.dependencies import get_context

shop = FastMCP("shop")


async def confirm(ctx: Context, dish: str) -> bool:
    answer = await ctx.elicit(f"Confirm {dish}?", bool)
    return answer.action == "accept"


@shop.tool
async def order(dish: str) -> str:
    return f"{dish}: ordered" if await confirm(get_context(), dish) else f"{dish}: kept"
"""


def test_get_context_handed_to_a_helper_that_takes_the_context(tmp_path: Path) -> None:
    """The handler asks for its helper's request (answer threading) through its injected parameter."""
    target = _project(tmp_path, HANDED, ["fastmcp>=4.2"])
    before = tmp_path / "before.py"
    before.write_text(HANDED, encoding="utf-8")
    [finding] = _check(target.parent)
    assert finding["fix"]["safety"] == "safe"
    assert finding["fix"]["description"].endswith(
        " (`order` takes a `ctx: Context` parameter (fastmcp injects it and keeps it out of the inputSchema) and "
        "reads it in place of `get_context()`)"
    )
    _fix(target.parent)
    fixed = target.read_text(encoding="utf-8")
    assert "async def order(dish: str, ctx: Context) -> str | InputRequiredResult:\n" in fixed
    assert '        answer = await ctx.elicit(f"Confirm {dish}?", bool)\n' in fixed
    assert '    return f"{dish}: ordered" if await confirm(answer, dish) else f"{dish}: kept"\n' in fixed
    assert "get_context" not in fixed
    for reply, answer in ((YES, ["soup: ordered"]), (DECLINE, ["soup: kept"])):
        assert _drive(before, "legacy", ("call", "order", "soup"), False, reply) == answer
        assert _drive(target, "legacy", ("call", "order", "soup"), False, reply) == answer
        assert _drive(before, MODERN, ("call", "order", "soup"), False, reply) == NO_BACK_CHANNEL["call"]
        assert _drive(target, MODERN, ("call", "order", "soup"), False, reply) == answer


WRAPPED = """\
from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context

shop = FastMCP("shop")


def audited(fn):
    async def inner(dish: str) -> str:
        return await fn(dish)

    return inner


@shop.tool
@audited
async def refund(dish: str) -> str:
    answer = await get_context().elicit(f"Refund {dish}?", bool)
    return answer.action
"""


def test_a_handler_wrapped_by_a_decorator_of_its_own_stays_manual(tmp_path: Path) -> None:
    """fastmcp registers (and calls) the wrapper ``inner(dish)``: given a new ``ctx`` parameter,
    ``refund`` would fail every call on both eras ("missing 1 required positional argument: 'ctx'",
    measured on fastmcp 4.2.3), where it answers today on legacy connections."""
    target = _project(tmp_path, WRAPPED, ["fastmcp>=4.2"])
    before = tmp_path / "before.py"
    before.write_text(WRAPPED, encoding="utf-8")
    [finding] = _check(target.parent)
    assert (finding["line"], finding["fix"], finding["manual"]) == (
        17,
        None,
        "`refund` is wrapped by `@audited` before fastmcp registers it: what it wraps the handler in is what "
        "fastmcp calls, and a new `Context` parameter reaches the handler only if that wrapper forwards the "
        "signature and passes it on; take the context as a parameter by hand",
    )
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == WRAPPED
    # what a legacy client gets today, and still gets (the tool is named after the wrapper)
    assert _drive(target, "legacy", ("call", "inner", "soup"), False, YES) == ["accept"]

    # Above the registration, the decorator wraps what fastmcp returns, not what it calls: fixed.
    above = WRAPPED.replace("@shop.tool\n@audited\n", "@audited\n@shop.tool\n")
    assert above != WRAPPED
    target.write_text(above, encoding="utf-8")
    before.write_text(above, encoding="utf-8")
    [finding] = _check(target.parent)
    assert finding["fix"]["safety"] == "safe"
    _fix(target.parent)
    assert "async def refund(dish: str, ctx: Context) -> str | InputRequiredResult:\n" in target.read_text("utf-8")
    for reply, answer in ((YES, ["accept"]), (DECLINE, ["decline"])):
        assert _drive(before, "legacy", ("call", "refund", "soup"), False, reply) == answer
        assert _drive(target, "legacy", ("call", "refund", "soup"), False, reply) == answer
        assert _drive(target, MODERN, ("call", "refund", "soup"), False, reply) == answer


NAMESAKE = """\
from fastmcp import FastMCP
from fastmcp.server.dependencies import get_context

shop = FastMCP("shop")


@shop.prompt
async def pairing(dish: str) -> str:
    wine = await get_context().elicit(f"Wine with {dish}?", str)
    return f"{dish} with {wine.data if wine.action == 'accept' else 'water'}"


@shop.resource("menu://{dish}/wine")
async def wine(dish: str) -> str:
    await get_context().elicit(f"Peek at {dish}?", bool)
    return f"{dish}: red"
"""


def test_a_local_named_like_a_handler_is_not_a_use_of_it(tmp_path: Path) -> None:
    """``wine`` in ``pairing`` is the prompt's own local, not the resource ``wine`` used as a value:
    the resource takes the parameter too (it was left manual, quoting ``pairing``'s line as a use)."""
    target = _project(tmp_path, NAMESAKE, ["fastmcp>=4.2"])
    before = tmp_path / "before.py"
    before.write_text(NAMESAKE, encoding="utf-8")
    findings = _check(target.parent)
    assert [(f["line"], f["manual"], (f["fix"] or {}).get("safety")) for f in findings] == [
        (9, None, "safe"),
        (15, None, "safe"),
    ]
    _fix(target.parent)
    fixed = target.read_text(encoding="utf-8")
    assert "async def wine(dish: str, ctx: Context) -> str | InputRequiredResult:\n" in fixed
    assert "get_context" not in fixed
    for mode in ("legacy", MODERN):
        assert _listing(target, mode) == _listing(before, mode)
        assert _drive(target, mode, ("read", "menu://soup/wine"), False, DECLINE) == ["soup: red"]
        assert _drive(target, mode, ("prompt", "pairing", "soup"), False, MERLOT) == ["soup with merlot"]
    assert _drive(before, "legacy", ("read", "menu://soup/wine"), False, DECLINE) == ["soup: red"]
    assert _drive(before, MODERN, ("read", "menu://soup/wine"), False, DECLINE) == NO_BACK_CHANNEL["read"]


OWN_GET_CONTEXT = """\
from fastmcp import Context, FastMCP

shop = FastMCP("shop")
AUDIT: list[str] = []


def get_context() -> dict[str, str]:
    AUDIT.append("asked")
    return {"who": "me"}


@shop.tool
async def order(dish: str, ctx: Context) -> str:
    info = get_context()
    answer = await ctx.elicit(f"Confirm {dish} for {info['who']}?", bool)
    return f"{answer.action} audit={len(AUDIT)}"
"""


def test_a_get_context_of_the_project_s_own_is_an_effect(tmp_path: Path) -> None:
    """Only fastmcp's ``get_context()`` is a pure read: a function of the project's own named alike
    (here it audits) runs once per round on 2026-07-28, so the fix says so and is unsafe (it was
    safe, without the note, while any call named ``get_context`` counted as pure)."""
    target = _project(tmp_path, OWN_GET_CONTEXT, ["fastmcp>=4.2"])
    [finding] = _check(target.parent)
    assert (finding["fix"]["safety"], finding["fix"]["description"].rsplit(" (review: ", 1)[1]) == (
        "unsafe",
        "`info = get_context()` runs before the request today — on 2026-07-28 the code before the request runs once "
        "per round)",
    )
    _fix(target.parent)
    # what the note says: twice on 2026-07-28, once on legacy as before
    assert _drive(target, "legacy", ("call", "order", "soup"), False, YES) == ["accept audit=1"]
    assert _drive(target, MODERN, ("call", "order", "soup"), False, YES) == ["accept audit=2"]

"""``fix --strategy interim`` on a request whose answer the code throws away: ``await
ctx.session.create_message(...)`` / ``await ctx.elicit(...)`` as a statement of its own.

Such a request used to stay manual ("the request's answer is not assigned to a variable"). Its
answer now takes a fresh name (``_sampled``, ``_elicited``; ``_sampled_2`` when the module spells
the name already, or a second such request of the handler took it) and gets the round every form
writes for an assigned answer: the MCPServer round in place inside a kept ``try`` (``guard``), the
low-level ``Server`` round, fastmcp 4's guard pattern (in a kept ``try`` too); an MCPServer
resolver drops the statement (its answer arrives as the resolver parameter, which nothing reads).
On a legacy connection the statement runs as it was: the client is asked, the answer dropped. On
2026-07-28 the tool returns an ``InputRequiredResult`` and the retry that carries an answer of the
request's type goes on (a declined elicitation too, as the original ignored it); a retry without
one is asked again. Requests that are not ``await <request>`` on their own (returned, handed to a
task, made in a lambda) stay manual with their reason.

Shape of the fastmcp 4 ``echo`` from evalstate/fast-agent@610a2f57
tests/integration/sampling/sampling_test_server.py (``sample``); the servers here are written for
this test and run on the real SDK (mcp 2.3 ``Client``, fastmcp 4.2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from tests.test_interim_threading import _check, _fix, _project, _server
from tests.test_interim_trust import _leaf

DATA = Path(__file__).resolve().parent / "data" / "unassigned"
MODERN = "2026-07-28"
ACCEPT = {"action": "accept", "content": {"ok": True}}
YES = {"action": "accept", "content": {"value": True}}  # fastmcp 4's `response_type=bool`
DECLINE = {"action": "decline"}
MCP2 = ["mcp>=2.3,<3"]
FASTMCP4 = ["fastmcp>=4"]


def _call(
    server: Any,
    mode: str,
    tool: str,
    arguments: dict[str, Any],
    *,
    sample: str | None = None,
    elicit: dict[str, Any] | None = None,
) -> Any:
    """One call through the mcp 2.3 ``Client`` (on 2026-07-28 it answers the input requests and
    retries): the texts, ``("error", texts)`` for a tool error, or ``("raised", message)``; and what
    the client was asked. ``sample``: the model's reply (``"refuse"``: the callback refuses);
    ``elicit``: the elicitation reply; None: no such callback (the capability is not declared)."""
    import mcp
    from mcp import types

    asked: list[str] = []

    async def sampling(context: Any, params: Any) -> Any:
        asked.append(params.messages[0].content.text)
        if sample == "refuse":
            return types.ErrorData(code=-1, message="the user refused")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(text=str(sample)), model="m")

    async def elicitation(context: Any, params: Any) -> Any:
        asked.append(params.message)
        assert elicit is not None
        return types.ElicitResult(**elicit)

    async def run() -> Any:
        callbacks: dict[str, Any] = {}
        if sample is not None:
            callbacks["sampling_callback"] = sampling
        if elicit is not None:
            callbacks["elicitation_callback"] = elicitation
        try:
            async with mcp.Client(server, mode=mode, **callbacks) as client:
                result = await client.call_tool(tool, arguments)
        except BaseException as exc:  # the client raises out of its task group
            return ("raised", str(_leaf(exc))), asked
        texts = [c.text for c in result.content]
        return (("error", texts) if result.is_error else texts), asked

    return anyio.run(run)


def _by_hand(server: Any, tool: str, arguments: dict[str, Any], reply: dict[str, Any] | None = None) -> Any:
    """On 2026-07-28, by hand: the first call's input requests (key -> method), what a retry that
    answers each key with the wrong type gets (asked again), and what the retry with the answers
    gets (a model reply for sampling, ``reply`` for an elicitation)."""
    import mcp
    from mcp import types

    async def never(context: Any, params: Any) -> Any:  # declares the capabilities; the round is driven here
        raise AssertionError("the round is driven by hand")

    def answer(request: Any) -> Any:
        if isinstance(request, types.CreateMessageRequest):
            return types.CreateMessageResult(role="assistant", content=types.TextContent(text="hi"), model="m")
        return types.ElicitResult(**(reply or ACCEPT))

    def wrong(request: Any) -> Any:
        if isinstance(request, types.CreateMessageRequest):
            return types.ElicitResult(action="accept", content={})
        return types.CreateMessageResult(role="assistant", content=types.TextContent(text="hi"), model="m")

    async def run() -> Any:
        async with mcp.Client(server, mode=MODERN, sampling_callback=never, elicitation_callback=never) as client:
            session = client.session
            first = await session.call_tool(tool, arguments, allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult), first
            asked = {k: v.method for k, v in first.input_requests.items()}
            retry = await session.call_tool(
                tool,
                arguments,
                input_responses={k: wrong(v) for k, v in first.input_requests.items()},
                allow_input_required=True,
            )
            again = sorted(retry.input_requests) if isinstance(retry, types.InputRequiredResult) else retry
            done = await session.call_tool(
                tool,
                arguments,
                input_responses={k: answer(v) for k, v in first.input_requests.items()},
                allow_input_required=True,
            )
            assert not isinstance(done, types.InputRequiredResult), done
            return asked, again, [c.text for c in done.content]

    return anyio.run(run)


def _fixed(tmp_path: Path, name: str, deps: list[str]) -> tuple[Path, Path, list[dict[str, Any]]]:
    """The server ``name`` before and after ``fix --strategy interim --unsafe-fixes`` (run twice: the
    second changes nothing), and the findings ``check`` gave before the fix."""
    source = (DATA / f"{name}.py").read_text(encoding="utf-8")
    target = _project(tmp_path, source, deps)
    before = tmp_path / "before.py"
    before.write_text(source, encoding="utf-8")
    findings = _check(target.parent)
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (DATA / f"{name}.fixed.py").read_text(encoding="utf-8")
    assert _check(target.parent) == []
    return before, target, findings


# -- mcp 2.x MCPServer: a resolver, and the round in place inside a kept `try` ---------------------------


def test_mcpserver_thrown_away_answers_are_fixed(tmp_path: Path) -> None:
    before, target, findings = _fixed(tmp_path, "mcpserver", MCP2)
    assert [(f["line"], f["fix"]["safety"]) for f in findings] == [(16, "safe"), (26, "safe")]
    assert findings[1]["fix"]["description"].startswith(
        "on 2026-07-28 `notify` returns `InputRequiredResult` with a `ElicitRequest` under key '_elicited' and reads "
        "the answer from `ctx.input_responses` on the retry (a client that did not declare form elicitation gets "
        "error -32021 raised inside the `try` around the request, whose handlers see it"
    )
    old, new = _server(before, "mcp"), _server(target, "mcp")
    args = {"what": "door"}

    # Legacy: the same question, the answer dropped as before, whatever the client answers.
    for reply in (ACCEPT, DECLINE, {"action": "cancel"}):
        got = _call(new, "legacy", "notify", args, elicit=reply)
        assert got == _call(old, "legacy", "notify", args, elicit=reply) == (["noted DOOR"], ["Seen DOOR?"])
    assert _call(new, "legacy", "warm", {"topic": "t"}, sample="hi") == (["warmed t"], ["t"])
    assert _call(old, "legacy", "warm", {"topic": "t"}, sample="hi") == (["warmed t"], ["t"])
    # A client without the capability: the `try`'s handler answers as before (the client's refusal).
    no_elicit = _call(old, "legacy", "notify", args)
    assert no_elicit == (["Error: Elicitation not supported"], [])
    assert _call(new, "legacy", "notify", args) == no_elicit

    # 2026-07-28: the original cannot ask; the fixed tool asks in a round and goes on with any answer.
    assert _call(old, MODERN, "notify", args, elicit=ACCEPT)[0][0].startswith("Error: Cannot send 'elicitation/create'")
    for reply in (ACCEPT, DECLINE, {"action": "cancel"}):
        assert _call(new, MODERN, "notify", args, elicit=reply) == (["noted DOOR"], ["Seen DOOR?"])
    assert _by_hand(new, "notify", args, DECLINE) == (
        {"_elicited": "elicitation/create"},
        ["_elicited"],
        ["noted DOOR"],
    )
    assert _call(new, MODERN, "notify", args) == (
        [
            "Error: Client did not declare the form elicitation capability required by input request '_elicited'",
        ],
        [],
    )
    assert _call(new, MODERN, "warm", {"topic": "t"}, sample="hi") == (["warmed t"], ["t"])


# -- mcp 2.x low-level Server: the round, under a name the handler does not use --------------------------


def test_lowlevel_thrown_away_answer_takes_a_name_the_handler_does_not_use(tmp_path: Path) -> None:
    before, target, findings = _fixed(tmp_path, "lowlevel", MCP2)
    [finding] = findings
    assert (finding["line"], finding["fix"]["safety"]) == (10, "safe")
    assert "under key '_sampled_2'" in finding["fix"]["description"]  # `_sampled` is the handler's own local
    old, new = _server(before, "server"), _server(target, "server")
    args = {"topic": "tea"}
    assert _call(new, "legacy", "warm", args, sample="hi") == _call(old, "legacy", "warm", args, sample="hi")
    assert _call(new, "legacy", "warm", args, sample="hi") == (["warmed tea"], ["tea"])
    refused = _call(old, "legacy", "warm", args, sample="refuse")
    assert refused == (("raised", "the user refused"), ["tea"])
    assert _call(new, "legacy", "warm", args, sample="refuse") == refused

    no_sampling = _call(old, "legacy", "warm", args)
    assert no_sampling == (("raised", "Sampling not supported"), [])
    assert _call(new, "legacy", "warm", args) == no_sampling

    assert _call(old, MODERN, "warm", args, sample="hi") == (
        (
            "raised",
            "Cannot send 'sampling/createMessage': this transport context has no back-channel for server-initiated "
            "requests.",
        ),
        [],
    )
    assert _call(new, MODERN, "warm", args, sample="hi") == (["warmed tea"], ["tea"])
    assert _by_hand(new, "warm", args) == ({"_sampled_2": "sampling/createMessage"}, ["_sampled_2"], ["warmed tea"])
    assert _call(new, MODERN, "warm", args) == (
        ("raised", "Client did not declare the sampling capability required by input request '_sampled_2'"),
        [],
    )


# -- fastmcp 4: the round inside the kept `try` (fast-agent's shape), two requests in one round ----------


def test_fastmcp4_thrown_away_answers_are_fixed(tmp_path: Path) -> None:
    before, target, findings = _fixed(tmp_path, "fastmcp4", FASTMCP4)
    assert [(f["line"], f["fix"]["safety"]) for f in findings] == [(16, "unsafe"), (28, "safe"), (29, "safe")]
    assert findings[0]["fix"]["description"].endswith(
        '(review: `log.info("echo %r", text)` runs before the request today — on 2026-07-28 the code before the '
        "request runs once per round)"
    )
    assert "under '_elicited', `ElicitRequest` under '_elicited_2'" in findings[1]["fix"]["description"]
    old, new = _server(before, "mcp"), _server(target, "mcp")
    args = {"text": "ping"}

    # Legacy: identical with a model, with a refusing client, and without the capability.
    for sample in ("hi", "refuse", None):
        assert _call(new, "legacy", "echo", args, sample=sample) == _call(old, "legacy", "echo", args, sample=sample)
    assert _call(new, "legacy", "echo", args, sample="hi") == (["ping"], ["ping"])
    assert _call(new, "legacy", "echo", args, sample="refuse") == (["Error: the user refused"], ["ping"])
    assert _call(new, "legacy", "echo", args) == (["Error: Sampling not supported"], [])
    for reply in (YES, DECLINE):
        got = _call(new, "legacy", "confirm_twice", {"what": "x"}, elicit=reply)
        assert got == _call(old, "legacy", "confirm_twice", {"what": "x"}, elicit=reply)
        assert got == (["x looked at"], ["First look at x?", "Second look at x?"])

    # 2026-07-28: the original's `except` answers the missing back-channel; the fixed tool answers as legacy.
    assert _call(old, MODERN, "echo", args, sample="hi") == (
        [
            "Error: Cannot send 'sampling/createMessage': this transport context has no back-channel for "
            "server-initiated requests."
        ],
        [],
    )
    assert _call(new, MODERN, "echo", args, sample="hi") == (["ping"], ["ping"])
    assert _by_hand(new, "echo", args) == ({"_sampled": "sampling/createMessage"}, ["_sampled"], ["ping"])
    # Without the capability: the round's -32021 is raised inside the `try`, whose handler answers with it.
    assert _call(new, MODERN, "echo", args) == (
        ["Error: Client did not declare the sampling capability required by input request '_sampled'"],
        [],
    )
    # A declined elicitation goes on, as the original ignored it; both questions travel in one round.
    for reply in (YES, DECLINE):
        got = _call(new, MODERN, "confirm_twice", {"what": "x"}, elicit=reply)
        assert got == (["x looked at"], ["First look at x?", "Second look at x?"])
    assert _by_hand(new, "confirm_twice", {"what": "x"}, DECLINE) == (
        {"_elicited": "elicitation/create", "_elicited_2": "elicitation/create"},
        ["_elicited", "_elicited_2"],
        ["x looked at"],
    )


# -- names, and what stays manual ------------------------------------------------------------------------

COLLIDING = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("x")
_elicited = "module state"


@mcp.tool
async def nudge(what: str, ctx: Context) -> str:
    _elicited_2 = what
    await ctx.elicit(f"Nudge {what}?", response_type=bool)
    return _elicited + _elicited_2
"""


def test_a_taken_name_gets_the_next_suffix(tmp_path: Path) -> None:
    target = _project(tmp_path, COLLIDING, FASTMCP4)
    [finding] = _check(target.parent)
    assert "under key '_elicited_3'" in finding["fix"]["description"]
    _fix(target.parent)
    text = target.read_text(encoding="utf-8")
    assert '        _elicited_3 = (ctx.input_responses or {}).get("_elicited_3")\n' in text
    assert (
        '    else:\n        await ctx.elicit(f"Nudge {what}?", response_type=bool)\n    return _elicited + _elicited_2\n'
        in text
    )
    assert text.count("_elicited_2 = what") == 1 and 'mcp = FastMCP("x")\n_elicited = "module state"\n' in text


MANUAL = """\
import asyncio

from fastmcp import Context, FastMCP
from mcp_types import SamplingMessage, TextContent

mcp = FastMCP("x")


def _ask(text: str) -> list[SamplingMessage]:
    return [SamplingMessage(role="user", content=TextContent(type="text", text=text))]


@mcp.tool
async def returned(what: str, ctx: Context) -> str:
    return str(await ctx.session.create_message(messages=_ask(what), max_tokens=5))


@mcp.tool
async def background(what: str, ctx: Context) -> str:
    asyncio.create_task(ctx.session.create_message(messages=_ask(what), max_tokens=5))
    return "started"


@mcp.tool
async def deferred(what: str, ctx: Context) -> str:
    ask = lambda: ctx.elicit(f"Sure about {what}?", response_type=bool)  # noqa: E731
    await ask()
    return "asked"
"""


def test_requests_that_are_not_a_statement_of_their_own_stay_manual(tmp_path: Path) -> None:
    target = _project(tmp_path, MANUAL, FASTMCP4)
    got = [(f["line"], f["fix"], f["manual"]) for f in _check(target.parent)]
    assert got == [
        (
            15,
            None,
            "the request's answer is not assigned to a variable (`x = await …`): assign it first, then run the fix again",
        ),
        (20, None, "the request is not awaited directly in an async handler: rewrite by hand"),
        (26, None, "the request is not awaited directly in an async handler: rewrite by hand"),
    ]
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == MANUAL

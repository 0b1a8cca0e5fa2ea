"""A tool that re-asks until the answer passes (issue 22, multi-round): ``while True: reply = await
ctx.elicit(...)``, an invalid answer told and asked again, decline/cancel raising. On a 2026-07-28
connection each ask is one ``InputRequiredResult`` round under its own key (``reply_1``,
``reply_2`` …); the round's number travels in ``requestState`` (sealed by fastmcp 4), so a retry
that brings an older answer is asked again instead of being read as the new one. A legacy
connection keeps the loop as it was.

Shape of Stonefish-Labs/public-marketplace@0ab9e3d2 ``plugins/cloud-google-maps/mcp-servers/
google-maps-server/credentials.py`` (``get_api_key_from_user``), moved into the tool; the fixture
is our own. The original runs on fastmcp 3.4 (legacy), the fixed server on fastmcp 4.2 (legacy and
2026-07-28), answering accept-valid, accept-invalid-then-valid, decline, cancel, and with no
elicitation at all.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio

from tests.proof import run_proof
from tests.test_interim_empty_form import _port, _project
from tests.test_interim_threading import _load_in, _texts

FIXED = Path(__file__).resolve().parent / "data" / "rounds"
MODERN = "2026-07-28"

VAULT = """\
from fastmcp import Context, FastMCP

vault = FastMCP("vault")
STORED: dict[str, str] = {}


@vault.tool()
async def connect(service: str, ctx: Context) -> str:
    if service in STORED:
        return f"{service}: stored key"
    while True:
        reply = await ctx.elicit(f"API key for {service}:", response_type=str)
        if reply.action == "accept":
            key = reply.data.strip()
            if key:
                STORED[service] = key
                return f"{service}: key ending {key[-2:]} stored"
        elif reply.action == "decline":
            raise ValueError("API key required")
        else:
            raise ValueError("cancelled")
        await ctx.info("Invalid API key. Enter a valid one.")
"""

CALLS = [{"tool": "connect", "arguments": {"service": "maps"}}, {"tool": "connect", "arguments": {"service": "maps"}}]
ASK = (
    "API key for maps:",
    {"type": "object", "properties": {"value": {"title": "Value", "type": "string"}}, "required": ["value"]},
)


def _key(value: str) -> dict[str, Any]:
    return {"action": "accept", "content": {"value": value}}


VALID = [_key("sk-12")]
INVALID_THEN_VALID = [_key("  "), _key(""), _key("sk-34")]


def _session(server: Any, mode: str, answers: list[dict[str, Any]] | None) -> tuple[list[Any], list[Any]]:
    """``CALLS`` in one mcp 2.3 ``Client`` session whose elicitation callback gives ``answers`` in
    turn (none: no callback): each call's texts, and what the client was asked."""
    import mcp
    from mcp import types

    asked: list[Any] = []
    queue = list(answers or [])

    async def elicit(context: Any, params: Any) -> Any:
        asked.append((params.message, params.requested_schema))
        return types.ElicitResult(**(queue.pop(0) if len(queue) > 1 else queue[0]))

    async def run() -> list[Any]:
        callbacks = {"elicitation_callback": elicit} if answers is not None else {}
        out: list[Any] = []
        async with mcp.Client(server, mode=mode, **callbacks) as client:  # type: ignore[arg-type]
            for c in CALLS:
                try:
                    out.append(_texts(await client.call_tool(c["tool"], c["arguments"])))
                except mcp.MCPError as exc:
                    out.append(("raised", f"{exc.error.code}: {exc.error.message}"))
        return out

    return anyio.run(run), asked


def _original(python: str, root: Path, answers: list[dict[str, Any]] | None) -> list[Any]:
    client = {"elicitation": {"answers": answers}} if answers else None
    out = run_proof(python, root / "server.py", "vault", "legacy", [], CALLS, client=client)
    return [c["error"] or (("error", c["text"]) if c["is_error"] else c["text"]) for c in out["calls"]]


def test_a_re_ask_loop_is_one_round_per_ask(tmp_path: Path, fastmcp3_python: str) -> None:
    before = _project(tmp_path / "before", VAULT, ["fastmcp>=3.2,<4"])
    root = _project(tmp_path, VAULT, ["fastmcp>=3.2,<4"])
    res = _port(root)
    assert res.exception is None and res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert [(f["rule"], f["line"]) for f in res.json["fixed"]] == [("MCP202", 12), ("MCP401", 22)]
    assert (root / "server.py").read_text(encoding="utf-8") == (FIXED / "vault_reask.fixed.py").read_text(
        encoding="utf-8"
    )
    stored = [["maps: key ending 12 stored"], ["maps: stored key"]]
    stored_34 = [["maps: key ending 34 stored"], ["maps: stored key"]]
    refused = ("error", ["Error calling tool 'connect': API key required"])
    cancelled = ("error", ["Error calling tool 'connect': cancelled"])
    unsupported = ("error", ["Error calling tool 'connect': Elicitation not supported"])
    cases: list[tuple[list[dict[str, Any]] | None, list[Any], int]] = [
        (VALID, stored, 1),
        (INVALID_THEN_VALID, stored_34, 3),  # asked three times, then the key is stored for the session
        ([{"action": "decline"}], [refused, refused], 2),
        ([{"action": "cancel"}], [cancelled, cancelled], 2),
    ]
    for answers, want, asks in cases:
        assert _original(fastmcp3_python, before, answers) == want
        for mode in ("legacy", MODERN):
            texts, asked = _session(_load_in(root, "vault"), mode, answers)
            assert (texts, asked) == (want, [ASK] * asks), (mode, answers)
    # a client without elicitation: the legacy failure as before; 2026-07-28 refuses the round (-32021)
    assert _original(fastmcp3_python, before, None) == [unsupported, unsupported]
    assert _session(_load_in(root, "vault"), "legacy", None)[0] == [unsupported, unsupported]
    no_form = "-32021: Client did not declare the form elicitation capability required by input request 'reply'"
    assert _session(_load_in(root, "vault"), MODERN, None)[0] == [("raised", no_form)] * 2


def test_each_round_has_its_own_key_and_an_old_answer_is_asked_again(tmp_path: Path) -> None:
    """The wire, round by round: ``reply_1``, then ``reply_2`` after an invalid answer, with a new
    ``requestState`` each time; a retry that brings the first round's answer again with the second
    round's state is asked ``reply_2`` again, not read as its answer."""
    root = _project(tmp_path, VAULT, ["fastmcp>=3.2,<4"])
    assert _port(root).json["errors"] == []
    server = _load_in(root, "vault")

    async def run() -> list[Any]:
        import mcp
        from mcp import types

        async def elicit(context: Any, params: Any) -> Any:  # declares the capability; never called here
            raise AssertionError("the rounds are answered by hand")

        seen: list[Any] = []
        async with mcp.Client(server, mode=MODERN, elicitation_callback=elicit) as client:

            async def call(responses: dict[str, Any] | None, state: str | None) -> Any:
                return await client.session.call_tool(
                    "connect",
                    {"service": "maps"},
                    input_responses=responses,
                    request_state=state,
                    allow_input_required=True,
                )

            first = await call(None, None)
            seen.append(sorted(first.input_requests))
            blank = {"reply_1": types.ElicitResult(action="accept", content={"value": " "})}
            second = await call(blank, first.request_state)
            seen.append(sorted(second.input_requests))
            seen.append(second.request_state != first.request_state)
            old = {"reply_1": types.ElicitResult(action="accept", content={"value": "sk-56"})}
            replayed = await call(old, second.request_state)
            seen.append(sorted(replayed.input_requests))
            good = {"reply_2": types.ElicitResult(action="accept", content={"value": "sk-78"})}
            done = await call(good, second.request_state)
            seen.append(_texts(done))
        return seen

    assert anyio.run(run) == [["reply_1"], ["reply_2"], True, ["reply_2"], ["maps: key ending 78 stored"]]


def _manual(tmp_path: Path, source: str) -> dict[int, str]:
    root = _project(tmp_path, source, ["fastmcp>=3.2,<4"])
    res = _port(root)
    assert res.exception is None
    return {f["line"]: f["manual"] for f in res.json["findings"] if f["rule"] == "MCP202"}


LOOPS = """\
from fastmcp import Context, FastMCP

pad = FastMCP("pad")


@pad.tool()
async def counted(ctx: Context) -> str:
    tries = 0
    while True:
        pin = await ctx.elicit("PIN?", response_type=str)
        tries += 1
        if pin.action == "accept" and pin.data.isdigit() or tries > 2:
            return "done"


@pad.tool()
async def collected(ctx: Context) -> list[str]:
    names: list[str] = []
    while True:
        name = await ctx.elicit("Name? (empty to stop)", response_type=str)
        if name.action != "accept" or not name.data:
            return names
        names.append(name.data)


@pad.tool()
async def two(ctx: Context) -> str:
    while True:
        first = await ctx.elicit("First?", response_type=str)
        second = await ctx.elicit("Second?", response_type=str)
        if first.data == second.data:
            return first.data


@pad.tool()
async def nested(ctx: Context) -> str:
    while True:
        while True:
            code = await ctx.elicit("Code?", response_type=str)
            if code.action != "accept":
                return "stopped"
            if code.data:
                break
        return code.data
"""


def test_a_loop_that_carries_values_across_asks_stays_manual(tmp_path: Path) -> None:
    restart = (
        "from one ask to the next; on 2026-07-28 each re-ask is a new round that runs the tool anew, so it would "
        "start over every round: rewrite by hand"
    )
    two = (
        "the request is re-asked by `while True:` and `two` makes other requests too: each re-ask is a round of its "
        "own, whose retry carries only its answer, so the other answers would be lost; rewrite by hand"
    )
    assert _manual(tmp_path, LOOPS) == {
        10: f"the re-ask loop carries `tries` {restart}",  # a counter: each retry would count from 0
        20: f"the re-ask loop carries `names` {restart}",  # a list collected over the asks
        29: two,
        30: two,
        39: "the request is re-asked by two nested `while True:` loops: rewrite by hand",
    }


PINS = """\
from fastmcp import Context


async def read_pin(ctx: Context) -> str:
    while True:
        typed = await ctx.elicit("Enter the 4-digit PIN:", response_type=str)
        if typed.action != "accept":
            raise ValueError("PIN required")
        if len(typed.data) == 4 and typed.data.isdigit():
            return typed.data
        await ctx.info("Not 4 digits; try again.")
"""

KEYPAD = """\
from fastmcp import Context, FastMCP

from pins import read_pin

pad = FastMCP("keypad")


@pad.tool()
async def unlock(door: str, ctx: Context) -> str:
    pin = await read_pin(ctx)
    return f"{door} unlocked with {pin[:1]}***"


@pad.tool()
async def arm(zone: int, ctx: Context) -> str:
    try:
        pin = await read_pin(ctx)
    except ValueError as refused:
        return f"zone {zone} not armed: {refused}"
    return f"zone {zone} armed ({len(pin)} digits)"
"""

PAD_CALLS = [{"tool": "unlock", "arguments": {"door": "front"}}, {"tool": "arm", "arguments": {"zone": 2}}]


def _pad_project(tmp_path: Path) -> Path:
    root = _project(tmp_path, KEYPAD, ["fastmcp>=3.2,<4"])
    (root / "pins.py").write_text(PINS, encoding="utf-8")
    return root


def _pad_session(root: Path, mode: str, answers: list[dict[str, Any]] | None) -> tuple[list[Any], int]:
    """``PAD_CALLS`` against the fixed keypad in one mcp 2.3 ``Client`` session: texts, and how
    many times the client was asked."""
    import mcp
    from mcp import types

    sys.modules.pop("pins", None)  # the fixed helper module of this root, not an earlier one
    server = _load_in(root, "pad")
    queue = list(answers or [])
    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        return types.ElicitResult(**(queue.pop(0) if len(queue) > 1 else queue[0]))

    async def run() -> list[Any]:
        callbacks = {"elicitation_callback": elicit} if answers is not None else {}
        out: list[Any] = []
        async with mcp.Client(server, mode=mode, **callbacks) as client:  # type: ignore[arg-type]
            for c in PAD_CALLS:
                try:
                    out.append(_texts(await client.call_tool(c["tool"], c["arguments"])))
                except mcp.MCPError as exc:
                    out.append(("raised", f"{exc.error.code}: {exc.error.message}"))
        return out

    texts = anyio.run(run)
    assert set(asked) <= {"Enter the 4-digit PIN:"}
    return texts, len(asked)


def test_a_helper_re_asking_returns_its_rounds_and_the_tools_relay_them(tmp_path: Path, fastmcp3_python: str) -> None:
    """The helper in another module asks round by round in place (it has the tool's ``ctx``); each
    tool that calls it returns its interim result (``pin = await read_pin(ctx)``, then ``if
    isinstance(pin, InputRequiredResult): return pin``), also inside the ``try`` of ``arm``."""
    before = _pad_project(tmp_path / "before")
    root = _pad_project(tmp_path)
    res = _port(root)
    assert res.exception is None and res.json["errors"] == [], str(res)
    assert [(f["path"], f["rule"], f["line"]) for f in res.json["fixed"] if f["rule"] == "MCP202"] == [
        ("pins.py", "MCP202", 6)
    ]
    [fix] = [f["fix"] for f in res.json["fixed"] if f["rule"] == "MCP202"]
    assert fix["safety"] == "unsafe"
    assert fix["description"].startswith(
        "on 2026-07-28 each ask of the `while True:` loop in `read_pin` is one `InputRequiredResult` round with a "
        "`ElicitRequest` under key 'read_pin.typed_<n>' (n: the round, carried in requestState, which fastmcp 4 "
        "seals) and reads the answer from `ctx.input_responses` on the retry"
    )
    for name in ("server.py", "pins.py"):
        assert (root / name).read_text(encoding="utf-8") == (FIXED / f"keypad_{name}.fixed").read_text(
            encoding="utf-8"
        ), name
    pin = lambda v: {"action": "accept", "content": {"value": v}}  # noqa: E731
    cases: list[tuple[list[dict[str, Any]], list[Any], int]] = [
        ([pin("1234")], [["front unlocked with 1***"], ["zone 2 armed (4 digits)"]], 2),
        (
            [pin("12"), pin("abcd"), pin("5678"), pin("x"), pin("9012")],
            [["front unlocked with 5***"], ["zone 2 armed (4 digits)"]],
            5,
        ),
        (
            [{"action": "decline"}],
            [("error", ["Error calling tool 'unlock': PIN required"]), ["zone 2 not armed: PIN required"]],
            2,
        ),
    ]
    for answers, want, asks in cases:
        out = run_proof(
            fastmcp3_python,
            before / "server.py",
            "pad",
            "legacy",
            [],
            PAD_CALLS,
            client={"elicitation": {"answers": answers}},
        )
        assert [c["error"] or (("error", c["text"]) if c["is_error"] else c["text"]) for c in out["calls"]] == want
        for mode in ("legacy", MODERN):
            assert _pad_session(root, mode, answers) == (want, asks), (mode, answers)
    unsupported = ("error", ["Error calling tool 'unlock': Elicitation not supported"])
    out = run_proof(fastmcp3_python, before / "server.py", "pad", "legacy", [], PAD_CALLS)
    assert [("error", c["text"]) if c["is_error"] else c["text"] for c in out["calls"]] == [
        unsupported,
        ("error", ["Error calling tool 'arm': Elicitation not supported"]),
    ]
    assert _pad_session(root, "legacy", None)[0] == [
        unsupported,
        ("error", ["Error calling tool 'arm': Elicitation not supported"]),
    ]
    no_form = (
        "-32021: Client did not declare the form elicitation capability required by input request 'read_pin.typed'"
    )
    assert _pad_session(root, MODERN, None)[0] == [("raised", no_form)] * 2


LOOP = """\
from fastmcp import Context, FastMCP

maps = FastMCP("maps")
KEYS: dict[str, str] = {}


async def key_from_user(ctx: Context) -> str:
    while True:
        reply = await ctx.elicit("Enter the API key:", response_type=str)
        if reply.action != "accept":
            raise ValueError("API key required")
        if reply.data.strip():
            return reply.data.strip()

"""

THROUGH_HELPER = """
async def key_or_ask(ctx: Context) -> str:
    return KEYS.get("maps") or await key_from_user(ctx)


@maps.tool()
async def geocode(address: str, ctx: Context) -> str:
    key = await key_or_ask(ctx)
    return f"{address} with {key}"
"""

AFTER_CONSENT = """
@maps.tool()
async def route(a: str, ctx: Context) -> str:
    ok = await ctx.elicit("Call the network?", response_type=bool)
    if ok.action != "accept":
        return "refused"
    key = await key_from_user(ctx)
    return f"{a} with {key}"
"""


def test_a_helper_loop_reached_through_another_helper_or_after_another_question_stays_manual(tmp_path: Path) -> None:
    """google-maps' shape (credentials.py ``get_api_key_from_user``: called by a helper, in tools that
    first ask for consent) within one module: only a tool can return the round, and a retry brings
    only the latest round's answer, so the earlier question's answer would be gone. (Across modules
    the project step relays through the helper and keeps the earlier answer in requestState:
    tests/test_interim_keep.py.)"""
    helper = "the request is made in the helper `key_from_user`, re-asked by `while True:`; "
    assert _manual(tmp_path / "a", LOOP + THROUGH_HELPER) == {
        9: helper + "`key_from_user(ctx)` in `key_or_ask` is not in an async fastmcp tool (only a tool can return "
        "the interim result)"
    }
    consent = (
        "`route` reaches another question on the path of `key_from_user(ctx)` in `route` "
        '(`ctx.elicit("Call the network?", response_type=bool)`): each re-ask is a round of its own and a retry '
        "brings only the latest round's answer, so that question's answer would be gone at the first re-ask; "
        "rewrite by hand"
    )
    assert _manual(tmp_path / "b", LOOP + AFTER_CONSENT) == {
        9: helper + consent,
        18: '`route` reaches 2 requests (`ctx.elicit("Call the network?", response_type=bool)`, `ctx.elicit("Enter '
        'the API key:", response_type=str)`), which must travel in one interim result, and `ctx.elicit("Enter the '
        'API key:", response_type=str)` cannot be asked: ' + helper + consent,
    }

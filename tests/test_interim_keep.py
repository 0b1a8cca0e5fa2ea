"""Answers kept across rounds (issue 22, "answer threading"): a tool asks for consent (a helper's
request threaded into it) and then, only when no key is stored, a helper of its module calls a
helper of another module that asks for an API key in a ``while True:`` loop (re-asked after an
empty answer). On 2026-07-28 the tool relays the key's rounds through both helpers, and the
consent answer travels in ``requestState`` with the key's round, since the client answers only the
latest round's ``inputRequests`` and fastmcp 4 keeps no state between two 2026-07-28 requests.

Shape of Stonefish-Labs/public-marketplace@0ab9e3d2 ``plugins/cloud-google-maps/mcp-servers/
google-maps-server`` (``tools_maps.py``: ``ensure_external_call_consent``, ``get_or_elicit_api_key``;
``credentials.py``: ``get_api_key_from_user``); the fixture is our own. The original runs on
fastmcp 3.4 (legacy), the fixed server on fastmcp 4.2 (legacy and 2026-07-28).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

from tests.test_interim_empty_form import _port, _project
from tests.test_interim_threading import _load_in, _texts

FIXED = Path(__file__).resolve().parent / "data" / "rounds"
MODERN = "2026-07-28"

KEYS = """\
from fastmcp import Context

STORED: dict[str, str] = {}


def stored_key() -> str | None:
    return STORED.get("maps")


async def key_from_user(ctx: Context) -> str:
    while True:
        reply = await ctx.elicit("Enter the API key:", response_type=str)
        if reply.action == "accept":
            key = (reply.data or "").strip()
            if key:
                STORED["maps"] = key
                return key
        elif reply.action == "decline":
            raise ValueError("API key required")
        else:
            raise ValueError("cancelled")
        await ctx.info("Invalid API key. Enter a valid one.")
"""

MAPS = """\
from fastmcp import Context, FastMCP

from keys import key_from_user, stored_key

maps = FastMCP("maps")


async def key_or_ask(ctx: Context) -> str:
    key = stored_key()
    if not key:
        await ctx.info("No stored key: asking")
        key = await key_from_user(ctx)
    return key


async def ensure_consent(ctx: Context) -> None:
    approved = await ctx.get_state("approved")
    if approved:
        return
    result = await ctx.elicit("Call the network?", response_type=None)
    if result.action == "accept":
        await ctx.set_state("approved", True)
        return
    raise ValueError("declined")


@maps.tool()
async def geocode(address: str, ctx: Context) -> str:
    try:
        await ensure_consent(ctx)
        key = await key_or_ask(ctx)
        return f"{address} with key ending {key[-2:]}"
    except ValueError as e:
        return f"error: {e}"


@maps.tool()
async def route(a: str, b: str, ctx: Context) -> str:
    await ensure_consent(ctx)
    key = await key_or_ask(ctx)
    return f"{a} to {b} with key ending {key[-2:]}"
"""

CALLS = [("geocode", {"address": "a"}), ("route", {"a": "a", "b": "b"})]
CONSENT, KEY = "Call the network?", "Enter the API key:"
INFO = ["No stored key: asking", "Invalid API key. Enter a valid one."]

# The original on fastmcp 3.4: the same calls through fastmcp 3's `Client` (a legacy connection),
# answering by question: consent with CONSENT_ANSWER, the key with KEY_ANSWERS in turn (the last
# repeats); what it was asked and the messages it was sent are recorded.
ORIGINAL = """\
import asyncio, importlib.util, json, sys
from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult

root, spec = sys.argv[1], json.loads(sys.argv[2])
sys.path.insert(0, root)
mod_spec = importlib.util.spec_from_file_location("server", root + "/server.py")
mod = importlib.util.module_from_spec(mod_spec)
mod_spec.loader.exec_module(mod)
asked, logs, keys = [], [], list(spec["keys"] or [])


async def elicit(message, response_type, params, context):
    asked.append(message)
    if message == "Call the network?":
        return ElicitResult(**spec["consent"])
    return ElicitResult(**(keys.pop(0) if len(keys) > 1 else keys[0]))


async def log(message):
    data = message.data
    logs.append(data.get("msg") if isinstance(data, dict) else data)


async def main():
    extra = {"elicitation_handler": elicit} if spec["consent"] else {}
    out = []
    async with Client(mod.maps, log_handler=log, **extra) as client:
        for tool, args in spec["calls"]:
            try:
                res = await client.call_tool(tool, args, raise_on_error=False)
                texts = [c.text for c in res.content]
                out.append(["error", texts] if res.is_error else texts)
            except Exception as exc:
                out.append(["raised", str(exc)])
    print(json.dumps({"texts": out, "asked": asked, "logs": logs}))


asyncio.run(main())
"""


def _key(value: str) -> dict[str, Any]:
    return {"action": "accept", "content": {"value": value}}


ACCEPT: dict[str, Any] = {"action": "accept", "content": {}}


def _original(python: str, root: Path, consent: dict[str, Any] | None, keys: list[dict[str, Any]]) -> Any:
    spec = {"calls": CALLS, "consent": consent, "keys": keys}
    proc = subprocess.run(
        [python, "-c", ORIGINAL, str(root), json.dumps(spec)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout)
    return [tuple(t) if t[0] in ("error", "raised") else t for t in out["texts"]], out["asked"], out["logs"]


def _fixed(root: Path, mode: str, consent: dict[str, Any] | None, keys: list[dict[str, Any]]) -> Any:
    """``CALLS`` against the fixed server on fastmcp 4.2 in one mcp 2.3 ``Client`` session (a fresh
    key store): texts, what the client was asked, the messages it was sent."""
    import mcp
    from mcp import types

    sys.modules.pop("keys", None)  # the fixed helper module of this root, with an empty store
    server = _load_in(root, "maps")
    asked: list[str] = []
    logs: list[Any] = []
    queue = list(keys)

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        if params.message == CONSENT:
            return types.ElicitResult(**(consent or {}))
        return types.ElicitResult(**(queue.pop(0) if len(queue) > 1 else queue[0]))

    async def log(params: Any) -> None:
        logs.append(params.data.get("msg") if isinstance(params.data, dict) else params.data)

    async def run() -> list[Any]:
        callbacks: dict[str, Any] = {"elicitation_callback": elicit} if consent is not None else {}
        out: list[Any] = []
        async with mcp.Client(server, mode=mode, logging_callback=log, **callbacks) as client:  # type: ignore[arg-type]
            for tool, args in CALLS:
                try:
                    out.append(_texts(await client.call_tool(tool, args)))
                except mcp.MCPError as exc:
                    out.append(("raised", f"{exc.error.code}: {exc.error.message}"))
        return out

    return anyio.run(run), asked, logs


def _maps_project(tmp_path: Path) -> Path:
    root = _project(tmp_path, MAPS, ["fastmcp>=3.2,<4"])
    (root / "keys.py").write_text(KEYS, encoding="utf-8")
    return root


def test_the_key_rounds_are_relayed_through_two_helpers_and_the_consent_answer_is_kept(
    tmp_path: Path, fastmcp3_python: str
) -> None:
    before = _maps_project(tmp_path / "before")
    root = _maps_project(tmp_path)
    res = _port(root)
    assert res.exception is None and res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert [(f["path"], f["rule"], f["line"]) for f in res.json["fixed"]] == [
        ("keys.py", "MCP202", 12),
        ("keys.py", "MCP401", 22),
        ("server.py", "MCP401", 11),
        ("server.py", "MCP202", 20),
    ]
    for name in ("server.py", "keys.py"):
        assert (root / name).read_text(encoding="utf-8") == (FIXED / f"keep_{name}.fixed").read_text(
            encoding="utf-8"
        ), name
    keyed = [["a with key ending 12"], ["a to b with key ending 12"]]
    empty_then_key = [_key(" "), _key("sk-12")]
    # consent once per session, the key asked, re-asked after the empty answer, then stored
    texts, asked, logs = _original(fastmcp3_python, before, ACCEPT, empty_then_key)
    assert (texts, asked, logs) == (keyed, [CONSENT, KEY, KEY], INFO)
    assert _fixed(root, "legacy", ACCEPT, empty_then_key) == (keyed, [CONSENT, KEY, KEY], [])  # MCP401: to the log
    # 2026-07-28: fastmcp 4 keeps no session state, so `route` asks consent again; the key stays stored
    assert _fixed(root, MODERN, ACCEPT, empty_then_key) == (keyed, [CONSENT, KEY, KEY, CONSENT], [])
    declined = ["error: declined"], ("error", ["Error calling tool 'route': declined"])
    texts, asked, _logs = _original(fastmcp3_python, before, {"action": "decline"}, [_key("sk-12")])
    assert (texts, asked) == (list(declined), [CONSENT, CONSENT])
    for mode in ("legacy", MODERN):
        assert _fixed(root, mode, {"action": "decline"}, [_key("sk-12")])[:2] == (list(declined), [CONSENT, CONSENT])
    refused = [["error: API key required"], ("error", ["Error calling tool 'route': API key required"])]
    texts, asked, _logs = _original(fastmcp3_python, before, ACCEPT, [{"action": "decline"}])
    assert (texts, asked) == (refused, [CONSENT, KEY, KEY])
    assert _fixed(root, "legacy", ACCEPT, [{"action": "decline"}])[:2] == (refused, [CONSENT, KEY, KEY])
    assert _fixed(root, MODERN, ACCEPT, [{"action": "decline"}])[:2] == (refused, [CONSENT, KEY, CONSENT, KEY])
    # no elicitation: the legacy failure as before; 2026-07-28 refuses the consent round (-32021)
    texts, asked, _logs = _original(fastmcp3_python, before, None, [])
    assert _fixed(root, "legacy", None, [])[0] == texts
    no_form = "-32021: Client did not declare the form elicitation capability required by input request 'result'"
    assert _fixed(root, MODERN, None, [])[0] == [("raised", no_form)] * 2


def test_each_retry_brings_only_the_latest_answer_and_the_consent_comes_back_in_request_state(
    tmp_path: Path,
) -> None:
    """The wire, round by round: consent (``result``), then the key (``key_from_user.reply_1``) with
    the consent answer in the sealed ``requestState``; an empty key asks ``reply_2`` and keeps the
    consent; the key then completes the call. The same key answer without that state is asked the
    consent again: the consent comes from the state fastmcp 4 sealed, not from the client."""
    root = _maps_project(tmp_path)
    assert _port(root).json["errors"] == []
    sys.modules.pop("keys", None)
    server = _load_in(root, "maps")

    async def run() -> list[Any]:
        import mcp
        from mcp import types

        async def elicit(context: Any, params: Any) -> Any:  # declares the capability; never called here
            raise AssertionError("the rounds are answered by hand")

        seen: list[Any] = []
        async with mcp.Client(server, mode=MODERN, elicitation_callback=elicit) as client:

            async def call(responses: dict[str, Any] | None, state: str | None) -> Any:
                return await client.session.call_tool(
                    "route",
                    {"a": "a", "b": "b"},
                    input_responses=responses,
                    request_state=state,
                    allow_input_required=True,
                )

            first = await call(None, None)
            seen.append((sorted(first.input_requests), first.request_state))
            second = await call({"result": types.ElicitResult(action="accept", content={})}, None)
            seen.append(sorted(second.input_requests))
            blank = {"key_from_user.reply_1": types.ElicitResult(action="accept", content={"value": ""})}
            third = await call(blank, second.request_state)
            seen.append(sorted(third.input_requests))
            good = {"key_from_user.reply_2": types.ElicitResult(action="accept", content={"value": "sk-78"})}
            seen.append(sorted((await call(good, None)).input_requests))  # no state: no consent either
            seen.append(_texts(await call(good, third.request_state)))
        return seen

    assert anyio.run(run) == [
        (["result"], None),
        ["key_from_user.reply_1"],
        ["key_from_user.reply_2"],
        ["result"],
        ["a to b with key ending 78"],
    ]


THROUGH_TWO = """
async def key_or_ask(ctx: Context) -> str:
    key = stored_key()
    if not key:
        key = await key_from_user(ctx)
    return key


async def checked_key(ctx: Context) -> str:
    key = await key_or_ask(ctx)
    return key


@maps.tool()
async def geocode(address: str, ctx: Context) -> str:
    key = await checked_key(ctx)
    return f"{address} with {key}"
"""

ASKS_AFTER = """
async def key_or_ask(ctx: Context) -> str:
    key = stored_key()
    if not key:
        key = await key_from_user(ctx)
    return key


@maps.tool()
async def geocode(address: str, ctx: Context) -> str:
    key = await key_or_ask(ctx)
    ok = await ctx.elicit("Spend a request?", response_type=bool)
    return f"{address} with {key}" if ok.action == "accept" else "stopped"
"""


def test_a_third_helper_level_or_a_question_after_the_relay_stays_manual(tmp_path: Path) -> None:
    """Only a module-level helper that tools of its module call hands the round on; a question the
    tool asks after the relayed call is a round after the key's, whose retry brings only its own
    answer, so the key's answer would be gone: both stay manual, and nothing is written."""
    head = (
        "from fastmcp import Context, FastMCP\n\nfrom keys import key_from_user, stored_key\n\nmaps = FastMCP('maps')\n"
    )
    step = (
        "fix not applied: the handlers in other modules must ask the question (or relay the helper's interim "
        "result) (`key_or_ask` in server.py: the interim result of `key_from_user(ctx)` in `key_or_ask` would be "
        "handed on by `key_or_ask`, but "
    )
    for name, body, why in [
        (
            "two",
            THROUGH_TWO,
            "`key_or_ask(ctx)` in `checked_key` is not in an async fastmcp tool (only a tool can return the interim "
            "result)",
        ),
        (
            "after",
            ASKS_AFTER,
            "`geocode` reaches another question on the path of `key_or_ask(ctx)` in `geocode` (`return "
            "InputRequiredResult(`): each re-ask is a round of its own and a retry brings only the latest round's "
            "answer, so that question's answer would be gone at the first re-ask; rewrite by hand",
        ),
    ]:
        root = _project(tmp_path / name, head + body, ["fastmcp>=3.2,<4"])
        (root / "keys.py").write_text(KEYS, encoding="utf-8")
        res = _port(root)
        assert res.exception is None
        assert res.json["errors"] == [{"path": "keys.py", "message": f"{step}{why}); nothing was written for it"}], name
        assert (root / "keys.py").read_text(encoding="utf-8") == KEYS  # nothing written for it

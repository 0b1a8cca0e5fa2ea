"""``fix --strategy interim`` on a fastmcp 4 tool whose request sits in a ``try`` that also guards
statements that do not use the answer (a log line, a label, bookkeeping after the request): the
``try`` cannot be unwrapped, so the round is written in place, inside it, as an ``MCPServer`` tool's
round is (``codemods/interim/guard.py``). On 2026-07-28 the tool returns the ``InputRequiredResult``
from where the request was; a client that did not declare the capability gets the -32021 raised
inside the ``try``, whose handler answers as it did for a client that could not answer; a legacy
connection runs the original request in the same ``try``.

Shape from evalstate/fast-agent@610a2f57:tests/integration/sampling/sampling_test_server.py (`sample`:
``try: logger.info(...); value = ...; await ctx.session.create_message(...); ... except Exception
as e: return ToolResult(... f"Error: {e}")``), which the fix used to leave manual ("unwrap it by
hand"); the server here is written for this test. Last, the review note of the ``try`` the resolver
form does unwrap says what its broad fallback also caught (an answer that fails the schema)."""

from __future__ import annotations

from pathlib import Path

from tests.test_interim_threading import _check, _client_call, _fix, _interim_round, _project, _server

DATA = Path(__file__).resolve().parent / "data" / "kept_try"
ACCEPT = {"action": "accept", "content": {"ok": True}}
DECLINE = {"action": "decline"}
ARGS = {"what": "drop"}


def test_the_round_is_written_inside_a_try_that_cannot_be_unwrapped(tmp_path: Path) -> None:
    target = _project(tmp_path, (DATA / "consent.py").read_text(encoding="utf-8"), ["fastmcp>=4"])
    before = tmp_path / "before.py"
    before.write_text(target.read_text(encoding="utf-8"), encoding="utf-8")
    [finding] = _check(target.parent)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP202", 16, 24)
    assert finding["fix"]["safety"] == "safe"
    assert finding["fix"]["description"].startswith(
        "on 2026-07-28 `consent` returns `InputRequiredResult` with a `ElicitRequest` under key 'result' and reads "
        "the answer from `ctx.input_responses` on the retry (a client that did not declare form elicitation gets "
        "error -32021 raised inside the `try` around the request, whose handlers see it; no requestState is written)"
    )
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == (DATA / "consent.fixed.py").read_text(encoding="utf-8")
    assert _check(target.parent) == []

    # Legacy: the same question, the same answers, the same fallback for a client without the capability.
    for reply in (ACCEPT, DECLINE, None):
        got = _client_call(_server(target, "mcp"), "legacy", "consent", ARGS, reply)
        assert got == _client_call(_server(before, "mcp"), "legacy", "consent", ARGS, reply), reply
    assert _client_call(_server(target, "mcp"), "legacy", "consent", ARGS, ACCEPT) == ["DROP: accept"]
    assert _client_call(_server(target, "mcp"), "legacy", "consent", ARGS, None) == ["cannot confirm drop"]

    # 2026-07-28: the original can only fall back; the fixed tool asks in one round and answers.
    assert _client_call(_server(before, "mcp"), "2026-07-28", "consent", ARGS, ACCEPT) == ["cannot confirm drop"]
    asked, result = _interim_round(_server(target, "mcp"), "consent", ARGS, ACCEPT)
    assert asked["result"]["params"]["message"] == "Allow DROP?" and result == ["DROP: accept"]
    assert _interim_round(_server(target, "mcp"), "consent", ARGS, DECLINE)[1] == ["DROP: decline"]
    assert _client_call(_server(target, "mcp"), "2026-07-28", "consent", ARGS, ACCEPT) == ["DROP: accept"]
    # A client without the capability: the round's -32021 is raised inside the `try`, whose handler answers.
    assert _client_call(_server(target, "mcp"), "2026-07-28", "consent", ARGS, None) == ["cannot confirm drop"]


def test_an_answer_thrown_away_in_such_a_try_takes_a_name(tmp_path: Path) -> None:
    """``await ctx.elicit(...)`` on its own: the round binds the answer as ``_elicited``
    (tests/test_interim_unassigned.py runs such servers); an answer used but never named stays manual."""
    source = (DATA / "consent.py").read_text(encoding="utf-8")
    source = source.replace("        result = await ctx.elicit(", "        await ctx.elicit(")
    source = source.replace('        return f"{label}: {result.action}"', '        return f"{label}: asked"')
    target = _project(tmp_path, source, ["fastmcp>=4"])
    [finding] = _check(target.parent)
    assert finding["fix"]["description"].startswith(
        "on 2026-07-28 `consent` returns `InputRequiredResult` with a `ElicitRequest` under key '_elicited' and reads"
    )
    _fix(target.parent)
    fixed = target.read_text(encoding="utf-8")
    assert '            _elicited = (ctx.input_responses or {}).get("_elicited")\n' in fixed
    assert '        else:\n            await ctx.elicit(message=f"Allow {label}?", response_type=Consent)\n' in fixed

    used = source.replace('        await ctx.elicit(message=f"Allow {label}?", response_type=Consent)\n', "")
    used = used.replace(
        '        return f"{label}: asked"',
        "        return f\"{label}: {(await ctx.elicit(message=f'Allow {label}?', response_type=Consent)).action}\"",
    )
    target = _project(tmp_path, used, ["fastmcp>=4"])
    [finding] = _check(target.parent)
    assert finding["fix"] is None
    assert finding["manual"] == (
        "the request's answer is not assigned to a variable (`x = await …`): assign it first, then run the fix again"
    )


def test_two_requests_in_such_a_try_stay_manual(tmp_path: Path) -> None:
    source = (DATA / "consent.py").read_text(encoding="utf-8")
    source = source.replace(
        "        EVENTS.append(label)\n",
        '        again = await ctx.elicit(message="Sure?", response_type=Consent)\n        EVENTS.append(label)\n',
    )
    target = _project(tmp_path, source, ["fastmcp>=4"])
    first = _check(target.parent)[0]
    assert (first["line"], first["fix"]) == (16, None)
    assert first["manual"] == (
        "`consent` makes or reaches 2 requests and this one sits in a `try` that also guards statements that do "
        "not use its answer: their one interim round cannot keep the `try`'s fallback for each; rewrite by hand"
    )
    _fix(target.parent)
    assert target.read_text(encoding="utf-8") == source


# -- the `try` the resolver form unwraps: what its broad fallback also caught ---------------------------
# python-sdk v1.27.0's everything-server (`test_elicitation_sep1330_enums`, ported to mcp 2.x): the
# `except Exception` around `ctx.elicit` also answered an accepted form whose content fails the schema.
MCPSERVER_TRY = """\
from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

mcp = MCPServer("x")


class Consent(BaseModel):
    ok: bool


@mcp.tool()
async def consent(what: str, ctx: Context) -> str:
    try:
        result = await ctx.elicit(message=f"Allow {what}?", schema=Consent)
        return f"{what}: {result.action}"
    except Exception:
        return f"cannot confirm {what}"
"""


def test_unwrapping_a_broad_fallback_around_an_elicitation_says_invalid_answers_lose_it(tmp_path: Path) -> None:
    target = _project(tmp_path, MCPSERVER_TRY, ["mcp>=2.3,<3"])
    before = tmp_path / "before.py"
    before.write_text(MCPSERVER_TRY, encoding="utf-8")
    [finding] = _check(target.parent)
    assert finding["fix"]["safety"] == "unsafe"
    assert finding["fix"]["description"].endswith(
        "(review: the `try` around the request is unwrapped and its `except Exception` fallback is dropped: on "
        "2026-07-28 the question is now asked where the fallback ran, and a legacy client that cannot answer gets "
        "a tool error instead of it, as does an accepted answer whose content fails the schema's validation)"
    )
    _fix(target.parent)
    assert "    except Exception:" not in target.read_text(encoding="utf-8")
    invalid = {"action": "accept", "content": {"ok": "perhaps"}}
    assert _client_call(_server(before, "mcp"), "legacy", "consent", ARGS, invalid) == ["cannot confirm drop"]
    got = _client_call(_server(target, "mcp"), "legacy", "consent", ARGS, invalid)
    assert got[0] == "error" and "does not match the requested schema" in got[1][0], got
    assert _client_call(_server(target, "mcp"), "legacy", "consent", ARGS, ACCEPT) == ["drop: accept"]

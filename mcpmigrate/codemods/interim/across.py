"""The callers' side of a request threaded across modules (issue 22, "answer threading"): a
module-level helper of one module that asks the client (and is called by handlers of other
modules) takes the answer as a parameter in its own module's fix (:func:`.thread.thread_reason`
records each caller on the site's ``thread.across``, which the finding keeps as ``project_needs``);
each calling module then gets the round its own request would get — right before its call of the
helper, the handler asks on
2026-07-28 (``InputRequiredResult`` until its ``input_responses`` hold the answer) and makes the
request itself on a legacy connection — and the call passes the answer where it passed the
context (:func:`.thread.make_handoff`, :func:`.thread.write_round`).

Which files are rewritten together, and that they are written all or none, is the engine's
project step (``mcpmigrate/project_answers.py``).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.interim.helpers import bind_args
from mcpmigrate.codemods.interim.relay import relay_edits
from mcpmigrate.codemods.interim.sites import LL_ROLES, first_line
from mcpmigrate.codemods.interim.thread import (
    CARRIER,
    make_handoff,
    requests_reached,
    scope_names,
    substitute,
    write_round,
)
from mcpmigrate.names import fresh


def _calls_of(a: ModuleAnalysis, fn: FunctionInfo, callee: str) -> list[cst.Call]:
    """The calls in ``fn`` of a function named ``callee`` that this module imports (``require_ack``,
    ``consent.require_ack``, under an alias too): the names resolve through the module's imports."""
    return [
        c for c in fn.calls if (a.qualname(c.func) or "").rpartition(".")[2] == callee and a.callee_of(c, fn) is None
    ]


def caller_edits(a: ModuleAnalysis, needs: list[dict[str, Any]]) -> Edits | str:
    """The edits that make each calling handler of ``needs`` ask the helper's question and pass the
    answer, or why one cannot (naming the caller and the reason in terms of its code)."""
    ed = Edits()
    relays = [n for n in needs if n["form"] == "relay"]  # a helper asking in place (.relay)
    if relays:
        why = relay_edits(a, relays, ed)
        if why:
            return why
    rounds = []
    for need in [n for n in needs if n["form"] != "relay"]:
        fn = next((f for f in a.functions if f.qualname == need["caller"]), None)
        if fn is None:
            return f"`{need['caller']}` is not a function of this module"
        roles = {"tool"} if need["form"] == "fastmcp" else LL_ROLES
        if fn.role not in roles:
            return f"`{need['caller']}` is not a handler that can return an interim result (a fastmcp tool, a low-level handler)"
        calls = _calls_of(a, fn, need["callee"])
        if len(calls) != 1:
            return f"`{need['caller']}` calls `{need['callee']}` {len(calls)} times: each asks today; rewrite by hand"
        if requests_reached(a, fn):
            return f"`{need['caller']}` makes requests of its own too: they must travel in one interim result; combine them by hand"
        (call,) = calls
        values = bind_args(call, need["params"])
        if isinstance(values, str):
            return f"`{first_line(call)}` in `{need['caller']}` {values}"
        ctx_arg = values.get(need["ctx"])
        if ctx_arg is None:
            return f"`{first_line(call)}` in `{need['caller']}` does not pass `{need['ctx']}`"
        request = cst.parse_expression(need["request"])
        tests = [cst.parse_expression(t) for t in need["skip"]]
        mapping = {k: v.value for k, v in values.items()}
        carrier = substitute(cst.Call(cst.Name(CARRIER), [cst.Arg(request), *map(cst.Arg, tests)]), mapping)
        result = fresh(scope_names(fn), need["name"])
        h = make_handoff(a, need["form"], need["kind"], fn, call, carrier, result, need["callee"])
        if isinstance(h, str):
            return h
        rounds.append((h, ctx_arg, need))
    for h, ctx_arg, need in rounds:
        write_round(a, ed, h)
        answer = ctx_arg.with_changes(
            value=cst.Name(h.site.result or ""),
            keyword=cst.Name(need["name"]) if ctx_arg.keyword is not None else None,
        )
        if need["drop"]:
            ed.replace(ctx_arg, answer)
        else:
            answer = answer.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            ed.transform(ctx_arg, lambda original, updated, answer=answer: cst.FlattenSentinel([answer, original]))  # type: ignore[misc]
    ed.finish()
    return ed

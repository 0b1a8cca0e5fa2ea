"""Several requests reached from one handler, asked in one round (issue 22, item 2): a low-level
handler or a fastmcp 4 tool that makes a request itself and reaches others through its helpers, or
reaches several helpers' requests (:mod:`.thread`), returns one ``InputRequiredResult`` with every
question under a key of its own (the handler's name for each answer: the helper's, made distinct)
and reads each answer from ``input_responses`` on the retry — each retry carries only the answers
to the latest ``inputRequests``, so the questions of one call cannot be asked one round each. Each
helper gets its own answer where it took the context; a legacy connection makes the requests
itself, in their original order (the first before the statement that reaches it, each later one
right before its own statement, ``if not is_version_at_least(…)``).

Requests on paths no single call shares (the ``if params.name == "…": … return`` dispatch) get a
round each. Manual, saying why in terms of the code, where one round cannot keep the order: a later
request built from what is set once the first has asked (its answer, or later), one reached only on
one outcome of the first (a ``return`` between them that reads the answer, ``await a(ctx) and await
b(ctx)``), requests on different paths of one call; the rest of what decides a request (its helper
chain, its handler) is each request's own check (``alone``). Every request of the handlers that
share requests — the component — is decided together: one that cannot be asked leaves them all
manual, and all take the union of their review notes; the first of them that is applied writes
them all (:func:`write_joint`), as a low-level group is recorded by its first member.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import cast

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.effects import has_effect
from mcpmigrate.codemods.interim.fastmcp import context_elicit, empty_form, legacy_request
from mcpmigrate.codemods.interim.lowlevel import (
    between_notes,
    exclusive_paths,
    lowlevel_edits,
    round_statement,
    widen_returns,
)
from mcpmigrate.codemods.interim.sites import Site, can_leave, first_line, side_effects_before
from mcpmigrate.codemods.interim.thread import ENTRY, Handoff, reached_asks, requests_reached, write_round
from mcpmigrate.codemods.param.chains import reach
from mcpmigrate.names import assigned, ref_names

#: Plans one request on its own (``interim._site(..., alone=True)``): its site, or why it has none.
Alone = Callable[[cst.Call], "Site | str"]


@dataclass(eq=False)
class Ask:
    """One request as a handler asks it: ``anchor`` is the handler's call that makes it (its own
    request) or that starts the chain to the helper making it, ``stmt`` the handler's statement
    around it, ``site`` the request as the handler makes it (its ``result`` the answer's name)."""

    anchor: cst.Call
    stmt: cst.BaseStatement
    site: Site
    handoff: Handoff | None = None  # a helper's request (None: the handler's own)
    notes: list[str] = field(default_factory=list)  # the request's own review notes
    helper: Site | None = None  # a helper's request: its site (the chain it is threaded through)


@dataclass(eq=False)
class Joint:
    """The rounds of one handler: each asks its requests together (a request alone on its path has
    a round of its own)."""

    handler: FunctionInfo
    rounds: list[list[Ask]] = field(default_factory=list)
    unsafe: list[str] = field(default_factory=list)


def _handlers(a: ModuleAnalysis, call: cst.Call) -> list[FunctionInfo]:
    """The handlers that make or reach the request ``call``."""
    fn = a.enclosing_function(call)
    if fn is None:
        return []
    if fn.role in ENTRY:
        return [fn]
    return [f for f in reach(a, fn).entries if f.role in ENTRY]


def _listed(calls: list[cst.Call]) -> str:
    return ", ".join(f"`{first_line(c)}`" for c in calls[:3]) + (", …" if len(calls) > 3 else "")


def joint_reason(a: ModuleAnalysis, site: Site, alone: Alone) -> str | None:
    """Why the request of ``site`` cannot be asked with the other requests its handlers reach, else
    None (``site.joints`` then holds the round of each handler reaching several, and ``site.unsafe``
    the notes of every request they share)."""
    multi = [h for h in _handlers(a, site.call) if len(reached_asks(a, h)) > 1]
    if not multi:
        return None
    handlers: dict[int, FunctionInfo] = {}
    requests: dict[int, cst.Call] = {}
    todo = list(multi)
    while todo:
        h = todo.pop(0)
        if id(h) in handlers:
            continue
        handlers[id(h)] = h
        for r in requests_reached(a, h):
            if id(r) not in requests:
                requests[id(r)] = r
                todo += [g for g in _handlers(a, r) if len(reached_asks(a, g)) > 1]
    planned: dict[int, Site] = {}
    for h in handlers.values():
        reached = [r for r, _ in reached_asks(a, h)]
        for r in reached:
            if id(r) in planned:
                continue
            s = alone(r)
            if isinstance(s, str):
                return (
                    f"`{h.qualname}` reaches {len(reached)} requests ({_listed(reached)}), which must travel in one "
                    f"interim result, and `{first_line(r)}` cannot be asked: {s}"
                )
            planned[id(r)] = s
    joints: dict[int, Joint] = {}
    notes: list[str] = []
    for h in handlers.values():
        j = _plan(a, h, planned)
        if isinstance(j, str):
            return j
        joints[id(h)] = j
        notes += j.unsafe
    site.unsafe = list(dict.fromkeys(notes))
    site.joints = {id(h.node): joints[id(h)] for h in multi}
    for r in requests.values():  # each request's own rewrite writes its handlers' joint rounds too
        planned[id(r)].joints = {
            id(h.node): joints[id(h)] for h in handlers.values() if any(x is r for x in requests_reached(a, h))
        }
    return None


def _plan(a: ModuleAnalysis, h: FunctionInfo, planned: dict[int, Site]) -> Joint | str:
    """The rounds of handler ``h`` (every request it reaches is in ``planned``), or why one round
    cannot ask its requests together."""
    pairs = reached_asks(a, h)
    reached = [r for r, _ in pairs]
    intro = (
        f"`{h.qualname}` reaches {len(reached)} requests ({_listed(reached)}), which must travel in one interim result"
    )
    asks: list[Ask] = []
    for r, anchor in pairs:
        s = planned[id(r)]
        if r is anchor:
            if s.unwrap is not None:
                return f"{intro}, but `{first_line(s.stmt)}` sits in a `try`: combine them by hand"
            asks.append(Ask(r, s.stmt, s, notes=s.unsafe))
            continue
        hand = [
            x
            for x in (s.thread.handoffs if s.thread is not None else [])
            if x.site.fn is h and x.edge is not None and x.edge.call is anchor
        ]
        if len(hand) != 1 or hand[0].edge is None:
            return f"{intro}, but `{first_line(r)}` is not asked by `{h.qualname}` itself: combine them by hand"
        asks.append(Ask(hand[0].edge.call, hand[0].stmt, hand[0].site, hand[0], s.unsafe, s))
    order = {id(c): i for i, c in enumerate(h.calls)}
    asks.sort(key=lambda k: order.get(id(k.anchor), len(order)))
    rounds: list[list[Ask]] = []
    for k in asks:
        near = [rd for rd in rounds if not all(exclusive_paths(a, k.anchor, [m.anchor]) for m in rd)]
        if not near:
            rounds.append([k])
            continue
        if len(near) > 1 or any(exclusive_paths(a, k.anchor, [m.anchor]) for m in near[0]):
            return (
                f"{intro}, but `{first_line(k.stmt)}` shares a path with some of them only: one round cannot ask "
                "what each path asks; combine them by hand"
            )
        near[0].append(k)
    joint = Joint(h, rounds)
    for rd in rounds:
        reason = _round_reason(a, intro, rd, joint.unsafe)
        if reason:
            return reason
    return joint


def _round_reason(a: ModuleAnalysis, intro: str, rd: list[Ask], notes: list[str]) -> str | None:
    """Why the asks of ``rd`` (in the handler's order) cannot be asked in one round before the first;
    the review notes of the round go to ``notes``."""
    first = rd[0]
    h = first.site.fn
    for k in rd:  # each request's own notes (a later one's "runs before the request" are the round's below)
        later = k is not first and k.stmt is not first.stmt
        skip = set(side_effects_before(a, k.site)) if later and k.handoff is None else set()
        notes += [n for n in k.notes if n not in skip]
    if first.handoff is not None:
        notes += [f"in `{h.qualname}`: {n}" for n in side_effects_before(a, first.site)]
    if len(rd) == 1:
        return None
    block = a.parents.get(id(first.stmt))
    if not isinstance(block, cst.IndentedBlock) or any(a.parents.get(id(k.stmt)) is not block for k in rd):
        return _branch_reason(a, intro, rd, block) or (
            f"{intro}, but they are not in one block (one runs only on some paths of the call): one round would ask "
            "it on every call; rewrite by hand"
        )
    for k in rd:
        if k.handoff is None and any(m is not k and m.stmt is k.stmt for m in rd):
            return f"{intro}, but `{first_line(k.stmt)}` also reaches another of them: combine them by hand"
    body = list(block.body)
    start = body.index(first.stmt)
    anchors = {id(k.stmt) for k in rd}

    def bound_before(stmt: cst.CSTNode) -> set[str]:
        """Names set from the first request's statement up to ``stmt``: its answer, or later."""
        return set().union(*(assigned(x) for x in body[start : body.index(stmt)]))  # type: ignore[arg-type]  # a statement of the block

    for k in rd[1:]:
        if k.stmt is first.stmt:
            continue
        reads = {n.value for n in ref_names(k.site.call)}
        if k.handoff is not None:
            reads |= {n.value for t in k.handoff.skip for n in ref_names(t)}
            reads |= {n.value for _, v in k.handoff.binds for n in ref_names(v)}
        blocked = sorted(reads & bound_before(k.stmt))
        if blocked:
            names = ", ".join(f"`{b}`" for b in blocked)
            return (
                f"{intro}, but the request `{first_line(k.site.call)}` (reached through `{first_line(k.stmt)}`) is built "
                f"from {names}, set once `{first_line(first.stmt)}` has asked (from its answer or later): the second "
                "request depends on the first answer, and one interim round asking both would change behaviour; keep "
                "them in order by hand"
            )
        for x in body[start : body.index(k.stmt)]:
            if not can_leave(x):
                continue
            test = x.test if isinstance(x, cst.If) else x
            read = sorted({n.value for n in ref_names(test)} & bound_before(x))
            if id(x) in anchors or read:
                why = (
                    "depending on the answer to the request it reaches"
                    if id(x) in anchors
                    else f"depending on {', '.join(f'`{r}`' for r in read)}, set once `{first_line(first.stmt)}` has asked"
                )
                return (
                    f"{intro}, but `{first_line(x)}` can end the call {why}: `{first_line(k.stmt)}` is reached only on "
                    "one outcome of the first request, and one interim round asking both on every call would change "
                    "behaviour; keep them in order by hand"
                )
    notes += between_notes(body[start : body.index(rd[-1].stmt)], anchors)
    for k in rd:
        if k.helper is not None and k.stmt is not rd[-1].stmt:
            notes += _after_request(a, k.helper)
    return None


def _after_request(a: ModuleAnalysis, helper: Site) -> list[str]:
    """The review notes of what the functions on a helper's chain do after its request (or after the
    call on the way): today it runs before the handler's next request is asked, on 2026-07-28 once
    all are answered."""
    assert helper.thread is not None
    marks = [(helper.fn, helper.call), *((e.caller, e.call) for e in helper.thread.edges)]
    notes = []
    for f, mark in marks:
        block = f.node.body
        top: cst.CSTNode | None = mark
        while top is not None and a.parents.get(id(top)) is not block:
            top = a.parents.get(id(top))
        if not isinstance(block, cst.IndentedBlock) or top not in block.body:
            continue
        after = [x for x in block.body[block.body.index(top) + 1 :] if has_effect(x)]
        if after:
            notes.append(
                f"`{first_line(after[0])}` in `{f.qualname}` runs after its request today, before the next one is "
                "asked; on 2026-07-28 it runs once all are answered"
            )
    return notes


def _branch_reason(a: ModuleAnalysis, intro: str, rd: list[Ask], block: cst.CSTNode | None) -> str | None:
    """Why a later ask that sits in a branch after the first is reached only on one outcome of the
    first request: the statement of the first's block around it is the first's own (``if await
    confirm(ctx): label = await pick(ctx)``) or tests a name set once the first has asked."""
    if not isinstance(block, cst.IndentedBlock):
        return None
    body = list(block.body)
    first = rd[0]
    start = body.index(first.stmt) if first.stmt in body else None
    if start is None:
        return None
    for k in rd[1:]:
        top: cst.CSTNode | None = k.stmt
        while top is not None and a.parents.get(id(top)) is not block:
            top = a.parents.get(id(top))
        if top is None or top is k.stmt or top not in body:
            continue
        bound = set().union(*(assigned(x) for x in body[start : body.index(top)]))  # type: ignore[arg-type]  # a statement of the block
        test = top.test if isinstance(top, cst.If) else top
        read = sorted({n.value for n in ref_names(test)} & bound)
        if top is first.stmt or read:
            why = (
                "depends on the answer to the request it reaches"
                if top is first.stmt
                else f"tests {', '.join(f'`{r}`' for r in read)}, set once `{first_line(first.stmt)}` has asked"
            )
            return (
                f"{intro}, but `{first_line(k.stmt)}` runs inside `{first_line(top)}`, which {why}: it is reached only "
                "on one outcome of the first request, and one interim round asking both on every call would change "
                "behaviour; keep them in order by hand"
            )
    return None


def describe_joints(site: Site) -> str:
    """What the description of a request asked with others adds: which handler asks which keys together."""
    parts = [
        f"`{joint.handler.qualname}` asks {', '.join(repr(k.site.key or k.site.result) for k in rd)} together"
        for joint in site.joints.values()
        for rd in joint.rounds
        if len(rd) > 1
    ]
    if not parts:  # its requests are on paths no call shares: a round each
        return ""
    return (
        "; ".join(dict.fromkeys(parts)) + " in one `InputRequiredResult`, as a retry carries only the answers to the "
        "latest inputRequests; legacy connections get those requests in their original order"
    )


def write_joint(a: ModuleAnalysis, joint: Joint, ed: Edits) -> None:
    """The handler's rounds (once, whichever of its requests is recorded first)."""
    done: set[int] = ed.shared("interim.joints", set)
    if id(joint.handler.node) in done:
        return
    done.add(id(joint.handler.node))
    for rd in joint.rounds:
        if len(rd) > 1:
            _write_round(a, ed, rd)
        elif rd[0].handoff is not None:
            write_round(a, ed, rd[0].handoff)
        else:
            lowlevel_edits(a, [rd[0].site], ed)
    # The other requests of the round go with it (as a low-level group is recorded by its first
    # member): each helper's own rewrite, once per request (``Site.record``), and the handler's own
    # requests are written above.
    recorded: set[int] = ed.shared("interim.done", set)
    for rd in joint.rounds:
        for k in rd:
            if k.helper is not None:
                k.helper.record(ed, a)
            else:
                recorded.add(id(k.site.call))


def _bare(stmt: cst.CSTNode) -> cst.BaseStatement:
    """``stmt`` (a statement) without its leading blank lines and comments (they go to what leads it now)."""
    return cast(cst.BaseStatement, stmt.with_changes(leading_lines=[]))


def _led(stmt: cst.BaseStatement, lead: Sequence[cst.EmptyLine]) -> cst.BaseStatement:
    return stmt.with_changes(leading_lines=lead)


def _legacy(a: ModuleAnalysis, ed: Edits, asks: list[Ask]) -> list[cst.BaseStatement]:
    """What a legacy connection runs for the helpers' requests ``asks``: the handler makes each itself."""
    return [x for k in asks for x in legacy_request(k.site, k.site.result or "", partial(ed.import_name, a))]


def _own_legacy(a: ModuleAnalysis, ed: Edits, k: Ask, updated: cst.CSTNode) -> list[cst.BaseStatement]:
    """What a legacy connection runs for the handler's own request ``k`` (``updated``: its statement as
    rewritten): the statement, or for fastmcp 2/3's empty form the request through the session."""
    if k.site.result is not None and context_elicit(k.site) and empty_form(k.site.call):
        return legacy_request(k.site, k.site.result, partial(ed.import_name, a))
    return [_bare(updated)]


def _write_round(a: ModuleAnalysis, ed: Edits, rd: list[Ask]) -> None:
    """One round for the asks of ``rd`` right before (or, for the handler's own request, in place
    of) the first one's statement; on a legacy connection each request is made where it was."""
    first = rd[0]
    guard = round_statement(a, [k.site for k in rd], ed)
    assert isinstance(guard.orelse, cst.Else) and isinstance(guard.test, cst.Call)
    at_least, version = code_of(guard.test.func), code_of(guard.test.args[0].value)
    binds = [
        cst.parse_statement(f"{name} = {code_of(value)}\n")
        for k in rd
        if k.handoff is not None
        for name, value in k.handoff.binds
    ]
    lead: Sequence[cst.EmptyLine] = getattr(first.stmt, "leading_lines", ())

    def with_legacy(body: list[cst.BaseStatement], leading: bool) -> cst.If:
        assert isinstance(guard.orelse, cst.Else)
        return guard.with_changes(
            orelse=guard.orelse.with_changes(body=guard.orelse.body.with_changes(body=body)),
            leading_lines=lead if leading else [],
        )

    if first.handoff is None:  # the handler's own request: its statement is the legacy branch
        ed.transform(first.stmt, lambda o, u: with_legacy(_own_legacy(a, ed, first, u), not binds))
        if binds:
            ed.insert_before(first.stmt, [_led(binds[0], lead), *binds[1:]])
    else:
        stmts = [*binds, with_legacy(_legacy(a, ed, [k for k in rd if k.stmt is first.stmt]), False)]
        ed.insert_before(first.stmt, [_led(stmts[0], lead), *stmts[1:]])
        ed.transform(first.stmt, lambda o, u: _bare(u))
    later: dict[int, list[Ask]] = {}
    for k in rd:
        if k.stmt is not first.stmt:
            later.setdefault(id(k.stmt), []).append(k)
    for ks in later.values():
        stmt = ks[0].stmt
        only = cst.parse_statement(f'if not {at_least}({version}, "2026-07-28"):\n    pass\n')
        assert isinstance(only, cst.If)

        def legacy_only(
            body: list[cst.BaseStatement], leading: bool, only: cst.If = only, stmt: cst.CSTNode = stmt
        ) -> cst.If:
            return only.with_changes(
                body=only.body.with_changes(body=body),
                leading_lines=getattr(stmt, "leading_lines", ()) if leading else [],
            )

        if ks[0].handoff is None:  # the handler's own request, on legacy connections only
            ed.transform(stmt, lambda o, u, wrap=legacy_only, k=ks[0]: wrap(_own_legacy(a, ed, k, u), True))  # type: ignore[misc]  # a default binds the loop's function
        else:
            ed.insert_before(stmt, [legacy_only(_legacy(a, ed, ks), True)])
            ed.transform(stmt, lambda o, u: _bare(u))
    widen_returns(ed, first.site.fn)

"""Answers kept across rounds (issue 22, "answer threading"): a fastmcp tool that asks a question in
a round of its own (a request threaded into it, answered from ``ctx.input_responses``) and then
relays a helper's rounds (:mod:`.relay`: a key asked, re-asked after an empty answer) on the same
path.

The 2026-07-28 client answers only the latest round's ``inputRequests`` on its retry
(``docs/specification/2026-07-28/basic/patterns/mrtr.mdx``: the server "encodes any needed context
into the ``requestState`` field, which the client echoes back"); fastmcp 4 keeps no state between
two requests of a 2026-07-28 connection (``ctx.set_state`` is per request there). So when the tool
relays the helper's round, the answers its own rounds gave on this retry would be gone at the next
one, and the tool would ask them again, round after round. Here they travel in ``requestState``, a
JSON object (the helper's re-ask round is in it under the helper's key, :func:`.lowlevel.reask_counter`),
which fastmcp 4 seals on the wire and refuses when tampered with:

    carried = json.loads(ctx.request_state or "{}")   # first in the tool's body
    ...
    result = (ctx.input_responses or {}).get("result", carried.get("result"))
    if isinstance(result, dict):  # answered in an earlier round, kept in requestState
        result = ElicitResult.model_validate(result)
    if not isinstance(result, ElicitResult):
        ...  return InputRequiredResult(input_requests={"result": ...})
    carried["result"] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    ...
    key = await key_or_ask(ctx)
    if isinstance(key, InputRequiredResult):
        return key.model_copy(update={"request_state": json.dumps({**carried, **json.loads(key.request_state or "{}")})})

On a legacy connection nothing changes (``ctx.request_state`` is None, the relay never returns).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.interim.thread import scope_names
from mcpmigrate.codemods.stdlib_logging import module_name
from mcpmigrate.names import fresh, is_docstring

_READ = re.compile(r'^\((\w+)\.input_responses or \{\}\)\.get\("([^"\\]+)"\)$')


@dataclass
class Kept:
    """One answer a round of the tool reads and a later round must still have."""

    key: str  # its input request's key
    ctx: str  # the tool's context, as the round spells it
    name: str  # the name the round reads it into
    answer_type: str  # the type the round checks it against (``ElicitResult``)
    read: cst.SimpleStatementLine  # ``name = (ctx.input_responses or {}).get("key")``
    check: cst.If  # ``if not isinstance(name, ElicitResult): … return InputRequiredResult(…)``


def kept_answers(
    a: ModuleAnalysis, tool: FunctionInfo, stmt: cst.CSTNode, others: list[cst.CSTNode]
) -> list[Kept] | None:
    """The answers of the tool's own rounds among ``others`` (what else the tool asks on the path of
    its relay statement ``stmt``), when each is a round this run wrote before ``stmt`` —
    ``return InputRequiredResult(input_requests={"<key>": …})`` with literal keys and no
    ``requestState`` of its own, under ``if not isinstance(<answer>, <type>):``, its answer read
    from ``ctx.input_responses`` — so they can be kept in ``requestState``; else None."""
    order = {id(n): i for i, n in enumerate(walk(tool.node))}
    reads: dict[str, tuple[str, cst.SimpleStatementLine, str]] = {}
    for n in walk(tool.node.body):
        if isinstance(n, cst.SimpleStatementLine) and len(n.body) == 1 and isinstance(n.body[0], cst.Assign):
            small = n.body[0]
            m = _READ.match(code_of(small.value))
            if m and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                reads[m.group(2)] = (small.targets[0].target.value, n, m.group(1))
    out: list[Kept] = []
    for other in others:
        if (
            not (isinstance(other, cst.Return) and isinstance(other.value, cst.Call))
            or order[id(other)] > order[id(stmt)]
        ):
            return None
        args = {arg.keyword.value: arg.value for arg in other.value.args if arg.keyword is not None}
        requests = args.get("input_requests")
        if set(args) != {"input_requests"} or not isinstance(requests, cst.Dict):
            return None
        check = _check_of(a, other)
        for el in requests.elements:
            if not (isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString)):
                return None
            key = el.key.evaluated_value
            if not isinstance(key, str) or key not in reads or check is None:
                return None
            name, read, ctx = reads[key]
            answer_type = _checked_type(check, name)
            if answer_type is None:
                return None
            out.append(Kept(key, ctx, name, answer_type, read, check))
    return out


def _check_of(a: ModuleAnalysis, ret: cst.Return) -> cst.If | None:
    """The ``if`` whose body holds the round's ``return``."""
    cur = a.parents.get(id(ret))
    while cur is not None and not isinstance(cur, (cst.If, cst.FunctionDef)):
        cur = a.parents.get(id(cur))
    return cur if isinstance(cur, cst.If) else None


def _checked_type(check: cst.If, name: str) -> str | None:
    """``T`` of ``isinstance(<name>, T)`` in the round's test."""
    for n in walk(check.test):
        if (
            isinstance(n, cst.Call)
            and code_of(n.func) == "isinstance"
            and len(n.args) == 2
            and code_of(n.args[0].value) == name
        ):
            return code_of(n.args[1].value)
    return None


def carry_edits(a: ModuleAnalysis, ed: Edits, tool: FunctionInfo, kept: list[Kept]) -> tuple[str, str]:
    """Keep ``kept`` in ``requestState`` (module docstring): the local names of the ``json`` module
    and of the tool's dict of kept answers, for the relay to add them to the helper's round."""
    json, add = module_name(a, "json")
    if add:
        ed.add_import("json", None, json)
    carried = fresh(scope_names(tool), "carried")
    body = tool.node.body
    assert isinstance(body, cst.IndentedBlock)
    first = body.body[1] if is_docstring(body.body[0]) and len(body.body) > 1 else body.body[0]
    ed.insert_before(first, [cst.parse_statement(f'{carried} = {json}.loads({kept[0].ctx}.request_state or "{{}}")\n')])
    seen: set[str] = set()
    for k in kept:
        if k.key in seen:
            continue
        seen.add(k.key)
        small = k.read.body[0]
        assert isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)
        call = small.value
        wider = call.with_changes(args=[*call.args, cst.Arg(cst.parse_expression(f'{carried}.get("{k.key}")'))])
        revive = cst.parse_statement(
            f"if isinstance({k.name}, dict):  # answered in an earlier round, kept in requestState\n"
            f"    {k.name} = {k.answer_type}.model_validate({k.name})\n"
        )
        read = k.read.with_changes(body=[small.with_changes(value=wider)])
        ed.transform(k.read, lambda o, u, read=read, revive=revive: cst.FlattenSentinel([read, revive]))  # type: ignore[misc]
        keep = cst.parse_statement(
            f'{carried}["{k.key}"] = {k.name}.model_dump(mode="json", by_alias=True, exclude_none=True)\n'
        )
        ed.transform(k.check, lambda o, u, keep=keep: cst.FlattenSentinel([u, keep]))  # type: ignore[misc]
    return json, carried

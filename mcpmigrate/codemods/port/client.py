"""The port of mcp 1.x client code in a server project (a proxy that forwards to an upstream
server) to mcp 2.x (MCP522), each change checked against mcp 1.27 and 2.3:

- ``streamable_http_client(...)`` yielded ``(read, write, get_session_id)`` on 1.x and yields
  ``(read, write)`` on 2.x (``ValueError: not enough values to unpack`` at the ``async with``): the
  third target is dropped when nothing reads it;
- ``ClientSession(read_timeout_seconds=…)`` took a ``timedelta`` on 1.x and takes seconds (a
  ``float``) on 2.x: ``timedelta(seconds=x)`` becomes ``x``, any other ``timedelta(...)`` call, or a name only ever
  bound to one, ``<it>.total_seconds()`` (the same number of seconds); what the module does not
  show to be a ``timedelta`` is not reported (a number stays as it is).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixInfo, FixPlan, Safety

UNPACK = FixInfo(
    Safety.SAFE,
    "port",
    "unpack the two streams mcp 2.x yields; the session-id callback was never read",
)
SECONDS = FixInfo(
    Safety.SAFE,
    "port",
    "pass the timeout in seconds, as mcp 2.x takes it (the same duration)",
)


@dataclass(frozen=True)
class DropThird:
    """``as (read, write, get_id)`` → ``as (read, write)``."""

    target: cst.Tuple

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        def rewrite(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(u, cst.Tuple)
            kept = list(u.elements[:2])
            last = u.elements[2]
            # the second element takes the third's punctuation (a trailing comma and the line break)
            kept[1] = kept[1].with_changes(comma=last.comma)
            return u.with_changes(elements=kept)

        edits.transform(self.target, rewrite)


@dataclass(frozen=True)
class InSeconds:
    """A ``timedelta`` argument → its seconds: ``x`` of ``timedelta(seconds=x)``, else
    ``<value>.total_seconds()``."""

    value: cst.BaseExpression

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        def rewrite(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(u, cst.BaseExpression)
            alone = _seconds_alone(u) if isinstance(u, cst.Call) else None
            if alone is not None:
                return alone
            return cst.Call(cst.Attribute(u, cst.Name("total_seconds")))

        edits.transform(self.value, rewrite)


def _seconds_alone(call: cst.Call) -> cst.BaseExpression | None:
    """``x`` of ``timedelta(seconds=x)`` (an argument's value needs no parentheses)."""
    if len(call.args) == 1 and call.args[0].keyword is not None and call.args[0].keyword.value == "seconds":
        return call.args[0].value
    return None


def plan_unpack(analysis: ModuleAnalysis, target: cst.Tuple, scope: cst.CSTNode, spelled: str) -> FixPlan:
    """The port of ``async with <spelled>(...) as (read, write, third)``: the third dropped when it
    is a name nothing in ``scope`` (the enclosing function, or the module) reads."""
    third = target.elements[2].value
    if not isinstance(third, cst.Name) or isinstance(target.elements[2], cst.StarredElement):
        return FixPlan(
            manual=f"`{get_full_name_for_node(third) or 'the third target'}` is not a plain name: unpack "
            f"`{spelled}(...)` into `(read, write)` by hand"
        )
    name = third.value
    reads = [n for n in walk(scope) if isinstance(n, cst.Name) and n.value == name and n is not third]
    if reads:
        return FixPlan(
            manual=f"`{name}` (the session-id callback) is used in the code: mcp 2.x's transport yields no such "
            f"callback, so decide what replaces each use of `{name}` and unpack `(read, write)` by hand"
        )
    return FixPlan(fix=UNPACK, site=DropThird(target))


def timedelta_value(analysis: ModuleAnalysis, value: cst.BaseExpression) -> bool:
    """``value`` is a ``timedelta``: a ``timedelta(...)`` call, or a name every assignment of the
    module binds to one (a number, as the port leaves it, is not)."""
    if isinstance(value, cst.Call):
        return analysis.qualname(value.func) == "datetime.timedelta"
    if not isinstance(value, cst.Name):
        return False
    bound: list[cst.BaseExpression | None] = []
    for n in walk(analysis.module):
        if isinstance(n, cst.Assign):
            bound += [n.value for t in n.targets if isinstance(t.target, cst.Name) and t.target.value == value.value]
        elif isinstance(n, cst.AnnAssign | cst.AugAssign) and isinstance(n.target, cst.Name):
            bound += [n.value] if n.target.value == value.value else []
        elif isinstance(n, cst.Param | cst.For | cst.AsName | cst.NamedExpr):
            target = n.name if isinstance(n, cst.Param | cst.AsName) else n.target
            if isinstance(target, cst.Name) and target.value == value.value:
                bound.append(None)
    return bool(bound) and all(
        isinstance(b, cst.Call) and analysis.qualname(b.func) == "datetime.timedelta" for b in bound
    )


def plan_timeout(analysis: ModuleAnalysis, value: cst.BaseExpression) -> FixPlan:
    """The port of a ``read_timeout_seconds=`` argument that :func:`timedelta_value` holds."""
    return FixPlan(fix=SECONDS, site=InSeconds(value))

"""Deleting what a rule reported, recorded into an :class:`~mcpmigrate.codemods.edits.Edits`:
a statement (a registration, a bare call), a keyword argument, a dict entry, a decorator, and the
handler function nothing uses once its registration goes. Shared by the ``remove`` and ``drop``
fixes (the registrations, calls and fields that no longer exist in 2026-07-28).

A reported node is deleted only in the places listed here (a statement on a line of its own or
with others separated by ``;``, an argument of a call, an entry of a dict display, a decorator of a
function); anywhere else it stays. An argument or entry that goes leaves the commas readable
(``f(a, b)`` → ``f(a)``, a trailing comma in a one-per-line layout stays). The applier puts
``pass`` into a block left empty.

Dual era (``plan_legacy_removal``): what only legacy clients use (a ``logging/setLevel`` handler,
a roots ``list_changed`` handler, ``notifications/elicitation/complete``) is removed only when the
project declares that it no longer serves them (``legacy-clients = false``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan
from mcpmigrate.names import name_nodes


@dataclass(frozen=True)
class DispatchRoute:
    """The site of a legacy-only method routed by a hand-rolled dispatch (an ``if method ==
    "logging/setLevel"`` branch, a ``case``, a route table entry): never deleted by a fix (the
    branch may route other methods too), only told what to do with the method string — its plan is
    manual, settled by :func:`legacy_plan`, so it records nothing."""


def plan_route(manual: str) -> FixPlan:
    """The plan of a legacy-only method a hand-rolled dispatch routes (before :func:`legacy_plan`
    settles its text)."""
    return FixPlan(manual=manual, site=DispatchRoute())


@dataclass
class Deleted:
    """What the sites of one fix round delete together (:func:`deleted`): the reported nodes, in
    the findings' order, and the handler functions left unused, by name."""

    nodes: list[cst.CSTNode] = field(default_factory=list)
    handlers: dict[str, cst.FunctionDef] = field(default_factory=dict)


def deleted(edits: Edits, a: ModuleAnalysis, keep_comments: bool = False) -> Deleted:
    """The round's :class:`Deleted`, shared by the sites that record into ``edits``
    (``Edits.shared``); after the last site it is recorded in one :func:`delete` (the arguments of
    one call, the statements of one line, go together)."""

    def last(d: Deleted) -> None:
        delete(edits, a, d.nodes, d.handlers.values(), keep_comments=keep_comments)

    return edits.shared("deletions.deleted", Deleted, last=last)


def spellings(a: ModuleAnalysis, name: str) -> int:
    """How many ``Name`` nodes of the module spell ``name`` (definitions, references, attribute
    names and keywords alike): a handler is unused when only its ``def`` and the registration that
    goes spell it."""
    return sum(1 for n in name_nodes(a.module) if n.value == name)


def delete(
    edits: Edits,
    a: ModuleAnalysis,
    nodes: Iterable[cst.CSTNode],
    functions: Iterable[cst.FunctionDef] = (),
    keep_comments: bool = False,
) -> None:
    """Record the deletion of the reported ``nodes`` and of the unused handler ``functions``.

    With ``keep_comments``, the blank lines and comments above a module-level statement that goes
    (a section header above a removed handler) move to the next statement that stays."""
    pm = a.parents
    smalls: dict[int, tuple[cst.SimpleStatementLine, list[cst.CSTNode]]] = {}
    args: dict[int, tuple[cst.CSTNode, set[int]]] = {}
    gone: list[cst.SimpleStatementLine | cst.FunctionDef] = []  # statements: they have leading_lines
    for node in nodes:
        parent = pm.get(id(node))
        if (
            isinstance(node, cst.Arg)
            and isinstance(parent, cst.Call)
            or isinstance(node, cst.DictElement)
            and isinstance(parent, cst.Dict)
        ):
            args.setdefault(id(parent), (parent, set()))[1].add(id(node))
            continue
        if isinstance(node, cst.Decorator) and isinstance(parent, cst.FunctionDef):
            edits.remove(node)
            continue
        small: cst.CSTNode | None = node
        if isinstance(parent, cst.Await) and parent.expression is node:  # `await call(...)` on its own
            small, parent = parent, pm.get(id(parent))
        if isinstance(parent, cst.Expr) and parent.value is small:  # `call(...)` on its own
            small, parent = parent, pm.get(id(parent))
        if isinstance(small, cst.BaseSmallStatement) and isinstance(parent, cst.SimpleStatementLine):
            smalls.setdefault(id(parent), (parent, []))[1].append(small)
    for line, dead in smalls.values():
        if all(any(s is d for d in dead) for s in line.body):
            edits.remove(line)
            gone.append(line)
        else:
            for s in dead:
                edits.remove(s)
    for container, ids in args.values():
        edits.transform(container, partial(_without, ids=ids))
    for fn in functions:
        edits.remove(fn)
        gone.append(fn)
    if keep_comments:
        leading = {id(s): list(s.leading_lines) for s in gone if pm.get(id(s)) is a.module}
        if leading:
            edits.transform(a.module, partial(_carry_leading_lines, leading=leading))


def _without(original: cst.CSTNode, updated: cst.CSTNode, ids: set[int]) -> cst.CSTNode:
    """A call without the arguments, or a dict display without the entries, whose ids are ``ids``."""
    if isinstance(original, cst.Call) and isinstance(updated, cst.Call):
        args = [u for o, u in zip(original.args, updated.args) if id(o) not in ids]
        if args:  # the new last argument takes the old last one's comma (a trailing one stays)
            comma = updated.args[-1].comma
            args[-1] = args[-1].with_changes(comma=comma if isinstance(comma, cst.Comma) else cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(args=args)
    assert isinstance(original, cst.Dict) and isinstance(updated, cst.Dict)
    els = [u for o, u in zip(original.elements, updated.elements) if id(o) not in ids]
    if els and not isinstance(updated.elements[-1].comma, cst.Comma):
        els[-1] = els[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return updated.with_changes(elements=els)


def _carry_leading_lines(
    original: cst.CSTNode, updated: cst.CSTNode, leading: dict[int, list[cst.EmptyLine]]
) -> cst.Module:
    """The blank lines and comments of module-level statements that went, on the next one that stays
    (when they hold a comment, or when it has none of its own)."""
    assert isinstance(original, cst.Module) and isinstance(updated, cst.Module)
    out = list(updated.body)
    carry: list[cst.EmptyLine] | None = None
    j = 0
    for stmt in original.body:
        if id(stmt) in leading:
            if carry is None:
                carry = leading[id(stmt)]
            continue
        if j >= len(out):
            break
        if carry is not None:
            has_comment = any(line.comment is not None for line in carry)
            if has_comment or not out[j].leading_lines:
                out[j] = out[j].with_changes(leading_lines=carry)
        carry = None
        j += 1
    return updated.with_changes(body=out)


# -- dual era: what only legacy clients use ---------------------------------------------------

LEGACY_RULES = ("MCP103", "MCP205", "MCP402")
_LEGACY_USE = {
    "MCP402": (
        "legacy (handshake-era) clients still send `logging/setLevel`, and this registration is what "
        "declares the `logging` capability to them"
    ),
    "MCP103": "legacy (handshake-era) clients still send `notifications/roots/list_changed` to this handler",
    "MCP205": (
        "legacy (handshake-era) clients still receive `notifications/elicitation/complete`: it tells them "
        "the out-of-band step finished"
    ),
}
_METHOD = {
    "MCP402": "logging/setLevel",
    "MCP103": "notifications/roots/list_changed",
    "MCP205": "notifications/elicitation/complete",
}
_MODERN = {
    "MCP402": '2026-07-28 clients send the level with each request in `_meta["io.modelcontextprotocol/logLevel"]`',
    "MCP103": "2026-07-28 clients never send it",
    "MCP205": "2026-07-28 clients never receive it",
}
DECLARE_NO_LEGACY = (
    "once the project no longer serves legacy clients, declare it (`legacy-clients = false` under "
    "[tool.mcpmigrate], or `--no-legacy-clients`) and the removal is offered"
)


def plan_legacy_removal(
    config: Config,
    rule: str,
    fix: FixInfo | None,
    manual: str | None = None,
    route: bool = False,
    blocked: str | None = None,
) -> FixPlan:
    """The plan for a site of a legacy-only rule (``LEGACY_RULES``): removing what only legacy
    clients use is not a fix while the project serves them (``config.legacy_clients``, default
    true), so the site is kept and the manual text says why and how to declare that they are no
    longer served. Otherwise the removal ``fix`` is offered, unless ``blocked`` says why it cannot
    go on its own (a roots cache it invalidates, protocol logging that still needs the capability).
    A hand-rolled dispatch (``route``) is never told to delete a branch: only the method string."""
    method = _METHOD[rule]
    if route:
        if config.legacy_clients:
            return FixPlan(
                manual=(
                    f"keep routing `{method}` while legacy clients are served (it does not exist on "
                    f"2026-07-28: route it only on handshake-era connections; {_MODERN[rule]}), and keep "
                    "the other methods this dispatch routes; stop routing it once the project no longer "
                    "serves legacy clients (`legacy-clients = false` under [tool.mcpmigrate])"
                )
            )
        return FixPlan(
            manual=(
                f"stop routing `{method}` here (it does not exist on 2026-07-28; {_MODERN[rule]}); "
                "keep routing every other method this dispatch handles"
            )
        )
    if config.legacy_clients:
        text = f"kept: {_LEGACY_USE[rule]}; {DECLARE_NO_LEGACY}"
        if blocked:
            text += f" (even then, {blocked})"
        return FixPlan(manual=text)
    if blocked:
        return FixPlan(manual=blocked)
    return FixPlan(fix=fix, manual=manual if fix is None else None)


def legacy_plan(
    config: Config, rule: str, plan: FixPlan, route: bool, blocked: Callable[[], str | None] = lambda: None
) -> FixPlan:
    """A legacy-only rule's plan (``LEGACY_RULES``) as :func:`plan_legacy_removal` settles it: the
    removal ``plan`` offers, or a dispatch ``route``, kept while the project serves legacy clients
    and offered once it declares it does not (``blocked()`` says when the removal cannot go alone
    even then). ``plan`` is returned as it is for another rule, a site with neither, and a removal
    that goes with another fix (its strategy is not ``remove``: a roots request's)."""
    if rule not in LEGACY_RULES or (plan.fix is None and not route):
        return plan
    if plan.fix is not None and plan.fix.strategy != "remove":
        return plan
    settled = plan_legacy_removal(
        config, rule, plan.fix, plan.manual, route=route, blocked=blocked() if plan.fix is not None else None
    )
    return replace(plan, fix=settled.fix, manual=settled.manual)

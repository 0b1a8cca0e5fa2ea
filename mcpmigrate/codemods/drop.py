"""The ``remove`` fix for the rest of the catalog: calls and registrations that have nothing to
do on 2026-07-28 are deleted, whatever the strategy.

- MCP203: a bare ``await session.send_ping()`` statement (``ping`` is removed; the send raises on
  a modern connection).
- MCP205: a bare ``send_elicit_complete(...)`` / ``send_notification(ElicitCompleteNotification(...))``
  statement (the notification is removed).
- MCP402: ``@server.set_logging_level()``, ``Server(on_set_logging_level=h)``,
  ``server.request_handlers[SetLevelRequest] = h`` and
  ``add_request_handler("logging/setLevel", ...)``; the handler function goes too when nothing
  else in the module uses it.

A block left empty gets ``pass``; at module level the comments above a statement that goes stay
(``codemods/deletions.py``, shared with the ``remove`` fix).

A ping whose failure is the only way out of an endless loop (a keep-alive: ``while True: sleep;
ping``, or ``try: ping / except: return``) is not deleted: without it the loop never ends, so a
tool that waited for the peer to go away hangs (:func:`ping_is_loop_exit`; the site is manual).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.deletions import DispatchRoute, deleted, legacy_plan, spellings
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan, Planned, Safety

STRATEGY = "remove"

_LOOP_EXITS = (cst.Break, cst.Return, cst.Raise)


def ping_is_loop_exit(analysis: ModuleAnalysis, call: cst.CSTNode) -> str | None:
    """Why deleting the ping ``call`` would leave an endless loop, or None when it would not.

    The ping's failure (it raises on a 2026-07-28 connection, and on a legacy one when the peer
    went away) ends the innermost enclosing ``while True`` loop of its function: by propagating,
    or through a handler of a ``try`` around it that exits the loop (``return``, ``break``,
    ``raise``). When the loop has no other exit, deleting the ping alone makes it endless."""
    pm = analysis.parents
    handlers: list[cst.ExceptHandler] = []
    node: cst.CSTNode | None = call
    loop: cst.While | None = None
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.Module)):
        parent = pm.get(id(node))
        if isinstance(parent, cst.Try) and node is parent.body:
            handlers.extend(parent.handlers)
        if isinstance(parent, cst.While) and node is parent.body:
            loop = parent
            break
        node = parent
    if loop is None or not _always_true(loop.test):
        return None
    broad = [
        h
        for h in handlers
        if h.type is None or (isinstance(h.type, cst.Name) and h.type.value in ("Exception", "BaseException"))
    ]
    if broad and not any(isinstance(n, _LOOP_EXITS) for h in broad for n in _subtree(h)):
        return None  # the failure is swallowed: the ping never was a way out
    skip = {id(n) for h in handlers for n in _subtree(h)}
    for n in _subtree(loop.body):
        if id(n) in skip or not isinstance(n, _LOOP_EXITS):
            continue
        if isinstance(n, cst.Break) and _owning_loop(pm, n) is not loop:
            continue
        if _owning_function(pm, n) is not _owning_function(pm, loop):
            continue
        return None  # the loop has an exit of its own
    how = (
        "its `except` handler's exit"
        if any(isinstance(n, _LOOP_EXITS) for h in handlers for n in _subtree(h))
        else "the exception it raises"
    )
    return (
        f"the ping is the only way out of a `while True` loop (through {how}: on 2026-07-28 it fails "
        "at once, on a legacy connection when the peer goes away); deleting it alone leaves a loop that "
        "never ends. Remove the keep-alive loop (and what waits for it) by hand"
    )


def ping_failure_expected(analysis: ModuleAnalysis, call: cst.CSTNode) -> str | None:
    """Why the ping ``call`` must stay, or None: it sits in a ``with pytest.raises(...)`` (or
    ``self.assertRaises(...)``) block, whose point is the ping's failure (mcp 2.x: ``send_ping``
    raises ``NoBackChannelError`` without a back channel); deleted, the block fails."""
    pm = analysis.parents
    node: cst.CSTNode | None = call
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.Module)):
        parent = pm.get(id(node))
        if isinstance(parent, cst.With) and node is parent.body:
            for item in parent.items:
                func = item.item.func if isinstance(item.item, cst.Call) else None
                name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
                if name == "raises" or str(name).startswith("assertRaises"):
                    return (
                        "the ping is expected to fail here (it is inside `with ...raises(...)`); deleting it "
                        "makes that block fail. Remove or rewrite the check of the ping by hand"
                    )
        node = parent
    return None


def _always_true(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.Name):
        return test.value == "True"
    if isinstance(test, cst.Integer):
        return test.value not in ("0", "0x0", "0o0", "0b0")
    return False


def _subtree(node: cst.CSTNode) -> list[cst.CSTNode]:
    out: list[cst.CSTNode] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.children)
    return out


def _owning_loop(pm: dict, node: cst.CSTNode) -> cst.CSTNode | None:
    n = pm.get(id(node))
    while n is not None and not isinstance(n, (cst.While, cst.For, cst.FunctionDef, cst.Lambda)):
        n = pm.get(id(n))
    return n if isinstance(n, (cst.While, cst.For)) else None


def _owning_function(pm: dict, node: cst.CSTNode) -> cst.CSTNode | None:
    n = pm.get(id(node))
    while n is not None and not isinstance(n, (cst.FunctionDef, cst.Lambda)):
        n = pm.get(id(n))
    return n


RULES = ("MCP203", "MCP205", "MCP402")
#: The rules whose reports :func:`settle` also reads (``pipeline.settle``): a ``logging/setLevel``
#: registration stays while the module still sends protocol logs (MCP401).
SETTLE_READS = ("MCP401",)

_STILL_LOGS = (
    "the module still sends protocol log notifications (MCP401), and the registration is what declares the "
    "`logging` capability a server that sends them must declare: move them to the standard library first, "
    "then the registration can go"
)


@dataclass(frozen=True)
class Deletion:
    """A bare statement that goes (MCP203 ``send_ping()``, MCP205 ``send_elicit_complete(...)``):
    the call ``node``."""

    node: cst.CSTNode

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        deleted(edits, analysis, keep_comments=True).nodes.append(self.node)


def plan(node: cst.CSTNode, safety: Safety, description: str) -> FixPlan:
    """The deletion of the bare call ``node`` (a ping, an elicitation-complete notification): its
    legacy-only label (MCP205) is settled by :func:`settle`."""
    return FixPlan(FixInfo(safety, STRATEGY, description), site=Deletion(node))


@dataclass(frozen=True)
class SetLevelRegistration:
    """An MCP402 ``logging/setLevel`` registration ``node`` (``form``: ``decorator``, ``call``,
    ``kwarg`` or ``assign``) of the module function ``handler`` (None: not a plain name), which
    goes too when nothing else uses it."""

    node: cst.CSTNode
    form: str
    handler: str | None

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        gone = deleted(edits, analysis, keep_comments=True)
        gone.nodes.append(self.node)
        name = self.handler
        fn = analysis.function_named(name) if name else None
        if not name or fn is None or fn.class_name is not None:
            return
        # the def itself, plus the registration unless it is the decorator on the def
        allowed = 1 if self.form == "decorator" else 2
        if spellings(analysis, name) <= allowed:
            gone.handlers[name] = fn.node


def plan_set_level(node: cst.CSTNode, description: str, form: str, handler: str | None) -> FixPlan:
    """The removal of a ``logging/setLevel`` registration (its legacy-only label is settled by
    :func:`settle`). Spec: 2026-07-28 changelog, ``logging/setLevel`` removed."""
    return FixPlan(FixInfo(Safety.SAFE, STRATEGY, description), site=SetLevelRegistration(node, form, handler))


def settle(
    analysis: ModuleAnalysis, config: Config, reports: Sequence[Planned], read: Sequence[Planned] = ()
) -> list[FixPlan]:
    """Dual era: the removals of the legacy-only rules (MCP205, MCP402) and their dispatch routes
    (:class:`~mcpmigrate.codemods.deletions.DispatchRoute`) get the plan of
    :func:`~mcpmigrate.codemods.deletions.legacy_plan` — kept while the project serves legacy
    clients, offered once it declares it does not; a ``logging/setLevel`` registration not even
    then while the module sends protocol logs (an MCP401 report among ``read``). One plan per
    report, in order."""
    sends = any(r.rule == "MCP401" for r in read)

    def blocked(rule: str) -> str | None:
        return _STILL_LOGS if sends and rule == "MCP402" else None

    return [
        legacy_plan(config, r.rule, r.plan, isinstance(r.plan.site, DispatchRoute), partial(blocked, r.rule))
        for r in reports
    ]

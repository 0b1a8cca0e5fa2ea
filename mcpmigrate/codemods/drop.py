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

A block left empty gets ``pass``. Uses the statement/argument remover of the ``remove`` codemod.
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.remove import _Remover, _uses
from mcpmigrate.config import Config

STRATEGY = "remove"
ALWAYS = True
RULES = ("MCP203", "MCP205", "MCP402")


class _Dropper(_Remover):
    def __init__(self, targets: set[int], dead_functions: set[str]) -> None:
        super().__init__(targets, dead_functions)
        self.gone: dict[int, list[cst.EmptyLine]] = {}  # removed module-level statements' leading lines

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef):
        hits = {id(o) for o in original_node.decorators if self._hit(o)}
        if original_node.name.value in self.dead:
            self.gone[id(original_node)] = list(original_node.leading_lines)
            return cst.RemoveFromParent()
        if not hits:
            return updated_node
        decorators = [u for o, u in zip(original_node.decorators, updated_node.decorators) if id(o) not in hits]
        return updated_node.with_changes(decorators=decorators)

    def leave_SimpleStatementLine(self, original_node, updated_node):
        result = super().leave_SimpleStatementLine(original_node, updated_node)
        if isinstance(result, cst.RemovalSentinel):
            self.gone[id(original_node)] = list(original_node.leading_lines)
        return result

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        """At module level a removed statement's blank lines and comments (a section header
        above a removed handler) go to the next statement that stays."""
        out = list(updated_node.body)
        carry: list[cst.EmptyLine] | None = None
        j = 0
        for stmt in original_node.body:
            if id(stmt) in self.gone:
                if carry is None:
                    carry = self.gone[id(stmt)]
                continue
            if j >= len(out):
                break
            if carry is not None:
                has_comment = any(line.comment is not None for line in carry)
                if has_comment or not out[j].leading_lines:
                    out[j] = out[j].with_changes(leading_lines=carry)
            carry = None
            j += 1
        return updated_node.with_changes(body=out)


def apply(module: cst.Module, analysis: ModuleAnalysis, findings: list, config: Config):
    targets = {id(f.node) for f in findings if f.node is not None}
    dead: set[str] = set()
    for f in findings:
        if f.rule != "MCP402":
            continue
        name = f.data.get("handler")
        if not name or analysis.function_named(name) is None:
            continue
        fn = analysis.function_named(name)
        if fn is None or fn.class_name is not None:
            continue
        # the def itself, plus the registration unless it is the decorator on the def
        allowed = 1 if f.data.get("form") == "decorator" else 2
        if _uses(module, name) <= allowed:
            dead.add(name)
    dropper = _Dropper(targets, dead)
    new = module.visit(dropper)
    applied = [f for f in findings if id(f.node) in dropper.applied]
    return new, applied, []

"""The ``remove`` fix: registrations and fields that no longer exist in 2026-07-28 are deleted,
whatever the strategy.

- MCP103: ``server.notification_handlers[RootsListChangedNotification] = h``,
  ``Server(on_roots_list_changed=h)`` and ``add_notification_handler("notifications/roots/list_changed", h)``
  are removed (the notification is gone from the 2026-07-28 schema), and so is the handler
  function when nothing else in the module uses it.
- MCP104: ``listChanged`` is dropped from a roots capability (``RootsCapability(listChanged=True)``,
  ``{"roots": {"listChanged": True}}``): the 2026-07-28 ``RootsCapability`` is ``{}``.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.config import Config

STRATEGY = "remove"
ALWAYS = True
RULES = ("MCP103", "MCP104")


def _handler_name(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Assign):
        return get_full_name_for_node(node.value)
    if isinstance(node, cst.Arg):
        return get_full_name_for_node(node.value)
    if isinstance(node, cst.Call) and len(node.args) >= 2:
        return get_full_name_for_node(node.args[-1].value)
    return None


class _NameCounter(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.count += 1


def _uses(module: cst.Module, name: str) -> int:
    c = _NameCounter(name)
    module.visit(c)
    return c.count


class _Remover(cst.CSTTransformer):
    def __init__(self, targets: set[int], dead_functions: set[str]) -> None:
        self.targets = targets
        self.dead = dead_functions
        self.applied: set[int] = set()

    def _hit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.targets:
            self.applied.add(id(node))
            return True
        return False

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine):
        keep = []
        for orig, upd in zip(original_node.body, updated_node.body):
            if self._hit(orig):
                continue
            if isinstance(orig, cst.Expr) and self._hit(orig.value):
                continue
            if isinstance(orig, cst.Expr) and isinstance(orig.value, cst.Await) and self._hit(orig.value.expression):
                continue
            keep.append(upd)
        if len(keep) == len(updated_node.body):
            return updated_node
        if not keep:
            return cst.RemoveFromParent()
        return updated_node.with_changes(body=keep)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef):
        if original_node.name.value in self.dead:
            return cst.RemoveFromParent()
        return updated_node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        args = [u for o, u in zip(original_node.args, updated_node.args) if not self._hit(o)]
        if len(args) == len(updated_node.args):
            return updated_node
        if args:
            last = args[-1]
            orig_last = updated_node.args[-1]
            args[-1] = last.with_changes(comma=orig_last.comma if orig_last.comma is not cst.MaybeSentinel.DEFAULT else cst.MaybeSentinel.DEFAULT)
            if not isinstance(orig_last.comma, cst.Comma):
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(args=args)

    def leave_Dict(self, original_node: cst.Dict, updated_node: cst.Dict) -> cst.Dict:
        els = [u for o, u in zip(original_node.elements, updated_node.elements) if not self._hit(o)]
        if len(els) == len(updated_node.elements):
            return updated_node
        if els and not isinstance(updated_node.elements[-1].comma, cst.Comma):
            els[-1] = els[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(elements=els)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        if not updated_node.body:
            return updated_node.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated_node


def apply(module: cst.Module, analysis: ModuleAnalysis, findings: list, config: Config):
    targets = {id(f.node) for f in findings if f.node is not None}
    dead: set[str] = set()
    for f in findings:
        if f.rule != "MCP103" or f.node is None:
            continue
        name = _handler_name(f.node)
        if name and "." not in name and analysis.function_named(name) is not None:
            # uses: the def's own name and the registration
            if _uses(module, name) <= 2:
                dead.add(name)
    remover = _Remover(targets, dead)
    new = module.visit(remover)
    applied = [f for f in findings if id(f.node) in remover.applied]
    return new, applied, []

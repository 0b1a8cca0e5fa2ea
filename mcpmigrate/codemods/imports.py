"""Import hygiene after a fix: an import that the fix left unused is removed; nothing else is
touched (imports that were already unused before the fix stay, as the user wrote them)."""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node


class _Uses(cst.CSTVisitor):
    """Counts loads of each name outside import statements."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.in_import = 0

    def visit_Import(self, node: cst.Import) -> None:
        self.in_import += 1

    def leave_Import(self, original_node: cst.Import) -> None:
        self.in_import -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.in_import += 1

    def leave_ImportFrom(self, original_node: cst.ImportFrom) -> None:
        self.in_import -= 1

    def visit_Name(self, node: cst.Name) -> None:
        if not self.in_import:
            self.counts[node.value] = self.counts.get(node.value, 0) + 1

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        # names used in string annotations ("Context") and __all__ entries
        try:
            value = node.evaluated_value
        except Exception:
            return
        if isinstance(value, str) and value.replace(".", "").replace("_", "").isalnum():
            head = value.split(".")[0]
            self.counts[head] = self.counts.get(head, 0) + 1


def name_uses(module: cst.Module) -> dict[str, int]:
    v = _Uses()
    module.visit(v)
    return v.counts


class _Pruner(cst.CSTTransformer):
    def __init__(self, dead: set[str]) -> None:
        self.dead = dead
        self.removed: dict[int, list[cst.EmptyLine]] = {}

    @staticmethod
    def _local(alias: cst.ImportAlias) -> str:
        if alias.asname is not None:
            return get_full_name_for_node(alias.asname.name) or ""
        return (get_full_name_for_node(alias.name) or "").split(".")[0]

    def _prune(self, updated_node, names):
        keep = [a for a in names if self._local(a) not in self.dead]
        if len(keep) == len(names):
            return updated_node
        if not keep:
            return cst.RemoveFromParent()
        # the new last name takes the old last name's comma: none on one line, the trailing
        # comma (and the newline before the closing parenthesis) in a parenthesized list
        last_comma = names[-1].comma if isinstance(names[-1].comma, cst.Comma) else cst.MaybeSentinel.DEFAULT
        keep[-1] = keep[-1].with_changes(comma=last_comma)
        return updated_node.with_changes(names=keep)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import):
        return self._prune(updated_node, list(updated_node.names))

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        if isinstance(updated_node.names, cst.ImportStar) or updated_node.module is None:
            return updated_node
        if get_full_name_for_node(updated_node.module) == "__future__":
            return updated_node
        res = self._prune(updated_node, list(updated_node.names))
        if isinstance(res, cst.ImportFrom) and res is not updated_node and res.lpar is not None and len(res.names) == 1:
            # `from x import (a)` → keep parentheses only when multi-line layout needs them
            pass
        return res

    # A statement whose imports are all removed disappears; its leading blank lines and comments
    # go to the next statement when that one has none (the blank line that separated an import
    # group stays).
    def leave_SimpleStatementLine(self, original_node, updated_node):
        if not updated_node.body:
            self.removed[id(original_node)] = list(original_node.leading_lines)
            return cst.RemoveFromParent()
        return updated_node

    def _carry(self, original_body, updated_body):
        if not any(id(s) in self.removed for s in original_body):
            return updated_body
        out = list(updated_body)
        carry = None
        j = 0
        for stmt in original_body:
            if id(stmt) in self.removed:
                if carry is None:
                    carry = self.removed[id(stmt)]
                continue
            if j >= len(out):
                break
            if carry is not None and not out[j].leading_lines:
                out[j] = out[j].with_changes(leading_lines=carry)
            carry = None
            j += 1
        return out

    def leave_SimpleStatementSuite(self, original_node, updated_node):
        if not updated_node.body:
            return updated_node.with_changes(body=[cst.Pass()])
        return updated_node

    def leave_Module(self, original_node, updated_node):
        return updated_node.with_changes(body=self._carry(original_node.body, updated_node.body))

    def leave_IndentedBlock(self, original_node, updated_node):
        if not updated_node.body:
            return updated_node.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated_node.with_changes(body=self._carry(original_node.body, updated_node.body))


def prune_newly_unused(before: cst.Module, after: cst.Module) -> cst.Module:
    """Remove imports from ``after`` whose names ``before`` used and ``after`` no longer does."""
    used_before = name_uses(before)
    used_after = name_uses(after)
    dead = {n for n, c in used_before.items() if c > 0 and used_after.get(n, 0) == 0}
    if not dead:
        return after
    return after.visit(_Pruner(dead))

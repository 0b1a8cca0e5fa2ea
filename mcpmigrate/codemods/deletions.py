"""Deleting what a rule reported, recorded into an :class:`~mcpmigrate.codemods.edits.Edits`:
a statement (a registration, a bare call), a keyword argument, a dict entry, a decorator, and the
handler function nothing uses once its registration goes. Shared by the ``remove`` and ``drop``
fixes (the registrations, calls and fields that no longer exist in 2026-07-28).

A reported node is deleted only in the places listed here (a statement on a line of its own or
with others separated by ``;``, an argument of a call, an entry of a dict display, a decorator of a
function); anywhere else it stays. An argument or entry that goes leaves the commas readable
(``f(a, b)`` → ``f(a)``, a trailing comma in a one-per-line layout stays). The applier puts
``pass`` into a block left empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.names import name_nodes


def spellings(a: ModuleAnalysis, name: str) -> int:
    """How many ``Name`` nodes of the module spell ``name`` (definitions, references, attribute
    names and keywords alike): a handler is unused when only its ``def`` and the registration that
    goes spell it."""
    return sum(1 for n in name_nodes(a.module) if n.value == name)


def delete(edits: Edits, a: ModuleAnalysis, nodes: Iterable[cst.CSTNode],
           functions: Iterable[cst.FunctionDef] = (), keep_comments: bool = False) -> None:
    """Record the deletion of the reported ``nodes`` and of the unused handler ``functions``.

    With ``keep_comments``, the blank lines and comments above a module-level statement that goes
    (a section header above a removed handler) move to the next statement that stays."""
    pm = a.parents
    smalls: dict[int, tuple[cst.SimpleStatementLine, list[cst.CSTNode]]] = {}
    args: dict[int, tuple[cst.CSTNode, set[int]]] = {}
    gone: list[cst.SimpleStatementLine | cst.FunctionDef] = []  # statements: they have leading_lines
    for node in nodes:
        parent = pm.get(id(node))
        if isinstance(node, cst.Arg) and isinstance(parent, cst.Call) \
                or isinstance(node, cst.DictElement) and isinstance(parent, cst.Dict):
            args.setdefault(id(parent), (parent, set()))[1].add(id(node))
            continue
        if isinstance(node, cst.Decorator) and isinstance(parent, cst.FunctionDef):
            edits.remove(node)
            continue
        small: cst.CSTNode | None = node
        if isinstance(parent, cst.Await) and parent.expression is node:  # `await call(...)` on its own
            small, parent = parent, pm.get(id(parent))
        if isinstance(parent, cst.Expr) and parent.value is small:        # `call(...)` on its own
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


def _carry_leading_lines(original: cst.CSTNode, updated: cst.CSTNode, leading: dict[int, list[cst.EmptyLine]]) -> cst.Module:
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

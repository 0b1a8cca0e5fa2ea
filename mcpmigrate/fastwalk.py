"""A read-only traversal of libcst trees, several times cheaper than ``node.visit(visitor)``.

libcst's ``CSTNode.visit`` rebuilds every node it passes (``_visit_and_replace_children``
constructs a new dataclass per node, even for a read-only ``CSTVisitor``), and ``children`` is a
visit of its own. The analysis pass and the detectors only read the tree, so it is flattened
once here (:class:`Flat`) and each visitor is replayed over it: the same ``visit_<Type>`` /
``leave_<Type>`` hooks as ``CSTVisitor`` (``visit_*`` returning ``False`` skips the children), in
the same lexical order, without building anything; ``before_visit`` / ``after_leave`` take the
place of ``on_visit`` / ``on_leave`` overrides.

Trivia are not visited: whitespace, comments, empty lines, parentheses, commas and the other
punctuation fields (``FORMAT_FIELDS``). No rule reads them; a visitor that needs them must use
``node.visit``.

The lexical order of each node type's fields is read once from libcst's own
``_visit_and_replace_children`` (the order it visits them in); a type whose order cannot be read
falls back to libcst's ``children``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Iterator

import libcst as cst

FORMAT_FIELDS = frozenset(
    {
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "empty_lines",
        "lpar",
        "rpar",
        "lbrace",
        "rbrace",
        "lbracket",
        "rbracket",
        "comma",
        "trailing_comma",
        "semicolon",
        "colon",
        "first_colon",
        "second_colon",
        "equal",
        "dot",
        "trailing_whitespace",
        "leading_whitespace",
        "newline",
        "comment",
    }
)

_FIELD = re.compile(
    r'visit_(?:required|optional|sequence|sentinel|body_sequence|iterable|body_iterable)\(\s*self,\s*"(\w+)"'
)
_PLANS: dict[type[cst.CSTNode], tuple[str, ...] | None] = {}


def _plan(t: type[cst.CSTNode]) -> tuple[str, ...] | None:
    """The names of ``t``'s child fields in lexical order, trivia left out; ``None`` when libcst's
    source cannot be read (then ``children`` is used)."""
    try:
        return _PLANS[t]
    except KeyError:
        pass
    plan: tuple[str, ...] | None
    try:
        src = inspect.getsource(t._visit_and_replace_children)
        # dict.fromkeys: a field named in two branches (ImportFrom's `names`: star or list) once
        plan = tuple(
            dict.fromkeys(f for f in _FIELD.findall(src) if not f.startswith("whitespace") and f not in FORMAT_FIELDS)
        )
    except (OSError, TypeError):  # no source (a frozen or stripped install)
        plan = None
    _PLANS[t] = plan
    return plan


_NODE_TYPES: dict[type, bool] = {}  # type -> is a CSTNode (CSTNode is an ABC: isinstance is slow)
_SEQUENCES = (list, tuple)


def _is_node(t: type) -> bool:
    r = _NODE_TYPES.get(t)
    if r is None:
        r = _NODE_TYPES[t] = issubclass(t, cst.CSTNode)
    return r


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node``'s children in lexical order, trivia left out (cf. libcst ``CSTNode.children``)."""
    plan = _plan(type(node))
    if plan is None:
        return [c for c in node.children if not isinstance(c, _TRIVIA)]
    out: list[cst.CSTNode] = []
    for name in plan:
        v = getattr(node, name)
        t = type(v)
        if t in _SEQUENCES:
            out.extend(c for c in v if _is_node(type(c)))
        elif v is not None and _is_node(t):
            out.append(v)
    return out


_TRIVIA = (
    cst.BaseParenthesizableWhitespace,
    cst.EmptyLine,
    cst.TrailingWhitespace,
    cst.Newline,
    cst.Comment,
    cst.LeftParen,
    cst.RightParen,
    cst.Comma,
    cst.Semicolon,
)


def walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node of the subtree at ``node`` (pre-order, depth first, lexical order), ``node``
    included, trivia left out."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


class Flat:
    """A tree flattened once into pre-order: ``order[i]`` is a node, ``end[i]`` the index just
    past its subtree (``order[i:end[i]]`` is the subtree) and ``parents`` maps ``id(node)`` to
    its parent. Several visitors replay it (:meth:`visit`) without computing any node's
    children again: the analysis pass and every detector walk the same module."""

    __slots__ = ("order", "end", "parents", "_index", "_by_type")

    def __init__(self, root: cst.CSTNode) -> None:
        order: list[cst.CSTNode] = []
        end: list[int] = []
        parents: dict[int, cst.CSTNode] = {}
        # iterative: a node, or (after its subtree) the index of its slot in `end`
        stack: list[cst.CSTNode | int] = [root]
        while stack:
            item = stack.pop()
            if isinstance(item, int):
                end[item] = len(order)
                continue
            node = item
            i = len(order)
            order.append(node)
            end.append(i + 1)
            kids = children(node)
            if kids:
                stack.append(i)
                for k in reversed(kids):
                    parents[id(k)] = node
                    stack.append(k)
        self.order = order
        self.end = end
        self.parents = parents
        self._index: dict[int, int] | None = None  # id(node) -> position, built on first need
        self._by_type: dict[type, list[int]] | None = None

    def subtree(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """The nodes of ``node``'s subtree (``node`` first), or a fresh walk when ``node`` is
        not part of this tree."""
        if self._index is None:
            self._index = {id(n): i for i, n in enumerate(self.order)}
        i = self._index.get(id(node))
        if i is None or self.order[i] is not node:
            return list(walk(node))
        return self.order[i : self.end[i]]

    def by_type(self) -> dict[type, list[int]]:
        """``node type -> indexes (pre-order)`` of the nodes of that type, built on first need."""
        if self._by_type is None:
            by: dict[type, list[int]] = {}
            for i, n in enumerate(self.order):
                by.setdefault(type(n), []).append(i)
            self._by_type = by
        return self._by_type

    def of_types(self, types: Iterable[type]) -> list[int]:
        """Indexes (in pre-order) of the nodes whose type is one of ``types``."""
        by = self.by_type()
        return sorted(i for t in types for i in by.get(t, ()))

    def visit(self, visitor: cst.CSTVisitor) -> None:
        """Replay the tree into ``visitor`` as ``node.visit(visitor)`` would (same ``visit_<Type>`` /
        ``leave_<Type>`` hooks, same order), without rebuilding anything. Instead of overriding
        ``on_visit`` / ``on_leave``, a visitor may define ``before_visit(node)`` (called before the
        typed hook) and ``after_leave(node)`` (after it).

        Only the nodes of the types the visitor has hooks for are dispatched (the relative
        order of their ``visit_*`` and ``leave_*`` calls is the tree's). ``before_visit`` /
        ``after_leave`` run for every node, or only for those of the types in the visitor's
        ``GENERIC_HOOK_TYPES`` when it declares them."""
        vt = type(visitor)
        if not (vt.on_visit is cst.CSTVisitor.on_visit and vt.on_leave is cst.CSTVisitor.on_leave):
            raise TypeError(f"{vt.__name__} overrides on_visit/on_leave: use before_visit/after_leave")
        before = getattr(visitor, "before_visit", None)
        after = getattr(visitor, "after_leave", None)
        generic_types = getattr(visitor, "GENERIC_HOOK_TYPES", None)
        order, end = self.order, self.end
        if (before is None and after is None) or generic_types is not None:
            indexes: Iterable[int] = self.of_types(_hooked_types(vt, self) | set(generic_types or ()))
            generic = frozenset(generic_types or ())
        else:
            indexes = range(len(order))
            generic = None
        pending: list[tuple[int, cst.CSTNode, Callable | None, bool]] = []  # (end, node, leave, generic)
        skip_to = 0
        for i in indexes:
            if i < skip_to:
                continue  # inside a subtree a visit_* declined
            while pending and pending[-1][0] <= i:
                _e, done, leave, gen = pending.pop()
                if leave is not None:
                    leave(visitor, done)
                if gen and after is not None:
                    after(done)
            node = order[i]
            t = type(node)
            enter, leave = _hooks(vt, t)
            gen = generic is None or t in generic
            if gen and before is not None:
                before(node)
            if enter is not None and enter(visitor, node) is False:
                skip_to = end[i]
            if leave is not None or (gen and after is not None):
                pending.append((end[i], node, leave, gen))
        while pending:
            _e, done, leave, gen = pending.pop()
            if leave is not None:
                leave(visitor, done)
            if gen and after is not None:
                after(done)


def _hooked_types(vt: type, flat: Flat) -> set[type]:
    """The node types present in ``flat`` that visitor class ``vt`` has a ``visit_*`` or
    ``leave_*`` hook for."""
    return {t for t in flat.by_type() if _hooks(vt, t) != (None, None)}


_Hooks = tuple[Callable | None, Callable | None]
_HOOKS: dict[tuple[type, type], _Hooks] = {}


def _hooks(vt: type, t: type) -> _Hooks:
    key = (vt, t)
    h = _HOOKS.get(key)
    if h is None:
        name = t.__name__
        h = _HOOKS[key] = (getattr(vt, f"visit_{name}", None), getattr(vt, f"leave_{name}", None))
    return h

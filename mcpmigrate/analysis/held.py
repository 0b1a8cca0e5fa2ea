"""What is held and handed on: containers filled with sessions or contexts (``registry.add(
ctx.session)``, ``reg[sid] = session``, a queue's ``put``), annotated containers and attributes
(``watchers: WeakSet[ServerSession]``, ``self.session: Optional[ServerSession]``), the elements
read back (``for s in list(reg)``, ``reg.values()``, ``for sid, s in reg.items()``,
comprehensions, ``reg.get(sid)``), attributes of other objects (``state.session = ctx.session``),
and functions started as tasks with their arguments (``tg.start_soon(fn, ctx.session)``;
``surfaces.TASK_STARTERS``).

:class:`Held` is the part of :class:`~mcpmigrate.analysis.kinds.Kinds` that types these; the
fixed point of :mod:`~mcpmigrate.analysis.module` runs :meth:`Held.infer_receivers` each round and
follows :meth:`Held.calls_of`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis.facts import Facts, FunctionInfo

if TYPE_CHECKING:
    from mcpmigrate.analysis.kinds import Kind

# (container or loop target, value or iterable, the function it is in)
Store = tuple[cst.BaseExpression, cst.BaseExpression, "FunctionInfo | None"]


class Held(Facts):
    """Kinds of what containers, attributes and started tasks hold."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(module)
        # what containers hold (``registry.add(ctx.session)``, ``self.sessions[sid] = session``,
        # ``watchers: WeakSet[ServerSession]``), keyed by :meth:`container_key`
        self.container_kinds: dict[str, Kind] = {}
        # containers annotated with elements of a type that is not an MCP one (``set[Client]``)
        self.other_containers: set[str] = set()
        # attributes of other objects assigned a kind anywhere (``state.session = ctx.session``)
        self.dotted_kinds: dict[str, Kind] = {}
        self._spawns: dict[int, list[cst.Call]] = {}
        self._loops: list[Store] | None = None
        self._stores: list[Store] | None = None

    if TYPE_CHECKING:  # Kinds' and CallGraph's, around this class in ModuleAnalysis' MRO

        def kind_of(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> Kind | None: ...

        def kind_of_annotation(self, ann: cst.BaseExpression) -> Kind | None: ...

        def element_kind(self, ann: cst.BaseExpression) -> tuple[bool, Kind | None]: ...

        def enclosing_function(self, node: cst.CSTNode) -> FunctionInfo | None: ...

    def container_key(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> str | None:
        """The name a container is known by: ``registry`` (module level), ``fn.<locals>.registry``
        (assigned in ``fn`` or a function around it), ``Class.attr`` for ``self.attr`` (the class
        of ``fn``), ``state.sessions`` for another attribute chain."""
        if isinstance(expr, cst.Name):
            # a function's own container (assigned there) is not another function's of that name
            scope = fn
            while scope is not None:
                if any(n == expr.value for n, _v in scope.assigns):
                    return f"{scope.qualname}.<locals>.{expr.value}"
                scope = scope.parent
            return expr.value
        if isinstance(expr, cst.Attribute):
            if isinstance(expr.value, cst.Name) and expr.value.value in ("self", "cls"):
                cls = self._class_of(fn)
                return f"{cls}.{expr.attr.value}" if cls else None
            return get_full_name_for_node(expr)
        return None

    def _class_of(self, fn: FunctionInfo | None) -> str | None:
        scope = fn
        while scope is not None:
            if scope.class_name:
                return scope.class_name
            scope = scope.parent
        return None

    def unwrap_container(self, expr: cst.BaseExpression) -> cst.BaseExpression:
        """The container under ``list(x)``, ``sorted(x)``, ``x.copy()``, ``x.values()``."""
        while isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Name) and func.value in S.CONTAINER_VIEWS and expr.args:
                expr = expr.args[0].value
            elif isinstance(func, cst.Attribute) and func.attr.value in ("copy", "values") and not expr.args:
                expr = func.value
            else:
                break
        return expr

    def element_of(self, container: cst.BaseExpression, fn: FunctionInfo | None) -> Kind | None:
        """The kind of the elements of ``container`` (see :meth:`unwrap_container`)."""
        container = self.unwrap_container(container)
        key = self.container_key(container, fn)
        if key is None:
            return None
        k = self.container_kinds.get(key)
        if k is None and isinstance(container, cst.Name):
            k = self.elem_kinds.get(container.value)
        return k

    def holds_other(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """``expr`` is an element of a container annotated with a non-MCP element type."""
        if isinstance(expr, cst.Subscript):
            key = self.container_key(self.unwrap_container(expr.value), fn)
            return key in self.other_containers
        if isinstance(expr, cst.Name):  # `for c in clients:` — the loop target's value
            scope = fn
            while scope is not None:
                values = [v for n, v in scope.assigns if n == expr.value]
                if values:
                    return all(isinstance(v, cst.Subscript) and self.holds_other(v, scope) for v in values)
                scope = scope.parent
            values = [v for n, v in self.module_assigns if n == expr.value]
            return bool(values) and all(isinstance(v, cst.Subscript) and self.holds_other(v, None) for v in values)
        return False

    def framework_imported(self) -> bool:
        """The module imports a framework built on the SDK (``surfaces.FRAMEWORK_SESSION_ATTRS``,
        ``surfaces.FRAMEWORK_CLASSES``)."""
        packages = set(S.FRAMEWORK_SESSION_ATTRS) | {q.split(".", 1)[0] for q in S.FRAMEWORK_CLASSES}
        return any(v.split(".", 1)[0] in packages for v in self.imports.values())

    def _framework_session_attrs(self) -> frozenset[str]:
        found: frozenset[str] = frozenset()
        for package, attrs in S.FRAMEWORK_SESSION_ATTRS.items():
            if any(v == package or v.startswith(package + ".") for v in self.imports.values()):
                found |= attrs
        return found

    def calls_of(self, f: FunctionInfo) -> list[cst.Call]:
        """The calls in ``f``, plus one call per function handed to a task starter with its
        arguments (``tg.start_soon(beat, ctx.session, 5)`` counts as ``beat(ctx.session, 5)``;
        ``surfaces.TASK_STARTERS``)."""
        spawned = self._spawns.get(id(f))
        if spawned is None:
            spawned = self._spawns[id(f)] = []
            for call in f.calls:
                func = call.func
                name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
                at = S.TASK_STARTERS.get(name) if isinstance(name, str) else None
                positional = [a for a in call.args if a.keyword is None and not a.star]
                if at is None or len(positional) <= at + 1 or any(a.star for a in call.args):
                    continue
                target = positional[at].value
                if isinstance(target, (cst.Name, cst.Attribute)):
                    spawned.append(cst.Call(func=target, args=positional[at + 1 :]))
        return f.calls + spawned if spawned else f.calls

    def infer_receivers(self) -> bool:
        """One round of typing what is held: containers filled with sessions or contexts (and
        annotated ones), elements read back in loops and comprehensions (``for sid, s in
        reg.items()``), attributes annotated ``self.session: Optional[ServerSession]``. Returns
        whether anything changed (the fixed point in :mod:`~mcpmigrate.analysis.module` repeats)."""
        changed = False
        if self._stores is None:
            changed = self._read_annotations()
            self._stores, self._loops = self._collect_stores()
        for container, value, fn in self._stores:
            k = self.kind_of(value, fn)
            key = self.container_key(container, fn)
            if k is not None and key is not None and self.container_kinds.get(key) != k:
                self.container_kinds[key] = k
                changed = True
        for target, iterable, fn in self._loops or ():
            changed |= self._type_loop_target(target, iterable, fn)
        for name, value, scope in self._dotted_assigns():
            k = self.kind_of(value, scope)
            if k is not None and self.dotted_kinds.get(name) != k:
                self.dotted_kinds[name] = k
                changed = True
        return changed

    def _dotted_assigns(self) -> Iterator[tuple[str, cst.BaseExpression, FunctionInfo | None]]:
        """``state.session = ctx.session`` (not ``self.…``: those are the class's attributes)."""
        for name, value in self.module_assigns:
            if "." in name:
                yield name, value, None
        for f in self.functions:
            for name, value in f.assigns:
                if "." in name and not name.startswith(("self.", "cls.")):
                    yield name, value, f

    def _collect_stores(self) -> tuple[list[Store], list[Store]]:
        stores: list[Store] = []
        loops: list[Store] = []
        for f in self.functions:
            for call in f.calls:
                func = call.func
                if isinstance(func, cst.Attribute) and func.attr.value in S.CONTAINER_PUTS:
                    positional = [a for a in call.args if a.keyword is None and not a.star]
                    if positional:
                        stores.append((func.value, positional[-1].value, f))
        order = self.flat.order
        for i in self.flat.of_types((cst.Assign, cst.For, cst.CompFor)):
            node = order[i]
            if isinstance(node, cst.Assign):
                for t in node.targets:
                    if isinstance(t.target, cst.Subscript):  # registry[sid] = ctx.session
                        stores.append((t.target.value, node.value, self.enclosing_function(node)))
            elif isinstance(node, cst.CompFor) or (isinstance(node, cst.For) and not isinstance(node.target, cst.Name)):
                # tuple targets (`for sid, s in reg.items()`) and comprehensions (`for s in reg`)
                loops.append((node.target, node.iter, self.enclosing_function(node)))
        return stores, loops

    def _type_loop_target(
        self, target: cst.BaseExpression, iterable: cst.BaseExpression, fn: FunctionInfo | None
    ) -> bool:
        """``for s in reg`` (a comprehension), ``for sid, s in reg.items()``, ``for i, s in
        enumerate(reg)``: the element's name gets the container's element kind."""
        name: cst.BaseExpression | None = target
        source = iterable
        if isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            if len(elements) != 2 or not isinstance(iterable, cst.Call):
                return False
            func = iterable.func
            if isinstance(func, cst.Attribute) and func.attr.value == "items":
                source = func.value
            elif isinstance(func, cst.Name) and func.value == "enumerate" and iterable.args:
                source = iterable.args[0].value
            else:
                return False
            name = elements[1]
        if not isinstance(name, cst.Name):
            return False
        k = self.element_of(source, fn)
        kinds = fn.kinds if fn is not None else self.module_kinds
        if k is not None and kinds.get(name.value) != k:
            kinds[name.value] = k
            return True
        return False

    def _read_annotations(self) -> bool:
        """Annotated attributes and containers: ``self.session: Optional[ServerSession]``, a class
        field ``session: ServerSession``, ``watchers: "WeakSet[ServerSession]"``, a parameter
        ``sessions: list[ServerSession]`` (once: annotations do not change)."""
        changed = False
        for f in self.functions:
            for p in f.params:
                if p.annotation is not None:
                    changed |= self._note_container(p.name.value, p.annotation.annotation)
        order = self.flat.order
        for i in self.flat.of_types((cst.AnnAssign,)):
            node = order[i]
            assert isinstance(node, cst.AnnAssign)
            fn = self.enclosing_function(node)
            ann = node.annotation.annotation
            target = node.target
            cls = None
            if (
                isinstance(target, cst.Attribute)
                and isinstance(target.value, cst.Name)
                and target.value.value == "self"
            ):
                cls, attr = self._class_of(fn), target.attr.value
            elif isinstance(target, cst.Name) and fn is None:
                cls, attr = self._class_around(node), target.value
            elif isinstance(target, cst.Name):  # a local: `seen: set[ServerSession] = set()`
                changed |= self._note_container(self.container_key(target, fn) or target.value, ann)
                continue
            else:
                continue
            key = f"{cls}.{attr}" if cls else attr
            changed |= self._note_container(key, ann)
            k = self.kind_of_annotation(ann)
            if k is None:
                continue
            if cls:
                if self.class_kinds.setdefault(cls, {}).get(attr) != k:
                    self.class_kinds[cls][attr] = k
                    changed = True
            elif self.module_kinds.get(attr) != k:
                self.module_kinds[attr] = k
                changed = True
        return changed

    def _note_container(self, key: str, ann: cst.BaseExpression) -> bool:
        is_container, k = self.element_kind(ann)
        if not is_container:
            return False
        if k is None:
            self.other_containers.add(key)
            return False
        if self.container_kinds.get(key) != k:
            self.container_kinds[key] = k
            return True
        return False

    def _class_around(self, node: cst.CSTNode) -> str | None:
        cur = self.parents.get(id(node))
        while cur is not None:
            if isinstance(cur, cst.ClassDef):
                return cur.name.value
            if isinstance(cur, (cst.FunctionDef, cst.Module)):
                return None
            cur = self.parents.get(id(cur))
        return None

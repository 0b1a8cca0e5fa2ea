"""What an expression is, as far as MCP is concerned: a context, a request context, a session, a
high-level or low-level server (:class:`Kind`) — from annotations, constructors, attribute
chains (``ctx.session``, ``ctx.request_context``, ``server._mcp_server``) and the kinds the
fixed point gave to names — and which SDK generation (mcp 1.x, mcp 2.x, fastmcp) a module, a
server or a context belongs to.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import TYPE_CHECKING

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis.facts import Facts, FunctionInfo


class Kind(str, Enum):
    """What an expression is, as far as MCP is concerned."""

    CONTEXT_MCP1 = "mcp1-context"  # mcp 1.x FastMCP Context
    CONTEXT_MCP2 = "mcp2-context"  # mcp 2.x MCPServer Context
    CONTEXT_FASTMCP = "fastmcp-context"  # fastmcp Context (has list_roots/sample in 2.x/3.x)
    LL_CONTEXT = "request-context"  # 1.x RequestContext / 2.x ServerRequestContext
    SESSION = "session"  # ServerSession
    SERVER_HL = "server"  # FastMCP / MCPServer / fastmcp.FastMCP instance
    SERVER_LL = "lowlevel-server"  # low-level Server instance


CONTEXTS = {Kind.CONTEXT_MCP1, Kind.CONTEXT_MCP2, Kind.CONTEXT_FASTMCP}


def annotation_names(ann: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """Candidate type expressions inside an annotation: ``X``, ``X[...]``, ``X | None``,
    ``Optional[X]``, ``Annotated[X, ...]``, ``"X"``."""
    if isinstance(ann, cst.BinaryOperation):
        yield from annotation_names(ann.left)
        yield from annotation_names(ann.right)
    elif isinstance(ann, cst.Subscript):
        yield ann.value
        head = get_full_name_for_node(ann.value) or ""
        if head.split(".")[-1] in ("Optional", "Annotated", "Union"):
            for el in ann.slice:
                if isinstance(el.slice, cst.Index):
                    yield from annotation_names(el.slice.value)
                if head.endswith("Annotated"):
                    break
    elif isinstance(ann, cst.SimpleString):
        try:
            inner = cst.parse_expression(ann.evaluated_value)  # type: ignore[arg-type]  # bytes parse too
        except Exception:
            return
        yield from annotation_names(inner)
    else:
        yield ann


def _container_annotations(ann: cst.BaseExpression) -> Iterator[cst.Subscript]:
    """The subscripted types in an annotation, through ``Optional``/``Union``/``X | None`` and
    string annotations (``"weakref.WeakSet[ServerSession]"``)."""
    if isinstance(ann, cst.BinaryOperation):
        yield from _container_annotations(ann.left)
        yield from _container_annotations(ann.right)
    elif isinstance(ann, cst.SimpleString):
        try:
            inner = cst.parse_expression(ann.evaluated_value)  # type: ignore[arg-type]
        except Exception:
            return
        yield from _container_annotations(inner)
    elif isinstance(ann, cst.Subscript):
        head = (get_full_name_for_node(ann.value) or "").rsplit(".", 1)[-1]
        if head in ("Optional", "Union", "Annotated"):
            for el in ann.slice:
                if isinstance(el.slice, cst.Index):
                    yield from _container_annotations(el.slice.value)
                if head == "Annotated":
                    break
        else:
            yield ann


# The SDK classes an annotation can name, in the order they are tried (surfaces.py holds the names
# per SDK generation).
_ANNOTATION_KINDS = (
    (S.MCP_CONTEXT_V1, Kind.CONTEXT_MCP1),
    (S.MCP_CONTEXT_V2, Kind.CONTEXT_MCP2),
    (S.FASTMCP_CONTEXT, Kind.CONTEXT_FASTMCP),
    (S.LOWLEVEL_CONTEXT, Kind.LL_CONTEXT),
    (S.SESSION_TYPES, Kind.SESSION),
    (S.HIGH_LEVEL_SERVERS, Kind.SERVER_HL),
    (S.LOWLEVEL_SERVERS, Kind.SERVER_LL),
)


class Kinds(Facts):
    """The typing half of :class:`~mcpmigrate.analysis.ModuleAnalysis`: kinds and generations
    read from the collected facts."""

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
        self._loops: list[tuple[cst.BaseExpression, cst.BaseExpression, FunctionInfo | None]] | None = None
        self._stores: list[tuple[cst.BaseExpression, cst.BaseExpression, FunctionInfo | None]] | None = None

    if TYPE_CHECKING:  # CallGraph's, next in ModuleAnalysis' MRO

        def enclosing_function(self, node: cst.CSTNode) -> FunctionInfo | None: ...

    def kind_of_annotation(self, ann: cst.BaseExpression) -> Kind | None:
        """The kind of the first SDK class an annotation names (``Optional``, ``Annotated``,
        unions and string annotations are looked into)."""
        for cand in annotation_names(ann):
            k = self._kind_of_class(self.qualname(cand))
            if k is not None:
                return k
        return None

    def _kind_of_class(self, q: str | None, depth: int = 0) -> Kind | None:
        """The kind of instances of the class ``q`` names: an SDK class, a framework class built
        on one (``surfaces.FRAMEWORK_CLASSES``), or a class of this module subclassing either."""
        if q is None or depth > 5:
            return None
        q = S.FRAMEWORK_CLASSES.get(q, q)
        for names, kind in _ANNOTATION_KINDS:
            if q in names:
                return kind
        for base in self.class_bases.get(q, ()):
            k = self._kind_of_class(base, depth + 1)
            if k is not None:
                return k
        return None

    def element_kind(self, ann: cst.BaseExpression) -> tuple[bool, Kind | None]:
        """For a container annotation (``set[ServerSession]``, ``dict[str, ServerSession]``,
        ``"weakref.WeakSet[ServerSession]"``, ``Optional[list[X]]``): whether it is one, and the
        kind of its elements (None: not an MCP object)."""
        for cand in _container_annotations(ann):
            head = (get_full_name_for_node(cand.value) or "").rsplit(".", 1)[-1]
            if head in S.CONTAINER_TYPES and cand.slice:
                last = cand.slice[-1].slice
                if isinstance(last, cst.Index):
                    return True, self.kind_of_annotation(last.value)
        return False, None

    def framework_methods(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> dict[str, str]:
        """The request-pushing methods a framework adds to the context ``expr`` is annotated as
        (``surfaces.FRAMEWORK_CONTEXT_METHODS``; a parameter of ``fn`` or an enclosing function)."""
        if not isinstance(expr, cst.Name):
            return {}
        scope = fn
        while scope is not None:
            for p in scope.params:
                if p.name.value == expr.value and p.annotation is not None:
                    for cand in annotation_names(p.annotation.annotation):
                        q = self.qualname(cand)
                        for _ in range(5):  # a subclass in this module
                            if q in S.FRAMEWORK_CONTEXT_METHODS or q not in self.class_bases:
                                break
                            q = next(iter(self.class_bases[q]), None)
                        if q in S.FRAMEWORK_CONTEXT_METHODS:
                            return S.FRAMEWORK_CONTEXT_METHODS[q]
                    return {}
            scope = scope.parent
        return {}

    def _constructed_kind(self, call: cst.Call) -> Kind | None:
        q = self.qualname(call.func)
        if q is None:
            return None
        q = S.FRAMEWORK_CLASSES.get(q, q)
        if q in S.HIGH_LEVEL_SERVERS:
            return Kind.SERVER_HL
        if q in S.LOWLEVEL_SERVERS:
            return Kind.SERVER_LL
        # subclasses of SDK servers defined in this module
        short = q.split(".")[-1]
        if short in self.class_bases:
            for base in self.class_bases[short]:
                if base in S.HIGH_LEVEL_SERVERS:
                    return Kind.SERVER_HL
                if base in S.LOWLEVEL_SERVERS:
                    return Kind.SERVER_LL
        return None

    def lookup(self, name: str, fn: FunctionInfo | None) -> Kind | None:
        scope = fn
        while scope is not None:
            if name in scope.kinds:
                return scope.kinds[name]
            if name == "self" and scope.class_name:
                # a method of an SDK server subclass: self is the server
                if self._class_is(scope.class_name, S.HIGH_LEVEL_SERVERS):
                    return Kind.SERVER_HL
                if self._class_is(scope.class_name, S.LOWLEVEL_SERVERS):
                    return Kind.SERVER_LL
            scope = scope.parent
        return self.module_kinds.get(name)

    def kind_of(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> Kind | None:
        """The MCP kind of ``expr`` evaluated inside ``fn`` (None: not an MCP object we know)."""
        if isinstance(expr, cst.Await):
            return self.kind_of(expr.expression, fn)
        if isinstance(expr, cst.Name):
            return self.lookup(expr.value, fn)
        if isinstance(expr, cst.Attribute):
            attr = expr.attr.value
            if isinstance(expr.value, cst.Name) and expr.value.value in ("self", "cls") and fn is not None:
                cls_name = fn.class_name
                scope: FunctionInfo | None = fn
                while cls_name is None and scope is not None:
                    scope = scope.parent
                    cls_name = scope.class_name if scope else None
                if cls_name and attr in self.class_kinds.get(cls_name, {}):
                    return self.class_kinds[cls_name][attr]
                if cls_name and self._class_is(cls_name, S.HIGH_LEVEL_SERVERS) and attr == "_mcp_server":
                    return Kind.SERVER_LL
            if attr in self._framework_session_attrs():
                return Kind.SESSION
            if self.dotted_kinds:
                dotted = self.dotted_kinds.get(get_full_name_for_node(expr) or "")
                if dotted is not None:
                    return dotted
            base = self.kind_of(expr.value, fn)
            if attr == "session":
                if base in CONTEXTS or base is Kind.LL_CONTEXT:
                    return Kind.SESSION
                if base is None and self._looks_like_context(expr.value):
                    return Kind.SESSION
            if attr == "request_context" and base in (CONTEXTS | {Kind.SERVER_LL}):
                return Kind.LL_CONTEXT
            if attr in ("_mcp_server", "_lowlevel_server") and base is Kind.SERVER_HL:
                return Kind.SERVER_LL
            if attr in ("ctx", "context") and base is Kind.LL_CONTEXT:
                return base
            return None
        if isinstance(expr, cst.Subscript):
            # an element of a container: SESSIONS[0], registry[sid], or a for-loop target over it
            return self.element_of(expr.value, fn)
        if isinstance(expr, cst.Call):
            func = expr.func
            if isinstance(func, cst.Attribute) and func.attr.value in ("get", "pop"):
                k = self.element_of(func.value, fn)  # registry.get(sid)
                if k is not None:
                    return k
            q = self.qualname(func)
            if q in S.GET_CONTEXT_FUNCTIONS:
                return Kind.CONTEXT_FASTMCP
            if isinstance(func, cst.Attribute):
                recv = self.kind_of(func.value, fn)
                if func.attr.value == "get_context" and recv is Kind.SERVER_HL:
                    gen = self.generation_of_server_expr(func.value, fn)
                    return {S.MCP2: Kind.CONTEXT_MCP2, S.FASTMCP: Kind.CONTEXT_FASTMCP}.get(
                        gen or "", Kind.CONTEXT_MCP1
                    )
                if func.attr.value == "get" and self.resolves_to(func.value, S.REQUEST_CTX_VARS):
                    return Kind.LL_CONTEXT
            return self._constructed_kind(expr)
        return None

    # -- receivers held in containers, attributes and started tasks ------------------------------
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

    def _collect_stores(
        self,
    ) -> tuple[
        list[tuple[cst.BaseExpression, cst.BaseExpression, FunctionInfo | None]],
        list[tuple[cst.BaseExpression, cst.BaseExpression, FunctionInfo | None]],
    ]:
        stores: list[tuple[cst.BaseExpression, cst.BaseExpression, FunctionInfo | None]] = []
        loops: list[tuple[cst.BaseExpression, cst.BaseExpression, FunctionInfo | None]] = []
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

    def _looks_like_context(self, expr: cst.BaseExpression) -> bool:
        """An unannotated receiver that is conventionally an MCP context (``ctx.session`` in a
        module that imports MCP), used only for ``.session`` chains."""
        if not self.imports_mcp():
            return False
        if isinstance(expr, cst.Name):
            return expr.value in S.CONTEXT_NAMES
        if isinstance(expr, cst.Attribute):
            return expr.attr.value in ("request_context", "ctx", "context")
        return False

    def _class_is(self, cls_name: str, names: set[str]) -> bool:
        return any(b in names for b in self.class_bases.get(cls_name, ()))

    # -- generations -------------------------------------------------------------------------
    def generation_of_server_expr(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> str | None:
        name = get_full_name_for_node(expr)
        if name and name in self.server_generation:
            return self.server_generation[name]
        if self.generations:
            return sorted(self.generations)[0] if len(self.generations) == 1 else None
        return None

    def generation_of_kind(self, kind: Kind | None) -> str | None:
        if kind is None:
            return None
        return {Kind.CONTEXT_MCP1: S.MCP1, Kind.CONTEXT_MCP2: S.MCP2, Kind.CONTEXT_FASTMCP: S.FASTMCP}.get(kind)

    def module_generation(self) -> str | None:
        """The SDK generation the module is written for, when its imports say so unambiguously."""
        if len(self.generations) == 1:
            return next(iter(self.generations))
        return None

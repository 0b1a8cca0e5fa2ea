"""What an expression is, as far as MCP is concerned: a context, a request context, a session, a
high-level or low-level server (:class:`Kind`) — from annotations, constructors, attribute
chains (``ctx.session``, ``ctx.request_context``, ``server._mcp_server``) and the kinds the
fixed point gave to names — and which SDK generation (mcp 1.x, mcp 2.x, fastmcp) a module, a
server or a context belongs to.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis.facts import FunctionInfo
from mcpmigrate.analysis.held import Held
from mcpmigrate.files import read_regular


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

# Annotations that say nothing about what a parameter holds: the callers' arguments decide.
UNKNOWN_TYPES = frozenset({"typing.Any", "Any", "typing_extensions.Any", "object", "builtins.object"})


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


#: (path, mtime_ns, size) -> {class name: its bases, as qualified names}
_CLASSES: dict[tuple[str, int, int], dict[str, list[str]]] = {}


def _module_file(start: Path, module: str) -> Path | None:
    """The file of the absolute module ``module`` in the project holding ``start``: looked for in
    ``start``'s directory and its parents (and their ``src/``), nearest first."""
    parts = module.split(".")
    for d in [start.parent, *start.parent.parents][:8]:
        for base in (d, d / "src"):
            for f in (base.joinpath(*parts[:-1], parts[-1] + ".py"), base.joinpath(*parts, "__init__.py")):
                if f.is_file():
                    return f
    return None


def _classes_of(f: Path) -> dict[str, list[str]]:
    """The classes of the module ``f`` with their bases resolved through its imports (absolute
    names; a relative import resolved against ``f``'s package)."""
    try:
        st = f.stat()
        key = (str(f), st.st_mtime_ns, st.st_size)
        if key in _CLASSES:
            return _CLASSES[key]
        tree = ast.parse(read_regular(f, limit=2_000_000))
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return {}
    package = f.parent if f.name != "__init__.py" else f.parent
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.parent
                mod = f"{_dotted_path(anchor)}.{mod}" if mod else _dotted_path(anchor)
            for al in node.names:
                names[al.asname or al.name] = f"{mod}.{al.name}"
        elif isinstance(node, ast.Import):
            for al in node.names:
                names[al.asname or al.name.split(".")[0]] = al.name if al.asname else al.name.split(".")[0]
    out: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = []
            for b in node.bases:
                text = ast.unparse(b)
                head, _, rest = text.partition(".")
                bases.append(f"{names[head]}.{rest}" if head in names and rest else names.get(head, text))
            out[node.name] = bases
    _CLASSES[key] = out
    return out


def _dotted_path(d: Path) -> str:
    """The dotted package name of the directory ``d`` (up while ``__init__.py`` is there)."""
    parts = []
    while (d / "__init__.py").is_file() and d.parent != d:
        parts.append(d.name)
        d = d.parent
    return ".".join(reversed(parts))


def project_class_bases(path: Path | None, q: str) -> list[str]:
    """The bases of the class ``q`` (``pkg.ctx.ShopContext``, or ``.ctx.ShopContext`` relative to
    ``path``'s package) when a module of the project defines it: a project's Context subclass in
    another module is a context too (issue 25, receivers)."""
    f = _project_module(path, q)
    return _classes_of(f).get(q.rpartition(".")[2], []) if f is not None else []


#: (path, mtime_ns, size) -> {module-level name: the qualified name of the class it is built from}
_BUILT: dict[tuple[str, int, int], dict[str, str]] = {}


def project_instance_class(path: Path | None, q: str) -> str | None:
    """The qualified name of the class the module-level ``x = Class(...)`` of another module of
    the project builds, for ``q`` the name imported from it (``app.mcp``, or ``.app.mcp`` relative
    to ``path``'s package): ``mcp.server.fastmcp.FastMCP`` for ``mcp = FastMCP("x")`` there (a
    server built in one module and used in others, e.g. ``mcp.get_context()`` in a helper)."""
    f = _project_module(path, q)
    if f is None:
        return None
    try:
        st = f.stat()
        key = (str(f), st.st_mtime_ns, st.st_size)
        if key not in _BUILT:
            _BUILT[key] = _built_of(ast.parse(read_regular(f, limit=2_000_000)), f)
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return None
    return _BUILT[key].get(q.rpartition(".")[2])


def _project_module(path: Path | None, q: str) -> Path | None:
    """The file of the module ``q``'s name is imported from (``q`` without its last part)."""
    if path is None:
        return None
    module, _, name = q.rpartition(".")
    if not module or not name:
        return None
    if module.startswith("."):
        level = len(module) - len(module.lstrip("."))
        anchor = Path(path).parent
        for _ in range(level - 1):
            anchor = anchor.parent
        rest = module.lstrip(".").split(".") if module.lstrip(".") else []
        f: Path | None = anchor.joinpath(*rest[:-1], rest[-1] + ".py") if rest else anchor / "__init__.py"
        if f is not None and not f.is_file() and rest:
            f = anchor.joinpath(*rest, "__init__.py")
    else:
        f = _module_file(Path(path), module)
    if f is None or not f.is_file() or os.path.realpath(f) == os.path.realpath(path):
        return None
    return f


def _built_of(tree: ast.Module, f: Path) -> dict[str, str]:
    """``{name: qualified class}`` of the module-level ``name = Class(...)`` of ``tree`` whose class
    it imports by name (``from mcp.server.fastmcp import FastMCP``) or as a module attribute."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for al in node.names:
                names[al.asname or al.name] = f"{node.module}.{al.name}"
        elif isinstance(node, ast.Import):
            for al in node.names:
                names[al.asname or al.name.split(".")[0]] = al.name if al.asname else al.name.split(".")[0]
    out: dict[str, str] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Call):
            head, _, rest = ast.unparse(value.func).partition(".")
            if head in names:
                out[target.id] = f"{names[head]}.{rest}" if rest else names[head]
    return out


class Kinds(Held):
    """The typing half of :class:`~mcpmigrate.analysis.ModuleAnalysis`: kinds and generations
    read from the collected facts (what is held in containers and handed to tasks:
    :class:`~mcpmigrate.analysis.held.Held`)."""

    def kind_of_annotation(self, ann: cst.BaseExpression) -> Kind | None:
        """The kind of the first SDK class an annotation names (``Optional``, ``Annotated``,
        unions and string annotations are looked into)."""
        for cand in annotation_names(ann):
            k = self._kind_of_class(self.qualname_of_class(cand))
            if k is not None:
                return k
        return None

    def says_nothing(self, ann: cst.BaseExpression) -> bool:
        """An annotation that does not say what a parameter is (``Any``, ``object``, ``"Any"``,
        ``Any | None``, ``Optional[Any]``): what a caller passes types it, as if unannotated."""
        return all(
            q in UNKNOWN_TYPES or q == "None" or q.rsplit(".", 1)[-1] in ("Optional", "Union")
            for q in (self.qualname(cand) or "?" for cand in annotation_names(ann))
        )

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
        if q not in self.class_bases and "." in q and not q.startswith(("mcp.", "fastmcp.", "typing.")):
            for base in project_class_bases(self.path, q):
                k = self._kind_of_class(base, depth + 1)
                if k is not None:
                    return k
        return None

    def qualname_of_class(self, expr: cst.BaseExpression) -> str | None:
        """:meth:`qualname`, and a class imported relatively (``from .ctx import ShopContext``)
        as ``.ctx.ShopContext`` (one dot per level)."""
        name = get_full_name_for_node(expr)
        if name and name.partition(".")[0] in self.relative_imports:
            head, _, rest = name.partition(".")
            level, target = self.relative_imports[head]
            return "." * level + target + (f".{rest}" if rest else "")
        return self.qualname(expr)

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
        found = self.framework_context(expr, fn)
        return S.FRAMEWORK_CONTEXT_METHODS[found[0]] if found else {}

    def framework_context(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> tuple[str, str] | None:
        """(the framework context's qualname, the annotation's name) when ``expr`` is a parameter of
        ``fn`` or an enclosing function annotated as a framework's context or a subclass of it in
        this module (``ShopContext(mcp_use.server.Context)``)."""
        if not isinstance(expr, cst.Name):
            return None
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
                            return q, get_full_name_for_node(cand) or q
                    return None
            scope = scope.parent
        return None

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
                # a method of a Context subclass (a project's or a framework's wrapper around the
                # SDK context): `self.session.send_tool_list_changed()` is the session's push
                own = self._context_classes().get(scope.class_name)
                if own is not None:
                    return own
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
            if isinstance(func, cst.Name) and func.value == "super" and not expr.args:
                return self._super_kind(fn)  # `super().elicit(...)` in a Context subclass
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

    def _context_classes(self) -> dict[str, Kind]:
        """The module's classes that subclass an SDK or framework context → that context's kind
        (asked for every ``self`` a method reads: computed once per module)."""

        def compute() -> dict[str, Kind]:
            kinds = {c: self._kind_of_class(c) for c in self.class_bases}
            return {c: k for c, k in kinds.items() if k in CONTEXTS}

        return self.memo("kinds.context_classes", compute)  # type: ignore[attr-defined]

    def _super_kind(self, fn: FunctionInfo | None) -> Kind | None:
        """What ``super()`` is in a method of a class of this module that subclasses an SDK or
        framework context (the parent context: its requests are the SDK's)."""
        scope = fn
        while scope is not None and scope.class_name is None:
            scope = scope.parent
        if scope is None:
            return None
        return self._context_classes().get(scope.class_name or "")

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

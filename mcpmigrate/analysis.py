"""Per-module facts every rule shares: what names resolve to, which objects are MCP servers,
contexts and sessions, which functions are tools, and who calls whom.

Built in one libcst visitor pass plus a cheap fixed point over the collected facts; no libcst
metadata provider is used here (scope and qualified-name providers cost many times the parse).
Typing is flow-insensitive per function: a local name has a kind when any assignment in the
function gives it one. Names resolve through the module's imports, so ``Ctx`` imported as
``from mcp.server.fastmcp import Context as Ctx`` is a context and a click ``Context`` is not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar
from enum import Enum

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.fastwalk import Flat
from mcpmigrate.fastwalk import walk  # re-exported: the read-only subtree walk the rules and codemods share

T = TypeVar("T")


def code_of(node: cst.CSTNode) -> str:
    """The source text of ``node`` alone (libcst codegen; default indentation and newlines)."""
    return cst.Module([]).code_for_node(node)


class Kind(str, Enum):
    """What an expression is, as far as MCP is concerned."""

    CONTEXT_MCP1 = "mcp1-context"        # mcp 1.x FastMCP Context
    CONTEXT_MCP2 = "mcp2-context"        # mcp 2.x MCPServer Context
    CONTEXT_FASTMCP = "fastmcp-context"  # fastmcp Context (has list_roots/sample in 2.x/3.x)
    LL_CONTEXT = "request-context"       # 1.x RequestContext / 2.x ServerRequestContext
    SESSION = "session"                  # ServerSession
    SERVER_HL = "server"                 # FastMCP / MCPServer / fastmcp.FastMCP instance
    SERVER_LL = "lowlevel-server"        # low-level Server instance


CONTEXTS = {Kind.CONTEXT_MCP1, Kind.CONTEXT_MCP2, Kind.CONTEXT_FASTMCP}


@dataclass(eq=False)
class FunctionInfo:
    node: cst.FunctionDef
    name: str
    qualname: str
    class_name: str | None
    parent: "FunctionInfo | None"
    params: list[cst.Param]
    kinds: dict[str, Kind] = field(default_factory=dict)
    assigns: list[tuple[str, cst.BaseExpression]] = field(default_factory=list)
    calls: list[cst.Call] = field(default_factory=list)
    role: str | None = None            # tool | prompt | resource | lowlevel-tool | list-tools | handler
    server_generation: str | None = None
    registered_name: str | None = None  # the MCP name of the tool/prompt/resource, when literal

    @property
    def is_async(self) -> bool:
        return self.node.asynchronous is not None

    def param_names(self) -> list[str]:
        return [p.name.value for p in self.params]


def _annotation_names(ann: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """Candidate type expressions inside an annotation: ``X``, ``X[...]``, ``X | None``,
    ``Optional[X]``, ``Annotated[X, ...]``, ``"X"``."""
    if isinstance(ann, cst.BinaryOperation):
        yield from _annotation_names(ann.left)
        yield from _annotation_names(ann.right)
    elif isinstance(ann, cst.Subscript):
        yield ann.value
        head = get_full_name_for_node(ann.value) or ""
        if head.split(".")[-1] in ("Optional", "Annotated", "Union"):
            for el in ann.slice:
                if isinstance(el.slice, cst.Index):
                    yield from _annotation_names(el.slice.value)
                if head.endswith("Annotated"):
                    break
    elif isinstance(ann, cst.SimpleString):
        try:
            inner = cst.parse_expression(ann.evaluated_value)  # type: ignore[arg-type]
        except Exception:
            return
        yield from _annotation_names(inner)
    else:
        yield ann


class ModuleAnalysis:
    """Facts about one parsed module. Construct with :meth:`build`."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.imports: dict[str, str] = {}
        self.functions: list[FunctionInfo] = []
        self.by_node: dict[cst.FunctionDef, FunctionInfo] = {}
        self.module_kinds: dict[str, Kind] = {}
        self.class_kinds: dict[str, dict[str, Kind]] = {}
        self.module_assigns: list[tuple[str, cst.BaseExpression]] = []
        self.elem_kinds: dict[str, Kind] = {}  # module-level containers: SESSIONS: list[ServerSession]
        self.class_bases: dict[str, list[str]] = {}
        self.server_generation: dict[str, str] = {}  # server variable -> generation
        self.registrations: list[tuple[str, cst.CSTNode, str, str | None]] = []  # (role, fn expr, gen, server)
        self.generations: set[str] = set()
        self.name_counts: dict[str, int] = {}  # every Name node's value, counted once per pass
        self.awaited: set[int] = set()         # ids of expressions directly under `await`
        self.parents: dict[int, cst.CSTNode] = {}  # id(node) -> parent node, for the whole module
        self.flat: Flat  # the module in pre-order (fastwalk.Flat), replayed by every detector
        self.path: Path | None = None  # the file, when known (the interim fix reads its project's pins)
        self._memo: dict[str, Any] = {}  # see memo()

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()``, once per module and ``key``: derived facts a detector or fix planner
        reuses across sites (module names, a planner's per-request plan, the project's pins).
        Keys are namespaced by the module that owns them (``"interim.pins"``)."""
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def build(cls, module: cst.Module) -> "ModuleAnalysis":
        self = cls(module)
        self.flat = Flat(module)  # one traversal; the detectors replay it
        self.parents = self.flat.parents
        self.flat.visit(_Collector(self))
        self._owner = self._owners()
        self._infer()
        return self

    def _owners(self) -> dict[int, FunctionInfo]:
        """``id(node) -> `` the innermost function around it, for every node of the module (a
        function's own ``FunctionDef`` belongs to the function around it)."""
        owner: dict[int, FunctionInfo] = {}
        order, end = self.flat.order, self.flat.end
        for i in self.flat.of_types((cst.FunctionDef,)):  # pre-order: inner functions overwrite
            info = self.by_node.get(order[i])  # type: ignore[call-overload]
            if info is not None:
                for j in range(i + 1, end[i]):
                    owner[id(order[j])] = info
        return owner

    # -- name resolution ---------------------------------------------------------------------
    def qualname(self, expr: cst.BaseExpression | None) -> str | None:
        """The dotted name ``expr`` resolves to through the imports (``types.Root`` →
        ``mcp.types.Root``), or its own dotted spelling when its head is not imported."""
        if expr is None:
            return None
        name = get_full_name_for_node(expr)
        if not name:
            return None
        head, _, rest = name.partition(".")
        if head in self.imports:
            base = self.imports[head]
            return f"{base}.{rest}" if rest else base
        return name

    def resolves_to(self, expr: cst.BaseExpression | None, names: set[str]) -> bool:
        q = self.qualname(expr)
        return q is not None and q in names

    def imports_mcp(self) -> bool:
        return any(v == "mcp" or v.startswith(("mcp.", "mcp_types", "fastmcp")) for v in self.imports.values())

    # -- typing ------------------------------------------------------------------------------
    def kind_of_annotation(self, ann: cst.BaseExpression) -> Kind | None:
        for cand in _annotation_names(ann):
            q = self.qualname(cand)
            if q in S.MCP_CONTEXT_V1:
                return Kind.CONTEXT_MCP1
            if q in S.MCP_CONTEXT_V2:
                return Kind.CONTEXT_MCP2
            if q in S.FASTMCP_CONTEXT:
                return Kind.CONTEXT_FASTMCP
            if q in S.LOWLEVEL_CONTEXT:
                return Kind.LL_CONTEXT
            if q in S.SESSION_TYPES:
                return Kind.SESSION
            if q in S.HIGH_LEVEL_SERVERS:
                return Kind.SERVER_HL
            if q in S.LOWLEVEL_SERVERS:
                return Kind.SERVER_LL
        return None

    def _constructed_kind(self, call: cst.Call) -> Kind | None:
        q = self.qualname(call.func)
        if q is None:
            return None
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
                scope = fn
                while cls_name is None and scope is not None:
                    scope = scope.parent
                    cls_name = scope.class_name if scope else None
                if cls_name and attr in self.class_kinds.get(cls_name, {}):
                    return self.class_kinds[cls_name][attr]
                if cls_name and self._class_is(cls_name, S.HIGH_LEVEL_SERVERS) and attr == "_mcp_server":
                    return Kind.SERVER_LL
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
            # an element of a container: SESSIONS[0], or a for-loop target over it
            container: cst.BaseExpression = expr.value
            while isinstance(container, cst.Call) and get_full_name_for_node(container.func) in ("list", "tuple", "sorted", "set", "reversed") and container.args:
                container = container.args[0].value
            if isinstance(container, cst.Name):
                return self.elem_kinds.get(container.value)
            return None
        if isinstance(expr, cst.Call):
            func = expr.func
            q = self.qualname(func)
            if q in S.GET_CONTEXT_FUNCTIONS:
                return Kind.CONTEXT_FASTMCP
            if isinstance(func, cst.Attribute):
                recv = self.kind_of(func.value, fn)
                if func.attr.value == "get_context" and recv is Kind.SERVER_HL:
                    gen = self.generation_of_server_expr(func.value, fn)
                    return {S.MCP2: Kind.CONTEXT_MCP2, S.FASTMCP: Kind.CONTEXT_FASTMCP}.get(gen or "", Kind.CONTEXT_MCP1)
                if func.attr.value == "get" and self.resolves_to(func.value, S.REQUEST_CTX_VARS):
                    return Kind.LL_CONTEXT
            return self._constructed_kind(expr)
        return None

    def imports_sdk_client(self) -> bool:
        """The module imports an SDK client (``mcp.client…``, ``ClientSession``, fastmcp's
        ``Client``): client code, which declares its own capabilities and sends client requests."""
        return any(v.startswith(("mcp.client", "fastmcp.client")) or v in ("mcp.ClientSession", "mcp.Client", "fastmcp.Client")
                   for v in self.imports.values())

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

    def generation_of_server_expr(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> str | None:
        name = get_full_name_for_node(expr)
        if name and name in self.server_generation:
            return self.server_generation[name]
        if self.generations:
            return sorted(self.generations)[0] if len(self.generations) == 1 else None
        return None

    def generation_of_kind(self, kind: Kind | None) -> str | None:
        return {Kind.CONTEXT_MCP1: S.MCP1, Kind.CONTEXT_MCP2: S.MCP2, Kind.CONTEXT_FASTMCP: S.FASTMCP}.get(kind)  # type: ignore[arg-type]

    def module_generation(self) -> str | None:
        """The SDK generation the module is written for, when its imports say so unambiguously."""
        if len(self.generations) == 1:
            return next(iter(self.generations))
        return None

    # -- call graph --------------------------------------------------------------------------
    def function_named(self, name: str, class_name: str | None = None) -> FunctionInfo | None:
        for f in self.functions:
            if f.name == name and (class_name is None or f.class_name == class_name):
                return f
        return None

    def callee_of(self, call: cst.Call, caller: FunctionInfo) -> FunctionInfo | None:
        """The module function or method ``call`` invokes (``helper(…)``, ``self.helper(…)``,
        ``Class.helper(…)``), when it is defined in this module."""
        nested, module_level, methods = self._function_index()
        func = call.func
        if isinstance(func, cst.Name):
            # nested functions first, then module level
            scope: FunctionInfo | None = caller
            while scope is not None:
                f = nested.get((id(scope), func.value))
                if f is not None:
                    return f
                scope = scope.parent
            return module_level.get(func.value)
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            owner = func.value.value
            cls_name = caller.class_name if owner in ("self", "cls") else self.instance_class(owner) or owner
            if cls_name:
                return methods.get((cls_name, func.attr.value))
        return None

    def _function_index(self) -> tuple[dict, dict, dict]:
        """``(id(parent), name)``, module-level ``name`` and ``(class, name)`` → the first such
        function (``callee_of`` is asked for every call of the module)."""
        idx = getattr(self, "_fn_index", None)
        if idx is None or idx[0] != len(self.functions):
            nested: dict[tuple[int, str], FunctionInfo] = {}
            module_level: dict[str, FunctionInfo] = {}
            methods: dict[tuple[str, str], FunctionInfo] = {}
            for f in self.functions:
                if f.parent is not None:
                    nested.setdefault((id(f.parent), f.name), f)
                elif f.class_name is None:
                    module_level.setdefault(f.name, f)
                if f.class_name is not None:
                    methods.setdefault((f.class_name, f.name), f)
            idx = self._fn_index = (len(self.functions), (nested, module_level, methods))
        return idx[1]

    def instance_class(self, name: str) -> str | None:
        """The module class a module-level name is an instance of (``server = MyServer()``)."""
        for target, value in self.module_assigns:
            if target == name and isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in self.class_bases:
                return value.func.value
        return None

    def callers(self, target: FunctionInfo) -> list[tuple[FunctionInfo, cst.Call]]:
        """``(caller, call)`` for every call of ``target`` in this module, in source order."""
        graph = getattr(self, "_callers", None)
        if graph is None:
            graph = self._callers = {}
            for f in self.functions:
                for call in f.calls:
                    callee = self.callee_of(call, f)
                    if callee is not None:
                        graph.setdefault(id(callee), []).append((f, call))
        return list(graph.get(id(target), ()))

    def references_outside_calls(self, target: FunctionInfo) -> bool:
        """True when the function's name is used other than by a direct call in this module
        (passed as a callback, stored, exported): its callers cannot all be seen."""
        loads = self.name_counts.get(target.name, 0) - sum(1 for f in self.functions if f.name == target.name)
        direct = len(self.callers(target))
        registered = sum(1 for reg in self.registrations if get_full_name_for_node(reg[1]) in (target.name, f"self.{target.name}"))
        return loads > direct + registered

    def enclosing_function(self, node: cst.CSTNode) -> FunctionInfo | None:
        return self._owner.get(id(node))

    # -- inference ---------------------------------------------------------------------------
    def _infer(self) -> None:
        # Kinds from annotations.
        for f in self.functions:
            for p in f.params:
                if p.annotation is not None:
                    k = self.kind_of_annotation(p.annotation.annotation)
                    if k is not None:
                        f.kinds[p.name.value] = k
        # Assignments, a few rounds for chains (session = ctx.session; s2 = session).
        for _ in range(3):
            changed = False
            for name, value in self.module_assigns:
                k = self.kind_of(value, None)
                if k is not None and self.module_kinds.get(name) != k:
                    self.module_kinds[name] = k
                    changed = True
            for f in self.functions:
                for name, value in f.assigns:
                    if name.startswith("self."):
                        k = self.kind_of(value, f)
                        cls = f.class_name or (f.parent.class_name if f.parent else None)
                        if k is not None and cls:
                            if self.class_kinds.setdefault(cls, {}).get(name[5:]) != k:
                                self.class_kinds[cls][name[5:]] = k
                                changed = True
                        continue
                    k = self.kind_of(value, f)
                    if k is not None and f.kinds.get(name) != k:
                        f.kinds[name] = k
                        changed = True
            # Interprocedural: an unannotated parameter receives a context/session at a call site.
            for f in self.functions:
                for call in f.calls:
                    callee = self.callee_of(call, f)
                    if callee is None:
                        continue
                    names = callee.param_names()
                    offset = 1 if names and names[0] in ("self", "cls") and isinstance(call.func, cst.Attribute) else 0
                    for i, arg in enumerate(call.args):
                        if arg.star:
                            break
                        if arg.keyword is not None:
                            pname = arg.keyword.value
                        elif i + offset < len(names):
                            pname = names[i + offset]
                        else:
                            continue
                        param = next((p for p in callee.params if p.name.value == pname), None)
                        if param is None or pname in callee.kinds:
                            continue
                        if param.annotation is not None and self.kind_of_annotation(param.annotation.annotation) is None:
                            continue  # annotated with something else: trust the annotation
                        k = self.kind_of(arg.value, f)
                        if k is not None:
                            callee.kinds[pname] = k
                            changed = True
            if not changed:
                break
        # Server variables and their generation.
        for name, kind in self.module_kinds.items():
            if kind in (Kind.SERVER_HL, Kind.SERVER_LL):
                self.server_generation.setdefault(name, self._guess_generation())
        # Roles of registered functions.
        for role, fexpr, gen, _server in self.registrations:
            target = self._function_for_expr(fexpr)
            if target is not None and target.role is None:
                target.role = role
                target.server_generation = gen

    def _guess_generation(self) -> str:
        return self.module_generation() or S.MCP1

    def _function_for_expr(self, expr: cst.CSTNode) -> FunctionInfo | None:
        if isinstance(expr, cst.FunctionDef):
            return self.by_node.get(expr)
        name = get_full_name_for_node(expr)
        if not name:
            return None
        short = name.split(".")[-1]
        candidates = [f for f in self.functions if f.name == short]
        if name.startswith("self.") and candidates:
            return next((f for f in candidates if f.class_name), candidates[0])
        return candidates[0] if candidates else None


class _Collector(cst.CSTVisitor):
    """One pass: imports, classes, functions (params, assignments, calls), registrations."""

    def __init__(self, a: ModuleAnalysis) -> None:
        self.a = a
        self.fn_stack: list[FunctionInfo] = []
        self.class_stack: list[str] = []

    # imports
    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = get_full_name_for_node(alias.name) or ""
            if alias.asname is not None:
                local = get_full_name_for_node(alias.asname.name) or full
                self.a.imports[local] = full
            else:
                head = full.split(".")[0]
                self.a.imports.setdefault(head, head)
            self._note_generation(full)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        mod = get_full_name_for_node(node.module) or ""
        self._note_generation(mod)
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            local = get_full_name_for_node(alias.asname.name) if alias.asname else name
            self.a.imports[local or name] = f"{mod}.{name}"
            self._note_generation(f"{mod}.{name}")

    def _note_generation(self, name: str) -> None:
        if name.startswith("mcp.server.fastmcp") or name in S.FASTMCP_V1_SERVER:
            self.a.generations.add(S.MCP1)
        elif name.startswith("mcp.server.mcpserver") or name in S.MCPSERVER_V2 or name.startswith("mcp_types"):
            self.a.generations.add(S.MCP2)
        elif name == "fastmcp" or name.startswith("fastmcp."):
            self.a.generations.add(S.FASTMCP)

    # classes
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.class_stack.append(node.name.value)
        self.a.class_bases[node.name.value] = [q for q in (self.a.qualname(b.value) for b in node.bases) if q]

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.class_stack.pop()

    # functions
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        parent = self.fn_stack[-1] if self.fn_stack else None
        cls = self.class_stack[-1] if self.class_stack and (parent is None or parent.class_name != self.class_stack[-1] or True) else None
        # a class nested inside the function is rare; methods of the innermost class win
        if parent is not None and cls is not None and parent.class_name == cls:
            cls = None  # a function nested in a method
        params = list(node.params.posonly_params) + list(node.params.params) + list(node.params.kwonly_params)
        if isinstance(node.params.star_arg, cst.Param):
            params.append(node.params.star_arg)
        prefix = f"{cls}." if cls else (f"{parent.qualname}." if parent else "")
        info = FunctionInfo(node=node, name=node.name.value, qualname=prefix + node.name.value,
                            class_name=cls, parent=parent, params=params)
        self.a.functions.append(info)
        self.a.by_node[node] = info
        for dec in node.decorators:
            self._decorator_role(dec.decorator, node)
        self.fn_stack.append(info)
        # class methods: the class scope ends inside; functions nested in methods have no class
        self.class_stack.append("") if cls is None and self.class_stack else None
        info._pushed_empty = cls is None and bool(self.class_stack) and self.class_stack[-1] == ""  # type: ignore[attr-defined]

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        info = self.fn_stack.pop()
        if getattr(info, "_pushed_empty", False):
            self.class_stack.pop()

    def _decorator_role(self, dec: cst.BaseExpression, fn: cst.FunctionDef) -> None:
        call = dec if isinstance(dec, cst.Call) else None
        target = call.func if call else dec
        if not isinstance(target, cst.Attribute):
            return
        attr = target.attr.value
        server_name = get_full_name_for_node(target.value)
        if attr in S.HANDLER_DECORATORS:
            self.a.registrations.append((S.HANDLER_DECORATORS[attr], fn, "", server_name))
            self._pending_decorator_literal(call, fn)
        elif attr in S.LOWLEVEL_CALL_TOOL_DECORATORS and call is not None:
            self.a.registrations.append(("lowlevel-" + S.LOWLEVEL_CALL_TOOL_DECORATORS[attr], fn, S.MCP1, server_name))
        elif attr == S.LOWLEVEL_LIST_TOOLS_DECORATOR and call is not None:
            self.a.registrations.append(("list-tools", fn, S.MCP1, server_name))

    def _pending_decorator_literal(self, call: cst.Call | None, fn: cst.FunctionDef) -> None:
        pass

    # statements
    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._assign(t.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._assign(node.target, node.value)
        ann = node.annotation.annotation
        if isinstance(node.target, cst.Name) and isinstance(ann, cst.Subscript) and not self.fn_stack:
            for el in ann.slice:
                if isinstance(el.slice, cst.Index):
                    k = self.a.kind_of_annotation(el.slice.value)
                    if k is not None:
                        self.a.elem_kinds[node.target.value] = k

    def visit_For(self, node: cst.For) -> None:
        # `for session in SESSIONS:` — the target is an element of the iterable
        element = cst.Subscript(value=node.iter, slice=[cst.SubscriptElement(cst.Index(cst.Integer("0")))])
        self._assign(node.target, element)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._assign(node.target, node.value)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._assign(node.asname.name, node.item)

    def _assign(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        name = get_full_name_for_node(target)
        if not name:
            return
        if self.fn_stack:
            self.fn_stack[-1].assigns.append((name, value))
        elif not self.class_stack or self.class_stack[-1] == "":
            self.a.module_assigns.append((name, value))

    def visit_Name(self, node: cst.Name) -> None:
        counts = self.a.name_counts
        counts[node.value] = counts.get(node.value, 0) + 1

    def visit_Await(self, node: cst.Await) -> None:
        self.a.awaited.add(id(node.expression))

    def visit_Call(self, node: cst.Call) -> None:
        if self.fn_stack:
            self.fn_stack[-1].calls.append(node)
        # 2.x low-level constructor keywords: Server("x", on_call_tool=handler)
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value in S.LOWLEVEL_HANDLER_KWARGS:
                if self.a.qualname(node.func) in S.LOWLEVEL_SERVERS:
                    self.a.registrations.append(("lowlevel-" + S.LOWLEVEL_HANDLER_KWARGS[arg.keyword.value], arg.value, S.MCP2, None))
            elif arg.keyword is not None and arg.keyword.value == "on_list_tools":
                if self.a.qualname(node.func) in S.LOWLEVEL_SERVERS:
                    self.a.registrations.append(("list-tools", arg.value, S.MCP2, None))
        # mcp.add_tool(fn) / mcp.tool()(fn)
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("add_tool", "add_prompt") and node.args:
            self.a.registrations.append((func.attr.value[4:], node.args[0].value, "", get_full_name_for_node(func.value)))
        if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute) and func.func.attr.value in S.HANDLER_DECORATORS and node.args:
            self.a.registrations.append((S.HANDLER_DECORATORS[func.func.attr.value], node.args[0].value, "", get_full_name_for_node(func.func.value)))



""":class:`ModuleAnalysis`: one module's facts (:mod:`~mcpmigrate.analysis.facts`), kinds
(:mod:`~mcpmigrate.analysis.kinds`) and call graph (:mod:`~mcpmigrate.analysis.calls`), built by
:meth:`ModuleAnalysis.build` — the one pass, then the fixed point that gives names their kinds
(annotations, assignment chains, arguments at call sites), the server variables their generation
and the registered functions their role (registered here, or by another module of the project:
:meth:`~mcpmigrate.analysis.calls.CallGraph.external_registrations`) — plus the per-module memo the rules and fixes share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis.calls import CallGraph
from mcpmigrate.analysis.facts import Collector, FunctionInfo
from mcpmigrate.analysis.kinds import Kind, Kinds, project_instance_class
from mcpmigrate.analysis.summary import UNINJECTED
from mcpmigrate.fastwalk import Flat

if TYPE_CHECKING:
    from mcpmigrate.analysis.project import Incoming

T = TypeVar("T")
N = TypeVar("N", bound=cst.CSTNode)


class ModuleAnalysis(Kinds, CallGraph):
    """Facts about one parsed module. Construct with :meth:`build`."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(module)
        self._memo: dict[str, Any] = {}  # see memo()

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """``compute()``, once per module and ``key``: derived facts a detector or fix planner
        reuses across sites (module names, a planner's per-request plan, the project's pins).
        Keys are namespaced by the module that owns them (``"interim.pins"``)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    def code(self) -> str:
        """The module's text, once: the bytes it was parsed from when the pipeline passed them
        (libcst round-trips them exactly), else libcst's codegen, which costs about a third of
        a parse."""

        def compute() -> str:
            if self.source is not None:
                try:
                    return self.source.decode(self.module.encoding)
                except (UnicodeDecodeError, LookupError):
                    pass
            return self.module.code

        return self.memo("module.code", compute)

    def nodes(self, *types: type[N]) -> list[N]:
        """The module's nodes of ``types``, in pre-order (as ``walk(self.module)`` meets them),
        read off the one traversal the analysis made (:meth:`Flat.of_types`) instead of a walk."""
        order = self.flat.order
        return [order[i] for i in self.flat.of_types(types)]  # type: ignore[misc]

    @classmethod
    def build(cls, module: cst.Module, incoming: Incoming | None = None, path: Path | None = None) -> ModuleAnalysis:
        """Analyse ``module``; ``incoming``: the calls other modules of the project make into it
        (:mod:`mcpmigrate.analysis.project`), which type the parameters they pass a context to;
        ``path``: the module's file (a Context subclass of another module is read from there)."""
        self = cls(module)
        self.path = path
        self.incoming = incoming or {}
        self.flat = Flat(module)  # one traversal; the detectors replay it
        self.parents = self.flat.parents
        self.flat.visit(Collector(self))
        self._infer()
        return self

    def _seed_from_callers(self) -> None:
        """Parameters that callers in other modules pass a context or a session to, when
        unannotated or annotated ``Any``: ``async def require_ack(summary, ctx)`` called as
        ``require_ack(text, ctx)`` from a tool whose ``ctx: Context``."""
        for f in self.functions:
            calls = self.external_callers(f)
            if not calls:
                continue
            names = f.param_names()
            for call in calls:
                for where, value in call.kinds:
                    if value == UNINJECTED:
                        continue  # a tool's untyped ctx: read apart (uninjected_context)
                    pname = names[where] if isinstance(where, int) and where < len(names) else where
                    param = next((p for p in f.params if p.name.value == pname), None)
                    if param is None or pname in f.kinds:
                        continue
                    ann = param.annotation
                    if ann is not None and not self.says_nothing(ann.annotation):
                        continue  # annotated with something else: trust the annotation
                    f.kinds[param.name.value] = Kind(value)

    # -- context parameters the SDK never fills ---------------------------------------------
    def uninjected_context(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> Uninjected | None:
        """Where ``expr`` comes from when it is a ``ctx``/``context`` parameter the SDK never
        fills: a registered tool's, prompt's or resource's, unannotated or annotated with what
        says nothing (``ctx: Any = None``; ``Any`` imported as ``Context``), or a helper's that
        receives one (from a function of this module, or from a decorated tool of another
        module, :data:`~mcpmigrate.analysis.summary.UNINJECTED`). mcp 1.x, mcp 2.x and fastmcp
        inject the Context only into a parameter annotated with their Context class: this one
        is a tool argument (``None`` unless the client sends a value), so a request through it
        never reaches a client. None otherwise."""
        if fn is None or not isinstance(expr, cst.Name):
            return None
        return self.memo("module.uninjected", self._uninjected).get((id(fn), expr.value))

    def _injected_default(self, p: cst.Param) -> bool:
        """``ctx=CurrentContext()`` (unannotated or ``Any``): fastmcp 2–4 inject the Context through
        the default, whatever the annotation says (measured on 2.14.7, 3.4.11 and 4.2.3)."""
        return (
            isinstance(p.default, cst.Call)
            and S.GET_CONTEXT_FUNCTIONS.get(self.qualname(p.default.func) or "") == S.FASTMCP
            and (p.annotation is None or self.says_nothing(p.annotation.annotation))
        )

    def untyped_context_params(self, f: FunctionInfo) -> list[str]:
        """``f``'s parameters named ``ctx``/``context`` that nothing types: unannotated (or
        ``Any``), without a default other than ``None`` (``CurrentContext()`` injects one), no
        kind from a caller, never rebound in ``f``."""
        rebound = {name for name, _ in f.assigns}
        return [
            p.name.value
            for p in f.params
            if p.name.value in ("ctx", "context")
            and (p.annotation is None or self.says_nothing(p.annotation.annotation))
            and (p.default is None or (isinstance(p.default, cst.Name) and p.default.value == "None"))
            and p.name.value not in f.kinds
            and p.name.value not in rebound
        ]

    def _uninjected(self) -> dict[tuple[int, str], Uninjected]:
        """(function id, parameter) -> the tool whose untyped context parameter it is or
        receives: the functions registered on an MCP server (in a module or by a registering
        module that imports the SDK) and the helpers decorated tools of other modules pass theirs
        to first, then the helpers of this module they pass it to, as ``helper(ctx)`` /
        ``helper(ctx=ctx)``, until nothing is added."""
        found: dict[tuple[int, str], Uninjected] = {}
        for f in self.functions:
            if f.role in ("tool", "prompt", "resource") and (
                self.imports_mcp() or any(r.generation for r in self.external_registrations(f))
            ):
                found.update(((id(f), p), Uninjected(f"`{f.qualname}`", p)) for p in self.untyped_context_params(f))
            open_params = self.untyped_context_params(f)
            for ext in self.external_callers(f):
                names = f.param_names()
                for where, value in ext.kinds:
                    pname = names[where] if isinstance(where, int) and where < len(names) else where
                    if value == UNINJECTED and pname in open_params and ext.caller:
                        found.setdefault((id(f), str(pname)), Uninjected(ext.label, ""))
        todo = [f for f in self.functions if any(k[0] == id(f) for k in found)]
        while todo:
            f = todo.pop()
            for call in self.calls_of(f):
                callee = self.callee_of(call, f)
                if callee is None or callee.role is not None:
                    continue
                names = callee.param_names()
                open_params = self.untyped_context_params(callee)
                for pname, arg in _bound(call, names, _self_offset(call, callee, names)):
                    source = found.get((id(f), arg.value.value)) if isinstance(arg.value, cst.Name) else None
                    if source is not None and pname in open_params and (id(callee), pname) not in found:
                        found[(id(callee), pname)] = source
                        todo.append(callee)
        return found

    def _seed_imported_servers(self) -> None:
        """A server built in another module of the project and imported here (``from app import
        mcp`` where ``app.py`` says ``mcp = FastMCP("x")``) is a server here too, when this module
        reads its context or its private low-level server (``mcp.get_context()``,
        ``server.request_context``, ``mcp._mcp_server``: what only the port must change). The other module is read with ``ast``, cached per file version."""
        if self.path is None:
            return
        wanted = {
            n.value.value
            for n in self.nodes(cst.Attribute)
            if n.attr.value in ("get_context", "request_context", "_mcp_server") and isinstance(n.value, cst.Name)
        }
        for name in sorted(wanted):
            q = self.imports.get(name)
            if q is None and name in self.relative_imports:  # `from .app import mcp`: ".app.mcp"
                level, dotted = self.relative_imports[name]
                q = "." * level + dotted
            if q is None or name in self.module_kinds or q.split(".")[0] in ("mcp", "fastmcp", "mcp_types"):
                continue
            cls = project_instance_class(self.path, q)
            if cls in S.FASTMCP_V1_SERVER or cls in S.MCPSERVER_V2:
                self.module_kinds[name] = Kind.SERVER_HL
                self.server_generation[name] = S.MCP1 if cls in S.FASTMCP_V1_SERVER else S.MCP2
            elif cls in S.LOWLEVEL_SERVERS:
                self.module_kinds[name] = Kind.SERVER_LL

    # -- inference ---------------------------------------------------------------------------
    def _infer(self) -> None:
        # Kinds from annotations.
        for f in self.functions:
            for p in f.params:
                if p.annotation is not None:
                    k = self.kind_of_annotation(p.annotation.annotation)
                    if k is not None:
                        f.kinds[p.name.value] = k
                if p.name.value not in f.kinds and self._injected_default(p):
                    f.kinds[p.name.value] = Kind.CONTEXT_FASTMCP  # `ctx=CurrentContext()`: fastmcp fills it
        self._seed_from_callers()
        self._seed_imported_servers()
        # Assignments, a few rounds for chains (session = ctx.session; s2 = session).
        for _ in range(3):
            changed = self.infer_receivers()  # containers, loops over them, annotated attributes
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
            if self._infer_from_calls():  # an unannotated parameter receives a context/session
                changed = True
            if not changed:
                break
        # Server variables and their generation.
        for name, kind in self.module_kinds.items():
            if kind in (Kind.SERVER_HL, Kind.SERVER_LL):
                self.server_generation.setdefault(name, self._guess_generation())
        # Roles of registered functions.
        for role, fexpr, gen, _server in self.registrations:
            for each in self._loop_elements(fexpr):
                target = self._registered_function(each)
                if target is not None and target.role is None:
                    target.role = role
                    target.server_generation = gen
        # Functions another module of the project registers (`server.tool(name="x")(fn)` there).
        for f in self.functions:
            if f.role is None:
                for reg in self.external_registrations(f):
                    f.role = reg.registers
                    f.server_generation = reg.generation or ""
                    f.registered_name = f.registered_name or reg.registered_name
                    f.method = f.method or S.DECORATOR_METHODS.get(reg.registers or "")
                    break
        # Every registered handler is an entry point, whatever it serves.
        for method, fexpr in self.handlers:
            target = self.function_for_expr(fexpr)
            if target is not None and target.method is None:
                target.method = method

    def _infer_from_calls(self) -> bool:
        """One round of interprocedural inference: an unannotated parameter (or one annotated with
        what says nothing) takes the kind of what a call in the module passes it — ``tg.start_soon(fn,
        session)`` as ``fn(session)``, a constructor call as its ``__init__``'s. True when a kind
        was added."""
        changed = False
        for f in self.functions:
            for call in self.calls_of(f):  # with `tg.start_soon(fn, session)` as `fn(session)`
                callee = self.callee_of(call, f) or self._constructor_of(call)
                if callee is None:
                    continue
                names = callee.param_names()
                offset = _self_offset(call, callee, names)
                for pname, arg in _bound(call, names, offset):
                    param = next((p for p in callee.params if p.name.value == pname), None)
                    if param is None or pname in callee.kinds:
                        continue
                    if (
                        param.annotation is not None
                        and self.kind_of_annotation(param.annotation.annotation) is None
                        and not self.says_nothing(param.annotation.annotation)
                    ):
                        continue  # annotated with something else: trust the annotation
                    k = self.kind_of(arg.value, f)
                    if k is not None:
                        callee.kinds[pname] = k
                        changed = True
        return changed

    def _constructor_of(self, call: cst.Call) -> FunctionInfo | None:
        """The ``__init__`` that ``Reporter(ctx.session)`` runs, for a class of this module: its
        parameters receive the arguments (``self._session = session`` then types the attribute)."""
        if not isinstance(call.func, cst.Name) or call.func.value not in self.class_bases:
            return None
        return self._function_index()[2].get((call.func.value, "__init__"))

    def _loop_elements(self, fexpr: cst.CSTNode) -> list[cst.CSTNode]:
        """What a registered name stands for: each function of ``for fn in (a, b):`` /
        ``for fn in TOOLS:`` (``TOOLS`` a literal list, tuple or set at module level) around the
        registration when ``fexpr`` is the loop's name, else ``fexpr`` itself."""
        if not isinstance(fexpr, cst.Name):
            return [fexpr]
        node = self.parents.get(id(fexpr))
        while node is not None and not isinstance(node, (cst.FunctionDef, cst.Module)):
            if isinstance(node, cst.For) and isinstance(node.target, cst.Name) and node.target.value == fexpr.value:
                it = node.iter
                if isinstance(it, cst.Name):
                    it = next((v for name, v in reversed(self.module_assigns) if name == it.value), it)
                if isinstance(it, (cst.List, cst.Tuple, cst.Set)):
                    return [el.value for el in it.elements if not isinstance(el, cst.StarredElement)]
                return [fexpr]
            node = self.parents.get(id(node))
        return [fexpr]

    def _registered_function(self, fexpr: cst.CSTNode) -> FunctionInfo | None:
        """The function a registration names: for a bare name, the closure of that name in the
        scope that registers it (``Server(..., on_call_tool=call_tool)`` in a factory) first."""
        if isinstance(fexpr, cst.Name):
            nested = self._function_index()[0]
            scope = self.enclosing_function(fexpr)
            while scope is not None:
                f = nested.get((id(scope), fexpr.value))
                if f is not None:
                    return f
                scope = scope.parent
        return self.function_for_expr(fexpr)

    def _guess_generation(self) -> str:
        return self.module_generation() or S.MCP1


@dataclass(frozen=True)
class Uninjected:
    """A tool whose ``ctx``/``context`` parameter the SDK never fills: how a finding names it
    (```get_data``` or ```purge` in pkg/tools.py``) and the parameter ("" when another module's:
    the summary records that the argument is one, not its name)."""

    tool: str
    param: str


def _self_offset(call: cst.Call, callee: FunctionInfo, names: list[str]) -> int:
    """1 when ``call`` binds the callee's ``self``/``cls`` itself (``obj.m(x)``, a constructor)."""
    bound = isinstance(call.func, cst.Attribute) or callee.name == "__init__"
    return 1 if names and names[0] in ("self", "cls") and bound else 0


def _bound(call: cst.Call, names: list[str], offset: int) -> Iterator[tuple[str, cst.Arg]]:
    """The parameter name each argument of ``call`` binds (up to the first ``*args``/``**kw``)."""
    for i, arg in enumerate(call.args):
        if arg.star:
            return
        if arg.keyword is not None:
            yield arg.keyword.value, arg
        elif i + offset < len(names):
            yield names[i + offset], arg

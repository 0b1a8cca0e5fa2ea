"""The call graph of one module: which module function a call invokes (``callee_of``), who calls
a function (``callers``), whether its name escapes direct calls, which function a node is in
(``enclosing_function``), and which function an expression names (``function_for_expr``).
Only functions defined in the module are callees; the calls other modules of the project make
into it are ``external_callers``, and their registrations of its functions as tools, prompts or
resources ``external_registrations`` (:mod:`mcpmigrate.analysis.project`)."""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis.facts import Facts, FunctionInfo
from mcpmigrate.analysis.project import ExternalCall, Incoming


class CallGraph(Facts):
    """The call-graph half of :class:`~mcpmigrate.analysis.ModuleAnalysis`, derived lazily from
    the collected facts (they do not change once the pass is done)."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(module)
        self._owner: dict[int, FunctionInfo] | None = None  # see enclosing_function
        self._fn_index: tuple[int, tuple[dict, dict, dict]] | None = None  # see _function_index
        self._callers: dict[int, list[tuple[FunctionInfo, cst.Call, bool]]] | None = None  # see callers
        self.incoming: Incoming = {}  # function name -> calls from other modules (analysis.project)

    def external_callers(self, target: FunctionInfo) -> tuple[ExternalCall, ...]:
        """The calls of a module-level function from other modules of the project
        (:mod:`mcpmigrate.analysis.project`)."""
        if target.parent is not None or target.class_name is not None:
            return ()
        return tuple(c for c in self.incoming.get(target.name, ()) if c.registers is None)

    def external_method_callers(self, target: FunctionInfo) -> tuple[ExternalCall, ...]:
        """The calls of a method of a module-level class from other modules of the project,
        through an instance made there (``executor = AgentExecutor(…)``, ``executor.execute(…)``;
        keyed ``AgentExecutor.execute``). Only the port's context threading follows them
        (:mod:`mcpmigrate.codemods.port.context`), which writes those calls too."""
        key = f"{target.class_name}.{target.name}"
        if target.parent is not None or target.class_name is None or target.qualname != key:
            return ()
        return tuple(c for c in self.incoming.get(key, ()) if c.registers is None)

    def external_registrations(self, target: FunctionInfo) -> tuple[ExternalCall, ...]:
        """The registrations of a module-level function as a tool, prompt or resource by other
        modules of the project (``server.tool(name="x")(fn)`` in ``server.py``)."""
        if target.parent is not None or target.class_name is not None:
            return ()
        return tuple(c for c in self.incoming.get(target.name, ()) if c.registers is not None)

    def external_chain(self, target: FunctionInfo, limit: int = 3) -> str:
        """``" (called from `count_photos` in tools.py)"``: the callers in other modules of the
        project of ``target`` or of the module functions that call it, for a finding's message;
        ``""`` when there are none."""
        calls: list[ExternalCall] = []
        seen: set[int] = set()
        todo = [target]
        while todo:
            f = todo.pop()
            if id(f) in seen:
                continue
            seen.add(id(f))
            calls.extend(self.external_callers(f))
            todo.extend(caller for caller, _call in self.callers(f))
        if not calls:
            return ""
        labels = list(dict.fromkeys(c.label for c in sorted(calls, key=lambda c: c.rank)))
        more = f" and {len(labels) - limit} more" if len(labels) > limit else ""
        return f" (called from {', '.join(labels[:limit])}{more})"

    def function_named(self, name: str, class_name: str | None = None) -> FunctionInfo | None:
        for f in self.functions:
            if f.name == name and (class_name is None or f.class_name == class_name):
                return f
        return None

    def function_for_expr(self, expr: cst.CSTNode) -> FunctionInfo | None:
        """The module function ``expr`` is or names (a ``FunctionDef``, ``handler``,
        ``self.handler``): the first function of that name, a method for ``self.…``."""
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
        idx = self._fn_index
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
            if (
                target == name
                and isinstance(value, cst.Call)
                and isinstance(value.func, cst.Name)
                and value.func.value in self.class_bases
            ):
                return value.func.value
        return None

    def callers(self, target: FunctionInfo) -> list[tuple[FunctionInfo, cst.Call]]:
        """``(caller, call)`` for every call of ``target`` in this module that can run, in source
        order (not one after a ``return`` of its block: :meth:`unreachable`)."""
        return [(f, call) for f, call, live in self._all_calls(target) if live]

    def with_callers(self, target: FunctionInfo) -> list[FunctionInfo]:
        """``target`` and every function of the module that calls it, directly or through others
        (:meth:`callers`), nearest first."""
        out, seen = [target], {id(target)}
        for cur in out:
            for caller, _call in self.callers(cur):
                if id(caller) not in seen:
                    seen.add(id(caller))
                    out.append(caller)
        return out

    def _all_calls(self, target: FunctionInfo) -> list[tuple[FunctionInfo, cst.Call, bool]]:
        """``(caller, call, can run)`` for every call of ``target`` in this module."""
        graph = self._callers
        if graph is None:
            graph = self._callers = {}
            for f in self.functions:
                for call in f.calls:
                    callee = self.callee_of(call, f)
                    if callee is not None:
                        graph.setdefault(id(callee), []).append((f, call, not self.unreachable(call)))
        return graph.get(id(target), [])

    def untyped_method_calls(self, target: FunctionInfo) -> list[tuple[FunctionInfo, cst.Call]]:
        """``(caller, call)`` for the calls of a method of ``target``'s name, outside ``target``, on an
        object whose class the analysis cannot tell (a parameter, a value a call returned), which may
        be calls of the method ``target`` (Dev10x-Claude's ``manager.refresh()``); none when
        ``target`` is no method."""
        if target.class_name is None:
            return []
        return [
            (f, call)
            for f in self.functions
            if f is not target
            for call in f.calls
            if isinstance(call.func, cst.Attribute)
            and call.func.attr.value == target.name
            and self._untyped_receiver(call.func.value)
            and not self.unreachable(call)
            and self.callee_of(call, f) is None
        ]

    def _untyped_receiver(self, expr: cst.BaseExpression) -> bool:
        """``expr`` is not an imported name (``asyncio`` in ``asyncio.run()``) nor a class of the
        module (``Other.run()``): its class is unknown, it may be an instance of any class."""
        head = (get_full_name_for_node(expr) or "").partition(".")[0]
        return head not in self.imports and head not in self.relative_imports and head not in self.class_bases

    def dead_callers(self, target: FunctionInfo) -> list[tuple[FunctionInfo, cst.Call]]:
        """``(caller, call)`` for every call of ``target`` in this module that never runs (after a
        ``return`` of its block: :meth:`unreachable`), in source order."""
        return [(f, call) for f, call, live in self._all_calls(target) if not live]

    def unreachable(self, node: cst.CSTNode) -> bool:
        """``node`` sits in a statement that follows a ``return``, ``raise``, ``continue`` or
        ``break`` of the same block, in its function (or module): it never runs, and a call there
        reaches nothing (thothctl's ``list_tools`` handler defines and calls its roots helper after
        its ``return``)."""
        return self.stopped_by(node) is not None

    def stopped_by(self, node: cst.CSTNode) -> str | None:
        """The keyword (``return``, ``raise``, ``continue``, ``break``) of the statement that
        ``node`` follows in its block, so it never runs (:meth:`unreachable`); None when it can run."""
        child: cst.CSTNode = node
        parent = self.parents.get(id(node))
        while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            body = parent.body if isinstance(parent, (cst.IndentedBlock, cst.Module)) else None
            if isinstance(body, (list, tuple)):
                for stmt in body:
                    if stmt is child:
                        break
                    if isinstance(stmt, cst.SimpleStatementLine):
                        for small in stmt.body:
                            if isinstance(small, (cst.Return, cst.Raise, cst.Continue, cst.Break)):
                                return type(small).__name__.lower()
            child, parent = parent, self.parents.get(id(parent))
        return None

    def references_outside_calls(self, target: FunctionInfo) -> bool:
        """True when the function's name is used other than by a direct call in this module
        (passed as a callback, stored, exported): its callers cannot all be seen."""
        loads = (
            self.name_counts.get(target.name, 0)
            - self.member_names.get(target.name, 0)
            - sum(1 for f in self.functions if f.name == target.name)
        )
        direct = len(self._all_calls(target))  # a call that never runs is still no other use
        names = (target.name, f"self.{target.name}")
        registered = len(
            {id(e) for _m, e in self.handlers if get_full_name_for_node(e) in names}
            | {id(reg[1]) for reg in self.registrations if get_full_name_for_node(reg[1]) in names}
        )
        return loads > direct + registered

    def enclosing_function(self, node: cst.CSTNode) -> FunctionInfo | None:
        """The innermost function around ``node`` (a function's own ``FunctionDef`` belongs to
        the function around it)."""
        owner = self._owner
        if owner is None:
            owner = self._owner = self._owners()
        return owner.get(id(node))

    def _owners(self) -> dict[int, FunctionInfo]:
        """``id(node) ->`` the innermost function around it, for every node of the module."""
        owner: dict[int, FunctionInfo] = {}
        order, end = self.flat.order, self.flat.end
        for i in self.flat.of_types((cst.FunctionDef,)):  # pre-order: inner functions overwrite
            node = order[i]
            info = self.by_node.get(node) if isinstance(node, cst.FunctionDef) else None
            if info is not None:
                for j in range(i + 1, end[i]):
                    owner[id(order[j])] = info
        return owner

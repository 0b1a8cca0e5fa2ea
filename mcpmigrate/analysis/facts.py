"""The one-pass collector: what one libcst visitor pass reads off a module — imports (and the
SDK generation they name), classes and their bases, functions (parameters, assignments, calls),
registrations of tools, prompts, resources and handlers, module-level assignments, how often
each name occurs, which expressions are awaited — and name resolution through the imports.

:class:`Facts` holds these (and the kinds the fixed point of :mod:`mcpmigrate.analysis.module`
adds to them); :class:`Collector` fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis.summary import import_generation
from mcpmigrate.fastwalk import Flat

if TYPE_CHECKING:
    from mcpmigrate.analysis.kinds import Kind
    from mcpmigrate.analysis.module import ModuleAnalysis


def code_of(node: cst.CSTNode) -> str:
    """The source text of ``node`` alone (libcst codegen; default indentation and newlines)."""
    return cst.Module([]).code_for_node(node)


@dataclass(eq=False)
class FunctionInfo:
    node: cst.FunctionDef
    name: str
    qualname: str
    class_name: str | None
    parent: FunctionInfo | None
    params: list[cst.Param]
    kinds: dict[str, Kind] = field(default_factory=dict)
    assigns: list[tuple[str, cst.BaseExpression]] = field(default_factory=list)
    calls: list[cst.Call] = field(default_factory=list)
    role: str | None = None  # tool | prompt | resource | lowlevel-tool | list-tools | handler
    server_generation: str | None = None
    registered_name: str | None = None  # the MCP name of the tool/prompt/resource, when literal
    method: str | None = None  # the MCP method a registered handler serves (``tools/list``), any registration

    @property
    def is_async(self) -> bool:
        return self.node.asynchronous is not None

    def param_names(self) -> list[str]:
        return [p.name.value for p in self.params]


class Facts:
    """What the pass collects about one module, and name resolution through its imports."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.imports: dict[str, str] = {}
        #: ``from .ctx import ShopContext`` → ``{"ShopContext": (1, "ctx.ShopContext")}``: relative
        #: imports, by level (not in ``imports``: they name no absolute module)
        self.relative_imports: dict[str, tuple[int, str]] = {}
        self.functions: list[FunctionInfo] = []
        self.by_node: dict[cst.FunctionDef, FunctionInfo] = {}
        self.module_kinds: dict[str, Kind] = {}
        self.class_kinds: dict[str, dict[str, Kind]] = {}
        self.module_assigns: list[tuple[str, cst.BaseExpression]] = []
        self.elem_kinds: dict[str, Kind] = {}  # module-level containers: SESSIONS: list[ServerSession]
        self.class_bases: dict[str, list[str]] = {}
        self.server_generation: dict[str, str] = {}  # server variable -> generation
        self.registrations: list[tuple[str, cst.CSTNode, str, str | None]] = []  # (role, fn expr, gen, server)
        # every handler registration, whatever its method: (MCP method, fn expr) — entry points
        self.handlers: list[tuple[str, cst.CSTNode]] = []
        self.generations: set[str] = set()
        self.name_counts: dict[str, int] = {}  # every Name node's value, counted once per pass
        # of those, the names that are an attribute (not of self/cls) or a keyword: no use of a
        # function of that name (references_outside_calls subtracts them)
        self.member_names: dict[str, int] = {}
        self.awaited: set[int] = set()  # ids of expressions directly under `await`
        self.parents: dict[int, cst.CSTNode] = {}  # id(node) -> parent node, for the whole module
        self.flat: Flat  # the module in pre-order (fastwalk.Flat), replayed by every detector
        self.path: Path | None = None  # the file, when known (the interim fix reads its project's pins)
        self.source: bytes | None = None  # the bytes the module was parsed from, when known (see ModuleAnalysis.code)
        self.target_sdk: str | None = None  # `--target-sdk`: the SDK the port re-pins the project to
        # a later fix round of a run whose port rewrote this module's mcp 1.x code (pipeline._apply_codemods)
        self.ported_from_mcp1 = False

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

    def imports_sdk_client(self) -> bool:
        """The module imports an SDK client (``mcp.client…``, ``ClientSession``, fastmcp's
        ``Client``): client code, which declares its own capabilities and sends client requests."""
        return any(
            v.startswith(("mcp.client", "fastmcp.client")) or v in ("mcp.ClientSession", "mcp.Client", "fastmcp.Client")
            for v in self.imports.values()
        )


class Collector(cst.CSTVisitor):
    """One pass: imports, classes, functions (params, assignments, calls), registrations."""

    def __init__(self, a: ModuleAnalysis) -> None:
        self.a = a
        self.fn_stack: list[FunctionInfo] = []
        self.class_stack: list[str] = []
        # per entry of fn_stack: whether entering it pushed an empty class scope ("")
        self.pushed_empty: list[bool] = []
        self.aliases: dict[str, cst.BaseExpression] = {}  # module-level decorator aliases (_alias)

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
        if node.relative and not isinstance(node.names, cst.ImportStar):
            mod = get_full_name_for_node(node.module) if node.module is not None else ""
            for alias in node.names:
                name = get_full_name_for_node(alias.name) or ""
                local = get_full_name_for_node(alias.asname.name) if alias.asname else name
                self.a.relative_imports[local or name] = (len(node.relative), f"{mod}.{name}" if mod else name)
            return
        if node.relative or node.module is None:
            return
        mod = get_full_name_for_node(node.module) or ""
        self._note_generation(mod)
        if isinstance(node.names, cst.ImportStar):
            # `from mcp.server.fastmcp import *`: the SDK names it brings in resolve as if spelled
            for name in S.STAR_EXPORTS.get(mod, ()):
                self.a.imports.setdefault(name, f"{mod}.{name}")
            return
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            local = get_full_name_for_node(alias.asname.name) if alias.asname else name
            self.a.imports[local or name] = f"{mod}.{name}"
            self._note_generation(f"{mod}.{name}")

    def _note_generation(self, name: str) -> None:
        gen = import_generation(name)
        if gen:
            self.a.generations.add(gen)

    # classes
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.class_stack.append(node.name.value)
        self.a.class_bases[node.name.value] = [q for q in (self.a.qualname(b.value) for b in node.bases) if q]

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.class_stack.pop()

    # functions
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        parent = self.fn_stack[-1] if self.fn_stack else None
        # a class nested inside the function is rare; methods of the innermost class win
        cls = self.class_stack[-1] if self.class_stack else None
        if parent is not None and cls is not None and parent.class_name == cls:
            cls = None  # a function nested in a method
        params = list(node.params.posonly_params) + list(node.params.params) + list(node.params.kwonly_params)
        if isinstance(node.params.star_arg, cst.Param):
            params.append(node.params.star_arg)
        prefix = f"{cls}." if cls else (f"{parent.qualname}." if parent else "")
        info = FunctionInfo(
            node=node,
            name=node.name.value,
            qualname=prefix + node.name.value,
            class_name=cls,
            parent=parent,
            params=params,
        )
        self.a.functions.append(info)
        self.a.by_node[node] = info
        for dec in node.decorators:
            self._decorator_role(dec.decorator, node)
        self.fn_stack.append(info)
        # class methods: the class scope ends inside; functions nested in methods have no class
        push_empty = cls is None and bool(self.class_stack)
        if push_empty:
            self.class_stack.append("")
        self.pushed_empty.append(push_empty)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.fn_stack.pop()
        if self.pushed_empty.pop():
            self.class_stack.pop()

    def _decorator_role(self, dec: cst.BaseExpression, fn: cst.CSTNode) -> None:
        """Record the registration ``dec`` makes of ``fn``: ``@server.tool()``, ``@server.list_tools()``,
        ``@self.server.call_tool()``, or a module-level alias of either (``tool = server.tool``,
        ``register = server.call_tool()``)."""
        call = dec if isinstance(dec, cst.Call) else None
        target = call.func if call else dec
        if isinstance(target, cst.Name):
            alias = self._alias(target.value)
            if isinstance(alias, cst.Attribute):  # tool = server.tool; @tool()
                target = alias
            elif isinstance(alias, cst.Call) and call is None:  # register = server.call_tool(); @register
                call, target = alias, alias.func
        if not isinstance(target, cst.Attribute):
            return
        attr = target.attr.value
        server_name = get_full_name_for_node(target.value)
        if attr in S.DECORATOR_METHODS and (call is not None or attr in S.HANDLER_DECORATORS):
            self.a.handlers.append((S.DECORATOR_METHODS[attr], fn))
        if attr in S.HANDLER_DECORATORS:
            self.a.registrations.append((S.HANDLER_DECORATORS[attr], fn, "", server_name))
        elif attr in S.LOWLEVEL_CALL_TOOL_DECORATORS and call is not None:
            self.a.registrations.append(("lowlevel-" + S.LOWLEVEL_CALL_TOOL_DECORATORS[attr], fn, S.MCP1, server_name))
        elif attr == S.LOWLEVEL_LIST_TOOLS_DECORATOR and call is not None:
            self.a.registrations.append(("list-tools", fn, S.MCP1, server_name))

    def _alias(self, name: str) -> cst.BaseExpression | None:
        """The registration decorator a module-level ``name`` was last assigned before this point
        (``tool = server.tool``, ``register = server.call_tool()``), if any."""
        return self.aliases.get(name)

    # statements
    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._assign(t.target, node.value)
            # server.request_handlers[types.ListToolsRequest] = handler
            tgt = t.target
            if (
                isinstance(tgt, cst.Subscript)
                and isinstance(tgt.value, cst.Attribute)
                and tgt.value.attr.value == "request_handlers"
                and len(tgt.slice) == 1
                and isinstance(tgt.slice[0].slice, cst.Index)
            ):
                request = (get_full_name_for_node(tgt.slice[0].slice.value) or "").rsplit(".", 1)[-1]
                method = S.REQUEST_TYPE_METHODS.get(request)
                if method is not None:
                    self.a.handlers.append((method, node.value))

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
            deco = value.func if isinstance(value, cst.Call) else value
            if isinstance(deco, cst.Attribute) and deco.attr.value in S.DECORATOR_METHODS:
                self.aliases[name] = value
            else:
                self.aliases.pop(name, None)

    def visit_Name(self, node: cst.Name) -> None:
        counts = self.a.name_counts
        counts[node.value] = counts.get(node.value, 0) + 1

    # ``server.set_logging_level`` and ``f(call_tool=…)`` hold a Name that is no use of a function
    # of that name (a handler named like its decorator is not "used elsewhere"): counted apart, in
    # member_names, while name_counts keeps every Name (a module that calls
    # ``session.check_client_capability`` does compare capabilities). ``self.handle``/``cls.handle``
    # are not members here: a method passed on as a value is a use.
    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
            return
        counts = self.a.member_names
        counts[node.attr.value] = counts.get(node.attr.value, 0) + 1

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            counts = self.a.member_names
            counts[node.keyword.value] = counts.get(node.keyword.value, 0) + 1

    def visit_Await(self, node: cst.Await) -> None:
        self.a.awaited.add(id(node.expression))

    def visit_Call(self, node: cst.Call) -> None:
        if self.fn_stack:
            self.fn_stack[-1].calls.append(node)
        # 2.x low-level constructor keywords: Server("x", on_call_tool=handler). mcp 1.x's Server
        # takes no `on_…` keyword (handlers are registered with decorators), so they are 2.x evidence.
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value.startswith("on_"):
                if self.a.qualname(node.func) in S.LOWLEVEL_SERVERS:
                    self.a.generations.add(S.MCP2)
            if arg.keyword is not None and arg.keyword.value in S.LOWLEVEL_REQUEST_KWARGS:
                if self.a.qualname(node.func) in S.LOWLEVEL_SERVERS:
                    self.a.handlers.append((S.LOWLEVEL_REQUEST_KWARGS[arg.keyword.value], arg.value))
            if arg.keyword is not None and arg.keyword.value in S.LOWLEVEL_HANDLER_KWARGS:
                if self.a.qualname(node.func) in S.LOWLEVEL_SERVERS:
                    self.a.registrations.append(
                        ("lowlevel-" + S.LOWLEVEL_HANDLER_KWARGS[arg.keyword.value], arg.value, S.MCP2, None)
                    )
            elif arg.keyword is not None and arg.keyword.value == "on_list_tools":
                if self.a.qualname(node.func) in S.LOWLEVEL_SERVERS:
                    self.a.registrations.append(("list-tools", arg.value, S.MCP2, None))
        # mcp.add_tool(fn) / mcp.tool()(fn) / server.call_tool()(fn) / server.list_tools()(self.fn)
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("add_tool", "add_prompt") and node.args:
            self.a.registrations.append(
                (func.attr.value[4:], node.args[0].value, "", get_full_name_for_node(func.value))
            )
            self.a.handlers.append((S.DECORATOR_METHODS[func.attr.value[4:]], node.args[0].value))
        first = node.args[0].value if node.args and not node.args[0].keyword and not node.args[0].star else None
        if isinstance(func, cst.Attribute) and isinstance(first, (cst.Name, cst.Attribute)):
            role = S.HANDLER_DECORATORS.get(func.attr.value)  # fastmcp: mcp.tool(fn), mcp.prompt(fn)
            owner = (get_full_name_for_node(func.value) or "").rpartition(".")[2]
            if func.attr.value == "from_function" and owner in S.FROM_FUNCTION:  # Tool.from_function(fn)
                role, server = S.FROM_FUNCTION[owner], None
            else:
                server = get_full_name_for_node(func.value)
            if role is not None:
                self.a.registrations.append((role, first, "", server))
                self.a.handlers.append((S.DECORATOR_METHODS[role], first))
        if node.args and not node.args[0].keyword:
            if isinstance(func, cst.Call):
                self._decorator_role(func, node.args[0].value)
            elif isinstance(func, cst.Name) and isinstance(self.aliases.get(func.value), cst.Call):
                self._decorator_role(func, node.args[0].value)  # register = server.call_tool(); register(fn)

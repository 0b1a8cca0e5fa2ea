"""What a possible caller does, read with Python's own ``ast`` (one file at a time, for the
project pass of :mod:`mcpmigrate.analysis.project`): its imports, star imports, module-level names,
every call of one of the names looked for, with the kinds of its arguments (a context or a
session, read off the caller's parameter annotations through its imports: the SDK classes of
:mod:`mcpmigrate.surfaces`; ``ctx.session`` / ``ctx.request_context`` on such a parameter), and
every registration of one of them as a tool, prompt or resource (:func:`_registrations`: the
spellings mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer`` and fastmcp 2–4 accept without a decorator —
``server.tool(name=…)(fn)``, ``server.tool(fn)``, ``server.add_tool(fn)``,
``server.add_tool(Tool.from_function(fn, …))``, the same for prompts and resources, and a ``for``
loop over a literal list of functions).

:func:`summarize_all` is a worker pool's task (the engine runs the summaries there); nothing here
imports libcst.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from mcpmigrate import surfaces as S

#: Kind values (``analysis.kinds.Kind``) of the SDK classes an annotation can name, in order.
_ANNOTATION_KINDS = (
    (S.MCP_CONTEXT_V1, "mcp1-context"),
    (S.MCP_CONTEXT_V2, "mcp2-context"),
    (S.FASTMCP_CONTEXT, "fastmcp-context"),
    (S.LOWLEVEL_CONTEXT, "request-context"),
    (S.SESSION_TYPES, "session"),
)
_CONTEXT_KINDS = {"mcp1-context", "mcp2-context", "fastmcp-context"}
#: What registers a function (the call's method or class → the role the function gets): the
#: decorator factories called on it (``server.tool(name="x")(fn)``, fastmcp's ``server.tool(fn)``:
#: :data:`surfaces.HANDLER_DECORATORS`), the ``add_*`` methods (:data:`surfaces.REGISTER_METHODS`)
#: and the components' ``from_function`` constructors (:data:`surfaces.FROM_FUNCTION`).
#: Bytes of a file that may register a function (the names above, as called).
REGISTER_TOKENS = (
    b".tool(",
    b".prompt(",
    b".resource(",
    b"add_tool(",
    b"add_prompt(",
    b"add_resource",
    b"add_template(",
    b"from_function(",
)


def import_generation(name: str) -> str | None:
    """The SDK generation an imported dotted name belongs to (:data:`surfaces.MCP1` for
    ``mcp.server.fastmcp``, ``MCP2`` for ``mcp.server.mcpserver``/``mcp_types``, ``FASTMCP`` for
    ``fastmcp``), else None."""
    if name.startswith("mcp.server.fastmcp") or name in S.FASTMCP_V1_SERVER:
        return S.MCP1
    if (
        name.startswith(("mcp.server.mcpserver", "mcp_types", "mcp.server.context"))
        or name in S.MCPSERVER_V2
        or name in S.LOWLEVEL_CONTEXT_V2
    ):
        return S.MCP2
    if name == "fastmcp" or name.startswith("fastmcp."):
        return S.FASTMCP
    return None


@dataclass(frozen=True)
class Registration:
    """A function registered as a tool, prompt or resource by a call (not a decorator)."""

    where: str  # the registering function's qualname ("" at module level)
    role: str  # tool | prompt | resource
    name: str  # the function as spelled (``fn``, ``tools.fn``)
    generation: str | None  # the SDK generation the registering module imports (only one), else None
    registered_name: str | None  # the MCP name, when a literal ``name=`` gives it
    task: str | None = None  # fastmcp's background-task keyword as written (``task=True``), unless False/None


@dataclass
class ModuleSummary:
    """What :func:`summarize` reads off a possible caller with ``ast``."""

    imports: list[tuple[str, str, str | None, int]] = field(default_factory=list)  # (local, module, name, level)
    stars: list[tuple[str, int]] = field(default_factory=list)  # (module, level) of `from m import *`
    defs: set[str] = field(default_factory=set)  # module-level names it defines
    calls: list[tuple[str, str | None, str, tuple[tuple[int | str, str], ...]]] = field(default_factory=list)
    registrations: list[Registration] = field(default_factory=list)


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for an ``ast`` chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _annotation_kind(ann: ast.expr | None, imports: dict[str, str]) -> str | None:
    """The Kind value of the first SDK class an annotation names (``Optional``, ``Annotated``,
    unions, string annotations looked into)."""
    if ann is None:
        return None
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(ann, ast.BinOp):
        return _annotation_kind(ann.left, imports) or _annotation_kind(ann.right, imports)
    if isinstance(ann, ast.Subscript):
        inner = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        head = (dotted(ann.value) or "").rsplit(".", 1)[-1]
        if head == "Annotated":
            inner = inner[:1]
        elif head not in ("Optional", "Union"):
            inner = []
        for el in inner:
            k = _annotation_kind(el, imports)
            if k:
                return k
        return None
    name = dotted(ann)
    if not name:
        return None
    head, _, rest = name.partition(".")
    full = (imports[head] + ("." + rest if rest else "")) if head in imports else name
    for names, kind in _ANNOTATION_KINDS:
        if full in names:
            return kind
    return None


#: What a summary records for a decorated tool's, prompt's or resource's ``ctx``/``context``
#: parameter that nothing types (``ctx=None``, ``ctx: Any = None``) when it is passed on: the SDK
#: injects its Context only into a parameter annotated with it, so what arrives is a tool argument.
#: Not a :class:`~mcpmigrate.analysis.kinds.Kind`: the callee's analysis reads it apart.
UNINJECTED = "uninjected-context"


def _context_getter(func: ast.expr, imports: dict[str, str]) -> bool:
    """``CurrentContext`` / ``get_context`` of fastmcp, under any import spelling."""
    name = dotted(func) or ""
    head, _, rest = name.partition(".")
    full = (imports[head] + ("." + rest if rest else "")) if head in imports else name
    return S.GET_CONTEXT_FUNCTIONS.get(full) == S.FASTMCP


def _imports_sdk(imports: dict[str, str]) -> bool:
    return any(v == "mcp" or v.startswith(("mcp.", "fastmcp")) or import_generation(v) for v in imports.values())


def _says_nothing(ann: ast.expr | None, imports: dict[str, str]) -> bool:
    """No annotation, or one that does not say what the parameter is (``Any``, ``object``,
    ``Optional[Any]``, ``Any | None``; ``Any`` under any alias)."""
    if ann is None:
        return True
    if isinstance(ann, ast.BinOp):
        return _says_nothing(ann.left, imports) and _says_nothing(ann.right, imports)
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):  # `ctx: "Any"`
        try:
            return _says_nothing(ast.parse(ann.value, mode="eval").body, imports)
        except SyntaxError:
            return False
    if isinstance(ann, ast.Constant):
        return ann.value is None
    if isinstance(ann, ast.Subscript):
        head = (dotted(ann.value) or "").rsplit(".", 1)[-1]
        inner = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        return head in ("Optional", "Union") and all(_says_nothing(el, imports) for el in inner)
    name = dotted(ann) or ""
    head, _, rest = name.partition(".")
    full = (imports[head] + ("." + rest if rest else "")) if head in imports else name
    return full in ("typing.Any", "typing_extensions.Any", "Any", "object", "None")


def _arg_kind(expr: ast.expr, params: dict[str, str]) -> str | None:
    """``ctx`` (a parameter with a kind), ``ctx.session``, ``ctx.request_context(.session)``."""
    name = dotted(expr)
    if not name:
        return None
    parts = name.split(".")
    k = params.get(parts[0])
    if k is None:
        return None
    for attr in parts[1:]:
        if attr == "session" and k in (*_CONTEXT_KINDS, "request-context"):
            k = "session"
        elif attr == "request_context" and k in _CONTEXT_KINDS:
            k = "request-context"
        else:
            return None
    return k


def _role(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Attribute):
            attr = target.attr
            if attr in S.HANDLER_DECORATORS:
                return S.HANDLER_DECORATORS[attr]
            if attr in S.DECORATOR_METHODS and isinstance(dec, ast.Call):
                return S.DECORATOR_METHODS[attr]
    return None


def summarize(source: bytes, names: set[str]) -> ModuleSummary | None:
    """The :class:`ModuleSummary` of a file (None: ``ast`` cannot parse it): its imports, and its
    calls of a name in ``names`` (the targets' functions it mentions), directly or as an
    attribute (``paths.album_dir``)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out = ModuleSummary()
    imports: dict[str, str] = {}  # local name -> dotted name, for annotations
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.defs.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            _note_import(stmt, out, imports)
        elif isinstance(stmt, ast.If) and _type_checking(stmt):  # `if TYPE_CHECKING: from fastmcp import FastMCP`
            for inner in stmt.body:
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    _note_import(inner, out, imports)
    _calls(tree.body, "", None, {}, imports, names, out)
    if any(role is None and "." in where for where, role, _n, _k in out.calls) and any(
        tok in source for tok in REGISTER_TOKENS
    ):  # a method its class registers (`server.tool(name="x")(self.run)`) is that role's handler
        roles = _self_registered(tree)
        out.calls = [(w, role or roles.get(w), n, k) for w, role, n, k in out.calls]
    if names and any(tok in source for tok in REGISTER_TOKENS):  # the walk only where a registration may be
        gens = {g for g in map(import_generation, imports.values()) if g}
        _registrations(tree, names, imports, gens.pop() if len(gens) == 1 else None, out)
    return out


def _self_registered(tree: ast.Module) -> dict[str, str]:
    """``Class.method`` -> role for each method a method of its own class registers through ``self``
    (``server.tool(name="x")(self.method)``, ``server.add_tool(self.method)``)."""
    out: dict[str, str] = {}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if not isinstance(node, ast.Call):
                continue
            for role, fexpr, _label, _task in _registered(node):
                if isinstance(fexpr, ast.Attribute) and isinstance(fexpr.value, ast.Name) and fexpr.value.id == "self":
                    out.setdefault(f"{cls.name}.{fexpr.attr}", role)
    return out


def _registrations(
    tree: ast.Module, names: set[str], imports: dict[str, str], gen: str | None, out: ModuleSummary
) -> None:
    """Record the registrations of ``names`` in ``tree`` (:data:`surfaces.HANDLER_DECORATORS`,
    :data:`surfaces.REGISTER_METHODS`, :data:`surfaces.FROM_FUNCTION`), at module level or in a function; the
    function of ``for fn in (a, b):`` / ``for fn in TOOLS:`` (a literal list, tuple or set of
    functions, ``TOOLS`` assigned one earlier in the file) is each of them. A receiver built from or
    annotated with an imported class of another library (``agent = pydantic_ai.Agent(…)``;
    ``agent.tool(fn)``) registers nothing here."""
    literals: dict[str, list[ast.expr]] = {}  # TOOLS = [a, b], read before the loops that use them
    foreign: set[str] = set()  # names bound to an instance of an imported non-MCP class

    def visit(node: ast.AST, where: str, loops: dict[str, list[ast.expr]]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for dec in node.decorator_list:
                visit(dec, where, loops)
            if not isinstance(node, ast.ClassDef):
                args = node.args
                for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                    if a.annotation is not None and _foreign(a.annotation, imports):
                        foreign.add(a.arg)
            for stmt in node.body:
                visit(stmt, f"{where}.{node.name}" if where else node.name, {})
            return
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if isinstance(node.value, (ast.List, ast.Tuple, ast.Set)):
                literals.update((t.id, node.value.elts) for t in targets if isinstance(t, ast.Name))
            elif isinstance(node.value, ast.Call) and _foreign(node.value.func, imports):
                foreign.update(t.id for t in targets if isinstance(t, ast.Name))
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            it = node.iter
            elts = it.elts if isinstance(it, (ast.List, ast.Tuple, ast.Set)) else None
            if isinstance(it, ast.Name):
                elts = loops.get(it.id) or literals.get(it.id)
            inner = {**loops, node.target.id: elts} if elts else {k: v for k, v in loops.items() if k != node.target.id}
            visit(node.iter, where, loops)
            for stmt in [*node.body, *node.orelse]:
                visit(stmt, where, inner)
            return
        if isinstance(node, ast.Call):
            for role, fexpr, label, task in [] if _receiver(node) in foreign else _registered(node):
                for e in loops.get(fexpr.id, [fexpr]) if isinstance(fexpr, ast.Name) else [fexpr]:
                    name = dotted(e)
                    if name and name.rpartition(".")[2] in names:
                        out.registrations.append(Registration(where, role, name, gen, label, task))
        for child in ast.iter_child_nodes(node):
            visit(child, where, loops)

    visit(tree, "", {})


def _registered(call: ast.Call) -> list[tuple[str, ast.expr, str | None, str | None]]:
    """``(role, function expression, literal name, task keyword)`` of what ``call`` registers
    (nothing: [])."""
    func = call.func
    first = call.args[0] if call.args and not isinstance(call.args[0], ast.Starred) else None
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and first is not None:
        role = S.HANDLER_DECORATORS.get(func.func.attr)  # server.tool(name="x")(fn)
        return [(role, first, *_options(func))] if role else []
    if not isinstance(func, ast.Attribute):
        return []
    fexpr = first if first is not None else next((k.value for k in call.keywords if k.arg == "fn"), None)
    if fexpr is None:
        return []
    if func.attr in S.HANDLER_DECORATORS and not isinstance(fexpr, ast.Constant):  # fastmcp: server.tool(fn)
        return [(S.HANDLER_DECORATORS[func.attr], fexpr, *_options(call))]
    if func.attr in S.REGISTER_METHODS:  # server.add_tool(fn, name=…); add_tool(Tool.from_function(fn)) below
        return [] if isinstance(fexpr, ast.Call) else [(S.REGISTER_METHODS[func.attr], fexpr, *_options(call))]
    owner = dotted(func.value)
    if func.attr == "from_function" and owner and owner.rpartition(".")[2] in S.FROM_FUNCTION:
        return [(S.FROM_FUNCTION[owner.rpartition(".")[2]], fexpr, *_options(call))]
    return []


def _options(call: ast.Call) -> tuple[str | None, str | None]:
    """The literal ``name=`` of a registering call, and its ``task=…`` as written (unless False/None)."""
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    task = kw.get("task")
    if isinstance(task, ast.Constant) and task.value in (False, None):
        task = None
    return _literal(kw.get("name")), (f"task={ast.unparse(task)}" if task is not None else None)


def _foreign(expr: ast.expr, imports: dict[str, str]) -> bool:
    """``expr`` names a class imported from a library that is not an MCP SDK."""
    name = dotted(expr)
    if not name or name.split(".")[0] not in imports:
        return False
    head, _, rest = name.partition(".")
    full = imports[head] + ("." + rest if rest else "")
    return import_generation(full) is None and not full.startswith("mcp.")


def _receiver(call: ast.Call) -> str | None:
    """The head name of the object whose method ``call`` (or the call it calls) is."""
    func = call.func.func if isinstance(call.func, ast.Call) else call.func
    if not isinstance(func, ast.Attribute):
        return None
    return (dotted(func.value) or "").split(".")[0] or None


def _literal(expr: ast.expr | None) -> str | None:
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, str) else None


def _type_checking(stmt: ast.stmt) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:`` (no ``else``)."""
    return (
        isinstance(stmt, ast.If) and not stmt.orelse and (dotted(stmt.test) or "").rsplit(".", 1)[-1] == "TYPE_CHECKING"
    )


def _note_import(node: ast.Import | ast.ImportFrom, out: ModuleSummary, imports: dict[str, str]) -> None:
    if isinstance(node, ast.Import):
        for al in node.names:
            local = al.asname or al.name  # `import pkg.paths`: calls spell `pkg.paths.f`
            imports[al.asname or al.name.split(".")[0]] = al.name if al.asname else al.name.split(".")[0]
            out.imports.append((local, al.name, None, 0))
        return
    mod = node.module or ""
    for al in node.names:
        if al.name == "*":
            out.stars.append((mod, node.level))
            continue
        local = al.asname or al.name
        if not node.level:
            imports[local] = f"{mod}.{al.name}"
        out.imports.append((local, mod, al.name, node.level))


def _calls(
    body: list[ast.stmt],
    prefix: str,
    fn: ast.FunctionDef | ast.AsyncFunctionDef | None,
    params: dict[str, str],
    imports: dict[str, str],
    names: set[str],
    out: ModuleSummary,
) -> None:
    """Record the calls of ``names`` in ``body`` (a function's, with its ``params`` kinds), and
    the imports inside functions."""
    stack: list[ast.AST] = list(reversed(body))
    classes = {n.partition(".")[0] for n in names if "." in n}
    # only a function's own names: a module-level or class-level instance is read anywhere
    made, contained = _instances(body) if classes and fn is not None else ({}, set())
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = dict(params)
            args = node.args
            served = _role(node) in ("tool", "prompt", "resource") and _imports_sdk(imports)
            positional = [*args.posonlyargs, *args.args]
            defaults = dict(zip([a.arg for a in positional][::-1], args.defaults[::-1]))
            defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
            for a in [*positional, *args.kwonlyargs]:
                k = _annotation_kind(a.annotation, imports)
                default = defaults.get(a.arg)
                if k is None and isinstance(default, ast.Call) and _context_getter(default.func, imports):
                    k = "fastmcp-context"  # `ctx=CurrentContext()`: fastmcp injects it through the default
                if k:
                    inner[a.arg] = k
                elif (
                    served
                    and a.arg in ("ctx", "context")
                    and _says_nothing(a.annotation, imports)
                    and (default is None or (isinstance(default, ast.Constant) and default.value is None))
                ):
                    inner[a.arg] = UNINJECTED  # `@mcp.tool async def t(x, ctx=None)`: never the SDK's Context
                else:
                    inner.pop(a.arg, None)
            _calls(node.body, f"{prefix}{node.name}.", node, inner, imports, names, out)
            stack.extend(reversed(node.decorator_list))
            continue
        if isinstance(node, ast.ClassDef):
            if classes:  # a subclass: calls through its instances are not followed
                stack.extend([*node.bases, *node.keywords, *node.decorator_list])
            _calls(node.body, f"{prefix}{node.name}.", None, {}, imports, names, out)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if fn is not None:
                _note_import(node, out, {})
            continue
        use = _class_use(node, classes, contained, stack) if classes else None
        if use is not None:
            if use:
                # an instance that leaves this code (stored, passed, returned), or the class used otherwise
                # (a subclass, a factory method, an alias): the calls of its methods are not all seen
                out.calls.append((prefix[:-1], _role(fn) if fn is not None else None, use, ()))
            continue
        if isinstance(node, ast.Call) and fn is not None:
            func = node.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            name = dotted(func) if last in names else _method_call(func, made, names)
            if name:
                kinds: list[tuple[int | str, str]] = []
                for i, arg in enumerate(node.args):
                    if isinstance(arg, ast.Starred):
                        break
                    k = _arg_kind(arg, params)
                    if k:
                        kinds.append((i, k))
                for kw in node.keywords:
                    k = _arg_kind(kw.value, params) if kw.arg else None
                    if k and kw.arg:
                        kinds.append((kw.arg, k))
                out.calls.append((prefix[:-1], _role(fn), name, tuple(kinds)))
        stack.extend(ast.iter_child_nodes(node))


def _class_use(node: ast.AST, classes: set[str], contained: set[int], stack: list[ast.AST]) -> str | None:
    """How ``node`` uses one of ``classes`` (by its last name): ``""`` to make an instance that
    stays in its function (``contained``, :func:`_instances`); the class as spelled
    (``Runner``, ``agents.Runner``) for any other use; None when it is no use of them. A call of
    the class pushes only its arguments on ``stack`` (its callee is no other use)."""
    named = dotted(node.func) if isinstance(node, ast.Call) else None
    if isinstance(node, (ast.Name, ast.Attribute)) and not isinstance(node.ctx, ast.Store):
        named = dotted(node)
    if named is None or named.rpartition(".")[2] not in classes:
        return None
    if isinstance(node, ast.Call):
        stack.extend([*node.args, *node.keywords])
        return "" if id(node) in contained else named
    return named


def _instances(body: list[ast.stmt]) -> tuple[dict[str, str], set[int]]:
    """The names a code block (a function's, without its nested functions) binds once, to an
    instance of a class it calls by name (``executor = AgentExecutor(…)``: ``{"executor":
    "AgentExecutor"}``); and the instantiations (``id`` of the call) that stay in it: bound so to
    a name read only to call its methods (``executor.execute(…)``), or called at once
    (``AgentExecutor(…).execute(…)``)."""
    made: dict[str, ast.Call] = {}
    bound: dict[str, int] = {}
    other_reads: set[str] = set()
    contained: set[int] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            # a nested function's reads of the name (a closure) are uses this code does not see
            other_reads.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
            continue
        if isinstance(node, (ast.Global, ast.Nonlocal)):  # not the function's own names
            other_reads.update(node.names)
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                bound[node.id] = bound.get(node.id, 0) + 1
            else:
                other_reads.add(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            value = node.func.value
            if isinstance(value, ast.Call):
                contained.add(id(value))
            elif isinstance(value, ast.Name):  # `x.method(…)`: not another read of `x`
                stack.extend([*node.args, *node.keywords])
                continue
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and dotted(node.value.func) is not None
        ):
            made[node.targets[0].id] = node.value
        stack.extend(ast.iter_child_nodes(node))
    once = {name: call for name, call in made.items() if bound.get(name) == 1}
    contained |= {id(call) for name, call in once.items() if name not in other_reads}
    return {name: dotted(call.func) or "" for name, call in once.items()}, contained


def _method_call(func: ast.expr, made: dict[str, str], names: set[str]) -> str | None:
    """``Class.method`` as the caller spells it (``AgentExecutor.execute``, ``agents.AgentExecutor.execute``)
    for ``x.method(…)`` on an instance ``x`` of :func:`_instances`, or ``Class(…).method(…)``, when
    the class's last name and the method are one of ``names``."""
    if not isinstance(func, ast.Attribute):
        return None
    value = func.value
    if isinstance(value, ast.Name) and value.id in made:
        cls: str | None = made[value.id]
    elif isinstance(value, ast.Call):
        cls = dotted(value.func)
    else:
        return None
    if cls is None or f"{cls.rpartition('.')[2]}.{func.attr}" not in names:
        return None
    return f"{cls}.{func.attr}"


def summarize_all(jobs: list[tuple[bytes, frozenset[str]]]) -> list[ModuleSummary | None]:
    """:func:`summarize` of each ``(source, names)`` (a worker pool's task: picklable both ways)."""
    return [summarize(src, set(names)) for src, names in jobs]

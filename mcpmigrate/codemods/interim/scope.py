"""What an mcp 2.x resolver may read besides the tool's arguments and module-level names.

mcp 2.x (``mcp.server.mcpserver.resolve``) calls a resolver with the tool arguments it names, before
the tool body runs, and again on every round of a 2026-07-28 call. :func:`inputs` sorts what a
request reads into the tool arguments the resolver takes and the names that block it; a resolver
may also:

- recompute a **pure local** of the tool (:func:`copy_locals`): a local bound once, by a plain
  assignment at the top of the tool body before the request, from an expression that reads only
  tool arguments, module-level names, literals and other such locals, calls nothing that is not
  known pure (``codemods.effects``) and is not changed before the request — the assignment is
  copied into the resolver (``prompt = f"... {topic}"`` in the SDK's sampling snippet);
- read the **enclosing scopes** of a tool defined inside a factory function (:func:`outer_scope`):
  the resolver is defined right before the tool, in the same scope, so it sees what the tool sees;
  a name the factory binds only after the tool is not read (a resolver must not depend on it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of
from mcpmigrate.codemods.effects import has_effect
from mcpmigrate.names import BUILTINS, module_names, ref_names


@dataclass
class Outer:
    """The names of the function scopes around a nested tool: ``visible`` (their parameters and
    the names they bind only before the tool) and ``late`` (bound after the tool too)."""

    visible: set[str] = field(default_factory=set)
    late: set[str] = field(default_factory=set)


def scope_nodes(body: cst.CSTNode) -> list[cst.CSTNode]:
    """The nodes of one scope, in pre-order: nested functions, classes and lambdas are entered only
    for their name, decorators, defaults and annotations (their bodies are other scopes)."""
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [body]
    while stack:
        n = stack.pop()
        out.append(n)
        if isinstance(n, cst.FunctionDef):
            kids: list[cst.CSTNode] = [*n.decorators, n.name, *(p for p in all_params(n.params))]
        elif isinstance(n, cst.ClassDef):
            kids = [*n.decorators, n.name, *n.bases, *n.keywords]
        elif isinstance(n, cst.Lambda):
            kids = [p.default for p in all_params(n.params) if p.default is not None]
        else:
            kids = list(n.children)
        stack.extend(reversed(kids))
    return out


def all_params(params: cst.Parameters) -> list[cst.Param]:
    """Every parameter of ``params``: positional-only, plain, ``*args``, keyword-only, ``**kwargs``."""
    star = [params.star_arg] if isinstance(params.star_arg, cst.Param) else []
    kw = [params.star_kwarg] if params.star_kwarg is not None else []
    return [*params.posonly_params, *params.params, *star, *params.kwonly_params, *kw]


def bound_names(n: cst.CSTNode) -> set[str]:
    """The names node ``n`` itself binds: an assignment, ``for``, walrus, ``as`` or ``del`` target,
    a ``def``/``class`` name, an import, a ``global``/``nonlocal`` declaration."""
    targets: list[cst.CSTNode] = []
    if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For)):
        targets.append(n.target)
    elif isinstance(n, cst.AsName):
        targets.append(n.name)
    elif isinstance(n, cst.Del):
        targets.append(n.target)
    elif isinstance(n, (cst.FunctionDef, cst.ClassDef)):
        return {n.name.value}
    elif isinstance(n, cst.ImportAlias) and n.asname is None:
        return {code_of(n.name).split(".")[0]}
    elif isinstance(n, (cst.Global, cst.Nonlocal)):
        return {x.name.value for x in n.names}
    out: set[str] = set()
    for t in targets:
        stack = [t]
        while stack:
            x = stack.pop()
            if isinstance(x, cst.Name):
                out.add(x.value)
            elif isinstance(x, (cst.Tuple, cst.List, cst.StarredElement, cst.Element)):
                stack.extend(x.children)
    return out


def bindings(body: cst.CSTNode, name: str) -> list[cst.CSTNode]:
    """The nodes of ``body``'s scope that bind ``name``."""
    return [n for n in scope_nodes(body) if name in bound_names(n)]


def future_annotations(a: ModuleAnalysis) -> bool:
    """``from __future__ import annotations``: mcp 2.x then evaluates a tool's annotations in the
    module's namespace, where a resolver defined inside a factory is not visible."""
    for stmt in a.module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for s in stmt.body:
                if (
                    isinstance(s, cst.ImportFrom)
                    and s.module is not None
                    and code_of(s.module) == "__future__"
                    and not isinstance(s.names, cst.ImportStar)
                    and any(code_of(x.name) == "annotations" for x in s.names)
                ):
                    return True
    return False


def outer_scope(fn: FunctionInfo) -> Outer:
    """The names the function scopes around ``fn`` give a resolver defined right before it."""
    out = Outer()
    decided: set[str] = set()
    inner: cst.CSTNode = fn.node
    parent = fn.parent
    while parent is not None:
        order = scope_nodes(parent.node.body)
        at = next(i for i, n in enumerate(order) if n is inner)
        before: set[str] = set(parent.param_names())
        after: set[str] = set()
        for i, n in enumerate(order):
            names = bound_names(n)
            (after if i > at or isinstance(n, (cst.Global, cst.Nonlocal)) else before).update(names)
        for name in (before | after) - decided:
            (out.late if name in after else out.visible).add(name)
        decided |= before | after
        inner, parent = parent.node, parent.parent
    return out


def free_name(a: ModuleAnalysis, name: str, outer: Outer) -> bool:
    """``name`` means the same in a resolver placed right before the tool: a module-level name or a
    builtin (not shadowed by an enclosing scope), or a name an enclosing scope binds before the tool."""
    if name in outer.late:
        return False
    return name in outer.visible or name in module_names(a) or name in BUILTINS


def rebound(fn: FunctionInfo) -> set[str]:
    """The names ``fn``'s own scope binds, anywhere in its body (an assignment, a ``class``, a
    ``def``, an import …): each is a local of ``fn`` for the whole body, never the module-level name
    of that spelling; a ``global``/``nonlocal`` name counts where the body assigns it. (The analysis'
    ``assigns`` misses classes and functions, and holds the fields of a class defined in ``fn``,
    which bind in the class.)"""
    nodes = scope_nodes(fn.node.body)
    declared = {n for x in nodes if isinstance(x, (cst.Global, cst.Nonlocal)) for n in bound_names(x)}
    own = {n for x in nodes if not isinstance(x, (cst.Global, cst.Nonlocal)) for n in bound_names(x)}
    # a `global`/`nonlocal` name is the outer one, rebound only where the body assigns it
    return own - declared | {n for n, _ in fn.assigns if n in declared}


def inputs(
    a: ModuleAnalysis, fn: FunctionInfo, exprs: list[cst.BaseExpression], ctx_name: str, outer: Outer | None = None
) -> tuple[list[str], list[str]]:
    """What ``exprs`` read in ``fn``: ``(parameters of fn, names that exist only mid-body)``. A
    parameter counts when it is not the context, not reassigned and not an MCP object; module-level
    names and builtins are free, and so are the names ``outer`` scopes bind before a nested ``fn``
    (:func:`free_name`); anything else (a local, the context) blocks a resolver."""
    params = set(fn.param_names())
    module = module_names(a) - (outer.late if outer else set()) | (outer.visible if outer else set())
    reassigned = rebound(fn)
    needed: list[str] = []
    blocking: list[str] = []
    for n in ref_names(cst.Call(func=cst.Name("_"), args=[cst.Arg(e) for e in exprs])):
        v = n.value
        if v == "_" and "_" not in params and "_" not in reassigned:
            continue
        if v in params and v != ctx_name and v not in reassigned and fn.kinds.get(v) is None:
            if v not in needed:
                needed.append(v)
        elif v in params or v in reassigned or not (v in module or v in BUILTINS):
            blocking.append(v)
    return needed, blocking


#: Why a class the tool body defines cannot move above the tool, else None (``moved.move_reason``
#: bound to the module, the tool and its outer scope).
Movable = Callable[[cst.ClassDef], "str | None"]


@dataclass
class Copied:
    """What a resolver needs from the tool body: the pure locals it recomputes (``stmts``, in the
    tool's order), the tool arguments they read (``needed``), and the classes defined in the tool
    that move right above it (``moved``)."""

    stmts: list[cst.SimpleStatementLine] = field(default_factory=list)
    needed: list[str] = field(default_factory=list)
    moved: list[cst.ClassDef] = field(default_factory=list)


def copy_locals(
    a: ModuleAnalysis,
    fn: FunctionInfo,
    blocking: list[str],
    anchor: cst.CSTNode,
    ctx_name: str,
    outer: Outer,
    where: str = "tool",
    movable: Movable | None = None,
) -> Copied | str:
    """The assignments of the pure locals ``blocking`` (and the pure locals they read) to copy into
    the resolver, in the tool's order, the tool arguments they read, and the classes of the tool
    body that move above it; or the manual reason, naming them and why the first that cannot be
    recomputed cannot (it follows "the request is built from " / "passes "). ``anchor`` is the
    top-level statement that makes the request; ``where`` names ``fn`` in the reason (the tool, or
    the helper that makes the request); ``movable`` says why a class defined at the top of the body
    cannot move (without it, none moves)."""
    names = list(dict.fromkeys(blocking))
    why = _copy(a, fn, names, anchor, ctx_name, outer, where, movable)
    if not isinstance(why, str):
        return why
    return (
        f"{', '.join(f'`{n}`' for n in names)}, which a resolver cannot recompute ({why}): a resolver may only "
        f"use the {where}'s arguments, module-level names and locals assigned once from them, without calls, "
        "before the request; rewrite by hand"
    )


def _copy(
    a: ModuleAnalysis,
    fn: FunctionInfo,
    names: list[str],
    anchor: cst.CSTNode,
    ctx_name: str,
    outer: Outer,
    where: str,
    movable: Movable | None,
) -> Copied | str:
    body = fn.node.body
    if not isinstance(body, cst.IndentedBlock) or anchor not in body.body:
        return f"`{names[0]}` exists only mid-body"
    top: list[cst.CSTNode] = list(body.body)
    end = top.index(anchor)
    params = fn.param_names()
    reassigned = rebound(fn)
    chosen: dict[str, cst.SimpleStatementLine] = {}
    needed: list[str] = []
    moved: list[cst.ClassDef] = []
    todo = list(names)
    via: dict[str, str] = {}  # a local read by another one -> that one (named when it fails)

    def fail(name: str, why: str) -> str:
        return f"`{name}` {why}" + (f"; `{via[name]}` is computed from it" if name in via else "")

    while todo:
        name = todo.pop(0)
        if name in chosen:
            continue
        why = _why_not(fn, name, ctx_name, outer, where)
        if why:
            return fail(name, why)
        found = bindings(body, name)
        if len(found) != 1:
            return fail(
                name, f"is bound more than once in the {where}" if found else "is not defined where the resolver goes"
            )
        stmt = next((s for s in top[:end] if _inside(found[0], s)), None)
        value = _plain_value(stmt, name)
        definition = _definition(found[0], stmt, name, where, movable)
        if isinstance(definition, str):
            return fail(name, definition)
        if definition is not None:
            moved.append(definition)
            continue
        if stmt is None or value is None:
            return fail(name, f"is not bound by a plain assignment at the top of the {where} before the request")
        assert isinstance(stmt, cst.SimpleStatementLine)  # what _plain_value accepts
        if has_effect(value):
            return fail(
                name,
                f"is computed by `{code_of(value)}`, which calls or awaits something (the resolver would do it again "
                "on every round)",
            )
        for s in top[top.index(stmt) + 1 : end]:
            if any(n.value == name for n in ref_names(s)) and has_effect(s):
                return fail(
                    name, f"is used by `{code_of(s).strip().splitlines()[0]}` before the request, which may change it"
                )
        chosen[name] = stmt
        for ref in ref_names(value):
            v = ref.value
            if v in params and v != ctx_name and v not in reassigned and fn.kinds.get(v) is None:
                if v not in needed:
                    needed.append(v)
            elif v in params or v in reassigned or not free_name(a, v, outer):
                todo.append(v)
                via.setdefault(v, name)
    return Copied([c for s in top for c in chosen.values() if s is c], needed, moved)


def _definition(
    found: cst.CSTNode, stmt: cst.CSTNode | None, name: str, where: str, movable: Movable | None
) -> cst.ClassDef | str | None:
    """For ``name`` bound by ``found`` (in the top-level statement ``stmt`` before the request): a
    class that moves above the tool, or why a class or function defined in the body cannot be read
    by a resolver; None for anything else."""
    if isinstance(stmt, cst.ClassDef) and stmt is found and movable is not None:
        return movable(stmt) or stmt
    if isinstance(stmt, cst.ClassDef | cst.FunctionDef) and stmt.name.value == name:
        kind = "class" if isinstance(stmt, cst.ClassDef) else "function"
        return f"is a {kind} defined inside the {where}, which a resolver does not see; define it at module level"
    if isinstance(found, cst.ClassDef) and stmt is not None and movable is not None:
        return (
            f"is a class defined under `{code_of(stmt).strip().splitlines()[0]}` in the {where}, which a resolver "
            f"does not see: it is not defined once at the top of the {where}'s body, so the fix does not move it; "
            "define it at module level"
        )
    return None


def _why_not(fn: FunctionInfo, name: str, ctx_name: str, outer: Outer, where: str) -> str | None:
    """Why ``name`` is not a local a resolver could recompute, before looking at its assignment."""
    if name == ctx_name or fn.kinds.get(name) is not None:
        return f"is the context (or an MCP object), which exists only while the {where} runs"
    if name in fn.param_names():
        return f"is an argument the {where} reassigns"
    if name in outer.late:
        return f"is bound in `{fn.parent.qualname if fn.parent else ''}` after the tool"
    return None


def _inside(node: cst.CSTNode, stmt: cst.CSTNode) -> bool:
    return any(n is node for n in scope_nodes(stmt))


def _plain_value(stmt: cst.CSTNode | None, name: str) -> cst.BaseExpression | None:
    """The value of ``name = <value>`` / ``name: T = <value>`` when ``stmt`` is only that."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target: cst.BaseExpression = small.targets[0].target
    elif isinstance(small, cst.AnnAssign) and small.value is not None:
        target = small.target
    else:
        return None
    if not (isinstance(target, cst.Name) and target.value == name):
        return None
    return small.value

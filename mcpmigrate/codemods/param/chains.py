"""Call chains from the entry points to a roots request: which tools, prompts, resources and
low-level handlers reach it, which functions on the way need the path and which calls must pass
it, whether it can be threaded through all of them (or why not), and what on the way makes the
fix need review (a request made only on some paths; roots used as an allow-list)."""

from __future__ import annotations

import re

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of
from mcpmigrate.codemods.param.lowlevel import lowlevel_target
from mcpmigrate.codemods.param.sites import Site
from mcpmigrate.names import name_refs

ENTRY_ROLES = {"tool", "prompt", "resource", "lowlevel-tool", "lowlevel-prompt", "lowlevel-resource"}

#: A call that passes the path: ``(caller, call, callee)``.
Edge = tuple[FunctionInfo, cst.Call, FunctionInfo]


def reaching_entries(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[list[FunctionInfo], list[list[str]], str | None]:
    """Entry points (tools, prompts, resources, low-level handlers) whose call path reaches
    ``fn`` within the module, the call chains (as qualnames), and, when some function on the way
    is also used other than by a direct call (a callback, an export), the reason the chain leaves
    the module."""
    entries: list[FunctionInfo] = []
    chains: list[list[str]] = []
    leaves: str | None = None
    seen: set[int] = set()
    stack: list[tuple[FunctionInfo, list[str]]] = [(fn, [fn.qualname])]
    while stack:
        cur, chain = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        if cur.role in ENTRY_ROLES:
            entries.append(cur)
            chains.append(list(reversed(chain)))
            continue
        callers = a.callers(cur)
        if a.references_outside_calls(cur) and leaves is None:
            if cur is fn and not callers:
                leaves = (
                    f"`{cur.qualname}` is not called from a tool but passed on as a value (a lifespan, "
                    "a callback, a registered handler)"
                )
            else:
                leaves = f"`{cur.qualname}` is also used other than by a direct call in this module (chain: {' <- '.join(chain)})"
        for caller, _call in callers:
            stack.append((caller, chain + [caller.qualname]))
    return entries, chains, leaves


def unreached_description(a: ModuleAnalysis, fn: FunctionInfo) -> str:
    """How a function that no entry point reaches is (not) called: ``called only from `x`,
    which nothing calls``."""
    ends: list[list[str]] = []
    stack = [(fn, [fn.qualname])]
    seen: set[int] = set()
    while stack and len(ends) < 3:
        cur, chain = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        callers = a.callers(cur)
        if not callers:
            ends.append(chain)
        for caller, _ in callers:
            stack.append((caller, chain + [caller.qualname]))
    if not ends or ends == [[fn.qualname]]:
        return "nothing in this module calls it"
    parts = [" <- ".join(f"`{q}`" for q in chain) for chain in ends]
    return "its only call chains end in functions nothing calls: " + "; ".join(parts)


def closure(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[list[FunctionInfo], list[Edge]]:
    """Functions that need the path (``fn`` and its callers up to the entry points) and the
    call edges ``(caller, call, callee)`` that must pass it."""
    funcs = [fn]
    edges: list[Edge] = []
    seen = {id(fn)}
    stack = [fn]
    while stack:
        cur = stack.pop()
        if cur.role in ENTRY_ROLES:
            continue
        for caller, call in a.callers(cur):
            edges.append((caller, call, cur))
            if id(caller) not in seen:
                seen.add(id(caller))
                funcs.append(caller)
                stack.append(caller)
    return funcs, edges


def chain_reason(a: ModuleAnalysis, site: Site, funcs: list[FunctionInfo], edges: list[Edge]) -> str | None:
    """Why the path cannot be threaded to every function that needs it (None: it can)."""
    dead = set(site.changes)
    for f in funcs:
        if f.role == "resource":
            return (
                f"`{f.qualname}` is a resource: its parameters come from its URI template; put the path in the "
                "template (or make it a tool) by hand"
            )
        if f.role in ("lowlevel-prompt", "lowlevel-resource"):
            return (
                f"`{f.qualname}` is a low-level {f.role[9:]} handler: there is no inputSchema to carry a path parameter"
            )
        if f.role == "prompt" and site.mode == "list":
            return f"`{f.qualname}` is a prompt and prompt arguments are strings: a list of paths cannot be passed"
        if f.role == "lowlevel-tool":
            nodes = [site.node] if f is site.fn else [c for caller, c, _ in edges if caller is f]
            for n in nodes:
                target = lowlevel_target(a, f, n, site.name)
                if isinstance(target, str):
                    return target
        if (
            site.name in f.param_names()
            or name_refs(f.node.params, site.name)
            or name_refs(f.node.body, site.name, dead)
        ):
            return (
                f"`{site.name}` is already a name in `{f.qualname}`: set another name with "
                "`[tool.mcpmigrate] path-parameter` or rename it"
            )
    return None


def from_registry(a: ModuleAnalysis, recv: cst.BaseExpression, fn: FunctionInfo) -> bool:
    """The receiver is a session read from module-level state (``SESSIONS[0]``, a global)."""
    base: cst.BaseExpression = recv
    while isinstance(base, (cst.Attribute, cst.Subscript)):
        if isinstance(base, cst.Subscript):
            return True
        base = base.value
    if isinstance(base, cst.Name):
        name = base.value
        local = name in fn.param_names() or any(n == name for n, _ in fn.assigns)
        if not local and name not in a.module_kinds:
            # a name defined neither locally nor as a known server: e.g. a loop over a registry
            return name not in ("self", "cls") and fn.parent is None and not _bound_in_parents(fn, name)
    return False


def _bound_in_parents(fn: FunctionInfo, name: str) -> bool:
    p = fn.parent
    while p is not None:
        if name in p.param_names() or any(n == name for n, _ in p.assigns):
            return True
        p = p.parent
    return False


_BOUNDARY_CHECKS = {"is_relative_to", "commonpath", "commonprefix"}  # not `relative_to`: also names paths
_GUARD_NAME = re.compile(r"allow|permit|authori[sz]|access|inside|within|sandbox", re.IGNORECASE)


def conditional_ancestor(a: ModuleAnalysis, node: cst.CSTNode, fn: FunctionInfo | None) -> str | None:
    """The header of the innermost ``if`` / ``try`` / loop in ``fn`` that the request sits in (it
    runs only on some paths), or None."""
    cur = a.parents.get(id(node))
    while cur is not None and (fn is None or cur is not fn.node):
        if isinstance(cur, cst.If) and not _is_tool_dispatch(cur.test):
            return "if " + code_of(cur.test)
        if isinstance(cur, cst.Try):
            return "try"
        if isinstance(cur, (cst.For, cst.While)):
            return "for" if isinstance(cur, cst.For) else "while"
        cur = a.parents.get(id(cur))
    return None


def _is_tool_dispatch(test: cst.BaseExpression) -> bool:
    """``params.name == "grep"`` / ``name == "grep"``: a low-level handler choosing the tool (the
    branch is the tool, not a fallback inside it)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    target = test.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return False
    for side, other in ((test.left, target.comparator), (target.comparator, test.left)):
        named = (isinstance(side, cst.Attribute) and side.attr.value == "name") or (
            isinstance(side, cst.Name) and side.value in ("name", "tool_name", "tool")
        )
        if named and isinstance(other, (cst.SimpleString, cst.ConcatenatedString)):
            return True
    return False


def _boundary_call(call: cst.Call) -> bool:
    """``p.is_relative_to(root)``, ``os.path.commonpath([...])``, ``str(p).startswith(str(root))``
    (a prefix check against a computed value, not a literal), or a call of a guard-named helper
    (``allowed(p)``, ``is_inside(p, roots)``, ``check_access(p)``)."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    if name is None:
        return False
    if name in _BOUNDARY_CHECKS:
        return True
    if name == "startswith" and isinstance(func, cst.Attribute):
        return bool(call.args) and not isinstance(
            call.args[0].value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
        )
    return bool(_GUARD_NAME.search(name))


def _checks_access(f: FunctionInfo) -> bool:
    return bool(_GUARD_NAME.search(f.name)) or any(_boundary_call(c) for c in f.calls)


def bounds_access(a: ModuleAnalysis, funcs: list[FunctionInfo]) -> str | None:
    """The qualname of a function that checks paths against a boundary where the roots can reach:
    one of ``funcs`` (the request's function and its callers up to the entry points) or a module
    function or method they call, directly or through others (``vault.admit(path)`` whose class
    checks ``target.is_relative_to(a) for a in self.allowed``). A check is
    ``p.is_relative_to(root)``, ``os.path.commonpath``, a computed ``startswith`` prefix, a
    guard-named call or function (``is_path_allowed``, ``inside``): roots used as an allow-list."""
    seen: set[int] = set()
    stack = list(funcs)
    while stack:
        f = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        if _checks_access(f):
            return f.qualname
        for call in f.calls:
            callee = a.callee_of(call, f)
            if callee is not None and id(callee) not in seen:
                stack.append(callee)
    return None

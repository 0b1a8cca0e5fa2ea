"""The ``param`` fix (DESIGN §4): the roots request disappears and each tool whose call path
reaches it gains a documented path parameter.

Spec: 2026-07-28 deprecates roots (SEP-2577) and names the migration: take the directory or file
as an ordinary, documented tool parameter. SDK: a parameter ``Annotated[str, Field(description=…)]``
puts ``description`` into ``inputSchema.properties`` (mcp-python-surfaces.md §5.4).

``plan_*`` functions are called by the detector to decide, per site, whether a fix applies, its
safety and, when it does not, the reason shown to the user. ``plan_*`` and ``apply`` share one
use-analysis (``_request_site`` / ``_resolve_site`` / ``_irr_site`` + ``_chain_reason``), so the
label ``check`` shows is the one of the rewrite ``fix`` makes:

- idiomatic uses of the roots result (the first root's ``.uri.path`` or ``urlparse(str(….uri)).path``;
  a ``for``/comprehension over the roots reading only each root's path) become plain uses of the
  parameter: safe;
- any other use keeps the code and rebuilds an equivalent value from the parameter
  (``ListRootsResult(roots=[Root(uri=Path(root).as_uri())])``): unsafe;
- a ``try`` whose body becomes only plain uses is unwrapped, dropping its ``except`` fallback: unsafe.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, Safety

STRATEGY = "param"
RULES = ("MCP101", "MCP102", "MCP103", "MCP104", "MCP106")

ENTRY_ROLES = {"tool", "prompt", "resource", "lowlevel-tool", "lowlevel-prompt", "lowlevel-resource"}


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
                leaves = (f"`{cur.qualname}` is not called from a tool but passed on as a value (a lifespan, "
                          "a callback, a registered handler)")
            else:
                leaves = f"`{cur.qualname}` is also used other than by a direct call in this module (chain: {' <- '.join(chain)})"
        for caller, _call in callers:
            stack.append((caller, chain + [caller.qualname]))
        if not callers and cur.parent is not None and cur.role is None:
            # nested helper never called: fall through (no entry)
            pass
    return entries, chains, leaves


def _is_awaited(fn: FunctionInfo, node: cst.CSTNode, a: ModuleAnalysis | None = None) -> bool:
    if a is not None:
        return id(node) in a.awaited
    found = False

    class V(cst.CSTVisitor):
        def visit_Await(self, n: cst.Await) -> None:
            nonlocal found
            if n.expression is node:
                found = True

    fn.node.visit(V())
    return found


def _unreached_description(a: ModuleAnalysis, fn: FunctionInfo) -> str:
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


# ---------------------------------------------------------------------------------------------
# Shared use-analysis: what one roots site turns into. ``plan_*`` (the detector's label) and
# ``apply`` (the rewrite) both call ``_request_site`` / ``_resolve_site`` / ``_irr_site`` and
# ``_chain_reason``, so the safety shown by ``check`` is the one of the rewrite ``fix`` makes.

DECORATOR_ROLES = {"tool", "prompt"}
CTX_KINDS = set(CONTEXTS) | {Kind.LL_CONTEXT, Kind.SESSION}
_REMOVE = object()  # replacement marker: the statement disappears
TOOL_TYPES = S.type_names("Tool")


@dataclass(eq=False)
class _Site:
    """One roots site and the edits its fix makes (keyed by the id of the original node)."""

    fn: FunctionInfo | None
    node: cst.CSTNode
    kind: str = "request"               # request | resolve | irr
    name: str = ""
    mode: str = "single"                # single | list
    repl: dict[int, Any] = field(default_factory=dict)
    imports: set[tuple[str, str]] = field(default_factory=set)
    receiver: cst.BaseExpression | None = None
    site_stmt: cst.CSTNode | None = None  # where a low-level handler reads the argument
    replace_site_stmt: bool = False       # the read statement replaces site_stmt (else goes before)
    unsafe: list[str] = field(default_factory=list)
    tools: list[FunctionInfo] = field(default_factory=list)  # resolve form: tools whose parameter is replaced
    reason: str | None = None



def _ref_children(n: cst.CSTNode) -> list[cst.CSTNode]:
    """Children that can hold a reference to a name (attribute names, keywords, the names of
    parameters and definitions are not references)."""
    if isinstance(n, cst.Attribute):
        return [n.value]
    if isinstance(n, cst.Arg):
        return [n.value]
    if isinstance(n, cst.Param):
        return [x for x in (n.annotation, n.default) if x is not None]
    if isinstance(n, cst.FunctionDef):
        return [*n.decorators, n.params, *([n.returns] if n.returns else []), n.body]
    if isinstance(n, cst.ClassDef):
        return [*n.decorators, *n.bases, *n.keywords, n.body]
    if isinstance(n, (cst.Import, cst.ImportFrom)):
        return []
    return list(n.children)


def _name_refs(node: cst.CSTNode, name: str, dead: set[int] | frozenset[int] = frozenset()) -> list[cst.Name]:
    out: list[cst.Name] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in dead:
            continue
        if isinstance(n, cst.Name):
            if n.value == name:
                out.append(n)
            continue
        stack.extend(_ref_children(n))
    return out


def _contains_any(node: cst.CSTNode, ids: set[int]) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in ids:
            return True
        stack.extend(n.children)
    return False


def _enclosing_stmt(a: ModuleAnalysis, node: cst.CSTNode) -> cst.BaseStatement | None:
    pm = a.parents
    cur: cst.CSTNode | None = node
    while cur is not None and not isinstance(cur, cst.BaseStatement):
        cur = pm.get(id(cur))
    return cur  # type: ignore[return-value]


def _base_name(expr: cst.BaseExpression) -> str | None:
    """The name a receiver chain starts from: ``ctx`` in ``ctx.request_context.session``."""
    cur: cst.CSTNode = expr
    while True:
        if isinstance(cur, cst.Name):
            return cur.value
        if isinstance(cur, (cst.Attribute, cst.Subscript)):
            cur = cur.value
        elif isinstance(cur, cst.Call):
            cur = cur.func
        elif isinstance(cur, cst.Await):
            cur = cur.expression
        else:
            return None


def _like(orig: cst.CSTNode, new: cst.BaseExpression) -> cst.BaseExpression:
    """``new`` with the parentheses ``orig`` had."""
    lpar = getattr(orig, "lpar", ())
    rpar = getattr(orig, "rpar", ())
    return new.with_changes(lpar=lpar, rpar=rpar) if lpar else new


def _path_of_uri(a: ModuleAnalysis, u: cst.CSTNode) -> cst.CSTNode | None:
    """The node that is the filesystem path of the root uri ``u``: ``u.path`` or
    ``urlparse(str(u)).path``."""
    pm = a.parents
    p = pm.get(id(u))
    if isinstance(p, cst.Attribute) and p.value is u and p.attr.value == "path":
        return _unquoted(a, p)
    inner: cst.CSTNode = u
    call = _sole_arg_of(pm, inner)
    if call is not None and isinstance(call.func, cst.Name) and call.func.value == "str":
        inner = call
        call = _sole_arg_of(pm, inner)
    # urlparse(str(u)).path / urlparse(u).path / urlsplit(...)
    if call is not None and (a.qualname(call.func) or "").split(".")[-1] in ("urlparse", "urlsplit"):
        attr = pm.get(id(call))
        if isinstance(attr, cst.Attribute) and attr.value is call and attr.attr.value == "path":
            return _unquoted(a, attr)
    return None


def _sole_arg_of(pm: dict[int, cst.CSTNode], node: cst.CSTNode) -> cst.Call | None:
    """The call whose only (positional) argument is ``node``."""
    arg = pm.get(id(node))
    if isinstance(arg, cst.Arg) and arg.keyword is None and not arg.star:
        call = pm.get(id(arg))
        if isinstance(call, cst.Call) and len(call.args) == 1:
            return call
    return None


def _unquoted(a: ModuleAnalysis, path: cst.CSTNode) -> cst.CSTNode:
    """``unquote(<path>)`` decodes the URI's percent-escapes; the parameter is already a plain
    path, so the whole call is what the parameter replaces."""
    call = _sole_arg_of(a.parents, path)
    if call is not None and (a.qualname(call.func) or "") in ("urllib.parse.unquote", "unquote", "urllib.parse.unquote_plus"):
        return call
    return path


def _uri_path_use(a: ModuleAnalysis, root_expr: cst.CSTNode) -> cst.CSTNode | None:
    """``<root_expr>.uri.path`` (or its urlparse form): the node to replace with the path."""
    p = a.parents.get(id(root_expr))
    if isinstance(p, cst.Attribute) and p.value is root_expr and p.attr.value == "uri":
        return _path_of_uri(a, p)
    return None


def _is_first(a: ModuleAnalysis, r: cst.CSTNode) -> cst.Subscript | None:
    p = a.parents.get(id(r))
    if isinstance(p, cst.Subscript) and p.value is r and len(p.slice) == 1:
        sl = p.slice[0].slice
        if isinstance(sl, cst.Index) and isinstance(sl.value, cst.Integer) and sl.value.value == "0":
            return p
    return None


def _loop_over(a: ModuleAnalysis, r: cst.CSTNode) -> tuple[str, list[cst.CSTNode]] | None:
    """``for t in r: … t.uri.path …`` (statement or comprehension) where every use of ``t`` is
    its path: the loop variable and the path nodes."""
    pm = a.parents
    p = pm.get(id(r))
    if isinstance(p, cst.For) and p.iter is r and isinstance(p.target, cst.Name):
        target = p.target
        scope: list[cst.CSTNode] = [p.body] + ([p.orelse] if p.orelse else [])
    elif isinstance(p, cst.CompFor) and p.iter is r and isinstance(p.target, cst.Name):
        target = p.target
        top: cst.CSTNode = p
        while isinstance(pm.get(id(top)), cst.CompFor):
            top = pm[id(top)]
        scope = [pm[id(top)]]
    else:
        return None
    uses: list[cst.CSTNode] = []
    for s in scope:
        for ref in _name_refs(s, target.value):
            if ref is target:
                continue
            path = _uri_path_use(a, ref)
            if path is None:
                return None
            uses.append(path)
    return target.value, uses


def _classify(a: ModuleAnalysis, occurrences: list[cst.CSTNode], fastmcp: bool, single: str, plural: str) -> tuple[bool, str, dict[int, Any]]:
    """Classify the uses of a roots result. ``occurrences`` evaluate to the result
    (``ListRootsResult``, or ``list[Root]`` for fastmcp). Returns ``(idiomatic, mode,
    replacements)``: idiomatic uses are the first root's path (single mode) and loops over
    every root that only read each root's path (list mode)."""
    pm = a.parents
    repl: dict[int, Any] = {}
    modes: set[str] = set()
    ok = True
    for v in occurrences:
        r: cst.CSTNode = v
        if not fastmcp:
            p = pm.get(id(v))
            if isinstance(p, cst.Attribute) and p.value is v and p.attr.value == "roots":
                r = p
            else:
                ok = False
                if not _is_size_check(pm, v):
                    modes.add("list")
                continue
        if _is_size_check(pm, r):
            # `if not result.roots:` / `len(result.roots)`: needs the rebuilt value, says nothing
            # about how many roots the code works with
            ok = False
            continue
        first = _is_first(a, r)
        if first is not None:
            path = _uri_path_use(a, first)
            modes.add("single")
            if path is None:
                ok = False
            else:
                repl[id(path)] = _like(path, cst.Name(single))
            continue
        modes.add("list")
        loop = _loop_over(a, r)
        if loop is None:
            ok = False
            continue
        var, uses = loop
        repl[id(r)] = _like(r, cst.Name(plural))
        for u in uses:
            repl[id(u)] = _like(u, cst.Name(var))
    if len(modes) > 1:
        ok = False
    mode = "list" if "list" in modes else "single"
    return ok, mode, (repl if ok else {})


def _is_size_check(pm: dict[int, cst.CSTNode], node: cst.CSTNode) -> bool:
    """``node`` is only tested for emptiness or counted: ``not x``, ``if x:``, ``x or y``,
    ``len(x)``."""
    p = pm.get(id(node))
    if isinstance(p, cst.UnaryOperation) and isinstance(p.operator, cst.Not):
        return True
    if isinstance(p, (cst.If, cst.While)) and p.test is node:
        return True
    if isinstance(p, cst.BooleanOperation):
        return True
    if isinstance(p, cst.IfExp) and p.test is node:
        return True
    if isinstance(p, cst.Arg):
        call = pm.get(id(p))
        return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "len" and len(call.args) == 1
    return False


def _fallback_value(mode: str, name: str, fastmcp: bool) -> tuple[cst.BaseExpression, set[tuple[str, str]]]:
    roots = f"[Root(uri=Path({name}).as_uri())]" if mode == "single" else f"[Root(uri=Path(p).as_uri()) for p in {name}]"
    imports = {("mcp.types", "Root"), ("pathlib", "Path")}
    if fastmcp:
        return cst.parse_expression(roots), imports
    return cst.parse_expression(f"ListRootsResult(roots={roots})"), imports | {("mcp.types", "ListRootsResult")}


def _param_name(config: Config, mode: str) -> str:
    return config.path_parameter.plural if mode == "list" else config.path_parameter.name


def _request_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo) -> _Site:
    pm = a.parents
    site = _Site(fn, node, "request")
    aw = pm.get(id(node))
    assert isinstance(aw, cst.Await) and isinstance(node.func, cst.Attribute)
    site.receiver = node.func.value
    fastmcp = a.kind_of(node.func.value, fn) is Kind.CONTEXT_FASTMCP
    stmt = _enclosing_stmt(a, node)
    small = pm.get(id(aw))
    single_line = isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and pm.get(id(small)) is stmt
    p = config.path_parameter
    if single_line and isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is aw and (
        isinstance(small, cst.AnnAssign) or len(small.targets) == 1
    ) and isinstance(target := (small.target if isinstance(small, cst.AnnAssign) else small.targets[0].target), cst.Name):
        var = target.value
        stores = [n for n, _ in fn.assigns if n == var]
        refs = [r for r in _name_refs(fn.node.body, var) if r is not target]
        ok, mode, repl = _classify(a, refs, fastmcp, p.name, p.plural)
        if len(stores) > 1:  # reassigned: keep every use, rebuild the value (the mode still holds)
            ok, repl = False, {}
        removable = ok
    elif single_line and isinstance(small, cst.Expr) and small.value is aw:
        ok, mode, repl, removable = True, "single", {}, True
    else:
        ok, mode, repl = _classify(a, [aw], fastmcp, p.name, p.plural)
        removable = False
    site.mode = mode
    site.name = _param_name(config, mode)
    site.site_stmt = stmt
    if ok:
        site.repl.update(repl)
        if removable:
            site.repl[id(stmt)] = _REMOVE
            site.replace_site_stmt = True
            _maybe_unwrap(a, site, stmt)  # type: ignore[arg-type]
    else:
        value, imports = _fallback_value(mode, site.name, fastmcp)
        site.repl[id(aw)] = _like(aw, value)
        site.imports |= imports
        site.unsafe.append(
            "the roots result is used other than through the first root's path or a loop over the roots' paths; "
            f"an equivalent value is built from the `{site.name}` parameter"
        )
    return site


def _maybe_unwrap(a: ModuleAnalysis, site: _Site, stmt: cst.SimpleStatementLine) -> None:
    """A ``try`` whose body becomes only plain uses of the parameter is unwrapped: nothing the
    ``except`` guarded can fail any more (its fallback branch disappears: unsafe)."""
    pm = a.parents
    block = pm.get(id(stmt))
    tr = pm.get(id(block))
    if not (isinstance(block, cst.IndentedBlock) and isinstance(tr, cst.Try) and tr.body is block):
        return
    if tr.orelse is not None or tr.finalbody is not None or not tr.handlers:
        return
    rest = [s for s in block.body if s is not stmt]
    uses = {k for k, v in site.repl.items() if v is not _REMOVE}
    if not rest or not all(_contains_any(s, uses) for s in rest):
        return
    leading = tr.leading_lines

    def unwrap(updated: cst.Try) -> Any:
        body = list(updated.body.body)
        if not body:
            return cst.RemoveFromParent()
        body[0] = body[0].with_changes(leading_lines=[*leading, *body[0].leading_lines])
        return cst.FlattenSentinel(body)

    site.repl[id(tr)] = unwrap
    handlers = ", ".join(code_of(h.type) if h.type is not None else "everything" for h in tr.handlers)
    site.unsafe.append(f"the `try` around the request is unwrapped and its `except {handlers}` fallback is dropped")


def _closure(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[list[FunctionInfo], list[tuple[FunctionInfo, cst.Call, FunctionInfo]]]:
    """Functions that need the path (``fn`` and its callers up to the entry points) and the
    call edges ``(caller, call, callee)`` that must pass it."""
    funcs = [fn]
    edges: list[tuple[FunctionInfo, cst.Call, FunctionInfo]] = []
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


@dataclass
class _LowLevelTarget:
    tool: str
    schema: cst.Dict
    properties: cst.Dict
    required: cst.List | None
    read: str  # the expression that reads the argument


def _compared_literal(test: cst.BaseExpression, op: type) -> str | None:
    """``name == "lit"`` / ``params.name != "lit"`` → ``"lit"``."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    comp = test.comparisons[0]
    if not isinstance(comp.operator, op):
        return None
    for subject, lit in ((test.left, comp.comparator), (comp.comparator, test.left)):
        dotted = get_full_name_for_node(subject) or ""
        if dotted.split(".")[-1] == "name" and isinstance(lit, cst.SimpleString):
            value = lit.evaluated_value
            return value if isinstance(value, str) else None
    return None


def _tool_calls(a: ModuleAnalysis) -> list[tuple[str | None, cst.Call]]:
    found = getattr(a, "_param_tools", None)
    if found is None:
        found = []
        stack: list[cst.CSTNode] = [a.module]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Call) and a.qualname(n.func) in TOOL_TYPES:
                name_arg = next((x for x in n.args if x.keyword is not None and x.keyword.value == "name"), None)
                value = name_arg.value.evaluated_value if name_arg is not None and isinstance(name_arg.value, cst.SimpleString) else None
                found.append((value if isinstance(value, str) else None, n))
            stack.extend(n.children)
        a._param_tools = found  # type: ignore[attr-defined]
    return found


def _lowlevel_target(a: ModuleAnalysis, entry: FunctionInfo, node: cst.CSTNode, name: str) -> _LowLevelTarget | str:
    """The tool a low-level ``tools/call`` handler serves at ``node`` and its inputSchema literal."""
    pm = a.parents
    tool: str | None = None
    child: cst.CSTNode = node
    cur = pm.get(id(node))
    while cur is not None and cur is not entry.node.body:
        if isinstance(cur, cst.If) and child is cur.body and tool is None:
            tool = _compared_literal(cur.test, cst.Equal)
        child, cur = cur, pm.get(id(cur))
    if tool is None and cur is entry.node.body:
        for stmt in entry.node.body.body:
            if stmt is child:
                break
            if isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock):
                last = stmt.body.body[-1] if stmt.body.body else None
                if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise)):
                    tool = _compared_literal(stmt.test, cst.NotEqual) or tool
    tools = _tool_calls(a)
    if tool is None:
        if len(tools) != 1 or tools[0][0] is None:
            return (f"cannot tell which tool of the low-level handler `{entry.qualname}` reaches the roots request "
                    "(no `if name == \"…\"` branch around it): add the path parameter to its inputSchema by hand")
        tool = tools[0][0]
    matches = [c for t, c in tools if t == tool]
    if len(matches) != 1:
        return f"no single `Tool(name={tool!r}, …)` literal found in this module: add the `{name}` property to its inputSchema by hand"
    schema_arg = next((x for x in matches[0].args if x.keyword is not None and x.keyword.value in ("inputSchema", "input_schema")), None)
    if schema_arg is None or not isinstance(schema_arg.value, cst.Dict):
        return f"the inputSchema of tool {tool!r} is not a dict literal: add the `{name}` property by hand"
    schema = schema_arg.value
    props = _dict_get(schema, "properties")
    if props is None or not isinstance(props.value, cst.Dict):
        return f"the inputSchema of tool {tool!r} has no literal `properties` dict: add the `{name}` property by hand"
    if _dict_get(props.value, name) is not None:
        return f"the inputSchema of tool {tool!r} already has a `{name}` property"
    req = _dict_get(schema, "required")
    if req is not None and not isinstance(req.value, cst.List):
        return f"the `required` of tool {tool!r} is not a list literal: add `{name}` by hand"
    if len(entry.params) < 2:
        return f"the low-level handler `{entry.qualname}` does not take the call's arguments"
    args = entry.params[1].name.value
    read = f'{args}["{name}"]' if entry.server_generation == S.MCP1 else f'({args}.arguments or {{}})["{name}"]'
    return _LowLevelTarget(tool, schema, props.value, req.value if req is not None else None, read)  # type: ignore[arg-type]


def _dict_get(d: cst.Dict, key: str) -> cst.DictElement | None:
    for el in d.elements:
        if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString) and el.key.evaluated_value == key:
            return el
    return None


def _chain_reason(a: ModuleAnalysis, site: _Site, funcs: list[FunctionInfo], edges: list[tuple[FunctionInfo, cst.Call, FunctionInfo]]) -> str | None:
    """Why the path cannot be threaded to every function that needs it (None: it can)."""
    dead = set(site.repl)
    for f in funcs:
        if f.role == "resource":
            return (f"`{f.qualname}` is a resource: its parameters come from its URI template; put the path in the "
                    "template (or make it a tool) by hand")
        if f.role in ("lowlevel-prompt", "lowlevel-resource"):
            return f"`{f.qualname}` is a low-level {f.role[9:]} handler: there is no inputSchema to carry a path parameter"
        if f.role == "prompt" and site.mode == "list":
            return f"`{f.qualname}` is a prompt and prompt arguments are strings: a list of paths cannot be passed"
        if f.role == "lowlevel-tool":
            nodes = [site.node] if f is site.fn else [c for caller, c, _ in edges if caller is f]
            for n in nodes:
                target = _lowlevel_target(a, f, n, site.name)
                if isinstance(target, str):
                    return target
        if site.name in f.param_names() or _name_refs(f.node.params, site.name) or _name_refs(f.node.body, site.name, dead):
            return (f"`{site.name}` is already a name in `{f.qualname}`: set another name with "
                    "`[tool.mcpmigrate] path-parameter` or rename it")
    return None


def _resolve_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> _Site:
    """``Annotated[ListRootsResult, Resolve(fn)]`` where ``fn`` returns ``ListRoots()``."""
    site = _Site(fn, node, "resolve")
    pm = a.parents
    if fn is None or fn.parent is not None or fn.class_name is not None:
        site.reason = "`ListRoots()` is not returned by a module-level resolver function: rewrite by hand"
        return site
    body = [s for s in fn.node.body.body]  # type: ignore[union-attr]
    if body and isinstance(body[0], cst.SimpleStatementLine) and isinstance(body[0].body[0], cst.Expr) and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        body = body[1:]
    ret = pm.get(id(node))
    if len(body) != 1 or not isinstance(ret, cst.Return) or pm.get(id(ret)) is not body[0]:
        site.reason = (f"the resolver `{fn.name}` does more than return `ListRoots()` (a hybrid or conditional resolver): "
                       "replace it with a documented path parameter by hand")
        return site
    markers: list[cst.Call] = []
    stack: list[cst.CSTNode] = [a.module]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Call) and a.qualname(n.func) in S.RESOLVE_MARKER and n.args and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value == fn.name:
            markers.append(n)
        stack.extend(n.children)
    if not markers:
        site.reason = f"the resolver `{fn.name}` is not used by any `Resolve(...)` parameter in this module"
        return site
    p = config.path_parameter
    modes: set[str] = set()
    for marker in markers:
        chain = [marker]
        for _ in range(5):
            chain.append(pm.get(id(chain[-1])))  # Index, SubscriptElement, Subscript, Annotation, Param
        param = chain[-1]
        ann = chain[3]
        if not isinstance(param, cst.Param) or not isinstance(ann, cst.Subscript) or (get_full_name_for_node(ann.value) or "").split(".")[-1] != "Annotated" or param.default is not None:
            site.reason = f"`Resolve({fn.name})` is not the marker of a tool parameter `Annotated[ListRootsResult, Resolve({fn.name})]`: rewrite by hand"
            return site
        tool = a.enclosing_function(param)
        if tool is None or tool.role != "tool":
            site.reason = f"`Resolve({fn.name})` is used by `{tool.qualname if tool else '?'}`, which is not a tool: rewrite by hand"
            return site
        pname = param.name.value
        refs = _name_refs(tool.node.body, pname)
        if any(n == pname for n, _ in tool.assigns):
            site.reason = f"`{pname}` is reassigned in `{tool.qualname}`: rewrite by hand"
            return site
        ok, mode, repl = _classify(a, refs, False, p.name, p.plural)
        if not ok:
            site.reason = (f"`{tool.qualname}` uses `{pname}` other than through the first root's path or a loop over the "
                           "roots' paths: replace it with a documented path parameter by hand")
            return site
        modes.add(mode)
        name = _param_name(config, mode)
        site.repl.update(repl)
        new_param = _documented_param(config, mode)
        site.repl[id(param)] = (lambda new: (lambda upd: new.with_changes(comma=upd.comma)))(new_param)
        site.tools.append(tool)
        dead = set(site.repl)
        if (name in tool.param_names() and name != pname) or _name_refs(tool.node.params, name, dead) or _name_refs(tool.node.body, name, dead):
            site.reason = f"`{name}` is already a name in `{tool.qualname}`: set another name with `[tool.mcpmigrate] path-parameter`"
            return site
    site.mode = "list" if "list" in modes else "single"
    site.name = _param_name(config, site.mode)
    counter = _name_refs(a.module, fn.name)
    if len(counter) == len(markers):
        site.repl[id(fn.node)] = _REMOVE
    site.imports |= {("typing", "Annotated"), ("pydantic", "Field")}
    return site


def _irr_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> _Site:
    """A low-level handler's ``if <no answer>: return InputRequiredResult(input_requests={k: ListRootsRequest()})``."""
    site = _Site(fn, node, "irr")
    pm = a.parents
    if fn is None or fn.role != "lowlevel-tool":
        site.reason = "only a low-level tools/call handler's interim roots request is rewritten automatically: rewrite by hand"
        return site
    el = pm.get(id(node))
    d = pm.get(id(el))
    arg = pm.get(id(d))
    irr = pm.get(id(arg))
    ret = pm.get(id(irr))
    line = pm.get(id(ret))
    block = pm.get(id(line))
    guard = pm.get(id(block))
    if not (isinstance(el, cst.DictElement) and isinstance(d, cst.Dict) and len(d.elements) == 1 and isinstance(arg, cst.Arg)
            and isinstance(irr, cst.Call) and isinstance(ret, cst.Return) and isinstance(line, cst.SimpleStatementLine)
            and isinstance(block, cst.IndentedBlock) and len(block.body) == 1 and isinstance(guard, cst.If) and guard.orelse is None):
        site.reason = ("the interim result is not the only statement of an `if <no answer yet>:` guard asking for roots alone: "
                         "rewrite by hand")
        return site
    answer_names = {n.value for n in _all_names(guard.test)}
    assign_stmt = None
    var = None
    for stmt in _stmts_before(a, guard):
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
            asg = stmt.body[0]
            if len(asg.targets) == 1 and isinstance(asg.targets[0].target, cst.Name) and asg.targets[0].target.value in answer_names:
                if any(isinstance(n, cst.Attribute) and n.attr.value in ("input_responses", "inputResponses") for n in walk(asg.value)):
                    assign_stmt, var = stmt, asg.targets[0].target
    if assign_stmt is None or var is None:
        site.reason = "the answer is not read from `input_responses` into a local just before the guard: rewrite by hand"
        return site
    if sum(1 for n, _ in fn.assigns if n == var.value) != 1:
        site.reason = f"`{var.value}` is reassigned: rewrite by hand"
        return site
    refs = [r for r in _name_refs(fn.node.body, var.value, {id(guard)}) if r is not var]
    p = config.path_parameter
    ok, mode, repl = _classify(a, refs, False, p.name, p.plural)
    if not ok:
        site.reason = (f"`{var.value}` is used other than through the first root's path or a loop over the roots' "
                         "paths: rewrite by hand")
        return site
    site.mode = mode
    site.name = _param_name(config, mode)
    site.repl.update(repl)
    site.repl[id(guard)] = _REMOVE
    site.repl[id(assign_stmt)] = _REMOVE
    site.site_stmt = assign_stmt
    site.replace_site_stmt = True
    reason = _chain_reason(a, site, [fn], [])
    if reason:
        site.reason = reason
    return site




def _all_names(node: cst.CSTNode) -> list[cst.Name]:
    return [n for n in walk(node) if isinstance(n, cst.Name)]


def _stmts_before(a: ModuleAnalysis, stmt: cst.CSTNode) -> list[cst.CSTNode]:
    block = a.parents.get(id(stmt))
    out = []
    for s in getattr(block, "body", ()):
        if s is stmt:
            break
        out.append(s)
    return out


def _documented_param(config: Config, mode: str, name: str | None = None) -> cst.Param:
    p = config.path_parameter
    if mode == "list":
        ann = f"Annotated[list[str], Field(description={_str_lit(p.list_description)})]"
    else:
        ann = f"Annotated[str, Field(description={_str_lit(p.description)})]"
    return cst.Param(cst.Name(name or _param_name(config, mode)), cst.Annotation(cst.parse_expression(ann)))


def _plain_param(config: Config, mode: str, name: str | None = None) -> cst.Param:
    return cst.Param(cst.Name(name or _param_name(config, mode)), cst.Annotation(cst.parse_expression("list[str]" if mode == "list" else "str")))


def _name_candidates(config: Config):
    """The configured parameter name first, then fallbacks used when it is already taken in a
    function on the path (``root`` → ``root_path`` → ``root_dir`` → ``workspace_root``)."""
    p = config.path_parameter
    yield config
    for single, plural in ((f"{p.name}_path", f"{p.name}_paths"), (f"{p.name}_dir", f"{p.name}_dirs"),
                           (f"workspace_{p.name}", f"workspace_{p.plural}")):
        yield dataclasses.replace(config, path_parameter=dataclasses.replace(p, name=single, list_name=plural))


def _str_lit(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _request_plan_site(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None) -> tuple[_Site | None, str | None, list, list]:
    """Shared by plan_roots_request and apply: the site, or the reason it stays manual."""
    if fn is None:
        return None, "the request is made outside any function: there is no tool to give a parameter", [], []
    if not isinstance(node, cst.Call):
        return None, ("`list_roots` is passed as a callable (bridged from sync code or scheduled), not awaited "
                      "in a request handler: rewrite by hand so the tool takes the path as a parameter"), [], []
    if not fn.is_async or not _is_awaited(fn, node, a):
        return None, ("the request is not awaited inside an async request handler (a sync tool bridging into "
                      "the event loop, or a background task): rewrite by hand"), [], []
    recv = node.func.value if isinstance(node.func, cst.Attribute) else None
    if recv is not None and _from_registry(a, recv, fn):
        return None, ("the session was captured outside the request (a module-level registry) and is used "
                      "outside any tool call: there is no request to carry a parameter"), [], []
    entries, chains, leaves = reaching_entries(a, fn)
    if leaves:
        return None, f"the call chain leaves the module: {leaves}", [], []
    if not entries:
        return None, (f"no tool, prompt or resource reaches `{fn.qualname}` ({_unreached_description(a, fn)}): "
                      "there is no tool to give a path parameter. Delete it if it is dead code, or pass the "
                      "path in from where it is needed"), [], []
    funcs, edges = _closure(a, fn)
    first_reason = None
    for cfg in _name_candidates(config):
        site = _request_site(a, cfg, node, fn)
        reason = _chain_reason(a, site, funcs, edges)
        if reason and reason.startswith(f"`{site.name}` is already a name"):
            first_reason = first_reason or reason
            continue
        break
    else:
        reason = first_reason
    if reason:
        return None, reason, [], []
    optional = _conditional_ancestor(a, node, fn)
    if optional:
        site.unsafe.append(
            f"the roots are asked only on some paths (inside `{optional}`), as a fallback; the new parameter is "
            "required on every call, so callers that relied on the other path must now pass it")
    if any(_bounds_access(f) for f in funcs):
        site.unsafe.append(
            "the roots bound what the tool may touch (an allow-list check); as a parameter the caller "
            "chooses that boundary, so enforce it with server configuration instead")
    site.labels = [_entry_label(a, site, e, edges) for e in entries]  # type: ignore[attr-defined]
    return site, None, entries, chains


def _entry_label(a: ModuleAnalysis, site: _Site, e: FunctionInfo, edges: list) -> str:
    if e.role != "lowlevel-tool":
        return f"`{e.qualname}`"
    nodes = [site.node] if e is site.fn else [c for caller, c, _ in edges if caller is e]
    tools = sorted({t.tool for t in (_lowlevel_target(a, e, n, site.name) for n in nodes) if not isinstance(t, str)})
    return ", ".join(f"tool {t!r}" for t in tools) + f" (low-level handler `{e.qualname}`)"


def plan_roots_request(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None) -> tuple[FixInfo | None, str | None, dict[str, Any]]:
    """Decide the fix for one roots request (MCP101). Returns ``(fix, manual_reason, data)``."""
    site, reason, entries, chains = _request_plan_site(a, config, node, fn)
    if site is None:
        return None, reason, {}
    names = ", ".join(site.labels)  # type: ignore[attr-defined]
    desc = f"add a documented `{site.name}` parameter to {names} and drop the roots request"
    if site.unsafe:
        desc += " (review: " + "; ".join(site.unsafe) + ")"
    fix = FixInfo(Safety.UNSAFE if site.unsafe else Safety.SAFE, STRATEGY, desc)
    return fix, None, {"entries": [e.qualname for e in entries], "chains": chains}


def _interim_site(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None) -> _Site:
    q = a.qualname(node.func) if isinstance(node, cst.Call) else None
    if q in S.LIST_ROOTS_MARKER:
        return _resolve_site(a, config, node, fn)  # type: ignore[arg-type]
    site = _irr_site(a, config, node, fn)  # type: ignore[arg-type]
    return site


def plan_roots_interim(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> tuple[FixInfo | None, str | None, dict[str, Any]]:
    """Decide the fix for roots asked through an interim result (MCP106)."""
    site = _interim_site(a, config, node, fn)
    if site.reason:
        return None, site.reason, {}
    if site.kind == "resolve":
        where = ", ".join(f"`{t.qualname}`" for t in site.tools)
        desc = f"replace the `Resolve(...)` roots parameter of {where} with a documented `{site.name}` parameter"
    else:
        where = f"`{fn.qualname}`" if fn else "the handler"
        desc = f"replace the interim roots round of {where} with a documented `{site.name}` argument in the tool's inputSchema"
    return FixInfo(Safety.SAFE, STRATEGY, desc), None, {}

def _from_registry(a: ModuleAnalysis, recv: cst.BaseExpression, fn: FunctionInfo) -> bool:
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


# ---------------------------------------------------------------------------------------------
# The rewrite


@dataclass
class _Edits:
    repl: dict[int, Any] = field(default_factory=dict)
    before: dict[int, list[cst.BaseStatement]] = field(default_factory=dict)
    params: dict[int, list[tuple]] = field(default_factory=dict)      # FunctionDef -> ops
    call_args: dict[int, list[tuple]] = field(default_factory=dict)   # Call -> (position | None, name)
    dict_add: dict[int, list[tuple]] = field(default_factory=dict)    # Dict -> (after key | None, element)
    list_add: dict[int, list[str]] = field(default_factory=dict)      # List -> names
    imports: set[tuple[str, str]] = field(default_factory=set)
    done: set[tuple] = field(default_factory=set)

    @property
    def dead(self) -> set[int]:
        return set(self.repl)


def _guard_if(a: ModuleAnalysis, call: cst.CSTNode) -> cst.If | None:
    """``if not session.check_client_capability(...): raise/return …`` around ``call``."""
    pm = a.parents
    test: cst.CSTNode = call
    p = pm.get(id(call))
    if isinstance(p, cst.UnaryOperation) and isinstance(p.operator, cst.Not):
        test, p = p, pm.get(id(p))
    if not (isinstance(p, cst.If) and p.test is test and p.orelse is None and isinstance(p.body, cst.IndentedBlock)):
        return None
    for s in p.body.body:
        if not (isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, (cst.Raise, cst.Return)) for x in s.body)):
            return None
    return p


def removable_guard(a: ModuleAnalysis, call: cst.CSTNode) -> bool:
    """The MCP102 capability check is an ``if not …: return/raise`` guard the fix can delete."""
    return _guard_if(a, call) is not None


def _param_index(fn: FunctionInfo, name: str) -> int | None:
    for i, p in enumerate(fn.params):
        if p.name.value == name:
            return i
    return None


def _drop_dead_aliases(a: ModuleAnalysis, f: FunctionInfo, base: str | None, ed: _Edits) -> str | None:
    """Remove ``session = ctx.session``-style aliases the rewrite left unused; returns the name the
    receiver chain finally starts from."""
    for _ in range(5):
        if base is None or base in f.param_names():
            return base
        stmts = _alias_stmts(a, f, base)
        # every assignment of the alias is a plain `x = <pure chain>` statement (one per site
        # when the tool asked twice), and nothing else reads it after the rewrite
        if not stmts or len(stmts) != sum(1 for n, _ in f.assigns if n == base):
            return base
        if _name_refs(f.node.body, base, ed.dead | stmts):
            return base
        values = [s.body[0].value for s in walk(f.node.body) if id(s) in stmts]  # type: ignore[attr-defined]
        if not all(_pure_chain(v) for v in values) or len({_base_name(v) for v in values}) != 1:
            return base
        for sid in stmts:
            ed.repl[sid] = _REMOVE
        base = _base_name(values[0])
    return base


def _alias_stmts(a: ModuleAnalysis, f: FunctionInfo, name: str) -> set[int]:
    out = set()
    for s in walk(f.node.body):
        if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Assign):
            asg = s.body[0]
            if len(asg.targets) == 1 and isinstance(asg.targets[0].target, cst.Name) and asg.targets[0].target.value == name:
                out.add(id(s))
    return out


def _pure_chain(expr: cst.BaseExpression) -> bool:
    """An attribute chain, possibly through ``get_context()`` / ``request_ctx.get()``: dropping
    it has no effect."""
    cur: cst.CSTNode = expr
    while True:
        if isinstance(cur, cst.Name):
            return True
        if isinstance(cur, cst.Attribute):
            cur = cur.value
        elif isinstance(cur, cst.Call) and not cur.args and isinstance(cur.func, (cst.Attribute, cst.Name)):
            last = cur.func.attr.value if isinstance(cur.func, cst.Attribute) else cur.func.value
            if last not in ("get_context", "get", "CurrentContext"):
                return False
            cur = cur.func
        else:
            return False


def _bound_arg(call: cst.Call, callee: FunctionInfo, pname: str) -> cst.Arg | None:
    idx = _param_index(callee, pname)
    names = callee.param_names()
    offset = 1 if names and names[0] in ("self", "cls") and isinstance(call.func, cst.Attribute) else 0
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == pname:
                return arg
        elif idx is not None and i + offset == idx:
            return arg
    return None


def _schema_edit(ed: _Edits, target: _LowLevelTarget, name: str, mode: str, description: str) -> None:
    key = ("schema", id(target.schema), name)
    if key in ed.done:
        return
    ed.done.add(key)
    if mode == "list":
        prop = f'{{"{name}": {{"type": "array", "items": {{"type": "string"}}, "description": {_str_lit(description)}}}}}'
    else:
        prop = f'{{"{name}": {{"type": "string", "description": {_str_lit(description)}}}}}'
    element = cst.ensure_type(cst.parse_expression(prop), cst.Dict).elements[0]
    ed.dict_add.setdefault(id(target.properties), []).append((None, element))
    if target.required is not None:
        ed.list_add.setdefault(id(target.required), []).append(name)
    else:
        req = cst.ensure_type(cst.parse_expression(f'{{"required": ["{name}"]}}'), cst.Dict).elements[0]
        ed.dict_add.setdefault(id(target.schema), []).append(("properties", req))


def _lowlevel_read(ed: _Edits, target: _LowLevelTarget, name: str, stmt: cst.CSTNode, replace: bool) -> None:
    key = ("read", id(stmt), name)
    if key in ed.done:
        return
    ed.done.add(key)
    read = cst.parse_statement(f"{name} = {target.read}\n")
    if replace:
        read = read.with_changes(leading_lines=stmt.leading_lines)  # type: ignore[attr-defined]
        ed.repl[id(stmt)] = read
    else:
        ed.before.setdefault(id(stmt), []).append(read)


def apply(module: cst.Module, analysis: ModuleAnalysis, findings: list, config: Config) -> tuple[cst.Module, list, list[str]]:
    """Apply the param fix to ``module`` for ``findings`` (those with a ``param`` fix).

    Returns ``(new_module, applied_findings, notes)``.
    """
    a = analysis
    ed = _Edits()
    applied: list = []
    notes: list[str] = []
    request_sites: list[_Site] = []
    touched: set[int] = set()
    for f in findings:
        if f.node is None or f.rule not in ("MCP101", "MCP106"):
            continue
        fn = a.enclosing_function(f.node)
        if f.rule == "MCP101":
            site, reason, _, _ = _request_plan_site(a, config, f.node, fn)
        else:
            site = _interim_site(a, config, f.node, fn)
            reason = site.reason
            if reason:
                site = None
        if site is None:
            notes.append(f"{f.rule} line {f.line}: {reason}")
            continue
        applied.append(f)
        ed.repl.update(site.repl)
        ed.imports |= site.imports
        if site.kind == "request":
            request_sites.append(site)
        elif site.kind == "irr" and site.fn is not None:
            target = _lowlevel_target(a, site.fn, site.node, site.name)
            assert not isinstance(target, str)
            _schema_edit(ed, target, site.name, site.mode, _description(config, site.mode))
            _lowlevel_read(ed, target, site.name, site.site_stmt, True)  # type: ignore[arg-type]
            touched.add(id(site.fn))
    # Which functions need which names, and the calls that must pass them.
    need: dict[int, dict[str, str]] = {}
    by_id: dict[int, FunctionInfo] = {}
    edges: list[tuple[FunctionInfo, cst.Call, FunctionInfo, str]] = []
    for site in request_sites:
        assert site.fn is not None
        funcs, fedges = _closure(a, site.fn)
        for fi in funcs:
            by_id[id(fi)] = fi
            need.setdefault(id(fi), {})[site.name] = site.mode
            touched.add(id(fi))
        for caller, call, callee in fedges:
            if (caller, call, callee, site.name) not in edges:
                edges.append((caller, call, callee, site.name))
    # Capability guards that only protected the removed request go with it.
    for f in findings:
        if f.rule == "MCP102" and f.node is not None:
            gfn = a.enclosing_function(f.node)
            guard = _guard_if(a, f.node)
            if gfn is not None and id(gfn) in touched and guard is not None:
                ed.repl[id(guard)] = _REMOVE
                applied.append(f)
    # Thread the names, callees before callers.
    order_index = {id(fi): i for i, fi in enumerate(a.functions)}
    pending = sorted(need, key=lambda k: order_index.get(k, 0))
    while pending:
        ready = [k for k in pending if not any(caller is by_id[k] and id(callee) in pending and callee is not by_id[k] for caller, _, callee, _ in edges)]
        k = (ready or pending)[0]
        pending.remove(k)
        _thread(a, config, by_id[k], need[k], request_sites, edges, ed)
    if not applied:
        return module, [], notes
    new = module.visit(_Rewriter(ed))
    if ed.imports:
        ctx = CodemodContext()
        for mod, name in sorted(ed.imports):
            AddImportsVisitor.add_needed_import(ctx, mod, name)
        new = AddImportsVisitor(ctx).transform_module(new)
    return new, applied, notes


def _description(config: Config, mode: str) -> str:
    return config.path_parameter.list_description if mode == "list" else config.path_parameter.description


def _thread(a: ModuleAnalysis, config: Config, f: FunctionInfo, names: dict[str, str], sites: list[_Site],
            edges: list[tuple[FunctionInfo, cst.Call, FunctionInfo, str]], ed: _Edits) -> None:
    """Give ``f`` the names it needs: a documented parameter (decorator tools and prompts), an
    argument read (low-level handlers) or a plain parameter (helpers, whose callers then pass it)."""
    my_sites = [s for s in sites if s.fn is f]
    bases: list[str] = []
    for s in my_sites:
        b = _drop_dead_aliases(a, f, _base_name(s.receiver) if s.receiver is not None else None, ed)
        if b:
            bases.append(b)
    if f.role == "lowlevel-tool":
        for name, mode in sorted(names.items()):
            for s in my_sites:
                if s.name == name:
                    target = _lowlevel_target(a, f, s.node, name)
                    assert not isinstance(target, str)
                    _schema_edit(ed, target, name, mode, _description(config, mode))
                    _lowlevel_read(ed, target, name, s.site_stmt, s.replace_site_stmt)  # type: ignore[arg-type]
            for caller, call, _callee, ename in edges:
                if caller is f and ename == name:
                    target = _lowlevel_target(a, f, call, name)
                    assert not isinstance(target, str)
                    _schema_edit(ed, target, name, mode, _description(config, mode))
                    _lowlevel_read(ed, target, name, _enclosing_stmt(a, call), False)  # type: ignore[arg-type]
        return
    documented = f.role in DECORATOR_ROLES
    if documented:
        ed.imports |= {("typing", "Annotated"), ("pydantic", "Field")}
    # Names passed to callees in place of a context argument are candidates for removal too.
    bases += [b for b in getattr(f, "_param_replaced_args", []) if b]
    used: set[str] = set()
    for name, mode in sorted(names.items(), key=lambda kv: kv[1] != "single"):
        new_param = _documented_param(config, mode, name) if documented else _plain_param(config, mode, name)
        op: tuple
        decision: tuple
        cand = next((b for b in bases if b in f.param_names() and b not in used and b not in ("self", "cls")
                     and not _name_refs(f.node.body, b, ed.dead)), None)
        if cand is not None:
            used.add(cand)
            op = ("replace", cand, new_param)
            decision = ("replace", cand)
        else:
            ctxp = next((p.name.value for p in f.params if f.kinds.get(p.name.value) in CTX_KINDS and p.name.value not in used), None)
            if ctxp is not None:
                op = ("before", ctxp, new_param)
                decision = ("insert", _param_index(f, ctxp))
            else:
                idx = 0
                for i, p in enumerate(f.node.params.params):
                    if p.default is None:
                        idx = i + 1
                op = ("end_required", None, new_param)
                decision = ("insert", len(f.node.params.posonly_params) + idx)
        if op[0] in ("replace", "before") and _after_a_default(f, op[1]) and not any(callee is f for _, _, callee, _ in edges):
            # `async def t(verbose: bool = False, ctx: Context = None)`: a parameter without a
            # default cannot go where ctx is; put it before the first parameter with a default
            if op[0] == "replace":
                ed.params.setdefault(id(f.node), []).append(("remove", op[1], None))
            op = ("end_required", None, new_param)
            decision = ("insert", None)
        ed.params.setdefault(id(f.node), []).append(op)
        # Callers pass the name.
        for caller, call, callee, ename in edges:
            if callee is not f or ename != name:
                continue
            if decision[0] == "replace":
                arg = _bound_arg(call, f, decision[1])
                if arg is not None:
                    replaced_base = _base_name(arg.value)
                    if arg.keyword is not None:
                        ed.repl[id(arg)] = (lambda n: (lambda upd: upd.with_changes(keyword=cst.Name(n), value=cst.Name(n))))(name)
                    else:
                        ed.repl[id(arg.value)] = _like(arg.value, cst.Name(name))
                    if replaced_base:
                        caller.__dict__.setdefault("_param_replaced_args", []).append(replaced_base)
                    continue
                pos = None
            else:
                pos = decision[1]
            names_ = f.param_names()
            offset = 1 if names_ and names_[0] in ("self", "cls") and isinstance(call.func, cst.Attribute) else 0
            leading = 0
            for arg in call.args:
                if arg.keyword is not None or arg.star:
                    break
                leading += 1
            if pos is not None and pos - offset <= leading and pos - offset >= 0:
                ed.call_args.setdefault(id(call), []).append((pos - offset, name))
            else:
                ed.call_args.setdefault(id(call), []).append((None, name))


class _Rewriter(cst.CSTTransformer):
    def __init__(self, ed: _Edits) -> None:
        self.ed = ed

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:  # type: ignore[override]
        key = id(original_node)
        ed = self.ed
        node: Any = updated_node
        if key in ed.params and isinstance(node, cst.FunctionDef):
            node = node.with_changes(params=_apply_param_ops(node.params, ed.params[key], node.whitespace_before_params))
        if key in ed.call_args and isinstance(node, cst.Call):
            node = _apply_call_ops(node, ed.call_args[key])
        if key in ed.dict_add and isinstance(node, cst.Dict):
            for after, el in ed.dict_add[key]:
                idx = len(node.elements)
                if after is not None:
                    for i, e in enumerate(node.elements):
                        if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) and e.key.evaluated_value == after:
                            idx = i + 1
                node = node.with_changes(elements=_insert_element(list(node.elements), idx, el, node.lbrace.whitespace_after))
        if key in ed.list_add and isinstance(node, cst.List):
            for name in ed.list_add[key]:
                el = cst.Element(cst.SimpleString(f'"{name}"'))
                node = node.with_changes(elements=_insert_element(list(node.elements), len(node.elements), el, node.lbracket.whitespace_after))
        if key in ed.repl:
            r = ed.repl[key]
            if r is _REMOVE:
                node = cst.RemoveFromParent()
            elif callable(r):
                node = r(node)
            else:
                node = r
        if key in ed.before:
            items = list(node.nodes) if isinstance(node, cst.FlattenSentinel) else ([] if isinstance(node, cst.RemovalSentinel) else [node])
            node = cst.FlattenSentinel([*ed.before[key], *items])
        if isinstance(node, cst.IndentedBlock) and not node.body:
            node = node.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        if isinstance(original_node, cst.FunctionDef) and isinstance(node, cst.FunctionDef):
            node = _keep_comments_in_place(original_node, node)
        return node


_FUNCTION_TYPE_COMMENT = re.compile(r"#\s*type:\s*\(")


def _keep_comments_in_place(original: cst.FunctionDef, node: cst.FunctionDef) -> cst.FunctionDef:
    """Comments of a rewritten signature stay with what they describe. A parameter that takes
    the place of another (``root`` for ``ctx``) drops the trailing comment it inherited with the
    other's comma: ``# injected by FastMCP`` or a per-argument ``# type: Context`` (PEP 484)
    would now describe the new parameter, wrongly (mypy: duplicate type signatures). A function
    type comment (``# type: (...) -> str``, PEP 484) on the first line of the body stays when the
    statement it sat above is deleted. A function that is not rewritten is returned as it is."""
    def bare(ws: Any) -> Any:
        if isinstance(ws, cst.ParenthesizedWhitespace) and ws.first_line.comment is not None:
            return ws.with_changes(first_line=cst.TrailingWhitespace(newline=ws.first_line.newline))
        return ws

    old_names = {p.name.value for p in (*original.params.posonly_params, *original.params.params,
                                        *original.params.kwonly_params)}
    params = node.params
    for kind in ("posonly_params", "params", "kwonly_params"):
        lst = [p if p.name.value in old_names else p.with_changes(
            comma=p.comma.with_changes(whitespace_after=bare(p.comma.whitespace_after)) if isinstance(p.comma, cst.Comma) else p.comma,
            whitespace_after_param=bare(p.whitespace_after_param)) for p in getattr(params, kind)]
        params = params.with_changes(**{kind: lst})
    node = node.with_changes(params=params)
    old_body, new_body = original.body, node.body
    if isinstance(old_body, cst.IndentedBlock) and isinstance(new_body, cst.IndentedBlock) and old_body.body and new_body.body:
        kept = [ln for ln in old_body.body[0].leading_lines
                if ln.comment is not None and _FUNCTION_TYPE_COMMENT.match(ln.comment.value)]
        first = new_body.body[0]
        if kept and not any(ln.comment is not None and ln.comment.value == kept[0].comment.value for ln in first.leading_lines):
            node = node.with_changes(body=new_body.with_changes(body=[first.with_changes(
                leading_lines=[*kept, *first.leading_lines]), *new_body.body[1:]]))
    return node


def _insert_element(els: list, idx: int, new: Any, open_ws: Any) -> list:
    """Insert ``new`` into a dict/list/parameter element list, keeping its layout (one line, or
    one element per line with or without a trailing comma)."""
    multiline = isinstance(open_ws, cst.ParenthesizedWhitespace)
    default_sep = cst.Comma(whitespace_after=open_ws) if multiline else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    if not els:
        return [new.with_changes(comma=cst.MaybeSentinel.DEFAULT)]
    if idx >= len(els):
        last = els[-1]
        sep = els[-2].comma if len(els) > 1 and isinstance(els[-2].comma, cst.Comma) else default_sep
        els[-1] = last.with_changes(comma=sep)
        els.append(new.with_changes(comma=last.comma if isinstance(last.comma, cst.Comma) else cst.MaybeSentinel.DEFAULT))
        return els
    sep = els[idx - 1].comma if idx > 0 and isinstance(els[idx - 1].comma, cst.Comma) else default_sep
    els.insert(idx, new.with_changes(comma=sep))
    return els


_BOUNDARY_CHECKS = {"is_relative_to", "commonpath", "commonprefix"}  # not `relative_to`: also names paths
_GUARD_NAME = re.compile(r"allow|permit|authori[sz]|access|inside|within|sandbox", re.IGNORECASE)


def _conditional_ancestor(a: ModuleAnalysis, node: cst.CSTNode, fn: FunctionInfo | None) -> str | None:
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
            isinstance(side, cst.Name) and side.value in ("name", "tool_name", "tool"))
        if named and isinstance(other, (cst.SimpleString, cst.ConcatenatedString)):
            return True
    return False


def _bounds_access(f: FunctionInfo) -> bool:
    """The function checks paths against a boundary (``p.is_relative_to(root)``,
    ``os.path.commonpath``), or is named like a guard (``is_path_allowed``): roots used as an
    allow-list."""
    if _GUARD_NAME.search(f.name):
        return True
    for call in f.calls:
        func = call.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
        if name in _BOUNDARY_CHECKS:
            return True
    return False


def _after_a_default(f: FunctionInfo, name: str) -> bool:
    """True when a positional parameter before ``name`` has a default."""
    for p in list(f.node.params.posonly_params) + list(f.node.params.params):
        if p.name.value == name:
            return False
        if p.default is not None:
            return True
    return False


def _apply_param_ops(params: cst.Parameters, ops: list[tuple], open_ws: Any) -> cst.Parameters:
    for kind, anchor, new in ops:
        if kind == "remove":
            lst = [p for p in params.params if p.name.value != anchor]
            if lst and len(lst) < len(params.params) and params.params[-1].name.value == anchor:
                lst[-1] = lst[-1].with_changes(comma=params.params[-1].comma)
            params = params.with_changes(params=lst)
            continue
        if kind == "end_required":
            lst = list(params.params)
            idx = 0
            for i, p in enumerate(lst):
                if p.default is None:
                    idx = i + 1
            params = params.with_changes(params=_insert_element(lst, idx, new, open_ws))
            continue
        for fname in ("posonly_params", "params", "kwonly_params"):
            lst = list(getattr(params, fname))
            idx = next((i for i, p in enumerate(lst) if p.name.value == anchor), None)
            if idx is None:
                continue
            if kind == "replace":
                lst[idx] = new.with_changes(comma=lst[idx].comma)
            else:
                lst = _insert_element(lst, idx, new, open_ws)
            params = params.with_changes(**{fname: lst})
            break
    return params


def _apply_call_ops(call: cst.Call, ops: list[tuple]) -> cst.Call:
    args = list(call.args)
    for pos, name in ops:
        if pos is not None:
            args = _insert_element(args, pos, cst.Arg(cst.Name(name)), call.whitespace_before_args)
        else:
            new = cst.Arg(cst.Name(name), keyword=cst.Name(name),
                          equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
            at = next((i for i, x in enumerate(args) if x.star == "**"), len(args))
            args = _insert_element(args, at, new, call.whitespace_before_args)
    return call.with_changes(args=args)

"""Roots sites and how their value is used: for one roots request (MCP101), one
``Resolve(...)`` roots parameter or one low-level interim roots round (MCP106), what the site
turns into — which nodes become plain uses of the path parameter, which statements go, and what
makes the rewrite unsafe or leaves it to a human.

- idiomatic uses of the roots result (the first root's ``.uri.path`` or
  ``urlparse(str(….uri)).path``; a ``for``/comprehension over the roots reading only each root's
  path) become plain uses of the parameter: safe;
- any other use keeps the code and rebuilds an equivalent value from the parameter
  (``ListRootsResult(roots=[Root(uri=Path(root).as_uri())])``): unsafe;
- a ``try`` whose body becomes only plain uses is unwrapped, dropping its ``except`` fallback: unsafe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import REMOVE, import_name
from mcpmigrate.codemods.param.parameter import documented_param, like, param_name, str_lit
from mcpmigrate.codemods.param.round import Change
from mcpmigrate.config import Config
from mcpmigrate.names import contains_any, enclosing_stmt, name_nodes, name_refs

#: What a site changes, by id of the original node: ``{id(node): (node, change)}``.
Changes = dict[int, tuple[cst.CSTNode, Change]]


@dataclass(eq=False)
class Site:
    """One roots site and the changes its fix makes (keyed by the id of the original node)."""

    fn: FunctionInfo | None
    node: cst.CSTNode
    kind: str = "request"  # request | resolve | irr
    name: str = ""
    mode: str = "single"  # single | list
    changes: Changes = field(default_factory=dict)
    imports: set[tuple[str, str]] = field(default_factory=set)
    receiver: cst.BaseExpression | None = None
    site_stmt: cst.CSTNode | None = None  # where a low-level handler reads the argument
    replace_site_stmt: bool = False  # the read statement replaces site_stmt (else goes before)
    unsafe: list[str] = field(default_factory=list)
    tools: list[FunctionInfo] = field(default_factory=list)  # resolve form: tools whose parameter is replaced
    reason: str | None = None
    labels: list[str] = field(default_factory=list)  # request form: the entry points, as the label names them
    optional: str | None = None  # request form: the tool's own parameter the roots were only the default of

    def set(self, node: cst.CSTNode, change: Change) -> None:
        self.changes[id(node)] = (node, change)


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
    if call is not None and (a.qualname(call.func) or "") in (
        "urllib.parse.unquote",
        "unquote",
        "urllib.parse.unquote_plus",
    ):
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
        for ref in name_refs(s, target.value):
            if ref is target:
                continue
            path = _uri_path_use(a, ref)
            if path is None:
                return None
            uses.append(path)
    return target.value, uses


def classify(
    a: ModuleAnalysis, occurrences: Sequence[cst.CSTNode], fastmcp: bool, single: str, plural: str
) -> tuple[bool, str, Changes]:
    """Classify the uses of a roots result. ``occurrences`` evaluate to the result
    (``ListRootsResult``, or ``list[Root]`` for fastmcp). Returns ``(idiomatic, mode,
    changes)``: idiomatic uses are the first root's path (single mode) and loops over
    every root that only read each root's path (list mode)."""
    pm = a.parents
    changes: Changes = {}
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
                changes[id(path)] = (path, like(path, cst.Name(single)))
            continue
        modes.add("list")
        loop = _loop_over(a, r)
        if loop is None:
            ok = False
            continue
        var, uses = loop
        changes[id(r)] = (r, like(r, cst.Name(plural)))
        for u in uses:
            changes[id(u)] = (u, like(u, cst.Name(var)))
    if len(modes) > 1:
        ok = False
    mode = "list" if "list" in modes else "single"
    return ok, mode, (changes if ok else {})


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
        return (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Name)
            and call.func.value == "len"
            and len(call.args) == 1
        )
    return False


def _fallback_value(
    a: ModuleAnalysis, mode: str, name: str, fastmcp: bool
) -> tuple[cst.BaseExpression, set[tuple[str, str]]]:
    root, path = import_name(a, "mcp.types", "Root"), import_name(a, "pathlib", "Path")
    roots = (
        f"[{root}(uri={path}({name}).as_uri())]"
        if mode == "single"
        else f"[{root}(uri={path}(p).as_uri()) for p in {name}]"
    )
    imports = {("mcp.types", "Root"), ("pathlib", "Path")}
    if fastmcp:
        return cst.parse_expression(roots), imports
    result = import_name(a, "mcp.types", "ListRootsResult")
    return cst.parse_expression(f"{result}(roots={roots})"), imports | {("mcp.types", "ListRootsResult")}


def request_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo) -> Site:
    """What an awaited ``list_roots()`` in ``fn`` turns into, with ``config``'s parameter name."""
    pm = a.parents
    site = Site(fn, node, "request")
    aw = pm.get(id(node))
    assert isinstance(aw, cst.Await) and isinstance(node.func, cst.Attribute)
    site.receiver = node.func.value
    fastmcp = a.kind_of(node.func.value, fn) is Kind.CONTEXT_FASTMCP
    stmt = enclosing_stmt(a, node)
    small = pm.get(id(aw))
    single_line = isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and pm.get(id(small)) is stmt
    p = config.path_parameter
    if (
        single_line
        and isinstance(small, (cst.Assign, cst.AnnAssign))
        and small.value is aw
        and (isinstance(small, cst.AnnAssign) or len(small.targets) == 1)
        and isinstance(
            target := (small.target if isinstance(small, cst.AnnAssign) else small.targets[0].target), cst.Name
        )
    ):
        var = target.value
        stores = [n for n, _ in fn.assigns if n == var]
        refs = [r for r in name_refs(fn.node.body, var) if r is not target]
        ok, mode, changes = classify(a, refs, fastmcp, p.name, p.plural)
        if len(stores) > 1:  # reassigned: keep every use, rebuild the value (the mode still holds)
            ok, changes = False, {}
        removable = ok
    elif single_line and isinstance(small, cst.Expr) and small.value is aw:
        ok, mode, changes, removable = True, "single", {}, True
    else:
        ok, mode, changes = classify(a, [aw], fastmcp, p.name, p.plural)
        removable = False
    site.mode = mode
    site.name = param_name(config, mode)
    site.site_stmt = stmt
    if ok:
        site.changes.update(changes)
        if removable:
            assert isinstance(stmt, cst.SimpleStatementLine)  # removable only on a single line
            site.set(stmt, REMOVE)
            site.replace_site_stmt = True
            _maybe_unwrap(a, site, stmt)
    else:
        value, imports = _fallback_value(a, mode, site.name, fastmcp)
        site.set(aw, like(aw, value))
        site.imports |= imports
        site.unsafe.append(
            "the roots result is used other than through the first root's path or a loop over the roots' paths; "
            f"an equivalent value is built from the `{site.name}` parameter"
        )
    return site


def _maybe_unwrap(a: ModuleAnalysis, site: Site, stmt: cst.SimpleStatementLine) -> None:
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
    uses = {k for k, (_, change) in site.changes.items() if change is not REMOVE}
    if not rest or not all(contains_any(s, uses) for s in rest):
        return
    site.set(tr, partial(_unwrap, tr.leading_lines))
    handlers = ", ".join(code_of(h.type) if h.type is not None else "everything" for h in tr.handlers)
    site.unsafe.append(f"the `try` around the request is unwrapped and its `except {handlers}` fallback is dropped")


# The changes that rewrite a node from its updated form are module-level functions bound with
# ``partial``: a site travels with its finding, which the engine may pickle (a process pool).
def _unwrap(leading: Sequence[cst.EmptyLine], updated: cst.CSTNode) -> cst.RemovalSentinel | cst.FlattenSentinel:
    """The statements of the ``try`` body ``updated`` in its place (its leading lines on the first)."""
    assert isinstance(updated, cst.Try) and isinstance(updated.body, cst.IndentedBlock)  # set only on such a try
    body = list(updated.body.body)
    if not body:
        return cst.RemoveFromParent()
    first = body[0]
    assert isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement))  # every BaseStatement is one
    body[0] = first.with_changes(leading_lines=[*leading, *first.leading_lines])
    return cst.FlattenSentinel(body)


def _unwrap_if(leading: Sequence[cst.EmptyLine], updated: cst.CSTNode) -> cst.RemovalSentinel | cst.FlattenSentinel:
    """The statements of the ``if`` body ``updated`` in its place (its leading lines on the first)."""
    assert isinstance(updated, cst.If) and isinstance(updated.body, cst.IndentedBlock)  # set only on such an if
    body = list(updated.body.body)
    if not body:
        return cst.RemoveFromParent()
    first = body[0]
    assert isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement))  # every BaseStatement is one
    body[0] = first.with_changes(leading_lines=[*leading, *first.leading_lines])
    return cst.FlattenSentinel(body)


def _keep_comma(new: cst.Param, updated: cst.CSTNode) -> cst.CSTNode:
    """``new`` in place of the parameter ``updated``, keeping the comma that follows it."""
    assert isinstance(updated, cst.Param)
    return new.with_changes(comma=updated.comma)


def resolve_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> Site:
    """``Annotated[ListRootsResult, Resolve(fn)]`` where ``fn`` returns ``ListRoots()``."""
    site = Site(fn, node, "resolve")
    pm = a.parents
    if fn is None or fn.parent is not None or fn.class_name is not None:
        site.reason = "`ListRoots()` is not returned by a module-level resolver function: rewrite by hand"
        return site
    body = [s for s in fn.node.body.body]
    if (
        body
        and isinstance(body[0], cst.SimpleStatementLine)
        and isinstance(body[0].body[0], cst.Expr)
        and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    ):
        body = body[1:]
    ret = pm.get(id(node))
    if len(body) != 1 or not isinstance(ret, cst.Return) or pm.get(id(ret)) is not body[0]:
        site.reason = (
            f"the resolver `{fn.name}` does more than return `ListRoots()` (a hybrid or conditional resolver): "
            "replace it with a documented path parameter by hand"
        )
        return site
    markers: list[cst.Call] = []
    stack: list[cst.CSTNode] = [a.module]
    while stack:
        n = stack.pop()
        if (
            isinstance(n, cst.Call)
            and a.qualname(n.func) in S.RESOLVE_MARKER
            and n.args
            and isinstance(n.args[0].value, cst.Name)
            and n.args[0].value.value == fn.name
        ):
            markers.append(n)
        stack.extend(n.children)
    if not markers:
        site.reason = f"the resolver `{fn.name}` is not used by any `Resolve(...)` parameter in this module"
        return site
    p = config.path_parameter
    modes: set[str] = set()
    for marker in markers:
        chain: list[cst.CSTNode | None] = [marker]
        for _ in range(5):
            chain.append(pm.get(id(chain[-1])))  # Index, SubscriptElement, Subscript, Annotation, Param
        param = chain[-1]
        ann = chain[3]
        if (
            not isinstance(param, cst.Param)
            or not isinstance(ann, cst.Subscript)
            or (get_full_name_for_node(ann.value) or "").split(".")[-1] != "Annotated"
            or param.default is not None
        ):
            site.reason = f"`Resolve({fn.name})` is not the marker of a tool parameter `Annotated[ListRootsResult, Resolve({fn.name})]`: rewrite by hand"
            return site
        tool = a.enclosing_function(param)
        if tool is None or tool.role != "tool":
            site.reason = f"`Resolve({fn.name})` is used by `{tool.qualname if tool else '?'}`, which is not a tool: rewrite by hand"
            return site
        pname = param.name.value
        refs = name_refs(tool.node.body, pname)
        if any(n == pname for n, _ in tool.assigns):
            site.reason = f"`{pname}` is reassigned in `{tool.qualname}`: rewrite by hand"
            return site
        ok, mode, changes = classify(a, refs, False, p.name, p.plural)
        if not ok:
            site.reason = (
                f"`{tool.qualname}` uses `{pname}` other than through the first root's path or a loop over the "
                "roots' paths: replace it with a documented path parameter by hand"
            )
            return site
        modes.add(mode)
        name = param_name(config, mode)
        site.changes.update(changes)
        site.set(
            param,
            partial(
                _keep_comma,
                documented_param(
                    config,
                    mode,
                    annotated=import_name(a, "typing", "Annotated"),
                    field=import_name(a, "pydantic", "Field"),
                ),
            ),
        )
        site.tools.append(tool)
        dead = set(site.changes)
        if (
            (name in tool.param_names() and name != pname)
            or name_refs(tool.node.params, name, dead)
            or name_refs(tool.node.body, name, dead)
        ):
            site.reason = f"`{name}` is already a name in `{tool.qualname}`: set another name with `[tool.mcpmigrate] path-parameter`"
            return site
    site.mode = "list" if "list" in modes else "single"
    site.name = param_name(config, site.mode)
    counter = name_refs(a.module, fn.name)
    if len(counter) == len(markers):
        site.set(fn.node, REMOVE)
    site.imports |= {("typing", "Annotated"), ("pydantic", "Field")}
    return site


def irr_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> Site:
    """A low-level handler's ``if <no answer>: return InputRequiredResult(input_requests={k: ListRootsRequest()})``
    (whether the path can reach the tool's inputSchema is the caller's check)."""
    site = Site(fn, node, "irr")
    pm = a.parents
    if fn is None or fn.role != "lowlevel-tool":
        site.reason = (
            "only a low-level tools/call handler's interim roots request is rewritten automatically: rewrite by hand"
        )
        return site
    el = pm.get(id(node))
    d = pm.get(id(el))
    arg = pm.get(id(d))
    irr = pm.get(id(arg))
    ret = pm.get(id(irr))
    line = pm.get(id(ret))
    block = pm.get(id(line))
    guard = pm.get(id(block))
    if not (
        isinstance(el, cst.DictElement)
        and isinstance(d, cst.Dict)
        and len(d.elements) == 1
        and isinstance(arg, cst.Arg)
        and isinstance(irr, cst.Call)
        and isinstance(ret, cst.Return)
        and isinstance(line, cst.SimpleStatementLine)
        and isinstance(block, cst.IndentedBlock)
        and len(block.body) == 1
        and isinstance(guard, cst.If)
        and guard.orelse is None
    ):
        site.reason = (
            "the interim result is not the only statement of an `if <no answer yet>:` guard asking for roots alone: "
            "rewrite by hand"
        )
        return site
    answer_names = {n.value for n in name_nodes(guard.test)}
    assign_stmt = None
    var = None
    for stmt in _stmts_before(a, guard):
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
            asg = stmt.body[0]
            if (
                len(asg.targets) == 1
                and isinstance(asg.targets[0].target, cst.Name)
                and asg.targets[0].target.value in answer_names
            ):
                if any(
                    isinstance(n, cst.Attribute) and n.attr.value in ("input_responses", "inputResponses")
                    for n in walk(asg.value)
                ):
                    assign_stmt, var = stmt, asg.targets[0].target
    if assign_stmt is None or var is None:
        site.reason = (
            "the answer is not read from `input_responses` into a local just before the guard: rewrite by hand"
        )
        return site
    if sum(1 for n, _ in fn.assigns if n == var.value) != 1:
        site.reason = f"`{var.value}` is reassigned: rewrite by hand"
        return site
    refs = [r for r in name_refs(fn.node.body, var.value, {id(guard)}) if r is not var]
    p = config.path_parameter
    ok, mode, changes = classify(a, refs, False, p.name, p.plural)
    if not ok:
        site.reason = (
            f"`{var.value}` is used other than through the first root's path or a loop over the roots' "
            "paths: rewrite by hand"
        )
        return site
    site.mode = mode
    site.name = param_name(config, mode)
    site.changes.update(changes)
    site.set(guard, REMOVE)
    site.set(assign_stmt, REMOVE)
    site.site_stmt = assign_stmt
    site.replace_site_stmt = True
    return site


def _stmts_before(a: ModuleAnalysis, stmt: cst.CSTNode) -> list[cst.CSTNode]:
    block = a.parents.get(id(stmt))
    out = []
    for s in getattr(block, "body", ()):
        if s is stmt:
            break
        out.append(s)
    return out


def _tested_param(test: cst.BaseExpression, fn: FunctionInfo) -> str | None:
    """``x is None`` / ``not x`` where ``x`` is a parameter of ``fn`` with a default: its name."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        x: cst.BaseExpression = test.expression
    elif (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.Is)
        and isinstance(test.comparisons[0].comparator, cst.Name)
        and test.comparisons[0].comparator.value == "None"
    ):
        x = test.left
    else:
        return None
    if not isinstance(x, cst.Name):
        return None
    return next((p.name.value for p in fn.params if p.name.value == x.value and p.default is not None), None)


def make_optional(a: ModuleAnalysis, site: Site) -> bool:
    """Roots as the default of the tool's own path argument (``if folder is None: folder =
    <first root's path>``, roots-02): the request statement, removed, becomes ``if root is None:
    raise ValueError(...)`` so the new parameter can be optional (``= None``) and is used only
    where the roots were; calls that pass ``folder`` keep working without it. The site must sit
    directly (no other branch, ``try`` or loop between) in the body of that ``if``."""
    fn, stmt = site.fn, site.site_stmt
    if (
        fn is None
        or stmt is None
        or not site.replace_site_stmt
        or site.changes.get(id(stmt), (None, None))[1] is not REMOVE
    ):
        return False
    block = a.parents.get(id(stmt))
    branch = a.parents.get(id(block))
    if not (isinstance(block, cst.IndentedBlock) and isinstance(branch, cst.If) and branch.body is block):
        return False
    own = _tested_param(branch.test, fn)
    if own is None:
        return False
    message = f"pass `{own}` or `{site.name}`"
    assert isinstance(stmt, cst.SimpleStatementLine)
    check = cst.parse_statement(f"if {site.name} is None:\n    raise ValueError({str_lit(message)})\n")
    site.set(stmt, check.with_changes(leading_lines=stmt.leading_lines))
    site.optional = own
    return True


def _memo_test(test: cst.BaseExpression) -> str | None:
    """``M is None`` / ``not M``: the name ``M``."""
    if (
        isinstance(test, cst.UnaryOperation)
        and isinstance(test.operator, cst.Not)
        and isinstance(test.expression, cst.Name)
    ):
        return test.expression.value
    if (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.Is)
        and isinstance(test.comparisons[0].comparator, cst.Name)
        and test.comparisons[0].comparator.value == "None"
        and isinstance(test.left, cst.Name)
    ):
        return test.left.value
    return None


def drop_memo(a: ModuleAnalysis, site: Site) -> str | None:
    """A module-level memo of the roots answer (roots-03)::

        global _DIR
        if _DIR is None:
            listing = await ctx.session.list_roots()
            _DIR = listing.roots[0].uri.path
        return _DIR

    goes with the request: kept, it would hold the first call's parameter for every later call.
    The ``if`` and the ``global`` go, the memo's reads become the parameter, and the module-level
    ``_DIR = None`` goes when nothing else reads it. Returns the memo's name when the site was
    rewritten this way, or the reason it cannot be (``manual:`` prefix), or None (no memo)."""
    fn, stmt = site.fn, site.site_stmt
    if fn is None or stmt is None or site.changes.get(id(stmt), (None, None))[1] is not REMOVE:
        return None
    block = a.parents.get(id(stmt))
    branch = a.parents.get(id(block))
    if not (
        isinstance(block, cst.IndentedBlock)
        and isinstance(branch, cst.If)
        and branch.body is block
        and branch.orelse is None
    ):
        return None
    memo = _memo_test(branch.test)
    globals_ = [
        g for g in walk(fn.node.body) if isinstance(g, cst.Global) and any(n.name.value == memo for n in g.names)
    ]
    if memo is None or not globals_:
        return None
    rest = [x for x in block.body if x is not stmt]
    if len(rest) != 1 or not isinstance(rest[0], cst.SimpleStatementLine) or len(rest[0].body) != 1:
        return None
    store = rest[0].body[0]
    if not (
        isinstance(store, cst.Assign)
        and len(store.targets) == 1
        and isinstance(store.targets[0].target, cst.Name)
        and store.targets[0].target.value == memo
        and id(store.value) in site.changes
    ):
        return None
    in_fn = [n for n in walk(fn.node) if isinstance(n, cst.Name) and n.value == memo]
    module_stmts = [
        x
        for x in a.module.body
        if isinstance(x, cst.SimpleStatementLine)
        and len(x.body) == 1
        and isinstance(x.body[0], (cst.Assign, cst.AnnAssign))
        and memo
        in {t.target.value for t in getattr(x.body[0], "targets", ()) if isinstance(t.target, cst.Name)}
        | (
            {x.body[0].target.value}
            if isinstance(x.body[0], cst.AnnAssign) and isinstance(x.body[0].target, cst.Name)
            else set()
        )
    ]
    elsewhere = a.name_counts.get(memo, 0) - len(in_fn) - len(module_stmts)
    if elsewhere > 0:
        return (
            f"manual:the roots answer is memoised in the module-level `{memo}`, which code other than "
            f"`{fn.qualname}` also uses: with a parameter each call has its own directory, so replace the memo "
            "by the parameter there too, by hand"
        )
    dead = {id(branch), *(id(g) for g in globals_)}
    reads = name_refs(fn.node.body, memo, dead)
    if any(isinstance(a.parents.get(id(r)), cst.AssignTarget) for r in reads):
        return None
    # The request's own changes sit inside the removed `if`: they go with it.
    site.changes.pop(id(stmt))
    site.changes.pop(id(store.value))
    site.set(branch, REMOVE)
    for g in globals_:
        names = [n for n in g.names if n.name.value != memo]
        site.set(
            g,
            REMOVE
            if not names
            else g.with_changes(names=[*names[:-1], names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)]),
        )
    for r in reads:
        site.set(r, cst.Name(site.name))
    for x in module_stmts:
        site.set(x, REMOVE)
    return memo


_CAPABILITY_ATTRS = {"client_params", "capabilities", "client_capabilities"}


def _reads_capability(
    a: ModuleAnalysis, expr: cst.CSTNode, fn: FunctionInfo, locals_: dict[str, cst.CSTNode], depth: int = 0
) -> bool:
    """``expr`` asks whether the client can answer a roots request: ``check_client_capability``,
    a read of ``client_params`` / ``capabilities``, ``isinstance(<session>, …)``, a local bound
    to one of these, or a module helper that returns one."""
    for n in walk(expr):
        if isinstance(n, cst.Attribute) and n.attr.value in _CAPABILITY_ATTRS | {"check_client_capability"}:
            return True
        if isinstance(n, cst.Name) and n.value in locals_ and depth == 0:
            if _reads_capability(a, locals_[n.value], fn, locals_, 1):
                return True
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name):
            if n.func.value == "isinstance" and n.args and a.kind_of(n.args[0].value, fn) is Kind.SESSION:
                return True
            callee = a.callee_of(n, fn)
            if callee is not None and depth == 0 and not callee.is_async:
                body = callee.node.body
                if (
                    isinstance(body, cst.IndentedBlock)
                    and len(body.body) == 1
                    and isinstance(body.body[0], cst.SimpleStatementLine)
                    and isinstance(ret := body.body[0].body[0], cst.Return)
                    and ret.value is not None
                    and _reads_capability(a, ret.value, callee, {}, 1)
                ):
                    return True
    return False


def drop_capability_guards(a: ModuleAnalysis, site: Site) -> list[str]:
    """Capability guards before the request in its function (``if not has_roots: return []``,
    ``if not _supports_roots(ctx): …``, ``if not isinstance(ctx.session, ServerSession): …``,
    ``if caps.roots is None: …``) protect only the request: they go with it, and so does the
    local they test when nothing else reads it. Kept, they would answer a client without the roots
    capability (every 2026-07-28 client) as before and ignore the new parameter. Returns the
    guards' tests."""
    fn, stmt = site.fn, site.site_stmt
    if fn is None or stmt is None or not isinstance(fn.node.body, cst.IndentedBlock):
        return []
    top: cst.CSTNode | None = stmt
    while top is not None and a.parents.get(id(top)) is not fn.node.body:
        top = a.parents.get(id(top))
    if not isinstance(top, cst.BaseStatement):  # None, or (being in the body) a statement
        return []
    body = list(fn.node.body.body)
    before = body[: body.index(top)]
    locals_: dict[str, tuple[cst.CSTNode, cst.SimpleStatementLine]] = {}
    for x in before:
        if (
            isinstance(x, cst.SimpleStatementLine)
            and len(x.body) == 1
            and isinstance(x.body[0], cst.Assign)
            and len(x.body[0].targets) == 1
            and isinstance(x.body[0].targets[0].target, cst.Name)
        ):
            locals_[x.body[0].targets[0].target.value] = (x.body[0].value, x)
    values = {k: v for k, (v, _) in locals_.items()}
    dropped: list[str] = []
    for x in before:
        if not (
            isinstance(x, cst.If)
            and x.orelse is None
            and isinstance(x.body, cst.IndentedBlock)
            and all(
                isinstance(y, cst.SimpleStatementLine) and all(isinstance(z, (cst.Return, cst.Raise)) for z in y.body)
                for y in x.body.body
            )
        ):
            continue
        if any(isinstance(n, cst.BooleanOperation) for n in walk(x.test)) or not _reads_capability(
            a, x.test, fn, values
        ):
            continue  # `if not ok or not has_roots`: the guard also checks something else
        site.set(x, REMOVE)
        dropped.append(code_of(x.test))
    # `if <capability>:` around the request (the positive spelling): its body stays, unwrapped.
    block = a.parents.get(id(stmt))
    branch = a.parents.get(id(block))
    if (
        isinstance(block, cst.IndentedBlock)
        and isinstance(branch, cst.If)
        and branch.body is block
        and branch.orelse is None
        and a.parents.get(id(branch)) is fn.node.body
        and not any(isinstance(n, cst.BooleanOperation) for n in walk(branch.test))
        and not isinstance(branch.test, (cst.UnaryOperation, cst.Comparison))
        and _reads_capability(a, branch.test, fn, values)
    ):
        site.set(branch, partial(_unwrap_if, branch.leading_lines))
        dropped.append("if " + code_of(branch.test))
        last = block.body[-1]
        if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise)):
            # what followed the `if` ran only for clients without roots: unreachable once unwrapped
            for x in body[body.index(branch) + 1 :]:
                site.set(x, REMOVE)
    dead = {k for k in site.changes}
    for name, (_value, line) in locals_.items():
        if (
            line in before
            and _reads_capability(a, _value, fn, {}, 1)
            and not name_refs(fn.node.body, name, dead | {id(line)})
        ):
            site.set(line, REMOVE)
    return dropped

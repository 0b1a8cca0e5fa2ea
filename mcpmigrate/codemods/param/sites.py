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
from mcpmigrate.codemods.edits import REMOVE, Edits, flatten_body, import_name
from mcpmigrate.codemods.param.parameter import documented_param, like, param_name
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
    fallback: str | None = None  # request form, asked only where no other directory was given: when it is used
    gate: str | None = None  # request form, a fallback: what decides whether the request runs (`try`, `if …`)
    guards: list[cst.If] = field(default_factory=list)  # `if not <capability>: return …` removed with the request
    config: Config | None = None  # the run's: the new parameter's description
    across: list[tuple[str, str, str]] = field(default_factory=list)  # request form: (module, caller, callee here)

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        """Record this site's changes and gather it for the round's threading
        (:func:`mcpmigrate.codemods.param.record.record_site`)."""
        # the recorder reads Site: imported here, not at the top of this module
        from mcpmigrate.codemods.param.record import record_site

        record_site(self, edits, analysis)

    def project_needs(self) -> list[dict[str, str]]:
        """What the project step reads once this module is fixed (``mcpmigrate/project_threads.py``):
        for each caller in another module, ``{"path", "caller", "callee", "name", "mode"}`` — plain
        data, kept on the finding when its libcst nodes are dropped."""
        return [
            {"path": path, "caller": caller, "callee": callee, "name": self.name, "mode": self.mode}
            for path, caller, callee in self.across
        ]

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
    sized: list[cst.CSTNode] = []  # `not result.roots`, `len(result.roots)`: plain in list mode
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
        size = _is_size_check(pm, r)
        if size:
            # `len(result.roots)` counts every root: the code works with all of them (a list).
            # `if not result.roots:` alone says nothing about how many roots it works with.
            if size == "count":
                modes.add("list")
            sized.append(r)
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
    if any(_is_size_check(pm, r) == "operand" for r in sized):
        ok = False
    elif sized and mode == "list":
        # the list of paths has as many elements as the roots, and is empty exactly when they are
        for r in sized:
            changes[id(r)] = (r, like(r, cst.Name(plural)))
    elif sized:
        ok = False  # one `root` is never empty: `if not result.roots:` needs the rebuilt value
    return ok, mode, (changes if ok else {})


def _is_size_check(pm: dict[int, cst.CSTNode], node: cst.CSTNode) -> str | None:
    """How ``node`` is used when it is only tested for emptiness (``not x``, ``if x:``:
    ``"empty"``; an operand of ``x or y``, which also passes ``x`` on: ``"operand"``) or counted
    (``len(x)``: ``"count"``); else None."""
    p = pm.get(id(node))
    if isinstance(p, cst.UnaryOperation) and isinstance(p.operator, cst.Not):
        return "empty"
    if isinstance(p, (cst.If, cst.While)) and p.test is node:
        return "empty"
    if isinstance(p, cst.BooleanOperation):
        return "operand"  # `x or default` also passes `x` on: never a plain use
    if isinstance(p, cst.IfExp) and p.test is node:
        return "empty"
    if isinstance(p, cst.Arg):
        call = pm.get(id(p))
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Name)
            and call.func.value == "len"
            and len(call.args) == 1
        ):
            return "count"
    return None


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


#: Calls that await a request under a time limit and return its answer: ``await
#: asyncio.wait_for(ctx.session.list_roots(), timeout=5)`` is the request (field case bugs-20).
TIME_LIMITS = {"asyncio.wait_for"}


def request_await(a: ModuleAnalysis, node: cst.Call) -> cst.Await | None:
    """The ``await`` that gets the answer of the request ``node``: ``await node``, or ``await
    asyncio.wait_for(node, …)`` (the time limit goes with the request)."""
    pm = a.parents
    outer: cst.CSTNode = node
    arg = pm.get(id(node))
    call = pm.get(id(arg)) if isinstance(arg, cst.Arg) else None
    if (
        isinstance(call, cst.Call)
        and isinstance(arg, cst.Arg)
        and call.args
        and call.args[0] is arg
        and arg.keyword is None
        and not arg.star
        and a.qualname(call.func) in TIME_LIMITS
    ):
        outer = call
    aw = pm.get(id(outer))
    return aw if isinstance(aw, cst.Await) and aw.expression is outer else None


def root_list(a: ModuleAnalysis, receiver: cst.BaseExpression, fn: FunctionInfo) -> bool:
    """``<receiver>.list_roots()`` answers the roots themselves (``list[Root]``), not the
    ``ListRootsResult``: a fastmcp Context, or a framework's context whose ``list_roots`` returns
    the session's ``result.roots`` (mcp-use ``Context.list_roots``; ``surfaces.FRAMEWORK_CONTEXT_METHODS``)."""
    if a.kind_of(receiver, fn) is Kind.CONTEXT_FASTMCP:
        return True
    return a.framework_methods(receiver, fn).get("list_roots") == "roots"


def request_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo) -> Site:
    """What an awaited ``list_roots()`` in ``fn`` turns into, with ``config``'s parameter name."""
    pm = a.parents
    site = Site(fn, node, "request", config=config)
    aw = request_await(a, node)
    assert isinstance(aw, cst.Await) and isinstance(node.func, cst.Attribute)
    site.receiver = node.func.value
    fastmcp = root_list(a, node.func.value, fn)
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
        built = (
            f"an equivalent value is built from the `{site.name}` list"
            if mode == "list"
            else f"a value holding one root is built from the `{site.name}` parameter (only the first root is kept)"
        )
        site.unsafe.append(
            "the roots result is used other than through the first root's path, a loop over the roots' paths "
            f"or their count; {built}"
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
    site.set(tr, partial(flatten_body, tr.leading_lines))
    handlers = ", ".join(code_of(h.type) if h.type is not None else "everything" for h in tr.handlers)
    site.unsafe.append(f"the `try` around the request is unwrapped and its `except {handlers}` fallback is dropped")


# The changes that rewrite a node from its updated form are module-level functions bound with
# ``partial`` (edits.flatten_body, _keep_comma): a site travels with its finding, which the engine
# may pickle (a process pool).
def _keep_comma(new: cst.Param, updated: cst.CSTNode) -> cst.CSTNode:
    """``new`` in place of the parameter ``updated``, keeping the comma that follows it."""
    assert isinstance(updated, cst.Param)
    return new.with_changes(comma=updated.comma)


def resolve_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> Site:
    """``Annotated[ListRootsResult, Resolve(fn)]`` where ``fn`` returns ``ListRoots()``: each tool
    parameter so marked becomes the documented path parameter (:func:`_replace_marked_param`) and
    the resolver goes when nothing else uses it."""
    site = Site(fn, node, "resolve", config=config)
    if fn is None or fn.parent is not None or fn.class_name is not None:
        site.reason = "`ListRoots()` is not returned by a module-level resolver function: rewrite by hand"
        return site
    if not _only_returns(a, node, fn):
        site.reason = (
            f"the resolver `{fn.name}` does more than return `ListRoots()` (a hybrid or conditional resolver): "
            "replace it with a documented path parameter by hand"
        )
        return site
    markers = _resolve_markers(a, fn)
    if not markers:
        site.reason = f"the resolver `{fn.name}` is not used by any `Resolve(...)` parameter in this module"
        return site
    modes: set[str] = set()
    for marker in markers:
        reason = _replace_marked_param(a, config, site, fn, marker, modes)
        if reason:
            site.reason = reason
            return site
    site.mode = "list" if "list" in modes else "single"
    site.name = param_name(config, site.mode)
    counter = name_refs(a.module, fn.name)
    if len(counter) == len(markers):
        site.set(fn.node, REMOVE)
    site.imports |= {("typing", "Annotated"), ("pydantic", "Field")}
    return site


def _only_returns(a: ModuleAnalysis, node: cst.Call, fn: FunctionInfo) -> bool:
    """The resolver ``fn``'s body (after its docstring) is only ``return node``."""
    pm = a.parents
    body = [s for s in fn.node.body.body]
    if (
        body
        and isinstance(body[0], cst.SimpleStatementLine)
        and isinstance(body[0].body[0], cst.Expr)
        and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    ):
        body = body[1:]
    ret = pm.get(id(node))
    return len(body) == 1 and isinstance(ret, cst.Return) and pm.get(id(ret)) is body[0]


def _resolve_markers(a: ModuleAnalysis, fn: FunctionInfo) -> list[cst.Call]:
    """The module's ``Resolve(fn)`` calls naming the resolver ``fn``."""
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
    return markers


def _marked_param(a: ModuleAnalysis, fn: FunctionInfo, marker: cst.Call) -> tuple[cst.Param, FunctionInfo] | str:
    """The tool parameter ``Annotated[ListRootsResult, Resolve(fn)]`` that ``marker`` is the
    ``Resolve(fn)`` of, with its tool; or why it is not one."""
    pm = a.parents
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
        return f"`Resolve({fn.name})` is not the marker of a tool parameter `Annotated[ListRootsResult, Resolve({fn.name})]`: rewrite by hand"
    tool = a.enclosing_function(param)
    if tool is None or tool.role != "tool":
        return (
            f"`Resolve({fn.name})` is used by `{tool.qualname if tool else '?'}`, which is not a tool: rewrite by hand"
        )
    return param, tool


def _replace_marked_param(
    a: ModuleAnalysis, config: Config, site: Site, fn: FunctionInfo, marker: cst.Call, modes: set[str]
) -> str | None:
    """Record on ``site`` the documented path parameter in place of the tool parameter ``marker``
    marks and its uses as uses of the path (their mode, ``single`` or ``list``, added to
    ``modes``); or why the parameter must be replaced by hand (None: it was recorded)."""
    marked = _marked_param(a, fn, marker)
    if isinstance(marked, str):
        return marked
    param, tool = marked
    p = config.path_parameter
    pname = param.name.value
    refs = name_refs(tool.node.body, pname)
    if any(n == pname for n, _ in tool.assigns):
        return f"`{pname}` is reassigned in `{tool.qualname}`: rewrite by hand"
    ok, mode, changes = classify(a, refs, False, p.name, p.plural)
    if not ok:
        return (
            f"`{tool.qualname}` uses `{pname}` other than through the first root's path or a loop over the "
            "roots' paths: replace it with a documented path parameter by hand"
        )
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
        return (
            f"`{name}` is already a name in `{tool.qualname}`: set another name with `[tool.mcpmigrate] path-parameter`"
        )
    return None


def irr_site(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> Site:
    """A low-level handler's ``if <no answer>: return InputRequiredResult(input_requests={k: ListRootsRequest()})``
    (whether the path can reach the tool's inputSchema is the caller's check)."""
    site = Site(fn, node, "irr", config=config)
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

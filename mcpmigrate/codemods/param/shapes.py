"""What goes with a roots request besides the request itself, so the new parameter is read on
every call: a roots answer used only as the default of the tool's own path argument (the parameter
becomes optional, used only where the roots were), a module-level memo of the answer (dropped, or
it would outlive the first call), and capability guards that only protect the request (dropped,
or clients without the roots capability would never reach the parameter). The param planner
(``codemods/param/__init__.py``) calls these on a :class:`~mcpmigrate.codemods.param.sites.Site`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import REMOVE, flatten_body
from mcpmigrate.codemods.param.parameter import fallback_note, str_lit
from mcpmigrate.codemods.param.sites import Site
from mcpmigrate.names import name_refs


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
    site.fallback = fallback_note(own)
    site.gate = "if " + code_of(branch.test)
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


@dataclass(frozen=True)
class _MemoIf:
    """``if <name> is None: <request>; <name> = <its path>`` in ``fn`` under ``global <name>``."""

    fn: FunctionInfo
    name: str
    branch: cst.If
    request: cst.CSTNode  # the request's statement, removed by the site
    store: cst.Assign  # ``<name> = …``, its value a use of the roots the site changes
    globals_: list[cst.Global]


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
    m = _memo_if(a, site)
    if m is None:
        return None
    in_fn = [n for n in walk(m.fn.node) if isinstance(n, cst.Name) and n.value == m.name]
    module_stmts = _module_bindings(a, m.name)
    elsewhere = a.name_counts.get(m.name, 0) - len(in_fn) - len(module_stmts)
    if elsewhere > 0:
        return (
            f"manual:the roots answer is memoised in the module-level `{m.name}`, which code other than "
            f"`{m.fn.qualname}` also uses: with a parameter each call has its own directory, so replace the memo "
            "by the parameter there too, by hand"
        )
    dead = {id(m.branch), *(id(g) for g in m.globals_)}
    reads = name_refs(m.fn.node.body, m.name, dead)
    if any(isinstance(a.parents.get(id(r)), cst.AssignTarget) for r in reads):
        return None
    _drop_memo_if(site, m, reads, module_stmts)
    return m.name


def _memo_if(a: ModuleAnalysis, site: Site) -> _MemoIf | None:
    """The memo ``if`` around the site's removed request statement, when the request is
    memoised in a ``global`` (:func:`drop_memo`'s shape)."""
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
    return _MemoIf(fn, memo, branch, stmt, store, globals_)


def _module_bindings(a: ModuleAnalysis, name: str) -> list[cst.SimpleStatementLine]:
    """The module-level statements that only assign ``name`` (``_DIR = None``, ``_DIR: str | None = None``)."""
    return [
        x
        for x in a.module.body
        if isinstance(x, cst.SimpleStatementLine)
        and len(x.body) == 1
        and isinstance(x.body[0], (cst.Assign, cst.AnnAssign))
        and name
        in {t.target.value for t in getattr(x.body[0], "targets", ()) if isinstance(t.target, cst.Name)}
        | (
            {x.body[0].target.value}
            if isinstance(x.body[0], cst.AnnAssign) and isinstance(x.body[0].target, cst.Name)
            else set()
        )
    ]


def _drop_memo_if(site: Site, m: _MemoIf, reads: list[cst.Name], module_stmts: list[cst.SimpleStatementLine]) -> None:
    """Record on ``site``: the memo ``if`` and its ``global`` go, its ``reads`` become the
    parameter, and so do the module-level ``module_stmts`` that bound it."""
    # The request's own changes sit inside the removed `if`: they go with it.
    site.changes.pop(id(m.request))
    site.changes.pop(id(m.store.value))
    site.set(m.branch, REMOVE)
    for g in m.globals_:
        names = [n for n in g.names if n.name.value != m.name]
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


def _only_capability(a: ModuleAnalysis, test: cst.BaseExpression, fn: FunctionInfo, locals_: dict) -> bool:
    """Every operand of ``test`` (through ``and``/``or``, ``not`` and parentheses) reads the
    capability: ``not (params and params.capabilities.roots)`` does, ``not ok or not has_roots`` does
    not (it also checks something else). A walrus binds a name: ``(ok := <capability>)`` reads it."""
    if isinstance(test, cst.BooleanOperation):
        return _only_capability(a, test.left, fn, locals_) and _only_capability(a, test.right, fn, locals_)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _only_capability(a, test.expression, fn, locals_)
    return _reads_capability(a, test, fn, locals_)


def _walrus_kept(fn: FunctionInfo, test: cst.BaseExpression, dead: set[int]) -> bool:
    """A name a walrus in ``test`` binds is read outside ``dead`` (what the fix removes)."""
    return any(
        isinstance(n, cst.NamedExpr)
        and isinstance(n.target, cst.Name)
        and name_refs(fn.node.body, n.target.value, dead)
        for n in walk(test)
    )


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
        if not _only_capability(a, x.test, fn, values) or _walrus_kept(fn, x.test, {id(x)}):
            continue  # `if not ok or not has_roots`: the guard also checks something else
        site.set(x, REMOVE)
        site.guards.append(x)
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
        and not isinstance(branch.test, (cst.UnaryOperation, cst.Comparison))
        and not (isinstance(branch.test, cst.BooleanOperation) and isinstance(branch.test.operator, cst.Or))
        and _only_capability(a, branch.test, fn, values)
        and not _walrus_kept(fn, branch.test, {id(branch.test)})
    ):
        site.set(branch, partial(flatten_body, branch.leading_lines))
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
            and (_reads_capability(a, _value, fn, {}, 1) or _is_capabilities(a, _value))
            and not name_refs(fn.node.body, name, dead | {id(line)})
        ):
            site.set(line, REMOVE)
    _drop_guard_helpers(a, site, fn)
    return dropped


def _is_capabilities(a: ModuleAnalysis, value: cst.CSTNode) -> bool:
    """``ClientCapabilities(roots=…)``: what a guard passes to ``check_client_capability``."""
    return isinstance(value, cst.Call) and a.qualname(value.func) in S.CLIENT_CAPABILITIES


def _drop_guard_helpers(a: ModuleAnalysis, site: Site, fn: FunctionInfo) -> None:
    """A private module-level helper whose only call sat in a guard (or its local) that goes:
    ``def _supports_roots(ctx): return ctx.session.check_client_capability(...)`` goes too, or
    it would stay behind, unused, still reading the capability from the session."""
    for node, change in list(site.changes.values()):
        if change is not REMOVE:
            continue
        for call in walk(node):
            if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Name):
                continue
            helper = a.callee_of(call, fn)
            if (
                helper is not None
                and helper.parent is None
                and helper.class_name is None
                and helper.name.startswith("_")
                and not helper.node.decorators
                and a.name_counts.get(helper.name, 0) == 2  # its `def` and this call
                and _reads_capability(a, call, fn, {})
            ):
                site.set(helper.node, REMOVE)


def removes(a: ModuleAnalysis, site: Site, node: cst.CSTNode) -> bool:
    """Whether the site's planned changes take ``node``'s text away: ``node`` or an ancestor is
    removed or replaced, or ``node`` is in the test of an ``if`` the fix unwraps (the capability
    read of a guard that goes with the request, MCP102)."""
    child: cst.CSTNode | None = None
    cur: cst.CSTNode | None = node
    while cur is not None:
        entry = site.changes.get(id(cur))
        if entry is not None:
            change = entry[1]
            if change is REMOVE or isinstance(change, cst.CSTNode):
                return True
            if isinstance(cur, cst.If) and child is cur.test:
                return True
        child, cur = cur, a.parents.get(id(cur))
    return False

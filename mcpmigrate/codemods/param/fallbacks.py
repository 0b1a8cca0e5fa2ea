"""Roots as a fallback: a request reached only when no other directory was given — an explicit
argument of the tool (``if folder and Path(folder).is_absolute(): return folder`` before the call of
the helper that asks, field case roots-18), an environment variable (``os.environ.get("DIR") or
await _ask(ctx)``), or a ``try`` whose ``except`` falls back to a configured directory or the cwd
(field case bugs-20).

The fix keeps every call that worked: the new parameter is optional (``… | None = None`` on the
tool, ``… | None`` on the helpers it is threaded through), documented as used only where the roots
were (``Used only when `folder` is not given.``), and where the request was the code checks it:
``if roots is None: raise ValueError("pass `folder` or `roots`")``. A call that never reached the
request needs no new argument; inside a ``try`` the check takes the ``except`` fallback, as a
client that could not answer did.
"""

from __future__ import annotations

from functools import partial

import libcst as cst

from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import REMOVE
from mcpmigrate.codemods.param.chains import ENTRY_ROLES, Edge
from mcpmigrate.codemods.param.parameter import fallback_note, str_lit
from mcpmigrate.codemods.param.sites import Site
from mcpmigrate.codemods.param.thread import bound_arg
from mcpmigrate.names import name_nodes

_CTX_KINDS = set(CONTEXTS) | {Kind.LL_CONTEXT, Kind.SESSION}
_CATCH_ALL = {"Exception", "BaseException", "ValueError"}


def _is_dispatch(test: cst.BaseExpression) -> bool:
    """``name == "grep"``: a handler choosing the tool, not a fallback inside it."""
    return (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.Equal)
        and isinstance(test.comparisons[0].comparator, (cst.SimpleString, cst.ConcatenatedString))
    )


def _exits(block: cst.BaseSuite) -> bool:
    return any(isinstance(x, (cst.Return, cst.Raise)) for x in walk(block))


def gates(a: ModuleAnalysis, f: FunctionInfo, point: cst.CSTNode, dead: set[int]) -> list[tuple[str, cst.CSTNode]]:
    """What in ``f`` decides whether ``point`` runs, innermost first: ``(header, test)`` for an
    enclosing ``if`` (its test), a ``try`` around it (the ``try``), the left operand of an ``or``/``and``
    it is the right operand of, and an earlier ``if …: return`` of a block around it. Loops are
    not gates (the request runs on every call that reaches them), nor is an ``if`` that goes with
    the request (``dead``: a capability guard the fix removes or unwraps)."""
    out: list[tuple[str, cst.CSTNode]] = []
    pm = a.parents
    child: cst.CSTNode = point
    cur = pm.get(id(point))
    while cur is not None and cur is not f.node:
        if id(cur) in dead:
            pass
        elif isinstance(cur, (cst.If, cst.IfExp)) and child is not cur.test and not _is_dispatch(cur.test):
            out.append(("if " + code_of(cur.test), cur.test))
        elif isinstance(cur, cst.Try) and child is cur.body:
            out.append(("try", cur))
        elif isinstance(cur, cst.BooleanOperation) and child is cur.right:
            out.append((code_of(cur.left) + " " + code_of(cur.operator).strip() + " …", cur.left))
        if isinstance(cur, cst.IndentedBlock):
            for s in cur.body:
                if s is child:
                    break
                if (
                    isinstance(s, cst.If)
                    and id(s) not in dead
                    and s.orelse is None
                    and _exits(s.body)
                    and not _is_dispatch(s.test)
                ):
                    out.append(("if " + code_of(s.test), s.test))
        child, cur = cur, pm.get(id(cur))
    return out


def _points(fn: FunctionInfo, node: cst.CSTNode, f: FunctionInfo, edges: list[Edge]) -> list[cst.CSTNode]:
    return [node] if f is fn else [e.call for e in edges if e.caller is f]


def fallback_gate(
    a: ModuleAnalysis, fn: FunctionInfo, node: cst.CSTNode, funcs: list[FunctionInfo], edges: list[Edge], dead: set[int]
) -> str | None:
    """The header of a gate (:func:`gates`) on every path from an entry point to the request
    ``node`` in ``fn`` — the request is reached only on some calls — or None when some entry
    reaches it on every call. ``dead``: the nodes that go with the request (:func:`gates`)."""
    always: dict[int, bool] = {}
    first: list[str] = []

    def runs_always(f: FunctionInfo, depth: int = 0) -> bool:
        """Calling ``f`` always reaches the request (through an ungated point)."""
        if id(f) in always:
            return always[id(f)]
        always[id(f)] = False  # a recursive call does not make it reach
        result = False
        for p in _points(fn, node, f, edges):
            headers = [h for h, test in gates(a, f, p, dead) if _another_directory(a, f, test, edges)]
            if headers:
                first.append(headers[0])
                continue
            callee = None if f is fn else next((e.callee for e in edges if e.call is p), None)
            if f is fn or (callee is not None and depth < 50 and runs_always(callee, depth + 1)):
                result = True
        always[id(f)] = result
        return result

    entries = [f for f in funcs if f.role in ENTRY_ROLES]
    if not entries or any(runs_always(e) for e in entries):
        return None
    return first[0] if first else None


#: Calls that read the server's own setting or working directory: a fallback's source.
SERVER_SIDE = {
    "os.environ.get",
    "os.getenv",
    "os.getcwd",
    "pathlib.Path.cwd",
    "pathlib.Path.home",
    "os.path.expanduser",
}


def _another_directory(a: ModuleAnalysis, f: FunctionInfo, gate: cst.CSTNode, edges: list[Edge]) -> bool:
    """The gate gives the request's caller another directory when it does not run: a ``try``
    whose handlers do more than raise (their fallback), or a test that reads a path argument of
    the tool (a parameter with a default, possibly passed down to ``f``), the environment, the
    working directory, or a module-level setting. A test of a required argument (input
    validation) or of the session is not a fallback."""
    if isinstance(gate, cst.Try):
        return any(
            not all(
                isinstance(x, cst.SimpleStatementLine) and all(isinstance(y, cst.Raise) for y in x.body)
                for x in h.body.body
            )
            for h in gate.handlers
            if isinstance(h.body, cst.IndentedBlock)
        )
    module_names = {n for n, _ in a.module_assigns if a.function_named(n) is None and n not in a.module_kinds}
    for n in walk(gate):
        if isinstance(n, cst.Call) and a.qualname(n.func) in SERVER_SIDE:
            return True
        if isinstance(n, cst.Attribute) and n.attr.value == "environ":
            return True
        if isinstance(n, cst.Name):
            if n.value in f.param_names() and f.kinds.get(n.value) not in _CTX_KINDS:
                if _up(a, f, n.value, edges, 0) - {""}:
                    return True
            elif n.value in module_names and n.value not in f.param_names():
                return True
    return False


def explicit_argument(
    a: ModuleAnalysis, fn: FunctionInfo, node: cst.CSTNode, funcs: list[FunctionInfo], edges: list[Edge], dead: set[int]
) -> tuple[str | None, str | None]:
    """The parameter of the tool whose value skips the request when given (``folder`` in ``if
    folder …: return folder``), followed up the chain through the arguments that pass it, and the
    test that reads it when it checks more than whether it was given (``folder and
    Path(folder).is_absolute()``: a relative ``folder`` reaches the request too); ``(None, None)``
    when the gates read no such parameter or the entries disagree."""
    found: set[str] = set()
    tests: list[str] = []
    for f in funcs:
        for p in _points(fn, node, f, edges):
            for _header, test in gates(a, f, p, dead):
                if isinstance(test, cst.Try):
                    continue
                for n in {x.value for x in name_nodes(test)}:
                    if n in f.param_names() and f.kinds.get(n) not in _CTX_KINDS:
                        found |= _up(a, f, n, edges, 0)
                        tests += [] if _presence(test, n) else [code_of(test)]
                    derived, value = _derived_from(f, n)
                    for source in derived:
                        # `candidate = Path(directory)…; if candidate.is_absolute(): return …`: a
                        # relative `directory` reaches the request too (quick-context-mcp)
                        found |= _up(a, f, source, edges, 0)
                        tests.append(code_of(_inline(test, n, value)))
    found.discard("")
    if len(found) != 1:
        return None, None
    return found.pop(), "`, `".join(dict.fromkeys(tests)) or None


def _derived_from(f: FunctionInfo, name: str) -> tuple[set[str], cst.BaseExpression | None]:
    """The parameters of ``f`` (not contexts) a local ``name`` of ``f`` is computed from, by an
    assignment in ``f`` itself (``candidate = Path(directory).expanduser()``), and the value when
    it is assigned once (else None); nothing for a parameter or a local computed from none."""
    if name in f.param_names():
        return set(), None
    out: set[str] = set()
    values: list[cst.BaseExpression] = []
    for node in walk(f.node.body):
        if isinstance(node, cst.Assign) and any(
            isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets
        ):
            values.append(node.value)
            for x in name_nodes(node.value):
                if x.value in f.param_names() and f.kinds.get(x.value) not in _CTX_KINDS:
                    out.add(x.value)
    return out, values[0] if len(values) == 1 else None


def _inline(test: cst.CSTNode, name: str, value: cst.BaseExpression | None) -> cst.CSTNode:
    """``test`` with the local ``name`` spelled as the value it was assigned (``candidate.is_absolute()``
    → ``Path(directory).expanduser().is_absolute()``), so the schema names the tool's parameter."""
    if not isinstance(value, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        return test  # an operator would need parentheses: the local's own name stays
    spelled: cst.BaseExpression = value

    class _Inline(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            return spelled if original.value == name else updated

        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
            return updated.with_changes(attr=original.attr)  # `x.candidate` is no use of the local

    out = test.visit(_Inline())
    return out if isinstance(out, cst.CSTNode) else test


def _presence(test: cst.CSTNode, name: str) -> bool:
    """``name``, ``not name``, ``name is None``, ``name is not None``: whether it was given."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        c = test.comparisons[0]
        if isinstance(c.operator, (cst.Is, cst.IsNot)) and isinstance(c.comparator, cst.Name):
            test = test.left if c.comparator.value == "None" else test
    return isinstance(test, cst.Name) and test.value == name


def _up(a: ModuleAnalysis, f: FunctionInfo, pname: str, edges: list[Edge], depth: int) -> set[str]:
    """The entry-point parameters ``f``'s parameter ``pname`` is passed from ("" when unknown)."""
    if f.role in ENTRY_ROLES:
        param = next((p for p in f.params if p.name.value == pname), None)
        return {pname} if param is not None and param.default is not None else {""}
    callers = [e for e in edges if e.callee is f]
    if not callers or depth > 20:
        return {""}
    out: set[str] = set()
    for e in callers:
        arg = bound_arg(e.call, f, pname)
        if arg is None or not isinstance(arg.value, cst.Name) or arg.value.value not in e.caller.param_names():
            out.add("")
        else:
            out |= _up(a, e.caller, arg.value.value, edges, depth + 1)
    return out


def _check_before(check: cst.If, updated: cst.CSTNode) -> cst.FlattenSentinel:
    """``check`` right before the statement ``updated`` (which keeps its place and comments)."""
    assert isinstance(updated, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
    return cst.FlattenSentinel(
        [check.with_changes(leading_lines=updated.leading_lines), updated.with_changes(leading_lines=[])]
    )


def keep_fallback(a: ModuleAnalysis, site: Site, gate: str, explicit: str | None, condition: str | None = None) -> bool:
    """Make ``site`` a fallback: where the request was, ``if <name> is None: raise ValueError(…)``
    (in place of the request statement when it goes, else before it); a ``try`` the request no
    longer needed stays (its ``except`` is the fallback). Returns False when the site's statement
    cannot take the check (it is rewritten as a whole)."""
    stmt, fn = site.site_stmt, site.fn
    if stmt is None or fn is None or not isinstance(stmt, cst.SimpleStatementLine):
        return False
    message = f"pass `{explicit}` or `{site.name}`" if explicit else f"pass `{site.name}`"
    check = cst.parse_statement(f"if {site.name} is None:\n    raise ValueError({str_lit(message)})\n")
    assert isinstance(check, cst.If)
    change = site.changes.get(id(stmt), (None, None))[1]
    handler = _sole_fallback(a, site, stmt)
    caught = _caught_by(a, stmt, fn)
    if site.guards:
        # `if not <capability>: return …` answered a client without roots: it now answers a call
        # without the parameter (and the request statement simply goes).
        guard = site.guards[0]
        test = cst.parse_expression(f"{site.name} is None")
        site.set(guard, guard.with_changes(test=test))
        caught = None
        if change is not REMOVE and change is not None:
            return False
        site.unsafe.append(
            f"without `{site.name}` a call takes the path of a client without roots (`{code_of(guard.body).strip()}`): "
            "also a legacy client whose roots were used before"
        )
    elif handler is not None:
        # `try: <request>; <uses> except X: <fallback>` whose body became plain uses: the `try`
        # goes, and its fallback runs where the parameter is missing, as where the client failed.
        assert isinstance(handler.body, cst.IndentedBlock)
        test = cst.parse_expression(f"{site.name} is None")
        site.set(stmt, cst.If(test=test, body=handler.body, leading_lines=stmt.leading_lines))
        caught = code_of(handler.type) if handler.type is not None else "everything"
    elif change is not REMOVE and change is not None:
        return False
    elif gate == "try" and caught is None:
        return False  # a ValueError would escape the `try` whose `except` was the fallback
    else:
        site.set(
            stmt,
            check.with_changes(leading_lines=stmt.leading_lines) if change is REMOVE else partial(_check_before, check),
        )
        # The `try` the request sat in stays: without the parameter its `except` is the fallback.
        for key, (node, _change) in list(site.changes.items()):
            if isinstance(node, cst.Try) and any(x is stmt for x in walk(node.body)):
                site.changes.pop(key)
    site.unsafe[:] = [u for u in site.unsafe if not u.startswith("the `try` around the request is unwrapped")]
    if caught:
        site.unsafe.append(
            f"without `{site.name}` a call takes the `except {caught}` fallback, as when the client could not "
            "answer: also a legacy client whose roots were used before"
        )
    site.fallback = fallback_note(explicit, condition)
    site.optional = explicit
    site.gate = gate
    return True


def _sole_fallback(a: ModuleAnalysis, site: Site, stmt: cst.CSTNode) -> cst.ExceptHandler | None:
    """The one ``except`` of a ``try`` the fix unwraps around the removed request ``stmt``, when
    its body is a fallback that can run in the request's place: it leaves (ends with ``return`` or
    ``raise``) and does not read the exception."""
    block = a.parents.get(id(stmt))
    tr = a.parents.get(id(block))
    if not (
        isinstance(tr, cst.Try)
        and tr.body is block
        and id(tr) in site.changes
        and site.changes.get(id(stmt), (None, None))[1] is REMOVE
        and len(tr.handlers) == 1
    ):
        return None
    h = tr.handlers[0]
    if not isinstance(h.body, cst.IndentedBlock) or not h.body.body:
        return None
    last = h.body.body[-1]
    if not (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))):
        return None
    if h.name is not None and isinstance(h.name.name, cst.Name):
        used = h.name.name.value
        if any(isinstance(n, cst.Name) and n.value == used for n in walk(h.body)):
            return None
    return h


def _caught_by(a: ModuleAnalysis, stmt: cst.CSTNode, fn: FunctionInfo) -> str | None:
    """The handler of a ``try`` around ``stmt`` (in ``fn``) that catches the check's ValueError."""
    h = catching_handler(a, stmt, fn, _CATCH_ALL)
    return None if h is None else "everything" if h.type is None else code_of(h.type)


def catching_handler(
    a: ModuleAnalysis, stmt: cst.CSTNode, fn: FunctionInfo, errors: set[str]
) -> cst.ExceptHandler | None:
    """The innermost handler of a ``try`` around ``stmt`` (in ``fn``) that catches an error named
    in ``errors`` (by its class or a base of it: a bare ``except`` catches everything)."""
    child: cst.CSTNode = stmt
    cur = a.parents.get(id(stmt))
    while cur is not None and cur is not fn.node:
        if isinstance(cur, cst.Try) and child is cur.body:
            for h in cur.handlers:
                if h.type is None or {n.value for n in name_nodes(h.type)} & errors:
                    return h
        child, cur = cur, a.parents.get(id(cur))
    return None

"""Helpers shared by the catalog detectors (server requests, notifications, logging): receiver
typing through :class:`~mcpmigrate.analysis.ModuleAnalysis`, the SDK generation a call site is
written for, and which calls stand alone as statements (the only ones a deletion may touch) or
share their line. Also, for every detector: whether a comparison decides a branch
(:func:`branch_condition`), whether code runs only on handshake-era connections of a server
written for both eras (:func:`legacy_era_only`), and what the project's pins say about fastmcp 4
(:func:`fastmcp_pinned`).

No detector lives here (the module defines no :class:`Detector` subclass).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import pins
from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, walk  # walk: re-exported
from mcpmigrate.detectors.base import ReportingVisitor, dict_get, string_value

__all__ = [
    "CatalogVisitor",
    "branch_condition",
    "sent_payloads",
    "dict_get",
    "fastmcp_pinned",
    "in_test_function",
    "legacy_era_only",
    "string_value",
    "walk",
]


def branch_condition(parents: dict[int, cst.CSTNode], node: cst.CSTNode) -> bool:
    """``node`` (a comparison) decides which way a branch goes: it is the test of an ``if`` /
    ``elif`` / ``while`` / conditional expression, alone or inside ``and`` / ``or`` / ``not``.
    The same comparison in an ``assert``, a comprehension filter, an ``any(...)`` argument or an
    assignment is a test about messages (e.g. that a client sent a method), not a dispatch."""
    child, parent = node, parents.get(id(node))
    while isinstance(parent, (cst.BooleanOperation, cst.UnaryOperation)):
        child, parent = parent, parents.get(id(parent))
    if isinstance(parent, (cst.If, cst.While, cst.IfExp)):
        return parent.test is child
    return False


def in_test_function(a: ModuleAnalysis, node: cst.CSTNode) -> bool:
    """``node`` is inside a test (a function named ``test…`` or a method of a ``Test…`` class, at any
    depth): a test that exercises a legacy path on purpose is not the server's migration."""
    fn = a.enclosing_function(node)
    while fn is not None:
        if fn.name.startswith("test") or (fn.class_name or "").startswith("Test"):
            return True
        fn = fn.parent
    return False


def _other_arm(parents: dict[int, cst.CSTNode], value: cst.CSTNode, use_path: dict[int, cst.CSTNode]) -> bool:
    """``value`` sits in another arm of the ``if``/``elif``/``else`` or ``match`` that holds the
    use (``use_path``: the use's ancestors → the child on its path), so it never reaches it."""
    child, node = value, parents.get(id(value))
    while node is not None:
        if id(node) in use_path:
            use_child = use_path[id(node)]
            # two arms (an `elif` is the `orelse` arm), or two `case`s
            return isinstance(node, (cst.If, cst.Match)) and use_child is not child
        if isinstance(node, cst.IndentedBlock) and _leaves(node):
            return True  # `case "ping": req = …; return await send(req)`: never falls through to the use
        child, node = node, parents.get(id(node))
    return False


def _leaves(block: cst.IndentedBlock) -> bool:
    """The block ends with ``return``, ``raise``, ``continue`` or ``break``."""
    last = block.body[-1] if block.body else None
    return (
        isinstance(last, cst.SimpleStatementLine)
        and bool(last.body)
        and isinstance(last.body[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))
    )


def bound_values(a: ModuleAnalysis, expr: cst.BaseExpression, fn: FunctionInfo | None) -> list[cst.CSTNode]:
    """The values the name ``expr`` may hold where it is read: what it is assigned in ``fn``, the
    functions around it and the module — except a binding in another arm of an ``if``/``elif`` or
    ``match`` that holds the read (``req = CreateMessageRequest(...)`` in one branch of a relay
    never reaches the ``send_request(req)`` of the next), in a block that returns before the read,
    or after the read outside a loop. Empty for anything but a name."""
    if not isinstance(expr, cst.Name):
        return []
    name = expr.value
    outer: list[cst.CSTNode] = []  # bound around the function: run before it, whatever their place
    scope = fn.parent if fn is not None else None
    while scope is not None:
        outer.extend(v for n, v in scope.assigns if n == name)
        scope = scope.parent
    outer.extend(v for n, v in a.module_assigns if n == name)
    values = [v for n, v in fn.assigns if n == name] if fn is not None else []
    if len(values) < 2 and not (values and outer):
        return values + outer
    use_path: dict[int, cst.CSTNode] = {}
    looped = False  # a binding later in a loop's body reaches the next round's read
    child: cst.CSTNode = expr
    node = a.parents.get(id(expr))
    while node is not None:
        use_path[id(node)] = child
        looped = looped or isinstance(node, (cst.For, cst.While))
        child, node = node, a.parents.get(id(node))
    order = a.memo("shared.order", lambda: {id(n): i for i, n in enumerate(a.flat.order)})
    read_at = order.get(id(expr), -1)
    return [
        v for v in values if not _other_arm(a.parents, v, use_path) and (looped or order.get(id(v), -1) < read_at)
    ] + outer


def sent_payloads(
    a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo | None, keyword: str = "request"
) -> list[cst.CSTNode]:
    """What ``x.send_request(...)`` sends: the call itself, plus the values a name passed as the
    request (``request=req`` or the first argument) may hold there (:func:`bound_values`:
    ``req = types.ServerRequest(types.CreateMessageRequest(...))``), or the argument itself when
    it is not a name. Walk each for the request
    types (mcp ``ServerSession.send_request(request, result_type)``); ``keyword="notification"``
    for ``send_notification(notification)``."""
    out: list[cst.CSTNode] = [call]
    arg = next((x for x in call.args if x.keyword is not None and x.keyword.value == keyword), None)
    if arg is None and call.args and call.args[0].keyword is None and not call.args[0].star:
        arg = call.args[0]
    if arg is not None:
        out.extend(bound_values(a, arg.value, fn) if isinstance(arg.value, cst.Name) else [arg.value])
    return out


class CatalogVisitor(ReportingVisitor):
    """Base visitor: ``bare`` holds the ids of calls that are a whole expression statement
    (``await s.send_ping()`` / ``s.send_ping()``), filled before the calls inside are visited."""

    def __init__(self, analysis: ModuleAnalysis) -> None:
        super().__init__(analysis)
        self.bare: set[int] = set()
        self.stmt_of: dict[int, cst.SimpleStatementLine] = {}
        self._line: list[cst.SimpleStatementLine] = []
        self.client_module = analysis.imports_sdk_client()

    # -- bookkeeping ----------------------------------------------------------------------
    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line.append(node)
        if len(node.body) == 1 and isinstance(node.body[0], cst.Expr):
            value = node.body[0].value
            inner = value.expression if isinstance(value, cst.Await) else value
            if isinstance(inner, cst.Call):
                self.bare.add(id(inner))
                self.stmt_of[id(inner)] = node

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine) -> None:
        self._line.pop()

    def shares_line(self, call: cst.Call) -> bool:
        """``call`` (or ``await call``) is a whole expression statement, but on a line with other
        statements (``a(); b()``) or in a one-line suite (``if flag: a()``): its result is not
        used, the fixes just do not split lines."""
        pm = self.a.parents
        node: cst.CSTNode = call
        parent = pm.get(id(node))
        if isinstance(parent, cst.Await) and parent.expression is node:
            node, parent = parent, pm.get(id(parent))
        if not (isinstance(parent, cst.Expr) and parent.value is node):
            return False
        line = pm.get(id(parent))
        return isinstance(line, cst.SimpleStatementSuite) or (
            isinstance(line, cst.SimpleStatementLine) and len(line.body) > 1
        )

    SHARED_LINE = "the statement shares its line with other statements (`a; b` or `if x: a`): put it on a line of its own, then run the fix again"

    # -- receivers ------------------------------------------------------------------------
    def is_session(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        return self.a.kind_of(expr, fn) is Kind.SESSION

    def session_by_method(self, expr: cst.BaseExpression, fn: FunctionInfo | None, method: str) -> bool:
        """``expr.<method>(…)`` where only an SDK ``ServerSession`` has ``method`` (the change
        sends of ``surfaces.LIST_CHANGED_SENDS``): ``expr`` is a session unless it is provably
        something else — another MCP kind, an element of a container annotated with another
        type, a parameter annotated with another type, or this module defines ``method`` itself.
        A module that names nothing from MCP, or is client code, has no sessions."""
        if self.a.kind_of(expr, fn) is not None or self.client_module:
            return False
        if not (self.a.imports_mcp() or self.a.framework_imported()):
            return False
        if self.a.holds_other(expr, fn) or method in self.own_methods():
            return False
        return not (isinstance(expr, cst.Name) and self._annotated_other(expr.value, fn))

    def own_methods(self) -> frozenset[str]:
        """The names of the methods the module's own classes define."""
        return self.a.memo(
            "shared.own_methods", lambda: frozenset(f.name for f in self.a.functions if f.class_name is not None)
        )

    def _annotated_other(self, name: str, fn: FunctionInfo | None) -> bool:
        scope = fn
        while scope is not None:
            for p in scope.params:
                if p.name.value == name:
                    ann = p.annotation.annotation if p.annotation is not None else None
                    spelled = (get_full_name_for_node(ann) or "").rsplit(".", 1)[-1] if ann is not None else "Any"
                    return spelled not in ("Any", "object")
            scope = scope.parent
        return False

    def in_request(self, recv: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """The call runs where a request's context is at hand: the receiver hangs off a context
        (``ctx.session`` also when ``ctx``'s type is not resolved), or the function (or one around
        it) has a context or a low-level request context."""
        root = self.root_name(recv)
        if root is not None and self.a.kind_of(root, fn) in (CONTEXTS | {Kind.LL_CONTEXT}):
            return True
        if isinstance(recv, cst.Attribute) and recv.attr.value == "session":
            # `ctx.session` / `….request_context.session` on a context whose type is not resolved
            base = recv.value
            if (isinstance(base, cst.Name) and base.value in S.CONTEXT_NAMES) or (
                isinstance(base, cst.Attribute) and base.attr.value in ("request_context", "ctx", "context")
            ):
                return True
        if self.context_in_scope(fn) is not None:
            return True
        scope = fn
        while scope is not None:
            if Kind.LL_CONTEXT in scope.kinds.values() or (scope.role or "").startswith("lowlevel-"):
                return True
            scope = scope.parent
        return False

    def context_kind(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> Kind | None:
        k = self.a.kind_of(expr, fn)
        return k if k in CONTEXTS else None

    def lowlevel_generation(self, fn: FunctionInfo | None) -> str | None:
        scope = fn
        while scope is not None:
            if (
                scope.server_generation
                and scope.role
                and (scope.role.startswith("lowlevel-") or scope.role == "list-tools")
            ):
                return scope.server_generation
            scope = scope.parent
        gens = {
            gen
            for role, _e, gen, _s in self.a.registrations
            if gen and (role.startswith("lowlevel-") or role == "list-tools")
        }
        if len(gens) == 1:
            return next(iter(gens))
        if self._constructs_lowlevel_with_kwargs():
            return S.MCP2
        return self.a.module_generation()

    def _constructs_lowlevel_with_kwargs(self) -> bool:
        """``Server(..., on_call_tool=…)`` anywhere in the module (a factory's too): handler
        keywords exist only in mcp 2.x (``mcp.server.lowlevel.server.Server.__init__``)."""
        return self.a.memo(
            "shared.lowlevel_with_kwargs",
            lambda: any(
                isinstance(n, cst.Call)
                and self.a.resolves_to(n.func, S.LOWLEVEL_SERVERS)
                and any(arg.keyword is not None and arg.keyword.value.startswith("on_") for arg in n.args)
                for n in self.a.flat.subtree(self.a.module)
            ),
        )

    def generation(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> str | None:
        """The SDK generation a call on ``expr`` (a session or a context) is written for."""
        e: cst.BaseExpression = expr
        while True:
            k = self.a.kind_of(e, fn)
            if k in CONTEXTS:
                return self.a.generation_of_kind(k)
            if k is Kind.LL_CONTEXT or k is Kind.SERVER_LL:
                return self.lowlevel_generation(fn)
            if isinstance(e, cst.Attribute):
                e = e.value
                continue
            break
        # a session in a variable: the function's context says which SDK it came from
        ctx = self.context_in_scope(fn)
        if ctx is not None:
            return self.a.generation_of_kind(ctx[1])
        if any(k is Kind.LL_CONTEXT for k in (fn.kinds.values() if fn else ())):
            return self.lowlevel_generation(fn)
        scope = fn
        while scope is not None:  # a registered low-level handler (`ctx: Any`): its server says
            if scope.role and (scope.role.startswith("lowlevel-") or scope.role == "list-tools"):
                return self.lowlevel_generation(fn)
            scope = scope.parent
        gen = self.a.module_generation()
        return gen if gen is not None or not self._constructs_lowlevel_with_kwargs() else S.MCP2

    def context_in_scope(self, fn: FunctionInfo | None) -> tuple[str, Kind] | None:
        """A name bound to a high-level context in ``fn`` (its own, then enclosing scopes)."""
        scope = fn
        while scope is not None:
            for p in scope.params:
                k = scope.kinds.get(p.name.value)
                if k in CONTEXTS:
                    return p.name.value, k
            for name, k in scope.kinds.items():
                if k in CONTEXTS and "." not in name:
                    return name, k
            scope = scope.parent
        return None

    def root_name(self, expr: cst.BaseExpression) -> cst.Name | None:
        e = expr
        while isinstance(e, cst.Attribute):
            e = e.value
        return e if isinstance(e, cst.Name) else None

    # -- hand-rolled JSON-RPC --------------------------------------------------------------
    @staticmethod
    def is_route_handler(expr: cst.BaseExpression) -> bool:
        """A dict value in a method route table that is a handler (``"logging/setLevel":
        handle_level``), not a message type (``"logging/setLevel": types.SetLevelRequest`` in a
        method-to-type map, as in the SDK's own tables)."""
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return False
        last = expr.value if isinstance(expr, cst.Name) else expr.attr.value
        return not last.endswith(("Request", "Notification", "Result", "Params"))

    @staticmethod
    def is_jsonrpc_message(node: cst.Dict) -> bool:
        return dict_get(node, "jsonrpc") is not None or dict_get(node, "id") is not None

    def dispatch_literal(self, node: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, str]]:
        """String literals a dispatch compares a method against: ``method == "x"``,
        ``method in ("x", "y")``, ``case "x":`` (yields the node to report and the string)."""
        if isinstance(node, cst.Comparison):
            for target in node.comparisons:
                if isinstance(target.operator, cst.Equal):
                    s = string_value(target.comparator)
                    if s is not None:
                        yield node, s
                elif isinstance(target.operator, cst.NotEqual) and self.guards_rest(node):
                    s = string_value(target.comparator)  # `if method != "x": return error`, then x is served
                    if s is not None:
                        yield node, s
                elif isinstance(target.operator, cst.In) and isinstance(
                    target.comparator, (cst.Tuple, cst.List, cst.Set)
                ):
                    for el in target.comparator.elements:
                        s = string_value(el.value)
                        if s is not None:
                            yield node, s
            s = string_value(node.left)
            if s is not None and any(isinstance(t.operator, cst.Equal) for t in node.comparisons):
                yield node, s
        elif isinstance(node, cst.MatchValue):
            s = string_value(node.value)
            if s is not None:
                yield node, s

    def guards_rest(self, node: cst.Comparison) -> bool:
        """``node`` is the test of an ``if`` without ``else`` whose body returns or raises (alone or
        in an ``or``): the code after it serves only what the test rejects (``if method !=
        "resources/subscribe": return error`` guards a subscribe route)."""
        pm = self.a.parents
        child: cst.CSTNode = node
        parent = pm.get(id(node))
        while isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.Or):
            child, parent = parent, pm.get(id(parent))
        return isinstance(parent, cst.If) and parent.test is child and parent.orelse is None and _exits(parent.body)

    def short(self, expr: cst.BaseExpression | None) -> str | None:
        """The last component of the name ``expr`` resolves to, when it comes from mcp."""
        q = self.a.qualname(expr)
        if q is None:
            return None
        if q.startswith(("mcp.", "mcp_types.")):
            return q.rsplit(".", 1)[-1]
        return None

    @staticmethod
    def full(expr: cst.CSTNode) -> str | None:
        return get_full_name_for_node(expr)


# -- code already written for both eras -------------------------------------------------------

_MODERN_VERSION = "2026-07-28"


def _era_of_test(test: cst.BaseExpression) -> str | None:
    """``"modern"`` / ``"legacy"`` when ``test`` is true exactly on a 2026-07-28 (modern) or a
    handshake-era (legacy) connection, as the SDK spells it: ``is_version_at_least(v,
    "2026-07-28")``, ``v in MODERN_PROTOCOL_VERSIONS`` / ``HANDSHAKE_PROTOCOL_VERSIONS``, a version
    comparison with ``"2026-07-28"``, or ``session.can_send_request`` (mcp 2.x: False on a
    modern request, whose channel has no back-channel)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _era_of_test(test.expression)
        return {"modern": "legacy", "legacy": "modern"}.get(inner or "")
    if isinstance(test, cst.Call):
        name = get_full_name_for_node(test.func) or ""
        if (
            name.rsplit(".", 1)[-1] == "is_version_at_least"
            and len(test.args) == 2
            and string_value(test.args[1].value) == _MODERN_VERSION
        ):
            return "modern"
        return None
    if isinstance(test, cst.Attribute) and test.attr.value == "can_send_request":
        return "legacy"
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        op, right = test.comparisons[0].operator, test.comparisons[0].comparator
        left_name = get_full_name_for_node(test.left) or ""
        if not left_name.endswith("protocol_version"):
            return None
        right_name = (get_full_name_for_node(right) or "").rsplit(".", 1)[-1]
        if isinstance(op, (cst.In, cst.NotIn)) and right_name in (
            "MODERN_PROTOCOL_VERSIONS",
            "HANDSHAKE_PROTOCOL_VERSIONS",
        ):
            modern = (right_name == "MODERN_PROTOCOL_VERSIONS") == isinstance(op, cst.In)
            return "modern" if modern else "legacy"
        if string_value(right) == _MODERN_VERSION:
            if isinstance(op, (cst.GreaterThanEqual, cst.Equal)):
                return "modern"
            if isinstance(op, (cst.LessThan, cst.NotEqual)):
                return "legacy"
    return None


def _exits(block: cst.BaseSuite) -> bool:
    body = block.body if isinstance(block, cst.IndentedBlock) else [block]
    last = body[-1] if body else None
    if isinstance(last, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)
    if isinstance(last, cst.SimpleStatementSuite):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)
    return False


def legacy_era_only(parents: dict[int, cst.CSTNode], node: cst.CSTNode) -> bool:
    """``node`` runs only on a handshake-era (legacy) connection: it sits in the branch of an
    era test that is legacy (the body of a legacy test, the ``else`` of a modern one), or after
    ``if <modern test>: return/raise`` in the same block. Such code is the legacy half of a
    server already written for both eras, not a 2026-07-28 failure."""
    child: cst.CSTNode = node
    cur = parents.get(id(node))
    while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module, cst.Lambda)):
        if isinstance(cur, cst.If):
            era = _era_of_test(cur.test)
            if child is cur.body and era == "legacy":
                return True
            if child is cur.orelse and isinstance(cur.orelse, cst.Else) and era == "modern":
                return True
        if isinstance(cur, cst.IfExp):
            era = _era_of_test(cur.test)
            if (child is cur.body and era == "legacy") or (child is cur.orelse and era == "modern"):
                return True
        if isinstance(cur, (cst.IndentedBlock, cst.Module)):
            for stmt in cur.body:
                if stmt is child:
                    break
                if (
                    isinstance(stmt, cst.If)
                    and stmt.orelse is None
                    and _era_of_test(stmt.test) == "modern"
                    and _exits(stmt.body)
                ):
                    return True
        child, cur = cur, parents.get(id(cur))
    return False


def fastmcp_pinned(a: ModuleAnalysis) -> tuple[bool | None, str | None]:
    """Whether the project's pins put fastmcp code on fastmcp 4 (True: ``fastmcp>=4``, or
    ``mcp>=2``, which fastmcp 2.x/3.x cannot run on), on fastmcp 2.x/3.x (False: ``fastmcp<4`` or
    ``mcp<2``), or do not say (None); with the deciding pin, described. Asked once per module."""

    def compute() -> tuple[bool | None, str | None]:
        found = pins.project_pins(a.path or Path.cwd())
        for verdict in (found.verdict("fastmcp"), found.verdict("mcp")):
            if verdict is not None:
                return verdict.new, verdict.describe()
        return None, None

    return a.memo("detectors.fastmcp_pinned", compute)


def framework_wrapper_manual(
    a: ModuleAnalysis, expr: cst.BaseExpression, fn: FunctionInfo | None, method: str, instead: str
) -> str:
    """The manual step for ``expr.method(...)`` on a framework's context (``surfaces.FRAMEWORK_CONTEXT_WRAPS``):
    the framework's method makes the SDK request itself, so the wrapper changes first, then its
    callers (``instead``: what this caller does in its place)."""
    found = a.framework_context(expr, fn)
    if found is None or found[0] not in S.FRAMEWORK_CONTEXT_WRAPS:  # pragma: no cover - callers checked
        return instead
    q, ann = found
    where, calls = S.FRAMEWORK_CONTEXT_WRAPS[q]
    recv = expr.value if isinstance(expr, cst.Name) else "the context"
    what = f"`{q}`" if ann.rsplit(".", 1)[-1] == q.rsplit(".", 1)[-1] else f"a `{ann}`, a subclass of `{q}`"
    return (
        f"`{recv}` is {what}, {q.split('.')[0]}'s subclass of the SDK's `Context`, whose `{method}` makes the "
        f"request itself (`await {calls[method]}` in {where}): no rewrite of this call changes what it sends. "
        f"Migrate the wrapper first: `Context.{method}` (mcpmigrate reports that line where the framework's "
        f"source is checked, and leaves it manual too: it requests through `self.session`, not through a context "
        f"parameter), then its callers: here, {instead}"
    )

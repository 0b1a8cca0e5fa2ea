"""MCP601 per-connection-state: state keyed on, or scoped to, the client's session.

Spec: 2026-07-28 changelog, major change 1 (SEP-2567): protocol-level sessions and the
``Mcp-Session-Id`` header are removed; servers that need cross-call state use explicit,
server-minted handles passed as ordinary tool arguments. SDK: mcp 2.3 serves each HTTP request
of a 2026-07-28 client on a fresh ``Connection`` (``mcp/server/_streamable_http_modern.py``), and
builds a ``ServerSession`` per inbound request in both eras (``mcp/server/runner.py``
``_make_context``: "Per-request proxy"): ``ctx.session`` is a new object on every call even for a
legacy stdio client, and ``ctx.session_id`` is None on stdio and 2026-07-28 connections.

Sites, each resolved through the analysis (never by a variable's name): ``id(x)`` of a session or
a context; a session used as a mapping's key (``store[ctx.session]``, ``store.get(session)``; a
list or set of sessions is a registry for reaching clients, reported by the request rules); ``.session_id`` read off a context, a request context or its
``connection``; the ``Mcp-Session-Id`` header read or written (the literal in any spelling, or
the SDK's ``MCP_SESSION_ID_HEADER``) outside client code; the request's session looked up among
sessions earlier calls stored (``session in subs``, ``subs.remove(session)``), which on mcp 2.x
never finds one (a set or list of sessions only added to and iterated stays a registry). A ``session_id`` that is only read (a
log line) is advisory: it is None on a modern connection, but nothing is keyed on it.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind
from mcpmigrate.codemods import handles
from mcpmigrate.codemods.param.chains import reaching_entries
from mcpmigrate.detectors._shared import CatalogVisitor, in_test_function, string_value, walk
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.model import Severity
from mcpmigrate.screen import Facts

HEADER = "mcp-session-id"
HEADER_CONSTANTS = {
    "mcp.server.streamable_http.MCP_SESSION_ID_HEADER",
    "mcp.shared._httpx_utils.MCP_SESSION_ID_HEADER",
    "mcp.client.streamable_http.MCP_SESSION_ID",
}
KEY_METHODS = {"get", "setdefault", "pop", "add", "discard", "remove", "__getitem__", "__contains__"}
# a session object itself counts as a key only in a mapping: a list or set of sessions
# (`SESSIONS.append(ctx.session)`, `session in SESSIONS`) is a registry for reaching clients outside
# a request, which the request rules (MCP101, MCP301) report where it is used
MAPPING_METHODS = {"get", "setdefault", "pop", "__getitem__"}
# a session looked up among those earlier calls stored (`subs.remove(session)`, `session in subs`):
# on mcp 2.x it is never one of them (hesreallyhim/mcp-observer-server's `unsubscribe` answered "Not
# subscribed" after its `subscribe`)
MATCH_METHODS = {"remove", "discard", "index", "count"}
_MATCHED = (
    "`{code}` in `{where}` looks for this client's session among the sessions earlier calls stored; mcp 1.x "
    "kept one session object per connection, but mcp 2.x builds `ctx.session` anew for every request in both "
    "eras (a per-request proxy: `_make_context` in `mcp/server/runner.py`), so on mcp 2.x it never finds one "
    "an earlier call stored and the server answers a returning client as a new one (a set of sessions gains one "
    "per call); 2026-07-28 removes sessions altogether (SEP-2567). Keep such state under a handle the server "
    "mints and a tool returns, taken as a documented parameter by the tools that use it."
)
VISIBILITY_METHODS = {"enable_components", "disable_components", "reset_visibility"}
_MESSAGE_CALLS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print"}
_HOLDERS = CONTEXTS | {Kind.LL_CONTEXT, Kind.SESSION}


def _screen(f: Facts) -> bool:
    return (
        f.names_mcp
        or any(s.lower() == HEADER for s in f.strings)
        or bool({"MCP_SESSION_ID_HEADER", "MCP_SESSION_ID"} & (f.names | f.attrs))
    )


def _request_scoped(call: cst.Call) -> bool:
    """``ctx.set_state(k, v, serializable=False)``: fastmcp keeps it for the current request only."""
    return any(
        a.keyword is not None
        and a.keyword.value == "serializable"
        and isinstance(a.value, cst.Name)
        and a.value.value == "False"
        for a in call.args
    )


class SessionStateDetector(Detector):
    rules = ("MCP601",)
    tokens = (
        rb"session_id",
        rb"(?i:mcp-session-id)",
        rb"MCP_SESSION_ID",
        rb"\.session\b",
        rb"set_state",
        rb"(enable|disable)_components",
        rb"reset_visibility",
    )
    screen = staticmethod(_screen)

    def detect(self) -> Iterable[Report]:
        v = _Visitor(self.analysis)
        self.analysis.flat.visit(v)
        plans = handles.plan(self.analysis, [k for k, _m in v.keyed])
        return v.reports + [Report.planned("MCP601", k.node, m, p) for (k, m), p in zip(v.keyed, plans, strict=True)]


_WHY = (
    "2026-07-28 removes sessions and `Mcp-Session-Id` (SEP-2567), and mcp 2.x builds `ctx.session` anew for "
    "every request in both eras (`ctx.session_id` is None on stdio and 2026-07-28 connections), so state keyed "
    "on the session resets on every call — or, keyed on None, is shared by every client. Keep "
    "cross-call state under a handle the server mints: one tool creates the state, stores it under "
    "`secrets.token_urlsafe(16)` and returns that handle; the tools that use the state take it as a "
    "documented parameter."
)
_MSG = "State is keyed on the client's session ({what}) in `{where}`; " + _WHY
_FASTMCP_PLAN = (
    "; fastmcp 4 has this built in: `mcp.add_provider(SessionProvider())` gives `create_session` / "
    "`end_session` tools, a tool takes `session_id: SessionId` and reads `await get_session(session_id)` "
    "(fastmcp.server.sessions)"
)
_MSG_VISIBILITY = (
    "`ctx.{attr}` changes which components this client's session sees, in `{where}`; 2026-07-28 removes "
    "sessions and list endpoints no longer vary per connection (SEP-2567): fastmcp 4 keys the rule on a "
    "per-request session id there, so the change is gone on the next `tools/list`."
)
_MANUAL_VISIBILITY = (
    "make the components visible to every client (server-wide `mcp.enable(...)` / `mcp.disable(...)`) and check "
    "the permission inside the tool, or filter by the authenticated principal instead of the connection"
)
_MSG_READ = (
    "`{what}` is read in `{where}`; on a 2026-07-28 connection there is no session (SEP-2567) and it is None. "
    "Nothing here keys state on it; if it identifies a client across calls, use a handle the server mints "
    "and a tool returns instead."
)


class _Visitor(CatalogVisitor):
    def __init__(self, analysis) -> None:
        super().__init__(analysis)
        self._seen: set[int] = set()
        self._keyed_in: dict[tuple[int, str], handles.Keyed | None] = {}
        # the keyed sites with their messages, planned together once the module is read
        # (handles.plan: one handle for the module's state, or all manual)
        self.keyed: list[tuple[handles.Keyed, str]] = []

    # -- what each site is ---------------------------------------------------------------
    def _holder(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """``expr`` is a session, a context or a request context (or a context's connection)."""
        if isinstance(expr, cst.Attribute) and expr.attr.value == "connection":
            expr = expr.value
        return self.a.kind_of(expr, fn) in _HOLDERS

    def _request_session(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """``expr`` is the session of the request being served: ``<context>.session`` (a context or a
        request context's), or a local only ever assigned one — not a session taken out of a
        collection (``for session in SESSIONS``), which is the very object stored."""
        if isinstance(expr, cst.Name) and fn is not None:
            values = [v for n, v in fn.assigns if n == expr.value]
            return bool(values) and all(isinstance(v, cst.Attribute) and self._request_session(v, fn) for v in values)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "session":
            return self.a.kind_of(expr.value, fn) in CONTEXTS | {Kind.LL_CONTEXT}
        return False

    def _reported_otherwise(self, node: cst.Comparison, target: cst.ComparisonTarget, fn: FunctionInfo | None) -> bool:
        """``session in X`` that another site reports: ``X`` is a mapping the function indexes with
        the same session (``X[session]``: the session as a key, one finding), or ``if session not in
        REG: REG.append(session)``, a registry for reaching clients outside a request, which the
        request rules (MCP101, MCP301) report where it is used."""
        if fn is None:
            return False
        reg, who = self._code(target.comparator), self._code(node.left)
        for n in walk(fn.node):
            if isinstance(n, cst.Subscript) and self._code(n.value) == reg and len(n.slice) == 1:
                index = n.slice[0].slice
                if isinstance(index, cst.Index) and self._code(index.value) == who:
                    return True
        return isinstance(target.operator, cst.NotIn) and any(
            isinstance(c.func, cst.Attribute)
            and c.func.attr.value in ("append", "add")
            and self._code(c.func.value) == reg
            and len(c.args) == 1
            and self._code(c.args[0].value) == who
            for c in fn.calls
        )

    def _is_header(self, expr: cst.BaseExpression) -> bool:
        s = string_value(expr)
        if s is not None:
            return s.lower() == HEADER
        return self.a.resolves_to(expr, HEADER_CONSTANTS)

    def _shadowed(self, name: str, fn: FunctionInfo | None) -> bool:
        if name in self.a.imports or any(n == name for n, _v in self.a.module_assigns):
            return True
        while fn is not None:
            if name in fn.param_names() or any(n == name for n, _v in fn.assigns):
                return True
            fn = fn.parent
        return False

    # -- visits --------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        fn = self.fn(node)
        func = node.func
        args = [a for a in node.args if a.keyword is None and not a.star]
        if (
            isinstance(func, cst.Name)
            and func.value == "id"
            and len(args) == 1
            and not self._shadowed("id", fn)
            and self._holder(args[0].value, fn)
        ):
            self._site(node, fn, f"`id({self._code(args[0].value)})`", always=True, key=node)
        else:
            self._fastmcp_session_call(node, fn)
        if isinstance(func, cst.Attribute) and args:
            first = args[0].value
            if func.attr.value in ("get", "getlist", "__getitem__") and self._is_header(first):
                self._header(node, fn, node if func.attr.value == "get" else None)
            elif func.attr.value in MAPPING_METHODS and self.a.kind_of(first, fn) is Kind.SESSION:
                self._site(first, fn, "the session object as a key", always=True)
            elif func.attr.value in MATCH_METHODS and self._request_session(first, fn):
                self._site(first, fn, self._code(node), always=True, message=_MATCHED)

    def _fastmcp_session_call(self, node: cst.Call, fn: FunctionInfo | None) -> None:
        """fastmcp 3/4 keep ``await ctx.set_state(k, v)`` (serializable) and the visibility that
        ``ctx.enable_components(...)`` / ``disable_components`` / ``reset_visibility`` set under
        the session id, which fastmcp 4 makes per-request on a 2026-07-28 connection."""
        func = node.func
        if not isinstance(func, cst.Attribute) or id(node) not in self.a.awaited:
            return
        if self.a.kind_of(func.value, fn) is not Kind.CONTEXT_FASTMCP:
            return
        attr = func.attr.value
        if attr in VISIBILITY_METHODS:
            self.report(
                "MCP601",
                node,
                _MSG_VISIBILITY.format(attr=attr, where=fn.name if fn is not None else "module level"),
                manual=_MANUAL_VISIBILITY,
            )
        elif attr == "set_state" and not _request_scoped(node):
            key = string_value(node.args[0].value) if node.args else None
            # a key computed in the call (`set_state(key, value)`, a tool's argument) is read back
            # by a `get_state` whose key is computed too: fastmcp's own session-state example
            readers = self._readers(key, fn) if node.args and fn is not None else []
            mine = {id(e) for e in self._entries(fn)} if fn is not None else set()
            # across calls: the value is read under another tool than the ones that set it (a
            # middleware that sets what the tool of the same request reads is not cross-call)
            if mine and any({id(e) for e in self._entries(r)} - mine for r in readers):
                shown = repr(key) if key is not None else self._code(node.args[0].value)
                what = f"`set_state({shown})`, read back by another call"
                self._site(node, fn, what, always=True, fastmcp=True, users=readers)

    def _entries(self, fn: FunctionInfo) -> list[FunctionInfo]:
        """The tools, prompts, resources and handlers whose calls run ``fn``."""
        return [fn] if fn.role is not None else reaching_entries(self.a, fn)[0]

    def _readers(self, key: str | None, fn: FunctionInfo | None) -> list[FunctionInfo]:
        """The functions other than ``fn`` that read ``ctx.get_state(key)`` (``key`` None: a key
        that is not a literal, read back with one that is not either): the value crosses calls."""
        out: list[FunctionInfo] = []
        for call in self.a.nodes(cst.Call):
            func = call.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value == "get_state"
                and call.args
                and string_value(call.args[0].value) == key
                and (key is not None or not isinstance(call.args[0].value, (cst.SimpleString, cst.ConcatenatedString)))
            ):
                other = self.fn(call)
                if other is not None and other is not fn and self.a.kind_of(func.value, other) is Kind.CONTEXT_FASTMCP:
                    out.append(other)
        return out

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        index = node.slice[0].slice.value
        fn = self.fn(node)
        if self._is_header(index):
            stored = isinstance(self.a.parents.get(id(node)), (cst.AssignTarget, cst.Del))
            self._header(node, fn, None if stored else node)
        elif self.a.kind_of(index, fn) is Kind.SESSION:
            self._site(index, fn, "the session object as a key", always=True)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        fn = self.fn(node)
        for t in node.comparisons:
            if isinstance(t.operator, (cst.In, cst.NotIn)):
                if self._is_header(node.left):
                    self._header(node, fn)
                elif self._request_session(node.left, fn) and not self._reported_otherwise(node, t, fn):
                    self._site(node.left, fn, self._code(node), always=True, message=_MATCHED)
                return

    def visit_DictElement(self, node: cst.DictElement) -> None:
        if self._is_header(node.key) and not self.client_module:
            # a hand-rolled server answering with its own session id (`headers={"Mcp-Session-Id": sid}`)
            self._site(node, self.fn(node), "the `Mcp-Session-Id` header it sets", always=True)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value != "session_id":
            return
        parent = self.a.parents.get(id(node))
        if isinstance(parent, cst.AssignTarget) or (
            isinstance(parent, (cst.AnnAssign, cst.AugAssign)) and parent.target is node
        ):
            return
        fn = self.fn(node)
        if self._holder(node.value, fn):
            self._site(node, fn, f"`{self._code(node)}`", always=False, key=node)

    # -- reporting -----------------------------------------------------------------------
    def _header(self, node: cst.CSTNode, fn: FunctionInfo | None, key: cst.BaseExpression | None = None) -> None:
        if self.client_module:
            return  # a client sends and reads the header; that is client code
        self._site(node, fn, "the `Mcp-Session-Id` header", always=True, key=key)

    def _code(self, expr: cst.CSTNode) -> str:
        return self.a.module.code_for_node(expr)

    def _site(
        self,
        node: cst.CSTNode,
        fn: FunctionInfo | None,
        what: str,
        always: bool,
        fastmcp: bool = False,
        users: list[FunctionInfo] | None = None,
        key: cst.BaseExpression | None = None,
        message: str | None = None,
    ) -> None:
        """``key``: the expression that only names the session there (``id(ctx.session)``, a
        ``session_id`` read, the header's value), which a minted handle can take the place of;
        ``message``: the finding's own text (``{code}``: ``what``, ``{where}``), not :data:`_MSG`."""
        if id(node) in self._seen or in_test_function(self.a, node):
            return
        self._seen.add(id(node))
        # one finding per keyed state and function: `reg[session] = …` then `return reg[session]`
        # is one site to migrate (and its fix replaces every one of them)
        group = (id(fn.node) if fn is not None else 0, what)
        if always and group in self._keyed_in:
            keyed = self._keyed_in[group]
            if keyed is not None and key is not None:
                keyed.keys.append(key)
            elif keyed is not None:
                keyed.keys.clear()  # one use the handle cannot take the place of: no fix
            return
        self._keyed_in[group] = None
        where = fn.name if fn is not None else "module level"
        if not always and not self._keyed(node, fn):
            self.report(
                "MCP601",
                node,
                _MSG_READ.format(what=self._code(node), where=where),
                manual="nothing to rewrite: stop relying on a session id (it is None on 2026-07-28)",
                severity=Severity.ADVISORY,
            )
            return
        plan = self._plan(fn, users or []) + (_FASTMCP_PLAN if fastmcp else "")
        keyed = handles.Keyed(node, fn, [key] if key is not None and not fastmcp else [], plan)
        self._keyed_in[group] = keyed
        text = message.format(code=what, where=where) if message else _MSG.format(what=what, where=where)
        self.keyed.append((keyed, text))

    def _plan(self, fn: FunctionInfo | None, readers: list[FunctionInfo]) -> str:
        """The migration, naming the tools that reach the site, or read what it stores
        (SEP-2567's server-minted handle)."""
        if fn is None:
            users = "the tools that use this state"
        else:
            entries = [e for f in (fn, *readers) for e in self._entries(f)]
            names = sorted({f"`{e.registered_name or e.name}`" for e in entries})
            users = ", ".join(names) if names else f"the tools that reach `{fn.name}`"
        return (
            "a handle has to be designed by hand: let the tool that starts this state mint a handle "
            "(`secrets.token_urlsafe(16)`), store the state under it and return it; give "
            f"{users} a documented `handle` parameter and look the state up by it instead of the session "
            "(it works for legacy clients too: the handle is an ordinary argument); answer an unknown or "
            "expired handle with a tool error (specification/2026-07-28/server/tools, Stateful Tools)"
        )

    def _keyed(self, node: cst.CSTNode, fn: FunctionInfo | None) -> bool:
        """``node`` (or a local it is assigned to) is used as a key or stored: a subscript index,
        the key of a dict method or ``in``, a dict display's key, an attribute assignment."""
        if self._key_position(node):
            return True
        parent = self.a.parents.get(id(node))
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Attribute):
                return True  # stored: `self.sid = ctx.session_id`
            if isinstance(target, cst.Name) and fn is not None:
                name = target.value
                return any(
                    isinstance(n, cst.Name) and n.value == name and n is not target and self._key_position(n)
                    for n in walk(fn.node)
                )
        return False

    def _in_message(self, node: cst.CSTNode) -> bool:
        """``node`` is (inside) an argument of a log call, ``print`` or an exception."""
        cur: cst.CSTNode | None = node
        for _ in range(4):
            cur = self.a.parents.get(id(cur))
            if isinstance(cur, cst.Call):
                func = cur.func
                name = (
                    func.attr.value
                    if isinstance(func, cst.Attribute)
                    else func.value
                    if isinstance(func, cst.Name)
                    else ""
                )
                return name in _MESSAGE_CALLS or name.endswith(("Error", "Exception"))
            if cur is None:
                return False
        return False

    def _key_position(self, node: cst.CSTNode) -> bool:
        pm = self.a.parents
        child, parent = node, pm.get(id(node))
        # through a composite key: `(sid, name)`, `f"{sid}:{name}"`, `sid + name`
        named: cst.FormattedString | None = None
        for _ in range(3):
            if isinstance(parent, (cst.Element, cst.FormattedStringExpression)):
                child, parent = parent, pm.get(id(parent))
            if isinstance(parent, (cst.Tuple, cst.FormattedString, cst.BinaryOperation)):
                child, parent = parent, pm.get(id(parent))
                if isinstance(child, cst.FormattedString):
                    named = child
            else:
                break
        if isinstance(parent, cst.Index):
            return True
        if named is not None:
            # an id embedded in a name (`f"session_{sid}"`: a directory, a cache key) scopes what it
            # names to the session; one in a log line or a message does not
            return not self._in_message(named)
        if isinstance(parent, cst.DictElement):
            return parent.key is child
        if isinstance(parent, cst.Arg) and parent.keyword is None:
            call = pm.get(id(parent))
            return (
                isinstance(call, cst.Call)
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value in KEY_METHODS
                and bool(call.args)
                and call.args[0] is parent
            )
        if isinstance(parent, cst.Comparison):
            return parent.left is child and any(isinstance(t.operator, (cst.In, cst.NotIn)) for t in parent.comparisons)
        return False

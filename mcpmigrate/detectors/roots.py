"""Roots family: MCP101–MCP106.

Spec: 2026-07-28 changelog (server-to-client requests removed; roots deprecated by SEP-2577;
``notifications/roots/list_changed`` removed; ``RootsCapability`` is ``{}``), schema
``schema/2026-07-28/schema.ts`` (``Root.uri`` is a ``file://`` URI; ``ListRootsRequest`` only
inside ``InputRequiredResult.inputRequests``). SDK surfaces: the tables in ``mcpmigrate/surfaces.py``.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, code_of, walk
from mcpmigrate.codemods import configured, interim_jsonrpc, remove
from mcpmigrate.codemods import param as param_fix
from mcpmigrate.codemods.deletions import plan_route
from mcpmigrate.codemods.param.guards import guards_roots, msg_102, plan_guard
from mcpmigrate.detectors._shared import (
    branch_condition,
    fastmcp_pinned,
    framework_wrapper_manual,
    legacy_era_only,
    sent_payloads,
)
from mcpmigrate.detectors.base import Detector, Report, RequestVisitor, dict_get, string_value
from mcpmigrate.model import FixPlan, Severity
from mcpmigrate.screen import roots as screen_roots


def _getattr_name(call: cst.Call) -> str | None:
    """The attribute ``getattr(x, "name"[, default])`` reads (a literal name), else None."""
    if isinstance(call.func, cst.Name) and call.func.value == "getattr" and 2 <= len(call.args) <= 3:
        return string_value(call.args[1].value)
    return None


class RootsDetector(Detector):
    rules = ("MCP101", "MCP102", "MCP103", "MCP104", "MCP105", "MCP106")
    tokens = S.ROOTS_TOKENS
    screen = staticmethod(screen_roots)

    def detect(self) -> Iterable[Report]:
        visitor = _RootsVisitor(self)
        self.analysis.flat.visit(visitor)
        # the MCP102 guards, the MCP103 handlers that go with a roots request and MCP103's
        # legacy-only removal are settled by the fix modules (param.settle, then remove.settle)
        return visitor.reports


class _RootsVisitor(RequestVisitor):
    def __init__(self, det: RootsDetector) -> None:
        super().__init__(det)
        self.send_depth = 0
        self.called_attrs: set[int] = set()

    # -- helpers ---------------------------------------------------------------------------

    # -- calls -----------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        fn = self.fn(node)
        if isinstance(func, cst.Attribute):
            self.called_attrs.add(id(func))
            attr = func.attr.value
            if attr == "list_roots":
                self._list_roots_call(node, func, fn)
            elif attr == "check_client_capability":
                if self.a.kind_of(func.value, fn) is Kind.SESSION or self._session_like(func.value):
                    if not guards_roots(node) and self._per_request_session(func.value, fn):
                        # mcp 2.x: the session is a per-request proxy and checks the capabilities
                        # this request declared (ServerSession.check_client_capability ->
                        # Connection.check_capability; a 2026-07-28 connection is built from the
                        # request's _meta), so the read is already the per-request one.
                        return
                    self.planned("MCP102", node, msg_102(), plan_guard(node, self._capability_advice(func.value, fn)))
            elif attr == "send_request":
                if any(self._contains_roots_request(p) for p in sent_payloads(self.a, node, fn)):
                    self.report(
                        "MCP101",
                        node,
                        "A raw `roots/list` request is sent to the client; servers cannot send requests on "
                        "2026-07-28. Take the directory as a documented tool parameter, or return an "
                        "`InputRequiredResult` carrying a `ListRootsRequest`.",
                        manual="a raw send_request cannot be rewritten automatically",
                    )
            elif attr == "add_notification_handler":
                if node.args and string_value(node.args[0].value) == S.ROOTS_LIST_CHANGED_METHOD:
                    self.planned(
                        "MCP103", node, _MSG_103, remove.plan_registration(node, "remove the handler registration")
                    )
        elif isinstance(func, cst.Name) and func.value == "getattr" and _getattr_name(node) == "client_params":
            recv = node.args[0].value
            if self.a.kind_of(recv, fn) is Kind.SESSION or self._session_like(recv):
                self._client_params(node, recv, fn)
        q = self.a.qualname(func)
        if q in S.ROOTS_CAPABILITY:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in ("listChanged", "list_changed"):
                    if self.a.imports_sdk_client():
                        self.report("MCP104", arg, _MSG_104, manual=_MANUAL_104_CLIENT)
                    elif self._in_capability_check(node):
                        self.report("MCP104", arg, _MSG_104, manual=_MANUAL_104_CHECK)
                    else:
                        self.planned("MCP104", arg, _MSG_104, remove.plan_field(arg, "drop the listChanged field"))
        elif q in S.ROOT:
            uri_arg = next((a for a in node.args if a.keyword is not None and a.keyword.value == "uri"), None)
            if uri_arg is None and node.args and node.args[0].keyword is None:
                uri_arg = node.args[0]
            if uri_arg is not None:
                self._check_root_uri(uri_arg.value)
        elif q in S.LIST_ROOTS_MARKER or (q in S.LIST_ROOTS_REQUEST and self.interim_depth):
            self._roots_interim(node, fn)
        elif q in S.LOWLEVEL_SERVERS:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == S.ROOTS_LIST_CHANGED_KWARG:
                    self.planned(
                        "MCP103",
                        arg,
                        _MSG_103,
                        remove.plan_registration(arg, "remove the on_roots_list_changed handler"),
                    )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        fn = self.fn(node)
        if node.attr.value == "client_params":
            if self.a.kind_of(node.value, fn) is Kind.SESSION or self._session_like(node.value):
                self._client_params(node, node.value, fn)
        elif node.attr.value == "list_roots" and id(node) not in self.called_attrs:
            # a reference, not a call: anyio.from_thread.run(ctx.session.list_roots); not a test
            # double set up (`session.list_roots = AsyncMock(...)`) or read back (`.return_value`)
            parent = self.a.parents.get(id(node))
            stub = self._is_store(node) or (isinstance(parent, cst.Attribute) and parent.value is node)
            if not stub and self.a.kind_of(node.value, fn) is Kind.SESSION:
                parent_call = None
                self._list_roots_call(parent_call, node, fn)

    # -- client_params / check_client_capability (MCP102) -------------------------------------
    def _per_request_session(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """The session comes from mcp 2.x (directly or through fastmcp 4): its ``client_params``
        and ``check_client_capability`` answer for the current request (mcp 2.x ``ServerSession``
        wraps a ``Connection`` that a 2026-07-28 request builds from its own ``_meta``)."""
        e: cst.BaseExpression = expr
        while isinstance(e, (cst.Attribute, cst.Await)):
            e = e.value if isinstance(e, cst.Attribute) else e.expression
            k = self.a.kind_of(e, fn)
            if k is Kind.CONTEXT_MCP2:
                return True
            if k in (Kind.CONTEXT_MCP1, Kind.CONTEXT_FASTMCP):
                return k is Kind.CONTEXT_FASTMCP and self._fastmcp4()
        gen = self.a.module_generation()
        if gen == S.MCP2:
            return True
        if gen == S.FASTMCP:
            return self._fastmcp4()
        return gen is None and S.MCP2 in self.a.generations and S.MCP1 not in self.a.generations

    def _fastmcp4(self) -> bool:
        """fastmcp 4 runs on mcp 2.x; fastmcp 2.x/3.x on mcp 1.x. Only the project's pins tell."""
        return fastmcp_pinned(self.a)[0] is True

    def _is_store(self, node: cst.Attribute) -> bool:
        """``node`` is written or deleted, not read: ``x.session.client_params = fake`` (a test
        double being set up), ``del x.client_params``."""
        parents = self.a.parents
        child: cst.CSTNode = node
        parent = parents.get(id(node))
        while isinstance(parent, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
            child, parent = parent, parents.get(id(parent))
        if isinstance(parent, (cst.AssignTarget, cst.Del)):
            return True
        return isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is child

    def _test_double(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """The receiver's root name is a mock (``fake = MagicMock()``, ``mocker.AsyncMock()``,
        ``create_autospec(...)``): reading it reads what the test stored, not a client's data."""
        root = expr
        while isinstance(root, (cst.Attribute, cst.Subscript)):
            root = root.value
        if not isinstance(root, cst.Name):
            return False
        scope = fn
        while scope is not None:
            for param in scope.params:  # `def test_x(fake_ctx: MagicMock)`
                if param.name.value == root.value and param.annotation is not None:
                    ann = get_full_name_for_node(param.annotation.annotation) or ""
                    if ann.rsplit(".", 1)[-1] in _MOCK_FACTORIES:
                        return True
            for name, value in scope.assigns:
                if name == root.value and isinstance(value, cst.Call):
                    callee = get_full_name_for_node(value.func) or ""
                    if callee.rsplit(".", 1)[-1] in _MOCK_FACTORIES:
                        return True
            scope = scope.parent
        return False

    def _fields_read(
        self, node: cst.BaseExpression, fn: FunctionInfo | None
    ) -> tuple[dict[str, cst.CSTNode], str, bool]:
        """What is read from ``client_params`` (``node``: the attribute, or the ``getattr(session,
        "client_params", None)`` call): each field with the node that reads it (``.clientInfo`` or
        ``getattr(params, "clientInfo", None)``), the expression the None test would be written on
        (the chain itself or the local it is bound to, by ``=`` or ``:=``), and whether that
        expression is None-tested in the function."""
        parent = self.a.parents.get(id(node))
        if isinstance(parent, cst.Attribute) and parent.value is node:
            subject = code_of(node)
            return {parent.attr.value: parent}, subject, self._none_tested(subject, fn)
        call = self.a.parents.get(id(parent)) if isinstance(parent, cst.Arg) else None
        if isinstance(call, cst.Call) and call.args and call.args[0] is parent and _getattr_name(call):
            subject = code_of(node)
            return {_getattr_name(call) or "": call}, subject, self._none_tested(subject, fn)
        local = None
        if (
            isinstance(parent, cst.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
        ):
            local = parent.targets[0].target.value
        elif isinstance(parent, cst.NamedExpr) and isinstance(parent.target, cst.Name):
            local = parent.target.value
        if local is not None and fn is not None:
            fields: dict[str, cst.CSTNode] = {}
            for n in walk(fn.node):
                if isinstance(n, cst.Attribute) and isinstance(n.value, cst.Name) and n.value.value == local:
                    fields.setdefault(n.attr.value, n)
                elif (
                    isinstance(n, cst.Call)
                    and _getattr_name(n)
                    and isinstance(n.args[0].value, cst.Name)
                    and n.args[0].value.value == local
                ):
                    fields.setdefault(_getattr_name(n) or "", n)
            # `if (p := session.client_params) and p.clientInfo`: the walrus is the None test
            return fields, local, isinstance(parent, cst.NamedExpr) or self._none_tested(local, fn)
        return {}, code_of(node), self._none_tested(code_of(node), fn)

    def _only_tested(self, node: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """``node`` is only the truth or None test of a guard (``session.client_params and
        session.client_params.clientInfo``) whose guarded read of the same chain is reported on
        its own: one finding per read, not one more for its guard."""
        parent = self.a.parents.get(id(node))
        if isinstance(parent, cst.Comparison):
            parent = self.a.parents.get(id(parent))
        if isinstance(parent, cst.UnaryOperation):
            parent = self.a.parents.get(id(parent))
        if (
            not (
                (isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And))
                or isinstance(parent, (cst.If, cst.While, cst.IfExp))
            )
            or fn is None
        ):
            return False
        subject = code_of(node)
        return any(
            isinstance(n, cst.Attribute) and n is not node and code_of(n.value) == subject for n in walk(fn.node)
        )

    def _none_tested(self, subject: str, fn: FunctionInfo | None) -> bool:
        """``subject is not None`` / ``is None`` / a truth test of ``subject`` somewhere in ``fn``."""
        if fn is None:
            return False
        for n in walk(fn.node):
            if isinstance(n, cst.Comparison) and code_of(n.left) == subject:
                if any(
                    isinstance(c.operator, (cst.Is, cst.IsNot, cst.Equal, cst.NotEqual))
                    and isinstance(c.comparator, cst.Name)
                    and c.comparator.value == "None"
                    for c in n.comparisons
                ):
                    return True
            test = None
            if isinstance(n, (cst.If, cst.While, cst.IfExp)):
                test = n.test
            elif isinstance(n, cst.BooleanOperation):
                test = n.left
            if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
                test = test.expression
            if test is not None and code_of(test) == subject:
                return True
        return False

    def _client_params(self, node: cst.BaseExpression, recv: cst.BaseExpression, fn: FunctionInfo | None) -> None:
        """MCP102 on a read of ``client_params`` (``node``: ``recv.client_params`` or
        ``getattr(recv, "client_params", None)``)."""
        if isinstance(node, cst.Attribute) and self._is_store(node) or self._test_double(recv, fn):
            return
        if self._only_tested(node, fn):
            return
        read, subject, guarded = self._fields_read(node, fn)
        fields = set(read)
        modern = self._per_request_session(recv, fn)
        info = fields & {"clientInfo", "client_info"}
        # where the getattr form reads the field (`getattr(params, "clientInfo")`)
        at: cst.CSTNode = read[min(info)] if isinstance(node, cst.Call) and info else node
        if fields & {"protocolVersion", "protocol_version"} and not fields & {"capabilities"} and not info:
            if modern and guarded:
                return  # mcp 2.x rebuilds client_params per request: the version this request sent
            self.report(
                "MCP102",
                at,
                "This reads the protocol version the client sent in `initialize`; on 2026-07-28 there is no "
                'initialize: each request carries its version (`_meta["io.modelcontextprotocol/protocolVersion"]`), '
                "and mcp 2.x rebuilds `session.client_params` per request.",
                manual="read the version per request (on mcp 2.x `session.client_params` already is the per-request "
                "value) and keep the read optional",
            )
            return
        if info and not fields & {"capabilities"}:
            # Client info, not capabilities: on 2026-07-28 it travels per request in
            # `_meta["io.modelcontextprotocol/clientInfo"]` and is optional; mcp 2.x rebuilds
            # `client_params` per request (None without client info) and names the field `client_info`.
            old_spelling = "clientInfo" in info
            if modern and guarded and not old_spelling:
                return  # the mcp 2.x per-request read, None-guarded: right on both eras
            unguarded = (
                ""
                if guarded
                else (
                    f" `{subject}` is None when the request carries no client info, so this line raises "
                    "AttributeError; test it for None first."
                )
            )
            rename = (
                " mcp 2.x names the field `client_info` (`clientInfo` raises AttributeError there)."
                if old_spelling
                else ""
            )
            self.report(
                "MCP102",
                at,
                "This reads the client's name/version (clientInfo), not its capabilities: on 2026-07-28 "
                "there is no initialize, and client info travels in each request's "
                '`_meta["io.modelcontextprotocol/clientInfo"]`, optional; mcp 2.x rebuilds '
                "`session.client_params` per request (None when the request sent none)."
                + (unguarded or " This read is None-guarded, so without client info it degrades instead of failing.")
                + rename,
                manual=("guard the read for None" if not guarded else "keep it optional")
                + (" and read `client_info` on mcp 2.x" if old_spelling else "")
                + " (on mcp 2.x `session.client_params` already is the per-request value; there is no other accessor)",
                severity=Severity.BREAKING if not guarded or (modern and old_spelling) else Severity.ADVISORY,
            )
            return
        if modern and guarded and not fields & {"capabilities"} and fields:
            return  # a None-guarded per-request read of other initialize data on mcp 2.x
        self.report(
            "MCP102",
            at,
            "`client_params` is the initialize request's data; on 2026-07-28 there is no initialize "
            "and capabilities arrive in every request's _meta. Read them per request "
            "(`ctx.client_capabilities` in mcp 2.x).",
            manual=self._capability_advice(recv, fn),
        )

    def _capability_advice(self, recv: cst.BaseExpression, fn: FunctionInfo | None) -> str:
        """What to read instead of the handshake's capabilities. mcp 1.x and fastmcp 2/3 have no
        per-request accessor (their connections all have a handshake, so the read is right there);
        mcp 2.x's ``Context.client_capabilities`` (``mcp/server/mcpserver/context.py``) is per request."""
        if self._per_request_session(recv, fn):
            return "read the capability from the request (`ctx.client_capabilities`) instead"
        target = "fastmcp4" if self.a.module_generation() == S.FASTMCP else "mcp2"
        return (
            "keep it while the server runs on a handshake-era SDK (every connection sends `initialize`, and "
            "this SDK has no per-request accessor); when porting (`mcpmigrate fix --target-sdk "
            f"{target}`), read the capability from the request (`ctx.client_capabilities` on mcp 2.x)"
        )

    def _session_like(self, expr: cst.BaseExpression) -> bool:
        """``<x>.session`` or a name called ``session`` whose type is not known (an untyped or
        ``object``-typed helper parameter) in a module that imports MCP."""
        if not self.a.imports_mcp():
            return False
        if isinstance(expr, cst.Attribute):
            return expr.attr.value == "session"
        return isinstance(expr, cst.Name) and expr.value in ("session", "server_session", "mcp_session")

    def _in_capability_check(self, node: cst.CSTNode) -> bool:
        """The module compares capabilities with ``check_client_capability(...)`` /
        ``check_capability(...)`` (mcp ``ServerSession`` / ``Connection``) and ``node`` feeds one:
        inside its argument, or anywhere in the module (a value passed along, a test's cases)."""
        if any(self.a.name_counts.get(n) for n in ("check_client_capability", "check_capability")):
            return True
        cur = self.a.parents.get(id(node))
        while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module)):
            if isinstance(cur, cst.Call) and isinstance(cur.func, (cst.Attribute, cst.Name)):
                name = cur.func.attr.value if isinstance(cur.func, cst.Attribute) else cur.func.value
                if name in ("check_client_capability", "check_capability"):
                    return True
            cur = self.a.parents.get(id(cur))
        return False

    def _contains_roots_request(self, node: cst.CSTNode) -> bool:
        for n in walk(node):
            if isinstance(n, cst.Call) and self.a.resolves_to(n.func, S.LIST_ROOTS_REQUEST):
                return True
            if isinstance(n, cst.Dict):
                m = dict_get(n, "method")
                if m is not None and string_value(m.value) == S.ROOTS_METHOD:
                    return True
        return False

    def _list_roots_call(self, call: cst.Call | None, func: cst.Attribute, fn: FunctionInfo | None) -> None:
        kind = self.a.kind_of(func.value, fn)
        named_session = isinstance(func.value, cst.Name) and func.value.value in ("session", "server_session")
        if (
            kind is Kind.SESSION
            or kind is Kind.CONTEXT_FASTMCP
            or (kind is None and (self._session_like(func.value) or named_session))
        ):
            pass
        elif self.a.framework_methods(func.value, fn).get("list_roots") == "roots":
            if call is None or not self._framework_param(call, fn):
                self._framework_list_roots(call if call is not None else func, func.value, fn)
            return
        else:
            return
        node = call if call is not None else func
        from mcpmigrate.codemods import interim as interim_fix

        if interim_fix.legacy_only(self.a, node) or legacy_era_only(self.a.parents, node):
            return  # the legacy branch of an era-portable handler
        strategy = self.det.config.strategy
        chosen = self.det.config.strategy_chosen
        fence = configured.fence(self.a, fn, node) if fn is not None and (strategy == "config" or not chosen) else None
        if strategy == "interim":  # `fix --strategy interim`: label the interim rewrite
            plan = interim_fix.plan_request(self.a, self.det.config, node, fn, interim_fix.ROOTS)
        elif strategy == "config" or (fence and not chosen):
            # by default a fence stays with whoever runs the server (issue 23)
            plan = configured.plan(self.a, self.det.config, node, fn, fence or "")
        else:
            plan = param_fix.plan_roots_request(self.a, self.det.config, node, fn)
        base = (
            "The server asks the client for its roots"
            + (f" in `{fn.qualname}`{self.a.external_chain(fn)}" if fn else "")
            + "; on 2026-07-28 servers cannot send requests (mcp 2.x raises NoBackChannelError) and roots "
            "are deprecated. Take the directory as a documented tool parameter (`fix --strategy param`)."
        )
        self.reports.append(Report.planned("MCP101", node, base, plan))

    def _framework_param(self, node: cst.Call, fn: FunctionInfo | None) -> bool:
        """Under an explicit ``--strategy param``, ``ctx.list_roots()`` on a framework's context
        gets the SDK context's param plan (only the tool's signature changes; the value rebuilt is
        the framework's ``list[Root]``, ``param.sites.root_list``): reported here, True. False
        leaves it to :meth:`_framework_list_roots` (another strategy, or the legacy branch)."""
        from mcpmigrate.codemods import interim as interim_fix

        config = self.det.config
        if not (config.strategy == param_fix.STRATEGY and config.strategy_chosen):
            return False
        if interim_fix.legacy_only(self.a, node) or legacy_era_only(self.a.parents, node):
            return False
        plan = param_fix.plan_roots_request(self.a, config, node, fn)
        message = (
            "The server asks the client for its roots"
            + (f" in `{fn.qualname}`{self.a.external_chain(fn)}" if fn else "")
            + " through the framework's `list_roots`, which sends `roots/list` on the SDK session; on 2026-07-28 "
            "servers cannot send requests (mcp 2.x raises NoBackChannelError) and roots are deprecated. Take the "
            "directory as a documented tool parameter (`fix --strategy param`)."
        )
        self.planned("MCP101", node, message, plan)
        return True

    def _framework_list_roots(self, node: cst.CSTNode, receiver: cst.BaseExpression, fn: FunctionInfo | None) -> None:
        """``ctx.list_roots()`` on a framework's context that forwards it to the SDK session
        (``surfaces.FRAMEWORK_CONTEXT_METHODS``): the same request, not rewritten here."""
        if legacy_era_only(self.a.parents, node):
            return
        self.report(
            "MCP101",
            node,
            "The server asks the client for its roots"
            + (f" in `{fn.qualname}`{self.a.external_chain(fn)}" if fn else "")
            + " through the framework's `list_roots`, which sends `roots/list` on the SDK session; on 2026-07-28 "
            "servers cannot send requests (mcp 2.x raises NoBackChannelError) and roots are deprecated.",
            manual=framework_wrapper_manual(
                self.a,
                receiver,
                fn,
                "list_roots",
                "take the directory as a documented tool parameter instead of `list_roots`",
            ),
        )

    def _roots_interim(self, node: cst.Call, fn: FunctionInfo | None) -> None:
        plan = param_fix.plan_roots_interim(self.a, self.det.config, node, fn)
        self.reports.append(
            Report.planned(
                "MCP106",
                node,
                "Roots are asked through an interim result: this works on 2026-07-28, but roots are "
                "deprecated (SEP-2577, removal on or after 2027-07-28). Take the directory as a documented "
                "tool parameter instead (`fix --strategy param`).",
                plan,
            )
        )

    def _expects_failure(self, node: cst.CSTNode) -> bool:
        """``node`` is built inside ``with pytest.raises(...)`` / ``with self.assertRaises(...)``
        (or passed to their call form): a value made invalid on purpose, to test the rejection."""
        parents = self.a.parents
        cur = parents.get(id(node))
        while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            if isinstance(cur, cst.With) and any(
                isinstance(item.item, cst.Call) and _raises_call(item.item) for item in cur.items
            ):
                return True
            if isinstance(cur, cst.Call) and _raises_call(cur):
                return True
            cur = parents.get(id(cur))
        return False

    def _check_root_uri(self, value: cst.BaseExpression) -> None:
        if self._expects_failure(value):
            return
        text = string_value(value)
        if text is None and isinstance(value, cst.FormattedString):
            first = value.parts[0] if value.parts else None
            text = first.value if isinstance(first, cst.FormattedStringText) else None
            if text is not None and len(text) < len("file://") and "file://".startswith(text):
                return
        if text is not None and not text.startswith("file://"):
            self.report(
                "MCP105",
                value,
                f"A Root's uri must be a file:// URI; {text.split(':', 1)[0]!r} is not. Expose other "
                "locations as resources (resources accept any URI scheme).",
            )

    # -- dicts and comparisons (hand-rolled JSON-RPC) --------------------------------------
    def visit_Dict(self, node: cst.Dict) -> None:
        method = dict_get(node, "method")
        if method is not None and string_value(method.value) == S.ROOTS_METHOD:
            if self.interim_depth:
                self._roots_interim_dict(node)
            elif dict_get(node, "jsonrpc") is not None or dict_get(node, "id") is not None:
                if self.det.config.strategy == "interim":  # `fix --strategy interim`: label that rewrite
                    plan = interim_jsonrpc.plan(self.a, self.det.config, node, S.ROOTS_METHOD)
                else:
                    plan = FixPlan(
                        manual="hand-rolled JSON-RPC servers get no `param` fix"
                        + (
                            "; `fix --strategy interim` rewrites this request into an interim result"
                            if interim_jsonrpc.rewritable(self.a, node, S.ROOTS_METHOD)
                            else ""
                        )
                    )
                self.reports.append(
                    Report.planned(
                        "MCP101",
                        node,
                        "A hand-built JSON-RPC `roots/list` request is sent to the client; on 2026-07-28 servers "
                        "cannot send requests. Take the directory as a documented tool parameter, or answer "
                        'the tools/call with `{"resultType": "input_required", "inputRequests": {...}}`.',
                        plan,
                    )
                )
        roots = dict_get(node, "roots")
        if roots is not None and isinstance(roots.value, cst.Dict):
            lc = dict_get(roots.value, "listChanged")
            if lc is not None:
                self.planned("MCP104", lc, _MSG_104, remove.plan_field(lc, "drop the listChanged field"))
        if roots is not None and isinstance(roots.value, cst.List):
            for el in roots.value.elements:
                if isinstance(el.value, cst.Dict):
                    uri = dict_get(el.value, "uri")
                    if uri is not None:
                        self._check_root_uri(uri.value)

    def _roots_interim_dict(self, node: cst.Dict) -> None:
        self.report(
            "MCP106",
            node,
            "Roots are asked through an interim result (`inputRequests`): this works on 2026-07-28, but "
            "roots are deprecated (SEP-2577). Take the directory as a documented tool parameter instead.",
            manual="hand-rolled interim results are not rewritten automatically",
        )

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if not branch_condition(self.a.parents, node):
            return
        for target in node.comparisons:
            if (
                isinstance(target.operator, (cst.Equal, cst.In))
                and string_value(target.comparator) == S.ROOTS_LIST_CHANGED_METHOD
            ):
                self.planned(
                    "MCP103",
                    node,
                    _MSG_103,
                    plan_route("remove this dispatch branch; the notification no longer exists"),
                )
        if string_value(node.left) == S.ROOTS_LIST_CHANGED_METHOD:
            self.planned(
                "MCP103", node, _MSG_103, plan_route("remove this dispatch branch; the notification no longer exists")
            )

    def visit_MatchValue(self, node: cst.MatchValue) -> None:
        if string_value(node.value) == S.ROOTS_LIST_CHANGED_METHOD:
            self.planned("MCP103", node, _MSG_103, plan_route("remove this case; the notification no longer exists"))

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            tgt = t.target
            if (
                isinstance(tgt, cst.Subscript)
                and isinstance(tgt.value, cst.Attribute)
                and tgt.value.attr.value == "notification_handlers"
            ):
                for el in tgt.slice:
                    if isinstance(el.slice, cst.Index) and self.a.resolves_to(
                        el.slice.value, S.ROOTS_LIST_CHANGED_NOTIFICATION
                    ):
                        self.planned(
                            "MCP103", node, _MSG_103, remove.plan_registration(node, "remove the handler registration")
                        )


def _raises_call(call: cst.Call) -> bool:
    """``pytest.raises(...)``, ``raises(...)``, ``self.assertRaises(...)``, ``assertRaisesRegex(...)``."""
    name = get_full_name_for_node(call.func) or ""
    last = name.rsplit(".", 1)[-1]
    return last in ("raises", "assertRaises", "assertRaisesRegex") and (
        last != "raises" or name in ("raises", "pytest.raises")
    )


_MOCK_FACTORIES = frozenset(
    {"MagicMock", "AsyncMock", "Mock", "NonCallableMock", "NonCallableMagicMock", "create_autospec", "PropertyMock"}
)

_MSG_103 = (
    "`notifications/roots/list_changed` is removed in 2026-07-28: a modern client never sends it, but legacy "
    "clients still do. Remove the handler once the project no longer serves them; if it refreshes cached roots, "
    "it goes with the roots request (take the path as a tool parameter instead)."
)
_MSG_104 = "`listChanged` is gone from the roots capability in 2026-07-28 (the capability is `{}`). Drop the field."
_MANUAL_104_CHECK = (
    "this module compares client capabilities (`check_client_capability`/`check_capability`), which "
    "compare `listChanged` (legacy clients can send roots list_changed; 2026-07-28 has none): without "
    "it a check passes for clients that never send them. Remove the check with the code that waits "
    "for the notifications, by hand"
)
_MANUAL_104_CLIENT = (
    "this is client code (it imports the SDK client): a client that also talks to legacy servers still "
    "declares `listChanged` to them; send it only on legacy connections, by hand"
)

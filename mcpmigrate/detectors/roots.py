"""Roots family: MCP101–MCP106.

Spec: 2026-07-28 changelog (server-to-client requests removed; roots deprecated by SEP-2577;
``notifications/roots/list_changed`` removed; ``RootsCapability`` is ``{}``), schema
``schema/2026-07-28/schema.ts`` (``Root.uri`` is a ``file://`` URI; ``ListRootsRequest`` only
inside ``InputRequiredResult.inputRequests``). SDK surfaces: ``mcp-python-surfaces.md`` §3–§7, §10.
"""

from __future__ import annotations

from typing import Iterable

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, walk
from mcpmigrate.codemods import interim_jsonrpc
from mcpmigrate.codemods import param as param_fix
from mcpmigrate.codemods.remove import roots_cache_blocker, roots_cache_of
from mcpmigrate.detectors._shared import plan_legacy_only
from mcpmigrate.detectors.base import Detector, Report, RequestVisitor, dict_get, string_value
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.screen import roots as screen_roots


def _remove_fix(description: str) -> FixInfo:
    """A deletion that is right under every strategy (handled by the ``remove`` codemod)."""
    return FixInfo(Safety.SAFE, "remove", description)


def _guard_fix(description: str) -> FixInfo:
    """Goes away with the roots request it guards (handled by the ``param`` codemod)."""
    return FixInfo(Safety.SAFE, "param", description)


class RootsDetector(Detector):
    rules = ("MCP101", "MCP102", "MCP103", "MCP104", "MCP105", "MCP106")
    tokens = S.ROOTS_TOKENS
    screen = staticmethod(screen_roots)

    def detect(self) -> Iterable[Report]:
        visitor = _RootsVisitor(self)
        self.analysis.flat.visit(visitor)
        reports = visitor.reports
        # A capability guard goes away only with a roots request the param fix removes in the
        # same function; when that request is left for a human, so is its guard.
        fixed_fns = {id(self.analysis.enclosing_function(r.node)) for r in reports if r.rule == "MCP101" and r.fix is not None}
        for r in reports:
            if r.rule == "MCP102" and r.data.get("guards_roots") and id(self.analysis.enclosing_function(r.node)) not in fixed_fns:
                r.fix = None
                r.message = r.message.replace(
                    " — this guard only protects the roots request, which the param fix removes",
                    " — this guard protects a roots request that is left for a human",
                )
                r.manual = "it guards a roots request that is left for a human: remove it together with that request"
            elif r.rule == "MCP102" and r.fix is not None and not param_fix.removable_guard(self.analysis, r.node):
                r.fix = None
                r.manual = ("the capability check is not a plain `if not …: return/raise` guard: remove it by hand "
                            "together with the roots request")
        # A roots list_changed handler that invalidates a cache a roots request fills goes with that
        # request, when the param fix removes it (same safety); never alone while the cache stays.
        requests = {id(self.analysis.enclosing_function(r.node)): r for r in reports if r.rule == "MCP101"}
        for r in reports:
            cache = roots_cache_of(self.analysis, r.node) if r.rule == "MCP103" and r.fix is not None else None
            filler = self.analysis.function_named(cache[2]) if cache else None
            request = requests.get(id(filler)) if filler is not None else None
            if cache and request is not None and request.fix is not None and request.fix.strategy == "param":
                r.fix = FixInfo(request.fix.safety, "param",
                                f"removed together with the roots request in `{cache[2]}`, whose cache `{cache[1]}` it invalidates")
                r.data["filler"] = cache[2]
        return plan_legacy_only(self.config, reports, lambda r: roots_cache_blocker(self.analysis, r.node))


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
                    guards_roots = any(isinstance(n, cst.Arg) and n.keyword and n.keyword.value == "roots" for n in walk(node))
                    self.report(
                        "MCP102", node,
                        "Client capabilities are read from the session; on 2026-07-28 they arrive in every "
                        "request's _meta and must not be inferred from the connection"
                        + (" — this guard only protects the roots request, which the param fix removes" if guards_roots else "")
                        + ". Read them per request (`ctx.client_capabilities` in mcp 2.x).",
                        fix=_guard_fix("removed together with the roots request it guards") if guards_roots else None,
                        manual=None if guards_roots else "read the capability from the request (`ctx.client_capabilities`) instead",
                        guards_roots=guards_roots,
                    )
            elif attr == "send_request":
                if self._contains_roots_request(node):
                    self.report(
                        "MCP101", node,
                        "A raw `roots/list` request is sent to the client; servers cannot send requests on "
                        "2026-07-28. Take the directory as a documented tool parameter, or return an "
                        "`InputRequiredResult` carrying a `ListRootsRequest`.",
                        manual="a raw send_request cannot be rewritten automatically",
                    )
            elif attr == "add_notification_handler":
                if node.args and string_value(node.args[0].value) == S.ROOTS_LIST_CHANGED_METHOD:
                    self.report("MCP103", node, _MSG_103, fix=_remove_fix("remove the handler registration"))
        q = self.a.qualname(func)
        if q in S.ROOTS_CAPABILITY:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value in ("listChanged", "list_changed"):
                    if self.a.imports_sdk_client():
                        self.report("MCP104", arg, _MSG_104, manual=_MANUAL_104_CLIENT)
                    else:
                        self.report("MCP104", arg, _MSG_104, fix=_remove_fix("drop the listChanged field"))
        elif q in S.ROOT:
            uri_arg = next((a for a in node.args if a.keyword is not None and a.keyword.value == "uri"), None)
            if uri_arg is None and node.args and node.args[0].keyword is None:
                uri_arg = node.args[0]
            if uri_arg is not None:
                self._check_root_uri(uri_arg.value)
        elif q in S.LIST_ROOTS_MARKER:
            self._roots_interim(node, fn)
        elif q in S.LIST_ROOTS_REQUEST and self.interim_depth:
            self._roots_interim(node, fn)
        elif q in S.LOWLEVEL_SERVERS:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == S.ROOTS_LIST_CHANGED_KWARG:
                    self.report("MCP103", arg, _MSG_103, fix=_remove_fix("remove the on_roots_list_changed handler"))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        fn = self.fn(node)
        if node.attr.value == "client_params":
            if self.a.kind_of(node.value, fn) is Kind.SESSION or self._session_like(node.value):
                self.report(
                    "MCP102", node,
                    "`client_params` is the initialize request's data; on 2026-07-28 there is no initialize "
                    "and capabilities arrive in every request's _meta. Read them per request "
                    "(`ctx.client_capabilities` in mcp 2.x).",
                    manual="read the capability from the request (`ctx.client_capabilities`) instead",
                )
        elif node.attr.value == "list_roots" and id(node) not in self.called_attrs:
            # a reference, not a call: anyio.from_thread.run(ctx.session.list_roots)
            if self.a.kind_of(node.value, fn) is Kind.SESSION:
                parent_call = None
                self._list_roots_call(parent_call, node, fn)

    def _session_like(self, expr: cst.BaseExpression) -> bool:
        """``<x>.session`` or a name called ``session`` whose type is not known (an untyped or
        ``object``-typed helper parameter) in a module that imports MCP."""
        if not self.a.imports_mcp():
            return False
        if isinstance(expr, cst.Attribute):
            return expr.attr.value == "session"
        return isinstance(expr, cst.Name) and expr.value in ("session", "server_session", "mcp_session")

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
        if kind is Kind.SESSION or kind is Kind.CONTEXT_FASTMCP or (kind is None and (self._session_like(func.value) or named_session)):
            pass
        else:
            return
        node = call if call is not None else func
        from mcpmigrate.codemods import interim as interim_fix

        if interim_fix.legacy_only(self.a, node):  # the legacy branch of an era-portable handler
            return
        if self.det.config.strategy == "interim":  # `fix --strategy interim`: label the interim rewrite
            plan = interim_fix.plan_request(self.a, self.det.config, node, fn, interim_fix.ROOTS)
        else:
            plan = param_fix.plan_roots_request(self.a, self.det.config, node, fn)
        base = (
            "The server asks the client for its roots"
            + (f" in `{fn.qualname}`" if fn else "")
            + "; on 2026-07-28 servers cannot send requests (mcp 2.x raises NoBackChannelError) and roots "
            "are deprecated. Take the directory as a documented tool parameter (`fix --strategy param`)."
        )
        self.reports.append(Report.planned("MCP101", node, base, plan))

    def _roots_interim(self, node: cst.Call, fn: FunctionInfo | None) -> None:
        plan = param_fix.plan_roots_interim(self.a, self.det.config, node, fn)
        self.reports.append(Report.planned(
            "MCP106", node,
            "Roots are asked through an interim result: this works on 2026-07-28, but roots are "
            "deprecated (SEP-2577, removal on or after 2027-07-28). Take the directory as a documented "
            "tool parameter instead (`fix --strategy param`).",
            plan,
        ))

    def _check_root_uri(self, value: cst.BaseExpression) -> None:
        text = string_value(value)
        if text is None and isinstance(value, cst.FormattedString):
            first = value.parts[0] if value.parts else None
            text = first.value if isinstance(first, cst.FormattedStringText) else None
            if text is not None and len(text) < len("file://") and "file://".startswith(text):
                return
        if text is not None and not text.startswith("file://"):
            self.report(
                "MCP105", value,
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
                    plan = FixPlan(manual="hand-rolled JSON-RPC servers get no `param` fix" + (
                        "; `fix --strategy interim` rewrites this request into an interim result"
                        if interim_jsonrpc.rewritable(self.a, node, S.ROOTS_METHOD) else ""))
                self.reports.append(Report.planned(
                    "MCP101", node,
                    "A hand-built JSON-RPC `roots/list` request is sent to the client; on 2026-07-28 servers "
                    "cannot send requests. Take the directory as a documented tool parameter, or answer "
                    "the tools/call with `{\"resultType\": \"input_required\", \"inputRequests\": {...}}`.",
                    plan,
                ))
        roots = dict_get(node, "roots")
        if roots is not None and isinstance(roots.value, cst.Dict):
            lc = dict_get(roots.value, "listChanged")
            if lc is not None:
                self.report("MCP104", lc, _MSG_104, fix=_remove_fix("drop the listChanged field"))
        if roots is not None and isinstance(roots.value, cst.List):
            for el in roots.value.elements:
                if isinstance(el.value, cst.Dict):
                    uri = dict_get(el.value, "uri")
                    if uri is not None:
                        self._check_root_uri(uri.value)

    def _roots_interim_dict(self, node: cst.Dict) -> None:
        self.report(
            "MCP106", node,
            "Roots are asked through an interim result (`inputRequests`): this works on 2026-07-28, but "
            "roots are deprecated (SEP-2577). Take the directory as a documented tool parameter instead.",
            manual="hand-rolled interim results are not rewritten automatically",
        )

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for target in node.comparisons:
            if isinstance(target.operator, (cst.Equal, cst.In)) and string_value(target.comparator) == S.ROOTS_LIST_CHANGED_METHOD:
                self.report("MCP103", node, _MSG_103, manual="remove this dispatch branch; the notification no longer exists", route=True)
        if string_value(node.left) == S.ROOTS_LIST_CHANGED_METHOD:
            self.report("MCP103", node, _MSG_103, manual="remove this dispatch branch; the notification no longer exists", route=True)

    def visit_MatchValue(self, node: cst.MatchValue) -> None:
        if string_value(node.value) == S.ROOTS_LIST_CHANGED_METHOD:
            self.report("MCP103", node, _MSG_103, manual="remove this case; the notification no longer exists", route=True)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            tgt = t.target
            if isinstance(tgt, cst.Subscript) and isinstance(tgt.value, cst.Attribute) and tgt.value.attr.value == "notification_handlers":
                for el in tgt.slice:
                    if isinstance(el.slice, cst.Index) and self.a.resolves_to(el.slice.value, S.ROOTS_LIST_CHANGED_NOTIFICATION):
                        self.report("MCP103", node, _MSG_103, fix=_remove_fix("remove the handler registration"))


_MSG_103 = (
    "`notifications/roots/list_changed` is removed in 2026-07-28: a modern client never sends it, but legacy "
    "clients still do. Remove the handler once the project no longer serves them; if it refreshes cached roots, "
    "it goes with the roots request (take the path as a tool parameter instead)."
)
_MSG_104 = (
    "`listChanged` is gone from the roots capability in 2026-07-28 (the capability is `{}`). Drop the field."
)
_MANUAL_104_CLIENT = (
    "this is client code (it imports the SDK client): a client that also talks to legacy servers still "
    "declares `listChanged` to them; send it only on legacy connections, by hand"
)



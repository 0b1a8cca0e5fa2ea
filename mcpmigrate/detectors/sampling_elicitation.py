"""Sampling and elicitation family: MCP201, MCP202, MCP206, MCP207.

Spec: 2026-07-28 changelog (server-to-client requests removed: ``sampling/createMessage`` and
``elicitation/create`` appear only inside ``InputRequiredResult.inputRequests``; sampling is
deprecated by SEP-2577), schema ``schema/2026-07-28/schema.ts`` (only ``tools/call``,
``prompts/get`` and ``resources/read`` may return an ``InputRequiredResult``). SDK surfaces:
the tables in ``mcpmigrate/surfaces.py`` (mcp 1.27, mcp 2.3, fastmcp 2.x–4.x), including the SDK's
``mcp.server.elicitation`` helpers and the request methods frameworks built on the SDK add to their
contexts (mcp-use ``Context.sample``).
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, walk
from mcpmigrate.analysis.module import Uninjected
from mcpmigrate.codemods import interim, interim_jsonrpc
from mcpmigrate.detectors._shared import framework_wrapper_manual, legacy_era_only, sent_payloads
from mcpmigrate.detectors.base import Detector, Report, RequestVisitor, dict_get, string_value
from mcpmigrate.model import FixPlan
from mcpmigrate.names import ref_names
from mcpmigrate.screen import sampling_elicitation as screen_sampling_elicitation

# MCP201/MCP202 messages: what sends the request (``subject``), then why and what to do.
_SAMPLES = "The server asks the client's model to sample{where}"
_ELICITS = "The server pushes an elicitation to the client{where}"
_MSG_201 = (
    "{subject}; on 2026-07-28 servers cannot send requests "
    "(mcp 2.x raises NoBackChannelError, fastmcp 4 removed `ctx.sample`), and sampling is deprecated "
    "(SEP-2577). Call an LLM provider directly, or ask through an interim result (`fix --strategy interim`)."
)
_MSG_202 = (
    "{subject}; on 2026-07-28 servers cannot send requests "
    "(mcp 2.x raises NoBackChannelError, fastmcp 4 raises ToolError). Ask through an interim result "
    "(`Resolve(Elicit(...))` / `InputRequiredResult`; `fix --strategy interim`)."
)
_MSG_206 = (
    "An interim result (`input_required`) is returned from {method}; only tools/call, prompts/get and "
    "resources/read may return one (2026-07-28). Ask for the input in the tool, prompt or resource that "
    "needs it, or answer this request completely."
)
_WRAPPER_MANUAL = (
    "the wrapper sends `sampling/createMessage` itself: replace it with a direct model provider (e.g. a "
    "pydantic-ai provider model), which needs no client round trip"
)
_MSG_207 = (
    "Security: this elicitation is a consent gate whose failure path goes on with the guarded action. "
    "On a 2026-07-28 connection the push always fails, so this `except` silently opens the gate and "
    "{tool} {runs} without the user's confirmation. Ask through an interim result "
    "(`fix --strategy interim --unsafe-fixes` drops this fallback) and never treat a failed question as a yes."
)


# Errors the code's own parsing raises and a failed push never does (mcp 2.x NoBackChannelError
# and MCPError, fastmcp ToolError derive from Exception, not from these): a handler naming only
# these cannot open a consent gate on 2026-07-28. pydantic's ValidationError is a ValueError.
_NOT_PUSH_FAILURES = frozenset(
    {"ValidationError", "ValueError", "KeyError", "IndexError", "LookupError", "JSONDecodeError", "UnicodeDecodeError"}
)


def _never_push_failure(handler: cst.ExceptHandler) -> bool:
    """``except ValidationError:`` / ``except (KeyError, ValueError):``: no name a failed push raises."""
    if handler.type is None:
        return False
    types = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    return all((get_full_name_for_node(t) or "").rsplit(".", 1)[-1] in _NOT_PUSH_FAILURES for t in types)


class SamplingElicitationDetector(Detector):
    rules = ("MCP201", "MCP202", "MCP206", "MCP207")
    tokens = S.SAMPLING_ELICITATION_TOKENS
    screen = staticmethod(screen_sampling_elicitation)

    def detect(self) -> Iterable[Report]:
        visitor = _Visitor(self)
        self.analysis.flat.visit(visitor)
        return visitor.reports


class _Visitor(RequestVisitor):
    def __init__(self, det: SamplingElicitationDetector) -> None:
        super().__init__(det)
        self._methods: dict[int, set[str]] | None = None

    # -- calls -----------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        fn = self.fn(node)
        kind = interim.request_kind(self.a, node, fn)
        if kind is not None and legacy_era_only(self.a.parents, node):
            return  # the legacy half of a server written for both eras (behind an era test)
        where = f" in `{fn.qualname}`{self.a.external_chain(fn)}" if fn else ""
        if kind == interim.SAMPLING:
            plan = interim.plan_request(self.a, self.det.config, node, fn, kind)
            self.reports.append(
                Report.planned("MCP201", node, _MSG_201.format(subject=_SAMPLES.format(where=where)), plan)
            )
        elif kind == interim.ELICITATION:
            plan = interim.plan_request(self.a, self.det.config, node, fn, kind)
            self.reports.append(
                Report.planned("MCP202", node, _MSG_202.format(subject=_ELICITS.format(where=where)), plan)
            )
            self._fail_open(node, fn, plan)
        if isinstance(func, cst.Attribute) and func.attr.value == "send_request" and not self.interim_depth:
            raw = next(filter(None, (self._raw_kind(p) for p in sent_payloads(self.a, node, fn))), None)
            if raw == interim.SAMPLING:
                self.report(
                    "MCP201",
                    node,
                    _MSG_201.format(subject=_SAMPLES.format(where=where)),
                    manual="a raw send_request cannot be rewritten automatically: use `ctx.session.create_message` "
                    "in an mcp 2.x tool and run `fix --strategy interim`, or return an `InputRequiredResult`",
                )
            elif raw == interim.ELICITATION:
                self.report(
                    "MCP202",
                    node,
                    _MSG_202.format(subject=_ELICITS.format(where=where)),
                    manual="a raw send_request cannot be rewritten automatically: use `ctx.elicit` in an mcp 2.x "
                    "tool and run `fix --strategy interim`, or return an `InputRequiredResult`",
                )
        q = self.a.qualname(func)
        if kind is None:
            self._receiver_elsewhere(node, fn, q, where)
            self._through_uninjected(node, fn, where)
        if q in S.SESSION_SAMPLING_WRAPPERS:
            sessions = [arg.value for arg in node.args if self._is_session(arg.value, fn)]
            if sessions:
                manual = _WRAPPER_MANUAL
                why = self._why_untyped(sessions[0], fn) if fn is not None else None
                if why is not None and fn is not None:
                    run = self.a.parents.get(id(self.a.parents.get(id(node))))  # `agent.run(prompt, model=…)`
                    built = self._built_from(run, fn, "the agent run's prompt") if isinstance(run, cst.Call) else None
                    manual = f"{why}, then migrate it by hand: {manual}" + (f"; {built}" if built else "")
                self.report(
                    "MCP201",
                    node,
                    _MSG_201.format(
                        subject=f"A server session is handed to `{q.split('.')[-1]}`, which samples through it{where}"
                    ),
                    manual=manual,
                )
        if q in S.HIGH_LEVEL_SERVERS:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == S.SAMPLING_HANDLER_KWARG:
                    self.report(
                        "MCP201",
                        arg,
                        "`sampling_handler=` serves `ctx.sample` when the client cannot: fastmcp 4 rejects it "
                        "(TypeError: server-initiated sampling is deprecated) and sampling is deprecated "
                        "(SEP-2577). Call the LLM provider directly where the tool samples.",
                        manual="replace the `ctx.sample` calls it backs with direct provider calls, then remove it",
                    )
        if q in S.INPUT_REQUIRED_RESULT:
            self._unsupported_interim(node)

    def _receiver_elsewhere(self, node: cst.Call, fn: FunctionInfo | None, q: str | None, where: str) -> None:
        """Requests whose receiver is not an SDK session or context the request kinds know: the
        SDK's module-level helpers (``elicit_with_validation(session, …)``, ``elicit_url(session,
        …)``; ``surfaces.SDK_ELICIT_HELPERS``), and the request methods a framework adds to its
        context (mcp-use ``ctx.sample(...)``; ``surfaces.FRAMEWORK_CONTEXT_METHODS``)."""
        if q in S.SDK_ELICIT_HELPERS:
            if legacy_era_only(self.a.parents, node):
                return
            name = q.rsplit(".", 1)[-1]
            form = S.SDK_ELICIT_HELPERS[q][0] == "form"
            self.report(
                "MCP202",
                node,
                _MSG_202.format(subject=_ELICITS.format(where=f" through the SDK helper `{name}`{where}")),
                manual=(
                    "call `ctx.elicit(message, Model)` in an mcp 2.x `MCPServer` tool instead (then "
                    "`fix --strategy interim` asks it through an interim result), or return an `InputRequiredResult`"
                    if form
                    else "a URL elicitation pushed through the helper is not rewritten automatically: return an "
                    "`InputRequiredResult` carrying the URL elicitation and correlate through `requestState`"
                ),
            )
            return
        func = node.func
        if isinstance(func, cst.Attribute):
            pushed = self.a.framework_methods(func.value, fn).get(func.attr.value)
            if pushed == interim.SAMPLING and not legacy_era_only(self.a.parents, node):
                self.report(
                    "MCP201",
                    node,
                    _MSG_201.format(subject=_SAMPLES.format(where=where)),
                    manual=framework_wrapper_manual(
                        self.a, func.value, fn, "sample", "call an LLM provider directly instead of `sample`"
                    ),
                )

    def _is_session(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """What a sampling wrapper is handed is a server session: typed as one, or ``x.session``
        where the module imports the SDK or ``x`` is a registered function's untyped context."""
        if self.a.kind_of(expr, fn) is Kind.SESSION:
            return True
        return (
            isinstance(expr, cst.Attribute)
            and expr.attr.value == "session"
            and (self.a.imports_mcp() or self._untyped_context(expr.value, fn))
        )

    def _untyped_context(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> bool:
        """``expr`` is a ``ctx``/``context`` parameter of ``fn`` that nothing types."""
        return (
            fn is not None
            and isinstance(expr, cst.Name)
            and self.a.kind_of(expr, fn) is None
            and expr.value in self.a.untyped_context_params(fn)
        )

    def _hands_session(self, fn: FunctionInfo, name: str) -> bool:
        """``fn`` hands ``<name>.session`` to a sampling wrapper (pydantic-ai's ``MCPSamplingModel``,
        whose session is an MCP server session): ``name`` is an MCP context."""
        return any(
            self.a.qualname(call.func) in S.SESSION_SAMPLING_WRAPPERS
            and any(
                isinstance(arg.value, cst.Attribute)
                and arg.value.attr.value == "session"
                and isinstance(arg.value.value, cst.Name)
                and arg.value.value.value == name
                for arg in call.args
            )
            for call in fn.calls
        )

    # -- requests through a context parameter the SDK never fills ----------------------------
    def _uninjected_owner(self, recv: cst.BaseExpression, fn: FunctionInfo | None) -> Uninjected | None:
        """Where the untyped ``ctx`` ``recv`` is (``ctx``) or reads the session of
        (``ctx.session``) comes from, when the SDK never fills it:
        :meth:`ModuleAnalysis.uninjected_context`."""
        if isinstance(recv, cst.Attribute) and recv.attr.value == "session":
            recv = recv.value
        return self.a.uninjected_context(recv, fn) if self.a.kind_of(recv, fn) is None else None

    def _through_uninjected(self, node: cst.Call, fn: FunctionInfo | None, where: str) -> None:
        """``ctx.elicit(...)`` / ``ctx.sample(...)`` / ``ctx.session.create_message(...)`` on a
        registered function's ``ctx: Any``: the request the code means to send, which as written
        never runs (the SDK leaves that parameter to the client). Reported manual, with why."""
        func = node.func
        if not isinstance(func, cst.Attribute) or legacy_era_only(self.a.parents, node):
            return
        attr, recv = func.attr.value, func.value
        on_session = isinstance(recv, cst.Attribute) and recv.attr.value == "session"
        if on_session:
            request = (
                interim.SAMPLING
                if attr in S.SESSION_SAMPLING_METHODS
                else interim.ELICITATION
                if attr in S.SESSION_ELICIT_METHODS
                else None
            )
        else:
            request = (
                interim.ELICITATION
                if attr in S.CONTEXT_ELICIT_METHODS
                else interim.SAMPLING
                if attr in S.FASTMCP_SAMPLING_METHODS
                else None
            )
        why = self._why_untyped(recv, fn) if request is not None and fn is not None else None
        if why is None or fn is None:
            return
        built = self._built_from(node, fn, "the request")
        manual = f"{why}, then " + (
            f"migrate it by hand: {built}"
            if built
            else "run `mcpmigrate check` again (the interim fix judges a request through a typed Context)"
        )
        if request == interim.SAMPLING:
            self.report("MCP201", node, _MSG_201.format(subject=_SAMPLES.format(where=where)), manual=manual)
        else:
            self.report("MCP202", node, _MSG_202.format(subject=_ELICITS.format(where=where)), manual=manual)
            self._fail_open(node, fn, FixPlan(manual=manual))

    def _why_untyped(self, recv: cst.BaseExpression, fn: FunctionInfo) -> str | None:
        """What makes the untyped ``ctx`` a request goes through an MCP context, and what the code
        really does with it; None when nothing does (the request is not reported)."""
        tool = self._uninjected_owner(recv, fn)
        if tool is not None:
            return self._never_injected(tool, fn)
        base = recv.value if isinstance(recv, cst.Attribute) and recv.attr.value == "session" else recv
        if (
            not isinstance(base, cst.Name)
            or not self._untyped_context(base, fn)
            or not self._hands_session(fn, base.value)
        ):
            return None
        unserved = (
            f"; no module of the project registers or calls `{fn.qualname}`, so as the project stands it never runs"
            if fn.role is None
            and not (self.a.callers(fn) or self.a.external_callers(fn) or self.a.external_registrations(fn))
            else ""
        )
        return (
            f"`{base.value}` is untyped, but `{fn.qualname}` hands `{base.value}.session` to pydantic-ai's "
            f"`MCPSamplingModel`, so it is an MCP context{unserved}; annotate it with the SDK's Context class first"
        )

    def _never_injected(self, tool: Uninjected, fn: FunctionInfo) -> str:
        """Why a request through a tool's untyped ``ctx`` never reaches a client, as written."""
        param = f"`{tool.param}` of {tool.tool}" if tool.param else f"the context parameter of {tool.tool}"
        through = "" if tool.tool == f"`{fn.qualname}`" else f", which `{fn.qualname}` receives"
        return (
            f"as written this never runs: {param} is not annotated with the SDK's Context (unannotated or "
            f"`Any`) and the SDK injects the Context only into a parameter annotated with it, so it is a tool "
            f"argument the client may fill (None by default){through}; annotate it with the SDK's Context class "
            f"first (the request then fails on 2026-07-28 as reported)"
        )

    def _built_from(self, call: cst.Call, fn: FunctionInfo, subject: str) -> str | None:
        """Why ``call``'s request cannot move into one interim round, in terms of the code: what
        it is built from that ``fn`` computes mid-body (an earlier request's answer, named first)."""
        local = {name for name, _ in fn.assigns}
        built = sorted({n.value for arg in call.args for n in ref_names(arg.value) if n.value in local})
        earlier = [name for name in built if self._answer_of_request(name, fn, 3)]
        if earlier:
            return (
                f"{subject} is built from `{earlier[0]}`, which holds or is computed from the answer to an earlier "
                f"request in `{fn.qualname}`, "
                "so one interim round cannot ask both"
            )
        if built:
            return f"{subject} is built from {', '.join(f'`{n}`' for n in built)}, computed mid-body in `{fn.qualname}`"
        return None

    def _answer_of_request(self, name: str, fn: FunctionInfo, depth: int) -> bool:
        """The local ``name`` holds (or is computed from) what an earlier request answered: its
        value awaits a push on a context or session, or a pydantic-ai run on a sampling wrapper."""
        values = [v for n, v in fn.assigns if n == name]
        for value in values:
            if any(isinstance(n, cst.Call) and self._asks(n, fn) for n in walk(value)):
                return True
            if depth > 0 and any(
                self._answer_of_request(r.value, fn, depth - 1) for r in ref_names(value) if r.value != name
            ):
                return True
        return False

    def _asks(self, call: cst.Call, fn: FunctionInfo) -> bool:
        """``call`` asks the client: a sampling wrapper, a request the detectors report, or a push
        method on ``fn``'s untyped ``ctx`` (``random.sample(...)`` is none of these)."""
        if self.a.qualname(call.func) in S.SESSION_SAMPLING_WRAPPERS or interim.request_kind(self.a, call, fn):
            return True
        func = call.func
        methods = S.CONTEXT_ELICIT_METHODS | S.FASTMCP_SAMPLING_METHODS | S.SESSION_SAMPLING_METHODS
        if not isinstance(func, cst.Attribute) or func.attr.value not in methods:
            return False
        recv = (
            func.value.value
            if isinstance(func.value, cst.Attribute) and func.value.attr.value == "session"
            else func.value
        )
        return self._untyped_context(recv, fn)

    def _raw_kind(self, node: cst.CSTNode) -> str | None:
        for n in walk(node):
            if isinstance(n, cst.Call):
                if self.a.resolves_to(n.func, S.CREATE_MESSAGE_REQUEST):
                    return interim.SAMPLING
                if self.a.resolves_to(n.func, S.ELICIT_REQUEST):
                    return interim.ELICITATION
            if isinstance(n, cst.Dict):
                m = dict_get(n, "method")
                value = string_value(m.value) if m is not None else None
                if value == S.SAMPLING_METHOD:
                    return interim.SAMPLING
                if value == S.ELICITATION_METHOD:
                    return interim.ELICITATION
        return None

    # -- MCP207 ----------------------------------------------------------------------------
    def _fail_open(self, call: cst.Call, fn: FunctionInfo | None, plan: FixPlan) -> None:
        fix, manual = plan.fix, plan.manual
        tr = interim.fail_open_try(self.a, call)
        if tr is None:
            return
        refused = False  # an earlier handler already stops on the 2026-07-28 failure
        for handler in tr.handlers:
            if self._catches_no_back_channel(handler) and not self._handler_goes_on(handler, fn):
                # `except NoBackChannelError: return "refused"` (fastmcp 4: ToolError) before the
                # handler that goes on: on a 2026-07-28 connection the push fails with exactly that
                # error (mcp 2.x: NoBackChannelError subclasses MCPError; handlers match in order),
                # so the gate holds there; a later handler only sees legacy failures.
                refused = True
                continue
            if refused or not self._handler_goes_on(handler, fn):
                continue
            if _never_push_failure(handler) or self._asks_again(tr, handler):
                # `except ValidationError:` (the code's own parsing) never sees the push fail;
                # `continue` in a `while` asks again: the failure never reaches the guarded action
                continue
            if not self._says_yes(handler, fn) and not (_can_complete(tr.body) and self._something_follows(tr, fn)):
                # the failure path falls into code the answered path never reaches (the try body
                # always returns: a fallback), or into nothing: no guarded action runs unconfirmed
                continue
            tool, several = self._unconfirmed(fn)
            runs = "run" if several else "runs"
            if fix is not None:
                # the interim fix closes the gate by rewriting the request it guards: the same site
                self.planned("MCP207", handler, _MSG_207.format(tool=tool, runs=runs), interim.plan_gate(plan))
            else:
                self.report(
                    "MCP207",
                    handler,
                    _MSG_207.format(tool=tool, runs=runs),
                    manual=f"make the failure path stop (return or raise) instead of going on; {manual}",
                )
            return

    def _asks_again(self, tr: cst.Try, handler: cst.ExceptHandler) -> bool:
        """The handler goes back to the question: it ends with ``continue``, or falls off the end
        of the ``while`` body the ``try`` closes (a wizard step asked until it is answered)."""
        body = handler.body.body if isinstance(handler.body, cst.IndentedBlock) else []
        last = body[-1] if body else None
        stmt = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
        if isinstance(stmt, cst.Continue):
            return True
        if isinstance(stmt, (cst.Return, cst.Raise, cst.Break)):
            return False
        block = self.a.parents.get(id(tr))
        loop = self.a.parents.get(id(block))
        return (
            isinstance(block, cst.IndentedBlock)
            and isinstance(loop, cst.While)
            and loop.body is block
            and block.body[-1] is tr
        )

    def _catches_no_back_channel(self, handler: cst.ExceptHandler) -> bool:
        """The handler names the error a 2026-07-28 push raises: mcp 2.x ``NoBackChannelError``,
        or fastmcp 4's ``ToolError`` (alone or in a tuple)."""
        if handler.type is None:
            return False
        types = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
        for t in types:
            name = (get_full_name_for_node(t) or "").rsplit(".", 1)[-1]
            if name == "NoBackChannelError" or (name == "ToolError" and S.FASTMCP in self.a.generations):
                return True
        return False

    def _unconfirmed(self, fn: FunctionInfo | None) -> tuple[str, bool]:
        """What runs without the user's confirmation, and whether that is several tools: ``fn``
        when it is a tool (or handler); for a consent helper, the tools that call it, through
        other helpers too; where a chain of callers ends in a function nothing in this module
        registers or calls (a tool registered by another module: ``server.tool()(get_data)``),
        that function."""
        if fn is None:
            return "the guarded action", False
        if fn.role is not None:
            return f"`{fn.qualname}`", False
        entries: list[str] = []
        seen: set[int] = {id(fn)}
        todo = [fn]
        while todo:
            f = todo.pop()
            # callers in other modules of the project (the project pass): tools first
            entries += [c.label for c in sorted(self.a.external_callers(f), key=lambda c: c.rank)]
            for caller, _call in self.a.callers(f):
                if id(caller) in seen:
                    continue
                seen.add(id(caller))
                if caller.role is not None or not (self.a.callers(caller) or self.a.external_callers(caller)):
                    entries.append(f"`{caller.qualname}`")  # a tool, or the end of the chain in the project
                else:
                    todo.append(caller)
        if not entries:
            return (
                f"`{fn.qualname}` (no tool of this module calls it: it is registered or called elsewhere)",
                False,
            )
        unique = list(dict.fromkeys(entries))
        return f"{', '.join(unique)} (through `{fn.qualname}`)", len(unique) > 1

    def _says_yes(self, handler: cst.ExceptHandler, fn: FunctionInfo | None = None) -> bool:
        """The handler ends with ``return True`` (answers "confirmed"), or returns a parameter
        of ``fn`` whose default is ``True`` or that some caller passes ``True`` for
        (``except Exception: return default`` with ``confirm(ctx, "…", default=True)``)."""
        body = handler.body
        last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else None
        stmt = (
            last.body[-1]
            if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and last.body
            else None
        )
        if isinstance(body, cst.SimpleStatementSuite) and body.body:
            stmt = body.body[-1]
        if not isinstance(stmt, cst.Return) or not isinstance(stmt.value, cst.Name):
            return False
        value = stmt.value.value
        return value == "True" or (fn is not None and self._param_may_be_true(fn, value))

    def _param_may_be_true(self, fn: FunctionInfo, name: str) -> bool:
        params = list(fn.node.params.posonly_params) + list(fn.node.params.params)
        everything = params + list(fn.node.params.kwonly_params)
        param = next((p for p in everything if p.name.value == name), None)
        if param is None:
            return False
        if isinstance(param.default, cst.Name) and param.default.value == "True":
            return True
        index = next((i for i, p in enumerate(params) if p is param), None)
        if index is not None and fn.class_name and params and params[0].name.value in ("self", "cls"):
            index -= 1
        for _caller, call in self.a.callers(fn):
            positional = [a for a in call.args if a.keyword is None and not a.star]
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == name:
                    if isinstance(arg.value, cst.Name) and arg.value.value == "True":
                        return True
            if index is not None and index < len(positional):
                v = positional[index].value
                if isinstance(v, cst.Name) and v.value == "True":
                    return True
        return False

    def _something_follows(self, node: cst.CSTNode, fn: FunctionInfo | None) -> bool:
        """A statement runs after ``node`` in its function (in its block or an enclosing one)."""
        pm = self.a.parents
        cur: cst.CSTNode = node
        parent = pm.get(id(cur))
        while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Module)):
            if isinstance(parent, cst.IndentedBlock):
                body = list(parent.body)
                if any(x is cur for x in body) and body[-1] is not cur:
                    return True
            cur, parent = parent, pm.get(id(parent))
        if isinstance(parent, cst.Module):
            body = list(parent.body)
            return any(x is cur for x in body) and body[-1] is not cur
        return False

    def _handler_goes_on(self, handler: cst.ExceptHandler, fn: FunctionInfo | None = None) -> bool:
        """The handler falls through to the code after the ``try`` (or answers "yes")."""
        body = handler.body
        if isinstance(body, cst.SimpleStatementSuite) and body.body:  # `except X: return …` on one line
            last_small = body.body[-1]
            if isinstance(last_small, (cst.Raise, cst.Continue, cst.Break)):
                return False
            if isinstance(last_small, cst.Return):
                return self._says_yes(handler, fn)
            return True
        if not isinstance(body, cst.IndentedBlock) or not body.body:
            return True
        last = body.body[-1]
        if isinstance(last, cst.SimpleStatementLine):
            stmt = last.body[-1]
            if isinstance(stmt, cst.Raise):
                return False
            if isinstance(stmt, cst.Return):
                return self._says_yes(handler, fn)
            if isinstance(stmt, (cst.Continue, cst.Break)):
                return False
        return True

    # -- MCP206 ----------------------------------------------------------------------------
    def visit_Dict(self, node: cst.Dict) -> None:
        rt = dict_get(node, "resultType")
        if rt is not None and string_value(rt.value) == S.INPUT_REQUIRED:
            self._unsupported_interim(node)
        method = dict_get(node, "method")
        value = string_value(method.value) if method is not None else None
        if (
            value in (S.SAMPLING_METHOD, S.ELICITATION_METHOD)
            and not self.interim_depth
            and (dict_get(node, "jsonrpc") is not None or dict_get(node, "id") is not None)
        ):
            rule = "MCP201" if value == S.SAMPLING_METHOD else "MCP202"
            msg = (
                _MSG_201.format(subject="A hand-built JSON-RPC request asks the client's model to sample")
                if rule == "MCP201"
                else _MSG_202.format(subject="A hand-built JSON-RPC request pushes an elicitation to the client")
            )
            plan = interim_jsonrpc.plan(self.a, self.det.config, node, value)
            self.reports.append(Report.planned(rule, node, msg, plan))

    def _served_methods(self) -> dict[int, set[str]]:
        """Function id → the MCP methods it serves (registrations, decorators, on_…= keywords,
        add_request_handler)."""
        if self._methods is not None:
            return self._methods
        out: dict[int, set[str]] = {}
        a = self.a

        def note(expr: cst.CSTNode, method: str) -> None:
            target = a.function_for_expr(expr)
            if target is not None:
                out.setdefault(id(target), set()).add(method)

        for f in a.functions:
            for dec in f.node.decorators:
                d = dec.decorator
                target = d.func if isinstance(d, cst.Call) else d
                if isinstance(target, cst.Attribute) and target.attr.value in S.DECORATOR_METHODS:
                    out.setdefault(id(f), set()).add(S.DECORATOR_METHODS[target.attr.value])
        for n in a.flat.order:
            if not isinstance(n, cst.Call):
                continue
            if a.qualname(n.func) in S.LOWLEVEL_SERVERS:
                for arg in n.args:
                    if arg.keyword is not None and arg.keyword.value in S.LOWLEVEL_REQUEST_KWARGS:
                        note(arg.value, S.LOWLEVEL_REQUEST_KWARGS[arg.keyword.value])
            if isinstance(n.func, cst.Attribute) and n.func.attr.value == "add_request_handler" and len(n.args) >= 2:
                m = string_value(n.args[0].value)
                if m:
                    note(n.args[-1].value, m)
        self._methods = out
        return out

    def _methods_of(self, fn: FunctionInfo, seen: set[int] | None = None) -> set[str]:
        seen = seen or set()
        if id(fn) in seen:
            return set()
        seen.add(id(fn))
        own = self._served_methods().get(id(fn))
        if own:
            return own
        out: set[str] = set()
        for caller, _ in self.a.callers(fn):
            out |= self._methods_of(caller, seen)
        return out

    def _dispatch_method(self, node: cst.CSTNode) -> str | None:
        """Hand-rolled dispatch: the method literal of the innermost ``if method == "…"`` /
        ``case "…"`` branch around ``node``."""
        pm = self.a.parents
        child: cst.CSTNode = node
        cur = pm.get(id(node))
        while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module)):
            if isinstance(cur, cst.If) and child is cur.body:
                for comp_node in walk(cur.test):
                    if isinstance(comp_node, cst.Comparison):
                        for c in comp_node.comparisons:
                            if isinstance(c.operator, cst.Equal):
                                for side in (comp_node.left, c.comparator):
                                    v = string_value(side)
                                    if v and "/" in v:
                                        return v
            if isinstance(cur, cst.MatchCase) and isinstance(cur.pattern, cst.MatchValue):
                v = string_value(cur.pattern.value)
                if v and "/" in v:
                    return v
            child, cur = cur, pm.get(id(cur))
        return None

    def _unsupported_interim(self, node: cst.CSTNode) -> None:
        method = self._dispatch_method(node)
        methods = {method} if method else set()
        if not methods:
            fn = self.fn(node)
            if fn is not None:
                methods = self._methods_of(fn)
        bad = sorted(m for m in methods if m not in S.INTERIM_METHODS)
        if bad:
            self.report(
                "MCP206",
                node,
                _MSG_206.format(method=", ".join(f"`{m}`" for m in bad)),
                manual="no automatic fix: the request must be answered completely",
            )


def _can_complete(block: cst.BaseSuite) -> bool:
    """The block can run to its end (its last statement is not a ``return`` or ``raise``)."""
    body = block.body if isinstance(block, cst.IndentedBlock) else [block]
    last = body[-1] if body else None
    if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)) and last.body:
        return not isinstance(last.body[-1], (cst.Return, cst.Raise))
    return True


__all__ = ["SamplingElicitationDetector", "get_full_name_for_node"]

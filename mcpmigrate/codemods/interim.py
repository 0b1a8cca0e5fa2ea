"""The ``interim`` fix (DESIGN §4): a request the server pushed to the client mid-call (roots,
sampling, elicitation) moves into the multi-round-trip pattern, era-portable where the SDK allows.

Spec: 2026-07-28 removes server-to-client requests; ``tools/call``, ``prompts/get`` and
``resources/read`` may answer with ``InputRequiredResult`` (``inputRequests`` keyed by the server,
the client retries with ``inputResponses`` at the same keys; declining is not retrying).
SDK: mcp-python-surfaces.md §5.2 (resolver markers), §6.1 (low-level recipe), §11.

Forms, per surface (``plan_request`` decides, ``apply`` rewrites; both use ``_site`` so the label
``check`` shows is the one of the rewrite ``fix`` makes):

- mcp 2.x ``MCPServer`` tool/prompt/resource: the request becomes a resolver returning
  ``Elicit(message, Schema)`` / ``Sample(messages, max_tokens=…, …)`` / ``ListRoots()``, injected
  with ``Annotated[ElicitationResult[Schema] | CreateMessageResult | ListRootsResult, Resolve(fn)]``.
  The same object the request returned reaches the body, so accept/decline/cancel branches, the
  schema and every sampling argument are kept. The SDK does the era branching and seals its own
  ``requestState``. A resolver may only use the tool's arguments and module-level names: a request
  built from other locals is manual, naming them. mcp 2.3 runs resolvers for tools only, so a
  request in an ``MCPServer`` prompt or resource is manual (the message names its guard pattern).
  A local alias of the context (``c = ctx``, ``session = ctx.session``, bound once at the top of
  the tool) is followed, and removed when the request was its only use.
  A helper that makes the request (``async def confirm(ctx, what): r = await ctx.elicit(...)``) is
  rewritten when every caller is a module-level tool that awaits it on every path, with its own
  context and with values built from its arguments and module-level names: each call gets its own
  resolver (the helper's parameters bound to what that call passes), the tool its ``Resolve``
  parameter, and the helper takes the answer where it took the context (before it, when it still
  uses the context). Anything else (a caller that is not a tool, a value that exists only mid-body,
  a helper passed around or making several requests) is manual, naming the caller and the names.
- mcp 2.x low-level ``Server(on_call_tool=…)``: on a 2026-07-28 connection the handler returns
  ``InputRequiredResult(input_requests={key: <Request>})`` while ``params.input_responses`` lacks
  the answer and reads it on the retry; on a legacy connection it keeps the original request (a
  hand-built interim result there is ``-32603``). No ``requestState`` is written: the handler
  re-runs from its arguments and the answers (nothing to protect).
- fastmcp 4.x tool/prompt/resource (``from fastmcp import FastMCP, Context``): the guard pattern. On a
  2026-07-28 connection the tool returns ``mcp_types.InputRequiredResult(input_requests={key: …})`` while
  ``ctx.input_responses`` lacks the answer and reads it on the retry (``ctx.elicit``'s outcome is rebuilt
  with fastmcp's own ``parse_elicit_response_type`` / ``handle_elicit_accept``, so accept/decline/cancel
  and the response type are kept); on a legacy connection the original request stays (fastmcp 4
  rejects an interim result there). fastmcp seals any ``requestState``; the fix writes none.
  fastmcp 2.x/3.x code (``ctx.sample``, ``ctx.list_roots``, ``sampling_handler=``, an ``elicit`` without
  a response type, mcp 1.x imports) is refused, naming the fastmcp 4 upgrade.
- The project's dependency pins (:mod:`mcpmigrate.pins`: pyproject, requirements, setup.cfg) are heard
  where the code leaves the generation open: ``fastmcp<4`` (or ``mcp<2``) refuses fastmcp code naming
  the pin; ``fastmcp>=4`` (or ``mcp>=2``) makes it fastmcp 4 whatever else the module uses (a call
  fastmcp 4 removed is still refused at its own site); ``mcp<2`` refuses mcp code; ``mcp>=2`` places
  code the imports do not. Fix descriptions and refusals name the pin.
- Side effects before the request change order (resolver: the question is asked before the body;
  low-level: the code before it runs once per round): such fixes are **unsafe**. For a helper this
  covers the helper's statements before the request and the calling tool's before the call, and a
  statement before the call that can return or raise (the question was not asked on that path).
- A ``try`` around the request whose ``except`` goes on (the fail-open gate of MCP207) is unwrapped
  and the fallback dropped: unsafe (clients without the capability now get an error instead of the
  unconfirmed action).
- mcp 1.x: refused (no interim form; name the SDK upgrade and, for roots, ``param``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from mcpmigrate import pins
from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, Safety

STRATEGY = "interim"
RULES = ("MCP101", "MCP201", "MCP202", "MCP207")

ROOTS, SAMPLING, ELICITATION = "roots", "sampling", "elicitation"
HL_ROLES = {"tool", "prompt", "resource"}
LL_ROLES = {"lowlevel-tool", "lowlevel-prompt", "lowlevel-resource"}
_REMOVE = object()

REFUSE_MCP1 = (
    "mcp 1.x has no interim form (it cannot serve 2026-07-28 at all): upgrade to mcp 2.x "
    "(`MCPServer`, or `Server(on_call_tool=…)`) and run `fix --strategy interim` again"
)
REFUSE_MCP1_ROOTS = REFUSE_MCP1 + ", or take the directory as a tool parameter with `fix --strategy param`"
FASTMCP_REFUSE = (
    "fastmcp 2.x/3.x code ({why}) has no interim form: fastmcp 4's guard pattern (return "
    "`InputRequiredResult(input_requests={{…}})` while `ctx.input_responses` lacks the answer, read it on "
    "the retry) needs fastmcp 4 (mcp>=2.3). Upgrade to fastmcp 4{how} and run `fix --strategy interim` again"
)
# fastmcp 2.x/3.x context methods fastmcp 4 removed, and what a fastmcp 4 tool does instead.
_FASTMCP3_ONLY = {
    "sample": ", sample through `ctx.session.create_message(...)` (or call the model provider directly: "
              "sampling is deprecated)",
    "sample_step": ", sample through `ctx.session.create_message(...)` (or call the model provider directly: "
                   "sampling is deprecated)",
    "list_roots": ", ask through `ctx.session.list_roots()` (or take the directory as a tool parameter with "
                  "`fix --strategy param`)",
    "send_tool_list_changed": "", "send_resource_list_changed": "", "send_prompt_list_changed": "",
}
# mcp 2.3 runs resolvers for tools only (tools/base.py): a prompt or resource would list the
# `Resolve` parameter as an argument it requires.
MCPSERVER_NOT_TOOL = (
    "mcp 2.x `MCPServer` injects `Resolve(...)` parameters into tools only (a {role} would require it as an "
    "argument): in the {role}, return `InputRequiredResult(input_requests={{…}})` on 2026-07-28 "
    "(`is_version_at_least(ctx.protocol_version, \"2026-07-28\")`) while `ctx.input_responses` lacks the answer, "
    "read it on the retry, and keep the request on legacy connections; rewrite by hand"
)
# Builtins a resolver may use, and calls that have no side effect before the request.
_BUILTINS = set(dir(__import__("builtins")))
_PURE_CALLS = {
    "len", "str", "int", "float", "bool", "list", "dict", "tuple", "set", "frozenset", "sorted", "min", "max",
    "sum", "any", "all", "isinstance", "repr", "format", "range", "enumerate", "zip", "abs", "round",
    "Path", "PurePath", "PurePosixPath", "join", "strip", "lower", "upper", "split", "format_map", "get",
    "SamplingMessage", "TextContent", "ModelPreferences", "ModelHint",
}


# ---------------------------------------------------------------------------------------------
# Small tree helpers





def _ref_names(node: cst.CSTNode) -> list[cst.Name]:
    """Names read in ``node`` (not attribute names or keywords), minus comprehension/lambda locals."""
    out: list[cst.Name] = []
    bound: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Name):
            out.append(n)
            continue
        if isinstance(n, cst.Attribute):
            stack.append(n.value)
            continue
        if isinstance(n, cst.Arg):
            stack.append(n.value)
            continue
        if isinstance(n, cst.CompFor):
            bound |= {x.value for x in walk(n.target) if isinstance(x, cst.Name)}
        if isinstance(n, cst.Lambda):
            bound |= {p.name.value for p in n.params.params}
        stack.extend(n.children)
    return [x for x in out if x.value not in bound]


def _enclosing_stmt(a: ModuleAnalysis, node: cst.CSTNode) -> cst.CSTNode | None:
    pm = a.parents
    cur: cst.CSTNode | None = node
    while cur is not None and not isinstance(cur, cst.BaseStatement):
        cur = pm.get(id(cur))
    return cur


def _base_name(expr: cst.BaseExpression) -> str | None:
    cur: cst.CSTNode = expr
    while True:
        if isinstance(cur, cst.Name):
            return cur.value
        if isinstance(cur, (cst.Attribute, cst.Subscript)):
            cur = cur.value
        elif isinstance(cur, cst.Call):
            cur = cur.func
        else:
            return None


def _module_names(a: ModuleAnalysis) -> set[str]:
    names = getattr(a, "_interim_module_names", None)
    if names is None:
        names = set(a.imports) | {n for n, _ in a.module_assigns} | set(a.class_bases)
        names |= {f.name for f in a.functions if f.parent is None and f.class_name is None}
        for stmt in a.module.body:
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
                names.add(stmt.name.value)
        a._interim_module_names = names  # type: ignore[attr-defined]
    return names


def _all_names(a: ModuleAnalysis) -> set[str]:
    names = getattr(a, "_interim_all_names", None)
    if names is None:
        names = {n.value for n in walk(a.module) if isinstance(n, cst.Name)}
        a._interim_all_names = names  # type: ignore[attr-defined]
    return names


def _fresh(taken: set[str], base: str) -> str:
    name, i = base, 2
    while name in taken:
        name, i = f"{base}_{i}", i + 1
    taken.add(name)
    return name


# ---------------------------------------------------------------------------------------------
# What kind of request a call is, and on which surface


def request_kind(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo | None) -> str | None:
    """``roots`` / ``sampling`` / ``elicitation`` when ``call`` pushes such a request through a
    session or a context (the detectors' definition), else None."""
    if not isinstance(call.func, cst.Attribute) or legacy_only(a, call):
        return None
    attr = call.func.attr.value
    recv = call.func.value
    kind = a.kind_of(recv, fn)
    session = kind is Kind.SESSION or (kind is None and isinstance(recv, cst.Attribute) and recv.attr.value == "session" and a.imports_mcp())
    if attr == "list_roots" and (session or kind is Kind.CONTEXT_FASTMCP):
        return ROOTS
    if attr in S.SESSION_SAMPLING_METHODS and session:
        return SAMPLING
    if attr in S.FASTMCP_SAMPLING_METHODS and kind is Kind.CONTEXT_FASTMCP:
        return SAMPLING
    if attr in S.SESSION_ELICIT_METHODS and session:
        return ELICITATION
    if attr in S.CONTEXT_ELICIT_METHODS and kind in CONTEXTS:
        return ELICITATION
    return None


def legacy_only(a: ModuleAnalysis, node: cst.CSTNode) -> bool:
    """``node`` runs only on a legacy connection: it sits in the ``else`` of
    ``if is_version_at_least(<…>.protocol_version, "2026-07-28")`` (what the low-level fix writes),
    or in the body of ``if not is_version_at_least(…)``. Such a push is already migrated."""
    pm = a.parents
    child: cst.CSTNode = node
    cur = pm.get(id(node))
    while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module)):
        if isinstance(cur, cst.Else):
            parent_if = pm.get(id(cur))
            if isinstance(parent_if, cst.If) and _modern_test(parent_if.test):
                return True
        if isinstance(cur, cst.If) and child is cur.body and isinstance(cur.test, cst.UnaryOperation) \
                and isinstance(cur.test.operator, cst.Not) and _modern_test(cur.test.expression):
            return True
        child, cur = cur, pm.get(id(cur))
    return False


def _modern_test(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Call):
        return False
    f = test.func
    name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else ""
    return name == "is_version_at_least" and len(test.args) == 2 and isinstance(test.args[1].value, cst.SimpleString) \
        and "2026-07-28" in test.args[1].value.value


def _callers_generation(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
    """For a helper the module cannot place: the one generation of the handlers that call it
    (e.g. mcp 1.x when every caller is registered with the 1.x decorator API)."""
    gens: set[str] = set()
    seen: set[int] = set()
    todo = [fn]
    while todo:
        f = todo.pop()
        for caller, _call in a.callers(f):
            if id(caller) in seen:
                continue
            seen.add(id(caller))
            if caller.role is not None and caller.server_generation:
                gens.add(caller.server_generation)
            elif caller.role is None:
                todo.append(caller)
    return gens.pop() if len(gens) == 1 else None


def _dual_sdk_fallback(a: ModuleAnalysis) -> str | None:
    """``try: from mcp.server.mcpserver import …`` / ``except ImportError: from mcp.server.fastmcp
    import …``: the module runs on mcp 2.x and keeps an mcp 1.x fallback. Returns the refusal."""
    for stmt in a.module.body:
        if not isinstance(stmt, cst.Try):
            continue
        tried = {m for n in walk(stmt.body) if isinstance(n, cst.ImportFrom) and n.module is not None
                 for m in [code_of(n.module)]}
        fallback = {m for h in stmt.handlers for n in walk(h.body) if isinstance(n, cst.ImportFrom) and n.module is not None
                    for m in [code_of(n.module)]}
        if any(m.startswith("mcp.server.mcpserver") for m in tried) and any(m.startswith("mcp.server.fastmcp") for m in fallback):
            return ("this module also supports mcp 1.x (the `except ImportError` fallback to `mcp.server.fastmcp`); "
                    "resolvers exist only in mcp 2.x: drop the 1.x fallback to use `fix --strategy interim`")
    return None


def _generation(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo) -> str | None:
    recv = call.func.value  # type: ignore[attr-defined]
    base = _base_name(recv)
    kinds = [a.kind_of(recv, fn)]
    if base is not None:
        kinds.append(a.lookup(base, fn))
    inner = recv
    while isinstance(inner, cst.Attribute):  # `get_context().session`: the context the session comes from
        inner = inner.value
        kinds.append(a.kind_of(inner, fn))
    for k in kinds:
        g = a.generation_of_kind(k)
        if g:
            return g
    if fn.server_generation in (S.MCP1, S.MCP2, S.FASTMCP):
        return fn.server_generation
    return a.module_generation()


@dataclass(eq=False)
class _Site:
    form: str                      # resolver | lowlevel
    kind: str
    fn: FunctionInfo
    call: cst.Call
    stmt: cst.BaseStatement
    await_node: cst.Await
    result: str | None = None      # the variable the statement assigns (`x = await …`)
    unsafe: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)        # resolver: tool arguments it takes
    unwrap: cst.Try | None = None
    ctx_param: str | None = None
    alone: bool = False            # checked as a member of a group (no group check of its own)
    group: list["_Site"] | None = None  # low-level/fastmcp: every request of the handler, in order
    aliases: list[cst.SimpleStatementLine] = field(default_factory=list)  # `session = ctx.session` on the way
    callers: list["_Caller"] | None = None  # a helper's request: one resolver per calling tool
    helper_params: list[str] = field(default_factory=list)  # helper parameters the request is built from
    pin: str | None = None         # the dependency pin the SDK generation was decided by, when one was


@dataclass(eq=False)
class _Caller:
    """A tool's call of a helper that makes the request: the tool gets the resolver."""

    fn: FunctionInfo
    call: cst.Call
    ctx_arg: cst.Arg                       # the argument that hands the helper the context
    ctx_param: str                         # the tool's own context parameter
    values: dict[str, cst.BaseExpression]  # helper parameter -> what this call gives it
    args: list[str] = field(default_factory=list)  # tool arguments the resolver takes
    aliases: list[cst.SimpleStatementLine] = field(default_factory=list)


_API = {ROOTS: "list_roots", SAMPLING: "create_message", ELICITATION: "elicit"}


def _site(a: ModuleAnalysis, call: cst.CSTNode, fn: FunctionInfo | None, kind: str, alone: bool = False) -> _Site | str:
    """The interim rewrite of one request, or the reason it stays manual."""
    if fn is None or not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
        return ("the request is not a direct call inside a request handler (made at module level, or the method "
                "is passed as a callable): rewrite by hand")
    gen, refusal, pin_note = _pinned_generation(a, _generation(a, call, fn) or _callers_generation(a, fn), kind)
    if refusal:
        if gen == S.FASTMCP and call.func.attr.value in _FASTMCP3_ONLY and _FASTMCP3_ONLY[call.func.attr.value]:
            # the whole path: fastmcp 4 also removed this method (`ctx.sample`), so say what replaces it
            refusal = refusal.replace("Upgrade to fastmcp 4 and", f"Upgrade to fastmcp 4 (which removed `ctx.{call.func.attr.value}`)"
                                      f"{_FASTMCP3_ONLY[call.func.attr.value]}, and")
        return refusal
    if gen == S.MCP1:
        dual = _dual_sdk_fallback(a)
        if dual:
            return dual + (", or take the directory as a tool parameter with `fix --strategy param`, which works on both"
                           if kind == ROOTS else "")
        return REFUSE_MCP1_ROOTS if kind == ROOTS else REFUSE_MCP1
    if gen == S.FASTMCP:
        reason = _fastmcp3_reason(a, call, fn, kind, pinned=pin_note)
        if reason:
            return reason
    pm = a.parents
    aw = pm.get(id(call))
    if not (isinstance(aw, cst.Await) and aw.expression is call) or not fn.is_async:
        return "the request is not awaited directly in an async handler: rewrite by hand"
    helper = fn.role not in HL_ROLES | LL_ROLES
    if helper and gen != S.MCP2:
        where = f"`{fn.qualname}`"
        return (f"the request is made in the helper {where}, not in the tool or handler itself: an interim "
                "result can only be returned by the handler; move the request into it (or pass the answer in)")
    if gen not in (S.MCP2, S.FASTMCP):
        return "cannot tell which SDK this server is written for (no mcp 2.x `MCPServer` or low-level `Server`)"
    stmt = _enclosing_stmt(a, call)
    assert stmt is not None
    form = "fastmcp" if gen == S.FASTMCP else "resolver" if fn.role in HL_ROLES or helper else "lowlevel"
    if form == "fastmcp" and fn.role not in HL_ROLES:
        return "the request is not made in a fastmcp tool, prompt or resource: rewrite by hand"
    if form == "resolver" and fn.role != "tool" and not helper:
        return MCPSERVER_NOT_TOOL.format(role=fn.role)
    site = _Site(form, kind, fn, call, stmt, aw, alone=alone, pin=pin_note)  # type: ignore[arg-type]
    small = pm.get(id(aw))
    if (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(small, cst.Assign)
            and small is stmt.body[0] and small.value is aw and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)):
        name = small.targets[0].target.value
        if sum(1 for n, _ in fn.assigns if n == name) == 1 and name not in fn.param_names():
            site.result = name
    reason = _where_reason(a, site)
    if reason:
        return reason
    if helper:
        site.unsafe += _side_effects_before(a, site, "the question is now asked before the calling tool's body runs")
        exits = _exits_before(a, site.unwrap or site.stmt, fn)
        if exits:
            site.unsafe.append(f"`{exits}` can end `{fn.name}` before the request today; the question is now asked on "
                               "every call")
        return _helper_reason(a, site) or site
    site.unsafe += _side_effects_before(a, site)
    if site.form == "resolver":
        direct = a.callers(fn)
        if direct:
            caller = direct[0][0].qualname
            return (f"`{fn.name}` is also called directly (in `{caller}`): a `Resolve` parameter would have to be "
                    "passed at that call too; rewrite by hand (or call a plain helper from both)")
        exits = _exits_before(a, site.unwrap or site.stmt, fn)
        if exits:
            site.unsafe.append(f"`{exits}` can end `{fn.name}` before the request today; the question is now asked on "
                               "every call")
        reason = _resolver_reason(a, site)
    elif site.form == "fastmcp":
        reason = _fastmcp_reason(a, site) or _lowlevel_reason(a, site)
    else:
        reason = _lowlevel_reason(a, site)
    return reason or site


def _answer_name(site: _Site) -> str | None:
    """``x`` when the request's statement is ``x = await <request>`` (whether or not ``x`` is
    bound elsewhere too)."""
    stmt = site.stmt
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        small = stmt.body[0]
        if small.value is site.await_node and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            return small.targets[0].target.value
    return None


def _unassigned_reason(site: _Site) -> str:
    """Why the answer has no name of its own: not assigned, or its name is bound elsewhere too."""
    name = _answer_name(site)
    if name is None:
        return "the request's answer is not assigned to a variable (`x = await …`): assign it first, then run the fix again"
    if name in site.fn.param_names():
        return f"the answer is stored in `{name}`, a parameter of `{site.fn.name}`: give it a name of its own, then run the fix again"
    return (f"the answer's name `{name}` is bound more than once in `{site.fn.name}`: give this answer a name that is "
            "bound only here, then run the fix again")


def _exist(names: list[str]) -> str:
    """``only exists`` / ``only exist``: the verb for the blocking names of a manual message."""
    return "only exists" if len(dict.fromkeys(names)) == 1 else "only exist"


def _where_reason(a: ModuleAnalysis, site: _Site) -> str | None:
    """Where in the handler the request may sit: the handler's own block (a resolver: its top
    level, or a ``try`` at its top level that only guards the request and its uses)."""
    pm = a.parents
    body = site.fn.node.body
    child: cst.CSTNode = site.stmt
    cur = pm.get(id(child))
    while cur is not None and cur is not body:
        if isinstance(cur, cst.Try) and child is cur.body:
            if site.unwrap is not None or cur.orelse is not None or cur.finalbody is not None or not cur.handlers:
                return "the request sits in a `try` with `else`/`finally` (or nested `try`s): rewrite by hand"
            rest = [s for s in cur.body.body if s is not site.stmt]  # type: ignore[attr-defined]
            if site.result is None and _answer_name(site) is not None:
                return _unassigned_reason(site)
            uses = {site.result}  # the answer, and locals computed from it (`text = result.content.text`)
            for s in rest:
                if any(n.value in uses for n in _ref_names(s)):
                    uses |= _assigned(s)
            if site.result is None or not all(
                any(n.value in uses for n in _ref_names(s)) for s in rest
            ) or pm.get(id(child)) is None:
                return ("the `try` around the request also guards statements that do not use its answer: "
                        "unwrap it by hand")
            site.unwrap = cur
            handlers = ", ".join(code_of(h.type) if h.type is not None else "everything" for h in cur.handlers)
            site.unsafe.append(f"the `try` around the request is unwrapped and its `except {handlers}` fallback is "
                               "dropped (on 2026-07-28 it ran the rest of the body without the answer)")
        elif isinstance(cur, (cst.For, cst.While, cst.CompFor)):
            return "the request is made in a loop: each round would need its own stable key; rewrite by hand"
        elif isinstance(cur, (cst.If, cst.Else, cst.With, cst.Match, cst.MatchCase)) and site.form == "resolver":
            return ("the request runs only on some paths (inside `if`/`with`/`match`): a resolver would ask on "
                    "every call; rewrite by hand")
        elif isinstance(cur, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return "the request is made in a nested function: rewrite by hand"
        child, cur = cur, pm.get(id(cur))
    if site.form == "resolver" and site.unwrap is not None and pm.get(id(site.unwrap)) is not body:
        return "the `try` around the request is not at the top level of the tool: rewrite by hand"
    return None


def _side_effects_before(a: ModuleAnalysis, site: _Site, when: str | None = None) -> list[str]:
    """Statements that run before the request and do something (a call other than a pure
    builtin, an ``await``): with the interim pattern they run after the question (resolver) or
    once per round (low-level)."""
    pm = a.parents
    found: list[str] = []
    anchor: cst.CSTNode = site.unwrap if site.unwrap is not None and site.form == "resolver" else site.stmt
    chain: list[cst.CSTNode] = []
    cur: cst.CSTNode | None = anchor
    while cur is not None and cur is not site.fn.node:
        chain.append(cur)
        cur = pm.get(id(cur))
    for node in chain:
        block = pm.get(id(node))
        if not isinstance(block, cst.IndentedBlock):
            continue
        for s in block.body:
            if s is node:
                break
            if _has_effect(s):
                found.append(f"`{code_of(s).strip().splitlines()[0]}` runs before the request today")
    if site.unwrap is not None and site.form == "resolver":
        for s in site.unwrap.body.body:  # type: ignore[attr-defined]
            if s is site.stmt:
                break
            if _has_effect(s):
                found.append(f"`{code_of(s).strip().splitlines()[0]}` runs before the request today")
    if not found:
        return []
    when = when or ("the question is now asked before the tool body runs" if site.form == "resolver"
                    else "on 2026-07-28 the code before the request runs once per round")
    return [f"{'; '.join(found[:2])} — {when}"]


def _has_effect(stmt: cst.CSTNode) -> bool:
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.Return):
            continue  # a path that returns never reaches the request
        stack.extend(n.children)
        if isinstance(n, cst.Await):
            return True
        if isinstance(n, cst.Call):
            f = n.func
            last = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else None
            if last not in _PURE_CALLS and not (last or "a")[0].isupper():  # constructors are pure
                return True
        if isinstance(n, (cst.Raise, cst.Del, cst.Global, cst.Nonlocal)):
            return True
        if isinstance(n, (cst.Assign, cst.AugAssign)):
            targets = [t.target for t in n.targets] if isinstance(n, cst.Assign) else [n.target]
            if any(not isinstance(t, cst.Name) for t in targets):
                return True  # writes an attribute or an item
    return False


def _resolver_reason(a: ModuleAnalysis, site: _Site) -> str | None:
    fn, call = site.fn, site.call
    recv = call.func.value  # type: ignore[attr-defined]
    base = _base_name(recv)
    alias = _context_alias(a, fn, base) if base is not None and base not in fn.param_names() else None
    if isinstance(alias, str):
        return alias
    if alias is not None:  # `session = ctx.session` / `c = ctx`, then the request through the alias
        base, site.aliases = alias
    ctx_param = next((p for p in fn.params if p.name.value == base), None)
    if ctx_param is None or fn.kinds.get(base or "") not in CONTEXTS:
        return "the request is not made through the tool's own `Context` parameter: rewrite by hand"
    site.ctx_param = base
    reason = _marker_reason(a, site)
    if reason:
        return reason
    # What the request is built from.
    needed, blocking = _inputs(a, fn, [x.value for x in call.args], base)  # type: ignore[arg-type]
    if blocking:
        names = ", ".join(f"`{b}`" for b in dict.fromkeys(blocking))
        related = [x for x in call.args if x.keyword is not None and x.keyword.value == "related_request_id"]  # type: ignore[attr-defined]
        if related and not _inputs(a, fn, [x.value for x in call.args if x not in related], base)[1]:  # type: ignore[attr-defined]
            return (f"only `related_request_id={code_of(related[0].value)}` uses {names}: a resolver's request needs no "
                    "related request id (the SDK routes it): drop that argument, then run the fix again")
        return (f"the request is built from {names}, which {_exist(blocking)} mid-body (locals, the context, or "
                "reassigned arguments): a resolver may only use the tool's arguments and module-level names; "
                "move that computation into a module-level function of the arguments, then run the fix again")
    site.args = [p.name.value for p in fn.params if p.name.value in needed]
    if fn.parent is not None or fn.class_name is not None or site.fn.node not in a.module.body:
        where = f"inside `{fn.parent.qualname}`" if fn.parent is not None else "in a class" if fn.class_name else "not at module level"
        return (f"the tool is defined {where}: this fix only writes module-level resolvers; a resolver defined next to "
                "the tool, in the same scope, works too (mcp 2.3): add it by hand")
    # The new parameter goes right before the context parameter.
    slot = _slot_reason(fn, base)  # type: ignore[arg-type]
    return f"{slot}: add the resolver parameter by hand" if slot else None


def _inputs(a: ModuleAnalysis, fn: FunctionInfo, exprs: list[cst.BaseExpression], ctx_name: str
            ) -> tuple[list[str], list[str]]:
    """What ``exprs`` read in ``fn``: ``(parameters of fn, names that exist only mid-body)``. A
    parameter counts when it is not the context, not reassigned and not an MCP object; module-level
    names and builtins are free; anything else (a local, the context) blocks a resolver."""
    params = set(fn.param_names())
    module = _module_names(a)
    reassigned = {n for n, _ in fn.assigns}
    needed: list[str] = []
    blocking: list[str] = []
    for n in _ref_names(cst.Call(func=cst.Name("_"), args=[cst.Arg(e) for e in exprs])):
        v = n.value
        if v == "_" and "_" not in params and "_" not in reassigned:
            continue
        if v in params and v != ctx_name and v not in reassigned and fn.kinds.get(v) is None:
            if v not in needed:
                needed.append(v)
        elif v in params or v in reassigned or not (v in module or v in _BUILTINS):
            blocking.append(v)
    return needed, blocking


def _slot_reason(fn: FunctionInfo, ctx_name: str) -> str | None:
    """Why a parameter without a default cannot go right before (or in place of) ``ctx_name``."""
    plist = fn.node.params
    ctx_node = next(p for p in fn.params if p.name.value == ctx_name)
    if ctx_node in plist.params:
        idx = list(plist.params).index(ctx_node)
        if any(p.default is not None for p in list(plist.params)[:idx]) and ctx_node.default is None:
            return "parameters with defaults come before the context parameter"
    elif ctx_node not in plist.kwonly_params:
        return "the context parameter is positional-only or variadic"
    return None


def _marker_reason(a: ModuleAnalysis, site: _Site) -> str | None:
    """Why the request has no resolver marker form (``Elicit``/``Sample``/``ListRoots``)."""
    call = site.call
    attr = call.func.attr.value  # type: ignore[attr-defined]
    if site.kind == ELICITATION:
        if attr == "elicit_url":
            return ("URL-mode elicitation has no resolver marker (`Elicit` is form mode only): return an "
                    "`InputRequiredResult` with `ElicitRequestURLParams` from the tool by hand")
        if a.kind_of(call.func.value, site.fn) is Kind.SESSION:  # type: ignore[attr-defined]
            return ("the session form takes a JSON-schema dict; the resolver marker `Elicit(message, Schema)` "
                    "needs a pydantic model: switch to `ctx.elicit(message, Schema)` first, then run the fix again")
        if len(call.args) != 2 or any(x.star for x in call.args):
            return "`ctx.elicit` is not called with exactly a message and a schema: rewrite by hand"
    if any(x.star for x in call.args):
        return "the request's arguments are passed with `*`/`**`: rewrite by hand"
    return None


_ALIAS_ATTRS = {"session", "request_context"}


def _context_of(a: ModuleAnalysis, fn: FunctionInfo, expr: cst.BaseExpression
                ) -> tuple[str, list[cst.SimpleStatementLine]] | str | None:
    """``expr`` (``ctx``, ``ctx.session``, an alias of either) is ``fn``'s own context parameter,
    reached through ``.session``/``.request_context`` only: ``(parameter, alias statements)``."""
    e = expr
    while isinstance(e, cst.Attribute) and e.attr.value in _ALIAS_ATTRS:
        e = e.value
    if not isinstance(e, cst.Name):
        return None
    if e.value in fn.param_names():
        return (e.value, []) if fn.kinds.get(e.value) in CONTEXTS else None
    return _context_alias(a, fn, e.value)


def _always_runs(a: ModuleAnalysis, node: cst.CSTNode, fn: FunctionInfo) -> str | None:
    """Why ``node`` does not run on every call of ``fn`` up to its statement (a branch, a loop, a
    short-circuit, a ``try``), else None. The test of an ``if`` always runs; its body does not."""
    pm = a.parents
    child: cst.CSTNode = node
    cur = pm.get(id(node))
    while cur is not None and cur is not fn.node.body:
        if isinstance(cur, cst.BooleanOperation) and child is not cur.left:
            return "it is on the right of `and`/`or` (it runs only on some paths)"
        if isinstance(cur, cst.IfExp) and child is not cur.test:
            return "it is in a branch of a conditional expression (it runs only on some paths)"
        if isinstance(cur, cst.If) and child is not cur.test:
            return "it runs only on some paths (inside `if`)"
        if isinstance(cur, (cst.Else, cst.With, cst.Match, cst.MatchCase, cst.Try, cst.ExceptHandler, cst.Finally)):
            return "it runs only on some paths, or under a `with`/`try`"
        if isinstance(cur, (cst.For, cst.While, cst.CompFor, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            return "it is in a loop (each round would need its own question)"
        if isinstance(cur, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return "it is in a nested function"
        child, cur = cur, pm.get(id(cur))
    return None


def _call_values(call: cst.Call, callee: FunctionInfo) -> dict[str, cst.Arg] | str:
    """Helper parameter -> the argument a call passes it (the analysis' mapping: a method called
    through its class or an instance skips ``self``/``cls``)."""
    names = callee.param_names()
    offset = 1 if names and names[0] in ("self", "cls") and isinstance(call.func, cst.Attribute) else 0
    positional = [p.name.value for p in list(callee.node.params.posonly_params) + list(callee.node.params.params)]
    out: dict[str, cst.Arg] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return "passes arguments with `*`/`**`"
        if arg.keyword is not None:
            out[arg.keyword.value] = arg
        elif i + offset < len(positional):
            out[positional[i + offset]] = arg
        else:
            return "passes more positional arguments than the helper takes"
    return out


def _helper_reason(a: ModuleAnalysis, site: _Site) -> str | None:
    """A request made in a helper (``async def confirm(ctx, what): r = await ctx.elicit(...)``): sound to
    move when every caller is an mcp 2.x ``MCPServer`` tool that calls it on every path with its own
    context and with values that exist before its body runs. Then each calling tool gets a resolver
    built from what it passes, and the helper takes the answer in place of the request."""
    helper, call = site.fn, site.call
    intro = f"the request is made in the helper `{helper.qualname}`"
    recv = call.func.value  # type: ignore[attr-defined]
    if helper.parent is not None:
        return f"{intro}, a nested function: move the request into the tool by hand"
    if helper.class_name is None and helper.node not in a.module.body:
        return f"{intro}, which is not a module-level function: move the request into the tool by hand"
    if a.references_outside_calls(helper):
        return (f"{intro}, which is used other than by direct calls in this module (passed as a callable, "
                "stored or exported): its callers cannot all be rewritten; move the request into the tools by hand")
    if any(c is not call and request_kind(a, c, helper) is not None for c in helper.calls):
        return f"{intro}, which makes several requests: move them into the tools by hand"
    # The helper's side: the context it asks through, and what the request is built from.
    base = _base_name(recv)
    target = _context_of(a, helper, recv) if base is not None else None
    if isinstance(target, str):
        return target
    if target is None and base in helper.param_names() and helper.kinds.get(base) is Kind.SESSION:
        target = (base, [])
    if target is None:
        return f"{intro}, not through a context or session parameter of the helper: rewrite by hand"
    ctx_name, site.aliases = target
    site.ctx_param = ctx_name
    reason = _marker_reason(a, site)
    if reason:
        return reason
    hparams = helper.param_names()
    needed, blocking = _inputs(a, helper, [x.value for x in call.args], ctx_name)
    if blocking:
        names = ", ".join(f"`{b}`" for b in dict.fromkeys(blocking))
        return (f"{intro}, built from {names}, which {_exist(blocking)} mid-body of the helper (its locals, the context, or "
                "reassigned parameters): a resolver may only use what the tool passes and module-level names; rewrite by hand")
    if site.kind == ELICITATION and any(n.value in needed for n in _ref_names(call.args[1].value)):
        return f"{intro}, and its schema is a parameter of the helper: rewrite by hand"
    site.helper_params = [p for p in hparams if p in needed]
    slot = _slot_reason(helper, ctx_name)
    if slot:
        return f"{intro}; in the helper, {slot}: rewrite by hand"
    # The callers' side: every one must be a tool the resolver can be added to.
    callers = a.callers(helper)
    if not callers:
        return f"{intro}, which no tool of this module calls: rewrite by hand"
    site.callers = []
    for tool, hcall in callers:
        reason = _caller_reason(a, site, tool, hcall, ctx_name)
        if isinstance(reason, str):
            return f"{intro}; `{_first_line(hcall)}` in `{tool.qualname}` {reason}"
        site.callers.append(reason)
    return None


def _caller_reason(a: ModuleAnalysis, site: _Site, tool: FunctionInfo, hcall: cst.Call, ctx_name: str) -> _Caller | str:
    helper = site.fn
    if tool.role != "tool":
        return "is not in an mcp 2.x `MCPServer` tool (only a tool's call can return the interim result): rewrite by hand"
    if tool.parent is not None or tool.class_name is not None or tool.node not in a.module.body:
        return "is in a tool that is not a module-level function: add the resolver by hand"
    aw = a.parents.get(id(hcall))
    if not (isinstance(aw, cst.Await) and aw.expression is hcall) or not tool.is_async:
        return "is not awaited directly in an async tool: rewrite by hand"
    why = _always_runs(a, aw, tool)
    if why:
        return f"cannot ask before the tool runs: {why}; rewrite by hand"
    values = _call_values(hcall, helper)
    if isinstance(values, str):
        return values + ": rewrite by hand"
    ctx_arg = values.get(ctx_name)
    if ctx_arg is None:
        return f"does not pass `{ctx_name}`: rewrite by hand"
    owner = _context_of(a, tool, ctx_arg.value)
    if not isinstance(owner, tuple) or tool.kinds.get(owner[0]) is not Kind.CONTEXT_MCP2:
        return (f"passes `{code_of(ctx_arg.value)}`, not the tool's own mcp 2.x `Context` parameter"
                + (f" ({owner})" if isinstance(owner, str) else "") + ": rewrite by hand")
    caller = _Caller(tool, hcall, ctx_arg, owner[0], {}, aliases=owner[1])
    module = _module_names(a)
    blocking: list[str] = []
    hparams = {p.name.value: p for p in helper.params}
    for name in site.helper_params:
        arg = values.get(name)
        if arg is None:
            default = hparams[name].default
            if default is None or not isinstance(default, (cst.Name, cst.SimpleString, cst.Integer, cst.Float)) \
                    or (isinstance(default, cst.Name) and default.value not in module | _BUILTINS):
                return f"leaves `{name}` to a default the resolver cannot rebuild: rewrite by hand"
            caller.values[name] = default
            continue
        expr = arg.value
        if _has_effect(expr):
            return (f"computes `{name}` as `{code_of(expr)}`, which does something (the resolver would run it "
                    "again on every round): compute it in a module-level function of the tool's arguments first")
        caller.values[name] = expr
    used, blocking = _inputs(a, tool, [v for v in caller.values.values()], caller.ctx_param)
    if blocking:
        names = ", ".join(f"`{b}`" for b in dict.fromkeys(blocking))
        return (f"passes {names}, which {_exist(blocking)} mid-body of the tool (locals, the context, or reassigned "
                "arguments): a resolver may only use the tool's arguments and module-level names; move that "
                "computation into a module-level function of the arguments, then run the fix again")
    caller.args = [p for p in tool.param_names() if p in used]
    slot = _slot_reason(tool, caller.ctx_param)
    if slot:
        return f"is in a tool where {slot}: add the resolver by hand"
    # Order: what the tool does before the call (and in the call's own statement) now runs after the question.
    stmt = _enclosing_stmt(a, hcall)
    notes: list[str] = []
    if stmt is tool.node:  # a one-line body (`async def t(...): return await helper(...)`)
        head: cst.CSTNode = tool.node.body
    else:
        probe = _Site("resolver", site.kind, tool, hcall, stmt, aw)  # type: ignore[arg-type]
        notes += _side_effects_before(a, probe, "the question is now asked before the tool body runs")
        exits = _exits_before(a, stmt, tool)  # type: ignore[arg-type]
        if exits:
            notes.append(f"`{exits}` can end the call before `{helper.name}` is called today; the question is now "
                         "asked on every call")
        head = stmt.test if isinstance(stmt, cst.If) else stmt  # type: ignore[union-attr,assignment]
    if _has_effect(_without(head, aw)) or any(_has_effect(x.value) for x in hcall.args):
        notes.append(f"`{_first_line(head if stmt is tool.node else stmt)}` does something before calling `{helper.name}` today; the question is "
                     "now asked first")
    site.unsafe += [f"in `{tool.qualname}`: {n}" for n in notes]
    return caller


def _exits_before(a: ModuleAnalysis, stmt: cst.CSTNode, fn: FunctionInfo) -> str | None:
    """The first statement before ``stmt`` (in its block and the enclosing ones) that can return or
    raise: on that path the request was never made."""
    pm = a.parents
    cur: cst.CSTNode | None = stmt
    while cur is not None and cur is not fn.node:
        block = pm.get(id(cur))
        if isinstance(block, cst.IndentedBlock):
            for x in block.body:
                if x is cur:
                    break
                if _can_leave(x):
                    return _first_line(x)
        cur = block
    return None


def _without(node: cst.CSTNode, skip: cst.CSTNode) -> cst.CSTNode:
    """``node`` with the subtree ``skip`` replaced by a name (to look at the rest of a statement)."""
    class _Cut(cst.CSTTransformer):
        def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:  # type: ignore[override]
            return cst.Name("_") if original_node is skip else updated_node
    return node.visit(_Cut())


def _context_alias(a: ModuleAnalysis, fn: FunctionInfo, name: str) -> tuple[str, list[cst.SimpleStatementLine]] | str | None:
    """``name`` is a local alias of the function's context parameter (``c = ctx``, ``session =
    ctx.session``, ``s = session``): ``(context parameter, the alias statements)``; a reason when it
    is an alias that cannot be followed; None when it is not an alias of a context at all.

    Followed only when each alias is bound once, by a plain ``name = <ctx>[.request_context][.session]``
    statement at the top level of the function body (so it is bound on every path before the request)."""
    body = fn.node.body
    stmts: list[cst.SimpleStatementLine] = []
    seen: set[str] = set()
    cur = name
    while cur not in fn.param_names():
        if cur in seen or len(seen) > 4:
            return None
        seen.add(cur)
        values = [v for n, v in fn.assigns if n == cur]
        if not values:
            return None
        value = values[0]
        head = _base_name(value)
        expr: cst.BaseExpression = value
        while isinstance(expr, cst.Attribute) and expr.attr.value in _ALIAS_ATTRS:
            expr = expr.value
        if not isinstance(expr, cst.Name) or head is None:
            return None
        if len(values) != 1:
            return f"the request goes through `{cur}`, which is assigned more than once: rewrite by hand"
        stmt = _enclosing_stmt(a, value)
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
                and len(stmt.body[0].targets) == 1 and isinstance(stmt.body[0].targets[0].target, cst.Name)
                and stmt.body[0].value is value and isinstance(body, cst.IndentedBlock) and stmt in body.body):
            return (f"the request goes through the alias `{cur}`, which is not bound by a plain assignment at the top "
                    "of the tool: rewrite by hand")
        stmts.append(stmt)
        cur = head
    if fn.kinds.get(cur) not in CONTEXTS:
        return None
    return cur, stmts


def _pins(a: ModuleAnalysis) -> pins.Pins:
    """The project's SDK pins, asked only when a request needs the generation (once per module).

    Looked up from the file's directory upwards (the nearest project files), or from the working
    directory when the module has no path."""
    found = getattr(a, "_interim_pins", None)
    if found is None:
        found = a._interim_pins = pins.project_pins(a.path or Path.cwd())  # type: ignore[attr-defined]
    return found


def _pinned_generation(a: ModuleAnalysis, gen: str | None, kind: str) -> tuple[str | None, str | None, str | None]:
    """The generation once the project's pins are heard: ``(generation, refusal, pin note)``.

    ``mcp<2`` refuses (no interim form; for fastmcp code: fastmcp 4 needs mcp 2). fastmcp code under
    ``fastmcp<4`` is refused; under ``fastmcp>=4`` (or ``mcp>=2``, which fastmcp 2.x/3.x cannot run on)
    it is fastmcp 4 whatever the rest of the module looks like. Code the analysis cannot place is
    mcp 2.x under ``mcp>=2``. The note names the pin the decision was based on."""
    found = _pins(a)
    mcp, fast = found.verdict("mcp"), found.verdict("fastmcp")
    if gen == S.FASTMCP:
        old = fast if fast is not None and not fast.new else mcp if mcp is not None and not mcp.new else None
        if old is not None:
            why = f"the project pins {old.describe()}" + (", and fastmcp 4 needs mcp 2.x" if old.package == "mcp" else "")
            return gen, FASTMCP_REFUSE.format(why=why, how=""), None
        new = fast if fast is not None else mcp
        return gen, None, (f"the project pins {new.describe()}" if new is not None and new.new else None)
    if mcp is not None and not mcp.new:
        return gen, f"the project pins {mcp.describe()}: " + (REFUSE_MCP1_ROOTS if kind == ROOTS else REFUSE_MCP1), None
    if gen is None and mcp is not None:
        return S.MCP2, None, f"the project pins {mcp.describe()}"
    return gen, None, None


def _fastmcp3_reason(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo, kind: str, pinned: str | None = None) -> str | None:
    """Why this fastmcp code is 2.x/3.x code (no interim form), else None. fastmcp 4 removed
    ``ctx.sample``/``sample_step``/``list_roots``/``send_*_list_changed`` and ``sampling_handler=``,
    made ``elicit``'s response type required, and runs on mcp 2.x only. ``pinned``: the pin note when
    the project pins fastmcp 4, so only what this call itself uses counts, not the rest of the module."""
    attr = call.func.attr.value  # type: ignore[attr-defined]
    if attr in _FASTMCP3_ONLY and a.kind_of(call.func.value, fn) is Kind.CONTEXT_FASTMCP:  # type: ignore[attr-defined]
        if pinned and _FASTMCP3_ONLY[attr]:  # already on fastmcp 4: no upgrade to advise
            return (f"`ctx.{attr}` does not exist in fastmcp 4 ({pinned}), so this call fails there; "
                    f"{_FASTMCP3_ONLY[attr][2:]}, then run `fix --strategy interim` again")
        return FASTMCP_REFUSE.format(why=f"`ctx.{attr}` was removed in fastmcp 4", how=_FASTMCP3_ONLY[attr])
    if (kind == ELICITATION and a.kind_of(call.func.value, fn) is Kind.CONTEXT_FASTMCP  # type: ignore[attr-defined]
            and not any(x.keyword is not None and x.keyword.value == "response_type" for x in call.args)
            and sum(1 for x in call.args if x.keyword is None) < 2):
        return FASTMCP_REFUSE.format(why="`ctx.elicit` without a response type, which fastmcp 4 requires",
                                     how=" and pass the response type (`bool` for a confirmation)")
    evidence = None if pinned else _fastmcp3_evidence(a)
    if evidence:
        return FASTMCP_REFUSE.format(why=f"the module uses {evidence}", how="")
    return None


def _fastmcp3_evidence(a: ModuleAnalysis) -> str | None:
    found = getattr(a, "_interim_fastmcp3", False)
    if found is not False:
        return found  # type: ignore[return-value]
    found = None
    if S.MCP1 in a.generations:
        found = "mcp 1.x imports (fastmcp 4 runs on mcp 2.x)"
    for n in walk(a.module):
        if found:
            break
        if not isinstance(n, cst.Call):
            continue
        if isinstance(n.func, cst.Attribute) and n.func.attr.value in _FASTMCP3_ONLY:
            if a.kind_of(n.func.value, a.enclosing_function(n)) is Kind.CONTEXT_FASTMCP:
                found = f"`ctx.{n.func.attr.value}`, which fastmcp 4 removed"
        elif a.qualname(n.func) in S.FASTMCP_SERVER and any(
                x.keyword is not None and x.keyword.value == S.SAMPLING_HANDLER_KWARG for x in n.args):
            found = "`sampling_handler=`, which fastmcp 4 rejects"
    a._interim_fastmcp3 = found  # type: ignore[attr-defined]
    return found


def _fastmcp_reason(a: ModuleAnalysis, site: _Site) -> str | None:
    fn, call = site.fn, site.call
    recv = call.func.value  # type: ignore[attr-defined]
    base = _base_name(recv)
    if base is None or (fn.kinds.get(base) or a.lookup(base, fn)) is not Kind.CONTEXT_FASTMCP:
        return (f"the request is not made through the {fn.role or 'tool'}'s own fastmcp `Context` parameter (`ctx.elicit(...)`, "
                "`ctx.session.create_message(...)`" + (f"; here through `{code_of(recv)}`" if "get_context" in code_of(recv) else "")
                + "): the guard pattern reads `ctx.input_responses`; take `ctx: Context` as a parameter and make the "
                "request through it, then run the fix again")
    site.ctx_param = base
    if site.kind == ELICITATION and isinstance(recv, cst.Name):
        names = set(_arg_map(call, ["message", "response_type"]))
        if not {"message", "response_type"} <= names or names - {"message", "response_type", "response_title",
                                                                  "response_description"}:
            return "`ctx.elicit` is not called with a message and a response type: rewrite by hand"
    return None


def _lowlevel_reason(a: ModuleAnalysis, site: _Site) -> str | None:
    fn, call = site.fn, site.call
    attr = call.func.attr.value  # type: ignore[attr-defined]
    if len(fn.params) < 2 and site.form == "lowlevel":
        return "the handler does not take `(ctx, params)`: rewrite by hand"
    others = [c for c in fn.calls if c is not call and request_kind(a, c, fn) is not None]
    if site.result is None:
        pm = a.parents
        if others and not site.alone and _exclusive(a, site.call, others):
            return _PATHS_REASON  # the blocking reason first: renaming the answer would not help
        return _unassigned_reason(site)
    if site.kind == ELICITATION and attr == "elicit_url":
        return ("URL-mode elicitation correlated by `elicitation_id` (gone in 2026-07-28): build the "
                "`ElicitRequestURLParams` request and its correlation through `requestState` by hand")
    if any(x.star for x in call.args):
        return "the request's arguments are passed with `*`/`**`: rewrite by hand"
    ann = fn.node.returns
    if ann is not None and "InputRequiredResult" in code_of(ann.annotation) and site.unwrap is None:
        return "the handler already returns interim results: add this request to them by hand"
    if others and not site.alone:
        group = _group(a, site, others)
        if isinstance(group, str):
            return group
    return None


def _first_line(node: cst.CSTNode) -> str:
    return code_of(node).strip().splitlines()[0]


def _assigned(stmt: cst.CSTNode) -> set[str]:
    """Names a statement binds (assignments, ``for``/``with`` targets, walrus, imports excluded)."""
    out: set[str] = set()
    for n in walk(stmt):
        targets: list[cst.CSTNode] = []
        if isinstance(n, cst.AssignTarget):
            targets.append(n.target)
        elif isinstance(n, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For, cst.CompFor)):
            targets.append(n.target)
        elif isinstance(n, cst.AsName):
            targets.append(n.name)
        for t in targets:
            out |= {x.value for x in walk(t) if isinstance(x, cst.Name)}
    return out


def _can_leave(stmt: cst.CSTNode) -> bool:
    return any(isinstance(n, (cst.Return, cst.Raise)) for n in walk(stmt))


def _exclusive(a: ModuleAnalysis, call: cst.CSTNode, others: list[cst.Call]) -> bool:
    """No single call of the handler makes ``call`` and any of ``others``: each pair sits in the
    ``if`` and ``else`` of one statement, or the earlier one in an ``if`` whose body ends with
    ``return``/``raise`` (the usual ``if params.name == "…": … return`` dispatch)."""
    pm = a.parents

    def chain(n: cst.CSTNode) -> list[cst.CSTNode]:
        out = [n]
        while (n := pm.get(id(n))) is not None and not isinstance(n, cst.FunctionDef):  # type: ignore[assignment]
            out.append(n)
        return out

    def apart(x: cst.CSTNode, y: cst.CSTNode) -> bool:
        cx, cy = chain(x), chain(y)
        ids_y = {id(n) for n in cy}
        common = next((n for n in cx if id(n) in ids_y), None)
        if common is None:
            return False
        below_x = cx[cx.index(common) - 1] if cx.index(common) else None
        below_y = cy[[id(n) for n in cy].index(id(common)) - 1] if cy[0] is not common else None
        if isinstance(common, cst.If) and {id(below_x), id(below_y)} == {id(common.body), id(common.orelse)}:
            return True
        if isinstance(common, cst.IndentedBlock) and below_x is not None and below_y is not None:
            body = list(common.body)
            first = below_x if body.index(below_x) < body.index(below_y) else below_y  # type: ignore[arg-type]
            if isinstance(first, cst.If) and isinstance(first.body, cst.IndentedBlock) and first.body.body:
                last = first.body.body[-1]
                exits = isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))
                inside = chain(x if first is below_x else y)
                return exits and any(n is first.body for n in inside)
        return False

    return all(apart(call, o) for o in others)


_PATHS_REASON = ("the handler makes several requests on different paths (e.g. branches on `params.name`); each path "
                 "needs its own interim result, which this fix does not write yet: rewrite them by hand")


def _group(a: ModuleAnalysis, site: _Site, others: list[cst.Call]) -> list[_Site] | str:
    """Several requests in one handler travel in one interim result (each retry carries only the
    answers to the latest ``inputRequests``). Possible when they sit in one block and each is built
    from values that exist before the first one: then all are asked together where the first was."""
    intro = "the handler makes several requests, which must travel in one interim result"
    members = [site]
    for c in others:
        other = _site(a, c, site.fn, request_kind(a, c, site.fn) or "", alone=True)
        if isinstance(other, str):
            return f"{intro}, and `{_first_line(c)}` cannot be rewritten: {other}"
        members.append(other)
    pm = a.parents
    block = pm.get(id(site.stmt))
    if not isinstance(block, cst.IndentedBlock) or any(pm.get(id(m.stmt)) is not block for m in members):
        if _exclusive(a, site.call, [m.call for m in members if m is not site]):
            return _PATHS_REASON
        return f"{intro}, but they are not in one block (some run only on some paths): combine them by hand"
    if any(m.unwrap is not None for m in members):
        return f"{intro}, but one sits in a `try`: combine them by hand"
    body = list(block.body)
    members.sort(key=lambda m: body.index(m.stmt))
    first = members[0]
    start = body.index(first.stmt)
    stmts = {id(m.stmt) for m in members}
    for m in members[1:]:
        earlier = body[start:body.index(m.stmt)]
        bound = set().union(*(_assigned(x) for x in earlier))
        used = {n.value for n in _ref_names(m.call)}
        blocked = sorted(used & bound)
        if blocked:
            names = ", ".join(f"`{b}`" for b in blocked)
            return (f"{intro}, but `{_first_line(m.stmt)}` is built from {names}, which is set after the first "
                    f"request (`{_first_line(first.stmt)}`), from its answer or later: the questions cannot be asked "
                    "together; ask them in one go by hand (or carry the earlier answer in an integrity-protected "
                    "requestState)")
    notes: list[str] = []
    for x in body[start:body.index(members[-1].stmt)]:
        if id(x) in stmts:
            continue
        if _can_leave(x):
            notes.append(f"`{_first_line(x)}` can end the call between the requests today; on 2026-07-28 all the "
                         "questions are asked together, before it runs")
        elif _has_effect(x):
            notes.append(f"`{_first_line(x)}` runs between the requests today; on 2026-07-28 it runs once all are "
                         "answered")
    unsafe = list(first.unsafe) + notes
    for m in members:
        m.group, m.unsafe = members, unsafe
    return members


# ---------------------------------------------------------------------------------------------
# Planning (called by the detectors)


def _describe(site: _Site) -> str:
    what = {ROOTS: "`ListRoots()`", SAMPLING: "`Sample(...)`", ELICITATION: "`Elicit(...)`"}[site.kind]
    if site.callers is not None:
        tools = ", ".join(dict.fromkeys(f"`{c.fn.qualname}`" for c in site.callers))
        desc = (f"move the request out of the helper `{site.fn.qualname}` into a resolver returning {what} for each "
                f"call, injected into {tools} with `Annotated[..., Resolve(fn)]` and handed to the helper in place of "
                "the request (works on both eras)")
    elif site.form == "resolver":
        desc = (f"move the request into a resolver returning {what}, injected into `{site.fn.qualname}` with "
                "`Annotated[..., Resolve(fn)]` (works on both eras)")
    else:
        names = {ROOTS: "ListRootsRequest", SAMPLING: "CreateMessageRequest", ELICITATION: "ElicitRequest"}
        where = f"`{site.ctx_param}.input_responses`" if site.form == "fastmcp" else "`params.input_responses`"
        if site.group:
            reqs = ", ".join(f"`{names[m.kind]}` under {m.result!r}" for m in site.group)
            desc = (f"on 2026-07-28 `{site.fn.qualname}` returns one `InputRequiredResult` with all "
                    f"{len(site.group)} of its requests ({reqs}) until {where} holds every answer "
                    "(no requestState is written); legacy keeps the requests")
        else:
            desc = (f"on 2026-07-28 `{site.fn.qualname}` returns `InputRequiredResult` with a `{names[site.kind]}` "
                    f"under key {site.result!r} and reads the answer from {where} on the retry "
                    "(no requestState is written); legacy keeps the request")
        if site.form == "fastmcp":
            desc += f" (fastmcp 4's guard pattern: needs fastmcp>=4{'; ' + site.pin if site.pin else ''})"
    if site.pin and site.form != "fastmcp":
        desc += f" (mcp 2.x: {site.pin})"
    if site.unsafe:
        desc += " (review: " + "; ".join(site.unsafe) + ")"
    return desc


def plan_request(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None,
                 kind: str) -> tuple[FixInfo | None, str | None, dict[str, Any]]:
    """The interim fix for one pushed request (MCP101/MCP201/MCP202): ``(fix, manual, data)``."""
    site = _site(a, node, fn, kind)
    if isinstance(site, str):
        return None, site, {}
    fix = FixInfo(Safety.UNSAFE if site.unsafe else Safety.SAFE, STRATEGY, _describe(site))
    return fix, None, {"interim_form": site.form, "fail_open_closed": site.unwrap is not None}


def fail_open_try(a: ModuleAnalysis, call: cst.CSTNode) -> cst.Try | None:
    """The innermost ``try`` whose body holds ``call`` (for MCP207)."""
    pm = a.parents
    child: cst.CSTNode = call
    cur = pm.get(id(call))
    while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module)):
        if isinstance(cur, cst.Try) and child is cur.body:
            return cur
        child, cur = cur, pm.get(id(cur))
    return None


# ---------------------------------------------------------------------------------------------
# The rewrite


def _arg_map(call: cst.Call, positional: list[str]) -> dict[str, cst.BaseExpression]:
    out: dict[str, cst.BaseExpression] = {}
    i = 0
    for arg in call.args:
        if arg.keyword is not None:
            out[arg.keyword.value] = arg.value
        else:
            if i < len(positional):
                out[positional[i]] = arg.value
            i += 1
    return out


def _strip(arg: cst.Arg) -> cst.Arg:
    return arg.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=cst.SimpleWhitespace(""))


def _resolver_parts(site: _Site) -> tuple[str, str, str, set[tuple[str, str]]]:
    """(return annotation, returned expression, parameter annotation, imports)."""
    call = site.call
    imports: set[tuple[str, str]] = {("typing", "Annotated"), ("mcp.server.mcpserver", "Resolve")}
    if site.kind == ROOTS:
        imports |= {("mcp.server.mcpserver", "ListRoots"), ("mcp.types", "ListRootsResult")}
        return "ListRoots", "ListRoots()", "ListRootsResult", imports
    if site.kind == ELICITATION:
        message, schema = (code_of(x.value) for x in call.args)
        imports |= {("mcp.server.mcpserver", "Elicit"), ("mcp.server.mcpserver", "ElicitationResult")}
        return f"Elicit[{schema}]", f"Elicit({message}, {schema})", f"ElicitationResult[{schema}]", imports
    args = [_strip(x) for x in call.args if not (x.keyword is not None and x.keyword.value == "related_request_id")]
    positional = [x for x in args if x.keyword is None]
    keywords = [x for x in args if x.keyword is not None]
    msgs = next((x for x in keywords if x.keyword.value == "messages"), None)  # type: ignore[union-attr]
    if msgs is not None:
        keywords.remove(msgs)
        positional = [msgs.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)]
    text = ", ".join(code_of(x) for x in positional + keywords)
    with_tools = any(x.keyword is not None and x.keyword.value in ("tools", "tool_choice") for x in args)
    result = "CreateMessageResultWithTools" if with_tools else "CreateMessageResult"
    imports |= {("mcp.server.mcpserver", "Sample"), ("mcp.types", result)}
    return "Sample", f"Sample({text})", result, imports


def _lowlevel_parts(site: _Site) -> tuple[str, str, set[tuple[str, str]]]:
    """(request expression, answer type(s), imports) for the low-level and fastmcp forms."""
    types = "mcp_types" if site.form == "fastmcp" else "mcp.types"
    req, answer, imports = _request_parts(site)
    return req, answer, {(types if mod == "mcp.types" else mod, name) for mod, name in imports}


def _fastmcp_elicit_config(site: _Site) -> str:
    """``parse_elicit_response_type(<type>, …)``: fastmcp's own schema and answer handling for ``ctx.elicit``."""
    m = _arg_map(site.call, ["message", "response_type"])
    extra = "".join(f", {k}={code_of(m[k])}" for k in ("response_title", "response_description") if k in m)
    return f"parse_elicit_response_type({code_of(m['response_type'])}{extra})"


def _fastmcp_context_elicit(site: _Site) -> bool:
    return site.form == "fastmcp" and site.kind == ELICITATION and isinstance(site.call.func.value, cst.Name)  # type: ignore[attr-defined]


def _request_parts(site: _Site) -> tuple[str, str, set[tuple[str, str]]]:
    call = site.call
    attr = call.func.attr.value  # type: ignore[attr-defined]
    if site.kind == ROOTS:
        return "ListRootsRequest()", "ListRootsResult", {("mcp.types", "ListRootsRequest"), ("mcp.types", "ListRootsResult")}
    if _fastmcp_context_elicit(site):
        m = _arg_map(call, ["message", "response_type"])
        req = (f"ElicitRequest(params=ElicitRequestFormParams(message={code_of(m['message'])}, "
               f"requested_schema={_fastmcp_elicit_config(site)}.schema))")
        return req, "ElicitResult", {("mcp.types", n) for n in ("ElicitRequest", "ElicitRequestFormParams", "ElicitResult")} | {
            ("fastmcp.server.elicitation", "parse_elicit_response_type")}
    if site.kind == ELICITATION:
        m = _arg_map(call, ["message", "requested_schema"])
        if "requestedSchema" in m:
            m["requested_schema"] = m.pop("requestedSchema")
        req = (f"ElicitRequest(params=ElicitRequestFormParams(message={code_of(m['message'])}, "
               f"requested_schema={code_of(m['requested_schema'])}))")
        return req, "ElicitResult", {("mcp.types", n) for n in ("ElicitRequest", "ElicitRequestFormParams", "ElicitResult")}
    assert attr == "create_message"
    m = _arg_map(call, ["messages"])
    m.pop("related_request_id", None)
    inner = ", ".join(f"{k}={code_of(v)}" for k, v in m.items())
    with_tools = "tools" in m or "tool_choice" in m
    result = "CreateMessageResultWithTools" if with_tools else "CreateMessageResult"
    return (f"CreateMessageRequest(params=CreateMessageRequestParams({inner}))", result,
            {("mcp.types", n) for n in ("CreateMessageRequest", "CreateMessageRequestParams", result)})


@dataclass
class _Edits:
    repl: dict[int, Any] = field(default_factory=dict)
    before_module_stmt: dict[int, list[cst.BaseStatement]] = field(default_factory=dict)
    insert_param: dict[int, list[tuple[str, cst.Param]]] = field(default_factory=dict)  # fn -> (before ctx name, param)
    drop_ctx: dict[int, str] = field(default_factory=dict)          # fn -> ctx name (dropped when unused)
    returns: dict[int, str] = field(default_factory=dict)           # fn -> new return annotation
    aliases: dict[int, list[cst.SimpleStatementLine]] = field(default_factory=dict)  # fn -> alias statements
    force_drop: dict[int, bool] = field(default_factory=dict)      # fn -> drop its context (decided in advance)
    tool_names: dict[int, set[str]] = field(default_factory=dict)  # tool -> names taken in it
    imports: set[tuple[str, str]] = field(default_factory=set)


def apply(module: cst.Module, analysis: ModuleAnalysis, findings: list, config: Config) -> tuple[cst.Module, list, list[str]]:
    a = analysis
    ed = _Edits()
    applied: list = []
    notes: list[str] = []
    done: dict[int, _Site] = {}
    taken = set(_all_names(a))
    for f in sorted(findings, key=lambda f: (f.line, f.column)):
        node = f.data.get("request") if f.rule == "MCP207" else f.node
        if node is None:
            continue
        if id(node) in done:
            applied.append(f)
            continue
        fn = a.enclosing_function(node)
        kind = request_kind(a, node, fn) if isinstance(node, cst.Call) else None
        site = _site(a, node, fn, kind) if kind else "not a request"
        if isinstance(site, str):
            notes.append(f"{f.rule} line {f.line}: {site}")
            continue
        applied.append(f)
        if site.callers is not None:
            done[id(node)] = site
            _plan_helper(a, site, ed, taken)
        elif site.form == "resolver":
            done[id(node)] = site
            _plan_resolver(a, site, ed, taken)
        else:
            group = site.group or [site]
            done.update({id(m.call): m for m in group})
            _plan_lowlevel(a, group, ed)
    if not done:
        return module, [], notes
    new = module.visit(_Rewriter(ed))
    if ed.imports:
        ctx = CodemodContext()
        for mod, name in sorted(ed.imports):
            AddImportsVisitor.add_needed_import(ctx, mod, name)
        new = AddImportsVisitor(ctx).transform_module(new)
    return new, applied, notes


def _plan_resolver(a: ModuleAnalysis, site: _Site, ed: _Edits, taken: set[str]) -> None:
    fn = site.fn
    ret_ann, ret_expr, param_ann, imports = _resolver_parts(site)
    ed.imports |= imports
    default = {ROOTS: "roots", SAMPLING: "sampled", ELICITATION: "answer"}[site.kind]
    pname = site.result if site.result else _fresh(taken, default)
    rname = _fresh(taken, f"{fn.name}_{site.kind}")
    params = []
    for p in fn.params:
        if p.name.value in site.args:
            params.append(p.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_param=cst.SimpleWhitespace(""), star=""))
    plist = ", ".join(code_of(p) for p in params)
    resolver = cst.parse_statement(f"def {rname}({plist}) -> {ret_ann}:\n    return {ret_expr}\n")
    resolver = resolver.with_changes(leading_lines=[])
    top = fn.node
    ed.before_module_stmt.setdefault(id(top), []).append(resolver)
    new_param = cst.Param(cst.Name(pname), cst.Annotation(cst.parse_expression(f"Annotated[{param_ann}, Resolve({rname})]")))
    ed.insert_param.setdefault(id(fn.node), []).append((site.ctx_param or "", new_param))
    ed.drop_ctx[id(fn.node)] = site.ctx_param or ""
    ed.aliases.setdefault(id(fn.node), []).extend(site.aliases)
    _take_out(site, ed, pname)


def _take_out(site: _Site, ed: _Edits, name: str) -> None:
    """The request leaves the function: its statement goes (``x = await …``), or the ``await`` becomes
    ``name``; a ``try`` around it is unwrapped."""
    if site.result is not None:
        ed.repl[id(site.stmt)] = _REMOVE
    else:
        ed.repl[id(site.await_node)] = cst.Name(name)
    if site.unwrap is not None:
        ed.repl[id(site.unwrap)] = "unwrap"


class _Substitute(cst.CSTTransformer):
    def __init__(self, names: dict[int, str]) -> None:
        self.names = names

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        new = self.names.get(id(original_node))
        return updated_node.with_changes(value=new) if new else updated_node


def _plan_helper(a: ModuleAnalysis, site: _Site, ed: _Edits, taken: set[str]) -> None:
    """The helper takes the answer where it took the context (or right before it, when it still uses
    the context); each calling tool gets a resolver built from what it passes, a ``Resolve`` parameter,
    and passes the answer on."""
    helper = site.fn
    assert site.callers is not None and site.ctx_param is not None
    _, _, param_ann, imports = _resolver_parts(site)
    ed.imports |= imports
    default = {ROOTS: "roots", SAMPLING: "sampled", ELICITATION: "answer"}[site.kind]
    hname = site.result if site.result else _fresh(taken, default)
    # The helper's own edits, tried on the helper alone to learn whether it still uses its context.
    mine = _Edits()
    _take_out(site, mine, hname)
    if site.aliases:
        mine.aliases[id(helper.node)] = list(site.aliases)
    trial = helper.node.visit(_Rewriter(mine))
    ctx = site.ctx_param
    drop = _uses(trial.body, ctx) == 0 and not any(_uses(d, ctx) for d in helper.node.decorators)  # type: ignore[attr-defined]
    ed.repl.update(mine.repl)
    ed.aliases.setdefault(id(helper.node), []).extend(site.aliases)
    ed.insert_param.setdefault(id(helper.node), []).append(
        (ctx, cst.Param(cst.Name(hname), cst.Annotation(cst.parse_expression(param_ann)))))
    ed.drop_ctx[id(helper.node)] = ctx
    ed.force_drop[id(helper.node)] = drop
    # One resolver per call.
    for c in site.callers:
        tool = c.fn
        renames: dict[str, str] = {}
        bindings: list[tuple[str, cst.BaseExpression]] = []
        for name in site.helper_params:
            value = c.values[name]
            if isinstance(value, cst.Name) and value.value in c.args:
                if value.value != name:
                    renames[name] = value.value
            else:
                bindings.append((name, value))
        if bindings and renames:  # simultaneous: bind everything at once
            bindings = [(n, c.values[n]) for n in site.helper_params if not (
                isinstance(c.values[n], cst.Name) and c.values[n].value == n)]  # type: ignore[union-attr]
            renames = {}
        subst = {id(n): renames[n.value] for n in _ref_names(cst.Call(func=cst.Name("_"), args=site.call.args))
                 if n.value in renames}
        call = site.call.visit(_Substitute(subst)) if subst else site.call
        ret_ann, ret_expr, tool_ann, _ = _resolver_parts(_Site(site.form, site.kind, tool, call, site.stmt, site.await_node))  # type: ignore[arg-type]
        # The tool's parameter only has to be new in the tool (the names it binds or reads).
        local = ed.tool_names.get(id(tool.node))
        if local is None:
            local = ed.tool_names[id(tool.node)] = {n.value for n in walk(tool.node) if isinstance(n, cst.Name)}
        tname = _fresh(local, hname)
        rname = _fresh(taken, f"{tool.name}_{site.kind}")
        params = [p.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_param=cst.SimpleWhitespace(""), star="")
                  for p in tool.params if p.name.value in c.args]
        body = ""
        read = {n.value for _, v in bindings for n in _ref_names(v)}
        if len(bindings) > 1 and read & {n for n, _ in bindings}:  # `a, b = b, a`: bind them at once
            body = f"    {', '.join(n for n, _ in bindings)} = {', '.join(code_of(v) for _, v in bindings)}\n"
        else:
            body = "".join(f"    {n} = {code_of(v)}\n" for n, v in bindings)
        resolver = cst.parse_statement(f"def {rname}({', '.join(code_of(p) for p in params)}) -> {ret_ann}:\n"
                                       f"{body}    return {ret_expr}\n")
        ed.before_module_stmt.setdefault(id(tool.node), []).append(resolver.with_changes(leading_lines=[]))
        new_param = cst.Param(cst.Name(tname), cst.Annotation(cst.parse_expression(f"Annotated[{tool_ann}, Resolve({rname})]")))
        ed.insert_param.setdefault(id(tool.node), []).append((c.ctx_param, new_param))
        ed.drop_ctx[id(tool.node)] = c.ctx_param
        ed.aliases.setdefault(id(tool.node), []).extend(c.aliases)
        # The call hands the answer over where it handed the context (or right before it).
        answer = c.ctx_arg.with_changes(value=cst.Name(tname),
                                        keyword=cst.Name(hname) if c.ctx_arg.keyword is not None else None)
        if drop:
            ed.repl[id(c.ctx_arg)] = answer
        else:
            answer = answer.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            ed.repl[id(c.ctx_arg)] = cst.FlattenSentinel([answer, c.ctx_arg])


def _plan_lowlevel(a: ModuleAnalysis, group: list[_Site], ed: _Edits) -> None:
    """One ``InputRequiredResult`` asks for every request of ``group`` (in order, one block) where the
    first one was; each original request stays for legacy connections."""
    site = group[0]
    fn = site.fn
    types = "mcp_types" if site.form == "fastmcp" else "mcp.types"
    ed.imports |= {(types, "InputRequiredResult"), (f"{types}.version", "is_version_at_least")}
    if site.form == "fastmcp":
        version = f"{site.ctx_param}.request_context.protocol_version"
        responses = f"{site.ctx_param}.input_responses"
    else:
        version = f"{fn.params[0].name.value}.protocol_version"
        responses = f"{fn.params[1].name.value}.input_responses"
    parts = []
    for m in group:
        req, answer_type, imports = _lowlevel_parts(m)
        ed.imports |= imports
        assert m.result is not None
        parts.append((m, m.result, req, answer_type))
    code = f'if is_version_at_least({version}, "2026-07-28"):\n'
    for _, key, _, _ in parts:
        code += f'    {key} = ({responses} or {{}}).get("{key}")\n'
    if len(parts) == 1:
        _, key, req, answer_type = parts[0]
        code += (f"    if not isinstance({key}, {answer_type}):\n"
                 f'        return InputRequiredResult(input_requests={{"{key}": {req}}})\n')
    else:
        missing = " and ".join(f"isinstance({key}, {answer_type})" for _, key, _, answer_type in parts)
        code += f"    if not ({missing}):\n        return InputRequiredResult(\n            input_requests={{\n"
        code += "".join(f'                "{key}": {req},\n' for _, key, req, _ in parts)
        code += "            }\n        )\n"
    for m, key, _, _ in parts:
        if _fastmcp_context_elicit(m):
            # What `ctx.elicit` returns: fastmcp's accepted/declined/cancelled outcome, data validated as it does.
            code += (
                f"    {key} = (\n"
                f"        handle_elicit_accept({_fastmcp_elicit_config(m)}, {key}.content)\n"
                f'        if {key}.action == "accept"\n'
                f'        else DeclinedElicitation() if {key}.action == "decline" else CancelledElicitation()\n'
                f"    )\n"
            )
            ed.imports |= {("fastmcp.server.elicitation", n) for n in ("handle_elicit_accept", "DeclinedElicitation",
                                                                       "CancelledElicitation")}
    code += "else:\n    pass\n"
    new_stmt = cst.parse_statement(code)
    assert isinstance(new_stmt, cst.If) and isinstance(new_stmt.orelse, cst.Else)
    # The legacy branch is the original statements themselves (a multi-line call keeps its layout):
    # the first request and those right after it; a later one gets its own legacy-only `if`.
    stmt = site.stmt
    block = a.parents.get(id(stmt))
    body = list(block.body) if isinstance(block, cst.IndentedBlock) else [stmt]
    legacy_stmts = [stmt]
    rest = []
    for m in group[1:]:
        if not rest and body.index(m.stmt) == body.index(legacy_stmts[-1]) + 1:
            legacy_stmts.append(m.stmt)
            ed.repl[id(m.stmt)] = _REMOVE
        else:
            rest.append(m)
    legacy = new_stmt.orelse.body.with_changes(body=[x.with_changes(leading_lines=[]) if x is stmt else x  # type: ignore[attr-defined]
                                                     for x in legacy_stmts])
    new_stmt = new_stmt.with_changes(leading_lines=stmt.leading_lines,  # type: ignore[attr-defined]
                                     orelse=new_stmt.orelse.with_changes(body=legacy))
    ed.repl[id(stmt)] = new_stmt
    for m in rest:
        later = cst.parse_statement(f'if not is_version_at_least({version}, "2026-07-28"):\n    pass\n')
        assert isinstance(later, cst.If)
        body = later.body.with_changes(body=[m.stmt.with_changes(leading_lines=[])])  # type: ignore[attr-defined]
        ed.repl[id(m.stmt)] = later.with_changes(body=body, leading_lines=m.stmt.leading_lines)  # type: ignore[attr-defined]
    if site.unwrap is not None:
        ed.repl[id(site.unwrap)] = "unwrap"
    ret = fn.node.returns
    if ret is not None and "InputRequiredResult" not in code_of(ret.annotation):
        ed.returns[id(fn.node)] = f"{code_of(ret.annotation)} | InputRequiredResult"


class _Rewriter(cst.CSTTransformer):
    def __init__(self, ed: _Edits) -> None:
        self.ed = ed
        self.alias_ids = {id(x) for stmts in ed.aliases.values() for x in stmts}
        self.updated: dict[int, cst.CSTNode] = {}  # alias statement -> its rewritten node

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:  # type: ignore[override]
        updated_node = super().on_leave(original_node, updated_node)
        if id(original_node) in self.alias_ids:
            self.updated[id(original_node)] = updated_node
        r = self.ed.repl.get(id(original_node))
        if r is None:
            return updated_node
        if r is _REMOVE:
            return cst.RemoveFromParent()
        if r == "unwrap":
            body = list(updated_node.body.body)  # type: ignore[attr-defined]
            if not body:
                return cst.RemoveFromParent()
            body[0] = body[0].with_changes(leading_lines=[*original_node.leading_lines, *body[0].leading_lines])  # type: ignore[attr-defined]
            return cst.FlattenSentinel(body)
        return r

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> Any:
        key = id(original_node)
        node = updated_node
        if key in self.ed.aliases:
            node = self._drop_dead_aliases(node, self.ed.aliases[key])
        if key in self.ed.returns:
            node = node.with_changes(returns=cst.Annotation(cst.parse_expression(self.ed.returns[key])))
        if key in self.ed.insert_param:
            node = node.with_changes(params=_insert_params(node, self.ed.insert_param[key], self.ed.drop_ctx.get(key),
                                                           self.ed.force_drop.get(key)))
        return node

    def _drop_dead_aliases(self, node: cst.FunctionDef, aliases: list[cst.SimpleStatementLine]) -> cst.FunctionDef:
        """Remove the alias statements (``session = ctx.session``) the moved requests were the only
        users of; a chain (``s = session``) goes from its end."""
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            return node
        stmts = list(body.body)
        pending = [self.updated.get(id(x)) for x in aliases]
        changed = True
        while changed:
            changed = False
            for alias in pending:
                if alias is None or alias not in stmts:
                    continue
                name = alias.body[0].targets[0].target.value  # type: ignore[attr-defined]
                rest = [x for x in stmts if x is not alias]
                if any(_uses(x, name) for x in rest) or any(_binds(x, name) for x in rest):
                    continue
                i = stmts.index(alias)
                if i + 1 < len(stmts) and alias.leading_lines:
                    nxt = stmts[i + 1]
                    stmts[i + 1] = nxt.with_changes(leading_lines=[*alias.leading_lines, *nxt.leading_lines])  # type: ignore[attr-defined]
                del stmts[i]
                changed = True
        if not stmts:
            stmts = [cst.SimpleStatementLine([cst.Pass()])]
        return node.with_changes(body=body.with_changes(body=stmts))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.ed.before_module_stmt:
            return updated_node
        body = []
        for orig, upd in zip(original_node.body, updated_node.body):
            extra = self.ed.before_module_stmt.get(id(orig))
            if extra:
                lead = list(upd.leading_lines)
                first = True
                for s in extra:
                    body.append(s.with_changes(leading_lines=lead if first else [cst.EmptyLine(), cst.EmptyLine()]))
                    first = False
                upd = upd.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
            body.append(upd)
        return updated_node.with_changes(body=body)


def _uses(node: cst.CSTNode, name: str) -> int:
    return sum(1 for n in _ref_names(node) if n.value == name)


def _binds(node: cst.CSTNode, name: str) -> bool:
    return name in _assigned(node)


def _insert_params(fn: cst.FunctionDef, ops: list[tuple[str, cst.Param]], ctx: str | None,
                   force_drop: bool | None = None) -> cst.Parameters:
    params = fn.params
    drop = bool(ctx) and _uses(fn.body, ctx) == 0 and not any(_uses(d, ctx) for d in fn.decorators)  # type: ignore[arg-type]
    if force_drop is not None:
        drop = force_drop
    for field_name in ("params", "kwonly_params"):
        lst = list(getattr(params, field_name))
        names = [p.name.value for p in lst]
        if ctx not in names:
            continue
        idx = names.index(ctx)  # type: ignore[arg-type]
        template = lst[idx]
        new = [p.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for _, p in ops]
        if drop:
            last = new[-1].with_changes(comma=template.comma)
            new[-1] = last
            lst[idx:idx + 1] = new
        else:
            lst[idx:idx] = new
        return params.with_changes(**{field_name: lst})
    return params

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
  built from other locals is manual, naming them.
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
- Side effects before the request change order (resolver: the question is asked before the body;
  low-level: the code before it runs once per round): such fixes are **unsafe**.
- A ``try`` around the request whose ``except`` goes on (the fail-open gate of MCP207) is unwrapped
  and the fallback dropped: unsafe (clients without the capability now get an error instead of the
  unconfirmed action).
- mcp 1.x: refused (no interim form; name the SDK upgrade and, for roots, ``param``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, walk
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
HANDROLLED_MANUAL = (
    "hand-rolled JSON-RPC: answer the `tools/call` with `{{\"resultType\": \"input_required\", \"inputRequests\": "
    "{{\"<key>\": {{\"method\": \"{method}\", \"params\": {{…}}}}}}}}` and read the answer from the retried "
    "request's `params[\"inputResponses\"][\"<key>\"]` (write no `requestState`, or sign it: it is "
    "attacker-controlled); the pending-request bookkeeping cannot be rewritten automatically"
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


def _parents(a: ModuleAnalysis) -> dict[int, cst.CSTNode]:
    """id(node) -> parent, built by the analysis pass."""
    return a.parents




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


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _enclosing_stmt(a: ModuleAnalysis, node: cst.CSTNode) -> cst.CSTNode | None:
    pm = _parents(a)
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
    pm = _parents(a)
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


def _generation(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo) -> str | None:
    recv = call.func.value  # type: ignore[attr-defined]
    base = _base_name(recv)
    kinds = [a.kind_of(recv, fn)]
    if base is not None:
        kinds.append(a.lookup(base, fn))
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


_API = {ROOTS: "list_roots", SAMPLING: "create_message", ELICITATION: "elicit"}


def _site(a: ModuleAnalysis, call: cst.CSTNode, fn: FunctionInfo | None, kind: str, alone: bool = False) -> _Site | str:
    """The interim rewrite of one request, or the reason it stays manual."""
    if fn is None or not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
        return ("the request is not a direct call inside a request handler (made at module level, or the method "
                "is passed as a callable): rewrite by hand")
    gen = _generation(a, call, fn)
    if gen == S.MCP1:
        return REFUSE_MCP1_ROOTS if kind == ROOTS else REFUSE_MCP1
    if gen == S.FASTMCP:
        reason = _fastmcp3_reason(a, call, fn, kind)
        if reason:
            return reason
    pm = _parents(a)
    aw = pm.get(id(call))
    if not (isinstance(aw, cst.Await) and aw.expression is call) or not fn.is_async:
        return "the request is not awaited directly in an async handler: rewrite by hand"
    if fn.role not in HL_ROLES | LL_ROLES:
        where = f"`{fn.qualname}`"
        return (f"the request is made in the helper {where}, not in the tool or handler itself: an interim "
                "result can only be returned by the handler; move the request into it (or pass the answer in)")
    if gen not in (S.MCP2, S.FASTMCP):
        return "cannot tell which SDK this server is written for (no mcp 2.x `MCPServer` or low-level `Server`)"
    stmt = _enclosing_stmt(a, call)
    assert stmt is not None
    form = "fastmcp" if gen == S.FASTMCP else "resolver" if fn.role in HL_ROLES else "lowlevel"
    if form == "fastmcp" and fn.role not in HL_ROLES:
        return "the request is not made in a fastmcp tool, prompt or resource: rewrite by hand"
    site = _Site(form, kind, fn, call, stmt, aw, alone=alone)  # type: ignore[arg-type]
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
    site.unsafe += _side_effects_before(a, site)
    if site.form == "resolver":
        reason = _resolver_reason(a, site)
    elif site.form == "fastmcp":
        reason = _fastmcp_reason(a, site) or _lowlevel_reason(a, site)
    else:
        reason = _lowlevel_reason(a, site)
    return reason or site


def _where_reason(a: ModuleAnalysis, site: _Site) -> str | None:
    """Where in the handler the request may sit: the handler's own block (a resolver: its top
    level, or a ``try`` at its top level that only guards the request and its uses)."""
    pm = _parents(a)
    body = site.fn.node.body
    child: cst.CSTNode = site.stmt
    cur = pm.get(id(child))
    while cur is not None and cur is not body:
        if isinstance(cur, cst.Try) and child is cur.body:
            if site.unwrap is not None or cur.orelse is not None or cur.finalbody is not None or not cur.handlers:
                return "the request sits in a `try` with `else`/`finally` (or nested `try`s): rewrite by hand"
            rest = [s for s in cur.body.body if s is not site.stmt]  # type: ignore[attr-defined]
            if site.result is None or not all(
                any(n.value == site.result for n in _ref_names(s)) for s in rest
            ) or pm.get(id(child)) is None:
                return ("the `try` around the request also guards statements that do not use its answer: "
                        "unwrap it by hand")
            site.unwrap = cur
            handlers = ", ".join(_code(h.type) if h.type is not None else "everything" for h in cur.handlers)
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


def _side_effects_before(a: ModuleAnalysis, site: _Site) -> list[str]:
    """Statements that run before the request and do something (a call other than a pure
    builtin, an ``await``): with the interim pattern they run after the question (resolver) or
    once per round (low-level)."""
    pm = _parents(a)
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
                found.append(f"`{_code(s).strip().splitlines()[0]}` runs before the request today")
    if site.unwrap is not None and site.form == "resolver":
        for s in site.unwrap.body.body:  # type: ignore[attr-defined]
            if s is site.stmt:
                break
            if _has_effect(s):
                found.append(f"`{_code(s).strip().splitlines()[0]}` runs before the request today")
    if not found:
        return []
    when = ("the question is now asked before the tool body runs" if site.form == "resolver"
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
    attr = call.func.attr.value  # type: ignore[attr-defined]
    recv = call.func.value  # type: ignore[attr-defined]
    base = _base_name(recv)
    ctx_param = next((p for p in fn.params if p.name.value == base), None)
    if ctx_param is None or fn.kinds.get(base or "") not in CONTEXTS:
        return "the request is not made through the tool's own `Context` parameter: rewrite by hand"
    site.ctx_param = base
    if site.kind == ELICITATION:
        if attr == "elicit_url":
            return ("URL-mode elicitation has no resolver marker (`Elicit` is form mode only): return an "
                    "`InputRequiredResult` with `ElicitRequestURLParams` from the tool by hand")
        if a.kind_of(recv, fn) is Kind.SESSION:
            return ("the session form takes a JSON-schema dict; the resolver marker `Elicit(message, Schema)` "
                    "needs a pydantic model: switch to `ctx.elicit(message, Schema)` first, then run the fix again")
        if len(call.args) != 2 or any(x.star for x in call.args):
            return "`ctx.elicit` is not called with exactly a message and a schema: rewrite by hand"
    if site.kind == SAMPLING and any(x.star for x in call.args):
        return "the sampling arguments are passed with `*`/`**`: rewrite by hand"
    # What the request is built from.
    params = {p.name.value for p in fn.params}
    module = _module_names(a)
    reassigned = {n for n, _ in fn.assigns}
    blocking: list[str] = []
    needed: list[str] = []
    for n in _ref_names(cst.Call(func=cst.Name("_"), args=call.args)):
        v = n.value
        if v == "_":
            continue
        if v in params and v != base and v not in reassigned and fn.kinds.get(v) is None:
            if v not in needed:
                needed.append(v)
        elif v in params and v == base:
            blocking.append(v)
        elif v in params or v in reassigned:
            blocking.append(v)
        elif v in module or v in _BUILTINS:
            continue
        else:
            blocking.append(v)
    if blocking:
        names = ", ".join(f"`{b}`" for b in dict.fromkeys(blocking))
        return (f"the request is built from {names}, which only exist mid-body (locals, the context, or "
                "reassigned arguments): a resolver may only use the tool's arguments and module-level names; "
                "move that computation into a module-level function of the arguments, then run the fix again")
    site.args = [p.name.value for p in fn.params if p.name.value in needed]
    if fn.parent is not None or fn.class_name is not None or site.fn.node not in a.module.body:
        return "the tool is not a module-level function: add the resolver by hand"
    # The new parameter goes right before the context parameter.
    plist = fn.node.params
    if ctx_param in plist.params:
        idx = list(plist.params).index(ctx_param)
        if any(p.default is not None for p in list(plist.params)[:idx]) and ctx_param.default is None:
            return "parameters with defaults come before the context parameter: add the resolver parameter by hand"
    elif ctx_param not in plist.kwonly_params:
        return "the context parameter is positional-only or variadic: add the resolver parameter by hand"
    return None


def _fastmcp3_reason(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo, kind: str) -> str | None:
    """Why this fastmcp code is 2.x/3.x code (no interim form), else None. fastmcp 4 removed
    ``ctx.sample``/``sample_step``/``list_roots``/``send_*_list_changed`` and ``sampling_handler=``,
    made ``elicit``'s response type required, and runs on mcp 2.x only."""
    attr = call.func.attr.value  # type: ignore[attr-defined]
    if attr in _FASTMCP3_ONLY and a.kind_of(call.func.value, fn) is Kind.CONTEXT_FASTMCP:  # type: ignore[attr-defined]
        return FASTMCP_REFUSE.format(why=f"`ctx.{attr}` was removed in fastmcp 4", how=_FASTMCP3_ONLY[attr])
    if (kind == ELICITATION and a.kind_of(call.func.value, fn) is Kind.CONTEXT_FASTMCP  # type: ignore[attr-defined]
            and not any(x.keyword is not None and x.keyword.value == "response_type" for x in call.args)
            and sum(1 for x in call.args if x.keyword is None) < 2):
        return FASTMCP_REFUSE.format(why="`ctx.elicit` without a response type, which fastmcp 4 requires",
                                     how=" and pass the response type (`bool` for a confirmation)")
    evidence = _fastmcp3_evidence(a)
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
        return ("the request is not made through the tool's fastmcp `Context` (`ctx.elicit(...)`, "
                "`ctx.session.create_message(...)`): the guard pattern reads `ctx.input_responses`; rewrite by hand")
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
    if site.result is None:
        return "the request's answer is not assigned to a variable (`x = await …`): assign it first, then run the fix again"
    if site.kind == ELICITATION and attr == "elicit_url":
        return ("URL-mode elicitation correlated by `elicitation_id` (gone in 2026-07-28): build the "
                "`ElicitRequestURLParams` request and its correlation through `requestState` by hand")
    if any(x.star for x in call.args):
        return "the request's arguments are passed with `*`/`**`: rewrite by hand"
    ann = fn.node.returns
    if ann is not None and "InputRequiredResult" in _code(ann.annotation) and site.unwrap is None:
        return "the handler already returns interim results: add this request to them by hand"
    others = [c for c in fn.calls if c is not call and request_kind(a, c, fn) is not None]
    if others and not site.alone:
        group = _group(a, site, others)
        if isinstance(group, str):
            return group
    return None


def _first_line(node: cst.CSTNode) -> str:
    return _code(node).strip().splitlines()[0]


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
    pm = _parents(a)
    block = pm.get(id(site.stmt))
    if not isinstance(block, cst.IndentedBlock) or any(pm.get(id(m.stmt)) is not block for m in members):
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
    if site.form == "resolver":
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
            desc += " (fastmcp 4's guard pattern: needs fastmcp>=4)"
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
    pm = _parents(a)
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
        message, schema = (_code(x.value) for x in call.args)
        imports |= {("mcp.server.mcpserver", "Elicit"), ("mcp.server.mcpserver", "ElicitationResult")}
        return f"Elicit[{schema}]", f"Elicit({message}, {schema})", f"ElicitationResult[{schema}]", imports
    args = [_strip(x) for x in call.args if not (x.keyword is not None and x.keyword.value == "related_request_id")]
    positional = [x for x in args if x.keyword is None]
    keywords = [x for x in args if x.keyword is not None]
    msgs = next((x for x in keywords if x.keyword.value == "messages"), None)  # type: ignore[union-attr]
    if msgs is not None:
        keywords.remove(msgs)
        positional = [msgs.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)]
    text = ", ".join(_code(x) for x in positional + keywords)
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
    extra = "".join(f", {k}={_code(m[k])}" for k in ("response_title", "response_description") if k in m)
    return f"parse_elicit_response_type({_code(m['response_type'])}{extra})"


def _fastmcp_context_elicit(site: _Site) -> bool:
    return site.form == "fastmcp" and site.kind == ELICITATION and isinstance(site.call.func.value, cst.Name)  # type: ignore[attr-defined]


def _request_parts(site: _Site) -> tuple[str, str, set[tuple[str, str]]]:
    call = site.call
    attr = call.func.attr.value  # type: ignore[attr-defined]
    if site.kind == ROOTS:
        return "ListRootsRequest()", "ListRootsResult", {("mcp.types", "ListRootsRequest"), ("mcp.types", "ListRootsResult")}
    if _fastmcp_context_elicit(site):
        m = _arg_map(call, ["message", "response_type"])
        req = (f"ElicitRequest(params=ElicitRequestFormParams(message={_code(m['message'])}, "
               f"requested_schema={_fastmcp_elicit_config(site)}.schema))")
        return req, "ElicitResult", {("mcp.types", n) for n in ("ElicitRequest", "ElicitRequestFormParams", "ElicitResult")} | {
            ("fastmcp.server.elicitation", "parse_elicit_response_type")}
    if site.kind == ELICITATION:
        m = _arg_map(call, ["message", "requested_schema"])
        if "requestedSchema" in m:
            m["requested_schema"] = m.pop("requestedSchema")
        req = (f"ElicitRequest(params=ElicitRequestFormParams(message={_code(m['message'])}, "
               f"requested_schema={_code(m['requested_schema'])}))")
        return req, "ElicitResult", {("mcp.types", n) for n in ("ElicitRequest", "ElicitRequestFormParams", "ElicitResult")}
    assert attr == "create_message"
    m = _arg_map(call, ["messages"])
    m.pop("related_request_id", None)
    inner = ", ".join(f"{k}={_code(v)}" for k, v in m.items())
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
        if site.form == "resolver":
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
    plist = ", ".join(_code(p) for p in params)
    resolver = cst.parse_statement(f"def {rname}({plist}) -> {ret_ann}:\n    return {ret_expr}\n")
    resolver = resolver.with_changes(leading_lines=[])
    top = fn.node
    ed.before_module_stmt.setdefault(id(top), []).append(resolver)
    new_param = cst.Param(cst.Name(pname), cst.Annotation(cst.parse_expression(f"Annotated[{param_ann}, Resolve({rname})]")))
    ed.insert_param.setdefault(id(fn.node), []).append((site.ctx_param or "", new_param))
    ed.drop_ctx[id(fn.node)] = site.ctx_param or ""
    if site.result is not None:
        ed.repl[id(site.stmt)] = _REMOVE
    else:
        ed.repl[id(site.await_node)] = cst.Name(pname)
    if site.unwrap is not None:
        ed.repl[id(site.unwrap)] = "unwrap"


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
    block = _parents(a).get(id(stmt))
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
    if ret is not None and "InputRequiredResult" not in _code(ret.annotation):
        ed.returns[id(fn.node)] = f"{_code(ret.annotation)} | InputRequiredResult"


class _Rewriter(cst.CSTTransformer):
    def __init__(self, ed: _Edits) -> None:
        self.ed = ed

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:  # type: ignore[override]
        updated_node = super().on_leave(original_node, updated_node)
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
        if key in self.ed.returns:
            node = node.with_changes(returns=cst.Annotation(cst.parse_expression(self.ed.returns[key])))
        if key in self.ed.insert_param:
            node = node.with_changes(params=_insert_params(node, self.ed.insert_param[key], self.ed.drop_ctx.get(key)))
        return node

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


def _insert_params(fn: cst.FunctionDef, ops: list[tuple[str, cst.Param]], ctx: str | None) -> cst.Parameters:
    params = fn.params
    drop = bool(ctx) and _uses(fn.body, ctx) == 0 and not any(_uses(d, ctx) for d in fn.decorators)  # type: ignore[arg-type]
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

"""What a pushed request is and where it sits — the part of the ``interim`` fix every SDK form shares.

- which calls are requests (:func:`request_kind`: roots, sampling, elicitation) and which are
  already the legacy branch of an era-portable handler (:func:`legacy_only`);
- which SDK generation the code around a request is written for, as the analysis sees it
  (:func:`generation`; for a helper, :func:`callers_generation`; the dependency pins are heard in
  :mod:`.refusals`);
- the decided rewrite of one request (:class:`Site`, and :class:`Caller` for a helper's callers),
  and why its answer has no name of its own when it has none (:func:`unassigned_reason`);
- the checks every form makes: where in the handler the request may sit (a loop, a branch, a
  ``try`` around it), what runs before it (side effects, early exits), and which local names are
  aliases of the context (what a resolver may read is :mod:`.scope`'s).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits, Spell, as_is, rewrite
from mcpmigrate.codemods.effects import definition_effect, has_effect
from mcpmigrate.codemods.interim.scope import bindings
from mcpmigrate.names import (
    all_name_values,
    assigned,
    base_name,
    contains_any,
    enclosing_stmt,
    fresh,
    ref_names,
)

if TYPE_CHECKING:
    from mcpmigrate.codemods.interim.inject import Injection
    from mcpmigrate.codemods.interim.joint import Joint
    from mcpmigrate.codemods.interim.thread import Thread

#: The request kinds (what :func:`request_kind` returns).
ROOTS, SAMPLING, ELICITATION = "roots", "sampling", "elicitation"
#: Handler roles (``FunctionInfo.role``) of a high-level server (``MCPServer``, fastmcp) and of a low-level ``Server``.
HL_ROLES = {"tool", "prompt", "resource"}
LL_ROLES = {"lowlevel-tool", "lowlevel-prompt", "lowlevel-resource"}


# ---------------------------------------------------------------------------------------------
# What kind of request a call is, and for which SDK


#: The method names :func:`request_kind` knows (any other call is no request).
_REQUEST_METHODS = frozenset(
    {
        "list_roots",
        *S.SESSION_SAMPLING_METHODS,
        *S.FASTMCP_SAMPLING_METHODS,
        *S.SESSION_ELICIT_METHODS,
        *S.CONTEXT_ELICIT_METHODS,
    }
)


def request_kind(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo | None) -> str | None:
    """``roots`` / ``sampling`` / ``elicitation`` when ``call`` pushes such a request through a
    session or a context (the detectors' definition), else None."""
    if not isinstance(call.func, cst.Attribute) or call.func.attr.value not in _REQUEST_METHODS or legacy_only(a, call):
        return None
    attr = call.func.attr.value
    recv = call.func.value
    kind = a.kind_of(recv, fn)
    session = kind is Kind.SESSION or (
        kind is None and isinstance(recv, cst.Attribute) and recv.attr.value == "session" and a.imports_mcp()
    )
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
        if (
            isinstance(cur, cst.If)
            and child is cur.body
            and isinstance(cur.test, cst.UnaryOperation)
            and isinstance(cur.test.operator, cst.Not)
            and _modern_test(cur.test.expression)
        ):
            return True
        child, cur = cur, pm.get(id(cur))
    return False


def _modern_test(test: cst.BaseExpression) -> bool:
    if not isinstance(test, cst.Call):
        return False
    f = test.func
    name = f.attr.value if isinstance(f, cst.Attribute) else f.value if isinstance(f, cst.Name) else ""
    return (
        name == "is_version_at_least"
        and len(test.args) == 2
        and isinstance(test.args[1].value, cst.SimpleString)
        and "2026-07-28" in test.args[1].value.value
    )


def generation(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo) -> str | None:
    """The SDK generation the request's code is written for, as the analysis sees it: its receiver's
    kind, then the function's server, then the module's (``surfaces.MCP1``/``MCP2``/``FASTMCP``)."""
    recv = call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    base = base_name(recv, through_await=False)
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


def callers_generation(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
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


# ---------------------------------------------------------------------------------------------
# The decided rewrite of one request


@dataclass(eq=False)
class Site:
    """The interim rewrite decided for one request (``FixPlan.site``): the form, the request and
    its statement, and what the checks found on the way. Built while planning; the rewrite only
    reads it."""

    form: str  # resolver | lowlevel | fastmcp | guard (an MCPServer tool's round, in place)
    kind: str
    fn: FunctionInfo
    call: cst.Call
    stmt: cst.BaseStatement
    await_node: cst.Await
    result: str | None = None  # the variable the statement assigns (`x = await …`)
    key: str | None = None  # low-level: the inputRequests key, when it is not `result` (a dispatch path's own)
    unsafe: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)  # resolver: tool arguments it takes
    unwrap: cst.Try | None = None
    kept: cst.Try | None = None  # guard: the `try` around the request, kept with its handlers
    relays: list[tuple[FunctionInfo, cst.Call]] | None = None  # guard in a helper: the tools' calls that relay
    across: list[dict[str, Any]] = field(default_factory=list)  # guard in a helper: callers in other modules
    ctx_param: str | None = None
    inject: Injection | None = None  # fastmcp: the request went through `get_context()`, now the handler's parameter
    alone: bool = False  # checked as a member of a group (no group check of its own)
    group: list[Site] | None = None  # low-level/fastmcp: every request of the handler, in order
    aliases: list[cst.SimpleStatementLine] = field(default_factory=list)  # `session = ctx.session` on the way
    callers: list[Caller] | None = None  # a helper's request: one resolver per calling tool
    helper_params: list[str] = field(default_factory=list)  # helper parameters the request is built from
    pin: str | None = None  # the dependency pin the SDK generation was decided by, when one was
    stateless: str | None = None  # the code that serves the module over stateless HTTP, when it does
    copied: list[cst.SimpleStatementLine] = field(default_factory=list)  # resolver: pure locals it recomputes
    moved: list[cst.ClassDef] = field(default_factory=list)  # resolver: classes of the tool body moved above it
    thread: Thread | None = None  # a helper's request asked by the handlers that reach it (``thread.Thread``)
    reask: cst.While | None = None  # fastmcp: the tool's `while True:` that re-asks until the answer passes
    joints: dict[int, Joint] = field(
        default_factory=dict
    )  # id(handler node) -> the one round of every request it reaches

    def project_needs(self) -> list[dict[str, Any]]:
        """What the project step reads once this module is fixed (``mcpmigrate/project_answers.py``):
        the callers in other modules that must ask this request and pass the answer
        (``thread.Thread.across``) — plain data, kept on the finding when its nodes are dropped."""
        return list(self.thread.across) if self.thread is not None else list(self.across)

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        """Record the rewrite decided for this request: a helper's request (a resolver per calling
        tool), an MCPServer resolver, a helper's request threaded to the handlers that reach it
        (``thread``), or a low-level/fastmcp handler's round with every request of its ``group`` —
        or of its ``joints``, with its helpers' (recorded by the first member that is applied). An
        MCP207 finding carries the
        site of the request its ``try`` guards; a request is recorded once per round. The names the
        rewrites take are shared by every site of the round (``Edits.shared``)."""
        # the rewriters read Site: imported here, not at the top of this module
        from mcpmigrate.codemods.interim.helpers import helper_edits
        from mcpmigrate.codemods.interim.lowlevel import lowlevel_edits
        from mcpmigrate.codemods.interim.mcpserver import resolver_edits
        from mcpmigrate.codemods.interim.thread import thread_edits

        done: set[int] = edits.shared("interim.done", set)
        if id(self.call) in done:
            return
        taken: set[str] = edits.shared("interim.taken", lambda: set(all_name_values(analysis)))
        if self.thread is not None:
            done.add(id(self.call))
            thread_edits(analysis, self, edits)
        elif self.joints:  # the handler's own request, asked with those its helpers make
            from mcpmigrate.codemods.interim.joint import write_joint

            done.add(id(self.call))
            for joint in self.joints.values():
                write_joint(analysis, joint, edits)
        elif self.relays is not None:  # the helper asks in place, its calling tools relay the interim result
            from mcpmigrate.codemods.interim.lowlevel import lowlevel_edits
            from mcpmigrate.codemods.interim.relay import relay_call

            done.add(id(self.call))
            lowlevel_edits(analysis, [self], edits)
            for tool, call in self.relays:
                relay_call(analysis, edits, tool, call, "mcp_types" if self.form == "fastmcp" else "mcp.types")
        elif self.callers is not None:
            done.add(id(self.call))
            helper_edits(analysis, self, edits, taken, edits.shared("interim.tool_names", dict))
        elif self.form == "resolver":
            done.add(id(self.call))
            resolver_edits(analysis, self, edits, taken)
        else:
            group = self.group or [self]
            done.update(id(m.call) for m in group)
            lowlevel_edits(analysis, group, edits)


@dataclass(eq=False)
class Caller:
    """A tool's call of a helper that makes the request: the tool gets the resolver."""

    fn: FunctionInfo
    call: cst.Call
    ctx_arg: cst.Arg  # the argument that hands the helper the context
    ctx_param: str  # the tool's own context parameter
    values: dict[str, cst.BaseExpression]  # helper parameter -> what this call gives it
    args: list[str] = field(default_factory=list)  # tool arguments the resolver takes
    aliases: list[cst.SimpleStatementLine] = field(default_factory=list)
    copied: list[cst.SimpleStatementLine] = field(default_factory=list)  # pure locals the resolver recomputes


def answer_name(site: Site) -> str | None:
    """``x`` when the request's statement is ``x = await <request>`` (whether or not ``x`` is
    bound elsewhere too)."""
    stmt = site.stmt
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        small = stmt.body[0]
        if small.value is site.await_node and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            return small.targets[0].target.value
    return None


#: The name a thrown-away answer takes in a round written in place (:func:`discarded_name`): the
#: leading underscore says it is not read (ruff's dummy names), as the original never read it.
DISCARDED_NAME = {ROOTS: "_roots", SAMPLING: "_sampled", ELICITATION: "_elicited"}


def discarded(stmt: cst.CSTNode | None, await_node: cst.CSTNode) -> bool:
    """``stmt`` is ``await <request>`` on its own, the answer thrown away (``await_node`` its ``await``)."""
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and stmt.body[0].value is await_node
    )


def discarded_name(a: ModuleAnalysis, site: Site) -> str:
    """A name for the answer of ``await <request>`` made as a statement (:func:`discarded`), which
    the round written in place binds on 2026-07-28 (and reads its key under): ``_sampled``,
    ``_elicited``, ``_roots``, suffixed (``_sampled_2``) when the module spells that name anywhere
    (so it shadows nothing in the function or module scope) or an earlier such request of the same
    function takes it (so two requests of one round keep their own keys). Decided from the text
    alone, so every site of a round, and a later ``fix``, name each request alike."""
    taken = set(all_name_values(a))
    for call in site.fn.calls:
        kind = request_kind(a, call, site.fn)
        aw = a.parents.get(id(call))
        if kind is None or not isinstance(aw, cst.Await) or not discarded(enclosing_stmt(a, call), aw):
            continue
        name = fresh(taken, DISCARDED_NAME[kind])
        if call is site.call:
            return name
    raise AssertionError("discarded_name: the site's request is not a discarded request of its function")


def unassigned_reason(site: Site) -> str:
    """Why the answer has no name of its own: not assigned, or its name is bound elsewhere too."""
    name = answer_name(site)
    if name is None:
        return "the request's answer is not assigned to a variable (`x = await …`): assign it first, then run the fix again"
    if name in site.fn.param_names():
        return f"the answer is stored in `{name}`, a parameter of `{site.fn.name}`: give it a name of its own, then run the fix again"
    return (
        f"the answer's name `{name}` is bound more than once in `{site.fn.name}`: give this answer a name that is "
        "bound only here, then run the fix again"
    )


# ---------------------------------------------------------------------------------------------
# Where the request sits, and what runs before it


def where_reason(a: ModuleAnalysis, site: Site) -> str | None:
    """Where in the handler the request may sit: the handler's own block (a resolver: its top
    level, or a ``try`` at its top level that only guards the request and its uses)."""
    pm = a.parents
    body = site.fn.node.body
    child: cst.CSTNode = site.stmt
    cur = pm.get(id(child))
    while cur is not None and cur is not body:
        if isinstance(cur, cst.Try) and child is cur.body and (site.form == "guard" or site.kept is not None):
            if cur.finalbody is not None or not cur.handlers:
                return (
                    "the request sits in a `try` with `finally`: on 2026-07-28 it would also run when the tool "
                    "returns the interim result, once per round; rewrite by hand"
                )
            site.kept = site.kept or cur  # the innermost: its handlers see the round's capability error
        elif isinstance(cur, cst.Try) and child is cur.body:
            if site.unwrap is not None or cur.orelse is not None or cur.finalbody is not None or not cur.handlers:
                return "the request sits in a `try` with `else`/`finally` (or nested `try`s): rewrite by hand"
            rest = [s for s in cur.body.body if s is not site.stmt and not _builds_request(site, cur, s)]
            if site.result is None and answer_name(site) is not None:
                if not _bound_only_here(site, cur):
                    return unassigned_reason(site)
                site.result = answer_name(site)  # its other bindings are in the handlers, which go
            uses = {site.result}  # the answer, and locals computed from it (`text = result.content.text`)
            for s in rest:
                if any(n.value in uses for n in ref_names(s)):
                    uses |= assigned(s)
            if (
                site.result is None
                or not all(any(n.value in uses for n in ref_names(s)) for s in rest)
                or pm.get(id(child)) is None
            ):
                reason = _kept_try_reason(site, cur)
                if reason:
                    return reason
                site.kept = cur  # a fastmcp 4 tool's round in place, inside the `try` (as `guard`)
                child, cur = cur, pm.get(id(cur))
                continue
            site.unwrap = cur
            site.unsafe.append(_unwrap_note(site, cur))
        elif isinstance(cur, cst.While) and isinstance(cur.test, cst.Name) and cur.test.value == "True":
            reason = reask_reason(site, cur)
            if reason:
                return reason
            site.reask = cur  # each re-ask is one more round, under its own key
        elif isinstance(cur, (cst.For, cst.While, cst.CompFor)):
            return "the request is made in a loop: each round would need its own stable key; rewrite by hand"
        elif isinstance(cur, (cst.If, cst.Else, cst.With, cst.Match, cst.MatchCase)) and site.form == "resolver":
            return (
                "the request runs only on some paths (inside `if`/`with`/`match`): a resolver would ask on "
                "every call; rewrite by hand"
            )
        elif isinstance(cur, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return "the request is made in a nested function: rewrite by hand"
        child, cur = cur, pm.get(id(cur))
    if site.form == "resolver" and site.unwrap is not None and pm.get(id(site.unwrap)) is not body:
        return "the `try` around the request is not at the top level of the tool: rewrite by hand"
    return None


def _unwrap_note(site: Site, node: cst.Try) -> str:
    """The review note of unwrapping ``node`` around the request: its fallbacks go. A broad handler
    (bare, ``Exception``, ``BaseException``) around an elicitation also caught an accepted answer
    whose content fails the schema (the SDK's ``ctx.elicit`` validates it and raises inside the
    ``try``); unwrapped, that answer is a tool error too (python-sdk's everything-server
    ``test_elicitation_sep1330_enums``)."""
    handlers = " and ".join(f"`except {code_of(h.type)}`" if h.type else "`except`" for h in node.handlers)
    note = (
        f"the `try` around the request is unwrapped and its {handlers} "
        + ("fallbacks are" if len(node.handlers) > 1 else "fallback is")
        + " dropped: on 2026-07-28 the question is now asked where the fallback ran, and a legacy client that "
        "cannot answer gets a tool error instead of it"
    )
    broad = any(h.type is None or code_of(h.type) in ("Exception", "BaseException") for h in node.handlers)
    if site.kind == ELICITATION and broad:
        note += ", as does an accepted answer whose content fails the schema's validation"
    return note


def _kept_try_reason(site: Site, node: cst.Try) -> str | None:
    """Why the ``try`` ``node`` around a request that cannot be unwrapped (it also guards statements
    that do not use the answer) cannot be kept around the round written in place, else None. A
    fastmcp 4 tool can return the ``InputRequiredResult`` from inside it, as an ``MCPServer`` tool's
    round does (:mod:`.guard`): the legacy request stays in the same ``try``, and the round's -32021
    for a client that did not declare the capability is raised inside it, where its handlers catch
    it as they caught the client's refusal."""
    unwrap = "the `try` around the request also guards statements that do not use its answer: unwrap it by hand"
    if site.form != "fastmcp" or site.fn.role not in HL_ROLES or site.unwrap is not None:
        return unwrap  # a helper's request is asked by its tools (threaded), away from its `try`
    return unassigned_reason(site) if site.result is None else None


def reask_reason(site: Site, loop: cst.While) -> str | None:
    """Why the ``while True:`` ``loop`` around the request cannot be its rounds, else None. On
    2026-07-28 each re-ask is one more ``InputRequiredResult`` round under its own key (the round's
    number travels in ``requestState``), and each retry runs the tool anew up to the loop: possible
    for a fastmcp request (the tool returns the round) when nothing in the loop carries a
    value from one re-ask to the next (a retry starts it over). In a helper, the helper returns the
    round and the tools that call it relay it (:func:`.relay.relay_plan`)."""
    if site.reask is not None:
        return "the request is re-asked by two nested `while True:` loops: rewrite by hand"
    if site.form != "fastmcp":
        where = "" if site.fn.role in HL_ROLES else f" in the helper `{site.fn.name}`"
        return (
            f"the request is re-asked by `while True:`{where} until its answer passes the checks after it; on "
            "2026-07-28 each re-ask is one more round the tool must return (a new `InputRequiredResult` under a new "
            "key while the retry's answer fails)"
            + (
                ", and an answer handed down from the tool answers only the first ask: move the loop into the tool "
                "and run the fix again"
                if where
                else ": rewrite by hand"
            )
        )
    if loop.orelse is not None:
        return "the re-ask loop `while True:` has an `else`: rewrite by hand"
    carried = _carried(site, loop)
    if carried:
        return (
            f"the re-ask loop carries `{carried}` from one ask to the next; on 2026-07-28 each re-ask is a new round "
            "that runs the tool anew, so it would start over every round: rewrite by hand"
        )
    return None


def _carried(site: Site, loop: cst.While) -> str | None:
    """A value the loop's body carries from one iteration to the next, else None: an augmented
    assignment, a name it binds that is also bound outside it (or a parameter), or a local bound
    before it that it changes in place (``tries.append(...)``, ``seen[k] = …``, ``box.n = …``)."""
    params = set(site.fn.param_names())
    outside = {n for n, v in site.fn.assigns if not any(x is v for x in walk(loop))} - params
    for n in walk(loop.body):
        if isinstance(n, cst.AugAssign):
            return code_of(n.target)
        changed = None
        if isinstance(n, cst.AssignTarget) and isinstance(n.target, (cst.Subscript, cst.Attribute)):
            changed = base_name(n.target, through_await=False)
        elif isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute):
            changed = base_name(n.func.value, through_await=False)
        if changed in outside:
            return changed
    clash = sorted(_rebinds(loop.body) & (outside | params))
    return clash[0] if clash else None


def _rebinds(node: cst.CSTNode) -> set[str]:
    """The names ``node`` binds (``x = …``, ``for x in``, ``as x``, ``x := …``), not those it only
    indexes in a target (``seen[k] = …`` binds neither ``seen`` nor ``k``)."""
    out: set[str] = set()
    for n in walk(node):
        target = None
        if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.NamedExpr, cst.For, cst.CompFor)):
            target = n.target
        elif isinstance(n, cst.AsName):
            target = n.name
        parts = target.elements if isinstance(target, (cst.Tuple, cst.List)) else [target]
        for p in parts:
            value = p.value if isinstance(p, (cst.Element, cst.StarredElement)) else p
            if isinstance(value, cst.Name):
                out.add(value.value)
    return out


def _builds_request(site: Site, node: cst.Try, stmt: cst.CSTNode) -> bool:
    """``stmt`` only builds the request (low-level/fastmcp): a statement of ``node``'s body before
    it that binds names with a pure value (``Model = type("Model", (BaseModel,), {...})``,
    ``params = {...}``) read by the request's arguments or by a later such statement. It stays
    where it is, before the request, when the ``try`` is unwrapped."""
    if site.form == "resolver":  # the request moves into a resolver, without it
        return False
    ids = [id(s) for s in node.body.body]
    if id(site.stmt) not in ids:
        return False
    read = {n.value for n in ref_names(site.call)}
    for s in reversed(node.body.body[: ids.index(id(site.stmt))]):
        binds = _pure_binding(s)
        if binds and binds & read:
            if s is stmt:
                return True
            read |= {n.value for n in ref_names(s)}
    return False


def _pure_binding(stmt: cst.CSTNode) -> set[str]:
    """The names ``stmt`` binds when it is ``a = b = <pure value>`` and nothing else."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
        return set()
    small = stmt.body[0]
    if not isinstance(small, cst.Assign) or not all(isinstance(t.target, cst.Name) for t in small.targets):
        return set()
    return {t.target.value for t in small.targets if isinstance(t.target, cst.Name)} if _pure(small.value) else set()


def _pure(expr: cst.BaseExpression) -> bool:
    """Literals, names, f-strings of names, tuple/list/set/dict displays of them, ``type(...)`` calls
    and constructor calls (a capitalised name, as :func:`~mcpmigrate.codemods.effects.has_effect`
    counts them: ``Field(description=...)``) of them."""
    if isinstance(expr, (cst.Name, cst.BaseNumber, cst.SimpleString, cst.Ellipsis)):
        return True
    if isinstance(expr, cst.ConcatenatedString):
        return _pure(expr.left) and _pure(expr.right)
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        return all(isinstance(e, cst.Element) and _pure(e.value) for e in expr.elements)
    if isinstance(expr, cst.Dict):
        return all(isinstance(e, cst.DictElement) and _pure(e.key) and _pure(e.value) for e in expr.elements)
    if isinstance(expr, cst.FormattedString):
        return all(_pure(p.expression) for p in expr.parts if isinstance(p, cst.FormattedStringExpression)) and not any(
            isinstance(p, cst.FormattedStringExpression) and p.format_spec for p in expr.parts
        )
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "type":
        return all(not a.star and a.keyword is None and _pure(a.value) for a in expr.args)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value[:1].isupper():
        return all(not a.star and _pure(a.value) for a in expr.args)  # a constructor (effects.has_effect)
    return False


def _bound_only_here(site: Site, node: cst.Try) -> bool:
    """The answer's name is a local bound by the request's statement and, besides, only in the
    handlers of ``node`` (``except MCPError: answer = None``), which the unwrapping drops."""
    name = answer_name(site)
    if name is None or name in site.fn.param_names():
        return False
    others = [b for b in bindings(site.fn.node.body, name) if not contains_any(site.stmt, {id(b)})]
    return all(any(contains_any(h, {id(b)}) for h in node.handlers) for b in others)


def context_reads(a: ModuleAnalysis, fn: FunctionInfo) -> set[int]:
    """The ids of ``fn``'s calls of fastmcp's ``get_context()`` (resolved through the module's imports,
    :data:`~mcpmigrate.surfaces.GET_CONTEXT_FUNCTIONS`): it only returns the current request's
    ``Context``, so it has no effect to repeat; a function of the project's own named alike may."""
    return {id(c) for c in fn.calls if not c.args and a.qualname(c.func) in S.GET_CONTEXT_FUNCTIONS}


def wrapped_by(fn: FunctionInfo) -> str | None:
    """The first decorator of ``fn`` applied before a registration (below it: ``@mcp.tool``,
    ``@mcp.resource(…)``, ``@mcp.prompt()``, :data:`~mcpmigrate.surfaces.HANDLER_DECORATORS`) that
    is not one itself, as spelled, else None. Such a wrapper of the project's own (``def
    plain(fn): async def inner(dish): return await fn(dish)``) is what the SDK inspects and calls:
    measured on fastmcp 4.2.3 (an injected ``Context``) and mcp 2.3 (a resolver parameter), the
    handler given a new parameter then fails every call on both eras (the wrapper does not pass it).
    A decorator above every registration wraps what they return, not what the SDK calls."""
    registered = False
    for dec in fn.node.decorators:
        target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        if isinstance(target, cst.Attribute) and target.attr.value in S.HANDLER_DECORATORS:
            registered = True
        elif registered:
            return code_of(dec.decorator)
    return None


def side_effects_before(a: ModuleAnalysis, site: Site, when: str | None = None) -> list[str]:
    """Statements that run before the request and do something (a call other than a pure
    builtin, an ``await``): with the interim pattern they run after the question (resolver) or
    once per round (low-level)."""
    pm = a.parents
    found: list[str] = []
    reads = context_reads(a, site.fn)
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
            if isinstance(s, cst.FunctionDef) and not s.decorators:  # a nested helper, defined: nothing runs
                continue
            if isinstance(s, cst.ClassDef) and definition_effect(s) is None:  # a class, defined: nothing else runs
                continue
            if has_effect(s, reads) and not _pure_binding(s) and not (site.form != "resolver" and _branch_left(s)):
                found.append(f"`{code_of(s).strip().splitlines()[0]}` runs before the request today")
    if site.unwrap is not None and site.form == "resolver":
        for stmt in site.unwrap.body.body:
            if stmt is site.stmt:
                break
            if has_effect(stmt, reads):
                found.append(f"`{code_of(stmt).strip().splitlines()[0]}` runs before the request today")
    if not found:
        return []
    when = when or (
        "the question is now asked before the tool body runs"
        if site.form == "resolver"
        else "on 2026-07-28 the code before the request runs once per round"
    )
    return [f"{'; '.join(found[:2])} — {when}"]


def _branch_left(s: cst.CSTNode) -> bool:
    """``if <test without effects>: … return`` (no ``else``) before the request: a call that reaches
    the request never ran that body (another branch of a ``params.name`` dispatch), nor does its retry
    (an interim round; a resolver, which asks first, keeps the note: ``exits_before`` says the rest)."""
    if not (isinstance(s, cst.If) and s.orelse is None and isinstance(s.body, cst.IndentedBlock) and s.body.body):
        return False
    last = s.body.body[-1]
    ends = isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise))
    return ends and not has_effect(cst.Expr(s.test))


def exits_before(a: ModuleAnalysis, stmt: cst.CSTNode, fn: FunctionInfo) -> str | None:
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
                if can_leave(x):
                    return first_line(x)
        cur = block
    return None


def always_runs(a: ModuleAnalysis, node: cst.CSTNode, fn: FunctionInfo) -> str | None:
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
        if isinstance(
            cur, (cst.For, cst.While, cst.CompFor, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
        ):
            return "it is in a loop (each round would need its own question)"
        if isinstance(cur, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return "it is in a nested function"
        child, cur = cur, pm.get(id(cur))
    return None


def can_leave(stmt: cst.CSTNode) -> bool:
    """Whether ``stmt`` holds a ``return`` or a ``raise`` of its own function (not one in the body of
    a function it defines, such as a method of a class it defines)."""
    stack = [stmt]
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.Return, cst.Raise)):
            return True
        if isinstance(n, cst.FunctionDef) and n is not stmt:
            continue
        stack.extend(n.children)
    return False


# ---------------------------------------------------------------------------------------------
# What the request is built from, and which names are the context


def slot_reason(fn: FunctionInfo, ctx_name: str) -> str | None:
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


_ALIAS_ATTRS = {"session", "request_context"}


def context_of(
    a: ModuleAnalysis, fn: FunctionInfo, expr: cst.BaseExpression
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
    return context_alias(a, fn, e.value)


def context_alias(
    a: ModuleAnalysis, fn: FunctionInfo, name: str
) -> tuple[str, list[cst.SimpleStatementLine]] | str | None:
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
        head = base_name(value, through_await=False)
        expr: cst.BaseExpression = value
        while isinstance(expr, cst.Attribute) and expr.attr.value in _ALIAS_ATTRS:
            expr = expr.value
        if not isinstance(expr, cst.Name) or head is None:
            return None
        if len(values) != 1:
            return f"the request goes through `{cur}`, which is assigned more than once: rewrite by hand"
        stmt = enclosing_stmt(a, value)
        if not (
            isinstance(stmt, cst.SimpleStatementLine)
            and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Assign)
            and len(stmt.body[0].targets) == 1
            and isinstance(stmt.body[0].targets[0].target, cst.Name)
            and stmt.body[0].value is value
            and isinstance(body, cst.IndentedBlock)
            and stmt in body.body
        ):
            return (
                f"the request goes through the alias `{cur}`, which is not bound by a plain assignment at the top "
                "of the tool: rewrite by hand"
            )
        stmts.append(stmt)
        cur = head
    if fn.kinds.get(cur) not in CONTEXTS:
        return None
    return cur, stmts


# ---------------------------------------------------------------------------------------------
# Small syntax helpers of the messages and the rewrite


def exist(names: list[str]) -> str:
    """``only exists`` / ``only exist``: the verb for the blocking names of a manual message."""
    return "only exists" if len(dict.fromkeys(names)) == 1 else "only exist"


def first_line(node: cst.CSTNode) -> str:
    """The first line of ``node``'s code (how a message names a statement)."""
    return code_of(node).strip().splitlines()[0]


def arg_map(call: cst.Call, positional: list[str]) -> dict[str, cst.BaseExpression]:
    """Parameter name -> the value ``call`` passes, the positional arguments named by ``positional``."""
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


def without(node: cst.CSTNode, skip: cst.CSTNode) -> cst.CSTNode:
    """``node`` with the subtree ``skip`` replaced by a name (to look at the rest of a statement)."""
    cut = Edits()
    cut.replace(skip, cst.Name("_"))
    return rewrite(node, cut)  # type: ignore[return-value]  # only a replacement by a Name: never a sentinel


def elicit_outcome_code(key: str, accepted: str, module: str, spell: Spell = as_is) -> str:
    """The lines (inside the 2026-07-28 branch of a round) that turn the elicitation answer under
    ``key`` into what the SDK's ``ctx.elicit`` returns: ``accepted`` (the SDK's accepted outcome,
    built from ``<key>.content``) for an accept, else the ``DeclinedElicitation()`` /
    ``CancelledElicitation()`` of ``module`` (``fastmcp.server.elicitation``,
    ``mcp.server.elicitation``). One writer for every SDK's ``ctx.elicit``."""
    declined, cancelled = spell(module, "DeclinedElicitation"), spell(module, "CancelledElicitation")
    return (
        f"    {key} = (\n"
        f"        {accepted}\n"
        f'        if {key}.action == "accept"\n'
        f'        else {declined}() if {key}.action == "decline" else {cancelled}()\n'
        f"    )\n"
    )

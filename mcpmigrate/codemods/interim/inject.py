"""fastmcp 4: a request a handler makes through ``get_context()`` goes through the ``Context``
parameter fastmcp injects, so that the guard pattern can read ``ctx.input_responses``.

fastmcp 4 (checked on 4.2.3) hands a parameter annotated with its ``Context`` to every tool,
resource (static or template) and prompt, keyword-only too, and keeps it out of the tool's
``inputSchema``, the prompt's arguments and a template's URI parameters; inside the request it is
the very object ``fastmcp.server.dependencies.get_context()`` returns, on legacy and 2026-07-28
connections alike. So::

    @mcp.resource("story://{topic}")                    @mcp.resource("story://{topic}")
    async def story(topic: str) -> str:                 async def story(topic: str, ctx: Context) -> str:
        get_context()                            →          reply = await ctx.elicit(...)
        reply = await get_context().elicit(...)

- the handler's existing parameter annotated with fastmcp's ``Context`` is reused; else it takes a
  new one, ``ctx`` (or a free variant), annotated with the module's own import of ``Context``
  (else ``from fastmcp import Context``, under a free alias when the name is taken);
- every ``get_context()`` call in the handler's own code reads that parameter; a ``get_context()``
  statement of its own (it only fetched the context) goes;
- then the guard pattern applies as for ``ctx.elicit(...)`` / ``ctx.session.create_message(...)``
  (:func:`.fastmcp.fastmcp_reason` records the parameter as the site's context).

The same holds where the handler hands ``get_context()`` to a helper that takes the context as a
parameter (``await confirm(get_context(), dish)``): the threading (:mod:`.thread`) asks in the
handler, through the parameter. A helper that calls ``get_context()`` itself has no context
parameter for the threading to follow, and stays manual with that reason (its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis, code_of
from mcpmigrate.codemods.edits import Edits, trailing_comment
from mcpmigrate.codemods.interim.scope import all_params, bindings, scope_nodes
from mcpmigrate.codemods.interim.sites import first_line, wrapped_by
from mcpmigrate.codemods.port.context import context_param
from mcpmigrate.codemods.port.renames import module_bindings
from mcpmigrate.names import enclosing_stmt, fresh, module_names, name_refs, ref_names

#: The handler roles fastmcp injects a ``Context`` parameter into.
_INJECTED = ("tool", "resource", "prompt")


@dataclass(frozen=True)
class Injection:
    """A handler's requests through ``get_context()`` read its fastmcp ``Context`` parameter ``name``
    (``new``: the fix adds it); ``spellings``: how the handler spells ``get_context`` (``get_context``,
    ``deps.get_context``), every call of which in its own code becomes ``name``."""

    name: str
    new: bool
    spellings: frozenset[str]


def get_context_call(a: ModuleAnalysis, expr: cst.BaseExpression) -> cst.Call | None:
    """The ``get_context()`` call a request's receiver is (``get_context().elicit``) or reads the
    session of (``get_context().session.create_message``), else None."""
    if isinstance(expr, cst.Attribute) and expr.attr.value == "session":
        expr = expr.value
    if isinstance(expr, cst.Call) and not expr.args and a.qualname(expr.func) == S.GET_CONTEXT:
        return expr
    return None


def injection(a: ModuleAnalysis, fn: FunctionInfo, call: cst.Call) -> Injection | str | None:
    """How the handler ``fn`` makes its request ``call`` through its own context: through
    ``get_context()``, the :class:`Injection`; why it cannot (a reason); None when the request is
    not made through ``get_context()`` (or ``fn`` is no fastmcp handler)."""
    recv = call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    if get_context_call(a, recv) is None:
        return None
    if fn.role not in _INJECTED:
        return (
            f"the request is made through `{code_of(recv)}` in `{fn.qualname}`, which is not the tool, resource or "
            "prompt itself: fastmcp injects a `Context` parameter only there, and this fix passes the context down "
            "only from a parameter; take `ctx: Context` in the helper, pass it from the handler, and run the fix again"
        )
    calls = [c for c in scope_nodes(fn.node.body) if isinstance(c, cst.Call) and a.qualname(c.func) == S.GET_CONTEXT]
    spellings = frozenset(code_of(c.func) for c in calls)
    bound = {n for n, _ in fn.assigns} | set(fn.param_names())
    shadowed = sorted({s.partition(".")[0] for s in spellings} & bound)
    if shadowed:
        return (
            f"`{fn.qualname}` also binds `{shadowed[0]}`, the name it calls `get_context()` through: the fix cannot "
            "tell which calls read the request's context; take `ctx: Context` as a parameter and make the request "
            "through it, then run the fix again"
        )
    for p in fn.params:
        if p.annotation is not None and a.kind_of_annotation(p.annotation.annotation) is Kind.CONTEXT_FASTMCP:
            name = p.name.value
            if name in {n for n, _ in fn.assigns}:
                return f"`{fn.qualname}` rebinds its `Context` parameter `{name}`: make the request through it by hand"
            return Injection(name, False, spellings)
    wrapper = wrapped_by(fn)
    if wrapper:
        return (
            f"`{fn.qualname}` is wrapped by `@{wrapper}` before fastmcp registers it: what it wraps the handler in "
            "is what fastmcp calls, and a new `Context` parameter reaches the handler only if that "
            "wrapper forwards the signature and passes it on; take the context as a parameter by hand"
        )
    used = _used_as_value(a, fn)
    if used:
        return (
            f"`{fn.qualname}` is also used as a value (`{used}`), not only registered with fastmcp: whoever calls "
            "it that way would not pass a new `Context` parameter; take the context as a parameter by hand"
        )
    taken = {n.value for n in ref_names(fn.node)} | bound | module_names(a)
    return Injection(fresh(taken, "ctx"), True, spellings)


def _used_as_value(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
    """The first line that reads the handler's name other than to register it (``TABLE = {"x": x}``,
    ``x(...)``), else None: such a caller would not pass the new parameter. A name spelled alike
    counts unless a function around it binds it as its own (a parameter or local of another handler:
    ``wine = await ctx.elicit(...)`` is not the handler ``wine``); a comprehension's or lambda's
    variable still counts, which only keeps the fix from adding the parameter."""
    registered = {id(reg[1]) for reg in a.registrations} | {id(e) for _m, e in a.handlers}
    for ref in name_refs(a.module, fn.name):
        if id(ref) not in registered and not _local(a, ref):
            return first_line(enclosing_stmt(a, ref) or ref)
    return None


def _local(a: ModuleAnalysis, ref: cst.Name) -> bool:
    """``ref`` (a spelling of a name in a function's body) reads a parameter or local of a function
    around it, not the module-level name (a ``global``/``nonlocal`` declaration of it: not local)."""
    around = a.enclosing_function(ref)
    while around is not None:
        if _in_body(a, ref, around.node):
            names = {p.name.value for p in all_params(around.node.params)}
            binders = bindings(around.node.body, ref.value)
            if any(isinstance(b, (cst.Global, cst.Nonlocal)) for b in binders):
                return False
            if ref.value in names or binders:
                return True
        around = around.parent
    return False


def _in_body(a: ModuleAnalysis, node: cst.CSTNode, fdef: cst.FunctionDef) -> bool:
    """``node`` is in ``fdef``'s body (not its decorators, defaults or annotations, read outside)."""
    cur: cst.CSTNode | None = node
    while cur is not None and cur is not fdef:
        if cur is fdef.body:
            return True
        cur = a.parents.get(id(cur))
    return False


def describe_injection(fn: FunctionInfo, inj: Injection) -> str:
    """What the fix's description adds for ``inj``."""
    kept_out = {"tool": "the inputSchema", "resource": "the URI parameters", "prompt": "the prompt's arguments"}
    if inj.new:
        return (
            f"`{fn.qualname}` takes a `{inj.name}: Context` parameter (fastmcp injects it and keeps it out of "
            f"{kept_out.get(fn.role or '', 'the schema')}) and reads it in place of `get_context()`"
        )
    return f"`{fn.qualname}` reads its `Context` parameter `{inj.name}` in place of `get_context()`"


def record_injection(a: ModuleAnalysis, fn: FunctionInfo, inj: Injection, ed: Edits) -> None:
    """Record ``inj`` for the handler ``fn`` (once per round, whichever of its requests is written
    first). The rewrite is a transform of the whole function made after every site has recorded
    (``Edits.shared``'s ``last``): the round statements the sites write keep the original request
    statements, whose ``get_context()`` calls must read the parameter too."""
    pending: dict[int, tuple[cst.FunctionDef, Injection, str | None]] = ed.shared(
        "interim.inject", dict, last=lambda todo: _transform_all(ed, todo)
    )
    if id(fn.node) not in pending:
        pending[id(fn.node)] = (fn.node, inj, _spell_context(a, ed) if inj.new else None)


def _spell_context(a: ModuleAnalysis, ed: Edits) -> str:
    """The module's own import of fastmcp's ``Context``, else ``Context`` from ``fastmcp`` (under a
    free alias when the name is taken)."""
    for local, full in sorted(a.imports.items()):
        if full in S.FASTMCP_CONTEXT and module_bindings(a).get(local) == 1:
            return local
    return ed.import_name(a, "fastmcp", "Context")


def _transform_all(ed: Edits, todo: dict[int, tuple[cst.FunctionDef, Injection, str | None]]) -> None:
    """The recorded handlers' rewrites (``todo``: by ``id`` of the handler's def, the def, its
    :class:`Injection` and the spelling of ``Context`` for a new parameter, else None)."""
    for node, inj, annotation in todo.values():
        ed.transform(node, _Inject(inj, annotation))


class _Inject:
    """The transform of one handler: the parameter added (when new), ``get_context()`` read from it."""

    def __init__(self, inj: Injection, annotation: str | None) -> None:
        self.inj = inj
        self.annotation = annotation

    def __call__(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.FunctionDef)
        node = updated
        if self.annotation is not None:
            params = context_param(self.inj.name, self.annotation)(original, node.params)
            assert isinstance(params, cst.Parameters)
            node = node.with_changes(params=params)
        body = node.body.visit(_ReadParam(self.inj))
        assert isinstance(body, cst.BaseSuite)
        return node.with_changes(body=body)


class _ReadParam(cst.CSTTransformer):
    """``get_context()`` becomes the parameter's name in the function's own code; a statement that
    only calls it goes (its leading lines and comments go to the next statement, as a dropped alias's)."""

    def __init__(self, inj: Injection) -> None:
        super().__init__()
        self.inj = inj

    def _is_get_context(self, node: cst.CSTNode) -> bool:
        return isinstance(node, cst.Call) and not node.args and code_of(node.func) in self.inj.spellings

    def on_visit(self, node: cst.CSTNode) -> bool:
        return not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> Any:
        return cst.Name(self.inj.name) if self._is_get_context(original_node) else updated_node

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock) -> Any:
        body: list[cst.BaseStatement] = []
        carry: list[cst.EmptyLine] = []
        for old, new in zip(original_node.body, updated_node.body, strict=True):
            if (
                isinstance(old, cst.SimpleStatementLine)
                and len(old.body) == 1
                and isinstance(old.body[0], cst.Expr)
                and self._is_get_context(old.body[0].value)
            ):
                carry += [*old.leading_lines, *trailing_comment(old)]
                continue
            if carry:
                new = new.with_changes(leading_lines=[*carry, *new.leading_lines])  # type: ignore[attr-defined]  # every statement has leading_lines
                carry = []
            body.append(new)
        if not body:
            body = [cst.SimpleStatementLine([cst.Pass()], leading_lines=carry)]
            carry = []
        return updated_node.with_changes(body=body, footer=[*carry, *updated_node.footer])

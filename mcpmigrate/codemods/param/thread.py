"""Threading the path parameter through helper chains: every function between an entry point
and a roots request gets the name it needs — a documented parameter (decorator tools and
prompts), an argument read from the tool's inputSchema (low-level handlers) or a plain parameter
(helpers) — and every call on the way passes it, in place of the context argument it no longer
needs when it can (aliases of that context left unused go too)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import libcst as cst

from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, walk
from mcpmigrate.codemods.edits import REMOVE
from mcpmigrate.codemods.param.chains import closure
from mcpmigrate.codemods.param.lowlevel import lowlevel_read, lowlevel_target, schema_edit
from mcpmigrate.codemods.param.parameter import (
    description,
    documented_param,
    insert_element,
    keep_comments_in_place,
    like,
    plain_param,
)
from mcpmigrate.codemods.param.round import Round
from mcpmigrate.codemods.param.sites import Site
from mcpmigrate.config import Config
from mcpmigrate.names import base_name, enclosing_stmt, name_refs

DECORATOR_ROLES = {"tool", "prompt"}
CTX_KINDS = set(CONTEXTS) | {Kind.LL_CONTEXT, Kind.SESSION}


class NamedEdge(NamedTuple):
    """A call that must pass a name: ``caller`` calls ``callee`` at ``call``, and ``callee`` now
    takes ``name``."""

    caller: FunctionInfo
    call: cst.Call
    callee: FunctionInfo
    name: str


# -- changes of a parameter list -------------------------------------------------------------
@dataclass(frozen=True)
class RemoveParam:
    """``name`` leaves the parameter list (the context a function no longer needs)."""

    name: str


@dataclass(frozen=True)
class ReplaceParam:
    """``param`` takes the place of the parameter ``name``."""

    name: str
    param: cst.Param


@dataclass(frozen=True)
class InsertBefore:
    """``param`` goes right before the parameter ``name`` (a context parameter that stays)."""

    name: str
    param: cst.Param


@dataclass(frozen=True)
class AfterRequired:
    """``param`` goes after the last positional parameter without a default."""

    param: cst.Param


@dataclass(frozen=True)
class AtEnd:
    """``param`` (with a default) goes after every positional parameter."""

    param: cst.Param


ParamOp = RemoveParam | ReplaceParam | InsertBefore | AfterRequired | AtEnd


@dataclass
class Needs:
    """Which functions need which names (``{id(fn): {name: mode}}``) and the calls that must
    pass them, for the request sites of one round."""

    names: dict[int, dict[str, str]] = field(default_factory=dict)
    functions: dict[int, FunctionInfo] = field(default_factory=dict)
    edges: list[NamedEdge] = field(default_factory=list)


def needs(a: ModuleAnalysis, sites: list[Site]) -> Needs:
    """The functions and calls the request ``sites`` thread their names through."""
    out = Needs()
    for site in sites:
        assert site.fn is not None
        funcs, fedges = closure(a, site.fn)
        for fi in funcs:
            out.functions[id(fi)] = fi
            out.names.setdefault(id(fi), {})[site.name] = site.mode
        for fe in fedges:
            edge = NamedEdge(fe.caller, fe.call, fe.callee, site.name)
            if edge not in out.edges:
                out.edges.append(edge)
    return out


def thread_all(a: ModuleAnalysis, config: Config, need: Needs, sites: list[Site], rnd: Round) -> None:
    """Thread the names, callees before callers (a caller passes what its callee now takes)."""
    order_index = {id(fi): i for i, fi in enumerate(a.functions)}
    pending = sorted(need.names, key=lambda k: order_index.get(k, 0))
    by_id = need.functions
    while pending:
        ready = [
            k
            for k in pending
            if not any(
                e.caller is by_id[k] and id(e.callee) in pending and e.callee is not by_id[k] for e in need.edges
            )
        ]
        k = (ready or pending)[0]
        pending.remove(k)
        _thread(a, config, by_id[k], need.names[k], sites, need.edges, rnd)


def _param_index(fn: FunctionInfo, name: str) -> int | None:
    for i, p in enumerate(fn.params):
        if p.name.value == name:
            return i
    return None


def _drop_dead_aliases(a: ModuleAnalysis, f: FunctionInfo, base: str | None, rnd: Round) -> str | None:
    """Remove ``session = ctx.session``-style aliases the rewrite left unused; returns the name the
    receiver chain finally starts from."""
    for _ in range(5):
        if base is None or base in f.param_names():
            return base
        stmts = _alias_stmts(f, base)
        # every assignment of the alias is a plain `x = <pure chain>` statement (one per site
        # when the tool asked twice), and nothing else reads it after the rewrite
        if not stmts or len(stmts) != sum(1 for n, _ in f.assigns if n == base):
            return base
        if name_refs(f.node.body, base, rnd.dead | set(stmts)):
            return base
        values = [s.body[0].value for s in walk(f.node.body) if id(s) in stmts]  # type: ignore[attr-defined]
        if not all(_pure_chain(v) for v in values) or len({base_name(v) for v in values}) != 1:
            return base
        for stmt in stmts.values():
            rnd.change(stmt, REMOVE)
        base = base_name(values[0])
    return base


def _alias_stmts(f: FunctionInfo, name: str) -> dict[int, cst.SimpleStatementLine]:
    """The ``name = …`` statements of ``f``, by id."""
    out = {}
    for s in walk(f.node.body):
        if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Assign):
            asg = s.body[0]
            if (
                len(asg.targets) == 1
                and isinstance(asg.targets[0].target, cst.Name)
                and asg.targets[0].target.value == name
            ):
                out[id(s)] = s
    return out


def _pure_chain(expr: cst.BaseExpression) -> bool:
    """An attribute chain, possibly through ``get_context()`` / ``request_ctx.get()``: dropping
    it has no effect."""
    cur: cst.CSTNode = expr
    while True:
        if isinstance(cur, cst.Name):
            return True
        if isinstance(cur, cst.Attribute):
            cur = cur.value
        elif isinstance(cur, cst.Call) and not cur.args and isinstance(cur.func, (cst.Attribute, cst.Name)):
            last = cur.func.attr.value if isinstance(cur.func, cst.Attribute) else cur.func.value
            if last not in ("get_context", "get", "CurrentContext"):
                return False
            cur = cur.func
        else:
            return False


def bound_arg(call: cst.Call, callee: FunctionInfo, pname: str) -> cst.Arg | None:
    """The argument of ``call`` bound to ``callee``'s parameter ``pname`` (None when unsure)."""
    idx = _param_index(callee, pname)
    names = callee.param_names()
    offset = 1 if names and names[0] in ("self", "cls") and isinstance(call.func, cst.Attribute) else 0
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == pname:
                return arg
        elif idx is not None and i + offset == idx:
            return arg
    return None


def _after_a_default(f: FunctionInfo, name: str) -> bool:
    """True when a positional parameter before ``name`` has a default."""
    for p in list(f.node.params.posonly_params) + list(f.node.params.params):
        if p.name.value == name:
            return False
        if p.default is not None:
            return True
    return False


def keep_comments(rnd: Round, fn: cst.FunctionDef) -> None:
    """Keep the comments of ``fn``'s signature and first body line with what they describe once
    the round has rewritten it (:func:`~mcpmigrate.codemods.param.parameter.keep_comments_in_place`).
    Recorded once per function, after every change of its parameter list: the transforms of a
    node run in the order recorded, so this one sees the final signature."""
    if rnd.once(("keep-comments", id(fn))):
        rnd.edits.transform(fn, keep_comments_in_place)


def _thread(
    a: ModuleAnalysis,
    config: Config,
    f: FunctionInfo,
    names: dict[str, str],
    sites: list[Site],
    edges: list[NamedEdge],
    rnd: Round,
) -> None:
    """Give ``f`` the names it needs (:func:`_give_names`), then keep its comments in place: the
    parameter swap and the deleted roots request must not move a comment onto another line's
    subject (:func:`keep_comments`)."""
    _give_names(a, config, f, names, sites, edges, rnd)
    keep_comments(rnd, f.node)


def _give_names(
    a: ModuleAnalysis,
    config: Config,
    f: FunctionInfo,
    names: dict[str, str],
    sites: list[Site],
    edges: list[NamedEdge],
    rnd: Round,
) -> None:
    """Give ``f`` the names it needs: a documented parameter (decorator tools and prompts), an
    argument read (low-level handlers) or a plain parameter (helpers, whose callers then pass it)."""
    my_sites = [s for s in sites if s.fn is f]
    bases: list[str] = []
    for s in my_sites:
        b = _drop_dead_aliases(a, f, base_name(s.receiver) if s.receiver is not None else None, rnd)
        if b:
            bases.append(b)
    if f.role == "lowlevel-tool":
        _read_names(a, config, f, names, my_sites, edges, rnd)
        return
    documented = f.role in DECORATOR_ROLES
    spell: dict[str, str] = {}
    if documented:
        spell = {
            "annotated": rnd.edits.import_name(a, "typing", "Annotated"),
            "field": rnd.edits.import_name(a, "pydantic", "Field"),
        }
    # Names passed to callees in place of a context argument are candidates for removal too.
    bases += [b for b in rnd.replaced_args.get(id(f), []) if b]
    used: set[str] = set()
    for name, mode in sorted(names.items(), key=lambda kv: kv[1] != "single"):
        # Optional when every request of this name that `f` reaches is a fallback (`fallback`:
        # reached only where no other directory was given): the calls that never reached it keep
        # working without the new parameter.
        reaching = [s for s in sites if s.name == name and s.fn is not None and f in closure(a, s.fn)[0]]
        fallback = (
            reaching[0].fallback if reaching and all(s.fallback == reaching[0].fallback for s in reaching) else None
        )
        new_param = (
            documented_param(config, mode, name, fallback=fallback, **spell)
            if documented
            else plain_param(config, mode, name, optional=fallback is not None)
        )
        optional = fallback if documented else None
        cand = next(
            (
                b
                for b in bases
                if b in f.param_names()
                and b not in used
                and b not in ("self", "cls")
                and not name_refs(f.node.body, b, rnd.dead)
            ),
            None,
        )
        if cand is not None:
            used.add(cand)
        if optional is not None:
            # `root: … = None` after every other positional parameter (it has a default); the
            # context it no longer needs goes. A tool, so nothing in the module calls it.
            if cand is not None:
                _param_op(rnd, f, RemoveParam(cand))
            _param_op(rnd, f, AtEnd(new_param))
            continue
        place = _placement(f, new_param, cand, used, edges)
        for op in place.ops:
            _param_op(rnd, f, op)
        _pass_name(rnd, f, name, place, edges)


class Placement(NamedTuple):
    """Where a new parameter goes (``ops``, in order) and how callers pass it: in place of the
    argument bound to ``replaced``, else positionally at ``pos`` (``None``: by keyword)."""

    ops: tuple[ParamOp, ...]
    replaced: str | None
    pos: int | None


def _placement(
    f: FunctionInfo, new_param: cst.Param, cand: str | None, used: set[str], edges: list[NamedEdge]
) -> Placement:
    """Where ``new_param`` goes in ``f``: in place of ``cand`` (a context parameter the function
    no longer reads), else before a context parameter that stays, else after the last positional
    parameter without a default."""
    op: ReplaceParam | InsertBefore | AfterRequired
    replaced: str | None = None
    pos: int | None = None
    if cand is not None:
        op = ReplaceParam(cand, new_param)
        replaced = cand
    else:
        ctxp = next(
            (p.name.value for p in f.params if f.kinds.get(p.name.value) in CTX_KINDS and p.name.value not in used),
            None,
        )
        if ctxp is not None:
            op = InsertBefore(ctxp, new_param)
            # before a keyword-only context the new parameter is keyword-only too: passed by keyword
            keyword_only = any(p.name.value == ctxp for p in f.node.params.kwonly_params)
            pos = None if keyword_only else _param_index(f, ctxp)
        else:
            idx = 0
            for i, p in enumerate(f.node.params.params):
                if p.default is None:
                    idx = i + 1
            op = AfterRequired(new_param)
            pos = len(f.node.params.posonly_params) + idx
    if (
        isinstance(op, (ReplaceParam, InsertBefore))
        and _after_a_default(f, op.name)
        and not any(e.callee is f for e in edges)
    ):
        # `async def t(verbose: bool = False, ctx: Context = None)`: a parameter without a
        # default cannot go where ctx is; put it before the first parameter with a default
        before: tuple[ParamOp, ...] = (RemoveParam(op.name),) if isinstance(op, ReplaceParam) else ()
        return Placement((*before, AfterRequired(new_param)), None, None)
    return Placement((op,), replaced, pos)


def _pass_name(rnd: Round, f: FunctionInfo, name: str, place: Placement, edges: list[NamedEdge]) -> None:
    """Every call of ``f`` that must pass ``name`` passes it: in place of the argument bound to
    the replaced parameter, else at the new parameter's position or by keyword."""
    for e in edges:
        if e.callee is not f or e.name != name:
            continue
        call = e.call
        if place.replaced is not None:
            arg = bound_arg(call, f, place.replaced)
            if arg is not None:
                replaced_base = base_name(arg.value)
                if arg.keyword is not None:
                    rnd.change(arg, _keyword_arg(name))
                else:
                    rnd.change(arg.value, like(arg.value, cst.Name(name)))
                if replaced_base:
                    rnd.replaced_args.setdefault(id(e.caller), []).append(replaced_base)
                continue
        names_ = f.param_names()
        offset = 1 if names_ and names_[0] in ("self", "cls") and isinstance(call.func, cst.Attribute) else 0
        leading = 0
        for arg in call.args:
            if arg.keyword is not None or arg.star:
                break
            leading += 1
        pos = place.pos
        if pos is not None and pos - offset <= leading and pos - offset >= 0:
            _call_op(rnd, call, pos - offset, name)
        else:
            _call_op(rnd, call, None, name)


def _read_names(
    a: ModuleAnalysis,
    config: Config,
    f: FunctionInfo,
    names: dict[str, str],
    my_sites: list[Site],
    edges: list[NamedEdge],
    rnd: Round,
) -> None:
    """A low-level handler reads each name from its arguments (declared in the tool's
    inputSchema), at its own request sites and before each call that must pass the name."""
    for name, mode in sorted(names.items()):
        for s in my_sites:
            if s.name == name:
                target = lowlevel_target(a, f, s.node, name)
                assert not isinstance(target, str)
                schema_edit(rnd, target, name, mode, description(config, mode))
                lowlevel_read(rnd, target, name, s.site_stmt, s.replace_site_stmt)  # type: ignore[arg-type]
        for e in edges:
            if e.caller is f and e.name == name:
                target = lowlevel_target(a, f, e.call, name)
                assert not isinstance(target, str)
                schema_edit(rnd, target, name, mode, description(config, mode))
                lowlevel_read(rnd, target, name, enclosing_stmt(a, e.call), False)  # type: ignore[arg-type]


def _keyword_arg(name: str):
    """``helper(ctx=ctx)`` → ``helper(root=root)``."""
    return lambda updated: updated.with_changes(keyword=cst.Name(name), value=cst.Name(name))


def _param_op(rnd: Round, f: FunctionInfo, op: ParamOp) -> None:
    """Record one change of ``f``'s parameter list (:func:`apply_param_op`)."""

    def apply(_original: cst.CSTNode, node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        return node.with_changes(params=apply_param_op(node.params, op, node.whitespace_before_params))

    rnd.edits.transform(f.node, apply)


def apply_param_op(params: cst.Parameters, op: ParamOp, open_ws: cst.BaseParenthesizableWhitespace) -> cst.Parameters:
    """``params`` with ``op`` made, in the layout of the parameters around it (``open_ws``: the
    whitespace after the opening parenthesis; :func:`~mcpmigrate.codemods.param.parameter.insert_element`).
    An anchor name ``params`` does not have leaves them as they are."""
    if isinstance(op, RemoveParam):
        lst = [p for p in params.params if p.name.value != op.name]
        if lst and len(lst) < len(params.params) and params.params[-1].name.value == op.name:
            lst[-1] = lst[-1].with_changes(comma=params.params[-1].comma)
        return params.with_changes(params=lst)
    if isinstance(op, AtEnd):
        return params.with_changes(params=insert_element(list(params.params), len(params.params), op.param, open_ws))
    if isinstance(op, AfterRequired):
        lst = list(params.params)
        idx = 0
        for i, p in enumerate(lst):
            if p.default is None:
                idx = i + 1
        return params.with_changes(params=insert_element(lst, idx, op.param, open_ws))
    for fname in ("posonly_params", "params", "kwonly_params"):
        lst = list(getattr(params, fname))
        found = next((i for i, p in enumerate(lst) if p.name.value == op.name), None)
        if found is None:
            continue
        if isinstance(op, ReplaceParam):
            lst[found] = op.param.with_changes(comma=lst[found].comma)
        else:
            lst = insert_element(lst, found, op.param, open_ws)
        return params.with_changes(**{fname: lst})
    return params


def _call_op(rnd: Round, call: cst.Call, pos: int | None, name: str) -> None:
    """Pass ``name`` in ``call``: positionally at ``pos``, or as ``name=name`` (before a ``**``)."""

    def apply(_original: cst.CSTNode, node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        args = list(node.args)
        if pos is not None:
            args = insert_element(args, pos, cst.Arg(cst.Name(name)), node.whitespace_before_args)
        else:
            new = cst.Arg(
                cst.Name(name),
                keyword=cst.Name(name),
                equal=cst.AssignEqual(
                    whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
                ),
            )
            at = next((i for i, x in enumerate(args) if x.star == "**"), len(args))
            args = insert_element(args, at, new, node.whitespace_before_args)
        return node.with_changes(args=args)

    rnd.edits.transform(call, apply)

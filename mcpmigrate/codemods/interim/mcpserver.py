"""mcp 2.x ``MCPServer``: the request becomes a resolver (``Elicit`` / ``Sample`` / ``ListRoots``).

The tool gets ``Annotated[ElicitationResult[Schema] | CreateMessageResult | ListRootsResult,
Resolve(fn)]`` and ``fn`` returns ``Elicit(message, Schema)`` / ``Sample(messages, max_tokens=…, …)``
/ ``ListRoots()`` (``mcp.server.mcpserver``). The same object the request returned reaches the
body, so accept/decline/cancel branches, the schema and every sampling argument are kept; the SDK
does the era branching and seals its own ``requestState``. A resolver may only use the tool's
arguments and module-level names: a request built from other locals is manual, naming them. mcp
2.3 runs resolvers for tools only, so a request in an ``MCPServer`` prompt or resource is manual
(the message names its guard pattern). A request made in a helper the tools call is
:mod:`.helpers`'s.
"""

from __future__ import annotations

from functools import partial

import libcst as cst

from mcpmigrate.analysis import CONTEXTS, FunctionInfo, Kind, ModuleAnalysis, code_of
from mcpmigrate.codemods.edits import Edits, Spell, as_is, import_name
from mcpmigrate.codemods.interim.common_edits import function_edit, place_resolver, take_out
from mcpmigrate.codemods.interim.moved import move, move_reason
from mcpmigrate.codemods.interim.scope import copy_locals, future_annotations, inputs, outer_scope
from mcpmigrate.codemods.interim.sites import (
    ELICITATION,
    ROOTS,
    SAMPLING,
    Site,
    context_alias,
    context_of,
    slot_reason,
    wrapped_by,
)
from mcpmigrate.names import base_name, fresh

# mcp 2.3 runs resolvers for tools only (tools/base.py): a prompt or resource would list the
# `Resolve` parameter as an argument it requires.
MCPSERVER_NOT_TOOL = (
    "mcp 2.x `MCPServer` injects `Resolve(...)` parameters into tools only (a {role} would require it as an "
    "argument): in the {role}, return `InputRequiredResult(input_requests={{…}})` on 2026-07-28 "
    '(`is_version_at_least(ctx.protocol_version, "2026-07-28")`) while `ctx.input_responses` lacks the answer, '
    "read it on the retry, and keep the request on legacy connections; rewrite by hand"
)
#: The name the answer gets where the request had no variable of its own.
ANSWER_NAME = {ROOTS: "roots", SAMPLING: "sampled", ELICITATION: "answer"}


def resolver_reason(a: ModuleAnalysis, site: Site) -> str | None:
    """Why the request in an ``MCPServer`` tool has no resolver form (its receiver, its marker, what
    it is built from, the tool's place and signature), else None; records the context parameter
    and the tool arguments the resolver takes on ``site``."""
    fn, call = site.fn, site.call
    recv = call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    base = base_name(recv, through_await=False)
    alias = context_alias(a, fn, base) if base is not None and base not in fn.param_names() else None
    if isinstance(alias, str):
        return alias
    if alias is not None:  # `session = ctx.session` / `c = ctx`, then the request through the alias
        base, site.aliases = alias
    ctx_param = next((p for p in fn.params if p.name.value == base), None)
    if base is None or ctx_param is None or fn.kinds.get(base) not in CONTEXTS:
        return "the request is not made through the tool's own `Context` parameter: rewrite by hand"
    site.ctx_param = base
    reason = marker_reason(a, site)
    if reason:
        return reason
    wrapper = wrapped_by(fn)
    if wrapper:
        return (
            f"`{fn.qualname}` is wrapped by `@{wrapper}` before the server registers it: the wrapper is what the "
            "SDK calls, and it would not pass the resolver parameter on; rewrite by hand"
        )
    # Where the resolver goes: right before the tool, in the tool's own scope.
    reason = place_reason(a, fn)
    if reason:
        return reason
    outer = outer_scope(fn)
    # What the request is built from (a `related_request_id=` is the SDK's own routing: it goes).
    related = related_args(a, site)
    if isinstance(related, str):
        return related
    needed, blocking = inputs(a, fn, [x.value for x in call.args if x not in related], base, outer)
    if blocking:
        anchor = site.unwrap if site.unwrap is not None else site.stmt
        copied = copy_locals(a, fn, blocking, anchor, base, outer, movable=partial(move_reason, a, fn, outer))
        if isinstance(copied, str):
            return f"the request is built from {copied}"
        site.copied, more, site.moved = copied.stmts, copied.needed, copied.moved
        needed += [n for n in more if n not in needed]
    site.args = [p.name.value for p in fn.params if p.name.value in needed]
    # The new parameter goes right before the context parameter.
    slot = slot_reason(fn, base)
    return f"{slot}: add the resolver parameter by hand" if slot else None


def related_args(a: ModuleAnalysis, site: Site) -> list[cst.Arg] | str:
    """The request's ``related_request_id=`` arguments, which the resolver drops: mcp 2.x sends a
    resolver's request with the tool call's own request id (``mcp.server.mcpserver.resolve``), so only
    ``<context>.request_id`` of the context the request goes through may go (its aliases are recorded
    on ``site``); another id is manual."""
    out: list[cst.Arg] = []
    for x in site.call.args:
        if x.keyword is None or x.keyword.value != "related_request_id":
            continue
        own = x.value
        owner = (
            context_of(a, site.fn, own.value)
            if isinstance(own, cst.Attribute) and own.attr.value == "request_id"
            else None
        )
        if not (isinstance(owner, tuple) and owner[0] == site.ctx_param):
            return (
                f"the request passes `related_request_id={code_of(own)}`, not the tool's own request id: a "
                "resolver's request always goes with the tool call's request (mcp.server.mcpserver.resolve); "
                "rewrite by hand"
            )
        site.aliases += owner[1]
        out.append(x)
    return out


def place_reason(a: ModuleAnalysis, fn: FunctionInfo) -> str | None:
    """Why no resolver can be defined right before the tool ``fn``, in its scope: a method, or a
    nested tool whose annotations mcp 2.x evaluates in the module's namespace (``from __future__
    import annotations``)."""
    if fn.class_name is not None:
        return "the tool is a method of a class: this fix writes resolvers next to functions only; add it by hand"
    if fn.parent is None:
        return None
    if future_annotations(a):
        return (
            f"the tool is defined inside `{fn.parent.qualname}` and the module has `from __future__ import "
            "annotations`: mcp 2.x evaluates the tool's annotations in the module's namespace, where a resolver "
            "defined next to the tool is not visible; define the resolver at module level by hand"
        )
    return None


def dict_schema(call: cst.Call) -> bool:
    """``ctx.elicit(message, {...})``: the schema (``schema=`` or the second positional argument) is
    a dict literal, on which ``Context.elicit`` (mcp 1.x and 2.x) raises ``AttributeError`` before
    anything is sent."""
    schema = next((x for x in call.args if x.keyword is not None and x.keyword.value == "schema"), None)
    if schema is None and len(call.args) > 1 and call.args[1].keyword is None:
        schema = call.args[1]
    return schema is not None and isinstance(schema.value, (cst.Dict, cst.DictComp))


def marker_reason(a: ModuleAnalysis, site: Site) -> str | None:
    """Why the request has no resolver marker form (``Elicit``/``Sample``/``ListRoots``)."""
    call = site.call
    attr = call.func.attr.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    if site.kind == ELICITATION:
        if attr == "elicit_url":
            return (
                "URL-mode elicitation has no resolver marker (`Elicit` is form mode only): return an "
                "`InputRequiredResult` with `ElicitRequestURLParams` from the tool by hand"
            )
        if a.kind_of(call.func.value, site.fn) is Kind.SESSION:  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
            return (
                "the session form takes a JSON-schema dict; the resolver marker `Elicit(message, Schema)` "
                "needs a pydantic model: switch to `ctx.elicit(message, Schema)` first, then run the fix again"
            )
        if len(call.args) != 2 or any(x.star for x in call.args):
            return "`ctx.elicit` is not called with exactly a message and a schema: rewrite by hand"
        if dict_schema(call):
            return (
                "`ctx.elicit` is given a JSON-schema dict as its schema, but `Context.elicit` takes a pydantic "
                "model class and raises `AttributeError` on a dict before anything is sent: this request reaches "
                "no client today (on mcp 1.x and 2.x alike); pass a model (`class Confirm(BaseModel): confirm: "
                "bool`), then run the fix again"
            )
    if any(x.star for x in call.args):
        return "the request's arguments are passed with `*`/`**`: rewrite by hand"
    return None


def _strip(arg: cst.Arg) -> cst.Arg:
    """``arg`` without its comma and trailing space (to be joined again)."""
    return arg.with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=cst.SimpleWhitespace(""))


def resolver_parts(site: Site, spell: Spell = as_is) -> tuple[str, str, str, set[tuple[str, str]]]:
    """(return annotation, returned expression, parameter annotation, imports); ``spell(module,
    name)`` is the local name of each imported name (``codemods.edits.import_name``)."""
    call = site.call
    imports: set[tuple[str, str]] = {("typing", "Annotated"), ("mcp.server.mcpserver", "Resolve")}
    if site.kind == ROOTS:
        imports |= {("mcp.server.mcpserver", "ListRoots"), ("mcp.types", "ListRootsResult")}
        lr = spell("mcp.server.mcpserver", "ListRoots")
        return lr, f"{lr}()", spell("mcp.types", "ListRootsResult"), imports
    if site.kind == ELICITATION:
        message, schema = (code_of(x.value) for x in call.args)
        imports |= {("mcp.server.mcpserver", "Elicit"), ("mcp.server.mcpserver", "ElicitationResult")}
        el = spell("mcp.server.mcpserver", "Elicit")
        return (
            f"{el}[{schema}]",
            f"{el}({message}, {schema})",
            f"{spell('mcp.server.mcpserver', 'ElicitationResult')}[{schema}]",
            imports,
        )
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
    sample = spell("mcp.server.mcpserver", "Sample")
    return sample, f"{sample}({text})", spell("mcp.types", result), imports


def resolver_edits(a: ModuleAnalysis, site: Site, ed: Edits, taken: set[str]) -> None:
    """The resolver before the tool, its ``Resolve`` parameter, and the request out of the body."""
    fn = site.fn
    spell = partial(import_name, a)
    ret_ann, ret_expr, param_ann, imports = resolver_parts(site, spell)
    for mod, name in imports:
        ed.import_name(a, mod, name)
    pname = site.result if site.result else fresh(taken, ANSWER_NAME[site.kind])
    rname = fresh(taken, f"{fn.name}_{site.kind}")
    params = []
    for p in fn.params:
        if p.name.value in site.args:
            params.append(
                p.with_changes(
                    comma=cst.MaybeSentinel.DEFAULT, whitespace_after_param=cst.SimpleWhitespace(""), star=""
                )
            )
    plist = ", ".join(code_of(p) for p in params)
    body = "".join("    " + code_of(x.with_changes(leading_lines=[])) for x in site.copied)
    resolver = cst.parse_statement(f"def {rname}({plist}) -> {ret_ann}:\n{body}    return {ret_expr}\n")
    move(ed, fn.node, site.moved, nested=fn.parent is not None)  # the classes it reads go first
    place_resolver(ed, fn.node, resolver, nested=fn.parent is not None)
    new_param = cst.Param(
        cst.Name(pname),
        cst.Annotation(
            cst.parse_expression(
                f"{spell('typing', 'Annotated')}[{param_ann}, {spell('mcp.server.mcpserver', 'Resolve')}({rname})]"
            )
        ),
    )
    fe = function_edit(ed, fn.node)
    fe.params.append((site.ctx_param or "", new_param))
    fe.ctx = site.ctx_param or ""
    fe.add_aliases(site.aliases + site.copied)  # each goes when the request was its only use
    take_out(site, ed, pname)

"""mcp 2.x ``MCPServer`` tools whose request sits in a ``try`` with fallbacks: the round in place.

A resolver (:mod:`.mcpserver`) asks before the tool body runs, so it cannot keep a ``try`` around
the request: the fallbacks it holds (``except MCPError as e: if e.code == METHOD_NOT_FOUND: return
"client cannot confirm"``) would be dropped, and a request on one path only, built from locals, or
in a method tool has no resolver at all. An ``MCPServer`` tool may instead return an
``InputRequiredResult`` itself (``mcp.server.mcpserver.tools.base``: a tool without ``Resolve``
parameters; ``func_metadata`` strips the ``InputRequiredResult`` arm of its return annotation from
the output schema), so the request's statement becomes the round the low-level form writes
(:func:`.lowlevel.round_statement`), where it was, inside its ``try``:

- on 2026-07-28 the tool returns ``InputRequiredResult`` while ``ctx.input_responses`` lacks the
  answer and reads it on the retry; ``ctx.elicit``'s answer is rebuilt as mcp 2.x's
  ``elicit_with_validation`` builds it (``AcceptedElicitation(data=Schema.model_validate(…))``,
  ``DeclinedElicitation()``, ``CancelledElicitation()``), with the schema rendered by the SDK's own
  ``render_elicitation_schema``;
- a client that did not declare the capability gets the SDK's ``MCPError`` -32021
  (``MISSING_REQUIRED_CLIENT_CAPABILITY``, as from the resolvers) raised *inside* the ``try``, so the
  handlers that caught the client's refusal on a legacy connection catch it too; a handler that
  recognises that refusal by ``<e>.code == METHOD_NOT_FOUND`` also recognises -32021 (the test
  becomes ``<e>.code in (METHOD_NOT_FOUND, MISSING_REQUIRED_CLIENT_CAPABILITY)``), so what such a
  client got still reaches it;
- on a legacy connection the original request stays, in the same ``try``: same question, same
  answers, same errors.

The code before the request runs once per round on 2026-07-28 (a review note when it does
something, :func:`.sites.side_effects_before`).
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.analysis import CONTEXTS, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits, Spell, as_is
from mcpmigrate.codemods.interim.fastmcp import context_elicit
from mcpmigrate.codemods.interim.sites import (
    ELICITATION,
    Site,
    arg_map,
    elicit_outcome_code,
    request_kind,
    unassigned_reason,
)

#: The SDK error a request raises when the client refuses it.
_SDK_ERRORS = {"mcp.shared.exceptions.MCPError", "mcp.shared.exceptions.McpError"}
_ELICITATION = "mcp.server.elicitation"
_METHOD_NOT_FOUND = {"mcp.types.METHOD_NOT_FOUND", "mcp_types.METHOD_NOT_FOUND"}


def in_try(a: ModuleAnalysis, node: cst.CSTNode) -> bool:
    """Whether ``node`` sits in the body of a ``try`` with handlers, inside its function."""
    child: cst.CSTNode = node
    cur = a.parents.get(id(node))
    while cur is not None and not isinstance(cur, (cst.FunctionDef, cst.Module)):
        if isinstance(cur, cst.Try) and child is cur.body and cur.handlers:
            return True
        child, cur = cur, a.parents.get(id(cur))
    return False


def guard_reason(a: ModuleAnalysis, site: Site) -> str | None:
    """Why the request of an ``MCPServer`` tool has no round in place (its receiver, its answer, its
    arguments, the tool's other requests), else None; records the context parameter on ``site``."""
    fn, call = site.fn, site.call
    recv = call.func.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    e = recv
    while isinstance(e, cst.Attribute) and e.attr.value in ("session", "request_context"):
        e = e.value
    if not (isinstance(e, cst.Name) and e.value in fn.param_names() and fn.kinds.get(e.value) in CONTEXTS):
        return "the request is not made through the tool's own `Context` parameter: rewrite by hand"
    site.ctx_param = e.value
    if site.result is None:
        return unassigned_reason(site)
    attr = call.func.attr.value  # type: ignore[attr-defined]  # a request is a method call: func is an Attribute
    if site.kind == ELICITATION and attr == "elicit_url":
        return "URL-mode elicitation has no interim form this fix writes; rewrite by hand"
    if any(x.star for x in call.args):
        return "the request's arguments are passed with `*`/`**`: rewrite by hand"
    if guard_context_elicit(site) and set(arg_map(call, ["message", "schema"])) != {"message", "schema"}:
        return "`ctx.elicit` is not called with a message and a schema: rewrite by hand"
    others = [c for c in fn.calls if c is not call and request_kind(a, c, fn) is not None]
    if others:
        return (
            f"`{fn.qualname}` makes {len(others) + 1} requests and this one sits in a `try` with fallbacks: "
            "their interim round cannot keep each fallback; rewrite by hand"
        )
    ann = fn.node.returns
    if ann is not None and "InputRequiredResult" in code_of(ann.annotation):
        return "the tool already returns interim results: add this request to them by hand"
    return None


def guard_context_elicit(site: Site) -> bool:
    """The request is mcp 2.x's ``ctx.elicit(message, schema)`` on the tool's own ``Context`` parameter
    (:func:`guard_reason` checked the receiver): its answer is rebuilt as that method returns it."""
    return context_elicit(site, form="guard")


def elicit_schema(site: Site, spell: Spell = as_is) -> tuple[str, str]:
    """(message, rendered schema) of ``ctx.elicit(message, schema)``: the schema as the SDK renders it."""
    m = arg_map(site.call, ["message", "schema"])
    render = spell(_ELICITATION, "render_elicitation_schema")
    return code_of(m["message"]), f"{render}({code_of(m['schema'])})"


def guard_elicit_outcome(site: Site, key: str, spell: Spell = as_is) -> str:
    """The lines (inside the 2026-07-28 branch) that turn the answer under ``key`` into what mcp 2.x's
    ``ctx.elicit`` returns (``mcp.server.elicitation.elicit_with_validation``: the data validated
    with the schema)."""
    schema = code_of(arg_map(site.call, ["message", "schema"])["schema"])
    accepted = f"{spell(_ELICITATION, 'AcceptedElicitation')}(data={schema}.model_validate({key}.content))"
    return elicit_outcome_code(key, accepted, _ELICITATION, spell)


def local_spell(a: ModuleAnalysis, site: Site, ed: Edits, module: str, name: str) -> str:
    """The local name of ``module.name`` for the round in ``site.fn``: the function's own
    ``from module import name [as x]`` at the top of its body, before the request (a helper that
    imports inside itself, ``from mcp.shared.exceptions import MCPError``), else the module's
    (``Edits.import_name``)."""
    body = site.fn.node.body
    if isinstance(body, cst.IndentedBlock):
        for stmt in body.body:
            if any(n is site.stmt for n in walk(stmt)):
                break
            if not (isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], cst.ImportFrom)):
                continue
            imp = stmt.body[0]
            if (
                imp.relative
                or imp.module is None
                or code_of(imp.module) != module
                or isinstance(imp.names, cst.ImportStar)
            ):
                continue
            for alias in imp.names:
                if code_of(alias.name) == name:
                    return alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
    return ed.import_name(a, module, name)


#: What JSON-RPC clients answer a method they do not implement (-32601), as a handler tests for it in
#: the error's text.
_METHOD_NOT_FOUND_TEXT = "Method not found"
#: Exceptions a handler catches that the SDK's error is one of.
_BROAD = {"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"}


def refusal_tests(a: ModuleAnalysis, site: Site) -> list[tuple[cst.BaseExpression, str, bool]]:
    """How the handlers of the kept ``try`` recognise a client that cannot answer: ``(test, name of
    the caught error, whether the handler catches only the SDK's error)`` for each ``<e>.code ==
    METHOD_NOT_FOUND`` (in a handler of the SDK's error) and each ``"Method not found" in <text>``,
    ``<text>`` being ``str(<e>)`` or a name the handler binds to it (in a handler of the SDK's error,
    ``Exception`` or ``BaseException``)."""
    out: list[tuple[cst.BaseExpression, str, bool]] = []
    node = site.kept
    if node is None:
        return out
    for h in node.handlers:
        if h.type is None or h.name is None or not isinstance(h.name.name, cst.Name):
            continue
        types = [
            a.qualname(t.value) for t in (h.type.elements if isinstance(h.type, cst.Tuple) else [cst.Element(h.type)])
        ]
        sdk_only = all(t in _SDK_ERRORS for t in types)
        if not any(t in _SDK_ERRORS or t in _BROAD for t in types):
            continue
        name = h.name.name.value
        texts = _texts_of(a, h, name)
        for n in walk(h.body):
            if not (isinstance(n, cst.Comparison) and len(n.comparisons) == 1):
                continue
            op, right = n.comparisons[0].operator, n.comparisons[0].comparator
            if (
                sdk_only
                and isinstance(op, cst.Equal)
                and _error_code(n.left, name)
                and a.qualname(right) in _METHOD_NOT_FOUND
            ) or (
                isinstance(op, cst.In)
                and isinstance(n.left, cst.SimpleString)
                and n.left.evaluated_value == _METHOD_NOT_FOUND_TEXT
                and (_str_of(a, right, name) or (isinstance(right, cst.Name) and right.value in texts))
            ):
                out.append((n, name, sdk_only))
    return out


def _str_of(a: ModuleAnalysis, expr: cst.BaseExpression, name: str) -> bool:
    """``expr`` is ``str(<name>)``."""
    return (
        isinstance(expr, cst.Call)
        and a.qualname(expr.func) in ("str", "builtins.str")
        and len(expr.args) == 1
        and expr.args[0].keyword is None
        and not expr.args[0].star
        and isinstance(expr.args[0].value, cst.Name)
        and expr.args[0].value.value == name
    )


def _texts_of(a: ModuleAnalysis, h: cst.ExceptHandler, name: str) -> set[str]:
    """The names the handler binds to ``str(<name>)`` in a statement of its own body, bound nowhere
    else in it (``error_msg = str(e)``)."""
    bound: dict[str, list[cst.BaseExpression | None]] = {}
    for n in walk(h.body):
        if isinstance(n, cst.Assign):
            for t in n.targets:
                if isinstance(t.target, cst.Name):
                    bound.setdefault(t.target.value, []).append(n.value)
                else:
                    for m in walk(t.target):
                        if isinstance(m, cst.Name):
                            bound.setdefault(m.value, []).append(None)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.For, cst.With, cst.CompFor)):
            for m in walk(getattr(n, "target", None) or getattr(n, "items", None) or n):
                if isinstance(m, cst.Name):
                    bound.setdefault(m.value, []).append(None)
    return {
        k for k, values in bound.items() if len(values) == 1 and values[0] is not None and _str_of(a, values[0], name)
    }


def _error_code(expr: cst.BaseExpression, name: str) -> bool:
    """``expr`` is ``<name>.code`` (or mcp 1.x's ``<name>.error.code``, which the port renames)."""
    if not (isinstance(expr, cst.Attribute) and expr.attr.value == "code"):
        return False
    inner = expr.value
    if isinstance(inner, cst.Attribute) and inner.attr.value == "error":
        inner = inner.value
    return isinstance(inner, cst.Name) and inner.value == name


def widen_refusals(a: ModuleAnalysis, site: Site, ed: Edits) -> None:
    """Each refusal test of the kept ``try`` also matches the round's -32021: ``<e>.code in
    (METHOD_NOT_FOUND, MISSING_REQUIRED_CLIENT_CAPABILITY)``, ``("Method not found" in <text> or
    <e>.code == MISSING_REQUIRED_CLIENT_CAPABILITY)`` (``isinstance(<e>, MCPError) and …`` where the
    handler catches more than the SDK's error)."""
    for test, name, sdk_only in refusal_tests(a, site):
        types = "mcp_types" if site.form == "fastmcp" else "mcp.types"  # where the round imports it from
        missing = ed.import_name(a, types, "MISSING_REQUIRED_CLIENT_CAPABILITY")
        assert isinstance(test, cst.Comparison)
        if isinstance(test.comparisons[0].operator, cst.Equal):
            found = code_of(test.comparisons[0].comparator)
            new = cst.parse_expression(f"{code_of(test.left)} in ({found}, {missing})")
        else:
            code = f"{name}.code == {missing}"
            if not sdk_only:
                code = f"isinstance({name}, {local_spell(a, site, ed, 'mcp.shared.exceptions', 'MCPError')}) and {code}"
            new = cst.parse_expression(f"({code_of(test.with_changes(lpar=[], rpar=[]))} or {code})")
            ed.replace(test, new)
            continue
        ed.replace(test, new.with_changes(lpar=test.lpar, rpar=test.rpar))


def refusal_note(a: ModuleAnalysis, site: Site) -> str:
    """What a client that did not declare the capability gets, for the fix's description."""
    tests = refusal_tests(a, site)
    if tests:
        which = (
            "`.code == METHOD_NOT_FOUND`"
            if isinstance(tests[0][0], cst.Comparison) and isinstance(tests[0][0].comparisons[0].operator, cst.Equal)
            else '`"Method not found" in …`'
        )
        return f"the `try`'s fallback for a client that cannot answer (its {which} test now also matches -32021)"
    if site.kept is not None:
        return "error -32021 raised inside the `try` around the request, whose handlers see it"
    return "error -32021 instead, as from the SDK's resolvers"

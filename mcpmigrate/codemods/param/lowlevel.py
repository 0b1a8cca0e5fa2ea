"""Low-level servers: a low-level ``tools/call`` handler has no signature to carry the path, so
the parameter becomes a property of the tool's ``inputSchema`` literal (``Tool(name=…,
inputSchema={…})``, and its ``required`` list) and the handler reads it from the call's arguments
(``arguments["root"]`` on mcp 1.x, ``(params.arguments or {})["root"]`` on mcp 2.x).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.param.parameter import insert_element, str_lit
from mcpmigrate.codemods.param.round import Round
from mcpmigrate.names import dict_get, string_value

TOOL_TYPES = S.type_names("Tool")


@dataclass
class LowLevelTarget:
    """The tool a low-level handler serves at a site, its inputSchema literal (``schema``,
    ``properties``, ``required``) and how the handler reads the argument. ``schema`` None: the
    module lists no tool at all (no ``Tool(...)`` literal, no ``tools/list`` handler), so there is
    no inputSchema to document the argument in (:func:`undocumented`)."""

    tool: str
    schema: cst.Dict | None
    properties: cst.Dict | None
    required: cst.List | None
    read: str  # the expression that reads the argument


def _compared_literal(test: cst.BaseExpression, op: type) -> str | None:
    """``name == "lit"`` / ``params.name != "lit"`` → ``"lit"``."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    comp = test.comparisons[0]
    if not isinstance(comp.operator, op):
        return None
    for subject, lit in ((test.left, comp.comparator), (comp.comparator, test.left)):
        dotted = get_full_name_for_node(subject) or ""
        if dotted.split(".")[-1] == "name" and isinstance(lit, cst.SimpleString):
            value = lit.evaluated_value
            return value if isinstance(value, str) else None
    return None


def _tool_calls(a: ModuleAnalysis) -> list[tuple[str | None, cst.Call]]:
    """Every ``Tool(...)`` call of the module, with its literal ``name=`` (memoized)."""

    def compute() -> list[tuple[str | None, cst.Call]]:
        found: list[tuple[str | None, cst.Call]] = []
        stack: list[cst.CSTNode] = [a.module]
        while stack:
            n = stack.pop()
            if isinstance(n, cst.Call) and a.qualname(n.func) in TOOL_TYPES:
                name_arg = next((x for x in n.args if x.keyword is not None and x.keyword.value == "name"), None)
                value = (
                    name_arg.value.evaluated_value
                    if name_arg is not None and isinstance(name_arg.value, cst.SimpleString)
                    else None
                )
                found.append((value if isinstance(value, str) else None, n))
            stack.extend(n.children)
        return found

    return a.memo("param.tool_calls", compute)


def lowlevel_target(a: ModuleAnalysis, entry: FunctionInfo, node: cst.CSTNode, name: str) -> LowLevelTarget | str:
    """The tool a low-level ``tools/call`` handler serves at ``node`` and its inputSchema literal,
    or why the ``name`` property cannot be added to it."""
    pm = a.parents
    tool: str | None = None
    child: cst.CSTNode = node
    cur = pm.get(id(node))
    while cur is not None and cur is not entry.node.body:
        if isinstance(cur, cst.If) and child is cur.body and tool is None:
            tool = _compared_literal(cur.test, cst.Equal)
        child, cur = cur, pm.get(id(cur))
    if tool is None and cur is entry.node.body:
        for stmt in entry.node.body.body:
            if stmt is child:
                break
            if isinstance(stmt, cst.If) and stmt.orelse is None and isinstance(stmt.body, cst.IndentedBlock):
                last = stmt.body.body[-1] if stmt.body.body else None
                if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], (cst.Return, cst.Raise)):
                    tool = _compared_literal(stmt.test, cst.NotEqual) or tool
    tools = _tool_calls(a)
    if tool is None:
        if len(tools) != 1 or tools[0][0] is None:
            return (
                f"cannot tell which tool of the low-level handler `{entry.qualname}` reaches the roots request "
                '(no `if name == "…"` branch around it): add the path parameter to its inputSchema by hand'
            )
        tool = tools[0][0]
    matches = [c for t, c in tools if t == tool]
    if not tools and len(entry.params) >= 2 and not any(f.method == "tools/list" for f in a.functions):
        return LowLevelTarget(tool, None, None, None, _read(entry, name))
    if len(matches) != 1:
        return f"no single `Tool(name={tool!r}, …)` literal found in this module: add the `{name}` property to its inputSchema by hand"
    schema_arg = next(
        (x for x in matches[0].args if x.keyword is not None and x.keyword.value in ("inputSchema", "input_schema")),
        None,
    )
    if schema_arg is None or not isinstance(schema_arg.value, cst.Dict):
        return f"the inputSchema of tool {tool!r} is not a dict literal: add the `{name}` property by hand"
    schema = schema_arg.value
    props = dict_get(schema, "properties", concatenated=False)
    if props is None or not isinstance(props.value, cst.Dict):
        return f"the inputSchema of tool {tool!r} has no literal `properties` dict: add the `{name}` property by hand"
    if dict_get(props.value, name, concatenated=False) is not None:
        return f"the inputSchema of tool {tool!r} already has a `{name}` property"
    req = dict_get(schema, "required", concatenated=False)
    if req is not None and not isinstance(req.value, cst.List):
        return f"the `required` of tool {tool!r} is not a list literal: add `{name}` by hand"
    if len(entry.params) < 2:
        return f"the low-level handler `{entry.qualname}` does not take the call's arguments"
    required = cst.ensure_type(req.value, cst.List) if req is not None else None  # a List: checked above
    return LowLevelTarget(tool, schema, props.value, required, _read(entry, name))


def _read(entry: FunctionInfo, name: str) -> str:
    """How the low-level handler ``entry`` reads the argument ``name`` (mcp 1.x: the arguments
    dict; mcp 2.x: the request params)."""
    args = entry.params[1].name.value
    return f'{args}["{name}"]' if entry.server_generation == S.MCP1 else f'({args}.arguments or {{}})["{name}"]'


def undocumented(target: LowLevelTarget, name: str) -> str | None:
    """The review note of a tool whose argument no inputSchema can document (None: it can)."""
    if target.schema is not None:
        return None
    return (
        f"no `tools/list` handler or `Tool(...)` literal in this module lists tool {target.tool!r}: the `{name}` "
        "argument is read from the call, but no inputSchema documents it; declare it where the tool is listed"
    )


def _add_to_dict(rnd: Round, d: cst.Dict, element: cst.DictElement, after: str | None = None) -> None:
    """Insert ``element`` into the dict display ``d``: after the (last) plain-string key
    ``after``, or at the end."""

    def add(_original: cst.CSTNode, node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Dict)
        idx = len(node.elements)
        if after is not None:
            for i, e in enumerate(node.elements):
                if (
                    isinstance(e, cst.DictElement)
                    and isinstance(e.key, cst.SimpleString)
                    and string_value(e.key) == after
                ):
                    idx = i + 1
        return node.with_changes(
            elements=insert_element(list(node.elements), idx, element, node.lbrace.whitespace_after)
        )

    rnd.edits.transform(d, add)


def _add_to_list(rnd: Round, lst: cst.List, name: str) -> None:
    """Append the string ``name`` to the list display ``lst``."""

    def add(_original: cst.CSTNode, node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.List)
        el = cst.Element(cst.SimpleString(f'"{name}"'))
        return node.with_changes(
            elements=insert_element(list(node.elements), len(node.elements), el, node.lbracket.whitespace_after)
        )

    rnd.edits.transform(lst, add)


def schema_edit(rnd: Round, target: LowLevelTarget, name: str, mode: str, description: str) -> None:
    """Add the ``name`` property (documented, a string or a list of strings) to the tool's
    inputSchema and to its ``required`` list (once per tool and name)."""
    if target.schema is None or target.properties is None or not rnd.once(("schema", id(target.schema), name)):
        return  # nothing lists the tool: no schema to document the argument in (the plan's review note)
    if mode == "list":
        prop = (
            f'{{"{name}": {{"type": "array", "items": {{"type": "string"}}, "description": {str_lit(description)}}}}}'
        )
    else:
        prop = f'{{"{name}": {{"type": "string", "description": {str_lit(description)}}}}}'
    element = cst.ensure_type(cst.ensure_type(cst.parse_expression(prop), cst.Dict).elements[0], cst.DictElement)
    _add_to_dict(rnd, target.properties, element)
    if target.required is not None:
        _add_to_list(rnd, target.required, name)
    else:
        req = cst.ensure_type(
            cst.ensure_type(cst.parse_expression(f'{{"required": ["{name}"]}}'), cst.Dict).elements[0], cst.DictElement
        )
        _add_to_dict(rnd, target.schema, req, after="properties")


def lowlevel_read(rnd: Round, target: LowLevelTarget, name: str, stmt: cst.CSTNode, replace: bool) -> None:
    """``name = arguments["name"]`` in the handler: in place of ``stmt`` (``replace``) or just
    before it (once per statement and name)."""
    if not rnd.once(("read", id(stmt), name)):
        return
    read = cst.parse_statement(f"{name} = {target.read}\n")
    if replace:
        read = read.with_changes(leading_lines=stmt.leading_lines)  # type: ignore[attr-defined]
        rnd.change(stmt, read)
    else:
        rnd.edits.insert_before(stmt, [read])

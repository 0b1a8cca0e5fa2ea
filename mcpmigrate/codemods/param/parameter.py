"""The new path parameter itself: its name (the configured one, with fallbacks when it is taken),
its declaration (documented for tools and prompts, plain for helpers), its description, how a
new element is spliced into a parameter, argument or literal list keeping that list's layout, and
how the comments of a signature it enters stay with what they describe.

Spec: 2026-07-28 deprecates roots (SEP-2577) and names the migration: take the directory or file
as an ordinary, documented tool parameter. SDK: a parameter ``Annotated[str, Field(description=…)]``
puts ``description`` into the tool's ``inputSchema.properties``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any

import libcst as cst

from mcpmigrate.config import Config


def param_name(config: Config, mode: str) -> str:
    """The parameter's name: the plural form when the code works with every root (``list``)."""
    return config.path_parameter.plural if mode == "list" else config.path_parameter.name


def description(config: Config, mode: str) -> str:
    """The description the parameter is documented with."""
    return config.path_parameter.list_description if mode == "list" else config.path_parameter.description


def name_candidates(config: Config) -> Iterator[Config]:
    """The configured parameter name first, then fallbacks used when it is already taken in a
    function on the path (``root`` → ``root_path`` → ``root_dir`` → ``workspace_root``)."""
    p = config.path_parameter
    yield config
    for single, plural in (
        (f"{p.name}_path", f"{p.name}_paths"),
        (f"{p.name}_dir", f"{p.name}_dirs"),
        (f"workspace_{p.name}", f"workspace_{p.plural}"),
    ):
        yield dataclasses.replace(config, path_parameter=dataclasses.replace(p, name=single, list_name=plural))


def str_lit(text: str) -> str:
    """``text`` as a Python string literal."""
    return json.dumps(text, ensure_ascii=False)


def documented_param(
    config: Config,
    mode: str,
    name: str | None = None,
    annotated: str = "Annotated",
    field: str = "Field",
    fallback: str | None = None,
) -> cst.Param:
    """``root: Annotated[str, Field(description=…)]`` (``list[str]`` in list mode): a tool's or a
    prompt's parameter, described in its schema. ``annotated`` and ``field`` are the local names
    of ``typing.Annotated`` and ``pydantic.Field`` (``codemods.edits.import_name``). With
    ``fallback`` (the roots were asked only where no other directory was given: :func:`fallback_note`)
    the parameter is ``… | None = None`` and its description ends with ``fallback``, which says
    when it is used."""
    p = config.path_parameter
    typ, desc = ("list[str]", p.list_description) if mode == "list" else ("str", p.description)
    if fallback is not None:
        typ, desc = f"{typ} | None", f"{desc} {fallback}"
    ann = f"{annotated}[{typ}, {field}(description={str_lit(desc)})]"
    param = cst.Param(cst.Name(name or param_name(config, mode)), cst.Annotation(cst.parse_expression(ann)))
    if fallback is not None:
        param = param.with_changes(
            default=cst.Name("None"),
            equal=cst.AssignEqual(
                whitespace_before=cst.SimpleWhitespace(" "), whitespace_after=cst.SimpleWhitespace(" ")
            ),
        )
    return param


def fallback_note(explicit: str | None, condition: str | None = None) -> str:
    """What the description of an optional path parameter adds: when it is used (``condition``:
    the test that lets ``explicit`` skip the roots when it checks more than presence)."""
    if explicit and condition:
        return f"Used only when `{explicit}` is not given or does not pass `{condition}`."
    if explicit:
        return f"Used only when `{explicit}` is not given."
    return "Optional: used only where the server has no other directory to work in."


def plain_param(config: Config, mode: str, name: str | None = None, optional: bool = False) -> cst.Param:
    """``root: str`` (``list[str]`` in list mode; ``… | None`` when ``optional``): a helper's parameter."""
    typ = "list[str]" if mode == "list" else "str"
    return cst.Param(
        cst.Name(name or param_name(config, mode)),
        cst.Annotation(cst.parse_expression(f"{typ} | None" if optional else typ)),
    )


def like(orig: cst.CSTNode, new: cst.BaseExpression) -> cst.BaseExpression:
    """``new`` with the parentheses ``orig`` had."""
    lpar = getattr(orig, "lpar", ())
    rpar = getattr(orig, "rpar", ())
    return new.with_changes(lpar=lpar, rpar=rpar) if lpar else new


def insert_element(els: list, idx: int, new: Any, open_ws: Any) -> list:
    """Insert ``new`` into a dict/list/parameter element list, keeping its layout (one line, or
    one element per line with or without a trailing comma)."""
    multiline = isinstance(open_ws, cst.ParenthesizedWhitespace)
    default_sep = (
        cst.Comma(whitespace_after=open_ws) if multiline else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    )
    if not els:
        return [new.with_changes(comma=cst.MaybeSentinel.DEFAULT)]
    if idx >= len(els):
        last = els[-1]
        sep = els[-2].comma if len(els) > 1 and isinstance(els[-2].comma, cst.Comma) else default_sep
        els[-1] = last.with_changes(comma=sep)
        els.append(
            new.with_changes(comma=last.comma if isinstance(last.comma, cst.Comma) else cst.MaybeSentinel.DEFAULT)
        )
        return els
    sep = els[idx - 1].comma if idx > 0 and isinstance(els[idx - 1].comma, cst.Comma) else default_sep
    els.insert(idx, new.with_changes(comma=sep))
    return els


_FUNCTION_TYPE_COMMENT = re.compile(r"#\s*type:\s*\(")


def keep_comments_in_place(original: cst.CSTNode, node: cst.CSTNode) -> cst.CSTNode:
    """Comments of a rewritten signature stay with what they describe (a transform of the
    function, run after its parameters and body are rewritten). A parameter that takes the place
    of another (``root`` for ``ctx``) drops the trailing comment it inherited with the other's
    comma: ``# injected by FastMCP`` or a per-argument ``# type: Context`` (PEP 484) would now
    describe the new parameter, wrongly (mypy: duplicate type signatures). A function type
    comment (``# type: (...) -> str``, PEP 484) on the first line of the body stays when the
    statement it sat above is deleted. A function that is not rewritten is returned as it is."""
    if not (isinstance(original, cst.FunctionDef) and isinstance(node, cst.FunctionDef)):
        return node

    def bare(ws: Any) -> Any:
        if isinstance(ws, cst.ParenthesizedWhitespace) and ws.first_line.comment is not None:
            return ws.with_changes(first_line=cst.TrailingWhitespace(newline=ws.first_line.newline))
        return ws

    old_names = {
        p.name.value for p in (*original.params.posonly_params, *original.params.params, *original.params.kwonly_params)
    }
    params = node.params
    for kind in ("posonly_params", "params", "kwonly_params"):
        lst = [
            p
            if p.name.value in old_names
            else p.with_changes(
                comma=p.comma.with_changes(whitespace_after=bare(p.comma.whitespace_after))
                if isinstance(p.comma, cst.Comma)
                else p.comma,
                whitespace_after_param=bare(p.whitespace_after_param),
            )
            for p in getattr(params, kind)
        ]
        params = params.with_changes(**{kind: lst})
    node = node.with_changes(params=params)
    old_body, new_body = original.body, node.body
    if (
        isinstance(old_body, cst.IndentedBlock)
        and isinstance(new_body, cst.IndentedBlock)
        and old_body.body
        and new_body.body
    ):
        old_first, first = old_body.body[0], new_body.body[0]
        # every BaseStatement is one of these (only they declare leading_lines)
        assert isinstance(old_first, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
        assert isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
        kept = [
            ln
            for ln in old_first.leading_lines
            if ln.comment is not None and _FUNCTION_TYPE_COMMENT.match(ln.comment.value)
        ]
        head = kept[0].comment if kept else None  # kept lines all have a comment
        if head is not None and not any(
            ln.comment is not None and ln.comment.value == head.value for ln in first.leading_lines
        ):
            node = node.with_changes(
                body=new_body.with_changes(
                    body=[first.with_changes(leading_lines=[*kept, *first.leading_lines]), *new_body.body[1:]]
                )
            )
    return node

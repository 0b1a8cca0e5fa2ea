"""What a fix wrote, laid out the way ruff format and black lay it out (README.md, "Fixes keep
your style"; :mod:`mcpmigrate.codemods.style` reads the settings).

Only a statement the fix wrote or changed is laid out: a simple statement, an ``if``/``elif``/
``while`` header or a function header whose text (at its indentation) is not in the original.
Such a statement is first collapsed onto one line (its line breaks inside brackets removed; a
magic trailing comma kept), then split as black's ``rhs`` and ``delimiter_split`` transforms
split it (https://black.readthedocs.io/en/stable/the_black_code_style/current_style.html, "Line
length", "Parentheses", "The magic trailing comma"; ruff format follows it):

* a line that fits (and holds no magic trailing comma) stays on one line;
* the right-hand side of ``=``, ``return``, ``if``, ``elif`` and ``while`` has optional
  parentheses: they are omitted when the expression ends in brackets it can be split at (a call, a
  subscript, a literal) and has at most one attribute access on a call's result (more read better
  in parentheses); an expression with several operators of its top kind, a conditional
  expression or a tuple goes into parentheses on its own lines instead;
* a split happens at the last bracket pair whose opening line fits (black's trailers to omit);
  the contents go on one indented line when they fit, else one element per line with a trailing
  comma (a lone element of a call, subscript or literal stays alone, without a comma; a function's
  lone parameter gets one); inside parentheses, a long ``and``/``or`` chain or conditional
  expression is split before each operator.

A statement with a comment inside is left as written.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar, cast

import libcst as cst

from mcpmigrate.codemods.style import Style

N = TypeVar("N", bound=cst.CSTNode)


class _HasComment(Exception):
    """A comment inside the statement: collapsing it would lose or move the comment."""


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _sws(text: str) -> cst.SimpleWhitespace:
    return cst.SimpleWhitespace(text)


def _pw(indent: str) -> cst.ParenthesizedWhitespace:
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), empty_lines=[], indent=True, last_line=cst.SimpleWhitespace(indent)
    )


# -- collapse ------------------------------------------------------------------------------------
_SPACED = (
    cst.BaseBinaryOp,
    cst.BaseBooleanOp,
    cst.BaseCompOp,
    cst.BaseAugOp,
    cst.IfExp,
    cst.Await,
    cst.ConcatenatedString,  # `"a" "b"` split over lines: one space between the parts
    cst.Lambda,
    cst.From,
    cst.AsName,
    cst.CompFor,
    cst.CompIf,
    cst.Yield,
    cst.Not,
)


def _space_for(node: cst.CSTNode, name: str) -> str:
    """The one-line spelling of a line break at field ``name`` of ``node``."""
    if isinstance(node, cst.Comma):
        return " " if name == "whitespace_after" else ""
    if isinstance(node, (cst.DictElement, cst.StarredDictElement)) and name == "whitespace_after_colon":
        return " "
    if isinstance(node, cst.ConcatenatedString) and name == "whitespace_between":
        return " "  # `"a " "b"`, as black joins an implicit concatenation that fits
    if isinstance(node, cst.Annotation) and name == "whitespace_after_indicator":
        return " "
    if isinstance(node, _SPACED):
        return " "
    return ""


class _Collapser(cst.CSTTransformer):
    """Removes every line break inside brackets (a magic trailing comma stays) and writes a
    single-quoted string in double quotes when that needs no escape (black's string
    normalization; not inside an f-string, whose quotes may have to differ before 3.12)."""

    def __init__(self) -> None:
        super().__init__()
        self.fstrings = 0

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        self.fstrings += 1

    def _quoted(self, node: cst.SimpleString) -> cst.SimpleString:
        value = node.value
        prefix = value[: len(value) - len(value.lstrip("rRbBuU"))]
        body = value[len(prefix) :]
        if self.fstrings or body.startswith("'" * 3) or not body.startswith("'"):
            return node
        inner = body[1:-1]
        if '"' in inner or "\\" in inner:
            return node
        return node.with_changes(value=f'{prefix}"{inner}"')

    def on_leave(self, original_node, updated_node):
        if isinstance(updated_node, cst.FormattedString):
            self.fstrings -= 1
        if isinstance(updated_node, cst.SimpleString):
            return self._quoted(updated_node)
        if isinstance(updated_node, (cst.TrailingWhitespace, cst.EmptyLine)) and updated_node.comment is not None:
            raise _HasComment
        if isinstance(updated_node, cst.ParenthesizedWhitespace):
            return updated_node
        changes = {}
        for f in dataclasses.fields(updated_node):
            value = getattr(updated_node, f.name)
            if isinstance(value, cst.ParenthesizedWhitespace):
                changes[f.name] = _sws(_space_for(updated_node, f.name))
        if changes:
            updated_node = updated_node.with_changes(**changes)
        elements = _elements(updated_node)
        if elements and isinstance(elements[-1].comma, cst.Comma):
            # a trailing comma: nothing between it and the closing bracket
            last = elements[-1]
            comma = last.comma.with_changes(whitespace_after=_sws(""))
            updated_node = _replace_elements(updated_node, [*elements[:-1], last.with_changes(comma=comma)])
        return updated_node


def collapse(node: N) -> N:
    """``node`` on one line (raises :class:`_HasComment` when a comment is inside)."""
    return cast(N, node.visit(_Collapser()))


# -- groups --------------------------------------------------------------------------------------
def _elements(node: cst.CSTNode) -> list:
    if isinstance(node, cst.Call):
        return list(node.args)
    if isinstance(node, cst.Subscript):
        return list(node.slice)
    if isinstance(node, (cst.List, cst.Set, cst.Dict)):
        return list(node.elements)
    if isinstance(node, cst.Tuple) and node.lpar:
        return list(node.elements)
    if isinstance(node, cst.Parameters):
        star = [node.star_arg] if isinstance(node.star_arg, (cst.Param, cst.ParamStar)) else []
        kwargs = [node.star_kwarg] if node.star_kwarg is not None else []
        return [*node.params, *star, *node.kwonly_params, *kwargs]
    return []


def _replace_elements(node: cst.CSTNode, items: list) -> cst.CSTNode:
    if isinstance(node, cst.Call):
        return node.with_changes(args=items)
    if isinstance(node, cst.Subscript):
        return node.with_changes(slice=items)
    if isinstance(node, (cst.List, cst.Set, cst.Dict, cst.Tuple)):
        return node.with_changes(elements=items)
    assert isinstance(node, cst.Parameters)
    n, has_star = len(node.params), isinstance(node.star_arg, (cst.Param, cst.ParamStar))
    k = len(node.kwonly_params)
    return node.with_changes(
        params=items[:n],
        star_arg=items[n] if has_star else node.star_arg,
        kwonly_params=items[n + has_star : n + has_star + k],
        star_kwarg=items[n + has_star + k] if node.star_kwarg is not None else None,
    )


def _magic(node: cst.CSTNode) -> bool:
    """A magic trailing comma in ``node`` or inside it (a one-element tuple's comma is not one)."""
    found = False

    class _Find(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal found
            els = _elements(n)
            if els and isinstance(els[-1].comma, cst.Comma) and not (isinstance(n, cst.Tuple) and len(els) == 1):
                found = True
            return not found

    node.visit(_Find())
    return found


def _no_comma(e):
    if isinstance(e, cst.ParamStar):
        return e  # a bare `*` always has its comma (a keyword-only parameter follows)
    e = e.with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if isinstance(e, cst.Param):
        e = e.with_changes(whitespace_after_param=_sws(""))
    elif isinstance(e, cst.Arg):
        e = e.with_changes(whitespace_after_arg=_sws(""))
    return e


def _flat(node: cst.CSTNode) -> str:
    if isinstance(node, cst.ParamStar):
        return "*"
    if isinstance(node, cst.Param) and isinstance(node.star, cst.MaybeSentinel):
        node = node.with_changes(star="")
    return _code(node)


def _is_group(node: cst.CSTNode) -> bool:
    """A bracket pair a line can be split at: a call's or subscript's brackets, a literal's, a
    parenthesized expression (not an empty pair)."""
    if isinstance(node, (cst.Call, cst.Subscript, cst.List, cst.Set, cst.Dict)):
        return bool(_elements(node))
    return isinstance(node, cst.BaseExpression) and bool(node.lpar)


def _trailers(node: cst.CSTNode, through_operators: bool) -> list[cst.CSTNode]:
    """The bracket pairs ``node`` ends in, the last one first: ``a(x).b[y](z)`` gives the call
    ``(z)``, the subscript ``[y]``, the call ``(x)`` (an operator's right operand is followed
    when ``through_operators``)."""
    out: list[cst.CSTNode] = []
    while True:
        if isinstance(node, cst.BaseExpression) and node.lpar:
            out.append(node)
            return out
        if isinstance(node, (cst.Call, cst.Subscript)):
            if _elements(node):
                out.append(node)
            node = node.func if isinstance(node, cst.Call) else node.value
        elif isinstance(node, (cst.List, cst.Set, cst.Dict)):
            if _elements(node):
                out.append(node)
            return out
        elif isinstance(node, _COMPREHENSIONS):
            out.append(node)
            return out
        elif isinstance(node, cst.Attribute):
            node = node.value
        elif isinstance(node, cst.Await):
            node = node.expression
        elif isinstance(node, (cst.Arg, cst.Element, cst.DictElement)):
            node = node.value
        elif isinstance(node, cst.Param):
            if node.default is not None and _trailers(node.default, False):
                node = node.default
            elif node.annotation is not None:
                node = node.annotation.annotation
            else:
                return out
        elif isinstance(node, cst.SubscriptElement) and isinstance(node.slice, cst.Index):
            node = node.slice.value
        elif through_operators and isinstance(node, (cst.BooleanOperation, cst.BinaryOperation)):
            node = node.right
        elif through_operators and isinstance(node, cst.Comparison):
            node = node.comparisons[-1].comparator
        elif isinstance(node, cst.UnaryOperation):
            node = node.expression
        else:
            return out


_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp)


def _dots_after_brackets(node: cst.BaseExpression) -> int:
    """Attribute accesses on a call's or subscript's result along the expression's spine
    (black's DOT_PRIORITY delimiters)."""
    count = 0
    while True:
        if isinstance(node, cst.Attribute):
            if isinstance(node.value, (cst.Call, cst.Subscript)):
                count += 1
            node = node.value
        elif isinstance(node, cst.Call):
            node = node.func
        elif isinstance(node, cst.Subscript):
            node = node.value
        else:
            return count


def _operators(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of a top-level ``and``/``or`` chain (one kind of operator), else []."""
    if not isinstance(node, cst.BooleanOperation) or node.lpar:
        return []
    kind = type(node.operator)
    operands: list[cst.BaseExpression] = []
    while isinstance(node, cst.BooleanOperation) and not node.lpar and type(node.operator) is kind:
        operands.insert(0, node.right)
        node = node.left
    return [node, *operands]


@dataclasses.dataclass
class _Layout:
    style: Style
    unit: str
    base: int  # the width of the statement's own indentation

    def fits(self, width: int) -> bool:
        return width <= self.style.line_length

    def col(self, level: int) -> int:
        return self.base + len(self.unit) * level

    def lay(self, node, start: int, tail: int, level: int, through_operators: bool = False):
        """``node`` (flat, starting at column ``start``, followed by ``tail`` columns) split at
        the last bracket pair whose opening line fits, when it does not fit."""
        text = _flat(node)
        if self.fits(start + len(text) + tail) and not _magic(node):
            return node
        candidates = _trailers(node, through_operators)
        if not candidates:
            return node
        chosen = candidates[0]
        for group in candidates:
            inner = _flat(group)
            at = text.rfind(inner)
            head = start + at + _opening_width(group)
            rest = len(text) - at - len(inner)
            if not self.fits(rest + tail + self.col(level)):
                break  # black generates no split with a longer tail
            if self.fits(head):
                chosen = group
                break
        inner = _flat(chosen)
        at = text.rfind(inner)
        split = self.split(chosen, start + at, len(text) - at - len(inner) + tail, level)
        return node.deep_replace(chosen, split) if split is not chosen else node

    def body(self, node, tail: int, level: int):
        """``node`` alone on its lines at ``level`` (inside brackets): split before each ``and``/
        ``or`` of a long chain, or at ``if``/``else`` of a conditional expression, else as
        :meth:`lay` splits it."""
        start = self.col(level)
        if self.fits(start + len(_flat(node)) + tail) and not _magic(node):
            return node
        operands = _operators(node)
        if operands:
            op_width = len(_code(node.operator).strip()) + 1
            return self._chain(node, start, tail, level, op_width)
        if isinstance(node, cst.IfExp) and not node.lpar:
            return self._ifexp(node, level, tail)
        strings = node.value if isinstance(node, cst.Arg) else node
        if isinstance(strings, cst.ConcatenatedString) and not strings.lpar:
            return node.deep_replace(strings, self._strings(strings, level))
        return self.lay(node, start, tail, level)

    def _strings(self, node: cst.ConcatenatedString, level: int) -> cst.ConcatenatedString:
        """An implicit string concatenation that does not fit, one string per line (black's
        STRING_PRIORITY split, the layout `"a "` / `"b"` such code is usually written in)."""
        right = node.right
        if isinstance(right, cst.ConcatenatedString) and not right.lpar:
            right = self._strings(right, level)
        return node.with_changes(whitespace_between=_pw(self.unit * level), right=right)

    def _chain(self, node, start: int, tail: int, level: int, op_width: int):
        if not (isinstance(node, cst.BooleanOperation) and not node.lpar):
            return self.lay(node, start, tail, level)
        left = node.left
        kind = type(node.operator)
        if isinstance(left, cst.BooleanOperation) and not left.lpar and type(left.operator) is kind:
            left = self._chain(left, start, 0, level, op_width)
        else:
            left = self.lay(left, start, 0, level)
        right = self.lay(node.right, start + op_width + 1, tail, level)
        op = node.operator.with_changes(whitespace_before=_pw(self.unit * level))
        return node.with_changes(left=left, operator=op, right=right)

    def _ifexp(self, node: cst.IfExp, level: int, tail: int):
        start = self.col(level)
        nl = _pw(self.unit * level)
        body = self.lay(node.body, start, 0, level)
        test = self.lay(node.test, start + 3, 0, level)
        orelse = node.orelse
        if isinstance(orelse, cst.IfExp) and not orelse.lpar:
            orelse = self._ifexp(orelse, level, tail)
            orelse = orelse.with_changes(body=self.lay(orelse.body, start + 5, 0, level))
        else:
            orelse = self.lay(orelse, start + 5, tail, level)
        return node.with_changes(
            body=body, test=test, orelse=orelse, whitespace_before_if=nl, whitespace_before_else=nl
        )

    def _comprehension(self, group, level: int):
        """``[elt for x in y if c]`` exploded: on one indented line when it fits, else the
        element, each ``for`` and each ``if`` on its own line (black's COMPREHENSION_PRIORITY)."""
        inner, outer = self.unit * (level + 1), self.unit * level
        content = _flat(group)[1:-1]
        brackets = {"lbracket": "rbracket"} if isinstance(group, cst.ListComp) else {"lbrace": "rbrace"}
        ((lname, rname),) = brackets.items()
        lb = getattr(group, lname).with_changes(whitespace_after=_pw(inner))
        rb = getattr(group, rname).with_changes(whitespace_before=_pw(outer))
        if self.fits(self.col(level + 1) + len(content)):
            return group.with_changes(**{lname: lb, rname: rb})
        start = self.col(level + 1)

        def clauses(comp: cst.CompFor) -> cst.CompFor:
            ifs = [c.with_changes(whitespace_before=_pw(inner)) for c in comp.ifs]
            nested = clauses(comp.inner_for_in) if comp.inner_for_in is not None else None
            return comp.with_changes(whitespace_before=_pw(inner), ifs=ifs, inner_for_in=nested)

        changes = {lname: lb, rname: rb, "for_in": clauses(group.for_in)}
        if isinstance(group, cst.DictComp):
            changes["value"] = self.lay(group.value, start + len(_flat(group.key)) + 2, 0, level + 1)
        else:
            changes["elt"] = self.lay(group.elt, start, 0, level + 1)
        return group.with_changes(**changes)

    def split(self, group, start: int, tail: int, level: int):
        """``group`` (starting at column ``start``, ``tail`` columns after it) exploded: its
        elements on one indented line when they fit, else one per line with a trailing comma."""
        inner, outer = self.unit * (level + 1), self.unit * level
        if isinstance(group, _COMPREHENSIONS):
            return self._comprehension(group, level)
        if isinstance(group, cst.BaseExpression) and group.lpar and not isinstance(group, cst.Tuple):
            # a parenthesized expression: `(` / the expression / `)`
            bare = group.with_changes(lpar=[], rpar=[])
            laid = self.body(bare, 0, level + 1)
            return laid.with_changes(
                lpar=[cst.LeftParen(whitespace_after=_pw(inner))],
                rpar=[cst.RightParen(whitespace_before=_pw(outer))],
            )
        elements = _elements(group)
        is_def = isinstance(group, cst.Parameters)
        is_tuple = isinstance(group, cst.Tuple)
        magic = isinstance(elements[-1].comma, cst.Comma) and not (is_tuple and len(elements) == 1)
        content = ", ".join(_flat(_no_comma(e)).strip() for e in elements)
        one_line = (
            not magic
            and not any(_magic(e) for e in elements)
            and self.fits(self.col(level + 1) + len(content))
            and not is_tuple
            and not (is_def and len(elements) == 1)
            # a literal split with several elements is exploded one per line (black's should_split_line)
            and not (isinstance(group, (cst.List, cst.Set, cst.Dict)) and len(elements) > 1)
        )
        single = len(elements) == 1 and not is_def and not is_tuple and not magic
        if one_line or single:
            items = [e.with_changes(comma=cst.Comma(whitespace_after=_sws(" "))) for e in elements[:-1]]
            last = _no_comma(elements[-1])
            if single:
                last = self.body(last, 0, level + 1)
            items.append(last)
            return _rebuild(group, items, _pw(inner), _pw(outer), trailing=False)
        items = [
            self.body(_no_comma(e), 1, level + 1).with_changes(comma=cst.Comma(whitespace_after=_pw(inner)))
            for e in elements[:-1]
        ]
        items.append(
            self.body(_no_comma(elements[-1]), 1, level + 1).with_changes(comma=cst.Comma(whitespace_after=_pw(outer)))
        )
        return _rebuild(group, items, _pw(inner), _pw(outer), trailing=True)


def _opening_width(group: cst.CSTNode) -> int:
    """Columns from the start of ``group``'s text to just after its opening bracket."""
    if isinstance(group, cst.BaseExpression) and group.lpar and not isinstance(group, cst.Tuple):
        return 1
    if isinstance(group, cst.Call):
        return len(_flat(group.func)) + 1
    if isinstance(group, cst.Subscript):
        return len(_flat(group.value)) + 1
    return 1


def _rebuild(group, items: list, after_open, before_close, trailing: bool):
    """``group`` with ``items`` as its elements, the line break ``after_open`` after its opening
    bracket and ``before_close`` before its closing one (in the last element's comma when
    ``trailing``)."""
    if not trailing:
        last = items[-1]
        if isinstance(last, cst.Param):
            items[-1] = last.with_changes(whitespace_after_param=before_close)
        elif isinstance(last, cst.Arg):
            items[-1] = last.with_changes(whitespace_after_arg=before_close)
    closing = _sws("") if trailing or isinstance(group, (cst.Call, cst.Parameters)) else before_close
    if isinstance(group, cst.Call):
        return group.with_changes(whitespace_before_args=after_open, args=items)
    if isinstance(group, cst.Subscript):
        return group.with_changes(
            lbracket=cst.LeftSquareBracket(whitespace_after=after_open),
            slice=items,
            rbracket=cst.RightSquareBracket(whitespace_before=closing),
        )
    if isinstance(group, cst.List):
        return group.with_changes(
            lbracket=cst.LeftSquareBracket(whitespace_after=after_open),
            elements=items,
            rbracket=cst.RightSquareBracket(whitespace_before=closing),
        )
    if isinstance(group, (cst.Set, cst.Dict)):
        return group.with_changes(
            lbrace=cst.LeftCurlyBrace(whitespace_after=after_open),
            elements=items,
            rbrace=cst.RightCurlyBrace(whitespace_before=closing),
        )
    if isinstance(group, cst.Tuple):
        return group.with_changes(
            lpar=[*group.lpar[:-1], cst.LeftParen(whitespace_after=after_open)],
            elements=items,
            rpar=[cst.RightParen(whitespace_before=closing), *group.rpar[1:]],
        )
    assert isinstance(group, cst.Parameters)
    return _replace_elements(group, items)


# -- statements ----------------------------------------------------------------------------------
_REDUNDANT = (
    cst.Call,
    cst.Attribute,
    cst.Name,
    cst.Subscript,
    cst.BooleanOperation,
    cst.BinaryOperation,
    cst.Comparison,
    cst.IfExp,
    cst.UnaryOperation,
    cst.Await,
    cst.List,
    cst.Dict,
    cst.Set,
    cst.SimpleString,
    cst.FormattedString,
    cst.Integer,
)


def _strip_parens(value: cst.BaseExpression) -> cst.BaseExpression:
    """``value`` without redundant parentheses around it (black's invisible parentheses)."""
    if len(value.lpar) == 1 and isinstance(value, _REDUNDANT):
        return value.with_changes(lpar=[], rpar=[])
    return value


def _can_omit_parens(value: cst.BaseExpression, start: int, layout: _Layout) -> bool:
    """Black's ``can_omit_invisible_parens``, for the shapes a fix writes."""
    if isinstance(value, (cst.Tuple, cst.IfExp)):
        return False
    operands = _operators(value)
    if len(operands) > 2:
        return False
    if isinstance(value, (cst.BinaryOperation, cst.Comparison)):
        return False
    dots = _dots_after_brackets(value)
    if dots > 1:
        return False
    if not operands:
        return bool(_trailers(value, False))
    # one operator: omitted when the last operand ends in brackets whose opening fits, or there
    # are other brackets before it (black's _can_omit_closing_paren)
    trailers = _trailers(value, True)
    if not trailers:
        return False
    last = trailers[0]
    text = _flat(value)
    at = text.rfind(_flat(last))
    if layout.fits(start + at + _opening_width(last)):
        return True
    before = text[: at + _opening_width(last) - 1]  # up to the last bracket pair's opening
    return any(b in before for b in "([{")


def _single_leaf(value: cst.BaseExpression) -> bool:
    """One token for black (``can_be_split`` is false): a name, a number, a string or an f-string."""
    return isinstance(value, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.FormattedString))


def lay_value(layout: _Layout, value: cst.BaseExpression, start: int, tail: int, optional_parens: bool):
    """The right-hand side ``value`` of a statement (``start``: its column, ``tail``: what follows
    it on the line), laid out."""
    value = collapse(value)
    if optional_parens:
        value = _strip_parens(value)
    if layout.fits(start + len(_flat(value)) + tail) and not _magic(value):
        return value
    if not optional_parens:
        return layout.lay(value, start, tail, 0)
    if _can_omit_parens(value, start, layout):
        return layout.lay(value, start, tail, 0, through_operators=True)
    if _single_leaf(value) and not layout.fits(layout.col(1) + len(_flat(value)) + 1):
        # parentheses that cannot make it fit are not added: ruff format and black keep such a
        # value flat (docs/architecture.md, "optional parentheses"; tests/test_style_fit.py)
        return value
    # in parentheses on lines of their own (a tuple one element per line)
    return layout.split(value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]), start, tail, 0)


class _Relayout(cst.CSTTransformer):
    """Lays out each statement of the module that is not in ``known`` (see the module docstring)."""

    def __init__(self, known: set[tuple[int, str]], style: Style, unit: str, collect: bool = False) -> None:
        self.known, self.style, self.unit, self.collect = known, style, unit, collect
        self.depth = [0]

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.depth.append(self.depth[-1] + len(node.indent if node.indent is not None else self.unit))

    def leave_IndentedBlock(self, original_node, updated_node):
        self.depth.pop()
        return updated_node

    def _new(self, key: str) -> bool:
        if self.collect:
            self.known.add((self.depth[-1], key))
            return False
        return (self.depth[-1], key) not in self.known

    def _layout(self) -> _Layout:
        return _Layout(self.style, self.unit, self.depth[-1])

    def leave_FunctionDef(self, original_node, updated_node):
        if not self._new("def " + _header(original_node)):
            return updated_node
        p = updated_node.params
        if p.posonly_params or isinstance(p.posonly_ind, cst.ParamSlash):
            return updated_node
        try:
            params = collapse(updated_node.params)
            returns = collapse(updated_node.returns) if updated_node.returns is not None else None
        except _HasComment:
            return updated_node
        node = updated_node.with_changes(params=params, returns=returns, whitespace_before_params=_sws(""))
        header = _header(node)
        base = self.depth[-1]
        if "\n" in header or self.style.line_length >= base + len(header):
            return node
        layout = self._layout()
        open_at = base + header.index("(") + 1
        close = len(header) - header.rindex(")")
        if not _elements(params):
            return node
        split = layout.split(params, open_at - 1, close, 0)
        return node.with_changes(params=split, whitespace_before_params=_pw(self.unit))

    def _header_test(self, original_node, updated_node, keyword: str):
        test = updated_node.test
        key = f"{keyword} {_code(original_node.test)}"
        if not self._new(key):
            return updated_node
        base = self.depth[-1]
        try:
            laid = lay_value(self._layout(), test, base + len(keyword) + 1, 1, optional_parens=True)
        except _HasComment:
            return updated_node
        return updated_node.with_changes(test=laid)

    def leave_If(self, original_node, updated_node):
        return self._header_test(original_node, updated_node, "if")

    def leave_While(self, original_node, updated_node):
        return self._header_test(original_node, updated_node, "while")

    def leave_SimpleStatementLine(self, original_node, updated_node):
        if len(updated_node.body) != 1:
            return updated_node
        small = updated_node.body[0]
        if isinstance(small, (cst.Import, cst.ImportFrom)):
            return updated_node  # style.add_imports writes and wraps them
        key = _code(updated_node.with_changes(leading_lines=[])).rstrip("\n")
        if not self._new(key):
            return updated_node
        if isinstance(small, cst.Raise) and small.cause is None:
            field_name, parens = "exc", False
        elif isinstance(small, cst.Expr):
            field_name, parens = "value", False
        elif isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Return)):
            field_name, parens = "value", True
        else:
            return updated_node
        value = getattr(small, field_name)
        if not isinstance(value, cst.BaseExpression):
            return updated_node
        if updated_node.trailing_whitespace.comment is not None:
            return updated_node
        base = self.depth[-1]
        try:
            flat_value = collapse(value)
            line = _code(
                updated_node.with_changes(leading_lines=[], body=[small.with_changes(**{field_name: flat_value})])
            )
        except _HasComment:
            return updated_node
        line = line.rstrip("\n")
        flat = _flat(flat_value)
        if not line.endswith(flat):
            return updated_node
        start = base + len(line) - len(flat)
        try:
            laid = lay_value(self._layout(), value, start, 0, optional_parens=parens)
        except _HasComment:
            return updated_node
        return updated_node.with_changes(body=[small.with_changes(**{field_name: laid})])


def _header(fn: cst.FunctionDef) -> str:
    """``async def name(params) -> ret:`` as written (several lines when it is wrapped)."""
    text = _flat(fn.with_changes(body=cst.SimpleStatementSuite([cst.Pass()]), decorators=[], leading_lines=[]))
    return text[: text.rstrip().rfind(":") + 1].rstrip() if text.rstrip().endswith("pass") else text


def relayout(original: cst.Module, module: cst.Module, style: Style) -> cst.Module:
    """``module`` with each statement the fix wrote or changed (not in ``original`` at its
    indentation) laid out as ruff format / black lay it out for ``style.line_length``."""
    unit = module.default_indent
    known: set[tuple[int, str]] = set()
    original.visit(_Relayout(known, style, original.default_indent, collect=True))
    return module.visit(_Relayout(known, style, unit))

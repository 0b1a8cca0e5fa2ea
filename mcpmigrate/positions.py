"""Source ranges of libcst nodes, several times cheaper than ``PositionProvider``.

libcst's ``PositionProvider`` generates the module's code with a codegen state that updates a
line and a column on every token (a regex split each time) and builds a ``CodeRange`` for every
node. Here the same codegen runs with a state that only notes, for every node, the index of the
token it starts and ends at — the same ``before_codegen`` / ``after_codegen`` /
``record_syntactic_position`` protocol, so the ranges are the *syntactic* ones
``PositionProvider`` gives (parentheses and whitespace handled by each node's own codegen) —
and converts token indexes to lines and columns only for the nodes asked for.

Ranges are ``libcst.metadata.CodeRange``: 1-based lines, 0-based columns, end exclusive.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import libcst as cst
from libcst._nodes.internal import CodegenState  # the codegen protocol every node speaks
from libcst.metadata import CodeRange

_NEWLINE = re.compile(r"\r\n?|\n")  # what libcst's position state counts as a line break


class _TokenIndexState(CodegenState):
    """A codegen state noting ``id(node) -> (first token index, end token index)``."""

    def __init__(self, default_indent: str, default_newline: str) -> None:
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.at: dict[int, tuple[int, int]] = {}
        self._stack: list[int] = []

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._stack.append(len(self.tokens))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._stack.pop()
        if id(node) not in self.at:  # a syntactic range recorded inside the node wins
            self.at[id(node)] = (start, len(self.tokens))

    @contextmanager
    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> Iterator[None]:
        start = len(self.tokens)
        try:
            yield
        finally:
            end = len(self.tokens)
            if start_node is not None:
                start = self.at[id(start_node)][0]
            if end_node is not None:
                end = self.at[id(end_node)][1]
            self.at[id(node)] = (start, end)

    def pop_trailing_newline(self) -> None:
        """Keep the module's last newline: ranges were noted with it in place (libcst's
        position state counts it the same way)."""


def code_ranges(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
    """The ``CodeRange`` of each of ``nodes`` (nodes of ``module``; others are left out), equal
    to what ``MetadataWrapper(module).resolve(PositionProvider)`` gives them."""
    return code_ranges_and_text(module, nodes)[0]


def code_ranges_and_text(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> tuple[dict[cst.CSTNode, CodeRange], str]:
    """:func:`code_ranges`, and the code the module generates (what the ranges index into)."""
    state = _TokenIndexState(module.default_indent, module.default_newline)
    module._codegen(state)
    wanted = [(n, state.at[id(n)]) for n in nodes if id(n) in state.at]
    points = _line_columns(state.tokens, {k for _n, span in wanted for k in span})
    return {n: CodeRange(points[s], points[e]) for n, (s, e) in wanted}, "".join(state.tokens)


def split_lines(text: str) -> list[str]:
    """``text``'s lines with their ends, split where Python's tokenizer (and libcst) break lines:
    ``\r\n``, ``\r``, ``\n`` — not at form feeds or Unicode line separators."""
    return _LINE.findall(text)


_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+\Z")


def _line_columns(tokens: list[str], indexes: set[int]) -> dict[int, tuple[int, int]]:
    """``token index -> (line, column)`` of the point just before ``tokens[index]``."""
    out: dict[int, tuple[int, int]] = {}
    line, col, k = 1, 0, 0
    for target in sorted(indexes):
        while k < target:
            tok = tokens[k]
            if "\n" in tok or "\r" in tok:
                segments = _NEWLINE.split(tok)
                line += len(segments) - 1
                col = len(segments[-1])
            else:
                col += len(tok)
            k += 1
        out[target] = (line, col)
    return out

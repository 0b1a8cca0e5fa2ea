"""Parsing a file the way the project's Python would: libcst with the project's grammar, and
syntax errors in Python's own words with one position (README, "Usage": what is parsed).
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: a warm (cached) run never loads libcst
    import libcst as cst

    from mcpmigrate.config import Config


def parse_module(source: bytes, config: Config) -> cst.Module:
    """libcst's parse with the grammar of the project's Python (``target-version``, else the
    lowest ``requires-python``; without either, the running interpreter's)."""
    import libcst as cst

    if config.target_version is None:
        return cst.parse_module(source)
    return cst.parse_module(source, config=cst.PartialParserConfig(python_version=config.target_version))


# Nesting deeper than this is refused before libcst sees it: its native parser takes minutes and
# then overflows its stack (SIGSEGV) on a 10,000-term ``a + a + …`` or ``a and a and …`` chain,
# and the analysis already stops at Python's recursion limit (about 500 levels) well before it.
MAX_NESTING = 1000
# A node with more items than this in one list (100,000 comparisons ``a < a < …`` take libcst's
# native parser 19 s, where no alarm reaches it) is parsed in a child process that can be killed.
MAX_WIDTH = 10_000

# CPython's own limits (tokenizer and parser), the same in every grammar version: "too many nested
# parentheses" (200), "too many levels of indentation" (100), f-strings "nested too deeply"
_LIMIT = re.compile(r"too many|too deep|nested too deeply")


@dataclass(frozen=True)
class Precheck:
    """What CPython's parser says about a file before libcst parses it (:func:`precheck`).

    ``error``: why libcst must not see it, in Python's words with the position
    (``too many nested parentheses (line 9, column 205)``), and ``at`` that ``(line, column)``.
    ``isolate``: libcst may parse it, but in a process that may crash or be killed — CPython
    rejects it with an ordinary syntax error (the project's grammar may be newer than the running
    Python: libcst alone decides), or it is wider than :data:`MAX_WIDTH`."""

    error: str | None = None
    at: tuple[int, int] | None = None
    isolate: bool = False


def precheck(source: bytes, tree: ast.Module | None = None) -> Precheck:
    """Whether libcst may parse ``source`` in this process: CPython's parser (``tree``, when the
    screen already parsed it) rejects what exceeds its limits, and :func:`shape` bounds what it
    accepts but libcst's native parser cannot take (:data:`MAX_NESTING`, :data:`MAX_WIDTH`).
    Never raises."""
    if tree is None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning for odd escapes: not ours to print
                tree = ast.parse(source)
        except SyntaxError as err:
            if not _LIMIT.search(err.msg or ""):
                return Precheck(isolate=True)
            at = (err.lineno, err.offset or 1) if err.lineno else None
            return Precheck(f"{err.msg} (line {at[0]}, column {at[1]})" if at else err.msg, at)
        except (RecursionError, MemoryError):  # "maximum recursion depth exceeded during ast construction"
            return Precheck("nesting too deep")
        except ValueError:  # null bytes (3.11): libcst reports them
            return Precheck(isolate=True)
    depth, at, width = shape(tree, MAX_NESTING)
    if depth > MAX_NESTING:
        return Precheck(f"nesting too deep (line {at[0]})" if at else "nesting too deep", at)
    return Precheck(isolate=width > MAX_WIDTH)


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def shape(tree: ast.AST, limit: int) -> tuple[int, tuple[int, int] | None, int]:
    """How deep libcst's tree of ``tree``'s code nests; past ``limit``, the ``(line, column)``
    (1-based) of the first node deeper than that, where the walk stops; and the most items one
    node holds in one list. Depth as ``ast``'s, but for the operands of ``and`` / ``or``, which
    ``ast`` keeps in one list and libcst nests one per operator."""
    fields = _CHILD_FIELDS
    AST = ast.AST
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    pop, push = stack.pop, stack.append
    deepest = widest = 0
    while stack:
        n, d = pop()
        if d > deepest:
            deepest = d
            if d > limit:
                line = getattr(n, "lineno", None)
                return d, (line, getattr(n, "col_offset", 0) + 1) if line else None, widest
        t = type(n)
        fs = fields.get(t)
        if fs is None:
            fs = fields[t] = tuple(f for f in t._fields if f != "ctx")
        below = d + (len(n.values) if t is ast.BoolOp else 1)  # type: ignore[attr-defined]
        for name in fs:
            v = getattr(n, name, None)
            if type(v) is list:
                if len(v) > widest:
                    widest = len(v)
                for c in v:
                    if isinstance(c, AST):
                        push((c, below))
            elif isinstance(v, AST):
                push((v, below))
    return deepest, None, widest


def newer_syntax(source: bytes, display: str, config: Config) -> str | None:
    """Why a file that libcst parsed cannot be fixed by this interpreter, or ``None``: it uses
    syntax newer than the running Python (PEP 701 f-strings on 3.11), so the fix could not be
    compiled or name-checked (pyflakes reads ``ast``) — ``fix`` must run under the project's
    Python. ``check`` is unaffected: libcst parses with the project's grammar."""
    import sys
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, display, "exec", dont_inherit=True)
    except SyntaxError as err:
        running = f"{sys.version_info.major}.{sys.version_info.minor}"
        wanted = f"Python >= {config.target_version}" if config.target_version else "a newer Python"
        return (
            f"this file uses syntax newer than Python {running}, the interpreter running mcpmigrate "
            f"({err.msg}, line {err.lineno}); run mcpmigrate under {wanted} to fix it"
        )
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def syntax_message(exc: cst.ParserSyntaxError, source: bytes | None = None, display: str = "<file>") -> str:
    return syntax_error(exc, source, display)[0]


def syntax_error(
    exc: cst.ParserSyntaxError, source: bytes | None = None, display: str = "<file>"
) -> tuple[str, tuple[int, int] | None]:
    """Python's own message for a syntax error with its one position, ``invalid syntax (line 3,
    column 7)`` (1-based), as the interpreter reports it, and that ``(line, column)``; libcst's
    first line and position when the interpreter compiles the file (a construct libcst does not
    know)."""
    if source is not None:
        import warnings

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile(source, display, "exec", dont_inherit=True)
        except SyntaxError as err:
            if err.lineno:
                return f"{err.msg} (line {err.lineno}, column {err.offset or 1})", (err.lineno, err.offset or 1)
            return err.msg, None
        except (ValueError, RecursionError, MemoryError):
            pass
    msg = str(exc.message).strip().splitlines()[0] if exc.message else "syntax error"
    return f"{msg} (line {exc.raw_line}, column {exc.raw_column + 1})", (exc.raw_line, exc.raw_column + 1)

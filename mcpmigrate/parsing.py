"""Parsing a file the way the project's Python would: libcst with the project's grammar, and
syntax errors in Python's own words with one position (README, "Usage": what is parsed).
"""

from __future__ import annotations

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

"""The ``logging`` fix (MCP401): MCP protocol logging becomes standard-library logging.

``await ctx.info(f"Processing {x}")`` → ``logger.info("Processing %s", x)``, with a module-level
``logger = logging.getLogger(__name__)`` (an existing module-level ``logging.getLogger(...)``
logger is reused) and ``import logging`` when missing. The level is kept (MCP ``notice`` →
``info``, ``critical``/``alert``/``emergency`` → ``critical``), the ``await`` goes,
``logger_name=``/``logger=`` becomes ``logging.getLogger(<name>)``, fastmcp ``extra=`` and mcp 1.x
``**extra`` become the stdlib ``extra=`` (labelled unsafe: a key that clashes with a LogRecord
attribute raises). The tool's return value is untouched: only the statement changes.
"""

from __future__ import annotations

import re

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis, code_of
from mcpmigrate.codemods import log_handlers
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.imports import name_uses
from mcpmigrate.config import Config
from mcpmigrate.names import is_docstring

STRATEGY = "logging"
_DEPRECATION_IGNORE = re.compile(r"#\s*(pyright:\s*ignore\[reportDeprecated\]|type:\s*ignore\[deprecated\])\s*")
RULES = ("MCP401",)
#: Placeholder for the logger expression in the replacement text the MCP401 detector plans;
#: filled with the module's logger name when the fix is applied.
LOGGER = "__mcpmigrate_logger__"


def module_name(analysis: ModuleAnalysis, module: str) -> tuple[str, bool]:
    """The local name generated code spells for the standard-library ``module`` (``logging``,
    ``sys``) and whether ``import module [as name]`` must be added: the name a module-level
    ``import module [as x]`` binds when nothing else rebinds it; ``module`` itself when the module
    never uses that identifier; else a free alias (``import logging as stdlib_logging`` where
    ``logging`` is a local package or a variable). The same answer at planning and when the edits
    are made (memoized per module)."""

    def compute() -> tuple[str, bool]:
        # libcst only: the module may use syntax newer than the running Python (no `ast.parse`)
        used = set(analysis.name_counts)  # every Name node, attribute names and import names included
        rebound = {n for n, _v in analysis.module_assigns}
        for fn in analysis.functions:
            rebound |= {fn.name, *fn.param_names(), *(n for n, _v in fn.assigns)}
        rebound |= {n.name.value for n in analysis.nodes(cst.ClassDef)}
        for stmt in analysis.module.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if not isinstance(small, cst.Import):
                    continue
                for al in small.names:
                    full = code_of(al.name)
                    if full == module or (al.asname is None and full.split(".")[0] == module):
                        local = code_of(al.asname.name) if al.asname else module
                        if local not in rebound and analysis.imports.get(local) in (module, full):
                            return local, False
        if module not in used:
            return module, True
        base = f"stdlib_{module}"
        alias, i = base, 2
        while alias in used:
            alias, i = f"{base}{i}", i + 1
        return alias, True

    return analysis.memo(f"stdlib_logging.name.{module}", compute)


def _existing_logger(module: cst.Module, analysis: ModuleAnalysis) -> str | None:
    for name, value in analysis.module_assigns:
        if "." in name or not isinstance(value, cst.Call):
            continue
        if analysis.qualname(value.func) == "logging.getLogger":
            return name
    return None


def module_logger(analysis: ModuleAnalysis) -> str:
    """The name of the module-level stdlib logger the fix logs through: an existing
    ``x = logging.getLogger(...)`` of the module, else the first free one of ``logger``,
    ``_logger``, … (a module whose ``logger`` is loguru's gets ``_logger``). The detector's
    description and the rewrite use this one name."""
    return analysis.memo(
        "stdlib_logging.logger", lambda: _existing_logger(analysis.module, analysis) or _free_name(analysis.module)
    )


def _free_name(module: cst.Module) -> str:
    used = name_uses(module)
    for c in ("logger", "_logger", "log", "mcp_logger"):
        if c not in used:
            return c
    i = 2
    while f"logger{i}" in used:
        i += 1
    return f"logger{i}"


def _is_import_stmt(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
    )


def _log_line(line: cst.SimpleStatementLine, code: str, logger: str) -> cst.SimpleStatementLine:
    """The statement line with the stdlib call ``code`` (the detector's, for ``logger``) as its body."""
    expr = cst.parse_expression(code.replace(LOGGER, logger))
    trailing = line.trailing_whitespace
    if trailing.comment is not None and _DEPRECATION_IGNORE.fullmatch(trailing.comment.value):
        # a type checker's "deprecated" silencer has nothing left to silence
        trailing = trailing.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None)
    return line.with_changes(body=[cst.Expr(expr)], trailing_whitespace=trailing)


def edits(analysis: ModuleAnalysis, findings: list, config: Config) -> Edits:
    """Each protocol log call becomes the stdlib call the detector planned; the module logger
    and ``import logging`` are added when missing."""
    module = analysis.module
    repl: dict[int, tuple[cst.SimpleStatementLine, str]] = {}
    needs_module_logger = False
    configure: str | None = None  # the level of the stderr handler the entry point gets
    drops: list[cst.SimpleStatementLine] = []  # calls whose message the line before logs already
    for f in findings:
        stmt, code = f.data.get("stmt"), f.data.get("code")
        if stmt is not None and f.data.get("drop"):
            drops.append(stmt)
            continue
        if stmt is None or code is None:
            continue
        repl[id(stmt)] = (stmt, code)
        needs_module_logger |= bool(f.data.get("uses_module_logger"))
        configure = f.data.get("configure") or configure
    ed = Edits()
    for stmt in drops:
        ed.remove(stmt)
    if not repl:
        return ed
    existing = _existing_logger(module, analysis) if needs_module_logger else None
    lg, import_logging = module_name(analysis, "logging")
    logger = module_logger(analysis)
    for stmt, code in repl.values():
        ed.transform(stmt, lambda _o, u, code=code: _log_line(u, code, logger))  # type: ignore[misc]
    if needs_module_logger and existing is None:
        body = list(module.body)
        # after the leading docstring and import block (`style.add_imports` puts `import logging` in it)
        at = 0
        for i, stmt in enumerate(body):
            if _is_import_stmt(stmt) or (i == 0 and is_docstring(stmt)):
                at = i + 1
            else:
                break
        line = cst.parse_statement(f"{logger} = {lg}.getLogger(__name__)\n")
        line = line.with_changes(leading_lines=[cst.EmptyLine()] if at else [])
        if at < len(body):
            if not body[at].leading_lines:
                ed.transform(body[at], lambda _o, u: u.with_changes(leading_lines=[cst.EmptyLine()]))
            ed.insert_before(body[at], [line])
        else:
            ed.transform(module, lambda _o, u: u.with_changes(body=[*u.body, line]))  # type: ignore[attr-defined]
    if import_logging:
        ed.add_import("logging", None, lg)
    main = log_handlers.main_block(module) if configure else None
    if main is not None:
        sys_name, import_sys = module_name(analysis, "sys")
        setup = cst.parse_statement(f"{lg}.basicConfig(stream={sys_name}.stderr, level={lg}.{configure})\n")
        ed.insert_before(main.body.body[0], [setup])
        if import_sys:
            ed.add_import("sys", None, sys_name)
    return ed

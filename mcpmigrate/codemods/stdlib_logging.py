"""The ``logging`` fix (MCP401): MCP protocol logging becomes standard-library logging.

``await ctx.info(f"Processing {x}")`` → ``logger.info("Processing %s", x)``, with a module-level
``logger = logging.getLogger(__name__)`` (an existing module-level ``logging.getLogger(...)``
logger is reused) and ``import logging`` when missing. The level is kept (MCP ``notice`` →
``info``, ``critical``/``alert``/``emergency`` → ``critical``), the ``await`` goes,
``logger_name=``/``logger=`` becomes ``logging.getLogger(<name>)``, fastmcp ``extra=`` and mcp 1.x
``**extra`` become the stdlib ``extra=`` (labelled unsafe: a key that clashes with a LogRecord
attribute raises). The tool's return value is untouched: only the statement changes.

The MCP401 detector reports what it found at a protocol log call (:class:`LogSend`); :func:`plan`
decides the rewrite and its site (:class:`LogCall`, or :class:`DropCall` when the line before
logs the same message), and :func:`settle` — once every log call of the module is known — the
labels that depend on the others (``docs/architecture.md``, "How a finding becomes a fix").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods import log_handlers
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.effects import PURE_CALLS
from mcpmigrate.codemods.imports import name_uses
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan, Planned, Safety
from mcpmigrate.names import is_docstring, ref_names

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


@dataclass(frozen=True)
class LogSend:
    """What the MCP401 detector found at one protocol log call (the input of :func:`plan`).

    ``method``: the stdlib logger method of its level (``surfaces.MCP_TO_STDLIB_LEVEL``; None when
    the level is not a literal MCP level); ``msg``, ``logger_name``: its message and logger name
    arguments; ``extra``: mcp 1.x ``**extra`` keywords, ``extra_expr``: fastmcp's ``extra=``;
    ``odd``: it has arguments the rewrite does not map; ``related``: it passes a
    ``related_request_id``; ``fastmcp``: the receiver is fastmcp's ``Context``, whose messages the
    SDK keeps delivering; ``stmt``: the statement the call is alone in (None: its
    result is used, or ``shared_line`` says why it is not alone)."""

    node: cst.Call
    method: str | None
    msg: cst.BaseExpression | None
    logger_name: cst.BaseExpression | None
    extra: tuple[tuple[str, cst.BaseExpression], ...]
    extra_expr: cst.BaseExpression | None
    odd: bool
    related: bool
    fastmcp: bool
    stmt: cst.SimpleStatementLine | None
    shared_line: str | None


@dataclass(frozen=True)
class LogCall:
    """``stmt`` becomes the stdlib call ``code`` (:data:`LOGGER` stands for the module logger,
    added once when the module has none and ``uses_module_logger``); ``method``: its stdlib level
    method; ``reviews``: what a reviewer must check (the label is unsafe when there is any);
    ``configure``: the level of the stderr handler added once at the entry point (set by
    :func:`settle`), first in the function ``configure_in`` (a console script's entry function)
    or, when None, in the ``if __name__ == "__main__":`` block."""

    stmt: cst.SimpleStatementLine
    code: str
    uses_module_logger: bool
    method: str
    reviews: tuple[str, ...]
    configure: str | None = None
    configure_in: str | None = None

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        once: set[str] = edits.shared("stdlib_logging.done", set)
        logger = module_logger(analysis)
        edits.transform(self.stmt, lambda _o, u: _log_line(u, self.code, logger))  # type: ignore[arg-type]
        lg, import_logging = module_name(analysis, "logging")
        if self.uses_module_logger and "logger" not in once:
            once.add("logger")
            if _existing_logger(analysis.module, analysis) is None:
                _add_module_logger(edits, analysis, lg, logger)
        if import_logging:
            edits.add_import("logging", None, lg)
        if self.configure and "configure" not in once:
            once.add("configure")
            _add_configure(edits, analysis, lg, self.configure, self.configure_in)


@dataclass(frozen=True)
class DropCall:
    """``stmt`` goes: the statement before it logs the same message already."""

    stmt: cst.SimpleStatementLine
    reviews: tuple[str, ...]

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        edits.remove(self.stmt)


def _add_module_logger(ed: Edits, analysis: ModuleAnalysis, lg: str, logger: str) -> None:
    """``<logger> = <lg>.getLogger(__name__)`` after the leading docstring and import block
    (``style.add_imports`` puts ``import logging`` in it)."""
    body = list(analysis.module.body)
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
        ed.transform(analysis.module, lambda _o, u: u.with_changes(body=[*u.body, line]))  # type: ignore[attr-defined]


def _add_configure(ed: Edits, analysis: ModuleAnalysis, lg: str, level: str, function: str | None) -> None:
    """``<lg>.basicConfig(stream=sys.stderr, level=…)`` first in the module-level function
    ``function`` (after its docstring), or else first in the module's
    ``if __name__ == "__main__":`` block (``codemods/log_handlers.py``)."""
    if function is not None:
        fn = next(
            (s for s in analysis.module.body if isinstance(s, cst.FunctionDef) and s.name.value == function), None
        )
        if fn is None or not isinstance(fn.body, cst.IndentedBlock):
            return
        stmts = list(fn.body.body)
        at: cst.CSTNode = stmts[1] if len(stmts) > 1 and is_docstring(stmts[0]) else stmts[0]
    else:
        main = log_handlers.main_block(analysis.module)
        if main is None:
            return
        at = main.body.body[0]
    sys_name, import_sys = module_name(analysis, "sys")
    setup = cst.parse_statement(f"{lg}.basicConfig(stream={sys_name}.stderr, level={lg}.{level})\n")
    ed.insert_before(at, [setup])
    if import_sys:
        ed.add_import("sys", None, sys_name)


def plan(a: ModuleAnalysis, send: LogSend) -> FixPlan:
    """The MCP401 plan for one protocol log call before :func:`settle`: the stdlib call it becomes
    (:class:`LogCall`, safe unless a review note applies), a :class:`DropCall` when the statement
    before logs the same message, or the reason it is left for a human. Spec: 2026-07-28
    changelog, logging deprecated by SEP-2577."""
    why = None
    if send.odd:
        why = "the call has arguments the stdlib rewrite does not map"
    elif send.msg is None:
        why = "no message argument"
    elif send.method is None:
        why = "the level is not a literal MCP log level: pick the stdlib level by hand"
    elif send.stmt is None:
        why = send.shared_line or "the call's result is used: rewrite it by hand"
    relay = _relay(a, send)
    if relay is not None:  # its callers' output: the relay's purpose, not one message's
        why = relay
    if why:
        return FixPlan(manual=why)
    assert send.msg is not None and send.method is not None and send.stmt is not None
    logging_name = module_name(a, "logging")[0]
    target = f"{logging_name}.getLogger({code_of(send.logger_name)})" if send.logger_name is not None else LOGGER
    args = _percent_form(send.msg)
    extra_code = None
    if send.extra:
        extra_code = "{" + ", ".join(f"{k!r}: {code_of(v)}" for k, v in send.extra) + "}"
    elif send.extra_expr is not None and not (
        isinstance(send.extra_expr, cst.Name) and send.extra_expr.value == "None"
    ):
        extra_code = code_of(send.extra_expr)
    call = f"{target}.{send.method}({', '.join(args)}{', extra=' + extra_code if extra_code else ''})"
    reviews = [_FASTMCP_DELIVERS.format(call=f"`{code_of(send.node.func)}(…)`")] if send.fastmcp else []
    if extra_code:
        reviews.append("`extra` keys must not clash with LogRecord attributes")
    if send.related:
        reviews.append(_RELATED)
    already = _logged_next_to(a, send.stmt, send.msg)
    if already is not None:  # the operator has the line already: a stdlib copy would log it twice
        fix = FixInfo(
            Safety.SAFE, STRATEGY, f"drop it: the statement {already[0]} already logs the same message (`{already[1]}`)"
        )
        return FixPlan(fix, site=DropCall(send.stmt, tuple(reviews)))
    desc = f"log with the standard library: `{call.replace(LOGGER, module_logger(a))}`"
    # the safety is settled in settle(), once every call of the module is known
    site = LogCall(send.stmt, call, send.logger_name is None, send.method, tuple(reviews))
    return FixPlan(FixInfo(Safety.SAFE, STRATEGY, desc), site=site)


def _relay(a: ModuleAnalysis, send: LogSend) -> str | None:
    """Why a log call is a relay, when it is one: a method of a class (not a tool or handler) that
    sends text its callers pass (a parameter, or a local built from one) through the context or
    session the object holds (``self.<attr>``) — ``Reporter.step(text)``, dazzle's
    ``ProgressContext.log(message)`` (field case notify-14). Its messages are its callers'
    client-facing output; a relay that also logs the same message through a server logger right
    before or after is a dual-logging adapter, dropped instead (:func:`_logged_next_to`)."""
    func = send.node.func
    recv = func.value if isinstance(func, cst.Attribute) else None
    fn = a.enclosing_function(send.node)
    if fn is None or fn.class_name is None or fn.role is not None or recv is None or send.msg is None:
        return None
    chain = code_of(recv)
    if not chain.startswith("self.") or send.stmt is not None and _logged_next_to(a, send.stmt, send.msg):
        return None
    params = set(fn.param_names()[1:])
    values = [send.msg] + [value for name, value in fn.assigns if code_of(send.msg) == name]
    passed = sorted(
        {n.value for v in values for n in ref_names(v) if n.value in params}
        if all(_no_words(v) for v in values)
        else ()
    )
    if not passed:
        return None
    return _RELAY.format(fn=fn.qualname, recv=chain, text=", ".join(f"`{n}`" for n in passed))


def _no_words(expr: cst.BaseExpression) -> bool:
    """``expr`` writes no words of its own: its string pieces hold no letter (``text``,
    ``f"[{current}/{total}] {message}"``), so all it says comes from its names."""
    for n in walk(expr):
        if isinstance(n, cst.FormattedStringText) and re.search(r"[^\W\d_]", n.value):
            return False
        if isinstance(n, cst.SimpleString) and re.search(r"[^\W\d_]", n.raw_value):
            return False
    return True


def settle(a: ModuleAnalysis, config: Config, reports: Sequence[Planned]) -> list[FixPlan]:
    """The MCP401 labels, once every log call of the module is known (``reports``: its MCP401
    reports): a tool whose only output is its protocol log messages keeps them (manual); a rewrite
    is unsafe when its messages were deliberately request-scoped (``related_request_id``) or its
    INFO/DEBUG record would reach no handler; where the module has an entry point, the fix
    configures a stderr handler there instead (``codemods/log_handlers.py``). Returns one plan per
    report, in order."""
    plans = [r.plan for r in reports]
    by_fn: dict[int, list[int]] = {}
    for i, r in enumerate(reports):
        fn = a.enclosing_function(r.node)
        if fn is not None:
            by_fn.setdefault(id(fn.node), []).append(i)
    for idx in by_fn.values():
        fn = a.enclosing_function(reports[idx[0]].node)
        if fn is not None and any(plans[i].fix for i in idx) and _only_output(fn, {id(reports[i].node) for i in idx}):
            for i in idx:
                if plans[i].fix is not None:
                    plans[i] = FixPlan(manual=_ONLY_OUTPUT.format(fn=fn.qualname))
    reviews: dict[int, list[str]] = {}  # index -> the site's review notes and the module's
    for i, p in enumerate(plans):
        if p.fix is not None and isinstance(p.site, (LogCall, DropCall)):
            reviews[i] = list(p.site.reviews)
    methods = {i: plans[i].site.method if isinstance(plans[i].site, LogCall) else None for i in reviews}
    quiet = [i for i in reviews if methods[i] in _BELOW_LAST_RESORT]
    if quiet and not log_handlers.configured(a, config):
        main = log_handlers.main_block(a.module)
        scripts = log_handlers.console_scripts(a, config)
        entry = next((s for s in scripts if _placeable(s.function)), None)
        level = "DEBUG" if any(methods[i] == "debug" for i in quiet) else "INFO"
        lg, sys_name = module_name(a, "logging")[0], module_name(a, "sys")[0]
        setup = f"`{lg}.basicConfig(stream={sys_name}.stderr, level={lg}.{level})`"
        for i in quiet:
            p = plans[i]
            assert p.fix is not None
            if entry is not None and entry.function is not None:
                added = _CONFIGURED_IN.format(setup=setup, fn=entry.function.name.value, script=entry.name)
                fix = FixInfo(p.fix.safety, p.fix.strategy, p.fix.description + added)
                site = replace(p.site, configure=level, configure_in=entry.function.name.value)
                plans[i] = FixPlan(fix, site=site)
            elif main is not None and not scripts:
                fix = FixInfo(p.fix.safety, p.fix.strategy, p.fix.description + _CONFIGURED.format(setup=setup))
                plans[i] = FixPlan(fix, site=replace(p.site, configure=level))
            elif scripts:
                script = scripts[0]
                reviews[i].append(
                    _SCRIPT_NO_HANDLER.format(
                        level=str(methods[i]).upper(),
                        setup=setup,
                        script=script.name,
                        target=script.target,
                        main=' and never runs this module\'s `if __name__ == "__main__":` block' if main else "",
                    )
                )
            else:
                reviews[i].append(_NO_HANDLER.format(level=str(methods[i]).upper(), setup=setup))
    for i in reviews:
        site = plans[i].site
        if isinstance(site, LogCall):
            logger = module_logger(a) if site.uses_module_logger else None
            eff = log_handlers.effective_level(a, config, logger)
            if eff is not None and log_handlers.METHOD_LEVELS.get(site.method, 0) < eff.level:
                reviews[i].append(_below(eff, site.method))
    for i, notes in reviews.items():
        p = plans[i]
        if notes:
            assert p.fix is not None
            fix = FixInfo(Safety.UNSAFE, p.fix.strategy, f"{p.fix.description} (review: {'; '.join(notes)})")
            plans[i] = FixPlan(fix, site=p.site)
    return plans


def _only_output(fn: FunctionInfo, logs: set[int]) -> bool:
    """``fn`` is a tool whose protocol log messages (``logs``: ids of the calls) are all it does
    besides returning a fixed result: no other call than pure ones and sleeps, no store but to
    locals, and one result, built from literals only (field case notify-08)."""
    if fn.role not in _TOOL_ROLES or not isinstance(fn.node.body, cst.IndentedBlock):
        return False
    stack: list[cst.CSTNode] = list(fn.node.body.body)
    results: set[str] = set()
    while stack:
        n = stack.pop()
        if id(n) in logs:
            continue
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal, cst.Del, cst.Raise)):
            return False
        if isinstance(n, (cst.Yield, cst.AugAssign, cst.With, cst.Try)):
            return False
        if isinstance(n, cst.Call):
            name = (code_of(n.func).rsplit(".", 1)[-1]).strip()
            if not (name in PURE_CALLS or name in _QUIET_CALLS or name[:1].isupper()):
                return False
        if isinstance(n, cst.AssignTarget) and not isinstance(n.target, cst.Name):
            return False
        if isinstance(n, cst.Return) and n.value is not None:
            if _reads_data(n.value):
                return False
            results.add(code_of(n.value))
        stack.extend(n.children)
    return len(results) <= 1  # `return "invalid"` / `return "ok"`: the result says something


def _reads_data(expr: cst.BaseExpression) -> bool:
    """``expr`` reads a name other than a constructor (``TextContent``, ``types.TextContent``), a
    keyword or a constant."""
    calls = [c for c in walk(expr) if isinstance(c, cst.Call)]
    skip = {id(x) for c in calls if code_of(c.func).rsplit(".", 1)[-1][:1].isupper() for x in walk(c.func)}
    skip |= {id(arg.keyword) for c in calls for arg in c.args if arg.keyword}
    return any(
        isinstance(n, cst.Name) and id(n) not in skip and n.value not in ("None", "True", "False") for n in walk(expr)
    )


_ONLY_OUTPUT = (
    "these messages are all `{fn}` does besides returning a fixed result, and 2026-07-28 still delivers them on "
    'the request\'s own stream when the request opts in (`_meta["io.modelcontextprotocol/logLevel"]`, mcp 2.x '
    "`Client(log_level=...)`): moved to the standard library, clients would stop seeing them. Keep them while "
    "clients opt in (deprecated, SEP-2577), or return what they say in the tool's result"
)
_RELAY = (
    "`{fn}` relays the text its callers pass ({text}) to the client through `{recv}`: it is their "
    "client-facing output (progress, status), not this server's log, and moved to the standard library it would "
    "reach the server's stderr instead of the client. Decide by hand what it carries: progress goes to "
    "`send_progress_notification` / `ctx.report_progress` (still delivered on 2026-07-28 when the request sends a "
    "progress token), text the client must see goes into the tool's result, and a plain log line to a "
    "module-level stdlib logger"
)
_RELATED = (
    "the call passes `related_request_id`: its messages are deliberate output on this request's own stream, "
    'which 2026-07-28 still delivers when the request opts in (`_meta["io.modelcontextprotocol/logLevel"]`, '
    "mcp 2.x `Client(log_level=...)`); after the rewrite clients stop seeing them, only the server's log has them"
)
#: fastmcp 2.14, 3.4 and 4.2 ``Context.log`` (``fastmcp/server/context.py``) sends every message as
#: a ``notifications/message`` scoped to the request (``related_request_id``); fastmcp deprecates
#: none of it (fastmcp 4 keeps it "per compat directive", the mcp 2.x session underneath warns
#: ``MCPDeprecationWarning``) and on fastmcp 4 the mcp 2.x session delivers it to a 2026-07-28
#: request that carries the ``io.modelcontextprotocol/logLevel`` ``_meta`` key, which fastmcp's
#: own ``Client`` sets on every request.
_FASTMCP_DELIVERS = (
    "fastmcp (2, 3 and 4) still delivers {call} to clients: a legacy client receives it (fastmcp 3 and 4 hold "
    "back levels below one the client set with `logging/setLevel`), a 2026-07-28 client when the request opts in "
    'with `_meta["io.modelcontextprotocol/logLevel"]` (fastmcp\'s own `Client` always does); after the rewrite '
    "clients stop receiving this message, which then goes to the server's own logging only"
)
_NO_HANDLER = (
    "nothing in the project configures logging and the SDK does not (the low-level `Server` and fastmcp leave the "
    "root logger alone), so this {level} record reaches only Python's last-resort handler, which prints WARNING "
    "and above: clients saw the message, now nobody does; configure a handler at the entry point, e.g. {setup}"
)
#: A record below the level the project's logging prints from (``log_handlers.effective_level``).
_BELOW = {
    "sdk": "`{sdk}` configures the root logger at its `log_level`, {level} by default",
    "sdk-level": "{code} ({where}) configures the root logger at {level}",
    "handler": "{code} ({where}) adds a handler but nothing sets a level, so the root logger's default, WARNING, applies",
    "logger": "{code} ({where}) sets this module's logger to {level}",
    "root": "{code} ({where}) sets the root logger's level to {level}",
}
_HIDDEN = "{source}, so this {record} record is printed nowhere: clients saw the message, now nobody does {unless}"


def _below(eff: log_handlers.Effective, method: str) -> str:
    """The review note of a rewrite whose ``method`` record is below ``eff``, the level the
    project's logging prints from."""
    s = eff.setting
    level = log_handlers.LEVEL_NAMES.get(eff.level, str(eff.level))
    record = log_handlers.LEVEL_NAMES[log_handlers.METHOD_LEVELS[method]]
    where = f"{eff.where}:{s.line}"
    if s.kind == "sdk":
        key = "sdk-level" if "log_level=" in s.code else "sdk"
        unless = f'unless the server runs with `log_level="{record}"`'
    else:
        key = s.kind if s.kind in _BELOW else "root"
        unless = f"unless the level is lowered to {record}"
    source = _BELOW[key].format(sdk=s.code.strip("`"), code=s.code, where=where, level=level)
    if s.level.env is not None:
        source += f" (read from `{s.level.env}`, {level} when it is unset)"
        unless = f"unless `{s.level.env}` is {record} or lower"
    return _HIDDEN.format(source=source, record=record, unless=unless)


_CONFIGURED = (
    '; nothing in the project configures logging, so {setup} is added under `if __name__ == "__main__":` '
    "(stderr on stdio servers)"
)
_CONFIGURED_IN = (
    "; nothing in the project configures logging, so {setup} is added first in `{fn}()`, which the `{script}` "
    "console script runs (stderr on stdio servers)"
)
_SCRIPT_NO_HANDLER = (
    "nothing in the project configures logging and the SDK does not, so this {level} record reaches only "
    "Python's last-resort handler, which prints WARNING and above: clients saw the message, now nobody does; "
    "the project starts through the `{script}` console script, which runs `{target}`{main}: configure a "
    "handler there, e.g. {setup}"
)
_BELOW_LAST_RESORT = ("debug", "info")


def _placeable(fn: cst.FunctionDef | None) -> bool:
    """A console script's entry function that a statement can go first in (an indented body)."""
    return fn is not None and isinstance(fn.body, cst.IndentedBlock)


_TOOL_ROLES = ("tool", "lowlevel-tool")
#: Calls that produce nothing a client sees: waiting, and closing a stream the client reopens.
_QUIET_CALLS = frozenset({"sleep", "close_sse_stream", "close_standalone_sse_stream"})


def _percent_form(msg: cst.BaseExpression) -> list[str]:
    """``f"Processing {x}"`` → ``['"Processing %s"', 'x']`` (lazy %-formatting); any other message
    unchanged. An f-string with format specs, ``=`` or ``!a`` stays an f-string."""
    if not isinstance(msg, cst.FormattedString) or msg.prefix.lower() != "f":
        return [code_of(msg)]
    args: list[str] = []
    pieces: list[str | None] = []  # text, or None for a placeholder
    conversions: list[str] = []
    for part in msg.parts:
        if isinstance(part, cst.FormattedStringText):
            pieces.append(part.value.replace("{{", "{").replace("}}", "}"))
        elif isinstance(part, cst.FormattedStringExpression):  # the only other kind of part
            conv = part.conversion
            if part.format_spec or part.equal or conv not in (None, "r", "s"):
                return [code_of(msg)]
            pieces.append(None)
            conversions.append("%r" if conv == "r" else "%s")
            args.append(code_of(part.expression))
    # without arguments logging does not %-format, so a literal % stays as written
    conv_iter = iter(conversions)
    text = "".join(next(conv_iter) if p is None else (p.replace("%", "%%") if args else p) for p in pieces)
    return [f"{msg.start[len(msg.prefix) :]}{text}{msg.end}"] + args


_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical"})


def _logged_next_to(a: ModuleAnalysis, stmt: cst.CSTNode, msg: cst.BaseExpression | None) -> tuple[str, str] | None:
    """``("before", code)`` / ``("after", code)`` when the statement right before (else right
    after) ``stmt`` in its block logs ``msg`` (the same expression) through another logger —
    ``logger.error(error_msg)`` then ``await ctx.error(error_msg)``, as awslabs document-loader
    does, or awslabs billing-cost-management's ``LoggerContextAdapter``, ``await
    self.ctx.info(message)`` then ``self.logger.info(message)`` (loguru); else None. The protocol
    call is then dropped, not copied to a stdlib logger that would print the line a second time."""
    block = a.parents.get(id(stmt))
    body = getattr(block, "body", None)
    if msg is None or not isinstance(body, (list, tuple)) or stmt not in body:
        return None
    i = body.index(stmt)
    for side, j in (("before", i - 1), ("after", i + 1)):
        other = body[j] if 0 <= j < len(body) else None
        code = _logs(a, other, msg)
        if code is not None:
            return side, code
    return None


def _logs(a: ModuleAnalysis, stmt: cst.CSTNode | None, msg: cst.BaseExpression) -> str | None:
    """The code of ``stmt`` when it is a call logging ``msg`` first through a logger that is not an
    MCP context or session, or an ``if`` each of whose branches is one (``if exc_info:
    self.logger.exception(message) else: self.logger.error(message)``)."""
    if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else):
        branches = [stmt.body, stmt.orelse.body]
        calls = [_logs(a, b.body[0], msg) if len(b.body) == 1 else None for b in branches]
        return " / ".join(c for c in calls if c) if all(calls) else None
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)):
        return None
    call = stmt.body[0].value
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)):
        return None
    if call.func.attr.value not in _LOG_METHODS or not call.args or call.args[0].keyword is not None:
        return None
    if a.kind_of(call.func.value, a.enclosing_function(call)) is not None:
        return None  # an MCP context or session: a protocol log call itself
    return code_of(call) if code_of(call.args[0].value) == code_of(msg) else None

"""One file through the pipeline: prefilter → screen → parse → analyse → detect → fix → verify
(``docs/architecture.md``, "The pipeline").

- Prefilter: a file in which none of the enabled detectors' tokens occur is never parsed.
- Screen: before libcst, Python's own ``ast`` (about six times cheaper) collects facts that each
  detector's ``screen`` checks; a file no detector could report on is not parsed with libcst.
- Parse: libcst with the project's grammar (:mod:`mcpmigrate.parsing`), from bytes (encoding,
  BOM and newlines are kept by libcst's round trip).
- Detect: every detector on one shared :class:`~mcpmigrate.analysis.ModuleAnalysis`; positions
  are computed only for files that have findings.
- Fix: codemods in declared order through the one applier, in rounds until stable; the result
  must parse, break no name (:mod:`mcpmigrate.codemods.namecheck`) and a second fix must change
  nothing, or the file is left untouched and the reason reported.

:mod:`mcpmigrate.engine` runs this over a tree (cores, cache). libcst, the analysis and the
detectors are imported only when a file needs a parse.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mcpmigrate import files as F
from mcpmigrate import isolation
from mcpmigrate.catalog import load_catalog, select_rules
from mcpmigrate.codemods import ORDER
from mcpmigrate.codemods.namecheck import name_problem
from mcpmigrate.config import Config, port_rules_off, strategy_applies
from mcpmigrate.model import Finding, Safety
from mcpmigrate.parsing import newer_syntax, parse_module, precheck, syntax_error, syntax_message
from mcpmigrate.suppress import find_suppressions, is_suppressed

if TYPE_CHECKING:  # imported where used: a warm (cached) run never loads libcst
    from collections.abc import Callable, Mapping
    from types import ModuleType

    import libcst as cst
    from libcst.metadata import CodeRange

    from mcpmigrate.analysis import ModuleAnalysis
    from mcpmigrate.analysis.project import Incoming
    from mcpmigrate.codemods.edits import Edits
    from mcpmigrate.codemods.style import Style
    from mcpmigrate.detectors.base import Report
    from mcpmigrate.screen import Facts

MAX_FIX_ROUNDS = 4  # passes over the codemods while one enables another


@dataclass
class Options:
    """What a run does: ``mode`` is ``check`` or ``fix``."""

    mode: str = "check"
    strategy: str = "param"
    unsafe_fixes: bool = False
    diff: bool = False
    select: list[str] | None = None
    ignore: list[str] | None = None
    no_cache: bool = False  # neither read nor write the result cache
    cache_dir: Path | None = None  # where the result cache lives (--cache-dir; default: mcpmigrate.cache.location)
    jobs: int | None = None
    force_exclude: bool = False  # apply `exclude` to explicitly named files too (pre-commit)
    #: the file whose formatter settings a fix follows instead of the fixed file's own (the path a
    #: source read from stdin stands for, --stdin-filename: its scratch copy lives elsewhere)
    style_path: Path | None = None


@dataclass
class FileResult:
    display: str
    findings: list[Finding] = field(default_factory=list)  # remaining after fix (or all, in check)
    fixed: list[Finding] = field(default_factory=list)  # findings the fix resolved
    error: str | None = None
    original: bytes | None = None
    new_source: bytes | None = None  # set when fix changed the file
    unused_suppressions: list[tuple[int, str]] = field(default_factory=list)
    parsed: bool = False
    cache_key: bytes | None = None  # the content's cache key, when cached
    error_at: tuple[int, int] | None = None  # (line, column) of a syntax error
    # fix: the findings of the file as read (positions on disk), when ``new_source`` is set — what
    # it still has if nothing is written (a held port: codemods.port.project.hold)
    checked: list[Finding] | None = None


def enabled_rules(config: Config, options: Options) -> set[str]:
    select = options.select if options.select else config.select
    ignore = list(config.ignore) + list(options.ignore or [])
    return port_rules_off(select_rules(select, ignore), config.target_sdk)


class Prefilter:
    """The byte-token prefilter: whether a token of an enabled detector occurs in a file. Plain
    tokens are looked for with ``in`` (a C substring search), the few that are patterns with one
    regular expression: ``re`` runs an alternation of many literals several times slower."""

    __slots__ = ("literals", "pattern")

    def __init__(self, tokens: list[bytes]) -> None:
        self.literals = tuple(t for t in tokens if re.escape(t) == t)
        patterns = [t for t in tokens if re.escape(t) != t]
        self.pattern = re.compile(b"|".join(patterns)) if patterns else None

    def search(self, source: bytes) -> bool:
        """Whether any token occurs in ``source`` (as ``re.search`` of their alternation would find one)."""
        return any(t in source for t in self.literals) or (
            self.pattern is not None and self.pattern.search(source) is not None
        )


def prefilter_regex(rules: set[str]) -> Prefilter | None:
    """The :class:`Prefilter` of the detectors of ``rules`` (None: no detector has tokens)."""
    from mcpmigrate.detectors import all_detectors

    tokens: list[bytes] = []
    for det in all_detectors():
        if set(det.rules) & rules:
            tokens.extend(det.tokens)
    if not tokens:
        return None
    return Prefilter(sorted(set(tokens)))


def rules_for_file(path: Path, display: str, config: Config, rules: set[str]) -> set[str]:
    """``rules`` minus the ``per-file-ignores`` whose glob matches the file: its path relative
    to the project root (where the pyproject.toml is), its path as displayed, or its name."""
    import fnmatch
    from pathlib import PurePosixPath

    if not config.per_file_ignores:
        return set(rules)
    names = {display, os.path.basename(display)}
    with contextlib.suppress(ValueError):
        names.add(PurePosixPath(Path(os.path.abspath(path)).relative_to(config.root)).as_posix())
    out = set(rules)
    for glob, ids in config.per_file_ignores.items():
        if any(fnmatch.fnmatch(n, glob) for n in names):
            out -= select_rules(ids, None)
    return out


_DETECTOR_RES: dict[type, Prefilter] = {}


def screen_passes(source: bytes, rules: set[str]) -> set[str]:
    """:func:`_screen`'s rules."""
    return _screen(source, rules)[0]


def _typed_from_outside(incoming: Incoming | None) -> bool:
    """Other modules pass a context or a session into this one, or register one of its functions on
    an MCP server they import (``mcp.tool(name="x")(fn)``): its own imports need not name the SDK."""
    return any(c.kinds or (c.registers and c.generation) for calls in (incoming or {}).values() for c in calls)


def _screen(source: bytes, rules: set[str], typed_from_outside: bool = False) -> tuple[set[str], Facts | None]:
    """The second and third stages of the prefilter: the rules of the enabled detectors whose own
    tokens occur in ``source`` and whose ``screen`` (:mod:`mcpmigrate.screen`) says they could
    report something. Only those detectors run on the file; when none is left, libcst never
    parses it. A detector without a screen counts as "could"; so does every detector when
    ``typed_from_outside`` (other modules pass a context or a session into this one: its own
    imports need not name the SDK)."""
    from mcpmigrate.detectors import all_detectors
    from mcpmigrate.screen import facts_of

    keep: set[str] = set()
    screened: list[tuple[type, object]] = []
    for det in all_detectors():
        mine = set(det.rules) & rules
        if not mine or not det.tokens:
            continue
        rx = _DETECTOR_RES.get(det)
        if rx is None:
            rx = _DETECTOR_RES[det] = Prefilter(sorted(set(det.tokens)))
        if not rx.search(source):
            continue
        screen = getattr(det, "screen", None)
        if screen is None or typed_from_outside:
            keep |= mine
        else:
            screened.append((det, screen))
    facts = None
    if screened:
        facts = facts_of(source)
        for det, screen in screened:
            if facts is None or screen(facts):  # type: ignore[operator]
                keep |= set(det.rules) & rules
    return keep, facts


def rescreen(source: bytes, rules: set[str], file_rules: set[str], incoming: Incoming | None) -> set[str]:
    """``rules`` and those of ``file_rules`` whose screen a fixed text (``source``) now passes:
    a fix can bring in what a rule looks for (an import of fastmcp, a constructor it refuses)."""
    rest = file_rules - rules
    if not rest:
        return rules
    return rules | _screen(source, rest, _typed_from_outside(incoming))[0]


def detect(
    module: cst.Module,
    display: str,
    config: Config,
    rules: set[str],
    source: bytes | None = None,
    top_lines: list[int] | None = None,
    path: Path | None = None,
    incoming: Incoming | None = None,
    ported_from_mcp1: bool = False,
) -> tuple[list[Finding], ModuleAnalysis]:
    """Findings for one parsed module, with positions, in source order (not suppressed yet).
    ``source`` (the bytes ``module`` was parsed from) lets positions be computed per top-level
    statement (:func:`node_positions`). ``path`` (the file's) is where the project's dependency pins
    are looked up (:mod:`mcpmigrate.pins`); without it, the working directory. ``incoming``: the
    calls other modules of the project make into this one (:mod:`mcpmigrate.analysis.project`).
    ``ported_from_mcp1``: a later fix round, after the port rewrote the module's mcp 1.x code."""
    from mcpmigrate.analysis import ModuleAnalysis
    from mcpmigrate.detectors import all_detectors

    analysis = ModuleAnalysis.build(module, incoming, path)
    analysis.source = source
    analysis.target_sdk = config.target_sdk
    analysis.ported_from_mcp1 = ported_from_mcp1
    reports: list[Report] = []
    for det_cls in all_detectors():
        if not set(det_cls.rules) & rules:
            continue
        reports.extend(det_cls(analysis, config).detect())
    # settled on every report of the detectors that ran, as a detector's own phases would be (a
    # guard's label follows its roots request even when MCP101 is not selected), then selected
    reports = [rep for rep in settle(analysis, config, reports) if rep.rule in rules]
    if not reports:
        return [], analysis
    positions = node_positions(module, [rep.node for rep in reports], analysis, source, top_lines)
    catalog = load_catalog()
    findings: list[Finding] = []
    seen: set[tuple[str, int, int]] = set()
    for rep in reports:
        rng = positions[rep.node]
        key = (rep.rule, rng.start.line, rng.start.column)
        if key in seen:
            continue
        seen.add(key)
        meta = catalog[rep.rule]
        findings.append(
            Finding(
                rule=rep.rule,
                name=meta.name,
                path=display,
                # a detector may state a site's own severity (a read that only degrades is not breaking)
                severity=rep.severity or meta.severity,
                line=rng.start.line,
                column=rng.start.column + 1,
                end_line=rng.end.line,
                end_column=rng.end.column + 1,
                message=rep.message,
                fix=rep.fix,
                manual=rep.manual,
                node=rep.node,
                site=rep.site,
            )
        )
    findings.sort(key=lambda f: (f.line, f.column, f.rule))
    return findings, analysis


def settle(analysis: ModuleAnalysis, config: Config, reports: list[Report]) -> list[Report]:
    """The declared settle steps, run after detection: each fix module of ``codemods.ORDER`` that
    exposes ``settle(analysis, config, reports) -> list[FixPlan]`` gets the reports of its
    ``RULES`` (read only) and returns one plan per report, in order — for a fix that depends on the
    module's other findings (an MCP401 label that depends on every log call of the module). A
    module that declares ``SETTLE_READS`` (rule ids) also gets those rules' reports as ``read=``,
    to read only (``drop``: a setLevel registration stays while MCP401 log calls remain). The
    reports are replaced by new ones carrying the settled plans (``Report.with_plan``); nothing is
    mutated (``docs/architecture.md``, "How a finding becomes a fix")."""
    from mcpmigrate.codemods import load_codemods

    for cm in load_codemods():
        step = getattr(cm, "settle", None)
        mine = [i for i, r in enumerate(reports) if r.rule in cm.RULES] if step is not None else []
        if step is not None and mine:
            reads = getattr(cm, "SETTLE_READS", ())  # other rules' reports the step reads, never settles
            extra = {"read": [r for r in reports if r.rule in reads]} if reads else {}
            plans = step(analysis, config, [reports[i] for i in mine], **extra)
            for i, plan in zip(mine, plans, strict=True):
                reports[i] = reports[i].with_plan(plan)
    return reports


def record_edits(cm: ModuleType, analysis: ModuleAnalysis, findings: list[Finding], config: Config) -> Edits:
    """The edits fix module ``cm`` makes for ``findings`` (its fixable ones): each distinct site
    (``Finding.site``, a :class:`~mcpmigrate.model.FixSite`) records its own, in the findings'
    order — the one loop from plan to edits; what several sites record together (one deletion of
    the round's nodes, the names they take) is shared through ``Edits.shared`` and its ``last``
    steps run after the last site (``Edits.finish``; ``param`` threads the path through the
    chains of every request of the round there: ``codemods/param/record.py``)."""
    from mcpmigrate.codemods.edits import Edits

    out = Edits()
    seen: set[int] = set()
    for f in findings:
        site = f.site
        if site is None or id(site) in seen or not owns(cm, site):
            continue
        seen.add(id(site))
        site.record(out, analysis)
    out.finish()
    return out


def owns(cm: ModuleType, site: object) -> bool:
    """Whether ``site`` is a site of fix module ``cm`` (its type is defined in ``cm`` or a module of
    its package): two fix modules may fix the same rules under one strategy (``interim`` and
    ``interim_jsonrpc``), each records only its own sites."""
    where = type(site).__module__
    return where == cm.__name__ or where.startswith(cm.__name__ + ".")


def node_positions(
    module: cst.Module,
    nodes: list[cst.CSTNode],
    analysis: ModuleAnalysis,
    source: bytes | None,
    top_lines: list[int] | None = None,
) -> Mapping[cst.CSTNode, CodeRange]:
    """The ``CodeRange`` of each of ``nodes`` (1-based lines, 0-based columns, as libcst's
    ``PositionProvider``).

    Positions come from generating code (:func:`mcpmigrate.positions.code_ranges`, a cheaper
    equivalent of libcst's ``PositionProvider``), and only the top-level statements that hold a
    reported node are generated, each as a one-statement module, shifted to the line ``ast``
    gives that statement in ``source``. When ``source`` is missing or the statements of the two
    parsers do not line up, the whole module is generated."""
    from libcst.metadata import CodeRange

    from mcpmigrate.positions import code_ranges, code_ranges_and_text, split_lines

    def whole() -> Mapping[cst.CSTNode, CodeRange]:
        return code_ranges(module, nodes)

    if source is None:
        return whole()
    index = {id(stmt): i for i, stmt in enumerate(module.body)}
    parents = analysis.parents
    wanted: set[int] = set()  # indexes of the top-level statements that hold a node
    for node in nodes:
        cur: cst.CSTNode | None = node
        while cur is not None and id(cur) not in index:
            cur = parents.get(id(cur))
        if cur is None:
            return whole()
        wanted.add(index[id(cur)])
    first = _top_level_lines(source, len(module.body), top_lines)
    if first is None:
        return whole()
    try:
        lines = split_lines(source.decode(module.encoding).lstrip("\ufeff"))
    except (UnicodeDecodeError, LookupError):
        return whole()
    out: dict[cst.CSTNode, CodeRange] = {}
    for i in sorted(wanted):
        stmt = module.body[i]
        one = module.with_changes(header=(), body=(stmt,), footer=())
        shift = first[i] - 1 - len(stmt.leading_lines)
        ranges, code = code_ranges_and_text(one, nodes)
        # the statement's code must sit at that line of the file: a decorator in parentheses or
        # after a backslash, or a backslash-continued blank line, makes ast's line or the count of
        # leading lines differ — then the whole module is done instead
        if shift < 0 or "".join(lines[shift : shift + len(split_lines(code))]) != code:
            return whole()
        for node, rng in ranges.items():
            out[node] = CodeRange((rng.start.line + shift, rng.start.column), (rng.end.line + shift, rng.end.column))
    return out


def _top_level_lines(source: bytes, count: int, known: list[int] | None = None) -> list[int] | None:
    """The first line of each of the ``count`` top-level statements of ``source``
    (:func:`mcpmigrate.screen.top_level_lines`; ``known`` when the screen already has them), or
    ``None`` when ``ast`` does not see ``count`` of them."""
    if known is None:
        from mcpmigrate.screen import parse_quietly, top_level_lines

        tree = parse_quietly(source)
        if tree is None:
            return None
        known = top_level_lines(tree)
    return known if len(known) == count else None


def active(findings: list[Finding], source: bytes) -> list[Finding]:
    """``findings`` minus those silenced by a ``# mcpmigrate: ignore`` comment in ``source``:
    a suppressed finding is neither reported nor fixed, in any round of a fix."""
    sups = find_suppressions(source)
    if not sups:
        return findings
    return [f for f in findings if not is_suppressed(sups, f.line, f.end_line, f.rule)]


def fixable(f: Finding, options: Options) -> bool:
    if f.fix is None:
        return False
    if not strategy_applies(options.strategy, f.fix.strategy):
        return False
    return f.fix.safety is Safety.SAFE or options.unsafe_fixes


# The fix modules that run before the port in a round (codemods.ORDER): the ones after it plan on
# the ported text already (each fix that changes the text is followed by detection on it).
_BEFORE_PORT = ORDER[: ORDER.index("port")]


def _round_findings(
    cm: ModuleType, findings: list[Finding], options: Options, wait_for_port: bool
) -> tuple[list[Finding], list[Finding]]:
    """The findings ``cm`` fixes in this round, and those of its fixes that wait for the port.

    An unsafe fix of a module that runs before the port (``_BEFORE_PORT``) planned on code the
    port is still rewriting (a port fix of the module is still to apply) waits for the ported code: planned there it may have a safe form (the
    roots ``config`` fix keeps the request on legacy connections only on mcp 2.x), and
    ``--unsafe-fixes`` only adds fixes, it never trades a safe form for an unsafe one
    (docs/architecture.md, "How a finding becomes a fix")."""
    mine = [
        f for f in findings if f.rule in cm.RULES and fixable(f, options) and f.fix and f.fix.strategy == cm.STRATEGY
    ]
    porting = (
        wait_for_port
        and cm.__name__.rpartition(".")[2] in _BEFORE_PORT
        and any(f.fix is not None and f.fix.strategy == "port" and fixable(f, options) for f in findings)
    )
    if not porting:
        return mine, []
    ready = [f for f in mine if f.fix and f.fix.safety is Safety.SAFE]
    return ready, [f for f in mine if not any(f is r for r in ready)]


@dataclass
class _Run:
    """What every fix round of one file reads and collects (:func:`_apply_codemods`)."""

    display: str
    config: Config
    options: Options
    path: Path | None
    incoming: Incoming | None
    file_rules: set[str] | None
    introduced: list[Finding] | None
    applied: list[Finding] | None
    style: Style | None
    from_mcp1: bool
    waiting: list[Finding] | None = None  # the findings whose fixes waited for the port


def _fix_rounds(
    module: cst.Module, rules: set[str], findings: list[Finding], analysis: ModuleAnalysis, run: _Run, wait: bool
) -> tuple[cst.Module, bool]:
    """The module after the fix rounds, and whether a fix that waited for the port (``wait``,
    :func:`_round_findings`) is left unfixed on the ported code."""
    from mcpmigrate.codemods import load_codemods
    from mcpmigrate.codemods.edits import apply_edits

    options, config = run.options, run.config
    waited: set[tuple[str, str]] = set()
    # what stays manual at the start, by rule and message: a finding left at the end beyond these
    # is a fix that waited and found no form on the ported code
    manual = Counter((f.rule, f.message) for f in findings if not fixable(f, options))
    for _round in range(MAX_FIX_ROUNDS + 1):
        changed = False
        for cm in load_codemods():
            if not strategy_applies(options.strategy, cm.STRATEGY):
                continue
            mine, waiting = _round_findings(cm, findings, options, wait)
            waited |= {(f.rule, f.message) for f in waiting}
            if run.waiting is not None:
                run.waiting.extend(waiting)
            if not mine:
                continue
            new_module = apply_edits(module, record_edits(cm, analysis, mine, config), run.style)  # the one applier
            if new_module is not module and new_module.code != module.code:
                module = new_module
                changed = True
                if run.applied is not None:
                    run.applied.extend(mine)
                before = rules
                if run.file_rules is not None:
                    rules = rescreen(module.bytes, rules, run.file_rules, run.incoming)
                findings, analysis = detect(
                    module,
                    run.display,
                    config,
                    rules,
                    path=run.path,
                    incoming=run.incoming,
                    ported_from_mcp1=run.from_mcp1,
                )
                findings = active(findings, module.bytes)
                if run.introduced is not None and rules is not before:
                    run.introduced.extend(f for f in findings if f.rule not in before)
        if not changed:
            if not (wait and waited):
                break
            wait = False  # the port is done or cannot go on: what waited applies now
    left = Counter((f.rule, f.message) for f in findings if (f.rule, f.message) in waited)
    return module, any(n > manual[key] for key, n in left.items())


def _apply_codemods(
    module: cst.Module,
    display: str,
    config: Config,
    rules: set[str],
    options: Options,
    findings: list[Finding],
    analysis: ModuleAnalysis,
    path: Path | None = None,
    incoming: Incoming | None = None,
    file_rules: set[str] | None = None,
    introduced: list[Finding] | None = None,
    applied: list[Finding] | None = None,
    waited: list[Finding] | None = None,
) -> cst.Module:
    """The fixed module. ``file_rules`` (the rules enabled for the file, a superset of ``rules``,
    the ones its original text passed the screen for): after each round that changed the text the
    screens run again on it, so a rule that only a fix makes reachable (MCP514 on the constructor
    the MCP511 rewrite turns into fastmcp's) reports and fixes in the same run; the findings of
    such a rule, as first found, are appended to ``introduced`` (the caller reports them fixed, or
    left). Every finding a round applied is appended to ``applied`` (a later round's own finding:
    the port gave a request its context, so the interim fix applies in the next round), and every
    finding whose fix waited for the port to ``waited`` (:func:`_round_findings`)."""
    from mcpmigrate import surfaces as S
    from mcpmigrate.codemods.imports import kept_names, prune_newly_unused
    from mcpmigrate.codemods.interim.refusals import code_generation
    from mcpmigrate.codemods.style import style_for, wrap_long_lines

    original = module
    style = style_for(options.style_path or path)
    from_mcp1 = config.target_sdk == "mcp2" and code_generation(analysis)[0] == S.MCP1  # what later rounds read
    # Rounds until nothing changes: one fix can make another possible (a ping deleted from a
    # `try` leaves only the elicitation the interim fix may then unwrap), and a second `fix` must
    # find nothing left to do. A fix that waited for the port (_round_findings) and has no form on
    # the ported code is planned on the code as found instead: the run starts again without waiting.
    for wait in (True, False):  # each pass starts from the file as found (_fix_rounds rebinds its own names)
        for collected in (introduced, applied, waited):
            if collected is not None:
                collected.clear()
        run = _Run(display, config, options, path, incoming, file_rules, introduced, applied, style, from_mcp1, waited)
        module, left = _fix_rounds(original, rules, findings, analysis, run, wait)
        if not left:
            break
    if module is not original:
        # never prune a name the rest of the project imports from this module, or its __all__ lists
        module = prune_newly_unused(original, module, lambda: kept_names(original, path, config.root))
        # what the fix wrote keeps the project's line length (codemods/style.py)
        module = wrap_long_lines(original, module, style)
    return module


def rewrite_module(
    path: Path,
    display: str,
    config: Config,
    options: Options,
    rules: set[str],
    source: bytes,
    incoming: Incoming | None,
    make_edits: Callable[[ModuleAnalysis], Edits | str],
) -> tuple[bytes | None, str | None]:
    """One module rewritten by a project step (``project_threads``: the callers of a function
    another module's fix changed): ``source`` parsed and analysed, ``make_edits(analysis)``
    applied with the one applier, the imports it left unused pruned, fitted to the project's
    style and verified as every fix is (step 8). ``(new bytes, None)``, or ``(None, why)``: the
    reason ``make_edits`` gave, or why the result must not be written."""
    from mcpmigrate.analysis import ModuleAnalysis
    from mcpmigrate.codemods.edits import apply_edits
    from mcpmigrate.codemods.imports import kept_names, prune_newly_unused
    from mcpmigrate.codemods.style import style_for, wrap_long_lines

    module = parse_module(source, config)
    analysis = ModuleAnalysis.build(module, incoming, path)
    analysis.source = source
    analysis.target_sdk = config.target_sdk
    edits = make_edits(analysis)
    if isinstance(edits, str):
        return None, edits
    style = style_for(path)
    new = prune_newly_unused(module, apply_edits(module, edits, style), lambda: kept_names(module, path, config.root))
    if style is not None:
        new = wrap_long_lines(module, new, style)
    problem, _remaining = _verify(
        new.bytes, display, config, rules_for_file(path, display, config, rules), options, path, source, incoming
    )
    return (None, problem) if problem else (new.bytes, None)


def process_file(
    path: Path,
    display: str,
    config: Config,
    options: Options,
    rules: set[str],
    prefilter: Prefilter | None,
    source: bytes | None = None,
    incoming: Incoming | None = None,
) -> FileResult:
    """Check (and, in fix mode, fix) one file. Never raises: bad input, and a bug in a detector
    or a codemod, are reported in ``FileResult.error`` and the rest of the tree is still checked
    (in fix mode the file is then left untouched). ``incoming``: the calls other modules of the
    project make into this one (:mod:`mcpmigrate.analysis.project`). A file past its time
    (:func:`mcpmigrate.isolation.file_timeout`) is reported as such, and so is one that exhausts
    the memory; a file the parser might crash on is checked in a child process (:func:`isolated`)."""
    seconds = isolation.file_timeout()
    try:
        with isolation.time_limit(seconds):
            return _process_file(path, display, config, options, rules, prefilter, source, incoming)
    except isolation.FileTimeout:
        return FileResult(display, error=isolation.timeout_message(seconds or 0))
    except MemoryError:
        return FileResult(display, error="ran out of memory, file skipped")  # not cached: it may pass next time
    except Exception as exc:  # a bug of ours must not lose the other files' results
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        return FileResult(
            display,
            error=(
                f"internal error, file skipped ({type(exc).__name__}: {exc} at "
                f"{os.path.basename(where.filename)}:{where.lineno}); please report this"
            ),
        )


def _process_file(
    path: Path,
    display: str,
    config: Config,
    options: Options,
    rules: set[str],
    prefilter: Prefilter | None,
    source: bytes | None = None,
    incoming: Incoming | None = None,
) -> FileResult:
    """:func:`process_file`'s steps: read, screen (which rules run), CPython's precheck, parse
    (:func:`_parse`), then detect and fix (:func:`_check_parsed`)."""
    res = FileResult(display)
    if source is None:
        source = _read(res, path)
        if source is None:
            return res
    file_rules = rules_for_file(path, display, config, rules)
    typed_from_outside = _typed_from_outside(incoming)
    run_rules, facts = (
        _screen(source, file_rules, typed_from_outside)
        if prefilter is not None and file_rules and prefilter.search(source)
        else (set(), None)
    )
    if not run_rules:
        problem = F.decode_problem(source)  # never parsed, but an undecodable file is still reported
        if problem:
            res.error = problem
            return res
        return _unscreened(res, source, file_rules)
    # CPython's parser first (the screen's tree when it has one): what it refuses for its limits,
    # or nests deeper than libcst's native parser can take, never reaches libcst (README, "Usage")
    verdict = precheck(source, facts.tree if facts is not None else None)
    if facts is not None:
        facts.tree = None  # libcst's tree follows: not both in memory
    if verdict.error is not None:
        if facts is None and not _mentions_mcp(source, run_rules):
            return _unscreened(res, source, file_rules)  # as a syntax error below
        res.error, res.error_at = f"cannot parse: {verdict.error}", verdict.at
        return res
    if verdict.isolate and not isolation.DISPOSABLE:
        # newer grammar than this Python's, or very wide: libcst in a child that may crash or be killed
        import libcst  # noqa: F401  # loaded before the fork: the child shares it (isolation._context)

        return isolated((path, display, config, options, rules, prefilter, source, incoming))
    module = _parse(res, source, config, facts, run_rules, file_rules)
    if module is None:
        return res
    res.parsed = True
    return _check_parsed(res, module, source, facts, path, config, options, run_rules, file_rules, incoming)


def _parse(
    res: FileResult, source: bytes, config: Config, facts: Facts | None, run_rules: set[str], file_rules: set[str]
) -> cst.Module | None:
    """``source`` parsed by libcst, or None with ``res`` saying why not (a file with nothing MCP
    in it that neither parser reads is not reported: only its unused suppressions)."""
    import libcst as cst

    try:
        return parse_module(source, config)
    except cst.ParserSyntaxError as exc:
        if facts is None and not _mentions_mcp(source, run_rules):
            # ast could not screen it; neither can libcst parse it, and nothing in it is MCP: as
            # for any file the screen rules out, it is not reported (README: a syntax error in a
            # file with nothing MCP in it is not)
            _unscreened(res, source, file_rules)
            return None
        message, res.error_at = syntax_error(exc, source, res.display)
        res.error = f"cannot parse: {message}"
    except (UnicodeDecodeError, LookupError, SyntaxError) as exc:
        res.error = f"cannot decode: {exc}"
    except RecursionError:
        res.error = "cannot parse: nesting too deep"
    return None


def _check_parsed(
    res: FileResult,
    module: cst.Module,
    source: bytes,
    facts: Facts | None,
    path: Path,
    config: Config,
    options: Options,
    run_rules: set[str],
    file_rules: set[str],
    incoming: Incoming | None,
) -> FileResult:
    """``res`` for the parsed ``module``: its findings (suppressions applied), fixed in fix mode,
    their libcst nodes dropped; its unused suppressions."""
    try:
        findings, analysis = detect(
            module, res.display, config, run_rules, source, facts.top_lines if facts else None, path, incoming
        )
    except RecursionError:
        res.error = "cannot analyse: nesting too deep"
        return res
    sups = find_suppressions(source)
    findings = [f for f in findings if not is_suppressed(sups, f.line, f.end_line, f.rule)]
    if options.mode == "fix" and any(fixable(f, options) for f in findings):
        findings, sups = _fix(
            res, module, source, findings, sups, analysis, config, options, run_rules, file_rules, path, incoming
        )
    for f in [*findings, *res.fixed, *(res.checked or ())]:  # libcst nodes: never pickled or cached
        needs = getattr(f.site, "project_needs", None)
        if needs is not None:
            f.project_needs = needs()
        f.node = f.site = None
    res.findings = findings
    _collect_unused(res, sups, file_rules)
    return res


def _read(res: FileResult, path: Path) -> bytes | None:
    """The bytes of ``path``, or None with ``res.error`` saying why it cannot be read."""
    try:
        return F.read_source(path)
    except OSError as exc:
        res.error = f"cannot read: {exc.strerror or exc}"
    except ValueError as exc:
        res.error = str(exc)
    return None


def _unscreened(res: FileResult, source: bytes, file_rules: set[str]) -> FileResult:
    """``res`` for a file no rule runs on (the screens, or nothing MCP in a file neither parser
    reads): only its unused suppressions."""
    _collect_unused(res, find_suppressions(source), file_rules)
    return res


def _fix(
    res: FileResult,
    module: cst.Module,
    source: bytes,
    findings: list[Finding],
    sups: dict,
    analysis: ModuleAnalysis,
    config: Config,
    options: Options,
    run_rules: set[str],
    file_rules: set[str],
    path: Path,
    incoming: Incoming | None,
) -> tuple[list[Finding], dict]:
    """``fix`` on one parsed file with fixable ``findings`` (``sups``: its suppressions): the fix
    rounds (:func:`_apply_codemods`), the verifier, and what is fixed. Sets ``res``'s new text,
    fixed findings or the reason the fix was not applied; returns the findings and suppressions
    that hold for the text ``res`` ends with."""
    display = res.display
    newer = newer_syntax(source, display, config)
    if newer:
        res.error = f"fix not applied: {newer}"
        return findings, sups
    introduced: list[Finding] = []
    applied: list[Finding] = []
    waited: list[Finding] = []
    try:
        new_source = _apply_codemods(
            module,
            display,
            config,
            run_rules,
            options,
            findings,
            analysis,
            path,
            incoming,
            file_rules,
            introduced,
            applied,
            waited,
        ).bytes
    except Exception as exc:  # a codemod bug: keep the findings, leave the file untouched
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        res.error = (
            f"fix not applied: internal error ({type(exc).__name__}: {exc} at "
            f"{os.path.basename(where.filename)}:{where.lineno}); please report this"
        )
        new_source = source
    if new_source == source:
        return findings, sups
    run_rules = rescreen(new_source, run_rules, file_rules, incoming)  # as each fix round did
    problem, remaining = _verify(new_source, display, config, run_rules, options, path, source, incoming)
    if problem:
        res.error = f"fix not applied: {problem}"
        return findings, sups
    res.original = source
    res.new_source = new_source
    res.checked = list(findings)
    sups_after = find_suppressions(new_source)
    remaining = [f for f in remaining if not is_suppressed(sups_after, f.line, f.end_line, f.rule)]
    res.fixed = _fixed_findings([*findings, *introduced], applied, waited, remaining, options)
    return remaining, sups_after


def _fixed_findings(
    found: list[Finding], applied: list[Finding], waited: list[Finding], remaining: list[Finding], options: Options
) -> list[Finding]:
    """The findings of ``found`` (the original text's, and those a fix made reachable) that the fix
    rounds fixed: a finding is fixed when fewer sites with its rule and message ``remaining`` in the
    fixed text; one a later round fixed (``applied`` holds every finding a round applied) is
    reported at its own line with that round's fix and site, and so is one whose fix ``waited`` for
    the port and was then planned on the ported text."""
    left = Counter((f.rule, f.message) for f in remaining)
    fixed: list[Finding] = []
    later = [f for f in applied if not any(f is g for g in found)]  # found and applied in a later round
    for f in sorted(found, key=lambda f: fixable(f, options)):  # unfixable ones remain first
        key = (f.rule, f.message)
        if left[key] > 0:
            left[key] -= 1
        elif fixable(f, options) and not (
            any(f is w for w in waited) and any(x.rule == f.rule and x.message == f.message for x in later)
        ):
            fixed.append(f)  # applied, or fixed along with another finding of its round
        elif (done := _fixed_later(f, later)) is not None:
            # manual as first found, or waiting for the port (_round_findings), and fixed by a later
            # round: reported (and settled) as that round's fix
            later.remove(done)
            fixed.append(dataclasses.replace(f, fix=done.fix, manual=None, site=done.site))
    # the rest of the later rounds' fixes (a request the analysis sees only once an earlier round
    # rewrote its receiver) are reported too, at their place in the text that round read, and so
    # are those other modules must follow (the project step settles them)
    return fixed + [f for f in later if f.project_needs or not any(f.rule == g.rule for g in fixed)]


def _fixed_later(f: Finding, later: list[Finding]) -> Finding | None:
    """The finding of a later fix round (found in a round's intermediate text: an mcp 1.x sampling
    request the same run ports, then resolves) that fixed ``f``, manual as first found: the one with
    its rule and message, else its rule. ``f`` is reported at its own line (the original file's)
    with that round's fix and site (whose project needs the project step reads)."""
    same = [x for x in later if x.rule == f.rule]
    return next((x for x in same if x.message == f.message), same[0] if same else None)


def _collect_unused(res: FileResult, sups: dict, file_rules: set[str]) -> None:
    """Suppressions that silenced nothing. An id is reported only when its rule ran on this file
    (or is no rule at all: a typo); a bare ``ignore`` only when every rule ran."""
    catalog = load_catalog()
    for s in sups.values():
        if s.ids is None:
            if not s.used and file_rules >= set(port_rules_off(set(catalog), None)):  # the port rules are opt-in
                res.unused_suppressions.append((s.line, "*"))
        else:
            for rid in sorted(s.ids - s.used):
                if rid in file_rules or rid not in catalog:
                    res.unused_suppressions.append((s.line, rid))


def _verify(
    new_source: bytes,
    display: str,
    config: Config,
    rules: set[str],
    options: Options,
    path: Path | None = None,
    original: bytes | None = None,
    incoming: Incoming | None = None,
) -> tuple[str | None, list[Finding]]:
    """``(problem, findings)``: why the fixed text must not be written (it does not parse or
    compile, it has a name problem the ``original`` text did not have (:func:`_name_problem`), or a
    second fix would change it), else ``None``; and the findings in the fixed text (suppressions
    not applied: the caller marks which suppressions they use)."""
    import libcst as cst

    try:
        module = parse_module(new_source, config)
    except cst.ParserSyntaxError as exc:  # pragma: no cover - a codemod bug
        return f"the rewritten code does not parse ({syntax_message(exc, new_source, display)})", []
    try:
        compile(new_source, display, "exec", dont_inherit=True)
    except SyntaxError as exc:  # the original compiles here (process_file refuses it otherwise)
        return f"the rewritten code is not valid Python ({exc.msg}, line {exc.lineno})", []
    if original is not None:
        problem = name_problem(original, new_source, display, path, config.root)
        if problem:
            return problem, []
    found, analysis = detect(module, display, config, rules, path=path, incoming=incoming)
    findings = active(found, new_source)
    if any(fixable(f, options) for f in findings):
        again = _apply_codemods(module, display, config, rules, options, findings, analysis, path, incoming)
        if again.bytes != new_source:
            return "a second fix would change the file again (not idempotent); please report this", found
    return None, found


def _mentions_mcp(source: bytes, rules: set[str]) -> bool:
    """A file ``ast`` cannot parse (so the screen could not look at it) might hold something the
    rules report: the screens of :mod:`mcpmigrate.screen` on facts read from its tokens
    (:func:`mcpmigrate.screen.facts_of_text`) say so."""
    from mcpmigrate.detectors import all_detectors
    from mcpmigrate.screen import facts_of_text

    facts = facts_of_text(source)
    for det in all_detectors():
        if not set(det.rules) & rules:
            continue
        screen = getattr(det, "screen", None)
        if screen is None or screen(facts):
            return True
    return False


def worker(args: tuple) -> FileResult:
    """:func:`process_file` on a tuple of its arguments (a process pool's task; its file is marked
    as in flight while it runs: :func:`mcpmigrate.isolation.marked`)."""
    with isolation.marked(args[1]):
        return process_file(*args)


def isolated(args: tuple) -> FileResult:
    """:func:`process_file` on a tuple of its arguments in a single-use child process
    (:func:`mcpmigrate.isolation.in_child`): a crash there, or a hang in native code, becomes the
    file's error ("cannot parse: the parser crashed (SIGSEGV)", "took longer than N s")."""
    seconds = isolation.file_timeout()
    out = isolation.in_child(process_file, args, seconds)
    if isinstance(out, FileResult):
        return out
    if isinstance(out, isolation.Died) and out.timed_out:
        return FileResult(args[1], error=isolation.timeout_message(seconds or 0))
    return FileResult(args[1], error=f"cannot parse: the parser {out}")

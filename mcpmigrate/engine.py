"""A run over a tree: discover the files, triage them against the result cache, spread the
ones that need work over the cores, and collect the results (``docs/architecture.md``).

Each file goes through :mod:`mcpmigrate.pipeline`. Results are kept per file content
(:mod:`mcpmigrate.cache`); a warm run imports no libcst.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcpmigrate import files as F
from mcpmigrate import isolation
from mcpmigrate.config import Config, strategy_applies
from mcpmigrate.model import FileError, Finding, FixInfo, Safety, Severity
from mcpmigrate.pipeline import (  # FileResult, Options, enabled_rules: re-exported for callers of run()
    FileResult,
    Options,
    Prefilter,
    enabled_rules,
    fixable,
    isolated,
    prefilter_regex,
    process_file,
    rules_for_file,
    worker,
)

__all__ = ["FileResult", "Options", "RunResult", "enabled_rules", "run"]

if TYPE_CHECKING:  # imported where used: a warm (cached) run never loads libcst
    from mcpmigrate.analysis.project import Incoming, Pass
    from mcpmigrate.cache import Cache

PARALLEL_MIN_FILES = 8  # files that need a parse (after the prefilter)
POOL_MIN_SUMMARIES = 16  # callers the project pass summarizes: fewer are read here, before the workers start


@dataclass
class RunResult:
    files_checked: int = 0
    results: list[FileResult] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    strategy: str = "param"  # the fix strategy in force (a plain `fix` applies its fixes)
    pins: list = field(default_factory=list)  # `fix --target-sdk`: dependency files to re-pin (codemods.port.project)

    def applies(self, fix_strategy: str) -> bool:
        """A plain ``fix`` in this run's strategy applies fixes of ``fix_strategy``
        (:func:`mcpmigrate.config.strategy_applies`; decided without importing the codemods)."""
        return strategy_applies(self.strategy, fix_strategy)

    @property
    def findings(self) -> list[Finding]:
        return sorted((f for r in self.results for f in r.findings), key=lambda f: f.sort_key)

    @property
    def fixed(self) -> list[Finding]:
        return sorted((f for r in self.results for f in r.fixed), key=lambda f: f.sort_key)

    @property
    def unused_suppressions(self) -> list[tuple[str, int, str]]:
        """``(path, line, rule id or "*")`` of suppression comments that silenced nothing."""
        return sorted((r.display, line, rid) for r in self.results for line, rid in r.unused_suppressions)

    @property
    def changed(self) -> list[FileResult]:
        return [r for r in self.results if r.new_source is not None]


def run(
    paths: Iterable[Path],
    config: Config,
    options: Options,
    cwd: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RunResult:
    """Run check or fix over ``paths``. Writes files only in fix mode without ``diff``.
    ``progress(done, total)`` is called as files are processed (the CLI's progress bar)."""
    cwd = cwd or Path.cwd()
    paths = list(paths)
    project = _project(paths, config, cwd)
    if config.source is None:  # no configuration file: the project holding the paths, never the cwd as such
        config = dataclasses.replace(config, root=project or _common_dir(paths, cwd))
    if options.mode == "fix" and options.strategy != config.strategy:
        # detectors label each finding's fix for the strategy in force (`fix --strategy`)
        config = dataclasses.replace(config, strategy=options.strategy)
    rules = enabled_rules(config, options)
    _PIN_SIGNATURES.clear()  # per run: a long-lived caller may edit the dependency files between runs
    found, walk_errors = F.discover(
        list(paths),
        config.root,
        config.exclude,
        cwd,
        respect_gitignore=config.respect_gitignore,
        force_exclude=options.force_exclude,
    )
    result = RunResult(strategy=config.strategy)
    for display, reason in walk_errors:
        result.errors.append(FileError(display, reason))
    # In this process: the cache, then the byte-token prefilter; only files that may need a
    # parse are sent to the workers, and the project pass's summaries when there are many.
    candidates: list[F.SourceFile] = list(found)
    result.files_checked = len(candidates)
    cache = _open_cache(config, options, rules, project)
    sources = _read_all(candidates)
    run = _Run(paths, config, options, cwd, rules, candidates, sources, cache)
    results, incoming = _process_all(run, project, progress)
    # a file that could not be read, decoded or parsed is reported as an error, not as checked
    result.files_checked = sum(1 for res in results if not res.error)
    for res in results:
        if res.error:
            result.errors.append(FileError(res.display, res.error, *(res.error_at or (None, None))))
        result.results.append(res)
        if cache is not None and res.cache_key is not None and _cacheable(res):
            cache.put(res.cache_key, _for_cache(res))
    _project_findings(result, run)
    if options.mode == "fix":
        _settle_fix(result, run, incoming, project)
    if cache is not None and not (options.mode == "fix" and options.diff):
        cache.save()  # `fix --diff` writes nothing (README), the cache included: it only reads it
    return result


def _project_findings(result: RunResult, run: _Run) -> None:
    """The findings of the rules whose sites are the project's dependency files (``project-findings``
    in rules/<ID>.toml), given the sources the run read; with ``fix``, the fixable ones are fixed:
    the requirement MCP521 caps is written with the run (``result.pins``; the port's project step
    replaces them with its own when ``--target-sdk`` is set)."""
    hooks = _project_rules(run.rules)
    capped: list[Path] = []  # projects whose requirement MCP521's fix caps
    for root in _project_dirs(run.candidates, run.config) if hooks else []:
        for project_findings in hooks:
            for display, findings in project_findings(root, run.cwd, run.sources):
                fixed = [f for f in findings if f.fix is not None] if run.options.mode == "fix" else []
                if fixed and root not in capped:
                    capped.append(root)
                left = [f for f in findings if f not in fixed]
                result.results.append(FileResult(display, findings=left, fixed=fixed, parsed=True))
    if capped:
        from mcpmigrate.codemods.port.cap import cap_changes

        result.pins = list(cap_changes(capped))


@dataclass
class _Run:
    """What the steps of one :func:`run` share: its paths, settings and enabled rules, the files
    found (``candidates``), their bytes by absolute path, and the result cache."""

    paths: list[Path]
    config: Config
    options: Options
    cwd: Path
    rules: set[str]
    candidates: list[F.SourceFile]
    sources: dict[Path, bytes]
    cache: Cache | None


def _process_all(
    run: _Run, project: Path | None, progress: Callable[[int, int], None] | None
) -> tuple[list[FileResult], dict[Path, Incoming]]:
    """Every candidate's result, in the candidates' order, and the project pass's slices: the
    cache and the triage here, the rest in the worker pool or in this process
    (``docs/architecture.md``, "Speed")."""
    from mcpmigrate.analysis.project import finish
    from mcpmigrate.analysis.summary import summarize_all

    config, options, candidates, cache = run.config, run.options, run.candidates, run.cache
    facts = _project_start(list(run.paths), config, run.cwd, run.sources, cache, project)
    triage = _Triage(config, options, run.rules, cache, run.sources)
    jobs = options.jobs or min(os.cpu_count() or 1, 8)
    if facts.result is None and (jobs < 2 or len(facts.todo) < POOL_MIN_SUMMARIES):
        facts.result = finish(facts, summarize_all(facts.jobs), cache)  # a few: here
    if facts.result is not None:
        incoming = facts.result
        tasks, task_keys = triage(list(enumerate(candidates)), incoming)
        if progress is not None:
            progress(len(triage.done), len(candidates))
        results = (
            _in_pool(jobs, tasks, triage.done, len(candidates), progress) if len(tasks) >= PARALLEL_MIN_FILES else None
        )
    else:
        incoming, tasks, task_keys, results = _overlapped(facts, candidates, triage, jobs, cache, progress)
    done = triage.done
    if results is None:  # serial, or no process pool here
        results = []
        for t in tasks:
            results.append(worker(t))
            if progress is not None:
                progress(len(done) + len(results), len(candidates))
    for (i, key), res in zip(task_keys, results):
        res.cache_key = key
        done[i] = res
    return [done[i] for i in range(len(candidates))], incoming


def _settle_fix(result: RunResult, run: _Run, incoming: dict[Path, Incoming], project: Path | None) -> None:
    """After a ``fix`` run's files: the port's project step (every file ported or none written,
    the requirement re-pinned), the writes (``writes.apply``; none with ``--diff``), and the
    cache entries of the written files' new content."""
    config, options, candidates, cache = run.config, run.options, run.candidates, run.cache
    if config.target_sdk:
        from mcpmigrate.codemods.port.project import settle

        where = {sf.display: Path(os.path.abspath(sf.path)) for sf in candidates}
        result.pins = settle(
            result, config.root, config.target_sdk, where, run.sources
        )  # all files ported, or none written
    together: list[set[str]] = []
    if options.mode == "fix":
        from mcpmigrate.project_answers import STEP
        from mcpmigrate.project_threads import settle as thread_across

        where = {sf.display: Path(os.path.abspath(sf.path)) for sf in candidates}
        root = project or Path(os.path.abspath(config.root))
        threads = partial(
            thread_across, result.results, result.errors, where, root, config, options, run.rules, incoming, run.sources
        )
        if strategy_applies(options.strategy, "param"):
            together += (
                threads()
            )  # a helper's path parameter reaches the tools of other modules: all the files, or none
        ported = _ported(result.results) if config.target_sdk else set()
        if strategy_applies(options.strategy, "interim"):
            together += threads(STEP)  # a helper's question moves into the handlers of other modules: all or none
        if ported:
            _hold_split_port(result, ported, config.target_sdk or "")
    by_display = {sf.display: sf.path for sf in candidates}
    from mcpmigrate.writes import apply

    # compare before replace, stay inside the given paths, a port all or nothing (writes.py)
    given = [Path(os.path.abspath(run.cwd / p)) for p in run.paths]
    result.pins = apply(
        result.results,
        result.errors,
        result.pins,
        by_display,
        given,
        config,
        run.cwd,
        write=not options.diff,
        together=together,
    )
    if not options.diff and cache is not None:
        from mcpmigrate.cache import content_key

        by_rules = {sf.display: rules_for_file(sf.path, sf.display, config, run.rules) for sf in candidates}
        for res in result.changed:  # written: the remaining findings are the new content's
            assert res.new_source is not None  # what `changed` selects
            after = FileResult("", findings=res.findings, unused_suppressions=res.unused_suppressions, parsed=True)
            path = by_display[res.display]
            cache.put(
                content_key(
                    res.new_source, by_rules[res.display], _context(path, incoming.get(Path(os.path.abspath(path))))
                ),
                _for_cache(after),
            )


def _ported(results: list[FileResult]) -> set[str]:
    """The files the port rewrites (a port finding among their fixes, the text to write kept)."""
    from mcpmigrate.config import PORT_RULE_PREFIX

    return {
        res.display
        for res in results
        if res.new_source is not None and any(f.rule.startswith(PORT_RULE_PREFIX) for f in res.fixed)
    }


def _hold_split_port(result: RunResult, ported: set[str], target: str) -> None:
    """When a project step held a ported file (its helper's question could not reach every caller:
    nothing is written for it, not its port either), the port would be split — the other files on
    the new SDK, calling into one left on the old — so nothing is written (the port writes every
    file or none), and the run says how to port first."""
    from mcpmigrate.codemods.port.project import TARGET_NAMES, hold

    held = sorted(d for d in ported if not any(r.display == d and r.new_source is not None for r in result.results))
    if not held:
        return
    hold(result.results)
    result.pins = []
    result.errors.append(
        FileError(
            held[0],
            f"blocks the port to {TARGET_NAMES[target]}: the interim fix of this file was not applied (its error "
            "above), and the port writes every file or none; nothing was written. Port first (`fix --target-sdk "
            f"{target}` without `--strategy interim`), then run `fix --strategy interim`",
        )
    )


def _open_cache(config: Config, options: Options, rules: set[str], project: Path | None) -> Cache | None:
    """The result cache (:func:`mcpmigrate.cache.location`: ``--cache-dir``, else the project's
    ``.mcpmigrate_cache``, else the user's cache directory), or None with ``--no-cache``."""
    from mcpmigrate.cache import Cache, disabled_by_env, location

    if options.no_cache or disabled_by_env():
        return None
    base, own = location(project, options.cache_dir)
    return Cache.open(base, f"{config.fingerprint()}|{sorted(rules)}", own)


def _project(paths: list[Path], config: Config, cwd: Path) -> Path | None:
    """The root of the project the checked ``paths`` belong to (docs/architecture.md, "The project
    pass"): the configuration's root when a configuration file declares one that holds them all;
    else their nearest project root (:func:`files.project_root`) when they share one; else the
    directory named when it is the only path (a tree outside every project is its own project).
    None: the paths are outside every project, or in several — each is checked on its own."""
    given = [Path(os.path.abspath(cwd / p)) for p in paths] or [Path(os.path.abspath(cwd))]
    declared = Path(os.path.abspath(config.root))
    if config.source is not None and all(g == declared or declared in g.parents for g in given):
        return declared
    roots = {F.project_root(g) for g in given}
    if len(roots) == 1 and None not in roots:
        return roots.pop()
    if roots == {None} and len(given) == 1 and given[0].is_dir():
        return given[0]
    return None


def _common_dir(paths: list[Path], cwd: Path) -> Path:
    """The deepest folder that holds every checked path."""
    dirs = [str(g if g.is_dir() else g.parent) for g in (Path(os.path.abspath(cwd / p)) for p in paths)]
    return Path(os.path.commonpath(dirs)) if dirs else Path(os.path.abspath(cwd))


def _read_all(found: list[F.SourceFile]) -> dict[Path, bytes]:
    """The bytes of every readable file, by absolute path (an unreadable one is reported by
    :func:`_triage`)."""
    out: dict[Path, bytes] = {}
    for sf in found:
        try:
            out[Path(os.path.abspath(sf.path))] = F.read_source(sf.path)
        except (OSError, ValueError):
            continue
    return out


def _project_dirs(candidates: list[F.SourceFile], config: Config) -> list[Path]:
    """The project directories of the checked files, in order: for each, the nearest one with a
    dependency file (where :mod:`mcpmigrate.pins` reads its pins and the port re-pins it), else the
    configuration root. A monorepo checked from its root has one per server."""
    from mcpmigrate.pins import project_dir

    dirs = {project_dir(Path(os.path.abspath(sf.path)).parent) or config.root: None for sf in candidates}
    return list(dirs) or [config.root]


def _project_rules(rules: set[str]) -> list[Callable[..., list[tuple[str, list[Finding]]]]]:
    """The functions of the enabled rules whose sites are the project's dependency files
    (``project-findings`` in rules/<ID>.toml; docs/adding-a-rule.md), imported only when enabled."""
    import importlib

    from mcpmigrate.catalog import load_catalog

    out = []
    for rule in sorted(rules):
        target = load_catalog()[rule].project_findings
        if target:
            module, _, name = target.partition(":")
            out.append(getattr(importlib.import_module(module), name))
    return out


def _project_start(
    paths: list[Path],
    config: Config,
    cwd: Path,
    sources: dict[Path, bytes],
    cache: Cache | None,
    project: Path | None,
) -> Pass:
    """The first half of the project pass (:mod:`mcpmigrate.analysis.project`): which functions
    of the checked files other modules of the project may call, and which files to summarize to
    know. The project is the one holding the checked paths (:func:`_project`); when they do not
    cover it (a pre-commit hook passing staged files), the rest of it is read too. Paths outside
    every project are checked on their own: nothing else is read."""
    from mcpmigrate.analysis.project import start

    root = project or Path(os.path.abspath(config.root))
    covered = any(Path(os.path.abspath(cwd / p)) in (root, *root.parents) for p in paths) if paths else True
    rest: list[Path] = []
    if project is not None and not covered:
        more, _errors = F.discover(
            [root], root, config.exclude, cwd, respect_gitignore=config.respect_gitignore, force_exclude=True
        )
        rest = [Path(os.path.abspath(sf.path)) for sf in more]
    return start(root, sources, rest, cache)


def _overlapped(
    facts: Pass,
    candidates: list[F.SourceFile],
    triage: _Triage,
    jobs: int,
    cache: Cache | None,
    progress: Callable[[int, int], None] | None,
) -> tuple[dict[Path, Incoming], list[tuple], list[tuple[int, bytes | None]], list[FileResult] | None]:
    """The project pass's summaries and the files no other module can call into (their results do
    not depend on the pass) go to the workers at once; the files that may receive calls follow
    when the pass is resolved. Returns the slices, the tasks with their indexes, and their results
    (None: no process pool here, run them serially)."""
    from mcpmigrate.analysis.project import finish
    from mcpmigrate.analysis.summary import summarize_all

    receivers = facts.receivers
    first = [(i, sf) for i, sf in enumerate(candidates) if Path(os.path.abspath(sf.path)) not in receivers]
    second = [(i, sf) for i, sf in enumerate(candidates) if Path(os.path.abspath(sf.path)) in receivers]
    summary_jobs = facts.jobs
    chunk = max(1, len(summary_jobs) // (jobs * 4))
    chunks = [summary_jobs[k : k + chunk] for k in range(0, len(summary_jobs), chunk)]
    incoming: dict[Path, Incoming] | None = None
    tasks: list[tuple] | None = None
    keys: list[tuple[int, bytes | None]] = []
    broken = False
    triage.prefilter()  # imports the detectors: before the workers fork, which then share them
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            summarized = pool.map(summarize_all, chunks)  # first in the workers' queue
            tasks, keys = triage(first, {})  # meanwhile, here: cache hits, files without a token
            order1, out1 = _submit(pool, jobs, tasks)
            incoming = finish(facts, [s for part in summarized for s in part], cache)
            more, more_keys = triage(second, incoming)
            order2, out2 = _submit(pool, jobs, more)
            results: list[FileResult | None] = [None] * (len(tasks) + len(more))
            n = len(triage.done)
            for offset, order, out in ((0, order1, out1), (len(tasks), order2, out2)):
                for i, res in zip(order, out):
                    results[offset + i] = res
                    n += 1
                    if progress is not None:
                        progress(n, len(candidates))
            return incoming, tasks + more, keys + more_keys, results  # type: ignore[return-value]
    except BrokenProcessPool:
        broken = True  # a worker died (a crash in native code): the files again, in _in_pool
    except (OSError, NotImplementedError):
        pass  # no process pool here (sandbox, no /dev/shm): the rest serially
    if incoming is None:
        incoming = finish(facts, summarize_all(summary_jobs), cache)
    if tasks is None:
        tasks, keys = triage(first, {})
    done_before = set(triage.done)
    more, more_keys = triage([(i, sf) for i, sf in second if i not in done_before], incoming)
    again = _in_pool(jobs, tasks + more, triage.done, len(candidates), progress) if broken else None
    return incoming, tasks + more, keys + more_keys, again


def _submit(pool: ProcessPoolExecutor, jobs: int, tasks: list[tuple]) -> tuple[list[int], Iterator[FileResult]]:
    """``tasks`` queued on ``pool``, largest files first, in small chunks (the last worker to finish
    is not left with a big file while the others idle): their indexes, and the results in that order."""
    by_size = sorted(range(len(tasks)), key=lambda i: -len(tasks[i][6]))
    return by_size, pool.map(worker, [tasks[i] for i in by_size], chunksize=max(1, len(tasks) // (jobs * 16)))


def _in_pool(
    jobs: int,
    tasks: list[tuple],
    done: dict[int, FileResult],
    total: int,
    progress: Callable[[int, int], None] | None,
) -> list[FileResult] | None:
    """The results of ``tasks`` from a pool of ``jobs`` workers; None when there is no pool here.

    A worker that dies (``BrokenProcessPool``: a crash in native code) costs only its own file:
    the files the dead pool's workers were on (:func:`mcpmigrate.isolation.left_marks`) are
    checked again each in a child of its own (:func:`mcpmigrate.pipeline.isolated`), the others
    in a fresh pool."""
    import tempfile

    if jobs < 2:
        return None
    out: list[FileResult | None] = [None] * len(tasks)
    pending = list(range(len(tasks)))
    n = 0
    while pending:
        suspects: set[str] = set()
        with tempfile.TemporaryDirectory(prefix="mcpmigrate-") as marks:
            try:
                with ProcessPoolExecutor(max_workers=jobs, initializer=isolation.mark_in, initargs=(marks,)) as pool:
                    order, results = _submit(pool, jobs, [tasks[i] for i in pending])
                    for k, res in zip(order, results):
                        out[pending[k]] = res
                        n += 1
                        if progress is not None:
                            progress(len(done) + n, total)
            except BrokenProcessPool:
                suspects = isolation.left_marks(marks)
            except (OSError, NotImplementedError):
                return None  # no process pool here (sandbox, no /dev/shm): run serially
        pending = [i for i in pending if out[i] is None]
        # none marked (a death outside a task): every file left gets a child of its own
        for i in [i for i in pending if tasks[i][1] in suspects] or pending:
            out[i] = isolated(tasks[i])
            n += 1
            if progress is not None:
                progress(len(done) + n, total)
        pending = [i for i in pending if out[i] is None]
    return out  # type: ignore[return-value]


class _Triage:
    """Results known without a parse (cache hits, files without any token, unreadable files) go
    to ``done`` (by the file's index); the others become tasks for the workers."""

    def __init__(
        self, config: Config, options: Options, rules: set[str], cache: Cache | None, sources: dict[Path, bytes]
    ):
        self.config, self.options, self.rules, self.cache, self.sources = config, options, rules, cache, sources
        self.done: dict[int, FileResult] = {}
        self._prefilter: Prefilter | None = None
        self._built = False  # the prefilter imports the detectors: only when a file needs it

    def prefilter(self) -> Prefilter | None:
        """The byte-token prefilter of the enabled rules (:func:`pipeline.prefilter_regex`)."""
        if not self._built:
            self._prefilter, self._built = prefilter_regex(self.rules), True
        return self._prefilter

    def __call__(
        self, found: list[tuple[int, F.SourceFile]], incoming: dict[Path, Incoming]
    ) -> tuple[list[tuple], list[tuple[int, bytes | None]]]:
        """The tasks of the files of ``found`` that need the workers, with the index and cache key of each."""
        from mcpmigrate.cache import content_key

        config, options, rules, cache = self.config, self.options, self.rules, self.cache
        tasks: list[tuple] = []
        index: list[tuple[int, bytes | None]] = []
        for i, sf in found:
            absolute = Path(os.path.abspath(sf.path))
            source = self.sources.get(absolute)
            if source is None:
                self.done[i] = process_file(sf.path, sf.display, config, options, rules, None)  # reports why
                continue
            mine = incoming.get(absolute)
            file_rules = rules_for_file(sf.path, sf.display, config, rules)
            key: bytes | None = None
            if cache is not None:
                key = content_key(source, file_rules, _context(sf.path, mine))
                hit = cache.get(key, _cached_result)
                if hit is not None and (options.mode != "fix" or not any(fixable(f, options) for f in hit.findings)):
                    self.done[i] = _from_cache(hit, sf.display)
                    continue
            prefilter = self.prefilter()
            if prefilter is None or not file_rules or not prefilter.search(source):
                # no prefilter: process_file need not search it again to know no rule runs
                res = process_file(sf.path, sf.display, config, options, rules, None, source)
                res.cache_key = key
                self.done[i] = res
                continue
            tasks.append((sf.path, sf.display, config, options, rules, prefilter, source, mine))
            index.append((i, key))
        return tasks, index


_PIN_SIGNATURES: dict[Path, str] = {}


def _context(path: Path, incoming: Incoming | None) -> str:
    """What a file's result depends on besides its bytes and rules: its project's dependency
    pins and the calls other modules make into it (:func:`mcpmigrate.analysis.project.digest`)."""
    from mcpmigrate.analysis.project import digest

    return _pins_signature(path) + ("|" + digest(incoming) if incoming else "")


def _pins_signature(path: Path) -> str:
    """A digest of the dependency declarations the file's project pins its SDKs in (part of a
    file's cache key: the interim fix's plan depends on them). One lookup per directory."""
    from mcpmigrate.pins import signature

    d = path.parent
    sig = _PIN_SIGNATURES.get(d)
    if sig is None:
        sig = _PIN_SIGNATURES[d] = signature(d)
    return sig


_CACHEABLE_ERRORS = ("cannot parse", "cannot decode", "cannot analyse", "binary file")


def _cacheable(res: FileResult) -> bool:
    """A check-equivalent result of the content alone: not a fixed file's, not a read error."""
    if res.cache_key is None or res.new_source is not None or res.fixed:
        return False
    return res.error is None or res.error.startswith(_CACHEABLE_ERRORS)


def _for_cache(res: FileResult) -> dict[str, Any]:
    """A check result as the cache stores it: JSON data (:mod:`mcpmigrate.cache`), without the
    path (put back on a hit) and without the detectors' handles on nodes."""
    return {
        "findings": [dict(f.to_json(), path="") for f in res.findings],
        "unused": [list(u) for u in res.unused_suppressions],
        "error": res.error,
        "error_at": list(res.error_at) if res.error_at else None,
        "parsed": res.parsed,
    }


def _cached_result(data: Any) -> FileResult:
    """The result :func:`_for_cache` stored; raises ``ValueError``/``KeyError`` on anything else."""
    from mcpmigrate.cache import expect, row, rows

    at = expect(data["error_at"], (list, type(None)))
    return FileResult(
        "",
        findings=[_cached_finding(f) for f in expect(data["findings"], list)],
        unused_suppressions=rows(data["unused"], int, str),
        error=expect(data["error"], (str, type(None))),
        parsed=expect(data["parsed"], bool),
        error_at=None if at is None else row(at, int, int),
    )


def _cached_finding(d: Any) -> Finding:
    from mcpmigrate.cache import expect

    fix = expect(d["fix"], (dict, type(None)))
    return Finding(
        rule=expect(d["rule"], str),
        name=expect(d["name"], str),
        severity=Severity(d["severity"]),
        path="",
        line=expect(d["line"], int),
        column=expect(d["column"], int),
        end_line=expect(d["end_line"], int),
        end_column=expect(d["end_column"], int),
        message=expect(d["message"], str),
        fix=None
        if fix is None
        else FixInfo(Safety(fix["safety"]), expect(fix["strategy"], str), expect(fix["description"], str)),
        manual=expect(d["manual"], (str, type(None))),
    )


def _from_cache(hit: FileResult, display: str) -> FileResult:
    return FileResult(
        display,
        findings=[dataclasses.replace(f, path=display) for f in hit.findings],
        unused_suppressions=list(hit.unused_suppressions),
        error=hit.error,
        parsed=hit.parsed,
        error_at=hit.error_at,
    )

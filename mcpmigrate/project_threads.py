"""The project step of the ``param`` fix (issue 22, "path threading" and "several files, one
fix"): a helper of one module that asks for the roots and is called by tools of other modules
takes the path parameter in its own module's fix; this step then rewrites each calling module so
that its tools take the documented parameter and pass it (``codemods/param/across.py``).

One fix over several files is written for all of them or for none, as the port's project step
does (``codemods/port/project.py``): when a calling module cannot be rewritten (its tool already
has a name the parameter takes, the call is not one the step can bind, the caller is not among
the files being fixed, the result would not verify), no file of the step is written — the helper
keeps its text and its findings, and the run reports why, naming the caller. Each rewrite is
verified like any fix (``pipeline.rewrite_module``: it parses, breaks no name, and a second
``fix`` changes nothing).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from mcpmigrate.codemods.param.across import CallerNeed, caller_edits, params_of, signature_change
from mcpmigrate.codemods.port.project import hold
from mcpmigrate.config import Config
from mcpmigrate.model import FileError
from mcpmigrate.pipeline import FileResult, Options, rewrite_module


def settle(
    results: list[FileResult],
    errors: list[FileError],
    where: dict[str, Path],
    root: Path,
    config: Config,
    options: Options,
    rules: set[str],
    incoming: dict,
    sources: dict[Path, bytes],
    step: Step | None = None,
) -> list[set[str]]:
    """Rewrite the callers of the helpers the run's ``param`` fixes (or ``step``'s fix: the
    ``interim`` one, ``project_answers.STEP``) threaded across modules, or hold every file of the
    step. ``where``: each result's display → absolute path; ``root``: the project root the project
    pass names callers against; ``incoming``: the project pass's slices (absolute path →
    ``Incoming``); ``sources``: the bytes the run read (absolute path → bytes). Returns the
    displays of the files rewritten together (written all or none: ``writes.apply``'s
    ``together``)."""
    step = step or Step(_collect, partial(_param_edits, config), _callers, _WHAT)
    helpers, needs, problems = step.collect(results, root)
    if not helpers:
        return []
    return rewrite_or_hold(
        results,
        errors,
        where,
        root,
        helpers,
        needs,
        problems,
        lambda path, caller, group, original, current: rewrite_module(
            path,
            caller.display,
            config,
            options,
            rules,
            current,
            incoming.get(path),
            step.edits_for(group, original, current),
        ),
        step.name,
        step.what,
        sources,
    )


@dataclass(frozen=True)
class Step:
    """What one fix's project step does: ``collect(results, root)`` gives the helper modules its
    fixes changed, what each calling module (absolute path) needs and the problems already found;
    ``edits_for(needs, original, current)`` makes a calling module's edits (``original``: the text
    the run read, ``current``: the text after this run's own fixes of it); ``name(needs)`` names
    the callers and ``what`` says what must reach them (in the error when the step is held)."""

    collect: Callable[[list[FileResult], Path], tuple[list[FileResult], dict[Path, list[Any]], list[str]]]
    edits_for: Callable[[list[Any], bytes, bytes], Callable[[Any], Any]]
    name: Callable[[list[Any]], str]
    what: str


_WHAT = "the path parameter must reach the callers in other modules"


def _callers(group: list[CallerNeed]) -> str:
    return ", ".join(f"`{n.caller}`" for n in group)


def _param_edits(config: Config, group: list[CallerNeed], original: bytes, current: bytes) -> Callable[[Any], Any]:
    """The param step's edits of one calling module, its needs marked ``present`` where this
    run's fix of the caller's own roots request gave it the parameter."""
    return partial(caller_edits, config=config, needs=[_present(n, original, current) for n in group])


def _collect(results: list[FileResult], root: Path) -> tuple[list[FileResult], dict[Path, list[Any]], list[str]]:
    """The param fix's helpers threaded across modules and their callers' needs."""
    helpers: list[FileResult] = []
    needs: dict[Path, list[Any]] = {}
    problems: list[str] = []
    for res in results:
        across = [
            d
            for f in res.fixed
            if f.rule == "MCP101" and f.fix is not None and f.fix.strategy == "param"
            for d in f.project_needs
        ]
        if not across or res.new_source is None or res.original is None:
            continue
        helpers.append(res)
        for d in across:
            change = signature_change(res.original, res.new_source, d["callee"], d["name"])
            if change is None:
                problems.append(f"`{d['callee']}` in {res.display} does not take `{d['name']}` after its fix")
                continue
            need = CallerNeed(d["caller"], d["callee"], res.display, d["name"], d["mode"], *change)
            group = needs.setdefault(Path(os.path.abspath(root / d["path"])), [])
            if need not in group:
                group.append(need)
    return helpers, needs, problems


def rewrite_or_hold(
    results: list[FileResult],
    errors: list[FileError],
    where: dict[str, Path],
    root: Path,
    helpers: list[FileResult],
    needs: dict[Path, list[Any]],
    problems: list[str],
    rewrite: Callable[[Path, FileResult, list[Any], bytes, bytes], tuple[bytes | None, str | None]],
    name: Callable[[list[Any]], str],
    what: str,
    sources: dict[Path, bytes],
) -> list[set[str]]:
    """A project step's end, shared by the fixes that change callers in other modules (this one,
    and ``project_answers``): each calling module of ``needs`` (absolute path -> what its callers
    need) is rewritten by ``rewrite(path, its result, needs, original, current)``; when one cannot
    be (or ``problems`` already says why), every helper module of the step is held — nothing is
    written for it — and gets an error saying ``what`` and why, naming the callers
    (``name(needs)``). Returns the displays of the files rewritten together."""
    by_path = {path: res for res in results if (path := where.get(res.display)) is not None}
    done: list[tuple[FileResult, bytes, bytes]] = []
    for path, group in needs.items():
        caller = by_path.get(path)
        callers = name(group)
        if caller is None or caller.error is not None:
            problems.append(f"{callers} in {_shown(path, root)} is not among the files being fixed")
            continue
        original = caller.original if caller.original is not None else sources.get(path)
        current = caller.new_source if caller.new_source is not None else original
        if original is None or current is None:
            problems.append(f"{caller.display} cannot be read")
            continue
        new, why = rewrite(path, caller, group, original, current)
        if new is None:
            problems.append(f"{callers} in {caller.display}: {why}")
            continue
        done.append((caller, original, new))
    if problems:
        hold(helpers)
        shown = "; ".join(problems)
        for h in helpers:
            errors.append(FileError(h.display, f"fix not applied: {what} ({shown}); nothing was written for it"))
        return []
    for res, original, new in done:
        res.original = original
        res.new_source = new
    return [{h.display for h in helpers} | {res.display for res, _original, _new in done}]


def _present(need: CallerNeed, original: bytes, current: bytes) -> CallerNeed:
    """``need``, marked ``present`` when the caller takes ``need.name`` now but did not in the
    text the run read: this run's fix of the caller's own roots request gave it the parameter."""
    before, now = params_of(original, need.caller), params_of(current, need.caller)
    if now is not None and need.name in now and need.name not in (before or []):
        return replace(need, present=True)
    return need


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)

"""How a ``fix`` run's rewrites reach the disk (README.md, "Fix safety"; docs/architecture.md,
pipeline step 8).

Three promises, kept here for every file a fix rewrites and every dependency file the port
re-pins:

- **Compare before replace**: a file is replaced only while it still holds the bytes the run
  read (:func:`mcpmigrate.files.atomic_write` with ``expected``); an edit saved during the run is
  left alone and the file reported (:data:`mcpmigrate.files.CHANGED`).
- **Stay inside**: a file found by walking a directory is never written through a symlink whose
  target lies outside the paths given and the project root (the configuration's directory); it
  is checked as usual, and named as not fixed. A symlink named on the command line is followed.
- **All or nothing for a port** (``--target-sdk``): every file the port writes is checked
  writable and unchanged before the first write; a write that still fails restores the files
  already written from the bytes the run read (the dependency files are written last). Outside
  a port each file is written on its own: one that cannot be written is reported, the others are
  written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mcpmigrate import files as F
from mcpmigrate.codemods.port.project import TARGET_NAMES, PinChange, hold
from mcpmigrate.config import Config
from mcpmigrate.model import FileError, plural
from mcpmigrate.pipeline import FileResult


@dataclass
class Pending:
    """One file a fix run would replace."""

    path: Path  # as found: a symlink is written through (its target is replaced)
    display: str
    original: bytes  # the bytes the run read
    new: bytes
    result: FileResult | None  # None: a dependency file the port re-pins


def apply(
    results: list[FileResult],
    errors: list[FileError],
    pins: list[PinChange],
    where: dict[str, Path],
    given: list[Path],
    config: Config,
    cwd: Path,
    *,
    write: bool,
    together: list[set[str]] | None = None,
) -> list[PinChange]:
    """Decide which rewrites of a finished fix run reach the disk, and (``write``) write them: the
    ``results`` with a ``new_source`` and the port's ``pins``. ``where`` maps each checked file's display to its path
    as found; ``given`` are the paths named on the command line (absolute). A file that is not
    written keeps its findings unfixed (``new_source`` cleared) and gets an error in ``errors``
    saying why; in a port a single such file holds every file and pin, and its error says that
    nothing was written. ``fix --diff`` (``write`` false) leaves out what would be written outside
    (its preview is what ``fix`` writes); the disk is checked only when writing. ``together``: the
    displays of files one fix rewrote together (``project_threads``: a helper and the tools of
    other modules that now pass it the path): when one of them cannot be written, none is. Returns
    the pins that stand (written, or to show in the diff)."""
    todo = [
        Pending(where[r.display], r.display, r.original, r.new_source, r)
        for r in results
        if r.new_source is not None and r.original is not None
    ]
    todo += [Pending(p.path, F.display_path(p.path, cwd), p.original, p.new, None) for p in pins]
    refused = {}
    for w in todo:
        why = outside(w.path, given, config, cwd, dependency_file=w.result is None)
        if why is not None:
            hint = "" if w.result is None else "; name the link on the command line to fix its target"
            refused[w.display] = why + hint
    port = TARGET_NAMES.get(config.target_sdk or "")
    if port is not None:
        if write and not refused:
            refused = {w.display: why for w in todo if (why := F.write_problem(w.path, w.original))}
        if refused:
            return _hold_port(results, errors, port, refused)
        if write:
            return _write_all(results, errors, pins, todo, port)
        return pins
    for group in together or []:
        _hold_together(todo, group, refused, errors, write)
    for w in todo:
        why = refused.get(w.display)
        if why is None and write:
            try:
                F.atomic_write(w.path, w.new, expected=w.original)
            except OSError as exc:
                why = _write_error(exc)
        if why is not None:
            if w.result is not None:
                hold([w.result])
            errors.append(FileError(w.display, why))
    return pins


def _hold_together(
    todo: list[Pending], group: set[str], refused: dict[str, str], errors: list[FileError], write: bool
) -> None:
    """The files of one fix over several files (``group``) are checked before the first write, as
    a port's are; when one is refused or cannot be written, every file of the group leaves
    ``todo`` with its rewrite held, each refused one named with its reason."""
    members = [w for w in todo if w.display in group]
    problems = {
        w.display: why
        for w in members
        if (why := refused.get(w.display) or (F.write_problem(w.path, w.original) if write else None))
    }
    if not problems:
        return
    for w in members:
        todo.remove(w)
        if w.result is not None:
            hold([w.result])
    others = ", ".join(sorted(group - set(problems)))
    tail = f"; held with it: {others}" if others else ""
    errors.extend(FileError(d, f"{why}{tail}; nothing of this fix was written") for d, why in problems.items())


def outside(path: Path, given: list[Path], config: Config, cwd: Path, *, dependency_file: bool = False) -> str | None:
    """Why nothing is written to ``path`` (as found; ``given``: the paths named on the command
    line, absolute): a symlink found under a given directory whose target resolves outside every
    given path and the project root (the configuration's directory; for a ``dependency_file``,
    its own directory too) — the reason names the path it was found under and the target. ``None``
    for a file named on the command line, or one whose target stays in."""
    here = Path(os.path.abspath(path))
    inside = [Path(os.path.realpath(config.root))] if config.source is not None else []
    if dependency_file:
        inside.append(here.parent)
    elif here in given:
        return None
    real = Path(os.path.realpath(here))
    if real == here:  # no symlink on the way
        return None
    homes = [*(Path(os.path.realpath(g)) for g in given), *inside]
    if any(real == home or home in real.parents for home in homes):
        return None
    under = next((g for g in given if g in here.parents), here.parent)
    return f"not rewritten: symlink to a file outside {F.display_path(under, cwd)} ({F.display_path(real, cwd)})"


def _write_all(
    results: list[FileResult], errors: list[FileError], pins: list[PinChange], todo: list[Pending], port: str
) -> list[PinChange]:
    """Write every file of a port, the dependency files last; on a failure, put back the files
    already written and hold the whole run. Interrupted (Ctrl-C) between two writes, the files
    already written are put back before the interruption goes on."""
    done: list[Pending] = []
    for w in sorted(todo, key=lambda w: w.result is None):
        try:
            F.atomic_write(w.path, w.new, expected=w.original)
        except OSError as exc:
            lost = _restore(done)
            if lost:
                half = "the port is half written (restore the files whose restore failed from version control)"
                why = f"{_write_error(exc)}; {half}"
            else:
                restored = (
                    f" ({plural(len(done), 'file')} already written {'was' if len(done) == 1 else 'were'} restored)"
                    if done
                    else ""
                )
                why = f"{_write_error(exc)}; nothing was written{restored}"
            _hold_port(results, errors, port, {w.display: why}, said=True)
            errors.extend(lost)
            return []
        except BaseException:
            _restore(done)
            raise
        done.append(w)
    return pins


def _restore(done: list[Pending]) -> list[FileError]:
    """Put back the bytes the run read into the files of ``done`` (last written first), each only
    while it still holds the port's text; the files that could not be put back, with the reason."""
    lost = []
    for d in reversed(done):
        try:
            F.atomic_write(d.path, d.original, expected=d.new)
        except OSError as undo:
            lost.append(FileError(d.display, f"holds the port's rewrite: restoring it failed: {_write_error(undo)}"))
    return lost


def _hold_port(
    results: list[FileResult], errors: list[FileError], port: str, refused: dict[str, str], said: bool = False
) -> list[PinChange]:
    """Nothing of the port is written: every rewrite is held, no pin changes (returned: none), and
    each file in ``refused`` is named with its reason."""
    hold(results)
    tail = "" if said else "; nothing was written"
    errors.extend(FileError(display, f"blocks the port to {port}: {why}{tail}") for display, why in refused.items())
    return []


def _write_error(exc: OSError) -> str:
    if isinstance(exc, F.ChangedOnDisk):
        return str(exc)
    return f"cannot write the fix: {exc.strerror or exc}"

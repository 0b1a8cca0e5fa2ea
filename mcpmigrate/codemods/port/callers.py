"""The other half of context threading across modules (:mod:`.context`): the calls that other
modules of the project make into a function the port gives the context as a parameter.

A ``server.get_context()`` read in a helper of ``helpers.py`` that ``server.py``'s tools call is
fixed in ``helpers.py`` by its own module's round (the helper takes ``ctx: Context``); each
calling module must then pass its tool's context::

    # server.py                                   # server.py, ported
    @mcp.tool()                                   @mcp.tool()
    def lookup(q: str) -> str:           →        def lookup(q: str, ctx: Context) -> str:
        return tag(q)                                 return tag(q, ctx=ctx)

The reading module's plan decided it could (:func:`.context.outside_callers` read each calling
module from disk and found its function reached only from tools, resource templates and prompts)
and lists the calls on its site, which the finding keeps as plain data
(``ContextRead.project_needs`` → ``Finding.project_needs``). They are written here,
in the port's project step (:func:`.project.settle`), on each calling module's text as the run
left it (ported or not), so that the port writes every module of the fix or none: a calling
module this run does not check, or one whose calls can no longer be found or threaded, blocks the
whole port with an error saying which.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.catalog import load_catalog
from mcpmigrate.codemods.edits import Edits, apply_edits
from mcpmigrate.codemods.port.context import FIX, PassedOn, caller_threading, calls_into
from mcpmigrate.codemods.style import style_for, wrap_long_lines
from mcpmigrate.model import FileError, Finding, FixInfo
from mcpmigrate.positions import code_ranges

RULE = "MCP504"
PASS_FIX = FixInfo(
    FIX.safety,
    FIX.strategy,
    "pass the context of the tool, resource or prompt that reaches this call (mcp 2.x's `MCPServer` injects it "
    "into a `Context` parameter) to the function, which takes it as a parameter now",
)

Row = tuple[str, str, str, str]  # (caller's qualname, callee, callee's parameter, the reading module shown)


class Refused(Exception):
    """A calling module's calls cannot be written as the reading module's plan said."""


def thread(results: list, paths: dict[str, Path], sources: dict[Path, bytes], target: str) -> list[FileError]:
    """Write the calls every fixed ``get_context()`` read of ``results`` needs in other modules
    (each calling module's result gets the rewrite and a fixed MCP504 finding per call), or
    return one error per module that blocks the port (then the caller holds every file)."""
    wanted: dict[str, dict[Row, None]] = {}  # absolute path of the calling module -> its rows
    shown_as: dict[str, str] = {}
    for res in results:
        for f in res.fixed:
            if f.rule != RULE:
                continue
            for d in f.project_needs:
                wanted.setdefault(d["path"], {})[(d["caller"], d["callee"], d["param"], res.display)] = None
                shown_as[d["path"]] = d["shown"]
    if not wanted:
        return []
    by_path = {os.path.abspath(p): d for d, p in paths.items()}
    by_display = {r.display: r for r in results}
    errors: list[FileError] = []
    for path, rows in sorted(wanted.items()):
        res = by_display.get(by_path.get(path, ""))
        if res is None:
            caller, callee, _param, reader = next(iter(rows))
            errors.append(
                FileError(
                    reader,
                    f"blocks the port to {target}: `{callee}` takes the context now and `{caller}` in "
                    f"{shown_as[path]} must pass it, but this run does not check that module: name it too; "
                    "nothing was written",
                )
            )
            continue
        source = res.new_source if res.new_source is not None else sources.get(Path(path))
        try:
            if source is None:
                raise Refused("it could not be read")
            new, found = _write(source, Path(path), res.display, list(rows))
            on_disk = sources.get(Path(path))
            if on_disk is not None and on_disk != source:
                found = _at_disk_positions(on_disk, found, list(rows))
        except Refused as exc:
            errors.append(
                FileError(
                    res.display,
                    f"blocks the port to {target}: the calls into functions that take the context now cannot be "
                    f"given it: {exc}; nothing was written",
                )
            )
            continue
        if res.new_source is None:
            res.original = source
            res.checked = list(res.findings)  # what it keeps when the port is held (project.hold)
        res.new_source = new
        res.fixed = sorted(res.fixed + found, key=lambda f: f.sort_key)
    return errors


def _function(a: ModuleAnalysis, qualname: str) -> FunctionInfo | None:
    return next((g for g in a.functions if g.qualname == qualname), None)


def _calls_into(a: ModuleAnalysis, fn: FunctionInfo, callee: str) -> list[cst.Call]:
    """``fn``'s calls of ``callee`` (the function that takes the context now), in source order."""
    return [c for c in fn.calls if calls_into(a, c, callee)]


def _at_disk_positions(on_disk: bytes, found: list[Finding], rows: list[Row]) -> list[Finding]:
    """``found`` (positions in the text the port rewrote, in ``_write``'s order) at the positions of
    the same calls in the file as it is on disk, which is what a report names (the port's own
    rewrite of the module moved its lines); unchanged where the calls cannot be matched one to one."""
    try:
        module = cst.parse_module(on_disk)
    except cst.ParserSyntaxError:
        return found
    a = ModuleAnalysis.build(module, None, None)
    calls: list[cst.Call] = []
    for caller, callee, _param, _reader in sorted(rows):
        fn = _function(a, caller)
        if fn is None:
            return found
        calls += _calls_into(a, fn, callee)
    if len(calls) != len(found):
        return found
    ranges = code_ranges(module, calls)
    return [
        dataclasses.replace(
            f,
            line=ranges[c].start.line,
            column=ranges[c].start.column + 1,
            end_line=ranges[c].end.line,
            end_column=ranges[c].end.column + 1,
        )
        for f, c in zip(found, calls)
    ]


def _write(source: bytes, path: Path, display: str, rows: list[Row]) -> tuple[bytes, list[Finding]]:
    """The module's text with each row's calls passing the context, and a finding per call."""
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        raise Refused(f"the module does not parse ({exc.message})") from exc
    a = ModuleAnalysis.build(module, None, path)
    edits = Edits()
    reported: list[tuple[cst.Call, str, str]] = []
    for caller, callee, param, reader in sorted(rows):
        fn = _function(a, caller)
        if fn is None:
            raise Refused(f"`{caller}` is not there")
        calls = _calls_into(a, fn, callee)
        if not calls:
            raise Refused(f"`{caller}` no longer calls `{callee}`")
        t = caller_threading(a, fn)
        if isinstance(t, str):
            raise Refused(t)
        PassedOn(fn.node, [(c, param) for c in calls], t).record(edits, a)
        reported += [(c, callee, reader) for c in calls]
    edits.finish()
    style = style_for(path)
    # laid out as the module's own fixes are (a parameter added to a header the param fix exploded)
    new = wrap_long_lines(module, apply_edits(module, edits, style), style).code.encode(module.encoding)
    ranges = code_ranges(module, [c for c, _callee, _reader in reported])
    meta = load_catalog()[RULE]
    found = []
    for call, callee, reader in reported:
        rng = ranges[call]
        found.append(
            Finding(
                rule=RULE,
                name=meta.name,
                severity=meta.severity,
                path=display,
                line=rng.start.line,
                column=rng.start.column + 1,
                end_line=rng.end.line,
                end_column=rng.end.column + 1,
                message=(
                    f"`{callee}` ({reader}) read the context with `get_context()`, which is gone on mcp 2.x's "
                    "`MCPServer`; it takes the context as a parameter now, so this call passes it."
                ),
                fix=PASS_FIX,
            )
        )
    return new, found

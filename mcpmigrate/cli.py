"""Command line: ``mcpmigrate check|fix|verify|rules|explain`` (README.md, "Usage"; ruff's conventions).

Exit codes: 0 clean, 1 findings remain, 2 could not run (bad configuration, bad path, usage).
``verify``: 0 identical, 1 a difference, 2 could not run.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import sys
from pathlib import Path

import click

from mcpmigrate import __version__

FORMATS = ("text", "concise", "json", "sarif", "github", "markdown")
MACHINE_FORMATS = ("json", "sarif", "github")
# A progress bar is shown for runs over this many files (stderr a TTY, not CI, human output).
PROGRESS_MIN_FILES = 300
UNUSED_SUPPRESSION = "unused-suppression"
TARGET_SDKS = ("mcp2", "fastmcp4")  # mcpmigrate.config.TARGET_SDKS (not imported: `--help` stays fast)


def _console(stderr: bool = False):
    from rich.console import Console

    no_color = "NO_COLOR" in os.environ
    return Console(
        stderr=stderr,
        no_color=no_color,
        highlight=False,
        soft_wrap=True,
        force_terminal=None if not no_color else False,
        width=None if sys.stdout.isatty() else 200,
    )


def _split(values: tuple[str, ...]) -> list[str] | None:
    out = [v.strip() for value in values for v in value.split(",") if v.strip()]
    return out or None


def _load(config_path: str | None, legacy_clients: bool | None = None, target_sdk: str | None = None):
    """The configuration; ``--legacy-clients`` / ``--no-legacy-clients`` and ``--target-sdk``
    override its keys."""
    import dataclasses

    from mcpmigrate.config import ConfigError, load_config

    try:
        config = load_config(Path(config_path) if config_path else None)
    except ConfigError as exc:
        _fail(str(exc))
    if legacy_clients is not None:
        config = dataclasses.replace(config, legacy_clients=legacy_clients)
    if target_sdk is not None:
        config = dataclasses.replace(config, target_sdk=target_sdk)
    return config


def _configs(paths, config_path: str | None, legacy_clients: bool | None, target_sdk: str | None):
    """``[(config, paths)]``: with ``--config``, that one for every path; else each path with the
    nearest ``[tool.mcpmigrate]`` above it (:func:`mcpmigrate.config.group_by_config`), the
    command-line overrides applied to each."""
    import dataclasses

    from mcpmigrate.config import ConfigError, group_by_config

    fallback = _load(config_path, legacy_clients, target_sdk)
    given = [p for p in paths if p != "-"] or ["."]
    if config_path:
        _refuse_no_legacy_on_handshake_pins(fallback, list(given), legacy_clients is False)
        return [(fallback, list(given))]
    try:
        groups = group_by_config([Path(p) for p in given], fallback)
    except ConfigError as exc:
        _fail(str(exc))
    out = []
    for config, members in groups:
        if legacy_clients is not None:
            config = dataclasses.replace(config, legacy_clients=legacy_clients)
        if target_sdk is not None:
            config = dataclasses.replace(config, target_sdk=target_sdk)
        out.append((config, [str(m) for m in members]))
    for config, names in out:
        _refuse_no_legacy_on_handshake_pins(config, names, legacy_clients is False)
    return out


def _refuse_no_legacy_on_handshake_pins(config, members: list[str], flag: bool) -> None:
    """``legacy-clients = false`` (or ``--no-legacy-clients``) on a project whose pins allow only
    handshake-era SDKs (mcp 1.x, fastmcp 2.x/3.x) is a usage error: such a server speaks only the
    handshake-era protocol, so every client it has is a legacy client, and removing what they use
    (a roots ``list_changed`` handler, a ``logging/setLevel`` handler) breaks all of them. A port
    (``--target-sdk``) re-pins the project first (``pins.ported``)."""
    if config.legacy_clients:
        return
    from mcpmigrate.pins import ported, project_pins

    for member in members or ["."]:
        found = ported(project_pins(Path(member)), config.target_sdk)
        mcp, fastmcp = found.verdict("mcp"), found.verdict("fastmcp")
        old = mcp if mcp is not None and not mcp.new else None
        if old is None and fastmcp is not None and not fastmcp.new and (mcp is None or not mcp.new):
            old = fastmcp
        if old is not None:
            said = "--no-legacy-clients" if flag else "legacy-clients = false"
            _fail(
                f"{said} refused: the project {old.pin.stated()}, an SDK that serves only handshake-era "
                "(legacy) clients, so every client of this server is a legacy client; port it first "
                "(`--target-sdk mcp2` or `--target-sdk fastmcp4`) or keep serving them"
            )


def _merged(results: list):
    """One run's result from the results of its configuration groups."""
    first = results[0]
    for other in results[1:]:
        first.files_checked += other.files_checked
        first.results.extend(other.results)
        first.errors.extend(other.errors)
        first.pins.extend(other.pins)
    return first


def _show_settings(paths, config_path, legacy_clients, target_sdk) -> None:
    """``--show-settings``: the configuration that applies to each path, as it is resolved."""
    import dataclasses

    out = _console()
    for config, members in _configs(paths, config_path, legacy_clients, target_sdk):
        for member in members:
            out.print(f"Settings for {member}", highlight=False, markup=False)
            source = _shown(config.source.resolve()) if config.source else "(none: defaults)"
            out.print(f"  configuration: {source}", highlight=False, markup=False)
            for f in dataclasses.fields(config):
                if f.name == "source":
                    continue
                value = getattr(config, f.name)
                shown = _shown(value) if isinstance(value, Path) else value
                out.print(f"  {f.name.replace('_', '-')}: {shown}", highlight=False, markup=False)


def _fail(message: str) -> None:
    click.echo(f"mcpmigrate: error: {message}", err=True)
    sys.exit(2)


def _check_paths(paths) -> None:
    """A path given on the command line that does not exist is a usage error (exit 2)."""
    for given in paths:
        if not os.path.lexists(given):
            _fail(f"{given}: no such file or directory")
        if not os.path.exists(given):
            _fail(f"{given}: broken symbolic link or symlink loop")


def _decode(source: bytes) -> str:
    """Source text in its own encoding (PEP 263 cookie or BOM, else UTF-8), for the diff."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return source.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return source.decode("utf-8", errors="replace")


def _stdin_paths(paths, stdin_filename: str | None) -> str | None:
    """The name a source read from stdin is reported as (``-`` among the paths), else None."""
    if "-" not in paths:
        if stdin_filename is not None:
            _fail("--stdin-filename needs `-` as the path (read the source from stdin)")
        return None
    if len(paths) != 1:
        _fail("`-` (read from stdin) cannot be combined with other paths")
    return stdin_filename or "-"


def _from_stdin(name: str, source: bytes, run_one):
    """Run ``run_one(path)`` on ``source`` written to a scratch file, the results reported as
    ``name`` (the editor's buffer is never written back to ``name``). Returns ``(result, text
    after the run)``."""
    import tempfile

    base = Path(name).name if name != "-" else "stdin.py"
    if not base.endswith((".py", ".pyi")):
        base += ".py"
    with tempfile.TemporaryDirectory(prefix="mcpmigrate-stdin-") as tmp:
        scratch = Path(tmp) / base
        scratch.write_bytes(source)
        result = run_one(scratch)
        after = scratch.read_bytes()
    for res in result.results:
        res.display = name
        for f in res.findings + res.fixed:
            f.path = name
    for e in result.errors:
        e.path = name
    return result, after


def _redirected(output_file: str | None):
    """stdout goes to ``output_file`` (UTF-8) while the report is written, when one is given."""
    import contextlib

    if output_file is None:
        return contextlib.nullcontext()
    try:
        # closed by the ExitStack below
        handle = open(output_file, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        _fail(f"{output_file}: cannot write the report: {exc.strerror or exc}")
    stack = contextlib.ExitStack()
    stack.enter_context(handle)
    stack.enter_context(contextlib.redirect_stdout(handle))
    return stack


def _unified_diff(original: bytes, new_source: bytes, display: str) -> str:
    """A ``git apply``/``patch``-able unified diff of one file (``\\ No newline at end of file``
    marks a last line without a newline; a name that is not valid UTF-8 is quoted as git does)."""
    from mcpmigrate.report.paths import diff_path

    out = []
    for line in difflib.unified_diff(
        _decode(original).splitlines(keepends=True),
        _decode(new_source).splitlines(keepends=True),
        diff_path(f"a/{display}"),
        diff_path(f"b/{display}"),
    ):
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is inside it (as files are displayed)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _left_why(f, result, unsafe_fixes: bool, file_failed: bool) -> str:
    """Why ``fix`` left a finding, naming only options ``fix`` accepts: the ``--strategy`` its
    fix needs (only ``param`` or ``interim``; removals, stdlib logging and subscriptions apply
    under every strategy), ``--unsafe-fixes``, or that the fix was not applied (the file's
    error says why) or needs a human."""
    if f.fix is None:
        return f"manual: {f.manual}" if f.manual else "manual"
    unsafe = f.fix.safety.value == "unsafe" and not unsafe_fixes
    if not result.applies(f.fix.strategy):
        return f"fix with --strategy {f.fix.strategy}{' --unsafe-fixes' if unsafe else ''}: {f.fix.description}"
    if unsafe:
        return f"needs --unsafe-fixes: {f.fix.description}"
    return "fix not applied (see the error for this file)" if file_failed else "fix not applied"


def _why_left(result, unsafe_fixes: bool):
    """``finding -> str``: :func:`_left_why` for the findings of ``result`` (which files failed,
    computed once)."""
    failed = {e.path for e in result.errors}
    return lambda f: _left_why(f, result, unsafe_fixes, f.path in failed)


def _relock_note(declared: Path) -> str:
    """What still locks the old SDK after the port re-pins ``declared`` (the lockfile is read
    before the pins, so a later `fix --strategy interim` would still see mcp 1.x)."""
    from mcpmigrate.lockfiles import NAMES, find

    found = find(Path(declared).parent, 3)
    if found is None:
        return ""
    tools = {"uv.lock": "uv lock", "poetry.lock": "poetry lock", "pdm.lock": "pdm lock"}
    # every lockfile beside the one read (a project with both uv.lock and poetry.lock: telegram-mcp)
    locks = [found[0], *(found[0].parent / n for n in NAMES if n != found[0].name and (found[0].parent / n).is_file())]
    shown = " and ".join(_shown(lock) for lock in locks)
    run = " and ".join(f"`{tools[lock.name]}`" for lock in locks)
    verb = "still lock" if len(locks) > 1 else "still locks"
    return f"; {shown} {verb} the old version: run {run} before installing"


def _exit_code(result) -> int:
    """1 when findings remain or a file could not be read, decoded, parsed or written (it was
    not checked, so the run is not clean); 0 otherwise."""
    return 1 if (result.findings or result.errors) else 0


def _selection(config, select, ignore, extend_select):
    """``(select, ignore, unused-suppression check on?)`` from the command line and the config.
    ``--extend-select`` adds rule ids to the selection (``--select`` or the config's, else
    every rule) and turns on the ``unused-suppression`` check."""
    sel, ign = _split(select), _split(ignore)
    extra = (_split(extend_select) or []) + list(config.extend_select)
    unused = any(e.lower() == UNUSED_SUPPRESSION for e in extra)
    ext_ids = [e for e in extra if e.lower() != UNUSED_SUPPRESSION]
    if ext_ids:
        sel = (sel or config.select or ["ALL"]) + ext_ids
    _validate_selectors(sel, ign)
    return sel, ign, unused


def _progress_callback(output_format: str):
    """A rich progress bar on stderr for long runs; None (silent) when stderr is not a terminal,
    under CI, or when the output is machine-readable."""
    if output_format in MACHINE_FORMATS or not sys.stderr.isatty() or os.environ.get("CI"):
        return None, None
    state: dict = {}

    def update(done: int, total: int) -> None:
        if total < PROGRESS_MIN_FILES:
            return
        if "bar" not in state:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            bar = Progress(
                TextColumn("checking"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=_console(stderr=True),
                transient=True,
            )
            bar.start()
            state["bar"], state["task"] = bar, bar.add_task("files", total=total)
        state["bar"].update(state["task"], completed=done, total=total)

    def stop() -> None:
        if "bar" in state:
            state["bar"].stop()

    return update, stop


def _unused_as_findings(result) -> None:
    """``--extend-select unused-suppression``: each unused or unknown suppression becomes a
    finding (rule ``unused-suppression``), so it is reported in every format and fails the run."""
    from mcpmigrate.catalog import load_catalog
    from mcpmigrate.model import Finding, Severity
    from mcpmigrate.suppress import marker_span

    catalog = load_catalog()
    texts: dict[str, list[str]] = {}
    for res in result.results:
        for line, rid in res.unused_suppressions:
            if res.display not in texts:
                try:
                    texts[res.display] = _decode(Path(res.display).read_bytes()).splitlines()
                except OSError:
                    texts[res.display] = []
            lines = texts[res.display]
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            span = marker_span(text) or (1, len(text) + 1)
            if rid == "*":
                msg = "Unused suppression `# mcpmigrate: ignore`: nothing is reported on this line; remove the comment."
            elif rid in catalog:
                msg = f"Unused suppression of {rid}: {rid} is not reported on this line; remove it from the comment."
            else:
                msg = f"Unknown rule id {rid} in a suppression comment (see `mcpmigrate rules`); fix or remove it."
            res.findings.append(
                Finding(
                    rule=UNUSED_SUPPRESSION,
                    name=UNUSED_SUPPRESSION,
                    severity=Severity.ADVISORY,
                    path=res.display,
                    line=line,
                    column=span[0],
                    end_line=line,
                    end_column=max(span[1], span[0] + 1),
                    message=msg,
                )
            )
        res.findings.sort(key=lambda f: f.sort_key)


def _apply_baseline(result, baseline_path: str) -> int:
    """Hide the findings recorded in a baseline (a JSON report of an earlier run). A finding
    matches by path, rule and message, not by line, so edits elsewhere in the file keep it
    matched; each baseline entry hides one finding. Returns how many were hidden."""
    import json
    from collections import Counter

    from mcpmigrate.report.paths import shown_path

    try:
        doc = json.loads(Path(baseline_path).read_text(encoding="utf-8"))
        entries = doc["findings"]
        known = Counter((e["path"], e["rule"], e["message"]) for e in entries)
    except OSError as exc:
        _fail(f"{baseline_path}: cannot read the baseline: {exc.strerror or exc}")
    except (ValueError, KeyError, TypeError) as exc:
        _fail(
            f"{baseline_path}: not a baseline (expected the output of `mcpmigrate check --output-format json`): {exc}"
        )
    hidden = 0
    for res in result.results:
        kept = []
        for f in res.findings:
            key = (shown_path(f.path), f.rule, f.message)  # as the JSON report wrote it
            if known[key] > 0:
                known[key] -= 1
                hidden += 1
            else:
                kept.append(f)
        res.findings = kept
    return hidden


def _add_noqa(result, paths, config) -> None:
    """``--add-noqa``: a ``# mcpmigrate: ignore[ID]`` comment on every current finding (never
    through a symlink to a file outside ``paths``: :func:`mcpmigrate.writes.outside`)."""
    from mcpmigrate.files import atomic_write
    from mcpmigrate.model import FileError, plural
    from mcpmigrate.report.paths import shown_path
    from mcpmigrate.suppress import add_suppressions
    from mcpmigrate.writes import outside

    added = files = 0
    err = _console(stderr=True)
    given = [Path(os.path.abspath(p)) for p in paths or ["."]]
    for res in result.results:
        if not res.findings:
            continue
        path = Path(res.display)
        why = outside(path, given, config, Path.cwd())
        if why is not None:
            result.errors.append(FileError(res.display, f"suppressions not added: {why}"))
            continue
        requests: list[tuple[str, tuple[int, ...]]] = [
            (f.rule, (f.line, f.end_line) if f.end_line != f.line else (f.line,))
            for f in res.findings
            if f.rule != UNUSED_SUPPRESSION
        ]
        source = path.read_bytes()
        new, changed, skipped = add_suppressions(source, requests)
        for rid, line in skipped:
            err.print(
                f"warning: {shown_path(res.display)}:{line}: no place for `# mcpmigrate: ignore[{rid}]` "
                f"(the line ends inside a string or a continuation); add it by hand",
                markup=False,
                highlight=False,
            )
        if changed:
            try:
                compile(new, res.display, "exec", dont_inherit=True)
                atomic_write(path, new)
            except (SyntaxError, ValueError, OSError) as exc:
                err.print(
                    f"error: {shown_path(res.display)}: suppressions not added: {exc}", markup=False, highlight=False
                )
                continue
            added += changed
            files += 1
    _console().print(
        f"Added {added} suppression comment{'s' if added != 1 else ''} in {plural(files, 'file')}.", highlight=False
    )


def _common(f):
    f = click.option(
        "--extend-select",
        multiple=True,
        help="Rule ids or prefixes to enable in addition to the selection; "
        "`unused-suppression` reports unused or unknown suppression comments as findings.",
    )(f)
    f = click.option(
        "--force-exclude", is_flag=True, help="Apply `exclude` to paths named on the command line too (for pre-commit)."
    )(f)
    f = click.option(
        "--select", multiple=True, help="Rule ids or prefixes to enable (comma-separated), e.g. MCP1,MCP201."
    )(f)
    f = click.option("--ignore", multiple=True, help="Rule ids or prefixes to disable (comma-separated).")(f)
    f = click.option(
        "--config",
        "config_path",
        type=click.Path(dir_okay=False),
        help="Path to a pyproject.toml (default: the nearest one with [tool.mcpmigrate]).",
    )(f)
    f = click.option(
        "--output-format",
        type=click.Choice(FORMATS),
        default="text",
        show_default=True,
        help="text (grouped, with the source line), concise (one line per finding), json, "
        "sarif (SARIF 2.1.0, for code scanning), github (Actions annotations), markdown (a report for "
        "a pull request; appended to $GITHUB_STEP_SUMMARY when it is set).",
    )(f)
    f = click.option("--statistics", is_flag=True, help="Print counts per rule (on stderr for json/sarif/github).")(f)
    f = click.option(
        "--legacy-clients/--no-legacy-clients",
        "legacy_clients",
        default=None,
        help="Whether the project still serves legacy (handshake-era) clients (default: the "
        "`legacy-clients` config key, else yes). With --no-legacy-clients, what only they use "
        "(a logging/setLevel handler, a roots list_changed handler, elicitation/complete) is "
        "offered for removal; refused on a project pinned to mcp 1.x or fastmcp 2.x/3.x, whose "
        "clients are all legacy clients.",
    )(f)
    f = click.option(
        "--target-sdk",
        type=click.Choice(TARGET_SDKS),
        default=None,
        help="Port the project to this SDK generation (default: the `target-sdk` config key, else no "
        "port): turns on its port rules (mcp2: MCP50x, fastmcp4: MCP51x); `fix` ports every file of the "
        "project or none.",
    )(f)
    f = click.option(
        "--exit-zero", is_flag=True, help="Exit 0 even when findings remain (2 still means the run failed)."
    )(f)
    f = click.option(
        "--output-file",
        type=click.Path(dir_okay=False),
        default=None,
        help="Write the report to this file instead of stdout.",
    )(f)
    f = click.option(
        "--stdin-filename",
        default=None,
        help="With `-` as the path: read the source from stdin and report it as this path "
        "(`fix` writes the fixed source to stdout, the report to stderr).",
    )(f)
    f = click.option("-q", "--quiet", is_flag=True, help="Print the findings only, without summaries.")(f)
    f = click.argument("paths", nargs=-1, type=click.Path(allow_dash=True))(f)
    return f


def _cache_options(f):
    """``--no-cache`` and ``--cache-dir`` (README.md, "The result cache"), on ``check`` and ``fix``."""
    f = click.option(
        "--cache-dir",
        type=click.Path(file_okay=False),
        envvar="MCPMIGRATE_CACHE_DIR",
        help="Where to keep the result cache [env: MCPMIGRATE_CACHE_DIR] (default: .mcpmigrate_cache at the "
        "project root; outside every project, the user's cache directory).",
    )(f)
    return click.option("--no-cache", is_flag=True, help="Do not read or write the result cache.")(f)


def _validate_selectors(select, ignore):
    from mcpmigrate.catalog import select_rules

    try:
        select_rules(select, ignore)
    except ValueError as exc:
        _fail(str(exc))


def _report(
    result,
    output_format: str,
    statistics: bool,
    fixed: bool = False,
    unused_as_findings: bool = False,
    baselined: int | None = None,
    quiet: bool = False,
    texts: dict[str, bytes] | None = None,
    why=None,
) -> None:
    """The report of a run on stdout (``texts``: the source of a file read from stdin, by its
    shown name; ``quiet``: the findings without the summary; ``why(finding)``: why ``fix`` left it,
    for the markdown report)."""
    from mcpmigrate.report import text

    err = _console(stderr=True)
    if output_format == "markdown":
        from mcpmigrate.report.markdown import render as render_markdown

        _emit_markdown(render_markdown(result, "fix" if fixed else "check", fixed=fixed, why=why))
        text.render_errors(err, result)
        return
    if output_format in MACHINE_FORMATS:
        if output_format == "json":
            from mcpmigrate.report.jsonfmt import render

            click.echo(render(result, fixed=fixed, baselined=baselined))
        elif output_format == "sarif":
            from mcpmigrate.report.sarif import render as render_sarif

            click.echo(render_sarif(result))
        else:
            from mcpmigrate.report.github import render as render_github

            out = render_github(result)
            if out:
                click.echo(out)
        if statistics:
            text.render_statistics(err, result)
        return
    out = _console()
    if output_format == "concise":
        text.render_concise(out, result)
    else:
        sources: dict[str, list[str]] = {}
        for f in result.findings:
            if f.path not in sources:
                try:
                    raw = (texts or {}).get(f.path)
                    sources[f.path] = _decode(raw if raw is not None else Path(f.path).read_bytes()).splitlines()
                except OSError:
                    sources[f.path] = []
        text.render_findings(out, result, sources)
    if statistics:
        text.render_statistics(out, result)
    if not unused_as_findings:
        text.render_unused_suppressions(err, result)
    text.render_errors(err, result)
    if output_format == "text" and not quiet:
        text.render_summary(out, result, baselined=baselined)


def _emit_markdown(report: str) -> None:
    """Print a Markdown report, and append it to the GitHub Actions job summary when the job has
    one (``GITHUB_STEP_SUMMARY``, docs.github.com "Adding a job summary")."""
    click.echo(report, nl=not report.endswith("\n"))
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with open(summary, "a", encoding="utf-8") as handle:
                handle.write(report if report.endswith("\n") else report + "\n")
        except OSError as exc:
            click.echo(f"mcpmigrate: warning: cannot append to GITHUB_STEP_SUMMARY ({summary}): {exc}", err=True)


def _execute(paths, config, options, output_format, unused_as_findings, quiet: bool = False):
    update, stop = _progress_callback(output_format) if not quiet else (None, None)
    from mcpmigrate.engine import run

    _check_paths(paths)
    try:
        result = run([Path(p) for p in paths] or [Path(".")], config, options, progress=update)
    except ValueError as exc:  # unknown --select ids
        _fail(str(exc))
    finally:
        if stop is not None:
            stop()
    if unused_as_findings:
        _unused_as_findings(result)
    return result


_strategy_option = click.option(
    "--strategy",
    type=click.Choice(["param", "interim", "config"]),
    default=None,
    help="How roots (and sampling/elicitation) requests are rewritten (default: config, else param).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mcpmigrate")
def main() -> None:
    """Find and rewrite what breaks in a Python MCP server on protocol revision 2026-07-28."""


@main.command()
@_common
@_strategy_option
@_cache_options
@click.option(
    "--add-noqa",
    is_flag=True,
    help="Add a `# mcpmigrate: ignore[ID]` comment on every current finding (adopting on a legacy codebase).",
)
@click.option(
    "--baseline",
    "baseline_path",
    type=click.Path(dir_okay=False),
    help="Hide the findings recorded in this file (the JSON report of an earlier run); report only new ones.",
)
@click.option(
    "--show-settings",
    is_flag=True,
    help="Print the configuration that applies to each path (the nearest [tool.mcpmigrate] above it), then exit.",
)
def check(
    paths,
    select,
    ignore,
    extend_select,
    force_exclude,
    config_path,
    output_format,
    statistics,
    legacy_clients,
    target_sdk,
    exit_zero,
    output_file,
    stdin_filename,
    quiet,
    strategy,
    no_cache,
    cache_dir,
    add_noqa,
    baseline_path,
    show_settings,
):
    """Report findings. Exit 1 when any remain, 2 when the run could not happen. With
    ``--strategy``, each finding's fix is the one ``fix --strategy`` would apply."""
    import dataclasses

    from mcpmigrate.engine import Options

    if show_settings:
        _show_settings(paths, config_path, legacy_clients, target_sdk)
        sys.exit(0)
    stdin_name = _stdin_paths(paths, stdin_filename)
    groups = _configs([stdin_name] if stdin_name else paths, config_path, legacy_clients, target_sdk)
    texts: dict[str, bytes] = {}
    runs = []
    for config, members in groups:
        if strategy:
            config = dataclasses.replace(config, strategy=strategy, strategy_chosen=True)
        sel, ign, unused = _selection(config, select, ignore, extend_select)
        options = Options(
            mode="check",
            strategy=config.strategy,
            select=sel,
            ignore=ign,
            force_exclude=force_exclude,
            no_cache=bool(no_cache or stdin_name),  # a buffer read from stdin is not a file to cache
            cache_dir=Path(cache_dir) if cache_dir else None,
        )
        if stdin_name is not None:
            if add_noqa:
                _fail("--add-noqa cannot write to stdin")
            source = sys.stdin.buffer.read()
            texts[stdin_name] = source
            run_result, _ = _from_stdin(
                stdin_name,
                source,
                lambda p, c=config, o=options, u=unused: _execute([str(p)], c, o, output_format, u, quiet),
            )
        else:
            run_result = _execute(members, config, options, output_format, unused and not add_noqa, quiet)
        runs.append(run_result)
    result = _merged(runs)
    if add_noqa:
        _add_noqa(result, paths, config)
        from mcpmigrate.report import text

        text.render_errors(_console(stderr=True), result)
        sys.exit(1 if result.errors else 0)
    baselined = _apply_baseline(result, baseline_path) if baseline_path else None
    with _redirected(output_file):
        _report(
            result, output_format, statistics, unused_as_findings=unused, baselined=baselined, quiet=quiet, texts=texts
        )
        if output_format == "text" and not quiet:
            _port_blocked_note(result, config)
    sys.exit(_finish(result, exit_zero))


def _finish(result, exit_zero: bool) -> int:
    """The exit code: :func:`_exit_code`, 0 under ``--exit-zero``."""
    return 0 if exit_zero else _exit_code(result)


def _port_blocked_note(result, config) -> None:
    """``check --target-sdk``: the port is all or nothing, so when a file blocks it the findings
    counted as fixable are not fixed by ``fix`` (it writes nothing); say so, and by what."""
    if not config.target_sdk:
        return
    from mcpmigrate.codemods.port.project import TARGET_NAMES, blockers
    from mcpmigrate.model import plural
    from mcpmigrate.report.paths import shown_path

    fixable = [f for f in result.findings if f.fix is not None and result.applies(f.fix.strategy)]
    import copy

    # what `fix` would leave: the findings without a fix it applies (a manual site)
    left = []
    for res in result.results:
        res = copy.copy(res)
        res.findings = [f for f in res.findings if f.fix is None or not result.applies(f.fix.strategy)]
        left.append(res)
    blocking = blockers(left, [], config.target_sdk)
    if not fixable or not blocking:
        return
    out = _console()
    name = TARGET_NAMES[config.target_sdk]
    out.print(
        f"The port to {name} is blocked, so `mcpmigrate fix` fixes none of the {plural(len(fixable), 'finding')} "
        "counted as fixable (a port writes every file or none) until a human resolves:",
        highlight=False,
        markup=False,
    )
    for e in blocking:
        why = e.message.removesuffix("; nothing was written")
        out.print(f"  {shown_path(e.path)}: {why}", highlight=False, markup=False)


def _left_lines(console, result, unsafe_fixes: bool, changed_note: bool) -> None:
    """What ``fix`` left and why, one line per finding (no fix hint for a fix it did not apply)."""
    from mcpmigrate.report.paths import shown_path

    changed = {r.display for r in result.changed}
    why_left = _why_left(result, unsafe_fixes)
    for f in result.findings:
        why = why_left(f)
        where = " (in the fixed file)" if changed_note and f.path in changed else ""  # the diff moves lines
        console.print(
            f"left   {shown_path(f.path)}:{f.line}:{f.column}{where} {f.rule} {f.name}: {why}",
            highlight=False,
            markup=False,
        )


@main.command()
@_common
@click.option("--diff", is_flag=True, help="Print the changes as a unified diff; write nothing.")
@_strategy_option
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that need a review.")
@_cache_options
def fix(
    paths,
    select,
    ignore,
    extend_select,
    force_exclude,
    config_path,
    output_format,
    statistics,
    legacy_clients,
    target_sdk,
    exit_zero,
    output_file,
    stdin_filename,
    quiet,
    diff,
    strategy,
    unsafe_fixes,
    no_cache,
    cache_dir,
):
    """Rewrite the code in place; report what was changed and what is left for a human."""
    import dataclasses

    from mcpmigrate.engine import Options

    stdin_name = _stdin_paths(paths, stdin_filename)
    groups = _configs([stdin_name] if stdin_name else paths, config_path, legacy_clients, target_sdk)
    runs = []
    for config, members in groups:
        if strategy:
            config = dataclasses.replace(config, strategy=strategy, strategy_chosen=True)
        sel, ign, unused = _selection(config, select, ignore, extend_select)
        options = Options(
            mode="fix",
            strategy=config.strategy,
            unsafe_fixes=unsafe_fixes,
            diff=diff,
            select=sel,
            ignore=ign,
            force_exclude=force_exclude,
            no_cache=bool(no_cache or stdin_name),
            cache_dir=Path(cache_dir) if cache_dir else None,
            # the buffer is fixed in a scratch file: it keeps the style of the file it stands for
            style_path=Path(stdin_name) if stdin_name not in (None, "-") else None,
        )
        if stdin_name is None:
            runs.append(_execute(members, config, options, output_format, unused, quiet))
    if stdin_name is not None:
        source = sys.stdin.buffer.read()
        result, after = _from_stdin(
            stdin_name, source, lambda p: _execute([str(p)], config, options, output_format, unused, quiet)
        )
        for res in result.results:  # the diff and the report name the buffer
            if res.new_source is not None and not diff:
                res.new_source = after
        if not diff:
            # the fixed source on stdout (as ruff does), the report on stderr
            sys.stdout.buffer.write(after)
            sys.stdout.flush()
            with _redirected(output_file) if output_file else contextlib.redirect_stdout(sys.stderr):
                _fix_report(result, output_format, statistics, unused, unsafe_fixes, quiet, {stdin_name: source})
            sys.exit(_finish(result, exit_zero))
    else:
        result = _merged(runs)
    with _redirected(output_file):
        if diff:
            _diff_report(result, output_format, unsafe_fixes, quiet)
            sys.exit(0 if exit_zero else 1 if (result.fixed or _exit_code(result)) else 0)
        _fix_report(result, output_format, statistics, unused, unsafe_fixes, quiet)
    sys.exit(_finish(result, exit_zero))


def _diff_report(result, output_format: str, unsafe_fixes: bool, quiet: bool) -> None:
    """``fix --diff``: the patch on stdout (inside the JSON document for ``json``), what it would
    leave and why on stderr."""
    from mcpmigrate.model import plural

    patch = "".join(
        _unified_diff(res.original, res.new_source, res.display)
        for res in sorted(result.changed, key=lambda r: r.display)
    ) + "".join(_unified_diff(pin.original, pin.new, _shown(pin.path)) for pin in result.pins)
    if output_format == "markdown":
        from mcpmigrate.report.markdown import render as render_markdown

        report = render_markdown(
            result,
            "fix --diff",
            fixed=True,
            why=_why_left(result, unsafe_fixes),
            preview=True,
        )
        _emit_markdown(
            report + (f"\n<details><summary>diff</summary>\n\n```diff\n{patch}```\n\n</details>\n" if patch else "")
        )
        return
    if output_format == "json":
        # one JSON document on stdout: the diff goes inside it
        from mcpmigrate.report.jsonfmt import render

        click.echo(render(result, fixed=True, diff=patch))
        return
    sys.stdout.write(patch)
    sys.stdout.flush()
    err = _console(stderr=True)
    from mcpmigrate.report import text

    _left_lines(err, result, unsafe_fixes, changed_note=True)
    if not quiet:
        err.print(
            f"Would fix {plural(len(result.fixed), 'finding')} in {plural(len(result.changed), 'file')}; "
            f"{len(result.findings)} would remain.",
            highlight=False,
        )
    text.render_errors(err, result)


def _fix_report(result, output_format, statistics, unused, unsafe_fixes, quiet, texts=None) -> None:
    """``fix``'s report: each fix and re-pin, then only what is left and why, and a summary
    (``text``); the findings left in the other formats."""
    from mcpmigrate.model import plural
    from mcpmigrate.report.paths import shown_path

    if output_format not in ("text", "concise"):
        _report(
            result,
            output_format,
            statistics,
            fixed=True,
            unused_as_findings=unused,
            quiet=quiet,
            texts=texts,
            why=_why_left(result, unsafe_fixes),
        )
        return
    out = _console()
    for f in result.fixed:
        out.print(
            f"fixed  {shown_path(f.path)}:{f.line}:{f.column} {f.rule} {f.name}: {f.fix.description if f.fix else ''}",
            highlight=False,
            markup=False,
        )
    for pin in result.pins:
        # MCP521's cap (codemods.port.cap.CapChange) says why and what to refresh in its own words
        why = getattr(pin, "why", None) or "the port's target"
        note = getattr(pin, "note", None)
        out.print(
            f"pinned {shown_path(_shown(pin.path))}: {pin.requirement} ({why})"
            f"{_relock_note(pin.path) if note is None else note}{pin.hashes}",
            highlight=False,
            markup=False,
        )
    if output_format == "concise":
        if result.fixed and not quiet:
            out.print(
                f"Fixed {plural(len(result.fixed), 'finding')} in {plural(len(result.changed), 'file')}.",
                highlight=False,
            )
        _report(result, output_format, statistics, fixed=True, unused_as_findings=unused, quiet=quiet, texts=texts)
        return
    from mcpmigrate.report import text

    if result.findings and not quiet:
        if result.fixed:
            out.print()
        out.print("Left for a human:", highlight=False)
    _left_lines(out, result, unsafe_fixes, changed_note=False)
    if statistics:
        text.render_statistics(out, result)
    err = _console(stderr=True)
    if not unused:
        text.render_unused_suppressions(err, result)
    text.render_errors(err, result)
    if quiet:
        return
    left = len(result.findings)
    if result.fixed:
        summary = f"Fixed {plural(len(result.fixed), 'finding')} in {plural(len(result.changed), 'file')}"
        out.print(summary + (f"; {left} left (above)." if left else "; nothing left."), highlight=False)
    elif left:
        out.print(f"Nothing was fixed; {plural(left, 'finding')} left (above).", highlight=False)
    elif not result.errors and not result.files_checked:
        out.print("No Python files found under the given paths: nothing was checked.", highlight=False)
    elif not result.errors:
        out.print(f"All checks passed! {plural(result.files_checked, 'file')} checked.", highlight=False)


@main.command()
@click.argument("path", required=False, type=click.Path())
@click.option(
    "--before", default="HEAD", show_default=True, help="The git revision with the code before the migration."
)
@click.option(
    "--before-python",
    help="Interpreter with the before code's dependencies (default: an environment built from its dependency files).",
)
@click.option(
    "--after-python",
    help="Interpreter with the working tree's dependencies (default: an environment built from its dependency files).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Seconds for a server to start and for each request (default: [tool.mcpmigrate.verify] timeout, else 30).",
)
@click.option("--output-format", type=click.Choice(["text", "markdown"]), default="text", show_default=True)
def verify(path, before, before_python, after_python, timeout, output_format):
    """Run the server before and after the migration and compare what clients get.

    The only command that runs your code: the server of the git revision --before (default HEAD)
    and the one of the working tree, each on a legacy and a 2026-07-28 connection; their tool,
    resource, template and prompt listings and the answers to the calls declared in
    [tool.mcpmigrate.verify] are compared. Exit 0 identical, 1 a difference, 2 could not run.
    """
    from mcpmigrate.verify.render import render_markdown, render_text
    from mcpmigrate.verify.run import verify as run_verify

    outcome = run_verify(Path(path or "."), before, before_python, after_python, timeout)
    if output_format == "markdown":
        _emit_markdown(render_markdown(outcome))
    elif outcome.code != 2:
        click.echo(render_text(outcome), nl=False)
    if outcome.code == 2:
        click.echo(f"mcpmigrate: error: could not verify: {outcome.reason}", err=True)
    sys.exit(outcome.code)


def rules_markdown() -> str:
    """The rule table of the README, generated from ``rules/*.toml``."""
    from mcpmigrate.catalog import load_catalog

    def cell(value: str) -> str:
        return " ".join(value.split()).replace("|", "\\|")

    rows = ["| id | name | severity | finds | fix |", "|---|---|---|---|---|"]
    for m in load_catalog().values():
        fix = ", ".join(f"`{s}`" for s in m.fix.get("strategies", [])) or "none"
        rows.append(f"| {m.id} | {m.name} | {m.severity.value} | {cell(m.summary)} | {fix} |")
    return "\n".join(rows) + "\n"


@main.command("rules")
@click.option("--output-format", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules_cmd(output_format):
    """List the rule catalog."""
    from mcpmigrate.catalog import load_catalog

    if output_format == "markdown":
        click.echo(rules_markdown(), nl=False)
        return
    catalog = load_catalog()
    if output_format == "json":
        import json

        click.echo(
            json.dumps(
                [
                    {
                        "id": m.id,
                        "name": m.name,
                        "severity": m.severity.value,
                        "summary": m.summary,
                        "fix": m.fix.get("strategies", []),
                    }
                    for m in catalog.values()
                ],
                indent=2,
            )
        )
        return
    from rich.table import Table

    table = Table("id", "name", "severity", "fix", "summary", box=None, show_lines=False)
    for m in catalog.values():
        table.add_row(m.id, m.name, m.severity.value, ", ".join(m.fix.get("strategies", [])) or "none", m.summary)
    _print_unpadded(table)


def _print_unpadded(renderable) -> None:
    """Print a rich table or Markdown page; into a pipe or file without the spaces rich pads
    each line with to the console's width (a terminal gets rich's own output)."""
    console = _console()
    if sys.stdout.isatty():
        console.print(renderable)
        return
    with console.capture() as captured:
        console.print(renderable)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))
    sys.stdout.flush()


@main.command()
@click.argument("rule_id")
def explain(rule_id):
    """Print one rule's page: what it finds, why, an example, and the fix's safety."""
    from mcpmigrate.catalog import load_catalog

    catalog = load_catalog()
    meta = catalog.get(rule_id.upper())
    if meta is None:
        _fail(f"unknown rule id {rule_id!r} (see `mcpmigrate rules`)")
    from rich.markdown import Markdown

    parts = [f"# {meta.id} {meta.name} ({meta.severity.value})", "", meta.summary, "", "## Why", "", meta.rationale]
    if meta.fix:
        parts += [
            "",
            "## Fix",
            "",
            f"Strategies: {', '.join(meta.fix.get('strategies', [])) or 'none'}; "
            f"safety: {meta.fix.get('safety', 'n/a')}.",
            "",
            meta.fix.get("description", ""),
        ]
    for ex in meta.examples_invalid[:1]:
        parts += ["", "## Example", "", "```python", ex["code"].rstrip(), "```"]
        if ex.get("fixed"):
            flags = (f" --strategy {ex['strategy']}" if ex.get("strategy") else "") + "".join(
                f" {a}" for a in ex.get("args", [])
            )
            parts += ["", f"After `mcpmigrate fix{flags}`:", "", "```python", ex["fixed"].rstrip(), "```"]
    if meta.spec:
        parts += ["", "## References", ""] + [f"- {s}" for s in meta.spec]
    _print_unpadded(Markdown("\n".join(parts)))


if __name__ == "__main__":  # pragma: no cover
    main()

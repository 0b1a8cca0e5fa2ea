"""Command line: ``mcpmigrate check|fix|rules|explain`` (DESIGN §6; ruff's conventions).

Exit codes: 0 clean, 1 findings remain, 2 could not run (bad configuration, bad path, usage).
"""

from __future__ import annotations

import difflib
import os
import sys
from pathlib import Path

import click

from mcpmigrate import __version__

FORMATS = ("text", "concise", "json")


def _console(stderr: bool = False):
    from rich.console import Console

    no_color = "NO_COLOR" in os.environ
    return Console(stderr=stderr, no_color=no_color, highlight=False, soft_wrap=True,
                   force_terminal=None if not no_color else False, width=None if sys.stdout.isatty() else 200)


def _split(values: tuple[str, ...]) -> list[str] | None:
    out = [v.strip() for value in values for v in value.split(",") if v.strip()]
    return out or None


def _load(config_path: str | None):
    from mcpmigrate.config import ConfigError, load_config

    try:
        return load_config(Path(config_path) if config_path else None)
    except ConfigError as exc:
        _fail(str(exc))


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


def _run(paths, config, options):
    from mcpmigrate.engine import run

    _check_paths(paths)
    try:
        return run([Path(p) for p in paths] or [Path(".")], config, options)
    except ValueError as exc:  # unknown --select ids
        _fail(str(exc))


def _decode(source: bytes) -> str:
    """Source text in its own encoding (PEP 263 cookie or BOM, else UTF-8), for the diff."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return source.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return source.decode("utf-8", errors="replace")


def _unified_diff(original: bytes, new_source: bytes, display: str) -> str:
    """A ``git apply``/``patch``-able unified diff of one file (``\\ No newline at end of file``
    marks a last line without a newline)."""
    out = []
    for line in difflib.unified_diff(_decode(original).splitlines(keepends=True),
                                     _decode(new_source).splitlines(keepends=True),
                                     f"a/{display}", f"b/{display}"):
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _exit_code(result) -> int:
    """1 when findings remain or a file could not be read, decoded, parsed or written (it was
    not checked, so the run is not clean); 0 otherwise."""
    return 1 if (result.findings or result.errors) else 0


def _common(f):
    f = click.option("--select", multiple=True, help="Rule ids or prefixes to enable (comma-separated), e.g. MCP1,MCP201.")(f)
    f = click.option("--ignore", multiple=True, help="Rule ids or prefixes to disable (comma-separated).")(f)
    f = click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Path to a pyproject.toml (default: the nearest one with [tool.mcpmigrate]).")(f)
    f = click.option("--output-format", type=click.Choice(FORMATS), default="text", show_default=True)(f)
    f = click.option("--statistics", is_flag=True, help="Print counts per rule.")(f)
    f = click.argument("paths", nargs=-1, type=click.Path())(f)
    return f


def _validate_selectors(select, ignore):
    from mcpmigrate.catalog import select_rules

    try:
        select_rules(select, ignore)
    except ValueError as exc:
        _fail(str(exc))


def _report(result, output_format: str, statistics: bool, fixed: bool = False) -> None:
    if output_format == "json":
        from mcpmigrate.report.jsonfmt import render

        click.echo(render(result, fixed=fixed))
        return
    from mcpmigrate.report import text

    out = _console()
    err = _console(stderr=True)
    if output_format == "concise":
        text.render_concise(out, result)
    else:
        sources: dict[str, list[str]] = {}
        for f in result.findings:
            if f.path not in sources:
                try:
                    sources[f.path] = Path(f.path).read_text(encoding="utf-8", errors="replace").splitlines()
                except OSError:
                    sources[f.path] = []
        text.render_findings(out, result, sources)
    if statistics:
        text.render_statistics(out, result)
    text.render_unused_suppressions(err, result)
    text.render_errors(err, result)
    if output_format == "text":
        text.render_summary(out, result)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mcpmigrate")
def main() -> None:
    """Find and rewrite what breaks in a Python MCP server on protocol revision 2026-07-28."""


@main.command()
@_common
@click.option("--no-cache", is_flag=True, help="Do not read or write the result cache.")
def check(paths, select, ignore, config_path, output_format, statistics, no_cache):
    """Report findings. Exit 1 when any remain, 2 when the run could not happen."""
    from mcpmigrate.engine import Options

    config = _load(config_path)
    sel, ign = _split(select), _split(ignore)
    _validate_selectors(sel, ign)
    result = _run(paths, config, Options(mode="check", select=sel, ignore=ign))
    _report(result, output_format, statistics)
    sys.exit(_exit_code(result))


@main.command()
@_common
@click.option("--diff", is_flag=True, help="Print the changes as a unified diff; write nothing.")
@click.option("--strategy", type=click.Choice(["param", "interim"]), default=None,
              help="How roots (and sampling/elicitation) requests are rewritten (default: config, else param).")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes that need a review.")
def fix(paths, select, ignore, config_path, output_format, statistics, diff, strategy, unsafe_fixes):
    """Rewrite the code in place; report what was changed and what is left for a human."""
    from mcpmigrate.engine import Options

    config = _load(config_path)
    sel, ign = _split(select), _split(ignore)
    _validate_selectors(sel, ign)
    options = Options(mode="fix", strategy=strategy or config.strategy, unsafe_fixes=unsafe_fixes,
                      diff=diff, select=sel, ignore=ign)
    result = _run(paths, config, options)
    if diff:
        patch = "".join(_unified_diff(res.original, res.new_source, res.display)  # type: ignore[arg-type]
                        for res in sorted(result.changed, key=lambda r: r.display))
        if output_format == "json":
            # one JSON document on stdout: the diff goes inside it
            from mcpmigrate.report.jsonfmt import render

            click.echo(render(result, fixed=True, diff=patch))
        else:
            sys.stdout.write(patch)
            sys.stdout.flush()
            err = _console(stderr=True)
            from mcpmigrate.report import text

            n = len(result.fixed)
            err.print(f"Would fix {n} finding{'s' if n != 1 else ''} in {len(result.changed)} file(s); "
                      f"{len(result.findings)} would remain.", highlight=False)
            text.render_errors(err, result)
        sys.exit(1 if (result.fixed or _exit_code(result)) else 0)
    if output_format == "text":
        out = _console()
        for f in result.fixed:
            out.print(f"fixed  {f.path}:{f.line}:{f.column} {f.rule} {f.name}: {f.fix.description if f.fix else ''}", highlight=False, markup=False)
        if result.fixed:
            out.print(f"Fixed {len(result.fixed)} finding(s) in {len(result.changed)} file(s).", highlight=False)
            out.print()
        if result.findings:
            out.print("Left for a human:", highlight=False)
    _report(result, output_format, statistics, fixed=True)
    sys.exit(_exit_code(result))


@main.command("rules")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def rules_cmd(output_format):
    """List the rule catalog."""
    from mcpmigrate.catalog import load_catalog

    catalog = load_catalog()
    if output_format == "json":
        import json

        click.echo(json.dumps([{"id": m.id, "name": m.name, "severity": m.severity.value, "summary": m.summary,
                                "fix": m.fix.get("strategies", [])} for m in catalog.values()], indent=2))
        return
    from rich.table import Table

    table = Table("id", "name", "severity", "fix", "summary", box=None, show_lines=False)
    for m in catalog.values():
        table.add_row(m.id, m.name, m.severity.value, ", ".join(m.fix.get("strategies", [])) or "none", m.summary)
    _console().print(table)


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
        parts += ["", "## Fix", "", f"Strategies: {', '.join(meta.fix.get('strategies', [])) or 'none'}; "
                  f"safety: {meta.fix.get('safety', 'n/a')}.", "", meta.fix.get("description", "")]
    for ex in meta.examples_invalid[:1]:
        parts += ["", "## Example", "", "```python", ex["code"].rstrip(), "```"]
        if ex.get("fixed"):
            parts += ["", f"After `mcpmigrate fix{' --strategy ' + ex['strategy'] if ex.get('strategy') else ''}`:", "", "```python", ex["fixed"].rstrip(), "```"]
    if meta.spec:
        parts += ["", "## References", ""] + [f"- {s}" for s in meta.spec]
    _console().print(Markdown("\n".join(parts)))


if __name__ == "__main__":  # pragma: no cover
    main()

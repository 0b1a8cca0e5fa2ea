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


def _run(paths, config, options):
    from mcpmigrate.engine import run

    try:
        return run([Path(p) for p in paths] or [Path(".")], config, options)
    except ValueError as exc:  # unknown --select ids
        _fail(str(exc))


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
    sys.exit(1 if result.findings else 0)


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
        for res in sorted(result.changed, key=lambda r: r.display):
            old = res.original.decode("utf-8", errors="replace").splitlines(keepends=True)  # type: ignore[union-attr]
            new = res.new_source.decode("utf-8", errors="replace").splitlines(keepends=True)  # type: ignore[union-attr]
            sys.stdout.write("".join(difflib.unified_diff(old, new, f"a/{res.display}", f"b/{res.display}")))
        if output_format == "json":
            _report(result, output_format, statistics, fixed=True)
        else:
            err = _console(stderr=True)
            from mcpmigrate.report import text

            n = len(result.fixed)
            err.print(f"Would fix {n} finding{'s' if n != 1 else ''} in {len(result.changed)} file(s); "
                      f"{len(result.findings)} would remain.", highlight=False)
            text.render_errors(err, result)
        sys.exit(1 if (result.findings or result.fixed) else 0)
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
    sys.exit(1 if result.findings else 0)


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

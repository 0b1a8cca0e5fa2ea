"""Human-readable report with rich: findings grouped by file, each with its rule id and name, a
one-line message, the source line, and the fix hint with its safety."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.markup import escape

from mcpmigrate.model import Finding, RunReport

_SEV_STYLE = {"breaking": "bold red", "deprecated": "yellow", "legacy-only": "blue", "advisory": "cyan"}
SEVERITIES = ("breaking", "deprecated", "legacy-only", "advisory")


def _hint(f: Finding) -> str:
    if f.fix is not None:
        return f"fix ({f.fix.safety.value}, {f.fix.strategy}): {f.fix.description}"
    if f.manual:
        return f"manual: {f.manual}"
    return "manual: no automatic fix"


def render_findings(console: Console, result: RunReport, sources: dict[str, list[str]] | None = None) -> None:
    by_file: dict[str, list[Finding]] = {}
    for f in result.findings:
        by_file.setdefault(f.path, []).append(f)
    for path, items in by_file.items():
        console.print(f"[bold]{escape(path)}[/bold]")
        lines = (sources or {}).get(path)
        for f in items:
            sev = f.severity.value
            console.print(
                f"  {f.line}:{f.column} [{_SEV_STYLE[sev]}]{f.rule}[/] [dim]{f.name}[/dim] ({sev}) {escape(f.message)}",
                highlight=False,
            )
            if lines and 0 < f.line <= len(lines):
                src = lines[f.line - 1].rstrip("\r\n")
                console.print(f"      [dim]│[/dim] {escape(src)}", highlight=False)
                if f.end_line == f.line:
                    width = max(1, f.end_column - f.column)
                else:
                    width = max(1, len(src) - f.column + 1)
                # keep tabs so the caret lines up under the span however tabs are shown
                pad = "".join(c if c == "\t" else " " for c in src[:f.column - 1])
                console.print(f"      [dim]│[/dim] {pad}[{_SEV_STYLE[sev]}]{'^' * width}[/]", highlight=False)
            console.print(f"      [green]{escape(_hint(f))}[/green]", highlight=False)
        console.print()


def render_errors(console: Console, result: RunReport) -> None:
    for e in sorted(result.errors, key=lambda e: e.path):
        console.print(f"[bold red]error[/bold red]: {escape(e.path)}: {escape(e.message)}", highlight=False)


def render_unused_suppressions(console: Console, result: RunReport) -> None:
    from mcpmigrate.catalog import load_catalog

    catalog = load_catalog()
    for path, line, rid in result.unused_suppressions:
        marker = "# mcpmigrate: ignore" if rid == "*" else f"# mcpmigrate: ignore[{rid}]"
        if rid == "*":
            what = "silences nothing on this line"
        elif rid in catalog:
            what = f"{rid} is not reported on this line"
        else:
            what = f"{rid} is not a rule id; see `mcpmigrate rules`"
        console.print(f"warning: {path}:{line}: unused suppression `{marker}` ({what})",
                      highlight=False, markup=False)


def render_summary(console: Console, result: RunReport, baselined: int | None = None) -> None:
    if baselined:
        console.print(f"{baselined} finding{'s' if baselined != 1 else ''} hidden by the baseline.", highlight=False)
    findings = result.findings
    counts = Counter(f.severity.value for f in findings)
    applies = [f for f in findings if f.fix is not None and result.applies(f.fix.strategy)]  # by a plain `fix`
    safe = sum(1 for f in applies if f.fix.safety.value == "safe")  # type: ignore[union-attr]
    unsafe = len(applies) - safe
    elsewhere = Counter(f.fix.strategy for f in findings if f.fix is not None and not result.applies(f.fix.strategy))
    if findings:
        parts = ", ".join(f"{counts[s]} {s}" for s in SEVERITIES if counts[s])
        hint = f"{safe} fixable with `mcpmigrate fix`"
        if unsafe:
            hint += f", {unsafe} more with `mcpmigrate fix --unsafe-fixes` (review them)"
        for strategy, n in sorted(elsewhere.items()):
            hint += f", {n} with `mcpmigrate fix --strategy {strategy}`"
        console.print(
            f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} ({parts}) in "
            f"{len({f.path for f in findings})} file(s); {result.files_checked} file(s) checked. "
            f"{hint}.",
            highlight=False,
        )
    elif result.errors:
        n = len({e.path for e in result.errors})
        console.print(f"No findings, but {n} path(s) could not be checked (see the errors above); "
                      f"{result.files_checked} file(s) checked.", highlight=False)
    else:
        console.print(f"All checks passed! {result.files_checked} file(s) checked.", highlight=False)


def render_statistics(console: Console, result: RunReport) -> None:
    counts = Counter((f.rule, f.name, f.severity.value) for f in result.findings)
    fixable = Counter(f.rule for f in result.findings if f.fix is not None)
    for (rule, name, sev), n in sorted(counts.items()):
        extra = f", {fixable[rule]} fixable" if fixable[rule] else ""
        console.print(f"{n:5d}  {rule}  {name}  ({sev}{extra})", highlight=False, markup=False)


def render_concise(console: Console, result: RunReport) -> None:
    for f in result.findings:
        console.print(f"{f.path}:{f.line}:{f.column}: {f.rule} {f.message}", highlight=False, markup=False, soft_wrap=True)

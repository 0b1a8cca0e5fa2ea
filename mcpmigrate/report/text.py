"""Human-readable report with rich: findings grouped by file, each with its rule id and name,
what was found, the source line, and the fix hint with its safety; why each rule matters is said
once per rule, after the files."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.markup import escape

from mcpmigrate.model import Finding, RunReport, plural
from mcpmigrate.report import fix_label
from mcpmigrate.report.paths import shown_path

_SEV_STYLE = {"breaking": "bold red", "deprecated": "yellow", "legacy-only": "blue", "advisory": "cyan"}
SEVERITIES = ("breaking", "deprecated", "legacy-only", "advisory")


def _hint(f: Finding, applies: bool = True) -> str:
    if f.fix is not None:
        return f"{fix_label(f.fix, applies)}: {f.fix.description}"
    if f.manual:
        return f"manual: {f.manual}"
    return "manual: no automatic fix"


def split_message(message: str) -> tuple[str, str]:
    """``(what, why)``: a finding's message cut after its first clause — what was found where —
    and the rest: why it breaks and what to do, which is the same for every finding of a rule.
    The cut is the first ``". "`` ending a sentence, or an earlier ``"; "`` followed
    by a clause of six words or more, outside backticks and parentheses; ``why`` is empty when
    there is none.

    This is the one place the split rule lives. It is a heuristic on the message's text: the
    detectors do not mark the cut, they write each message to fit it — what and where first (one
    sentence, or a clause ending in ``"; "``), then why and what to do (``docs/adding-a-rule.md``,
    "A detector"; ``detectors.base.Report``). The other formats print the message whole.
    ``tests/test_text_report.py`` splits every message the fixtures and the rule examples produce,
    so a message that no longer fits fails there."""
    depth, code = 0, False
    semicolon = None
    for i, ch in enumerate(message):
        if ch == "`":
            code = not code
        elif code:
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif (
            depth == 0
            and message.startswith(". ", i)
            and i + 2 < len(message)
            and not message[i + 2].isspace()
            and not message[:i].endswith(("e.g", "i.e", "etc", "vs"))
        ):
            if semicolon is not None and len(message[semicolon + 2 : i].split()) >= 6:
                break
            return message[: i + 1], message[i + 2 :]
        elif depth == 0 and semicolon is None and message.startswith("; ", i):
            semicolon = i
    if semicolon is not None and len(message[semicolon + 2 :].split()) >= 6:
        rest = message[semicolon + 2 :]
        return message[:semicolon] + ".", rest[:1].upper() + rest[1:]
    return message, ""


def render_findings(console: Console, result: RunReport, sources: dict[str, list[str]] | None = None) -> None:
    """Findings grouped by file: position, rule, severity and what was found, the source line
    with a caret under the span, and the fix hint. Why a rule's findings matter (the rest of its
    message) is said once, in a list of the rules after the files, as ruff keeps each
    diagnostic to what, where and the fix. A rule's reason is the one most of its findings give
    (the first one's on a tie), so a special case (MCP201's ``sampling_handler=``) does not stand
    for the rule; a reason that differs from its rule's is said once, as a note under the first
    finding that has it."""
    by_file: dict[str, list[Finding]] = {}
    whys: dict[str, Counter[str]] = {}
    for f in result.findings:
        by_file.setdefault(f.path, []).append(f)
        why = split_message(f.message)[1]
        if why:
            whys.setdefault(f.rule, Counter())[why] += 1
    names = {f.rule: f.name for f in result.findings}
    # rule -> (name, its reason); Counter.most_common keeps first-seen order among equal counts
    why_of_rule = {rule: (names[rule], counts.most_common(1)[0][0]) for rule, counts in whys.items()}
    noted: set[tuple[str, str]] = set()  # other whys, said once each under a finding
    for path, items in by_file.items():
        console.print(f"[bold]{escape(shown_path(path))}[/bold]")
        lines = (sources or {}).get(path)
        for f in items:
            sev = f.severity.value
            what, why = split_message(f.message)
            own_why = ""
            if why and why_of_rule[f.rule][1] != why and (f.rule, why) not in noted:
                noted.add((f.rule, why))
                own_why = why
            console.print(
                f"  {f.line}:{f.column} [{_SEV_STYLE[sev]}]{f.rule}[/] [dim]{f.name}[/dim] ({sev}) {escape(what)}",
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
                pad = "".join(c if c == "\t" else " " for c in src[: f.column - 1])
                console.print(f"      [dim]│[/dim] {pad}[{_SEV_STYLE[sev]}]{'^' * width}[/]", highlight=False)
            console.print(
                f"      [green]{escape(_hint(f, f.fix is None or result.applies(f.fix.strategy)))}[/green]",
                highlight=False,
            )
            if own_why:
                console.print(f"      [dim]note: {escape(own_why)}[/dim]", highlight=False)
        console.print()
    for rule, (name, why) in sorted(why_of_rule.items()):
        console.print(
            f"[bold]{rule}[/bold] [dim]{name}[/dim]: {escape(why)} (`mcpmigrate explain {rule}`)", highlight=False
        )
    if why_of_rule:
        console.print()


def render_errors(console: Console, result: RunReport) -> None:
    for e in sorted(result.errors, key=lambda e: e.path):
        console.print(f"[bold red]error[/bold red]: {escape(shown_path(e.path))}: {escape(e.message)}", highlight=False)


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
        console.print(
            f"warning: {shown_path(path)}:{line}: unused suppression `{marker}` ({what})", highlight=False, markup=False
        )


def render_summary(console: Console, result: RunReport, baselined: int | None = None) -> None:
    if baselined:
        console.print(f"{baselined} finding{'s' if baselined != 1 else ''} hidden by the baseline.", highlight=False)
    findings = result.findings
    counts = Counter(f.severity.value for f in findings)
    applies = [f.fix for f in findings if f.fix is not None and result.applies(f.fix.strategy)]  # by a plain `fix`
    safe = sum(1 for fix in applies if fix.safety.value == "safe")
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
            f"Found {plural(len(findings), 'finding')} ({parts}) in "
            f"{plural(len({f.path for f in findings}), 'file')}; {plural(result.files_checked, 'file')} checked. "
            f"{hint}.",
            highlight=False,
        )
    elif result.errors:
        n = len({e.path for e in result.errors})
        console.print(
            f"No findings, but {plural(n, 'path')} could not be checked (see the errors above); "
            f"{plural(result.files_checked, 'file')} checked.",
            highlight=False,
        )
    elif not result.files_checked:
        # a path with no Python in it (a TypeScript server, a typo'd folder) is not a clean server
        console.print("No Python files found under the given paths: nothing was checked.", highlight=False)
    else:
        console.print(f"All checks passed! {plural(result.files_checked, 'file')} checked.", highlight=False)


def render_statistics(console: Console, result: RunReport) -> None:
    counts = Counter((f.rule, f.name, f.severity.value) for f in result.findings)
    fixable = Counter(f.rule for f in result.findings if f.fix is not None)
    for (rule, name, sev), n in sorted(counts.items()):
        extra = f", {fixable[rule]} fixable" if fixable[rule] else ""
        console.print(f"{n:5d}  {rule}  {name}  ({sev}{extra})", highlight=False, markup=False)


def render_concise(console: Console, result: RunReport) -> None:
    for f in result.findings:
        console.print(
            f"{shown_path(f.path)}:{f.line}:{f.column}: {f.rule} {f.message}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )

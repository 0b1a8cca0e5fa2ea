"""Markdown report for a pull request or a GitHub job summary (``--output-format markdown``;
README.md, "Output formats"): what ``fix`` changed, per rule and safety; what a plain ``fix``
would change (``check``); what is left for a human, each with the reason and where to read (the
rule's references, ``mcpmigrate explain``); the files that could not be checked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from mcpmigrate.catalog import load_catalog
from mcpmigrate.model import Finding, RunReport
from mcpmigrate.report import fix_label
from mcpmigrate.report.paths import shown_path
from mcpmigrate.report.text import SEVERITIES, split_message


def cell(text: str) -> str:
    """``text`` as one Markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _where(f: Finding) -> str:
    return f"`{shown_path(f.path)}:{f.line}`"


def _left_why(f: Finding) -> str:
    if f.fix is not None:
        return f"{fix_label(f.fix)}: {f.fix.description}"
    return f"manual: {f.manual}" if f.manual else "manual: " + split_message(f.message)[0]


def render(
    result: RunReport,
    command: str,
    fixed: bool = False,
    why: Callable[[Finding], str] | None = None,
    preview: bool = False,
) -> str:
    """The report of a ``check`` (``fixed`` false) or ``fix`` run (``preview``: ``fix --diff``,
    which writes nothing). ``why`` says why ``fix`` left a finding (the CLI's own wording: the
    option it needs, or the reason a human must act)."""
    done, changed = ("would be fixed", "Would change") if preview else ("fixed", "Changed")
    catalog = load_catalog()
    findings = result.findings
    lines = [f"## mcpmigrate {command}", ""]
    counts = Counter(f.severity.value for f in findings)
    parts = ", ".join(f"{counts[s]} {s}" for s in SEVERITIES if counts[s])
    severities = f" ({parts})" if parts else ""
    if fixed:
        head = (
            f"{result.files_checked} file(s) checked; **{len(result.fixed)} {done}** in {len(result.changed)} file(s); "
            f"**{len(findings)} left**{severities}"
        )
    else:
        head = f"{result.files_checked} file(s) checked; **{len(findings)} finding{'s' if len(findings) != 1 else ''}**{severities}"
    lines += [head + ".", ""]
    if fixed and result.fixed:
        lines += [f"### {done.capitalize()}", "", "| rule | safety | count | what the fix does |", "|---|---|---|---|"]
        groups: dict[tuple[str, str], list[Finding]] = {}
        for f in result.fixed:
            groups.setdefault((f.rule, f.fix.safety.value if f.fix else "?"), []).append(f)
        for (rule, safety), items in sorted(groups.items()):
            descriptions = sorted({f.fix.description for f in items if f.fix})
            shown = "; ".join(descriptions[:3]) + (f"; … {len(descriptions)} kinds" if len(descriptions) > 3 else "")
            lines.append(f"| {rule} {items[0].name} | {safety} | {len(items)} | {cell(shown)} |")
        files = sorted(shown_path(r.display) for r in result.changed)
        lines += ["", f"{changed}: " + ", ".join(f"`{p}`" for p in files), ""]
    fixable = [] if fixed else [f for f in findings if f.fix is not None and result.applies(f.fix.strategy)]
    if fixable:
        lines += [f"### Fixable with `mcpmigrate fix` ({len(fixable)})", ""]
        lines += ["| where | rule | fix |", "|---|---|---|"]
        for f in fixable:
            hint = f"{fix_label(f.fix)}: {f.fix.description}" if f.fix else ""
            lines.append(f"| {_where(f)} | {f.rule} {f.name} | {cell(hint)} |")
        lines.append("")
    left = [f for f in findings if f not in fixable]
    if left:
        lines += [f"### Left for a human ({len(left)})", ""]
        lines += ["| where | rule | severity | what | why it is left | read |", "|---|---|---|---|---|---|"]
        for f in left:
            meta = catalog.get(f.rule)
            refs = "; ".join(meta.spec) if meta and meta.spec else ""
            read = cell(f"{refs}; `mcpmigrate explain {f.rule}`" if refs else f"`mcpmigrate explain {f.rule}`")
            reason = (why or _left_why)(f)
            lines.append(
                f"| {_where(f)} | {f.rule} {f.name} | {f.severity.value} | {cell(split_message(f.message)[0])} "
                f"| {cell(reason)} | {read} |"
            )
        lines.append("")
    if result.errors:
        lines += [f"### Could not be checked ({len(result.errors)})", ""]
        for e in sorted(result.errors, key=lambda e: e.path):
            lines.append(f"- `{shown_path(e.path)}`: {cell(e.message)}")
        lines.append("")
    if not findings and not result.errors:
        lines += ["No findings." if not fixed else "Nothing left to migrate.", ""]
    return "\n".join(lines)

"""``verify``'s report: text for a terminal, Markdown for a pull request (README.md, "Verify the
migration")."""

from __future__ import annotations

from mcpmigrate.verify.compare import render_markdown as diffs_markdown
from mcpmigrate.verify.compare import render_text as diffs_text
from mcpmigrate.verify.run import Outcome


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def summary(outcome: Outcome) -> str:
    """One line: the verdict."""
    if outcome.code == 2:
        return f"Could not verify: {outcome.reason}"
    total = sum(len(e.differences) for e in outcome.eras)
    calls = _count(outcome.calls, "declared call")
    if total == 0:
        return f"Identical in both eras: listings and {calls} ({outcome.seconds:.1f} s)."
    eras = ", ".join(e.name for e in outcome.eras if e.differences)
    return f"Found {_count(total, 'difference')} ({eras}); listings and {calls} compared ({outcome.seconds:.1f} s)."


def render_text(outcome: Outcome) -> str:
    lines = []
    for side in outcome.sides:
        lines.append(
            f"{side.label + ':':8}{side.code} on {side.sdk or 'no SDK found'}, started as {side.started} "
            f"(environment: {side.environment}, {side.python})"
        )
    for line in outcome.log:
        lines.append(f"        {line}")
    for era in outcome.eras:
        head = f"{era.name}: " + ("identical" if not era.differences else _count(len(era.differences), "difference"))
        lines.append(head + (f" ({era.note})" if era.note else ""))
        lines += diffs_text(era.differences)
    lines.append(summary(outcome))
    return "\n".join(lines) + "\n"


def render_markdown(outcome: Outcome) -> str:
    lines = ["## mcpmigrate verify", ""]
    if outcome.sides:
        lines += ["| | code | SDK | started as | environment |", "|---|---|---|---|---|"]
        for side in outcome.sides:
            lines.append(f"| {side.label} | {side.code} | {side.sdk or '—'} | `{side.started}` | {side.environment} |")
        lines.append("")
    for era in outcome.eras:
        state = "identical" if not era.differences else _count(len(era.differences), "difference")
        lines += [f"### {era.name}: {state}", ""]
        if era.note:
            lines += [f"_{era.note}._", ""]
        if era.differences:
            lines += [*diffs_markdown(era.differences), ""]
    lines += [f"**{summary(outcome)}**", ""]
    return "\n".join(lines)

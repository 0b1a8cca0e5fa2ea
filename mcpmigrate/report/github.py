"""GitHub Actions workflow-command annotations: one ``::error``/``::warning``/``::notice`` line per
finding (``breaking`` → error, ``deprecated`` → warning, ``legacy-only`` and ``advisory`` →
notice), shown inline on the pull request's diff. Files that could not be checked are ``::error``
lines too. A file whose name is not valid UTF-8 gets an annotation without ``file=`` (its name,
escaped as in every report, leads the message)."""

from __future__ import annotations

from mcpmigrate.model import Finding, RunReport
from mcpmigrate.report.paths import is_faithful, shown_path

COMMANDS = {"breaking": "error", "deprecated": "warning", "legacy-only": "notice", "advisory": "notice"}


def _data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(value: str) -> str:
    return _data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    props = []
    message = f"{f.rule} {f.message}"
    if is_faithful(f.path):
        props = [f"file={_prop(f.path)}", f"line={f.line}", f"col={f.column}"]
        if f.end_line >= f.line:
            props.append(f"endLine={f.end_line}")
            if f.end_line == f.line:
                props.append(f"endColumn={f.end_column}")
    else:
        # A file name that is not valid UTF-8 cannot be named in a workflow command (GitHub would
        # look for another file): the annotation stays unattached, with the place in its text.
        message = f"{shown_path(f.path)}:{f.line}:{f.column}: {message}"
    props.append(f"title={_prop(f'{f.rule} {f.name}')}")
    if f.fix is not None:
        message += f" (fix, {f.fix.safety.value}: {f.fix.description})"
    elif f.manual:
        message += f" (manual: {f.manual})"
    return f"::{COMMANDS.get(f.severity.value, 'warning')} {','.join(props)}::{_data(message)}"


def render(result: RunReport, findings: list[Finding] | None = None) -> str:
    findings = result.findings if findings is None else findings
    lines = [annotation(f) for f in findings]
    for e in sorted(result.errors, key=lambda e: e.path):
        where = f"file={_prop(e.path)}," if is_faithful(e.path) else ""
        if where and e.line is not None:
            where += f"line={e.line},col={e.column},"
        lines.append(f"::error {where}title=mcpmigrate::{_data(f'{shown_path(e.path)}: {e.message}')}")
    return "\n".join(lines)

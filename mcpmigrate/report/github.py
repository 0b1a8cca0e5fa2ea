"""GitHub Actions workflow-command annotations: one ``::error``/``::warning``/``::notice`` line per
finding (``breaking`` → error, ``deprecated`` → warning, ``legacy-only`` and ``advisory`` → notice), shown inline on
the pull request's diff. Files that could not be checked are ``::error`` lines too."""

from __future__ import annotations

from mcpmigrate.model import Finding, RunReport

COMMANDS = {"breaking": "error", "deprecated": "warning", "legacy-only": "notice", "advisory": "notice"}


def _data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(value: str) -> str:
    return _data(value).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    props = [f"file={_prop(f.path)}", f"line={f.line}", f"col={f.column}"]
    if f.end_line >= f.line:
        props.append(f"endLine={f.end_line}")
        if f.end_line == f.line:
            props.append(f"endColumn={f.end_column}")
    props.append(f"title={_prop(f'{f.rule} {f.name}')}")
    message = f"{f.rule} {f.message}"
    if f.fix is not None:
        message += f" (fix, {f.fix.safety.value}: {f.fix.description})"
    elif f.manual:
        message += f" (manual: {f.manual})"
    return f"::{COMMANDS.get(f.severity.value, 'warning')} {','.join(props)}::{_data(message)}"


def render(result: RunReport, findings: list[Finding] | None = None) -> str:
    findings = result.findings if findings is None else findings
    lines = [annotation(f) for f in findings]
    for e in sorted(result.errors, key=lambda e: e.path):
        lines.append(f"::error file={_prop(e.path)},title=mcpmigrate::{_data(f'{e.path}: {e.message}')}")
    return "\n".join(lines)

"""SARIF 2.1.0 report, for GitHub code scanning and other SARIF consumers.

Rule metadata (name, summary, rationale, fix description, spec references) comes from
``rules/*.toml``; severity maps to the SARIF level (``breaking`` → ``error``, ``deprecated`` →
``warning``, ``legacy-only`` and ``advisory`` → ``note``). Regions carry 1-based lines and columns counted in Unicode
code points (``columnKind: unicodeCodePoints``), end column exclusive, as in the JSON report.
Files that could not be read, decoded or parsed become ``toolExecutionNotifications``.
"""

from __future__ import annotations

import json
from typing import Any

from mcpmigrate import __version__
from mcpmigrate.catalog import RuleMeta, load_catalog
from mcpmigrate.model import Finding, RunReport
from mcpmigrate.report import fix_label
from mcpmigrate.report.paths import path_uri, shown_path

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"breaking": "error", "deprecated": "warning", "legacy-only": "note", "advisory": "note"}


def _rule_descriptor(meta: RuleMeta) -> dict[str, Any]:
    strategies = meta.fix.get("strategies", [])
    help_lines = [meta.summary, ""]
    if meta.rationale:
        help_lines += [meta.rationale, ""]
    if meta.fix.get("description"):
        help_lines += [
            f"Fix ({', '.join(strategies) or 'none'}; safety: {meta.fix.get('safety', 'n/a')}): "
            + " ".join(meta.fix["description"].split()),
            "",
        ]
    help_lines.append(f"Run `mcpmigrate explain {meta.id}` for the full page.")
    help_text = "\n".join(help_lines)
    help_md = help_text
    if meta.spec:
        help_md += "\n\nReferences:\n" + "\n".join(f"- {s}" for s in meta.spec)
    return {
        "id": meta.id,
        "name": meta.name,
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": " ".join(meta.rationale.split()) or meta.summary},
        "help": {"text": help_text, "markdown": help_md},
        "defaultConfiguration": {"level": LEVELS[meta.severity.value]},
        "properties": {
            "severity": meta.severity.value,
            "fix": strategies,
            "tags": ["mcp", "migration", "2026-07-28", meta.severity.value],
        },
    }


def _pseudo_descriptor(rule: str, name: str, summary: str, level: str) -> dict[str, Any]:
    return {
        "id": rule,
        "name": name,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": summary},
        "defaultConfiguration": {"level": level},
        "properties": {"tags": ["mcpmigrate"]},
    }


def _message(f: Finding) -> str:
    text = f.message
    if f.fix is not None:
        text += f" {fix_label(f.fix).capitalize()}: {f.fix.description}"
    elif f.manual:
        text += f" Manual: {f.manual}"
    return text


def _result(f: Finding, index: int) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": f.line, "startColumn": f.column}
    if f.end_line >= f.line:
        region["endLine"] = f.end_line
        if f.end_line > f.line or f.end_column > f.column:
            region["endColumn"] = f.end_column
    res: dict[str, Any] = {
        "ruleId": f.rule,
        "ruleIndex": index,
        "level": LEVELS.get(f.severity.value, "warning"),
        "message": {"text": _message(f)},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": path_uri(f.path), "uriBaseId": "%SRCROOT%"},
                    "region": region,
                }
            }
        ],
        "properties": {"severity": f.severity.value},
    }
    if f.fix is not None:
        res["properties"]["fix"] = f.fix.to_json()
    if f.manual:
        res["properties"]["manual"] = f.manual
    return res


def render(result: RunReport, findings: list[Finding] | None = None) -> str:
    findings = result.findings if findings is None else findings
    catalog = load_catalog()
    rules: list[dict[str, Any]] = [_rule_descriptor(m) for m in catalog.values()]
    index = {m.id: i for i, m in enumerate(catalog.values())}
    for f in findings:
        if f.rule not in index:  # a pseudo-rule such as unused-suppression
            index[f.rule] = len(rules)
            rules.append(
                _pseudo_descriptor(f.rule, f.name, f.message.split(":")[0], LEVELS.get(f.severity.value, "note"))
            )
    notifications = [
        {
            "level": "error",
            "message": {"text": f"{shown_path(e.path)}: {e.message}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": path_uri(e.path), "uriBaseId": "%SRCROOT%"},
                        **({"region": {"startLine": e.line, "startColumn": e.column}} if e.line is not None else {}),
                    }
                }
            ],
        }
        for e in sorted(result.errors, key=lambda e: e.path)
    ]
    run = {
        "tool": {
            "driver": {
                "name": "mcpmigrate",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {"%SRCROOT%": {"uri": "./"}},
        "invocations": [
            {
                "executionSuccessful": True,
                "toolExecutionNotifications": notifications,
            }
        ],
        "results": [_result(f, index[f.rule]) for f in findings],
    }
    doc = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2)

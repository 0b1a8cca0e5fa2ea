"""JSON report (README.md, "Output formats"; ``schemas/report.schema.json``): ``{"version", "files_checked", "findings": [...], "errors": [...]}``."""

from __future__ import annotations

import json

from mcpmigrate import __version__
from mcpmigrate.catalog import load_catalog
from mcpmigrate.model import RunReport


def render(result: RunReport, fixed: bool = False, diff: str | None = None, baselined: int | None = None) -> str:
    catalog = load_catalog()
    doc = {
        "version": __version__,
        "files_checked": result.files_checked,
        "findings": [f.to_json() for f in result.findings],
        "errors": [e.to_json() for e in sorted(result.errors, key=lambda e: e.path)],
        "unused_suppressions": [
            {"path": path, "line": line, "rule": None if rid == "*" else rid,
             "reason": "unused" if rid == "*" or rid in catalog else "unknown-rule"}
            for path, line, rid in result.unused_suppressions
        ],
    }
    if baselined is not None:
        doc["baselined"] = baselined
    if fixed:
        doc["fixed"] = [f.to_json() for f in result.fixed]
        doc["changed_files"] = sorted(r.display for r in result.changed)
    if diff is not None:
        doc["diff"] = diff
    return json.dumps(doc, indent=2)

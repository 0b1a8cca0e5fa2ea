"""JSON report (DESIGN §6): ``{"version", "files_checked", "findings": [...], "errors": [...]}``."""

from __future__ import annotations

import json

from mcpmigrate import __version__
from mcpmigrate.engine import RunResult


def render(result: RunResult, fixed: bool = False) -> str:
    doc = {
        "version": __version__,
        "files_checked": result.files_checked,
        "findings": [f.to_json() for f in result.findings],
        "errors": [e.to_json() for e in sorted(result.errors, key=lambda e: e.path)],
    }
    if fixed:
        doc["fixed"] = [f.to_json() for f in result.fixed]
        doc["changed_files"] = sorted(r.display for r in result.changed)
    return json.dumps(doc, indent=2)

"""The rule catalog: metadata read from ``rules/<ID>.toml`` (README.md, "Rules").

Each TOML file holds ``id``, ``name``, ``severity``, ``summary``, ``rationale``, ``spec``
(list of references), ``[fix]`` (``strategies``, ``safety``, ``description``) and examples
``[[examples.invalid]]`` (``code``, optional ``fixed`` and ``strategy``) and
``[[examples.valid]]`` (``code``), which the test suite runs.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from mcpmigrate.model import Severity


@dataclass(frozen=True)
class RuleMeta:
    id: str
    name: str
    severity: Severity
    summary: str
    rationale: str
    spec: tuple[str, ...]
    fix: dict[str, Any]
    examples_invalid: tuple[dict[str, Any], ...] = field(default=())
    examples_valid: tuple[dict[str, Any], ...] = field(default=())
    # ``project-findings = "module:function"``: a rule whose sites are lines of the project's
    # dependency files, not Python modules; the engine calls ``function(root, cwd)`` once per run
    # (-> ``[(display path, [Finding, ...]), ...]``).
    project_findings: str | None = None


def rules_dir() -> Path:
    """Where the TOML files are: inside the wheel (``mcpmigrate/_rules``) or, in a source
    checkout, the repository's ``rules/``."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_rules", here.parent / "rules"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("rule metadata not found (expected mcpmigrate/_rules or rules/)")


@lru_cache(maxsize=1)
def load_catalog() -> dict[str, RuleMeta]:
    """All rules, keyed by id, in id order. Raises ``ValueError`` naming the file on a bad TOML."""
    catalog: dict[str, RuleMeta] = {}
    for path in sorted(rules_dir().glob("MCP*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            examples = data.get("examples", {})
            meta = RuleMeta(
                id=data["id"],
                name=data["name"],
                severity=Severity(data["severity"]),
                summary=data["summary"].strip(),
                rationale=data.get("rationale", "").strip(),
                spec=tuple(data.get("spec", ())),
                fix=dict(data.get("fix", {})),
                examples_invalid=tuple(examples.get("invalid", ())),
                examples_valid=tuple(examples.get("valid", ())),
                project_findings=data.get("project-findings"),
            )
        except (KeyError, ValueError, tomllib.TOMLDecodeError) as exc:
            raise ValueError(f"{path}: invalid rule metadata: {exc}") from exc
        if meta.id != path.stem:
            raise ValueError(f"{path}: id {meta.id!r} does not match the file name")
        catalog[meta.id] = meta
    return catalog


def select_rules(select: list[str] | None, ignore: list[str] | None) -> set[str]:
    """Rule ids enabled by ``select``/``ignore`` (ids or prefixes such as ``MCP1``; ``ALL``).

    Raises ``ValueError`` naming any selector that matches no rule.
    """
    catalog = load_catalog()
    ids = list(catalog)

    def expand(selectors: list[str]) -> set[str]:
        out: set[str] = set()
        for sel in selectors:
            s = sel.strip().upper()
            matched = ids if s == "ALL" else [i for i in ids if i.startswith(s)]
            if not matched:
                raise ValueError(f"unknown rule id or prefix: {sel!r}")
            out.update(matched)
        return out

    enabled = expand(select) if select else set(ids)
    if ignore:
        enabled -= expand(ignore)
    return enabled

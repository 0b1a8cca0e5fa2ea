"""Data shapes shared by the engine, the detectors, the codemods and the reporters."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Severity(str, Enum):
    """How a finding affects a server (DESIGN §3).

    ``breaking``: fails on a 2026-07-28 connection; ``deprecated``: works, scheduled for removal
    (SEP-2577); ``advisory``: best practice.
    """

    BREAKING = "breaking"
    DEPRECATED = "deprecated"
    ADVISORY = "advisory"


class Safety(str, Enum):
    """Fix safety (DESIGN §4): ``safe`` fixes are applied by ``fix``; ``unsafe`` ones need
    ``--unsafe-fixes`` because they need a human review."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True)
class FixInfo:
    """The fix a finding offers: its safety, the strategy (``param``, ``interim``, ``remove`` …)
    and a one-line description of what the rewrite does."""

    safety: Safety
    strategy: str
    description: str

    def to_json(self) -> dict[str, str]:
        return {"safety": self.safety.value, "strategy": self.strategy, "description": self.description}


@dataclass
class Finding:
    """One site that must change. Lines and columns are 1-based; ``end_*`` is exclusive of the
    last character's column + 1, as in ruff's JSON."""

    rule: str
    name: str
    severity: Severity
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    fix: FixInfo | None = None
    manual: str | None = None  # why the site is left for a human, when no fix applies
    # Not serialised: the detector's handle on the node (used by codemods).
    node: Any = field(default=None, repr=False, compare=False)
    data: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.rule)

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "message": self.message,
            "fix": self.fix.to_json() if self.fix else None,
            "manual": self.manual,
        }


@dataclass
class FileError:
    """A file that could not be read, decoded or parsed (or written, under ``fix``)."""

    path: str
    message: str
    line: int | None = None     # where, for a syntax error (1-based line and column)
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "message": self.message}
        if self.line is not None:
            out.update(line=self.line, column=self.column)
        return out

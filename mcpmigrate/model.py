"""Data shapes shared by the engine, the detectors, the codemods and the reporters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol


class Severity(str, Enum):
    """How a finding affects a server (README.md, "Rules").

    ``breaking``: fails on a 2026-07-28 connection; ``deprecated``: works, scheduled for removal
    (SEP-2577); ``legacy-only``: never reached by 2026-07-28 clients, still used by legacy ones
    (dead weight on the new wire, not a failure; removed only when the project declares
    ``legacy-clients = false``); ``advisory``: best practice.
    """

    BREAKING = "breaking"
    DEPRECATED = "deprecated"
    LEGACY_ONLY = "legacy-only"
    ADVISORY = "advisory"


class Safety(str, Enum):
    """Fix safety (README.md, "Fix safety"): ``safe`` fixes are applied by ``fix``; ``unsafe`` ones need
    ``--unsafe-fixes`` because they need a human review."""

    SAFE = "safe"
    UNSAFE = "unsafe"


# The strategies ``fix --strategy`` (and ``strategy`` in the configuration) accepts. A fix of
# another kind (``remove``, ``drop``, ``logging``, ``subscription``) is applied under every one, so
# a hint never names it as a strategy. ``config`` answers roots from the server's configuration
# (``codemods/configured.py``); ``param`` also applies it where the roots fence what a tool may touch.
STRATEGIES = ("param", "interim", "config")


@dataclass(frozen=True)
class FixInfo:
    """The fix a finding offers: its safety, the strategy (``param``, ``interim``, ``remove`` …)
    and a one-line description of what the rewrite does."""

    safety: Safety
    strategy: str
    description: str

    def to_json(self) -> dict[str, str]:
        return {"safety": self.safety.value, "strategy": self.strategy, "description": self.description}


class FixSite(Protocol):
    """A fix module's typed record of what it will change at one site (``FixPlan.site``), built by
    its ``plan(...)`` while the rules run and turned into edits by the pipeline's one loop
    (``pipeline.record_edits``): ``record(edits, analysis)`` records the changes
    (``codemods.edits.Edits``) against the nodes of ``analysis`` (``analysis.ModuleAnalysis``).
    Several findings may share one site; it is recorded once (``docs/architecture.md``, "How a
    finding becomes a fix"). A site whose fix needs a project step after every module is fixed
    may also give ``project_needs() -> list[dict[str, Any]]``, plain data the finding keeps
    (``Finding.project_needs``) when its nodes are dropped."""

    def record(self, edits: Any, analysis: Any) -> None: ...


@dataclass
class FixPlan:
    """The decision a fix module makes for one site, once, while the rules run: the fix it offers
    (``fix``, with the safety ``check`` prints) or why the site is left for a human (``manual``),
    ``site`` — the fix module's own description of what it will change — and ``severity`` when the plan decides this site's severity (None: the
    rule's). ``fix`` builds its edits from ``site``, so the label ``check`` prints is by
    construction the plan ``fix`` applies (``docs/architecture.md``). ``message``: the finding's
    message when the plan decides it — an MCP102 guard says whether it goes with its roots request
    — else None (the detector's). ``site`` holds libcst nodes of the module the rules ran on: it is
    never serialised or cached."""

    fix: FixInfo | None = None
    manual: str | None = None
    site: Any = None
    severity: Severity | None = None
    message: str | None = None  # the finding's message when the plan decides it (None: the detector's)


class Planned(Protocol):
    """A detector's report as a fix module's ``settle`` step reads it (``detectors.base.Report``):
    the rule, the node reported at and the plan it carries."""

    @property
    def rule(self) -> str: ...

    @property
    def node(self) -> Any: ...

    @property
    def plan(self) -> FixPlan: ...


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
    message: str  # what and where first, then why and what to do (detectors.base.Report)
    fix: FixInfo | None = None
    manual: str | None = None  # why the site is left for a human, when no fix applies
    # Not serialised: the detector's handle on the node (used by codemods).
    node: Any = field(default=None, repr=False, compare=False)
    site: Any = field(default=None, repr=False, compare=False)  # FixPlan.site, for the codemod
    # Not serialised to reports: what a project step reads once the module is fixed (plain data the
    # site gives, ``FixSite.project_needs``; ``mcpmigrate/project_threads.py``)
    project_needs: list[dict[str, Any]] = field(default_factory=list, repr=False, compare=False)

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
    line: int | None = None  # where, for a syntax error (1-based line and column)
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "message": self.message}
        if self.line is not None:
            out.update(line=self.line, column=self.column)
        return out


class ChangedFile(Protocol):
    """A file a ``fix`` run rewrote, as the reporters name it."""

    @property
    def display(self) -> str: ...


class RunReport(Protocol):
    """What the reporters (:mod:`mcpmigrate.report`) read of a run. The engine's ``RunResult``
    has this shape; the reporters depend on the shape, not on the engine, so the layers run one
    way (``docs/architecture.md``)."""

    @property
    def files_checked(self) -> int: ...

    @property
    def errors(self) -> list[FileError]: ...

    @property
    def findings(self) -> list[Finding]: ...

    @property
    def fixed(self) -> list[Finding]: ...

    @property
    def unused_suppressions(self) -> list[tuple[str, int, str]]:
        """``(path, line, rule id or "*")`` of suppression comments that silenced nothing."""
        ...

    @property
    def changed(self) -> Sequence[ChangedFile]: ...

    def applies(self, fix_strategy: str) -> bool:
        """A plain ``fix`` in this run's strategy applies fixes of ``fix_strategy``."""
        ...


def plural(n: int, word: str) -> str:
    """``"1 file"``, ``"2 files"``: a count with its noun in the right number (``word`` singular;
    "path"/"file"/"finding"/… take an ``s``)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

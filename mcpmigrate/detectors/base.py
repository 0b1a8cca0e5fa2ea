"""The detector interface (in the style of Fixit's rules).

A detector declares the rule ids it reports and the byte tokens a file must contain for it to
matter (the engine never parses a file none of the enabled detectors' tokens occur in), and
yields :class:`Report` objects for one parsed module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo
from mcpmigrate.screen import Facts


@dataclass
class Report:
    """A detector's raw finding: the rule, the node to report at, the message, and either a fix
    or the reason the site is left for a human (``manual``)."""

    rule: str
    node: cst.CSTNode
    message: str
    fix: FixInfo | None = None
    manual: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


class Detector:
    rules: ClassVar[tuple[str, ...]] = ()
    tokens: ClassVar[tuple[bytes, ...]] = ()
    # Second-stage prefilter (mcpmigrate.screen): ``screen(facts)`` is False only when the file
    # cannot have a finding of this detector; None means "always parse" (DESIGN §7, speed).
    screen: ClassVar[Callable[[Facts], bool] | None] = None

    def __init__(self, analysis: ModuleAnalysis, config: Config) -> None:
        self.analysis = analysis
        self.config = config

    def detect(self) -> Iterable[Report]:  # pragma: no cover - interface
        raise NotImplementedError

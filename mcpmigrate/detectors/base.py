"""The detector interface (in the style of Fixit's rules).

A detector declares the rule ids it reports and the byte tokens a file must contain for it to
matter (the engine never parses a file none of the enabled detectors' tokens occur in), and
yields :class:`Report` objects for one parsed module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.catalog import RuleMeta
from mcpmigrate.config import Config
from mcpmigrate.model import Finding, FixInfo, FixPlan, Severity
from mcpmigrate.names import dict_get, string_value  # noqa: F401  (the detectors read them from here)
from mcpmigrate.screen import Facts


@dataclass
class Report:
    """A detector's raw finding: the rule, the node to report at, the message, and either a fix
    or the reason the site is left for a human (``manual``).

    The ``message`` says first what was found and where — one sentence, or a clause ending in
    ``"; "`` (``The server asks the client for its roots in `scan`; …``) — then why it breaks and
    what to do. The text report prints the first part with each finding and the rest once per
    rule; where it cuts is :func:`mcpmigrate.report.text.split_message`.

    ``severity`` is this site's own severity when the detector (or the plan) decides one; None
    means the rule's (``rules/<ID>.toml``)."""

    rule: str
    node: cst.CSTNode
    message: str
    fix: FixInfo | None = None
    manual: str | None = None
    site: Any = None  # the fix module's plan for this site (FixPlan.site)
    severity: Severity | None = None

    @classmethod
    def planned(cls, rule: str, node: cst.CSTNode, message: str, plan: FixPlan) -> Report:
        """A report carrying a fix module's :class:`~mcpmigrate.model.FixPlan` for the site."""
        return cls(rule, node, plan.message or message, plan.fix, plan.manual, plan.site, plan.severity)

    @property
    def plan(self) -> FixPlan:
        """The fix plan this report carries (what a fix module's ``settle`` reads)."""
        return FixPlan(self.fix, self.manual, self.site, self.severity)

    def with_plan(self, plan: FixPlan) -> Report:
        """A new report: this one's rule, node and message with ``plan`` (a settled plan)."""
        return Report.planned(self.rule, self.node, self.message, plan)


def file_finding(
    rule: str, meta: RuleMeta, span: tuple[str, int, int, int, int], message: str, plan: FixPlan
) -> Finding:
    """A finding on a file that is not Python (a dependency file: ``project-findings`` in
    rules/<ID>.toml), at ``span`` (display path, line, column, end line, end column), carrying
    the fix module's ``plan``."""
    return Finding(rule, meta.name, plan.severity or meta.severity, *span, message, plan.fix, plan.manual)


class Detector:
    rules: ClassVar[tuple[str, ...]] = ()
    tokens: ClassVar[tuple[bytes, ...]] = ()
    # Second-stage prefilter (mcpmigrate.screen): ``screen(facts)`` is False only when the file
    # cannot have a finding of this detector; None means "always parse" (docs/architecture.md, "Speed").
    screen: ClassVar[staticmethod[[Facts], bool] | None] = None

    def __init__(self, analysis: ModuleAnalysis, config: Config) -> None:
        self.analysis = analysis
        self.config = config

    def detect(self) -> Iterable[Report]:  # pragma: no cover - interface
        raise NotImplementedError


class ReportingVisitor(cst.CSTVisitor):
    r"""A visitor that collects :class:`Report`\ s over one module's analysis ``a``; the base of
    every detector's visitor."""

    def __init__(self, analysis: ModuleAnalysis) -> None:
        self.a = analysis
        self.reports: list[Report] = []

    def fn(self, node: cst.CSTNode) -> FunctionInfo | None:
        """The function around ``node`` (None at module level)."""
        return self.a.enclosing_function(node)

    def report(
        self,
        rule: str,
        node: cst.CSTNode,
        message: str,
        *,
        manual: str | None = None,
        severity: Severity | None = None,
    ) -> None:
        """Report at ``node`` with no fix: ``manual`` says why the site is left for a human;
        ``severity``: this site's own, when it differs from the rule's. A fixable site is reported
        with its fix module's plan (:meth:`planned`): a detector builds no fix itself
        (``tests/test_layers.py``)."""
        self.reports.append(Report(rule, node, message, None, manual, severity=severity))

    def planned(self, rule: str, node: cst.CSTNode, message: str, plan: FixPlan) -> None:
        """Report at ``node`` with a fix module's ``plan`` for the site (:meth:`Report.planned`)."""
        self.reports.append(Report.planned(rule, node, message, plan))


class RequestVisitor(ReportingVisitor):
    """Base visitor of the request detectors (roots, sampling, elicitation): reports, the
    enclosing function, and ``interim_depth`` — how many interim-result containers
    (``InputRequiredResult(...)``, an ``input_requests=`` argument, an ``"inputRequests"`` key)
    the visited node is inside; a request built there is already the 2026-07-28 form."""

    def __init__(self, det: Detector) -> None:
        super().__init__(det.analysis)
        self.det = det
        self.interim_depth = 0
        self._interim_nodes: list[cst.CSTNode] = []

    def _is_interim_container(self, node: cst.CSTNode) -> bool:
        t = type(node)  # exact types: this runs on every node, and isinstance on libcst's ABCs is slow
        if t is cst.Arg:
            keyword = cast(cst.Arg, node).keyword
            return keyword is not None and keyword.value in ("input_requests", "inputRequests")
        if t is cst.Call:
            return self.a.resolves_to(cast(cst.Call, node).func, S.INPUT_REQUIRED_RESULT)
        if t is cst.DictElement:
            return string_value(cast(cst.DictElement, node).key) in ("inputRequests", "input_requests")
        return False

    GENERIC_HOOK_TYPES = (cst.Arg, cst.Call, cst.DictElement)  # where before_visit/after_leave run

    def before_visit(self, node: cst.CSTNode) -> None:  # fastwalk hook, before visit_<Type>
        if self._is_interim_container(node):
            self.interim_depth += 1
            self._interim_nodes.append(node)

    def after_leave(self, original_node: cst.CSTNode) -> None:  # fastwalk hook, after leave_<Type>
        if self._interim_nodes and self._interim_nodes[-1] is original_node:
            self._interim_nodes.pop()
            self.interim_depth -= 1

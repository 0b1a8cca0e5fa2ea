"""Planners on a snippet, without the CLI (``docs/architecture.md``, "How a finding becomes a fix").

``plan_for(source, rule, tmp)`` parses ``source`` (written to ``tmp/server.py``: a directory with no
``pyproject.toml``, so no dependency pins decide anything) and runs the detectors and the settle
steps (``pipeline.detect``); it returns the :class:`~mcpmigrate.model.FixPlan` the finding of
``rule`` carries (the first one; ``AssertionError`` when there is none). ``plans_for`` returns every
finding's plan of the rule. ``apply(source, tmp)`` runs the whole fix of one file
(``pipeline.process_file``: the fix rounds, import pruning and the verifier) and returns the fixed
text (the source itself when nothing was fixed; ``AssertionError`` with the reason when the fix
was refused).
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from mcpmigrate.config import Config
from mcpmigrate.model import Finding, FixPlan
from mcpmigrate.pipeline import Options, detect, enabled_rules, prefilter_regex, process_file


def _config(tmp: Path, **settings: object) -> Config:
    return Config(root=tmp, **settings)  # type: ignore[arg-type]


def findings_for(source: str, tmp: Path, **settings: object) -> list[Finding]:
    """Every finding (with its plan: ``fix``, ``manual``, ``site``) of the enabled rules on ``source``."""
    config = _config(tmp, **settings)
    path = tmp / "server.py"
    path.write_text(source)
    module = cst.parse_module(source)
    found, _analysis = detect(module, "server.py", config, enabled_rules(config, Options()), path=path)
    return found


def plans_for(source: str, rule: str, tmp: Path, **settings: object) -> list[FixPlan]:
    """The plans of every ``rule`` finding on ``source``, in source order."""
    return [FixPlan(f.fix, f.manual, f.site) for f in findings_for(source, tmp, **settings) if f.rule == rule]


def plan_for(source: str, rule: str, tmp: Path, **settings: object) -> FixPlan:
    """The plan of the first ``rule`` finding on ``source``."""
    plans = plans_for(source, rule, tmp, **settings)
    assert plans, f"no {rule} finding"
    return plans[0]


def apply(source: str, tmp: Path, strategy: str = "param", unsafe_fixes: bool = True, **settings: object) -> str:
    """``source`` after ``mcpmigrate fix [--unsafe-fixes] --strategy <strategy>``."""
    config = _config(tmp, **settings)
    options = Options(mode="fix", strategy=strategy, unsafe_fixes=unsafe_fixes)
    rules = enabled_rules(config, options)
    path = tmp / "server.py"
    path.write_text(source)
    res = process_file(path, "server.py", config, options, rules, prefilter_regex(rules), source.encode())
    assert res.error is None, res.error
    return (res.new_source or source.encode()).decode()

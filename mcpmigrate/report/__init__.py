"""Reporters: ``text`` (rich, grouped by file), ``concise``, ``json``, ``sarif``, ``github``
(README.md, "Output formats"). They read a run's result (``model.RunReport``) and nothing else."""

from __future__ import annotations

from mcpmigrate.model import STRATEGIES, FixInfo


def fix_label(fix: FixInfo, applies: bool = True) -> str:
    """How a fix is named in a hint: ``fix (safe, param)``. The strategy is named only when it
    is one ``fix --strategy`` accepts (``param``, ``interim``): removals, stdlib logging and
    subscriptions are applied under every strategy, so naming them would point at an option
    value the CLI rejects. ``applies`` false: the run's strategy is another one, and the label
    says which ``--strategy`` the fix needs."""
    if fix.strategy not in STRATEGIES:
        return f"fix ({fix.safety.value})"
    if not applies:
        return f"fix with --strategy {fix.strategy} ({fix.safety.value})"
    return f"fix ({fix.safety.value}, {fix.strategy})"

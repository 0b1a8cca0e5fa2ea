"""Codemods: one fix planner per fix kind, applied in a declared order (bump-pydantic style).

Each module (or package) exposes ``STRATEGY`` (the ``FixInfo.strategy`` it applies), ``RULES``
(the rule ids whose findings it fixes), the ``plan(...) -> FixPlan`` functions its detectors call
(the plan's ``site`` is a typed :class:`~mcpmigrate.model.FixSite` that records its edits), and
optionally ``settle(analysis, config, reports) -> list[FixPlan]``, run by the pipeline after
detection (``pipeline.settle``). The pipeline turns the sites of the fixable findings into edits
in one loop (``pipeline.record_edits``: a site is recorded by the module that defines its type)
and applies them with the one applier, :func:`mcpmigrate.codemods.edits.apply_edits`. A settle step that reads other rules' reports names them in
``SETTLE_READS`` (``drop``: MCP401). A new codemod is
added to ``ORDER``. See ``docs/architecture.md``, "How a finding becomes a fix"."""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType

ORDER = (
    "param",
    "configured",
    "port",
    "interim",
    "interim_jsonrpc",
    "remove",
    "drop",
    "subscription",
    "stdlib_logging",
    "revision",
    "results",
    "handles",
)


@lru_cache(maxsize=1)
def load_codemods() -> tuple[ModuleType, ...]:
    """The codemod modules that exist, in ``ORDER``."""
    mods = []
    for name in ORDER:
        try:
            mods.append(importlib.import_module(f"{__name__}.{name}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    return tuple(mods)

"""Codemods: one fix planner per fix kind, applied in a declared order (bump-pydantic style).

Each module (or package) exposes ``STRATEGY`` (the ``FixInfo.strategy`` it applies), ``RULES``
(the rule ids whose findings it fixes) and ``edits(analysis, findings, config) -> Edits``: the
changes for the given findings, recorded against the original nodes; the engine applies them with
the one applier, :func:`mcpmigrate.codemods.edits.apply_edits`. A new codemod is added to
``ORDER``. See ``docs/architecture.md``."""

from __future__ import annotations

import importlib
from functools import lru_cache
from types import ModuleType

ORDER = ("port", "param", "interim", "interim_jsonrpc", "remove", "drop", "subscription", "stdlib_logging", "revision")


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

"""Codemods: one libcst transformation per fix, applied in a declared order (bump-pydantic
style). Each module exposes ``STRATEGY`` (the ``FixInfo.strategy`` it applies), ``RULES``,
optionally ``ALWAYS = True`` (applied whatever ``--strategy`` is chosen: deletions and
strategy-free rewrites) and ``apply(module, analysis, findings, config) -> (module,
applied_findings, notes)``. A new codemod module is added to ``ORDER``."""

from __future__ import annotations


import importlib
from functools import lru_cache
from types import ModuleType

ORDER = ("param", "interim", "interim_jsonrpc", "remove", "drop", "subscription", "stdlib_logging")


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

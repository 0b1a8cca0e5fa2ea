"""Detectors: one module per rule family. Every module here that defines subclasses of
:class:`~mcpmigrate.detectors.base.Detector` is picked up by the engine; adding a rule touches
its TOML, its detector and its fixtures, and nothing in the engine."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from mcpmigrate.detectors.base import Detector


@lru_cache(maxsize=1)
def all_detectors() -> tuple[type[Detector], ...]:
    for mod in pkgutil.iter_modules(__path__):
        if mod.name != "base":
            importlib.import_module(f"{__name__}.{mod.name}")
    found: list[type[Detector]] = []
    stack = list(Detector.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.rules:
            found.append(cls)
    return tuple(sorted(found, key=lambda c: c.rules[0]))

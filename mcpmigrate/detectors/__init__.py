"""Detectors: one module per rule family. Every module here that defines subclasses of
:class:`~mcpmigrate.detectors.base.Detector` is picked up by the engine; adding a rule touches
its TOML, its detector and its fixtures, and nothing in the engine.

Registration checks that the engine can run every detector, and that every rule of the catalog
(``rules/*.toml``) has one: a detector without byte tokens is never run by the engine's prefilter,
and a rule without a detector is never reported — either way ``check`` would pass clean. Both
are :class:`DetectorRegistrationError` instead."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache

from mcpmigrate.catalog import load_catalog
from mcpmigrate.detectors.base import Detector


class DetectorRegistrationError(RuntimeError):
    """A detector the engine could never run, or a rule no detector reports."""


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
    for cls in found:
        check_runnable(cls)
    reported = {rule for cls in found for rule in cls.rules}
    unreported = sorted(set(load_catalog()) - reported)
    if unreported:
        raise DetectorRegistrationError(
            f"no detector reports {', '.join(unreported)} (rules/<ID>.toml exists): add the rule id to "
            f"the `rules` of the detector in mcpmigrate/detectors/ that finds its sites"
        )
    return tuple(sorted(found, key=lambda c: c.rules[0]))


def check_runnable(cls: type) -> None:
    """Raise :class:`DetectorRegistrationError`, naming the detector, when the engine could not
    run ``cls``: the engine parses a file for a detector only when one of its ``tokens`` (byte
    regular expressions, ``mcpmigrate/surfaces.py``) occurs in it, then asks its ``screen``
    (``mcpmigrate/screen.py``; None: always) whether it could report anything."""
    name = f"{cls.__module__}.{cls.__qualname__}"
    rules = ", ".join(getattr(cls, "rules", ())) or "no rules"
    tokens = getattr(cls, "tokens", ())
    if not tokens:
        raise DetectorRegistrationError(
            f"detector {name} ({rules}) has no tokens: the engine's prefilter would never run it. "
            f"Give it the byte patterns its sites contain (mcpmigrate/surfaces.py)"
        )
    for token in tokens:
        try:
            if not isinstance(token, bytes):
                raise TypeError(f"{type(token).__name__}, not bytes")
            re.compile(token)
        except (TypeError, re.error) as exc:
            raise DetectorRegistrationError(
                f"detector {name} ({rules}): token {token!r} is not a valid byte regular expression: {exc}"
            ) from exc
    screen = getattr(cls, "screen", None)
    if screen is not None and not callable(screen):
        raise DetectorRegistrationError(
            f"detector {name} ({rules}): screen must be a function of screen.Facts (mcpmigrate/screen.py) or None"
        )

"""MCP521's fix (:mod:`mcpmigrate.detectors.port_pins` reports): an ``mcp`` requirement that
admits mcp 2.x in a project of mcp 1.x code is capped below it (``mcp>=1.0`` → ``mcp>=1.0,<2``,
extras, markers and quotes kept), written by the run like the port's re-pin
(:class:`~mcpmigrate.codemods.port.project.PinChange`), with the lockfiles beside it named and
the command that refreshes each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from mcpmigrate.codemods.port.project import COMPILED_BY, PinChange, repin
from mcpmigrate.lockfiles import NAMES
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.pins import project_files, read_text

CAP = "<2"
LOCK_COMMANDS = {"uv.lock": "uv lock", "poetry.lock": "poetry lock", "pdm.lock": "pdm lock"}
FIX = FixInfo(
    Safety.SAFE,
    "pin",
    "cap the requirement below mcp 2 (`<2`): every version it still admits is one the code runs on",
)


def plan() -> FixPlan:
    """MCP521's plan at a requirement :func:`sites` finds: the cap, safe."""
    return FixPlan(fix=FIX)


@dataclass
class CapChange(PinChange):
    """The cap MCP521's fix writes into one dependency file."""

    why: str = "capped: the code runs on mcp 1.x only; port it with `mcpmigrate fix --target-sdk mcp2`"
    note: str = ""  # the lockfiles to refresh, with their commands


def _capped_spec(spec: str) -> str:
    """``spec`` capped below mcp 2 when it admits mcp 2.x (``>=1.0`` → ``>=1.0,<2``, none → ``<2``),
    else as it is (``<2``, ``==1.27.0``, ``~=1.2``, ``>=2``, what does not parse)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    from mcpmigrate.pins import poetry_specifiers, spec_side

    try:
        alternatives: tuple[SpecifierSet, ...] | None = (SpecifierSet(spec),)
    except InvalidSpecifier:
        alternatives = poetry_specifiers(spec)
    if alternatives is None or any(spec_side(a, 2) is not None for a in alternatives):
        return spec
    return f"{spec},{CAP}" if spec else CAP


def capped(text: str, name: str) -> str:
    """``text`` (a dependency file called ``name``) with each ``mcp`` requirement that admits
    mcp 2.x capped below it, where the port re-pins (extras, markers and quotes kept)."""
    return repin(text, name, "mcp", _capped_spec)


def sites(text: str, name: str) -> list[tuple[int, int, str]]:
    """``(line, column, requirement)`` of each ``mcp`` requirement :func:`capped` caps."""
    out = []
    for i, (old, new) in enumerate(zip(text.splitlines(), capped(text, name).splitlines()), start=1):
        if old == new:
            continue
        at = next((k for k, (a, b) in enumerate(zip(old, new)) if a != b), len(old))
        col = old.rfind("mcp", 0, at)
        m = re.match(r"mcp(?:\[[^\]]*\])?[^\"';#,\n]*", old[col:])
        out.append((i, col + 1, (m[0] if m else "mcp").strip()))
    return out


def refresh_note(directory: Path) -> str:
    """The lockfiles beside the requirement, each with the command that refreshes it."""
    notes = [f"{name} (`{LOCK_COMMANDS[name]}`)" for name in NAMES if (directory / name).is_file()]
    for req in sorted(directory.glob("requirements*.txt")):
        text = read_text(req)  # never a FIFO or device: a plain `check` must not block on one
        if text is not None and "--hash=" in text:
            m = COMPILED_BY.search(text)
            how = f"`{m[1].strip()}`" if m else "the command that generated it (it pins hashes)"
            notes.append(f"{req.name} ({how})")
    return "; refresh " + ", ".join(notes) + " after it" if notes else ""


def cap_changes(roots: list[Path]) -> list[CapChange]:
    """MCP521's fix: the capped text of each dependency file at ``roots`` that admits mcp 2.x."""
    out = []
    for path in [p for root in roots for p, kind in project_files(root) if kind != "setup.cfg"]:
        original = path.read_bytes()
        try:
            text = original.decode("utf-8")
        except UnicodeDecodeError:
            continue
        new = capped(text, path.name)
        if new != text:
            out.append(CapChange(path, original, new.encode("utf-8"), f"mcp …,{CAP}", note=refresh_note(path.parent)))
    return out

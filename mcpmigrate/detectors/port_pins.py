"""MCP521: the project's requirement admits an SDK generation its code cannot run on (plain
``check``, no ``--target-sdk``).

``mcp>=1.0`` (or a bare ``mcp``) with mcp 1.x code resolves to mcp 2.x on a fresh install today,
where the code does not import: mcp 2.x's ``mcp.server.fastmcp`` raises ``ModuleNotFoundError``
("… or pin 'mcp<2' to keep running v1 code", mcp 2.3 ``mcp/server/fastmcp.py``), ``McpError`` is
gone (``MCPError``) and the low-level ``Server`` has no decorators (python-sdk docs/migration.md).
The safe fix caps the requirement below the next generation (``mcp>=1.0,<2``: every version it
still admits is one the code runs on; what installs today keeps installing); the way forward is
the port (``fix --target-sdk mcp2``), which re-pins to ``mcp>=2.3,<3`` itself — so this rule runs
only without a target (:func:`mcpmigrate.config.port_rules_off`).

Which code is mcp 1.x code is read off the checked files of the project (their bytes, as the run
read them): an import of ``mcp.server.fastmcp``, of ``McpError``, or a low-level decorator
(``@server.call_tool()`` …) in a module importing ``mcp.server``. The finding is on the
requirement's line of the dependency file (``pyproject.toml``, ``requirements*.txt``); the
lockfiles beside it are named with the command that refreshes them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mcpmigrate import surfaces as S
from mcpmigrate.catalog import load_catalog
from mcpmigrate.codemods.port.project import PinChange, repin
from mcpmigrate.detectors.port_environment import PortEnvironmentDetector
from mcpmigrate.files import display_path
from mcpmigrate.lockfiles import NAMES
from mcpmigrate.model import Finding, FixInfo, Safety
from mcpmigrate.pins import project_dir, project_files

RULE = "MCP521"
CAP = "<2"
# mcp 1.x code: what fails at import on mcp 2.x, unconditionally (at the module's top level: not
# the 1.x branch of a `try: … except ImportError:` written for both generations)
_V1_IMPORT = re.compile(
    rb"^(?:from[ \t]+mcp\.server\.fastmcp\b|import[ \t]+mcp\.server\.fastmcp\b"
    rb"|from[ \t]+mcp(?:\.shared\.exceptions)?[ \t]+import[^\n]*\bMcpError\b)",
    re.M,
)
_LOWLEVEL = re.compile(rb"^" + S.PORT_TOKENS[-1], re.M)
_LOWLEVEL_IMPORT = re.compile(rb"^(?:from|import)[ \t]+mcp\.server\b", re.M)
_V2 = re.compile(rb"\bmcp\.server\.mcpserver\b|\bMCPError\b|\bon_call_tool\b|\bon_list_tools\b")
LOCK_COMMANDS = {"uv.lock": "uv lock", "poetry.lock": "poetry lock", "pdm.lock": "pdm lock"}
# the command line pip-compile / uv pip compile write into the header of what they generate
_COMPILED_BY = re.compile(r"^#[ \t]+((?:uv pip compile|pip-compile)\b[^\n]*)$", re.M)
FIX = FixInfo(
    Safety.SAFE,
    "pin",
    "cap the requirement below mcp 2 (`<2`): every version it still admits is one the code runs on",
)


class PortPinDetector(PortEnvironmentDetector):
    """Registers MCP521 (never reports on a module, as MCP517's); the findings come from
    :func:`project_findings` (dependency files)."""

    rules = (RULE,)
    tokens = (rb"mcp",)


def v1_code(source: bytes) -> bool:
    """The module's bytes show mcp 1.x code that mcp 2.x does not import (and no mcp 2.x name: a
    module written for both generations runs on either)."""
    if _V2.search(source):
        return False
    if _V1_IMPORT.search(source):
        return True
    return bool(_LOWLEVEL.search(source)) and bool(_LOWLEVEL_IMPORT.search(source))


@dataclass
class CapChange(PinChange):
    """The cap MCP521's fix writes into one dependency file."""

    why: str = "capped: the code runs on mcp 1.x only; port it with `mcpmigrate fix --target-sdk mcp2`"
    note: str = ""  # the lockfiles to refresh, with their commands


def _cap(spec: str) -> str:
    """``spec`` capped below mcp 2 when it admits mcp 2.x (``>=1.0`` → ``>=1.0,<2``, none → ``<2``),
    else as it is (``<2``, ``==1.27.0``, ``~=1.2``, ``>=2``, what does not parse)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    from mcpmigrate.pins import _side, poetry_specifiers

    try:
        alternatives: tuple[SpecifierSet, ...] | None = (SpecifierSet(spec),)
    except InvalidSpecifier:
        alternatives = poetry_specifiers(spec)
    if alternatives is None or any(_side(a, 2) is not None for a in alternatives):
        return spec
    return f"{spec},{CAP}" if spec else CAP


def capped(text: str, name: str) -> str:
    """``text`` (a dependency file called ``name``) with each ``mcp`` requirement that admits
    mcp 2.x capped below it, where the port re-pins (extras, markers and quotes kept)."""
    return repin(text, name, "mcp", _cap)


def _sites(text: str, name: str) -> list[tuple[int, int, str]]:
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
        try:
            text = req.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if "--hash=" in text:
            m = _COMPILED_BY.search(text)
            how = f"`{m[1].strip()}`" if m else "the command that generated it (it pins hashes)"
            notes.append(f"{req.name} ({how})")
    return "; refresh " + ", ".join(notes) + " after it" if notes else ""


def _v1_project(root: Path, sources: Mapping[Path, bytes]) -> bool:
    return any(project_dir(path.parent) == root and v1_code(data) for path, data in sources.items())


def project_findings(
    root: Path, cwd: Path, sources: Mapping[Path, bytes] | None = None
) -> list[tuple[str, list[Finding]]]:
    """The MCP521 findings of the dependency files at ``root``: ``(display path, findings)``; none
    unless a checked file of the project is mcp 1.x code (``sources``: absolute path → bytes). Each
    requirement that admits mcp 2.x is reported, also beside one that caps it: ``pip install -r``
    reads one file, ``pip install .`` another."""
    if not sources or not _v1_project(root, sources):
        return []
    meta = load_catalog()[RULE]
    out = []
    for path in [p for p, kind in project_files(root) if kind != "setup.cfg"]:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        display = display_path(path, cwd)
        found = []
        note = refresh_note(path.parent)
        for line, col, shown in _sites(text, path.name):
            message = (
                f"`{shown}` admits mcp 2.x, which a fresh install resolves to today, and this project's mcp 1.x code "
                "does not import on it (`mcp.server.fastmcp`, `McpError` and the low-level decorators are gone). Cap "
                f"it (`<2`) so installs work again, then port the code with `mcpmigrate fix --target-sdk mcp2` (read "
                f"{S.MIGRATION_GUIDE}){note}."
            )
            span = (display, line, col, line, col + len(shown))
            found.append(Finding(RULE, meta.name, meta.severity, *span, message, fix=FIX))
        if found:
            out.append((display, found))
    return out


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

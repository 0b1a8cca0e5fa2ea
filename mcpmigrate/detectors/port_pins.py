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
lockfiles beside it are named with the command that refreshes them. The cap itself is the fix
module's, :mod:`mcpmigrate.codemods.port.cap`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from mcpmigrate import surfaces as S
from mcpmigrate.catalog import load_catalog
from mcpmigrate.codemods.port import cap
from mcpmigrate.detectors.base import file_finding
from mcpmigrate.detectors.port_environment import PortEnvironmentDetector
from mcpmigrate.files import display_path
from mcpmigrate.model import Finding
from mcpmigrate.pins import project_dir, project_files

RULE = "MCP521"
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
        note = cap.refresh_note(path.parent)
        for line, col, shown in cap.sites(text, path.name):
            message = (
                f"`{shown}` admits mcp 2.x, which a fresh install resolves to today, and this project's mcp 1.x code "
                "does not import on it (`mcp.server.fastmcp`, `McpError` and the low-level decorators are gone). Cap "
                f"it (`<2`) so installs work again, then port the code with `mcpmigrate fix --target-sdk mcp2` (read "
                f"{S.MIGRATION_GUIDE}){note}."
            )
            span = (display, line, col, line, col + len(shown))
            found.append(file_finding(RULE, meta, span, message, cap.plan()))
        if found:
            out.append((display, found))
    return out

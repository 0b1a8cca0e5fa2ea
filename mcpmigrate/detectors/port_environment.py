"""MCP517: a dependency pin below a floor fastmcp 4 raises (``--target-sdk fastmcp4``).

fastmcp 4 builds on mcp 2.x, which needs pydantic >= 2.12; its server extra needs Starlette >=
1.0.1, which FastAPI admits from 0.133.0 (fastmcp docs/getting-started/upgrading/
from-fastmcp-3.mdx, “Environment Requirements”), and fastmcp 4.2 requires mcp >= 2.3 (fastmcp-slim
4.2.3's package metadata). A project that pins one of them below its floor
cannot install fastmcp 4: the resolver reports an unsatisfiable set. The finding is on the pin's
line of the dependency file at the project root (``pyproject.toml``, ``requirements*.txt``), not
on a Python module, so the engine asks :func:`project_findings` once per project directory of the
checked files (``project-findings``
in rules/MCP517.toml); the detector class only registers the rule (it never reports on a module).
"""

from __future__ import annotations

import re
from pathlib import Path

from mcpmigrate import surfaces as S
from mcpmigrate.catalog import load_catalog
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.files import display_path
from mcpmigrate.model import Finding
from mcpmigrate.pins import project_files
from mcpmigrate.screen import Facts

RULE = "MCP517"
# A quoted PEP 508 requirement of a floored package, or a requirements-file line.
_QUOTED = re.compile(r"(?P<q>[\"'])(?P<req>(?:" + "|".join(S.FASTMCP4_FLOORS) + r")\b[^\"'\n]*)(?P=q)", re.I)
_LINE = re.compile(r"^[ \t]*(?P<req>(?:" + "|".join(S.FASTMCP4_FLOORS) + r")\b[^#\n]*)", re.I | re.M)


def _never(facts: Facts) -> bool:
    return False


class PortEnvironmentDetector(Detector):
    """Registers MCP517; the findings come from :func:`project_findings` (dependency files)."""

    rules = (RULE,)
    tokens = (rb"fastmcp",)
    screen = staticmethod(_never)

    def detect(self) -> list[Report]:
        return []


def _below_floor(requirement: str) -> tuple[str, str] | None:
    """``(package, floor)`` when ``requirement`` admits no release at or above the floor."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.version import InvalidVersion, Version

    try:
        req = Requirement(requirement.strip())
    except InvalidRequirement:
        return None
    name = req.name.lower()
    floor = S.FASTMCP4_FLOORS.get(name)
    if floor is None or not str(req.specifier):
        return None
    base = Version(floor)
    candidates = {base, *_after(base)}
    for clause in req.specifier:  # the versions the pin names, at or above the floor, and just after them
        try:
            named = Version(clause.version.rstrip(".*"))
        except InvalidVersion:
            continue
        if named >= base:
            candidates |= {named, *_after(named)}
    if any(req.specifier.contains(v, prereleases=True) for v in candidates):
        return None
    return name, floor


def _after(v) -> list:
    """Releases just after ``v``: the next patch, minors and majors (``!=`` and ``~=`` pins skip
    ``v`` itself)."""
    from packaging.version import Version

    major, minor, patch = (list(v.release) + [0, 0])[:3]
    out = [Version(f"{major}.{minor}.{patch + 1}")]
    out += [Version(f"{major}.{minor + k}.0") for k in range(1, 50)]
    return out + [Version(f"{major + k}.0.0") for k in range(1, 5)]


_FASTMCP_REQ = re.compile(r"(?:^|[\"'\s])fastmcp(?:-slim)?\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;\"'#]|$)", re.M)


def project_findings(root: Path, cwd: Path, sources: object = None) -> list[tuple[str, list[Finding]]]:
    """The MCP517 findings of the dependency files at ``root``: ``(display path, findings)``; none
    when no file there requires fastmcp (a project on the mcp SDK alone is not this port's).
    ``sources`` (the checked files' bytes) is not read."""
    meta = load_catalog()[RULE]
    texts = {}
    for path in [p for p, kind in project_files(root) if kind != "setup.cfg"]:
        try:
            texts[path] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    if not any(_FASTMCP_REQ.search(t) for t in texts.values()):
        return []
    out = []
    for path, text in texts.items():
        display = display_path(path, cwd)
        pattern = _LINE if path.suffix == ".txt" else _QUOTED
        found = []
        for m in pattern.finditer(text):
            below = _below_floor(m["req"])
            if below is None:
                continue
            package, floor = below
            line = text.count("\n", 0, m.start("req")) + 1
            col = m.start("req") - (text.rfind("\n", 0, m.start("req")) + 1) + 1
            shown = m["req"].strip()
            found.append(
                Finding(
                    RULE,
                    meta.name,
                    meta.severity,
                    display,
                    line,
                    col,
                    line,
                    col + len(shown),
                    f"`{shown}` admits no {package} >= {floor}, which fastmcp 4 needs; installing fastmcp 4 fails "
                    f"with an unsatisfiable resolution (read “Environment Requirements” in {S.FASTMCP4_GUIDE}).",
                    manual=f"raise the pin to `{package}>={floor}` (check what else pins {package} below it)",
                )
            )
        if found:
            out.append((display, found))
    return out

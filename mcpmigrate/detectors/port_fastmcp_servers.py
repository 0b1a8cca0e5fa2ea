"""The fastmcp servers a module imports from another module of the project (``from app import
mcp`` where ``app.py`` says ``mcp = FastMCP(...)`` with ``FastMCP`` from fastmcp): the analysis
types names by their own module only, and a fastmcp server is often built in one module and
extended (``mcp.mount``, ``@mcp.tool(...)``) in others. Read with regular expressions from the
other file (no parse), once per module.
"""

from __future__ import annotations

import re
from pathlib import Path

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis import ModuleAnalysis

_IMPORTS_FASTMCP_SERVER = re.compile(
    r"^[ \t]*(?:from[ \t]+fastmcp(?:\.server(?:\.server)?)?[ \t]+import[^\n]*\bFastMCP\b|import[ \t]+fastmcp\b)", re.M
)


def imported_servers(a: ModuleAnalysis, root: Path) -> set[str]:
    """Local names this module imports from a project module that builds them with fastmcp's
    ``FastMCP(...)`` at module level."""
    return a.memo("port_fastmcp.imported_servers", lambda: _find(a, root))


def _find(a: ModuleAnalysis, root: Path) -> set[str]:
    out: set[str] = set()
    if a.path is None:
        return out
    for node in a.flat.order:
        if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
            continue
        mod = get_full_name_for_node(node.module) if node.module is not None else ""
        level = len(node.relative)
        if not level and (mod or "").split(".")[0] in ("fastmcp", "mcp", "mcp_types"):
            continue
        text = _source(Path(a.path), root, mod or "", level)
        if text is None or not _IMPORTS_FASTMCP_SERVER.search(text):
            continue
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            if re.search(rf"^{re.escape(name)}[ \t]*(?::[^=\n]*)?=[ \t]*(?:\w+\.)*FastMCP\(", text, re.M):
                local = get_full_name_for_node(alias.asname.name) if alias.asname else name
                out.add(local or name)
    return out


def _source(caller: Path, root: Path, mod: str, level: int) -> str | None:
    """The text of the module ``from <level dots><mod> import …`` names, looked up from the
    caller's package (relative) or the caller's directory, the project root and its ``src``."""
    parts = mod.split(".") if mod else []
    if level:
        base = caller.resolve().parent
        for _ in range(level - 1):
            base = base.parent
        bases = [base]
    else:
        bases = [caller.resolve().parent, Path(root).resolve(), Path(root).resolve() / "src"]
    for base in bases:
        stem = base.joinpath(*parts)
        for cand in (stem.with_suffix(".py"), stem / "__init__.py"):
            if parts and cand.is_file():
                try:
                    return cand.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    return None
    return None

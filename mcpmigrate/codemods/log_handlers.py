"""Whether a module's standard-library log records reach a handler, and the entry point where
the MCP401 fix can add one.

A record that reaches no handler goes to ``logging.lastResort`` (``logging.Logger.callHandlers``),
which passes WARNING and above only: in a program that configures nothing, the INFO and DEBUG
lines a client used to receive as protocol log messages are printed nowhere. Logging counts as
configured when a module of its package (or, outside a package, of its directory) calls ``basicConfig`` / ``dictConfig`` / ``fileConfig`` /
``addHandler``, or builds its server with an SDK class whose constructor configures the root
logger: mcp 1.x ``mcp.server.fastmcp.FastMCP`` and mcp 2.x ``mcp.server.mcpserver.MCPServer``
call ``configure_logging`` (``mcp/server/fastmcp/utilities/logging.py``,
``mcp/server/mcpserver/utilities/logging.py``: ``logging.basicConfig`` with a stderr handler,
level INFO by default). The low-level ``Server`` of mcp 1.x and 2.x configures nothing, and
fastmcp 2.x–4.x configures only its own ``fastmcp`` logger, with ``propagate = False``
(``fastmcp/utilities/logging.py``).
"""

from __future__ import annotations

import ast
import os
import re
import stat
from pathlib import Path

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.config import Config

#: Calls that give the root logger (or some logger) a handler.
CONFIGURING_CALLS = frozenset({"basicConfig", "dictConfig", "fileConfig", "addHandler"})
#: ``module -> class names`` whose constructor calls ``logging.basicConfig``.
CONFIGURING_SERVERS = {
    "mcp.server.fastmcp": {"FastMCP"},
    "mcp.server.fastmcp.server": {"FastMCP"},
    "mcp.server.mcpserver": {"MCPServer"},
    "mcp.server.mcpserver.server": {"MCPServer"},
    "mcp.server": {"FastMCP", "MCPServer"},
}
_TOKENS = (*(c.encode() for c in CONFIGURING_CALLS), b"mcp.server")
_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "env", "build", "dist", "tests", "test"}
_MAX_BYTES = 2_000_000
#: (path, mtime_ns, size) -> what configures logging in that file ("" when nothing does)
_SCANNED: dict[tuple[str, int, int], str] = {}


def _configures(tree: ast.AST) -> str:
    """What in ``tree`` configures logging, a configuring call first (``"basicConfig"``) and
    else an SDK server that does (``"FastMCP"`` …), or ``""``."""
    sdk = ""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in CONFIGURING_CALLS:
                return name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in CONFIGURING_SERVERS:
            for al in node.names:
                if al.name in CONFIGURING_SERVERS[node.module]:
                    sdk = sdk or al.name
        elif isinstance(node, ast.Import):
            for al in node.names:
                if al.name.startswith(("mcp.server.fastmcp", "mcp.server.mcpserver")):
                    sdk = sdk or al.name
    return sdk


#: What :func:`_configures` looks for, in text: for a module newer than the running Python's grammar.
_CONFIGURES_TEXT = re.compile(
    rb"\b(basicConfig|dictConfig|fileConfig|addHandler)\s*\(|^\s*(?:from|import)\s+mcp\.server\.(?:fastmcp|mcpserver)\b",
    re.MULTILINE,
)


def _configures_source(source: bytes) -> str:
    """:func:`_configures` of a module's text; a module the running Python cannot parse (newer
    syntax) is read as text."""
    try:
        return _configures(ast.parse(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # pathological nesting: as text
        m = _CONFIGURES_TEXT.search(source)
        return "" if m is None else (m.group(1) or b"mcp.server").decode()


def _test_file(name: str) -> bool:
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


def _package_dir(path: Path, root: Path) -> tuple[Path, bool]:
    """Where the modules of ``path``'s program live: its top-level package directory (walking up
    while ``__init__.py`` is there, not above ``root``), searched recursively; for a module
    outside a package, its own directory only (a folder of example scripts is not one program)."""
    d = path.parent
    in_package = (d / "__init__.py").is_file()
    # a namespace subpackage (no `__init__.py`) inside a regular package belongs to it too
    while d != root and d.parent != d and (d.parent / "__init__.py").is_file():
        d, in_package = d.parent, True
    return d, in_package


def _scan_package(top: Path, recursive: bool, skip: str | None) -> str:
    """What configures logging in a module under ``top`` other than ``skip`` (test modules, which
    configure only their own runs, are not the server's): a configuring call first, else an SDK
    server that configures the root logger."""
    sdk = ""
    for d, dirs, files in os.walk(top):
        if not recursive:
            dirs[:] = []
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in _SKIP_DIRS)
        for name in sorted(files):
            if not name.endswith(".py") or _test_file(name):
                continue
            f = os.path.join(d, name)
            try:
                if skip is not None and os.path.realpath(f) == skip:
                    continue
                st = os.stat(f)
                if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_BYTES:
                    continue
                key = (f, st.st_mtime_ns, st.st_size)
                found = _SCANNED.get(key)
                if found is None:
                    source = Path(f).read_bytes()
                    found = _configures_source(source) if any(t in source for t in _TOKENS) else ""
                    _SCANNED[key] = found
            except (OSError, RuntimeError):
                continue
            if found in CONFIGURING_CALLS:
                return found
            sdk = sdk or found
    return sdk


def configured_by(analysis: ModuleAnalysis, config: Config) -> str:
    """What in the module or its package configures logging (module docstring): a configuring
    call (``"basicConfig"`` …) when there is one, else the SDK server whose constructor does
    (``"FastMCP"``, ``"MCPServer"`` …), else ``""``."""

    def compute() -> str:
        found = _configures_source(analysis.code().encode("utf-8", "surrogatepass"))
        if found in CONFIGURING_CALLS or analysis.path is None:
            return found
        path, root = Path(os.path.realpath(analysis.path)), Path(os.path.realpath(config.root))
        top, recursive = _package_dir(path, root)
        skip = str(path)
        # and the project root's own scripts (`main.py` next to `pyproject.toml` runs the package)
        for other in (_scan_package(top, recursive, skip), _scan_package(root, False, skip) if top != root else ""):
            if other in CONFIGURING_CALLS:
                return other
            found = found or other
        return found

    return analysis.memo("log_handlers.configured_by", compute)


def configured(analysis: ModuleAnalysis, config: Config) -> bool:
    """Whether something in the module or its package configures logging."""
    return bool(configured_by(analysis, config))


_DEBUG_LEVEL = re.compile(r"""\blog_level\s*=\s*["']DEBUG["']""")


def hides_debug(analysis: ModuleAnalysis, config: Config) -> str | None:
    """The SDK server that configures the root logger at its ``log_level``, INFO by default, when
    only it configures logging and the module does not pass ``log_level="DEBUG"``: a DEBUG record
    then reaches no handler (mcp 1.x ``FastMCP``/mcp 2.x ``MCPServer`` ``configure_logging``
    with ``settings.log_level``). ``None`` otherwise."""
    found = configured_by(analysis, config)
    if not found or found in CONFIGURING_CALLS or _DEBUG_LEVEL.search(analysis.code()):
        return None
    return found.rsplit(".", 1)[-1]


def main_block(module: cst.Module) -> cst.If | None:
    """The module-level ``if __name__ == "__main__":`` block (the module's entry point), if any."""
    for stmt in module.body:
        if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
            continue
        test = stmt.test
        if len(test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, cst.Equal):
            continue
        sides = {_text(test.left), _text(test.comparisons[0].comparator)}
        if sides == {"__name__", "__main__:str"} and isinstance(stmt.body, cst.IndentedBlock):
            return stmt
    return None


def _text(expr: cst.BaseExpression) -> str | None:
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.SimpleString) and isinstance(expr.evaluated_value, str):
        return expr.evaluated_value + ":str"
    return None

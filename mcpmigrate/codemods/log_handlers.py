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
import configparser
import os
import re
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.config import Config

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

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


#: (top, recursive) -> ((directory, mtime_ns) of every directory walked, (module, its real path) found)
_WALKED: dict[tuple[Path, bool], tuple[tuple[tuple[str, int], ...], list[tuple[str, str]]]] = {}


def _package_files(top: Path, recursive: bool, skip: str | None) -> list[str]:
    """The modules under ``top`` other than ``skip`` that are the server's (test modules configure
    only their own runs), in a stable order. Cached per process while no directory walked changes
    (a file added or removed changes its directory's mtime): every module of a package asks for
    the same walk."""
    key = (top, recursive)
    cached = _WALKED.get(key)
    try:
        fresh = cached is not None and all(os.stat(d).st_mtime_ns == m for d, m in cached[0])
    except OSError:
        fresh = False
    if not fresh or cached is None:
        cached = _WALKED[key] = _walk(top, recursive)
    return [f for f, real in cached[1] if real != skip]


def _walk(top: Path, recursive: bool) -> tuple[tuple[tuple[str, int], ...], list[tuple[str, str]]]:
    out: list[tuple[str, str]] = []
    dirs_seen: list[tuple[str, int]] = []
    for d, dirs, files in os.walk(top):
        try:
            dirs_seen.append((d, os.stat(d).st_mtime_ns))
        except OSError:
            continue
        if not recursive:
            dirs[:] = []
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in _SKIP_DIRS)
        for name in sorted(files):
            if not name.endswith(".py") or _test_file(name):
                continue
            f = os.path.join(d, name)
            try:
                out.append((f, os.path.realpath(f)))
            except (OSError, RuntimeError):
                continue
    return tuple(dirs_seen), out


def _scan_package(top: Path, recursive: bool, skip: str | None) -> str:
    """What configures logging in a module under ``top`` other than ``skip``: a configuring call
    first, else an SDK server that configures the root logger."""
    sdk = ""
    for f in _package_files(top, recursive, skip):
        scan = _scan_file(f)
        found = scan.configures if scan is not None else ""
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


#: ``logging``'s level names and numbers (``logging._nameToLevel``).
LEVELS = {"CRITICAL": 50, "FATAL": 50, "ERROR": 40, "WARNING": 30, "WARN": 30, "INFO": 20, "DEBUG": 10, "NOTSET": 0}
LEVEL_NAMES = {50: "CRITICAL", 40: "ERROR", 30: "WARNING", 20: "INFO", 10: "DEBUG", 0: "NOTSET"}
#: The stdlib logger methods and the level of their records.
METHOD_LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40, "exception": 40, "critical": 50}
_LEVEL_TOKENS = (b"basicConfig", b"dictConfig", b"fileConfig", b"setLevel", b"addHandler", b"mcp.server")


@dataclass(frozen=True)
class Level:
    """A level an expression evaluates to: ``value`` (the most restrictive when it depends on a
    condition, ``None`` when it cannot be read), ``env``: the environment variable it is read
    from (``value`` is then its default)."""

    value: int | None
    env: str | None = None


@dataclass(frozen=True)
class Setting:
    """One place that sets the level of the root logger (or of a module's logger): ``kind`` is
    ``basicConfig`` (the first call wins, unless ``force``), ``override`` (``dictConfig`` /
    ``fileConfig`` / ``basicConfig(force=True)`` / the root logger's ``setLevel``: whichever runs
    sets it), ``sdk`` (an SDK server whose constructor calls ``basicConfig`` at its ``log_level``),
    ``handler`` (``addHandler``: a handler, no level), ``logger`` (``<name>.setLevel`` on the
    module-level logger ``logger``). ``code``: how the note names it; ``line``; ``top``: at
    module level (runs on import), not in a function."""

    kind: str
    level: Level
    code: str
    line: int
    top: bool
    logger: str | None = None


@dataclass(frozen=True)
class Effective:
    """The level the project's records are printed from: ``level`` and the :class:`Setting`
    that decides it, with the file (``where``, relative to the project root)."""

    level: int
    setting: Setting
    where: str


def _level_of(expr: ast.expr | None, consts: dict[str, ast.expr], depth: int = 0) -> Level:
    """The level ``expr`` evaluates to: ``logging.INFO``, ``INFO``, ``"INFO"``, ``20``, a
    module-level constant holding one, ``getattr(logging, X)``, ``X.upper()``,
    ``logging.getLevelName(X)``, ``os.getenv("V", "INFO")`` / ``os.environ.get(...)`` (the default,
    with the variable), ``a if c else b`` (the more restrictive)."""
    if expr is None or depth > 8:
        return Level(None)
    if isinstance(expr, ast.Constant):
        if isinstance(expr.value, str):
            return Level(LEVELS.get(expr.value.strip().upper()))
        if isinstance(expr.value, int) and not isinstance(expr.value, bool):
            return Level(expr.value)
        return Level(None)
    if isinstance(expr, ast.Attribute) and expr.attr in LEVELS and isinstance(expr.value, ast.Name):
        return Level(LEVELS[expr.attr])
    if isinstance(expr, ast.Name):
        if expr.id in consts:
            return _level_of(consts[expr.id], consts, depth + 1)
        return Level(LEVELS.get(expr.id) if expr.id.isupper() and expr.id in LEVELS else None)
    if isinstance(expr, ast.IfExp):
        a, b = _level_of(expr.body, consts, depth + 1), _level_of(expr.orelse, consts, depth + 1)
        if a.value is None or b.value is None:
            return Level(None, a.env or b.env)
        return Level(max(a.value, b.value), a.env or b.env)
    if isinstance(expr, ast.Call):
        func = expr.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("upper", "strip") and isinstance(func, ast.Attribute) and not expr.args:
            return _level_of(func.value, consts, depth + 1)
        if name == "getattr" and len(expr.args) >= 2:
            return _level_of(expr.args[1], consts, depth + 1)
        if name == "getLevelName" and len(expr.args) == 1:
            return _level_of(expr.args[0], consts, depth + 1)
        if name in ("getenv", "get") and expr.args and isinstance(expr.args[0], ast.Constant):
            if name == "get" and not (isinstance(func, ast.Attribute) and "environ" in ast.unparse(func.value)):
                return Level(None)
            var = expr.args[0].value if isinstance(expr.args[0].value, str) else None
            default = expr.args[1] if len(expr.args) > 1 else None
            return Level(_level_of(default, consts, depth + 1).value if default is not None else None, var)
    return Level(None)


def _dict_root_level(expr: ast.expr | None, consts: dict[str, ast.expr]) -> Level:
    """The root logger's level in a literal ``dictConfig`` dictionary (``"root"`` or the logger
    ``""``)."""
    if isinstance(expr, ast.Name) and expr.id in consts:
        expr = consts[expr.id]
    if not isinstance(expr, ast.Dict):
        return Level(None)
    items = {k.value: v for k, v in zip(expr.keys, expr.values) if isinstance(k, ast.Constant)}
    root = items.get("root")
    if root is None and isinstance(items.get("loggers"), ast.Dict):
        loggers = items["loggers"]
        assert isinstance(loggers, ast.Dict)
        root = next(
            (v for k, v in zip(loggers.keys, loggers.values) if isinstance(k, ast.Constant) and k.value == ""), None
        )
    if isinstance(root, ast.Dict):
        for k, v in zip(root.keys, root.values):
            if isinstance(k, ast.Constant) and k.value == "level":
                return _level_of(v, consts)
    return Level(None)


def _ini_root_level(call: ast.Call, base: Path | None, consts: dict[str, ast.expr]) -> Level:
    """The ``[logger_root]`` level of the file a ``fileConfig("x.ini")`` call reads, when the
    name is a literal and the file is next to the module or in its parents."""
    arg = call.args[0] if call.args else None
    if isinstance(arg, ast.Name) and arg.id in consts:
        arg = consts[arg.id]
    if base is None or not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
        return Level(None)
    for d in (base, *base.parents[:3]):
        f = d / arg.value
        try:
            if f.is_file():
                parser = configparser.ConfigParser(interpolation=None)
                parser.read_string(f.read_text(encoding="utf-8", errors="replace"))
                return Level(LEVELS.get(parser.get("logger_root", "level", fallback="").strip().upper()))
        except (OSError, configparser.Error):
            return Level(None)
    return Level(None)


def _names(tree: ast.Module) -> tuple[dict[str, ast.expr], set[str], set[str], set[str], set[str]]:
    """What :func:`_settings` resolves names with: the module-level ``name = value`` bindings, the
    names bound to a stdlib logger and (of those) to the root logger, and the local names of the
    SDK servers that configure logging and of the modules holding them (``CONFIGURING_SERVERS``)."""
    consts: dict[str, ast.expr] = {}
    loggers: set[str] = set()  # module-level names bound to a stdlib logger
    root_loggers: set[str] = set()  # ... to the root logger
    sdk_names: set[str] = set()  # local names of the SDK servers that configure logging
    sdk_modules: set[str] = set()  # local names of modules holding them
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
            consts[name] = value
            if isinstance(value, ast.Call) and _dotted(value.func) in ("logging.getLogger", "getLogger"):
                loggers.add(name)
                if not value.args or (isinstance(value.args[0], ast.Constant) and value.args[0].value in (None, "")):
                    root_loggers.add(name)
    for imp in ast.walk(tree):
        if isinstance(imp, ast.ImportFrom) and imp.level == 0 and imp.module in CONFIGURING_SERVERS:
            sdk_names |= {al.asname or al.name for al in imp.names if al.name in CONFIGURING_SERVERS[imp.module]}
        elif isinstance(imp, ast.Import):
            sdk_modules |= {al.asname or al.name for al in imp.names if al.name in CONFIGURING_SERVERS}
    return consts, loggers, root_loggers, sdk_names, sdk_modules


def _settings(tree: ast.Module, text: str, base: Path | None) -> tuple[Setting, ...]:
    """Every place in ``tree`` (of the source ``text``) that sets a logging level or configures a
    handler (:class:`Setting`)."""

    def src(node: ast.expr) -> str:
        return ast.get_source_segment(text, node) or _dotted(node)

    consts, loggers, root_loggers, sdk_names, sdk_modules = _names(tree)
    top_level = {
        id(n)
        for top_stmt in tree.body
        if not isinstance(top_stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        for n in ast.walk(top_stmt)
    }
    out: list[Setting] = []
    sdk_called = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func, top = node.func, id(node) in top_level
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        if name == "basicConfig":
            forced = kw.get("force")
            force = isinstance(forced, ast.Constant) and forced.value is True
            level = _level_of(kw["level"], consts) if "level" in kw else Level(LEVELS["WARNING"])
            code = f"`{src(func)}(level={src(kw['level'])})`" if "level" in kw else f"`{src(func)}(...)`"
            out.append(Setting("override" if force else "basicConfig", level, code, node.lineno, top))
        elif name == "dictConfig":
            level = _dict_root_level(node.args[0] if node.args else None, consts)
            out.append(Setting("override", level, f"`{src(func)}(...)`", node.lineno, top))
        elif name == "fileConfig":
            level = _ini_root_level(node, base, consts)
            out.append(Setting("override", level, f"`{src(func)}(...)`", node.lineno, top))
        elif name == "setLevel" and isinstance(func, ast.Attribute) and node.args:
            recv, level = func.value, _level_of(node.args[0], consts)
            code = f"`{src(recv)}.setLevel({src(node.args[0])})`"
            if (
                _dotted(recv) in ("logging.root", "root")
                or (
                    isinstance(recv, ast.Call)
                    and _dotted(recv.func) in ("logging.getLogger", "getLogger")
                    and not recv.args
                )
                or (isinstance(recv, ast.Name) and recv.id in root_loggers)
            ):
                out.append(Setting("override", level, code, node.lineno, top))
            elif isinstance(recv, ast.Name) and recv.id in loggers:
                out.append(Setting("logger", level, code, node.lineno, top, logger=recv.id))
        elif name == "addHandler":
            out.append(Setting("handler", Level(None), f"`{src(func)}(...)`", node.lineno, top))
        elif (isinstance(func, ast.Name) and func.id in sdk_names) or (
            isinstance(func, ast.Attribute)
            and func.attr in {"FastMCP", "MCPServer"}
            and _dotted(func.value) in sdk_modules
        ):
            sdk_called = True
            level = _level_of(kw["log_level"], consts) if "log_level" in kw else Level(LEVELS["INFO"])
            name = src(func).rsplit(".", 1)[-1]
            code = f"`{name}(..., log_level={src(kw['log_level'])})`" if "log_level" in kw else f"`{name}`"
            out.append(Setting("sdk", level, code, node.lineno, top))
    if (
        sdk_names or any(m.split(".")[-1] in ("fastmcp", "mcpserver") for m in sdk_modules)
    ) and not sdk_called:  # imported and built elsewhere: its default
        name = sorted(sdk_names)[0] if sdk_names else "FastMCP"
        out.append(Setting("sdk", Level(LEVELS["INFO"]), f"`{name}`", 0, True))
    return tuple(out)


def _dotted(expr: ast.expr) -> str:
    try:
        return ast.unparse(expr)
    except Exception:  # an odd node: no name
        return ""


def _settings_of_source(source: bytes, base: Path | None) -> tuple[Setting, ...]:
    if not any(t in source for t in _LEVEL_TOKENS):
        return ()
    try:
        text = source.decode("utf-8", "replace")
        return _settings(ast.parse(text), text, base)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # newer syntax: not judged
        return ()


def _package_settings(top: Path, recursive: bool, skip: str, importer_of: str | None) -> list[tuple[str, Setting]]:
    """The :class:`Setting`\\ s of the modules under ``top`` (as :func:`_scan_package` walks it),
    with each file's path; with ``importer_of``, only of the modules that import that module (the
    scripts that run it: a folder of scripts is not one program)."""
    out: list[tuple[str, Setting]] = []
    for f in _package_files(top, recursive, skip):
        scan = _scan_file(f)
        if scan is None or (importer_of is not None and importer_of not in scan.imports):
            continue
        out.extend((f, s) for s in scan.settings)
    return out


@dataclass(frozen=True)
class _FileScan:
    """What one module of the program says about logging: what configures it (``configures``,
    :func:`_configures`), its level :class:`Setting`\\ s, and the top-level names it imports."""

    configures: str
    settings: tuple[Setting, ...]
    imports: frozenset[str]


#: (path, mtime_ns, size) -> the file's scan
_SCANNED: dict[tuple[str, int, int], _FileScan] = {}
_IMPORTS = re.compile(rb"^[ \t]*(?:from|import)[ \t]+([A-Za-z_][\w]*)", re.M)


def _scan_file(f: str) -> _FileScan | None:
    """:class:`_FileScan` of the regular file ``f`` (cached by its path, mtime and size); None
    when it cannot be read or is too large."""
    try:
        st = os.stat(f)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_BYTES:
            return None
        key = (f, st.st_mtime_ns, st.st_size)
        found = _SCANNED.get(key)
        if found is None:
            source = Path(f).read_bytes()
            configures = _configures_source(source) if any(t in source for t in _TOKENS) else ""
            imports = frozenset(m.decode() for m in _IMPORTS.findall(source))
            found = _SCANNED[key] = _FileScan(configures, _settings_of_source(source, Path(f).parent), imports)
        return found
    except (OSError, RuntimeError):
        return None


def effective_level(analysis: ModuleAnalysis, config: Config, logger: str | None) -> Effective | None:
    """The level from which the standard-library records of the module's ``logger`` (its
    module-level logger name, or None for another logger) are printed, and what sets it; None
    when nothing sets it or it cannot be read (a level from a variable the scan does not follow).

    In order: ``logger.setLevel(X)`` of the module; else the root logger's level as set by
    ``dictConfig`` / ``fileConfig`` / ``basicConfig(force=True)`` / ``<root>.setLevel`` (whichever
    runs sets it: the most restrictive counts); else by the first ``basicConfig`` that runs — the
    project's own or the one an SDK server's constructor makes (mcp 1.x ``FastMCP``, mcp 2.x
    ``MCPServer``: ``configure_logging(settings.log_level)``, INFO by default). ``basicConfig`` does
    nothing once the root logger has a handler (``logging.basicConfig``), so a call inside a
    function (``main()``) comes after a server built at import, and a module-level call before the
    server's constructor in the same module comes first; otherwise the order is unknown and the most
    restrictive counts. With handlers added (``addHandler``) and no level set anywhere, the root
    logger's default, WARNING."""

    def compute() -> Effective | None:
        code = analysis.code().encode("utf-8", "surrogatepass")
        own_path = os.path.realpath(analysis.path) if analysis.path is not None else "<module>"
        base = Path(own_path).parent if analysis.path is not None else None
        entries = [(own_path, s) for s in _settings_of_source(code, base)]
        if analysis.path is not None:
            path, root = Path(own_path), Path(os.path.realpath(config.root))
            top, recursive = _package_dir(path, root)
            entries += _package_settings(top, recursive, own_path, None if recursive else path.stem)
            if top != root:  # the project root's own scripts (`main.py` next to `pyproject.toml`)
                entries += _package_settings(root, False, own_path, top.name if recursive else path.stem)

        def rel(f: str) -> str:
            try:
                return Path(f).relative_to(os.path.realpath(config.root)).as_posix()
            except ValueError:
                return Path(f).name

        def strictest(found: list[tuple[str, Setting]]) -> Effective | None:
            if any(s.level.value is None for _f, s in found):
                return None
            f, s = max(found, key=lambda e: (e[1].level.value or 0, -e[1].line))
            return Effective(s.level.value or 0, s, rel(f))

        mine = [(f, s) for f, s in entries if f == own_path and s.kind == "logger" and s.logger == logger]
        if logger is not None and mine:
            eff = strictest(mine)
            if eff is None or eff.level > 0:  # NOTSET: the root logger's level applies
                return eff
        overrides = [(f, s) for f, s in entries if s.kind == "override"]
        if overrides:
            return strictest(overrides)
        sdk = [(f, s) for f, s in entries if s.kind == "sdk"]
        basic = [(f, s) for f, s in entries if s.kind == "basicConfig"]
        if any(s.top for _f, s in sdk):
            basic = [(f, s) for f, s in basic if s.top]
        # in one module, whichever of the two module-level calls comes first configures the root logger
        first_basic = [
            (f, b) for f, b in basic if not any(sf == f and s.top and b.top and s.line < b.line for sf, s in sdk)
        ]
        sdk = [(f, s) for f, s in sdk if not any(bf == f and b.top and s.top and b.line < s.line for bf, b in basic)]
        basic = first_basic
        if basic or sdk:
            return strictest(basic + sdk)
        handlers = [(f, s) for f, s in entries if s.kind == "handler"]
        if handlers:
            f, s = handlers[0]
            return Effective(LEVELS["WARNING"], s, rel(f))
        return None

    return analysis.memo(f"log_handlers.effective_level.{logger}", compute)


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


@dataclass(frozen=True)
class Script:
    """A console script of the project (``[project.scripts]``, ``[project.gui-scripts]``,
    ``[tool.poetry.scripts]``): its ``name``, its ``target`` (``pkg.server:main``) and, when the
    target is a top-level function of the checked module, that ``function``'s node (its
    ``if __name__ == "__main__":`` block never runs when the package is started through it)."""

    name: str
    target: str
    function: cst.FunctionDef | None


def _pyproject_scripts(pyproject: Path) -> list[tuple[str, str]]:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    out: list[tuple[str, str]] = []
    for table in (project.get("scripts"), project.get("gui-scripts"), poetry.get("scripts")):
        if not isinstance(table, dict):
            continue
        for name, target in table.items():
            if isinstance(target, dict):  # poetry: {reference = "...", type = "console"}
                target = target.get("reference")
            if isinstance(target, str) and ":" in target:
                out.append((str(name), target.strip()))
    return out


def console_scripts(analysis: ModuleAnalysis, config: Config) -> tuple[Script, ...]:
    """The console scripts of the nearest ``pyproject.toml`` above the module (not above the
    project root), each with the function of this module it calls, if any."""

    def compute() -> tuple[Script, ...]:
        if analysis.path is None:
            return ()
        path = Path(os.path.realpath(analysis.path))
        root = Path(os.path.realpath(config.root))
        for d in path.parents:
            pyproject = d / "pyproject.toml"
            if pyproject.is_file():
                break
            if d == root or d.parent == d:
                return ()
        else:
            return ()
        functions = {s.name.value: s for s in analysis.module.body if isinstance(s, cst.FunctionDef)}
        out = []
        for name, target in _pyproject_scripts(pyproject):
            module, _, attr = target.partition(":")
            parts = module.strip().split(".")
            here = any(
                os.path.realpath(base.joinpath(*parts[:-1], parts[-1] + ".py")) == str(path)
                or os.path.realpath(base.joinpath(*parts, "__init__.py")) == str(path)
                for base in (d, d / "src")
            )
            attr = attr.strip().split("[", 1)[0].strip()  # "main [extra]"
            out.append(Script(name, target, functions.get(attr) if here else None))
        return tuple(out)

    return analysis.memo("log_handlers.console_scripts", compute)

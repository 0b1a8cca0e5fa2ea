"""``[tool.mcpmigrate]`` configuration from ``pyproject.toml`` (README.md, "Configuration").

Keys: ``select``, ``extend-select``, ``ignore`` (rule ids or prefixes; ``extend-select`` also
takes ``unused-suppression``), ``exclude`` (glob patterns relative to the project root; replaces
the default excludes, as in ruff), ``extend-exclude`` (added to them), ``respect-gitignore``
(default true), ``per-file-ignores`` (``{glob = [ids]}``), ``strategy`` (``param`` | ``interim`` | ``config``),
``path-parameter`` (``{name = "root", description = "…"}``), ``target-version`` (``"py312"``,
as ruff spells it: the grammar files are parsed with; default: the lowest version
``[project].requires-python`` allows) and ``legacy-clients`` (default true: the project still
serves handshake-era clients, so what only they use is kept; false offers its removal) and
``target-sdk`` (``"mcp2"`` or ``"fastmcp4"``: port the project to that SDK generation — its port
rules, ``MCP501``–``MCP510`` and ``MCP522`` or ``MCP511``–``MCP520``, run only then). An unknown key, a wrong type
or an unknown rule id raises :class:`ConfigError` naming the file, the key and what was
expected; the CLI exits 2.

Discovery (as ruff does): without ``--config``, the nearest ``pyproject.toml`` at or above the
working directory that has a ``[tool.mcpmigrate]`` table; a ``pyproject.toml`` without the table
is skipped. ``--config`` takes a ``pyproject.toml`` or a plain TOML file whose top level holds
the same keys (e.g. ``mcpmigrate.toml``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpmigrate.files import DEFAULT_EXCLUDES
from mcpmigrate.model import STRATEGIES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# ``target-version`` values (ruff's spelling): the grammar files are parsed with.
TARGET_VERSIONS = tuple(f"py3{minor}" for minor in range(7, 16))
# ``target-sdk`` values: the SDK generations a project can be ported to (``--target-sdk``).
TARGET_SDKS = ("mcp2", "fastmcp4")
# The port rules (``MCP5xx``) run only when a target SDK is set: the port is opt-in.
PORT_RULE_PREFIX = "MCP5"
# Each target's own port rules: mcp 1.x → mcp 2.x (MCP501–MCP510, MCP522), fastmcp 2/3 → fastmcp 4
# (MCP511–MCP520).
PORT_RULES_OF: dict[str, tuple[int, ...]] = {"mcp2": (*range(501, 511), 522), "fastmcp4": tuple(range(511, 521))}


# The port family's rule of a project *not* being ported: its requirement admits the SDK generation
# its code cannot run on (MCP521; under a port the requirement is re-pinned instead).
UNPORTED_RULES = frozenset({"MCP521"})


def port_rules_off(rules: set[str], target_sdk: str | None) -> set[str]:
    """``rules`` without the port rules of every target but ``target-sdk`` (none when it is not
    set: the port is opt-in), and without :data:`UNPORTED_RULES` under a port."""
    own = PORT_RULES_OF.get(target_sdk or "", ())
    return {
        r
        for r in rules
        if not r.startswith(PORT_RULE_PREFIX) or int(r[3:]) in own or (r in UNPORTED_RULES and not target_sdk)
    }


def strategy_applies(strategy: str, fix_strategy: str) -> bool:
    """A ``fix`` run with ``--strategy strategy`` applies fixes of kind ``fix_strategy``: its own,
    and every kind that is not a choosable strategy (deletions, logging, subscriptions); under
    ``param`` also ``config``, the fix ``param`` gives a roots request whose answer gates access
    (issue 23: a parameter would let the caller choose the fence)."""
    return fix_strategy == strategy or fix_strategy not in STRATEGIES or (strategy, fix_strategy) == ("param", "config")


DEFAULT_PARAM_NAME = "root"
DEFAULT_PARAM_DESCRIPTION = "Absolute path of the directory to work in (formerly the client's MCP root)."
DEFAULT_LIST_PARAM_DESCRIPTION = "Absolute paths of the directories to work in (formerly the client's MCP roots)."


class ConfigError(Exception):
    """Invalid configuration; the message names the file and the key."""


@dataclass
class PathParameter:
    name: str = DEFAULT_PARAM_NAME
    description: str = DEFAULT_PARAM_DESCRIPTION
    list_name: str | None = None
    list_description: str = DEFAULT_LIST_PARAM_DESCRIPTION

    @property
    def plural(self) -> str:
        if self.list_name:
            return self.list_name
        return self.name if self.name.endswith("s") else self.name + "s"


@dataclass
class Config:
    root: Path = field(default_factory=Path.cwd)
    source: Path | None = None
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    # Effective exclude patterns: ``exclude`` (default: the built-in list) + ``extend-exclude``.
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDES))
    respect_gitignore: bool = True
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    strategy: str = "param"
    # ``strategy`` was chosen (the key, or ``fix --strategy``): a roots fence then follows it too;
    # by default a fence gets the ``config`` fix (codemods/configured.py)
    strategy_chosen: bool = False
    path_parameter: PathParameter = field(default_factory=PathParameter)
    # The Python version files are parsed as ("3.12"): ``target-version``, else the lowest
    # version the project's ``requires-python`` allows, else None (the running interpreter's).
    target_version: str | None = None
    # The project still serves legacy (handshake-era) clients: what only they use is not removed.
    legacy_clients: bool = True
    # The SDK generation to port the project to (``target-sdk``, ``--target-sdk``); None: no port.
    target_sdk: str | None = None

    def fingerprint(self) -> str:
        """A string that changes whenever a setting that affects results changes (cache key; the
        dependency pins each file's project declares are part of that file's key)."""
        return repr(
            (
                self.select,
                self.ignore,
                self.per_file_ignores,
                self.strategy,
                self.strategy_chosen,
                self.path_parameter,
                self.extend_select,
                self.target_version,
                self.legacy_clients,
                self.target_sdk,
            )
        )


_KEYS = {
    "select",
    "extend-select",
    "ignore",
    "exclude",
    "extend-exclude",
    "respect-gitignore",
    "per-file-ignores",
    "strategy",
    "path-parameter",
    "target-version",
    "legacy-clients",
    "target-sdk",
    "verify",  # [tool.mcpmigrate.verify]: how `mcpmigrate verify` runs the server (mcpmigrate.verify.settings)
}
# Checks that are not rules of the catalog and are off unless extend-selected.
EXTRA_CHECKS = ("unused-suppression",)


def _str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {_describe(value)}")
    return list(value)


def _describe(value: Any) -> str:
    names = {str: "a string", bool: "a boolean", int: "an integer", float: "a float", dict: "a table", list: "an array"}
    if isinstance(value, list) and value and not all(isinstance(v, str) for v in value):
        bad = next(v for v in value if not isinstance(v, str))
        return f"an array containing {names.get(type(bad), type(bad).__name__)} ({bad!r})"
    return (
        f"{names.get(type(value), type(value).__name__)} ({value!r})"
        if not isinstance(value, (dict, list))
        else names[type(value)]
    )


def _version_of_target(value: str) -> str:
    """``"py312"`` → ``"3.12"``."""
    return f"3.{value[3:]}"


def lowest_python(requires_python: str) -> str | None:
    """The lowest Python 3 minor version a ``requires-python`` specifier allows (``">=3.10,<4"``
    → ``"3.10"``; ``"~=3.11.2"`` → ``"3.11"``), or None when it allows none we know or is not a
    valid specifier (PEP 440)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        spec = SpecifierSet(requires_python)
    except InvalidSpecifier:
        return None
    for target in TARGET_VERSIONS:
        minor = _version_of_target(target)
        if any(spec.contains(f"{minor}.{patch}", prereleases=True) for patch in range(0, 30)):
            return minor
    return None


def _requires_python(start: Path) -> str | None:
    """``[project].requires-python`` of the nearest ``pyproject.toml`` at or above ``start``."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                return None
            value = data.get("project", {}).get("requires-python") if isinstance(data.get("project"), dict) else None
            return value if isinstance(value, str) else None
    return None


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` that has a ``[tool.mcpmigrate]``
    table (a plain ``pyproject.toml`` without it is skipped, as ruff does)."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                return candidate  # report the error when it is loaded
            if "mcpmigrate" in data.get("tool", {}):
                return candidate
    return None


def _read_table(path: Path) -> dict:
    """The ``[tool.mcpmigrate]`` table of ``path`` (a ``pyproject.toml``; any other file is the
    table itself). Raises :class:`ConfigError` when it cannot be read, is not UTF-8 or TOML, or
    the table is not a table."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8: {exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    table = data.get("tool", {}).get("mcpmigrate", {}) if path.name == "pyproject.toml" else data
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.mcpmigrate] must be a table")
    return table


def _path_parameter(value: dict, where: str) -> PathParameter:
    """``path-parameter`` (its table, already checked to be one). Raises :class:`ConfigError` on
    an unknown key, an empty or non-string value, or a name that is not an identifier."""
    for sub, subval in value.items():
        if sub not in ("name", "description", "list-name", "list-description"):
            raise ConfigError(
                f"{where}.path-parameter: unknown key {sub!r} (known: description, list-description, list-name, name)"
            )
        if not isinstance(subval, str) or not subval:
            raise ConfigError(f"{where}.path-parameter.{sub}: expected a non-empty string, got {_describe(subval)}")
    name = value.get("name", DEFAULT_PARAM_NAME)
    if not name.isidentifier():
        raise ConfigError(f"{where}.path-parameter.name: {name!r} is not a Python identifier")
    return PathParameter(
        name=name,
        description=value.get("description", DEFAULT_PARAM_DESCRIPTION),
        list_name=value.get("list-name"),
        list_description=value.get("list-description", DEFAULT_LIST_PARAM_DESCRIPTION),
    )


def _check_rule_ids(cfg: Config, where: str) -> None:
    """Every rule id the configuration names exists (a typo is an error, not a silent no-op)."""
    from mcpmigrate.catalog import select_rules

    checks = [
        ("select", cfg.select),
        ("ignore", cfg.ignore),
        ("extend-select", [i for i in cfg.extend_select if i.lower() not in EXTRA_CHECKS]),
    ]
    checks += [(f"per-file-ignores.{glob}", ids) for glob, ids in cfg.per_file_ignores.items()]
    for key, ids in checks:
        try:
            select_rules(ids or None, None)
        except ValueError as exc:
            raise ConfigError(f"{where}.{key}: {exc}") from exc


def load_config(path: Path | None = None, start: Path | None = None) -> Config:
    """Read the configuration from ``path`` or the nearest ``pyproject.toml`` above ``start``
    (default: the working directory). Without one, defaults apply. Raises :class:`ConfigError`."""
    if path is None:
        path = find_pyproject((start or Path.cwd()).resolve())
        if path is None:
            cfg = Config(root=(start or Path.cwd()).resolve())
            requires = _requires_python(cfg.root)
            cfg.target_version = lowest_python(requires) if requires else None
            return cfg
    table = _read_table(path)
    cfg = Config(root=path.resolve().parent, source=path)
    where = f"{path}: [tool.mcpmigrate]" if path.name == "pyproject.toml" else f"{path}:"
    extend_exclude: list[str] = []
    for key, value in table.items():
        if key not in _KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(_KEYS))})")
        if key == "select":
            cfg.select = _str_list(value, f"{where}.select")
        elif key == "ignore":
            cfg.ignore = _str_list(value, f"{where}.ignore")
        elif key == "extend-select":
            cfg.extend_select = _str_list(value, f"{where}.extend-select")
        elif key == "exclude":
            cfg.exclude = _str_list(value, f"{where}.exclude")
        elif key == "extend-exclude":
            extend_exclude = _str_list(value, f"{where}.extend-exclude")
        elif key == "respect-gitignore":
            if not isinstance(value, bool):
                raise ConfigError(
                    f"{where}.respect-gitignore: expected a boolean (true or false), got {_describe(value)}"
                )
            cfg.respect_gitignore = value
        elif key == "legacy-clients":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}.legacy-clients: expected a boolean (true or false), got {_describe(value)}")
            cfg.legacy_clients = value
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(
                    f"{where}.per-file-ignores: expected a table of glob = [rule ids], got {_describe(value)}"
                )
            cfg.per_file_ignores = {g: _str_list(v, f"{where}.per-file-ignores.{g}") for g, v in value.items()}
        elif key == "strategy":
            if value not in STRATEGIES:
                raise ConfigError(f"{where}.strategy: expected one of {', '.join(STRATEGIES)}, got {_describe(value)}")
            cfg.strategy = value
            cfg.strategy_chosen = True
        elif key == "path-parameter":
            if not isinstance(value, dict):
                raise ConfigError(
                    f"{where}.path-parameter: expected a table with name and description, got {_describe(value)}"
                )
            cfg.path_parameter = _path_parameter(value, where)
        elif key == "target-sdk":
            if value not in TARGET_SDKS:
                raise ConfigError(
                    f"{where}.target-sdk: expected one of {', '.join(TARGET_SDKS)}, got {_describe(value)}"
                )
            cfg.target_sdk = value
        elif key == "verify":
            if not isinstance(value, dict):
                raise ConfigError(
                    f"{where}.verify: expected a table ([tool.mcpmigrate.verify]), got {_describe(value)}"
                )
        elif key == "target-version":
            if value not in TARGET_VERSIONS:
                raise ConfigError(
                    f"{where}.target-version: expected one of {', '.join(TARGET_VERSIONS)}, got {_describe(value)}"
                )
            cfg.target_version = _version_of_target(value)
    cfg.exclude = cfg.exclude + extend_exclude
    if cfg.target_version is None:
        requires = _requires_python(cfg.root)
        cfg.target_version = lowest_python(requires) if requires else None
    _check_rule_ids(cfg, where)
    return cfg


# -- per-file configuration (as ruff resolves it) --------------------------------------------------
#: directories not searched for nested configurations (virtual environments, caches, VCS data)
_NO_CONFIG_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__", ".mcpmigrate_cache", ".tox"}


def nested_configs(directory: Path) -> list[Path]:
    """The ``pyproject.toml`` files with a ``[tool.mcpmigrate]`` table strictly below
    ``directory`` (hidden directories, virtual environments and caches skipped), outermost first."""
    import os

    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(n for n in dirnames if n not in _NO_CONFIG_DIRS and not n.startswith("."))
        if dirpath != str(directory) and "pyproject.toml" in filenames:
            candidate = Path(dirpath) / "pyproject.toml"
            if find_pyproject(candidate.parent) == candidate:
                found.append(candidate)
    return found


def group_by_config(paths: list[Path], fallback: Config, load=load_config) -> list[tuple[Config, list[Path]]]:
    """The paths of one run grouped by the configuration that applies to them, as ruff resolves
    it: each file uses the nearest ``pyproject.toml`` with a ``[tool.mcpmigrate]`` table above it
    (``fallback``, the working directory's, where there is none); a directory given on the
    command line that holds such a file deeper down hands that subtree to it (excluded from its
    own group). Returns ``(config, paths)`` in the order first met. Raises :class:`ConfigError`
    for an invalid configuration."""
    import dataclasses

    groups: dict[Path | None, tuple[Config, list[Path]]] = {}
    loaded: dict[Path, Config] = {}

    def config_of(found: Path | None) -> Config:
        if found is None:
            return fallback
        if found not in loaded:
            loaded[found] = fallback if fallback.source == found else load(found)
        return loaded[found]

    def add(found: Path | None, path: Path) -> None:
        groups.setdefault(found, (config_of(found), []))[1].append(path)

    for path in paths:
        absolute = path.resolve() if path.exists() else path.absolute()
        found = find_pyproject(absolute if absolute.is_dir() else absolute.parent)
        add(found, path)
        if not absolute.is_dir():
            continue
        for nested in nested_configs(absolute):
            add(nested, path / nested.parent.relative_to(absolute))
            above = find_pyproject(nested.parent.parent)  # the configuration the subtree leaves
            if above not in groups:
                continue
            owner = groups[above]
            try:
                pattern = nested.parent.relative_to(owner[0].root).as_posix()
            except ValueError:
                continue
            groups[above] = (dataclasses.replace(owner[0], exclude=[*owner[0].exclude, pattern]), owner[1])
    return list(groups.values())

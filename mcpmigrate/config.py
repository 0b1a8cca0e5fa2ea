"""``[tool.mcpmigrate]`` configuration from ``pyproject.toml`` (DESIGN §6).

Keys: ``select``, ``ignore`` (rule ids or prefixes), ``exclude`` (glob patterns relative to the
project root), ``per-file-ignores`` (``{glob = [ids]}``), ``strategy`` (``param`` | ``interim``)
and ``path-parameter`` (``{name = "root", description = "…"}``). An unknown key, a wrong type
or an unknown rule id raises :class:`ConfigError` naming the file and the key; the CLI exits 2.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

STRATEGIES = ("param", "interim")
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
    exclude: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    strategy: str = "param"
    path_parameter: PathParameter = field(default_factory=PathParameter)

    def fingerprint(self) -> str:
        """A string that changes whenever a setting that affects results changes (cache key)."""
        return repr((self.select, self.ignore, self.per_file_ignores, self.strategy, self.path_parameter))


_KEYS = {"select", "ignore", "exclude", "extend-exclude", "per-file-ignores", "strategy", "path-parameter"}


def _str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {type(value).__name__}")
    return list(value)


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


def load_config(path: Path | None = None, start: Path | None = None) -> Config:
    """Read the configuration from ``path`` or the nearest ``pyproject.toml`` above ``start``
    (default: the working directory). Without one, defaults apply. Raises :class:`ConfigError`."""
    if path is None:
        path = find_pyproject((start or Path.cwd()).resolve())
        if path is None:
            return Config(root=(start or Path.cwd()).resolve())
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
    cfg = Config(root=path.resolve().parent, source=path)
    where = f"{path}: [tool.mcpmigrate]"
    for key, value in table.items():
        if key not in _KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(_KEYS))})")
        if key == "select":
            cfg.select = _str_list(value, f"{where}.select")
        elif key == "ignore":
            cfg.ignore = _str_list(value, f"{where}.ignore")
        elif key in ("exclude", "extend-exclude"):
            cfg.exclude += _str_list(value, f"{where}.{key}")
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}.per-file-ignores: expected a table of glob = [rule ids]")
            cfg.per_file_ignores = {g: _str_list(v, f"{where}.per-file-ignores.{g}") for g, v in value.items()}
        elif key == "strategy":
            if value not in STRATEGIES:
                raise ConfigError(f"{where}.strategy: expected one of {', '.join(STRATEGIES)}, got {value!r}")
            cfg.strategy = value
        elif key == "path-parameter":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}.path-parameter: expected a table with name and description")
            for sub, subval in value.items():
                if sub not in ("name", "description", "list-name", "list-description"):
                    raise ConfigError(f"{where}.path-parameter: unknown key {sub!r}")
                if not isinstance(subval, str) or not subval:
                    raise ConfigError(f"{where}.path-parameter.{sub}: expected a non-empty string")
            name = value.get("name", DEFAULT_PARAM_NAME)
            if not name.isidentifier():
                raise ConfigError(f"{where}.path-parameter.name: {name!r} is not a Python identifier")
            cfg.path_parameter = PathParameter(
                name=name,
                description=value.get("description", DEFAULT_PARAM_DESCRIPTION),
                list_name=value.get("list-name"),
                list_description=value.get("list-description", DEFAULT_LIST_PARAM_DESCRIPTION),
            )
    # Validate rule ids now so a typo is an error, not a silent no-op.
    from mcpmigrate.catalog import select_rules

    try:
        select_rules(cfg.select, cfg.ignore)
        for glob, ids in cfg.per_file_ignores.items():
            select_rules(ids, None)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    return cfg

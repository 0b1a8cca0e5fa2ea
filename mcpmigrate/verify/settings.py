"""What ``mcpmigrate verify`` reads from a project: ``[tool.mcpmigrate.verify]`` (README.md,
"Verify the migration") and how the server is started.

``[tool.mcpmigrate.verify]`` keys: ``command`` (argv as a list, or one string split like a shell
does; a first item ``python`` is the environment's interpreter, a name of ``[project.scripts]``
runs that entry point of the checked-out code), ``calls`` (``[{tool = "name", arguments = {...}}]``,
the only tools verify calls), ``env`` (extra environment variables), ``timeout`` (seconds for the
server to start and for each request; default 30), ``mask`` (regular expressions for values that
differ on every run, such as generated ids: replaced by ``<masked>`` before comparing). ``{project}`` in ``command``, ``env`` and call
arguments is the directory the server runs in.
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT_TIMEOUT = 30.0
PROJECT = "{project}"
KEYS = ("command", "calls", "env", "timeout", "mask")
# A module-level server file, started as a script, when nothing else is declared.
SCRIPT_NAMES = ("server.py", "main.py", "app.py", "__main__.py")


class SettingsError(Exception):
    """Invalid ``[tool.mcpmigrate.verify]``, or no way to start the server; the message says which."""


@dataclass
class Settings:
    """``[tool.mcpmigrate.verify]``; ``source`` is the file it was read from (None: defaults)."""

    command: list[str] | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    mask: list[str] = field(default_factory=list)
    source: Path | None = None


def read_pyproject(directory: Path) -> dict[str, Any]:
    """``directory/pyproject.toml`` parsed, ``{}`` when there is none. Raises
    :class:`SettingsError` when it is not valid TOML."""
    path = directory / "pyproject.toml"
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"{path}: cannot read: {exc}") from exc


def load_settings(directory: Path) -> Settings:
    """The ``[tool.mcpmigrate.verify]`` table of ``directory/pyproject.toml``, checked.

    Raises :class:`SettingsError` naming the key and what was expected."""
    data = read_pyproject(directory)
    table = data.get("tool", {}).get("mcpmigrate", {}).get("verify")
    if table is None:
        return Settings()
    where = "pyproject.toml: [tool.mcpmigrate.verify]"
    if not isinstance(table, dict):
        raise SettingsError(f"{where}: expected a table")
    out = Settings(source=directory / "pyproject.toml")
    for key, value in table.items():
        if key not in KEYS:
            raise SettingsError(f"{where}: unknown key {key!r} (known: {', '.join(KEYS)})")
        if key == "command":
            if isinstance(value, str):
                value = shlex.split(value)
            if not (isinstance(value, list) and value and all(isinstance(v, str) for v in value)):
                raise SettingsError(f"{where}.command: expected a list of strings (the server's argv) or a string")
            out.command = value
        elif key == "calls":
            out.calls = _calls(value, f"{where}.calls")
        elif key == "env":
            if not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
                raise SettingsError(f"{where}.env: expected a table of strings")
            out.env = dict(value)
        elif key == "mask":
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise SettingsError(f"{where}.mask: expected a list of regular expressions")
            for pattern in value:
                try:
                    re.compile(pattern)
                except re.error as exc:
                    raise SettingsError(f"{where}.mask: {pattern!r}: {exc}") from exc
            out.mask = list(value)
        elif key == "timeout":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise SettingsError(f"{where}.timeout: expected a positive number of seconds, got {value!r}")
            out.timeout = float(value)
    return out


def _calls(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise SettingsError(f'{where}: expected a list of tables ({{tool = "name", arguments = {{...}}}})')
    out = []
    for i, call in enumerate(value):
        if not isinstance(call, dict) or not isinstance(call.get("tool"), str):
            raise SettingsError(f"{where}[{i}]: expected a table with a `tool` name")
        unknown = set(call) - {"tool", "arguments"}
        if unknown:
            raise SettingsError(f"{where}[{i}]: unknown key {sorted(unknown)[0]!r} (known: tool, arguments)")
        arguments = call.get("arguments", {})
        if not isinstance(arguments, dict):
            raise SettingsError(f"{where}[{i}].arguments: expected a table")
        out.append({"tool": call["tool"], "arguments": arguments})
    return out


def substitute(value: Any, project: str) -> Any:
    """``value`` with ``{project}`` replaced in every string."""
    if isinstance(value, str):
        return value.replace(PROJECT, project)
    if isinstance(value, list):
        return [substitute(v, project) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, project) for k, v in value.items()}
    return value


# Runs a ``[project.scripts]`` entry point ("module:attr.attr") of the code on PYTHONPATH, as the
# console script pip would write for it does (packaging.python.org, "Entry points specification").
ENTRY_POINT = (
    "import importlib, sys\n"
    "target, name = sys.argv[1], sys.argv[2]\n"
    "module, _, attrs = target.partition(':')\n"
    "obj = importlib.import_module(module.strip())\n"
    "for attr in attrs.split('[')[0].strip().split('.'):\n"
    "    obj = getattr(obj, attr) if attr else obj\n"
    "sys.argv = [name, *sys.argv[3:]]\n"
    "sys.exit(obj())\n"
)


def launch(tree: Path, python: str, settings: Settings) -> tuple[list[str], str]:
    """The argv that starts the server of ``tree`` with ``python``, and how it was chosen.

    In order: ``command`` of ``settings``; the one console script of ``[project.scripts]`` (or the
    one named like the project); ``python -m pkg`` for the one package with a ``__main__.py``
    (beside ``pyproject.toml`` or under ``src/``); a top-level ``server.py``/``main.py``/``app.py``
    that runs itself (``if __name__ == "__main__"``). Raises :class:`SettingsError` when none
    applies or the choice is ambiguous."""
    scripts = read_pyproject(tree).get("project", {}).get("scripts", {}) or {}
    if settings.command:
        first, rest = settings.command[0], substitute(settings.command[1:], str(tree))
        declared = f"{shlex.join(settings.command)} ([tool.mcpmigrate.verify] command)"
        if first in ("python", "python3"):
            return [python, *rest], declared
        if first in scripts:
            return [python, "-c", ENTRY_POINT, scripts[first], first, *rest], f"console script {declared}"
        return [first, *rest], declared
    if scripts:
        name = read_pyproject(tree).get("project", {}).get("name")
        chosen = next(iter(scripts)) if len(scripts) == 1 else name if name in scripts else None
        if chosen is None:
            raise SettingsError(
                f"[project.scripts] has {len(scripts)} console scripts ({', '.join(sorted(scripts))}): name the "
                'server\'s in [tool.mcpmigrate.verify] command = ["<script>", ...]'
            )
        return [python, "-c", ENTRY_POINT, scripts[chosen], chosen], f"console script {chosen} ({scripts[chosen]})"
    mains = sorted({p.parent.name for base in (tree, tree / "src") for p in base.glob("*/__main__.py")})
    if len(mains) == 1:
        return [python, "-m", mains[0]], f"python -m {mains[0]}"
    scripts_found = [
        name
        for name in SCRIPT_NAMES[:-1]
        if (tree / name).is_file() and "__main__" in (tree / name).read_text(encoding="utf-8", errors="replace")
    ]
    if len(mains) == 0 and len(scripts_found) == 1:
        return [python, scripts_found[0]], f"python {scripts_found[0]}"
    raise SettingsError(
        "cannot tell how to start the server (no console script in [project.scripts], "
        + (f"several packages with __main__.py: {', '.join(mains)}" if mains else "no package with __main__.py")
        + '): declare it in [tool.mcpmigrate.verify] command = ["python", "-m", "your_server"]'
    )


def pythonpath(tree: Path) -> list[str]:
    """Where the checked-out code is imported from: ``src/`` (a src layout) and the tree itself."""
    return [str(p) for p in (tree / "src", tree) if p.is_dir()]

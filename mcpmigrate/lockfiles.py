"""The lockfile that resolves a project, and the versions it resolves.

uv (``uv.lock``), poetry (``poetry.lock``) and pdm (``pdm.lock``) all write TOML with one
``[[package]]`` table per resolved distribution, holding its ``name`` and ``version`` (an
editable workspace member has no ``version``). A lockfile next to the project's declarations is
the project's own; uv also locks a whole workspace in one ``uv.lock`` at its root, listing the
workspace's projects under ``[manifest] members`` — such a lock counts for a project only when it
is listed there. Read with ``tomllib``; names compared canonicalized (``packaging.utils``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from mcpmigrate.files import read_regular

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

NAMES = ("uv.lock", "poetry.lock", "pdm.lock")
MAX_BYTES = 8 * 1024 * 1024  # real uv.lock files run to ~1 MiB


def find(directory: Path, max_levels: int) -> tuple[Path, str | None] | None:
    """The lockfile that resolves the project declared in ``directory``, and the project name a
    workspace lock must list as a member (None: the lock is the project's own). A ``uv.lock``,
    ``poetry.lock`` or ``pdm.lock`` next to the declarations; else the ``uv.lock`` of the nearest
    directory above, within the repository (a ``.git`` ends the walk), up to ``max_levels`` up."""
    for name in NAMES:
        if (directory / name).is_file():
            return directory / name, None
    current = directory
    for _ in range(max_levels):
        if (current / ".git").exists() or current.parent == current:
            return None
        current = current.parent
        if (current / "uv.lock").is_file():
            member = project_name(directory)
            return (current / "uv.lock", member) if member else None
    return None


def project_name(directory: Path) -> str | None:
    """``[project].name`` (or poetry's ``[tool.poetry].name``) of the pyproject in ``directory``."""
    try:
        data = tomllib.loads(read_regular(directory / "pyproject.toml", MAX_BYTES).decode("utf-8", errors="replace"))
    except (OSError, ValueError):  # unreadable, too large, not a regular file (a FIFO), not TOML
        return None
    tool = data.get("tool")
    for table in (data.get("project"), tool.get("poetry") if isinstance(tool, dict) else None):
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            return str(table["name"])
    return None


def locked_versions(text: str, wanted: Mapping[str, object], member: str | None) -> Iterator[tuple[str, str]]:
    """``(name, version)`` of each ``[[package]]`` of the lockfile ``text`` whose canonical name is
    a key of ``wanted``; nothing when a workspace lock does not list ``member`` among its
    ``[manifest] members``, or the text is not TOML."""
    from packaging.utils import canonicalize_name

    if not any(f'name = "{name}"' in text for name in wanted):
        return  # none of them in it: not worth parsing (locks are large)
    data = _tables(text, wanted, member is not None)
    if data is None:
        return
    if member is not None:
        manifest = data.get("manifest")
        members = manifest.get("members") if isinstance(manifest, dict) else None
        if not isinstance(members, list) or canonicalize_name(member) not in {
            canonicalize_name(str(m)) for m in members
        }:
            return
    packages = data.get("package")
    for entry in packages if isinstance(packages, list) else []:
        if not isinstance(entry, dict):
            continue
        name, version = entry.get("name"), entry.get("version")
        if isinstance(name, str) and isinstance(version, str) and canonicalize_name(name) in wanted:
            yield name, version


_HEADER = re.compile(r"^\[", re.MULTILINE)
_NAME = re.compile(r"""^name[ \t]*=[ \t]*["']([^"'\n]+)["']""", re.MULTILINE)


def _tables(text: str, wanted: Mapping[str, object], manifest: bool) -> dict | None:
    """The parts of the lockfile ``text`` :func:`locked_versions` reads: the ``[[package]]``
    tables of the ``wanted`` names and, with ``manifest``, the ``[manifest]`` table (None: not
    TOML). Each top-level table is parsed on its own (a uv.lock runs to thousands of lines; the
    SDKs are a few of its tables); when a table's name cannot be read off its text, none of
    them is a wanted one, or a table does not parse alone, the whole text is parsed instead."""
    from packaging.utils import canonicalize_name

    starts = [m.start() for m in _HEADER.finditer(text)]
    packages: list[object] = []
    out: dict = {"package": packages}
    try:
        for at, end in zip(starts, [*starts[1:], len(text)]):
            chunk = text[at:end]
            if chunk.startswith("[[package]]"):
                m = _NAME.search(chunk)
                if m is None:
                    return tomllib.loads(text)
                if canonicalize_name(m.group(1)) in wanted:
                    packages += tomllib.loads(chunk)["package"]
            elif manifest and chunk.startswith("[manifest]"):
                out["manifest"] = tomllib.loads(chunk)["manifest"]
        return out if packages else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, KeyError):
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return None

"""The SDK generations a project pins: which of fastmcp 2.x/3.x vs 4.x, and mcp 1.x vs
2.x, its dependency declarations allow.

The interim fix needs fastmcp 4 (guard pattern) or mcp >= 2.3 (resolvers, ``InputRequiredResult``);
the code alone does not always say which generation it runs on. The nearest project files say it
better. Read, in the nearest directory at or above the start that has any of them:

- ``pyproject.toml``: ``[project].dependencies`` (PEP 621), ``[tool.poetry.dependencies]`` and
  ``[tool.poetry.group.<name>.dependencies]`` (poetry constraints: ``^4.2``, ``~4.2``, ``4.2.3``,
  ``>=4,<5``, ``||`` alternatives), ``[dependency-groups]`` (PEP 735);
- ``requirements*.txt`` (up to four files: comments, ``\\`` continuations, extras and markers are
  handled; ``-r``/``-c``/``-e`` and other option lines are skipped, not followed);
- ``setup.cfg``: ``[options] install_requires``;
- the lockfile that resolves the project, when there is one (:mod:`mcpmigrate.lockfiles`:
  ``uv.lock``, ``poetry.lock``, ``pdm.lock``, or a uv workspace's root ``uv.lock``).

Versions and specifiers are parsed by ``packaging`` (PEP 440/508); poetry's caret and tilde are
translated to PEP 440 ranges first. A requirement decides a generation only when *every* version it
allows is on one side of the boundary (``fastmcp>=4``, ``fastmcp==4.2.3`` → 4; ``fastmcp<3``,
``fastmcp==2.14.*``, ``~=3.0`` → 2.x/3.x; ``fastmcp>=2`` or an unpinned ``fastmcp`` → nothing).
Requirements that disagree (``fastmcp>=4`` in one file, ``fastmcp<3`` in another) decide nothing.
Markers are not evaluated: the declarations are constraints of the project, not of this process.
A locked version is what the project actually runs on: it decides before the declarations (a
lower bound such as ``fastmcp>=3.2.0`` decides nothing; its lock's ``fastmcp 3.4.3`` does).

Cheap by construction: the files are found with a few ``stat`` calls and parsed once per directory
and file state per process (``functools.lru_cache``); a handful of small files (each read only if
under 256 KiB, a lockfile under 8 MiB and only parsed when it names an SDK); callers ask only when a finding needs the generation (once per module).
"""

from __future__ import annotations

import configparser
import hashlib
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from mcpmigrate import lockfiles
from mcpmigrate.files import read_regular

# `packaging` is imported where a pin is read (only for files with a finding): a warm run that
# only computes the cache key (:func:`signature`) never pays for it.
if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MAX_BYTES = 256 * 1024
MAX_REQUIREMENTS_FILES = 4
MAX_LEVELS = 12
# Package name (canonical) -> the SDK it is, and the first major of the new generation.
PACKAGES = {"fastmcp": "fastmcp", "fastmcp-slim": "fastmcp", "mcp": "mcp"}
BOUNDARY = {"fastmcp": 4, "mcp": 2}

AT_LEAST, BELOW = "at-least", "below"


@dataclass(frozen=True)
class Pin:
    """One requirement of an SDK package, as written, and where."""

    package: str  # "fastmcp" | "mcp"
    text: str  # e.g. "fastmcp>=4", "fastmcp = ^4.2"
    source: str  # e.g. "pyproject.toml [project.dependencies]"
    alternatives: tuple[SpecifierSet, ...]  # any one of them (poetry `||`); usually one
    locked: bool = False  # a resolved version from a lockfile, not a declaration

    def side(self) -> str | None:
        """``AT_LEAST`` / ``BELOW`` the package's boundary major for every allowed version, else None."""
        sides = {spec_side(spec, BOUNDARY[self.package]) for spec in self.alternatives}
        return sides.pop() if len(sides) == 1 else None

    def describe(self) -> str:
        return f"`{self.text}` locked in {self.source}" if self.locked else f"`{self.text}` in {self.source}"

    def admits_below(self, major: int) -> bool:
        """Some version it allows has a major below ``major`` (``fastmcp>=2.0,<3``, a bare
        ``fastmcp``; not ``fastmcp==3.4.11``)."""
        return any(spec_side(spec, major) != AT_LEAST for spec in self.alternatives)

    def stated(self) -> str:
        """What the project says, as a verb phrase: ``pins `fastmcp>=4` in pyproject.toml`` or
        ``locks `fastmcp==3.4.3` in uv.lock``."""
        return f"{'locks' if self.locked else 'pins'} `{self.text}` in {self.source}"


@dataclass(frozen=True)
class Verdict:
    """What the project's pins say about one SDK: ``new`` (fastmcp 4 / mcp 2) or not, and the pin."""

    package: str
    new: bool
    pin: Pin

    def describe(self) -> str:
        return self.pin.describe()


@dataclass(frozen=True)
class Pins:
    directory: Path | None  # where the project files were found (None: nowhere)
    pins: tuple[Pin, ...] = ()
    locked: tuple[Pin, ...] = ()  # the versions the project's lockfile resolves

    def verdict(self, package: str) -> Verdict | None:
        """The generation of ``package`` the project runs on: the locked version(s) when the lockfile
        has the package, else what every declared requirement agrees on; None when nothing decides
        or the pins disagree. The pin named is the declaration when it agrees with the lock (that
        is what a user edits to upgrade), else the locked version."""
        locked = _agree([p for p in self.locked if p.package == package], package)
        declared = _agree([p for p in self.pins if p.package == package], package)
        if locked is None or (declared is not None and declared.new == locked.new):
            return declared or locked
        return locked

    def open_pin(self, package: str) -> Pin | None:
        """A declared requirement of ``package`` whose versions admit both generations
        (``fastmcp>=3.2.0``), when nothing decides the generation; else None. A requirement without
        a version (``fastmcp``) names no generation at all: not one of these."""
        if self.verdict(package) is not None:
            return None
        return next(
            (p for p in self.pins if p.package == package and p.side() is None and any(len(a) for a in p.alternatives)),
            None,
        )


def _agree(found: list[Pin], package: str) -> Verdict | None:
    if not found:
        return None
    decided = [(p, p.side()) for p in found]
    sides = {side for _, side in decided if side is not None}
    if len(sides) != 1:
        return None
    side = sides.pop()
    pin = next(p for p, s in decided if s == side)
    return Verdict(package, side == AT_LEAST, pin)


def spec_side(spec: SpecifierSet, boundary: int) -> str | None:
    """``AT_LEAST`` when every version ``spec`` allows has a major >= ``boundary``, ``BELOW`` when
    every one is below it, None when it allows both (or is unsatisfiable on that question)."""
    from packaging.version import InvalidVersion, Version

    lower = upper = False  # some specifier bounds the versions from below / above the boundary
    for sp in spec:
        op = sp.operator
        try:
            v = Version(sp.version[:-2] if sp.version.endswith(".*") else sp.version)
        except InvalidVersion:
            continue
        if op in ("==", "===", "~="):  # one release series: its major decides
            lower, upper = lower or v.major >= boundary, upper or v.major < boundary
        elif op in (">=", ">"):
            lower = lower or v.major >= boundary
        elif op == "<":
            upper = upper or v <= Version(str(boundary))
        elif op == "<=":
            upper = upper or v.major < boundary
    if lower and upper:
        return None  # e.g. `>=4,<3`: allows nothing; not ours to judge
    return AT_LEAST if lower else BELOW if upper else None


# ---------------------------------------------------------------------------------------------
# Reading the files


def read_text(path: Path, limit: int = MAX_BYTES) -> str | None:
    """The text of the regular file ``path`` (universal newlines, undecodable bytes replaced), or
    None when it cannot be read, is too large or is not a regular file (a FIFO is never opened)."""
    try:
        text = read_regular(path, limit).decode("utf-8", errors="replace")
    except (OSError, ValueError):  # unreadable, too large, not a regular file (a FIFO)
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as read_text reads


def _pep508(text: str, source: str) -> Pin | None:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        req = Requirement(text.strip())
    except InvalidRequirement:
        return None
    package = PACKAGES.get(canonicalize_name(req.name))
    if package is None or req.url:
        return None
    return Pin(package, text.strip(), source, (req.specifier,))


def poetry_specifiers(constraint: str) -> tuple[SpecifierSet, ...] | None:
    """A poetry version constraint as PEP 440 specifier sets (one per ``||`` alternative); None
    when it cannot be read. ``^1.2.3`` → ``>=1.2.3,<2.0.0``; ``^0.2`` → ``>=0.2,<0.3``; ``~1.2`` →
    ``>=1.2,<1.3``; ``~1`` → ``>=1,<2``; a bare version is ``==``; ``*`` allows everything."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    out = []
    for alternative in constraint.split("||"):
        parts = []
        for raw in alternative.split(","):
            part = raw.strip()
            if not part or part == "*":
                continue
            try:
                if part.startswith("^"):
                    v = Version(part[1:].strip())
                    release = list(v.release)
                    i = next((k for k, x in enumerate(release) if x != 0), len(release) - 1)
                    upper = release[:i] + [release[i] + 1]
                    parts += [f">={v}", f"<{'.'.join(map(str, upper))}"]
                elif part.startswith("~") and not part.startswith("~="):
                    v = Version(part[1:].strip())
                    release = list(v.release)
                    upper = [release[0] + 1] if len(release) == 1 else [release[0], release[1] + 1]
                    parts += [f">={v}", f"<{'.'.join(map(str, upper))}"]
                elif part[0].isdigit():
                    parts.append(f"=={part}")
                else:
                    parts.append(part.replace(" ", ""))
            except (InvalidVersion, IndexError):
                return None
        try:
            out.append(SpecifierSet(",".join(parts)))
        except InvalidSpecifier:
            return None
    return tuple(out) or None


def _poetry(table: object, source: str) -> Iterator[Pin]:
    from packaging.utils import canonicalize_name

    if not isinstance(table, dict):
        return
    for name, value in table.items():
        package = PACKAGES.get(canonicalize_name(str(name)))
        if package is None:
            continue
        entries = value if isinstance(value, list) else [value]
        alternatives: list[SpecifierSet] = []
        shown = []
        for entry in entries:
            constraint = entry.get("version") if isinstance(entry, dict) else entry
            if not isinstance(constraint, str):
                continue  # a path / git dependency: no version
            specs = poetry_specifiers(constraint)
            if specs is None:
                continue
            alternatives += specs
            shown.append(constraint)
        if alternatives:
            yield Pin(package, f"{name} = {' | '.join(repr(s) for s in shown)}", source, tuple(alternatives))


def _from_pyproject(path: Path, label: str) -> Iterator[Pin]:
    text = read_text(path)
    if text is None:
        return
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    project = data.get("project")
    if isinstance(project, dict) and isinstance(project.get("dependencies"), list):
        for dep in project["dependencies"]:
            if isinstance(dep, str):
                pin = _pep508(dep, f"{label} [project.dependencies]")
                if pin:
                    yield pin
    poetry = (data.get("tool") or {}).get("poetry") if isinstance(data.get("tool"), dict) else None
    if isinstance(poetry, dict):
        yield from _poetry(poetry.get("dependencies"), f"{label} [tool.poetry.dependencies]")
        groups = poetry.get("group")
        if isinstance(groups, dict):
            for gname, group in groups.items():
                if isinstance(group, dict):
                    yield from _poetry(group.get("dependencies"), f"{label} [tool.poetry.group.{gname}.dependencies]")
    groups = data.get("dependency-groups")
    if isinstance(groups, dict):
        for gname, deps in groups.items():
            for dep in deps if isinstance(deps, list) else []:
                if isinstance(dep, str):  # an {include-group = …} table: that group is read on its own
                    pin = _pep508(dep, f"{label} [dependency-groups.{gname}]")
                    if pin:
                        yield pin


def requirement_lines(text: str) -> Iterator[str]:
    """The requirement specifiers of a requirements file: continuations joined, comments and
    option lines (``-r``, ``-e``, ``--hash`` …) dropped, per-requirement options cut off."""
    logical = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.endswith("\\"):
            logical += line[:-1] + " "
            continue
        logical += line
        line, logical = logical, ""
        if line.lstrip().startswith("#"):
            continue
        hash_at = next((i for i, ch in enumerate(line) if ch == "#" and (i == 0 or line[i - 1].isspace())), None)
        if hash_at is not None:
            line = line[:hash_at]
        line = line.strip()
        if not line or line.startswith("-"):
            continue
        cut = line.find(" -")  # `pkg==1 --hash=sha256:…`
        yield (line[:cut] if cut != -1 else line).strip()


def _from_requirements(path: Path, label: str) -> Iterator[Pin]:
    text = read_text(path)
    if text is None:
        return
    for line in requirement_lines(text):
        pin = _pep508(line, label)
        if pin:
            yield pin


def _from_setup_cfg(path: Path, label: str) -> Iterator[Pin]:
    text = read_text(path)
    if text is None:
        return
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
        value = parser.get("options", "install_requires", fallback="")
    except configparser.Error:
        return
    for line in requirement_lines(value):
        pin = _pep508(line, f"{label} [options] install_requires")
        if pin:
            yield pin


@lru_cache(maxsize=64)
def _locked(lock: str, member: str | None, stamp: tuple[int, int]) -> tuple[tuple[str, str], ...]:
    """The ``(name, version)`` SDK entries of a lockfile, parsed once per lock path, member and
    file state ``stamp`` (a uv.lock is large: every directory of a project shares it)."""
    text = read_text(Path(lock), lockfiles.MAX_BYTES)
    return () if text is None else tuple(lockfiles.locked_versions(text, PACKAGES, member))


def _from_lock(path: Path, label: str, member: str | None) -> Iterator[Pin]:
    """The SDK versions the lockfile at ``path`` resolves (:func:`.lockfiles.locked_versions`)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.utils import canonicalize_name

    for name, version in _locked(str(path), member, _stamp(path)):
        try:
            spec = SpecifierSet(f"=={version}")
        except InvalidSpecifier:
            continue
        yield Pin(PACKAGES[canonicalize_name(name)], f"{name}=={version}", label, (spec,), locked=True)


def project_files(directory: Path) -> list[tuple[Path, str]]:
    """The dependency files of ``directory`` :mod:`mcpmigrate.pins` reads, with their kind
    (``pyproject``, ``setup.cfg``, ``requirements``): where the port re-pins and MCP517 looks."""
    out: list[tuple[Path, str]] = []
    for name, kind in (("pyproject.toml", "pyproject"), ("setup.cfg", "setup.cfg")):
        if (directory / name).is_file():
            out.append((directory / name, kind))
    try:
        reqs = sorted(p for p in directory.glob("requirements*.txt") if p.is_file())
    except OSError:
        reqs = []
    out += [(p, "requirements") for p in reqs[:MAX_REQUIREMENTS_FILES]]
    return out


def _label(path: Path, start: Path, cwd: Path) -> str:
    """A project file's path as the user sees it: relative to the working directory ``cwd`` when
    under it, else relative to ``start``."""
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return os.path.relpath(path, start) if path.is_absolute() else str(path)


def _pins_in(files: Iterable[tuple[Path, str]], start: Path, cwd: Path) -> Iterator[Pin]:
    """The pins the ``files`` declare, each labelled with :func:`_label`."""
    readers = {"pyproject": _from_pyproject, "setup.cfg": _from_setup_cfg, "requirements": _from_requirements}
    for path, kind in files:
        yield from readers[kind](path, _label(path, start, cwd))


def _nearest(start: Path) -> tuple[Path | None, list[tuple[Path, str]]]:
    current = start
    for _ in range(MAX_LEVELS):
        files = project_files(current)
        if files:
            return current, files
        if (current / ".git").exists() or current.parent == current:
            break
        current = current.parent
    return None, []


def project_dir(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` with a dependency file (``pyproject.toml``,
    ``setup.cfg``, ``requirements*.txt``): where a file's pins are read (at most :data:`MAX_LEVELS`
    up, not above a ``.git``), or None. Cached per directory."""
    return _project_dir(start.resolve())


@lru_cache(maxsize=1024)
def _project_dir(start: Path) -> Path | None:
    return _nearest(start)[0]


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=256)
def _read(start: str, cwd: str, files: tuple[tuple[str, str, tuple[int, int]], ...]) -> tuple[Pin, ...]:
    return tuple(_pins_in([(Path(p), kind) for p, kind, _ in files], Path(start), Path(cwd)))


@lru_cache(maxsize=64)
def _read_lock(start: str, cwd: str, lock: str, member: str | None, stamp: tuple[int, int]) -> tuple[Pin, ...]:
    """The pins of a lockfile (cached per lock path, member and file state ``stamp``)."""
    path = Path(lock)
    return tuple(_from_lock(path, _label(path, Path(start), Path(cwd)), member))


def signature(start: Path) -> str:
    """A digest of the project files :func:`project_pins` would read for ``start`` (for cache keys:
    it changes when a pin may have; reads the files, parses nothing)."""
    h = hashlib.blake2b(digest_size=8)
    try:
        directory, files = _nearest(Path(start).resolve())
    except OSError:
        return "-"
    for path, _kind in files:
        h.update(str(path).encode() + b"\0" + (read_text(path) or "").encode() + b"\0")
    lock = lockfiles.find(directory, MAX_LEVELS) if directory is not None else None
    if lock is not None:
        h.update(_lock_digest(str(lock[0]), _stamp(lock[0])) + (lock[1] or "").encode())
    return h.hexdigest() if directory is not None else "-"


@lru_cache(maxsize=64)
def _lock_digest(path: str, stamp: tuple[int, int]) -> bytes:
    """The digest of a lockfile's text, once per file state: a lock (up to ~1 MiB) is shared by
    every directory of its project, each of which asks for a :func:`signature`."""
    return hashlib.blake2b((read_text(Path(path), lockfiles.MAX_BYTES) or "").encode(), digest_size=8).digest()


def project_pins(start: Path) -> Pins:
    """The SDK pins of the project ``start`` (a directory, or a file: its directory) belongs to:
    those declared in the nearest directory at or above it that has a ``pyproject.toml``,
    ``setup.cfg`` or ``requirements*.txt``, and the versions its lockfile resolves. Cached per
    directory."""
    try:
        path = Path(start).resolve()
    except OSError:
        return Pins(None)
    if not path.is_dir():
        path = path.parent
    directory, files = _nearest(path)
    # Parsed once per directory and file state (a long-lived process sees an edited pin).
    key = tuple((str(f), kind, _stamp(f)) for f, kind in files)
    try:
        cwd = str(Path.cwd().resolve())
    except OSError:
        cwd = "/"
    lock = lockfiles.find(directory, MAX_LEVELS) if directory is not None else None
    locked = _read_lock(str(path), cwd, str(lock[0]), lock[1], _stamp(lock[0])) if lock else ()
    return Pins(directory, _read(str(path), cwd, key), locked)


# `--target-sdk`: the requirement the port writes (mcpmigrate.codemods.port.project).
PORT_PINS = {"mcp2": ("mcp", ">=2.3,<3"), "fastmcp4": ("fastmcp", ">=4.2,<5")}


def ported(found: Pins, target_sdk: str | None) -> Pins:
    """``found`` as it will be once the port to ``target_sdk`` re-pins the project (the port and
    the fixes after it run in one ``fix``): its requirement of the ported SDK replaced."""
    if target_sdk not in PORT_PINS:
        return found
    package, spec = PORT_PINS[target_sdk]
    from packaging.specifiers import SpecifierSet

    pin = Pin(package, f"{package}{spec}", f"the port's target (--target-sdk {target_sdk})", (SpecifierSet(spec),))
    return Pins(found.directory, (*(p for p in found.pins if p.package != package), pin))


def clear_cache() -> None:
    _project_dir.cache_clear()
    _read.cache_clear()
    _read_lock.cache_clear()
    _lock_digest.cache_clear()

"""Environments for ``mcpmigrate verify``: one per set of dependency files, built once and reused.

An environment holds the project's dependencies, never the project itself (the server's code is
imported from the checked-out tree, ``PYTHONPATH``). It is built with ``uv`` when it is on PATH,
else with ``venv`` and ``pip``, from the tree's own files: ``requirements.txt``, else
``[project].dependencies`` of ``pyproject.toml``, held to the versions ``uv.lock`` resolves when
there is one (as constraints), with a Python its ``requires-python`` admits. It lives in the user's cache directory (``$MCPMIGRATE_VERIFY_CACHE``, else
``$XDG_CACHE_HOME/mcpmigrate/verify`` or ``~/.cache/mcpmigrate/verify``; deleting it is always
safe), in a folder named by a hash of those files, the installer and the Python version, so the
next run with the same pins reuses it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from mcpmigrate.verify.settings import SettingsError, read_pyproject

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

INSTALL_TIMEOUT = float(os.environ.get("MCPMIGRATE_VERIFY_INSTALL_TIMEOUT", "900"))
READY = ".mcpmigrate-ready"


class BuildError(Exception):
    """An environment that would not build; the message says which step failed and its output's end."""


@dataclass(frozen=True)
class Requirements:
    """What an environment installs: ``args`` for ``pip install`` (``-r file`` or specifiers),
    ``source`` (the file it comes from, as the user names it), and the ``inputs`` whose bytes key
    the cache (none: the specifiers themselves key it)."""

    args: tuple[str, ...]
    source: str
    inputs: tuple[Path, ...]
    pins: tuple[str, ...] = ()  # constraints written to a scratch file (their text keys the cache)


def cache_root() -> Path:
    """Where environments are kept (see the module docstring)."""
    configured = os.environ.get("MCPMIGRATE_VERIFY_CACHE")
    if configured:
        return Path(configured)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "mcpmigrate" / "verify"


def uv() -> str | None:
    return shutil.which("uv")


def lock_constraints(lock: Path, deps: list[str]) -> tuple[list[str], list[str]]:
    """``name==version`` for each package ``uv.lock`` resolves from a registry (the project itself,
    editable and path sources left out; pip constraints: one on a package nothing needs is
    ignored), and the direct dependencies whose locked version ``deps`` no longer admits (a lock
    not re-locked after an edit of the pins, as after a port: then it describes another
    environment and is not used)."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    try:
        data = tomllib.loads(lock.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise BuildError(f"{lock.name}: cannot read: {exc}") from exc
    declared = {}
    for dep in deps:
        try:
            req = Requirement(dep)
        except InvalidRequirement:
            continue
        declared[canonicalize_name(req.name)] = req.specifier
    pins, stale = [], []
    for package in data.get("package", []):
        source = package.get("source") or {}
        if not isinstance(package.get("version"), str) or "registry" not in source:
            continue
        name = canonicalize_name(package["name"])
        spec = declared.get(name)
        if spec is not None and not spec.contains(package["version"], prereleases=True):
            stale.append(f"{name} {package['version']}")
            continue
        pins.append(f"{name}=={package['version']}")
    return sorted(set(pins)), stale


def requirements(tree: Path, work: Path) -> Requirements:
    """The dependencies of the project checked out at ``tree`` (``work``: a scratch directory
    outside it, for the constraints taken from ``uv.lock``). Raises :class:`BuildError` when it
    declares none."""
    lock, reqs = tree / "uv.lock", tree / "requirements.txt"
    if reqs.is_file():
        return Requirements(("-r", str(reqs)), "requirements.txt", (reqs,))
    try:
        deps = read_pyproject(tree).get("project", {}).get("dependencies")
    except SettingsError as exc:
        raise BuildError(str(exc)) from exc
    if not (isinstance(deps, list) and deps):
        raise BuildError(
            "no dependency file to build an environment from (requirements.txt, [project].dependencies); "
            "pass --before-python/--after-python"
        )
    # keyed by the list itself: an edit elsewhere in pyproject.toml keeps the environment
    args = tuple(str(d) for d in deps)
    if not lock.is_file():
        return Requirements(args, "pyproject.toml [project].dependencies", ())
    pins, stale = lock_constraints(lock, list(args))
    if stale:  # the lock no longer describes this tree (a port re-pinned it): resolve from the pins
        return Requirements(
            args,
            f"pyproject.toml [project].dependencies; uv.lock not used: it locks {', '.join(stale)}, which the pins exclude",
            (),
        )
    work.mkdir(parents=True, exist_ok=True)
    constraints = work / "uv-lock-constraints.txt"
    constraints.write_text("".join(p + "\n" for p in pins), encoding="utf-8")
    source = "pyproject.toml [project].dependencies, versions of uv.lock"
    return Requirements((*args, "-c", str(constraints)), source, (), tuple(pins))


def interpreter(tree: Path) -> str:
    """The Python to build the environment with: this one when it satisfies the project's
    ``requires-python``, else the lowest ``python3.N`` on PATH that does. Raises :class:`BuildError`
    when none does."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        requires = read_pyproject(tree).get("project", {}).get("requires-python")
        spec = SpecifierSet(requires) if isinstance(requires, str) else None
    except (SettingsError, InvalidSpecifier):
        spec = None
    current = "{}.{}".format(*sys.version_info[:2])
    if spec is None or spec.contains(current + ".0") or spec.contains(current):
        return sys.executable
    for minor in range(8, 20):
        version = f"3.{minor}"
        found = shutil.which(f"python{version}")
        if found and (spec.contains(version + ".0") or spec.contains(version)) and _runs(found, version):
            return os.path.realpath(found)  # the interpreter itself, not a link a venv would resolve wrongly
    raise BuildError(
        f"requires-python {requires}: no such interpreter on PATH (python3.N); pass --before-python/--after-python"
    )


def key(req: Requirements, installer: str, python: str) -> str:
    """The cache folder's name: a hash of the dependency files (or the specifiers and the lock's
    versions), the installer and the Python."""
    digest = hashlib.sha256(f"{installer}\n{python}\n".encode())
    for path in req.inputs:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    if not req.inputs:
        digest.update("\n".join(a for a in req.args if not a.endswith(".txt")).encode())
    digest.update("\n".join(req.pins).encode())
    return digest.hexdigest()[:16]


def python_of(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def environment(tree: Path, work: Path, log: list[str]) -> tuple[str, bool]:
    """The interpreter of the environment for the project at ``tree``, and whether it was reused
    from the cache. ``log`` gets one line saying what was built from what.

    Raises :class:`BuildError` with the failing step's output."""
    req = requirements(tree, work)
    base = interpreter(tree)
    installer = "uv" if uv() else "pip"
    venv = cache_root() / key(req, installer, base)
    python = python_of(venv)
    with _lock(venv.with_name(venv.name + ".lock")):
        if (venv / READY).is_file() and python.exists():
            log.append(f"reused {venv} ({req.source})")
            return str(python), True
        if venv.exists():
            shutil.rmtree(venv)
        uv_path = uv()
        if uv_path:
            _step([uv_path, "venv", "--quiet", "--python", base, str(venv)], "uv venv")
            _step(
                [uv_path, "pip", "install", "--quiet", "--python", str(python), *req.args],
                f"uv pip install ({req.source})",
            )
        else:
            _step([base, "-m", "venv", str(venv)], f"{base} -m venv")
            _step(
                [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *req.args],
                f"pip install ({req.source})",
            )
        (venv / READY).write_text(req.source, encoding="utf-8")
    log.append(f"built {venv} with {installer} ({req.source})")
    return str(python), False


def _runs(python: str, version: str) -> bool:
    """``python`` starts and is ``version`` (a version manager's shim may exist and not run)."""
    try:
        res = subprocess.run(
            [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return res.returncode == 0 and res.stdout.strip() == version


def _step(argv: list[str], what: str, cwd: Path | None = None) -> None:
    try:
        res = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{what}: timed out after {INSTALL_TIMEOUT:.0f} s") from exc
    except OSError as exc:
        raise BuildError(f"{what}: {exc}") from exc
    if res.returncode != 0:
        # the installer's last words, without the warnings it prints for every package
        lines = [ln for ln in (res.stderr or res.stdout).strip().splitlines() if not ln.startswith("WARNING:")]
        tail = "\n".join(lines[-6:])
        raise BuildError(f"{what} failed (exit {res.returncode}):\n{tail}")


@contextmanager
def _lock(path: Path) -> Iterator[None]:
    """One build per environment at a time (two runs of verify may share the cache)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+") as handle:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory lock; a concurrent build may repeat the work
            yield
            return
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)

"""Environments for ``mcpmigrate verify``: one per set of dependency files, built once and reused.

An environment holds the project's dependencies, never the project itself (the server's code is
imported from the checked-out tree, ``PYTHONPATH``). It is built with ``uv`` when it is on PATH,
else with ``venv`` and ``pip``, from the tree's own files, first found of: ``uv.lock`` (with uv:
``uv export --frozen``, the exact versions it locks), ``requirements.txt``, ``[project].dependencies``
of ``pyproject.toml``. It lives in the user's cache directory (``$MCPMIGRATE_VERIFY_CACHE``, else
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


def requirements(tree: Path, work: Path) -> Requirements:
    """The dependencies of the project checked out at ``tree`` (``work``: a scratch directory
    outside it, for ``uv export``'s output). Raises :class:`BuildError` when it declares none."""
    lock, pyproject, reqs = tree / "uv.lock", tree / "pyproject.toml", tree / "requirements.txt"
    uv_path = uv()
    if uv_path and lock.is_file() and pyproject.is_file():
        work.mkdir(parents=True, exist_ok=True)
        out = work / "uv-export.txt"
        _step(
            [
                uv_path,
                "export",
                "--frozen",
                "--no-hashes",
                "--no-emit-project",
                "--no-dev",
                "--no-header",
                "-o",
                str(out),
            ],
            "uv export (uv.lock)",
            cwd=tree,
        )
        return Requirements(("-r", str(out)), "uv.lock", (lock,))
    if reqs.is_file():
        return Requirements(("-r", str(reqs)), "requirements.txt", (reqs,))
    try:
        deps = read_pyproject(tree).get("project", {}).get("dependencies")
    except SettingsError as exc:
        raise BuildError(str(exc)) from exc
    if isinstance(deps, list) and deps:
        # keyed by the list itself: an edit elsewhere in pyproject.toml keeps the environment
        return Requirements(tuple(str(d) for d in deps), "pyproject.toml [project].dependencies", ())
    raise BuildError(
        "no dependency file to build an environment from (uv.lock, requirements.txt, [project].dependencies); "
        "pass --before-python/--after-python"
    )


def key(req: Requirements, installer: str) -> str:
    """The cache folder's name: a hash of the dependency files, the installer and the Python."""
    digest = hashlib.sha256(f"{installer}\n{sys.version_info[:2]}\n{sys.executable}\n".encode())
    for path in req.inputs:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    if not any(a == "-r" for a in req.args):
        digest.update("\n".join(req.args).encode())
    return digest.hexdigest()[:16]


def python_of(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def environment(tree: Path, work: Path, log: list[str]) -> tuple[str, bool]:
    """The interpreter of the environment for the project at ``tree``, and whether it was reused
    from the cache. ``log`` gets one line saying what was built from what.

    Raises :class:`BuildError` with the failing step's output."""
    req = requirements(tree, work)
    installer = "uv" if uv() else "pip"
    venv = cache_root() / key(req, installer)
    python = python_of(venv)
    with _lock(venv.with_name(venv.name + ".lock")):
        if (venv / READY).is_file() and python.exists():
            log.append(f"reused {venv} ({req.source})")
            return str(python), True
        if venv.exists():
            shutil.rmtree(venv)
        uv_path = uv()
        if uv_path:
            _step([uv_path, "venv", "--quiet", "--python", sys.executable, str(venv)], "uv venv")
            _step(
                [uv_path, "pip", "install", "--quiet", "--python", str(python), *req.args],
                f"uv pip install ({req.source})",
            )
        else:
            _step([sys.executable, "-m", "venv", str(venv)], "python -m venv")
            _step(
                [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *req.args],
                f"pip install ({req.source})",
            )
        (venv / READY).write_text(req.source, encoding="utf-8")
    log.append(f"built {venv} with {installer} ({req.source})")
    return str(python), False


def _step(argv: list[str], what: str, cwd: Path | None = None) -> None:
    try:
        res = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        raise BuildError(f"{what}: timed out after {INSTALL_TIMEOUT:.0f} s") from exc
    except OSError as exc:
        raise BuildError(f"{what}: {exc}") from exc
    if res.returncode != 0:
        tail = "\n".join((res.stderr or res.stdout).strip().splitlines()[-6:])
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

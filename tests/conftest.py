"""Shared fixtures: the Python environments the proof harness runs fixture servers in."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
# `tests.proof` must import however pytest is started (`pytest`, `python -m pytest`, xdist).
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
# The result cache (.mcpmigrate_cache in each project) is off for the suite: tests that compare
# a tree before and after a run must not see it. tests/test_cache.py turns it on where it tests it.
os.environ.setdefault("MCPMIGRATE_NO_CACHE", "1")
CACHE_DIR = REPO_ROOT / ".cache"
LEGACY_VENV = CACHE_DIR / "venv-legacy"
LEGACY_PINS = ("mcp==1.27.0", "fastmcp==2.14.7")
# fastmcp 3.x on mcp 1.x: the fastmcp 4 port's fastmcp 3-style fixtures run on it before the port.
FASTMCP3_VENV = CACHE_DIR / "venv-fastmcp3"
FASTMCP3_PINS = ("fastmcp==3.4.11",)


def _venv_python(venv: Path) -> Path:
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """Exclusive inter-process lock (xdist workers share one legacy environment)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        from filelock import FileLock
    except ImportError:  # filelock is a test extra; fall back to the OS primitive
        FileLock = None
    if FileLock is not None:
        with FileLock(str(path)):
            yield
        return
    with open(path, "a+") as handle:
        if os.name == "nt":
            import msvcrt

            handle.seek(0)
            while True:
                try:
                    msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:
                    continue
            try:
                yield
            finally:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _ensure_venv(venv: Path, pins: tuple[str, ...]) -> Path:
    """``venv`` with ``pins`` installed, built once (guarded by a file lock) and reused.

    A ``.mcpmigrate-ready`` file is written last; its content is the pin list, so changing the
    pins rebuilds the environment.
    """
    python = _venv_python(venv)
    ready = venv / ".mcpmigrate-ready"
    wanted = "\n".join(pins)
    with _file_lock(venv.with_name(venv.name + ".lock")):
        if ready.is_file() and ready.read_text() == wanted and python.exists():
            return python
        if venv.exists():
            import shutil

            shutil.rmtree(venv)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *pins],
            check=True,
        )
        ready.write_text(wanted)
    return python


@pytest.fixture(scope="session")
def mcp2_python() -> str:
    """A Python with mcp 2.x: the one running the tests (the test environment installs mcp 2.x)."""
    return sys.executable


@pytest.fixture(scope="session")
def legacy_python() -> str:
    """A Python with mcp==1.27.0 and fastmcp==2.14.7.

    ``MCPMIGRATE_LEGACY_PYTHON`` points at an existing one; otherwise the suite builds
    ``.cache/venv-legacy`` once (guarded by a file lock) and reuses it.
    """
    configured = os.environ.get("MCPMIGRATE_LEGACY_PYTHON")
    if configured:
        return configured
    return str(_ensure_venv(LEGACY_VENV, LEGACY_PINS))


@pytest.fixture(scope="session")
def fastmcp3_python() -> str:
    """A Python with fastmcp==3.4.11 (on mcp 1.x).

    ``MCPMIGRATE_FASTMCP3_PYTHON`` points at an existing one; otherwise the suite builds
    ``.cache/venv-fastmcp3`` once and reuses it.
    """
    configured = os.environ.get("MCPMIGRATE_FASTMCP3_PYTHON")
    if configured:
        return configured
    return str(_ensure_venv(FASTMCP3_VENV, FASTMCP3_PINS))

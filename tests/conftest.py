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
# Written last; its content is the pin list, so changing the pins rebuilds the environment.
LEGACY_READY = LEGACY_VENV / ".mcpmigrate-ready"


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


def _ensure_legacy_venv() -> Path:
    python = _venv_python(LEGACY_VENV)
    wanted = "\n".join(LEGACY_PINS)
    with _file_lock(CACHE_DIR / "venv-legacy.lock"):
        if LEGACY_READY.is_file() and LEGACY_READY.read_text() == wanted and python.exists():
            return python
        if LEGACY_VENV.exists():
            import shutil

            shutil.rmtree(LEGACY_VENV)
        subprocess.run([sys.executable, "-m", "venv", str(LEGACY_VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *LEGACY_PINS],
            check=True,
        )
        LEGACY_READY.write_text(wanted)
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
    return str(_ensure_legacy_venv())

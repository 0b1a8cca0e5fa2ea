"""File discovery, decoding and atomic writes (DESIGN §7).

Source is handled as bytes end to end: libcst detects the encoding (PEP 263 cookie, UTF-8 BOM)
and re-encodes on output, so encoding, BOM and newline style survive a fix.
"""

from __future__ import annotations

import fnmatch
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# Directories never worth walking into (ruff's defaults, plus the tool's own cache).
DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".eggs", "__pycache__",
    "node_modules", "site-packages", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    ".mcpmigrate_cache", "build", "dist", "_build", "buck-out", ".direnv",
)
MAX_FILE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class SourceFile:
    path: Path          # as found (absolute)
    display: str        # relative to the working directory when possible, POSIX separators


def display_path(path: Path, cwd: Path) -> str:
    try:
        rel = path.relative_to(cwd)
    except ValueError:
        rel = Path(os.path.relpath(path, cwd)) if path.is_absolute() else path
    return PurePosixPath(rel).as_posix()


def _matches(rel_posix: str, name: str, patterns: list[str]) -> bool:
    for pat in patterns:
        pat = pat.rstrip("/")
        if fnmatch.fnmatch(rel_posix, pat) or fnmatch.fnmatch(name, pat):
            return True
        if fnmatch.fnmatch(rel_posix, pat + "/*"):
            return True
    return False


def discover(paths: list[Path], root: Path, exclude: list[str], cwd: Path) -> tuple[list[SourceFile], list[tuple[str, str]]]:
    """Python files under ``paths``.

    Returns ``(files, errors)``; ``errors`` lists ``(display path, reason)`` for paths that do
    not exist or cannot be listed. Explicitly named files are always checked (even if excluded,
    as ruff does without ``--force-exclude``); directories are walked without following
    symlinks, so a symlink loop cannot recurse.
    """
    files: list[SourceFile] = []
    errors: list[tuple[str, str]] = []
    seen: set[Path] = set()

    def rel(p: Path) -> str:
        try:
            return PurePosixPath(p.resolve().relative_to(root)).as_posix()
        except (ValueError, OSError, RuntimeError):
            return p.name

    def add(p: Path) -> None:
        key = p.absolute()
        try:
            real = Path(os.path.realpath(key))
        except (OSError, RuntimeError):  # pragma: no cover - realpath does not raise on loops
            real = key
        if real not in seen:  # one file reached twice (a symlink, overlapping paths) is checked once
            seen.add(real)
            files.append(SourceFile(key, display_path(key, cwd)))

    for given in paths:
        p = given if given.is_absolute() else cwd / given
        if not os.path.lexists(p):
            errors.append((display_path(p, cwd), "no such file or directory"))
            continue
        if p.is_file():
            add(p)
            continue
        if not p.is_dir():
            errors.append((display_path(p, cwd), "not a regular file or directory (broken symlink or symlink loop?)"))
            continue

        def onerror(exc: OSError) -> None:
            errors.append((display_path(Path(exc.filename or p), cwd), f"cannot list directory: {exc.strerror or exc}"))

        for dirpath, dirnames, filenames in os.walk(p, onerror=onerror, followlinks=False):
            d = Path(dirpath)
            dirnames[:] = sorted(
                n for n in dirnames
                if n not in DEFAULT_EXCLUDES and not n.endswith(".egg-info")
                and not _matches(rel(d / n), n, exclude)
            )
            for name in sorted(filenames):
                if not (name.endswith(".py") or name.endswith(".pyi")):
                    continue
                fp = d / name
                if _matches(rel(fp), name, exclude):
                    continue
                if fp.is_symlink() and not fp.is_file():
                    errors.append((display_path(fp, cwd), "broken symlink or symlink loop"))
                    continue
                add(fp)
    return files, errors


def read_source(path: Path) -> bytes:
    """The file's bytes. Raises ``OSError`` (unreadable) or ``ValueError`` (a directory, not a
    regular file, too large, binary) with a message fit for the report."""
    st = path.stat()
    if stat.S_ISDIR(st.st_mode):
        raise ValueError("is a directory, not a Python file")
    if not stat.S_ISREG(st.st_mode):
        # A FIFO, socket or device named *.py: reading it could block forever.
        raise ValueError("not a regular file (a FIFO, socket or device); skipped")
    if st.st_size > MAX_FILE_BYTES:
        raise ValueError(f"file too large ({st.st_size / 1048576:.1f} MB > {MAX_FILE_BYTES // 1048576} MB); skipped")
    data = path.read_bytes()
    if b"\x00" in data:
        raise ValueError("binary file (contains NUL bytes), not Python source")
    return data


def is_read_only(path: Path, st: os.stat_result | None = None) -> bool:
    """True when the file must not be rewritten: it has no write permission bit at all (checked
    on the mode, because ``os.access`` says yes to root for any file), or the current user may
    not write it."""
    st = st or path.stat()
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return True
    return not os.access(path, os.W_OK)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically: a temporary file in the same directory, then
    ``os.replace``. A symlink is followed (the target is rewritten, the link stays a link). The
    file mode (and, when permitted, owner and group) is preserved. A read-only file is refused.
    Raises ``OSError`` (the original is untouched)."""
    path = Path(os.path.realpath(path))
    st = path.stat()
    if is_read_only(path, st):
        raise PermissionError(13, "file is read-only", str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".mcpmigrate.tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        if hasattr(os, "chown"):
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                pass  # not permitted (not root): the file keeps the writer's ownership
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise

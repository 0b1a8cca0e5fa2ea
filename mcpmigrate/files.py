"""File discovery, decoding and atomic writes (README.md, "Usage").

Source is handled as bytes end to end: libcst detects the encoding (PEP 263 cookie, UTF-8 BOM)
and re-encodes on output, so encoding, BOM and newline style survive a fix.

Sources, the project pass's other modules, pins, lockfiles and ``.gitignore`` files are read with
:func:`read_regular`: a FIFO, socket or device is never opened for reading (it could block forever). Temporary files of a write
(``.<name>.<random>.mcpmigrate.tmp``) are removed when the run is interrupted (:func:`replace_with`).
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import os
import re
import signal
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

# The default ``exclude`` (ruff's defaults, plus the tool's own cache). ``exclude`` in the
# configuration replaces this list; ``extend-exclude`` adds to it.
DEFAULT_EXCLUDES = (
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".eggs",
    "*.egg-info",
    "__pycache__",
    "node_modules",
    "site-packages",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".mcpmigrate_cache",
    "build",
    "dist",
    "_build",
    "buck-out",
    ".direnv",
)
# Never walked into, whatever the configuration says.
VCS_DIRS = frozenset({".git", ".hg", ".svn", ".bzr", ".jj"})
MAX_FILE_BYTES = 20 * 1024 * 1024
NOT_REGULAR = "not a regular file (a FIFO, socket or device); skipped"
# The first line of a git-LFS pointer file (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md):
# the checkout holds the pointer, not the source.
LFS_POINTER = b"version https://git-lfs.github.com/spec/v1"
# What makes a directory a project's root (:func:`project_root`).
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")


def project_root(path: Path) -> Path | None:
    """The root of the project that holds ``path`` (absolute; a file or a directory): the nearest
    directory at or above it (above a file) that has a ``pyproject.toml``, ``setup.cfg``,
    ``setup.py`` or ``.git``; None when no directory above has one (the path is outside every
    project). Only names are looked up (``lstat``): nothing is opened."""
    directory = path if os.path.isdir(path) else path.parent
    for d in (directory, *directory.parents):
        if any(os.path.lexists(d / marker) for marker in PROJECT_MARKERS):
            return d
    return None


def read_regular(path: Path | str, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (a symlink to one is followed). A FIFO, socket or
    device is never read: it is refused on ``stat``, and the file is opened non-blocking and
    checked again with ``fstat`` before a byte is read (it cannot be swapped in between).
    Raises ``OSError`` (cannot open or read), ``IsADirectoryError`` or ``ValueError``
    (:data:`NOT_REGULAR`, or larger than ``limit`` bytes)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        _refuse(st, path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            _refuse(st, path)
        if limit is not None and st.st_size > limit:
            raise ValueError(f"file too large ({st.st_size / 1048576:.1f} MB > {limit / 1048576:.0f} MB); skipped")
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            return fh.read()
    finally:
        if fd >= 0:
            os.close(fd)


def _refuse(st: os.stat_result, path: Path | str) -> None:
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "is a directory", str(path))
    raise ValueError(NOT_REGULAR)


@dataclass(frozen=True)
class SourceFile:
    path: Path  # as found (absolute)
    display: str  # relative to the working directory when possible, POSIX separators


def display_path(path: Path, cwd: Path) -> str:
    try:
        rel = path.relative_to(cwd)
    except ValueError:
        rel = Path(os.path.relpath(path, cwd)) if path.is_absolute() else path
    return PurePosixPath(rel).as_posix()


def _matches(rel_posix: str, name: str, patterns: list[str]) -> bool:
    """The path (relative, POSIX) or its name matches one of the glob ``patterns``, or lies under
    a directory one of them matches (fnmatch semantics, one compiled regex per pattern list)."""
    rx = _pattern_regex(tuple(patterns))
    return bool(rx.match(rel_posix) or rx.match(name))


@functools.lru_cache(maxsize=32)
def _pattern_regex(patterns: tuple[str, ...]) -> re.Pattern[str]:
    parts = []
    for pat in patterns:
        pat = pat.rstrip("/")
        parts += [fnmatch.translate(pat), fnmatch.translate(pat + "/*")]
    return re.compile("|".join(f"(?:{p})" for p in parts) or r"(?!)", re.DOTALL)


class GitIgnore:
    """``.gitignore`` matching (git's rules, through ``pathspec``'s ``GitIgnoreSpec``), as ruff
    does with ``respect-gitignore``: inside a git work tree, the ``.gitignore`` files from the
    top of the work tree down to a path's directory, and ``.git/info/exclude``, decide whether
    it is ignored; a deeper file wins over a shallower one, and the last matching pattern of a
    file wins. Outside a git work tree nothing is ignored."""

    def __init__(self) -> None:
        self._top: dict[Path, Path | None] = {}
        self._specs: dict[Path, object | None] = {}

    def _toplevel(self, directory: Path) -> Path | None:
        if directory in self._top:
            return self._top[directory]
        found: Path | None = None
        if (directory / ".git").exists():
            found = directory
        elif directory.parent != directory:
            found = self._toplevel(directory.parent)
        self._top[directory] = found
        return found

    def _spec(self, path: Path):
        if path not in self._specs:
            spec = None
            try:
                lines = read_regular(path, MAX_FILE_BYTES).decode("utf-8", errors="replace").splitlines()
            except (OSError, ValueError):
                lines = None
            if lines:
                import pathspec

                spec = pathspec.GitIgnoreSpec.from_lines(lines)
            self._specs[path] = spec
        return self._specs[path]

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """True when git ignores ``path`` (absolute, not resolved through symlinks)."""
        top = self._toplevel(path.parent)
        if top is None:
            return False
        chain = [path.parent, *path.parent.parents]
        chain = chain[: chain.index(top) + 1] if top in chain else [path.parent]
        suffix = "/" if is_dir else ""
        candidates = [(d, d / ".gitignore") for d in chain] + [(top, top / ".git" / "info" / "exclude")]
        for base, spec_path in candidates:  # deepest first
            spec = self._spec(spec_path)
            if spec is None:
                continue
            verdict = spec.check_file(PurePosixPath(path.relative_to(base)).as_posix() + suffix).include
            if verdict is not None:
                return verdict
        return False


def is_excluded(path: Path, root: Path, exclude: list[str]) -> bool:
    """True when ``path`` or one of its parent directories (up to the project ``root``) matches
    ``exclude`` (used for explicitly named files under ``--force-exclude``)."""
    path = Path(os.path.abspath(path))
    try:
        rel = path.relative_to(root)
    except ValueError:
        rel = None
    if rel is not None:
        parts = rel.parts
        for i in range(len(parts)):
            sub = PurePosixPath(*parts[: i + 1]).as_posix()
            if parts[i] in VCS_DIRS or _matches(sub, parts[i], exclude):
                return True
        return False
    return path.name in VCS_DIRS or _matches(path.name, path.name, exclude)


def _walk_tree(
    top: Path, root: Path, exclude: list[str], gitignore: GitIgnore | None, cwd: Path, errors: list[tuple[str, str]]
) -> Iterator[Path]:
    """The Python files (``.py``, ``.pyi``) under the directory ``top``, in sorted order, without
    following symlinks; excluded, VCS and git-ignored entries are skipped. A directory that cannot
    be listed and a broken symlink or loop go to ``errors``."""

    def rel(p: Path) -> str:
        try:
            return PurePosixPath(p.resolve().relative_to(root)).as_posix()
        except (ValueError, OSError, RuntimeError):
            return p.name

    def onerror(exc: OSError) -> None:
        errors.append((display_path(Path(exc.filename or top), cwd), f"cannot list directory: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(top, onerror=onerror, followlinks=False):
        d = Path(dirpath)
        dirnames[:] = sorted(
            n
            for n in dirnames
            if n not in VCS_DIRS
            and not _matches(rel(d / n), n, exclude)
            and not (gitignore is not None and gitignore.ignored(d / n, True))
        )
        for name in sorted(filenames):
            if not (name.endswith(".py") or name.endswith(".pyi")):
                continue
            fp = d / name
            if _matches(rel(fp), name, exclude):
                continue
            if gitignore is not None and gitignore.ignored(fp, False):
                continue
            if fp.is_symlink() and not fp.is_file():
                errors.append((display_path(fp, cwd), "broken symlink or symlink loop"))
                continue
            yield fp


def discover(
    paths: list[Path],
    root: Path,
    exclude: list[str],
    cwd: Path,
    *,
    respect_gitignore: bool = False,
    force_exclude: bool = False,
) -> tuple[list[SourceFile], list[tuple[str, str]]]:
    """Python files under ``paths``.

    Returns ``(files, errors)``; ``errors`` lists ``(display path, reason)`` for paths that do
    not exist or cannot be listed. Explicitly named files are always checked (even if excluded,
    as ruff does) unless ``force_exclude`` (what a pre-commit hook passes, so that ``exclude``
    also holds for the file names pre-commit hands over). Directories are walked without
    following symlinks, so a symlink loop cannot recurse; with ``respect_gitignore``, what git
    ignores is skipped.
    """
    gitignore = GitIgnore() if respect_gitignore else None
    files: list[SourceFile] = []
    errors: list[tuple[str, str]] = []
    seen: dict[Path, int] = {}  # real path -> index in ``files``

    def add(p: Path) -> None:
        key = p.absolute()
        try:
            real = Path(os.path.realpath(key))
        except (OSError, RuntimeError):  # pragma: no cover - realpath does not raise on loops
            real = key
        at = seen.get(real)
        if at is None:  # one file reached twice (a symlink, overlapping paths) is checked once
            seen[real] = len(files)
            files.append(SourceFile(key, display_path(key, cwd)))
        elif not os.path.islink(key) and os.path.islink(files[at].path):
            # Reached both through an in-tree symlink (``alias.py -> server.py``) and under its own
            # name: report it under its own name, where the user edits it, whichever the walk met first.
            files[at] = SourceFile(key, display_path(key, cwd))

    for given in paths:
        p = given if given.is_absolute() else cwd / given
        if not os.path.lexists(p):
            errors.append((display_path(p, cwd), "no such file or directory"))
            continue
        if p.is_file():
            if force_exclude and is_excluded(p, root, exclude):
                continue
            add(p)
            continue
        if force_exclude and is_excluded(p, root, exclude):
            continue
        if not p.is_dir():
            why = NOT_REGULAR if os.path.exists(p) else "broken symlink or symlink loop"
            errors.append((display_path(p, cwd), why))
            continue

        for fp in _walk_tree(p, root, exclude, gitignore, cwd, errors):
            add(fp)
    return files, errors


def read_source(path: Path) -> bytes:
    """The file's bytes. Raises ``OSError`` (unreadable) or ``ValueError`` (a directory, not a
    regular file, too large, binary, a git-LFS pointer) with a message fit for the report."""
    try:
        data = read_regular(path, MAX_FILE_BYTES)  # a FIFO named *.py: reading it could block forever
    except IsADirectoryError:
        raise ValueError("is a directory, not a Python file") from None
    if b"\x00" in data:
        raise ValueError("binary file (contains NUL bytes), not Python source")
    if data.startswith(LFS_POINTER) and len(data) < 1024:
        raise ValueError("not checked: a git-LFS pointer (fetch the file with `git lfs pull`)")
    return data


def decode_problem(data: bytes) -> str | None:
    """Why ``data`` is not decodable Python source (its PEP 263 coding cookie or BOM, else UTF-8),
    or ``None``. Cheap: files that are never parsed are still checked with it."""
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        data.decode(encoding)
    except SyntaxError as exc:  # bad bytes in the first lines, an unknown cookie, a BOM that disagrees
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            return f"cannot decode: {bad}"
        return f"cannot decode: {exc.msg}"
    except (UnicodeDecodeError, LookupError) as exc:
        return f"cannot decode: {exc}"
    return None


def is_read_only(path: Path, st: os.stat_result | None = None) -> bool:
    """True when the file must not be rewritten: it has no write permission bit at all (checked
    on the mode, because ``os.access`` says yes to root for any file), or the current user may
    not write it."""
    st = st or path.stat()
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return True
    return not os.access(path, os.W_OK)


CHANGED = "changed during the run; not rewritten (run fix again)"


class ChangedOnDisk(OSError):
    """The file no longer holds the bytes the run read (an edit saved while the run went on):
    :func:`atomic_write` leaves it alone. ``str(exc)`` is :data:`CHANGED`."""

    def __init__(self) -> None:
        super().__init__(CHANGED)


def holds(path: Path, expected: bytes, st: os.stat_result | None = None) -> bool:
    """True when ``path`` (a symlink followed) holds exactly ``expected`` (the size first, then
    the bytes). Raises ``OSError`` (gone, unreadable)."""
    st = st or path.stat()
    if st.st_size != len(expected):
        return False
    with open(path, "rb") as fh:
        return fh.read(len(expected) + 1) == expected


def write_problem(path: Path, expected: bytes) -> str | None:
    """Why ``path`` cannot be replaced by a fix now — ``"cannot write the fix: file is read-only"``
    (or its directory is, or it is gone), or :data:`CHANGED` when it no longer holds ``expected``,
    the bytes the run read — else ``None``. What :func:`atomic_write` would refuse, asked before a
    write that must go with others (README.md, "Fix safety")."""
    real = Path(os.path.realpath(path))
    try:
        st = real.stat()
        if is_read_only(real, st):
            return "cannot write the fix: file is read-only"
        if not os.access(real.parent, os.W_OK | os.X_OK):
            return "cannot write the fix: its directory is read-only"
        if not holds(real, expected, st):
            return CHANGED
    except OSError as exc:
        return f"cannot write the fix: {exc.strerror or exc}"
    return None


def atomic_write(path: Path, data: bytes, expected: bytes | None = None) -> None:
    """Replace ``path`` with ``data`` atomically: a temporary file in the same directory, then
    ``os.replace``. A symlink is followed (the target is rewritten, the link stays a link): which
    links a fix may write through is the caller's decision (``mcpmigrate.writes``). The file mode
    (and, when permitted, owner and group) is preserved. A read-only file is refused. With
    ``expected`` (the bytes the run read), the file is compared with it right before the replace
    and left alone when it changed (:class:`ChangedOnDisk`). Raises ``OSError`` (the original is
    untouched)."""
    path = Path(os.path.realpath(path))
    st = path.stat()
    if is_read_only(path, st):
        raise PermissionError(13, "file is read-only", str(path))
    replace_with(path, data, st, expected)


def replace_with(path: Path, data: bytes, like: os.stat_result | None = None, expected: bytes | None = None) -> None:
    """Replace the directory entry ``path`` with a file holding ``data``: written to
    ``.<name>.<random>.mcpmigrate.tmp`` beside it, synced, then renamed over it (a symlink at
    ``path`` is replaced, never written through). ``like``: the mode (and, when permitted, owner
    and group) to give the new file; ``expected``: the bytes ``path`` must still hold right before
    the rename (else :class:`ChangedOnDisk`). The temporary file is removed when the write fails or
    the run is interrupted (SIGINT, SIGTERM, SIGHUP: :func:`remove_temporary_files`). Raises ``OSError``."""
    _remove_on_termination()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".mcpmigrate.tmp", dir=path.parent)
    _TEMPORARY.add(tmp)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if like is not None:
            os.chmod(tmp, stat.S_IMODE(like.st_mode))
            if hasattr(os, "chown"):
                # not permitted (not root): the file keeps the writer's ownership
                with contextlib.suppress(OSError):
                    os.chown(tmp, like.st_uid, like.st_gid)
        if expected is not None and not holds(path, expected):
            raise ChangedOnDisk()
        os.replace(tmp, path)
    except BaseException:  # KeyboardInterrupt (SIGINT) included
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        _TEMPORARY.discard(tmp)


_TEMPORARY: set[str] = set()  # the temporary files being written now
# Signals whose default action ends the process without unwinding the stack (SIGINT raises
# KeyboardInterrupt, which replace_with's own cleanup handles).
_TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_guarded = False


def remove_temporary_files() -> None:
    """Remove the temporary files of the writes in progress (:func:`replace_with`)."""
    for tmp in list(_TEMPORARY):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        _TEMPORARY.discard(tmp)


def _on_termination(signum: int, _frame: object) -> None:
    """Remove the temporary files, then end the process as the signal's default action does."""
    remove_temporary_files()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _remove_on_termination() -> None:
    """Install :func:`_on_termination` for SIGTERM and SIGHUP, once, from the main thread, and only
    where the default action is in force (a program that set its own handler keeps it)."""
    global _guarded
    if _guarded:
        return
    for signum in _TERMINATING:
        try:
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _on_termination)
        except ValueError:  # not the main thread: the writer's own cleanup still holds
            return
    _guarded = True

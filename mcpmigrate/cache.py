"""Content-keyed result cache (README.md, "The result cache"; as ruff's ``.ruff_cache``).

Where (:func:`location`): ``--cache-dir`` or ``MCPMIGRATE_CACHE_DIR`` when given; else
``.mcpmigrate_cache`` at the root of the project that holds the checked paths; else (paths
outside every project) ``mcpmigrate`` in the user's cache directory (``$XDG_CACHE_HOME``, else
``~/.cache``). One file per tool build and configuration, ``<dir>/<build>/<config>.json``, maps a
key — a hash of the file's bytes and of the rules that apply to it — to that content's *check*
result (findings, unused suppressions, a content-derived error) and the project pass's summaries.
The path is not part of the result: the reporter's path is put back on a hit. Invalidation:

- the *build* is the version plus a digest of the package's own files (names, sizes, mtimes),
  so a development checkout never reads results of older code;
- the *config* is :meth:`Config.fingerprint` (select/ignore/per-file-ignores/strategy/…);
- the content hash covers everything else. Paths, mtimes and cwd are not trusted.

The cache is data, never code: a JSON document ``{"mcpmigrate-cache": FORMAT, "entries": {hex
key: [last use, value]}}`` whose values are plain JSON that their reader checks field by field
(the ``decode`` of :meth:`Cache.get`). A file that is not such a document (corrupted, truncated,
foreign — a planted pickle) or an entry its reader rejects is ignored with a one-line warning
naming the file, and the next save replaces it. The project's cache folder, the build folder in
any cache folder and the cache file are never followed through a symlink: a symlink there is
ignored with a warning and nothing is written through it; the project's folder is created only
in the project root, never with its parents.

Writes are atomic (:func:`mcpmigrate.files.replace_with`); a cache that cannot be written
(read-only project) is skipped silently. ``--no-cache`` or ``MCPMIGRATE_NO_CACHE=1`` bypasses
it. Entries unused for 30 days are dropped on write.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mcpmigrate.files import replace_with

CACHE_DIR_NAME = ".mcpmigrate_cache"
ENV_DIR = "MCPMIGRATE_CACHE_DIR"
MAX_AGE_S = 30 * 24 * 3600
MAX_BYTES = 512 * 1024 * 1024
FORMAT = 2  # 1: pickle (never read again)
_MAGIC = "mcpmigrate-cache"
T = TypeVar("T")


class Invalid(ValueError):
    """A cache entry that does not have the shape its reader expects."""


def disabled_by_env() -> bool:
    return os.environ.get("MCPMIGRATE_NO_CACHE", "").strip().lower() not in ("", "0", "false", "no")


def location(project: Path | None, given: Path | str | None = None) -> tuple[Path, bool]:
    """The cache folder and whether it is the project's own (then it must not be a symlink and is
    created only inside ``project``): ``given`` (``--cache-dir``), else ``$MCPMIGRATE_CACHE_DIR``,
    else ``<project>/.mcpmigrate_cache``, else the user's cache directory (``project`` None: the
    checked paths are outside every project)."""
    chosen = given or os.environ.get(ENV_DIR, "").strip()
    if chosen:
        return Path(os.path.abspath(os.path.expanduser(chosen))), False
    if project is not None:
        return Path(project) / CACHE_DIR_NAME, True
    if os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~/AppData/Local")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return Path(base) / "mcpmigrate", False


def _build_id() -> str:
    from mcpmigrate import __version__

    pkg = Path(__file__).resolve().parent
    h = hashlib.blake2b(digest_size=8)
    h.update(f"{__version__}|{FORMAT}".encode())
    dirs = [pkg]
    for sub in ("_rules",):
        if (pkg / sub).is_dir():
            dirs.append(pkg / sub)
    if (pkg.parent / "rules").is_dir():
        dirs.append(pkg.parent / "rules")
    for d in dirs:
        for root, dirnames, files in os.walk(d):
            dirnames[:] = sorted(n for n in dirnames if n != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".toml")):
                    st = os.stat(os.path.join(root, name))
                    h.update(
                        f"{os.path.relpath(os.path.join(root, name), pkg)}|{st.st_size}|{st.st_mtime_ns}\n".encode()
                    )
    return f"{__version__}-{h.hexdigest()}"


def content_key(source: bytes, file_rules: frozenset[str] | set[str], context: str = "") -> bytes:
    """The cache key of a file: its bytes, the rules that run on it, and ``context`` (a digest of
    the project's dependency pins, which the interim fix's plan depends on)."""
    h = hashlib.blake2b(source, digest_size=16)
    h.update(b"\0" + ",".join(sorted(file_rules)).encode() + b"\0" + context.encode())
    return h.digest()


# -- reading values back: each reader checks the shape it wrote ------------------------------------
def expect(value: Any, kind: type | tuple[type, ...]) -> Any:
    """``value`` when its type is ``kind`` (or one of them): the exact JSON types ``str``,
    ``int``, ``float``, ``bool``, ``list``, ``dict``, ``type(None)`` (so a ``bool`` is not an
    ``int``); raises :class:`Invalid` otherwise."""
    t = type(value)
    if t is kind or (t in kind if type(kind) is tuple else False):
        return value
    kinds = kind if isinstance(kind, tuple) else (kind,)
    raise Invalid(f"expected {'/'.join(k.__name__ for k in kinds)}, got {t.__name__}")


def row(value: Any, *kinds: type | tuple[type, ...]) -> tuple:
    """A JSON array of ``len(kinds)`` items of those kinds, in order, as a tuple (:func:`expect`)."""
    if not isinstance(value, list) or len(value) != len(kinds):
        raise Invalid(f"expected an array of {len(kinds)}")
    return tuple(expect(v, k) for v, k in zip(value, kinds))


def rows(value: Any, *kinds: type | tuple[type, ...]) -> list[tuple]:
    """A JSON array of :func:`row` s."""
    return [row(v, *kinds) for v in expect(value, list)]


_OPTIONAL_STR = (str, type(None))


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _warn(path: Path, why: str) -> None:
    """One line on stderr naming the cache file (or folder) and why it is not used."""
    sys.stderr.write(f"warning: {_shown(path)}: {why}\n")


def _is_symlink(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


class Cache:
    def __init__(self, path: Path, own: bool = True) -> None:
        self.path = path
        self.own = own  # the project's own folder (refused when it is a symlink; never created with parents)
        self.entries: dict[str, Any] = {}
        self.dirty = False
        self.usable = True  # False: a symlink on the way, nothing is read or written
        self.warned = False
        self.now = time.time()

    @classmethod
    def open(cls, base: Path, config_fingerprint: str, own: bool = True) -> Cache:
        """The cache of this build and configuration in the folder ``base`` (:func:`location`;
        ``own``: the project's ``.mcpmigrate_cache``), read. Never raises: what cannot be read is
        ignored (with a warning when the file exists but is not a cache)."""
        name = hashlib.blake2b(config_fingerprint.encode(), digest_size=8).hexdigest()
        cache = cls(Path(base) / _build_id() / f"{name}.json", own)
        for link in ([base] if own else []) + [cache.path.parent]:
            if _is_symlink(link):
                _warn(link, "the cache folder is a symlink; not read or written through it")
                cache.usable = False
                return cache
        try:
            doc = json.loads(_read_no_follow(cache.path))
            if not isinstance(doc, dict) or doc.get(_MAGIC) != FORMAT or not isinstance(doc.get("entries"), dict):
                raise Invalid("not a result cache of this mcpmigrate")
        except (FileNotFoundError, NotADirectoryError):  # none yet (or no cache folder: skipped on save)
            return cache
        except OSError as exc:
            why = "a symlink, not a cache file" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
            cache._ignore(f"cache file ignored ({why})")
            return cache
        except (ValueError, RecursionError) as exc:  # json's ValueError, Invalid, not a regular file
            cache._ignore(f"corrupted or foreign cache file ignored ({str(exc).splitlines()[0][:120]})")
            return cache
        cache.entries = doc["entries"]
        return cache

    def _ignore(self, why: str) -> None:
        if not self.warned:
            self.warned = True
            _warn(self.path, why)
        self.dirty = True  # the next save replaces it

    def get(self, key: bytes, decode: Callable[[Any], T]) -> T | None:
        """The value stored under ``key``, read back with ``decode`` (raises ``ValueError`` —
        :class:`Invalid` —, ``TypeError`` or ``KeyError`` on a value it did not write); None when
        there is none or it is rejected (then the entry is dropped, with one warning per file)."""
        hit = self.entries.get(key.hex())
        if hit is None:
            return None
        try:
            stamp, data = row(hit, (int, float), dict)
            value = decode(data)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            del self.entries[key.hex()]
            self._ignore(f"corrupted cache entry ignored ({type(exc).__name__}: {str(exc)[:80]})")
            return None
        if self.now - stamp > 24 * 3600:  # refresh the last-use stamp at most daily
            self.entries[key.hex()] = [self.now, data]
            self.dirty = True
        return value

    def put(self, key: bytes, value: Any) -> None:
        """Store ``value`` (a JSON object: dicts, lists, strings, numbers, booleans, None) under ``key``."""
        self.entries[key.hex()] = [self.now, value]
        self.dirty = True

    def save(self) -> None:
        if not self.dirty or not self.usable:
            return
        entries = {
            k: v
            for k, v in self.entries.items()
            if isinstance(v, list) and len(v) == 2 and isinstance(v[0], (int, float)) and self.now - v[0] <= MAX_AGE_S
        }
        data = json.dumps({_MAGIC: FORMAT, "entries": entries}, separators=(",", ":")).encode()
        base, build = self.path.parent.parent, self.path.parent
        try:
            if self.own:
                _mkdir(base, parents=False)  # in the project root, which exists
            elif not base.is_dir():
                base.mkdir(parents=True, exist_ok=True)
                _tag(base)
            _mkdir(build, parents=False)
            replace_with(self.path, data)  # a symlink or FIFO planted there is replaced, not followed
        except OSError:
            pass  # a read-only project, a full disk, a symlink swapped in: the run's results stand


def _read_no_follow(path: Path) -> bytes:
    """The bytes of the regular file ``path``, opened without following a symlink (``ELOOP``)
    and without blocking on a FIFO. Raises ``OSError`` or ``ValueError``."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise Invalid("not a regular file")
        if st.st_size > MAX_BYTES:
            raise Invalid("too large")
        return fh.read()


def _mkdir(path: Path, parents: bool) -> None:
    """``path`` as a real folder (created when missing, with the cache tags when it is a cache's
    top folder); raises ``OSError`` when it is a symlink or not a folder."""
    try:
        path.mkdir(parents=parents)
        if path.name == CACHE_DIR_NAME:
            _tag(path)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(path))


def _tag(base: Path) -> None:
    """A new cache folder's ``.gitignore`` and ``CACHEDIR.TAG`` (created only, never through a symlink)."""
    for name, text in (
        (".gitignore", "# Created by mcpmigrate automatically.\n*\n"),
        (
            "CACHEDIR.TAG",
            "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by mcpmigrate.\n",
        ),
    ):
        with contextlib.suppress(OSError), open(base / name, "x", encoding="utf-8") as fh:
            fh.write(text)

"""Content-keyed result cache (README.md, "Usage"; as ruff's ``.ruff_cache``).

One file per tool build and configuration, ``<root>/.mcpmigrate_cache/<build>/<config>.pickle``,
maps a key — a hash of the file's bytes and of the rules that apply to it — to that content's
*check* result (findings, unused suppressions, a content-derived error). The path is not part of
the result: the reporter's path is put back on a hit. Invalidation:

- the *build* is the version plus a digest of the package's own files (names, sizes, mtimes),
  so a development checkout never reads results of older code;
- the *config* is :meth:`Config.fingerprint` (select/ignore/per-file-ignores/strategy/…);
- the content hash covers everything else. Paths, mtimes and cwd are not trusted.

Writes are atomic (temp file + rename); a corrupt or unreadable cache is ignored; a cache that
cannot be written (read-only project) is skipped silently. ``--no-cache`` or
``MCPMIGRATE_NO_CACHE=1`` bypasses it. Entries unused for 30 days are dropped on write.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
import time
from pathlib import Path
from typing import Any

CACHE_DIR_NAME = ".mcpmigrate_cache"
MAX_AGE_S = 30 * 24 * 3600
_FORMAT = 1


def disabled_by_env() -> bool:
    return os.environ.get("MCPMIGRATE_NO_CACHE", "").strip().lower() not in ("", "0", "false", "no")


def _build_id() -> str:
    from mcpmigrate import __version__

    pkg = Path(__file__).resolve().parent
    h = hashlib.blake2b(digest_size=8)
    h.update(f"{__version__}|{_FORMAT}".encode())
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


class Cache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[bytes, tuple[float, Any]] = {}
        self.dirty = False
        self.now = time.time()

    @classmethod
    def open(cls, root: Path, config_fingerprint: str) -> Cache:
        name = hashlib.blake2b(config_fingerprint.encode(), digest_size=8).hexdigest()
        cache = cls(Path(root) / CACHE_DIR_NAME / _build_id() / f"{name}.pickle")
        try:
            with open(cache.path, "rb") as fh:
                data = pickle.load(fh)
            if isinstance(data, dict):
                cache.entries = data
        except FileNotFoundError:
            pass
        except Exception:  # corrupt, truncated, from another Python: start afresh
            cache.entries = {}
        return cache

    def get(self, key: bytes) -> Any | None:
        hit = self.entries.get(key)
        if hit is None:
            return None
        if self.now - hit[0] > 24 * 3600:  # refresh the last-use stamp at most daily
            self.entries[key] = (self.now, hit[1])
            self.dirty = True
        return hit[1]

    def put(self, key: bytes, value: Any) -> None:
        self.entries[key] = (self.now, value)
        self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        entries = {k: v for k, v in self.entries.items() if self.now - v[0] <= MAX_AGE_S}
        try:
            base = self.path.parent.parent
            if not base.exists():
                base.mkdir(parents=True, exist_ok=True)
                (base / ".gitignore").write_text("# Created by mcpmigrate automatically.\n*\n")
                (base / "CACHEDIR.TAG").write_text(
                    "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by mcpmigrate.\n"
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".cache.", suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    pickle.dump(entries, fh, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError:
            pass  # a read-only project, a full disk: the run's results stand without a cache

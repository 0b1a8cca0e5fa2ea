"""The ``verify`` command's run: export the two trees, get their environments, start each server in
both protocol eras, compare.

Nothing is written into the project: the code *before* (a git revision, ``git archive``) and the
working tree's (the files git tracks or would track, copied) run from a temporary directory that
is removed afterwards, with ``PYTHONDONTWRITEBYTECODE`` set; environments live in the user's cache
(:mod:`mcpmigrate.verify.envs`).

Eras (docs/specification/2026-07-28, basic/lifecycle): on a legacy connection the before and after
servers are compared with each other; on a 2026-07-28 connection the after server is compared with
the before server's 2026-07-28 answers when it serves that revision, else with its legacy answers
(what clients got before the migration).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from mcpmigrate.files import DEFAULT_EXCLUDES
from mcpmigrate.verify.compare import Difference, differences
from mcpmigrate.verify.envs import BuildError, environment
from mcpmigrate.verify.settings import Settings, SettingsError, launch, load_settings, pythonpath, substitute

LEGACY_ERA = "legacy (2025-11-25)"
MODERN_ERA = "2026-07-28"
SDK_PACKAGES = ("mcp", "fastmcp")


class CannotRun(Exception):
    """verify could not run (exit 2); the message is the reason."""


@dataclass
class Side:
    """One of the two servers: ``label`` (``before``/``after``), what code (``HEAD (1a2b3c4)``,
    ``working tree``), its interpreter and SDK versions, how it was started and its environment."""

    label: str
    code: str
    tree: Path
    python: str = ""
    sdk: str = ""
    started: str = ""
    environment: str = "given"


@dataclass
class Era:
    """The comparison on one kind of connection, with a note on what the baseline was."""

    name: str
    differences: list[Difference]
    note: str | None = None


@dataclass
class Outcome:
    """A verify run: ``code`` 0 identical, 1 differences, 2 could not run (``reason``)."""

    code: int
    reason: str | None = None
    sides: list[Side] = field(default_factory=list)
    eras: list[Era] = field(default_factory=list)
    calls: int = 0
    log: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _git(top: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(top), *args], capture_output=True, timeout=120)


def _toplevel(project: Path) -> Path:
    res = _git(project, "rev-parse", "--show-toplevel")
    if res.returncode != 0:
        raise CannotRun(f"{project} is not in a git repository (verify compares the working tree with a git revision)")
    return Path(res.stdout.decode().strip()).resolve()


def _commit(top: Path, rev: str) -> str:
    res = _git(top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if res.returncode != 0:
        raise CannotRun(f"--before {rev}: not a commit of {top}")
    return res.stdout.decode().strip()


def export_revision(top: Path, commit: str, rel: Path, dest: Path) -> Path:
    """The tree of ``rel`` at ``commit``, extracted under ``dest`` (``git archive``); its path."""
    res = _git(top, "archive", "--format=tar", commit, *(["--", rel.as_posix()] if rel.parts else []))
    if res.returncode != 0:
        raise CannotRun(f"{rel.as_posix() or '.'} at {commit[:7]}: {res.stderr.decode(errors='replace').strip()}")
    dest.mkdir(parents=True)
    archive = dest.with_suffix(".tar")
    archive.write_bytes(res.stdout)
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # pragma: no cover - Python < 3.12 without the backported filter
            tar.extractall(dest)  # git's own archive of the user's repository
    archive.unlink()
    return dest / rel


def export_worktree(top: Path, rel: Path, dest: Path) -> Path:
    """The working tree's files of ``rel`` that git tracks or would track (not ignored), copied under
    ``dest``; its path."""
    res = _git(top, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", rel.as_posix() or ".")
    if res.returncode != 0:
        raise CannotRun(f"git ls-files: {res.stderr.decode(errors='replace').strip()}")
    for name in sorted(set(res.stdout.decode("utf-8", "surrogateescape").split("\0")) - {""}):
        src, out = top / name, dest / name
        if not os.path.lexists(src) or src.is_dir():  # deleted in the working tree, or a submodule
            continue
        if any(fnmatch(part, glob) for part in Path(name).parts[:-1] for glob in DEFAULT_EXCLUDES):
            continue  # an environment or a cache git does not ignore (a .venv without a .gitignore)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, out, follow_symlinks=False)
    (dest / rel).mkdir(parents=True, exist_ok=True)
    return dest / rel


def client_missing() -> str | None:
    """Why the mcp 2.x client cannot be used from this interpreter, or None."""
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return None
    try:
        found = version("mcp")
    except PackageNotFoundError:
        found = None
    if found is None or int(found.split(".")[0]) < 2:
        have = f"mcp {found}" if found else "no mcp"
        return (
            f"verify drives the servers with the official mcp 2.x client, and mcpmigrate's environment has {have}: "
            "pip install 'mcpmigrate[verify]' (or 'mcp>=2.3,<3') next to mcpmigrate"
        )
    return None


def sdk_versions(python: str) -> str:
    """``mcp 1.27.0, fastmcp 2.14.7``: the SDKs installed for ``python`` (empty when it cannot tell)."""
    code = (
        "import importlib.metadata as m\n"
        f"for p in {SDK_PACKAGES!r}:\n"
        "    try: print(p, m.version(p))\n"
        "    except m.PackageNotFoundError: pass\n"
    )
    try:
        res = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CannotRun(f"cannot run {python}: {exc}") from exc
    if res.returncode != 0:
        raise CannotRun(f"cannot run {python}: {res.stderr.strip()[-300:]}")
    return ", ".join(res.stdout.split("\n")[:-1])


def _server_env(side: Side, settings: Settings) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    path = [*pythonpath(side.tree), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])]
    env["PYTHONPATH"] = os.pathsep.join(path)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PATH"] = os.pathsep.join([str(Path(side.python).parent), env.get("PATH", "")])
    env |= substitute(settings.env, str(side.tree))
    return env


def _run(side: Side, command: list[str], settings: Settings, mode: str, scratch: Path) -> Any:
    """The driver's description of one connection to ``side``'s server."""
    from mcpmigrate.verify.driver import Run

    return Run(
        command=command,
        env=_server_env(side, settings),
        cwd=str(side.tree),
        mode=mode,
        stderr=scratch / f"{side.label}-{mode}.stderr",
        calls=substitute(settings.calls, str(side.tree)),
        roots=[side.tree.as_uri()],
        subs={str(side.tree): "{project}", str(scratch.parent): "{tmp}"},
        masks=settings.mask,
        start_timeout=settings.timeout,
        call_timeout=settings.timeout,
    )


def _observe_all(sides: list[Side], commands: dict[str, list[str]], settings: Settings, scratch: Path) -> dict:
    """Every connection: per side a legacy one, then a 2026-07-28 one (the before side's is
    negotiated, ``auto``: a server that only speaks the handshake falls back to it). The two sides
    run at the same time, each side's connections one after the other (one server of a tree at a
    time). Returns ``{(side label, mode): observation}``."""
    import anyio

    from mcpmigrate.verify.driver import observe

    answers: dict[tuple[str, str], dict[str, Any]] = {}

    async def one_side(side: Side, modes: tuple[str, ...]) -> None:
        for mode in modes:
            answers[side.label, mode] = await observe(_run(side, commands[side.label], settings, mode, scratch))
            if mode == "legacy" and answers[side.label, mode]["stage"] == "start":
                return  # it does not start: nothing more to learn from it

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(one_side, sides[0], ("legacy", "auto"))
            tg.start_soon(one_side, sides[1], ("legacy", MODERN_ERA))

    anyio.run(main)
    return answers


def _environments(sides: list[Side], given: tuple[str | None, str | None], scratch: Path, log: list[str]) -> None:
    """Each side's interpreter: the one given, else its cached environment (the two built at the
    same time when both must be built), and the SDK versions it has."""
    from concurrent.futures import ThreadPoolExecutor

    def prepare(side: Side, python: str | None) -> list[str]:
        lines: list[str] = []
        if python:
            side.python = python
        else:
            try:
                side.python, reused = environment(side.tree, scratch / side.label, lines)
            except BuildError as exc:
                raise BuildError(f"the {side.label} environment ({side.code}) would not build: {exc}") from exc
            side.environment = "cached" if reused else "built"
        side.sdk = sdk_versions(side.python)
        return lines

    with ThreadPoolExecutor(max_workers=2) as pool:
        for lines in list(pool.map(prepare, sides, given)):
            log += lines


def _start_failure(side: Side, era: str, answer: dict[str, Any]) -> str:
    return (
        f"the {side.label} server ({side.code}, started as {side.started}) did not answer on a {era} connection: "
        f"{answer['error']}"
    )


def verify(
    path: Path,
    before: str = "HEAD",
    before_python: str | None = None,
    after_python: str | None = None,
    timeout: float | None = None,
) -> Outcome:
    """Run ``mcpmigrate verify`` on the project at ``path`` (see the module docstring).

    Never raises for the user's code: every reason it could not run is an :class:`Outcome` with
    code 2 and the reason."""
    started = time.monotonic()
    outcome = Outcome(code=0)
    try:
        _verify(path, before, before_python, after_python, timeout, outcome)
    except (CannotRun, SettingsError, BuildError) as exc:
        outcome.code, outcome.reason = 2, str(exc)
    outcome.seconds = time.monotonic() - started
    return outcome


def _verify(
    path: Path,
    before: str,
    before_python: str | None,
    after_python: str | None,
    timeout: float | None,
    outcome: Outcome,
) -> None:
    missing = client_missing()
    if missing:
        raise CannotRun(missing)
    project = path.resolve()
    if not project.is_dir():
        raise CannotRun(f"{path}: not a directory")
    top = _toplevel(project)
    rel = project.relative_to(top)
    commit = _commit(top, before)
    with tempfile.TemporaryDirectory(prefix="mcpmigrate-verify-") as tmp_name:
        tmp = Path(tmp_name)
        scratch = tmp / "scratch"
        scratch.mkdir()
        sides = [
            Side("before", f"{before} ({commit[:7]})", export_revision(top, commit, rel, tmp / "before")),
            Side("after", "working tree", export_worktree(top, rel, tmp / "after")),
        ]
        if not sides[0].tree.is_dir():
            raise CannotRun(f"{rel.as_posix()} does not exist at {before} ({commit[:7]})")
        settings = load_settings(sides[1].tree)  # the working tree declares how to run and what to call
        if timeout is not None:
            settings.timeout = timeout
        outcome.calls = len(settings.calls)
        _environments(sides, (before_python, after_python), scratch, outcome.log)
        commands = {}
        for side in sides:
            commands[side.label], side.started = launch(side.tree, side.python, settings)
        outcome.sides = sides
        observed = _observe_all(sides, commands, settings, scratch)
        for side in sides:
            if observed[side.label, "legacy"]["stage"] == "start":
                raise CannotRun(_start_failure(side, LEGACY_ERA, observed[side.label, "legacy"]))
        before_modern = observed["before", "auto"]
        answers = {
            ("before", LEGACY_ERA): observed["before", "legacy"],
            ("after", LEGACY_ERA): observed["after", "legacy"],
            ("after", MODERN_ERA): observed["after", MODERN_ERA],
            ("before", MODERN_ERA): before_modern,
        }
        note = None
        if before_modern["protocol_version"] != MODERN_ERA:
            answers["before", MODERN_ERA] = observed["before", "legacy"]
            version = before_modern["protocol_version"]
            note = (
                "the before server serves only handshake-era connections"
                + (f" ({version})" if version else "")
                + ": compared with its legacy answers"
            )
        for era in (LEGACY_ERA, MODERN_ERA):
            diffs = differences(answers["before", era], answers["after", era], settings.calls)
            outcome.eras.append(Era(era, diffs, note if era == MODERN_ERA else None))
        outcome.code = 1 if any(e.differences for e in outcome.eras) else 0

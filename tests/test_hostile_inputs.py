"""Hostile inputs (issue 20, items 1, 6 and 7): each test builds the input in ``tmp_path`` and
asserts the safe outcome — a cache planted in the checked tree never runs code, a symlinked cache
folder is never written through, a FIFO never hangs a run, nothing outside the checked project is
opened, a git-LFS pointer is reported as not checked, and an interrupted write leaves no
temporary file (README.md, "The result cache"; docs/architecture.md, "The project pass")."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mcpmigrate import cache as C
from mcpmigrate import files as F
from tests.helpers import MCP101_SERVER, MCP104_FIXED, MCP104_SOURCE, REPO, cli

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX: FIFOs, signals, O_NOFOLLOW")

LOGGING_SERVER = """\
from mcp.server.fastmcp import FastMCP, Context

shelf = FastMCP("shelf")


@shelf.tool()
async def count(ctx: Context) -> int:
    await ctx.warning("counting")
    return 3
"""


@pytest.fixture
def cache_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCPMIGRATE_NO_CACHE", raising=False)
    monkeypatch.delenv("MCPMIGRATE_CACHE_DIR", raising=False)


def _project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    (root / "server.py").write_text(MCP101_SERVER)
    (root / "caps.py").write_text(MCP104_SOURCE)
    return root


def _cache_files(root: Path) -> list[Path]:
    return sorted((root / C.CACHE_DIR_NAME).glob("*/*.json"))


def _findings(res) -> list[tuple[str, str, int]]:
    return sorted((f["path"], f["rule"], f["line"]) for f in res.json["findings"])


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MCPMIGRATE_NO_CACHE", "MCPMIGRATE_CACHE_DIR")}
    return {**env, "NO_COLOR": "1", "PYTHONPATH": str(REPO), **extra}


def _run(args: list[str], cwd: Path, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
    """``mcpmigrate *args`` in a fresh process (a hang is a failure, not a stuck suite)."""
    return subprocess.run(
        [sys.executable, "-m", "mcpmigrate", *args],
        cwd=cwd,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# --- item 1: a cache that cannot run code ---------------------------------------------------------


class _Payload:
    """What a pickle-reading cache would run: it writes the marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (eval, (f"open({str(self.marker)!r}, 'w').write('pwned') and {{}}",))


def test_a_planted_pickle_in_the_cache_never_runs(tmp_path: Path, cache_on: None) -> None:
    root = _project(tmp_path / "p")
    cold = cli(["check", "--output-format", "json", "."], root)
    [cached] = _cache_files(root)
    marker = tmp_path / "CODE_RAN"
    cached.write_bytes(pickle.dumps(_Payload(marker)))
    warm = cli(["check", "--output-format", "json", "."], root)
    assert not marker.exists()
    assert _findings(warm) == _findings(cold) and warm.exit_code == cold.exit_code == 1
    shown = os.path.relpath(cached, root)
    [line] = [x for x in warm.stderr.splitlines() if x.startswith("warning:")]
    assert line.startswith(f"warning: {shown}: corrupted or foreign cache file ignored (")
    assert json.loads(cached.read_bytes())["mcpmigrate-cache"] == C.FORMAT  # replaced by a cache again
    again = cli(["check", "--output-format", "json", "."], root)
    assert "warning" not in again.stderr and _findings(again) == _findings(cold)


def test_a_corrupted_entry_is_ignored_with_one_warning(tmp_path: Path, cache_on: None) -> None:
    root = _project(tmp_path / "p")
    cold = cli(["check", "--output-format", "json", "."], root)
    [cached] = _cache_files(root)
    doc = json.loads(cached.read_bytes())
    for entry in doc["entries"].values():
        if isinstance(entry[1], dict) and "findings" in entry[1]:
            entry[1]["findings"] = [{"rule": "MCP999", "line": "one"}]
            entry[1]["error_at"] = "os.system('x')"
    cached.write_text(json.dumps(doc))
    warm = cli(["check", "--output-format", "json", "."], root)
    assert _findings(warm) == _findings(cold)
    warnings = [x for x in warm.stderr.splitlines() if x.startswith("warning:")]
    assert len(warnings) == 1 and "corrupted cache entry ignored" in warnings[0], warm.stderr


def test_a_symlinked_cache_folder_is_not_written_through(tmp_path: Path, cache_on: None) -> None:
    root = _project(tmp_path / "p")
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / C.CACHE_DIR_NAME).symlink_to(outside, target_is_directory=True)
    res = cli(["check", "--output-format", "json", "."], root)
    assert os.listdir(outside) == []
    assert {r for _p, r, _l in _findings(res)} == {"MCP101", "MCP104"}
    assert f"warning: {C.CACHE_DIR_NAME}: the cache folder is a symlink; not read or written through it" in res.stderr


def test_a_symlinked_cache_file_is_replaced_never_followed(tmp_path: Path, cache_on: None) -> None:
    root = _project(tmp_path / "p")
    cli(["check", "."], root)
    [cached] = _cache_files(root)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    cached.unlink()
    cached.symlink_to(victim)
    (root / "caps.py").write_text(MCP104_FIXED)  # something new to store
    res = cli(["check", "."], root)
    assert victim.read_text() == "precious\n"
    assert not cached.is_symlink() and json.loads(cached.read_bytes())["mcpmigrate-cache"] == C.FORMAT
    assert "a symlink, not a cache file" in res.stderr


def test_cache_dir_option_env_and_fix_no_cache(tmp_path: Path, cache_on: None, monkeypatch) -> None:
    root = _project(tmp_path / "p")
    chosen = tmp_path / "chosen"
    cli(["check", "--cache-dir", str(chosen), "."], root)
    assert not (root / C.CACHE_DIR_NAME).exists()
    assert len(list(chosen.glob("*/*.json"))) == 1 and (chosen / "CACHEDIR.TAG").is_file()
    monkeypatch.setenv("MCPMIGRATE_CACHE_DIR", str(tmp_path / "from-env"))
    cli(["check", "."], root)
    assert not (root / C.CACHE_DIR_NAME).exists() and len(list((tmp_path / "from-env").glob("*/*.json"))) == 1
    monkeypatch.delenv("MCPMIGRATE_CACHE_DIR")
    res = cli(["fix", "--no-cache", "."], root)
    assert (root / "caps.py").read_text() == MCP104_FIXED, str(res)
    assert not (root / C.CACHE_DIR_NAME).exists()
    cli(["fix", "."], root)
    assert _cache_files(root)


def test_outside_every_project_the_cache_is_the_users(tmp_path: Path, cache_on: None, monkeypatch) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    if F.project_root(loose) is not None:
        pytest.skip("the temporary folder lies inside a project")
    (loose / "caps.py").write_text(MCP104_SOURCE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    res = cli(["check", "caps.py"], loose)
    assert res.exit_code == 1
    assert os.listdir(loose) == ["caps.py"]
    assert len(list((tmp_path / "xdg" / "mcpmigrate").glob("*/*.json"))) == 1


# --- item 7: non-regular files, git-LFS pointers, interrupted writes -------------------------------


def test_a_fifo_named_or_beside_a_named_file_never_hangs(tmp_path: Path) -> None:
    """user-06: the FIFO named on the command line is reported; one beside the named file (read by
    the project pass), or where the pins are read, is skipped."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\ndependencies = ["fastmcp>=2"]\n')
    (root / "server.py").write_text(LOGGING_SERVER)
    (root / ".git" / "info").mkdir(parents=True)  # a git work tree: its .gitignore files are read
    for name in ("pipe.py", "requirements-dev.txt", "uv.lock", ".gitignore", ".git/info/exclude"):
        os.mkfifo(root / name)
    sibling = _run(["check", "--output-format", "concise", "--target-sdk", "fastmcp4", "server.py"], root)
    assert sibling.returncode == 1, sibling
    assert "server.py:8:11: MCP401 " in sibling.stdout
    assert "pipe.py" not in sibling.stdout + sibling.stderr
    named = _run(["check", "--output-format", "concise", "pipe.py"], root)
    assert named.returncode == 1, named
    assert "error: pipe.py: not a regular file (a FIFO, socket or device); skipped" in named.stderr
    walked = _run(["check", "--no-cache", "--output-format", "concise", "."], root)
    assert "error: pipe.py: not a regular file (a FIFO, socket or device); skipped" in walked.stderr


def test_read_regular_refuses_a_fifo_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        F.read_regular(fifo)  # would block forever in open() if it were opened for reading
    with pytest.raises(ValueError, match="not a regular file"):
        F.read_source(fifo)


def test_a_git_lfs_pointer_is_reported_as_not_checked(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text(
        "version https://git-lfs.github.com/spec/v1\n"
        "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
        "size 12345\n"
    )
    (tmp_path / "ok.py").write_text("import os\n")
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1
    assert res.json["errors"] == [
        {"path": "big.py", "message": "not checked: a git-LFS pointer (fetch the file with `git lfs pull`)"}
    ]


# The child takes Ctrl-C as a terminal gives it: a process started from a shell's background job
# inherits SIGINT ignored, and Python then never raises KeyboardInterrupt (the test hung, then
# failed, when the suite ran in such a job).
_SLOW_WRITE = """\
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
real = os.fsync
def slow(fd):
    print("writing", flush=True)
    time.sleep(120)
os.fsync = slow
sys.argv = ["mcpmigrate", "fix", "--no-cache", "caps.py"]
from mcpmigrate.cli import main
main()
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_an_interrupted_fix_leaves_no_temporary_file(tmp_path: Path, signum: int) -> None:
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    proc = subprocess.Popen(
        [sys.executable, "-c", _SLOW_WRITE], cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"writing\n"  # the temporary file is there, mid-write
        assert any(n.endswith(".mcpmigrate.tmp") for n in os.listdir(tmp_path))
        proc.send_signal(signum)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert sorted(os.listdir(tmp_path)) == ["caps.py"]
    assert (tmp_path / "caps.py").read_text() == MCP104_SOURCE
    if signum == signal.SIGTERM:
        assert proc.returncode == -signal.SIGTERM  # ended as the signal's default action ends it


# --- item 6: only the project holding the checked paths is read -----------------------------------

_RECORD_OPENS = """\
import atexit, builtins, io, json, os, sys
opened = []
def wrap(fn):
    def inner(path, *a, **k):
        if isinstance(path, (str, bytes, os.PathLike)):
            opened.append(os.path.abspath(os.fsdecode(path)))
        return fn(path, *a, **k)
    return inner
builtins.open = io.open = wrap(io.open)
os.open = wrap(os.open)
os.scandir = wrap(os.scandir)
os.listdir = wrap(os.listdir)
record = sys.argv[1]
atexit.register(lambda: open(record, "w").write(json.dumps(opened)))
sys.argv = ["mcpmigrate", *sys.argv[2:]]
from mcpmigrate.cli import main
main()
"""


def _opened(args: list[str], cwd: Path, record: Path) -> tuple[subprocess.CompletedProcess[str], set[Path]]:
    """``mcpmigrate *args`` in a fresh process that records every path it opens or lists."""
    res = subprocess.run(
        [sys.executable, "-c", _RECORD_OPENS, str(record), *args],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return res, {Path(p) for p in json.loads(record.read_text())}


def _above_the_project(tmp_path: Path) -> tuple[Path, Path]:
    """A folder holding a project (no [tool.mcpmigrate]) beside unrelated trees and a FIFO."""
    top = tmp_path / "top"
    proj = top / "proj"
    (top / "other" / "deep").mkdir(parents=True)
    proj.mkdir()
    (proj / "pyproject.toml").write_text('[project]\nname = "proj"\nversion = "0"\ndependencies = ["mcp>=1.27,<2"]\n')
    (proj / "paths.py").write_text(
        "async def album_dir(ctx):\n    listing = await ctx.session.list_roots()\n    return listing.roots[0].uri.path\n"
    )
    (proj / "tools.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom paths import album_dir\n\nmcp = FastMCP('t')\n\n\n"
        "@mcp.tool()\nasync def count_photos(ctx: Context) -> int:\n    return len(await album_dir(ctx))\n"
    )
    for i in range(20):
        (top / "other" / "deep" / f"m{i}.py").write_text("from paths import album_dir\n\nalbum_dir(None)\n")
    (top / "unrelated.py").write_text("from paths import album_dir\n")
    (top / "requirements.txt").write_text("mcp>=2\n")
    os.mkfifo(top / "other" / "pipe.py")
    os.mkfifo(top / "pipe.py")
    return top, proj


@pytest.mark.parametrize("named", ["proj", "proj/paths.py"])
def test_a_check_from_above_the_project_opens_nothing_outside_it(tmp_path: Path, named: str) -> None:
    """user-10: run from a folder above the project, which holds a FIFO and unrelated trees; the
    project pass reads the project holding the named path (its callers are found) and nothing
    outside it is opened or listed."""
    top, proj = _above_the_project(tmp_path)
    res, opened = _opened(["check", "--output-format", "concise", named], top, tmp_path / "opened.json")
    assert res.returncode == 1, res
    assert "proj/paths.py:2:21: MCP101 " in res.stdout and "count_photos" in res.stdout, res.stdout
    inside_top = {p for p in opened if top in p.parents or p == top}
    outside = sorted(str(p.relative_to(top)) for p in inside_top if not (p == proj or proj in p.parents))
    assert outside == []
    assert proj / "tools.py" in opened  # the caller of the named file was read
    assert list((proj / C.CACHE_DIR_NAME).glob("*/*.json"))  # the cache is the project's
    assert not (top / C.CACHE_DIR_NAME).exists()


def test_a_file_outside_every_project_is_checked_on_its_own(tmp_path: Path) -> None:
    loose = tmp_path / "loose"
    loose.mkdir()
    if F.project_root(loose) is not None:
        pytest.skip("the temporary folder lies inside a project")
    (loose / "paths.py").write_text(
        "from mcp.server.fastmcp import Context\n\n\n"
        "async def album_dir(ctx: Context):\n    listing = await ctx.session.list_roots()\n    return listing.roots[0].uri.path\n"
    )
    (loose / "caller.py").write_text("from paths import album_dir\n\nalbum_dir(None)\n")
    os.mkfifo(loose / "pipe.py")
    res, opened = _opened(["check", "--no-cache", "--output-format", "concise", "paths.py"], loose, tmp_path / "o.json")
    assert res.returncode == 1, res
    assert res.stdout.startswith("paths.py:5:21: MCP101 "), res.stdout
    assert {p.name for p in opened if p.parent == loose} == {"paths.py"}


def test_project_root_is_the_nearest_marker(tmp_path: Path) -> None:
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / "setup.cfg").write_text("")
    (tmp_path / "a" / "b" / ".git").mkdir()
    assert F.project_root(tmp_path / "a" / "b" / "c" / "x.py") == tmp_path / "a" / "b"
    assert F.project_root(tmp_path / "a" / "b") == tmp_path / "a" / "b"
    assert F.project_root(tmp_path / "a" / "y.py") == tmp_path / "a"


def test_a_cache_entry_reader_rejects_what_it_did_not_write() -> None:
    assert C.row([1, "x"], int, str) == (1, "x")
    for bad in ([True, "x"], [1], ["1", "x"], {"a": 1}):
        with pytest.raises(C.Invalid):
            C.row(bad, int, str)

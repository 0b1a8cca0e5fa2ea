#!/usr/bin/env python3
"""Benchmark ``mcpmigrate check`` (measured here, never in timed tests: docs/architecture.md, "Speed").

Generates a tree of N Python files of which a share use MCP features (roots requests, contexts,
capability checks), then times a cold ``mcpmigrate check`` on it (a fresh process, as a user
runs it) and prints wall time, files/s, MB/s and the child's peak memory. Extra trees (e.g. a
checkout of the Python SDK) can be timed too: ``scripts/bench.py --tree /path/to/python-sdk``.

Also times the peer tool ``mcp-migrate`` (PyPI) on the same trees in the same run and prints the
ratio; ``--install-peer`` installs it into its own venv (see ``locate_peer``). Cold runs bypass
the cache (``MCPMIGRATE_NO_CACHE=1``); warm runs re-check the unchanged tree with the cache.

Usage: python scripts/bench.py [--files 2000] [--mcp-share 0.05] [--tree PATH ...] [--repeat 3]
                               [--peer PATH | --install-peer] [--against DIR]

``--against DIR`` compares instead: this checkout's code and the one in DIR (e.g. ``git worktree
add ../base <tag>``) check each ``--tree`` by turns, cold and warm, and the ratios of the best
runs (wall and CPU) are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAIN = '''"""Module {i}: ordinary application code with no MCP in it."""
import logging
from dataclasses import dataclass

logger = logging.getLogger(__name__)


@dataclass
class Record{i}:
    name: str
    size: int

    def describe(self) -> str:
        logger.info("describing %s", self.name)
        return f"{{self.name}} ({{self.size}} bytes)"


def load_{i}(rows: list[dict]) -> list[Record{i}]:
    out = []
    for row in rows:
        if row.get("size", 0) > {i}:
            out.append(Record{i}(row["name"], row["size"]))
    return sorted(out, key=lambda r: r.size)
'''

MCP = '''"""Server {i}: an mcp 1.x FastMCP tool that asks for roots."""
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("bench-{i}")


async def workspace(ctx: Context) -> Path:
    if not ctx.session.check_client_capability(None):
        return Path.cwd()
    roots = await ctx.session.list_roots()
    return Path(roots.roots[0].uri.path)


@mcp.tool()
async def count_{i}(pattern: str, ctx: Context) -> int:
    base = await workspace(ctx)
    return sum(1 for _ in base.glob(pattern))


@mcp.tool()
async def first_{i}(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return result.roots[0].uri.path
'''


def generate(root: Path, files: int, share: float, seed: int = 7) -> int:
    rnd = random.Random(seed)
    mcp_count = 0
    for i in range(files):
        pkg = root / f"pkg{i // 100}"
        pkg.mkdir(parents=True, exist_ok=True)
        is_mcp = rnd.random() < share
        mcp_count += is_mcp
        (pkg / f"mod{i}.py").write_text((MCP if is_mcp else PLAIN).format(i=i), encoding="utf-8")
    return mcp_count


def tree_stats(root: Path) -> tuple[int, int]:
    n = size = 0
    for p in root.rglob("*.py"):
        if p.is_file():
            n += 1
            size += p.stat().st_size
    return n, size


PEER_VENV = Path(os.environ.get("MCPMIGRATE_PEER_VENV", "/work/peer-venv"))


def locate_peer(explicit: str | None, install: bool) -> str | None:
    """The peer tool ``mcp-migrate`` (PyPI): --peer PATH, $MCPMIGRATE_PEER, the venv
    $MCPMIGRATE_PEER_VENV (default /work/peer-venv), or PATH. With --install-peer the venv is
    created (python -m venv + pip install mcp-migrate) when missing."""
    import shutil

    for cand in (explicit, os.environ.get("MCPMIGRATE_PEER"), str(PEER_VENV / "bin" / "mcp-migrate")):
        if cand and Path(cand).is_file():
            return cand
    if install:
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(PEER_VENV / "bin" / "pip"), "install", "-q", "mcp-migrate"], check=True)
        return str(PEER_VENV / "bin" / "mcp-migrate")
    return shutil.which("mcp-migrate")


def timed(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, int, int, float]:
    """Seconds, exit code, peak RSS (KiB; the largest process of the run, workers included) and
    CPU seconds (user + system of the process and the workers it waited for)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env={**os.environ, **(env or {})}
    )
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, os.waitstatus_to_exitcode(status), usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def ours(tree: Path, cold: bool, code: str | None = None) -> tuple[float, int, int, float]:
    """A ``check`` of ``tree``; ``code``: the directory to import mcpmigrate from (another
    checkout), else this interpreter's."""
    import shutil

    cmd = [sys.executable, "-m", "mcpmigrate", "check", "--output-format", "concise", str(tree)]
    env = {"PYTHONPATH": code} if code else {}
    if cold:
        shutil.rmtree(tree / ".mcpmigrate_cache", ignore_errors=True)
        return timed(cmd, tree, {**env, "MCPMIGRATE_NO_CACHE": "1"})
    return timed(cmd, tree, env)


def compare(tree: Path, against: str, repeat: int) -> None:
    """This checkout's code and the one in ``against`` timed on ``tree`` by turns (run A, run B, …;
    on a shared machine the load drifts, so only interleaved runs compare), cold and warm: the
    best of ``repeat`` runs each, and the ratios."""
    here = str(Path(__file__).resolve().parent.parent)
    for cold in (True, False):
        if not cold:
            ours(tree, False, against), ours(tree, False, here)  # fill each build's cache
        runs: dict[str, list[tuple[float, int, int, float]]] = {against: [], here: []}
        for _ in range(repeat):
            for code in runs:
                runs[code].append(ours(tree, cold, code))
        label = "cold" if cold else "warm"
        best = {code: (min(r[0] for r in rs), min(r[3] for r in rs)) for code, rs in runs.items()}
        for code, (wall, cpu) in best.items():
            print(f"  {label} {code}: best wall {wall:.2f} s, best CPU {cpu:.2f} s  (of {repeat})")
        print(
            f"  {label} ratio this/against: wall {best[here][0] / best[against][0]:.3f}, "
            f"CPU {best[here][1] / best[against][1]:.3f}"
        )


def best(fn, repeat: int):
    runs = [fn() for _ in range(repeat)]
    return min(runs, key=lambda r: r[0])


def report(label: str, tree: Path, repeat: int, peer: str | None) -> None:
    n, size = tree_stats(tree)
    print(f"{label}: {n} files, {size / 1e6:.2f} MB")
    t, rc, peak, _cpu = best(lambda: ours(tree, cold=True), repeat)
    print(
        f"  mcpmigrate check, cold (no cache): {t:.2f} s  ({n / t:.0f} files/s, {size / 1e6 / t:.2f} MB/s), "
        f"exit {rc}, peak RSS {peak / 1024:.0f} MB"
    )
    ours(tree, cold=False)  # fill the cache
    tw, rcw, peakw, _cpu = best(lambda: ours(tree, cold=False), repeat)
    print(
        f"  mcpmigrate check, warm (cache):    {tw:.2f} s  ({n / tw:.0f} files/s), exit {rcw}, peak RSS {peakw / 1024:.0f} MB"
    )
    if peer:
        # --include-tests: the peer skips tests/, examples/, docs/ by default; this checks the same files
        tp, rcp, peakp, _cpu = best(
            lambda: timed([peer, "check", "--include-tests", "--fail-on", "never", str(tree)], tree), 1
        )
        print(
            f"  mcp-migrate check --include-tests: {tp:.2f} s  ({n / tp:.0f} files/s), exit {rcp}, peak RSS {peakp / 1024:.0f} MB"
        )
        print(f"  ratio peer/mcpmigrate (cold): {tp / t:.1f}x")
    else:
        print("  mcp-migrate: not found; install it with --install-peer, or pass --peer PATH")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--mcp-share", type=float, default=0.05)
    ap.add_argument(
        "--tree", action="append", default=[], help="also time this existing tree (e.g. a python-sdk checkout)"
    )
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peer", help="path of the mcp-migrate executable")
    ap.add_argument(
        "--install-peer", action="store_true", help="create $MCPMIGRATE_PEER_VENV with mcp-migrate if missing"
    )
    ap.add_argument(
        "--against",
        metavar="DIR",
        help="compare with the mcpmigrate code in DIR (e.g. a worktree of a tag) on each --tree, by turns",
    )
    args = ap.parse_args()
    if args.against:
        for t in args.tree:
            print(f"{t} (load {os.getloadavg()[0]:.1f}):")
            compare(Path(t).resolve(), args.against, args.repeat)
        return
    peer = locate_peer(args.peer, args.install_peer)
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, peer {peer or 'none'}"
    )
    tv = min(timed([sys.executable, "-m", "mcpmigrate", "--version"], Path.cwd())[0] for _ in range(5))
    print(f"mcpmigrate --version: {tv:.3f} s")
    with tempfile.TemporaryDirectory(prefix="mcpmigrate-bench-") as tmp:
        root = Path(tmp)
        mcp_files = generate(root, args.files, args.mcp_share)
        report(f"generated tree ({mcp_files} MCP files)", root, args.repeat, peer)
    for t in args.tree:
        report(str(t), Path(t).resolve(), args.repeat, peer)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Benchmark ``mcpmigrate check`` (DESIGN §7: measured here, never in timed tests).

Generates a tree of N Python files of which a share use MCP features (roots requests, contexts,
capability checks), then times a cold ``mcpmigrate check`` on it (a fresh process, as a user
runs it) and prints wall time, files/s, MB/s and the child's peak memory. Extra trees (e.g. a
checkout of the Python SDK) can be timed too: ``scripts/bench.py --tree /path/to/python-sdk``.

Usage: python scripts/bench.py [--files 2000] [--mcp-share 0.05] [--tree PATH ...] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
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


def time_check(tree: Path, extra: list[str]) -> tuple[float, int, int]:
    """Seconds, exit code and peak RSS (KiB) of one ``mcpmigrate check`` child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mcpmigrate", "check", "--output-format", "concise", *extra, str(tree)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tree,
    )
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, proc.returncode, max(peak, before)


def report(label: str, tree: Path, repeat: int, extra: list[str]) -> None:
    n, size = tree_stats(tree)
    times = []
    rc = peak = 0
    for _ in range(repeat):
        t, rc, peak = time_check(tree, extra)
        times.append(t)
    best = min(times)
    print(f"{label}: {n} files, {size / 1e6:.2f} MB; check best of {repeat}: {best:.2f} s "
          f"({n / best:.0f} files/s, {size / 1e6 / best:.2f} MB/s), exit {rc}, peak RSS {peak / 1024:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--mcp-share", type=float, default=0.05)
    ap.add_argument("--tree", action="append", default=[], help="also time this existing tree")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="mcpmigrate-bench-") as tmp:
        root = Path(tmp)
        mcp_files = generate(root, args.files, args.mcp_share)
        report(f"generated tree ({mcp_files} MCP files)", root, args.repeat, ["--no-cache"])
    for t in args.tree:
        report(str(t), Path(t).resolve(), args.repeat, ["--no-cache"])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Check and fix large real trees: each tree is copied to a temporary directory, then
``check`` runs, then ``fix --unsafe-fixes`` with each strategy (on a fresh copy), then a second
``fix``. Printed per tree and in total; every count must be zero:

- crashes: "internal error" entries (check, fix or the second fix);
- unparsable: files whose fixed text does not compile;
- not idempotent: files the second fix changes again;
- changed without a finding: files the fix rewrote although check found nothing in them;
- refused: "fix not applied" (the engine caught a codemod producing bad code).

The trees are never modified and their code is never copied into this repository.

Usage: python scripts/corpora.py [TREE ...]   (default: the trees under /work/ext)
"""

from __future__ import annotations

import argparse
import collections
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcpmigrate.config import Config
from mcpmigrate.engine import Options, run

DEFAULT_TREES = ["/work/ext/python-sdk", "/work/ext/fastmcp", "/work/ext/servers"]
KINDS = ("crashes", "unparsable", "not idempotent", "changed without a finding", "refused")


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in root.rglob("*.py")
        if p.is_file() and not p.is_symlink() and ".mcpmigrate_cache" not in p.parts
    }


def _run(root: Path, mode: str, strategy: str = "param"):
    opts = Options(mode=mode, strategy=strategy, unsafe_fixes=True, no_cache=True)
    return run([root], Config(root=root), opts, cwd=root)


def corpus(tree: Path, counts: collections.Counter, details: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="mcpmigrate-corpus-") as tmp:
        root = Path(tmp) / tree.name
        shutil.copytree(tree, root, symlinks=True, ignore=shutil.ignore_patterns(".git", ".mcpmigrate_cache"))
        original = _snapshot(root)
        start = time.perf_counter()
        checked = _run(root, "check")
        with_findings = {f.path for f in checked.findings}
        for e in checked.errors:
            if "internal error" in e.message:
                counts["crashes"] += 1
                details.append(f"{tree.name}: check: {e.path}: {e.message}")
        line = [
            f"{tree.name}: {checked.files_checked} files, {len(checked.findings)} findings in "
            f"{len(with_findings)} files, {len(checked.errors)} file errors, check {time.perf_counter() - start:.1f} s"
        ]
        for strategy in ("param", "interim"):
            for rel, data in original.items():  # a fresh copy of the tree for each strategy
                (root / rel).write_bytes(data)
            fixed = _run(root, "fix", strategy)
            first = _snapshot(root)
            changed = sorted(rel for rel in original if first[rel] != original[rel])
            for e in fixed.errors:
                if "internal error" in e.message:
                    counts["crashes"] += 1
                    details.append(f"{tree.name}: fix --strategy {strategy}: {e.path}: {e.message}")
                elif "fix not applied" in e.message:
                    counts["refused"] += 1
                    details.append(f"{tree.name}: fix --strategy {strategy}: {e.path}: {e.message}")
            for rel in changed:
                try:
                    compile(first[rel], rel, "exec", dont_inherit=True)
                except (SyntaxError, ValueError) as exc:
                    counts["unparsable"] += 1
                    details.append(f"{tree.name}: --strategy {strategy}: {rel}: {exc}")
                if Path(rel).as_posix() not in with_findings:
                    counts["changed without a finding"] += 1
                    details.append(f"{tree.name}: --strategy {strategy}: {rel} changed without a finding")
            again = _run(root, "fix", strategy)
            second = _snapshot(root)
            for rel in original:
                if second[rel] != first[rel]:
                    counts["not idempotent"] += 1
                    details.append(f"{tree.name}: --strategy {strategy}: {rel} changed again by a second fix")
            for e in again.errors:
                if "internal error" in e.message:
                    counts["crashes"] += 1
                    details.append(f"{tree.name}: second fix --strategy {strategy}: {e.path}: {e.message}")
            line.append(f"fix --strategy {strategy}: {len(changed)} files changed, {len(fixed.fixed)} fixed")
        print("; ".join(line), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trees", nargs="*", default=DEFAULT_TREES)
    args = ap.parse_args()
    counts: collections.Counter[str] = collections.Counter()
    details: list[str] = []
    for t in args.trees:
        tree = Path(t)
        if not tree.is_dir():
            print(f"{t}: not found; fetch it first (see the module docstring)", file=sys.stderr)
            counts["missing trees"] += 1
            continue
        corpus(tree, counts, details)
    print("totals: " + ", ".join(f"{k}: {counts.get(k, 0)}" for k in KINDS))
    for d in details[:50]:
        print("  " + d)
    return 1 if sum(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The fuzz harness of ``tests/test_fuzz.py``, run longer: N generated MCP-server programs and M
hypothesmith programs through ``check`` and ``fix`` (both strategies, unsafe fixes), printing
the count of each kind of failure and the first example of each (saved under --save).

Usage: python scripts/fuzz.py [--mcp 3000] [--hypothesmith 500] [--seed 0] [--save DIR]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzzing import check_program, mcp_program


def _hypothesmith_programs(n: int, seed: int):
    import hypothesmith
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    out: list[str] = []

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False, suppress_health_check=list(HealthCheck))
    @given(hypothesmith.from_grammar() | hypothesmith.from_node())
    def collect(src: str) -> None:
        out.append(src)

    collect()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mcp", type=int, default=3000)
    ap.add_argument("--hypothesmith", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", type=Path, default=Path("/tmp/mcpmigrate-fuzz"))
    args = ap.parse_args()
    counts: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    start = time.perf_counter()
    programs = [("mcp", args.seed + i, mcp_program(args.seed + i)) for i in range(args.mcp)]
    if args.hypothesmith:
        programs += [("hypothesmith", i, p) for i, p in enumerate(_hypothesmith_programs(args.hypothesmith, args.seed))]
    total = collections.Counter(kind for kind, _, _ in programs)
    for kind, ident, src in programs:
        for failure, detail in check_program(src):
            counts[failure] += 1
            key = f"{failure}"
            if key not in examples:
                examples[key] = detail
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"{failure}-{kind}-{ident}.py").write_text(src)
    elapsed = time.perf_counter() - start
    print(f"programs: {dict(total)} in {elapsed:.0f} s")
    kinds = ("crash", "screen", "positions", "unparsable", "not-idempotent", "changed-without-finding", "fix-refused")
    for k in kinds:
        print(f"  {k:26s} {counts.get(k, 0)}")
    for k, d in examples.items():
        print(f"first {k}: {d}  (saved in {args.save})")
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Record what ``check`` and ``fix`` print on a set of inputs, to compare two revisions byte for byte.

A refactoring that must not change behaviour (issue 21: "``check --output-format json --no-cache``
and ``fix --diff`` output are byte-identical before and after") is checked by recording before it,
recording again after each step, and comparing:

    python scripts/compare_outputs.py record /tmp/out/before            # on the old revision
    python scripts/compare_outputs.py record /tmp/out/after             # on the new one
    python scripts/compare_outputs.py compare /tmp/out/before /tmp/out/after

The inputs: every fixture case (``fixtures/<family>/<case>/``, with its ``case.toml`` flags), every
field case of ``--field`` (default ``/work/shared/cases/field``, when it exists) and the trees given
with ``--tree`` (e.g. the real trees ``scripts/corpora.py`` lists). Each input is copied to the same
place under ``--work`` (default ``/tmp/mcpmigrate-compare``) every time, so the paths printed are
the same in both recordings; the inputs are never modified (``fix --diff`` writes nothing). Per
input, these runs (each file holds the exit code, stdout and stderr):

- ``check --output-format json --no-cache``, with and without ``--no-legacy-clients``;
- ``fix --diff --no-cache --unsafe-fixes`` with ``--strategy param`` and ``--strategy interim``,
  and ``--strategy param --no-legacy-clients`` (the removals of the legacy-only rules).

A fixture's ``target_sdk`` is passed to every run of it. The runs go through the CLI in this process
(``click``'s runner), one after another.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from click.testing import CliRunner

from mcpmigrate.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
VARIANTS: dict[str, list[str]] = {
    "check": ["check", "--output-format", "json", "--no-cache"],
    "check-nolegacy": ["check", "--output-format", "json", "--no-cache", "--no-legacy-clients"],
    "fix-param": ["fix", "--diff", "--no-cache", "--unsafe-fixes", "--strategy", "param"],
    "fix-interim": ["fix", "--diff", "--no-cache", "--unsafe-fixes", "--strategy", "interim"],
    "fix-param-nolegacy": [
        "fix",
        "--diff",
        "--no-cache",
        "--unsafe-fixes",
        "--strategy",
        "param",
        "--no-legacy-clients",
    ],
}


def inputs(field: Path | None, trees: list[Path]) -> list[tuple[str, Path, list[str]]]:
    """``(slug, source, extra flags)`` for every input, in a stable order."""
    out: list[tuple[str, Path, list[str]]] = []
    for case in sorted((ROOT / "fixtures").glob("*/*/case.toml")):
        data = tomllib.loads(case.read_text(encoding="utf-8"))
        flags = ["--target-sdk", data["target_sdk"]] if "target_sdk" in data else []
        out.append((f"fixture-{case.parent.parent.name}-{case.parent.name}", case.parent, flags))
    if field is not None and field.is_dir():
        for p in sorted(field.iterdir()):
            if p.name.startswith(("README", ".")):
                continue
            out.append((f"field-{p.name}", p, []))
    for t in trees:
        out.append((f"tree-{t.name}", t, []))
    return out


def run(args: list[str], cwd: Path) -> str:
    runner = CliRunner()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        res = runner.invoke(cli_main, args, env={"NO_COLOR": "1", "COLUMNS": "200"}, catch_exceptions=True)
    finally:
        os.chdir(here)
    exc = "" if res.exception is None or isinstance(res.exception, SystemExit) else repr(res.exception)
    return f"exit {res.exit_code} {exc}\n--- stdout\n{res.stdout}\n--- stderr\n{res.stderr}"


def record(out: Path, work: Path, field: Path | None, trees: list[Path], only: str | None) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for slug, src, flags in inputs(field, trees):
        if only and only not in slug:
            continue
        dest = work / slug
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        if src.is_dir():
            shutil.copytree(src, dest / src.name, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        else:
            shutil.copyfile(src, dest / src.name)
        for variant, args in VARIANTS.items():
            text = run([*args, *flags, src.name], dest)
            (out / f"{slug}__{variant}.txt").write_text(text, encoding="utf-8", errors="surrogateescape")
        print(slug, flush=True)
    return 0


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    differ = [
        n for n in names if not (a / n).exists() or not (b / n).exists() or (a / n).read_bytes() != (b / n).read_bytes()
    ]
    for n in differ:
        print("differs:", n)
    print(f"{len(names) - len(differ)} of {len(names)} outputs byte-identical")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record", help="record every input's outputs into OUT")
    rec.add_argument("out", type=Path)
    rec.add_argument("--work", type=Path, default=Path("/tmp/mcpmigrate-compare"))
    rec.add_argument("--field", type=Path, default=Path("/work/shared/cases/field"))
    rec.add_argument("--tree", type=Path, action="append", default=[], help="a real tree (repeat)")
    rec.add_argument("--only", help="only the inputs whose name contains this")
    cmp = sub.add_parser("compare", help="compare two recordings byte for byte")
    cmp.add_argument("a", type=Path)
    cmp.add_argument("b", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "record":
        return record(args.out, args.work, args.field, args.tree, args.only)
    return compare(args.a, args.b)


if __name__ == "__main__":
    raise SystemExit(main())

"""Regenerate the fixtures' expected outputs from what ``mcpmigrate fix`` writes, and measure how
many fixed fixtures stay formatter-clean.

    python scripts/regen_fixtures.py [CASE ...]        # rewrite after_param.py / after_interim.py
    python scripts/regen_fixtures.py --check [CASE ...] # only say which would change
    python scripts/regen_fixtures.py --measure          # fixtures clean before: clean after fix?
    python scripts/regen_fixtures.py --measure --formatted  # the same on before.py ruff-formatted first

Each case (``fixtures/<family>/<case>/``, see fixtures/README.md) is fixed the way
tests/test_fixtures.py fixes it: ``before.py`` copied alone into a fresh temporary directory,
``fix --strategy <s> --unsafe-fixes`` with the case's flags (``legacy_clients``, ``target_sdk``).
Only an expectation that exists is rewritten (a case without ``after_param.py`` must be left
unchanged by the fix; a change there is a behaviour change, reported, not written). Read every
diff this produces: a style change must change layout only.

``--measure``: for each case and strategy with an expected output whose ``before.py`` passes
real ``ruff format --check`` and ``ruff check --select I`` (ruff's defaults, no configuration),
whether the fixed file still passes both (README.md, "Fixes keep your style").
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from click.testing import CliRunner

from mcpmigrate.cli import main as main_cli

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
STRATEGIES = ("param", "interim")


def cases(names: list[str]) -> list[Path]:
    found = sorted(p.parent for p in FIXTURES.glob("*/*/case.toml"))
    if not names:
        return found
    return [c for c in found if any(n in c.relative_to(FIXTURES).as_posix() for n in names)]


def flags(case_dir: Path) -> list[str]:
    """The case's flags, as tests/test_fixtures.py passes them."""
    case = tomllib.loads((case_dir / "case.toml").read_text(encoding="utf-8"))
    out = [] if case.get("legacy_clients", True) else ["--no-legacy-clients"]
    return out + (["--target-sdk", case["target_sdk"]] if "target_sdk" in case else [])


def fix_case(case_dir: Path, strategy: str, work: Path) -> Path:
    """``before.py`` of ``case_dir`` copied into ``work`` (empty) and fixed; the fixed file."""
    target = work / "before.py"
    shutil.copyfile(case_dir / "before.py", target)
    args = ["fix", "--strategy", strategy, "--unsafe-fixes", *flags(case_dir), "-q", target.name]
    here = os.getcwd()
    os.chdir(work)
    try:  # in-process, as tests/helpers.py's cli() runs it (a process per case is seconds each)
        CliRunner().invoke(main_cli, args, env={"NO_COLOR": "1"}, catch_exceptions=True)
    finally:
        os.chdir(here)
    return target


def ruff_clean(path: Path) -> tuple[str, str]:
    """``(import-order problems, format diff)`` of real ruff with its defaults ("" when clean)."""
    ruff = [sys.executable, "-m", "ruff"]
    imports = subprocess.run(
        [*ruff, "check", "--isolated", "--select", "I", "--output-format", "concise", path.name],
        cwd=path.parent,
        capture_output=True,
        text=True,
    )
    fmt = subprocess.run(
        [*ruff, "format", "--isolated", "--diff", path.name], cwd=path.parent, capture_output=True, text=True
    )
    return (imports.stdout if imports.returncode else ""), (fmt.stdout if fmt.returncode else "")


def expectations(case_dir: Path) -> list[tuple[str, Path]]:
    return [(s, case_dir / f"after_{s}.py") for s in STRATEGIES if (case_dir / f"after_{s}.py").exists()]


def regen(names: list[str], check: bool) -> int:
    changed = 0
    for case_dir in cases(names):
        rel = case_dir.relative_to(FIXTURES).as_posix()
        for strategy in STRATEGIES:
            expected = case_dir / f"after_{strategy}.py"
            with tempfile.TemporaryDirectory() as tmp:
                got = fix_case(case_dir, strategy, Path(tmp)).read_bytes()
            if not expected.exists():
                if strategy == "param" and got != (case_dir / "before.py").read_bytes():
                    print(f"{rel}: fix now changes a file it must leave unchanged (not written)")
                continue
            if got == expected.read_bytes():
                continue
            changed += 1
            print(f"{rel}/{expected.name}: {'would change' if check else 'rewritten'}")
            if not check:
                expected.write_bytes(got)
    return changed


def ruff_format(path: Path) -> None:
    """``path`` sorted and formatted by real ruff with its defaults."""
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "check", "--isolated", "--select", "I", "--fix", "-q", path.name], cwd=path.parent)
    subprocess.run([*ruff, "format", "--isolated", "-q", path.name], cwd=path.parent)


def measure(names: list[str], formatted: bool) -> int:
    """For each case and strategy with an expectation whose ``before.py`` passes ``ruff format
    --check`` (``formatted``: after ruff sorted and formatted it), whether the fixed file still
    passes it, and ``ruff check --select I`` when ``before.py`` did. Prints what does not."""
    clean_before = clean_after = 0
    for case_dir in cases(names):
        rel = case_dir.relative_to(FIXTURES).as_posix()
        for strategy, _ in expectations(case_dir):
            with tempfile.TemporaryDirectory() as tmp:
                work = Path(tmp)
                source = case_dir
                if formatted:
                    source = work / "formatted"
                    source.mkdir()
                    shutil.copyfile(case_dir / "case.toml", source / "case.toml")
                    shutil.copyfile(case_dir / "before.py", source / "before.py")
                    ruff_format(source / "before.py")
                imports_before, fmt_before = ruff_clean(source / "before.py")
                if fmt_before:
                    continue
                clean_before += 1
                fixed_dir = work / "fixed"
                fixed_dir.mkdir()
                imports, fmt = ruff_clean(fix_case(source, strategy, fixed_dir))
            if imports_before:
                imports = ""
            if (imports, fmt) == ("", ""):
                clean_after += 1
            else:
                print(f"NOT CLEAN {rel} ({strategy}):\n{imports}{fmt}")
    print(f"{clean_after} of {clean_before} fixed fixtures clean before are clean after fix")
    return clean_before - clean_after


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help="substrings of fixtures/<family>/<case> to limit the run to")
    parser.add_argument("--check", action="store_true", help="write nothing; list what would change")
    parser.add_argument("--measure", action="store_true", help="count fixed fixtures that stay ruff-clean")
    parser.add_argument("--formatted", action="store_true", help="--measure on before.py formatted by ruff first")
    args = parser.parse_args()
    if args.measure:
        return 1 if measure(args.cases, args.formatted) else 0
    return 1 if regen(args.cases, args.check) and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the fixtures' expected outputs from what ``mcpmigrate fix`` writes, and measure how
many fixed fixtures stay formatter-clean.

    python scripts/regen_fixtures.py [CASE ...]        # rewrite after_param.py / after_interim.py
                                                        # (and, without CASE, rules/*.toml's `fixed`)
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
    """The case's flags of ``fix`` and of the check after it: tests/test_fixtures.py's own (the
    case's ``legacy_clients`` and ``target_sdk``, and the MCP6xx rules it does not list ignored),
    so a regenerated expectation is what that test expects."""
    if str(REPO) not in sys.path:  # tests/ is not installed: imported from the checkout
        sys.path.insert(0, str(REPO))
    from tests.test_fixtures import _fix_flags

    return _fix_flags(case_dir, tomllib.loads((case_dir / "case.toml").read_text(encoding="utf-8")))


def fix_case(case_dir: Path, strategy: str, work: Path) -> Path:
    """``before.py`` of ``case_dir`` copied into ``work`` (empty) and fixed; the fixed file."""
    target = work / "before.py"
    shutil.copyfile(case_dir / "before.py", target)
    _run(work, ["fix", "--strategy", strategy, "--unsafe-fixes", *flags(case_dir), "-q", target.name])
    return target


def _run(work: Path, args: list[str]) -> None:
    """``mcpmigrate *args`` from ``work``, in-process as tests/helpers.py's cli() runs it (a
    process per case takes seconds)."""
    here = os.getcwd()
    os.chdir(work)
    try:
        CliRunner().invoke(main_cli, args, env={"NO_COLOR": "1"}, catch_exceptions=True)
    finally:
        os.chdir(here)


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
                renumber(case_dir, strategy, got)
    return changed


def renumber(case_dir: Path, strategy: str, fixed: bytes) -> None:
    """The lines of case.toml's ``[[findings_after_<strategy>]]`` moved to where ``check`` now
    finds those findings in ``fixed`` (a finding's n-th occurrence of its rule keeps its rank)."""
    import json
    import re

    toml_path = case_dir / "case.toml"
    text = toml_path.read_text(encoding="utf-8")
    key = f"findings_after_{strategy}"
    listed = tomllib.loads(text).get(key, [])
    if not listed:
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "before.py").write_bytes(fixed)
        out = work / "report.json"
        _run(work, ["check", *flags(case_dir), "--output-format", "json", "--output-file", str(out), "before.py"])
        found = json.loads(out.read_text(encoding="utf-8"))["findings"]
    moved: dict[tuple[str, int], int] = {}
    for rule in {f["rule"] for f in listed}:
        old = sorted(f["line"] for f in listed if f["rule"] == rule)
        new = sorted(f["line"] for f in found if f["rule"] == rule)
        if len(old) != len(new):
            print(f"{case_dir.name}: {rule} found {len(new)} times after the fix, listed {len(old)}; edit by hand")
            return
        moved.update({(rule, o): n for o, n in zip(old, new)})

    def block(m: re.Match) -> str:
        body = m.group(0)
        rule = re.search(r'rule = "([^"]+)"', body)
        line = re.search(r"line = (\d+)", body)
        if rule is None or line is None:
            return body
        new = moved.get((rule.group(1), int(line.group(1))))
        return body if new is None else body.replace(line.group(0), f"line = {new}", 1)

    pattern = re.compile(r"\[\[" + key + r"\]\][^\[]*")
    toml_path.write_text(pattern.sub(block, text), encoding="utf-8")


def ruff_format(path: Path) -> None:
    """``path`` sorted and formatted by real ruff with its defaults."""
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "check", "--isolated", "--select", "I", "--fix", "-q", path.name], cwd=path.parent)
    subprocess.run([*ruff, "format", "--isolated", "-q", path.name], cwd=path.parent)


def regen_rule_examples(check: bool) -> int:
    """The ``fixed`` text of each rule's invalid examples (rules/*.toml), as
    tests/test_rule_examples.py fixes them; the TOML text is edited in place (the old text
    replaced where it occurs once)."""
    changed = 0
    for path in sorted((REPO / "rules").glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        for i, example in enumerate(data.get("examples", {}).get("invalid", [])):
            if "fixed" not in example:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                work = Path(tmp)
                (work / "example.py").write_text(example["code"], encoding="utf-8")
                args = ["fix", "--strategy", example.get("strategy", "param"), "--unsafe-fixes"]
                args += example.get("args", [])
                args += ["--target-sdk", example["target-sdk"]] if "target-sdk" in example else []
                _run(work, [*args, "-q", "example.py"])
                got = (work / "example.py").read_text(encoding="utf-8")
            if got == example["fixed"]:
                continue
            changed += 1
            if text.count(example["fixed"]) != 1:
                print(f"{path.name} invalid example {i}: fixed text not found once; edit by hand")
                continue
            print(f"{path.name} invalid example {i}: {'would change' if check else 'rewritten'}")
            text = text.replace(example["fixed"], got)
        if not check and text != path.read_text(encoding="utf-8"):
            path.write_text(text, encoding="utf-8")
    return changed


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
    changed = regen(args.cases, args.check)
    if not args.cases:
        changed += regen_rule_examples(args.check)
    return 1 if changed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())

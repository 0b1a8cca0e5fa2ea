#!/usr/bin/env python3
"""Pathological inputs against whole runs (issue 20, "Isolate the parser"): each case puts one
hostile file beside a healthy file with an MCP401 finding and runs ``mcpmigrate check`` (and
``fix --diff``) in a process of its own, as a user would. A run is *crashed* when it dies
(signal, traceback, exit code other than 0/1), outlasts --timeout, prints no complete JSON
document, or loses the healthy file's finding. Prints one line per case (exit, seconds, what
the hostile file became) and the count of crashed runs; exits 1 when there is any.

Cases: deep nesting of (), [], {}, calls, lambdas, nested f-strings (with and without a 3.12
grammar), indentation; long chains of every binary, boolean, unary and postfix operator; huge
expressions (flat lists, dicts, implicit string concatenation, 1 MB lines); many files (a tree
of --files files, healthy and hostile mixed, through the worker pool).

Usage: python scripts/fuzz_pathological.py [--timeout 300] [--files 400] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# a healthy file with an MCP401 finding; every hostile expression sits in an MCP tool (HEAD …),
# so that the screens let the file through to the parser
from tests.test_hostile_parse import HEAD, HEALTHY

MB = 1_000_000


def _fstrings(n: int, same_quotes: bool) -> str:
    if same_quotes:  # PEP 701 (3.12)
        return 'f"{' * n + "1" + '}"' * n
    quotes = ["'", '"', "'''", '"""']
    out = "1"
    for i in range(n):
        q = quotes[i % 4]
        out = f"f{q}{{{out}}}{q}"
    return out


def _indented(n: int) -> str:
    lines = [f"{'    ' * i}if x:" for i in range(n)]
    return HEAD + "1\n" + "\n".join(lines) + "\n" + "    " * n + "pass\n"


def _elifs(n: int) -> str:
    return HEAD + "1\n\n\nif a:\n    pass\n" + "elif a:\n    pass\n" * n


EXPRESSIONS: dict[str, Callable[[int], str]] = {
    "parens": lambda n: "(" * n + "7" + ")" * n,
    "lists": lambda n: "[" * n + "7" + "]" * n,
    "sets": lambda n: "{" * n + "7" + "}" * n,
    "dicts": lambda n: "{'k': " * n + "7" + "}" * n,
    "calls": lambda n: "f(" * n + "7" + ")" * n,
    "lambdas": lambda n: "lambda: " * n + "1",
    "fstrings": lambda n: _fstrings(n, False),
    "fstrings-pep701": lambda n: _fstrings(n, True),
    "plus": lambda n: " + ".join(["a"] * n),
    "power": lambda n: " ** ".join(["a"] * n),
    "and": lambda n: " and ".join(["a"] * n),
    "or": lambda n: " or ".join(["a"] * n),
    "compare": lambda n: " < ".join(["a"] * n),
    "minus": lambda n: "-" * n + "1",
    "not": lambda n: "not " * n + "x",
    "await": lambda n: "await " * n + "x",
    "attributes": lambda n: "a" + ".b" * n,
    "subscripts": lambda n: "a" + "[0]" * n,
    "call-chain": lambda n: "f" + "()" * n,
    "conditional": lambda n: "a if b else " * n + "c",
    "concatenation": lambda n: "(" + " ".join(["'a'"] * n) + ")",
    "flat-list": lambda n: "[" + ", ".join(["1"] * n) + "]",
    "flat-dict": lambda n: "{" + ", ".join(f"{i}: {i}" for i in range(n)) + "}",
    "tuple": lambda n: ", ".join(["a"] * n),
}
SIZES = (100, 1_000, 10_000, 100_000)


def cases() -> Iterator[tuple[str, str, str | None]]:
    """``(name, hostile source, target-version or None)``."""
    for kind, make in EXPRESSIONS.items():
        for n in SIZES:
            if kind.startswith("fstrings") and n > 1_000:
                continue
            yield f"{kind}-{n}", HEAD + make(n) + "\n", None
    for n in (3, 50, 1_000):
        yield f"fstrings-pep701-{n}-py312", HEAD + _fstrings(n, True) + "\n", "py312"
    yield "parens-3000-py314", HEAD + "(" * 3000 + "7" + ")" * 3000 + "\n", "py314"
    for n in (99, 100, 101, 1_000):
        yield f"indent-{n}", _indented(n), None
    for n in (1_000, 10_000):
        yield f"elif-{n}", _elifs(n), None
    yield "line-1mb-string", HEAD + "'" + "a" * MB + "'\n", None
    yield "line-1mb-comment", HEAD + "1  # " + "a" * MB + "\n", None
    yield "line-1mb-list", HEAD + "[" + "1," * (MB // 2) + "]\n", None
    yield "line-1mb-plus", HEAD + "+".join(["a"] * (MB // 2)) + "\n", None
    yield "null-bytes", HEAD + "1\x00\n", None
    yield "unclosed-3000", HEAD + "(" * 3000 + "\n", None


def run_case(root: Path, args: list[str], timeout: float) -> tuple[str | None, dict | None, float, int | None]:
    """``(why it crashed or None, the JSON document, seconds, exit code)``."""
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "mcpmigrate", *args], cwd=root, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return f"no answer in {timeout:g} s", None, time.perf_counter() - start, None
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        return f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}", None, took, proc.returncode
    if args[0] != "check":
        return None, None, took, proc.returncode
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        return "no complete JSON document", None, took, proc.returncode
    if not any(f["path"] == "healthy.py" and f["rule"] == "MCP401" for f in doc["findings"]):
        return "the healthy file's finding is lost", doc, took, proc.returncode
    return None, doc, took, proc.returncode


def outcome(doc: dict | None, name: str) -> str:
    if doc is None:
        return ""
    errors = [e["message"] for e in doc["errors"] if e["path"] == name]
    found = sum(f["path"] == name for f in doc["findings"])
    return (errors[0][:90] if errors else f"{found} findings") if doc else ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds a run may take")
    ap.add_argument("--files", type=int, default=400, help="files of the many-files tree")
    ap.add_argument("--only", help="run the cases whose name contains this")
    args = ap.parse_args()
    crashed: list[str] = []
    runs = 0
    for name, source, target in cases():
        if args.only and args.only not in name:
            continue
        with tempfile.TemporaryDirectory(prefix="mcpmigrate-patho-") as tmp:
            root = Path(tmp)
            if target:
                (root / "pyproject.toml").write_text(f'[tool.mcpmigrate]\ntarget-version = "{target}"\n')
            (root / "healthy.py").write_text(HEALTHY, encoding="utf-8")
            (root / "hostile.py").write_bytes(source.encode("utf-8"))
            for cmd in (["check", "--no-cache", "--output-format", "json"], ["fix", "--diff"]):
                why, doc, took, rc = run_case(root, cmd, args.timeout)
                runs += 1
                what = why or outcome(doc, "hostile.py")
                print(
                    f"{'CRASHED' if why else 'ok':7} {name:28} {cmd[0]:5} exit {rc} {took:6.2f} s  {what}", flush=True
                )
                if why:
                    crashed.append(f"{name} ({cmd[0]}): {why}")
    if not args.only or "many" in args.only:
        with tempfile.TemporaryDirectory(prefix="mcpmigrate-patho-") as tmp:
            root = Path(tmp)
            (root / "healthy.py").write_text(HEALTHY, encoding="utf-8")
            hostile = [src for _n, src, target in cases() if target is None and len(src) < 100_000]
            for i in range(args.files):
                text = hostile[i % len(hostile)] if i % 4 == 0 else HEALTHY
                (root / f"pkg{i // 100}").mkdir(exist_ok=True)
                (root / f"pkg{i // 100}" / f"mod{i}.py").write_text(text, encoding="utf-8")
            why, doc, took, rc = run_case(root, ["check", "--no-cache", "--output-format", "json"], args.timeout)
            runs += 1
            lost = doc is not None and sum(f["rule"] == "MCP401" for f in doc["findings"]) < 1 + args.files * 3 // 4
            why = why or ("healthy files' findings lost" if lost else None)
            errors = len(doc["errors"]) if doc else 0
            print(
                f"{'CRASHED' if why else 'ok':7} many-files-{args.files:<17} check exit {rc} {took:6.2f} s  {errors} errors"
            )
            if why:
                crashed.append(f"many-files: {why}")
    print(f"\n{runs} runs, {len(crashed)} crashed")
    for line in crashed:
        print("  " + line)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())

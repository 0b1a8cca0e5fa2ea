#!/usr/bin/env python3
"""Check and fix large real trees, and prove the fixed trees still import.

Each tree is copied to a temporary directory (the trees are never modified and their code is never
copied into this repository). Then, for each fix strategy (``param``, ``interim``), on a fresh copy:
``check`` (its labels), ``fix --unsafe-fixes``, a second ``fix``, and the verifier of the pipeline
(:mod:`mcpmigrate.codemods.namecheck`, pyflakes) over every fixed file and every module of the tree
that imports from a fixed file. With ``--imports`` the fixed modules and their importers are also
imported for real (``python -c "import pkg.mod"``), before and after the fix, in a scratch venv.

Printed per tree: the files, the findings per rule with the label ``check`` gives them (safe,
unsafe, manual), the fixes applied per rule and label, and the counts that must be zero:

- crashes: "internal error" entries (check, fix or the second fix);
- unparsable: files whose fixed text does not compile;
- not idempotent: files the second fix changes again;
- changed without a finding: files the fix rewrote although check found nothing in them;
- refused: "fix not applied" (the engine caught a codemod producing bad code); a file with syntax
  newer than the running Python is not fixed by design (noted, not counted);
- broken imports: a pyflakes name message (undefined name, import rebound before use, ``__all__``
  entry gone) the fixed file did not have; a module-level name a fixed file no longer binds while
  another module of the tree imports it (``from m import x``, ``m.x`` after ``import m``, a name a
  ``from m import *`` module reads); a fixed module or one of its importers that imported before
  the fix and no longer does (``--imports``);
- calls to a changed signature: a function whose parameters the fix changed (the ``param``
  strategy swaps ``ctx`` for the path) that the fixed file, or a module importing it, still calls.

The real trees (``--real``; under ``--base``, default ``/work/real``), each at the commit the field
cases of ``shared/cases/field`` name, else the snapshot fetched with them:
modelcontextprotocol/python-sdk@57394b05, jlowin/fastmcp, modelcontextprotocol/servers@76d64c82,
thothforge/thothctl@c8aedbfa, chigwell/telegram-mcp@a7bdd4d2, cameronrye/openzim-mcp@361dd231,
apelogic-ai/db-mcp@1c41170a, LuisCarlosLopes/codesteer-atlas@e03bda05, evalstate/fast-agent@610a2f57,
VanL/taut, qdrant/mcp-server-qdrant, basicmachines-co/basic-memory, dbt-labs/dbt-mcp and
awslabs/mcp@100b55b6 (2,395 Python files: last).

Usage: python scripts/corpora.py [TREE ...] [--real] [--base DIR] [--trees-from FILE]
                                 [--imports] [--venvs DIR] [--extra PKG] [--python TREE=PYTHON]
                                 [--diffs DIR]
(default: python-sdk, fastmcp and servers under --base)
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora_graph import Use, broken_names, changed_calls, import_graph  # noqa: F401 (Use: the tests)

from mcpmigrate.codemods.imports import dotted_names
from mcpmigrate.config import Config, strategy_applies
from mcpmigrate.engine import Options, run
from mcpmigrate.model import Finding, Safety

SDK_TREES = ["python-sdk", "fastmcp", "servers"]
REAL_TREES = [
    *SDK_TREES,
    *("thothctl", "telegram-mcp", "openzim-mcp", "db-mcp", "codesteer-atlas", "fast-agent", "taut"),
    *("mcp-server-qdrant", "basic-memory", "dbt-mcp", "mcp"),
]
KINDS = (
    "crashes",
    "unparsable",
    "not idempotent",
    "changed without a finding",
    "refused",
    "broken imports",
    "calls to a changed signature",
)
STRATEGIES = ("param", "interim")
SKIP_DIRS = {".git", ".mcpmigrate_cache", "__pycache__", "node_modules", ".venv", "venv", "site-packages"}


@dataclass
class Tally:
    """One tree's results: the counts that must be zero, what they are, and the per-rule table."""

    counts: collections.Counter = field(default_factory=collections.Counter)
    details: list[str] = field(default_factory=list)
    rules: dict[str, collections.Counter] = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    notes: list[str] = field(default_factory=list)  # facts that are not failures (imports skipped)

    def fail(self, kind: str, detail: str) -> None:
        self.counts[kind] += 1
        self.details.append(detail)


def label(f: Finding, strategy: str) -> str:
    """The label ``check --strategy strategy`` prints for a finding (:mod:`mcpmigrate.report.text`):
    ``safe``, ``unsafe``, ``other`` (a fix of the other strategy) or ``manual``."""
    if f.fix is None:
        return "manual"
    if not strategy_applies(strategy, f.fix.strategy):
        return "other"
    return "safe" if f.fix.safety is Safety.SAFE else "unsafe"


def snapshot(root: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
        for name in files:
            p = Path(d) / name
            if name.endswith(".py") and p.is_file() and not p.is_symlink():
                out[p.relative_to(root).as_posix()] = p.read_bytes()
    return out


def _run(root: Path, mode: str, strategy: str):
    opts = Options(mode=mode, strategy=strategy, unsafe_fixes=True, no_cache=True)
    return run([root], Config(root=root, strategy=strategy), opts, cwd=root)


# -- importing for real --------------------------------------------------------------------------


def module_name(root: Path, rel: str) -> tuple[Path, str] | None:
    """``(sys.path entry, dotted name)`` to import the file ``rel`` as: its enclosing packages
    (directories with ``__init__.py``) and the directory above them."""
    path = root / rel
    parts = [] if path.stem == "__init__" else [path.stem]
    d = path.parent
    while (d / "__init__.py").is_file() and d != root.parent:
        parts.insert(0, d.name)
        d = d.parent
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return d, ".".join(parts)


def import_status(python: str, root: Path, rels: list[str], timeout: float = 60) -> dict[str, str | None]:
    """``{file: None}`` when ``python -c "import mod"`` succeeds, else the last line of its error.
    Each module in its own process, bytecode never written (the fixed text has the same size
    sometimes, and the same second)."""
    out: dict[str, str | None] = {}
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    for rel in rels:
        where = module_name(root, rel)
        if where is None:
            continue
        base, name = where
        try:
            proc = subprocess.run(
                [python, "-c", f"import {name}"],
                cwd=base,
                env={**env, "PYTHONPATH": str(base)},
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=timeout,
            )
            lines = proc.stderr.decode(errors="replace").strip().splitlines()
            out[rel] = None if proc.returncode == 0 else (lines[-1] if lines else f"exit {proc.returncode}")
        except subprocess.TimeoutExpired:
            out[rel] = "timed out"
    return out


def scratch_python(tree: Path, venvs: Path, fixed: list[str], extra: tuple[str, ...] = ()) -> tuple[str | None, str]:
    """A venv under ``venvs`` for ``tree`` with the projects that hold the ``fixed`` files installed
    (their dependencies with them: the modules are then imported from the copy, which comes first
    on ``PYTHONPATH``), and the ``extra`` packages (pytest: many fixed files are tests).
    ``(python, what happened)``; python is ``None`` when nothing installed."""
    venv = venvs / tree.name
    python = venv / "bin" / "python"
    projects: set[Path] = set()
    for rel in fixed:
        d = (tree / rel).parent
        while d != tree.parent:
            if (d / "pyproject.toml").is_file() or (d / "setup.py").is_file():
                projects.add(d)
                break
            d = d.parent
    if not projects:
        return None, "no pyproject.toml or setup.py above the fixed files"
    marker = venv / ".installed"
    wanted = "\n".join([*sorted(str(p) for p in projects), *extra])
    if marker.is_file() and marker.read_text() == wanted:
        return str(python), f"venv {venv} (reused)"
    if not python.is_file():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    failed = []
    for project in sorted(projects):
        with tempfile.TemporaryDirectory(prefix="mcpmigrate-install-") as tmp:  # builds never touch the tree
            copy = Path(tmp) / project.name
            shutil.copytree(project, copy, symlinks=True, ignore=shutil.ignore_patterns(*SKIP_DIRS))
            proc = subprocess.run(
                [str(python), "-m", "pip", "install", "-q", str(copy)], capture_output=True, timeout=1200
            )
        if proc.returncode:
            errors = [ln for ln in proc.stderr.decode(errors="replace").splitlines() if ln.startswith("ERROR")]
            failed.append(f"{project.relative_to(tree.parent)}: {(errors or ['pip failed'])[-1]}")
    if len(failed) == len(projects):
        return None, "install failed: " + "; ".join(failed)
    if extra:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *extra], capture_output=True, timeout=1200)
    marker.write_text(wanted)
    return str(python), f"venv {venv}" + (f" (not installed: {'; '.join(failed)})" if failed else "")


# -- one tree ------------------------------------------------------------------------------------


def unparsable(text: bytes, original: bytes, rel: str) -> str | None:
    """Why the fixed ``text`` is not valid Python, or None. When the running interpreter cannot
    compile the ``original`` either (3.12 syntax on 3.11), libcst's parse with the latest grammar
    is the check, as in the pipeline (:func:`mcpmigrate.pipeline._verify`)."""
    try:
        compile(text, rel, "exec", dont_inherit=True)
        return None
    except (SyntaxError, ValueError) as exc:
        try:
            compile(original, rel, "exec", dont_inherit=True)
            return str(exc)
        except (SyntaxError, ValueError):
            pass
    import libcst as cst

    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        return str(exc).splitlines()[0]
    return None


def fix_and_verify(
    root: Path, original: dict[str, bytes], strategy: str, with_findings: set[str], tally: Tally
) -> dict[str, bytes]:
    """One ``fix`` of the copy at ``root`` (restored to ``original`` first), the second fix and the
    static verifier; the files the fix changed, with their fixed text."""
    name = root.name
    for rel, data in original.items():
        (root / rel).write_bytes(data)
    fixed = _run(root, "fix", strategy)
    first = snapshot(root)
    changed = {rel: first[rel] for rel in original if first.get(rel) != original[rel]}
    for e in fixed.errors:
        if "internal error" in e.message:
            tally.fail("crashes", f"{name}: fix --strategy {strategy}: {e.path}: {e.message}")
        elif "syntax newer than" in e.message:  # the pipeline cannot verify it here: not a codemod's fault
            tally.notes.append(f"--strategy {strategy}: not fixed under this Python: {e.path}")
        elif "fix not applied" in e.message:
            tally.fail("refused", f"{name}: fix --strategy {strategy}: {e.path}: {e.message}")
    for f in fixed.fixed:
        tally.rules[f.rule][f"{strategy} applied {label(f, strategy)}"] += 1
    for rel, text in changed.items():
        problem = unparsable(text, original[rel], rel)
        if problem:
            tally.fail("unparsable", f"{name}: --strategy {strategy}: {rel}: {problem}")
        if rel not in with_findings:
            tally.fail("changed without a finding", f"{name}: --strategy {strategy}: {rel} changed without a finding")
    if changed:
        graph = import_graph(root, original)
        names = {n.rpartition(".")[2] for rel in original for n in dotted_names(root / rel, root)}
        for rel, text in changed.items():
            for problem in broken_names(rel, original[rel], text, graph.get(rel, []), names):
                tally.fail("broken imports", f"{name}: --strategy {strategy}: {problem}")
            for problem in changed_calls(rel, original[rel], text, graph.get(rel, []), first):
                tally.fail("calls to a changed signature", f"{name}: --strategy {strategy}: {problem}")
    again = _run(root, "fix", strategy)
    second = snapshot(root)
    for rel in original:
        if second.get(rel) != first.get(rel):
            tally.fail("not idempotent", f"{name}: --strategy {strategy}: {rel} changed again by a second fix")
    for e in again.errors:
        if "internal error" in e.message:
            tally.fail("crashes", f"{name}: second fix --strategy {strategy}: {e.path}: {e.message}")
    return changed


def check_imports(
    root: Path,
    tree: Path,
    original: dict[str, bytes],
    changed: dict[str, bytes],
    python: str,
    strategy: str,
    tally: Tally,
) -> None:
    """Import each fixed module and each module that imports from one, on the original and the
    fixed text: one that imported before and fails after is a broken import."""
    graph = import_graph(root, original)
    targets = sorted({*changed, *(u.importer for rel in changed for u in graph.get(rel, []))})
    for rel, data in original.items():
        (root / rel).write_bytes(data)
    before = import_status(python, root, targets)
    for rel, data in changed.items():
        (root / rel).write_bytes(data)
    after = import_status(python, root, targets)
    ok_before = [rel for rel in before if before[rel] is None]
    tally.notes.append(
        f"--strategy {strategy}: imported {len(ok_before)} of {len(before)} fixed modules and importers before the fix"
        + (
            f" (not importable before: {', '.join(f'{r} ({before[r]})' for r in before if before[r])[:400]})"
            if len(ok_before) < len(before)
            else ""
        )
    )
    for rel in ok_before:
        if after.get(rel) is not None:
            tally.fail("broken imports", f"{tree.name}: --strategy {strategy}: {rel} no longer imports: {after[rel]}")


def write_diff(out: Path, original: dict[str, bytes], changed: dict[str, bytes]) -> None:
    """The fix's changes as a unified diff (to read each fix, ``--diffs``)."""
    import difflib

    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for rel in sorted(changed):
            a = original[rel].decode(errors="replace").splitlines(keepends=True)
            b = changed[rel].decode(errors="replace").splitlines(keepends=True)
            fh.writelines(difflib.unified_diff(a, b, f"a/{rel}", f"b/{rel}"))


def corpus(
    tree: Path,
    venvs: Path | None,
    diffs: Path | None = None,
    extra: tuple[str, ...] = (),
    python: str | None = None,
) -> Tally:
    """One tree through check, fix and the verifiers. With ``venvs`` the fixed modules are also
    imported: by ``python`` when given (an interpreter that has the tree's dependencies), else in
    a venv made for the tree (:func:`scratch_python`)."""
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="mcpmigrate-corpus-") as tmp:
        root = Path(tmp) / tree.name
        shutil.copytree(tree, root, symlinks=True, ignore=shutil.ignore_patterns(".git", ".mcpmigrate_cache"))
        original = snapshot(root)
        start = time.perf_counter()
        line = []
        for strategy in STRATEGIES:
            for rel, data in original.items():
                (root / rel).write_bytes(data)
            checked = _run(root, "check", strategy)
            with_findings = {f.path for f in checked.findings}
            for e in checked.errors:
                if "internal error" in e.message:
                    tally.fail("crashes", f"{tree.name}: check: {e.path}: {e.message}")
            for f in checked.findings:
                if strategy == STRATEGIES[0]:
                    tally.rules[f.rule]["findings"] += 1
                tally.rules[f.rule][f"{strategy} {label(f, strategy)}"] += 1
            if strategy == STRATEGIES[0]:
                line.append(
                    f"{tree.name}: {checked.files_checked} files, {len(checked.findings)} findings in "
                    f"{len(with_findings)} files, {len(checked.errors)} file errors"
                )
            changed = fix_and_verify(root, original, strategy, with_findings, tally)
            line.append(f"--strategy {strategy}: {len(changed)} files changed")
            if diffs is not None and changed:
                write_diff(diffs / f"{tree.name}.{strategy}.diff", original, changed)
            if venvs is not None and changed:
                py, how = (
                    (python, f"interpreter {python}") if python else scratch_python(tree, venvs, sorted(changed), extra)
                )
                tally.notes.append(f"--strategy {strategy}: imports: {how}")
                if py:
                    check_imports(root, tree, original, changed, py, strategy, tally)
        line.append(f"{time.perf_counter() - start:.0f} s")
        print("; ".join(line), flush=True)
    return tally


def table(name: str, tally: Tally) -> list[str]:
    """The per-rule lines: findings, check's labels and the fixes applied, per strategy."""
    out = []
    for rule in sorted(tally.rules):
        c = tally.rules[rule]
        parts = [f"{c['findings']} findings"]
        for s in STRATEGIES:
            labels = "/".join(str(c[f"{s} {k}"]) for k in ("safe", "unsafe", "other", "manual"))
            applied = "/".join(str(c[f"{s} applied {k}"]) for k in ("safe", "unsafe"))
            parts.append(f"{s}: check safe/unsafe/other/manual {labels}, applied safe/unsafe {applied}")
        out.append(f"  {name} {rule}: " + "; ".join(parts))
    return out


def trees_of(args: argparse.Namespace) -> list[Path]:
    names = list(args.trees)
    if args.trees_from:
        names += [
            ln.strip() for ln in Path(args.trees_from).read_text().splitlines() if ln.strip() and not ln.startswith("#")
        ]
    if args.real:
        names += REAL_TREES
    if not names:
        names = SDK_TREES
    return [Path(n) if os.sep in n else Path(args.base) / n for n in names]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trees", nargs="*", help="tree paths, or names under --base")
    ap.add_argument("--base", default="/work/real", help="where tree names are looked up")
    ap.add_argument("--real", action="store_true", help="the real trees of the docstring")
    ap.add_argument("--trees-from", metavar="FILE", help="a file of tree paths or names, one a line")
    ap.add_argument("--imports", action="store_true", help="import the fixed modules in a scratch venv per tree")
    ap.add_argument("--diffs", metavar="DIR", help="write each tree's fixes as unified diffs to DIR")
    ap.add_argument("--extra", action="append", default=["pytest"], help="also install into each venv (repeat)")
    ap.add_argument(
        "--python",
        action="append",
        default=[],
        metavar="TREE=PYTHON",
        help="--imports with this interpreter for that tree (when its own install fails)",
    )
    ap.add_argument("--venvs", default="/tmp/mcpmigrate-corpora-venvs", help="where --imports keeps its venvs")
    args = ap.parse_args(argv)
    pythons = dict(p.split("=", 1) for p in args.python)
    totals: collections.Counter[str] = collections.Counter()
    details: list[str] = []
    for tree in trees_of(args):
        if not tree.is_dir():
            print(f"{tree}: not found; fetch it first (see the module docstring)", file=sys.stderr)
            totals["missing trees"] += 1
            continue
        tally = corpus(
            tree,
            Path(args.venvs) if args.imports else None,
            Path(args.diffs) if args.diffs else None,
            tuple(args.extra),
            pythons.get(tree.name),
        )
        print("\n".join(table(tree.name, tally)))
        print(f"  {tree.name}: " + ", ".join(f"{k}: {tally.counts.get(k, 0)}" for k in KINDS))
        for note in tally.notes:
            print(f"  {tree.name}: {note}")
        totals.update(tally.counts)
        details.extend(tally.details)
    print("totals: " + ", ".join(f"{k}: {totals.get(k, 0)}" for k in KINDS), flush=True)
    for d in details[:200]:
        print("  " + d)
    return 1 if sum(totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())

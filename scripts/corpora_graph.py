"""The static half of ``scripts/corpora.py``'s verifier: who imports what from whom in a tree, and
what a fix of one file breaks for the others (removed names, changed signatures still called).

The file's own check is the pipeline's (:func:`mcpmigrate.codemods.namecheck.name_problem`,
pyflakes); modules are named as :func:`mcpmigrate.codemods.imports.dotted_names` names them.
"""

from __future__ import annotations

import ast
import collections
from dataclasses import dataclass, field
from pathlib import Path

from mcpmigrate.codemods.imports import dotted_names
from mcpmigrate.codemods.namecheck import _top_bindings, name_problem

# -- who imports what from whom ------------------------------------------------------------------


@dataclass
class Use:
    """What one module of the tree takes from another: names (``from m import x``, ``m.x``),
    or every public name it reads (``from m import *``)."""

    importer: str
    names: set[str] = field(default_factory=set)
    star_reads: set[str] | None = None  # names the importer reads that a star import may give


def _chains(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts = []
            cur: ast.AST = node
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                out.add(".".join([cur.id, *reversed(parts)]))
    return out


def import_graph(root: Path, sources: dict[str, bytes]) -> dict[str, list[Use]]:
    """``{module file: [Use, ...]}``: for each Python file of the tree (relative path), what the
    other files take from it. Modules are named as :func:`mcpmigrate.codemods.imports.dotted_names`
    names them (through packages, from the tree's root and from ``src/``); relative imports are
    resolved against the importer's package."""
    by_name: dict[str, str] = {}
    for rel in sources:
        for n in dotted_names(root / rel, root):
            by_name.setdefault(n, rel)
    graph: dict[str, list[Use]] = collections.defaultdict(list)
    for rel, source in sources.items():
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        mine = sorted(dotted_names(root / rel, root), key=len)
        package = "" if not mine else (mine[-1] if rel.endswith("__init__.py") else mine[-1].rpartition(".")[0])
        uses: dict[str, Use] = {}
        aliases: dict[str, str] = {}  # local name -> module file it stands for
        chains: set[str] | None = None
        reads: set[str] | None = None
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level:
                    base = package.split(".") if package else []
                    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                    mod = ".".join([*base, *([mod] if mod else [])])
                target = by_name.get(mod)
                for al in node.names:
                    sub = by_name.get(f"{mod}.{al.name}")
                    if sub is not None:  # `from pkg import module`
                        aliases[al.asname or al.name] = sub
                        uses.setdefault(sub, Use(rel))
                        continue
                    if target is None or target == rel:
                        continue
                    use = uses.setdefault(target, Use(rel))
                    if al.name == "*":
                        if reads is None:
                            reads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
                        use.star_reads = reads
                    else:
                        use.names.add(al.name)
            elif isinstance(node, ast.Import):
                for al in node.names:
                    target = by_name.get(al.name)
                    if target is None or target == rel:
                        continue
                    uses.setdefault(target, Use(rel))
                    aliases[al.asname or al.name] = target
        for alias, target in aliases.items():
            if chains is None:
                chains = _chains(tree)
            prefix = alias + "."
            for chain in chains:
                if chain.startswith(prefix):
                    head = chain[len(prefix) :].split(".")[0]
                    if f"{alias}.{head}" not in by_name:  # `pkg.sub` is a module, not a name of pkg
                        uses[target].names.add(head)
        for target, use in uses.items():
            graph[target].append(use)
    return graph


def broken_names(rel: str, before: bytes, after: bytes, uses: list[Use], graph_names: set[str]) -> list[str]:
    """What the fix of ``rel`` breaks statically: new pyflakes name messages in the file (the
    pipeline's verifier, :func:`mcpmigrate.codemods.namecheck.name_problem`), and each name that
    another module takes from it and that the fixed text no longer binds at module level."""
    out: list[str] = []
    problem = name_problem(before, after, rel, None, Path("."))
    if problem:
        out.append(f"{rel}: {problem}")
    removed = _top_bindings(before) - _top_bindings(after)
    for use in sorted(uses, key=lambda u: u.importer):
        for name in sorted(use.names & removed):
            out.append(f"{rel}: the fix removes `{name}`, which {use.importer} imports from it")
        if use.star_reads is not None:
            for name in sorted(n for n in removed & use.star_reads if not n.startswith("_")):
                if name not in graph_names:
                    out.append(f"{rel}: the fix removes `{name}`, which {use.importer} reads through `import *`")
    return out


def _signatures(source: bytes) -> dict[str, tuple[str, ...]]:
    """``{function name: parameter names}`` of the functions defined anywhere in ``source`` (a name
    defined twice keeps the first)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            params = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
            out.setdefault(node.name, tuple(params))
    return out


def _called(source: bytes, names: set[str], attributes: bool = False) -> set[str]:
    """Which of ``names`` ``source`` calls: ``f(...)``, and with ``attributes`` ``m.f(...)`` too."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if attributes and isinstance(f, ast.Attribute) else None
            if name in names:
                out.add(name)
    return out


def changed_calls(rel: str, before: bytes, after: bytes, uses: list[Use], sources: dict[str, bytes]) -> list[str]:
    """Functions whose parameters the fix of ``rel`` changed (a tool that took ``ctx`` now takes the
    path) and that are still called by name: in the fixed file, or by a module that imports them.
    The call passes what the old signature took; neither pyflakes nor an import sees it."""
    old, new = _signatures(before), _signatures(after)
    changed = {n for n in old if n in new and old[n] != new[n]}
    if not changed:
        return []
    out = [f"{rel}: `{n}` changed its parameters and {rel} still calls it" for n in sorted(_called(after, changed))]
    for use in sorted(uses, key=lambda u: u.importer):
        for n in sorted(_called(sources.get(use.importer, b""), changed & use.names, True)):
            out.append(f"{rel}: `{n}` changed its parameters and {use.importer} calls it")
    return out

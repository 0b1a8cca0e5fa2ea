"""Whether a fix breaks names: the verifier's pyflakes comparison and the project's importers.

Run by the engine on every fixed text before it is written (``docs/architecture.md``, pipeline
step 8): a pyflakes name message the original does not have (an undefined name, an import rebound
before use, an ``__all__`` entry gone), or a module-level name the fix removes that another module
of the project imports, refuses the fix.
"""

from __future__ import annotations

import ast
from pathlib import Path

#: pyflakes messages that mean the module, or a call into it, fails: a name read where nothing
#: binds it, an import rebound before any use (the added import, or the module's own binding,
#: silently lost), an ``__all__`` entry that is gone.
NAME_MESSAGES = (
    "UndefinedName",
    "UndefinedLocal",
    "UndefinedExport",
    "RedefinedWhileUnused",
    "ImportShadowedByLoopVar",
)


def _flakes(source: bytes, display: str) -> list:
    """pyflakes' name messages on ``source`` (none when it does not parse as ``ast``)."""
    from pyflakes.checker import Checker

    try:
        tree = ast.parse(source, filename=display)
    except (SyntaxError, ValueError):
        return []
    return [m for m in Checker(tree, filename=display).messages if type(m).__name__ in NAME_MESSAGES]


def _top_bindings(source: bytes) -> set[str]:
    """Names bound at module level (outside function and class bodies)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    out: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update(a.asname or a.name.split(".")[0] for a in node.names)
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        if isinstance(node, (ast.expr, ast.stmt, ast.excepthandler, ast.withitem, ast.match_case, ast.pattern)):
            stack.extend(ast.iter_child_nodes(node))
    return out


def name_problem(original: bytes, new_source: bytes, display: str, path: Path | None, root: Path) -> str | None:
    """Why the fixed text breaks the module or a module of the project that imports from it:
    a pyflakes name message (undefined name, import rebound before use, ``__all__`` entry gone)
    the original text does not have, compared by kind and name (lines move); or a module-level
    name another module imports from this one that the fix removes."""
    from collections import Counter

    def key(m) -> tuple[str, str]:
        return type(m).__name__, str(m.message_args[0]) if m.message_args else ""

    before = Counter(key(m) for m in _flakes(original, display))
    for m in _flakes(new_source, display):
        k = key(m)
        if before[k] > 0:
            before[k] -= 1
            continue
        kind, name = k
        where = f"line {m.lineno}"
        if kind in ("UndefinedName", "UndefinedLocal"):
            return f"the rewritten code reads `{name}` where it is not defined ({where}); the fixed module would fail"
        if kind == "UndefinedExport":
            return f"the rewritten code no longer defines `{name}`, which `__all__` lists ({where})"
        if kind == "RedefinedWhileUnused":
            return (
                f"the rewritten code binds `{name}` twice before using it ({where}): an added import and a name "
                "of the module would shadow each other"
            )
        return f"the rewritten code rebinds the imported name `{name}` ({where})"
    if path is not None:
        removed = _top_bindings(original) - _top_bindings(new_source)
        if removed:
            from mcpmigrate.codemods.imports import project_imports

            imported = project_imports(path, root)
            star = imported.get("*")
            for name in sorted(removed):
                by = imported.get(name) or (star if star and not name.startswith("_") else None)
                if by:
                    return f"the fix removes `{name}`, which {by} imports from this module"
    return None

"""Import hygiene after a fix: an import that the fix left unused is removed; nothing else is
touched (imports that were already unused before the fix stay, as the user wrote them)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis.project import dotted
from mcpmigrate.fastwalk import Flat


class _Uses(cst.CSTVisitor):
    """Counts loads of each name outside import statements."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.in_import = 0

    def visit_Import(self, node: cst.Import) -> None:
        self.in_import += 1

    def leave_Import(self, original_node: cst.Import) -> None:
        self.in_import -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.in_import += 1

    def leave_ImportFrom(self, original_node: cst.ImportFrom) -> None:
        self.in_import -= 1

    def visit_Name(self, node: cst.Name) -> None:
        if not self.in_import:
            self.counts[node.value] = self.counts.get(node.value, 0) + 1

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        # names used in string annotations ("Context") and __all__ entries
        try:
            value = node.evaluated_value
        except Exception:
            return
        if isinstance(value, str) and value.replace(".", "").replace("_", "").isalnum():
            head = value.split(".")[0]
            self.counts[head] = self.counts.get(head, 0) + 1


def name_uses(module: cst.Module) -> dict[str, int]:
    """What :class:`_Uses` counts, read off one pre-order flattening of the module
    (:class:`~mcpmigrate.fastwalk.Flat`, several times faster than a libcst visit)."""
    flat = Flat(module)
    order, end = flat.order, flat.end
    v = _Uses()
    i, n = 0, len(order)
    while i < n:
        node = order[i]
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            i = end[i]  # nothing inside an import statement is a use
            continue
        if isinstance(node, cst.Name):
            v.visit_Name(node)
        elif isinstance(node, cst.SimpleString):
            v.visit_SimpleString(node)
        i += 1
    return v.counts


class _Pruner(cst.CSTTransformer):
    def __init__(self, dead: set[str]) -> None:
        self.dead = dead
        self.removed: dict[int, list[cst.EmptyLine]] = {}

    @staticmethod
    def _local(alias: cst.ImportAlias) -> str:
        if alias.asname is not None:
            return get_full_name_for_node(alias.asname.name) or ""
        return (get_full_name_for_node(alias.name) or "").split(".")[0]

    def _prune(self, updated_node, names):
        keep = [a for a in names if self._local(a) not in self.dead]
        if len(keep) == len(names):
            return updated_node
        if not keep:
            return cst.RemoveFromParent()
        # the new last name takes the old last name's comma: none on one line, the trailing
        # comma (and the newline before the closing parenthesis) in a parenthesized list
        last_comma = names[-1].comma if isinstance(names[-1].comma, cst.Comma) else cst.MaybeSentinel.DEFAULT
        keep[-1] = keep[-1].with_changes(comma=last_comma)
        return updated_node.with_changes(names=keep)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import):
        return self._prune(updated_node, list(updated_node.names))

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom):
        if isinstance(updated_node.names, cst.ImportStar) or updated_node.module is None:
            return updated_node
        if get_full_name_for_node(updated_node.module) == "__future__":
            return updated_node
        return self._prune(updated_node, list(updated_node.names))

    # A statement whose imports are all removed disappears; its leading blank lines and comments
    # go to the next statement when that one has none (the blank line that separated an import
    # group stays).
    def leave_SimpleStatementLine(self, original_node, updated_node):
        if not updated_node.body:
            self.removed[id(original_node)] = list(original_node.leading_lines)
            return cst.RemoveFromParent()
        return updated_node

    # A compatibility `try: import … / except ImportError: import …` whose imports are all removed
    # disappears too, instead of staying as `try: pass / except ImportError: pass`.
    def leave_Try(self, original_node, updated_node):
        blocks = [original_node.body] + [h.body for h in original_node.handlers]
        if (
            original_node.orelse is None
            and original_node.finalbody is None
            and all(isinstance(b, cst.IndentedBlock) and all(id(s) in self.removed for s in b.body) for b in blocks)
        ):
            self.removed[id(original_node)] = list(original_node.leading_lines)
            return cst.RemoveFromParent()
        return updated_node

    def _carry(self, original_body, updated_body):
        if not any(id(s) in self.removed for s in original_body):
            return updated_body
        out = list(updated_body)
        carry = None
        j = 0
        for stmt in original_body:
            if id(stmt) in self.removed:
                if carry is None:
                    carry = self.removed[id(stmt)]
                continue
            if j >= len(out):
                break
            if carry is not None and not out[j].leading_lines:
                out[j] = out[j].with_changes(leading_lines=carry)
            carry = None
            j += 1
        return out

    def leave_SimpleStatementSuite(self, original_node, updated_node):
        if not updated_node.body:
            return updated_node.with_changes(body=[cst.Pass()])
        return updated_node

    def leave_Module(self, original_node, updated_node):
        return updated_node.with_changes(body=self._carry(original_node.body, updated_node.body))

    def leave_IndentedBlock(self, original_node, updated_node):
        if not updated_node.body:
            return updated_node.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated_node.with_changes(body=self._carry(original_node.body, updated_node.body))


def prune_newly_unused(before: cst.Module, after: cst.Module, keep: Callable[[], set[str]] | None = None) -> cst.Module:
    """Remove imports from ``after`` whose names ``before`` used and ``after`` no longer does,
    except the names ``keep()`` returns (asked only when there is something to prune: what the
    rest of the project imports from this module, :func:`kept_names`)."""
    used_before = name_uses(before)
    used_after = name_uses(after)
    dead = {n for n, c in used_before.items() if c > 0 and used_after.get(n, 0) == 0}
    if dead and keep is not None:
        dead -= keep()
    if not dead:
        return after
    return after.visit(_Pruner(dead))


# -- what the rest of the project imports from a module ----------------------------------------
# A fix must never delete a name another module of the project imports from the fixed one
# (bugs-01: `from pkg.app import Context, mcp` in pkg/tools.py). The project is the configuration
# root; every other .py file under it is read from disk (also when a pre-commit hook passes only
# the staged file): a byte prefilter on the module's last name, then `ast`, cached per file
# version.

_MAX_BYTES = 2_000_000
_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", "env", "build", "dist"}

#: (path, mtime_ns, size) -> the file's import records (see :func:`_records`)
_RECORDS: dict[tuple[str, int, int], tuple[list[tuple[str, str, str | None]], set[str]]] = {}


def dotted_names(path: Path, root: Path) -> set[str]:
    """The dotted names ``path`` can be imported as: through its enclosing packages (directories
    with ``__init__.py``), and relative to the project root (and its ``src/``)."""
    path = Path(os.path.realpath(path))
    parts = [] if path.stem == "__init__" else [path.stem]
    d = path.parent
    while (d / "__init__.py").is_file() and d != d.parent:
        parts.insert(0, d.name)
        d = d.parent
    names = {".".join(parts)} if parts else set()
    for base in (root, root / "src"):
        try:
            rel = path.relative_to(os.path.realpath(base)).with_suffix("").parts
        except ValueError:
            continue
        if rel and rel[-1] == "__init__":
            rel = rel[:-1]
        if rel:
            names.add(".".join(rel))
    return {n for n in names if n}


def _package_of(path: Path, root: Path) -> str:
    """The package a relative import in ``path`` starts from."""
    names = sorted(dotted_names(path, root), key=len)
    if not names:
        return ""
    mod = names[-1]
    return mod if path.stem == "__init__" else mod.rpartition(".")[0]


def _records(path: Path, source: bytes, root: Path) -> tuple[list[tuple[str, str, str | None]], set[str]]:
    """``(imports, chains)`` of a file: each import as ``(kind, target, local)`` —
    ``("from", "pkg.app.Context", "Context")`` for ``from pkg.app import Context`` (relative
    imports resolved), ``("import", "pkg.app", "m")`` for ``import pkg.app as m`` (local ``None``
    without ``as``) — and every dotted attribute chain read (``m.Context``)."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # another module of the project: any text
        return [], set()
    imports: list[tuple[str, str, str | None]] = []
    chains: set[str] = set()
    package = None
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                if package is None:
                    package = _package_of(path, root)
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                mod = ".".join([*base, *([mod] if mod else [])])
            for al in node.names:
                imports.append(("from", f"{mod}.{al.name}" if mod else al.name, al.asname or al.name))
        elif isinstance(node, ast.Import):
            for al in node.names:
                imports.append(("import", al.name, al.asname))
        elif isinstance(node, ast.Attribute):
            chain = dotted(node)
            if chain:
                chains.add(chain)
    return imports, chains


#: root -> {directory: (mtime_ns, its .py files, its subdirectories)}: the project's layout,
#: listed again only where a directory changed (its mtime moves when an entry is added, removed
#: or renamed), so asking for every file of a large project does not walk the disk each time
_LAYOUT: dict[str, dict[str, tuple[int, list[str], list[str]]]] = {}
#: path -> its real path (compared with the asking module's)
_REAL: dict[str, str] = {}
#: (path, mtime_ns, size) -> the source of a file the byte prefilter has read so far
_SOURCES: dict[tuple[str, int, int], bytes] = {}
#: (path, mtime_ns, size, root) -> the import index of its records (see :func:`_index`) and the
#: file as shown (relative to the root)
_INDEXED: dict[
    tuple[str, int, int, str], tuple[dict[str, list[str]], dict[str, list[tuple[str | None, str]]], set[str], str]
] = {}


def _project_files(root: Path) -> list[str]:
    """The ``.py`` files under ``root`` in ``os.walk`` order (top-down, hidden and skipped
    directories pruned, symlinked directories not entered)."""
    layout = _LAYOUT.setdefault(str(root), {})
    out: list[str] = []
    stack = [str(root)]
    while stack:
        d = stack.pop()
        try:
            mtime = os.stat(d).st_mtime_ns
        except OSError:
            continue
        entry = layout.get(d)
        if entry is None or entry[0] != mtime:
            files, subdirs = [], []
            try:
                with os.scandir(d) as it:
                    for e in it:
                        try:
                            is_dir = e.is_dir()
                        except OSError:
                            is_dir = False
                        if is_dir:
                            if not e.name.startswith(".") and e.name not in _SKIP_DIRS and not e.is_symlink():
                                subdirs.append(e.path)
                        elif e.name.endswith(".py"):
                            files.append(e.path)
            except OSError:
                continue
            entry = layout[d] = (mtime, files, subdirs)
        out.extend(entry[1])
        stack.extend(reversed(entry[2]))
    return out


def _index(
    imports: list[tuple[str, str, str | None]],
) -> tuple[dict[str, list[str]], dict[str, list[tuple[str | None, str]]]]:
    """``(from_module, modules)`` of a file's import records: the names each ``from M import n``
    takes from ``M``, and for each module target (``import M``, ``from P import M``) the local
    names it is bound to, with ``P`` (``None`` for ``import M``)."""
    from_module: dict[str, list[str]] = {}
    modules: dict[str, list[tuple[str | None, str]]] = {}
    for kind, target, local in imports:
        if kind == "from":
            mod, _, name = target.rpartition(".")
            from_module.setdefault(mod, []).append(name)
            modules.setdefault(target, []).append((mod, local or name))
        else:
            modules.setdefault(target, []).append((None, local or target))
    return from_module, modules


def importers(path: Path, root: Path, name: str) -> list[str]:
    """Every module of the project (relative to ``root``, sorted) that imports ``name`` from the
    module at ``path`` by name (``from pkg.app import mcp``) or with a star import."""
    everyone: dict[str, list[str]] = {}
    project_imports(path, root, everyone)
    return sorted({*everyone.get(name, ()), *everyone.get("*", ())})


def project_imports(path: Path, root: Path, everyone: dict[str, list[str]] | None = None) -> dict[str, str]:
    """The names other modules of the project import from the module at ``path``: ``{name:
    importing file}`` (relative to ``root``); ``"*"`` for a star import. ``everyone``, when given,
    gets every importing file of each name."""
    path = Path(os.path.realpath(path))
    root = Path(os.path.realpath(root))
    # a file whose name is no identifier (not valid UTF-8, a dash…) cannot be imported by name
    names = [n for n in dotted_names(path, root) if all(part.isidentifier() for part in n.split("."))]
    if not names:
        return {}
    stems = {n.rpartition(".")[2].encode() for n in names}
    out: dict[str, str] = {}
    asking = str(path)
    for fs in _project_files(root):
        try:
            st = os.stat(fs)
            if not stat.S_ISREG(st.st_mode) or st.st_size > _MAX_BYTES:  # FIFOs, devices, huge files
                continue
            real = _REAL.get(fs)
            if real is None:
                real = _REAL[fs] = os.path.realpath(fs)
            if real == asking:
                continue
            key = (fs, st.st_mtime_ns, st.st_size)
            ikey = (fs, st.st_mtime_ns, st.st_size, str(root))
            indexed = _INDEXED.get(ikey)
            if indexed is None:
                rec = _RECORDS.get(key)
                if rec is None:
                    source = _SOURCES.get(key)
                    if source is None:
                        source = _SOURCES[key] = Path(fs).read_bytes()
                    if not any(s in source for s in stems):
                        continue
                    rec = _RECORDS[key] = _records(Path(fs), source, root)
                    _SOURCES.pop(key, None)
                try:
                    shown = Path(fs).relative_to(root).as_posix()
                except ValueError:
                    shown = fs
                from_module, modules = _index(rec[0])
                indexed = _INDEXED[ikey] = (from_module, modules, rec[1], shown)
        except (OSError, RuntimeError):  # unreadable, a symlink loop
            continue
        from_module, modules, chains, shown = indexed
        aliases: set[str] = set()
        for n in names:
            for name in from_module.get(n, ()):
                out.setdefault(name, shown)
                if everyone is not None:
                    everyone.setdefault(name, []).append(shown)
            # `import pkg.app`, `from pkg import app`: a module alias
            aliases.update(local for mod, local in modules.get(n, ()) if mod is None or mod not in names)
        for alias in aliases:
            prefix = alias + "."
            for chain in chains:
                if chain.startswith(prefix):
                    out.setdefault(chain[len(prefix) :].split(".")[0], shown)
    return out


def exported(module: cst.Module) -> set[str]:
    """The names a module-level ``__all__`` (a list or tuple of strings) lists."""
    out: set[str] = set()
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if not isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                continue
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            if any(isinstance(t, cst.Name) and t.value == "__all__" for t in targets) and isinstance(
                small.value, (cst.List, cst.Tuple)
            ):
                for el in small.value.elements:
                    if isinstance(el.value, cst.SimpleString) and isinstance(el.value.evaluated_value, str):
                        out.add(el.value.evaluated_value)
    return out


def kept_names(module: cst.Module, path: Path | None, root: Path | None) -> set[str]:
    """Import names pruning must keep in ``module``: listed in its ``__all__``, or imported from
    it by another module of the project (every public name when one star-imports it)."""
    keep = exported(module)
    if path is not None and root is not None:
        imported = project_imports(path, root)
        keep |= set(imported)
        if "*" in imported:
            keep |= {n for n in name_uses(module) if not n.startswith("_")}
    return keep

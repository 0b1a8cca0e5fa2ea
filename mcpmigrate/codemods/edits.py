"""The one applier every fix goes through.

A fix planner (``param``, ``interim``, ``remove`` …) never writes its own libcst transformer: it
records what should change in an :class:`Edits` — keyed by the *original* nodes of the parsed
module, the ones the analysis and the findings point at — and :func:`apply_edits` makes every
change in one pass, then adds the imports once where the project's import sorter puts them
(:mod:`mcpmigrate.codemods.style`; the bump-pydantic / Fixit model; see ``docs/architecture.md``,
"How a finding becomes a fix").

What an edit can say, per original node (applied in this order when the node is left):

1. ``transform(node, fn)``: ``fn(original, updated) -> new`` — any rewrite of the node built from
   its already-rewritten children; several transforms of one node run in the order recorded,
   each on the previous one's result.
2. ``replace(node, new)`` / ``remove(node)``: the node becomes ``new``, or leaves its parent.
3. ``insert_before(stmt, stmts)``: statements placed before a statement (also before one that is
   removed or replaced), in the same block.

An indented block left empty by removals gets a ``pass``. ``updated(node)`` gives, during and after
the pass, the rewritten form of a node whose transform asked for it with ``track(node)`` (a rewrite
of a function may need the rewritten form of a statement inside it). :func:`rewrite` runs the same
applier on any subtree (a fix trying its edits on one function, or rewriting a node it built).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from mcpmigrate.codemods.style import Style, add_imports

if TYPE_CHECKING:
    from mcpmigrate.analysis import ModuleAnalysis

#: What a transform may return: a node, ``cst.RemoveFromParent()``, or a ``FlattenSentinel``.
Result = cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel
Transform = Callable[[cst.CSTNode, cst.CSTNode], Result]


class RemoveMarker:
    def __repr__(self) -> str:
        return "REMOVE"


#: Replacement marker: the node leaves its parent.
REMOVE = RemoveMarker()


@dataclass
class Edits:
    """The changes of one fix round in one module, keyed by ``id()`` of original nodes."""

    transforms: dict[int, list[Transform]] = field(default_factory=dict)
    replacements: dict[int, cst.CSTNode | RemoveMarker] = field(default_factory=dict)
    before: dict[int, list[cst.BaseStatement]] = field(default_factory=dict)
    imports: set[tuple[str, str]] = field(
        default_factory=set
    )  # (module, name) — ``from module import name``; name "" — ``import module``
    aliases: dict[tuple[str, str], str] = field(
        default_factory=dict
    )  # (module, name) -> ``as`` name, when ``name`` is taken
    tracked: set[int] = field(default_factory=set)
    kept_comments: dict[int, list[cst.EmptyLine]] = field(
        default_factory=dict
    )  # removed statements whose comments stay -> the comment lines of their removed bodies
    _updated: dict[int, cst.CSTNode] = field(default_factory=dict)
    _shared: dict[str, Any] = field(default_factory=dict)
    _last: list[tuple[str, Callable[[Any], None]]] = field(default_factory=list)

    # -- recording ---------------------------------------------------------------------------
    def transform(self, node: cst.CSTNode, fn: Transform) -> None:
        """Rewrite ``node`` with ``fn(original, updated)`` when the applier leaves it."""
        self.transforms.setdefault(id(node), []).append(fn)

    def replace(self, node: cst.CSTNode, new: cst.CSTNode) -> None:
        """``node`` becomes ``new`` (its children's rewrites are dropped with it)."""
        self.replacements[id(node)] = new

    def remove(self, node: cst.CSTNode, keep_comments: bool = False, inner: Sequence[cst.EmptyLine] = ()) -> None:
        """``node`` leaves its parent (a statement, an argument, an element …). ``keep_comments``:
        the statement's comment lines and trailing comment stay, on the next statement that stays
        (else the block's ``pass``/footer) — for a statement whose work moves elsewhere, where its
        comments still describe the code around it; ``inner``: the comment lines of its body (a
        compound statement), handed on after its own."""
        self.replacements[id(node)] = REMOVE
        if keep_comments:
            self.kept_comments[id(node)] = list(inner)

    def insert_before(self, stmt: cst.CSTNode, stmts: list[cst.BaseStatement]) -> None:
        """Put ``stmts`` before ``stmt`` in its block (after what was inserted before it already)."""
        self.before.setdefault(id(stmt), []).extend(stmts)

    def add_import(self, module: str, name: str | None = None, alias: str | None = None) -> None:
        """``from module import name`` (``import module`` without ``name``; ``… as alias`` when
        ``alias`` differs from ``name``), added once after all edits, where the project's import
        sorter puts it (:func:`mcpmigrate.codemods.style.add_imports`).
        Code that spells the imported name gets its local name from :meth:`import_name`."""
        self.imports.add((module, name or ""))
        if alias and alias != (name or module):  # `import logging as stdlib_logging` too
            self.aliases[(module, name or "")] = alias

    def import_name(self, analysis: ModuleAnalysis, module: str, name: str) -> str:
        """Import ``name`` from ``module`` and return the local name generated code must spell:
        the module's own binding when it already is that import, ``name`` when the module does not
        use that identifier, else a free alias (``from pydantic import Field as PydanticField``)."""
        local = _bound(analysis, module, name)
        if local is None:  # not imported yet
            local = import_name(analysis, module, name)
            self.add_import(module, name, local)
        return local

    def shared(self, key: str, make: Callable[[], Any], last: Callable[[Any], None] | None = None) -> Any:
        """What the sites of one fix module share while they record this round's edits (a
        subscription bus added once per server, the module logger added once): ``make()`` the first
        time ``key`` is asked for, the same object afterwards. Held by this round's edits only, so
        only the sites that are applied take part (``docs/architecture.md``).

        ``last(value)``, when given, runs once after every site has recorded (:meth:`finish`, called
        by ``pipeline.record_edits``): for what the sites gather and one step then records (the
        nodes of several sites deleted together, the names left unused by all of them)."""
        if key not in self._shared:
            self._shared[key] = make()
            if last is not None:
                self._last.append((key, last))
        return self._shared[key]

    def finish(self) -> None:
        """Run the ``last`` steps of :meth:`shared`, once each, in the order their keys were first
        asked for."""
        steps, self._last = self._last, []
        for key, step in steps:
            step(self._shared[key])

    def track(self, node: cst.CSTNode) -> None:
        """Keep the rewritten form of ``node``, readable with :meth:`updated`."""
        self.tracked.add(id(node))

    # -- reading -----------------------------------------------------------------------------
    def removed(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` is removed."""
        return self.replacements.get(id(node)) is REMOVE

    @property
    def replaced_ids(self) -> set[int]:
        """Ids of the nodes removed or replaced (their old text is gone from the result)."""
        return set(self.replacements)

    def updated(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The rewritten form of a tracked node, once the applier has left it."""
        return self._updated.get(id(node))

    def __bool__(self) -> bool:
        return bool(self.transforms or self.replacements or self.before or self.imports)


# Comments that tell a tool something about the statement after them (black/ruff `fmt:`, `noqa`,
# `type: ignore`, coverage and pylint pragmas, isort): a deleted statement hands them on.
_DIRECTIVE = re.compile(r"#\s*(fmt:|noqa|type:\s*ignore|pragma\b|pylint:|isort:|ruff:)")


def _leading(stmt: cst.CSTNode) -> Sequence[cst.EmptyLine]:
    """The comment and blank lines before a statement (every libcst statement has them)."""
    return getattr(stmt, "leading_lines", ())


def trailing_comment(stmt: cst.CSTNode) -> list[cst.EmptyLine]:
    """A statement line's trailing comment as a line of its own (none: ``[]``)."""
    trailing = getattr(stmt, "trailing_whitespace", None)
    if isinstance(trailing, cst.TrailingWhitespace) and trailing.comment is not None:
        return [cst.EmptyLine(comment=trailing.comment)]
    return []


def _kept(stmt: cst.CSTNode, edits: Edits) -> list[cst.EmptyLine]:
    """The comment lines a removed statement hands on: its directives, or (removed with
    ``keep_comments``) all its leading lines (a blank line before its comments stays too), its
    trailing comment as a line of its own and the comments of its body — none without a comment."""
    inner = edits.kept_comments.get(id(stmt))
    if inner is None:
        return [line for line in _leading(stmt) if line.comment and _DIRECTIVE.match(line.comment.value)]
    lines = [*_leading(stmt), *trailing_comment(stmt), *inner]
    return lines if any(line.comment for line in lines) else []


class _Applier(cst.CSTTransformer):
    def __init__(self, edits: Edits) -> None:
        super().__init__()
        self.edits = edits
        self.became: dict[int, Result] = {}  # statements with directive-carrying removed siblings

    def _keep_directives(self, original: cst.IndentedBlock | cst.Module, block: Result) -> Result:
        """The directive comments (``# fmt: off`` …) leading a statement the edits remove move to
        the next statement that stays (ruff keeps them the same way when its fixes delete code),
        or, when none stays, to the block's ``pass``/footer."""
        if not isinstance(block, (cst.IndentedBlock, cst.Module)):
            return block
        body = list(block.body)
        pending: list[cst.EmptyLine] = []
        changed = False
        for stmt in original.body:
            if self.edits.replacements.get(id(stmt)) is REMOVE:
                pending += _kept(stmt, self.edits)
                continue
            if not pending:
                continue
            became = self.became.get(id(stmt))
            target = became.nodes[0] if isinstance(became, cst.FlattenSentinel) and became.nodes else became
            at = next((i for i, b in enumerate(body) if b is target), None)
            if at is not None:
                first, own = body[at], list(_leading(body[at]))
                if not pending[0].comment:  # the comments came with their blank line: one is enough
                    own = own[next((i for i, line in enumerate(own) if line.comment), len(own)) :]
                body[at] = first.with_changes(leading_lines=[*pending, *own])
                pending, changed = [], True
        if pending:
            if isinstance(block, cst.IndentedBlock) and not body:
                body = [cst.SimpleStatementLine([cst.Pass()], leading_lines=pending)]
            else:
                return block.with_changes(body=body, footer=[*pending, *block.footer])
            changed = True
        return block.with_changes(body=body) if changed else block

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Result:  # type: ignore[override]
        ed = self.edits
        key = id(original_node)
        node: Result = super().on_leave(original_node, updated_node)
        if key in ed.tracked and isinstance(node, cst.CSTNode):
            ed._updated[key] = node
        for fn in ed.transforms.get(key, ()):
            if not isinstance(node, cst.CSTNode):
                break
            node = fn(original_node, node)
        if key in ed.replacements:
            r = ed.replacements[key]
            node = cst.RemoveFromParent() if r is REMOVE else r  # type: ignore[assignment]
        if key in ed.before:
            items = (
                list(node.nodes)
                if isinstance(node, cst.FlattenSentinel)
                else []
                if isinstance(node, cst.RemovalSentinel)
                else [node]
            )
            node = cst.FlattenSentinel([*ed.before[key], *items])
        if isinstance(original_node, (cst.IndentedBlock, cst.Module)) and any(
            ed.replacements.get(id(stmt)) is REMOVE and _kept(stmt, ed) for stmt in original_node.body
        ):
            node = self._keep_directives(original_node, node)
        elif isinstance(original_node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            self.became[key] = node
        if isinstance(node, cst.IndentedBlock) and not node.body:
            node = node.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return node


def rewrite(node: cst.CSTNode, edits: Edits) -> Result:
    """``node`` — any subtree, not only a module: a node built for a fix, or a function a fix tries
    its edits on before deciding — with the edits made (no imports are added). Returns ``node``
    itself when there is nothing to do."""
    return node.visit(_Applier(edits)) if edits else node


def flatten_body(leading: Sequence[cst.EmptyLine], updated: cst.CSTNode) -> cst.RemovalSentinel | cst.FlattenSentinel:
    """A ``try``/``if``/``with`` … giving way to the statements of its indented body, ``leading``
    (its own leading lines) going to the first of them; it leaves its parent when the body is
    empty. Meant for a :meth:`Edits.transform` of such a statement (bound with ``partial`` where
    the plan must pickle)."""
    body_block = getattr(updated, "body", None)
    assert isinstance(body_block, cst.IndentedBlock)  # recorded only on a statement with a block body
    body = list(body_block.body)
    if not body:
        return cst.RemoveFromParent()
    first = body[0]
    assert isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement))  # every BaseStatement is one
    body[0] = first.with_changes(leading_lines=[*leading, *first.leading_lines])
    return cst.FlattenSentinel(body)


def apply_edits(module: cst.Module, edits: Edits, style: Style | None = None) -> cst.Module:
    """``module`` with every edit made, then the recorded imports added, each once, where the
    project's import sorter puts them (``style``: :func:`mcpmigrate.codemods.style.style_for`;
    ruff's defaults when None). Returns ``module`` itself when there is nothing to do."""
    if not edits:
        return module
    new = module.visit(_Applier(edits))
    if edits.imports:
        new = add_imports(new, edits.imports, edits.aliases, style or Style())
    return new


def rewrite_subtree(node: cst.CSTNode, edits: Edits) -> Result:
    """``node`` with the edits made, for a *detached* subtree a fix builds a replacement from (the
    original statements a rewrite moves, with names swapped in them); imports are not added here."""
    return node.visit(_Applier(edits)) if edits else node


# -- names an added import takes -------------------------------------------------------------
#: ``spell(module, name)`` -> the local name generated code spells for ``from module import name``
#: (``partial(import_name, analysis)`` at planning, ``partial(edits.import_name, analysis)`` when
#: recording edits; :func:`as_is` where no module is known).
Spell = Callable[[str, str], str]


def as_is(module: str, name: str) -> str:
    """The name itself (a :data:`Spell` for code built without a module)."""
    return name


#: Spellings that bind the same object: an existing import of one serves for the other.
_SAME = {"typing.Annotated": {"typing_extensions.Annotated"}, "typing_extensions.Annotated": {"typing.Annotated"}}


def _names(analysis: ModuleAnalysis) -> tuple[set[str], dict[str, int], dict[str, str]]:
    """``(identifiers, bindings, top_imports)``: every identifier the module binds or reads,
    anywhere (attribute and keyword names excluded); how many times each is bound; and what each
    module-level import statement binds (local name → ``module.name``). Memoized."""

    def compute() -> tuple[set[str], dict[str, int], dict[str, str]]:
        import ast

        tree = ast.parse(analysis.code())
        ids: set[str] = set()
        bound: dict[str, int] = {}

        def bind(n: str | None) -> None:
            if n:
                ids.add(n)
                bound[n] = bound.get(n, 0) + 1

        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                ids.add(node.id)
                if not isinstance(node.ctx, ast.Load):
                    bind(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bind(node.name)
            elif isinstance(node, ast.arg):
                bind(node.arg)
            elif isinstance(node, ast.alias):
                bind(node.asname or node.name.split(".")[0])
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                ids.update(node.names)
            elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
                bind(node.name)
        top: dict[str, str] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and stmt.module:
                for al in stmt.names:
                    top[al.asname or al.name] = f"{stmt.module}.{al.name}"
        return ids, bound, top

    return analysis.memo("edits.names", compute)


def _prefix(module: str) -> str:
    """``pydantic`` → ``Pydantic``, ``mcp.server.mcpserver`` → ``Mcp``: an alias's prefix."""
    head = module.split(".")[0].strip("_")
    return "".join(part[:1].upper() + part[1:] for part in head.split("_")) or "Imported"


def _bound(analysis: ModuleAnalysis, module: str, name: str) -> str | None:
    """The local name of a module-level ``from module import name`` (or an equivalent spelling)
    that nothing else in the module rebinds, else None."""
    full = f"{module}.{name}"
    same = {full} | _SAME.get(full, set())
    _, bound, top = _names(analysis)
    for local, target in sorted(top.items()):
        if target in same and bound.get(local) == 1:
            return local
    return None


def import_name(analysis: ModuleAnalysis, module: str, name: str) -> str:
    """The local name under which ``from module import name`` is spelled in ``analysis``'s module
    (see :meth:`Edits.import_name`); the same answer for the same module every time, so a plan
    made at detection and the edits made later agree."""
    local = _bound(analysis, module, name)
    if local is not None:
        return local
    taken = _names(analysis)[0]
    if name not in taken:
        return name
    base, i = f"{_prefix(module)}{name}", 2
    alias = base
    while alias in taken:
        alias, i = f"{base}{i}", i + 1
    return alias

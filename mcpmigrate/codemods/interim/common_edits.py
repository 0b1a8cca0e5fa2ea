"""The edits every interim form records, on top of the one applier (:mod:`mcpmigrate.codemods.edits`).

- :class:`FunctionEdit`: one function's signature and alias changes (the resolver parameter goes
  before the context parameter, which goes when nothing uses it any more; a widened return
  annotation; alias statements such as ``session = ctx.session`` the moved requests were the only
  users of), made as one transform when the applier leaves the function;
- :func:`take_out`: the request leaves its function (its statement, or its ``await``);
- :func:`unwrap_try`: a ``try`` whose ``except`` went on without the answer gives way to its body;
- :func:`place_resolver`: a resolver goes right before its tool, in the tool's scope.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from mcpmigrate.codemods.edits import Edits, flatten_body, trailing_comment
from mcpmigrate.codemods.interim.sites import Site, discarded
from mcpmigrate.names import assigned, binds, uses


class FunctionEdit:
    """The changes of one function, made as one transform when the applier leaves it, in this
    order: the alias statements the moved requests were the only users of go, the return
    annotation widens, the new parameters go before the context parameter (which goes when
    nothing uses it any more)."""

    def __init__(self, edits: Edits, node: cst.FunctionDef) -> None:
        self.edits = edits
        self.params: list[tuple[str, cst.Param]] = []  # (the context parameter it goes before, parameter)
        self.ctx: str | None = None  # the context parameter, dropped when unused
        self.force_drop: bool | None = None  # drop the context parameter (decided in advance)
        self.returns: str | None = None  # the new return annotation
        self.aliases: list[cst.SimpleStatementLine] | None = None
        edits.transform(node, self)

    def add_aliases(self, stmts: list[cst.SimpleStatementLine]) -> None:
        """Alias statements (``session = ctx.session``) and pure locals copied into a resolver, to drop
        when the moved requests were their only use."""
        if self.aliases is None:
            self.aliases = []
        for s in stmts:
            self.edits.track(s)
        self.aliases.extend(stmts)

    def __call__(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
        node = updated
        assert isinstance(node, cst.FunctionDef)
        if self.aliases is not None:
            node = self._drop_dead_aliases(node)
        if self.returns is not None:
            node = node.with_changes(returns=cst.Annotation(cst.parse_expression(self.returns)))
        if self.params:
            node = node.with_changes(params=_insert_params(node, self.params, self.ctx, self.force_drop))
        return node

    def _drop_dead_aliases(self, node: cst.FunctionDef) -> cst.FunctionDef:
        """Remove the alias statements (``session = ctx.session``) the moved requests were the only
        users of; a chain (``s = session``) goes from its end."""
        body = node.body
        if not isinstance(body, cst.IndentedBlock):
            return node
        stmts = list(body.body)
        pending = [self.edits.updated(x) for x in self.aliases or ()]
        footer: list[cst.EmptyLine] = []  # the comments of removed last statements
        changed = True
        while changed:
            changed = False
            for alias in pending:
                if alias is None or alias not in stmts:
                    continue
                assert isinstance(alias, cst.SimpleStatementLine)  # what `aliases` holds, kept a statement line
                (name,) = assigned(alias)  # `name = …` / `name: T = …`
                rest = [x for x in stmts if x is not alias]
                if any(uses(x, name) for x in rest) or any(binds(x, name) for x in rest):
                    continue
                i = stmts.index(alias)
                carry = [*alias.leading_lines, *trailing_comment(alias)]  # its comments stay
                if i + 1 < len(stmts):
                    nxt = stmts[i + 1]
                    stmts[i + 1] = nxt.with_changes(leading_lines=[*carry, *nxt.leading_lines])  # type: ignore[attr-defined]  # libcst types BaseStatement without leading_lines; every statement has them
                else:
                    footer = [*carry, *footer]
                del stmts[i]
                changed = True
        if not stmts:
            stmts = [cst.SimpleStatementLine([cst.Pass()], leading_lines=footer)]
            footer = []
        return node.with_changes(body=body.with_changes(body=stmts, footer=[*footer, *body.footer]))


def function_edit(ed: Edits, node: cst.FunctionDef) -> FunctionEdit:
    """The function's one :class:`FunctionEdit` in ``ed`` (recorded on first use)."""
    for t in ed.transforms.get(id(node), ()):
        if isinstance(t, FunctionEdit):
            return t
    return FunctionEdit(ed, node)


def take_out(site: Site, ed: Edits, name: str) -> None:
    """The request leaves the function: its statement goes (``x = await …``, or ``await …`` whose
    answer was thrown away), or the ``await`` becomes ``name``; a ``try`` around it is unwrapped."""
    if site.result is not None or discarded(site.stmt, site.await_node):
        ed.remove(site.stmt, keep_comments=True)
    else:
        ed.replace(site.await_node, cst.Name(name))
    if site.unwrap is not None:
        unwrap_try(ed, site.unwrap)


def unwrap_try(ed: Edits, node: cst.Try) -> None:
    """The ``try`` gives way to its body (its leading lines go to the first statement); it goes
    when every statement of its body is removed."""

    def flatten(original: cst.CSTNode, updated: cst.CSTNode) -> Any:
        assert isinstance(original, cst.Try) and isinstance(updated, cst.Try)
        if all(ed.removed(s) for s in original.body.body):  # it goes; the comments stay (its body's on its `pass`)
            inner = [line for s in updated.body.body for line in getattr(s, "leading_lines", ()) if line.comment]
            ed.remove(original, keep_comments=True, inner=inner)
            return updated
        return flatten_body(original.leading_lines, updated)

    ed.transform(node, flatten)


def place_resolver(
    ed: Edits,
    tool: cst.FunctionDef,
    resolver: cst.BaseStatement,
    nested: bool = False,
    comments: Sequence[cst.EmptyLine] = (),
) -> cst.BaseStatement:
    """``resolver`` goes right before ``tool``, in its scope (after the resolvers already placed
    there): the first takes the tool's leading lines, the others and the tool two blank lines (one
    inside a function); ``comments`` follow them. Returns the statement placed."""
    first = id(tool) not in ed.before
    blank = [cst.EmptyLine(indent=False)] if nested else [cst.EmptyLine(), cst.EmptyLine()]
    placed = resolver.with_changes(leading_lines=[*(tool.leading_lines if first else blank), *comments])
    ed.insert_before(tool, [placed])
    if first:
        ed.transform(tool, lambda original, updated: updated.with_changes(leading_lines=list(blank)))
    return placed


def _insert_params(
    fn: cst.FunctionDef, ops: list[tuple[str, cst.Param]], ctx: str | None, force_drop: bool | None = None
) -> cst.Parameters:
    """``fn``'s parameters with the new ones right before the context parameter ``ctx``, which goes
    when the function no longer uses it (or as ``force_drop`` says)."""
    params = fn.params
    drop = bool(ctx) and uses(fn.body, ctx) == 0 and not any(uses(d, ctx) for d in fn.decorators)  # type: ignore[arg-type]
    if force_drop is not None:
        drop = force_drop
    for field_name in ("params", "kwonly_params"):
        lst = list(getattr(params, field_name))
        names = [p.name.value for p in lst]
        if ctx not in names:
            continue
        idx = names.index(ctx)
        template = lst[idx]
        new = [p.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for _, p in ops]
        if drop:
            last = new[-1].with_changes(comma=template.comma)
            new[-1] = last
            lst[idx : idx + 1] = new
        else:
            lst[idx:idx] = new
        return params.with_changes(**{field_name: lst})
    return params

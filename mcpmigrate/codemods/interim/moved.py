"""A schema class defined inside an ``MCPServer`` tool, moved above the tool for its resolver.

A resolver is defined right before its tool and runs before the tool body, so it cannot see a class
the tool body defines (``class ConfirmBooking(BaseModel)`` inside ``book_table``, the shape of the
mcp 1.x elicitation examples). Such a class is moved, unchanged, right above the tool (to module
level, or into the factory that defines the tool) when :func:`move_reason` finds, in the code, that
this changes nothing a caller can observe:

- it is defined once, unconditionally, at the top level of the tool body, before the request, and
  nothing else in the tool binds its name (:func:`.scope.copy_locals` checks this first);
- everything it reads — its decorators, bases and keywords, its field annotations and values, the
  decorators and defaults of its methods, what its methods' bodies read — is its own, a module-level
  name or a builtin (or a name the tool's factory binds before the tool), never a parameter or a
  local of the tool;
- defining it does nothing else: each statement of its body only binds a field, a method or a
  nested class, with no call that is not known pure (``Field(...)``, ``ConfigDict(...)`` and
  pydantic's decorators are; ``datetime.now()`` would run once at import instead of on every call),
  and neither the tool nor the class's methods write its attributes (that state would then last
  from one call to the next);
- its name is free where it goes: no module-level name (or name of the factory) is spelled so, no
  other function of the module defines a class of that name, and no ``global`` declares it.

:func:`move` records the edits: the class leaves the tool body with its comments and goes right
above the tool (after the resolvers already placed there, before the one that reads it).

A class defined in a helper whose request each calling tool's resolver asks (:mod:`.helpers`)
moves the same way, right above the helper, when every calling tool comes after the helper in the
module (a resolver reads the class when it is defined, right before its tool).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.effects import definition_effect, param_parts
from mcpmigrate.codemods.interim.common_edits import place_resolver
from mcpmigrate.codemods.interim.scope import Outer, bound_names, free_name, scope_nodes
from mcpmigrate.names import BUILTINS, module_names


def move_reason(
    a: ModuleAnalysis, fn: FunctionInfo, outer: Outer, cls: cst.ClassDef, where: str = "tool"
) -> str | None:
    """Why the class ``cls``, defined at the top of the body of ``fn`` (the tool, or the helper that
    makes the request: ``where``), cannot move right above ``fn`` unchanged in meaning (it follows
    "`Name` "), else None."""
    name = cls.name.value
    why = _read_reason(a, fn, outer, cls, where)
    if why:
        return why
    why = _base_reason(a, cls, where)
    if why:
        return why
    effect = definition_effect(cls)
    if effect is not None:
        return (
            f"is a class defined inside the {where} whose definition runs `{_line(effect)}`: moved to module level "
            "it would run once at import instead of on every call; define the class at module level by hand"
        )
    written = _class_write(fn, cls)
    if written is not None:
        return (
            f"is a class defined inside the {where}, and `{_line(written)}` changes it or reaches its own attributes: "
            "moved to module level, such a change would last from one call to the next; define the class at module "
            "level by hand"
        )
    return _name_reason(a, fn, outer, cls, name, where)


#: Bases whose subclasses run no code of the project when defined (pydantic's model building aside).
PLAIN_BASES = ("pydantic.", "typing.", "enum.", "dataclasses.")


def _base_reason(a: ModuleAnalysis, cls: cst.ClassDef, where: str, seen: frozenset[str] = frozenset()) -> str | None:
    """Why defining ``cls`` may run code of a base (an ``__init_subclass__``, a metaclass), which
    would then run once at import instead of on every call: a ``metaclass=``, a base of the module
    that defines ``__init_subclass__`` (or has such a base), a base from elsewhere that is not
    pydantic's, typing's, enum's, dataclasses' or a builtin."""
    head = f"is a class defined inside the {where}, which a resolver does not see, and"
    tail = "would then run once at import instead of on every call; define the class at module level by hand"
    if any(k.keyword is not None and k.keyword.value == "metaclass" for k in cls.keywords):
        return f"{head} its metaclass runs when it is defined: that {tail}"
    for arg in cls.bases:
        base = arg.value.value if isinstance(arg.value, cst.Subscript) else arg.value
        q = a.qualname(base) or ""
        if q.startswith(PLAIN_BASES) or q in BUILTINS:
            continue
        own = next((s for s in a.module.body if isinstance(s, cst.ClassDef) and s.name.value == q), None)
        if own is None or q in seen:
            return (
                f"{head} its base `{code_of(base)}` is not a class of this module: the fix cannot see whether "
                f"defining a subclass runs code (an `__init_subclass__`, a metaclass), which {tail}"
            )
        hook = next(
            (m for m in own.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init_subclass__"), None
        )
        if hook is not None:
            return f"{head} its base `{q}` defines `__init_subclass__`, which runs when it is defined: that {tail}"
        why = _base_reason(a, own, where, seen | {q})
        if why:
            return why
    return None


def _line(node: cst.CSTNode) -> str:
    return code_of(node).strip().splitlines()[0]


def _read_reason(a: ModuleAnalysis, fn: FunctionInfo, outer: Outer, cls: cst.ClassDef, where: str) -> str | None:
    """Why what ``cls`` reads would mean something else above the tool: a parameter or a local of
    the tool, or a name that is not module-level."""
    name = cls.name.value
    params = set(fn.param_names())
    local = {n for node in scope_nodes(fn.node.body) for n in bound_names(node)} - {name}
    for ref in outer_reads(cls):
        v = ref.value
        if v == name:
            continue
        if v in params:
            return (
                f"is a class defined inside the {where} that reads the {where}'s parameter `{v}`: a resolver does not see "
                "it, and it cannot move to module level without that parameter; define it at module level by hand"
            )
        if v in local:
            return (
                f"is a class defined inside the {where} that reads `{v}`, a local of the {where}: a resolver does not see "
                "it, and it cannot move to module level without that local; define it at module level by hand"
            )
        if not free_name(a, v, outer):
            return (
                f"is a class defined inside the {where} that reads `{v}`, which is not a module-level name: a resolver "
                f"does not see the class, and moved to module level it would not see `{v}`; define it at module "
                "level by hand"
            )
        if fn.parent is None and _bound_below(a, fn, v):
            return (
                f"is a class defined inside the {where} that reads `{v}`, which the module binds only below the "
                f"{where}: moved above the {where}, the class would be defined before `{v}` is and fail at import; "
                "define it at module level, below that, by hand"
            )
    return None


def _bound_below(a: ModuleAnalysis, fn: FunctionInfo, name: str) -> bool:
    """Whether the module-level ``fn``'s module binds ``name`` first in a statement below ``fn``."""
    body = list(a.module.body)
    here = next((i for i, stmt in enumerate(body) if stmt is fn.node), None)
    if here is None:
        return False
    first = next((i for i, stmt in enumerate(body) if any(name in bound_names(n) for n in scope_nodes(stmt))), None)
    return first is not None and first > here


def _name_reason(
    a: ModuleAnalysis, fn: FunctionInfo, outer: Outer, cls: cst.ClassDef, name: str, where: str
) -> str | None:
    """Why the name ``name`` is not free right above ``fn``."""
    head = f"is a class defined inside the {where}, which a resolver does not see, and"
    if name in module_names(a) or name in outer.visible or name in outer.late:
        where = (
            "the module" if fn.parent is None or name not in outer.visible | outer.late else f"`{fn.parent.qualname}`"
        )
        return (
            f"{head} {where} binds `{name}` too: moving the class there would replace that; rename one of them, "
            "then run the fix again"
        )
    if name in BUILTINS:
        return (
            f"{head} `{name}` is a builtin: at module level the class would hide it from the whole module; rename "
            "the class, then run the fix again"
        )
    for other in _classes(a).get(name, []):
        if other is cls:
            continue
        owner = a.enclosing_function(other)
        where = f"`{owner.qualname}`" if owner is not None else "the module"
        same = code_of(other.with_changes(leading_lines=[])) == code_of(cls.with_changes(leading_lines=[]))
        if same:
            return (
                f"{head} {where} defines the same class: both moved to module level would bind `{name}` twice; "
                "define it once at module level by hand"
            )
        return (
            f"{head} {where} defines a different class `{name}`: one module-level name cannot hold both; rename "
            "one of them, then run the fix again"
        )
    for n in walk(a.module):
        if isinstance(n, (cst.Global, cst.Nonlocal)) and any(x.name.value == name for x in n.names):
            return (
                f"{head} `{_line(n)}` declares that name: moved, the class would be what it reads or replaces; "
                "define the class at module level by hand"
            )
    return None


def _classes(a: ModuleAnalysis) -> dict[str, list[cst.ClassDef]]:
    """Every class of the module, by name (memoized)."""

    def compute() -> dict[str, list[cst.ClassDef]]:
        out: dict[str, list[cst.ClassDef]] = {}
        for n in walk(a.module):
            if isinstance(n, cst.ClassDef):
                out.setdefault(n.name.value, []).append(n)
        return out

    return a.memo("interim.moved.classes", compute)


# -- what the class reads ---------------------------------------------------------------------


def outer_reads(cls: cst.ClassDef) -> list[cst.Name]:
    """The names ``cls`` reads from the scope it is defined in: its decorators, bases and keywords;
    what its body reads at class level and does not bind there; what its methods (and the functions,
    lambdas and comprehensions in it) read and do not bind themselves. A ``nonlocal`` name counts as
    read; a string annotation is read as the expression it spells."""
    out: list[cst.Name] = []
    for d in (*cls.decorators, *cls.bases, *cls.keywords):
        out += _reads(d, frozenset(), frozenset())
    out += _reads(cls.body, _class_locals(cls), frozenset())
    return out


def _class_locals(cls: cst.ClassDef) -> frozenset[str]:
    return frozenset(n for node in scope_nodes(cls.body) for n in bound_names(node))


def _function_locals(node: cst.FunctionDef | cst.Lambda) -> frozenset[str]:
    params = node.params
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    if isinstance(node, cst.FunctionDef):
        for n in scope_nodes(node.body):
            if not isinstance(n, (cst.Global, cst.Nonlocal)):
                names |= bound_names(n)
    return frozenset(names)


def _reads(node: cst.CSTNode, skip: frozenset[str], inner: frozenset[str]) -> Iterator[cst.Name]:
    """The names ``node`` reads that are not in ``skip`` (what its own scope binds), in source order;
    ``inner``: what a function, lambda or comprehension inside it sees bound (a class scope's names
    are not)."""
    stack: list[tuple[cst.CSTNode, frozenset[str], frozenset[str]]] = [(node, skip, inner)]
    while stack:
        n, skip, inner = stack.pop()
        if isinstance(n, cst.Name):
            if n.value not in skip:
                yield n
            continue
        if isinstance(n, cst.Nonlocal):
            yield from (x.name for x in n.names)
            continue
        stack += reversed(_parts(n, skip, inner))


def _parts(
    n: cst.CSTNode, skip: frozenset[str], inner: frozenset[str]
) -> list[tuple[cst.CSTNode, frozenset[str], frozenset[str]]]:
    """What ``n`` reads, in order, each with the names bound in its scope (see :func:`_reads`)."""
    if isinstance(n, (cst.Attribute, cst.Arg)):
        return [(n.value, skip, inner)]
    if isinstance(n, (cst.Import, cst.ImportFrom, cst.Global, cst.AsName)):
        return []
    if isinstance(n, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.NamedExpr, cst.CompFor)):
        kids = [c for c in n.children if c is not n.target]
        return [(c, skip, inner) for c in [*_target_parts(n.target), *kids]]
    if isinstance(n, (cst.FunctionDef, cst.Lambda)):
        head = [*param_parts(n.params)]
        if isinstance(n, cst.FunctionDef):
            head = [*n.decorators, *head, *([n.returns] if n.returns else [])]
        own = inner | _function_locals(n)
        return [*((h, skip, inner) for h in head), (n.body, own, own)]
    if isinstance(n, cst.ClassDef):
        head = [*n.decorators, *n.bases, *n.keywords]
        return [*((h, skip, inner) for h in head), (n.body, inner | _class_locals(n), inner)]
    if isinstance(n, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        # the first iterable is read in the scope around it, the rest in the comprehension's own
        targets = frozenset(
            x.value
            for f in walk(n.for_in)
            if isinstance(f, cst.CompFor)
            for x in walk(f.target)
            if isinstance(x, cst.Name)
        )
        own = inner | targets
        rest: list[cst.CSTNode] = [*_target_parts(n.for_in.target), *n.for_in.ifs]
        if n.for_in.inner_for_in is not None:
            rest.append(n.for_in.inner_for_in)
        rest += [n.key, n.value] if isinstance(n, cst.DictComp) else [n.elt]
        return [(n.for_in.iter, skip, inner), *((r, own, own) for r in rest)]
    extra = _string_annotations(n) if isinstance(n, cst.Annotation) else []
    return [(c, skip, inner) for c in [*n.children, *extra]]


def _target_parts(target: cst.CSTNode) -> list[cst.CSTNode]:
    """What an assignment target reads: nothing for a name (or a tuple of names), the object and
    index of an attribute or item."""
    if isinstance(target, cst.Name):
        return []
    if isinstance(target, (cst.Tuple, cst.List)):
        return [p for e in target.elements for p in _target_parts(e.value)]
    if isinstance(target, cst.StarredElement):
        return _target_parts(target.value)
    return [target]


def _string_annotations(ann: cst.Annotation) -> list[cst.CSTNode]:
    """The expressions spelled by the strings in type positions of an annotation (``"Prefs"``,
    ``list["Item"]``, ``Optional["Item"]``), which pydantic resolves where the class is defined; the
    values of a ``Literal[...]``, the metadata of an ``Annotated[...]`` and call arguments
    (``Field(description="...")``) are not types."""
    out: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [ann.annotation]
    while stack:
        n = stack.pop()
        if isinstance(n, cst.SimpleString):
            text = n.evaluated_value
            try:
                out.append(cst.parse_expression(text if isinstance(text, str) else ""))
            except cst.ParserSyntaxError:
                continue
        elif isinstance(n, cst.BinaryOperation):  # `"Item" | None`
            stack += [n.left, n.right]
        elif isinstance(n, cst.Subscript):
            head = n.value.attr.value if isinstance(n.value, cst.Attribute) else getattr(n.value, "value", "")
            types = [] if head == "Literal" else n.slice[:1] if head == "Annotated" else n.slice
            stack += [e.slice.value for e in types if isinstance(e.slice, cst.Index)]
    return out


def _class_write(fn: FunctionInfo, cls: cst.ClassDef) -> cst.CSTNode | None:
    """A statement of the tool, or of the class's methods, that writes an attribute of the class
    (``Prefs.limit = 3``, ``cls.count += 1``, ``del Prefs.x``, ``setattr(Prefs, …)``), or a
    statement of the tool that reaches one of its own attributes at all (``Prefs.days.append(d)``
    changes a ``ClassVar`` list without assigning it; pydantic's ``model_*`` API excepted)."""
    name = cls.name.value
    own = {id(x) for x in walk(cls)}
    for n in walk(fn.node.body):
        if isinstance(n, cst.SimpleStatementLine) and id(n) not in own and _reaches_attribute(n, name):
            return n
        names = {name, "cls"} if id(n) in own else {name}
        if isinstance(n, cst.Call) and isinstance(n.func, cst.Name) and n.func.value in ("setattr", "delattr"):
            if n.args and isinstance(n.args[0].value, cst.Name) and n.args[0].value.value in names:
                return n
            continue
        if isinstance(n, cst.Assign):
            targets: list[cst.CSTNode] = [t.target for t in n.targets]
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign, cst.Del)):
            targets = [n.target]
        else:
            continue
        for t in targets:
            for x in walk(t):
                if isinstance(x, (cst.Attribute, cst.Subscript)) and isinstance(x.value, cst.Name):
                    if x.value.value in names:
                        return n
    return None


def _reaches_attribute(stmt: cst.SimpleStatementLine, name: str) -> bool:
    """Whether ``stmt`` reads an attribute of the class ``name`` other than pydantic's API."""
    return any(
        isinstance(x, cst.Attribute)
        and isinstance(x.value, cst.Name)
        and x.value.value == name
        and not x.attr.value.startswith(("model_", "__"))
        for x in walk(stmt)
    )


# -- the edits --------------------------------------------------------------------------------


def move(ed: Edits, tool: cst.FunctionDef, classes: list[cst.ClassDef], nested: bool) -> None:
    """Each class of ``classes`` leaves the tool body and goes right above the tool, once per round
    (two requests of the tool may read the same class), with the comment lines above it; the
    class as the round's other edits leave it."""
    for cls in classes:
        ed.shared(f"interim.moved:{id(cls)}", lambda cls=cls: _move(ed, tool, cls, nested))  # type: ignore[misc]


def _move(ed: Edits, tool: cst.FunctionDef, cls: cst.ClassDef, nested: bool) -> bool:
    lines = list(cls.leading_lines)
    first = next((i for i, line in enumerate(lines) if line.comment is not None), len(lines))
    comments = [line.with_changes(indent=True) for line in lines[first:]]
    placed = place_resolver(ed, tool, cls, nested, comments=comments)

    def swap(original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.ClassDef)  # the class, with the round's edits inside it
        held = ed.before[id(tool)]
        at = next(i for i, s in enumerate(held) if s is placed)
        held[at] = updated.with_changes(leading_lines=placed.leading_lines)  # type: ignore[attr-defined]  # placed is the class
        return updated

    ed.transform(cls, swap)
    ed.remove(cls)
    return True

"""The codemods of the port of fastmcp 2.x/3.x servers to fastmcp 4 (MCP51x, ``--target-sdk fastmcp4``).

Each site records its own edits (:mod:`mcpmigrate.codemods.port` applies them). Source: fastmcp's
upgrade guides (docs/getting-started/upgrading/from-fastmcp-3.mdx, “Removed in FastMCP 4”;
from-fastmcp-2.mdx, “v3.0.0”), each move checked against fastmcp 2.14.7, 3.4.11 and 4.2.3:

- imports of removed modules move to the module the guide names (``ImportMove``; renamed names —
  ``Cachable*`` → ``Cacheable*`` — go through :func:`.renames.plan_import` with their uses);
- ``FastMCP.as_proxy(x)`` → ``create_proxy(x)`` (``backend=`` → ``target=``), ``mount(prefix=)`` →
  ``mount(namespace=)``, ``remove_tool(n)`` → ``local_provider.remove_tool(n)``,
  ``add_tool_transformation(n, cfg)`` → ``add_transform(ToolTransform({n: cfg}))``;
- ``McpError(ErrorData(code=…, message=…))`` → ``McpError(code=…, message=…)`` (fastmcp 4's
  ``McpError`` is mcp 2.x's ``MCPError(code, message, data)``; ``.error`` still reads the data);
- fastmcp 2.x's synchronous ``ctx.set_state(k, v)``/``ctx.get_state(k)`` → awaited, the state
  request-scoped as on 2.x (``serializable=False``: fastmcp 3/4's session state would need JSON
  values and outlive the request).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixInfo, FixPlan, Safety

MOVE = FixInfo(
    Safety.SAFE, "port", "import from the module fastmcp 4 moved the names to (the upgrade guide's move; same API)"
)
AS_PROXY = FixInfo(Safety.SAFE, "port", "call `create_proxy(...)` from `fastmcp.server` (what `as_proxy` became)")
MOUNT = FixInfo(Safety.SAFE, "port", "pass the prefix as `namespace=` (fastmcp 4's name for it; same tool names)")
REMOVE_TOOL = FixInfo(Safety.SAFE, "port", "call `local_provider.remove_tool(...)` (where fastmcp 4 keeps it)")
TRANSFORM = FixInfo(
    Safety.SAFE, "port", "register the transformation as `add_transform(ToolTransform({name: config}))`"
)
MCP_ERROR = FixInfo(
    Safety.SAFE,
    "port",
    "construct `McpError` from keywords (`code=`, `message=`, `data=`), as mcp 2.x's `MCPError` takes them",
)
STATE = FixInfo(
    Safety.SAFE,
    "port",
    "await the state call; `set_state` keeps the value request-scoped (`serializable=False`), as fastmcp 2.x did",
)


@dataclass
class ImportMove:
    """One ``from <removed module> import …``: its names regrouped by the module fastmcp 4 has
    them in (same names; ``as`` kept), in the order the names came: the last group rewrites the
    statement, the others are inserted before its line."""

    node: cst.ImportFrom
    line: cst.CSTNode  # the statement line holding the import
    groups: dict[str, list[cst.ImportAlias]] = field(default_factory=dict)

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        modules = list(self.groups)
        last = modules[-1]
        aliases = _clean(self.groups[last])
        edits.transform(
            self.node,
            lambda o, u: (
                u.with_changes(module=cst.parse_expression(last), names=aliases, lpar=None, rpar=None)
                if isinstance(u, cst.ImportFrom)
                else u
            ),
        )
        extra: list[cst.BaseStatement] = [
            cst.SimpleStatementLine([cst.ImportFrom(module=cst.parse_expression(m), names=_clean(self.groups[m]))])  # type: ignore[arg-type]
            for m in modules[:-1]
        ]
        if extra:
            edits.insert_before(self.line, extra)


def _clean(aliases: list[cst.ImportAlias]) -> list[cst.ImportAlias]:
    """The aliases with plain commas (the last without one): a regrouped import's own punctuation."""
    out = [a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for a in aliases]
    out[-1] = out[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return out


@dataclass
class CallEdit:
    """A rewrite of one call of the port: ``func`` replaced (a name to import, or an attribute
    path under the receiver), keywords renamed, the leading positional arguments reordered."""

    call: cst.Call
    import_from: tuple[str, str] | None = None  # (module, name): func becomes that name
    attr_path: tuple[str, ...] = ()  # func ``recv.m`` → ``recv.<path…>``
    keywords: dict[str, str] = field(default_factory=dict)  # old → new keyword
    swap_first: bool = False  # mount("prefix", server) → mount(server, namespace="prefix")

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        local = edits.import_name(analysis, *self.import_from) if self.import_from else None
        path, keywords, swap = self.attr_path, self.keywords, self.swap_first

        def rewrite(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(u, cst.Call)
            func = u.func
            if local is not None:
                func = cst.Name(local)
            elif path and isinstance(func, cst.Attribute):
                recv = func.value
                for part in path[:-1]:
                    recv = cst.Attribute(recv, cst.Name(part))
                func = cst.Attribute(recv, cst.Name(path[-1]))
            args = [
                a.with_changes(keyword=cst.Name(keywords[a.keyword.value]))
                if a.keyword is not None and a.keyword.value in keywords
                else a
                for a in u.args
            ]
            if swap:
                prefix, server = args[0], args[1]
                args = [
                    server.with_changes(comma=prefix.comma),
                    prefix.with_changes(
                        keyword=cst.Name("namespace"),
                        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
                        comma=server.comma,
                    ),
                    *args[2:],
                ]
            return u.with_changes(func=func, args=args)

        edits.transform(self.call, rewrite)


@dataclass
class AddTransform:
    """``mcp.add_tool_transformation(name, config)`` → ``mcp.add_transform(ToolTransform({name: config}))``."""

    call: cst.Call
    name: cst.BaseExpression
    config: cst.BaseExpression

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        local = edits.import_name(analysis, "fastmcp.server.transforms", "ToolTransform")
        name, config = self.name, self.config

        def rewrite(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(u, cst.Call) and isinstance(u.func, cst.Attribute)
            mapping = cst.Dict([cst.DictElement(name, config)])
            return u.with_changes(
                func=u.func.with_changes(attr=cst.Name("add_transform")),
                args=[cst.Arg(cst.Call(cst.Name(local), [cst.Arg(mapping)]))],
            )

        edits.transform(self.call, rewrite)


@dataclass
class ErrorKeywords:
    """``McpError(ErrorData(code=…, message=…, data=…))`` → ``McpError(code=…, message=…, data=…)``;
    ``McpError(err)`` (a name) → ``McpError(code=err.code, message=err.message, data=err.data)``."""

    call: cst.Call
    fields: list[cst.Arg] | None = None  # the ErrorData call's keywords; None: read them off a name

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        fields = self.fields

        def rewrite(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(u, cst.Call)
            if fields is not None:
                args = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in fields]
            else:
                value = u.args[0].value
                args = [
                    cst.Arg(cst.Attribute(value, cst.Name(k)), keyword=cst.Name(k), equal=_EQ)
                    for k in ("code", "message", "data")
                ]
            return u.with_changes(args=_commas(args))

        edits.transform(self.call, rewrite)


_EQ = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


def _commas(args: list[cst.Arg]) -> list[cst.Arg]:
    return [
        a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")) if i < len(args) - 1 else a.comma)
        for i, a in enumerate(args)
    ]


@dataclass
class AwaitState:
    """``ctx.set_state(k, v)`` → ``await ctx.set_state(k, v, serializable=False)``;
    ``ctx.get_state(k)`` → ``await ctx.get_state(k)`` (parenthesised where the result is read on)."""

    call: cst.Call
    request_scoped: bool
    parens: bool

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        scoped, parens = self.request_scoped, self.parens

        def rewrite(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(u, cst.Call)
            if scoped:
                u = u.with_changes(
                    args=_commas([*u.args, cst.Arg(cst.Name("False"), keyword=cst.Name("serializable"), equal=_EQ)])
                )
            node = cst.Await(u)
            return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if parens else node

        edits.transform(self.call, rewrite)


# ``FastMCP(...)`` transport settings fastmcp 2.x kept per server and used when it served HTTP
# (2.14's ``_deprecated_settings``, read by ``run_http_async``/``http_app``) → the keyword
# fastmcp 4's ``run()`` takes for them (``run_http_async``), by transport.
RUN_KWARGS = {
    "http": {"host": "host", "port": "port", "log_level": "log_level", "streamable_http_path": "path"}
    | {"json_response": "json_response", "stateless_http": "stateless_http"},
    "sse": {"host": "host", "port": "port", "log_level": "log_level", "sse_path": "path"},
}
RUN_KWARGS["streamable-http"] = RUN_KWARGS["http"]
_SERVES = ("run", "run_async", "run_http_async", "http_app", "sse_app", "streamable_http_app")
TO_RUN = FixInfo(
    Safety.UNSAFE,
    "port",
    "move the transport settings to the server's `run(...)` call (fastmcp 4's place for them); review: they now "
    "apply to that call only — a server started another way (`fastmcp run --transport http`, an app built by "
    "`http_app()` elsewhere) gets fastmcp's defaults there: pass them on that command or set FASTMCP_HOST/FASTMCP_PORT",
)


@dataclass
class MoveToRun:
    """``server = FastMCP(name, host=…, port=…)`` + ``server.run(transport="sse")`` →
    ``FastMCP(name)`` + ``server.run(transport="sse", host=…, port=…)``."""

    ctor: cst.Call
    run: cst.Call
    moves: list[tuple[cst.Arg, str]]

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        moved = {id(a) for a, _ in self.moves}
        extra = [cst.Arg(a.value, keyword=cst.Name(new), equal=_EQ) for a, new in self.moves]
        ctor_args = self.ctor.args

        def drop(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(o, cst.Call) and isinstance(u, cst.Call)
            kept = [new for old, new in zip(o.args, u.args) if id(old) not in moved]
            if kept and id(ctor_args[-1]) in moved:
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return u.with_changes(args=kept)

        def add(o: cst.CSTNode, u: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(u, cst.Call)
            args = list(u.args)
            if args and args[-1].comma is cst.MaybeSentinel.DEFAULT:
                args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            return u.with_changes(args=_commas([*args, *extra]))

        edits.transform(self.ctor, drop)
        edits.transform(self.run, add)


def plan_to_run(
    analysis: ModuleAnalysis, ctor: cst.Call, server: str | None, removed: list[cst.Arg]
) -> MoveToRun | None:
    """The move of ``removed`` (the constructor's transport settings) to the server's one ``run()``
    call, or None: the server is not a module-level name, it is served by anything else than one
    ``run(transport="http"|"streamable-http"|"sse")`` in this module, that transport does not use a
    setting, or ``run()`` already passes it."""
    if server is None:
        return None
    serving = [
        n
        for n in analysis.flat.order
        if isinstance(n, cst.Call)
        and isinstance(n.func, cst.Attribute)
        and isinstance(n.func.value, cst.Name)
        and n.func.value.value == server
        and n.func.attr.value in _SERVES
    ]
    if len(serving) != 1 or serving[0].func.attr.value not in ("run", "run_async"):  # type: ignore[attr-defined]
        return None
    run = serving[0]
    kws = {a.keyword.value: a for a in run.args if a.keyword is not None}
    positional = [a for a in run.args if a.keyword is None]
    transport = kws.get("transport") or (positional[0] if positional else None)
    if any(a.star for a in run.args) or transport is None or not isinstance(transport.value, cst.SimpleString):
        return None
    table = RUN_KWARGS.get(str(transport.value.evaluated_value))
    if table is None:
        return None
    moves = []
    for arg in removed:
        new = table.get(arg.keyword.value) if arg.keyword is not None else None
        if new is None or new in kws:
            return None
        moves.append((arg, new))
    return MoveToRun(ctor, run, moves)


# -- FastMCP 1.0 (mcp 1.x's ``mcp.server.fastmcp``) in a project ported to fastmcp 4 ---------------
# fastmcp 4 runs on mcp 2.x, which has no ``mcp.server.fastmcp`` (``ModuleNotFoundError``). fastmcp's
# “Upgrading from MCP SDK v1” guide (docs/getting-started/upgrading/from-mcp-sdk-v1.mdx, “Other
# `mcp.*` Imports” and its upgrade prompt) maps these names; the modules are mcp 1.27's that define
# or re-export them, the new homes fastmcp 4.2.3's (``Icon`` is ``mcp.types.Icon`` on both).
SDK1_NAMES = {
    "mcp.server.fastmcp": ("Context", "FastMCP", "Image", "Audio", "Icon"),
    "mcp.server.fastmcp.server": ("Context", "FastMCP"),
    "mcp.server.fastmcp.utilities.types": ("Image", "Audio"),
    # the same exception classes, with the same hierarchy (`FastMCPError` the base), in fastmcp 4.2.3's
    # `fastmcp/exceptions.py`; what a raise of them sends is the server's (SDK1_REVIEW["FastMCP"])
    "mcp.server.fastmcp.exceptions": ("FastMCPError", "ValidationError", "ResourceError", "ToolError"),
}
SDK1_MOVES = {
    "Context": "fastmcp",
    "FastMCP": "fastmcp",
    "Image": "fastmcp.utilities.types",
    "Audio": "fastmcp.utilities.types",
    "Icon": "mcp.types",
    **dict.fromkeys(("FastMCPError", "ValidationError", "ResourceError", "ToolError"), "fastmcp.exceptions"),
}
# What a name's move changes for clients (measured on fastmcp 2.14.7 / 3.4.11 against 4.2.3).
SDK1_REVIEW = {
    "FastMCP": "the server becomes fastmcp 4's `FastMCP`: check what the guide lists — transport settings move from "
    "the constructor to `run()`, `ctx.log(level, data)` is `ctx.log(message, level=...)`, `ctx.info`/`debug`/"
    "`warning`/`error` take a `str`, `ctx.elicit(schema=)` is `response_type=`, `ctx.read_resource` returns a "
    "`ResourceResult`, prompts returning dicts are refused, `auth`/`token_verifier` become one auth provider; "
    "a failing tool answers `Error calling tool '<name>': <message>` (a `ToolError`: its message alone) where "
    "FastMCP 1.0 sent `Error executing tool <name>: <message>` (measured on mcp 1.27 / fastmcp 4.2.3)",
    **{
        n: f"a fastmcp 2/3 tool returning the SDK's `{n}` sent its repr as text (`<mcp.server.fastmcp.utilities."
        f"types.{n} object at …>`); fastmcp 4's `{n}` is sent as {'an image' if n == 'Image' else 'an audio'} block"
        for n in ("Image", "Audio")
    },
}
SDK1_CONTEXT_PARAM = (
    "`{fn}` (line {line}) can be registered with fastmcp and takes `{param}: Context`: on fastmcp 2/3 the SDK's "
    "`Context` is not injected there, `{param}` is a tool argument (in the inputSchema, None unless a client "
    "passes one); fastmcp 4 injects it and drops it from the schema, and refuses a call that still passes "
    "`{param}` (`Unexpected keyword argument`)"
)


def sdk1_fix(notes: list[str], why: str = "only annotations fastmcp never reads name them") -> FixInfo:
    what = "import the names from fastmcp 4 (fastmcp's “Upgrading from MCP SDK v1”: `from fastmcp import Context`)"
    if not notes:
        return FixInfo(Safety.SAFE, "port", f"{what}; {why}")
    return FixInfo(Safety.UNSAFE, "port", what + "; review: " + "; ".join(notes))


def context_review(analysis: ModuleAnalysis, local: str, kept: set[str]) -> list[str]:
    """What changes when the name ``local`` (the SDK's ``Context``) becomes fastmcp's ``Context``.

    fastmcp reads annotations only of the functions it registers (fastmcp 4.2.3
    ``fastmcp.server.dependencies.transform_context_annotations`` and
    ``fastmcp.utilities.types.find_kwarg_by_type``, run by ``FunctionTool.from_function`` and its
    prompt/resource siblings); a local or return annotation and a parameter of a function only
    called directly are never read. Everything else changes: a parameter of a function that can be
    registered (decorated, referenced other than by a call, a method, or imported by another module)
    is injected; a value use (``isinstance``, a call, a base class), a class attribute annotation
    (pydantic and dataclasses read those), a string annotation and a re-export see another class."""
    from mcpmigrate.names import name_refs
    from mcpmigrate.positions import code_ranges

    found: list[tuple[cst.CSTNode, str]] = []
    by_node = {id(f.node): f for f in analysis.functions}
    parent = analysis.parents.get
    for ref in name_refs(analysis.module, local):
        node = _annotation_or_statement(analysis, ref)
        owner = parent(id(node)) if isinstance(node, cst.Annotation) else None
        if isinstance(owner, cst.Param):
            f = by_node.get(id(parent(id(parent(id(owner))))))
            if f is None or _registrable(analysis, f, kept):
                name = f.name if f is not None else "a function"
                found.append((ref, SDK1_CONTEXT_PARAM.format(fn=name, line="{line}", param=owner.name.value)))
        elif isinstance(owner, cst.AnnAssign):
            if isinstance(parent(id(parent(id(parent(id(owner)))))), cst.ClassDef):  # AnnAssign < line < block < class
                found.append(
                    (
                        ref,
                        f"a class attribute is annotated with `{local}` (line {{line}}): pydantic or dataclasses read it",
                    )
                )
        elif not isinstance(owner, cst.FunctionDef):  # a return annotation is never read
            found.append((ref, f"`{local}` is used as a value (line {{line}}): it is fastmcp's class after the port"))
    for i in analysis.flat.of_types((cst.Annotation,)):
        ann = analysis.flat.order[i]
        strings = [n for n in walk(ann) if isinstance(n, cst.SimpleString) and local in n.value]
        if strings:
            found.append((strings[0], f"a string annotation names `{local}` (line {{line}}): check what it annotates"))
    ranges = code_ranges(analysis.module, [n for n, _ in found]) if found else {}
    notes = [note.format(line=ranges[n].start.line) if n in ranges else note for n, note in found]
    if local in kept:
        notes.append(f"other modules import `{local}` from this one and get fastmcp's class too")
    return list(dict.fromkeys(notes))


def _used_as_value(analysis: ModuleAnalysis, local: str, kept: set[str]) -> bool:
    """``local`` is called, subclassed or otherwise used outside an annotation, or re-exported."""
    from mcpmigrate.names import name_refs

    if local in kept:
        return True
    return any(
        not isinstance(_annotation_or_statement(analysis, ref), cst.Annotation)
        for ref in name_refs(analysis.module, local)
    )


def _annotation_or_statement(analysis: ModuleAnalysis, ref: cst.CSTNode) -> cst.CSTNode | None:
    """The annotation ``ref`` is part of, else the statement it is in."""
    node: cst.CSTNode | None = ref
    while node is not None and not isinstance(
        node, (cst.Annotation, cst.BaseSmallStatement, cst.BaseCompoundStatement)
    ):
        node = analysis.parents.get(id(node))
    return node


def _registrable(analysis: ModuleAnalysis, f, kept: set[str]) -> bool:
    """``f`` can be registered with fastmcp somewhere: decorated, a method, referenced other than
    by a direct call in this module, or (module-level) imported by another module of the project."""
    return bool(
        f.role
        or f.node.decorators
        or f.class_name
        or analysis.references_outside_calls(f)
        or (f.parent is None and f.name in kept)
    )


def plan_sdk1_import(analysis: ModuleAnalysis, node: cst.ImportFrom, line: cst.CSTNode, kept: set[str]) -> FixPlan:
    """The plan for ``from mcp.server.fastmcp[...] import …`` in a project ported to fastmcp 4: the
    names regrouped by their fastmcp 4 home (:class:`ImportMove`, ``as`` kept), safe when no use
    changes what clients see (:func:`context_review`, :data:`SDK1_REVIEW`); manual when a name is
    not one the guide maps."""
    from libcst.helpers import get_full_name_for_node

    assert node.module is not None and not isinstance(node.names, cst.ImportStar)
    mod = get_full_name_for_node(node.module) or ""
    mapped = SDK1_NAMES.get(mod, ())
    site = ImportMove(node, line)
    notes: list[str] = []
    for alias in node.names:
        name = get_full_name_for_node(alias.name) or ""
        if name not in mapped:
            return FixPlan(
                manual=f"`{name}` is not one of the names fastmcp's guide maps ({', '.join(f'`{n}`' for n in SDK1_MOVES)}): "
                "import it from where fastmcp 4 defines it, or rewrite what uses it"
            )
        local = get_full_name_for_node(alias.asname.name) if alias.asname else name
        site.groups.setdefault(SDK1_MOVES[name], []).append(alias)
        if name == "Context":
            notes += context_review(analysis, local or name, kept)
        elif name == "FastMCP" and local is not None and not _used_as_value(analysis, local, kept):
            pass  # only annotations name it: the server object is built (and reviewed) elsewhere
        elif name in SDK1_REVIEW:
            notes.append(SDK1_REVIEW[name])
    if set(site.groups) == {"fastmcp.exceptions"}:
        return FixPlan(fix=sdk1_fix(notes, "the same exception classes, under `fastmcp.exceptions`"), site=site)
    return FixPlan(fix=sdk1_fix(notes), site=site)


# -- the plans the fastmcp 4 port detectors ask for (docs/architecture.md, "How a finding becomes
# a fix"): the fix and its site are decided here, the detector only finds the call.
def plan_as_proxy(node: cst.Call) -> FixPlan:
    """MCP512: ``FastMCP.as_proxy(backend)`` → ``create_proxy(target)`` from ``fastmcp.server``."""
    return FixPlan(
        fix=AS_PROXY, site=CallEdit(node, ("fastmcp.server", "create_proxy"), keywords={"backend": "target"})
    )


def plan_mount(node: cst.Call, swap: bool) -> FixPlan:
    """MCP512: ``mount(prefix, server)`` → ``mount(server, namespace=prefix)`` (``swap``: the
    prefix came first)."""
    return FixPlan(fix=MOUNT, site=CallEdit(node, keywords={"prefix": "namespace"}, swap_first=swap))


_REMOVE_TOOL_CAUGHT = FixInfo(
    Safety.UNSAFE,
    "port",
    "call `local_provider.remove_tool(...)`; it raises `KeyError` for a missing tool where `remove_tool` "
    "raised `NotFoundError`: the `except NotFoundError` around this call no longer catches it — catch `KeyError`",
)


def plan_remove_tool(node: cst.Call, caught: bool) -> FixPlan:
    """MCP512: ``server.remove_tool(name)`` → ``server.local_provider.remove_tool(name)``; unsafe
    when an ``except NotFoundError`` around the call (``caught``) no longer sees a missing tool."""
    site = CallEdit(node, attr_path=("local_provider", "remove_tool"))
    return FixPlan(fix=_REMOVE_TOOL_CAUGHT if caught else REMOVE_TOOL, site=site)


def plan_transform(node: cst.Call) -> FixPlan:
    """MCP512: ``add_tool_transformation(name, config)`` → ``add_transform(ToolTransform({name:
    config}))``; manual unless the call passes exactly the two positionally."""
    args = node.args
    if len(args) == 2 and all(a.keyword is None and not a.star for a in args):
        return FixPlan(fix=TRANSFORM, site=AddTransform(node, args[0].value, args[1].value))
    return FixPlan(manual="call `add_transform(ToolTransform({name: config}))` (`fastmcp.server.transforms`)")


def plan_moved_setting(site: MoveToRun | None, keyword: str, manual: str) -> FixPlan:
    """MCP514's plan for the constructor's transport setting ``keyword``: the move of every such
    setting to ``run()`` (``site``, from :func:`plan_to_run`, shared by them), or ``manual``."""
    return FixPlan(fix=TO_RUN, site=site) if site else FixPlan(manual=manual)


def plan_mcp_error(node: cst.Call, fields: list[cst.Arg] | None = None) -> FixPlan:
    """MCP515: ``McpError(ErrorData(code=…, …))`` (``fields``: the ``ErrorData`` keywords) or
    ``McpError(err)`` (``fields`` None) → ``McpError(code=…, message=…, data=…)``."""
    return FixPlan(fix=MCP_ERROR, site=ErrorKeywords(node, fields) if fields is not None else ErrorKeywords(node))


def plan_await_state(node: cst.Call, sets: bool, parens: bool) -> FixPlan:
    """MCP518: ``ctx.get_state(...)``/``set_state(...)`` awaited (``sets``: ``set_state``, kept
    request-scoped; ``parens``: the await goes in parentheses)."""
    return FixPlan(fix=STATE, site=AwaitState(node, sets, parens))


def plan_import_move(
    node: cst.ImportFrom, line: cst.CSTNode, module: str, moves: dict[str, tuple[str, str]]
) -> FixPlan:
    """MCP511: ``from <module> import …`` whose names fastmcp 4 keeps under the same names in
    other modules (``moves``: name → (new module, name)): the names regrouped by module."""
    assert not isinstance(node.names, cst.ImportStar)
    site = ImportMove(node, line)
    for alias in node.names:
        name = get_full_name_for_node(alias.name) or ""
        target = moves[name][0] if name in moves else module
        site.groups.setdefault(target, []).append(alias)
    return FixPlan(fix=MOVE, site=site)


def as_move(plan: FixPlan) -> FixPlan:
    """MCP511: an import rename (``renames.plan_import``) labelled as fastmcp 4's move."""
    return replace(plan, fix=MOVE) if plan.fix is not None else plan

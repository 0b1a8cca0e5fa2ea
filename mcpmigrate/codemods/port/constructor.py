"""The ``FastMCP(...)`` constructor on mcp 2.x's ``MCPServer`` (MCP503).

mcp 2.3's ``MCPServer.__init__`` (``mcp/server/mcpserver/server.py``) no longer takes the transport
settings — ``host``, ``port``, ``sse_path``, ``message_path``, ``streamable_http_path``,
``json_response``, ``stateless_http``, ``event_store``, ``retry_interval``, ``transport_security`` —
they are keywords of ``run(transport=…)``, ``run_sse_async``/``run_streamable_http_async`` and the
app factories ``sse_app()``/``streamable_http_app()``, each taking only its own transport's (the
stdio transport takes none, and 1.x ignored them there). ``mount_path`` is gone. The positional
order changed (``name, title, description, instructions, …``): a 1.x ``instructions`` passed second
would silently become the title. And an unnamed server reports ``mcp-server`` instead of
``FastMCP``.

The fix passes everything after the name by keyword, names an unnamed server ``"FastMCP"`` (what
clients saw), and moves each transport keyword to every start of this server in the module that
takes it. Manual when a start's transport is not a literal, when the server is started nowhere
in the module while it has transport settings (it is started elsewhere), or when a moved value
reads a name the start cannot see the same way.
"""

from __future__ import annotations

import builtins
import os
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.port import elsewhere, settings_values
from mcpmigrate.codemods.port.renames import module_bindings
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import module_names, name_refs, ref_names, string_value

GUIDE = "Transport-specific parameters moved from MCPServer constructor to run()/app methods"
_SSE, _HTTP = S.SSE_KWARGS, S.HTTP_KWARGS
# What each start of a 2.x MCPServer accepts of the moved keywords.
STARTS = {
    "run_sse_async": _SSE,
    "run_streamable_http_async": _HTTP,
    "sse_app": _SSE - {"port"},
    "streamable_http_app": _HTTP - {"port"},
}
RUN_TRANSPORTS = {"stdio": set(), "sse": _SSE, "streamable-http": _HTTP}
_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))

FIX = FixInfo(
    Safety.SAFE,
    "port",
    "pass the constructor's arguments by keyword and move its transport settings to the server's "
    "run()/app calls that take them (what the server does is unchanged)",
)


@dataclass
class ConstructorPort:
    call: cst.Call
    moved: list[cst.Arg]
    starts: list[tuple[cst.Call, AbstractSet[str]]] = field(default_factory=list)
    add_name: bool = False
    v1: bool = True  # FastMCP(...): its positional arguments after the name become keywords

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        moved_ids = {id(a) for a in self.moved}
        add_name, v1 = self.add_name, self.v1

        def ctor(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(upd, cst.Call) and isinstance(orig, cst.Call)
            args = []
            for i, (o, u) in enumerate(zip(orig.args, upd.args)):
                if id(o) in moved_ids:
                    continue
                if i and u.keyword is None and not u.star and v1:
                    u = u.with_changes(keyword=cst.Name(S.FASTMCP_V1_POSITIONAL[i]), equal=_EQ)
                args.append(u)
            if add_name:
                args.insert(0, cst.Arg(cst.SimpleString('"FastMCP"')))
            return upd.with_changes(args=_commas(args))

        edits.transform(self.call, ctor)
        for start, accepted in self.starts:
            extra = [a for a in self.moved if a.keyword is not None and a.keyword.value in accepted]
            if extra:
                edits.transform(start, adder(extra))


def _commas(args: list[cst.Arg]) -> list[cst.Arg]:
    return [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args]


def adder(extra: list[cst.Arg]):
    def add(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(upd, cst.Call)
        return upd.with_changes(args=_commas([*upd.args, *(a.with_changes(equal=_EQ) for a in extra)]))

    return add


def plan(
    analysis: ModuleAnalysis, call: cst.Call, server: str | None, at_module_level: bool, v1: bool = True
) -> FixPlan | None:
    """The plan for one ``FastMCP(...)`` call, or None when nothing about it changes on 2.x. On a
    2.x ``MCPServer(...)`` call (``v1`` false: a port renamed it) only the transport settings
    move; its positional order is already 2.x's."""
    section = f"read “{GUIDE}” in {S.MIGRATION_GUIDE}"
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if any(a.star for a in call.args):
        return FixPlan(manual=f"the call passes `*args`/`**kwargs`: check none is a transport setting ({section})")
    keywords = {a.keyword.value: a for a in call.args if a.keyword is not None}
    moved = [a for k, a in keywords.items() if k in S.TRANSPORT_KWARGS]
    if v1:
        moved += [a for a in positional[6:8]]  # event_store, retry_interval passed by position
    else:
        positional = positional[:1]
    add_name = v1 and not positional and "name" not in keywords
    if not moved and len(positional) <= 1 and not add_name and not set(keywords) & set(S.REMOVED_KWARGS):
        return None
    if set(keywords) & set(S.REMOVED_KWARGS):
        return FixPlan(manual=f"`mount_path` is gone on mcp 2.x: mounting uses ASGI's root_path ({section})")
    if any(a.keyword is None for a in moved):
        return FixPlan(
            manual=f"`event_store`/`retry_interval` are passed by position: pass them to run() by hand ({section})"
        )
    site = ConstructorPort(call, moved, add_name=add_name, v1=v1)
    if not moved:
        return FixPlan(fix=FIX, site=site)
    if server is None or not at_module_level:
        return FixPlan(
            manual=f"the server is not a module-level name, so its run() calls cannot be followed ({section})"
        )
    bindings = module_bindings(analysis)
    top = module_names(analysis)
    for arg in moved:
        for name in ref_names(arg.value):
            if name.value not in top and name.value not in _BUILTINS or bindings.get(name.value, 0) > 1:
                return FixPlan(
                    manual=f"`{arg.keyword.value}=` reads `{name.value}`, which run() may not see the same way: "  # type: ignore[union-attr]
                    f"pass it to run() by hand ({section})"
                )
    for ref in name_refs(analysis.module, server):
        attr = analysis.parents.get(id(ref))
        if not (isinstance(attr, cst.Attribute) and attr.value is ref):
            continue
        method = attr.attr.value
        start = analysis.parents.get(id(attr))
        if method == "settings":
            if not _write_moved_to_start(analysis, attr, server, {a.keyword.value for a in moved}):  # type: ignore[union-attr]
                return FixPlan(manual=f"`{server}.settings` holds no transport settings on mcp 2.x ({section})")
            continue
        if not (isinstance(start, cst.Call) and start.func is attr):
            continue
        if method == "run":
            transport = transport_of(start)
            if transport not in RUN_TRANSPORTS:
                return FixPlan(manual=f"`{server}.run()` is called with a transport that is not a literal ({section})")
            accepted = RUN_TRANSPORTS[transport]
        elif method in STARTS:
            accepted = STARTS[method]
        else:
            continue
        taken = {a.keyword.value for a in start.args if a.keyword is not None}
        if any(a.star for a in start.args) or taken & {a.keyword.value for a in moved}:  # type: ignore[union-attr]
            return FixPlan(manual=f"a `{server}.{method}()` call already passes a transport setting ({section})")
        site.starts.append((start, accepted))
    if not site.starts:
        passed = ", ".join(f"`{a.keyword.value}=`" for a in moved)  # type: ignore[union-attr]
        found = _starts_in_importers(analysis, server)
        across = elsewhere.plan(analysis, server, site, [shown for shown, _c, _w in found])
        return across or FixPlan(manual=_started_elsewhere(analysis, server, passed, section, found))
    return FixPlan(fix=FIX, site=site)


def _write_moved_to_start(analysis: ModuleAnalysis, settings: cst.Attribute, server: str, moved: set[str]) -> bool:
    """``server.settings.<field> = value`` (``settings``: its ``server.settings``) is a write MCP503
    moves to the start that follows it (:func:`settings_plan`: ``mcp.settings.port = port`` then
    ``mcp.run(transport="streamable-http")`` → ``run(…, port=port)``), of a field the constructor
    does not pass (``moved``: its transport keywords, which go to the same start): the
    constructor's keywords then join that start beside it (the everything-server's
    ``FastMCP(…, event_store=…, retry_interval=100)``)."""
    field_attr = analysis.parents.get(id(settings))
    if not isinstance(field_attr, cst.Attribute) or field_attr.value is not settings or field_attr.attr.value in moved:
        return False
    target = analysis.parents.get(id(field_attr))
    if not (isinstance(target, cst.AssignTarget) and target.target is field_attr):
        return False
    return isinstance(settings_plan(analysis, field_attr, server).site, SettingsToStart)


def _started_elsewhere(
    analysis: ModuleAnalysis, server: str, keywords: str, section: str, found: list[tuple[str, list[str], list[str]]]
) -> str:
    """Why the transport settings of a server this module builds but does not start stay manual,
    naming the modules of the project that import it (by name or ``*``) and start it there, and
    the ``server.settings.…`` fields they write (mcp 2.x's ``Settings`` has no transport field:
    assigning one raises ``ValueError``) — telegram-mcp's runner.py."""
    if not found:
        return f"`{server}` is not started in this module: pass {keywords} to its run() or app call where it is started ({section})"
    starts = "; ".join(f"{shown}: {', '.join(calls)}" for shown, calls, _w in found if calls)
    writes = [w for _s, _c, ws in found for w in ws]
    where = f"but in {starts}" if starts else f"(other modules import it: {', '.join(s for s, _c, _w in found)})"
    if writes:
        host = any(f"`{server}.settings.host`" in w for w in writes)
        return (
            f"`{server}` is not started in this module {where}, which also set{'s' if len(writes) == 1 else ''} "
            f"{', '.join(writes)}: mcp 2.x's `Settings` has no such field (assigning one raises `ValueError`); pass "
            f"those values and {keywords} to the start calls there by hand"
            + (f"{settings_values.HOST_PROTECTION} ({section})" if host else f" ({section})")
        )
    return f"`{server}` is not started in this module {where}: pass {keywords} to the start calls there by hand ({section})"


def _starts_in_importers(analysis: ModuleAnalysis, server: str) -> list[tuple[str, list[str], list[str]]]:
    """For each module of the project that imports ``server`` from this one: its starts of the
    server (``mcp.run_sse_async()` in `_serve` (line 9)``) and its writes of ``server.settings.…``,
    read with ``ast``."""
    import ast

    from mcpmigrate.codemods.imports import importers
    from mcpmigrate.files import project_root, read_regular

    if analysis.path is None:
        return []
    here = Path(os.path.abspath(analysis.path))
    root = project_root(here) or here.parent
    out: list[tuple[str, list[str], list[str]]] = []
    for shown in importers(here, root, server):
        try:
            tree = ast.parse(read_regular(root / shown, 2_000_000))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            continue
        calls: list[str] = []
        writes: list[str] = []
        for where, node in walk_with_function(tree):
            at = f" in `{where}`" if where else " at module level"
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == server
                and (node.func.attr in STARTS or node.func.attr.startswith("run"))
            ):
                calls.append(f"`{server}.{node.func.attr}()`{at} (line {node.lineno})")
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "settings"
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == server
            ):
                writes.append(f"`{server}.settings.{node.attr}`{at} (line {node.lineno})")
        if calls or writes:
            out.append((shown, calls, writes))
    return out


def walk_with_function(tree) -> list[tuple[str, object]]:
    """Every node of ``tree`` with the qualname of the function it is in ("" at module level), in
    source order."""
    import ast

    out: list[tuple[str, object]] = []
    stack: list[tuple[str, ast.AST]] = [("", tree)]
    while stack:
        where, node = stack.pop()
        out.append((where, node))
        inner = where
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = f"{where}.{node.name}" if where else node.name
        stack.extend((inner, child) for child in reversed(list(ast.iter_child_nodes(node))))
    return out


def transport_of(call: cst.Call) -> str | None:
    for i, arg in enumerate(call.args):
        if (arg.keyword is None and i == 0) or (arg.keyword is not None and arg.keyword.value == "transport"):
            return string_value(arg.value)
    return "stdio"


_BUILTINS = frozenset(dir(builtins))


# -- `<server>.settings.<transport setting>` ------------------------------------------------------
# mcp 1.27's FastMCP ``Settings`` held the transport settings; mcp 2.3's ``MCPServer.settings``
# (``mcp/server/mcpserver/server.py``, ``Settings``) has none of them — reading one raises
# ``AttributeError``, writing one ``ValueError: "Settings" object has no field "host"`` (measured
# on 1.27.0 / 2.3.0: the fields 2.3 dropped). The starts that take them as keywords instead:
SETTINGS_GONE = frozenset(
    {
        "host",
        "port",
        "sse_path",
        "message_path",
        "streamable_http_path",
        "json_response",
        "stateless_http",
        "transport_security",
        "mount_path",
    }
)
_SERVING_STARTS = {"run_sse_async": _SSE, "run_streamable_http_async": _HTTP}
SETTINGS_FIX = FixInfo(
    Safety.SAFE,
    "port",
    "pass the setting to the server's start that follows it (`run_sse_async(host=…)`, `run(transport=…, host=…)`): "
    "mcp 1.x read it from `settings` there, mcp 2.x takes it only as that call's keyword",
)


@dataclass
class SettingsToStart:
    """``server.settings.host = value`` … ``await server.run_sse_async()`` → the assignment goes,
    ``run_sse_async(host=value)``."""

    stmt: cst.SimpleStatementLine
    starts: list[cst.Call]  # one, or one per branch of an `if` (telegram-mcp's `_serve`)
    field: str
    value: cst.BaseExpression
    protect: bool = False  # pass 1.x's DNS-rebinding protection too (:func:`.settings_values.kept_protection`)

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        edits.remove(self.stmt)
        for start in self.starts:
            args = [cst.Arg(self.value, keyword=cst.Name(self.field))]
            if self.protect:
                args.append(settings_values.localhost_protection(edits, analysis))
            edits.transform(start, adder(args))


def settings_plan(
    analysis: ModuleAnalysis,
    attr: cst.Attribute,
    server: str,
    protection: Callable[[cst.BaseExpression], bool] | None = None,
) -> FixPlan:
    """The plan for one ``server.settings.<field>`` (``attr``) of a 1.x FastMCP server: a write
    that is its statement's only target, followed in the same block — with no other statement of
    that block in between that rebinds a name its value reads — by the server's one start that takes
    the field (``run_sse_async``, ``run_streamable_http_async``, ``run(transport=<literal>)``),
    moves there; anything else (a read, an app factory, a start elsewhere) is left for a human."""
    section = f"read “{GUIDE}” in {S.MIGRATION_GUIDE}"
    field_name = attr.attr.value
    manual = FixPlan(
        manual=f"`{server}.settings.{field_name}` is gone on mcp 2.x: pass `{field_name}=` to the server's "
        f"`run(transport=…)`, `run_sse_async()`/`run_streamable_http_async()` or app factory call ({section})"
    )
    assign = analysis.parents.get(id(analysis.parents.get(id(attr))))
    stmt = analysis.parents.get(id(assign))
    block = analysis.parents.get(id(stmt))
    if not (
        isinstance(assign, cst.Assign)
        and len(assign.targets) == 1
        and assign.targets[0].target is attr
        and isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(block, (cst.IndentedBlock, cst.Module))
    ):
        built = [v for name, v in analysis.module_assigns if name == server and isinstance(v, cst.Call)]
        read = settings_values.default_read(analysis, attr, server, built[0] if len(built) == 1 else None)
        why = None if read else settings_values.read_back(analysis, attr, server)
        return read or (
            FixPlan(manual=f"`{server}.settings.{field_name}` is gone on mcp 2.x: {why} ({section})") if why else manual
        )
    if field_name == "mount_path":
        return FixPlan(manual=f"`mount_path` is gone on mcp 2.x: mounting uses ASGI's root_path ({section})")
    unread = settings_values.unread_write(analysis, stmt, assign.value, server, field_name)
    if isinstance(unread, FixPlan):
        return unread
    manual = FixPlan(
        manual=f"`{server}.settings.{field_name}` is gone on mcp 2.x: pass `{field_name}=` to the server's "
        f"`run(transport=…)`, `run_sse_async()`/`run_streamable_http_async()` or app factory call; the write "
        f"cannot simply go: {unread} ({section})"
    )
    readers = _setting_readers(analysis, server, field_name)
    if isinstance(readers, str):
        return FixPlan(manual=f"{manual.manual[: -len(section) - 3]}; {readers} ({section})")  # type: ignore[index]
    body = list(block.body)
    after = body[body.index(stmt) + 1 :]
    reads = {n.value for n in ref_names(assign.value)}
    for later in after:
        found = [(c, acc) for c, acc in readers if holds(analysis, later, c)]
        if found:
            if len(found) != len(readers) or not settings_values.exclusive(analysis, later, [c for c, _a in found]):
                return manual
            for start, accepted in found:
                taken = {a.keyword.value for a in start.args if a.keyword is not None}
                if field_name not in accepted or field_name in taken or any(a.star for a in start.args):
                    return manual
            if reads & settings_values.names_outside(analysis, later, [c for c, _a in found]):
                return manual
            guard = (
                protection(assign.value)
                if protection is not None  # the server is built in another module (:mod:`.elsewhere`)
                else settings_values.kept_protection(analysis, server, field_name, assign.value)
            )
            if isinstance(guard, str):
                return FixPlan(manual=f"`{server}.settings.{field_name}` is gone on mcp 2.x, and {guard} ({section})")
            return FixPlan(
                fix=SETTINGS_FIX,
                site=SettingsToStart(stmt, [c for c, _a in found], field_name, assign.value, guard),
            )
        if isinstance(later, cst.SimpleStatementLine) and all(
            isinstance(s, cst.Assign) and _settings_write(s, server) for s in later.body
        ):
            continue  # the next setting's own write
        if reads & {n.value for n in walk(later) if isinstance(n, cst.Name)}:
            return manual
    return manual


def _setting_readers(
    analysis: ModuleAnalysis, server: str, field_name: str
) -> list[tuple[cst.Call, AbstractSet[str]]] | str:
    """The calls of ``server`` that read ``settings.<field_name>`` on mcp 1.27, with what each takes
    on 2.x: ``run_sse_async()``, ``run_streamable_http_async()``, ``run(transport=<HTTP literal>)``;
    an app factory reads every setting but ``host``/``port``. Stdio starts read none. Why not,
    when a call's transport cannot be told."""
    out: list[tuple[cst.Call, AbstractSet[str]]] = []
    for ref in name_refs(analysis.module, server):
        method = analysis.parents.get(id(ref))
        call = analysis.parents.get(id(method))
        if not (isinstance(method, cst.Attribute) and isinstance(call, cst.Call) and call.func is method):
            continue
        name = method.attr.value
        if name == "run":
            transport = transport_of(call)
            if transport not in RUN_TRANSPORTS:
                return f"`{server}.run()` is called with a transport that is not a literal, which may read it"
            if RUN_TRANSPORTS[transport]:
                out.append((call, RUN_TRANSPORTS[transport]))
        elif name in _SERVING_STARTS:
            out.append((call, _SERVING_STARTS[name]))
        elif name in STARTS and field_name not in ("host", "port"):
            out.append((call, frozenset()))  # mcp 1.x's app factory reads it: 2.x's takes it, not moved here
    return out


def _settings_write(assign: cst.Assign, server: str) -> bool:
    t = assign.targets[0].target if len(assign.targets) == 1 else None
    return (
        isinstance(t, cst.Attribute)
        and isinstance(t.value, cst.Attribute)
        and t.value.attr.value == "settings"
        and isinstance(t.value.value, cst.Name)
        and t.value.value.value == server
    )


def holds(analysis: ModuleAnalysis, stmt: cst.CSTNode, node: cst.CSTNode) -> bool:
    p: cst.CSTNode | None = node
    while p is not None:
        if p is stmt:
            return True
        p = analysis.parents.get(id(p))
    return False

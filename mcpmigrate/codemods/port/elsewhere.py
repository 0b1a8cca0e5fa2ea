"""The transport settings of a 1.x FastMCP built in one module and started in another (MCP503,
telegram-mcp: ``mcp = FastMCP("telegram", stateless_http=True)`` in runtime.py; runner.py, after
``from telegram_mcp.runtime import *``, writes ``mcp.settings.host``/``port``, calls a helper that
writes ``mcp.settings.transport_security`` when ``MCP_ALLOWED_HOSTS`` is set, and starts the server
with ``run_streamable_http_async()``/``run_sse_async()``/``run_stdio_async()``).

mcp 2.3's ``Settings`` has none of those fields (writing one raises ``ValueError``): they are
keywords of the starts (``mcp/server/mcpserver/server.py``), and a start given no
``transport_security`` derives the DNS-rebinding protection from its ``host=`` (local hosts only
for 127.0.0.1/localhost/::1, none otherwise), where mcp 1.27's constructor fixed it once from *its*
host (default 127.0.0.1: local hosts only) whatever ``settings.host`` became. The port writes, in
the starting module, as one project step with the constructor's module (all files or none,
:func:`settle`):

- each constructor keyword moves to every start there that takes it (``stateless_http=True`` to
  ``run_streamable_http_async``);
- each ``settings.host``/``port``/… write moves to the starts that follow it (per ``if`` branch:
  :func:`.constructor.settings_plan`), and a ``host`` that is not a local literal takes 1.x's
  protection with it as ``transport_security=``;
- a ``settings.transport_security = TransportSecuritySettings(…)`` that ends a helper of that
  module becomes the helper's ``return``; its one call, a statement before the starts in their
  block, becomes ``transport_security = helper()``, followed by 1.x's constructor protection
  where the helper wrote nothing (``None``), and every HTTP start gets ``transport_security=``.

Anything else keeps MCP503's manual reason (:func:`.constructor._started_elsewhere`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.port import settings_values
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FileError, FixInfo, FixPlan, Safety
from mcpmigrate.names import name_refs, ref_names, string_value
from mcpmigrate.positions import code_ranges

RULE = "MCP503"
LOCAL = "transport_security"  # the starting function's new local: what the helper returns
TSS = ("mcp.server.transport_security", "TransportSecuritySettings")
FIX = FixInfo(
    Safety.SAFE,
    "port",
    "move the constructor's transport settings, and the `settings.…` writes of the module that starts the server, "
    "to that module's start calls; a helper that wrote `settings.transport_security` returns it instead, and the "
    "starts get it, with mcp 1.x's DNS-rebinding protection where it wrote nothing (what the server does is unchanged)",
)


class Refused(Exception):
    """The starting module is not the shape this port writes (the reason, in terms of its code)."""


@dataclass
class Starting:
    """What the port writes in the module that starts the server (read by :func:`shape`)."""

    starts: list[tuple[cst.Call, frozenset[str]]]  # every start of the server, with the keywords it takes
    sites: list[Any]  # the settings writes moved to their starts (`constructor.SettingsToStart`)
    helper: cst.FunctionDef | None = None  # the helper writing settings.transport_security
    write: cst.SimpleStatementLine | None = None  # … its last statement
    call: cst.SimpleStatementLine | None = None  # `helper()`, in the block before the starts
    http: list[cst.Call] = field(default_factory=list)  # the starts that take `transport_security=`

    def record(self, edits: Edits, a: ModuleAnalysis, moved: list[tuple[str, str]]) -> None:
        from mcpmigrate.codemods.port.constructor import adder

        for site in self.sites:
            site.record(edits, a)
        if self.helper is not None and self.write is not None and self.call is not None:
            tss = _imported(a, edits)
            assign = self.write.body[0]
            assert isinstance(assign, cst.Assign)
            edits.replace(self.write, self.write.with_changes(body=[cst.Return(assign.value)]))
            if self.helper.returns is not None:  # `-> None`: it returns the protection now, or None
                returns = cst.Annotation(cst.parse_expression(f"{tss} | None"))
                edits.transform(self.helper, lambda o, u: u.with_changes(returns=returns))
            call = self.call
            called = call.body[0]
            assert isinstance(called, cst.Expr)
            kept = cst.Assign([cst.AssignTarget(cst.Name(LOCAL))], called.value)
            edits.insert_before(call, [call.with_changes(body=[kept])])
            default = cst.Module([]).code_for_node(settings_values.localhost_protection(edits, a, tss).value)
            check = cst.parse_statement(f"if {LOCAL} is None:\n    {LOCAL} = {default}\n")
            edits.replace(call, check)
            for start in self.http:
                edits.transform(start, adder([cst.Arg(cst.Name(LOCAL), keyword=cst.Name("transport_security"))]))
        for start, accepted in self.starts:
            extra = [cst.Arg(cst.parse_expression(code), keyword=cst.Name(k)) for k, code in moved if k in accepted]
            if extra:
                edits.transform(start, adder(extra))


def _imported(a: ModuleAnalysis, edits: Edits) -> str:
    """The module-level name ``TransportSecuritySettings`` is imported as: its own name where the
    module binds that name only by importing the same class (the helper's own local import),
    else :meth:`Edits.import_name`'s."""
    bound = [n for n in walk(a.module) if isinstance(n, cst.Name) and n.value == TSS[1]]
    imports = [
        n
        for n in walk(a.module)
        if isinstance(n, cst.ImportFrom)
        and not n.relative
        and get_full_name_for_node(n.module) == TSS[0]  # type: ignore[arg-type]
        and not isinstance(n.names, cst.ImportStar)
        and any(get_full_name_for_node(x.name) == TSS[1] and x.asname is None for x in n.names)
    ]
    spelled = {id(x.name) for n in imports for x in n.names if not isinstance(n.names, cst.ImportStar)}  # type: ignore[union-attr]
    others = [n for n in bound if id(n) not in spelled]
    if imports and all(_reads(a, n) for n in others):
        edits.add_import(*TSS)
        return TSS[1]
    return edits.import_name(a, *TSS)


def _reads(a: ModuleAnalysis, name: cst.Name) -> bool:
    """``name`` is read (a call, an argument), not bound (a target, a parameter, a def)."""
    parent = a.parents.get(id(name))
    return not isinstance(parent, (cst.AssignTarget, cst.Param, cst.FunctionDef, cst.ClassDef, cst.AsName))


def shape(a: ModuleAnalysis, server: str, moved: list[tuple[str, str]], protect: bool) -> Starting:
    """The starting module's rewrite, or :class:`Refused`. ``moved``: the constructor's transport
    keywords (name, code); ``protect``: the constructor gave 1.x's default protection (no ``host``,
    no ``transport_security``)."""
    from mcpmigrate.codemods.port.constructor import RUN_TRANSPORTS, STARTS, settings_plan, transport_of

    starts: list[tuple[cst.Call, frozenset[str]]] = []
    writes: list[cst.Attribute] = []
    bound = (cst.AssignTarget, cst.AnnAssign, cst.Param, cst.For, cst.AsName, cst.FunctionDef, cst.ClassDef)
    if any(
        isinstance(n, cst.Name) and n.value == server and isinstance(a.parents.get(id(n)), bound)
        for n in walk(a.module)
    ):
        raise Refused(f"`{server}` is bound there to something else too")
    for ref in name_refs(a.module, server):
        attr = a.parents.get(id(ref))
        if not (isinstance(attr, cst.Attribute) and attr.value is ref):
            continue
        use = a.parents.get(id(attr))
        if attr.attr.value == "settings":
            target = a.parents.get(id(use))
            if not (isinstance(use, cst.Attribute) and isinstance(target, cst.AssignTarget) and target.target is use):
                raise Refused(f"`{server}.settings` is read there")
            writes.append(use)
            continue
        if not (isinstance(use, cst.Call) and use.func is attr):
            continue
        method = attr.attr.value
        if method == "run":
            transport = transport_of(use)
            if transport not in RUN_TRANSPORTS:
                raise Refused(f"`{server}.run()` is called with a transport that is not a literal there")
            accepted = frozenset(RUN_TRANSPORTS[transport])
        elif method in STARTS:
            accepted = frozenset(STARTS[method])
        elif method == "run_stdio_async":
            accepted = frozenset()
        else:
            continue
        if any(arg.star or (arg.keyword is not None and arg.keyword.value in S.TRANSPORT_KWARGS) for arg in use.args):
            raise Refused(f"`{server}.{method}()` already passes a transport setting there")
        starts.append((use, accepted))
    if not starts:
        raise Refused(f"`{server}` is not started there")
    at = code_ranges(a.module, writes)
    writes.sort(key=lambda w: (at[w].start.line, at[w].start.column))  # moved in the order they were written
    names = {k for k, _code in moved}
    helper_write = [w for w in writes if w.attr.value == "transport_security" and not _in_start_function(a, w, starts)]
    out = Starting(starts, [])
    if helper_write:
        if len(helper_write) != 1 or not protect or "host" in names:
            raise Refused("the constructor sets the host or the DNS-rebinding protection the helper replaces")
        _helper(a, out, helper_write[0])
    for w in writes:
        if w.attr.value in names:
            raise Refused(f"`{server}.settings.{w.attr.value}` is written there and passed to the constructor")
        if w in helper_write:
            continue

        def guard(value: cst.BaseExpression, field_name: str = w.attr.value) -> bool:
            return (
                protect
                and not helper_write
                and field_name == "host"
                and string_value(value) not in settings_values.LOCAL_HOSTS
            )

        planned = settings_plan(a, w, server, protection=guard)
        if planned.fix is None:
            raise Refused(planned.manual or "")
        out.sites.append(planned.site)
    return out


def _in_start_function(a: ModuleAnalysis, node: cst.CSTNode, starts: list[tuple[cst.Call, frozenset[str]]]) -> bool:
    fn = a.enclosing_function(node)
    return fn is not None and any(a.enclosing_function(c) is fn for c, _acc in starts)


def _helper(a: ModuleAnalysis, out: Starting, write: cst.Attribute) -> None:
    """``def helper(): …; server.settings.transport_security = TransportSecuritySettings(…)`` and
    its one call, checked and recorded on ``out`` (or :class:`Refused`)."""
    fn = a.enclosing_function(write)
    target = a.parents.get(id(write))
    assign = a.parents.get(id(target))
    stmt = a.parents.get(id(assign))
    if fn is None or not isinstance(fn.node, cst.FunctionDef) or fn.node not in a.module.body:
        raise Refused("`settings.transport_security` is written outside a module-level function")
    helper = fn.node
    name = helper.name.value
    if not (
        isinstance(helper.body, cst.IndentedBlock)
        and helper.body.body
        and helper.body.body[-1] is stmt
        and isinstance(assign, cst.Assign)
        and len(assign.targets) == 1
        and isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
    ):
        raise Refused(f"`{name}` does not end with its write of `settings.transport_security`")
    value = assign.value
    if not (isinstance(value, cst.Call) and a.qualname(value.func) == ".".join(TSS)):
        raise Refused(f"`{name}` writes `settings.transport_security` with something else than a `{TSS[1]}(…)` call")
    if any(isinstance(n, cst.Return) and n.value is not None for n in walk(helper.body)):
        raise Refused(f"`{name}` returns a value")
    if helper.returns is not None and get_full_name_for_node(helper.returns.annotation) != "None":
        raise Refused(f"`{name}` is annotated to return something")
    if helper.params.params or helper.params.star_arg is not cst.MaybeSentinel.DEFAULT or helper.params.kwonly_params:
        raise Refused(f"`{name}` takes parameters")
    refs = [n for n in name_refs(a.module, name)]
    calls = [
        a.parents.get(id(a.parents.get(id(r))))
        for r in refs
        if isinstance(a.parents.get(id(r)), cst.Call) and a.parents.get(id(r)).func is r  # type: ignore[union-attr]
    ]
    if len(refs) != 1 or len(calls) != 1 or not isinstance(calls[0], cst.Expr):
        raise Refused(f"`{name}` is not called just once, as a statement")
    stmt_call = a.parents.get(id(calls[0]))
    block = a.parents.get(id(stmt_call))
    if not (
        isinstance(stmt_call, cst.SimpleStatementLine)
        and len(stmt_call.body) == 1
        and isinstance(block, cst.IndentedBlock)
    ):
        raise Refused(f"`{name}()` is not a statement of its own")
    out.helper, out.write, out.call = helper, stmt, stmt_call
    from mcpmigrate.codemods.port.constructor import holds

    later = list(block.body)[list(block.body).index(stmt_call) + 1 :]
    http = [c for c, acc in out.starts if "transport_security" in acc]
    if not http or not all(any(holds(a, s, c) for s in later) for c in http):
        raise Refused(f"the starts that read `settings.transport_security` do not all follow `{name}()` in its block")
    caller = a.enclosing_function(stmt_call)
    if caller is None or any(isinstance(n, cst.Name) and n.value == LOCAL for n in walk(caller.node)):
        raise Refused(f"`{LOCAL}` is a name the starting function uses already")
    out.http = http


# -- the plan, in the constructor's module ---------------------------------------------------------
@dataclass
class ElsewherePort:
    """The constructor's rewrite here (:class:`.constructor.ConstructorPort`, no start in this
    module) and what the project step writes in the module that starts the server."""

    ctor: Any
    needs: dict[str, Any]

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        self.ctor.record(edits, analysis)

    def project_needs(self) -> list[dict[str, Any]]:
        return [self.needs]


def plan(analysis: ModuleAnalysis, server: str, ctor: Any, starting: list[str]) -> FixPlan | None:
    """The fix when the one module of the project that starts ``server`` (``starting``: the
    modules :func:`.constructor._starts_in_importers` found) is the shape :func:`shape` writes;
    None otherwise (MCP503 keeps its manual reason)."""
    from mcpmigrate.files import project_root, read_regular

    if len(starting) != 1 or analysis.path is None:
        return None
    moved = []
    for arg in ctor.moved:
        if arg.keyword is None or any(n.value not in ("True", "False", "None") for n in ref_names(arg.value)):
            return None  # a value reading a name of this module
        moved.append((arg.keyword.value, cst.Module([]).code_for_node(arg.value)))
    here = Path(os.path.abspath(analysis.path))
    path = (project_root(here) or here.parent) / starting[0]
    try:
        module = cst.parse_module(read_regular(path, 2_000_000))
        shape(ModuleAnalysis.build(module, None, path), server, moved, _protect(moved))
    except (OSError, ValueError, cst.ParserSyntaxError, Refused, RecursionError):
        return None
    needs = {"path": str(Path(os.path.abspath(path))), "shown": starting[0], "server": server, "moved": moved}
    return FixPlan(fix=FIX, site=ElsewherePort(ctor, needs))


def _protect(moved: list[tuple[str, str]]) -> bool:
    """mcp 1.27's constructor fixed the local-hosts protection: it was given neither ``host`` nor
    ``transport_security`` (its default host is 127.0.0.1)."""
    return not {k for k, _code in moved} & {"host", "transport_security"}


# -- the project step (:func:`.project.settle`) -----------------------------------------------------
def settle(results: list, paths: dict[str, Path], sources: dict[Path, bytes], target: str) -> list[FileError]:
    """Write each starting module a fixed MCP503 constructor needs, on its text as the run left it;
    one error per module that cannot be written so (then the port writes nothing)."""
    from mcpmigrate.codemods.edits import apply_edits
    from mcpmigrate.codemods.style import style_for, wrap_long_lines

    by_path = {os.path.abspath(p): d for d, p in paths.items()}
    by_display = {r.display: r for r in results}
    errors: list[FileError] = []
    for res in results:
        for f in res.fixed:
            if f.rule != RULE or f.fix is None or f.fix.description != FIX.description:
                continue
            for d in f.project_needs:
                other = by_display.get(by_path.get(d["path"], ""))
                why = None if other is not None else "this run does not check that module: name it too"
                if other is not None:
                    source = other.new_source if other.new_source is not None else sources.get(Path(d["path"]))
                    try:
                        module = cst.parse_module(source or b"")
                        a = ModuleAnalysis.build(module, None, Path(d["path"]))
                        starting = shape(a, d["server"], [tuple(m) for m in d["moved"]], _protect(d["moved"]))
                        edits = Edits()
                        starting.record(edits, a, d["moved"])
                        edits.finish()
                        style = style_for(Path(d["path"]))
                        new = wrap_long_lines(module, apply_edits(module, edits, style), style).code.encode(
                            module.encoding
                        )
                        compile(new, d["path"], "exec")
                    except (Refused, cst.ParserSyntaxError, SyntaxError, ValueError) as exc:
                        why = str(exc) or type(exc).__name__
                    else:
                        if other.new_source is None:
                            other.original = source
                            other.checked = list(other.findings)
                        other.new_source = new
                if why is not None:
                    errors.append(
                        FileError(
                            res.display,
                            f"blocks the port to {target}: `{d['server']}` is started in {d['shown']}, where its "
                            f"transport settings cannot be moved to the starts: {why}; nothing was written",
                        )
                    )
    return errors

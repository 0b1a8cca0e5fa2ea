"""``server.settings.<transport setting>`` of a 1.x FastMCP server whose value no start of the server
reads (MCP503), measured on mcp 1.27.0 / 2.3.0 (duckduckgo-mcp-server's ``main``):

- mcp 1.27 reads ``settings.host`` and ``settings.port`` only in ``run_sse_async()`` and
  ``run_streamable_http_async()`` (what ``run(transport="sse"|"streamable-http")`` calls), for
  uvicorn's bind address. ``sse_app()`` and ``streamable_http_app()`` never read them: the
  DNS-rebinding protection they apply was fixed by the constructor from *its* ``host``. So a write
  of ``host``/``port`` in a module that only builds the apps (and serves them with its own
  ``uvicorn.run(app, host=host, port=port)``) reaches nothing, and on mcp 2.x it goes: the 2.x
  app factories' default ``host="127.0.0.1"`` gives the protection a 1.x constructor without
  ``host`` gave (a 1.x constructor ``host=`` moves to them as its own finding).
- ``settings.sse_path``, ``message_path`` and ``streamable_http_path`` read where nothing in the
  project writes them and the constructor does not pass them hold 1.x's defaults, which are 2.x's
  defaults too: the read becomes that literal.

Anything else stays with :func:`.constructor.settings_plan`.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import name_refs
from mcpmigrate.positions import code_ranges

DEFAULTS = {"sse_path": "/sse", "message_path": "/messages/", "streamable_http_path": "/mcp"}
_READ_BY_STARTS = {"run_sse_async", "run_streamable_http_async"}  # 1.27: the only readers of host/port

UNREAD_FIX = FixInfo(
    Safety.SAFE,
    "port",
    "delete the write: on mcp 1.x only `run_sse_async()`/`run_streamable_http_async()` (and `run()` over HTTP) read "
    "`settings.host`/`settings.port`, and this server is started by none of them; its app factories ignored it",
)
DEFAULT_FIX = FixInfo(
    Safety.SAFE,
    "port",
    "read the value the setting holds: nothing writes it and the constructor does not pass it, so it is mcp 1.x's "
    "default, which mcp 2.x's start and app factories use too",
)


@dataclass
class DropWrite:
    stmt: cst.SimpleStatementLine

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        edits.remove(self.stmt)


@dataclass
class DefaultRead:
    read: cst.Attribute
    value: str
    quote: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        hole = analysis.parents.get(id(self.read))
        if (
            isinstance(hole, cst.FormattedStringExpression)
            and hole.expression is self.read
            and hole.conversion is None
            and hole.format_spec is None
        ):  # f"…{port}{mcp.settings.sse_path}" → f"…{port}/sse"
            edits.replace(hole, cst.FormattedStringText(self.value))
        else:
            edits.replace(self.read, cst.SimpleString(f"{self.quote}{self.value}{self.quote}"))


def _quote(analysis: ModuleAnalysis, node: cst.CSTNode) -> str | None:
    """The quote a literal at ``node`` can use: one no enclosing f-string opens with (before Python
    3.12 an f-string's expression cannot hold its own quote), or None when they use both."""
    used: set[str] = set()
    p = analysis.parents.get(id(node))
    while p is not None:
        if isinstance(p, cst.FormattedString):
            used |= {q for q in "\"'" if q in p.start}
        p = analysis.parents.get(id(p))
    free = [q for q in "\"'" if q not in used]
    return free[0] if free else None


def unread_write(
    analysis: ModuleAnalysis, stmt: cst.SimpleStatementLine, value: cst.BaseExpression, server: str, field: str
) -> FixPlan | str:
    """The fix deleting ``server.settings.host|port = value`` (``stmt``) when no start of the server
    reads it, or why it may be read (a text for the manual reason)."""
    if field not in ("host", "port"):
        return f"mcp 1.x's app factories read `settings.{field}`"
    if any(not isinstance(n, (cst.Name, cst.Attribute, cst.SimpleString, cst.Integer)) for n in _parts(value)):
        return "its value is computed here (deleting the write would skip that)"
    reasons: list[tuple[int, str]] = []  # (rank, reason): a read-back is the plainest
    for ref in name_refs(analysis.module, server):
        attr = analysis.parents.get(id(ref))
        if isinstance(attr, cst.AssignTarget) and attr.target is ref:
            continue  # the server's own binding (the detector saw it is built here, once)
        if not (isinstance(attr, cst.Attribute) and attr.value is ref):
            reasons.append((2, f"`{server}` is used as a value at line {_line(analysis, ref)}"))
            continue
        method, line = attr.attr.value, _line(analysis, attr)
        use = analysis.parents.get(id(attr))
        if method == "settings" and not isinstance(use, cst.Attribute):
            reasons.append((1, f"`{server}.settings` is used whole at line {line}"))
        elif (
            method == "settings"
            and isinstance(use, cst.Attribute)
            and use.attr.value == field
            and not _written(analysis, use)
        ):
            reasons.append((0, f"`{server}.settings.{field}` is read back at line {line}"))
        elif method in _READ_BY_STARTS:
            reasons.append((3, f"`{server}.{method}()` at line {line} reads it"))
        elif method == "run" and _transport_read(analysis, attr):
            reasons.append((3, f"`{server}.run()` at line {line} may serve HTTP, where mcp 1.x reads it"))
    if reasons:
        return min(reasons)[1]
    elsewhere = uses_elsewhere(analysis, server)
    if elsewhere:
        return f"{elsewhere} may read it"
    return FixPlan(fix=UNREAD_FIX, site=DropWrite(stmt))


def default_read(analysis: ModuleAnalysis, attr: cst.Attribute, server: str, ctor: cst.Call | None) -> FixPlan | None:
    """The fix for a read of ``server.settings.<path field>`` that holds its default, or None."""
    field = attr.attr.value
    if field not in DEFAULTS or ctor is None or _written(analysis, attr):
        return None
    if any(a.star or (a.keyword is not None and a.keyword.value == field) for a in ctor.args):
        return None
    if sum(1 for a in ctor.args if a.keyword is None) > 1:
        return None  # positional settings of 1.x's constructor: left to its own finding
    for ref in name_refs(analysis.module, server):
        use = analysis.parents.get(id(ref))
        if isinstance(use, cst.Attribute) and use.attr.value == "settings":
            inner = analysis.parents.get(id(use))
            if not isinstance(inner, cst.Attribute) or (inner.attr.value == field and _written(analysis, inner)):
                return None
    quote = _quote(analysis, attr)
    if quote is None or uses_elsewhere(analysis, server, settings_only=True):
        return None
    return FixPlan(fix=DEFAULT_FIX, site=DefaultRead(attr, DEFAULTS[field], quote))


def read_back(analysis: ModuleAnalysis, attr: cst.Attribute, server: str) -> str | None:
    """Why a read of ``server.settings.<field>`` that this module also writes stays manual, naming
    the writes (code-index-mcp's ``uvicorn.Config(host=mcp.settings.host, …)``), or None."""
    field = attr.attr.value
    lines = []
    for ref in name_refs(analysis.module, server):
        use = analysis.parents.get(id(ref))
        inner = analysis.parents.get(id(use))
        if (
            isinstance(use, cst.Attribute)
            and use.attr.value == "settings"
            and isinstance(inner, cst.Attribute)
            and inner.attr.value == field
            and _written(analysis, inner)
        ):
            lines.append(str(_line(analysis, inner)))
    if not lines:
        return None
    return (
        f"this read gets what line{'s' if len(lines) > 1 else ''} {', '.join(lines)} wrote (where no write ran, the "
        f"constructor's value): mcp 2.x's `MCPServer` keeps no such setting, so hold the value in a variable where it is "
        f"written and read that"
    )


def _written(analysis: ModuleAnalysis, attr: cst.Attribute) -> bool:
    parent = analysis.parents.get(id(attr))
    return isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del))


def _transport_read(analysis: ModuleAnalysis, attr: cst.Attribute) -> bool:
    """``server.run(...)`` that serves HTTP (or a transport that is not the literal "stdio")."""
    from mcpmigrate.codemods.port.constructor import transport_of

    call = analysis.parents.get(id(attr))
    return not (isinstance(call, cst.Call) and call.func is attr and transport_of(call) == "stdio")


def _parts(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The expression nodes of ``node`` (itself included), for the side-effect test."""
    out: list[cst.CSTNode] = [node]
    if isinstance(node, cst.Attribute):
        out += _parts(node.value)
    return out


def _line(analysis: ModuleAnalysis, node: cst.CSTNode) -> int:
    return code_ranges(analysis.module, [node])[node].start.line


def uses_elsewhere(analysis: ModuleAnalysis, server: str, settings_only: bool = False) -> str:
    """The first use, in another module of the project that imports ``server`` from this one, of
    its ``settings`` or (unless ``settings_only``) of a start or app factory, read with ``ast``:
    ``"`mcp.settings` in app/cli.py (line 9)"``, or ""."""
    from mcpmigrate.codemods.imports import importers
    from mcpmigrate.codemods.port.constructor import STARTS, walk_with_function
    from mcpmigrate.files import project_root, read_regular

    if analysis.path is None:
        return ""
    here = Path(os.path.abspath(analysis.path))
    root = project_root(here) or here.parent
    for shown in importers(here, root, server):
        try:
            tree = ast.parse(read_regular(root / shown, 2_000_000))
        except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
            return f"{shown}, which cannot be read,"
        for _where, node in walk_with_function(tree):
            if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == server):
                continue
            if node.attr == "settings" or (not settings_only and (node.attr in STARTS or node.attr.startswith("run"))):
                return f"`{server}.{node.attr}` in {shown} (line {node.lineno})"
    return ""


# -- a `host` write moved to a start: the DNS-rebinding protection it did not change on 1.x ------
# mcp 1.27's constructor fixes ``settings.transport_security`` once, from its own ``host`` (default
# "127.0.0.1": protection allowing only local Host headers); a later ``settings.host = "0.0.0.0"``
# changes uvicorn's bind address, not that protection (a foreign Host header still gets 421). mcp
# 2.3's starts compute it from the ``host=`` they are given (none for "0.0.0.0": the same request
# gets 200). Measured on both with a Starlette test client.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
HOST_PROTECTION = (
    ", and keep the DNS-rebinding protection: mcp 1.x's constructor fixed it for its own host (127.0.0.1 "
    "unless given) whatever `settings.host` became, while mcp 2.x's start derives it from `host=` (none for "
    "0.0.0.0), so pass `transport_security=` with `host=`"
)
_ALLOWED_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
_ALLOWED_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


def kept_protection(analysis: ModuleAnalysis, server: str, field: str, value: cst.BaseExpression) -> bool | str:
    """Whether moving ``server.settings.<field> = value`` to a start must also pass 1.x's
    localhost protection (True), need not (False), or why it cannot be told (a manual reason)."""
    from mcpmigrate.names import string_value

    if field != "host" or string_value(value) in LOCAL_HOSTS:
        return False  # 2.x computes the same protection from a local literal
    built = [v for name, v in analysis.module_assigns if name == server and isinstance(v, cst.Call)]
    if len(built) != 1 or any(
        a.star or (a.keyword is not None and a.keyword.value in ("host", "transport_security")) for a in built[0].args
    ):
        return (
            f"the constructor of `{server}` sets the host or the DNS-rebinding protection mcp 1.x kept while "
            f"`settings.host` changed: pass `host=` and `transport_security=` by hand"
        )
    for ref in name_refs(analysis.module, server):
        use = analysis.parents.get(id(ref))
        inner = analysis.parents.get(id(use))
        if isinstance(inner, cst.Attribute) and inner.attr.value == "transport_security":
            return (
                f"`{server}.settings.transport_security` at line {_line(analysis, inner)} sets the DNS-rebinding "
                f"protection that mcp 2.x's start computes from `host=`: pass both by hand"
            )
    return True  # (a 1.x start takes no `transport_security`)


def localhost_protection(edits: Edits, analysis: ModuleAnalysis, local: str | None = None) -> cst.Arg:
    """``transport_security=TransportSecuritySettings(...)``: what mcp 1.27's constructor set for its
    default host, allowing only local Host headers and origins (``local``: the name the class is
    imported as, when the caller imported it)."""
    local = local or edits.import_name(analysis, "mcp.server.transport_security", "TransportSecuritySettings")

    def strings(values: list[str]) -> cst.List:
        return cst.List([cst.Element(cst.SimpleString(f'"{v}"')) for v in values])

    eq = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
    value = cst.Call(
        cst.Name(local),
        [
            cst.Arg(cst.Name("True"), keyword=cst.Name("enable_dns_rebinding_protection"), equal=eq),
            cst.Arg(strings(_ALLOWED_HOSTS), keyword=cst.Name("allowed_hosts"), equal=eq),
            cst.Arg(strings(_ALLOWED_ORIGINS), keyword=cst.Name("allowed_origins"), equal=eq),
        ],
    )
    return cst.Arg(value, keyword=cst.Name("transport_security"))


def exclusive(analysis: ModuleAnalysis, stmt: cst.CSTNode, calls: list[cst.Call]) -> bool:
    """At most one of ``calls`` (all inside ``stmt``) runs each time ``stmt`` does: one call, or
    each in a different branch of ``stmt``, an ``if``/``elif``/``else`` chain (so a moved value is
    evaluated once, as the write evaluated it)."""
    if len(calls) == 1:
        return True
    if not isinstance(stmt, cst.If):
        return False
    branches: list[cst.CSTNode] = []
    at: cst.CSTNode | None = stmt
    while isinstance(at, cst.If):
        branches.append(at.body)
        at = at.orelse.body if isinstance(at.orelse, cst.Else) else at.orelse
    if at is not None:
        branches.append(at)
    seen: set[int] = set()
    for call in calls:
        p: cst.CSTNode | None = call
        while p is not None and not any(p is b for b in branches):
            p = analysis.parents.get(id(p))
        if p is None or id(p) in seen:
            return False
        seen.add(id(p))
    return True


def names_outside(analysis: ModuleAnalysis, stmt: cst.CSTNode, calls: list[cst.Call]) -> set[str]:
    """The names ``stmt`` spells outside ``calls`` (a moved value must not read one it may rebind)."""
    from mcpmigrate.fastwalk import walk

    inside = {id(n) for c in calls for n in walk(c)}
    return {n.value for n in walk(stmt) if isinstance(n, cst.Name) and id(n) not in inside}

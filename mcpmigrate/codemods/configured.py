"""The ``config`` fix of MCP101: the folders a server may work in come from its configuration, an
environment variable the operator sets, instead of the client's roots.

Spec: 2026-07-28 deprecates roots (SEP-2577) and names three migrations — "pass directories or
files via tool parameters, resource URIs, or server configuration" (``changelog.mdx``,
"Deprecated" 1; ``deprecated.mdx``, the Roots row). Where the roots are an access boundary (a file
allow-list, an edit sandbox: ``param.chains.bounds_access``; or the answer stored on an object of a
class another module defines, whose checks this module cannot see: ``param.chains.stored_outside``),
a tool parameter would let the caller
choose the boundary; the setting keeps it with whoever runs the server. It is the fix of such a
site under the default strategy, and of every roots request under ``fix --strategy config``.

The rewrite, per module (shapes in field cases roots-19/roots-20, ``tests/test_fences.py``):

- a module-level ``<NAME>_ROOTS = os.environ.get("<NAME>_ROOTS")`` (``<NAME>`` from the server's
  name: ``FastMCP("library")`` → ``LIBRARY_ROOTS``, else ``MCP_ROOTS``), read once at start, and a
  helper ``_configured_roots()`` that answers as the client did — a ``ListRootsResult`` of the
  absolute paths the setting lists (joined with ``os.pathsep``; other entries are ignored), and,
  when the setting is unset, the error a client without roots gave (so the fence stays closed and a
  fallback around the request is taken as before);
- each roots request ``await <session>.list_roots()`` becomes ``_configured_roots()`` (fastmcp's
  ``await ctx.list_roots()``, a list of roots, ``_configured_roots().roots``). Nothing else moves:
  a cache of the answer now caches the configured folders. On mcp 2.x, which serves both eras,
  while the project serves legacy clients the request stays for them: ``await
  ctx.session.list_roots() if ctx.session.can_send_request else _configured_roots()``; so on
  fastmcp 4 (pinned or ported in this run), whose ``ctx.session`` is that session (fastmcp 3's
  ``ctx.list_roots()`` kept as ``(await ctx.session.list_roots()).roots``).

Safe only where no client that works today stops working and no fence widens: on mcp 2.x and fastmcp 4 (legacy
connections keep their client's roots; 2026-07-28 ones failed before and now read the setting, or
fail as before when it is unset), and wherever the project declares it serves no legacy clients
(``legacy-clients = false``). Otherwise — mcp 1.x and fastmcp 2/3 servers, whose clients are all
legacy clients that now need the setting — unsafe, the review note naming what the operator must
set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, Kind, ModuleAnalysis, code_of
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.interim.refusals import code_generation, project_pins
from mcpmigrate.codemods.param.chains import closure, fence_of
from mcpmigrate.codemods.param.fallbacks import catching_handler
from mcpmigrate.codemods.param.parameter import like
from mcpmigrate.codemods.param.sites import request_await
from mcpmigrate.codemods.stdlib_logging import module_name
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.positions import code_ranges

STRATEGY = "config"
RULES = ("MCP101",)

HELPER_NAMES = ("_configured_roots", "_roots_from_settings", "_mcp_configured_roots")
_SERVERS = S.HIGH_LEVEL_SERVERS | S.LOWLEVEL_SERVERS


@dataclass(frozen=True)
class Setting:
    """The module's setting: ``env`` the environment variable, ``const`` the module-level name
    holding its value, ``helper`` the function that answers with the configured roots."""

    env: str
    const: str
    helper: str


def setting(a: ModuleAnalysis) -> Setting | None:
    """The setting of ``a``'s module (the same answer at planning and when editing), or None when
    no free names are left for it."""

    def compute() -> Setting | None:
        env = f"{_server_name(a) or 'MCP'}_ROOTS"
        used = set(a.name_counts) | {n for n, _v in a.module_assigns}
        helper = next((n for n in HELPER_NAMES if n not in used), None)
        if env in used or helper is None:
            return None
        return Setting(env, env, helper)

    return a.memo("configured.setting", compute)


def _server_name(a: ModuleAnalysis) -> str | None:
    """``LIBRARY`` for a module-level ``FastMCP("library")`` (any SDK server class, first string
    argument or ``name=``), upper-cased with other characters as ``_``."""
    for stmt in a.module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            value = small.value if isinstance(small, (cst.Assign, cst.AnnAssign)) else None
            if not (isinstance(value, cst.Call) and a.qualname(value.func) in _SERVERS):
                continue
            for arg in value.args:
                if arg.keyword is None or arg.keyword.value == "name":
                    name = arg.value.evaluated_value if isinstance(arg.value, cst.SimpleString) else None
                    if isinstance(name, str):
                        word = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").upper()
                        return word if word and not word[0].isdigit() else None
                    break
    return None


@dataclass(eq=False)
class FromSetting:
    """One roots request (``aw``, the awaited call) answered from the setting; ``listing`` true
    when the request answered a ``ListRootsResult`` (the SDK session), false for a list of roots
    (fastmcp's context). ``session``: on mcp 2.x, the session whose ``can_send_request`` (true
    exactly on a legacy connection, which has a back channel) keeps the request there."""

    aw: cst.Await
    listing: bool
    setting: Setting
    session: str | None = None
    legacy: str | None = None  # the request as legacy connections keep making it (with ``session``)

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        s = self.setting
        call = f"{s.helper}()" if self.listing else f"{s.helper}().roots"
        if self.session is not None:
            call = f"{self.legacy or code_of(self.aw)} if {self.session}.can_send_request else {call}"
            parent = analysis.parents.get(id(self.aw))
            if not (isinstance(parent, (cst.Assign, cst.AnnAssign, cst.Return)) and parent.value is self.aw):
                call = f"({call})"  # `await x or y` must not become `… if … else z or y`
        edits.replace(self.aw, like(self.aw, cst.parse_expression(call)))
        asked = edits.shared("configured.asked", list, lambda nodes: _add_helper(edits, analysis, s, nodes))
        asked.append(self.aw)


def _add_helper(edits: Edits, a: ModuleAnalysis, s: Setting, asked: list[cst.CSTNode]) -> None:
    """The setting and its helper, before the first top-level statement holding one of ``asked``
    (the requests rewritten this round)."""
    os_name, import_os = module_name(a, "os")
    if import_os:
        edits.add_import("os", None, os_name)
    result = edits.import_name(a, "mcp.types", "ListRootsResult")
    root = edits.import_name(a, "mcp.types", "Root")
    path = edits.import_name(a, "pathlib", "Path")
    unset = f'"{s.env} is not set: set it to the folders this server may work in"'
    raised = _unset_error(a)
    if raised == "McpError":
        # what an mcp 1.x session raised for a client without roots (its answer: an error, -32600 from
        # the SDK's own client), so an `except McpError` fallback around the request still runs; so on
        # fastmcp 2.x/3.x, whose `ctx.list_roots()` is that session's request
        error = edits.import_name(a, "mcp.shared.exceptions", "McpError")
        data = edits.import_name(a, "mcp.types", "ErrorData")
        code = edits.import_name(a, "mcp.types", "INVALID_REQUEST")
        unset = f"{error}({data}(code={code}, message={unset}))"
    elif raised == "MCPError":
        # what the request raised on mcp 2.x where no client could answer it: a 2026-07-28 connection's
        # `NoBackChannelError` is an `MCPError` with INVALID_REQUEST (mcp 2.3 `mcp/shared/exceptions.py`),
        # and a legacy client's error answer arrives as one; so an `except MCPError` fallback still runs,
        # and an `MCPServer` tool still sends the message (it hides other exceptions behind "Error
        # executing tool …")
        error = edits.import_name(a, "mcp.shared.exceptions", "MCPError")
        code = edits.import_name(a, "mcp.types", "INVALID_REQUEST")
        unset = f"{error}({code}, {unset})"
    else:
        unset = f"RuntimeError({unset})"
    parsed = cst.parse_module(
        "# The folders this server may work in come from its configuration, no longer from the\n"
        "# client's roots (deprecated in MCP 2026-07-28): absolute paths joined with os.pathsep,\n"
        "# read once at start; other entries are ignored. Unset, a call fails as it did for a\n"
        "# client without roots.\n"
        f'{s.const} = {os_name}.environ.get("{s.env}")\n'
        "\n\n"
        f"def {s.helper}() -> {result}:\n"
        f'    """The roots the operator configured in {s.env}, answered as the client did."""\n'
        f"    if {s.const} is None:\n"
        f"        raise {unset}\n"
        f"    paths = [p for p in {s.const}.split({os_name}.pathsep) if {os_name}.path.isabs(p)]\n"
        f"    return {result}(roots=[{root}(uri={path}(p).as_uri()) for p in paths])\n"
    )
    const, helper = parsed.body
    first = _first_holding(a, asked)
    # the blank lines above `first` go above the new block; its own comments stay with it
    lines = list(getattr(first, "leading_lines", ()))
    n = next((i for i, line in enumerate(lines) if line.comment is not None), len(lines))
    blank = [cst.EmptyLine(), cst.EmptyLine()]
    edits.insert_before(
        first,
        [
            const.with_changes(leading_lines=[*lines[:n], *parsed.header]),
            helper.with_changes(leading_lines=blank),
        ],
    )
    edits.transform(first, lambda _o, u: u.with_changes(leading_lines=[*blank, *lines[n:]]))


def _first_holding(a: ModuleAnalysis, asked: list[cst.CSTNode]) -> cst.BaseStatement:
    """The first top-level statement that holds one of ``asked``."""
    top = {id(stmt): stmt for stmt in a.module.body}
    best: cst.BaseStatement | None = None
    order = {id(stmt): i for i, stmt in enumerate(a.module.body)}
    for node in asked:
        cur: cst.CSTNode | None = node
        while cur is not None and id(cur) not in top:
            cur = a.parents.get(id(cur))
        if cur is not None and (best is None or order[id(cur)] < order[id(best)]):
            best = top[id(cur)]
    assert best is not None, "a site was recorded"
    return best


def fence(a: ModuleAnalysis, fn: FunctionInfo, node: cst.CSTNode) -> str | None:
    """How the roots asked at ``node`` in ``fn`` bound what a tool may touch (an allow-list check on
    the way from an entry point to the request, ``param.chains.bounds_access``, or an object of
    another module's class the answer is kept on, ``param.chains.stored_outside``), or None."""
    funcs, _edges = closure(a, fn)
    return fence_of(a, node, funcs)


def plan(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None, fence: str = "") -> FixPlan:
    """The ``config`` fix of one roots request ``node`` in ``fn`` (MCP101): ``fence`` says how the
    roots bound what a tool may touch (empty when they fence nothing the fix can see)."""
    aw = request_await(a, node) if isinstance(node, cst.Call) and fn is not None and fn.is_async else None
    if aw is None or not isinstance(node, cst.Call) or not isinstance(node.func, cst.Attribute):
        return FixPlan(
            manual="the request is not awaited inside an async request handler: read the folders from the "
            "server's configuration by hand"
        )
    assert fn is not None  # an awaited request sits in a function
    s = setting(a)
    if s is None:
        return FixPlan(
            manual=f"the names the fix would add (`{_server_name(a) or 'MCP'}_ROOTS`, `_configured_roots`) are "
            "taken in this module: read the folders from the server's configuration by hand"
        )
    listing = a.kind_of(node.func.value, fn) is not Kind.CONTEXT_FASTMCP
    kept = _legacy_request(a, aw, node, fn) if config.legacy_clients else None
    session, legacy = kept if kept is not None else (None, None)
    desc = (
        f"answer the roots request from the `{s.env}` environment variable (server configuration, read once at start)"
    )
    if session is not None:
        desc = (
            f"answer the roots request on 2026-07-28 connections from the `{s.env}` environment variable (server "
            "configuration, read once at start; unset, those calls fail as they do today), and keep it on legacy "
            f"connections (`{session}.can_send_request`)"
        )
    if fence:
        desc += f": the roots bound what the tool may touch ({fence}), so they stay with whoever runs the server"
    guard = _capability_guard(a, fn, node) if config.legacy_clients and session is None else None
    if guard is not None:
        desc += (
            f" (review: `{guard}` in `{fn.qualname}` still sends a client that declares no roots capability where "
            f"it went before; a client that declares roots now gets the folders of `{s.env}` instead of its roots "
            f'(absolute paths joined with `os.pathsep`; for a client, `"env": {{"{s.env}": "/srv/a:/srv/b"}}` '
            "in the server's mcpServers entry), and until the operator sets it, its calls fail with the error the "
            "request gave a client without roots)"
        )
    elif config.legacy_clients and session is None:
        fallback = _fallback(a, aw, fn)
        outcome = "fails" if fallback is None else f"takes the `except` fallback at line {fallback}"
        desc += (
            f" (review: until the operator sets `{s.env}` (absolute paths joined with `os.pathsep`; for a client, "
            f'`"env": {{"{s.env}": "/srv/a:/srv/b"}}` in the server\'s mcpServers entry) every call {outcome} as it does '
            "for a client without roots, also for the legacy clients whose roots were used before)"
        )
    safety = Safety.UNSAFE if config.legacy_clients and session is None else Safety.SAFE
    return FixPlan(FixInfo(safety, STRATEGY, desc), None, FromSetting(aw, listing, s, session, legacy))


def _fallback(a: ModuleAnalysis, aw: cst.Await, fn: FunctionInfo) -> int | None:
    """The line of the ``except`` around the request ``aw`` that catches what the helper raises
    while the setting is unset (``_add_helper``), when it goes on in the request's place (it does
    not end by raising); None when the error leaves the tool."""
    h = catching_handler(a, aw, fn, {_unset_error(a), "Exception", "BaseException"})
    body = h.body.body if h is not None and isinstance(h.body, cst.IndentedBlock) else ()
    last = body[-1] if body else None
    if h is None or (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Raise)):
        return None
    return code_ranges(a.module, [h])[h].start.line


def _unset_error(a: ModuleAnalysis) -> str:
    """The class of the error the helper raises while the setting is unset: the one the module's SDK
    raised for a client without roots (mcp 1.x's ``McpError``, also under fastmcp 2.x/3.x when the
    pins say so; mcp 2.x's ``MCPError``, also under fastmcp 4), else ``RuntimeError``."""
    gen = a.module_generation()
    if gen == S.MCP2 or _on_fastmcp4(a):
        return "MCPError"
    if gen == S.MCP1 or (gen == S.FASTMCP and _on_fastmcp_before4(a)):
        return "McpError"
    # fastmcp code whose pins admit fastmcp 4 (or name none): `McpError` would not import there, and
    # `from fastmcp import …` imports on both, so the helper must not be what breaks the module
    return "RuntimeError"


def _capability_guard(a: ModuleAnalysis, fn: FunctionInfo, node: cst.CSTNode) -> str | None:
    """The test of an ``if not <session>.check_client_capability(...): return/raise`` guard in
    ``fn`` before the request ``node`` (the param fix removes it with the request; this fix keeps
    it, so a client without roots keeps its path), as written; None without one."""
    from mcpmigrate.codemods.param.guards import guard_if

    body = fn.node.body.body if isinstance(fn.node.body, cst.IndentedBlock) else ()
    order = {id(stmt): i for i, stmt in enumerate(body)}
    cur: cst.CSTNode | None = node
    while cur is not None and id(cur) not in order:
        cur = a.parents.get(id(cur))
    if cur is None:
        return None
    for call in fn.calls:
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "check_client_capability"):
            continue
        branch = guard_if(a, call)
        if branch is not None and order.get(id(branch), len(body)) < order[id(cur)]:
            return code_of(branch.test)
    return None


def _legacy_request(
    a: ModuleAnalysis, aw: cst.Await, node: cst.Call, fn: FunctionInfo
) -> tuple[str, str | None] | None:
    """``(session, request)`` when the request keeps running on legacy connections: the code of an
    mcp 2.x session (``ServerSession.can_send_request``, mcp 2.3 ``mcp/server/session.py``: false on
    a 2026-07-28 request, whose channel has no back channel) spelled as a plain name or attribute
    chain (read twice, so without side effects), and the request as kept (None: as written). A
    fastmcp 4 tool's ``ctx.session`` is that session (fastmcp 4.2 ``Context.session``); fastmcp
    2.x/3.x's ``await ctx.list_roots()``, gone in fastmcp 4, is kept as ``(await
    ctx.session.list_roots()).roots`` when the module runs on fastmcp 4 (its pins, or this run's
    port). mcp 1.x and fastmcp 2.x/3.x have no such property, and serve only legacy connections."""
    recv = node.func.value if isinstance(node.func, cst.Attribute) else None
    if recv is None:
        return None
    gen, kind = a.module_generation(), a.kind_of(recv, fn)
    if _on_fastmcp4(a) and kind is Kind.CONTEXT_FASTMCP and aw.expression is node:
        session = f"{code_of(recv)}.session"
        request: str | None = f"(await {session}.list_roots()).roots"
    elif (gen == S.MCP2 or _on_fastmcp4(a)) and kind is Kind.SESSION:
        session, request = code_of(recv), None
    else:
        return None
    base: cst.BaseExpression = recv
    while isinstance(base, cst.Attribute):
        base = base.value
    return (session, request) if isinstance(base, cst.Name) else None


def _on_fastmcp_before4(a: ModuleAnalysis) -> bool:
    """The module's fastmcp code runs on fastmcp 2.x/3.x (mcp 1.x): the project's pins say
    ``fastmcp<4`` or ``mcp<2``, or the module imports a name only mcp 1.x has (``McpError``)."""
    found = project_pins(a)
    if any(v is not None and not v.new for v in (found.verdict("fastmcp"), found.verdict("mcp"))):
        return True
    return code_generation(a)[0] == S.MCP1


def _on_fastmcp4(a: ModuleAnalysis) -> bool:
    """The module's fastmcp code runs on fastmcp 4 (mcp 2.x): the project's pins (or lockfile)
    say ``fastmcp>=4``, or this run ports it there (``--target-sdk fastmcp4``)."""
    if a.module_generation() != S.FASTMCP:
        return False
    verdict = project_pins(a).verdict("fastmcp")
    return verdict is not None and verdict.new


__all__ = ["HELPER_NAMES", "STRATEGY", "RULES", "FromSetting", "Setting", "fence", "plan", "setting"]

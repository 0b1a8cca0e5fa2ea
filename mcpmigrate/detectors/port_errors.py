"""The port to mcp 2.x, what a failing tool tells the client (MCP510; run only with
``--target-sdk mcp2``).

mcp 1.27's FastMCP (``mcp/server/fastmcp/tools/base.py``, ``Tool.run``) turns every exception a
tool raises into ``ToolError("Error executing tool <name>: <message>")``, and the client reads that
text. mcp 2.3's MCPServer (``mcp/server/mcpserver/tools/base.py``, ``Tool.run``) keeps the message
only for ``ToolError`` and ``ResourceError``; anything else is an ``UnexpectedToolError`` whose
text is only ``Error executing tool <name>``, and ``MCPError`` is re-raised to the kernel, which
answers the ``tools/call`` with a JSON-RPC error instead of 1.27's tool error result
(``MCPServer._handle_call_tool`` in ``mcp/server/mcpserver/server.py``). Only
``UrlElicitationRequiredError`` was a protocol error on 1.27 too (``Tool.run`` re-raised it). A
tool of a 1.x FastMCP server from which an explicit ``raise`` of another exception is reachable —
in its body or in a function of the module it calls, not caught on the way — changes what the
client gets in the port.
"""

from __future__ import annotations

import builtins
import os
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import CONTEXTS, FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.port import tool_errors
from mcpmigrate.codemods.port.renames import module_bindings
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.detectors.port import names_mcp
from mcpmigrate.fastwalk import walk
from mcpmigrate.files import project_root
from mcpmigrate.positions import code_ranges

# What mcp 2.3 answers as mcp 1.27 did: the 1.x and 2.x names of ToolError, ResourceError (and its
# not-found subclass) with their text, and the URL elicitation error as a protocol error (both
# SDKs re-raise it). McpError/MCPError is not kept: 1.27 sent it as a tool error result.
KEPT = frozenset({"ToolError", "ResourceError", "ResourceNotFoundError", "UrlElicitationRequiredError"})
MCP_ERRORS = frozenset({"McpError", "MCPError"})
# Requests the next round's fixes rewrite inside the tool that makes them (roots: MCP1xx, param)
# or that reaches them through a helper (sampling, elicitation: MCP2xx, interim).
_ASKS_THROUGH_HELPERS = S.SESSION_SAMPLING_METHODS | S.SESSION_ELICIT_METHODS | S.CONTEXT_ELICIT_METHODS | {"sample"}
_ASKS_IN_BODY = _ASKS_THROUGH_HELPERS | {"list_roots"}
_NAMED = 3  # raise sites (grouped by exception and function) a message names
_PATH_BUDGET = 2000  # call paths explored per tool
_CATCH_ALL = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"})


# Standard-library calls that raise, with a message, on a missing file or a failing command — what
# a file or process tool meets on bad input (the v1.27.0 snippet `snippets/servers/tool_errors.py`:
# "If this raises FileNotFoundError, the client receives an error response like 'Error executing
# tool read_config: ...'"): the exception each raises, resolved through the imports.
RAISING_CALLS = {
    **dict.fromkeys(("open", "io.open"), "OSError"),
    **{
        f"os.{name}": "OSError"
        for name in (
            "listdir",
            "scandir",
            "stat",
            "remove",
            "unlink",
            "mkdir",
            "makedirs",
            "rmdir",
            "rename",
            "replace",
        )
    },
    **{f"shutil.{name}": "OSError" for name in ("copy", "copy2", "copyfile", "copytree", "move", "rmtree")},
    **dict.fromkeys(("subprocess.check_output", "subprocess.check_call"), "CalledProcessError"),
}


@dataclass(frozen=True)
class RaiseSite:
    node: cst.Raise | cst.Call | cst.Decorator  # an explicit raise, a call of RAISING_CALLS, or one into the project
    exc: str  # the exception's name as spelled (the called name for a call into another module)
    function: FunctionInfo
    # a raise of the tool's decorator ("the decorator `guarded`"), or a call into another module of
    # the project ("`guarded` from `errors`"), whose exceptions this module cannot see
    via: str | None = None


class PortToolErrorDetector(Detector):
    """MCP510: a tool of a 1.x FastMCP server that can raise an exception whose message mcp 2.x
    withholds from the client."""

    rules = ("MCP510",)
    # a registration too: a tool whose body only calls into another module of the project (a
    # handler object's method, an imported function) has no raise of its own
    tokens = (
        rb"\braise\b",
        rb"\bopen\(",
        rb"\bos\.",
        rb"\bshutil\.",
        rb"\bcheck_(?:output|call)\(",
        rb"\.tool\(",
        rb"\.resource\(",
    )
    screen = staticmethod(names_mcp)

    def detect(self) -> list[Report]:
        a = self.analysis
        out: list[Report] = []
        for fn, sites, asks in fastmcp_v1_tools(a):
            if not sites:
                continue
            where = _where(a, fn, sites)
            name = fn.registered_name or fn.name
            protocol = any(is_mcp_error(a, s.exc) for s in sites)
            gets = (
                "a JSON-RPC error (`McpError`)"
                if all(is_mcp_error(a, s.exc) for s in sites)
                else f"only `Error executing tool {name}`, not the message"
                + (", or a JSON-RPC error (`McpError`)" if protocol else "")
            )
            out.append(
                Report.planned(
                    "MCP510",
                    fn.node.name,
                    f"Tool `{name}` raises {where}; on mcp 2.x the client gets {gets}. "
                    f"mcp 1.x's FastMCP sent the tool error result `Error executing tool {name}: <message>`; mcp 2.x's "
                    "`MCPServer` keeps the message only for `ToolError` and `ResourceError` (`Tool.run` in "
                    "`mcp/server/mcpserver/tools/base.py`) and answers `MCPError` with a JSON-RPC error.",
                    tool_errors.plan(a, fn, asks, outside=decorated_outside(sites)),
                )
            )
        for fn, sites, uri in fastmcp_v1_resources(a):
            shown = uri or fn.name
            template = uri is not None and "{" in uri
            old = (
                "Error creating resource from template: Error creating resource from template: <message>"
                if template
                else f"Error reading resource {shown}: <message>"
            )
            new = "Error creating resource from template <uri>" if template else f"Error reading resource {shown}"
            out.append(
                Report.planned(
                    "MCP510",
                    fn.node.name,
                    f"Resource `{shown}` raises {_where(a, fn, sites)}; on mcp 2.x the client gets the error `{new}`, "
                    f"not the message. mcp 1.x's FastMCP sent `{old}` (`FunctionResource.read`, "
                    "`ResourceTemplate.create_resource`); mcp 2.x's `MCPServer.read_resource` keeps only a "
                    "`ResourceError`'s text (and the code is -32603 where 1.x sent 0).",
                    tool_errors.resource_plan(a, fn, uri, decorated_outside(sites)),
                )
            )
        return out


def fastmcp_v1_resources(a: ModuleAnalysis) -> list[tuple[FunctionInfo, list[RaiseSite], str | None]]:
    """The resource functions of a 1.x FastMCP server in the module from which an exception is
    reachable, each with its raise sites and the URI (template) its decorator registers, if literal."""
    out = []
    for fn in a.functions:
        if fn.role == "resource" and _on_fastmcp_v1(a, fn, "resource"):
            # mcp 1.27 put its prefix before a `ResourceError`'s text too: those raises count here
            own = [
                RaiseSite(node, exc, fn)
                for node in walk(fn.node.body)
                if isinstance(node, cst.Raise)
                and node.exc is not None
                and a.enclosing_function(node) is fn
                and (exc := _exception_name(node.exc)) is not None
                and _kept(a, exc)
                and not _caught(a, node, fn, exc)
            ]
            sites = sorted([*own, *reachable_raises(a, fn)[0]], key=lambda s: _order(a).get(id(s.node), 0))
            if sites:
                out.append((fn, sites, _uri(fn)))
    return out


def _order(a: ModuleAnalysis) -> dict[int, int]:
    return a.memo("port.order", lambda: {id(n): i for i, n in enumerate(a.flat.order)})


def _uri(fn: FunctionInfo) -> str | None:
    for dec in fn.node.decorators:
        call = dec.decorator
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "resource":
            for arg in call.args:
                if (arg.keyword is None or arg.keyword.value == "uri") and isinstance(arg.value, cst.SimpleString):
                    value = arg.value.evaluated_value
                    return value if isinstance(value, str) else None
    return None


def decorated_outside(sites: list[RaiseSite]) -> bool:
    """A site is the tool's decorator (or in it): the tool's own body is not where its exceptions
    leave it, so the fix wraps the decorated function (below the registration) instead."""
    return any(isinstance(s.node, cst.Decorator) or (s.via or "").startswith("the decorator") for s in sites)


def is_mcp_error(a: ModuleAnalysis, exc: str) -> bool:
    """``exc`` (as spelled) is the SDK's ``McpError``/``MCPError``, resolved through the imports."""
    qual = a.qualname(cst.parse_expression(exc)) or exc
    return qual.startswith("mcp.") and qual.split(".")[-1] in MCP_ERRORS


def fastmcp_v1_tools(a: ModuleAnalysis) -> list[tuple[FunctionInfo, list[RaiseSite], str | None]]:
    """The tools of a 1.x FastMCP server in the module, each with :func:`reachable_raises`;
    computed once per module (MCP510 and MCP502's label both read it)."""

    def compute() -> list[tuple[FunctionInfo, list[RaiseSite], str | None]]:
        return [(fn, *reachable_raises(a, fn)) for fn in a.functions if fn.role == "tool" and _on_fastmcp_v1(a, fn)]

    return a.memo("port.v1_tools", compute)


def unwrapped_mcp_error_tools(a: ModuleAnalysis) -> list[str]:
    """The tools of a 1.x FastMCP server from which a ``raise McpError(...)`` of this module is
    reachable and whose body MCP510's fix does not wrap (the plan is manual): after the port
    their client gets a JSON-RPC error where 1.27 sent a tool error result. ``tool (line N)``."""
    out: list[str] = []
    for fn, sites, asks in fastmcp_v1_tools(a):
        mcp_sites = [s for s in sites if is_mcp_error(a, s.exc)]
        if mcp_sites and tool_errors.plan(a, fn, asks, outside=decorated_outside(sites)).fix is None:
            lines = code_ranges(a.module, [s.node for s in mcp_sites])
            at = ", ".join(str(lines[s.node].start.line) for s in mcp_sites)
            out.append(f"`{fn.registered_name or fn.name}` (line{'s' if len(mcp_sites) > 1 else ''} {at})")
    return out


def unhandled_refusal_tools(a: ModuleAnalysis, roots: bool = False) -> list[str]:
    """The tools of a 1.x FastMCP server that ask the client for a sampling completion or an
    elicitation — in the tool or a function of the module it calls — where no ``except`` on the way
    handles the client's refusal (``McpError``) without re-raising it, and neither a decorator of the
    tool nor MCP510's wrapper (a safe fix of the same port) raises it as ``ToolError``: ``tool (elicitation, line N)``. mcp 1.27 sent a client that cannot
    answer (it did not declare the capability) the tool error result ``Error executing tool <name>:
    <the refusal>``; mcp 2.3's ``MCPServer`` answers the same refusal with a JSON-RPC error (measured
    with mcp 1.27 and 2.3, the mcp 2.3 client without callbacks: tests/test_port_refusals.py).
    ``roots``: roots requests count too (``--strategy interim``: they stay requests, answered through
    a resolver; the ``param`` and ``config`` fixes take them out of the tool)."""

    def compute() -> list[str]:
        out: list[str] = []
        for tool, sites, asks_name in fastmcp_v1_tools(a):
            if _decorator_sites(a, tool)[1]:  # an outer decorator raises the rest as ToolError already
                continue
            if sites and tool_errors.plan(a, tool, asks_name, outside=decorated_outside(sites)).fix is not None:
                continue  # MCP510 wraps the tool: the refusal is raised as `ToolError`, 1.x's tool error result
            asks = _unhandled_requests(a, tool, roots)
            if asks:
                lines = code_ranges(a.module, [call for call, _kind in asks])
                kinds = dict.fromkeys(kind for _call, kind in asks)
                at = ", ".join(str(lines[call].start.line) for call, _kind in asks)
                out.append(
                    f"`{tool.registered_name or tool.name}` ({' and '.join(kinds)}, line{'s' if len(asks) > 1 else ''} {at})"
                )
        return out

    return a.memo(f"port.refusal_tools.{roots}", compute)


def _unhandled_requests(a: ModuleAnalysis, tool: FunctionInfo, roots: bool) -> list[tuple[cst.Call, str]]:
    """The sampling and elicitation requests (and roots requests with ``roots``) reachable from ``tool`` (its body, then the module
    functions it calls, transitively) that no ``except`` on the way handles as ``McpError``, in
    source order, once each."""
    from mcpmigrate.codemods.interim.mcpserver import dict_schema
    from mcpmigrate.codemods.interim.sites import ELICITATION, ROOTS, SAMPLING, request_kind

    kinds = (SAMPLING, ELICITATION, ROOTS) if roots else (SAMPLING, ELICITATION)
    found: dict[int, tuple[cst.Call, str]] = {}
    stack: list[tuple[FunctionInfo, tuple[tuple[cst.Call, FunctionInfo], ...]]] = [(tool, ())]
    budget = _PATH_BUDGET
    while stack and budget:
        budget -= 1
        f, path = stack.pop()
        on_path = {id(tool), id(f), *(id(caller) for _call, caller in path)}
        for call in f.calls:
            if _caught(a, call, f, "McpError") or any(_caught(a, c, caller, "McpError") for c, caller in path):
                continue
            kind = request_kind(a, call, f) or _through_got_context(a, call, f)
            if kind == ELICITATION and isinstance(call.func, cst.Attribute) and dict_schema(call):
                on = a.kind_of(call.func.value, f)
                if on is not None and on in CONTEXTS:
                    continue  # `Context.elicit` raises AttributeError before anything is sent: no refusal
            if kind is not None and kind in kinds:
                found.setdefault(id(call), (call, kind))
            elif (callee := a.callee_of(call, f)) is not None and id(callee) not in on_path:
                stack.append((callee, (*path, (call, f))))
    order = _order(a)
    return sorted(found.values(), key=lambda pair: order.get(id(pair[0]), 0))


def _through_got_context(a: ModuleAnalysis, call: cst.Call, f: FunctionInfo) -> str | None:
    """``elicitation`` / ``sampling`` / ``roots`` for a request made through a name ``f`` binds only to values
    that read a context — ``context = ctx or mcp.get_context()``, which the analysis does not type
    but the port (MCP504) turns into the tool's ``Context`` parameter, whose request the next fix
    round then sees (``context.elicit(…)``, ``context.session.create_message(…)``); else None."""
    from mcpmigrate.codemods.interim.sites import ELICITATION, ROOTS, SAMPLING

    if not isinstance(call.func, cst.Attribute):
        return None
    attr, recv = call.func.attr.value, call.func.value
    via_session = isinstance(recv, cst.Attribute) and recv.attr.value == "session"
    base = recv.value if isinstance(recv, cst.Attribute) and via_session else recv
    if not isinstance(base, cst.Name):
        return None
    values = [v for name, v in f.assigns if name == base.value]
    if not values or not all(any(_reads_context(a, x, f) for x in walk(v)) for v in values):
        return None
    if via_session:
        session_kinds = {**dict.fromkeys(S.SESSION_SAMPLING_METHODS, SAMPLING), "list_roots": ROOTS}
        return session_kinds.get(attr) or (ELICITATION if attr in S.SESSION_ELICIT_METHODS else None)
    return ELICITATION if attr in S.CONTEXT_ELICIT_METHODS else None


def _reads_context(a: ModuleAnalysis, node: cst.CSTNode, f: FunctionInfo) -> bool:
    """``node`` is a ``<server>.get_context()`` call or a name typed as a context."""
    if isinstance(node, cst.Call):
        return isinstance(node.func, cst.Attribute) and node.func.attr.value == "get_context"
    return isinstance(node, cst.Name) and (kind := a.kind_of(node, f)) is not None and kind in CONTEXTS


def _where(a: ModuleAnalysis, tool: FunctionInfo, sites: list[RaiseSite]) -> str:
    """The raise sites grouped by exception and function, the first three groups named:
    ``ValueError (lines 312, 317, in resolve), KeyError (line 40)``, each name in backticks."""
    lines = {n: r.start.line for n, r in code_ranges(a.module, [s.node for s in sites]).items()}
    groups: dict[tuple[str, int], list[int]] = {}
    owners: dict[int, FunctionInfo] = {}
    for s in sites:
        groups.setdefault((s.exc, id(s.function)), []).append(lines[s.node])
        owners[id(s.function)] = s.function
    parts = []
    vias = {(s.exc, id(s.function)): s.via for s in sites}
    for (exc, owner), at in list(groups.items())[:_NAMED]:
        where = f"line{'s' if len(at) > 1 else ''} {', '.join(map(str, at))}"
        fn = owners[owner]
        via = vias[(exc, owner)]
        if via is not None and " from `" in via:  # into another module: what it raises is not seen here
            parts.append(f"what {via} raises ({where})")
            continue
        inside = "" if fn is tool else f", in `{fn.qualname}`"
        parts.append(f"`{exc}` ({where}{inside}" + (f", {via}" if via else "") + ")")
    more = len(groups) - _NAMED
    return ", ".join(parts) + (f" and {more} more" if more > 0 else "")


def _on_fastmcp_v1(a: ModuleAnalysis, fn: FunctionInfo, kind: str = "tool") -> bool:
    """The tool is registered on an mcp 1.x ``FastMCP`` server: one this module builds with
    ``mcp.server.fastmcp.FastMCP(...)``, or (a server it does not build, ``self.mcp``) in a module
    written only for mcp 1.x; or another module of the project registers it as a tool and imports
    mcp 1.x (:meth:`~mcpmigrate.analysis.calls.CallGraph.external_registrations`; known for functions
    that make a client request, the project pass's targets)."""
    for role, fexpr, _gen, server in a.registrations:
        if role != kind or (a.function_for_expr(fexpr) is not fn and fexpr is not fn.node):
            continue
        built = [v for name, v in a.module_assigns if name == server and isinstance(v, cst.Call)]
        if built:
            return all(_builds_fastmcp_v1(a, v.func) for v in built)
        return a.module_generation() == S.MCP1
    return any(r.registers == kind and r.generation == S.MCP1 for r in a.external_registrations(fn))


def _builds_fastmcp_v1(a: ModuleAnalysis, func: cst.BaseExpression, depth: int = 0) -> bool:
    """``func(...)`` builds an mcp 1.x ``FastMCP``: the class, or a class of this module subclassing
    it (tumf/mcp-text-editor's ``GeminiCompatibleFastMCP(FastMCP)``, which overrides ``list_tools``)."""
    if a.resolves_to(func, S.FASTMCP_V1_SERVER):
        return True
    name = get_full_name_for_node(func)
    bases = a.class_bases.get(name or "")
    return (
        bases is not None
        and depth < 5
        and any(_builds_fastmcp_v1(a, cst.parse_expression(b), depth + 1) for b in bases)
    )


def reachable_raises(a: ModuleAnalysis, tool: FunctionInfo) -> tuple[list[RaiseSite], str | None]:
    """The explicit ``raise X(...)``/``raise X`` statements reachable from ``tool`` — its body,
    then the module functions it calls, transitively — whose exception mcp 2.x withholds and that
    no ``except`` on the way handles, in source order, once each; and the name of a client request
    (roots in the tool's body, sampling or elicitation anywhere on the way) the next round's fixes
    rewrite in the tool, if any."""
    asks: str | None = None
    found: dict[int, RaiseSite] = {}
    decorated, covered = _decorator_sites(a, tool)
    if covered:  # an outer decorator of the tool raises the rest as ToolError already
        return [], None
    for site in decorated:
        found[id(site.node)] = site
    outside = project_imports(a)
    # Depth-first over call paths (a helper reached by a guarded and an unguarded call is found
    # on the unguarded one); a path never enters a function twice, and the walk is bounded.
    stack: list[tuple[FunctionInfo, tuple[tuple[cst.Call, FunctionInfo], ...]]] = [(tool, ())]
    budget = _PATH_BUDGET
    while stack and budget:
        budget -= 1
        f, path = stack.pop()
        for node, exc in _raises(a, f):
            if id(node) not in found and not _caught(a, node, f, exc):
                if not any(_caught(a, call, caller, exc) for call, caller in path):
                    found[id(node)] = RaiseSite(node, exc, f)
        on_path = {id(tool), id(f), *(id(caller) for _call, caller in path)}
        for call in f.calls:
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value in (
                _ASKS_IN_BODY if f is tool else _ASKS_THROUGH_HELPERS
            ):
                asks = asks or func.attr.value
            elif a.resolves_to(func, set(S.SDK_ELICIT_HELPERS)):
                asks = asks or (a.qualname(func) or "").rsplit(".", 1)[-1]
            callee = a.callee_of(call, f)
            if callee is not None and id(callee) not in on_path:
                if not _caught(a, call, f, None):  # a bare `except`/`except Exception` around it
                    stack.append((callee, (*path, (call, f))))
            elif callee is None and id(call) not in found:
                spelled = get_full_name_for_node(func) or ""
                head = spelled.partition(".")[0]
                if head in f.param_names() or _uncaught_path(a, call, f, path):
                    continue
                if head in outside:
                    found[id(call)] = RaiseSite(call, head, f, f"`{head}` from `{outside[head]}`")
                elif "." in spelled and (cls := _project_instance(a, f, head, outside)) is not None:
                    found[id(call)] = RaiseSite(
                        call, head, f, f"`{spelled}` (an instance of `{cls}` from `{outside[cls]}`)"
                    )
    order = {id(n): i for i, n in enumerate(a.flat.order)}
    return sorted(found.values(), key=lambda s: order.get(id(s.node), 0)), asks


def _project_instance(a: ModuleAnalysis, f: FunctionInfo, name: str, outside: dict[str, str]) -> str | None:
    """``name`` is bound (in ``f``, else at module level) only to instances of a class imported
    from another module of the project (``handler = ReadHandler()`` with ``from .handlers import
    ReadHandler``): the class's name. A method called on it raises what that module's code raises,
    which this module cannot see (tumf/mcp-text-editor's tools call ``handler.run_tool(...)``)."""
    values = [v for n, v in f.assigns if n == name] or [v for n, v in a.module_assigns if n == name]
    classes = set()
    for value in values:
        if not isinstance(value, cst.Call):
            return None
        cls = get_full_name_for_node(value.func) or ""
        if cls.partition(".")[0] not in outside:
            return None
        classes.add(cls.partition(".")[0])
    return classes.pop() if len(classes) == 1 else None


def _uncaught_path(a: ModuleAnalysis, call: cst.Call, f: FunctionInfo, path: tuple) -> bool:
    """Negated: a catch-all ``except`` around ``call`` or around a call on the way to ``f``."""
    return _caught(a, call, f, None) or any(_caught(a, c, caller, None) for c, caller in path)


def _decorator_sites(a: ModuleAnalysis, tool: FunctionInfo) -> tuple[list[RaiseSite], bool]:
    """What the tool's own decorators (not the registration) raise: a decorator of this module —
    the raises reachable from the functions nested in it (its wrapper), by name of the decorator —
    or one imported from another module of the project, whose exceptions are not seen here (the
    field's error-handling decorator, johnhuang316/code-index-mcp's ``handle_mcp_tool_errors``);
    and whether the outermost of them is one of this module that raises any other exception as
    ``ToolError`` (MCP510's own helper, or the project's): then nothing under it loses its text."""
    outside = project_imports(a)
    out: list[RaiseSite] = []
    below = tool_errors.below_registration(a, tool.node)
    for dec in tool.node.decorators[below or 0 :] if below is not None else ():
        expr = dec.decorator
        name = get_full_name_for_node(expr.func if isinstance(expr, cst.Call) else expr) or ""
        head = name.partition(".")[0]
        local = [f for f in a.functions if f.name == name and f.parent is None and f.class_name is None]
        if local:
            nested = [g for g in a.functions if _inside(g, local[0])]
            if not out and any(_converts(a, g) for g in nested):
                return [], True
            for g in nested:
                for site in reachable_raises(a, g)[0]:
                    if site.via is None:
                        out.append(RaiseSite(site.node, site.exc, site.function, f"the decorator `{name}`"))
        elif head in outside:
            out.append(RaiseSite(dec, name, tool, f"the decorator `{name}` from `{outside[head]}`"))
    return out, False


def _converts(a: ModuleAnalysis, f: FunctionInfo) -> bool:
    """``f`` has a catch-all ``except`` that raises an exception mcp 2.x passes on with its text."""
    for node in walk(f.node.body):
        if isinstance(node, cst.ExceptHandler) and _handles(a, node, None):
            for r in walk(node.body):
                if isinstance(r, cst.Raise) and r.exc is not None:
                    exc = _exception_name(r.exc)
                    if exc is not None and _kept(a, exc):
                        return True
    return False


def _inside(g: FunctionInfo, outer: FunctionInfo) -> bool:
    p = g.parent
    while p is not None:
        if p is outer:
            return True
        p = p.parent
    return False


def project_imports(a: ModuleAnalysis) -> dict[str, str]:
    """The names this module imports from other modules of its project, with the module as
    spelled: a relative import (``from .errors import guarded``), or an absolute one that names a
    module or package found beside this file, at the project's root or under its ``src`` (only
    names are looked up, nothing is opened; without a path, relative imports only)."""

    def compute() -> dict[str, str]:
        out: dict[str, str] = {}
        here = a.path
        root = (project_root(here) or here.parent) if here is not None else None
        for stmt in a.module.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for node in stmt.body:
                if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
                    continue
                mod = get_full_name_for_node(node.module) if node.module is not None else ""
                spelled = "." * len(node.relative) + (mod or "")
                if not node.relative and not (
                    here is not None and root is not None and _in_project(mod or "", here, root)
                ):
                    continue
                for alias in node.names:
                    local = alias.asname.name if alias.asname else alias.name
                    if isinstance(local, cst.Name):
                        out[local.value] = spelled
        return out

    return a.memo("port.project_imports", compute)


def _in_project(mod: str, here: Path, root: Path) -> bool:
    top = mod.partition(".")[0]
    if not top or top in ("mcp", "fastmcp", "mcp_types"):
        return False
    for base in dict.fromkeys((here.parent, root, root / "src")):
        if os.path.lexists(base / f"{top}.py") or os.path.lexists(base / top / "__init__.py"):
            return True
    return False


def _raises(a: ModuleAnalysis, f: FunctionInfo) -> list[tuple[cst.Raise | cst.Call, str]]:
    """The ``raise`` statements of ``f``'s own body (not of functions nested in it) that name an
    exception mcp 2.x withholds the text of, and its calls of :data:`RAISING_CALLS`, with that
    exception's name; memoized per function."""
    table: dict[int, list[tuple[cst.Raise | cst.Call, str]]] = a.memo("port.raises", dict)
    out = table.get(id(f))
    if out is None:
        out = table[id(f)] = []
        shadowed = set(module_bindings(a)) | set(f.param_names()) | {n for n, _ in f.assigns}
        for node in walk(f.node.body):
            if isinstance(node, cst.Raise) and node.exc is not None and a.enclosing_function(node) is f:
                exc = _exception_name(node.exc)
                if exc is not None and not _kept(a, exc):
                    out.append((node, exc))
            elif isinstance(node, cst.Call) and a.enclosing_function(node) is f:
                spelled = get_full_name_for_node(node.func)
                if spelled is None or spelled.partition(".")[0] in shadowed - set(a.imports):
                    continue
                raised = RAISING_CALLS.get(a.qualname(node.func) or "")
                if raised is not None:
                    out.append((node, raised))
    return out


def _exception_name(exc: cst.BaseExpression) -> str | None:
    target = exc.func if isinstance(exc, cst.Call) else exc
    name = get_full_name_for_node(target)
    if name is None or not name.split(".")[-1][:1].isupper():
        return None  # `raise err` re-raises a value: not a new exception this code names
    return name


def _kept(a: ModuleAnalysis, exc: str, depth: int = 0) -> bool:
    """``exc`` is (or subclasses, in this module) an exception mcp 2.x passes on with its text:
    resolved through the imports, so ``ToolError as TE`` is one."""
    qual = a.qualname(cst.parse_expression(exc)) or exc
    if qual.startswith("mcp.") and qual.split(".")[-1] in KEPT:
        return True
    bases = a.class_bases.get(exc)
    return bases is not None and depth < 10 and any(_kept(a, b, depth + 1) for b in bases)


def _caught(a: ModuleAnalysis, node: cst.CSTNode, f: FunctionInfo, exc: str | None) -> bool:
    """A ``try`` of ``f`` around ``node`` handles ``exc`` (any exception when None: a bare
    ``except``, ``Exception``) without re-raising it."""
    child: cst.CSTNode = node
    parent = a.parents.get(id(node))
    while parent is not None and parent is not f.node:
        if isinstance(parent, cst.Try) and child is parent.body:
            for handler in parent.handlers:
                if _handles(a, handler, exc) and not _reraises(handler):
                    return True
        child, parent = parent, a.parents.get(id(parent))
    return False


def _handles(a: ModuleAnalysis, handler: cst.ExceptHandler, exc: str | None) -> bool:
    if handler.type is None:
        return True
    caught = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    names = {get_full_name_for_node(c.value if isinstance(c, cst.Element) else c) for c in caught}
    if names & _CATCH_ALL:
        return True
    if exc is None:
        return False
    raised = [exc, *(b.split(".")[-1] for b in _bases(a, exc))]
    last = {n.rsplit(".", 1)[-1] for n in names if n}  # `subprocess.CalledProcessError` or imported bare
    return any(r in names or r in last or (r not in a.class_bases and _builtin_subclass(r, names)) for r in raised)


def _builtin_subclass(exc: str, names: set[str | None]) -> bool:
    """``exc`` and a caught name are built-in exceptions, the first a subclass of the second
    (``FileNotFoundError`` caught by ``except OSError``)."""
    cls = getattr(builtins, exc, None)
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        return False
    return any(
        isinstance(c := getattr(builtins, n, None), type) and issubclass(cls, c) for n in names if n and "." not in n
    )


def _bases(a: ModuleAnalysis, exc: str) -> list[str]:
    out: list[str] = []
    todo = [exc]
    while todo and len(out) < 20:
        for b in a.class_bases.get(todo.pop(), []):
            out.append(b)
            todo.append(b.split(".")[-1])
    return out


def _reraises(handler: cst.ExceptHandler) -> bool:
    """The handler has a bare ``raise`` (it passes the exception on)."""
    return any(isinstance(n, cst.Raise) and n.exc is None for n in walk(handler.body))

"""Whether the module serves stateless HTTP, which changes what the ``interim`` fix can promise.

A stateless streamable-HTTP server (``stateless_http=True``: ``MCPServer.run("streamable-http",
…)`` / ``streamable_http_app(…)`` and ``Server.streamable_http_app(…)`` in mcp 2.x,
``StreamableHTTPSessionManager(stateless=True)``, fastmcp's ``run``/``http_app`` and
``settings.stateless_http``, mcp 1.x ``FastMCP(stateless_http=True)``) answers each POST on its own:
a legacy (2025-11-25) connection there has no back-channel (mcp 2.x raises "this transport context
has no back-channel for server-initiated requests", ``mcp/shared/exceptions.py``), so the legacy
request the fix keeps — the original request, or the resolver's legacy path — fails as it did
before. The fix then serves 2026-07-28 clients only. Such deployments usually run several workers
(the reason to go stateless), and ``MCPServer`` seals the resolvers' ``requestState`` with a key
held by one process unless ``request_state_security=RequestStateSecurity(keys=[...])`` shares one
(``mcp/server/request_state.py``, ``RequestStateSecurity.ephemeral``: "state minted … by another
worker is rejected").
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis, code_of

#: Methods of an MCP server that take ``stateless_http=`` (mcp 2.x, fastmcp).
_RUNNERS = {"run", "run_async", "run_http_async", "streamable_http_app", "http_app"}
#: Where the module's own SDKs live (a constructor or function that takes ``stateless_http=``).
_SDK_HEADS = ("mcp.", "fastmcp.")


def stateless_http(a: ModuleAnalysis) -> str | None:
    """The code that makes the module serve stateless HTTP (memoized per module), else None; with
    ``(only on some paths)`` after it when an ``if`` (other than ``if __name__ == "__main__":``)
    guards it."""
    return a.memo("interim.stateless_http", lambda: _found(a))


def _found(a: ModuleAnalysis) -> str | None:
    node = _find(a)
    if node is None:
        return None
    shown = code_of(node).strip().splitlines()[0]
    return f"{shown}` (only on some paths)" if _conditional(a, node) else f"{shown}`"


def _conditional(a: ModuleAnalysis, node: cst.CSTNode) -> bool:
    cur = a.parents.get(id(node))
    while cur is not None and not isinstance(cur, cst.Module):
        if isinstance(cur, (cst.If, cst.IfExp)) and "__main__" not in code_of(cur.test):
            return True
        cur = a.parents.get(id(cur))
    return False


def _true(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def _find(a: ModuleAnalysis) -> cst.CSTNode | None:
    """The first call or assignment (in source order) that turns stateless HTTP on."""
    for n in a.nodes(cst.Call, cst.Assign):
        if isinstance(n, cst.Call):
            head = a.qualname(n.func) or ""
            method = n.func.attr.value if isinstance(n.func, cst.Attribute) else None
            for arg in n.args:
                key = arg.keyword.value if arg.keyword is not None else None
                if not _true(arg.value):
                    continue
                if key == "stateless_http" and (method in _RUNNERS or head.startswith(_SDK_HEADS)):
                    return n
                if key == "stateless" and head.endswith("StreamableHTTPSessionManager"):
                    return n
        elif isinstance(n, cst.Assign) and _true(n.value):
            for t in n.targets:
                target = t.target
                if (
                    isinstance(target, cst.Attribute)
                    and target.attr.value == "stateless_http"
                    and isinstance(target.value, cst.Attribute)
                    and target.value.attr.value == "settings"
                ):
                    return n
    return None


def stateless_note(evidence: str, writes_state: bool, who: str = "the resolver's", server: str = "MCPServer") -> str:
    """What the fix's description says on a stateless HTTP server (``evidence``: what
    :func:`stateless_http` found): the era it serves and, when the fix writes ``requestState``
    (``who``'s, sealed by ``server``), the key a multi-worker deployment needs."""
    note = (
        "2026-07-28 clients only: a stateless legacy connection has no back-channel, and "
        f"`{evidence} serves stateless HTTP, so legacy clients fail there as before"
    )
    if writes_state:
        note += (
            f"; {who} requestState is sealed with a key of one process: a multi-worker deployment needs "
            f"`RequestStateSecurity(keys=[...])` (`{server}(..., request_state_security=...)`) with a key every "
            "worker shares"
        )
    return note

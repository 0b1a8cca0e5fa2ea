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

from mcpmigrate.analysis import ModuleAnalysis, code_of, walk

#: Methods of an MCP server that take ``stateless_http=`` (mcp 2.x, fastmcp).
_RUNNERS = {"run", "run_async", "run_http_async", "streamable_http_app", "http_app"}
#: Where the module's own SDKs live (a constructor or function that takes ``stateless_http=``).
_SDK_HEADS = ("mcp.", "fastmcp.")


def stateless_http(a: ModuleAnalysis) -> str | None:
    """The code that makes the module serve stateless HTTP (memoized per module), else None."""
    return a.memo("interim.stateless_http", lambda: _find(a))


def _true(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def _find(a: ModuleAnalysis) -> str | None:
    for n in walk(a.module):
        if isinstance(n, cst.Call):
            head = a.qualname(n.func) or ""
            method = n.func.attr.value if isinstance(n.func, cst.Attribute) else None
            for arg in n.args:
                key = arg.keyword.value if arg.keyword is not None else None
                if not _true(arg.value):
                    continue
                if key == "stateless_http" and (method in _RUNNERS or head.startswith(_SDK_HEADS)):
                    return code_of(n)
                if key == "stateless" and head.endswith("StreamableHTTPSessionManager"):
                    return code_of(n)
        elif isinstance(n, cst.Assign) and _true(n.value):
            for t in n.targets:
                target = t.target
                if (
                    isinstance(target, cst.Attribute)
                    and target.attr.value == "stateless_http"
                    and isinstance(target.value, cst.Attribute)
                    and target.value.attr.value == "settings"
                ):
                    return code_of(n)
    return None


def stateless_note(evidence: str, writes_state: bool) -> str:
    """What the fix's description says on a stateless HTTP server: the era it serves and, when the
    fix writes ``requestState``, the key a multi-worker deployment needs."""
    shown = evidence.strip().splitlines()[0]
    note = (
        "2026-07-28 clients only: a stateless legacy connection has no back-channel, and "
        f"`{shown}` serves stateless HTTP, so legacy clients fail there as before"
    )
    if writes_state:
        note += (
            "; the resolver's requestState is sealed with a key of one process: a multi-worker deployment needs "
            "`RequestStateSecurity(keys=[...])` (`MCPServer(..., request_state_security=...)`) with a key every "
            "worker shares"
        )
    return note

"""The port of an mcp 1.x server to mcp 2.x (rules MCP5xx, opt-in with ``--target-sdk mcp2``).

Each finding's ``site`` is the fix module's own record of what changes (``renames``: imports and
their uses; ``constructor``: the high-level server's constructor and ``run()``; ``lowlevel``:
decorator handlers → ``Server(on_…=…)``; ``tool_errors``: a tool's body wrapped so its error text reaches the client; ``context``: the
request context passed down from the handler where 1.x read it from the server, and ``callers``: the
calls other modules make into such a helper, written in the project step; ``memory_client``: mcp
1.x's in-memory test helper → mcp 2.x's ``Client``; ``fastmcp4``: the
fastmcp 2/3 → 4 moves; ``cap``: MCP521's cap of an open ``mcp`` requirement, a dependency file's
change written with the run) and records its edits (``site.record(edits, analysis)``, a
:class:`~mcpmigrate.model.FixSite`, called by the pipeline's one loop, ``pipeline.record_edits``).
Several findings of one low-level server share one site, which is recorded once.

The port runs under every ``--strategy`` (its ``STRATEGY`` is not a choosable one), after the
roots fixes (``param``, ``configured``) in ``codemods.ORDER`` — they see the handler's own branch,
which the port's adapter would hide — and before the interim fixes, which see the ported code in
the next round.
"""

from __future__ import annotations

STRATEGY = "port"
# MCP513, MCP516, MCP517 (fastmcp 4, codemods.port.fastmcp4): manual
RULES: tuple[str, ...] = (
    "MCP501",
    "MCP502",
    "MCP503",
    "MCP504",
    "MCP505",
    "MCP506",
    "MCP507",
    "MCP508",
    "MCP509",
    "MCP510",
)
RULES += ("MCP511", "MCP512", "MCP514", "MCP515", "MCP518", "MCP519", "MCP522")

"""A module written for both SDK generations: the ``interim`` fix is refused until mcp 1.x goes.

Such a module imports under either SDK through compatibility blocks — ``try: from
mcp.server.fastmcp import …`` / ``except ModuleNotFoundError: from mcp.server.mcpserver import …``,
or ``try: from mcp.shared.exceptions import McpError`` / ``except ImportError: … MCPError as
McpError`` — and its project still allows mcp 1.x. Every interim form needs names only mcp 2.x
has (``Resolve``/``Elicit`` from ``mcp.server.mcpserver``, ``InputRequiredResult`` and
``is_version_at_least`` from ``mcp.types``), and the rewritten tool's signature reads them when
the module is imported, so the fixed module would no longer import under mcp 1.x. The fix is
refused, saying so, unless the project's pins already exclude mcp 1.x (``mcp>=2``, or ``fastmcp>=4``,
which runs on mcp 2.x only), or the module imports an mcp 2.x-only name outside the compatibility
blocks (it never imported under mcp 1.x); then the 1.x branch is dead code and the fix goes ahead.
"""

from __future__ import annotations

from mcpmigrate.analysis import ModuleAnalysis, code_of
from mcpmigrate.codemods.interim.refusals import compat_block, imports_mcp2_outside_blocks, project_pins

DUAL_SDK_REFUSE = (
    "this module also supports mcp 1.x, which has no resolvers: drop 1.x first or pin mcp>=2.3 "
    "(the compatibility block `{tried}` / `{fallback}` imports mcp 1.x names, and the project's pins allow "
    "mcp 1.x; the fix's mcp 2.x imports would stop the module importing there), then run "
    "`fix --strategy interim` again"
)


def dual_sdk_refusal(a: ModuleAnalysis) -> str | None:
    """Why the module gets no interim fix while it also supports mcp 1.x (memoized per module), else None."""
    return a.memo("interim.dual_sdk", lambda: _refusal(a))


def _refusal(a: ModuleAnalysis) -> str | None:
    block = compat_block(a)  # (refusals.compat_block: the same tables decide the module's generation)
    if block is None or imports_mcp2_outside_blocks(a):
        return None
    found = project_pins(a)
    mcp, fast = found.verdict("mcp"), found.verdict("fastmcp")
    if (mcp is not None and mcp.new) or (fast is not None and fast.new):
        return None
    tried, fallback = (code_of(x).strip() for x in block[:2])
    return DUAL_SDK_REFUSE.format(tried=tried, fallback=fallback)

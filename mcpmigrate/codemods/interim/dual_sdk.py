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

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.interim.refusals import project_pins

#: Imports only mcp 1.x has: (module prefix, name or None for any name).
_MCP1_ONLY = (("mcp.server.fastmcp", None), ("mcp.shared.exceptions", "McpError"), ("mcp", "McpError"))
#: Imports only mcp 2.x has.
_MCP2_ONLY = (
    ("mcp.server.mcpserver", None),
    ("mcp_types", None),
    ("mcp.shared.exceptions", "MCPError"),
    ("mcp", "MCPError"),
)

DUAL_SDK_REFUSE = (
    "this module also supports mcp 1.x, which has no resolvers: drop 1.x first or pin mcp>=2.3 "
    "(the compatibility block `{tried}` / `{fallback}` imports mcp 1.x names, and the project's pins allow "
    "mcp 1.x; the fix's mcp 2.x imports would stop the module importing there), then run "
    "`fix --strategy interim` again"
)


def _generations(node: cst.CSTNode) -> tuple[set[str], cst.ImportFrom | None, cst.ImportFrom | None]:
    """Which generations the ``from … import`` statements under ``node`` need (``"1"``/``"2"``),
    with the first import of each."""
    found: set[str] = set()
    first1 = first2 = None
    for n in walk(node):
        if not isinstance(n, cst.ImportFrom) or n.module is None or isinstance(n.names, cst.ImportStar):
            continue
        module = code_of(n.module)
        names = {a.name.value for a in n.names if isinstance(a.name, cst.Name)}
        for gen, table in (("1", _MCP1_ONLY), ("2", _MCP2_ONLY)):
            for prefix, name in table:
                in_module = module == prefix or (name is None and module.startswith(prefix + "."))
                if in_module and (name is None or name in names):
                    found.add(gen)
                    if gen == "1" and first1 is None:
                        first1 = n
                    if gen == "2" and first2 is None:
                        first2 = n
    return found, first1, first2


def _compat_block(a: ModuleAnalysis) -> tuple[cst.ImportFrom, cst.ImportFrom] | None:
    """The first ``try``/``except`` whose body and handlers import for different SDK generations:
    (the body's import, the handler's import)."""
    for n in walk(a.module):
        if not isinstance(n, cst.Try):
            continue
        tried, t1, t2 = _generations(n.body)
        fallback: set[str] = set()
        f1 = f2 = None
        for h in n.handlers:
            g, h1, h2 = _generations(h.body)
            fallback |= g
            f1, f2 = f1 or h1, f2 or h2
        if "1" in tried and "2" in fallback and t1 is not None and f2 is not None:
            return t1, f2
        if "2" in tried and "1" in fallback and t2 is not None and f1 is not None:
            return t2, f1
    return None


def dual_sdk_refusal(a: ModuleAnalysis) -> str | None:
    """Why the module gets no interim fix while it also supports mcp 1.x (memoized per module), else None."""
    return a.memo("interim.dual_sdk", lambda: _refusal(a))


def _needs_mcp2(a: ModuleAnalysis) -> bool:
    """The module imports an mcp 2.x-only name outside any ``try`` (it never imported under 1.x)."""
    plain = [s for s in a.module.body if isinstance(s, cst.SimpleStatementLine)]
    return any("2" in _generations(s)[0] for s in plain)


def _refusal(a: ModuleAnalysis) -> str | None:
    block = _compat_block(a)
    if block is None or _needs_mcp2(a):
        return None
    found = project_pins(a)
    mcp, fast = found.verdict("mcp"), found.verdict("fastmcp")
    if (mcp is not None and mcp.new) or (fast is not None and fast.new):
        return None
    tried, fallback = (code_of(x).strip() for x in block)
    return DUAL_SDK_REFUSE.format(tried=tried, fallback=fallback)

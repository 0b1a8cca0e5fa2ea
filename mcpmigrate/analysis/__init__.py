"""Per-module facts every rule shares: what names resolve to, which objects are MCP servers,
contexts and sessions, which functions are tools, and who calls whom.

Built in one libcst visitor pass plus a cheap fixed point over the collected facts; no libcst
metadata provider is used here (scope and qualified-name providers cost many times the parse).
Typing is flow-insensitive per function: a local name has a kind when any assignment in the
function gives it one. Names resolve through the module's imports, so ``Ctx`` imported as
``from mcp.server.fastmcp import Context as Ctx`` is a context and a click ``Context`` is not.

One job per module:

- :mod:`~mcpmigrate.analysis.facts` — the one-pass collector (imports, classes, functions,
  registrations, assignments) and name resolution through the imports;
- :mod:`~mcpmigrate.analysis.kinds` — what an expression is (contexts, sessions, servers),
  annotations, SDK generations;
- :mod:`~mcpmigrate.analysis.held` — what containers, attributes and started tasks hold
  (``registry.add(ctx.session)`` then ``for s in registry``; ``tg.start_soon(fn, ctx.session)``);
- :mod:`~mcpmigrate.analysis.calls` — the call graph (``callee_of``, ``callers``, the function
  around a node);
- :mod:`~mcpmigrate.analysis.module` — :class:`ModuleAnalysis`: the pass, then the fixed point
  that types names across assignments and calls.

This package re-exports the names the rules and fixes import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcpmigrate.analysis.facts import FunctionInfo, code_of
    from mcpmigrate.analysis.kinds import CONTEXTS, Kind
    from mcpmigrate.analysis.module import ModuleAnalysis
    from mcpmigrate.fastwalk import walk  # the read-only subtree walk the rules and codemods share

__all__ = ["CONTEXTS", "FunctionInfo", "Kind", "ModuleAnalysis", "code_of", "walk"]

# Imported on first use (PEP 562): ``mcpmigrate.analysis.project`` is read on a warm (cached) run,
# which must not load libcst through the other modules of this package.
_HOME = {
    "FunctionInfo": "mcpmigrate.analysis.facts",
    "code_of": "mcpmigrate.analysis.facts",
    "CONTEXTS": "mcpmigrate.analysis.kinds",
    "Kind": "mcpmigrate.analysis.kinds",
    "ModuleAnalysis": "mcpmigrate.analysis.module",
    "walk": "mcpmigrate.fastwalk",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value

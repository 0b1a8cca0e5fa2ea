"""The ``revision`` fix: node-for-node rewrites of what revision 2026-07-28 renumbered or
deprecated, planned at detection (``docs/architecture.md``, "How a finding becomes a fix").

- MCP602: the HTTP+SSE transport → Streamable HTTP (``run(transport="sse")`` →
  ``"streamable-http"``, ``sse_app()`` → ``streamable_http_app()``, ``run_sse_async()`` →
  ``run_streamable_http_async()``; the SSE-only keywords ``mount_path``, ``sse_path`` and
  ``message_path`` go). Always unsafe: clients connect to a new URL (``/mcp``, not ``/sse``).
- MCP603: the resource-not-found code ``-32002`` → ``-32602`` (changelog, minor change 6).
- MCP606: sampling's deprecated ``include_context="thisServer"/"allServers"`` → dropped.

Each plan's ``site`` is a :class:`Rewrite`; its ``record`` only replays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.deletions import delete
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.model import FixInfo, FixPlan, Safety

STRATEGY = "revision"
RULES = ("MCP602", "MCP603", "MCP606")


@dataclass
class Rewrite:
    """What one site's fix changes: nodes replaced by new ones, arguments or entries removed."""

    replace: list[tuple[cst.CSTNode, cst.CSTNode]] = field(default_factory=list)
    remove: list[cst.CSTNode] = field(default_factory=list)

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        """Replay the replacements; the removals of every site of the round go in one deletion
        (two keywords of one call leave one call behind), recorded after the last site."""
        for old, new in self.replace:
            edits.replace(old, new)
        if self.remove:
            gone: list[cst.CSTNode] = edits.shared("revision.gone", list, last=partial(delete, edits, analysis))
            gone.extend(self.remove)


def plan(site: Rewrite, safety: Safety, description: str) -> FixPlan:
    """The plan for one site (``description`` ends with ``(review: …)`` when unsafe)."""
    return FixPlan(fix=FixInfo(safety, STRATEGY, description), site=site)

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.deletions import delete
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.model import FixInfo, FixPlan, Safety

STRATEGY = "revision"
RULES = ("MCP602", "MCP603", "MCP606")

STREAMABLE = "streamable-http"  # the transport MCP602 serves instead of "sse"
RENAMED_METHODS = {"sse_app": "streamable_http_app", "run_sse_async": "run_streamable_http_async"}
NEW_NOT_FOUND = "-32602"  # MCP603: a missing resource (2026-07-28 changelog, minor change 6)


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


# -- the plans the revision detectors ask for ----------------------------------------------------
_REVIEW_602 = (
    "(review: clients connect to the Streamable HTTP endpoint, `/mcp` by default, instead of `/sse`: "
    "update their configurations{dropped})"
)


def _string_like(old: cst.BaseExpression, value: str) -> cst.SimpleString:
    """``value`` as a string literal written like ``old`` (its quote and prefix)."""
    quote = old.quote if isinstance(old, cst.SimpleString) else '"'
    prefix = old.prefix if isinstance(old, cst.SimpleString) else ""
    return cst.SimpleString(f"{prefix}{quote}{value}{quote}")


def _serve_streamable(site: Rewrite, dropped: Sequence[cst.Arg]) -> FixPlan:
    """MCP602's plan: ``site`` (the switch to Streamable HTTP) with the SSE-only keywords
    ``dropped`` removed; unsafe, clients connect to a new endpoint."""
    site.remove.extend(dropped)
    names = ", ".join(f"`{a.keyword.value}`" for a in dropped if a.keyword is not None)
    review = _REVIEW_602.format(dropped=f"; the SSE-only {names} goes" if names else "")
    return plan(site, Safety.UNSAFE, f"serve Streamable HTTP instead of SSE {review}")


def plan_sse_transport(values: Sequence[cst.BaseExpression], dropped: Sequence[cst.Arg]) -> FixPlan:
    """MCP602: ``run(transport="sse")`` (``values``: the ``"sse"`` literal, or each ``"sse"``
    branch of a conditional ``transport=``) → ``"streamable-http"``; the SSE-only keywords
    ``dropped`` go."""
    return _serve_streamable(Rewrite(replace=[(v, _string_like(v, STREAMABLE)) for v in values]), dropped)


def plan_sse_method(name: cst.Name, dropped: Sequence[cst.Arg]) -> FixPlan:
    """MCP602: ``sse_app()``/``run_sse_async()`` (``name``: the method's name) → its Streamable
    HTTP twin (:data:`RENAMED_METHODS`); the SSE-only keywords ``dropped`` go."""
    return _serve_streamable(Rewrite(replace=[(name, cst.Name(RENAMED_METHODS[name.value]))]), dropped)


_REVIEW_603 = (
    "use -32602 (review: a legacy client that matched -32002 sees -32602, as it does from mcp 2.x's "
    "own ResourceNotFoundError)"
)


def plan_not_found(node: cst.UnaryOperation) -> FixPlan:
    """MCP603: ``-32002`` (``node``) → ``-32602``."""
    new = cst.UnaryOperation(operator=cst.Minus(), expression=cst.Integer(NEW_NOT_FOUND[1:]))
    return plan(Rewrite(replace=[(node, new)]), Safety.UNSAFE, _REVIEW_603)


_REVIEW_606 = "drop `{kw}` (review: the client no longer adds its own context to the prompt)"


def plan_drop_context(node: cst.Arg | cst.DictElement, keyword: str) -> FixPlan:
    """MCP606: the deprecated ``include_context=…`` argument or ``"includeContext"`` entry
    (``node``, spelled ``keyword`` in the description) goes."""
    return plan(Rewrite(remove=[node]), Safety.UNSAFE, _REVIEW_606.format(kw=keyword))

"""MCP519: a camelCase field read or written on a raw mcp 2.x object in a project ported to
fastmcp 4 (``--target-sdk fastmcp4``).

fastmcp 4 runs on mcp 2.x, whose protocol models name their fields in snake_case (MCP506 is the
same rename for ``--target-sdk mcp2``). fastmcp's “Upgrading from FastMCP 3” guide
(docs/getting-started/upgrading/from-fastmcp-3.mdx): “Raw session access sees v2 objects” —
``ctx.session``, ``ctx.request_context`` and what they return are not wrapped — while a
compatibility bridge keeps some camelCase *reads* working (fastmcp 4.2.3 ``fastmcp/_compat.py``
``_ALIASES``: read-only properties, so a write still fails). A read the bridge covers is not
reported; every other camelCase field of an ``mcp.types`` model is, where the receiver resolves to
that model: MCP506's receivers (annotation, constructor) plus the chain from a fastmcp ``Context``
(``ctx.session.client_params`` is ``InitializeRequestParams``; ``get_context()`` of
``fastmcp.server.dependencies``, and names bound to such a chain by ``=`` or ``:=``).
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.codemods.port import renames
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.detectors.port import names_mcp
from mcpmigrate.detectors.port_fastmcp import GUIDE4
from mcpmigrate.detectors.port_types import FieldVisitor, PortFieldDetector

# fastmcp 4.2.3's camelCase bridge (``fastmcp._compat._ALIASES``): reads that keep working there.
BRIDGED: dict[str, frozenset[str]] = {
    "Tool": frozenset({"inputSchema", "outputSchema"}),
    "ToolAnnotations": frozenset({"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}),
    "Resource": frozenset({"mimeType"}),
    "ResourceTemplate": frozenset({"mimeType", "uriTemplate"}),
    "TextResourceContents": frozenset({"mimeType"}),
    "BlobResourceContents": frozenset({"mimeType"}),
    "ImageContent": frozenset({"mimeType"}),
    "AudioContent": frozenset({"mimeType"}),
    "CallToolResult": frozenset({"isError", "structuredContent"}),
    "Completion": frozenset({"hasMore"}),
    "InitializeResult": frozenset({"serverInfo", "protocolVersion"}),
    "ListToolsResult": frozenset({"nextCursor"}),
    "ListResourcesResult": frozenset({"nextCursor"}),
    "ListResourceTemplatesResult": frozenset({"nextCursor", "resourceTemplates"}),
    "ListPromptsResult": frozenset({"nextCursor"}),
    "CreateMessageRequestParams": frozenset(
        {"systemPrompt", "maxTokens", "stopSequences", "modelPreferences", "toolChoice"}
    ),
    "ElicitRequestFormParams": frozenset({"requestedSchema"}),
}


class PortFastmcpFieldDetector(Detector):
    """MCP519: ``ctx.session.client_params.clientInfo`` (and every camelCase field of an
    ``mcp.types`` model fastmcp 4's bridge does not cover) → the snake_case field."""

    rules = ("MCP519",)
    tokens = PortFieldDetector.tokens
    screen = staticmethod(names_mcp)

    def detect(self) -> list[Report]:
        v = _Fastmcp4FieldVisitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports


class _Fastmcp4FieldVisitor(FieldVisitor):
    def found(self, node: cst.Attribute | cst.SimpleString, cls: str, field: str, new: str) -> None:
        if field in BRIDGED.get(cls, ()) and not self._written(node):
            return  # fastmcp 4 still answers this read
        old, renamed = self.spelled(node, field, new)
        self.reports.append(
            Report.planned(
                "MCP519",
                node,
                f"`{old}` is `{renamed}` on fastmcp 4 (`{cls}`, an mcp 2.x object). fastmcp 4 runs on "
                f"mcp 2.x, whose models name their fields in snake_case, and does not wrap raw SDK objects "
                f"(read “Raw session access sees v2 objects” in {GUIDE4}).",
                renames.plan_attr_rename(node, new),
            )
        )

    def _written(self, node: cst.Attribute | cst.SimpleString) -> bool:
        parent = self.a.parents.get(id(node))
        return isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)) and (
            getattr(parent, "target", None) is node
        )

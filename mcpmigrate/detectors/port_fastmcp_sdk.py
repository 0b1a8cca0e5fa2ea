"""MCP511 (:class:`.port_fastmcp_imports.PortFastmcpImportDetector`) for FastMCP 1.0 in a project ported to fastmcp 4 (``--target-sdk fastmcp4``): an import
of mcp 1.x's ``mcp.server.fastmcp``.

fastmcp 4 runs on mcp 2.x, which has no ``mcp.server.fastmcp``: the module fails with
``ModuleNotFoundError`` at import. fastmcp's “Upgrading from MCP SDK v1” guide (docs/getting-started/
upgrading/from-mcp-sdk-v1.mdx, “Other `mcp.*` Imports”) gives the fastmcp names
(:data:`mcpmigrate.codemods.port.fastmcp4.SDK1_MOVES`); the plan and its safety are
:func:`mcpmigrate.codemods.port.fastmcp4.plan_sdk1_import`. Every module counts, not only those that
import fastmcp: under this target the whole project runs on fastmcp 4's mcp.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.codemods.port import fastmcp4 as F
from mcpmigrate.detectors.base import Report, ReportingVisitor
from mcpmigrate.detectors.port import kept

GUIDE1 = "fastmcp's “Upgrading from MCP SDK v1” guide"


def _sdk1(module: str) -> bool:
    return module == S.FASTMCP_V1_MODULE or module.startswith(S.FASTMCP_V1_MODULE + ".")


class Sdk1Visitor(ReportingVisitor):
    def __init__(self, analysis, config) -> None:
        super().__init__(analysis)
        self.config = config

    def _kept(self) -> set[str]:
        return kept(self.a, self.config)

    def _message(self, mod: str, names: list[str]) -> str:
        moves = ", ".join(f"`{n}` is `{F.SDK1_MOVES[n]}.{n}`" for n in names if n in F.SDK1_MOVES)
        return (
            f"`{mod}` (FastMCP 1.0) is gone on fastmcp 4" + (f", where {moves}" if moves else "") + ". "
            f"fastmcp 4 runs on mcp 2.x, which has no `mcp.server.fastmcp`: the module fails at import with "
            f"`ModuleNotFoundError` (read “Other `mcp.*` Imports” in {GUIDE1})."
        )

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        mod = get_full_name_for_node(node.module) or ""
        if not _sdk1(mod):
            return
        if isinstance(node.names, cst.ImportStar):
            self.report("MCP511", node, self._message(mod, []), manual="import each name you use from fastmcp 4")
            return
        names = [get_full_name_for_node(a.name) or "" for a in node.names]
        line = self.a.parents.get(id(node))
        assert line is not None
        plan = F.plan_sdk1_import(self.a, node, line, self._kept())
        self.reports.append(Report.planned("MCP511", node, self._message(mod, names), plan))

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = get_full_name_for_node(alias.name) or ""
            if _sdk1(full):
                self.report(
                    "MCP511",
                    node,
                    self._message(full, []),
                    manual=f"rewrite the import and its dotted uses by hand with fastmcp 4's names "
                    f"({', '.join(f'`{n}` is `{m}.{n}`' for n, m in F.SDK1_MOVES.items())})",
                )

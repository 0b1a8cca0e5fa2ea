"""MCP511: an import of a fastmcp module or name fastmcp 4 removed (``--target-sdk fastmcp4``).

The moves are fastmcp's upgrade guide's “Moved Imports” table (docs/getting-started/upgrading/
from-fastmcp-3.mdx), checked against fastmcp 2.14.7, 3.4.11 and 4.2.3 (``mcpmigrate/surfaces.py``,
``FASTMCP4_MOVES``/``FASTMCP4_GONE``): a move to a module with the same names is regrouped
(:class:`mcpmigrate.codemods.port.fastmcp4.ImportMove`), a rename in the same module renames every
use (:func:`mcpmigrate.codemods.port.renames.plan_import`), anything else is left for a human with
the guide's replacement.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.codemods.port import fastmcp4 as F
from mcpmigrate.codemods.port import renames
from mcpmigrate.detectors.base import Detector, Report, ReportingVisitor
from mcpmigrate.detectors.port import kept, names_mcp
from mcpmigrate.detectors.port_fastmcp import GUIDE4, imports_fastmcp
from mcpmigrate.detectors.port_fastmcp_sdk import Sdk1Visitor
from mcpmigrate.detectors.port_types import GoneImportVisitor, PortImportDetector
from mcpmigrate.model import FixPlan


class PortFastmcpImportDetector(Detector):
    """MCP511: an import of a module or name fastmcp 4 removed (“Moved Imports”)."""

    rules = ("MCP511",)
    tokens = (*S.FASTMCP4_TOKENS, *PortImportDetector.tokens)
    screen = staticmethod(lambda facts: imports_fastmcp(facts) or names_mcp(facts))

    def detect(self) -> list[Report]:
        out: list[Report] = []
        if any(q.split(".")[0] == "fastmcp" for q in self.analysis.imports.values()):
            v = _ImportVisitor(self.analysis, self.config)
            self.analysis.flat.visit(v)
            out += v.reports
        # in any module of the project (fastmcp 4's mcp is 2.x): FastMCP 1.0 imports, and what else mcp 2.x
        # removed (MCP509's table and fixes, reported as this rule)
        for other in (
            Sdk1Visitor(self.analysis, self.config),
            GoneImportVisitor(self.analysis, "MCP511", handler_tables=False),
        ):
            self.analysis.flat.visit(other)
            out += other.reports
        return out


class _ImportVisitor(ReportingVisitor):
    def __init__(self, analysis, config) -> None:
        super().__init__(analysis)
        self.config = config

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        mod = get_full_name_for_node(node.module) or ""
        moves = S.FASTMCP4_MOVES.get(mod, {})
        gone_module = mod in S.FASTMCP4_GONE_MODULES
        if isinstance(node.names, cst.ImportStar):
            if gone_module:
                self._manual(
                    node, mod, f"`from {mod} import *` names what fastmcp 4 moved: import each name from its new module"
                )
            return
        names = [get_full_name_for_node(a.name) or "" for a in node.names]
        gone = [(n, S.FASTMCP4_GONE[(mod, n)]) for n in names if (mod, n) in S.FASTMCP4_GONE]
        gone += [
            (n, S.FASTMCP4_GONE[(mod, "")])
            for n in names
            if (mod, "") in S.FASTMCP4_GONE and (mod, n) not in S.FASTMCP4_GONE
        ]
        moved = [n for n in names if n in moves]
        if mod.startswith("mcp") and not moved:
            return
        if not gone and not moved and not gone_module:
            return
        unknown = [n for n in names if n not in moves and (mod, n) not in S.FASTMCP4_GONE] if gone_module else []
        if gone or unknown:
            why = "; ".join(f"`{n}`: {hint}" for n, hint in gone)
            if unknown:
                why += ("; " if why else "") + (
                    f"{', '.join(f'`{n}`' for n in unknown)}: not in the guide's moves; import "
                    f"{'it' if len(unknown) == 1 else 'them'} from where fastmcp 4 defines {'it' if len(unknown) == 1 else 'them'}"
                )
            self._manual(node, mod, why)
            return
        targets = {moves[n] for n in moved}
        message = (
            f"`{mod}` has no "
            + ", ".join(f"`{n}`" for n in moved)
            + " on fastmcp 4: "
            + "; ".join(f"`{n}` is `{moves[n][0]}.{moves[n][1]}`" for n in moved)
            + f" (read “Moved Imports” in {GUIDE4})."
        )
        if all(new == old for old, new in ((n, moves[n][1]) for n in moved)):
            plan = self._regroup(node, mod, moves)
        elif {m for m, _ in targets} == {mod}:
            plan = renames.plan_import(self.a, node, mod, {n: moves[n][1] for n in moved}, self._kept())
            plan = F.as_move(plan)
        else:  # not in the tables: a move and a rename at once
            plan = FixPlan(manual="rewrite the import by hand as the finding says")
        self.reports.append(Report.planned("MCP511", node, message, plan))

    def _regroup(self, node: cst.ImportFrom, mod: str, moves: dict[str, tuple[str, str]]) -> FixPlan:
        return F.plan_import_move(node, self.a.parents.get(id(node)), mod, moves)  # type: ignore[arg-type]

    def _kept(self) -> set[str]:
        return kept(self.a, self.config)

    def _manual(self, node: cst.CSTNode, mod: str, why: str) -> None:
        self.report(
            "MCP511",
            node,
            f"`{mod}` imports what fastmcp 4 removed; the import fails there with `ImportError` "
            f"(read “Moved Imports” in {GUIDE4}).",
            manual=why,
        )

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = get_full_name_for_node(alias.name) or ""
            if full in S.FASTMCP4_GONE_MODULES:
                self._manual(
                    node, full, f"`import {full}`: rewrite the import and its dotted uses as the guide's table says"
                )

"""The renames of the port to mcp 2.x: ``mcp.server.fastmcp`` → ``mcp.server.mcpserver`` with
``FastMCP`` → ``MCPServer`` (MCP501), and ``McpError`` → ``MCPError`` (MCP502).

Source: mcp 2.3's ``mcp.server.mcpserver`` (every submodule of 1.27's ``mcp.server.fastmcp``
under the same name; ``FastMCP`` and ``FastMCPError`` renamed) and ``mcp.shared.exceptions``
(``MCPError(code, message, data)``, ``MCPError.from_error_data``; no ``.error`` attribute).
A rename is planned only when every reference to the imported name can be renamed with it:
the name is bound once, by the import (no shadowing).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import name_refs


def module_bindings(analysis: ModuleAnalysis) -> dict[str, int]:
    """How many times each name is bound anywhere in the module (imports, assignments,
    definitions, parameters, ``except … as``), memoized."""

    def compute() -> dict[str, int]:
        import ast

        counts: dict[str, int] = {}
        for node in ast.walk(ast.parse(analysis.module.code)):
            name = None
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                name = node.id
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = node.name
            elif isinstance(node, ast.arg):
                name = node.arg
            elif isinstance(node, ast.alias):
                name = node.asname or node.name.split(".")[0]
            elif isinstance(node, ast.ExceptHandler):
                name = node.name
            if name:
                counts[name] = counts.get(name, 0) + 1
        return counts

    return analysis.memo("port.bindings", compute)


@dataclass
class ImportRename:
    """One ``from <module> import …`` statement to rewrite: its new module, the imported names to
    rename (old → new) and, for names imported without ``as``, every reference to rename."""

    node: cst.ImportFrom
    module: str
    names: dict[str, str]
    refs: list[cst.Name] = field(default_factory=list)
    calls: list[cst.Call] = field(default_factory=list)  # McpError(error_data) → MCPError.from_error_data(…)
    error_reads: list[cst.Attribute] = field(default_factory=list)  # e.error.message → e.message

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        names = self.names
        module = self.module

        def rewrite(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(upd, cst.ImportFrom) and not isinstance(upd.names, cst.ImportStar)
            aliases = [
                a.with_changes(name=cst.Name(names[a.name.value]))
                if isinstance(a.name, cst.Name) and a.name.value in names
                else a
                for a in upd.names
            ]
            return upd.with_changes(module=cst.parse_expression(module), names=aliases)

        edits.transform(self.node, rewrite)
        for ref in self.refs:
            new = names.get(ref.value)
            if new:
                edits.replace(ref, cst.Name(new))
        for call in self.calls:
            edits.transform(
                call,
                lambda o, u: (
                    u.with_changes(func=cst.Attribute(u.func, cst.Name("from_error_data")))
                    if isinstance(u, cst.Call)
                    else u
                ),
            )
        for read in self.error_reads:
            edits.transform(read, _drop_error_hop)


def _drop_error_hop(orig: cst.CSTNode, upd: cst.CSTNode) -> cst.CSTNode:
    """``e.error.message`` → ``e.message`` (the ``.error`` hop of 1.x's McpError)."""
    assert isinstance(upd, cst.Attribute) and isinstance(upd.value, cst.Attribute)
    return upd.with_changes(value=upd.value.value)


SAFE_RENAME = FixInfo(
    Safety.SAFE,
    "port",
    "rename the import and its uses to mcp 2.x's names (same objects, same behaviour)",
)


def new_module(module: str) -> str:
    """``mcp.server.fastmcp[.sub]`` → ``mcp.server.mcpserver[.sub]``."""
    return S.MCPSERVER_V2_MODULE + module[len(S.FASTMCP_V1_MODULE) :]


def plan_import(
    analysis: ModuleAnalysis, node: cst.ImportFrom, module: str, renames: dict[str, str], rule_names: set[str]
) -> FixPlan:
    """The plan for one ``from module import …`` of the port: rename the module (already
    decided by the caller, ``module``) and the names of ``renames`` with every reference.
    Manual when a renamed name is bound again elsewhere (a reference could be the other binding),
    or when the import names something the 2.x module no longer has."""
    assert not isinstance(node.names, cst.ImportStar)
    old_module = get_full_name_for_node(node.module) if node.module is not None else ""
    old_module = old_module or ""
    gone = S.MCPSERVER_GONE.get(old_module, set())
    bindings = module_bindings(analysis)
    site = ImportRename(node, module, {})
    for alias in node.names:
        name = get_full_name_for_node(alias.name) or ""
        if name in gone:
            return FixPlan(
                manual=f"`{name}` is no longer in `{old_module}` on mcp 2.x: import it from where mcp 2.x defines it "
                f"(see {S.MIGRATION_GUIDE})"
            )
        if name in renames:
            site.names[name] = renames[name]
            if alias.asname is None:
                if bindings.get(name, 0) != 1:
                    return FixPlan(
                        manual=f"`{name}` is bound more than once in this module: rename its uses to `{renames[name]}` by hand"
                    )
                site.refs.extend(name_refs(analysis.module, name))
    return FixPlan(fix=SAFE_RENAME, site=site)


@dataclass
class AttrRename:
    """``ctx.fastmcp`` → ``ctx.mcp_server``."""

    node: cst.Attribute
    new: str

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        new = self.new
        edits.transform(
            self.node, lambda o, u: u.with_changes(attr=cst.Name(new)) if isinstance(u, cst.Attribute) else u
        )

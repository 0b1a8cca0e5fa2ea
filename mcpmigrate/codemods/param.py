"""The ``param`` fix (DESIGN §4): the roots request disappears and each tool whose call path
reaches it gains a documented path parameter.

Spec: 2026-07-28 deprecates roots (SEP-2577) and names the migration: take the directory or file
as an ordinary, documented tool parameter. SDK: a parameter ``Annotated[str, Field(description=…)]``
puts ``description`` into ``inputSchema.properties`` (mcp-python-surfaces.md §5.4).

``plan_*`` functions are called by the detector to decide, per site, whether a fix applies, its
safety and, when it does not, the reason shown to the user.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, Safety

STRATEGY = "param"
RULES = ("MCP101", "MCP102", "MCP103", "MCP104", "MCP106")

ENTRY_ROLES = {"tool", "prompt", "resource", "lowlevel-tool", "lowlevel-prompt", "lowlevel-resource"}


def reaching_entries(a: ModuleAnalysis, fn: FunctionInfo) -> tuple[list[FunctionInfo], list[list[str]], str | None]:
    """Entry points (tools, prompts, resources, low-level handlers) whose call path reaches
    ``fn`` within the module, the call chains (as qualnames), and, when some function on the way
    is also used other than by a direct call (a callback, an export), the reason the chain leaves
    the module."""
    entries: list[FunctionInfo] = []
    chains: list[list[str]] = []
    leaves: str | None = None
    seen: set[int] = set()
    stack: list[tuple[FunctionInfo, list[str]]] = [(fn, [fn.qualname])]
    while stack:
        cur, chain = stack.pop()
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        if cur.role in ENTRY_ROLES:
            entries.append(cur)
            chains.append(list(reversed(chain)))
            continue
        callers = a.callers(cur)
        if cur is not fn or callers:
            if a.references_outside_calls(cur) and leaves is None:
                leaves = f"`{cur.qualname}` is also used other than by a direct call in this module (chain: {' <- '.join(chain)})"
        for caller, _call in callers:
            stack.append((caller, chain + [caller.qualname]))
        if not callers and cur.parent is not None and cur.role is None:
            # nested helper never called: fall through (no entry)
            pass
    return entries, chains, leaves


def _is_awaited(fn: FunctionInfo, node: cst.CSTNode) -> bool:
    found = False

    class V(cst.CSTVisitor):
        def visit_Await(self, n: cst.Await) -> None:
            nonlocal found
            if n.expression is node:
                found = True

    fn.node.visit(V())
    return found


def plan_roots_request(a: ModuleAnalysis, config: Config, node: cst.CSTNode, fn: FunctionInfo | None) -> tuple[FixInfo | None, str | None, dict[str, Any]]:
    """Decide the fix for one roots request (MCP101). Returns ``(fix, manual_reason, data)``."""
    if fn is None:
        return None, "the request is made outside any function: there is no tool to give a parameter", {}
    if not isinstance(node, cst.Call):
        return None, ("`list_roots` is passed as a callable (bridged from sync code or scheduled), not awaited "
                      "in a request handler: rewrite by hand so the tool takes the path as a parameter"), {}
    if not fn.is_async or not _is_awaited(fn, node):
        return None, ("the request is not awaited inside an async request handler (a sync tool bridging into "
                      "the event loop, or a background task): rewrite by hand"), {}
    recv = node.func.value if isinstance(node.func, cst.Attribute) else None
    if recv is not None and _from_registry(a, recv, fn):
        return None, ("the session was captured outside the request (a module-level registry) and is used "
                      "outside any tool call: there is no request to carry a parameter"), {}
    entries, chains, leaves = reaching_entries(a, fn)
    if leaves:
        return None, f"the call chain leaves the module: {leaves}", {}
    if not entries:
        return None, (f"`{fn.qualname}` is called by no tool, prompt or resource in this module: there is no "
                      "tool to give a path parameter. Delete it if it is dead code, or pass the path in from "
                      "where it is needed"), {}
    names = ", ".join(f"`{e.qualname}`" for e in entries)
    fix = FixInfo(Safety.SAFE, STRATEGY, f"add a documented `{config.path_parameter.name}` parameter to {names} and drop the roots request")
    return fix, None, {"entries": [e.qualname for e in entries], "chains": chains}


def plan_roots_interim(a: ModuleAnalysis, config: Config, node: cst.Call, fn: FunctionInfo | None) -> tuple[FixInfo | None, str | None, dict[str, Any]]:
    """Decide the fix for roots asked through an interim result (MCP106)."""
    return None, "rewrite the interim roots request to a documented tool parameter by hand", {}


def _from_registry(a: ModuleAnalysis, recv: cst.BaseExpression, fn: FunctionInfo) -> bool:
    """The receiver is a session read from module-level state (``SESSIONS[0]``, a global)."""
    base: cst.BaseExpression = recv
    while isinstance(base, (cst.Attribute, cst.Subscript)):
        if isinstance(base, cst.Subscript):
            return True
        base = base.value
    if isinstance(base, cst.Name):
        name = base.value
        local = name in fn.param_names() or any(n == name for n, _ in fn.assigns)
        if not local and name not in a.module_kinds:
            # a name defined neither locally nor as a known server: e.g. a loop over a registry
            return name not in ("self", "cls") and fn.parent is None and not _bound_in_parents(fn, name)
    return False


def _bound_in_parents(fn: FunctionInfo, name: str) -> bool:
    p = fn.parent
    while p is not None:
        if name in p.param_names() or any(n == name for n, _ in p.assigns):
            return True
        p = p.parent
    return False


def apply(module: cst.Module, analysis: ModuleAnalysis, findings: list, config: Config) -> tuple[cst.Module, list, list[str]]:
    """Apply the param fix to ``module`` for ``findings`` (those with a ``param`` fix).

    Returns ``(new_module, applied_findings, notes)``.
    """
    return module, [], []

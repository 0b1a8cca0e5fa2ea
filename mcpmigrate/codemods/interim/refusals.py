"""Which SDK generation a request's code runs on once the project's dependency pins are heard,
and the refusals that follow from it.

The pins (:mod:`mcpmigrate.pins`: pyproject, requirements, setup.cfg, the nearest project files
above the module) are heard where the code leaves the generation open: ``fastmcp<4`` (or
``mcp<2``) refuses fastmcp code naming the pin; ``fastmcp>=4`` (or ``mcp>=2``) makes it fastmcp 4
whatever else the module uses (a call fastmcp 4 removed is still refused at its own site, by
:mod:`.fastmcp`); ``mcp<2`` refuses mcp code; ``mcp>=2`` places code the imports do not. mcp 1.x
has no interim form at all (it cannot serve 2026-07-28): refused, naming the SDK upgrade and, for
roots, the ``param`` strategy (README, "Fix strategies"); a module that imports mcp 2.x and keeps
an ``except ImportError`` fallback to mcp 1.x is told to drop the fallback.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from mcpmigrate import pins
from mcpmigrate import surfaces as S
from mcpmigrate.analysis import ModuleAnalysis, code_of, walk
from mcpmigrate.codemods.interim.fastmcp import FASTMCP_REFUSE
from mcpmigrate.codemods.interim.sites import ROOTS

REFUSE_MCP1 = (
    "mcp 1.x has no interim form (it cannot serve 2026-07-28 at all): upgrade to mcp 2.x "
    "(`MCPServer`, or `Server(on_call_tool=…)`) and run `fix --strategy interim` again"
)
REFUSE_MCP1_ROOTS = REFUSE_MCP1 + ", or take the directory as a tool parameter with `fix --strategy param`"


def project_pins(a: ModuleAnalysis) -> pins.Pins:
    """The project's SDK pins, asked only when a request needs the generation (once per module).

    Looked up from the file's directory upwards (the nearest project files), or from the working
    directory when the module has no path."""
    return a.memo("interim.pins", lambda: pins.ported(pins.project_pins(a.path or Path.cwd()), a.target_sdk))


def pinned_generation(
    a: ModuleAnalysis, gen: str | None, kind: str, how: str = ""
) -> tuple[str | None, str | None, str | None]:
    """The generation once the project's pins are heard: ``(generation, refusal, pin note)``.

    ``mcp<2`` refuses (no interim form; for fastmcp code: fastmcp 4 needs mcp 2). fastmcp code under
    ``fastmcp<4`` is refused; under ``fastmcp>=4`` (or ``mcp>=2``, which fastmcp 2.x/3.x cannot run on)
    it is fastmcp 4 whatever the rest of the module looks like. Code the analysis cannot place is
    mcp 2.x under ``mcp>=2``. The note names the pin the decision was based on; ``how`` is what the
    fastmcp 4 upgrade advice adds for this call (:func:`.fastmcp.upgrade_how`)."""
    found = project_pins(a)
    mcp, fast = found.verdict("mcp"), found.verdict("fastmcp")
    if gen == S.FASTMCP:
        old = fast if fast is not None and not fast.new else mcp if mcp is not None and not mcp.new else None
        if old is not None:
            why = f"the project pins {old.describe()}" + (
                ", and fastmcp 4 needs mcp 2.x" if old.package == "mcp" else ""
            )
            return gen, FASTMCP_REFUSE.format(why=why, how=how), None
        new = fast if fast is not None else mcp
        return gen, None, (f"the project pins {new.describe()}" if new is not None and new.new else None)
    if mcp is not None and not mcp.new:
        return gen, f"the project pins {mcp.describe()}: " + (REFUSE_MCP1_ROOTS if kind == ROOTS else REFUSE_MCP1), None
    if gen is None and mcp is not None:
        return S.MCP2, None, f"the project pins {mcp.describe()}"
    return gen, None, None


def mcp1_refusal(a: ModuleAnalysis, kind: str) -> str:
    """Why mcp 1.x code has no interim form: the SDK upgrade; when the module keeps an mcp 1.x
    fallback next to its mcp 2.x imports, dropping that fallback (and, for roots, the ``param``
    strategy, which works on both)."""
    if not _dual_sdk_fallback(a):
        return REFUSE_MCP1_ROOTS if kind == ROOTS else REFUSE_MCP1
    return (
        "this module also supports mcp 1.x (the `except ImportError` fallback to `mcp.server.fastmcp`); "
        "resolvers exist only in mcp 2.x: drop the 1.x fallback to use `fix --strategy interim`"
        + (
            ", or take the directory as a tool parameter with `fix --strategy param`, which works on both"
            if kind == ROOTS
            else ""
        )
    )


def _dual_sdk_fallback(a: ModuleAnalysis) -> bool:
    """``try: from mcp.server.mcpserver import …`` / ``except ImportError: from mcp.server.fastmcp
    import …``: the module runs on mcp 2.x and keeps an mcp 1.x fallback."""
    for stmt in a.module.body:
        if not isinstance(stmt, cst.Try):
            continue
        tried = {code_of(n.module) for n in walk(stmt.body) if isinstance(n, cst.ImportFrom) and n.module is not None}
        fallback = {
            code_of(n.module)
            for h in stmt.handlers
            for n in walk(h.body)
            if isinstance(n, cst.ImportFrom) and n.module is not None
        }
        if any(m.startswith("mcp.server.mcpserver") for m in tried) and any(
            m.startswith("mcp.server.fastmcp") for m in fallback
        ):
            return True
    return False

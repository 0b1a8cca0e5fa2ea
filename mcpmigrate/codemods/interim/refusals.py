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

A pin that admits both generations (``fastmcp>=3.2.0``, with no lockfile to say what it resolves
to) decides nothing; then names only one generation has decide (:func:`code_generation`): mcp 1.x's
``mcp.shared.exceptions.McpError`` and ``mcp.server.fastmcp`` (fastmcp 2.x/3.x run on mcp 1.x),
mcp 2.x's ``MCPError``/``NoBackChannelError``, ``mcp.server.mcpserver`` and ``mcp_types``. fastmcp
code on mcp 1.x is refused as under ``fastmcp<4``: the guard pattern's imports (``mcp_types``) do
not exist there.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from mcpmigrate import pins
from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis, code_of
from mcpmigrate.codemods.interim.fastmcp import FASTMCP_REFUSE
from mcpmigrate.codemods.interim.sites import ROOTS

_UPGRADE_MCP1 = (
    "mcp 1.x has no interim form (it cannot serve 2026-07-28 at all): upgrade to mcp 2.x "
    "(`MCPServer`, or `Server(on_call_tool=…)`) and run `fix --strategy interim` again"
)
# the port (README, "Port to mcp 2.x") does the upgrade in the same run
_ONE_RUN = "; `fix --target-sdk mcp2 --strategy interim` does both in one run"
REFUSE_MCP1 = _UPGRADE_MCP1 + _ONE_RUN
REFUSE_MCP1_ROOTS = _UPGRADE_MCP1 + ", or take the directory as a tool parameter with `fix --strategy param`" + _ONE_RUN

# Names that exist in one mcp generation only (mcp 1.29 / mcp 2.0 ``mcp.shared.exceptions`` and
# the ``mcp`` package's re-exports: ``McpError`` became ``MCPError``, ``NoBackChannelError`` is new),
# and module prefixes.
_MCP1_ONLY = {
    "mcp.shared.exceptions.McpError": "`McpError` from `mcp.shared.exceptions`",
    "mcp.McpError": "`McpError` from `mcp`",
}
_MCP2_ONLY = {
    "mcp.shared.exceptions.MCPError": "`MCPError` from `mcp.shared.exceptions`",
    "mcp.shared.exceptions.NoBackChannelError": "`NoBackChannelError` from `mcp.shared.exceptions`",
    "mcp.MCPError": "`MCPError` from `mcp`",
}
_MCP1_PREFIXES = ("mcp.server.fastmcp",)
_MCP2_PREFIXES = ("mcp.server.mcpserver", "mcp_types")


def framework_refusal(a: ModuleAnalysis, call: cst.Call, fn: FunctionInfo, kind: str) -> str | None:
    """Why a request of a server built on a framework pinned to mcp 1.x (``surfaces.FRAMEWORK_SDK_PINS``:
    mcp-use's ``MCPServer`` and ``Context`` subclass mcp 1.x's ``FastMCP`` and its ``Context``) has no
    interim form: the framework keeps the server on mcp 1.x whatever the project pins, and the port
    (``--target-sdk mcp2``) renames the SDK's names, not the framework's classes, so a resolver written
    into the tool would not import (``mcp.server.mcpserver`` is not in mcp 1.x). None when neither the
    request's context nor a server the module builds is such a framework's class."""
    assert isinstance(call.func, cst.Attribute)
    found = a.framework_context(call.func.value, fn)
    q = found[0] if found is not None else _framework_server(a)
    if q is None or q.split(".", 1)[0] not in S.FRAMEWORK_SDK_PINS:
        return None
    dist, pin = S.FRAMEWORK_SDK_PINS[q.split(".", 1)[0]]
    what = f"the context `{code_of(call.func.value)}` is `{q}`" if found is not None else f"the server is `{q}`"
    return (
        f"{what}, {dist}'s subclass of mcp 1.x's `{S.FRAMEWORK_CLASSES[q].rsplit('.', 1)[-1]}`, and {dist} "
        f"requires `{pin}`: mcp 1.x has no interim form, and neither `fix --strategy interim` nor the port "
        f"(`--target-sdk mcp2`, which renames the SDK's names, not {dist}'s classes) can move this server to "
        "mcp 2.x. Keep the request while the server serves legacy clients; for 2026-07-28, register the tool on "
        "mcp 2.x's `MCPServer` by hand and run `fix --strategy interim` there"
        + (", or take the directory as a tool parameter with `fix --strategy param`" if kind == ROOTS else "")
    )


def _framework_server(a: ModuleAnalysis) -> str | None:
    """The framework server class (``surfaces.FRAMEWORK_CLASSES``, e.g. ``mcp_use.server.MCPServer``) a
    server of this module is built from, or None."""

    def compute() -> str | None:
        for call in a.nodes(cst.Call):
            q = a.qualname(call.func)
            if q in S.FRAMEWORK_CLASSES and S.FRAMEWORK_CLASSES[q] in S.HIGH_LEVEL_SERVERS | S.LOWLEVEL_SERVERS:
                return q
        return None

    return a.memo("interim.framework_server", compute)


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
    if gen == S.MCP1 and a.target_sdk == "mcp2":
        # this run ports the project to mcp 2.x, every module or none (codemods/port/project.py):
        # code the analysis places on mcp 1.x (a context an mcp 1.x tool of another module passes
        # in, read before that module is ported) runs on mcp 2.x once it is written
        gen = S.MCP2
    found = project_pins(a)
    mcp, fast = found.verdict("mcp"), found.verdict("fastmcp")
    if fast is None and mcp is None:
        code_gen, shown = code_generation(a)
        if code_gen == S.MCP1 and gen == S.FASTMCP:
            open_pin = found.open_pin("fastmcp") or found.open_pin("mcp")
            why = (
                f"the project pins {open_pin.describe()}, which admits fastmcp 2.x/3.x, and the module imports {shown}"
                if open_pin is not None
                else f"the module imports {shown}"
            ) + ", an mcp 1.x name: fastmcp 4 runs on mcp 2.x"
            rename = " (mcp 2.x calls `McpError` `MCPError`)" if "McpError" in (shown or "") else ""
            return gen, FASTMCP_REFUSE.format(why=why, how=how + rename), None
        if code_gen == S.MCP1 and gen is None:
            return S.MCP1, None, None
    if gen == S.FASTMCP:
        old = fast if fast is not None and not fast.new else mcp if mcp is not None and not mcp.new else None
        if old is not None:
            why = f"the project {old.pin.stated()}" + (", and fastmcp 4 needs mcp 2.x" if old.package == "mcp" else "")
            return gen, FASTMCP_REFUSE.format(why=why, how=how), None
        new = fast if fast is not None else mcp
        return gen, None, (f"the project {new.pin.stated()}" if new is not None and new.new else None)
    if mcp is not None and not mcp.new:
        return gen, f"the project {mcp.pin.stated()}: " + (REFUSE_MCP1_ROOTS if kind == ROOTS else REFUSE_MCP1), None
    if gen is None and mcp is not None:
        return S.MCP2, None, f"the project {mcp.pin.stated()}"
    return gen, None, None


def open_pin_risk(a: ModuleAnalysis, gen: str | None) -> str | None:
    """The review note of a fastmcp guard-pattern fix whose project pins admit fastmcp 2.x/3.x
    (``fastmcp>=3.2.0``, no lockfile) while nothing in the module says which generation it runs
    on: the fixed module imports ``mcp_types`` and ``MCPError`` (its capability check), which only
    fastmcp 4's mcp 2.x has. None when the
    pins or the module's imports decide."""
    if gen != S.FASTMCP:
        return None
    found = project_pins(a)
    open_pin = found.open_pin("fastmcp") or found.open_pin("mcp")
    if open_pin is None or found.verdict("fastmcp") or found.verdict("mcp") or code_generation(a)[0] == S.MCP2:
        return None
    return (
        f"the project pins {open_pin.describe()}, which also admits fastmcp 2.x/3.x (mcp 1.x), where the fixed "
        "module's mcp 2.x imports (`mcp_types`, `MCPError`) do not exist: pin `fastmcp>=4` (or lock it) before applying this"
    )


def code_generation(a: ModuleAnalysis) -> tuple[str | None, str | None]:
    """The mcp generation the module's own imports say it runs on, from names only that generation
    has (``_MCP1_ONLY``/``_MCP2_ONLY``, ``mcp.server.fastmcp`` vs ``mcp.server.mcpserver``/``mcp_types``),
    with the first such import, described; ``(None, None)`` when none or both are imported (a
    fallback import for the other generation). Memoized per module."""

    def compute() -> tuple[str | None, str | None]:
        seen: dict[str, str] = {}
        for _stmt, qualified, gen in _imports(a):
            if gen is not None:
                seen.setdefault(gen, (_MCP1_ONLY if gen == S.MCP1 else _MCP2_ONLY).get(qualified) or f"`{qualified}`")
        if len(seen) != 1:
            return None, None
        return next(iter(seen.items()))

    return a.memo("interim.code_generation", compute)


def _generation(qualified: str) -> str | None:
    """The one mcp generation that has the absolute name ``qualified``, else None."""
    if qualified in _MCP1_ONLY or qualified.startswith(_MCP1_PREFIXES):
        return S.MCP1
    if qualified in _MCP2_ONLY or qualified.startswith(_MCP2_PREFIXES):
        return S.MCP2
    return None


def _imports(a: ModuleAnalysis) -> list[tuple[cst.Import | cst.ImportFrom, str, str | None]]:
    """Every absolute name the module imports (``mcp.shared.exceptions.McpError``; a module for
    ``import m`` and ``from m import *``) with its statement and :func:`_generation`, each import
    statement on its own: a fallback that rebinds the same local name (``except ImportError: from
    … import McpError as MCPError``) is kept too. Read once per module, off the analysis's own
    traversal (:meth:`ModuleAnalysis.nodes`)."""

    def compute() -> list[tuple[cst.Import | cst.ImportFrom, str, str | None]]:
        out: list[tuple[cst.Import | cst.ImportFrom, str, str | None]] = []
        for n in a.nodes(cst.Import, cst.ImportFrom):
            if isinstance(n, cst.Import):
                names = [code_of(alias.name) for alias in n.names]
            elif not isinstance(n, cst.ImportFrom) or n.module is None or n.relative:
                continue
            elif isinstance(n.names, cst.ImportStar):
                names = [code_of(n.module)]
            else:
                mod = code_of(n.module)
                names = [f"{mod}.{code_of(alias.name)}" for alias in n.names]
            out += [(n, q, _generation(q)) for q in names]
        return out

    return a.memo("interim.imports", compute)


def _generations_under(a: ModuleAnalysis, node: cst.CSTNode) -> dict[str, cst.Import | cst.ImportFrom]:
    """The generations the import statements under ``node`` need, each with its first import."""
    inside = {id(n) for n in a.flat.subtree(node)}
    found: dict[str, cst.Import | cst.ImportFrom] = {}
    for stmt, _q, gen in _imports(a):
        if gen is not None and id(stmt) in inside:
            found.setdefault(gen, stmt)
    return found


def compat_block(a: ModuleAnalysis) -> tuple[cst.Import | cst.ImportFrom, cst.Import | cst.ImportFrom, str] | None:
    """The module's first compatibility block: a ``try``/``except`` whose body and handlers import
    names of different SDK generations (:func:`_generation`), as (the body's import, the handler's
    import, the generation the body imports for); None when there is none. Memoized per module."""

    def compute() -> tuple[cst.Import | cst.ImportFrom, cst.Import | cst.ImportFrom, str] | None:
        for n in a.nodes(cst.Try):
            tried = _generations_under(a, n.body)
            fallback: dict[str, cst.Import | cst.ImportFrom] = {}
            for h in n.handlers:
                for gen, stmt in _generations_under(a, h.body).items():
                    fallback.setdefault(gen, stmt)
            for gen, other in ((S.MCP1, S.MCP2), (S.MCP2, S.MCP1)):
                if gen in tried and other in fallback:
                    return tried[gen], fallback[other], gen
        return None

    return a.memo("interim.compat_block", compute)


def imports_mcp2_outside_blocks(a: ModuleAnalysis) -> bool:
    """The module imports an mcp 2.x-only name in a module-level statement (outside any ``try``:
    it never imported under mcp 1.x)."""
    top = {id(small) for stmt in a.module.body if isinstance(stmt, cst.SimpleStatementLine) for small in stmt.body}
    return any(gen == S.MCP2 and id(stmt) in top for stmt, _q, gen in _imports(a))


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
    import …`` (:func:`compat_block`): the module runs on mcp 2.x and keeps an mcp 1.x fallback."""
    block = compat_block(a)
    return (
        block is not None
        and block[2] == S.MCP2
        and isinstance(block[1], cst.ImportFrom)
        and block[1].module is not None
        and code_of(block[1].module).startswith("mcp.server.fastmcp")
    )

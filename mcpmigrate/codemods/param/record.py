"""What the ``param`` fix records in one round, through the one fix shape (``docs/architecture.md``,
"How a finding becomes a fix"): each applied site records its own changes in the findings' order
(:func:`record_site`, called by ``Site.record``; ``guards.GuardWithRequest``,
:class:`HandlerWithRequest`), and what depends on every request of the round — which functions
the path is threaded through, the capability guards and roots ``list_changed`` handlers that go
with the requests, the comments kept in place — is recorded once after the last site
(:func:`finish`, the ``last`` step of the round's shared :class:`Gathered`).

Only the sites whose findings are applied take part (a suppressed or unselected finding has no
site in the loop), so a guard whose MCP102 finding is not applied stays, as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.param.guards import guard_if
from mcpmigrate.codemods.param.lowlevel import lowlevel_read, lowlevel_target, schema_edit
from mcpmigrate.codemods.param.parameter import description
from mcpmigrate.codemods.param.round import Round
from mcpmigrate.codemods.param.sites import Site
from mcpmigrate.codemods.param.thread import keep_comments, needs, thread_all
from mcpmigrate.codemods.remove import delete_handlers


@dataclass
class Gathered:
    """What the param sites of one round gather for :func:`finish`: the request sites (in the
    findings' order), the names of the functions whose request goes, the ``Resolve``/interim
    sites whose functions keep their comments, the MCP102 checks and MCP103 registrations that
    may go with the requests, and the functions an interim round's rewrite touched."""

    analysis: ModuleAnalysis
    rnd: Round
    requests: list[Site] = field(default_factory=list)
    fixed: set[str] = field(default_factory=set)
    interims: list[Site] = field(default_factory=list)
    guards: list[cst.CSTNode] = field(default_factory=list)
    handlers: list[tuple[cst.CSTNode, str]] = field(default_factory=list)  # (registration, filler)
    touched: set[int] = field(default_factory=set)


def gathered(edits: Edits, analysis: ModuleAnalysis) -> Gathered:
    """The round's :class:`Gathered` (made by the first param site that records; :func:`finish`
    runs after the last)."""
    return edits.shared("param.round", lambda: Gathered(analysis, Round(edits)), last=finish)


def record_site(site: Site, edits: Edits, a: ModuleAnalysis) -> None:
    """Record one roots site's own changes (its nodes, its imports — spelled at planning with
    ``edits.import_name``, the same local names — and, for a low-level interim round, the
    tool's inputSchema property and the argument read) and gather it for :func:`finish`."""
    g = gathered(edits, a)
    rnd = g.rnd
    for node, change in site.changes.values():
        rnd.change(node, change)
    for mod, name in site.imports:
        rnd.edits.import_name(a, mod, name)
    if site.kind == "request":
        assert site.fn is not None
        g.requests.append(site)
        g.fixed.add(site.fn.name)
        return
    if site.kind == "irr" and site.fn is not None:
        assert site.config is not None
        target = lowlevel_target(a, site.fn, site.node, site.name)
        assert not isinstance(target, str)
        schema_edit(rnd, target, site.name, site.mode, description(site.config, site.mode))
        lowlevel_read(rnd, target, site.name, site.site_stmt, True)  # type: ignore[arg-type]
        g.touched.add(id(site.fn))
    g.interims.append(site)


@dataclass(frozen=True)
class HandlerWithRequest:
    """The site of an MCP103 roots ``list_changed`` handler removed with the roots request in
    ``filler`` (the function that fills the cache the handler invalidates); ``registration`` is
    the reported registration."""

    filler: str
    registration: cst.CSTNode = field(compare=False)

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        gathered(edits, analysis).handlers.append((self.registration, self.filler))


def finish(g: Gathered) -> None:
    """After the last site: thread the names the requests need through their call chains, remove
    the guards that only protected a removed request (one that now answers a call without the
    optional parameter stays, rewritten by its site: ``fallbacks.keep_fallback``) and the
    handlers that go with it, and keep the comments of the functions whose roots parameter or
    interim round is replaced without threading (threaded functions do, in ``thread_all``)."""
    a, rnd = g.analysis, g.rnd
    need = needs(a, g.requests)
    touched = g.touched | set(need.functions)
    kept = {id(guard) for s in g.requests if s.fallback for guard in s.guards[:1]}
    for check in g.guards:
        fn = a.enclosing_function(check)
        guard = guard_if(a, check)
        if fn is not None and id(fn) in touched and guard is not None and id(guard) not in kept:
            rnd.edits.remove(guard, keep_comments=True)
    delete_handlers(rnd.edits, a, [node for node, filler in g.handlers if filler in g.fixed])
    if g.requests:
        config = g.requests[0].config
        assert config is not None
        thread_all(a, config, need, g.requests, rnd)
    for s in g.interims:
        replaced: list[FunctionInfo] = s.tools if s.kind == "resolve" else [s.fn] if s.fn is not None else []
        for fi in replaced:
            keep_comments(rnd, fi.node)

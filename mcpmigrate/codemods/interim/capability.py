"""The client capability an ``inputRequests`` entry needs, checked before the interim result is
returned (low-level ``Server`` handlers and fastmcp 4's guard pattern).

Spec 2026-07-28, basic/patterns (multi round-trip requests): "Servers MUST NOT send an
inputRequests that the client has not declared support for." A 2026-07-28 client
declares its capabilities in every request's ``_meta``; mcp 2.x records them per request on the
session (``ServerSession.client_capabilities``, ``mcp/server/session.py``: "Prefer this over
``client_params.capabilities``"). Where the capability is missing, the rewrite raises what
``MCPServer``'s resolvers raise (``mcp/server/mcpserver/resolve.py``, ``_require_capability``):
``MCPError`` with code ``MISSING_REQUIRED_CLIENT_CAPABILITY`` (-32021) and
``{"requiredCapabilities": …}`` as data. fastmcp 4 passes that error through to the client unmasked
(``fastmcp/server/server.py``).

Per kind: elicitation needs ``elicitation`` (the request is form mode; a bare ``elicitation: {}``
means form support), sampling ``sampling`` (with ``tools`` when the request passes tools or a tool
choice), roots ``roots``.
"""

from __future__ import annotations

from functools import partial

from mcpmigrate.codemods.edits import Spell, as_is
from mcpmigrate.codemods.interim.sites import ELICITATION, ROOTS, Site, arg_map


def _needs(site: Site) -> tuple[str, str, str]:
    """(capability field, what is missing when, what it is called) for one request; ``{d}`` stands
    for the declared capabilities. Elicitation as ``_require_capability`` reads it: a bare
    ``elicitation: {}`` is form support, url-only is not."""
    if site.kind == ELICITATION:
        return (
            "elicitation",
            "{d}.elicitation is None or ({d}.elicitation.form is None and {d}.elicitation.url is not None)",
            "form elicitation",
        )
    if site.kind == ROOTS:
        return "roots", "{d}.roots is None", "roots"
    if {"tools", "tool_choice"} & set(arg_map(site.call, ["messages"])):
        return "sampling", "{d}.sampling is None or {d}.sampling.tools is None", "sampling.tools"
    return "sampling", "{d}.sampling is None", "sampling"


def capability_names(group: list[Site]) -> str:
    """What the requests of ``group`` need the client to have declared (``form elicitation and
    sampling``), for the fix's description."""
    names = list(dict.fromkeys(_needs(m)[2] for m in group))
    return " and ".join(names)


def capability_check(group: list[Site], session: str, declared: str, types: str, spell: Spell = as_is) -> str:
    """The statements (indented for the body of ``if not isinstance(answer, …):``) that raise the
    SDK's missing-capability error when the client did not declare what ``group`` asks for.
    ``session`` is the expression of the request's ``ServerSession``, ``declared`` a free local
    name, ``types`` the module the protocol types come from (``mcp.types``, or ``mcp_types`` for
    fastmcp)."""
    t = partial(spell, types)
    missing: dict[str, str] = {}
    data: dict[str, str] = {}
    for m in group:
        field, when, _ = _needs(m)
        if field in missing and "tools" not in when:
            continue  # a tools request already asks for the stronger capability
        missing[field] = when.format(d=declared)
        data[field] = '{"form": {}}' if field == "elicitation" else '{"tools": {}}' if "tools" in when else "{}"
    test = " or ".join(missing.values())
    required = ", ".join(f'"{k}": {v}' for k, v in data.items())
    keys = ", ".join(repr(m.key or m.result) for m in group)
    which = "input requests" if len(group) > 1 else "input request"
    message = (
        f"Client did not declare the {capability_names(group)} "
        f"{'capabilities' if len(missing) > 1 else 'capability'} required by {which} {keys}"
    )
    return (
        f"        {declared} = {session}.client_capabilities or {t('ClientCapabilities')}()\n"
        f"        if {test}:\n"
        f"            raise {spell('mcp.shared.exceptions', 'MCPError')}(\n"
        f"                {t('MISSING_REQUIRED_CLIENT_CAPABILITY')},\n"
        f'                "{message}",\n'
        f'                {{"requiredCapabilities": {{{required}}}}},\n'
        "            )\n"
    )

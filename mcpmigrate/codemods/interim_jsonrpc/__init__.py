"""The ``interim`` fix for hand-rolled JSON-RPC servers (no SDK: plain dicts, json over stdio) that
push ``roots/list``, ``sampling/createMessage`` or ``elicitation/create`` from a ``tools/call``
branch (MCP101, MCP201, MCP202).

Spec (2026-07-28): a server sends no requests; ``tools/call`` answers with
``{"resultType": "input_required", "inputRequests": {key: {"method": …, "params": …}}}`` and the
client retries the same call, under a new id, with ``params.inputResponses = {key: <result>}``.
The fix writes no ``requestState``: the retried call carries its original arguments, and the
branch re-runs from them.

Shapes rewritten (``plan`` decides once, while the rules run, and returns the decided
:class:`~.planning.Site` in its ``FixPlan``; ``Site.record`` rewrites exactly that site, so the
label ``check`` shows is the rewrite ``fix`` makes):

- **sync**: in the ``tools/call`` branch the request dict is sent (``send({...})``, or
  ``request = {...}`` then ``send(request)``) and the very next statement blocks for the client's
  response (``resp = json.loads(sys.stdin.readline())``, ``resp = read_message()``). After the fix
  the branch reads ``<call>["params"].get("inputResponses", {}).get(key)``; while it is missing it
  answers the call with the interim result (written with the same call that sent the request),
  otherwise it runs the rest of the branch with the answer in place of ``resp["result"]``. The
  interim reply leaves the branch the way the rest did (a final bare ``return``/``continue``/``break``
  is repeated after it); a branch that hands its reply to the caller (``return {...}``) stays manual.
- **helper**: the same, through a helper without arguments called once from the branch as
  ``x = helper()``, whose body sends the request and returns (part of) what it reads
  (``return read_message()["result"]["roots"]``): ``x`` gets that part of the answer, the helper goes.
- **pending**: the request is sent with its id stored in a map (``pending[request_id] = call``),
  inline in the branch or in a one-purpose helper called from it, and a response branch
  (``call = pending.pop(message["id"])`` first in an ``if`` body) finishes the call. After the fix
  the branch runs that continuation itself with the answer from the retry; the helper, the
  response branch and the map go.

The input request is sent only when the call's ``_meta`` declares the capability it needs
(``io.modelcontextprotocol/clientCapabilities``; spec 2026-07-28, basic/patterns: "Servers MUST NOT
send an inputRequests that the client has not declared support for"); otherwise the call gets the
error mcp 2.x's resolvers answer (-32021 with ``requiredCapabilities``).

Every rewrite is labelled **unsafe**: a hand-rolled server has no era switch, so a legacy
(2025-11-25) client, whose calls declare no capabilities, gets that error instead of the request; code with side effects before the request now runs
once per round. Anything else stays manual with the reason (``plan`` returns it).

The package: ``branch`` reads where the request is sent and read and which ``tools/call`` branch
holds it; ``planning`` decides the shape (the site, or the reason it is manual); ``rewriting``
builds the new statements into an ``Edits``; this module is the entry points and the label.
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis, code_of
from mcpmigrate.codemods.interim_jsonrpc.branch import KEYS
from mcpmigrate.codemods.interim_jsonrpc.planning import Site, site_for
from mcpmigrate.config import Config
from mcpmigrate.model import FixInfo, FixPlan, Safety
from mcpmigrate.names import string_value

STRATEGY = "interim"
RULES = ("MCP101", "MCP201", "MCP202")

MANUAL = (
    '{reason}. By hand: answer the `tools/call` with `{{"resultType": "input_required", "inputRequests": '
    '{{"{key}": {{"method": "{method}", "params": {{…}}}}}}}}` and read the answer from the retried '
    'call\'s `params["inputResponses"]["{key}"]` (write no `requestState`, or sign it: it is attacker-controlled)'
)


# ---------------------------------------------------------------------------------------------
# check: the label


def plan(a: ModuleAnalysis, config: Config, node: cst.Dict, method: str) -> FixPlan:
    """The interim fix for one hand-built request dict: the rewrite (its site and label) or why it
    is left for a human."""
    site = site_for(a, node, method)
    if isinstance(site, str):
        return FixPlan(manual=MANUAL.format(reason=site, key=KEYS[method], method=method))
    fix = FixInfo(Safety.UNSAFE, STRATEGY, _describe(site, _older_protocol_versions(a)))
    return FixPlan(fix, site=site)


def rewritable(a: ModuleAnalysis, node: cst.Dict, method: str) -> bool:
    """Whether ``fix --strategy interim`` rewrites this request (the label under another strategy)."""
    return not isinstance(site_for(a, node, method), str)


def _describe(site: Site, older: list[str]) -> str:
    unsafe = list(site.unsafe)
    if older:  # the first review point (legacy clients) becomes: the server negotiates an older version
        unsafe[0] = (
            f"this server answers `initialize` with protocolVersion {', '.join(map(repr, older))}: every "
            "client then speaks that version, where an interim result is not valid, so the tool stops "
            "working until the server also negotiates 2026-07-28 (keep the old version for legacy "
            "clients with an era switch)"
        )
    if site.shape == "sync":
        where = f'in place of `{site.result_var}["result"]`, the response it read from the client'
    elif site.shape == "helper":
        where = (
            f"where `{code_of(site.replaced).strip()}` stood (the helper `{site.helper}`, which sent the request and "
            "read the response, goes)"
        )
    else:
        where = (
            "running what the response branch did with it (the response branch, the pending map and its "
            "bookkeeping go" + (f", with the helper `{site.helper}`)" if site.helper else ")")
        )
    return (
        f'the `tools/call` branch answers `{{"resultType": "input_required", "inputRequests": '
        f'{{"{site.key}": {{"method": "{site.method}", …}}}}}}` until the retried call\'s '
        f'`params["inputResponses"]["{site.key}"]` holds the answer, then goes on with it {where}; '
        f"no requestState is written; a call whose `_meta` does not declare the client's `{site.key}` "
        f"capability gets error -32021 instead, as from mcp 2.x's resolvers (review: {'; '.join(unsafe)})"
    )


def _older_protocol_versions(a: ModuleAnalysis) -> list[str]:
    """Protocol versions before 2026-07-28 the module answers with (a ``"protocolVersion"`` entry
    whose value is a date literal, or a module constant holding one)."""
    constants = {n: string_value(v) for n, v in a.module_assigns}
    found: set[str] = set()
    for n in a.flat.of_types((cst.DictElement,)):
        el = a.flat.order[n]
        if not isinstance(el, cst.DictElement) or string_value(el.key) != "protocolVersion":
            continue
        v = el.value
        value = string_value(v) if not isinstance(v, cst.Name) else constants.get(v.value)
        if value and len(value) == 10 and value[4] == "-" and value < "2026-07-28":
            found.add(value)
    return sorted(found)

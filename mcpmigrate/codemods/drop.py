"""The ``remove`` fix for the rest of the catalog: calls and registrations that have nothing to
do on 2026-07-28 are deleted, whatever the strategy.

- MCP203: a bare ``await session.send_ping()`` statement (``ping`` is removed; the send raises on
  a modern connection).
- MCP205: a bare ``send_elicit_complete(...)`` / ``send_notification(ElicitCompleteNotification(...))``
  statement (the notification is removed).
- MCP402: ``@server.set_logging_level()``, ``Server(on_set_logging_level=h)``,
  ``server.request_handlers[SetLevelRequest] = h`` and
  ``add_request_handler("logging/setLevel", ...)``; the handler function goes too when nothing
  else in the module uses it.

A block left empty gets ``pass``; at module level the comments above a statement that goes stay
(``codemods/deletions.py``, shared with the ``remove`` fix).
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.deletions import delete, spellings
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.config import Config

STRATEGY = "remove"
RULES = ("MCP203", "MCP205", "MCP402")


def edits(analysis: ModuleAnalysis, findings: list, config: Config) -> Edits:
    """Delete the reported calls and registrations, and the handlers left unused."""
    dead: dict[str, cst.FunctionDef] = {}
    for f in findings:
        if f.rule != "MCP402":
            continue
        name = f.data.get("handler")
        fn = analysis.function_named(name) if name else None
        if fn is None or fn.class_name is not None:
            continue
        # the def itself, plus the registration unless it is the decorator on the def
        allowed = 1 if f.data.get("form") == "decorator" else 2
        if spellings(analysis, name) <= allowed:
            dead[name] = fn.node
    ed = Edits()
    delete(ed, analysis, [f.node for f in findings if f.node is not None], dead.values(), keep_comments=True)
    return ed

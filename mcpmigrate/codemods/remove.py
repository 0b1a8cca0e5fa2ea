"""The ``remove`` fix: registrations and fields that no longer exist in 2026-07-28 are deleted,
whatever the strategy.

- MCP103: ``server.notification_handlers[RootsListChangedNotification] = h``,
  ``Server(on_roots_list_changed=h)`` and ``add_notification_handler("notifications/roots/list_changed", h)``
  are removed (the notification is gone from the 2026-07-28 schema), and so is the handler
  function when nothing else in the module uses it.
- MCP104: ``listChanged`` is dropped from a roots capability (``RootsCapability(listChanged=True)``,
  ``{"roots": {"listChanged": True}}``): the 2026-07-28 ``RootsCapability`` is ``{}``.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.deletions import delete, spellings
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.config import Config

STRATEGY = "remove"
RULES = ("MCP103", "MCP104")


def _handler_name(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.Assign):
        return get_full_name_for_node(node.value)
    if isinstance(node, cst.Arg):
        return get_full_name_for_node(node.value)
    if isinstance(node, cst.Call) and len(node.args) >= 2:
        return get_full_name_for_node(node.args[-1].value)
    return None


def edits(analysis: ModuleAnalysis, findings: list, config: Config) -> Edits:
    """Delete the reported registrations and fields, and the handlers left unused."""
    dead: dict[str, cst.FunctionDef] = {}
    for f in findings:
        if f.rule != "MCP103" or f.node is None:
            continue
        name = _handler_name(f.node)
        if not name or "." in name:
            continue
        fn = analysis.function_named(name)
        # uses: the def's own name and the registration
        if fn is not None and spellings(analysis, name) <= 2:
            dead[name] = fn.node
    ed = Edits()
    delete(ed, analysis, [f.node for f in findings if f.node is not None], dead.values())
    return ed

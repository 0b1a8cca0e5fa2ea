"""The ``results`` fix of MCP608: a hand-built result gets the fields revision 2026-07-28
requires of it (``schema/2026-07-28/schema.ts``: ``Result.resultType``, and ``ttlMs`` /
``cacheScope`` on a ``CacheableResult`` — the results of ``tools/list``, ``resources/list``,
``resources/templates/list``, ``prompts/list``, ``resources/read`` and ``server/discover``).

The values are the ones mcp 2.3 itself puts on a result a handler left them off (``mcp_types``:
``resultType="complete"``, ``ttlMs=0`` — "immediately stale", the client may re-fetch every time,
i.e. no caching, as before — and ``cacheScope="private"``, the narrower scope). Safe: a legacy
client ignores fields its revision does not define (2025-11-25 ``Result`` allows any key), and a
modern one reads what it read as the defaults before.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import libcst as cst

from mcpmigrate.analysis import ModuleAnalysis
from mcpmigrate.codemods.edits import Edits
from mcpmigrate.codemods.param.parameter import insert_element
from mcpmigrate.model import FixInfo, FixPlan, Safety

STRATEGY = "revision"
RULES = ("MCP608",)

#: what mcp 2.3 fills in (mcp_types' defaults), in the order they are added
DEFAULTS = {"resultType": '"complete"', "ttlMs": "0", "cacheScope": '"private"'}


@dataclass(frozen=True, eq=False)
class AddFields:
    """The result dict display and the fields it lacks (keys of :data:`DEFAULTS`)."""

    result: cst.Dict
    missing: tuple[str, ...]

    def record(self, edits: Edits, analysis: ModuleAnalysis) -> None:
        edits.transform(self.result, partial(_add, self.missing))


def _quote_of(d: cst.Dict) -> str:
    for el in d.elements:
        if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString):
            return "'" if el.key.value.startswith("'") else '"'
    return '"'


def _add(missing: tuple[str, ...], _original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
    assert isinstance(updated, cst.Dict)
    q = _quote_of(updated)
    elements = list(updated.elements)
    for key in missing:
        value = DEFAULTS[key].replace('"', q)
        new = cst.DictElement(
            key=cst.SimpleString(f"{q}{key}{q}"),
            value=cst.parse_expression(value),
            whitespace_after_colon=cst.SimpleWhitespace(" "),
        )
        elements = insert_element(elements, len(elements), new, updated.lbrace.whitespace_after)
    return updated.with_changes(elements=elements)


def plan(result: cst.Dict, method: str, missing: tuple[str, ...]) -> FixPlan:
    fields = ", ".join(f'`"{k}": {DEFAULTS[k]}`' for k in missing)
    return FixPlan(
        fix=FixInfo(Safety.SAFE, STRATEGY, f"add {fields} to the `{method}` result (what mcp 2.3 sends by default)"),
        site=AddFields(result, missing),
    )

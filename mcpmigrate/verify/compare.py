"""What differs between what a client got from the server before and after the migration.

Listings are compared item by item (tools and prompts by name, resources by URI, templates by URI
template), each item field by field; call answers field by field. A difference names where
(``tools/list: tool `add` changed``) and each field that changed with its value before and after
(``inputSchema.properties.a: {"type": "integer"} → (absent)``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mcpmigrate.verify.driver import LISTINGS

# How the items of each listing are told apart.
ITEM_KEYS = {"tools": "name", "resources": "uri", "resource_templates": "uriTemplate", "prompts": "name"}
METHODS = {key: method for key, method, _ in LISTINGS}
WIRE = {
    "tools": "tools/list",
    "resources": "resources/list",
    "resource_templates": "resources/templates/list",
    "prompts": "prompts/list",
}
ABSENT = "(absent)"
SHOWN_CHARS = 240


@dataclass
class Difference:
    """One thing a client sees differently: ``where`` (``tools/list: tool `add` changed``,
    ``call 1 divide {"a": 1, "b": 0}``) and ``changes``, ``(field path, before, after)`` with the
    values as compact JSON (:data:`ABSENT` when one side has no such field)."""

    where: str
    changes: list[tuple[str, str, str]] = field(default_factory=list)


def shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def field_changes(before: Any, after: Any, path: str = "") -> list[tuple[str, str, str]]:
    """Each leaf-most field whose value differs: dicts by key, equal-length lists by index."""
    if before == after:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        out = []
        for k in sorted(before.keys() | after.keys()):
            sub = f"{path}.{k}" if path else str(k)
            if k not in before:
                out.append((sub, ABSENT, shown(after[k])))
            elif k not in after:
                out.append((sub, shown(before[k]), ABSENT))
            else:
                out += field_changes(before[k], after[k], sub)
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        out = []
        for i, (b, a) in enumerate(zip(before, after)):
            out += field_changes(b, a, f"{path}[{i}]")
        return out
    if isinstance(before, str) and isinstance(after, str):
        before, after = _around_difference(before, after)
    return [(path or "(value)", shown(before), shown(after))]


def _around_difference(before: str, after: str, keep: int = 60) -> tuple[str, str]:
    """Two long strings cut to where they start to differ (``…`` marks what is left out), so the
    difference is in what is shown."""
    start = next((i for i, (b, a) in enumerate(zip(before, after)) if b != a), min(len(before), len(after)))
    if start <= keep or max(len(before), len(after)) <= SHOWN_CHARS:
        return before, after
    return "…" + before[start - keep :], "…" + after[start - keep :]


def listing_differences(key: str, before: Any, after: Any) -> list[Difference]:
    """The differences of one listing (``key`` as in :data:`ITEM_KEYS`)."""
    wire = WIRE[key]
    if before == after:
        return []
    if not isinstance(before, list) or not isinstance(after, list):  # a listing that failed on one side
        return [Difference(f"{wire}", field_changes(before, after))]
    ident = ITEM_KEYS[key]
    kind = {"resource_templates": "resource template"}.get(key, key.rstrip("s"))
    b = {str(item.get(ident)): item for item in before}
    a = {str(item.get(ident)): item for item in after}
    out = []
    for name in sorted(b.keys() | a.keys()):
        if name not in a:
            out.append(Difference(f"{wire}: {kind} `{name}` is gone", []))
        elif name not in b:
            out.append(Difference(f"{wire}: {kind} `{name}` is new", [("", ABSENT, shown(a[name]))]))
        elif a[name] != b[name]:
            out.append(Difference(f"{wire}: {kind} `{name}` changed", field_changes(b[name], a[name])))
    return out


def differences(before: dict[str, Any], after: dict[str, Any], calls: list[dict[str, Any]]) -> list[Difference]:
    """Everything that differs between two observations (:func:`mcpmigrate.verify.driver.observe`)."""
    out: list[Difference] = []
    if before.get("error") != after.get("error"):  # the connection failed on one side, mid-run
        out.append(
            Difference("connection", [("", before.get("error") or "answered", after.get("error") or "answered")])
        )
    for key in ITEM_KEYS:
        out += listing_differences(key, before.get(key), after.get(key))
    for i, call in enumerate(calls):
        b = before["calls"][i] if i < len(before.get("calls", [])) else None
        a = after["calls"][i] if i < len(after.get("calls", [])) else None
        if a != b:
            label = f"call {i + 1} {call['tool']} {shown(call.get('arguments') or {})}"
            out.append(Difference(label, field_changes(b, a)))
    return out


def render_text(diffs: list[Difference], indent: str = "  ") -> list[str]:
    """Readable lines: each difference, then its changed fields (``field: before → after``)."""
    return _render(
        diffs, lambda where: f"{indent}{where}", lambda p, b, a: f"{indent}    {p + ': ' if p else ''}{b} → {a}"
    )


def render_markdown(diffs: list[Difference]) -> list[str]:
    """The same as a Markdown list, values in code spans."""
    return _render(
        diffs,
        lambda where: f"- {_md(where)}",
        lambda p, b, a: f"  - {'`' + p + '`: ' if p else ''}{_code(b)} → {_code(a)}",
    )


def _render(diffs: list[Difference], head: Callable[[str], str], change: Callable[[str, str, str], str]) -> list[str]:
    lines = []
    for d in diffs:
        lines.append(head(d.where))
        lines += [change(path, b, a) for path, b, a in d.changes]
    return lines


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def _code(text: str) -> str:
    if text == ABSENT:
        return text
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"

"""Hand-rolled servers that pass change notifications on (MCP301): a relay that forwards a message
whose method is a change notification (``if msg.get("method") in (...)``, ``==``, a ``match``
case), and notification dicts whose method is an f-string (``f"notifications/{kind}"``, the
kind taken from the list a loop walks). Spec: 2026-07-28 changelog (``notifications/*/list_changed``
and ``notifications/resources/updated`` reach a client only on a ``subscriptions/listen`` stream it
opened, tagged with its subscriptionId).

No detector lives here: :class:`RelayVisitor` is the base of the notifications detector's visitor.
"""

from __future__ import annotations

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import FunctionInfo
from mcpmigrate.detectors._shared import CatalogVisitor, string_value, walk

MSG_301_RELAY = (
    "This relay passes {methods} through to its client; on 2026-07-28 a change notification reaches a client "
    "only on a `subscriptions/listen` stream it opened (tagged with its subscriptionId, and only for what it "
    "asked for), so forward them only there."
)

# Calls that show a message rather than forward it (a relay test's body may log it too).
NOT_FORWARDING = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print"})


def is_change(method: str) -> bool:
    """A change notification's method (an f-string's possible value)."""
    if method in S.LIST_CHANGED_METHODS:
        return True
    # `f"notifications/{kind}/list_changed"` with a kind not known here (never roots: a client's)
    return method.startswith("notifications/") and method.endswith("/list_changed") and "roots" not in method


class RelayVisitor(CatalogVisitor):
    """Relays and f-string methods; the subclass calls :meth:`_relay` from its comparisons."""

    def _formatted(self, fs: cst.FormattedString, fn: FunctionInfo | None) -> set[str]:
        """The strings an f-string method can be: each ``{name}`` takes the string values the
        name is given (a literal, or the elements of the list a ``for`` loop walks)."""
        out = {""}
        for part in fs.parts:
            if isinstance(part, cst.FormattedStringText):
                values = {part.value}
            elif isinstance(part, cst.FormattedStringExpression):
                values = self._string_values(part.expression, fn) or {"{}"}
            else:
                return set()
            out = {a + b for a in out for b in values}
            if len(out) > 64:
                return set()
        return out

    def _string_values(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> set[str]:
        s = string_value(expr)
        if s is not None:
            return {s}
        if isinstance(expr, cst.Subscript):  # a for-loop target: an element of the iterable
            return self._elements(expr.value, fn)
        if not isinstance(expr, cst.Name):
            return set()
        found: set[str] = set()
        scope = fn
        while scope is not None:
            for name, value in scope.assigns:
                if name == expr.value and value is not expr:
                    found |= self._string_values(value, None) if not isinstance(value, cst.Name) else set()
            scope = scope.parent
        for name, value in self.a.module_assigns:
            if name == expr.value and not isinstance(value, cst.Name):
                found |= self._string_values(value, None)
        return found

    def _elements(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> set[str]:
        """The string elements of a list/tuple/set literal, or of a name bound to one."""
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return {v for v in (string_value(e.value) for e in expr.elements) if v is not None}
        if isinstance(expr, cst.Call) and expr.args and (self.full(expr.func) or "") in ("frozenset", "set", "tuple"):
            return self._elements(expr.args[0].value, fn)
        if isinstance(expr, cst.Name):
            values = [v for n, v in self.a.module_assigns if n == expr.value]
            scope = fn
            while scope is not None:
                values += [v for n, v in scope.assigns if n == expr.value]
                scope = scope.parent
            return {s for v in values if not isinstance(v, cst.Name) for s in self._elements(v, fn)}
        return set()

    def _relay(self, node: cst.Comparison) -> None:
        """``if msg.get("method") in (<change notifications>, …): forward(msg)``: a hand-rolled
        server passing change notifications through to its client (2026-07-28: only on a listen
        stream the client opened)."""
        fn = self.fn(node)
        methods: list[str] = []
        for target in node.comparisons:
            if isinstance(target.operator, cst.In):
                methods += sorted(self._elements(target.comparator, fn))
            elif isinstance(target.operator, cst.Equal):
                methods += [s for s in (string_value(target.comparator),) if s is not None]
        parent = self.a.parents.get(id(node))
        while isinstance(parent, cst.BooleanOperation):
            parent = self.a.parents.get(id(parent))
        if isinstance(parent, cst.If):
            self._report_relay(node, methods, node.left, parent.body, fn)

    def visit_MatchCase(self, node: cst.MatchCase) -> None:
        """``match msg["method"]: case "notifications/tools/list_changed" | …: forward(msg)``."""
        match = self.a.parents.get(id(node))
        if self.client_module or not isinstance(match, cst.Match):
            return
        methods = [s for n in walk(node.pattern) if isinstance(n, cst.MatchValue) for _n, s in self.dispatch_literal(n)]
        self._report_relay(node.pattern, methods, match.subject, node.body, self.fn(node))

    def _report_relay(
        self,
        node: cst.CSTNode,
        methods: list[str],
        subject: cst.BaseExpression,
        body: cst.BaseSuite,
        fn: FunctionInfo | None,
    ) -> None:
        changes = [m for m in methods if m in S.LIST_CHANGED_METHODS]
        if not changes:
            return
        message = self._message_of(subject, fn)
        if message is None or not self._passes_on(body, message):
            return
        shown = ", ".join(f"`{m}`" for m in changes)
        self.report(
            "MCP301",
            node,
            MSG_301_RELAY.format(methods=shown),
            manual="hand-rolled JSON-RPC servers are not rewritten automatically",
        )

    def _message_of(self, expr: cst.BaseExpression, fn: FunctionInfo | None) -> str | None:
        """The message a method is read from: ``msg.get("method")``, ``msg["method"]``, or a name
        assigned one of those."""
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "get":
            if expr.args and string_value(expr.args[0].value) == "method":
                return self.full(expr.func.value)
        if isinstance(expr, cst.Subscript) and len(expr.slice) == 1:
            index = expr.slice[0].slice
            if isinstance(index, cst.Index) and string_value(index.value) == "method":
                return self.full(expr.value)
        if isinstance(expr, cst.Name) and fn is not None:
            for name, value in fn.assigns:
                if name == expr.value and value is not expr:
                    found = self._message_of(value, None)
                    if found:
                        return found
        return None

    def _passes_on(self, body: cst.BaseSuite, message: str) -> bool:
        """The block hands ``message`` to a call that is not a log line or a print."""
        for n in walk(body):
            if isinstance(n, cst.Call):
                callee = (self.full(n.func) or "").rsplit(".", 1)[-1]
                if callee in NOT_FORWARDING:
                    continue
                if any(self.full(a.value) == message for a in n.args):
                    return True
        return False

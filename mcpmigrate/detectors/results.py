"""MCP608 result-required-fields: a hand-built MCP result without the fields 2026-07-28 requires.

Spec: ``schema/2026-07-28/schema.ts`` — ``Result.resultType`` ("Servers implementing this protocol
version MUST include this field"), and ``CacheableResult`` (``ttlMs``, ``cacheScope``, both
required) for ``ListToolsResult``, ``ListResourcesResult``, ``ListResourceTemplatesResult``,
``ListPromptsResult``, ``ReadResourceResult`` and ``DiscoverResult`` (changelog: SEP-2549).

SDK: mcp 2.3 fills all three on what a handler returns (``Runner._serialize`` in
``mcp/server/runner.py`` stamps ``resultType`` and validates spec results through ``mcp_types``,
whose models default ``resultType="complete"``, ``ttlMs=0``, ``cacheScope="private"``), and fastmcp
4 serves through it — so a result an SDK server returns is never reported. What is reported is a
result the server writes onto the wire itself: a module that builds JSON-RPC responses
(``{"jsonrpc": "2.0", "id": …, "result": …}``) without an SDK, where the result is

- the ``"result"`` value of such a response (a dict display, or a local name bound to one, or the
  argument a helper ``reply(id, result)`` that builds the response is called with), or
- a dict a method's branch returns (``if method == "tools/list": return {...}``, ``case``), or a
  function a method route table names returns (``{"tools/list": list_tools}``),

and the method it answers is known from the branch, the ``case`` or the table (a result whose
method cannot be told is not reported, and neither is a removed method's: ``ping``,
``initialize``). One finding per result display, naming what it lacks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import libcst as cst

from mcpmigrate.analysis import FunctionInfo, ModuleAnalysis
from mcpmigrate.codemods import results
from mcpmigrate.detectors._shared import CatalogVisitor, dict_get, in_test_function, string_value
from mcpmigrate.detectors.base import Detector, Report
from mcpmigrate.screen import Facts

#: the requests a 2026-07-28 server answers with a result (schema/2026-07-28/schema.ts, ClientRequest)
RESULT_METHODS = {
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "server/discover",
}
#: ... whose result is a CacheableResult (ttlMs, cacheScope required)
CACHEABLE = {
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "server/discover",
}

_MSG = (
    "The `{method}` result built here has no {fields}; revision 2026-07-28 requires {what} "
    "(schema/2026-07-28: {where}), and the SDKs add them to what a handler returns, but this server writes "
    "its results onto the wire itself. Add {values}, the values mcp 2.3 sends when a handler leaves them out."
)
_CACHE = (
    "`resultType` on every result and `ttlMs` / `cacheScope` on a list or read result",
    "`Result`, `CacheableResult`",
    '`"resultType": "complete"`, `"ttlMs": 0` (no caching, as before) and `"cacheScope": "private"`',
)
_PLAIN = ("`resultType` on every result", "`Result`", '`"resultType": "complete"`')


def _screen(f: Facts) -> bool:
    return ("jsonrpc" in f.strings or "jsonrpc" in f.keywords) and bool(
        RESULT_METHODS & (f.strings | f.compared | f.dict_keys)
    )


class ResultFieldsDetector(Detector):
    rules = ("MCP608",)
    tokens = (rb"[\"']jsonrpc[\"']", rb"\bjsonrpc\s*=")
    screen = staticmethod(_screen)

    def detect(self) -> Iterable[Report]:
        v = _Visitor(self.analysis)
        if v.client_module or self.analysis.imports_mcp():
            return []  # client code, or an SDK server: the SDK serialises the results
        envelopes = [d for d in self.analysis.nodes(cst.Dict, cst.Call) if _envelope_result(d) is not None]
        if not envelopes:
            return []  # nothing here writes a JSON-RPC response
        v.collect(envelopes)
        return v.reports


def _envelope_result(d: cst.CSTNode) -> cst.BaseExpression | None:
    """The ``"result"`` value of a JSON-RPC response: a display with ``"jsonrpc"`` and ``"result"``
    keys, or a constructor called with ``jsonrpc=`` and ``result=`` (a response class of its own)."""
    if isinstance(d, cst.Call):
        kw = {a.keyword.value: a.value for a in d.args if a.keyword is not None}
        return kw["result"] if "jsonrpc" in kw and "result" in kw else None
    if not isinstance(d, cst.Dict) or dict_get(d, "jsonrpc") is None:
        return None
    el = dict_get(d, "result")
    return el.value if el is not None else None


class _Visitor(CatalogVisitor):
    def __init__(self, analysis: ModuleAnalysis) -> None:
        super().__init__(analysis)
        self._done: set[int] = set()
        # functions a method route table names: {"tools/list": list_tools}
        self._routes: dict[str, str] = {}
        for el in analysis.nodes(cst.DictElement):
            method = string_value(el.key)
            if method in RESULT_METHODS and isinstance(el.value, cst.Name):
                self._routes.setdefault(el.value.value, method)

    def collect(self, envelopes: Sequence[cst.CSTNode]) -> None:
        for env in envelopes:
            value = _envelope_result(env)
            assert value is not None
            for result, at in self._displays(value, env):
                self._result(result, at)
        # dicts a method's branch or a routed function returns: the result of that method
        for ret in self.a.nodes(cst.Return):
            if (
                isinstance(ret.value, cst.Dict)
                and _envelope_result(ret.value) is None
                and dict_get(ret.value, "jsonrpc") is None
            ):
                if dict_get(ret.value, "error") is None and dict_get(ret.value, "code") is None:
                    self._result(ret.value, ret.value)

    def _displays(self, value: cst.BaseExpression, at: cst.CSTNode) -> Iterator[tuple[cst.Dict, cst.CSTNode]]:
        """The dict displays ``value`` stands for, each with the node whose branch tells its method."""
        if isinstance(value, cst.Dict):
            yield value, at
            return
        if not isinstance(value, cst.Name):
            return
        fn = self.fn(at)
        if fn is None:
            return
        bound = [v for n, v in fn.assigns if n == value.value]
        if bound:
            if len(bound) == 1 and isinstance(bound[0], cst.Dict):
                yield bound[0], bound[0]
            return
        if value.value in fn.param_names():
            yield from self._arguments(fn, value.value)

    def _arguments(self, helper: FunctionInfo, param: str) -> Iterator[tuple[cst.Dict, cst.CSTNode]]:
        """The dict displays the callers of ``helper`` (``reply(id, result)``, a method
        ``self._success(result, id)``) pass as ``param``."""
        names = helper.param_names()
        method = helper.class_name is not None and bool(names) and names[0] in ("self", "cls")
        index = names.index(param) - (1 if method else 0)
        for call in self.a.nodes(cst.Call):
            func = call.func
            if method:
                if not (
                    isinstance(func, cst.Attribute)
                    and func.attr.value == helper.name
                    and isinstance(func.value, cst.Name)
                    and func.value.value in ("self", "cls")
                ):
                    continue
            elif not (isinstance(func, cst.Name) and func.value == helper.name):
                continue
            arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == param), None)
            if arg is None:
                positional = [a for a in call.args if a.keyword is None and not a.star]
                arg = positional[index] if index < len(positional) else None
            if arg is not None and isinstance(arg.value, cst.Dict):
                yield arg.value, call

    def _method(self, node: cst.CSTNode) -> str | None:
        """The MCP method whose branch (``if``/``elif`` body, ``case``) or routed function holds ``node``."""
        child: cst.CSTNode = node
        parent = self.a.parents.get(id(node))
        while parent is not None:
            if isinstance(parent, cst.If) and child is parent.body:
                methods = [s for _n, s in self._literals(parent.test) if s in RESULT_METHODS or "/" in s]
                if methods:
                    return methods[0] if len(set(methods)) == 1 else None
            elif isinstance(parent, cst.MatchCase):
                methods = (
                    [s for _n, s in self.dispatch_literal(parent.pattern)]
                    if isinstance(parent.pattern, cst.MatchValue)
                    else []
                )
                if methods:
                    return methods[0]
            elif isinstance(parent, cst.FunctionDef):
                routed = self._routes.get(parent.name.value)
                if routed is not None:
                    return routed
            child, parent = parent, self.a.parents.get(id(parent))
        return None

    def _literals(self, test: cst.BaseExpression) -> Iterator[tuple[cst.CSTNode, str]]:
        if isinstance(test, cst.Comparison):
            yield from self.dispatch_literal(test)
        elif isinstance(test, cst.BooleanOperation):
            yield from self._literals(test.left)
            yield from self._literals(test.right)

    def _result(self, result: cst.Dict, at: cst.CSTNode) -> None:
        if id(result) in self._done or in_test_function(self.a, result):
            return
        method = self._method(at)
        if method not in RESULT_METHODS:
            return
        if any(not isinstance(el, cst.DictElement) or string_value(el.key) is None for el in result.elements):
            return  # `**base`, a computed key: what it holds cannot be told
        self._done.add(id(result))
        keys = {string_value(el.key) for el in result.elements if isinstance(el, cst.DictElement)}
        wanted = ("resultType", "ttlMs", "cacheScope") if method in CACHEABLE else ("resultType",)
        missing = tuple(k for k in wanted if k not in keys)
        if not missing:
            return
        what, where, values = _CACHE if method in CACHEABLE else _PLAIN
        fields = ", ".join(f"`{k}`" for k in missing)
        message = _MSG.format(method=method, fields=fields, what=what, where=where, values=values)
        self.reports.append(Report.planned("MCP608", result, message, results.plan(result, method, missing)))

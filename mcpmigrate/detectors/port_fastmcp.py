"""The port of fastmcp 2.x/3.x servers to fastmcp 4 (MCP512–MCP516, MCP518, MCP520; run only with
``--target-sdk fastmcp4``; the imports, MCP511: :mod:`.port_fastmcp_imports`; the environment
pins, MCP517: :mod:`.port_environment`).

Each detector finds one kind of API fastmcp 4 removed or changed (``mcpmigrate/surfaces.py``, the
fastmcp 4 port tables, from fastmcp's upgrade guides docs/getting-started/upgrading/
from-fastmcp-3.mdx and from-fastmcp-2.mdx, checked against fastmcp 2.14.7, 3.4.11 and 4.2.3) and
plans the codemod of :mod:`mcpmigrate.codemods.port.fastmcp4`, or says what to do by hand and why.
Only names that resolve into fastmcp count: a server built by ``fastmcp.FastMCP``, a context
annotated with ``fastmcp.Context``, a name imported from ``fastmcp``.
"""

from __future__ import annotations

import re

import libcst as cst

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import Kind, ModuleAnalysis
from mcpmigrate.codemods.port import fastmcp4 as F
from mcpmigrate.detectors.base import Detector, Report, ReportingVisitor
from mcpmigrate.detectors.port_fastmcp_servers import imported_servers
from mcpmigrate.model import FixPlan
from mcpmigrate.pins import AT_LEAST, project_pins
from mcpmigrate.screen import Facts

GUIDE4 = S.FASTMCP4_GUIDE
GUIDE3 = S.FASTMCP3_GUIDE


def imports_fastmcp(facts: Facts) -> bool:
    """The screen of every fastmcp 4 port detector: the module imports fastmcp."""
    return facts.imports_fastmcp


class PortFastmcpCallDetector(Detector):
    """MCP512 (removed server methods), MCP513 (removed component keywords), MCP514 (removed
    ``FastMCP(...)`` keywords), MCP515 (``McpError(ErrorData(...))``), MCP516 (``ctx.elicit``
    without ``response_type``), MCP518 (fastmcp 2.x state and listing calls)."""

    rules = ("MCP512", "MCP513", "MCP514", "MCP515", "MCP516", "MCP518", "MCP520")
    tokens = S.FASTMCP4_TOKENS
    screen = staticmethod(imports_fastmcp)

    def detect(self) -> list[Report]:
        v = _CallVisitor(self.analysis, imported_servers(self.analysis, self.config.root))
        self.analysis.flat.visit(v)
        return v.reports


_SERVER_CLASSES = S.FASTMCP_SERVER
# A Google-style docstring section fastmcp 3+ parses into parameter descriptions (griffe).
_ARGS_SECTION = re.compile(r"^\s*(?:Args|Arguments|Parameters):\s*$", re.M)
# The fields of mcp 2.3's ``ToolAnnotations`` (the keys fastmcp 4 keeps).
_TOOL_ANNOTATIONS = frozenset({"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})
_AS_PROXY = {f"{c}.as_proxy" for c in _SERVER_CLASSES}
_TOOL_CLASSES = {
    f"{m}.{c}.{meth}"
    for m in ("fastmcp.tools", "fastmcp.tools.tool", "fastmcp.tools.function_tool", "fastmcp")
    for c in ("Tool", "FunctionTool")
    for meth in ("from_function", "from_tool")
}
_MCP_ERRORS = {"fastmcp.exceptions.McpError", "mcp.shared.exceptions.McpError", "mcp.McpError"}
_ERROR_DATA = {"mcp.types.ErrorData", "mcp.ErrorData", "mcp_types.ErrorData"}
_NOT_FOUND = {"fastmcp.exceptions.NotFoundError"}
_HTTP_TRANSPORTS = {f"{m}.StreamableHttpTransport" for m in ("fastmcp.client.transports", "fastmcp.client", "fastmcp")}


def pins_fastmcp_before_4(a: ModuleAnalysis) -> bool:
    """The module's project declares a ``fastmcp`` requirement below 4 (``fastmcp>=2.0,<3``,
    ``fastmcp==3.4.11``): what its clients see today is fastmcp 2/3's (:mod:`mcpmigrate.pins`)."""

    def compute() -> bool:
        if a.path is None:
            return False
        pins = project_pins(a.path).pins
        return any(p.package == "fastmcp" and not p.locked and p.side() != AT_LEAST for p in pins)

    return a.memo("port.fastmcp_before_4", compute)


def pins_fastmcp_2(a: ModuleAnalysis) -> bool:
    """The module's project declares a ``fastmcp`` requirement that admits a 2.x release: the
    listing changes fastmcp 3 made (MCP520's "(fastmcp 3)" items) reach its clients on the port;
    a project already on fastmcp 3 lists them today."""

    def compute() -> bool:
        if a.path is None:
            return False
        return any(p.package == "fastmcp" and not p.locked and p.admits_below(3) for p in project_pins(a.path).pins)

    return a.memo("port.fastmcp_2", compute)


class _CallVisitor(ReportingVisitor):
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        for base in node.bases:
            if base.keyword is None and self.a.resolves_to(base.value, _MCP_ERRORS):
                self.report(
                    "MCP515",
                    base,
                    f"`{node.name.value}` subclasses `McpError`, which is mcp 2.x's `MCPError` on fastmcp 4, built from "
                    f"`code`, `message` and `data` (read “What You Must Change” in {GUIDE4}).",
                    manual="construct the subclass from `code=`, `message=`, `data=` (its own `__init__` and every "
                    "call that builds it from an `ErrorData`)",
                )

    def __init__(self, analysis, imported: set[str]) -> None:
        super().__init__(analysis)
        self.imported = imported  # fastmcp servers imported from other modules of the project

    def _server(self, expr: cst.BaseExpression, node: cst.CSTNode) -> bool:
        fn = self.fn(node)
        if isinstance(expr, cst.Name) and expr.value in self.imported and self.a.lookup(expr.value, fn) is None:
            return True
        return self.a.kind_of(expr, fn) is Kind.SERVER_HL and self.a.generation_of_server_expr(expr, fn) == S.FASTMCP

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        """MCP518: a fastmcp prompt that returns dicts (2.x sent each as JSON text in a user message;
        fastmcp 3 and 4 refuse them when the prompt is rendered). MCP520: what tools/list says of a
        fastmcp tool changes on fastmcp 4."""
        for deco in node.decorators:
            d = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
            if (
                isinstance(d, cst.Attribute)
                and d.attr.value == "tool"
                and self._server(d.value, node)
                and pins_fastmcp_before_4(self.a)
            ):
                self._listing_changes(node, deco.decorator)
            if isinstance(d, cst.Attribute) and d.attr.value == "prompt" and self._server(d.value, node):
                for ret in _returns(node):
                    value = ret.value
                    items = value.elements if isinstance(value, (cst.List, cst.Tuple)) else [value]
                    if any(isinstance(getattr(i, "value", i), cst.Dict) for i in items):
                        self.report(
                            "MCP518",
                            ret,
                            f"The prompt `{node.name.value}` returns dicts, which fastmcp 3 and 4 refuse when it is "
                            f"rendered (read “Prompts use Message class” in {GUIDE3}).",
                            manual="fastmcp 2.14 sent each dict as its JSON text in a user message; return "
                            "`Message(content, role=...)` (`fastmcp.prompts`) for what the dict meant — clients then "
                            "see the text under its role, not the JSON",
                        )
                return

    def _listing_changes(self, fn: cst.FunctionDef, deco: cst.BaseExpression) -> None:
        """MCP520, measured on fastmcp 2.14.7 / 3.4.11 / 4.2.3 (tools/list of the same tool): a
        ``title`` derived from the name (4.x, ``fastmcp.tools.base._default_title``), ``inputSchema``
        with ``additionalProperties: false`` (3.x), a Google-style ``Args:`` docstring section moved
        from the description into each parameter's ``description`` (3.x), annotation keys outside
        ``ToolAnnotations`` dropped (4.x: mcp 2.x's model), ``_meta._fastmcp`` → ``_meta.fastmcp`` (3.x)."""
        args = deco.args if isinstance(deco, cst.Call) else []
        kws = {a.keyword.value: a.value for a in args if a.keyword is not None}
        name = fn.name.value
        first = next((a.value for a in args if a.keyword is None), None)
        spelled = kws.get("name") or first
        if isinstance(spelled, cst.SimpleString) and isinstance(spelled.evaluated_value, str):
            name = spelled.evaluated_value
        changes = []
        if "title" not in kws:
            title = name.replace("_", " ").replace("-", " ").title()
            changes.append(f'it gains `title: "{title}"` (fastmcp 4)')
        from_2 = pins_fastmcp_2(self.a)  # fastmcp 3's changes are news only to a fastmcp 2 project
        if from_2:
            changes.append("`inputSchema` gains `additionalProperties: false` (fastmcp 3)")
        doc = fn.get_docstring() if "description" not in kws else None
        if from_2 and doc and _ARGS_SECTION.search(doc):
            changes.append(
                "its description loses the docstring's `Args:` section, which becomes each parameter's "
                "`description` (fastmcp 3)"
            )
        notes = kws.get("annotations")
        if isinstance(notes, cst.Dict):
            keys_given = [
                e.key.evaluated_value
                for e in notes.elements
                if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
            ]
            extra = [k for k in keys_given if isinstance(k, str) and k not in _TOOL_ANNOTATIONS]
            if extra:
                keys = ", ".join(f"`{k}`" for k in extra)
                changes.append(
                    f"its annotation key{'s' if len(extra) > 1 else ''} {keys} {'are' if len(extra) > 1 else 'is'} dropped (fastmcp 4)"
                )
        if from_2:
            changes.append("`_meta._fastmcp` is `_meta.fastmcp` (fastmcp 3)")
        if not changes:
            return  # what fastmcp 4 lists is what fastmcp 3 lists today (verify: identical)
        self.report(
            "MCP520",
            fn.name,
            f"On fastmcp 4, tools/list describes `{name}` differently: " + "; ".join(changes) + ". What a client "
            f"and its model read changes, with no error (read “Breaking Changes” in {GUIDE3} and {GUIDE4}).",
            manual="nothing to change for the server to run; to keep what clients read, pass `title=` and "
            "`description=` explicitly (the docstring as it was), and keep extra annotation keys in `meta=`",
        )

    def _context(self, expr: cst.BaseExpression, node: cst.CSTNode) -> bool:
        """A fastmcp ``Context``: by annotation or origin, or a middleware's ``context.fastmcp_context``."""
        if isinstance(expr, cst.Attribute) and expr.attr.value == "fastmcp_context":
            return True
        return self.a.kind_of(expr, self.fn(node)) is Kind.CONTEXT_FASTMCP

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self.a.resolves_to(func, _SERVER_CLASSES):
            self._constructor(node)
        elif self.a.resolves_to(func, _AS_PROXY):
            self._as_proxy(node)
        elif self.a.resolves_to(func, _MCP_ERRORS):
            self._mcp_error(node)
        elif self.a.resolves_to(func, _TOOL_CLASSES):
            self._component_keywords(node, "tool")
        elif self.a.resolves_to(func, _HTTP_TRANSPORTS):
            self._transport(node)
        elif isinstance(func, cst.Attribute):
            attr = func.attr.value
            recv = func.value
            if attr in (
                "mount",
                "import_server",
                "remove_tool",
                "add_tool_transformation",
                "remove_tool_transformation",
            ):
                if self._server(recv, node):
                    getattr(self, f"_{attr}")(node)
            elif attr in ("tool", "resource", "prompt") and self._server(recv, node):
                self._component_keywords(node, attr)
            elif attr in S.FASTMCP3_LISTINGS and self._server(recv, node):
                self._listing(node, attr)
            elif attr in ("elicit", *S.FASTMCP3_STATE) and self._context(recv, node):
                if attr == "elicit":
                    self._elicit(node)
                else:
                    self._state(node, attr)

    # -- MCP512: removed server methods ---------------------------------------------------
    def _as_proxy(self, node: cst.Call) -> None:
        self.reports.append(
            Report.planned(
                "MCP512",
                node,
                "`FastMCP.as_proxy(...)` is gone on fastmcp 4; `create_proxy(...)` from `fastmcp.server` builds the "
                f"same proxy and takes the target first (`backend=` is `target=`) (read “Removed Server Methods” in {GUIDE4}).",
                F.plan_as_proxy(node),
            )
        )

    def _mount(self, node: cst.Call) -> None:
        kws = {a.keyword.value: a for a in node.args if a.keyword is not None}
        positional = [a for a in node.args if a.keyword is None]
        # fastmcp 2.2–2.8 took ``mount(prefix, server)``; 2.9 put the server first
        swap = len(positional) >= 2 and (
            isinstance(positional[0].value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
            or (
                self.a.kind_of(positional[1].value, self.fn(node)) is Kind.SERVER_HL
                and self.a.kind_of(positional[0].value, self.fn(node)) is not Kind.SERVER_HL
            )
        )
        separators = sorted(k for k in kws if k.endswith("_separator"))
        if separators:
            self.report(
                "MCP512",
                node,
                f"`mount(..., {separators[0]}=...)` is gone on fastmcp 4 (read “Removed Server Methods” in {GUIDE4}).",
                manual="fastmcp 4 joins a namespace and a name with `_` (`ns_tool`) and puts resource namespaces in "
                "the URI path: clients see other names if another separator was set; drop it and check the names",
            )
        elif "as_proxy" in kws:
            self.report(
                "MCP512",
                node,
                f"`mount(..., as_proxy=...)` is gone on fastmcp 4 (read “Removed Server Methods” in {GUIDE4}).",
                manual="to keep the proxy boundary, mount `create_proxy(child)` (from `fastmcp.server`); a plain "
                "`mount(child)` composes it in-process and runs its lifespan and middleware",
            )
        elif "prefix" in kws or swap:
            self.reports.append(
                Report.planned(
                    "MCP512",
                    node,
                    "`mount(...)` takes the prefix as `namespace=` on fastmcp 4 (`prefix=` is gone"
                    + (", and the server comes first" if swap else "")
                    + f") (read “Removed Server Methods” in {GUIDE4}).",
                    F.plan_mount(node, swap),
                )
            )

    def _import_server(self, node: cst.Call) -> None:
        self.report(
            "MCP512",
            node,
            f"`import_server(...)` is gone on fastmcp 4 (read “Removed Server Methods” in {GUIDE4}).",
            manual="`mount()` is the replacement but not an equivalent: `import_server` copied the child's tools, "
            "resources and prompts once, without its lifespan or middleware; `mount` is a live link that runs both "
            "(a `prefix` becomes `namespace=`). Mount it if that is what you want, or register the child's components "
            "on this server directly to keep a frozen copy",
        )

    def _remove_tool(self, node: cst.Call) -> None:
        self.reports.append(
            Report.planned(
                "MCP512",
                node,
                "`remove_tool(...)` is gone from `FastMCP` on fastmcp 4; the server's own tools are removed with "
                f"`local_provider.remove_tool(...)` (read “Removed Server Methods” in {GUIDE4}).",
                F.plan_remove_tool(node, self._catches_not_found(node)),
            )
        )

    def _catches_not_found(self, node: cst.CSTNode) -> bool:
        """``node`` sits in the body of a ``try`` one of whose handlers catches fastmcp's ``NotFoundError``."""
        child, parent = node, self.a.parents.get(id(node))
        while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Module)):
            if isinstance(parent, cst.Try) and child is parent.body:
                for h in parent.handlers:
                    types = [e.value for e in h.type.elements] if isinstance(h.type, cst.Tuple) else [h.type]
                    if any(self.a.resolves_to(t, _NOT_FOUND) for t in types):
                        return True
            child, parent = parent, self.a.parents.get(id(parent))
        return False

    def _add_tool_transformation(self, node: cst.Call) -> None:
        plan = F.plan_transform(node)
        self.reports.append(
            Report.planned(
                "MCP512",
                node,
                "`add_tool_transformation(...)` is gone on fastmcp 4; a `ToolTransform` registered with `add_transform` "
                f"applies the same configuration (read “Removed Server Methods” in {GUIDE4}).",
                plan,
            )
        )

    def _remove_tool_transformation(self, node: cst.Call) -> None:
        self.report(
            "MCP512",
            node,
            f"`remove_tool_transformation(...)` is gone on fastmcp 4 (read “Removed Server Methods” in {GUIDE4}).",
            manual="it has no replacement (it was a no-op on fastmcp 3): hide the tool with `mcp.disable(keys=[...])`, "
            "or do not register the transformation",
        )

    # -- MCP513 / MCP514: removed keywords ------------------------------------------------
    def _component_keywords(self, node: cst.Call, kind: str) -> None:
        for arg in node.args:
            kw = arg.keyword.value if arg.keyword is not None else None
            if kind == "tool" and kw == "task" and _enables_tasks(arg.value) and "add_extension" not in self.a.code():
                self.report(
                    "MCP513",
                    arg,
                    "A `task=` tool needs the tasks extension on fastmcp 4, or the server refuses to start "
                    f"(read “Background Tasks” in {GUIDE4}).",
                    manual=S.FASTMCP4_TASKS_EXTENSION,
                )
            elif kind == "tool" and kw in S.FASTMCP4_TOOL_KWARGS:
                self.report(
                    "MCP513",
                    arg,
                    f"The tool keyword `{kw}=` is gone on fastmcp 4 (read “Removed Parameters” in {GUIDE4}).",
                    manual=S.FASTMCP4_TOOL_KWARGS[kw],
                )
            elif kind in ("resource", "prompt") and kw == "task":
                self.report(
                    "MCP513",
                    arg,
                    f"`@{kind}(task=...)` raises `TypeError` on fastmcp 4 (read “Background Tasks” in {GUIDE4}).",
                    manual=S.FASTMCP4_TASK_KWARG,
                )

    def _constructor(self, node: cst.Call) -> None:
        removed = [a for a in node.args if a.keyword is not None and a.keyword.value in S.FASTMCP4_REMOVED_KWARGS]
        if not removed:
            return
        parent = self.a.parents.get(id(node))
        server = None
        if (
            self.fn(node) is None
            and isinstance(parent, cst.Assign)
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
        ):
            server = parent.targets[0].target.value
        site = F.plan_to_run(self.a, node, server, removed)
        for arg in removed:
            kw = arg.keyword.value  # type: ignore[union-attr]
            plan = F.plan_moved_setting(site, kw, S.FASTMCP4_REMOVED_KWARGS[kw])
            self.reports.append(
                Report.planned(
                    "MCP514",
                    arg,
                    f"`FastMCP({kw}=...)` raises `TypeError` on fastmcp 4 (read “Transport and server settings removed "
                    f"from constructor” in {GUIDE3}, and “Protocol Version Support” in {GUIDE4}).",
                    plan,
                )
            )

    def _transport(self, node: cst.Call) -> None:
        """``StreamableHttpTransport(sse_read_timeout=...)``: gone on fastmcp 4, where the fourth
        positional parameter (2.x's ``sse_read_timeout``) is ``httpx_client_factory``."""
        positional = [a for a in node.args if a.keyword is None and not a.star]
        for arg in node.args:
            if (arg.keyword is not None and arg.keyword.value == "sse_read_timeout") or (
                len(positional) >= 4 and arg is positional[3]
            ):
                self.report(
                    "MCP514",
                    arg,
                    "`StreamableHttpTransport(sse_read_timeout=...)` is gone on fastmcp 4; its fourth positional "
                    f"parameter is `httpx_client_factory` there (read “Removed Parameters” in {GUIDE4}).",
                    manual="set the read timeout with `Client(transport, timeout=...)` (a `timedelta` or seconds)",
                )

    # -- MCP515: McpError construction ----------------------------------------------------
    def _mcp_error(self, node: cst.Call) -> None:
        if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
            return
        value = node.args[0].value
        if isinstance(value, cst.Call) and self.a.resolves_to(value.func, _ERROR_DATA):
            ok = all(a.keyword is not None and a.keyword.value in S.MCP_ERROR_FIELDS for a in value.args)
            plan = (
                F.plan_mcp_error(node, list(value.args))
                if ok and value.args
                else FixPlan(manual="pass `code=`, `message=` and `data=` to `McpError` as keywords")
            )
        elif isinstance(value, cst.Name):
            plan = F.plan_mcp_error(node)
        else:
            plan = FixPlan(manual="pass `code=`, `message=` and `data=` to `McpError` as keywords")
        self.reports.append(
            Report.planned(
                "MCP515",
                node,
                "`McpError(error_data)` raises `TypeError` on fastmcp 4: its `McpError` is mcp 2.x's `MCPError`, built "
                f"from `code`, `message` and `data` (read “What You Must Change” in {GUIDE4}).",
                plan,
            )
        )

    # -- MCP516: ctx.elicit without response_type -----------------------------------------
    def _elicit(self, node: cst.Call) -> None:
        if any(a.star for a in node.args):
            return
        positional = [a for a in node.args if a.keyword is None]
        given = {a.keyword.value: a for a in node.args if a.keyword is not None}
        rt = positional[1] if len(positional) >= 2 else given.get("response_type")
        if rt is not None and not (isinstance(rt.value, cst.Name) and rt.value.value == "None"):
            return
        self.report(
            "MCP516",
            node,
            "`ctx.elicit(...)` without a `response_type` raises `TypeError` on fastmcp 4 (read “Removed Parameters” "
            f"in {GUIDE4}).",
            manual='fastmcp 2/3 sent the empty form `{"type": "object", "properties": {}}` and no fastmcp 4 '
            "`response_type` sends that schema; pick the type you expect back (`bool` for a confirmation): the form "
            "clients show changes with it (or let `fix --strategy interim` rewrite the request where it can: its "
            "round and its legacy request keep that form)",
        )

    # -- MCP518: fastmcp 2.x state and listing calls --------------------------------------
    def _state(self, node: cst.Call, attr: str) -> None:
        parent = self.a.parents.get(id(node))
        if isinstance(parent, cst.Await):
            return  # already fastmcp 3's coroutine
        fn = self.fn(node)
        message = (
            f"`ctx.{attr}(...)` is a coroutine on fastmcp 3 and 4; called without `await` it does nothing "
            f"(read “Context state methods are async” in {GUIDE3})."
        )
        if attr == "set_state" and any(a.keyword is not None and a.keyword.value == "serializable" for a in node.args):
            return
        if fn is None or not fn.is_async or _in_lambda_or_comprehension(self.a, node):
            self.report("MCP518", node, message, manual="await it from an `async def` (the caller becomes a coroutine)")
            return
        parens = isinstance(parent, (cst.Attribute, cst.Subscript)) or (
            isinstance(parent, cst.Call) and parent.func is node
        )
        self.reports.append(
            Report.planned("MCP518", node, message, F.plan_await_state(node, attr == "set_state", parens))
        )

    def _listing(self, node: cst.Call, attr: str) -> None:
        new = S.FASTMCP3_LISTINGS[attr]
        self.report(
            "MCP518",
            node,
            f"`{attr}()` is gone on fastmcp 3 and 4; `{new}()` replaces it and returns a list, not a dict keyed by name "
            f"(read “Listing methods renamed and return lists” in {GUIDE3}).",
            manual=f"call `{new}()` and look components up by `.name` (`{{t.name: t for t in await mcp.{new}()}}`)",
        )


def _returns(fn: cst.FunctionDef) -> list[cst.Return]:
    """The ``return <value>`` statements of ``fn`` itself (not of nested functions or classes)."""
    out, stack = [], list(fn.body.children)
    while stack:
        n = stack.pop()
        if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            continue
        if isinstance(n, cst.Return) and n.value is not None:
            out.append(n)
        stack.extend(n.children)
    return out


def _enables_tasks(expr: cst.BaseExpression) -> bool:
    """``task=True`` or ``task=TaskConfig(...)`` (a variable may hold ``None``: not counted)."""
    return (isinstance(expr, cst.Name) and expr.value == "True") or isinstance(expr, cst.Call)


def _in_lambda_or_comprehension(a, node: cst.CSTNode) -> bool:
    parent = a.parents.get(id(node))
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Module)):
        if isinstance(parent, (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            return True
        parent = a.parents.get(id(parent))
    return False

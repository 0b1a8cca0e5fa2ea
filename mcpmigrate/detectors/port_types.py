"""The port to mcp 2.x, the protocol types' side (MCP506, MCP508, MCP509; run only with
``--target-sdk mcp2``): camelCase fields of ``mcp.types`` models, resource URIs that are ``str`` on
mcp 2.x, and imports of what mcp 2.x removed (``mcpmigrate/surfaces.py``, the port tables, read
off mcp 1.27 and mcp 2.3). The server side is :mod:`mcpmigrate.detectors.port`.
"""

from __future__ import annotations

import libcst as cst
from libcst.helpers import get_full_name_for_node

from mcpmigrate import surfaces as S
from mcpmigrate.analysis import Kind
from mcpmigrate.analysis.kinds import CONTEXTS
from mcpmigrate.codemods.port import context, handler_wrapper, memory_client, private_lowlevel, renames
from mcpmigrate.detectors.base import Detector, Report, ReportingVisitor
from mcpmigrate.detectors.port import GUIDE, names_mcp
from mcpmigrate.fastwalk import walk
from mcpmigrate.model import FixPlan
from mcpmigrate.names import name_refs

CAMEL_NAMES = b"|".join(sorted({f.encode() for fs in S.CAMEL_FIELDS_V1.values() for f in fs}))  # a regex


class PortFieldDetector(Detector):
    """MCP506: a camelCase field of an ``mcp.types`` model read or written where the receiver is
    resolved to that model (an annotated parameter or variable, or one built with its
    constructor); mcp 2.x's attribute is the snake_case name."""

    rules = ("MCP506",)
    # ``x.inputSchema``, or the literal name of ``getattr(x, "inputSchema")`` / ``hasattr``
    tokens = (rb"\.(?:" + CAMEL_NAMES + rb")\b", rb"[\"'](?:" + CAMEL_NAMES + rb")[\"']")
    screen = staticmethod(names_mcp)

    def detect(self) -> list[Report]:
        v = FieldVisitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports


INTERNAL_TOOL = "fastmcp.Tool"  # an element of ``server._tool_manager.list_tools()`` (no mcp.types class)
# The ``mcp.types`` class of a field's value (mcp 1.27 and 2.3 agree), for the chains from a
# session: ``client_params.clientInfo`` is an ``Implementation``.
FIELD_CLASSES = {
    ("InitializeRequestParams", "clientInfo"): "Implementation",
    ("InitializeRequestParams", "client_info"): "Implementation",
    ("InitializeRequestParams", "capabilities"): "ClientCapabilities",
    ("ClientCapabilities", "roots"): "RootsCapability",
    ("Tool", "annotations"): "ToolAnnotations",
    # FastMCP's own tool (``mcp.server.fastmcp.tools.base.Tool``; ``…mcpserver…`` on 2.3): its
    # ``annotations`` is the ``mcp.types.ToolAnnotations`` the tool was registered with
    (INTERNAL_TOOL, "annotations"): "ToolAnnotations",
}
# What a ``ServerSession`` attribute is (mcp 2.3 ``mcp.server.session.ServerSession.client_params``).
SESSION_ATTRS = {"client_params": "InitializeRequestParams"}
# What an upstream ``ClientSession`` request returns (mcp 1.27 ``mcp/client/session.py``).
CLIENT_RESULTS = {
    "call_tool": "CallToolResult",
    "list_tools": "ListToolsResult",
    "list_resources": "ListResourcesResult",
    "list_resource_templates": "ListResourceTemplatesResult",
    "read_resource": "ReadResourceResult",
    "list_prompts": "ListPromptsResult",
    "get_prompt": "GetPromptResult",
    "initialize": "InitializeResult",
    "complete": "CompleteResult",
}
CLIENT_SESSIONS = frozenset(
    {
        "mcp.ClientSession",
        "mcp.client.session.ClientSession",
        # mcp 1.x's in-memory test helper yields a `ClientSession`; mcp 2.x's `Client` that replaces it
        # returns the same result classes (codemods/port/memory_client.py)
        memory_client.HELPER,
        "mcp.Client",
        "mcp.client.Client",
        "mcp.client.client.Client",
    }
)
# What an element of a FastMCP (1.x) / MCPServer listing is (``FastMCP.list_tools()`` returns
# ``list[mcp.types.Tool]`` on 1.27, ``MCPServer.list_tools()`` on 2.3 too).
LISTED = {
    "list_tools": "Tool",
    "list_resources": "Resource",
    "list_resource_templates": "ResourceTemplate",
    "list_prompts": "Prompt",
}
_SERVERS = S.FASTMCP_V1_SERVER | S.MCPSERVER_V2
# What an element of a result's list field is (mcp 1.27 and 2.3 agree; a resource content is a
# text or a blob one, both ``ResourceContents``).
ITEM_CLASSES = {
    ("ListToolsResult", "tools"): "Tool",
    ("ListResourcesResult", "resources"): "Resource",
    ("ListResourceTemplatesResult", "resourceTemplates"): "ResourceTemplate",
    ("ListPromptsResult", "prompts"): "Prompt",
    ("ReadResourceResult", "contents"): "ResourceContents",
}
_LISTS = ("list", "List", "Sequence", "Iterable", "tuple", "Tuple")


class FieldVisitor(ReportingVisitor):
    """MCP506's visitor; MCP519 (the fastmcp 4 port: :mod:`.port_fastmcp_fields`) reports under its
    own rule. A receiver resolves to an ``mcp.types`` model by annotation or constructor, through
    the chain from a context (``ctx.session.client_params`` is ``InitializeRequestParams``), as the
    result of an upstream ``ClientSession`` request (``result = await session.call_tool(...)``),
    or as an element of the server's own listing (``for tool in await super().list_tools()`` in
    a ``FastMCP`` subclass)."""

    def receiver_class(self, node: cst.Attribute) -> str | None:
        return self._class_of(node.value, 0)

    def _class_of(self, expr: cst.BaseExpression, depth: int) -> str | None:
        if depth > 8:
            return None
        fn = self.fn(expr)
        if isinstance(expr, cst.Name):
            scope = fn.node if fn is not None else self.a.module
            return renames.bound_class(
                self.a,
                expr.value,
                scope,
                lambda v: self._class_of(v, depth + 1),
                lambda v: self._item_class(v, scope),
            )
        if isinstance(expr, cst.Attribute):
            attr = expr.attr.value
            if attr in SESSION_ATTRS and self._session(expr.value):
                return SESSION_ATTRS[attr]
            base = self._class_of(expr.value, depth + 1)
            return FIELD_CLASSES.get((base, attr)) if base is not None else None
        if isinstance(expr, cst.Await) and isinstance(expr.expression, cst.Call):
            func = expr.expression.func
            if isinstance(func, cst.Attribute) and self._client_session(func.value):
                return CLIENT_RESULTS.get(func.attr.value)
        if isinstance(expr, cst.Call):
            field = self._getattr_field(expr)  # getattr(x, "annotations", None): that field of x
            if field is not None:
                base = self._class_of(expr.args[0].value, depth + 1)
                return FIELD_CLASSES.get((base, field)) if base is not None else None
            return self._next_of(expr)
        return None

    def _builtin(self, func: cst.BaseExpression, *names: str) -> bool:
        return (
            isinstance(func, cst.Name)
            and func.value in names
            and func.value not in self.a.imports
            and all(name != func.value for name, _v in self.a.module_assigns)
        )

    def _getattr_field(self, call: cst.Call) -> str | None:
        """The literal field name of ``getattr(x, "field")`` (a default allowed), else None."""
        if not (
            self._builtin(call.func, "getattr")
            and len(call.args) in (2, 3)
            and all(a.keyword is None and not a.star for a in call.args)
            and isinstance(call.args[1].value, cst.SimpleString)
        ):
            return None
        literal = call.args[1].value
        value = literal.evaluated_value if isinstance(literal, cst.SimpleString) else None
        return value if isinstance(value, str) else None

    def _tool_manager_listing(self, call: cst.Call) -> bool:
        """``server._tool_manager.list_tools()`` of a FastMCP server: a module-level one, or a
        parameter annotated with its class (telegram-mcp's ``_apply_exposed_tools_mode``)."""
        func = call.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "list_tools"
            and not call.args
            and isinstance(func.value, cst.Attribute)
            and func.value.attr.value == "_tool_manager"
            and isinstance(func.value.value, cst.Name)
        ):
            return False
        server = func.value.value
        built = [v for name, v in self.a.module_assigns if name == server.value and isinstance(v, cst.Call)]
        if built and all(self.a.resolves_to(v.func, _SERVERS) for v in built):
            return True
        fn = self.fn(call)
        if fn is None or not isinstance(fn.node, cst.FunctionDef):
            return False
        params = [p for p in fn.node.params.params if p.name.value == server.value]
        rebound = any(
            isinstance(n, cst.Name) and n.value == server.value and _binds(self.a, n) for n in walk(fn.node.body)
        )
        return (
            len(params) == 1
            and params[0].annotation is not None
            and self.a.resolves_to(params[0].annotation.annotation, _SERVERS)
            and not rebound
        )

    def _next_of(self, call: cst.Call) -> str | None:
        """``next(x for x in items if ...)`` (a ``None`` default allowed): an element of ``items``."""
        if not (
            _is_name(call.func, "next")
            and "next" not in self.a.imports
            and 1 <= len(call.args) <= 2
            and all(a.keyword is None and not a.star for a in call.args)
            and (len(call.args) == 1 or _is_name(call.args[1].value, "None"))
        ):
            return None
        gen = call.args[0].value
        if not (isinstance(gen, cst.GeneratorExp) and gen.for_in.inner_for_in is None):
            return None
        target = gen.for_in.target
        if not (isinstance(target, cst.Name) and _is_name(gen.elt, target.value)):
            return None
        fn = self.fn(call)
        return self._item_class(gen.for_in.iter, fn.node if fn is not None else self.a.module)

    def _session(self, expr: cst.BaseExpression) -> bool:
        """``expr`` is the ``ServerSession`` of an MCP context: ``<context>.session`` (a
        ``Context`` by annotation or ``get_context()``), or a name the analysis binds to one."""
        fn = self.fn(expr)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "session":
            return self.a.kind_of(expr.value, fn) in (CONTEXTS | {Kind.LL_CONTEXT})
        return isinstance(expr, cst.Name) and self.a.kind_of(expr, fn) is Kind.SESSION

    def _client_session(self, expr: cst.BaseExpression) -> bool:
        """``expr`` is an upstream ``ClientSession``: a name every binding of which is a parameter
        annotated with it or ``async with ClientSession(...) as name``."""
        if not isinstance(expr, cst.Name):
            return False
        scope = _binding_scope(self.a, expr)
        seen = False
        for n in walk(scope):
            if isinstance(n, cst.Param) and n.name.value == expr.value:
                if n.annotation is None or not self.a.resolves_to(n.annotation.annotation, set(CLIENT_SESSIONS)):
                    return False
                seen = True
            elif isinstance(n, cst.WithItem) and n.asname is not None and _is_name(n.asname.name, expr.value):
                if not (isinstance(n.item, cst.Call) and self.a.resolves_to(n.item.func, set(CLIENT_SESSIONS))):
                    return False
                seen = True
        return seen

    def _item_class(self, iterable: cst.BaseExpression, scope: cst.CSTNode) -> str | None:
        """The ``mcp.types`` class of an element of ``iterable``: the server's own listing,
        ``await super().list_tools()`` / ``await self.list_tools()`` in a subclass of FastMCP (or
        ``MCPServer``), ``await server.list_tools()`` of a module-level one, or a name bound once
        in the scope to one of those."""
        if isinstance(iterable, cst.Attribute):
            base = self._class_of(iterable.value, 1)
            return ITEM_CLASSES.get((base, iterable.attr.value)) if base is not None else None
        if isinstance(iterable, cst.Name):
            values = [
                v
                for n in walk(scope)
                if isinstance(n, cst.Assign)
                for t in n.targets
                if _is_name(t.target, iterable.value)
                for v in (n.value,)
            ]
            if not values:
                return self._listed_param(iterable, scope)
            return self._item_class(values[0], scope) if len(values) == 1 else None
        if isinstance(iterable, cst.Call) and self._tool_manager_listing(iterable):
            return INTERNAL_TOOL
        if (
            isinstance(iterable, cst.Call)
            and self._builtin(iterable.func, "list", "tuple", "sorted")
            and len(iterable.args) == 1
            and iterable.args[0].keyword is None
            and not iterable.args[0].star
        ):
            return self._item_class(iterable.args[0].value, scope)  # list(server._tool_manager.list_tools())
        if not (isinstance(iterable, cst.Await) and isinstance(iterable.expression, cst.Call)):
            return None
        func = iterable.expression.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in LISTED):
            return None
        recv = func.value
        fn = self.fn(iterable)
        if (isinstance(recv, cst.Call) and _is_name(recv.func, "super")) or _is_name(recv, "self"):
            cls = fn.class_name if fn is not None else None
            bases = self.a.class_bases.get(cls or "", [])
            return LISTED[func.attr.value] if any(b in _SERVERS for b in bases) else None
        if isinstance(recv, cst.Name):
            built = [v for name, v in self.a.module_assigns if name == recv.value and isinstance(v, cst.Call)]
            if built and all(self.a.resolves_to(v.func, _SERVERS) for v in built):
                return LISTED[func.attr.value]
        return None

    def _listed_param(self, name: cst.Name, scope: cst.CSTNode) -> str | None:
        """The element class of a parameter of ``scope`` annotated ``Sequence[types.X]`` (or
        ``list[...]`` …) that nothing else binds."""
        if not isinstance(scope, cst.FunctionDef):
            return None
        params = [p for p in (*scope.params.params, *scope.params.kwonly_params) if p.name.value == name.value]
        if len(params) != 1 or params[0].annotation is None:
            return None
        ann = params[0].annotation.annotation
        if not (isinstance(ann, cst.Subscript) and len(ann.slice) == 1 and isinstance(ann.slice[0].slice, cst.Index)):
            return None
        head = ann.value.attr if isinstance(ann.value, cst.Attribute) else ann.value
        if not (isinstance(head, cst.Name) and head.value in _LISTS):
            return None
        if any(isinstance(n, cst.Name) and n.value == name.value and _binds(self.a, n) for n in walk(scope.body)):
            return None
        return renames.types_class(self.a, ann.slice[0].slice.value)

    def found(self, node: cst.Attribute | cst.SimpleString, cls: str, field: str, new: str) -> None:
        old, renamed = self.spelled(node, field, new)
        self.reports.append(
            Report.planned(
                "MCP506",
                node,
                f"`{old}` is `{renamed}` on mcp 2.x (`{cls}`). mcp 2.x names "
                f"the fields of `mcp.types` models in snake_case; the camelCase name is only the wire alias "
                f"(read “Field names changed from camelCase to snake_case” in {GUIDE}).",
                renames.plan_attr_rename(node, new),
            )
        )

    def spelled(self, node: cst.Attribute | cst.SimpleString, field: str, new: str) -> tuple[str, str]:
        """How the read is written, before and after: ``recv.field``, or the whole ``getattr(...)``."""
        if isinstance(node, cst.Attribute):
            recv = cst.Module([]).code_for_node(node.value)
            return f"{recv}.{field}", f"{recv}.{new}"
        call = self.a.parents.get(id(self.a.parents.get(id(node))))
        code = cst.Module([]).code_for_node(call) if call is not None else node.value
        return code, code.replace(node.value, f"{node.prefix}{node.quote}{new}{node.quote}", 1)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        field = node.attr.value
        if not any(c.isupper() for c in field):
            return
        cls = self.receiver_class(node)
        if cls is not None and field in S.CAMEL_FIELDS_V1.get(cls, ()):
            self.found(node, cls, field, renames.snake(field))

    def visit_Call(self, node: cst.Call) -> None:
        """``getattr(x, "inputSchema")`` (with or without a default) and ``hasattr(x, "inputSchema")``
        on a receiver resolved as for an attribute: on mcp 2.x the camelCase name is no attribute,
        so ``getattr`` raises or answers its default and ``hasattr`` is False."""
        func = node.func
        if not (
            self._builtin(func, "getattr", "hasattr")
            and len(node.args) in ((2, 3) if isinstance(func, cst.Name) and func.value == "getattr" else (2,))
            and all(a.keyword is None and not a.star for a in node.args)
        ):
            return
        name = node.args[1].value
        if not isinstance(name, cst.SimpleString) or "b" in name.prefix.lower():
            return
        field = name.evaluated_value
        if not isinstance(field, str) or not any(c.isupper() for c in field):
            return
        cls = self._class_of(node.args[0].value, 0)
        if cls is not None and field in S.CAMEL_FIELDS_V1.get(cls, ()):
            self.found(name, cls, field, renames.snake(field))


def _binds(a, n: cst.Name) -> bool:
    """``n`` is a target: assigned, a loop or comprehension variable, an ``as`` name, a parameter."""
    parent = a.parents.get(id(n))
    if isinstance(parent, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr)):
        return getattr(parent, "target", None) is n
    return isinstance(parent, (cst.AsName, cst.Param, cst.Tuple, cst.List, cst.Element))


def _binding_scope(a, name: cst.Name) -> cst.CSTNode:
    """The innermost function around ``name`` (then the module) that binds it: a closure's
    variable is looked up where the enclosing function binds it (``remote`` of ``async with
    ClientSession(...) as remote`` read in a handler nested in that block)."""
    node: cst.CSTNode | None = a.parents.get(id(name))
    while node is not None:
        if isinstance(node, cst.FunctionDef):
            own = [n for n in walk(node) if isinstance(n, cst.Name) and n.value == name.value and _binds(a, n)]
            if own:
                return node
        node = a.parents.get(id(node))
    return a.module


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


class PortUriDetector(Detector):
    """MCP508: resource URIs are ``str`` on mcp 2.x, not ``AnyUrl``: an ``AnyUrl(...)`` passed as
    ``uri=`` to a model (fix: ``str(...)``), and URL parts read off such a model's ``uri`` (manual)."""

    rules = ("MCP508",)
    tokens = (rb"Any(?:Http)?Url", rb"\.uri\.")
    screen = staticmethod(names_mcp)

    def detect(self) -> list[Report]:
        v = _UriVisitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports


class _UriVisitor(ReportingVisitor):
    def visit_Call(self, node: cst.Call) -> None:
        cls = renames.types_class(self.a, node.func)
        if cls not in S.STR_URI_TYPES:
            return
        for arg in node.args:
            value = arg.value
            if (
                arg.keyword is not None
                and arg.keyword.value == "uri"
                and isinstance(value, cst.Call)
                and self.a.resolves_to(value.func, S.ANY_URL)
            ):
                self.reports.append(
                    Report.planned(
                        "MCP508",
                        value,
                        f"`{cls}(uri=AnyUrl(...))`: the field is `str` on mcp 2.x, which rejects an `AnyUrl`. "
                        f"mcp 2.x types resource URIs as plain strings (read “Resource URI type changed from "
                        f"`AnyUrl` to `str`” in {GUIDE}).",
                        renames.plan_wrap_str(value),
                    )
                )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        inner = node.value
        if node.attr.value not in S.URL_PARTS or not (
            isinstance(inner, cst.Attribute) and inner.attr.value == "uri" and isinstance(inner.value, cst.Name)
        ):
            return
        fn = self.fn(node)
        cls = renames.bound_class(self.a, inner.value.value, fn.node if fn is not None else self.a.module)
        if cls in S.STR_URI_TYPES:
            self.report(
                "MCP508",
                node,
                f"`{get_full_name_for_node(node)}` reads a URL part off a `{cls}` URI, a plain `str` on mcp 2.x. "
                f"mcp 2.x types resource URIs as strings and no longer normalises them (read “Resource URI type "
                f"changed from `AnyUrl` to `str`” in {GUIDE}).",
                manual=f"parse it: `urllib.parse.urlparse({get_full_name_for_node(inner)}).{node.attr.value}` "
                "(pydantic's URL normalised it, so compare the values you rely on)",
            )


class PortImportDetector(Detector):
    """MCP509: an import of an mcp 1.x module or name that mcp 2.x no longer has (the module would
    not import on 2.x); ``FastMCP`` and ``McpError`` are MCP501/MCP502's."""

    rules = ("MCP509",)
    tokens = (rb"mcp",)
    screen = staticmethod(names_mcp)

    def detect(self) -> list[Report]:
        v = GoneImportVisitor(self.analysis)
        self.analysis.flat.visit(v)
        return v.reports


def _gone(module: str, name: str | None) -> str | None:
    """Why ``module`` (or ``module.name``) is not importable on mcp 2.x, or None."""
    if module in S.MCP1_MODULES_GONE:
        return S.MCP1_GONE_HINTS.get(module) or S.MCP1_GONE_HINTS.get(module.rsplit(".", 1)[0]) or "the module is gone"
    if name is not None and name in S.MCP1_NAMES_GONE.get(module, ()):
        return S.MCP1_GONE_HINTS.get(f"{module}.{name}", "the name is gone")
    return None


class GoneImportVisitor(ReportingVisitor):
    """MCP509's visitor; the fastmcp 4 port (whose mcp is 2.x) runs it as MCP511 (``rule``)."""

    def __init__(self, analysis, rule: str = "MCP509", handler_tables: bool = True) -> None:
        super().__init__(analysis)
        self.rule = rule
        self.handler_tables = handler_tables  # fastmcp 4's FastMCP keeps `_mcp_server`: not its port

    def _found(self, node: cst.CSTNode, what: str, why: str, plan: FixPlan | None = None) -> None:
        message = (
            f"`{what}` does not exist on mcp 2.x, so this module would not import there. mcp 2.x removed or "
            f"moved it (read {GUIDE}, the section that names it)."
        )
        if plan is not None:
            self.reports.append(Report.planned(self.rule, node, message, plan))
            return
        if what == memory_client.HELPER and isinstance(node, cst.ImportAlias):
            plan = memory_client.plan(self.a, node)
            self.reports.append(Report.planned(self.rule, node, message, plan))
            return
        if what in S.REQUEST_CTX_VARS and isinstance(node, cst.ImportAlias):
            self.reports.append(
                Report.planned(self.rule, node, message, context.plan_request_ctx_import(self.a, node, why))
            )
            return
        origin = renames.REEXPORTS.get(what)
        if origin is not None and isinstance(node, (cst.ImportAlias, cst.Attribute)):
            name = what.rpartition(".")[2]
            plan = renames.plan_reexport(node, origin, name)
            self.reports.append(Report.planned(self.rule, node, message + f" It is `{origin}.{name}`.", plan))
            return
        self.report(self.rule, node, message, manual=why)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        mod = get_full_name_for_node(node.module) or ""
        if not (mod == "mcp" or mod.startswith("mcp.")):
            return
        why = _gone(mod, None)
        if why is not None:
            self._found(node, mod, why)
            return
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            why = _gone(mod, name) or _gone(f"{mod}.{name}", None)
            if why is not None:
                self._found(alias, f"{mod}.{name}", why)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = get_full_name_for_node(alias.name) or ""
            why = _gone(full, None)
            if why is not None:
                self._found(alias, full, why)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        parent = self.a.parents.get(id(node))
        if node.attr.value in HANDLER_TABLE_ATTRS and self.handler_tables:
            _handler_table(self, node, parent)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return  # the longest chain is checked
        q = self.a.qualname(node) or ""
        module, _, name = q.rpartition(".")
        if not module.startswith("mcp") or isinstance(parent, (cst.Import, cst.ImportFrom, cst.ImportAlias)):
            return
        head = get_full_name_for_node(node.value) or ""
        if head.split(".")[0] not in self.a.imports:
            return
        why = _gone(module, name)
        if why is not None:
            self._found(node, q, why)


# FastMCP's private low-level server (``_lowlevel_server`` on mcp 2.x) and the low-level
# ``Server``'s handler tables keyed by class (gone on mcp 2.x: handlers are keyed by method).
HANDLER_TABLE_ATTRS = ("_mcp_server", "notification_handlers", "request_handlers")
TABLES_GUIDE = f"read “Lowlevel `Server`: decorator-based handlers replaced with constructor `on_*` params” in {GUIDE}"


def _private_server_reason(
    self: GoneImportVisitor, node: cst.Attribute, parent: cst.CSTNode | None, server: str
) -> str:
    """Why a use of a 1.x FastMCP's ``_mcp_server`` is manual; for ``request_handlers[types.X]``
    (telegram-mcp wraps the ``CallToolRequest`` handler to annotate its results), what it is on
    mcp 2.x."""
    general = (
        f"FastMCP's private `_mcp_server` is `{server}` on mcp 2.x, a low-level `Server` with another "
        f"API (handlers keyed by method, called as `(ctx, params)`): port this use by hand ({TABLES_GUIDE})"
    )
    item = self.a.parents.get(id(parent)) if parent is not None else None
    if not (
        isinstance(parent, cst.Attribute)
        and parent.attr.value == "request_handlers"
        and isinstance(item, cst.Subscript)
        and len(item.slice) == 1
        and isinstance(item.slice[0].slice, cst.Index)
    ):
        return general
    key = cst.Module([]).code_for_node(item.slice[0].slice.value).rpartition(".")[2]
    method = S.REQUEST_TYPE_METHODS.get(key)
    if method is None:
        return general
    params = "PaginatedRequestParams" if method.endswith("/list") else f"{key}Params"
    return (
        f"FastMCP's private `_mcp_server` is `{server}` on mcp 2.x, whose handlers are keyed by method: "
        f'`request_handlers[{key}]` is `{server}.get_request_handler("{method}").handler` there, called as '
        f"`(ctx, params)` (a `ServerRequestContext` and a `{params}`, not the `{key}`) and returning the result "
        f"itself (no `.root`: `ServerResult` is a plain union on mcp 2.x); a wrapper is registered with "
        f'`{server}.add_request_handler("{method}", {params}, handler)`: port this use by hand ({TABLES_GUIDE})'
    )


def _handler_table(self: GoneImportVisitor, node: cst.Attribute, parent: cst.CSTNode | None) -> None:
    """MCP509 for ``app._mcp_server`` (a 1.x FastMCP) and ``server.notification_handlers`` /
    ``server.request_handlers`` (a 1.x low-level Server): mcp 2.x has neither. A registration
    ``….notification_handlers[types.X] = handler`` of a notification a client sends is ported
    (:class:`renames.NotificationHandlerPort`); any other use is manual."""
    fn = self.fn(node)
    code = cst.Module([]).code_for_node
    if node.attr.value == "_mcp_server":
        if self.a.kind_of(node.value, fn) is not Kind.SERVER_HL or memory_client.passes_server(self.a, node):
            return
        # an MCPServer has no `_mcp_server` either (its low-level server is `_lowlevel_server`): the
        # use is reported again after the rename to MCPServer, in each round of the port's fix
        if self.a.generation_of_server_expr(node.value, fn) not in (S.MCP1, S.MCP2):
            return
        server = f"{code(node.value)}._lowlevel_server"
        if isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "notification_handlers":
            table: cst.Attribute = parent
        else:
            # a wrapper around the tools/call handler, or a handler registered with a decorator of it
            wrapper = handler_wrapper.plan(self.a, node) or private_lowlevel.plan(self.a, node)
            self._found(node, f"{code(node)}", _private_server_reason(self, node, parent, server), wrapper)
            return
    else:
        if isinstance(node.value, cst.Attribute) and node.value.attr.value == "_mcp_server":
            return  # reported with the `_mcp_server` it is read from
        if self.a.kind_of(node.value, fn) is not Kind.SERVER_LL or self.a.module_generation() == S.MCP2:
            return
        server, table = code(node.value), node
    plan = _registration(self, table, server)
    what = f"{code(table)}"
    if isinstance(plan, str):
        self._found(table, what, plan)
        return
    self.reports.append(
        Report.planned(
            self.rule,
            self.a.parents.get(id(table)) or table,
            f"`{what}` does not exist on mcp 2.x, so this module would not import there. mcp 2.x keys the "
            f"low-level handlers by method: `{server}.add_notification_handler(method, params_type, handler)`, "
            f"called as `(ctx, params)` ({TABLES_GUIDE}).",
            plan,
        )
    )


def _registration(self: GoneImportVisitor, table: cst.Attribute, server: str) -> FixPlan | str:
    """The port of ``table[types.X] = handler``, or why it is manual."""
    sub = self.a.parents.get(id(table))
    target = self.a.parents.get(id(sub))
    assign = self.a.parents.get(id(target))
    stmt = self.a.parents.get(id(assign))
    if not (
        table.attr.value == "notification_handlers"
        and isinstance(sub, cst.Subscript)
        and len(sub.slice) == 1
        and isinstance(sub.slice[0].slice, cst.Index)
        and isinstance(target, cst.AssignTarget)
        and isinstance(assign, cst.Assign)
        and len(assign.targets) == 1
        and isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
    ):
        return (
            "the handler table is read or written other than by `….notification_handlers[types.X] = handler`: "
            f"register the handler with `add_notification_handler`/`add_request_handler` by hand ({TABLES_GUIDE})"
        )
    cls = self.a.qualname(sub.slice[0].slice.value) or ""
    if cls.rpartition(".")[0] != "mcp.types" or cls.rpartition(".")[2] not in renames.NOTIFICATION_HANDLER_PORTS:
        return f"`{cls or 'this key'}` is not a notification a client sends that the port maps: register it by hand ({TABLES_GUIDE})"
    handler = assign.value
    if not isinstance(handler, cst.Name):
        return f"the handler is not a name of this module: register it by hand ({TABLES_GUIDE})"
    fndef = next(
        (n for n in self.a.module.body if isinstance(n, cst.FunctionDef) and n.name.value == handler.value), None
    )
    if fndef is None or fndef.asynchronous is None or renames.module_bindings(self.a).get(handler.value, 0) != 1:
        return f"the handler is not one `async def` of this module bound once: register it by hand ({TABLES_GUIDE})"
    params = fndef.params.params
    if len(params) != 1:
        return f"`{handler.value}` does not take just the notification: register it by hand ({TABLES_GUIDE})"
    reads = bool(name_refs(fndef.body, params[0].name.value))
    return renames.plan_notification_handler(stmt, server, sub.slice[0].slice.value, handler.value, reads)

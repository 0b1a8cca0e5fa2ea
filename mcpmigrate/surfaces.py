"""The MCP names every rule matches, per SDK generation (one table, shared by every rule).

Source: the SDKs themselves, mcp 1.27 (``mcp.server.fastmcp``,
low-level ``mcp.server.lowlevel.Server`` with decorators), mcp 2.3 (``mcp.server.mcpserver``,
low-level ``Server(on_…=…)``), fastmcp 2.x–4.x (``fastmcp``).

Qualified names are the dotted paths a name resolves to through the module's imports; every
spelling that the SDK re-exports is listed, so ``from mcp.server import FastMCP`` and
``from mcp.server.fastmcp.server import FastMCP`` both resolve.
"""

from __future__ import annotations

# --- SDK generations ------------------------------------------------------------------------
MCP1 = "mcp1"  # mcp 1.x (FastMCP, decorator low-level Server)
MCP2 = "mcp2"  # mcp 2.x (MCPServer, Server(on_…=…))
FASTMCP = "fastmcp"  # standalone fastmcp

# --- server classes -------------------------------------------------------------------------
FASTMCP_V1_SERVER = {
    "mcp.server.fastmcp.FastMCP",
    "mcp.server.fastmcp.server.FastMCP",
    "mcp.server.FastMCP",
}
MCPSERVER_V2 = {
    "mcp.server.mcpserver.MCPServer",
    "mcp.server.mcpserver.server.MCPServer",
    "mcp.server.MCPServer",
}
FASTMCP_SERVER = {"fastmcp.FastMCP", "fastmcp.server.FastMCP", "fastmcp.server.server.FastMCP"}
HIGH_LEVEL_SERVERS = FASTMCP_V1_SERVER | MCPSERVER_V2 | FASTMCP_SERVER
LOWLEVEL_SERVERS = {
    "mcp.server.lowlevel.Server",
    "mcp.server.lowlevel.server.Server",
    "mcp.server.Server",
}

# --- request contexts -----------------------------------------------------------------------
# Context objects handed to tools/prompts/resources (the parameter annotated with one of these).
MCP_CONTEXT_V1 = {
    "mcp.server.fastmcp.Context",
    "mcp.server.fastmcp.server.Context",
    "mcp.server.fastmcp.context.Context",
}
MCP_CONTEXT_V2 = {
    "mcp.server.mcpserver.Context",
    "mcp.server.mcpserver.server.Context",
    "mcp.server.mcpserver.context.Context",
}
FASTMCP_CONTEXT = {"fastmcp.Context", "fastmcp.server.Context", "fastmcp.server.context.Context"}
# fastmcp 2.13+/3/4 middleware base (fastmcp/server/middleware/middleware.py); its `on_initialize` hook
# handles the handshake 2026-07-28 removes
FASTMCP_MIDDLEWARE = {"fastmcp.server.middleware.Middleware", "fastmcp.server.middleware.middleware.Middleware"}
# Low-level request contexts: 1.x RequestContext (server.request_context / request_ctx.get()),
# 2.x ServerRequestContext (the first argument of every on_… handler).
LOWLEVEL_CONTEXT = {
    "mcp.shared.context.RequestContext",
    "mcp.server.context.ServerRequestContext",
    "mcp.server.ServerRequestContext",
    "mcp.server.lowlevel.ServerRequestContext",
    "mcp.server.lowlevel.server.ServerRequestContext",
    "mcp.server.context.RequestContext",
}
# mcp 1.x has neither `mcp.server.context` nor `ServerRequestContext`: importing one is 2.x code.
LOWLEVEL_CONTEXT_V2 = {q for q in LOWLEVEL_CONTEXT if q.endswith(".ServerRequestContext")}
SESSION_TYPES = {
    "mcp.server.session.ServerSession",
    "mcp.server.ServerSession",
    "mcp.ServerSession",
}
# fastmcp's ``get_context()``: the current request's ``Context``, from anywhere inside it.
GET_CONTEXT = "fastmcp.server.dependencies.get_context"
# Functions returning a context from anywhere inside a request.
GET_CONTEXT_FUNCTIONS = {
    GET_CONTEXT: "fastmcp",
    "fastmcp.dependencies.CurrentContext": "fastmcp",
}
# Unannotated names conventionally holding an MCP context (``ctx.session`` in a module that
# imports MCP is taken as a session; the screens treat them as possible contexts too).
CONTEXT_NAMES = frozenset({"ctx", "context", "mcp_ctx", "request_context"})

# Frameworks built on the SDK whose source is not in the project: their class → the SDK class it
# subclasses (it gets that class's kind). mcp-use: ``mcp_use.server.Context(mcp.server.fastmcp.
# Context)`` and ``mcp_use.server.MCPServer(FastMCP)`` (mcp_use/server/context.py, server.py).
FRAMEWORK_CLASSES = {
    "mcp_use.server.Context": "mcp.server.fastmcp.Context",
    "mcp_use.server.context.Context": "mcp.server.fastmcp.Context",
    "mcp_use.server.MCPServer": "mcp.server.fastmcp.FastMCP",
    "mcp_use.server.server.MCPServer": "mcp.server.fastmcp.FastMCP",
}
# The SDK a framework's package requires, by top-level package: its server and context stay on that
# generation whatever the project's own pins say, and a port of the project (``--target-sdk``)
# renames the SDK's names, not the framework's classes. mcp-use 1.x: ``"mcp>=1.24.0,<2.0.0"``
# (libraries/python/pyproject.toml).
FRAMEWORK_SDK_PINS = {"mcp_use": ("mcp-use", "mcp>=1.24.0,<2.0.0")}
# Request-pushing methods a framework adds to its context: class → method → what it pushes.
# mcp-use ``Context.sample`` forwards to ``session.create_message`` (mcp_use/server/context.py).
# ``Context.list_roots`` is ``await self.session.list_roots()`` there too, returning the answer's
# ``.roots`` (a ``list[Root]``: the value the param fix rebuilds, ``codemods/param/sites.root_list``).
FRAMEWORK_CONTEXT_METHODS = {
    "mcp_use.server.Context": {"sample": "sampling", "list_roots": "roots"},
    "mcp_use.server.context.Context": {"sample": "sampling", "list_roots": "roots"},
}
# Where a framework context's request methods make their SDK request (a framework context of
# FRAMEWORK_CONTEXT_METHODS → its source file in the framework, and method → the SDK call inside it):
# mcp-use 1.x mcp_use/server/context.py ``Context.sample`` awaits ``self.session.create_message(…)``
# and ``Context.list_roots`` awaits ``self.session.list_roots()``.
FRAMEWORK_CONTEXT_WRAPS = {
    q: (
        "mcp_use/server/context.py",
        {"sample": "self.session.create_message(...)", "list_roots": "self.session.list_roots()"},
    )
    for q in ("mcp_use.server.Context", "mcp_use.server.context.Context")
}
# Attributes that hold the SDK ServerSession in a framework, by the framework's top-level package:
# mcp-agent ``Context.upstream_session`` (mcp_agent/core/context.py) is the session of the client
# the agent app serves.
FRAMEWORK_SESSION_ATTRS = {"mcp_agent": frozenset({"upstream_session"})}
# Calls that start a task or a thread with a function and its arguments: the function's
# parameters receive those arguments (``tg.start_soon(fn, ctx.session)``). Last name of the
# callee → index of the function argument (anyio/trio task groups, asyncio, executors,
# functools.partial).
TASK_STARTERS = {
    "start_soon": 0,
    "start": 0,
    "to_thread": 0,
    "run_sync": 0,
    "submit": 0,
    "partial": 0,
    "run_in_executor": 1,
}
# Methods that put a value into a container (``registry.add(ctx.session)``, a queue's
# ``put(session)`` read back with ``get()``): the value is the last positional argument.
CONTAINER_PUTS = frozenset({"add", "append", "appendleft", "insert", "setdefault", "put", "put_nowait"})
# Calls that read a container's elements as another iterable or value (``list(registry)``,
# ``registry.values()``, ``registry.get(key)``).
CONTAINER_VIEWS = frozenset({"list", "tuple", "sorted", "set", "frozenset", "reversed", "iter"})
CONTAINER_METHODS = frozenset({"copy", "values", "get", "pop"})
# Generic container types whose last type argument is the element (``set[ServerSession]``,
# ``dict[str, ServerSession]``, ``weakref.WeakSet[ServerSession]``).
CONTAINER_TYPES = frozenset(
    {
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "MutableSet",
        "AbstractSet",
        "list",
        "List",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Collection",
        "deque",
        "Deque",
        "dict",
        "Dict",
        "Mapping",
        "MutableMapping",
        "DefaultDict",
        "defaultdict",
        "OrderedDict",
        "WeakSet",
        "WeakValueDictionary",
        "WeakKeyDictionary",
    }
)
REQUEST_CTX_VARS = {"mcp.server.lowlevel.server.request_ctx", "mcp.server.lowlevel.request_ctx"}

# --- roots ----------------------------------------------------------------------------------
ROOTS_METHOD = "roots/list"
ROOTS_LIST_CHANGED_METHOD = "notifications/roots/list_changed"
TYPES_MODULES = ("mcp.types", "mcp_types", "mcp.types._types", "mcp.shared.types")


def type_names(name: str) -> set[str]:
    """Every qualified spelling of an ``mcp.types`` name (``mcp.types.X``, ``mcp_types.X``, ``mcp.X``)."""
    return {f"{m}.{name}" for m in TYPES_MODULES} | {f"mcp.{name}"}


LIST_ROOTS_REQUEST = type_names("ListRootsRequest")
LIST_ROOTS_RESULT = type_names("ListRootsResult")
ROOT = type_names("Root")
ROOTS_CAPABILITY = type_names("RootsCapability")
CLIENT_CAPABILITIES = type_names("ClientCapabilities")
ROOTS_LIST_CHANGED_NOTIFICATION = type_names("RootsListChangedNotification")
INPUT_REQUIRED_RESULT = type_names("InputRequiredResult")
SERVER_REQUEST = type_names("ServerRequest")
LIST_ROOTS_MARKER = {
    "mcp.server.mcpserver.ListRoots",
    "mcp.server.mcpserver.resolve.ListRoots",
    "mcp.server.mcpserver.markers.ListRoots",
    "mcp.server.ListRoots",
}
RESOLVE_MARKER = {"mcp.server.mcpserver.Resolve", "mcp.server.mcpserver.resolve.Resolve", "mcp.server.Resolve"}

# Decorator attribute names that register a tool / prompt / resource on a high-level server.
HANDLER_DECORATORS = {"tool": "tool", "prompt": "prompt", "resource": "resource"}
# Methods that register a function without a decorator (the role it gets): ``FastMCP.add_tool(fn)``
# in mcp 1.x, ``MCPServer.add_tool`` in mcp 2.x, fastmcp's ``add_tool``/``add_prompt``/
# ``add_resource``/``add_template`` (a function or a component).
REGISTER_METHODS = {
    "add_tool": "tool",
    "add_prompt": "prompt",
    "add_resource": "resource",
    "add_template": "resource",
    "add_resource_fn": "resource",
}
# Component classes whose ``from_function(fn)`` registers ``fn`` once added (``Tool.from_function``).
FROM_FUNCTION = {
    "Tool": "tool",
    "FunctionTool": "tool",
    "Prompt": "prompt",
    "FunctionPrompt": "prompt",
    "Resource": "resource",
    "FunctionResource": "resource",
    "ResourceTemplate": "resource",
    "FunctionResourceTemplate": "resource",
}
# 1.x low-level decorators whose function serves tools/call (host of roots requests).
LOWLEVEL_CALL_TOOL_DECORATORS = {"call_tool": "tool", "get_prompt": "prompt", "read_resource": "resource"}
LOWLEVEL_LIST_TOOLS_DECORATOR = "list_tools"
# 2.x low-level constructor keywords.
LOWLEVEL_HANDLER_KWARGS = {"on_call_tool": "tool", "on_get_prompt": "prompt", "on_read_resource": "resource"}
ROOTS_LIST_CHANGED_KWARG = "on_roots_list_changed"

# Roots-related tokens: a file with none of these is never parsed for the roots family.
ROOTS_TOKENS = (
    rb"list_roots",
    rb"roots/list",
    rb"RootsCapability",
    rb"roots_list_changed",
    rb"RootsListChanged",
    rb"ListRoots",
    rb"check_client_capability",
    rb"client_params",
    rb"\bRoot\(",
    rb"listChanged",
    rb"list_changed",
)

# =============================================================================================
# --- sampling and elicitation (MCP201, MCP202, MCP206, MCP207) --------------------------------
# Source: mcp 1.27 ``mcp.server.fastmcp.Context`` / ``ServerSession``, mcp 2.3
# ``mcp.server.mcpserver`` (Context, the ``Sample``/``Elicit``/``ListRoots`` resolver markers) and the
# low-level ``InputRequiredResult`` round, fastmcp 2.x–4.x ``Context``.
SAMPLING_METHOD = "sampling/createMessage"
ELICITATION_METHOD = "elicitation/create"
# Session methods that push a request to the client (1.x and 2.x ServerSession).
SESSION_SAMPLING_METHODS = {"create_message"}
SESSION_ELICIT_METHODS = {"elicit", "elicit_form", "elicit_url"}
# Context methods (1.x FastMCP / 2.x MCPServer Context: elicit, elicit_url; fastmcp: elicit, sample).
CONTEXT_ELICIT_METHODS = {"elicit", "elicit_url"}
FASTMCP_SAMPLING_METHODS = {"sample", "sample_step"}
# The SDK's module-level elicitation helpers (mcp 1.27 and 2.3 ``mcp.server.elicitation``): they call
# ``session.elicit_form`` / ``session.elicit_url`` on the session passed first. Qualified name →
# (mode, index of the ``elicitation_id`` argument or None).
SDK_ELICIT_HELPERS = {
    "mcp.server.elicitation.elicit_with_validation": ("form", None),
    "mcp.server.elicitation.elicit_url": ("url", 3),
}
# Server constructor keyword (fastmcp 2.x/3.x; TypeError in fastmcp 4).
SAMPLING_HANDLER_KWARG = "sampling_handler"
# Third-party wrappers that sample through a server session handed to them.
SESSION_SAMPLING_WRAPPERS = {
    "pydantic_ai.models.mcp_sampling.MCPSamplingModel",
    "pydantic_ai.models.MCPSamplingModel",
}
CREATE_MESSAGE_REQUEST = type_names("CreateMessageRequest")
CREATE_MESSAGE_RESULT = type_names("CreateMessageResult")
ELICIT_REQUEST = type_names("ElicitRequest")
ELICIT_RESULT = type_names("ElicitResult")
# 2.x resolver markers (already-migrated code: no finding).
ELICIT_MARKER = {"mcp.server.mcpserver.Elicit", "mcp.server.mcpserver.resolve.Elicit", "mcp.server.Elicit"}
SAMPLE_MARKER = {"mcp.server.mcpserver.Sample", "mcp.server.mcpserver.resolve.Sample", "mcp.server.Sample"}
# Methods that may answer with an InputRequiredResult (spec: no other request may).
INTERIM_METHODS = {"tools/call", "prompts/get", "resources/read"}
# 2.x low-level Server(on_…=) keywords and the method each serves (request handlers only).
LOWLEVEL_REQUEST_KWARGS = {
    "on_call_tool": "tools/call",
    "on_get_prompt": "prompts/get",
    "on_read_resource": "resources/read",
    "on_list_tools": "tools/list",
    "on_list_prompts": "prompts/list",
    "on_list_resources": "resources/list",
    "on_list_resource_templates": "resources/templates/list",
    "on_complete": "completion/complete",
    "on_subscribe_resource": "resources/subscribe",
    "on_unsubscribe_resource": "resources/unsubscribe",
    "on_set_logging_level": "logging/setLevel",
    "on_subscriptions_listen": "subscriptions/listen",
}
# Decorators (1.x low-level, FastMCP/MCPServer/fastmcp) and the method they serve.
DECORATOR_METHODS = {
    "call_tool": "tools/call",
    "get_prompt": "prompts/get",
    "read_resource": "resources/read",
    "tool": "tools/call",
    "prompt": "prompts/get",
    "resource": "resources/read",
    "list_tools": "tools/list",
    "list_prompts": "prompts/list",
    "list_resources": "resources/list",
    "list_resource_templates": "resources/templates/list",
    "completion": "completion/complete",
}
# Request classes a low-level handler is registered for (``server.request_handlers[T] = fn``).
REQUEST_TYPE_METHODS = {
    "CallToolRequest": "tools/call",
    "GetPromptRequest": "prompts/get",
    "ReadResourceRequest": "resources/read",
    "ListToolsRequest": "tools/list",
    "ListPromptsRequest": "prompts/list",
    "ListResourcesRequest": "resources/list",
    "ListResourceTemplatesRequest": "resources/templates/list",
    "CompleteRequest": "completion/complete",
    "SubscribeRequest": "resources/subscribe",
    "UnsubscribeRequest": "resources/unsubscribe",
    "SetLevelRequest": "logging/setLevel",
}
INPUT_REQUIRED = "input_required"
SAMPLING_ELICITATION_TOKENS = (
    rb"create_message",
    rb"\.sample",
    rb"elicit",
    rb"sampling/createMessage",
    rb"elicitation/create",
    rb"sampling_handler",
    rb"MCPSamplingModel",
    rb"CreateMessageRequest",
    rb"ElicitRequest",
    rb"InputRequiredResult",
    rb"input_required",
)


# ============================================================================================
# Catalog: pings, raw requests, change notifications, subscriptions, logging (MCP203–205,
# MCP301–302, MCP401–402). Source: the sessions and contexts of mcp 1.27, mcp 2.3 and fastmcp
# 2.x–4.x, and the 2026-07-28 changelog.
# ============================================================================================

# --- MCP203 server-ping / MCP204 raw-server-request / MCP205 elicitation-complete ------------
PING_METHOD = "ping"
SEND_PING_ATTR = "send_ping"  # ServerSession.send_ping() (1.x and 2.x)
SEND_REQUEST_ATTR = "send_request"  # ServerSession.send_request(req, ResultT, …)
SEND_NOTIFICATION_ATTR = "send_notification"  # ServerSession / fastmcp Context
SEND_ELICIT_COMPLETE_ATTR = "send_elicit_complete"
ELICIT_COMPLETE_METHOD = "notifications/elicitation/complete"
PING_REQUEST = type_names("PingRequest")
JSONRPC_REQUEST = type_names("JSONRPCRequest")
SERVER_NOTIFICATION = type_names("ServerNotification")
ELICIT_COMPLETE_NOTIFICATION = type_names("ElicitCompleteNotification")
ELICIT_COMPLETE_PARAMS = type_names("ElicitCompleteNotificationParams")
ELICIT_URL_PARAMS = type_names("ElicitRequestURLParams")
ELICITATION_ID_KEYS = ("elicitationId", "elicitation_id")
# Requests a 2025-11-25 server could send to the client (schema ServerRequest). Each of the
# first four has its own rule (MCP101 roots, MCP201 sampling, MCP202 elicitation, MCP203 ping);
# MCP204 reports the rest, and any send_request whose payload is none of these.
CLIENT_BOUND_WITH_OWN_RULE = {"roots/list", "sampling/createMessage", "elicitation/create", PING_METHOD}
CLIENT_BOUND_OTHER = {"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"}
# ping and tasks/* go both ways in 2025-11-25: a hand-built one is server-to-client only in a
# module that serves client requests (dispatches on one of these).
BIDIRECTIONAL_METHODS = {PING_METHOD} | CLIENT_BOUND_OTHER
SERVER_METHODS = {"initialize", "tools/call", "tools/list", "prompts/get", "resources/read", "server/discover"}
REQUEST_TYPES_WITH_OWN_RULE = (
    type_names("ListRootsRequest") | type_names("CreateMessageRequest") | type_names("ElicitRequest") | PING_REQUEST
)

# --- MCP301 list-changed-push / MCP302 resource-subscribe-handler ---------------------------
# session / fastmcp 2.x-3.x context send → (kind, mcp 2.x MCPServer Context helper, bus event)
LIST_CHANGED_SENDS = {
    "send_tool_list_changed": ("tools", "notify_tools_changed", "ToolsListChanged"),
    "send_prompt_list_changed": ("prompts", "notify_prompts_changed", "PromptsListChanged"),
    "send_resource_list_changed": ("resources", "notify_resources_changed", "ResourcesListChanged"),
    "send_resource_updated": ("resource", "notify_resource_updated", "ResourceUpdated"),
}
# notification classes sent with send_notification(…) → the matching send_* name
LIST_CHANGED_NOTIFICATIONS = {
    "ToolListChangedNotification": "send_tool_list_changed",
    "PromptListChangedNotification": "send_prompt_list_changed",
    "ResourceListChangedNotification": "send_resource_list_changed",
    "ResourceUpdatedNotification": "send_resource_updated",
}
# kind (as in LIST_CHANGED_SENDS) → the notification class that carries it (mcp.types)
LIST_CHANGED_NOTIFICATION_OF = {
    "tools": "mcp.types.ToolListChangedNotification",
    "prompts": "mcp.types.PromptListChangedNotification",
    "resources": "mcp.types.ResourceListChangedNotification",
}
LIST_CHANGED_METHODS = {
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
}
# What already reaches 2026-07-28 listen streams (a dual send next to these is migrated).
NOTIFY_HELPERS = {v[1] for v in LIST_CHANGED_SENDS.values()}
BUS_EVENTS = {v[2] for v in LIST_CHANGED_SENDS.values()}
SUBSCRIPTIONS_MODULE = "mcp.server.subscriptions"
SUBSCRIPTION_BUS = {f"{SUBSCRIPTIONS_MODULE}.InMemorySubscriptionBus"}
LISTEN_HANDLER = {f"{SUBSCRIPTIONS_MODULE}.ListenHandler"}
LISTEN_KWARG = "on_subscriptions_listen"
SUBSCRIBE_METHODS = {"resources/subscribe", "resources/unsubscribe"}
SUBSCRIBE_DECORATORS = {"subscribe_resource", "unsubscribe_resource"}  # 1.x low-level
SUBSCRIBE_KWARGS = {"on_subscribe_resource", "on_unsubscribe_resource"}  # 2.x low-level
SUBSCRIBE_REQUESTS = type_names("SubscribeRequest") | type_names("UnsubscribeRequest")

# --- MCP401 protocol-logging / MCP402 set-logging-level-handler -----------------------------
CONTEXT_LOG_LEVEL_METHODS = ("debug", "info", "warning", "error")  # ctx.<level>(…)
CONTEXT_LOG_METHOD = "log"  # ctx.log(…)
SEND_LOG_MESSAGE_ATTR = "send_log_message"  # session.send_log_message(…)
LOG_MESSAGE_METHOD = "notifications/message"
LOGGING_MESSAGE_NOTIFICATION = type_names("LoggingMessageNotification")
# MCP log levels (RFC 5424) → stdlib logging method
MCP_TO_STDLIB_LEVEL = {
    "debug": "debug",
    "info": "info",
    "notice": "info",
    "warning": "warning",
    "error": "error",
    "critical": "critical",
    "alert": "critical",
    "emergency": "critical",
}
SET_LEVEL_METHOD = "logging/setLevel"
SET_LEVEL_DECORATOR = "set_logging_level"  # 1.x low-level @server.set_logging_level()
SET_LEVEL_KWARG = "on_set_logging_level"  # 2.x low-level Server(on_set_logging_level=…)
SET_LEVEL_REQUEST = type_names("SetLevelRequest")
# Loggers that are never MCP protocol logging (no finding on their .info()/.log()).
NON_MCP_LOGGER_MODULES = ("logging", "loguru", "structlog", "click", "typer", "rich", "warnings")

CATALOG_SEND_TOKENS = (
    rb"send_ping",
    rb"send_request",
    rb"PingRequest",
    rb"send_elicit_complete",
    rb"ElicitComplete",
    rb"elicitation/complete",
    rb"elicitationId",
    rb"elicitation_id",
    rb"elicit_url",
    rb'"ping"',
    rb"'ping'",
    rb"tasks/",
)
NOTIFICATION_TOKENS = (
    rb"list_changed",
    rb"resources/updated",
    rb"send_resource_updated",
    rb"ListChangedNotification",
    rb"ResourceUpdatedNotification",
    rb"subscribe_resource",
    rb"resources/subscribe",
    rb"resources/unsubscribe",
    rb"SubscribeRequest",
)
LOGGING_TOKENS = (
    rb"\.log\(",
    rb"\.debug\(",
    rb"\.info\(",
    rb"\.warning\(",
    rb"\.error\(",
    rb"send_log_message",
    rb"notifications/message",
    rb"LoggingMessageNotification",
    rb"set_logging_level",
    rb"logging/setLevel",
    rb"SetLevelRequest",
)


# ============================================================================================
# Port of mcp 1.x to mcp 2.x (MCP5xx, opt-in with ``--target-sdk mcp2``). Source: mcp 1.27's
# ``mcp.server.fastmcp``, ``mcp.shared.exceptions`` and low-level ``Server`` against mcp 2.3's
# ``mcp.server.mcpserver``, ``mcp.shared.exceptions`` and ``Server(on_…=…)`` (and the SDK's
# docs/migration.md, whose section titles the findings name).
# ============================================================================================
MIGRATION_GUIDE = "the python-sdk migration guide (docs/migration.md)"
FASTMCP_V1_MODULE = "mcp.server.fastmcp"
MCPSERVER_V2_MODULE = "mcp.server.mcpserver"
# Names renamed inside the moved package (every other public name keeps its name and submodule).
MCPSERVER_RENAMES = {"FastMCP": "MCPServer", "FastMCPError": "MCPServerError"}
# Names a 1.x submodule re-exported that its 2.x counterpart no longer has (import → manual).
MCPSERVER_GONE = {
    "mcp.server.fastmcp.exceptions": {"ValidationError"},
    "mcp.server.fastmcp.server": {"RequestContext", "ServerSession", "StreamableHTTPASGIApp", "UrlElicitationResult"},
    "mcp.server.fastmcp.tools.base": {"UrlElicitationRequiredError"},
}
# ``McpError`` → ``MCPError`` (same modules); ``McpError(ErrorData(...))`` → ``MCPError.from_error_data(...)``.
MCP_ERROR_V1 = {"mcp.shared.exceptions.McpError", "mcp.McpError"}
MCP_ERROR_RENAME = ("McpError", "MCPError")
# ``McpError.error.<field>`` → ``MCPError.<field>`` (2.x has no ``.error``).
MCP_ERROR_FIELDS = ("code", "message", "data")
# 1.x ``FastMCP(...)`` keywords that 2.x takes on ``run()`` / the app factories instead: those of
# the SSE transport and those of streamable HTTP (mcp 2.x ``MCPServer.run_sse_async`` /
# ``run_streamable_http_async``).
SSE_KWARGS = frozenset({"host", "port", "sse_path", "message_path", "transport_security"})
HTTP_KWARGS = frozenset(
    {
        "host",
        "port",
        "streamable_http_path",
        "json_response",
        "stateless_http",
        "event_store",
        "retry_interval",
        "transport_security",
    }
)
TRANSPORT_KWARGS = SSE_KWARGS | HTTP_KWARGS
# Removed from the constructor and from ``run()`` (SSE mounting uses ASGI's root_path).
REMOVED_KWARGS = ("mount_path",)
# v1 positional order name, instructions, website_url, icons, auth_server_provider,
# token_verifier, event_store, retry_interval → the keyword each position becomes in 2.x.
FASTMCP_V1_POSITIONAL = (
    "name",
    "instructions",
    "website_url",
    "icons",
    "auth_server_provider",
    "token_verifier",
    "event_store",
    "retry_interval",
)
# 1.x low-level decorators → (method, 2.x params type, 2.x result type, v1 call shape).
LOWLEVEL_DECORATOR_PORTS = {
    "list_tools": ("tools/list", "PaginatedRequestParams", "ListToolsResult", "tools"),
    "list_prompts": ("prompts/list", "PaginatedRequestParams", "ListPromptsResult", "prompts"),
    "list_resources": ("resources/list", "PaginatedRequestParams", "ListResourcesResult", "resources"),
    "list_resource_templates": (
        "resources/templates/list",
        "PaginatedRequestParams",
        "ListResourceTemplatesResult",
        "resource_templates",
    ),
    "call_tool": ("tools/call", "CallToolRequestParams", "CallToolResult", "call"),
    "get_prompt": ("prompts/get", "GetPromptRequestParams", "GetPromptResult", "get"),
    "read_resource": ("resources/read", "ReadResourceRequestParams", "ReadResourceResult", "read"),
    # 1.27's decorators call ``func(req.params.level)`` / ``func(req.params.uri)`` (an AnyUrl) and
    # answer EmptyResult; ``completion`` calls ``func(ref, argument, context)`` and answers an empty
    # Completion for None (mcp/server/lowlevel/server.py)
    "set_logging_level": ("logging/setLevel", "SetLevelRequestParams", "EmptyResult", "level"),
    "subscribe_resource": ("resources/subscribe", "SubscribeRequestParams", "EmptyResult", "uri"),
    "unsubscribe_resource": ("resources/unsubscribe", "UnsubscribeRequestParams", "EmptyResult", "uri"),
    "completion": ("completion/complete", "CompleteRequestParams", "CompleteResult", "complete"),
}
# 1.x low-level decorators reported with their guide section, without a codemod (a notification
# handler: mcp 2.x registers it with ``add_notification_handler`` / ``on_progress``).
LOWLEVEL_DECORATORS_MANUAL = ("progress_notification",)
# one of those decorators read as a value, not called (``cast(..., server.list_tools)``), or
# called and its result held under a name (``add = server.call_tool()``)
_LOWLEVEL_DECORATOR_NAMES = (
    rb"(?:list_tools|call_tool|list_prompts|get_prompt|list_resources|list_resource_templates|read_resource"
    rb"|subscribe_resource|unsubscribe_resource|set_logging_level|completion|progress_notification)"
)
LOWLEVEL_DECORATOR_READ = (
    rb"\." + _LOWLEVEL_DECORATOR_NAMES + rb"\b(?!\s*\()|=\s*[\w.]+\." + _LOWLEVEL_DECORATOR_NAMES + rb"\("
)
PORT_TOKENS = (
    rb"fastmcp",
    rb"FastMCP",
    rb"McpError",
    rb"get_context",
    rb"request_context",
    rb"@[\w.]+\.(?:list_tools|call_tool|list_prompts|get_prompt|list_resources|list_resource_templates|read_resource|subscribe_resource|unsubscribe_resource|set_logging_level|completion|progress_notification)\(",
)

# mcp.types models of mcp 1.27 → their camelCase fields; mcp 2.x names each field in snake_case
# (the camelCase spelling stays the wire alias and a constructor keyword, not an attribute).
CAMEL_FIELDS_V1 = {
    "AudioContent": ("mimeType",),
    "BlobResourceContents": ("mimeType",),
    "CallToolResult": ("isError", "structuredContent"),
    "CancelTaskRequestParams": ("taskId",),
    "CancelTaskResult": ("createdAt", "lastUpdatedAt", "pollInterval", "statusMessage", "taskId"),
    "CancelledNotificationParams": ("requestId",),
    "Completion": ("hasMore",),
    "CreateMessageRequestParams": (
        "includeContext",
        "maxTokens",
        "modelPreferences",
        "stopSequences",
        "systemPrompt",
        "toolChoice",
    ),
    "CreateMessageResult": ("stopReason",),
    "CreateMessageResultWithTools": ("stopReason",),
    "ElicitCompleteNotificationParams": ("elicitationId",),
    "ElicitRequestFormParams": ("requestedSchema",),
    "ElicitRequestURLParams": ("elicitationId",),
    "GetTaskPayloadRequestParams": ("taskId",),
    "GetTaskRequestParams": ("taskId",),
    "GetTaskResult": ("createdAt", "lastUpdatedAt", "pollInterval", "statusMessage", "taskId"),
    "Icon": ("mimeType",),
    "ImageContent": ("mimeType",),
    "Implementation": ("websiteUrl",),
    "InitializeRequestParams": ("clientInfo", "protocolVersion"),
    "InitializeResult": ("protocolVersion", "serverInfo"),
    "ListPromptsResult": ("nextCursor",),
    "ListResourceTemplatesResult": ("nextCursor", "resourceTemplates"),
    "ListResourcesResult": ("nextCursor",),
    "ListTasksResult": ("nextCursor",),
    "ListToolsResult": ("nextCursor",),
    "ModelPreferences": ("costPriority", "intelligencePriority", "speedPriority"),
    "PaginatedResult": ("nextCursor",),
    "ProgressNotificationParams": ("progressToken",),
    "PromptsCapability": ("listChanged",),
    "RelatedTaskMetadata": ("taskId",),
    "Resource": ("mimeType",),
    "ResourceContents": ("mimeType",),
    "ResourceLink": ("mimeType",),
    "ResourceTemplate": ("mimeType", "uriTemplate"),
    "ResourcesCapability": ("listChanged",),
    "RootsCapability": ("listChanged",),
    "Task": ("createdAt", "lastUpdatedAt", "pollInterval", "statusMessage", "taskId"),
    "TaskStatusNotificationParams": ("createdAt", "lastUpdatedAt", "pollInterval", "statusMessage", "taskId"),
    "TasksSamplingCapability": ("createMessage",),
    "TextResourceContents": ("mimeType",),
    "Tool": ("inputSchema", "outputSchema"),
    "ToolAnnotations": ("destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"),
    "ToolExecution": ("taskSupport",),
    "ToolResultContent": ("isError", "structuredContent", "toolUseId"),
    "ToolsCapability": ("listChanged",),
}
# mcp.types models whose ``uri`` is ``str`` on mcp 2.x (``AnyUrl`` on 1.x; ``Root.uri`` stays a FileUrl).
STR_URI_TYPES = (
    "Resource",
    "ResourceLink",
    "ResourceContents",
    "TextResourceContents",
    "BlobResourceContents",
    "ReadResourceRequestParams",
    "SubscribeRequestParams",
    "UnsubscribeRequestParams",
    "ResourceUpdatedNotificationParams",
)
ANY_URL = {f"pydantic{m}.{c}" for m in ("", ".networks") for c in ("AnyUrl", "AnyHttpUrl", "HttpUrl", "FileUrl")}
# Parts of a pydantic URL that a ``str`` URI does not have (read with urllib.parse instead).
URL_PARTS = (
    "scheme",
    "host",
    "port",
    "path",
    "query",
    "fragment",
    "username",
    "password",
    "unicode_host",
    "query_params",
)

# mcp 1.27 modules that mcp 2.3 no longer has (import → ImportError).
MCP1_MODULES_GONE = (
    "mcp.server.experimental",
    "mcp.server.experimental.request_context",
    "mcp.server.experimental.session_features",
    "mcp.server.experimental.task_context",
    "mcp.server.experimental.task_result_handler",
    "mcp.server.experimental.task_support",
    "mcp.server.lowlevel.experimental",
    "mcp.server.lowlevel.func_inspection",
    "mcp.server.websocket",
    "mcp.shared.experimental",
    "mcp.shared.experimental.tasks",
    "mcp.shared.experimental.tasks.capabilities",
    "mcp.shared.experimental.tasks.context",
    "mcp.shared.experimental.tasks.helpers",
    "mcp.shared.experimental.tasks.in_memory_task_store",
    "mcp.shared.experimental.tasks.message_queue",
    "mcp.shared.experimental.tasks.polling",
    "mcp.shared.experimental.tasks.resolver",
    "mcp.shared.experimental.tasks.store",
    "mcp.shared.progress",
    "mcp.shared.response_router",
    "mcp.shared.session",
    "mcp.shared.version",
)
# Names an mcp 1.27 module had that its mcp 2.3 counterpart no longer has (MCP501/MCP502 handle
# FastMCP and McpError; re-exports of other packages included: importing them fails the same).
MCP1_NAMES_GONE = {
    "mcp.client.session": frozenset(
        [
            "AnyUrl",
            "BaseSession",
            "ExperimentalClientFeatures",
            "ExperimentalTaskHandlers",
            "RequestContext",
            "RequestResponder",
            "SUPPORTED_PROTOCOL_VERSIONS",
            "timedelta",
        ]
    ),
    "mcp.client.streamable_http": frozenset(
        [
            "ACCEPT",
            "Any",
            "CONTENT_TYPE",
            "GetSessionIdCallback",
            "InitializeResult",
            "JSON",
            "MCP_PROTOCOL_VERSION",
            "McpHttpClientFactory",
            "MemoryObjectReceiveStream",
            "MemoryObjectSendStream",
            "SSE",
            "aconnect_sse",
            "deprecated",
            "httpx",
            "overload",
            "streamablehttp_client",
            "timedelta",
            "warn",
        ]
    ),
    "mcp.server": frozenset(["experimental"]),
    "mcp.server.elicitation": frozenset(["Sequence", "Union", "get_args", "get_origin", "types"]),
    "mcp.server.lowlevel": frozenset(["experimental", "func_inspection"]),
    "mcp.server.lowlevel.server": frozenset(
        [
            "AnyUrl",
            "AsyncExitStack",
            "CombinationContent",
            "Experimental",
            "ExperimentalHandlers",
            "Iterable",
            "MemoryObjectReceiveStream",
            "MemoryObjectSendStream",
            "ReadResourceContents",
            "RequestContext",
            "RequestResponder",
            "RequestT",
            "ServerMessageMetadata",
            "ServerSession",
            "StructuredContent",
            "TypeAlias",
            "UnstructuredContent",
            "UrlElicitationRequiredError",
            "anyio",
            "base64",
            "cast",
            "contextvars",
            "create_call_wrapper",
            "json",
            "jsonschema",
            "request_ctx",
            "validate_and_warn_tool_name",
        ]
    ),
    "mcp.server.session": frozenset(
        [
            "BaseSession",
            "Enum",
            "ExperimentalServerSessionFeatures",
            "InitializationOptions",
            "InitializationState",
            "MemoryObjectReceiveStream",
            "MemoryObjectSendStream",
            "RELATED_TASK_METADATA_KEY",
            "RequestResponder",
            "SUPPORTED_PROTOCOL_VERSIONS",
            "ServerRequestResponder",
            "ServerSessionT",
            "SessionMessage",
            "anyio",
            "check_tasks_capability",
        ]
    ),
    "mcp.server.sse": frozenset(["MemoryObjectReceiveStream", "MemoryObjectSendStream"]),
    "mcp.server.stdio": frozenset(["MemoryObjectReceiveStream", "MemoryObjectSendStream"]),
    "mcp.server.streamable_http": frozenset(["SUPPORTED_PROTOCOL_VERSIONS", "json"]),
    "mcp.server.streamable_http_manager": frozenset(["HTTPStatus", "MCPServer"]),
    "mcp.server.validation": frozenset(["ErrorData"]),
    "mcp.shared": frozenset(["experimental", "response_router", "session", "version"]),
    "mcp.shared.context": frozenset(
        [
            "BaseSession",
            "CloseSSEStreamCallback",
            "LifespanContextT",
            "RequestContext",
            "RequestId",
            "RequestParams",
            "RequestT",
            "SessionT",
            "dataclass",
            "field",
        ]
    ),
    "mcp.shared.memory": frozenset(
        [
            "Any",
            "ClientSession",
            "ElicitationFnT",
            "ListRootsFnT",
            "LoggingFnT",
            "MemoryObjectReceiveStream",
            "MemoryObjectSendStream",
            "MessageHandlerFnT",
            "SamplingFnT",
            "Server",
            "anyio",
            "create_connected_server_and_client_session",
            "timedelta",
            "types",
        ]
    ),
    "mcp.types": frozenset(
        [
            "Annotated",
            "Any",
            "AnyFunction",
            "AnyUrl",
            "BaseModel",
            "Callable",
            "ClientNotificationType",
            "ClientRequestType",
            "ClientResultType",
            "ConfigDict",
            "Content",
            "Cursor",
            "Field",
            "FileUrl",
            "Final",
            "Generic",
            "Literal",
            "MethodT",
            "NotificationParamsT",
            "Notification[CancelledNotificationParams, Literal['notifications/cancelled']]",
            "Notification[ElicitCompleteNotificationParams, Literal['notifications/elicitation/complete']]",
            "Notification[LoggingMessageNotificationParams, Literal['notifications/message']]",
            "Notification[ProgressNotificationParams, Literal['notifications/progress']]",
            "Notification[ResourceUpdatedNotificationParams, Literal['notifications/resources/updated']]",
            "Notification[TaskStatusNotificationParams, Literal['notifications/tasks/status']]",
            "Notification[Union[NotificationParams, NoneType], Literal['notifications/initialized']]",
            "Notification[Union[NotificationParams, NoneType], Literal['notifications/prompts/list_changed']]",
            "Notification[Union[NotificationParams, NoneType], Literal['notifications/resources/list_changed']]",
            "Notification[Union[NotificationParams, NoneType], Literal['notifications/roots/list_changed']]",
            "Notification[Union[NotificationParams, NoneType], Literal['notifications/tools/list_changed']]",
            "Notification[Union[dict[str, Any], NoneType], str]",
            "PaginatedRequest[Literal['prompts/list']]",
            "PaginatedRequest[Literal['resources/list']]",
            "PaginatedRequest[Literal['resources/templates/list']]",
            "PaginatedRequest[Literal['tasks/list']]",
            "PaginatedRequest[Literal['tools/list']]",
            "RequestParamsT",
            "Request[CallToolRequestParams, Literal['tools/call']]",
            "Request[CancelTaskRequestParams, Literal['tasks/cancel']]",
            "Request[CompleteRequestParams, Literal['completion/complete']]",
            "Request[CreateMessageRequestParams, Literal['sampling/createMessage']]",
            "Request[GetPromptRequestParams, Literal['prompts/get']]",
            "Request[GetTaskPayloadRequestParams, Literal['tasks/result']]",
            "Request[GetTaskRequestParams, Literal['tasks/get']]",
            "Request[InitializeRequestParams, Literal['initialize']]",
            "Request[ReadResourceRequestParams, Literal['resources/read']]",
            "Request[SetLevelRequestParams, Literal['logging/setLevel']]",
            "Request[SubscribeRequestParams, Literal['resources/subscribe']]",
            "Request[Union[ElicitRequestURLParams, ElicitRequestFormParams], Literal['elicitation/create']]",
            "Request[Union[PaginatedRequestParams, NoneType], ~MethodT]",
            "Request[Union[RequestParams, NoneType], Literal['ping']]",
            "Request[Union[RequestParams, NoneType], Literal['roots/list']]",
            "Request[Union[dict[str, Any], NoneType], str]",
            "Request[UnsubscribeRequestParams, Literal['resources/unsubscribe']]",
            "ResourceReference",
            "RootModel",
            "RootModel[Union[CancelledNotification, ProgressNotification, InitializedNotification, RootsListChangedNotification, TaskStatusNotification]]",
            "RootModel[Union[CancelledNotification, ProgressNotification, LoggingMessageNotification, ResourceUpdatedNotification, ResourceListChangedNotification, ToolListChangedNotification, PromptListChangedNotification, ElicitCompleteNotification, TaskStatusNotification]]",
            "RootModel[Union[EmptyResult, CreateMessageResult, CreateMessageResultWithTools, ListRootsResult, ElicitResult, GetTaskResult, GetTaskPayloadResult, ListTasksResult, CancelTaskResult, CreateTaskResult]]",
            "RootModel[Union[EmptyResult, InitializeResult, CompleteResult, GetPromptResult, ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult, CallToolResult, ListToolsResult, GetTaskResult, GetTaskPayloadResult, ListTasksResult, CancelTaskResult, CreateTaskResult]]",
            "RootModel[Union[JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCError]]",
            "RootModel[Union[PingRequest, CreateMessageRequest, ListRootsRequest, ElicitRequest, GetTaskRequest, GetTaskPayloadRequest, ListTasksRequest, CancelTaskRequest]]",
            "RootModel[Union[PingRequest, InitializeRequest, CompleteRequest, SetLevelRequest, GetPromptRequest, ListPromptsRequest, ListResourcesRequest, ListResourceTemplatesRequest, ReadResourceRequest, SubscribeRequest, UnsubscribeRequest, CallToolRequest, ListToolsRequest, GetTaskRequest, GetTaskPayloadRequest, ListTasksRequest, CancelTaskRequest]]",
            "ServerNotificationType",
            "ServerRequestType",
            "ServerResultType",
            "TASK_FORBIDDEN",
            "TASK_OPTIONAL",
            "TASK_REQUIRED",
            "TASK_STATUS_CANCELLED",
            "TASK_STATUS_COMPLETED",
            "TASK_STATUS_FAILED",
            "TASK_STATUS_INPUT_REQUIRED",
            "TASK_STATUS_WORKING",
            "TaskExecutionMode",
            "TypeAlias",
            "TypeVar",
            "UrlConstraints",
            "datetime",
            "deprecated",
        ]
    ),
}
# Where the migration guide sends a removed name (the hint of MCP509).
MCP1_GONE_HINTS = {
    "mcp.types.Content": "use `ContentBlock`",
    "mcp.types.ResourceReference": "use `ResourceTemplateReference`",
    "mcp.types.Cursor": "use `str`",
    "mcp.types.AnyFunction": "use `Callable[..., Any]`",
    "mcp.shared.version": "import the version registry from `mcp.types.version`",
    "mcp.shared.context.RequestContext": "use `ServerRequestContext` from `mcp.server` (or `ClientRequestContext` from `mcp.client.context`)",
    "mcp.server.lowlevel.server.request_ctx": "use the `ctx` argument of the `on_…` handler",
    "mcp.shared.memory.create_connected_server_and_client_session": "use `mcp.Client(server)`",
    "mcp.server.websocket": "the WebSocket transport is removed: serve streamable HTTP",
    "mcp.client.streamable_http.streamablehttp_client": "use `streamable_http_client(url, http_client=...)` (headers, "
    "timeout and auth go on the `httpx2.AsyncClient`), which yields `(read, write)`",
    "mcp.client.streamable_http.GetSessionIdCallback": "drop the annotation, or use `Callable[[], str | None]`",
}

# ============================================================================================
# Port of fastmcp 2.x/3.x to fastmcp 4 (MCP51x, opt-in with ``--target-sdk fastmcp4``). Source:
# fastmcp's upgrade guides (docs/getting-started/upgrading/from-fastmcp-3.mdx, "Removed in
# FastMCP 4"; from-fastmcp-2.mdx, "v3.0.0"), checked against fastmcp 2.14.7, 3.4.11 and 4.2.3:
# each move below names a module and name fastmcp 4.2.3 has.
# ============================================================================================
FASTMCP4_GUIDE = "fastmcp's “Upgrading from FastMCP 3” guide"
FASTMCP3_GUIDE = "fastmcp's “Upgrading from FastMCP 2” guide"
_PROXY = ("FastMCPProxy", "ProxyClient", "StatefulProxyClient", "ProxyTool", "ProxyResource", "ProxyTemplate")
_OPENAPI = ("OpenAPIProvider", "OpenAPITool", "OpenAPIResource", "OpenAPIResourceTemplate", "RouteMap")
_OPENAPI_TYPES = ("RouteMapFn", "MCPType", "ComponentFn")
_OPENAPI_UTILS = ("HTTPRoute", "HttpMethod", "ParameterInfo", "ParameterLocation", "RequestBodyInfo", "ResponseInfo")
# Removed module → {name: (fastmcp 4 module, fastmcp 4 name)}: the guide's “Moved Imports” table.
FASTMCP4_MOVES: dict[str, dict[str, tuple[str, str]]] = {
    "fastmcp.server.proxy": {n: ("fastmcp.server.providers.proxy", n) for n in (*_PROXY, "ProxyPrompt")},
    "fastmcp.server.openapi": {n: ("fastmcp.server.providers.openapi", n) for n in (*_OPENAPI, *_OPENAPI_TYPES)},
    "fastmcp.experimental.server.openapi": {
        n: ("fastmcp.server.providers.openapi", n) for n in (*_OPENAPI, *_OPENAPI_TYPES)
    },
    "fastmcp.experimental.utilities.openapi": {n: ("fastmcp.utilities.openapi", n) for n in _OPENAPI_UTILS},
    "fastmcp.experimental.sampling.handlers": {
        "OpenAISamplingHandler": ("fastmcp.client.sampling.handlers.openai", "OpenAISamplingHandler")
    },
    "fastmcp.tools.tool": {
        "Tool": ("fastmcp.tools", "Tool"),
        "ToolResult": ("fastmcp.tools", "ToolResult"),
        "FunctionTool": ("fastmcp.tools.function_tool", "FunctionTool"),
        "ParsedFunction": ("fastmcp.tools.function_tool", "ParsedFunction"),
        "tool": ("fastmcp.tools.function_tool", "tool"),
    },
    "fastmcp.resources.resource": {
        "Resource": ("fastmcp.resources", "Resource"),
        "FunctionResource": ("fastmcp.resources.function_resource", "FunctionResource"),
        "resource": ("fastmcp.resources.function_resource", "resource"),
    },
    "fastmcp.prompts.prompt": {
        "Prompt": ("fastmcp.prompts", "Prompt"),
        "Message": ("fastmcp.prompts", "Message"),
        "PromptArgument": ("fastmcp.prompts", "PromptArgument"),
        "PromptResult": ("fastmcp.prompts", "PromptResult"),
        "FunctionPrompt": ("fastmcp.prompts.function_prompt", "FunctionPrompt"),
        "prompt": ("fastmcp.prompts.function_prompt", "prompt"),
    },
    "fastmcp.server.tasks": {n: ("fastmcp.utilities.tasks", n) for n in ("TaskConfig", "TaskMode", "TaskMeta")},
    "fastmcp.server.auth.authorization": {
        **{
            n: ("fastmcp.server.auth", n)
            for n in ("AuthCheck", "AuthContext", "require_scopes", "require_roles", "restrict_tag", "run_auth_checks")
        },
        **{n: ("fastmcp.utilities.authorization", n) for n in ("run_auth_checks_with_shortfall", "scope_requirements")},
    },
    "fastmcp.server.middleware.caching": {
        f"Cachable{n}": ("fastmcp.server.middleware.caching", f"Cacheable{n}")
        for n in ("ToolResult", "PromptResult", "Message", "ResourceContent", "ResourceResult")
    },
    "fastmcp.server.providers.skills": {
        "SkillsProvider": ("fastmcp.server.providers.skills", "SkillsDirectoryProvider")
    },
    # a fastmcp module's McpError from mcp 1.x: fastmcp 4 runs on mcp 2.x, whose `mcp.shared.exceptions`
    # has no `McpError`; `fastmcp.exceptions.McpError` is the same class on fastmcp 2/3 and its alias on 4.
    "mcp.shared.exceptions": {"McpError": ("fastmcp.exceptions", "McpError")},
    "mcp": {"McpError": ("fastmcp.exceptions", "McpError")},
}
# Removed names with no exact move: (module, name or "" for the whole module) → what to use instead.
FASTMCP4_GONE: dict[tuple[str, str], str] = {
    (
        "fastmcp.server.openapi",
        "FastMCPOpenAPI",
    ): "build `FastMCP(name, providers=[OpenAPIProvider(openapi_spec, client)])` "
    "with `OpenAPIProvider` from `fastmcp.server.providers.openapi`",
    (
        "fastmcp.experimental.server.openapi",
        "FastMCPOpenAPI",
    ): "build `FastMCP(name, providers=[OpenAPIProvider(openapi_spec, "
    "client)])` with `OpenAPIProvider` from `fastmcp.server.providers.openapi`",
    (
        "fastmcp.server.sampling",
        "",
    ): "server-side sampling is removed with `ctx.sample`: call an LLM from the server with "
    "your own key, or ask the client through the guard pattern",
    ("fastmcp.server.apps", ""): "import `AppConfig` and its siblings from `fastmcp.apps`, `FastMCPApp` from `fastmcp`",
    ("fastmcp.server.app", ""): "import `AppConfig` and its siblings from `fastmcp.apps`, `FastMCPApp` from `fastmcp`",
    (
        "fastmcp.dependencies",
        "CurrentDocket",
    ): "import it from `fastmcp_tasks.dependencies` (the `fastmcp[tasks]` extra)",
    (
        "fastmcp.dependencies",
        "CurrentWorker",
    ): "import it from `fastmcp_tasks.dependencies` (the `fastmcp[tasks]` extra)",
    ("fastmcp.server.middleware.tool_injection", "PromptToolMiddleware"): "register the `PromptsAsTools` transform "
    "from `fastmcp.server.transforms` with `mcp.add_transform(...)`",
    ("fastmcp.server.middleware.tool_injection", "ResourceToolMiddleware"): "register the `ResourcesAsTools` transform "
    "from `fastmcp.server.transforms` with `mcp.add_transform(...)`",
    ("fastmcp.server.middleware", "PromptToolMiddleware"): "register the `PromptsAsTools` transform from "
    "`fastmcp.server.transforms` with `mcp.add_transform(...)`",
    ("fastmcp.server.middleware", "ResourceToolMiddleware"): "register the `ResourcesAsTools` transform from "
    "`fastmcp.server.transforms` with `mcp.add_transform(...)`",
    ("fastmcp.client.transports", "WSTransport"): "the WebSocket transport is removed: use `StreamableHttpTransport`",
    ("fastmcp.server.providers", "SkillsProvider"): "import `SkillsDirectoryProvider` (the same class) from "
    "`fastmcp.server.providers.skills`",
    ("fastmcp.experimental.sampling", ""): "the sampling handlers live in `fastmcp.client.sampling.handlers`",
}
# Modules every import of which names something fastmcp 4 removed (an unlisted name: no move).
FASTMCP4_GONE_MODULES = frozenset(m for m in FASTMCP4_MOVES if m.startswith("fastmcp.")) - {
    "fastmcp.server.middleware.caching",
    "fastmcp.server.providers.skills",
} | {m for m, n in FASTMCP4_GONE if not n}
# ``FastMCP(...)`` keywords fastmcp 4 refuses with a TypeError, and what it says to do instead
# (fastmcp 4.2.3 ``fastmcp.server.server._REMOVED_KWARGS``; ``include_fastmcp_meta``: from-fastmcp-2).
FASTMCP4_REMOVED_KWARGS = {
    "host": "pass `host` to `run()`/`run_http_async()`, or set FASTMCP_HOST",
    "port": "pass `port` to `run()`/`run_http_async()`, or set FASTMCP_PORT",
    "sse_path": "pass `path` to `run()`/`http_app()`, or set FASTMCP_SSE_PATH",
    "message_path": "set FASTMCP_MESSAGE_PATH",
    "streamable_http_path": "pass `path` to `run()`/`http_app()`, or set FASTMCP_STREAMABLE_HTTP_PATH",
    "json_response": "pass `json_response` to `run()`/`http_app()`, or set FASTMCP_JSON_RESPONSE",
    "stateless_http": "pass `stateless_http` to `run()`/`http_app()`, or set FASTMCP_STATELESS_HTTP",
    "debug": "set FASTMCP_DEBUG",
    "log_level": "pass `log_level` to `run()`/`run_http_async()`, or set FASTMCP_LOG_LEVEL",
    "on_duplicate_tools": "pass one `on_duplicate=` for tools, resources and prompts together",
    "on_duplicate_resources": "pass one `on_duplicate=` for tools, resources and prompts together",
    "on_duplicate_prompts": "pass one `on_duplicate=` for tools, resources and prompts together",
    "tool_serializer": "return a `ToolResult` from each tool that needs its own serialization",
    "include_tags": "call `server.enable(tags=..., only=True)` after creating the server",
    "exclude_tags": "call `server.disable(tags=...)` after creating the server",
    "tool_transformations": "call `server.add_transform(ToolTransform({...}))` after creating the server",
    "include_fastmcp_meta": "drop it: fastmcp 4 always includes its metadata (under the `fastmcp` key, not `_fastmcp`)",
    "sampling_handler": "fastmcp 4 has no server-side sampling (the 2026-07-28 protocol has no back-channel): the "
    "server's own LLM handler must be called directly from the tools that sampled",
    "sampling_handler_behavior": "fastmcp 4 has no server-side sampling: call the LLM directly from the tools that sampled",
}
# Component keywords fastmcp 4 removed: decorator/method → keyword → what to do instead.
FASTMCP4_TOOL_KWARGS = {
    "serializer": "return a `ToolResult` from the tool for full control over serialization",
    "exclude_args": "give each excluded parameter a `Depends(factory)` default (`fastmcp.dependencies`): an injected "
    "parameter never appears in the schema",
}
FASTMCP4_TASKS_EXTENSION = (
    "register the tasks extension: `mcp.add_extension(TasksExtension())` with `TasksExtension` from `fastmcp_tasks` "
    "(the `fastmcp[tasks]` extra)"
)
FASTMCP4_TASK_KWARG = "`task=` is a tool-only keyword on fastmcp 4 (the tasks extension runs tool calls only): drop it"
# fastmcp 2.x server listing methods (dicts by key) → fastmcp 3/4's (lists).
FASTMCP3_LISTINGS = {
    "get_tools": "list_tools",
    "get_resources": "list_resources",
    "get_prompts": "list_prompts",
    "get_resource_templates": "list_resource_templates",
}
FASTMCP3_STATE = ("set_state", "get_state")  # sync on fastmcp 2.x, coroutines on 3/4
# Environment floors fastmcp 4 raises (from-fastmcp-3: “Environment Requirements”; mcp: fastmcp-slim
# 4.2.3's ``Requires-Dist: mcp<3.0.0,>=2.3.0`` of its server extra, which ``fastmcp`` installs).
FASTMCP4_FLOORS = {"pydantic": "2.12", "fastapi": "0.133.0", "starlette": "1.0.1", "mcp": "2.3.0"}
FASTMCP4_TOKENS = (
    rb"fastmcp",
    rb"McpError",
)


def _star_exports() -> dict[str, frozenset[str]]:
    """SDK module → the names of it these tables know (``mcp.server.fastmcp`` → ``FastMCP``,
    ``Context``, …): what ``from mcp.server.fastmcp import *`` binds, as far as a rule asks."""
    out: dict[str, set[str]] = {}
    for value in list(globals().values()):
        if isinstance(value, (set, frozenset)):
            for q in value:
                if isinstance(q, str) and q.startswith(("mcp.", "fastmcp.")) and "." in q:
                    mod, _, name = q.rpartition(".")
                    if name.isidentifier() and not name.startswith("_"):
                        out.setdefault(mod, set()).add(name)
    return {mod: frozenset(names) for mod, names in out.items()}


# ``from <SDK module> import *``: the names it binds that a rule resolves (analysis/facts.py).
STAR_EXPORTS = _star_exports()

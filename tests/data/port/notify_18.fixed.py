# notify-18: `fix --target-sdk mcp2` refuses to port any mcp 1.x low-level server that has a
# logging/setLevel or resources/subscribe decorator, so none of the 2026 fixes can follow.
#
# What mcpmigrate does NOW (main 2b744c9): `fix --target-sdk mcp2 --unsafe-fixes` writes nothing:
# "blocks the port to mcp 2.x: MCP507 at line 29: `@server.set_logging_level()` has no automatic
# port yet". The list_tools/call_tool decorators, which do have a port, are left too, and their
# MCP507 findings carry the same "`@server.set_logging_level()` has no automatic port yet" text.
# The `@server.subscribe_resource()` on line 34 is blocked too (its finding also names set_logging_level; alone in a file it is the blocker). The default
# `legacy-clients = true` keeps the setLevel handler, so the run can never go through: the
# server stays on mcp 1.x (no 2026-07-28 at all) and its MCP301 stays "upgrade the SDK first".
#
# What it SHOULD do: port both decorators like the others (the 2.x equivalents are mechanical:
# `on_set_logging_level=` with an adapter `(ctx, params) -> handler(params.level) ->
# EmptyResult()`, `on_subscribe_resource=` / `on_unsubscribe_resource=` with `params.uri`), keep
# them (legacy clients still use them; MCP402 / MCP302 then say so), and give each MCP507 finding
# its own text.
#
# Seen in: LinkupPlatform/python-mcp-server@243dc270:src/mcp_search_linkup/server.py,
# aws-samples/sample-mcp-server-s3@ccba106a:src/s3_mcp_server/server.py (setLevel),
# hesreallyhim/mcp-observer-server@ac93c01e:src/mcp_observer_server/server.py (subscribe).
import jsonschema
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    EmptyResult,
    ListToolsResult,
    PaginatedRequestParams,
    SetLevelRequestParams,
    SubscribeRequestParams,
    TextContent,
)
from pydantic import AnyUrl

floor = {"level": "info"}
watched: set[str] = set()


async def pick_floor(level: types.LoggingLevel) -> None:
    floor["level"] = level


async def on_set_logging_level(
    ctx: ServerRequestContext, params: SetLevelRequestParams
) -> EmptyResult:
    try:
        await pick_floor(params.level)
    except MCPError:
        raise
    except Exception as exc:
        raise MCPError(0, str(exc)) from exc
    return EmptyResult()


async def follow(uri) -> None:
    watched.add(str(uri))


async def on_subscribe_resource(
    ctx: ServerRequestContext, params: SubscribeRequestParams
) -> EmptyResult:
    try:
        await follow(AnyUrl(params.uri))
    except MCPError:
        raise
    except Exception as exc:
        raise MCPError(0, str(exc)) from exc
    return EmptyResult()


async def tools() -> list[types.Tool]:
    return [types.Tool(name="balance", inputSchema={"type": "object"})]


async def on_list_tools(
    ctx: ServerRequestContext, params: PaginatedRequestParams | None
) -> ListToolsResult:
    return ListToolsResult(tools=list(await tools()))


async def call(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text="42")]


async def on_call_tool(
    ctx: ServerRequestContext, params: CallToolRequestParams
) -> CallToolResult:
    arguments = params.arguments or {}
    try:
        tool = next((t for t in await tools() if t.name == params.name), None)
        if tool is not None:
            try:
                jsonschema.validate(instance=arguments, schema=tool.input_schema)
            except jsonschema.ValidationError as exc:
                return CallToolResult(
                    content=[
                        TextContent(
                            type="text", text=f"Input validation error: {exc.message}"
                        )
                    ],
                    is_error=True,
                )
        content = await call(params.name, arguments)
    except Exception as exc:
        return CallToolResult(
            content=[TextContent(type="text", text=str(exc))], is_error=True
        )
    return CallToolResult(content=list(content), is_error=False)


server = Server(
    "ledger",
    on_set_logging_level=on_set_logging_level,
    on_subscribe_resource=on_subscribe_resource,
    on_list_tools=on_list_tools,
    on_call_tool=on_call_tool,
)

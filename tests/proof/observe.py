"""Proof harness for the notification and logging rules: serve one fixture server in memory,
drive it with the official SDK client, and record what the client *received* besides results.

    python tests/proof/observe.py < request.json

Request (stdin, JSON)::

    {"file": "/abs/before.py", "server": "mcp", "mode": "legacy" | "modern",
     "listen": null | {"tools_list_changed": true, "resource_subscriptions": ["note://a"], ...},
     "calls": [{"tool": "name", "arguments": {...}} | {"request": "set_logging_level", "level": "debug"}]}

Response (stdout, JSON)::

    {"protocol_version": "...",
     "calls": [<run_server.py call record>, ...],
     "notifications": ["notifications/tools/list_changed", ...],   # connection channel (message_handler)
     "events": [{"type": "ToolsListChanged", "uri": null}, ...],    # the subscriptions/listen stream (modern)
     "listen_error": null | "<exception>",                          # the listen request itself failed
     "client_logs": [{"level", "logger", "data"}],                  # notifications/message (logging_callback)
     "records": [{"logger", "level", "message"}]}                   # stdlib logging records of the fixture

Modern connections opt in to protocol logging (``log_level="debug"``), so ``client_logs`` shows
what a 2026 client that asked for logs receives. Log records of the SDKs themselves (``mcp``,
``fastmcp``, ``anyio`` …) are left out; the fixture module's own ``__name__`` is reported as
``"__name__"``. Every kept record is also written to stderr (``LEVEL:logger:message``), which is
where a stdio server's logs belong. Nothing from mcpmigrate is imported.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run_server import CALL_TIMEOUT_S, MODERN_VERSION, _call_record, _fastmcp_server_class, _is_mcp2, _load_module

SDK_LOGGERS = (
    "mcp",
    "fastmcp",
    "anyio",
    "asyncio",
    "httpx",
    "httpcore",
    "pydantic",
    "uvicorn",
    "sse_starlette",
    "docket",
    "fakeredis",
    "key_value",
    "urllib3",
    "opentelemetry",
    "authlib",
    "openapi",
    "py",
)
FIXTURE_PREFIX = "_mcpmigrate_fixture_"


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[dict[str, str]] = []
        self.stream = logging.StreamHandler(sys.stderr)
        self.stream.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] in SDK_LOGGERS:
            return
        name = "__name__" if record.name.startswith(FIXTURE_PREFIX) else record.name
        self.records.append({"logger": name, "level": record.levelname, "message": record.getMessage()})
        self.stream.emit(record)


def _method_of(message: Any) -> str | None:
    if isinstance(message, BaseException):
        return None
    root = getattr(message, "root", message)
    method = getattr(root, "method", None)
    return method if isinstance(method, str) else None


async def _run_calls(target: Any, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import anyio

    records = []
    for call in calls:
        label = call.get("tool") or call.get("request", "?")
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                if "request" in call:
                    if call["request"] != "set_logging_level":
                        raise ValueError(f"unknown request {call['request']!r}")
                    await target.set_logging_level(call["level"])
                    records.append({"tool": label, "is_error": False, "text": [], "structured": None, "error": None})
                    continue
                result = await target.call_tool(call["tool"], call.get("arguments") or {})
        except Exception as exc:
            records.append(_call_record(label, error=exc))
        else:
            records.append(_call_record(label, result))
    return records


async def _run_mcp2(
    server: Any, mode: str, calls: list[dict[str, Any]], listen: dict[str, Any] | None
) -> dict[str, Any]:
    import anyio
    import mcp

    notifications: list[str] = []
    client_logs: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    listen_error = None

    async def message_handler(message: Any) -> None:
        method = _method_of(message)
        if method is not None:
            notifications.append(method)

    async def logging_callback(params: Any) -> None:
        client_logs.append({"level": str(params.level), "logger": params.logger, "data": params.data})

    kwargs: dict[str, Any] = {"message_handler": message_handler, "logging_callback": logging_callback}
    if mode == "legacy":
        kwargs["mode"] = "legacy"
    else:
        kwargs["mode"] = MODERN_VERSION
        kwargs["log_level"] = "debug"
    async with mcp.Client(server, **kwargs) as client:
        protocol_version = client.protocol_version
        if listen and mode == "modern":
            try:
                cm = client.listen(**listen)
                sub = await cm.__aenter__()
            except Exception as exc:
                listen_error = f"{type(exc).__name__}: {exc}"
                records = await _run_calls(client, calls)
            else:
                try:
                    records = await _run_calls(client, calls)
                    with anyio.move_on_after(1.0):
                        async for event in sub:
                            events.append({"type": type(event).__name__, "uri": getattr(event, "uri", None)})
                finally:
                    await cm.__aexit__(None, None, None)
        else:
            records = await _run_calls(client, calls)
            await anyio.sleep(0.2)
    return {
        "protocol_version": protocol_version,
        "calls": records,
        "notifications": notifications,
        "events": events,
        "listen_error": listen_error,
        "client_logs": client_logs,
    }


async def _run_mcp1(
    server: Any, mode: str, calls: list[dict[str, Any]], listen: dict[str, Any] | None
) -> dict[str, Any]:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.server.lowlevel import Server as LowLevelServer
    from mcp.shared.memory import create_client_server_memory_streams

    if mode != "legacy":
        raise RuntimeError("mcp 1.x only speaks handshake-era protocols")
    notifications: list[str] = []
    client_logs: list[dict[str, Any]] = []

    async def message_handler(message: Any) -> None:
        method = _method_of(message)
        if method is not None:
            notifications.append(method)

    async def logging_callback(params: Any) -> None:
        client_logs.append({"level": str(params.level), "logger": params.logger, "data": params.data})

    session_kwargs = {"message_handler": message_handler, "logging_callback": logging_callback}
    fastmcp_cls = _fastmcp_server_class()
    if fastmcp_cls is not None and isinstance(server, fastmcp_cls):
        from fastmcp.client.transports import FastMCPTransport

        async with FastMCPTransport(server).connect_session(**session_kwargs) as session:
            init = await session.initialize()
            records = await _run_calls(session, calls)
            await anyio.sleep(0.2)
    else:
        lowlevel = server if isinstance(server, LowLevelServer) else server._mcp_server
        async with (
            create_client_server_memory_streams() as (client_streams, server_streams),
            anyio.create_task_group() as tg,
        ):
            tg.start_soon(
                lambda: lowlevel.run(server_streams[0], server_streams[1], lowlevel.create_initialization_options())
            )
            try:
                async with ClientSession(client_streams[0], client_streams[1], **session_kwargs) as session:
                    init = await session.initialize()
                    records = await _run_calls(session, calls)
                    await anyio.sleep(0.2)
            finally:
                tg.cancel_scope.cancel()
    return {
        "protocol_version": str(init.protocolVersion),
        "calls": records,
        "notifications": notifications,
        "events": [],
        "listen_error": None,
        "client_logs": client_logs,
    }


def main() -> int:
    sys.dont_write_bytecode = True
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    warnings.simplefilter("default")
    capture = _Capture()
    root = logging.getLogger()
    root.addHandler(capture)
    root.setLevel(logging.DEBUG)
    try:
        request = json.loads(sys.stdin.read())
        module = _load_module(Path(request["file"]).resolve())
        server = getattr(module, request.get("server", "mcp"))
        import anyio

        runner = _run_mcp2 if _is_mcp2() else _run_mcp1
        answer = anyio.run(
            runner, server, request.get("mode", "legacy"), list(request.get("calls", [])), request.get("listen")
        )
    except BaseException:
        traceback.print_exc(file=sys.stderr)
        return 1
    answer["records"] = capture.records
    real_stdout.write(json.dumps(answer, sort_keys=True, default=str) + "\n")
    real_stdout.flush()
    return 0


if __name__ == "__main__":
    from leave import leave  # tests/proof/leave.py, beside this file (sys.path[0])

    leave(main())  # the answer is out: no interpreter shutdown (issue 21)

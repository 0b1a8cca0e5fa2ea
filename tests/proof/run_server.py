"""Proof harness: serve one fixture server in memory and drive it with the official SDK client.

Run with the Python of the fixture's environment (mcp 2.x + fastmcp 4, or mcp 1.x + fastmcp 2.x):

    python tests/proof/run_server.py < request.json

Request (stdin, JSON)::

    {"file": "/abs/path/before.py", "server": "mcp", "mode": "legacy" | "modern",
     "roots": ["file:///tmp/x", ...], "calls": [{"tool": "scan", "arguments": {...}}, ...],
     # an argument "{result:N}" is the first text of call N's result (a handle an earlier call minted)
     "client": {"sampling": true | {"code": -1, "message": "…"}, "elicitation": {"action": "accept" | "decline" | "cancel" | "fail",
                                                  "content": {...}}}}   # "client" is optional

With ``client.sampling`` (``{"code": …, "message": …}``: it answers that error instead) the client
answers ``sampling/createMessage`` with a text that echoes the request (``json.dumps`` of messages, system prompt, max tokens, temperature, model hints), so a
proof sees that every argument arrived; with ``client.elicitation`` it answers every elicitation
with that action (``"fail"``: the callback raises), or with ``elicitation.answers`` in turn
(``[{"action": "accept", "content": {...}}, ...]``, one per ask, the last one repeating). Without them the client has no such callback.
``client.roots`` false: the client has no roots callback either (it refuses ``roots/list``).

Response (stdout, JSON)::

    {"protocol_version": "2025-11-25",
     "tools": [{"name": ..., "inputSchema": {...}}, ...],
     "calls": [{"tool": ..., "is_error": bool | null, "text": [...], "structured": ... | null,
                "error": null | "<exception type>: <message>"}, ...]}

An exception raised by one call (a JSON-RPC error, ``NoBackChannelError``, a timeout) is reported
in that call's ``error`` field; the other calls still run. Anything the server prints, logs or
warns goes to stderr, so stdout carries exactly one JSON object. A failure outside the calls
(the module does not import, the server object is missing, the connection fails) exits non-zero
with the traceback on stderr.

This file must import nothing from mcpmigrate: it runs in environments where only the SDK is
installed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
import uuid
import warnings
from pathlib import Path
from typing import Any

CALL_TIMEOUT_S = float(os.environ.get("MCPMIGRATE_PROOF_CALL_TIMEOUT", "20"))
MODERN_VERSION = "2026-07-28"


def _load_module(file: Path) -> Any:
    name = f"_mcpmigrate_fixture_{uuid.uuid4().hex}"
    sys.path.insert(0, str(file.parent))  # its sibling modules import as with `python server.py`
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {file}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic resolves annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def _dump(model: Any) -> dict[str, Any]:
    """Wire-shaped dict (camelCase aliases) of an SDK pydantic model, in both SDK generations."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def _call_record(tool: str, result: Any = None, error: BaseException | None = None) -> dict[str, Any]:
    if error is not None:
        message = str(error)
        return {
            "tool": tool,
            "is_error": None,
            "text": [],
            "structured": None,
            "error": f"{type(error).__name__}: {message}" if message else type(error).__name__,
        }
    data = _dump(result)
    text: list[str] = []
    for item in data.get("content", []):
        if item.get("type") == "text":
            text.append(item.get("text", ""))
        else:
            text.append(json.dumps(item, sort_keys=True))
    return {
        "tool": tool,
        "is_error": bool(data.get("isError", False)),
        "text": text,
        "structured": data.get("structuredContent"),
        "error": None,
    }


def _roots_result(types: Any, uris: list[str]) -> Any:
    return types.ListRootsResult.model_validate({"roots": [{"uri": u} for u in uris]})


def _client_callbacks(types: Any, client: dict[str, Any]) -> dict[str, Any]:
    """sampling_callback / elicitation_callback keyword arguments for the client (both SDKs)."""
    out: dict[str, Any] = {}

    def field(obj: Any, *names: str) -> Any:
        for name in names:
            if hasattr(obj, name):
                return getattr(obj, name)
        return None

    if client.get("sampling"):
        refusal = client["sampling"] if isinstance(client["sampling"], dict) else None

        async def sampling(context: Any, params: Any) -> Any:
            if refusal is not None:  # the client answers with this JSON-RPC error (the user said no, …)
                return types.ErrorData(code=refusal["code"], message=refusal["message"])
            prefs = field(params, "model_preferences", "modelPreferences")
            hints = [h.name for h in (field(prefs, "hints") or [])] if prefs is not None else None
            echo = {
                "messages": [field(m.content, "text") for m in params.messages],
                "system_prompt": field(params, "system_prompt", "systemPrompt"),
                "max_tokens": field(params, "max_tokens", "maxTokens"),
                "temperature": params.temperature,
                "model_hints": hints,
            }
            return types.CreateMessageResult(
                role="assistant",
                model="proof-model",
                content=types.TextContent(type="text", text=json.dumps(echo, sort_keys=True)),
            )

        out["sampling_callback"] = sampling
    elicitation = client.get("elicitation")
    if elicitation:
        answers = list(elicitation.get("answers") or [])

        async def elicit(context: Any, params: Any) -> Any:
            if answers:  # a sequence of answers, one per ask (the last one repeats)
                answer = answers.pop(0) if len(answers) > 1 else answers[0]
                return types.ElicitResult(**answer)
            action = elicitation.get("action", "accept")
            if action == "fail":
                raise RuntimeError("the proof client fails every elicitation")
            if action == "accept":
                return types.ElicitResult(action="accept", content=dict(elicitation.get("content") or {}))
            return types.ElicitResult(action=action)

        out["elicitation_callback"] = elicit
    return out


async def _drive(session_like: Any, calls: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """List tools and run calls on an object with list_tools/call_tool (ClientSession or mcp.Client)."""
    import anyio

    tools: list[dict[str, Any]] = []
    cursor = None
    while True:
        listed = await session_like.list_tools(cursor=cursor) if cursor else await session_like.list_tools()
        data = _dump(listed)
        for tool in data.get("tools", []):
            tools.append({"name": tool["name"], "inputSchema": tool.get("inputSchema", {})})
        cursor = data.get("nextCursor")
        if not cursor:
            break

    records: list[dict[str, Any]] = []
    for call in calls:
        tool = call["tool"]
        arguments = {k: _earlier(v, records) for k, v in (call.get("arguments") or {}).items()}
        try:
            with anyio.fail_after(CALL_TIMEOUT_S):
                result = await session_like.call_tool(tool, arguments)
        except Exception as exc:
            records.append(_call_record(tool, error=exc))
        else:
            records.append(_call_record(tool, result))
    return tools, records


def _earlier(value: Any, records: list[dict[str, Any]]) -> Any:
    """An argument ``"{result:N}"`` is the first text of call N's result (a handle a tool minted)."""
    if isinstance(value, str) and value.startswith("{result:") and value.endswith("}"):
        texts = records[int(value[8:-1])]["text"]
        return texts[0] if texts else None
    return value


def _is_mcp2() -> bool:
    import mcp

    return hasattr(mcp, "Client")


async def _run_mcp2(
    server: Any, mode: str, roots: list[str], calls: list[dict[str, Any]], client: dict[str, Any]
) -> dict[str, Any]:
    import mcp
    from mcp import types

    async def list_roots(context: Any) -> Any:
        return _roots_result(types, roots)

    client_mode = "legacy" if mode == "legacy" else MODERN_VERSION
    callbacks = _client_callbacks(types, client)
    if client.get("roots", True):
        callbacks["list_roots_callback"] = list_roots
    fastmcp_cls = _fastmcp_server_class()
    if fastmcp_cls is not None and isinstance(server, fastmcp_cls):
        # fastmcp 4 (mcp 2.x): its low-level server is an SDK `Server` whose lifespan enters the
        # fastmcp server's, so the SDK client drives it like any other (both eras).
        server = server._mcp_server
    async with mcp.Client(server, mode=client_mode, **callbacks) as connection:
        tools, records = await _drive(connection, calls)
        protocol_version = connection.protocol_version
    return {"protocol_version": protocol_version, "tools": tools, "calls": records}


def _fastmcp_server_class() -> type | None:
    # Only a fixture that imported fastmcp can hold a fastmcp server; importing it is slow.
    fastmcp = sys.modules.get("fastmcp")
    return getattr(fastmcp, "FastMCP", None) if fastmcp is not None else None


async def _run_mcp1(
    server: Any, mode: str, roots: list[str], calls: list[dict[str, Any]], client: dict[str, Any]
) -> dict[str, Any]:
    import anyio
    from mcp import types
    from mcp.client.session import ClientSession
    from mcp.server.lowlevel import Server as LowLevelServer
    from mcp.shared.memory import create_client_server_memory_streams

    if mode != "legacy":
        raise RuntimeError(f"mode {mode!r} needs mcp>=2: the 1.x SDK only speaks handshake-era protocols")

    async def list_roots(context: Any) -> Any:
        return _roots_result(types, roots)

    callbacks = _client_callbacks(types, client)
    if client.get("roots", True):
        callbacks["list_roots_callback"] = list_roots
    fastmcp_cls = _fastmcp_server_class()
    if fastmcp_cls is not None and isinstance(server, fastmcp_cls):
        # fastmcp 2.x: its own in-memory transport enters the server lifespan too.
        from fastmcp.client.transports import FastMCPTransport

        session_cm = FastMCPTransport(server).connect_session(**callbacks)
        async with session_cm as session:
            init = await session.initialize()
            tools, records = await _drive(session, calls)
        return {"protocol_version": str(init.protocolVersion), "tools": tools, "calls": records}

    if isinstance(server, LowLevelServer):
        lowlevel = server
    elif hasattr(server, "_mcp_server"):  # mcp 1.x FastMCP
        lowlevel = server._mcp_server
    else:
        raise TypeError(f"unsupported server object: {type(server).__module__}.{type(server).__qualname__}")

    # Server.run enters the server's lifespan itself.
    async with create_client_server_memory_streams() as (client_streams, server_streams):
        client_read, client_write = client_streams
        server_read, server_write = server_streams
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: lowlevel.run(server_read, server_write, lowlevel.create_initialization_options()))
            try:
                async with ClientSession(client_read, client_write, **callbacks) as session:
                    init = await session.initialize()
                    tools, records = await _drive(session, calls)
            finally:
                tg.cancel_scope.cancel()
    return {"protocol_version": str(init.protocolVersion), "tools": tools, "calls": records}


def main() -> int:
    sys.dont_write_bytecode = True  # keep fixture folders free of __pycache__
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # whatever the fixture prints must not corrupt the JSON answer
    # Deprecation warnings are expected (that is the point of the migration): show them on
    # stderr, never let a -W error inherited from the caller turn them into failures.
    warnings.simplefilter("default")
    try:
        request = json.loads(sys.stdin.read())
        file = Path(request["file"]).resolve()
        module = _load_module(file)
        server_name = request.get("server", "mcp")
        if not hasattr(module, server_name):
            raise AttributeError(f"{file} has no module-level {server_name!r}")
        server = getattr(module, server_name)
        mode = request.get("mode", "legacy")
        if mode not in ("legacy", "modern"):
            raise ValueError(f"mode must be 'legacy' or 'modern', got {mode!r}")
        roots = list(request.get("roots", []))
        calls = list(request.get("calls", []))

        import anyio

        runner = _run_mcp2 if _is_mcp2() else _run_mcp1
        client = dict(request.get("client") or {})
        answer = anyio.run(runner, server, mode, roots, calls, client)
    except BaseException:
        traceback.print_exc(file=sys.stderr)
        return 1
    real_stdout.write(json.dumps(answer, sort_keys=True))
    real_stdout.write("\n")
    real_stdout.flush()
    return 0


if __name__ == "__main__":
    from leave import leave  # tests/proof/leave.py, beside this file (sys.path[0])

    leave(main())  # the answer is out: no interpreter shutdown (issue 21)

"""Drive one MCP server over stdio with the official mcp 2.x client and record what a client gets.

This is the one place that observes a running server for ``mcpmigrate verify`` and for the
repository's proofs (``scripts/port_proof.py``): it starts the server's command as a subprocess,
connects on a legacy (handshake, 2025-11-25) or a 2026-07-28 connection, reads every listing
(``tools/list``, ``resources/list``, ``resources/templates/list``, ``prompts/list``, each page)
and runs the declared calls, each under a timeout. The client answers what a server may ask
(roots, sampling, elicitation) with fixed values, so two runs of the same code answer alike.

It imports nothing else from mcpmigrate (``mcp`` >= 2.3 is needed; the ``verify`` extra installs
it). Results are plain JSON values in the wire's shape (camelCase, as ``model_dump(by_alias=True)``
writes them), normalised by :func:`normalize`.

Specification: docs/specification/2026-07-28 (basic/lifecycle: handshake-era and 2026-07-28
connections; server/tools, server/resources, server/prompts: the listings and ``tools/call``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MODERN = "2026-07-28"
LEGACY = "legacy"
# 2026-07-28 results carry the server's identity in _meta; it is not part of what a tool answers.
SERVER_INFO_STAMP = "io.modelcontextprotocol/serverInfo"
# Values that change between two runs of the same code (clock readings, temporary paths, commit
# ids, reported timings): masked before two runs are compared.
VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?"), "<datetime>"),
    (re.compile(r"/tmp/[^\s\"'\\]+"), "<tmp>"),
    (re.compile(r"\b[0-9a-f]{40}\b"), "<sha>"),
    (re.compile(r"Date:\s+[^\n\"]+"), "Date: <date>"),
    (re.compile(r'(_ms\\?": )\d+(?:\.\d+)?'), r"\g<1>0"),
    # a POSIX time in seconds with a fraction (2020-09 … 2033-05): `time.time()`, a file's mtime
    (re.compile(r"(?<![\w.])1[6-9]\d{8}\.\d+(?![\w.])"), "0.0"),
]
SAMPLING_REPLY = "Hello from mcpmigrate verify."
ELICIT_REPLY = {"boolean": True, "string": "yes", "integer": 1, "number": 1}
EXCEPTION_LINE = re.compile(r"^[\w.]*(Error|Exception|Exit|Interrupt)\b.*$", re.M)
# The listings a client reads: (key in the observation, Client method, field of the result).
LISTINGS = (
    ("tools", "list_tools", "tools"),
    ("resources", "list_resources", "resources"),
    ("resource_templates", "list_resource_templates", "resourceTemplates"),
    ("prompts", "list_prompts", "prompts"),
)


@dataclass
class Run:
    """One connection to one server.

    ``command``: argv of the server (the interpreter first); ``env``/``cwd``: its environment and
    directory; ``mode``: :data:`LEGACY`, :data:`MODERN`, or ``"auto"`` (probe ``server/discover``,
    fall back to the handshake); ``calls``:
    ``[{"tool": name, "arguments": {...}}]``; ``roots``: the ``file://`` URIs the client lists;
    ``prompts``/``resources``: prompts to get (``{"prompt", "arguments"}``) and URIs to read;
    ``stderr``: the file the server's stderr goes to; ``subs``: text → placeholder, applied to
    every answer (``{"/tmp/x/before": "{project}"}``); ``masks``: regular expressions whose matches
    become ``<masked>`` (values the server makes up on every run)."""

    command: list[str]
    env: dict[str, str]
    cwd: str
    mode: str
    stderr: Path
    calls: list[dict[str, Any]] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)
    resources: list[str] = field(default_factory=list)
    subs: dict[str, str] = field(default_factory=dict)
    masks: list[str] = field(default_factory=list)
    start_timeout: float = 30.0
    call_timeout: float = 30.0


def normalize(value: Any, subs: dict[str, str] | None = None, masks: list[str] | None = None) -> Any:
    """``value`` (JSON) without the 2026-07-28 serverInfo stamp in ``_meta``, with each ``subs``
    key replaced by its placeholder, :data:`VOLATILE` values and ``masks`` matches masked (each
    applied to the JSON text, so JSON inside a text result is masked too)."""
    value = _unstamp(value)
    text = json.dumps(value, sort_keys=True)
    for real, placeholder in sorted((subs or {}).items(), key=lambda kv: -len(kv[0])):
        text = text.replace(real, placeholder)
    for rx, repl in VOLATILE:
        text = rx.sub(repl, text)
    masked = text
    for pattern in masks or ():
        masked = re.sub(pattern, "<masked>", masked)
    try:
        return json.loads(masked)
    except ValueError:
        # A mask that matched JSON syntax (a bare number, a quote): mask each value instead.
        return _mask_leaves(json.loads(text), masks or [])


def _mask_leaves(value: Any, masks: list[str]) -> Any:
    if isinstance(value, dict):
        return {key: _mask_leaves(item, masks) for key, item in value.items()}
    if isinstance(value, list):
        return [_mask_leaves(item, masks) for item in value]
    if isinstance(value, bool) or value is None:
        return value
    text = value if isinstance(value, str) else json.dumps(value)
    for pattern in masks:
        text = re.sub(pattern, "<masked>", text)
    if isinstance(value, str):
        return text
    return value if text == json.dumps(value) else text


def _unstamp(value: Any) -> Any:
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "_meta" and isinstance(v, dict):
                v = {mk: mv for mk, mv in v.items() if mk != SERVER_INFO_STAMP}
                if not v:
                    continue
            out[k] = _unstamp(v)
        return out
    if isinstance(value, list):
        return [_unstamp(v) for v in value]
    return value


def elicit_content(schema: dict[str, Any] | None) -> dict[str, Any]:
    """An accepting answer for a flat elicitation form: each property gets the fixed value of its
    type (the first ``enum`` value when it has one)."""
    out: dict[str, Any] = {}
    for name, prop in ((schema or {}).get("properties") or {}).items():
        kind = prop.get("type", "string")
        out[name] = prop["enum"][0] if prop.get("enum") else ELICIT_REPLY.get(kind, "yes")
    return out


def last_exception(log: str) -> str | None:
    """The last ``SomeError: message`` line a server wrote to stderr (why it died)."""
    found = [m.group(0) for m in EXCEPTION_LINE.finditer(log)]
    return found[-1][:300] if found else None


def dump(model: Any) -> Any:
    """A pydantic model of the SDK as the wire writes it."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def call_answer(result: Any) -> dict[str, Any]:
    """What a ``tools/call`` result tells the client: error flag, content, structured content."""
    data = dump(result)
    return {
        "isError": bool(data.get("isError", False)),
        "content": data.get("content", []),
        "structuredContent": data.get("structuredContent"),
    }


def sampling_result(text: str, model: str) -> Any:
    """A ``sampling/createMessage`` answer: the assistant says ``text``."""
    import mcp.types as types

    return types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text=text), model=model, stop_reason="endTurn"
    )


def _callbacks(roots: list[str]) -> dict[str, Any]:
    """The client's fixed answers to roots, sampling and elicitation requests."""
    import mcp.types as types

    async def list_roots(context: Any) -> Any:
        return types.ListRootsResult.model_validate({"roots": [{"uri": u} for u in roots]})

    async def sample(context: Any, params: Any) -> Any:
        return sampling_result(SAMPLING_REPLY, "mcpmigrate-verify")

    async def elicit(context: Any, params: Any) -> Any:
        return types.ElicitResult(action="accept", content=elicit_content(getattr(params, "requested_schema", None)))

    return {"list_roots_callback": list_roots, "sampling_callback": sample, "elicitation_callback": elicit}


async def _listing(client: Any, method: str, key: str) -> Any:
    items: list[Any] = []
    cursor = None
    while True:
        page = await (getattr(client, method)(cursor=cursor) if cursor else getattr(client, method)())
        data = dump(page)
        items += data.get(key, [])
        cursor = data.get("nextCursor")
        if not cursor:
            return items


def _error(exc: BaseException, timeout: float) -> str:
    if isinstance(exc, TimeoutError):  # anyio.fail_after
        return f"no answer within {timeout:g} s"
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


async def observe(run: Run) -> dict[str, Any]:
    """Start the server, connect, list and call; the server is stopped on return.

    Returns ``{"protocol_version", "tools", "resources", "resource_templates", "prompts",
    "calls", "prompt_answers", "resource_answers", "error"}``: each listing is the list of items
    (or ``{"error": message}`` when the request failed), each call ``call_answer(...)`` or
    ``{"error": message}``; ``error`` is None, or why the connection failed (the server's last
    exception line when it wrote one: ``server: ModuleNotFoundError: …``) with ``stage`` —
    ``"start"`` (connecting) or ``"run"``. A timeout is such an error too (``TimeoutError``)."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    out: dict[str, Any] = {
        "protocol_version": None,
        "calls": [],
        "prompt_answers": [],
        "resource_answers": [],
        "error": None,
        "stage": None,
    }
    params = StdioServerParameters(command=run.command[0], args=run.command[1:], env=run.env, cwd=run.cwd)
    stage = "start"
    with open(run.stderr, "a", encoding="utf-8", errors="replace") as errlog:
        try:
            with anyio.fail_after(run.start_timeout) as start_scope:
                client_cm = Client(
                    stdio_client(params, errlog=errlog), mode=run.mode, cache=None, **_callbacks(run.roots)
                )
                async with client_cm as client:
                    start_scope.deadline = float("inf")
                    out["protocol_version"] = client.protocol_version
                    stage = "run"
                    for key, method, field_name in LISTINGS:
                        try:
                            with anyio.fail_after(run.call_timeout):
                                out[key] = await _listing(client, method, field_name)
                        except Exception as exc:  # not served (no such capability): compared by message
                            out[key] = {"error": _error(exc, run.call_timeout)}
                    for call in run.calls:
                        try:
                            with anyio.fail_after(run.call_timeout):
                                result = await client.call_tool(call["tool"], call.get("arguments") or {})
                            out["calls"].append(call_answer(result))
                        except Exception as exc:  # a JSON-RPC error or a timeout: compared by message
                            out["calls"].append({"error": _error(exc, run.call_timeout)})
                    for prompt in run.prompts:
                        try:
                            with anyio.fail_after(run.call_timeout):
                                got = await client.get_prompt(prompt["prompt"], prompt.get("arguments") or {})
                            out["prompt_answers"].append(dump(got))
                        except Exception as exc:
                            out["prompt_answers"].append({"error": _error(exc, run.call_timeout)})
                    for uri in run.resources:
                        try:
                            with anyio.fail_after(run.call_timeout):
                                read = await client.read_resource(uri)
                            out["resource_answers"].append(dump(read).get("contents", []))
                        except Exception as exc:
                            out["resource_answers"].append({"error": _error(exc, run.call_timeout)})
        except Exception as exc:  # an exception group from the transport's task group included
            errlog.flush()
            died = last_exception(run.stderr.read_text(encoding="utf-8", errors="replace"))
            leaf = _leaf(exc)
            timeout = run.start_timeout if stage == "start" else run.call_timeout
            out["error"] = f"server: {died}" if died and not isinstance(leaf, TimeoutError) else _error(leaf, timeout)
            out["stage"] = stage
    return normalize(out, run.subs, run.masks)


def _leaf(exc: BaseException) -> BaseException:
    """The first non-group exception inside an exception group (the transport's task group wraps
    what went wrong)."""
    while hasattr(exc, "exceptions") and exc.exceptions:
        exc = exc.exceptions[0]
    return exc

"""Field cases of the interim-fix trust issue, run against the real SDKs (tests/data/interim_trust/).

- requests-14: the ``InputRequiredResult`` rewrite (mcp 2.x low-level handlers, fastmcp 4's guard
  pattern) sends an input request only to a client that declared the capability; any other client
  gets the -32021 error the ``MCPServer`` resolvers raise (spec 2026-07-28, basic/patterns: "Servers
  MUST NOT send an inputRequests that the client has not declared support for"). Proven with the
  mcp 2.3 ``Client``: with an elicitation callback the tool works on 2026-07-28, without one it gets
  -32021, and a legacy connection behaves as before the fix.
- requests-12: a module written for both mcp 1.x and 2.x is refused while the pins allow mcp 1.x
  (it still imports under both); once they exclude it the fix goes ahead and never leaves a
  compatibility ``try`` hollow.
- bugs-15: on a stateless HTTP server the fix says it serves 2026-07-28 clients only and names the
  multi-worker ``RequestStateSecurity`` key — both checked against the SDK over real HTTP.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.helpers import cli, copy_to

DATA = Path(__file__).resolve().parent / "data" / "interim_trust"
MODERN = "2026-07-28"
MISSING_CAPABILITY = -32021


def _project(tmp_path: Path, case: str, deps: list[str] | None = None, name: str = "server.py") -> Path:
    """``case`` copied into a project of its own, ``tmp_path/project`` (with ``deps`` as its pinned
    dependencies); what else a test keeps goes next to that folder."""
    tmp_path = tmp_path / "project"
    tmp_path.mkdir()
    target = copy_to(DATA / case, tmp_path, name)
    target.chmod(0o644)
    if deps is not None:
        (tmp_path / "pyproject.toml").write_text(
            f'[project]\nname = "x"\nversion = "0"\ndependencies = {json.dumps(deps)}\n', encoding="utf-8"
        )
    return target


def _check(directory: Path) -> list[dict[str, Any]]:
    res = cli(["check", "--output-format", "json", "."], directory)
    assert res.exception is None and res.json["errors"] == [], str(res)
    return list(res.json["findings"])


def _fix(directory: Path) -> None:
    res = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", "."], directory)
    assert res.exception is None and res.json["errors"] == [], str(res)


def _load(path: Path) -> Any:
    name = f"_interim_trust_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # pydantic resolves annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def _leaf(exc: BaseException) -> BaseException:
    """The first exception inside (nested) exception groups."""
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]  # type: ignore[attr-defined]  # an exception group (Python 3.11+ or the backport)
    return exc


def _outcome(target: Any, mode: str, tool: str, arguments: dict[str, Any], answer: dict[str, Any] | None) -> Any:
    """What the mcp 2.3 ``Client`` gets from one call: the texts, or ``(error code, message, data)``.
    ``answer``: the content the client's elicitation callback accepts with; None: no callback (the
    client declares no elicitation capability)."""
    import mcp
    from mcp import types
    from mcp.shared.exceptions import MCPError

    async def elicit(context: Any, params: Any) -> Any:
        return types.ElicitResult(action="accept", content=answer)

    async def run() -> Any:
        callbacks = {"elicitation_callback": elicit} if answer is not None else {}
        try:
            async with mcp.Client(target, mode=mode, **callbacks) as client:  # type: ignore[arg-type]
                result = await client.call_tool(tool, arguments)
                return [c.text for c in result.content]
        except BaseException as exc:  # the client raises the error out of its task group
            leaf = _leaf(exc)
            if isinstance(leaf, MCPError):
                return (leaf.error.code, leaf.error.message, leaf.error.data)
            raise

    return anyio.run(run)


# ---------------------------------------------------------------------------------------------
# requests-14: an input request goes only to a client that declared the capability

#: The capability check both forms write before the interim result (as ``_require_capability`` in
#: mcp/server/mcpserver/resolve.py reads it: a bare `elicitation: {}` is form support, url-only is not).
ELICITATION_CHECK = """\
            declared = ctx.session.client_capabilities or ClientCapabilities()
            if declared.elicitation is None or (
                declared.elicitation.form is None
                and declared.elicitation.url is not None
            ):
                raise MCPError(
                    MISSING_REQUIRED_CLIENT_CAPABILITY,
                    "Client did not declare the form elicitation capability required by input request 'reply'",
                    {"requiredCapabilities": {"elicitation": {"form": {}}}},
                )
"""

R14_FIXED = (
    """\
async def call_tool(
    ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
) -> types.CallToolResult | InputRequiredResult:
    if is_version_at_least(ctx.protocol_version, "2026-07-28"):
        reply = (params.input_responses or {}).get("reply")
        if not isinstance(reply, ElicitResult):
"""
    + ELICITATION_CHECK
    + """\
            return InputRequiredResult(
                input_requests={
                    "reply": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message="Empty the vault?", requested_schema=SCHEMA
                        )
                    )
                }
            )
    else:
        reply = await ctx.session.elicit_form("Empty the vault?", SCHEMA)
"""
)

R14_LABEL = (
    "on 2026-07-28 `call_tool` returns `InputRequiredResult` with a `ElicitRequest` under key 'reply' and "
    "reads the answer from `params.input_responses` on the retry (a client that did not declare form "
    "elicitation gets error -32021 instead, as from the SDK's resolvers; no requestState is written); "
    "legacy keeps the request"
)
MISSING_ELICITATION = (
    MISSING_CAPABILITY,
    "Client did not declare the form elicitation capability required by input request 'reply'",
    {"requiredCapabilities": {"elicitation": {"form": {}}}},
)


def _capability_proof(before: Path, after: Path, attr: str, tool: str, answer: dict[str, Any]) -> None:
    """2026-07-28: with the capability the tool works, without it -32021 (never an inputRequests);
    legacy: the fixed server answers both clients as the original did."""

    def outcome(path: Path, mode: str, with_callback: bool) -> Any:
        server = getattr(_load(path), attr)
        server = getattr(server, "_mcp_server", server)  # fastmcp 4: its SDK `Server`
        return _outcome(server, mode, tool, {}, answer if with_callback else None)

    assert outcome(after, MODERN, True) == ["emptied"]
    assert outcome(after, MODERN, False) == MISSING_ELICITATION
    for with_callback in (True, False):
        assert outcome(after, "legacy", with_callback) == outcome(before, "legacy", with_callback)
    assert outcome(before, "legacy", True) == ["emptied"]


def test_requests_14_lowlevel_checks_the_capability_before_the_interim_result(tmp_path: Path) -> None:
    target = _project(tmp_path, "requests_14.py")
    before = copy_to(target, tmp_path, "before.py")
    [finding] = _check(target.parent)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP202", 32, 19)
    assert finding["fix"] == {"safety": "safe", "strategy": "interim", "description": R14_LABEL}
    _fix(target.parent)
    text = target.read_text(encoding="utf-8")
    assert R14_FIXED in text
    assert (
        "from mcp.types import (\n"
        "    MISSING_REQUIRED_CLIENT_CAPABILITY,\n"
        "    ClientCapabilities,\n"
        "    ElicitRequest,\n"
        "    ElicitRequestFormParams,\n"
        "    ElicitResult,\n"
        "    InputRequiredResult,\n"
        ")\n"
    ) in text
    assert "from mcp.shared.exceptions import MCPError\n" in text
    assert [f["rule"] for f in _check(target.parent)] == []  # the per-request read is not MCP102
    _capability_proof(before, target, "server", "empty_vault", {"ok": True})


FASTMCP_FIXED = (
    """\
    if is_version_at_least(ctx.request_context.protocol_version, "2026-07-28"):
        reply = (ctx.input_responses or {}).get("reply")
        if not isinstance(reply, ElicitResult):
"""
    + ELICITATION_CHECK
    + """\
            return InputRequiredResult(
                input_requests={
                    "reply": ElicitRequest(
                        params=ElicitRequestFormParams(
                            message="Empty the vault?",
                            requested_schema=parse_elicit_response_type(bool).schema,
                        )
                    )
                }
            )
"""
)


def test_requests_14_fastmcp4_guard_checks_the_capability(tmp_path: Path) -> None:
    target = _project(tmp_path, "fastmcp4_vault.py", deps=["fastmcp>=4"])
    before = copy_to(target, tmp_path, "before.py")
    [finding] = [f for f in _check(target.parent) if f["path"] == "server.py"]
    assert (finding["rule"], finding["line"]) == ("MCP202", 12)
    assert "a client that did not declare form elicitation gets error -32021 instead" in finding["fix"]["description"]
    _fix(target.parent)
    assert FASTMCP_FIXED in target.read_text(encoding="utf-8")
    # fastmcp passes the -32021 error through unmasked (fastmcp/server/server.py)
    _capability_proof(before, target, "mcp", "empty_vault", {"value": True})


def test_several_requests_ask_for_every_capability_at_once(tmp_path: Path) -> None:
    """A handler whose elicitation and sampling travel in one interim result needs both capabilities."""
    src = Path(__file__).resolve().parent.parent / "fixtures" / "sampling" / "mcp2_lowlevel_two_requests"
    after = (src / "after_interim.py").read_text(encoding="utf-8")
    assert (
        "            declared = ctx.session.client_capabilities or ClientCapabilities()\n"
        "            if (\n"
        "                declared.elicitation is None\n"
        "                or (\n"
        "                    declared.elicitation.form is None\n"
        "                    and declared.elicitation.url is not None\n"
        "                )\n"
        "                or declared.sampling is None\n"
        "            ):\n"
    ) in after
    assert (
        '                        "requiredCapabilities": {\n'
        '                            "elicitation": {"form": {}},\n'
        '                            "sampling": {},\n'
        "                        }\n"
    ) in after


# ---------------------------------------------------------------------------------------------
# requests-12: a module written for both mcp 1.x and 2.x

DUAL_REFUSAL = (
    "this module also supports mcp 1.x, which has no resolvers: drop 1.x first or pin mcp>=2.3 (the "
    "compatibility block `from mcp.server.fastmcp import Context, FastMCP` / `from mcp.server.mcpserver import "
    "Context` imports mcp 1.x names, and the project's pins allow mcp 1.x; the fix's mcp 2.x imports would stop "
    "the module importing there), then run `fix --strategy interim` again"
)


def _imports(python: str, path: Path) -> None:
    proc = subprocess.run(
        [python, "-c", "import runpy, sys; runpy.run_path(sys.argv[1])", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(path.parent),
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("deps", [["mcp>=1.20"], None], ids=["mcp>=1.20", "no pins"])
def test_requests_12_dual_sdk_module_is_refused(tmp_path: Path, deps: list[str] | None, legacy_python: str) -> None:
    target = _project(tmp_path, "requests_12.py", deps=deps)
    original = target.read_bytes()
    findings = _check(target.parent)
    assert [(f["rule"], f["line"], f["column"]) for f in findings] == [("MCP202", 40, 24), ("MCP207", 41, 5)]
    assert findings[0]["fix"] is None and findings[0]["manual"] == DUAL_REFUSAL
    assert findings[1]["manual"].endswith(DUAL_REFUSAL)
    _fix(target.parent)
    assert target.read_bytes() == original
    _imports(legacy_python, target)  # mcp 1.x
    _imports(sys.executable, target)  # mcp 2.x


SHAPES = {
    # the mcp 2.x import first, the mcp 1.x one as the fallback
    "mcpserver first": (
        "try:\n    from mcp.server.mcpserver import Context, MCPServer\n"
        "except ImportError:\n    from mcp.server.fastmcp import Context, FastMCP as MCPServer\n"
    ),
    # the SDKs' submodules, each branch binding the same names
    "submodules": (
        "try:\n    from mcp.server.fastmcp.server import Context, FastMCP as MCPServer\n"
        "except ModuleNotFoundError:\n    from mcp.server.mcpserver.context import Context\n"
        "    from mcp.server.mcpserver.server import MCPServer\n"
    ),
}
TOOL = """
from pydantic import BaseModel

app = MCPServer("x")


class Yes(BaseModel):
    yes: bool


@app.tool()
async def remove(path: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Remove {path}?", Yes)
    return answer.action
"""


@pytest.mark.parametrize("shape", list(SHAPES))
def test_dual_sdk_shapes_are_refused_while_mcp1_is_allowed(tmp_path: Path, shape: str) -> None:
    target = tmp_path / "server.py"
    target.write_text(SHAPES[shape] + TOOL, encoding="utf-8")
    [finding] = _check(target.parent)
    assert finding["fix"] is None
    assert finding["manual"].startswith("this module also supports mcp 1.x")


def test_mcp2_module_with_an_exception_compat_import_is_not_dual(tmp_path: Path) -> None:
    """An unconditional mcp 2.x import: the module never imported under mcp 1.x; the fix goes ahead,
    and the compatibility block it leaves unused goes whole."""
    head = (
        "from mcp.server.mcpserver import Context, MCPServer\n"
        "try:\n    from mcp.shared.exceptions import MCPError\n"
        "except ImportError:\n    from mcp.shared.exceptions import McpError as MCPError\n"
    )
    body = TOOL.replace(
        '    answer = await ctx.elicit(f"Remove {path}?", Yes)\n',
        '    try:\n        answer = await ctx.elicit(f"Remove {path}?", Yes)\n    except MCPError:\n        return "no"\n',
    )
    target = tmp_path / "server.py"
    target.write_text(head + body, encoding="utf-8")
    [finding] = _check(target.parent)
    assert finding["fix"]["strategy"] == "interim"
    _fix(target.parent)
    text = target.read_text(encoding="utf-8")
    assert "MCPError" not in text and "try:" not in text


R12_PINNED_HEAD = """\
from typing import Annotated

from mcp.server.mcpserver import Elicit, ElicitationResult, Resolve

try:
    from mcp.server.fastmcp import FastMCP
except ModuleNotFoundError:
    from mcp.server.mcpserver import MCPServer as FastMCP
from pydantic import BaseModel
"""


def test_requests_12_pinned_to_mcp2_is_fixed_without_a_hollow_try(tmp_path: Path) -> None:
    target = _project(tmp_path, "requests_12.py", deps=["mcp>=2.3"])
    _fix(target.parent)
    text = target.read_text(encoding="utf-8")
    assert R12_PINNED_HEAD in text
    assert "    pass\n" not in text
    server = _load(target).app
    assert _outcome(server, MODERN, "remove_file", {"path": "a"}, {"yes": True}) == ["removed a"]
    assert _outcome(server, "legacy", "remove_file", {"path": "b"}, {"yes": False}) == ["kept"]


# ---------------------------------------------------------------------------------------------
# bugs-15: stateless HTTP

#: ``{code}``: the code that serves stateless HTTP, its closing backtick, and "(only on some paths)"
#: when an ``if`` guards it.
STATELESS_NOTE = (
    "2026-07-28 clients only: a stateless legacy connection has no back-channel, and `{code} serves "
    "stateless HTTP, so legacy clients fail there as before"
)
REQUEST_STATE_NOTE = (
    "; the resolver's requestState is sealed with a key of one process: a multi-worker deployment needs "
    "`RequestStateSecurity(keys=[...])` (`MCPServer(..., request_state_security=...)`) with a key every "
    "worker shares"
)


def test_bugs_15_stateless_label(tmp_path: Path) -> None:
    target = _project(tmp_path, "bugs_15.py")
    [finding] = _check(target.parent)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP202", 33, 20)
    code = 'mcp.run("streamable-http", stateless_http=True)'
    assert finding["fix"] == {
        "safety": "safe",
        "strategy": "interim",
        "description": "move the request into a resolver returning `Elicit(...)`, injected into `book` with "
        f"`Annotated[..., Resolve(fn)]` ({STATELESS_NOTE.format(code=code + '`')}{REQUEST_STATE_NOTE})",
    }
    assert "both eras" not in finding["fix"]["description"]


BOOK_TAIL = '\n\nif __name__ == "__main__":\n    mcp.run("streamable-http", stateless_http=True)\n'


@pytest.mark.parametrize(
    ("tail", "code"),
    [
        ("\n\napp = mcp.streamable_http_app(stateless_http=True)\n", "mcp.streamable_http_app(stateless_http=True)"),
        ("\n\nmcp.settings.stateless_http = True\n", "mcp.settings.stateless_http = True"),
        ("\n\nmcp.run(transport='streamable-http', stateless_http=False)\n", None),
        ("\n\nmcp.run(transport='streamable-http')\n", None),
    ],
    ids=["streamable_http_app", "settings", "stateless_http=False", "stateful"],
)
def test_stateless_spellings(tmp_path: Path, tail: str, code: str | None) -> None:
    source = (DATA / "bugs_15.py").read_text(encoding="utf-8").replace(BOOK_TAIL, tail)
    target = tmp_path / "server.py"
    target.write_text(source, encoding="utf-8")
    [finding] = _check(target.parent)
    description = finding["fix"]["description"]
    if code is None:
        assert description.endswith("(works on both eras)")
    else:
        assert STATELESS_NOTE.format(code=code + "`") in description


def test_lowlevel_stateless_label_has_no_request_state_note(tmp_path: Path) -> None:
    source = (DATA / "requests_14.py").read_text(encoding="utf-8")
    source += "\n\napp = server.streamable_http_app(stateless_http=True)\n"
    target = tmp_path / "server.py"
    target.write_text(source, encoding="utf-8")
    [finding] = _check(target.parent)
    code = "server.streamable_http_app(stateless_http=True)"
    assert finding["fix"]["description"] == f"{R14_LABEL} ({STATELESS_NOTE.format(code=code + '`')})"


def _serve_stateless(app_module: Any) -> tuple[Any, str]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app_module.mcp.streamable_http_app(stateless_http=True), port=port, log_level="error")
    )
    threading.Thread(target=server.run, daemon=True).start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/mcp"


def test_bugs_15_facts_over_stateless_http(tmp_path: Path) -> None:
    """The label's facts, over real HTTP with the mcp 2.3 Client: the fixed server books the seat
    for a 2026-07-28 client; a legacy client fails as it did before the fix (no back-channel)."""
    target = _project(tmp_path, "bugs_15.py")
    before = copy_to(target, tmp_path, "before.py")
    _fix(target.parent)
    no_channel = "Cannot send 'elicitation/create': this transport context has no back-channel"
    for path, modern in ((before, None), (target, ["booked 1A"])):
        server, url = _serve_stateless(_load(path))
        try:
            got_modern = _outcome(url, MODERN, "book", {"flight": "LH1"}, {"seat": "1A"})
            got_legacy = _outcome(url, "legacy", "book", {"flight": "LH1"}, {"seat": "1A"})
        finally:
            server.should_exit = True
        if modern is None:
            assert no_channel in got_modern[1]
        else:
            assert got_modern == modern
        assert no_channel in got_legacy[1]


def test_request_state_key_is_per_process_unless_shared() -> None:
    """``MCPServer``'s default requestState key (``RequestStateSecurity.ephemeral()``) is held by one
    process: state sealed by one worker does not open in another; a shared ``keys=[...]`` does."""
    from mcp.server.mcpserver import RequestStateSecurity

    worker_a, worker_b = RequestStateSecurity.ephemeral(), RequestStateSecurity.ephemeral()
    token = worker_a.codec.seal(b"state")
    with pytest.raises(Exception):  # the codec's own rejection, whatever its class
        worker_b.codec.unseal(token)
    shared = "k" * 32
    assert (
        RequestStateSecurity(keys=[shared]).codec.unseal(RequestStateSecurity(keys=[shared]).codec.seal(b"s")) == b"s"
    )


# ---------------------------------------------------------------------------------------------
# requests-14's kind on a hand-rolled JSON-RPC server


@pytest.mark.parametrize(
    ("case", "tool", "arguments", "key"),
    [
        ("elicitation/handrolled_read_helper", "delete_file", {"name": "a.txt"}, "elicitation"),
        ("sampling/handrolled_sync_stdin", "summarize", {"text": "abc"}, "sampling"),
    ],
)
def test_handrolled_input_request_needs_the_declared_capability(
    case: str, tool: str, arguments: dict[str, Any], key: str
) -> None:
    """after_interim.py of the hand-rolled fixtures, over stdio: a 2026-07-28 call whose ``_meta``
    declares every capability gets the interim result (tests/test_proof_handrolled.py proves the
    rest); one that declares none of ``key`` gets -32021 and no ``inputRequests``."""
    from tests.test_proof_handrolled import META, Server

    after = Path(__file__).resolve().parent.parent / "fixtures" / case / "after_interim.py"
    required = {"elicitation": {"form": {}}} if key == "elicitation" else {key: {}}
    name = "form elicitation" if key == "elicitation" else key
    without = {**META, "io.modelcontextprotocol/clientCapabilities": {}}
    server = Server(after)
    try:
        for request_id, meta in ((1, META), (2, without)):
            params = {"name": tool, "arguments": arguments, "_meta": meta}
            server.send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})
            reply = server.receive()
            assert reply is not None and reply["id"] == request_id
            if meta is META:
                assert reply["result"]["resultType"] == "input_required"
                assert list(reply["result"]["inputRequests"]) == [key]
            else:
                assert "result" not in reply
                assert reply["error"] == {
                    "code": MISSING_CAPABILITY,
                    "message": f"Client did not declare the {name} capability required by input request {key!r}",
                    "data": {"requiredCapabilities": required},
                }
    finally:
        server.close()


def test_stateless_only_on_some_paths_says_so(tmp_path: Path) -> None:
    """A server that serves stateless HTTP only when asked (a test fixture's parameter, a flag)."""
    source = (
        (DATA / "bugs_15.py")
        .read_text(encoding="utf-8")
        .replace(
            BOOK_TAIL, "\n\ndef app(stateless: bool):\n    if stateless:\n        mcp.settings.stateless_http = True\n"
        )
    )
    target = tmp_path / "server.py"
    target.write_text(source, encoding="utf-8")
    [finding] = _check(target.parent)
    code = "mcp.settings.stateless_http = True` (only on some paths)"
    assert STATELESS_NOTE.format(code=code) in finding["fix"]["description"]

"""The context threading of the port to mcp 2.x (``codemods/port/context.py``): ``server.get_context()``
(MCP504) and the low-level ``server.request_context`` (MCP505) become the context the handler
receives, passed down. The fixtures ``fixtures/port/fastmcp_get_context`` and
``fixtures/port/lowlevel_request_context`` prove the main shapes by running them on mcp 1.27 and
mcp 2.3 (with ``lowlevel_class_methods``: handlers registered on bound methods,
``lowlevel_factory_context``: a server built in a factory); here: the other spellings (an existing ``Context`` parameter, a taken name, a tool
calling a tool) with their exact code, and each reason a site stays manual."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.planning import apply, plans_for
from tests.proof import LEAVE, json_answer

HEAD = 'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("x")\n'


def _port(source: str, tmp: Path) -> str:
    return apply(source, tmp, target_sdk="mcp2")


def test_an_existing_context_parameter_is_the_one_passed_down(tmp_path: Path) -> None:
    src = HEAD + (
        "\n\ndef _rid() -> str:\n    return str(mcp.get_context().request_id)\n"
        "\n\n@mcp.tool()\ndef who(context: Context) -> str:\n    return _rid()\n"
    )
    assert _port(src, tmp_path) == (
        'from mcp.server.mcpserver import Context, MCPServer\n\nmcp = MCPServer("x")\n'
        "\n\ndef _rid(ctx: Context) -> str:\n    return str(ctx.request_id)\n"
        "\n\n@mcp.tool()\ndef who(context: Context) -> str:\n    return _rid(ctx=context)\n"
    )


def test_a_taken_name_gets_a_free_one_and_a_tool_calling_a_tool_passes_it(tmp_path: Path) -> None:
    """Each function names the context with a name free in it; a call passes the caller's under
    the callee's name."""
    src = HEAD + (
        "\n\n@mcp.tool()\nasync def rid(ctx: str = '') -> str:\n    return ctx + str(mcp.get_context().request_id)\n"
        "\n\n@mcp.tool()\nasync def both() -> str:\n    return await rid('a')\n"
    )
    assert _port(src, tmp_path) == (
        'from mcp.server.mcpserver import Context, MCPServer\n\nmcp = MCPServer("x")\n'
        # (the rewritten header and call take ruff format's double quotes)
        '\n\n@mcp.tool()\nasync def rid(ctx: str = "", *, ctx_2: Context) -> str:\n    return ctx + str(ctx_2.request_id)\n'
        '\n\n@mcp.tool()\nasync def both(ctx: Context) -> str:\n    return await rid("a", ctx_2=ctx)\n'
    )


def test_the_line_inside_a_try_goes_unless_the_name_is_read_before_it(tmp_path: Path) -> None:
    """Real tools read the context inside their ``try`` (``ctx = mcp.get_context()`` then
    ``ctx.request_context.lifespan_context``): the line goes there too. Where the name is read
    before the line, the name stays a local and the parameter gets a free one."""
    src = HEAD + (
        "\n\n@mcp.tool()\nasync def query(sql: str) -> str:\n    try:\n        ctx = mcp.get_context()\n"
        "        return f'{sql} {ctx.request_id}'\n    except ValueError as e:\n        return str(e)\n"
        "\n\n@mcp.tool()\nasync def twice(sql: str) -> str:\n    print(ctx if False else '')\n    if sql:\n"
        "        ctx = mcp.get_context()\n        return str(ctx.request_id)\n    return 'none'\n"
    )
    assert _port(src, tmp_path) == (
        'from mcp.server.mcpserver import Context, MCPServer\n\nmcp = MCPServer("x")\n'
        "\n\n@mcp.tool()\nasync def query(sql: str, ctx: Context) -> str:\n    try:\n"
        "        return f'{sql} {ctx.request_id}'\n    except ValueError as e:\n        return str(e)\n"
        "\n\n@mcp.tool()\nasync def twice(sql: str, ctx_2: Context) -> str:\n    print(ctx if False else '')\n    if sql:\n"
        "        ctx = ctx_2\n        return str(ctx.request_id)\n    return 'none'\n"
    )


def _manual(src: str, rule: str, tmp: Path) -> list[str | None]:
    plans = plans_for(src, rule, tmp, target_sdk="mcp2")
    assert plans and all(p.fix is None for p in plans), plans
    return [p.manual for p in plans]


def test_a_helper_called_at_module_level_stays_manual_naming_it(tmp_path: Path) -> None:
    src = HEAD + (
        "\n\ndef _rid() -> str:\n    return str(mcp.get_context().request_id)\n"
        "\n\n@mcp.tool()\ndef who() -> str:\n    return _rid()\n\n\nSTARTUP = _rid()\n"
    )
    assert _manual(src, "MCP504", tmp_path) == [
        "`_rid` is used other than by calls from functions of this module (a callback, a module-level call, a "
        "stored or exported reference): those uses cannot be given the context"
    ]


def test_a_helper_passed_as_a_callback_stays_manual(tmp_path: Path) -> None:
    src = (
        "import anyio\n"
        + HEAD
        + (
            "\n\ndef _rid() -> str:\n    return str(mcp.get_context().request_id)\n"
            "\n\n@mcp.tool()\nasync def who() -> str:\n    return await anyio.to_thread.run_sync(_rid)\n"
        )
    )
    assert _manual(src, "MCP504", tmp_path)[0].startswith("`_rid` is used other than by calls")  # type: ignore[union-attr]


def test_a_helper_nothing_calls_stays_manual(tmp_path: Path) -> None:
    src = HEAD + "\n\ndef _rid() -> str:\n    return str(mcp.get_context().request_id)\n"
    assert _manual(src, "MCP504", tmp_path) == [
        "nothing in this module calls `_rid` and no tool, resource or prompt is it: pass the context in from the "
        "handler that reaches it"
    ]


def test_a_method_nothing_in_the_module_calls_says_its_instances_are_not_followed(tmp_path: Path) -> None:
    """mmornati/nexus-dev@8e8c4e9f: `AgentExecutor.execute` reads `self.mcp_server.get_context()`
    and is called as `executor.execute(...)` by tools of server.py, which the port does not see."""
    src = HEAD + (
        "\n\nclass Runner:\n    def __init__(self, server: FastMCP) -> None:\n        self.server = server\n"
        "\n    def rid(self) -> str:\n        return str(self.server.get_context().request_id)\n"
    )
    assert _manual(src, "MCP504", tmp_path) == [
        "nothing in this module calls `Runner.rid` and no tool, resource or prompt is it; it is a method of "
        "`Runner`, and calls through its instances in other modules are not followed: pass the context in from "
        "the handler that reaches it"
    ]


def test_a_decorated_helper_stays_manual(tmp_path: Path) -> None:
    src = (
        "import functools\n"
        + HEAD
        + (
            "\n\n@functools.lru_cache\ndef _rid() -> str:\n    return str(mcp.get_context().request_id)\n"
            "\n\n@mcp.tool()\ndef who() -> str:\n    return _rid()\n"
        )
    )
    assert _manual(src, "MCP504", tmp_path) == [
        "`_rid` is decorated with `@functools.lru_cache`, which would see the new context parameter (a cache would "
        "key on it, a wrapper may not pass it on): pass the context down by hand"
    ]


def test_a_static_resource_stays_manual_with_mcp2s_reason(tmp_path: Path) -> None:
    src = HEAD + '\n\n@mcp.resource("cfg://who")\ndef who() -> str:\n    return str(mcp.get_context().request_id)\n'
    assert _manual(src, "MCP504", tmp_path) == [
        "`who` is a static resource (`cfg://who` has no template variables): mcp 2.x's `MCPServer` refuses a "
        "`Context` parameter there (ValueError at registration); make it a template or read what the context "
        "gave some other way"
    ]


def test_a_helper_another_module_calls_stays_manual_naming_the_caller(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\ntarget-sdk = "mcp2"\n', encoding="utf-8")
    (tmp_path / "server.py").write_text(
        HEAD
        + "\n\ndef rid() -> str:\n    return str(mcp.get_context().request_id)\n"
        + "\n\n@mcp.tool()\ndef who() -> str:\n    return rid()\n",
        encoding="utf-8",
    )
    (tmp_path / "report.py").write_text("from server import rid\n\n\ndef line() -> str:\n    return rid()\n")
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    (found,) = [f for f in res.json["findings"] if f["rule"] == "MCP504"]
    assert found["line"] == 7 and found["fix"] is None, found
    assert found["manual"] == (
        "`rid` is also called from `line` in report.py, where the context cannot be passed down: nothing in this "
        "module calls `line` and no tool, resource or prompt is it: pass the context in from the handler that "
        "reaches it"
    )


SUBSCRIBER = """\
from mcp.server import Server


class Svc:
    def __init__(self) -> None:
        self.server = Server("svc")
        self.server.progress_notification()(self.subscribe)

    async def subscribe(self, token, done, total, message) -> None:
        self._note(token)

    def _note(self, uri) -> None:
        print(uri, self.server.request_context.request_id)
"""


def test_a_handler_the_port_does_not_wrap_is_named_as_the_reason(tmp_path: Path) -> None:
    """A bound method registered with a decorator the low-level port leaves to a human
    (``progress_notification``): nothing would hand it mcp 2.x's ``ctx``."""
    assert _manual(SUBSCRIBER, "MCP505", tmp_path) == [
        "`Svc.subscribe` is registered as a handler with `progress_notification()`, which the port does not wrap in an "
        "adapter (MCP507): give it the `ctx` its mcp 2.x handler receives by hand"
    ]


# Each driver loads the file, gets the prompt with the arguments and prints its messages (one JSON line).
_PROMPT = (
    LEAVE
    + """
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("port_case", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
{imports}
async def main():
    async with {client} as c:
        r = await c.get_prompt(sys.argv[2], json.loads(sys.argv[3]))
        print(json.dumps([x.model_dump(mode="json", by_alias=True, exclude_none=True) for x in r.messages]))
anyio.run(main)
leave()
"""
)
PROMPT_V1 = _PROMPT.format(
    imports="from mcp.shared.memory import create_connected_server_and_client_session as connect",
    client="connect(m.mcp)",
)
PROMPT_V2 = _PROMPT.format(imports="import mcp", client="mcp.Client(m.mcp, mode=sys.argv[4])")
GET_CONTEXT = Path(__file__).resolve().parent.parent / "fixtures" / "port" / "fastmcp_get_context"


def _prompt(python: str, driver: str, file: Path, *mode: str) -> list:
    out = subprocess.run(
        [python, "-c", driver, str(file), "ask", json.dumps({"key": "a"}), *mode],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return json_answer(out, f"{file.name} under {python}", last_line=True)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_ported_prompt_gets_its_context_like_the_original(mode: str, legacy_python: str, mcp2_python: str) -> None:
    """The prompt of ``fastmcp_get_context`` (the context injected into a prompt on mcp 2.x) says
    what it said on mcp 1.27, the server's name read off the context included."""
    before = _prompt(legacy_python, PROMPT_V1, GET_CONTEXT / "before.py")
    after = _prompt(mcp2_python, PROMPT_V2, GET_CONTEXT / "after_param.py", mode)
    assert after == before
    assert "from notes-ctx" in json.dumps(before), before


def test_a_context_parameter_falling_back_to_get_context_becomes_the_parameter(tmp_path: Path) -> None:
    """`context = ctx or mcp.get_context()`, the fallback of a tool whose `Context` parameter is
    optional (lastmile-ai/mcp-agent's nested_sampling_server), becomes `context = ctx`; the other
    way round, or with another name on the left, only the call is replaced."""
    src = HEAD + (
        "\n\n@mcp.tool()\nasync def rid(ctx: Context | None = None) -> str:\n"
        "    context = ctx or mcp.get_context()\n    return str(context.request_id)\n"
        "\n\n@mcp.tool()\nasync def other(given: object = None) -> str:\n"
        "    context = given or mcp.get_context()\n    return str(context)\n"
    )
    assert _port(src, tmp_path) == (
        'from mcp.server.mcpserver import Context, MCPServer\n\nmcp = MCPServer("x")\n'
        "\n\n@mcp.tool()\nasync def rid(ctx: Context | None = None) -> str:\n"
        "    context = ctx\n    return str(context.request_id)\n"
        "\n\n@mcp.tool()\nasync def other(given: object = None, *, ctx: Context) -> str:\n"
        "    context = given or ctx\n    return str(context)\n"
    )

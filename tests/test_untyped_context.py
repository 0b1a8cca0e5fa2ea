"""Requests through a ``ctx``/``context`` parameter nothing types (unannotated, ``Any``, ``Any``
imported as ``Context``): field case requests-05, seen on apelogic-ai/db-mcp@1c41170a.

mcp 1.x, mcp 2.x and fastmcp 2–4 inject their Context only into a parameter annotated with it; a
registered tool's ``ctx: Any = None`` is a tool argument (``None`` unless the client sends a value),
so the requests through it never run (``test_the_sdk_leaves_an_untyped_ctx_to_the_client`` serves
the fixture on fastmcp 2.14.7 and 3.4.11). They are reported, manual, saying so
(``mcpmigrate/analysis/module.py``: ``uninjected_context``; ``detectors/sampling_elicitation.py``).
The evidence stays that of the registration (in the module, or by another module of the project
that imports the SDK, ``if TYPE_CHECKING:`` imports included), of a decorated tool of another
module passing its ``ctx`` on (``analysis/summary.py``: ``UNINJECTED``), or of the function handing
``ctx.session`` to pydantic-ai's ``MCPSamplingModel`` (an MCP server session); anything else named
``ctx`` is not reported (the negative cases below).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mcpmigrate.analysis.summary import UNINJECTED, summarize
from tests.helpers import FIXTURES, cli
from tests.test_project_facts import _tree

CASE = FIXTURES / "project" / "untyped_context_registered_elsewhere"
PIN = '[project]\nname = "x"\nversion = "0"\ndependencies = ["fastmcp>=2.0.0"]\n'

NEVER = (
    "as written this never runs: `ctx` of `plan_query` is not annotated with the SDK's Context (unannotated or "
    "`Any`) and the SDK injects the Context only into a parameter annotated with it, so it is a tool argument the "
    "client may fill (None by default){through}; annotate it with the SDK's Context class first (the request then "
    "fails on 2026-07-28 as reported), then "
)
WRAPPER = (
    "migrate it by hand: the wrapper sends `sampling/createMessage` itself: replace it with a direct model "
    "provider (e.g. a pydantic-ai provider model), which needs no client round trip"
)
FROM_PLAN = (
    "migrate it by hand: the request is built from `plan`, which holds or is computed from the answer to an "
    "earlier request in `plan_query`, so one interim round cannot ask both"
)
AGAIN = "run `mcpmigrate check` again (the interim fix judges a request through a typed Context)"


def _findings(root: Path) -> list[dict]:
    res = cli(["check", "--no-cache", "--output-format", "json", "."], root)
    assert res.exception is None, str(res)
    return res.json["findings"]


def _case(tmp_path: Path) -> Path:
    for f in CASE.glob("*.py"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "pyproject.toml").write_text(PIN, encoding="utf-8")
    return tmp_path


# -- the field case's shape: db-mcp's get_data, registered by another module ---------------------
def test_requests_through_a_registered_tools_any_ctx_are_reported_at_their_lines(tmp_path: Path) -> None:
    findings = _findings(_case(tmp_path))
    assert [(f["rule"], f["path"], f["line"], f["column"]) for f in findings] == [
        ("MCP202", "plan_tools.py", 22, 20),  # confirm(ctx, …): the helper the tool hands its ctx to
        ("MCP201", "plan_tools.py", 31, 64),  # MCPSamplingModel(session=ctx.session)
        ("MCP202", "plan_tools.py", 34, 27),  # ctx.elicit(message=…, response_type=Approve)
        ("MCP207", "plan_tools.py", 37, 9),  # except Exception: pass — approves
    ]
    assert [f["fix"] for f in findings] == [None] * 4
    assert [f["manual"] for f in findings] == [
        NEVER.format(through=", which `confirm` receives") + AGAIN,
        NEVER.format(through="") + WRAPPER,
        NEVER.format(through="") + FROM_PLAN,
        "make the failure path stop (return or raise) instead of going on; " + NEVER.format(through="") + FROM_PLAN,
    ]
    assert findings[0]["message"].startswith("The server pushes an elicitation to the client in `confirm`;")
    assert findings[1]["message"].startswith(
        "A server session is handed to `MCPSamplingModel`, which samples through it in `plan_query`;"
    )
    assert "silently opens the gate and `plan_query` runs without the user's confirmation" in findings[3]["message"]


PROBE = """\
import asyncio, json, sys

sys.path.insert(0, sys.argv[1])
from fastmcp import Client
from plan_app import mcp

asked = []


async def on_elicit(message, response_type, params, context):
    asked.append("elicitation")
    return {"ok": True}


async def on_sample(messages, params, context):
    asked.append("sampling")
    return "top customers by revenue"


async def main():
    async with Client(mcp, elicitation_handler=on_elicit, sampling_handler=on_sample) as c:
        [tool] = await c.list_tools()
        plain = await c.call_tool("plan_query", {"intent": "top customers"})
        filled = await c.call_tool("plan_query", {"intent": "x", "ctx": {"session": 1}}, raise_on_error=False)
        print(json.dumps({
            "ctx": tool.inputSchema["properties"].get("ctx"),
            "required": tool.inputSchema.get("required"),
            "text": plain.content[0].text,
            "filled": [filled.is_error, filled.content[0].text],
            "asked": asked,
        }))


asyncio.run(main())
"""


@pytest.mark.parametrize("sdk", ["legacy_python", "fastmcp3_python"])  # fastmcp 2.14.7, fastmcp 3.4.11
def test_the_sdk_leaves_an_untyped_ctx_to_the_client(tmp_path: Path, sdk: str, request: pytest.FixtureRequest) -> None:
    """What the server really does: `ctx` is an input of the tool (any JSON, default null), the tool
    answers from its last line, and no request reaches the client, which answers both."""
    python = request.getfixturevalue(sdk)
    root = _case(tmp_path)
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    proc = subprocess.run([python, str(probe), str(root)], capture_output=True, text=True, timeout=120, cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == {
        "ctx": {"default": None, "title": "Ctx"},
        "required": ["intent"],
        "text": "context for top customers: write the query yourself",
        "filled": [True, "Error calling tool 'plan_query': 'dict' object has no attribute 'session'"],
        "asked": [],
    }


# -- a decorated tool of another module hands its untyped ctx to a helper --------------------------
CONSENT = """\
async def require_ack(summary: str, ctx) -> None:
    from mcp.shared.exceptions import McpError
    from pydantic import BaseModel

    class Ack(BaseModel):
        ack: bool

    try:
        reply = await ctx.elicit(message=f"{summary}\\n\\nAcknowledge?", schema=Ack)
        if reply.action != "accept" or not reply.data.ack:
            raise ValueError("not acknowledged")
    except McpError as err:
        raise ValueError("client cannot ask the user") from err
"""

DECORATED = """\
from typing import Any

from fastmcp import {imports}

from pkg.consent import require_ack

mcp = FastMCP("buckets")


@mcp.tool
async def purge(bucket: str, ctx: {annotation}) -> str:
    await require_ack(f"purge {{bucket}}", ctx)
    return "purged"
"""


def _consent_tree(tmp_path: Path, imports: str, annotation: str) -> Path:
    tools = DECORATED.format(imports=imports, annotation=annotation)
    return _tree(
        tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/consent.py": CONSENT, "pkg/tools.py": tools}
    )


def test_a_helper_of_another_module_handed_a_decorated_tools_any_ctx(tmp_path: Path) -> None:
    [f] = _findings(_consent_tree(tmp_path, "FastMCP", "Any = None"))
    assert (f["rule"], f["path"], f["line"], f["column"]) == ("MCP202", "pkg/consent.py", 9, 23)
    assert f["message"].startswith(
        "The server pushes an elicitation to the client in `require_ack` (called from `purge` in pkg/tools.py);"
    )
    assert f["manual"] == (
        "as written this never runs: the context parameter of `purge` in pkg/tools.py is not annotated with the "
        "SDK's Context (unannotated or `Any`) and the SDK injects the Context only into a parameter annotated with "
        "it, so it is a tool argument the client may fill (None by default), which `require_ack` receives; annotate "
        "it with the SDK's Context class first (the request then fails on 2026-07-28 as reported), then " + AGAIN
    )


def test_the_same_helper_handed_a_typed_context_is_a_live_request(tmp_path: Path) -> None:
    [f] = _findings(_consent_tree(tmp_path, "Context, FastMCP", "Context"))
    assert (f["rule"], f["path"], f["line"]) == ("MCP202", "pkg/consent.py", 9)
    assert "never runs" not in f["manual"]
    assert f["manual"].startswith("fastmcp 2.x/3.x code")


# -- not an MCP context: nothing reported -----------------------------------------------------------
ANY_TOOLS = """\
from typing import Any as Context

from pydantic import BaseModel


class Approve(BaseModel):
    ok: bool


async def plan_query(intent: str, *, ctx: Context = None) -> str:
    await ctx.info("planning")
    reply = await ctx.elicit(message=f"Plan {intent}?", response_type=Approve)
    return reply.action
"""

NEGATIVE = {
    # nothing registers or calls it, and nothing hands ctx.session to a sampling wrapper
    "unregistered": {"pkg/tools.py": ANY_TOOLS},
    # a pydantic-ai agent's tool: not an MCP server
    "an agent's tool": {
        "pkg/tools.py": ANY_TOOLS,
        "pkg/agent.py": """\
            from pydantic_ai import Agent

            from pkg.tools import plan_query

            agent = Agent("test")
            agent.tool(plan_query)
            """,
    },
    # registered on the project's own registry, in a project that imports no MCP SDK there
    "a registry of its own": {
        "pkg/tools.py": ANY_TOOLS,
        "pkg/registry.py": """\
            from pkg.tools import plan_query


            class Registry:
                def tool(self, name):
                    return lambda fn: fn


            registry = Registry()
            registry.tool(name="plan")(plan_query)
            """,
    },
    # an MCP tool whose ctx is a class of the project
    "annotated with its own class": {
        "pkg/tools.py": """\
            from fastmcp import FastMCP

            from pkg.wizard import Wizard

            mcp = FastMCP("x")


            @mcp.tool
            async def plan_query(intent: str, ctx: Wizard = None) -> str:
                await ctx.info("planning")
                return (await ctx.elicit(message=intent)).action
            """,
    },
    # an MCP tool that rebinds ctx before asking
    "rebound": {
        "pkg/tools.py": """\
            from fastmcp import FastMCP

            from pkg.wizard import Wizard

            mcp = FastMCP("x")


            @mcp.tool
            async def plan_query(intent: str, ctx=None) -> str:
                ctx = Wizard()
                return (await ctx.elicit(message=intent)).action
            """,
    },
    # an MCP tool's untyped ctx handed to a helper whose parameter has another name
    "another name in the helper": {
        "pkg/tools.py": """\
            from fastmcp import FastMCP

            mcp = FastMCP("x")


            async def ask(c, what: str) -> str:
                return (await c.elicit(message=what)).action


            @mcp.tool
            async def plan_query(intent: str, ctx=None) -> str:
                await ctx.info("planning")
                await ctx.report_progress(1, 2)
                return await ask(ctx, intent)
            """,
    },
    # a session attribute of something else handed to the sampling wrapper, no SDK imported
    "a holder's session": {
        "pkg/tools.py": """\
            from pydantic_ai import Agent
            from pydantic_ai.models.mcp_sampling import MCPSamplingModel


            async def draft(holder, prompt: str) -> str:
                return (await Agent().run(prompt, model=MCPSamplingModel(session=holder.session))).output
            """,
    },
}


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_a_ctx_that_is_not_an_mcp_context_is_not_reported(tmp_path: Path, name: str) -> None:
    files = {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/wizard.py": "class Wizard:\n    pass\n"}
    root = _tree(tmp_path, {**files, **{k: textwrap.dedent(v) for k, v in NEGATIVE[name].items()}})
    assert _findings(root) == []


# -- what the summary records ------------------------------------------------------------------------
def test_the_summary_marks_only_a_served_untyped_ctx_passed_on() -> None:
    src = textwrap.dedent(
        """\
        from typing import Any

        from fastmcp import Context, FastMCP
        from fastmcp.dependencies import CurrentContext, Depends

        from pkg.consent import make, require_ack

        mcp = FastMCP("x")


        @mcp.tool
        async def bare(ctx=None):
            await require_ack("a", ctx)


        @mcp.tool
        async def any_typed(context: "Any | None" = None):
            await require_ack("b", ctx=context)


        @mcp.tool
        async def typed(ctx: Context):
            await require_ack("c", ctx)


        async def not_a_tool(ctx=None):
            await require_ack("d", ctx)


        @mcp.tool
        async def other_name(c=None):
            await require_ack("e", c)


        @mcp.tool
        async def injected(ctx=CurrentContext()):
            await require_ack("f", ctx)


        @mcp.tool
        async def depends(ctx: Any = Depends(make)):
            await require_ack("g", ctx)
        """
    ).encode()
    s = summarize(src, {"require_ack"})
    assert s is not None
    assert [(where, role, kinds) for where, role, _name, kinds in s.calls] == [
        ("bare", "tool", ((1, UNINJECTED),)),
        ("any_typed", "tool", (("ctx", UNINJECTED),)),
        ("typed", "tool", ((1, "fastmcp-context"),)),
        ("not_a_tool", None, ()),
        ("other_name", "tool", ()),
        ("injected", "tool", ((1, "fastmcp-context"),)),  # fastmcp fills it through the default
        ("depends", "tool", ()),  # whatever `make` returns: unknown
    ]


def test_a_registering_modules_type_checking_import_gives_the_generation() -> None:
    src = textwrap.dedent(
        """\
        from __future__ import annotations

        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from fastmcp import FastMCP


        def register(mcp: FastMCP) -> None:
            from pkg.tools import _get_data

            mcp.tool(name="get_data")(_get_data)
        """
    ).encode()
    s = summarize(src, {"_get_data"})
    assert s is not None
    assert [(r.role, r.name, r.generation, r.registered_name) for r in s.registrations] == [
        ("tool", "_get_data", "fastmcp", "get_data")
    ]


# -- db-mcp's core package: the function hands ctx.session to MCPSamplingModel itself ---------------
CORE = """\
from typing import Any as Context

from pydantic import BaseModel
from pydantic_ai import Agent
from pydantic_ai.models.mcp_sampling import MCPSamplingModel

planner = Agent(output_type=str)


class Approve(BaseModel):
    ok: bool


async def _get_data(intent: str, *, ctx: Context = None) -> str:
    plan = (await planner.run(intent, model=MCPSamplingModel(session=ctx.session))).output
    reply = await ctx.elicit(message=f"Plan: {plan}", response_type=Approve)
    return reply.action


async def _test_elicitation(message: str = "Test", *, ctx: Context = None) -> str:
    return (await ctx.elicit(message=message, response_type=Approve)).action
"""


def test_a_ctx_whose_session_goes_to_mcp_sampling_model_is_an_mcp_context(tmp_path: Path) -> None:
    """The session pydantic-ai's `MCPSamplingModel` samples through is an MCP server session: the
    function's `ctx` is an MCP context, here in a function nothing registers or calls (as db-mcp's
    core `_get_data` at 1c41170a). `_test_elicitation`, with no such evidence, is not reported."""
    root = _tree(tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/generation.py": CORE})
    findings = _findings(root)
    assert [(f["rule"], f["line"], f["column"]) for f in findings] == [("MCP201", 15, 45), ("MCP202", 16, 19)]
    why = (
        "`ctx` is untyped, but `_get_data` hands `ctx.session` to pydantic-ai's `MCPSamplingModel`, so it is an MCP "
        "context; no module of the project registers or calls `_get_data`, so as the project stands it never runs; "
        "annotate it with the SDK's Context class first, then migrate it by hand: "
    )
    assert [f["manual"] for f in findings] == [
        why + WRAPPER[len("migrate it by hand: ") :],
        why + "the request is built from `plan`, which holds or is computed from the answer to an earlier request "
        "in `_get_data`, so one interim round cannot ask both",
    ]


def test_a_local_from_random_sample_is_not_an_earlier_answer(tmp_path: Path) -> None:
    tools = """\
        import random

        from fastmcp import FastMCP

        mcp = FastMCP("x")


        @mcp.tool
        async def pick(items: list[str], ctx=None) -> str:
            picks = random.sample(items, 2)
            return (await ctx.elicit(message=f"Keep {picks}?")).action
        """
    root = _tree(tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": tools})
    [f] = _findings(root)
    assert (f["rule"], f["line"]) == ("MCP202", 11)
    assert f["manual"].endswith(
        "then migrate it by hand: the request is built from `picks`, computed mid-body in `pick`"
    )


def test_a_module_importing_nothing_mcp_whose_tool_is_registered_elsewhere(tmp_path: Path) -> None:
    """The registration by a module that imports the SDK is what lets the file past the screens
    (``pipeline._typed_from_outside``): its own imports name nothing MCP."""
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": PIN,
            "pkg/__init__.py": "",
            "pkg/tools.py": """\
                from typing import Any


                async def ask(intent: str, *, ctx: Any = None) -> str:
                    return (await ctx.elicit(message=intent)).action
                """,
            "pkg/server.py": """\
                from fastmcp import FastMCP

                from pkg.tools import ask

                mcp = FastMCP("x")
                mcp.tool(name="ask")(ask)
                """,
        },
    )
    [f] = _findings(root)
    assert (f["rule"], f["path"], f["line"], f["column"]) == ("MCP202", "pkg/tools.py", 5, 19)
    assert f["manual"].startswith("as written this never runs: `ctx` of `ask` is not annotated")


@pytest.mark.parametrize("annotation", ["", ": Any"])
def test_a_ctx_fastmcp_fills_through_its_default_is_a_live_context(tmp_path: Path, annotation: str) -> None:
    """fastmcp 2.14.7, 3.4.11 and 4.2.3 inject the Context into ``ctx=CurrentContext()`` whatever
    the annotation (measured): a live request, reported as any fastmcp one, not as never running."""
    tools = f"""\
from typing import Any

from fastmcp import FastMCP
from fastmcp.dependencies import CurrentContext

mcp = FastMCP("x")


@mcp.tool
async def ask(intent: str, ctx{annotation} = CurrentContext()) -> str:
    answer = await ctx.elicit(intent, response_type=str)
    return answer.action
"""
    root = _tree(tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": tools})
    [f] = _findings(root)
    assert (f["rule"], f["line"], f["manual"]) == ("MCP202", 11, None)
    assert f["fix"]["safety"] == "unsafe"  # fastmcp 4's guard pattern, while the pin admits fastmcp 2.x/3.x
    assert "needs fastmcp>=4" in json.dumps(f["fix"])


CURRENT_CONTEXT = """\
from fastmcp import FastMCP
from fastmcp.dependencies import CurrentContext

mcp = FastMCP("x")


@mcp.tool
async def ask(intent: str, ctx=CurrentContext()) -> str:
    answer = await ctx.elicit(intent, response_type=str)
    if answer.action == "accept":
        return f"got {answer.data}"
    return answer.action
"""


def test_a_ctx_filled_through_its_default_gets_the_fastmcp4_fix_that_serves_both_eras(tmp_path: Path) -> None:
    """Typed by its default, the request takes fastmcp 4's guard pattern like an annotated one; the
    fixed tool answers a 2026-07-28 client as the original answers a legacy one (fastmcp 4.2.3)."""
    from tests.test_port_fastmcp import _serve

    before = _tree(tmp_path / "before", {"server.py": CURRENT_CONTEXT})
    fixed = _tree(tmp_path / "fixed", {"pyproject.toml": PIN.replace(">=2.0.0", ">=4.2"), "server.py": CURRENT_CONTEXT})
    res = cli(["fix", "--no-cache", "--strategy", "interim", "--unsafe-fixes", "server.py"], fixed)
    assert res.exception is None and "Fixed 1 finding" in res.stdout + res.stderr, str(res)
    assert "ctx=CurrentContext()" in (fixed / "server.py").read_text(encoding="utf-8")
    case = {
        "server": "mcp",
        "fastmcp_elicit": {"value": "Ada"},
        "fastmcp_proof": [{"tool": "ask", "arguments": {"intent": "Name?"}}],
    }
    legacy = _serve(sys.executable, before / "server.py", case, "legacy", before)
    assert legacy["calls"] == [
        {"tool": "ask", "is_error": False, "text": ["got Ada"], "structured": {"result": "got Ada"}}
    ]
    unfixed_modern = _serve(sys.executable, before / "server.py", case, None, before)["calls"][0]
    assert unfixed_modern["is_error"] and "unavailable on 2026-07-28" in unfixed_modern["text"][0]
    for mode in ("legacy", None):
        assert _serve(sys.executable, fixed / "server.py", case, mode, fixed) == legacy, mode

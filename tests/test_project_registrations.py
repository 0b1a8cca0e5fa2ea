"""Functions registered as tools, prompts or resources by *another* module of the project
(``mcpmigrate/analysis/summary.py`` reads the registrations, ``project.py`` resolves them,
``module.py`` gives the function its role): the interim fix reaches them, and the manual reasons
name what the project pass knows.

Field shapes: db-mcp (``server.tool(name="test_elicitation")(_test_elicitation)`` in
``server.py``, the function in ``tools/generation.py``) and awslabs aws-api (``ctx.elicit`` in
``request_consent``, called from ``call_aws_helper`` in ``server.py``); the other spellings are
those mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer`` and fastmcp 2–4 accept. The proof by execution
serves ``fixtures/project/fastmcp4_tools_registered_elsewhere`` on fastmcp 4.2.3 with a legacy and
a 2026-07-28 client.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from mcpmigrate.analysis.summary import summarize
from tests.helpers import FIXTURES, cli
from tests.proof import run_proof
from tests.test_port_fastmcp import _serve
from tests.test_project_facts import _tree

CASE = FIXTURES / "project" / "fastmcp4_tools_registered_elsewhere"
PIN = '[project]\nname = "x"\nversion = "0"\ndependencies = ["fastmcp>=4.2,<5"]\n'

TOOLS = """\
from fastmcp import Context


async def confirm(what: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Go on with {what}?", response_type=bool)
    return str(answer.action)
"""


def _json(root: Path, *args: str) -> dict:
    res = cli([*args, "--output-format", "json"], root)
    assert res.exception is None, str(res)
    return res.json


def _mcp202(root: Path, *args: str) -> dict:
    [f] = [f for f in _json(root, "check", "--no-cache", *args, ".")["findings"] if f["rule"] == "MCP202"]
    return f


# -- what the summary reads ---------------------------------------------------------------------
def test_the_summary_reads_every_registration_spelling() -> None:
    src = textwrap.dedent(
        """\
        from fastmcp import FastMCP
        from fastmcp.tools import Tool
        from pydantic_ai import Agent
        from pkg import tools as T
        from pkg.tools import a, b, c, d, f, g, h

        mcp = FastMCP("x")
        agent = Agent("model")
        agent.tool(g)
        TOOLS = [a, b]


        def build(server: FastMCP) -> None:
            server.tool(name="cc")(c)
            for fn in TOOLS:
                server.tool()(fn)
            for fn in (d, T.e):
                mcp.add_tool(fn)
            mcp.add_tool(Tool.from_function(f, name="ff"))


        mcp.prompt(a)
        mcp.resource("data://b")(b)
        mcp.add_tool(fn=h, name="hh")
        """
    ).encode()
    got = [
        (r.where, r.role, r.name, r.generation, r.registered_name)
        for r in summarize(src, {"a", "b", "c", "d", "e", "f", "g", "h"}).registrations  # type: ignore[union-attr]
    ]
    assert got == [
        ("build", "tool", "c", "fastmcp", "cc"),
        ("build", "tool", "a", "fastmcp", None),
        ("build", "tool", "b", "fastmcp", None),
        ("build", "tool", "d", "fastmcp", None),
        ("build", "tool", "T.e", "fastmcp", None),
        ("build", "tool", "f", "fastmcp", "ff"),
        ("", "prompt", "a", "fastmcp", None),
        ("", "resource", "b", "fastmcp", None),
        ("", "tool", "h", "fastmcp", "hh"),
    ]  # `agent.tool(g)`: a pydantic-ai Agent, not an MCP server


# -- the interim fix reaches the registered function ------------------------------------------
SPELLINGS = {
    "tool(name=...)(fn) in a factory": """\
        from fastmcp import FastMCP
        from pkg.tools import confirm


        def _create_server() -> FastMCP:
            server = FastMCP("x")
            server.tool(name="confirm")(confirm)
            return server


        mcp = _create_server()
        """,
    "tool(fn)": "from fastmcp import FastMCP\nfrom pkg.tools import confirm\n\nmcp = FastMCP('x')\nmcp.tool(confirm)\n",
    "add_tool(fn) through a module alias": (
        "from fastmcp import FastMCP\nfrom pkg import tools\n\nmcp = FastMCP('x')\nmcp.add_tool(tools.confirm)\n"
    ),
    "add_tool(Tool.from_function(fn))": """\
        from fastmcp import FastMCP
        from fastmcp.tools import Tool
        from pkg.tools import confirm

        mcp = FastMCP("x")
        mcp.add_tool(Tool.from_function(confirm, name="confirm"))
        """,
    "a loop over a list of imported tools": """\
        from fastmcp import FastMCP
        from pkg.tools import confirm

        TOOLS = [confirm]
        mcp = FastMCP("x")
        for fn in TOOLS:
            mcp.tool()(fn)
        """,
    "relative import in the package": (
        "from fastmcp import FastMCP\nfrom .tools import confirm\n\nmcp = FastMCP('x')\nmcp.tool()(confirm)\n"
    ),
}


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_tool_registered_by_another_module_gets_the_interim_fix(spelling: str, tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/server.py": SPELLINGS[spelling]},
    )
    f = _mcp202(root)
    assert (f["path"], f["line"], f["column"]) == ("pkg/tools.py", 5, 20)
    assert f["fix"]["safety"] == "safe" and f["fix"]["description"].startswith(
        "on 2026-07-28 `confirm` returns `InputRequiredResult` with a `ElicitRequest` under key 'answer'"
    )


def test_without_the_registration_the_reason_says_the_analysis_found_none(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": TOOLS})
    assert _mcp202(root)["manual"].startswith(
        "`confirm` is neither registered nor called in this project as far as the analysis follows"
    )


def test_a_foreign_objects_tool_method_registers_nothing(tmp_path: Path) -> None:
    server = "from pydantic_ai import Agent\nfrom pkg.tools import confirm\n\nagent = Agent('m')\nagent.tool(confirm)\n"
    root = _tree(
        tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/server.py": server}
    )
    assert _mcp202(root)["fix"] is None


def test_a_registered_tool_also_called_directly_elsewhere_stays_manual(tmp_path: Path) -> None:
    """On 2026-07-28 the rewritten tool returns an interim result: a direct caller would get it."""
    server = SPELLINGS["tool(fn)"] + "\n\nasync def both(ctx):\n    return await confirm('all', ctx)\n"
    root = _tree(
        tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/server.py": server}
    )
    assert _mcp202(root)["manual"] == (
        "`confirm` is also called directly (from `both` in pkg/server.py), not only by the SDK: on 2026-07-28 it "
        "would hand that caller an interim result instead of its answer (and a resolver parameter would have to "
        "be passed there); rewrite by hand (or call a plain helper from both)"
    )


def test_aws_api_shape_the_helper_reason_names_its_caller_in_another_module(tmp_path: Path) -> None:
    """awslabs aws-api: `request_consent` (core/aws/service.py) is called from `call_aws_helper`
    in server.py, a helper of the `call_aws` tool."""
    helper = """\
        from fastmcp import Context


        async def request_consent(cli_command: str, ctx: Context):
            result = await ctx.elicit(message=f"Run {cli_command}?", response_type=bool)
            if not result.data:
                raise ValueError("rejected")
        """
    server = """\
        from fastmcp import Context, FastMCP
        from pkg.service import request_consent

        server = FastMCP("aws")


        async def call_aws_helper(cli_command: str, ctx: Context) -> str:
            await request_consent(cli_command, ctx)
            return "ran"


        @server.tool()
        async def call_aws(cli_command: str, ctx: Context) -> str:
            return await call_aws_helper(cli_command, ctx)
        """
    root = _tree(
        tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/service.py": helper, "pkg/server.py": server}
    )
    f = _mcp202(root)
    assert (f["path"], f["line"], f["column"]) == ("pkg/service.py", 5, 20)
    # `call_aws_helper` is a helper there, not a handler: the project step could not give it the
    # round (it refused at fix time while check called the fix safe), so the finding says so up front
    assert f["manual"] == (
        "the request is made in the helper `request_consent`; in another module it is called by `call_aws_helper` "
        "in pkg/server.py, a helper, not a tool or handler: the answer would have to come down from whatever "
        "reaches that helper, through every call on the way; rewrite by hand"
    )


def test_the_cache_follows_the_registration(tmp_path: Path) -> None:
    """The registration is part of the tool module's slice (its cache key): removing it re-checks
    the tool module on a warm cache."""
    root = _tree(
        tmp_path,
        {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/server.py": SPELLINGS["tool(fn)"]},
    )

    def fix() -> dict | None:
        [f] = [f for f in _json(root, "check", ".")["findings"] if f["rule"] == "MCP202"]
        return f["fix"]

    assert fix() is not None
    assert fix() is not None  # warm
    server = root / "pkg" / "server.py"
    server.write_text(server.read_text().replace("mcp.tool(confirm)", "print(confirm)"), encoding="utf-8")
    assert fix() is None
    server.write_text(server.read_text().replace("print(confirm)", "mcp.prompt(confirm)"), encoding="utf-8")
    assert fix() is not None  # a prompt: the guard pattern applies to fastmcp prompts too


# -- the fixture: exact rewrite, and served by fastmcp 4 ---------------------------------------
def _fixed_copy(tmp_path: Path) -> Path:
    root = tmp_path / "fixed"
    root.mkdir()
    for name in ("cleanup_tools.py", "cleanup_server.py"):
        shutil.copy(CASE / name, root / name)
    (root / "pyproject.toml").write_text(PIN, encoding="utf-8")
    found = [
        (f["rule"], f["path"], f["line"], f["column"]) for f in _json(root, "check", "--no-cache", ".")["findings"]
    ]
    assert found == [("MCP202", "cleanup_tools.py", 18, 20), ("MCP202", "cleanup_tools.py", 27, 20)]
    report = _json(root, "fix", "--strategy", "interim", ".")
    assert report["findings"] == [] and report["errors"] == []
    assert (root / "cleanup_tools.py").read_bytes() == (CASE / "cleanup_tools.after_interim.py").read_bytes()
    assert (root / "cleanup_server.py").read_bytes() == (CASE / "cleanup_server.py").read_bytes()
    return root


CALLS = {  # the client's answer, the arguments, what the tool answers (text, structured)
    "delete": ({"value": True}, {"name": "a.txt"}, (["deleted a.txt"], {"result": "deleted a.txt"})),
    "rename": (
        {"confirmed": True},
        {"name": "b.txt", "new": "c.txt"},
        (['{"name":"c.txt","renamed":true}'], {"name": "c.txt", "renamed": True}),
    ),
}


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_the_fixed_tools_answer_both_eras_like_the_original_on_legacy(tool: str, tmp_path: Path) -> None:
    fixed = _fixed_copy(tmp_path)
    before = tmp_path / "before"
    before.mkdir()
    for name in ("cleanup_tools.py", "cleanup_server.py"):
        shutil.copy(CASE / name, before / name)
    answer, arguments, (text, structured) = CALLS[tool]
    case = {"server": "mcp", "fastmcp_elicit": answer, "fastmcp_proof": [{"tool": tool, "arguments": arguments}]}
    legacy = _serve(sys.executable, before / "cleanup_server.py", case, "legacy", before)
    assert legacy["calls"] == [{"tool": tool, "is_error": False, "text": text, "structured": structured}]
    unfixed_modern = _serve(sys.executable, before / "cleanup_server.py", case, None, before)["calls"][0]
    assert unfixed_modern["is_error"] and "unavailable on 2026-07-28" in unfixed_modern["text"][0]
    for mode in ("legacy", None):
        got = _serve(sys.executable, fixed / "cleanup_server.py", case, mode, fixed)
        assert got == legacy, mode  # same tools (schemas included) and the same answer


def test_a_background_task_registered_elsewhere_is_manual(tmp_path: Path) -> None:
    """fastmcp 4 runs a ``task=True`` tool in a worker where ``ctx.request_context`` is None: the
    fix's era check would fail, whichever module registers it."""
    server = "from fastmcp import FastMCP\nfrom pkg.tools import confirm\n\nmcp = FastMCP('x')\nmcp.tool(task=True)(confirm)\n"
    root = _tree(
        tmp_path, {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/server.py": server}
    )
    assert _mcp202(root)["manual"].startswith(
        "`confirm` is a background task tool (`task=True, registered in pkg/server.py`): there "
        "`ctx.request_context` is None"
    )
    (root / "pkg" / "server.py").write_text(server.replace("task=True", "task=False"), encoding="utf-8")
    assert _mcp202(root)["fix"]["safety"] == "safe"


# -- mcp 2.x MCPServer: the resolver form, the registration in another module -----------------
MCP2_CASE = FIXTURES / "project" / "mcpserver_tools_registered_elsewhere"


@pytest.mark.parametrize("answer", ["accept", "decline"])
def test_mcpserver_tool_registered_elsewhere_gets_a_resolver_that_serves_both_eras(
    answer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed = tmp_path / "fixed"
    fixed.mkdir()
    for name in ("book_tools.py", "book_server.py"):
        shutil.copy(MCP2_CASE / name, fixed / name)
    (fixed / "pyproject.toml").write_text(PIN.replace("fastmcp>=4.2,<5", "mcp>=2.3,<3"), encoding="utf-8")
    [f] = _json(fixed, "check", "--no-cache", ".")["findings"]
    assert (f["rule"], f["path"], f["line"], f["column"]) == ("MCP202", "book_tools.py", 15, 20)
    assert f["fix"]["safety"] == "safe"
    _json(fixed, "fix", "--strategy", "interim", ".")
    assert (fixed / "book_tools.py").read_bytes() == (MCP2_CASE / "book_tools.after_interim.py").read_bytes()
    calls = [{"tool": "book_table", "arguments": {"date": "2026-01-02"}}]
    client = {"elicitation": {"action": answer, "content": {"ok": True}}}
    text = ["Booked 2026-01-02."] if answer == "accept" else ["Not booked."]

    def serve(root: Path, mode: str) -> dict:
        monkeypatch.setenv("PYTHONPATH", str(root))  # the server module imports the tools module
        return run_proof(sys.executable, root / "book_server.py", "mcp", mode, [], calls, client=client)

    legacy = serve(MCP2_CASE, "legacy")
    assert legacy["calls"][0]["text"] == text and not legacy["calls"][0]["is_error"], legacy
    assert serve(MCP2_CASE, "modern")["calls"][0]["error"].startswith("NoBackChannelError")
    for mode in ("legacy", "modern"):
        got = serve(fixed, mode)
        assert got["calls"] == legacy["calls"] and got["tools"] == legacy["tools"], mode


def test_db_mcp_consent_gate_registered_elsewhere_is_judged_as_the_tool(tmp_path: Path) -> None:
    """db-mcp's `_get_data` shape with its registration: MCP207 names the tool itself, and the
    interim fix judges the tool's own body (here: the `try` guards more than the question)."""
    from tests.test_consent_gates import REGISTERED_ELSEWHERE

    server = SPELLINGS["tool(name=...)(fn) in a factory"].replace("confirm", "_get_data")
    root = _tree(
        tmp_path,
        {"pyproject.toml": PIN, "pkg/__init__.py": "", "pkg/tools.py": REGISTERED_ELSEWHERE, "pkg/server.py": server},
    )
    findings = _json(root, "check", "--no-cache", ".")["findings"]
    assert [(f["rule"], f["path"], f["line"], f["column"]) for f in findings] == [
        ("MCP202", "pkg/tools.py", 7, 24),
        ("MCP207", "pkg/tools.py", 11, 5),
    ]
    assert "so this `except` silently opens the gate and `_get_data` runs without" in findings[1]["message"]
    # fastmcp 4: the request's round goes in place, inside the kept `try` (safe: a client that cannot
    # answer still reaches the handler, as today); the gate stays open that way, so MCP207 is manual
    assert [f["manual"] for f in findings] == [
        None,
        "the interim fix writes the request's round in place, inside this `try` (fastmcp 4's round in the kept `try`), so this handler still lets the "
        "tool go on without an answer when the client cannot answer: close the gate by hand (return or raise in the "
        "handler)",
    ]
    assert findings[0]["fix"]["safety"] == "safe"


ROOTS_TOOL = """\
from mcp.server.fastmcp import Context


async def count_files(pattern: str, ctx: Context) -> int:
    listing = await ctx.session.list_roots()
    root = listing.roots[0].uri.path
    return len(pattern) + len(root)
"""


def test_a_roots_tool_registered_elsewhere_gets_the_param_fix(tmp_path: Path) -> None:
    """mcp 1.x ``FastMCP.add_tool(fn, name=…)`` in another module: the tool gets its documented
    path parameter (before: "no tool, prompt or resource reaches `count_files`"); the registering
    module is left as it is (``add_tool`` reads the new signature)."""
    server = "from mcp.server.fastmcp import FastMCP\n\nfrom pkg.tools import count_files\n\nmcp = FastMCP('files')\nmcp.add_tool(count_files, name='count')\n"
    root = _tree(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": ROOTS_TOOL, "pkg/server.py": server})
    [f] = _json(root, "check", "--no-cache", ".")["findings"]
    assert (f["rule"], f["path"], f["line"], f["column"]) == ("MCP101", "pkg/tools.py", 5, 21)
    assert f["fix"] == {
        "safety": "safe",
        "strategy": "param",
        "description": "add a documented `root_path` parameter to `count_files` and drop the roots request",
    }
    _json(root, "fix", ".")
    assert (root / "pkg" / "tools.py").read_text() == (
        "from typing import Annotated\n\nfrom pydantic import Field\n\n\n"
        "async def count_files(\n"
        "    pattern: str,\n"
        "    root_path: Annotated[\n"
        "        str,\n"
        "        Field(\n"
        '            description="Absolute path of the directory to work in (formerly the client\'s MCP root)."\n'
        "        ),\n"
        "    ],\n"
        ") -> int:\n"
        "    root = root_path\n    return len(pattern) + len(root)\n"
    )
    assert (root / "pkg" / "server.py").read_text() == server


def test_port_to_mcp2_and_interim_fix_a_tool_registered_in_a_loop_elsewhere(tmp_path: Path) -> None:
    """mcp 1.x ``FastMCP``, the tool registered by ``for fn in [tools.book]: mcp.add_tool(fn)`` in
    another module: one ``fix --target-sdk mcp2 --strategy interim`` ports both modules and gives
    the tool its resolver (the shape of fixtures/project/mcpserver_tools_registered_elsewhere)."""
    tools = """\
        from pydantic import BaseModel

        from mcp.server.fastmcp import Context


        class Confirm(BaseModel):
            ok: bool


        async def book(date: str, ctx: Context) -> str:
            r = await ctx.elicit(f"Book {date}?", Confirm)
            return r.action
        """
    server = "from mcp.server.fastmcp import FastMCP\n\nfrom pkg import tools\n\nmcp = FastMCP('b')\nfor fn in [tools.book]:\n    mcp.add_tool(fn)\n"
    pins = '[project]\nname = "b"\nversion = "0"\ndependencies = ["mcp>=1.20"]\n'
    root = _tree(
        tmp_path, {"pyproject.toml": pins, "pkg/__init__.py": "", "pkg/tools.py": tools, "pkg/server.py": server}
    )
    # unsafe: mcp 1.27 sent a client without elicitation the tool error result, the resolver
    # answers error -32021 (tests/test_port_refusals.py)
    report = _json(root, "fix", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes", ".")
    assert report["findings"] == [] and report["errors"] == []
    assert (root / "pkg" / "tools.py").read_text().splitlines() == [
        "from typing import Annotated",
        "",
        "from pydantic import BaseModel",
        "",
        "from mcp.server.mcpserver import Elicit, ElicitationResult, Resolve",
        "",
        "",
        "class Confirm(BaseModel):",
        "    ok: bool",
        "",
        "",
        "def book_elicitation(date: str) -> Elicit[Confirm]:",
        '    return Elicit(f"Book {date}?", Confirm)',
        "",
        "",
        "async def book(",
        "    date: str, r: Annotated[ElicitationResult[Confirm], Resolve(book_elicitation)]",
        ") -> str:",
        "    return r.action",
    ]
    assert (root / "pkg" / "server.py").read_text() == server.replace(
        "fastmcp import FastMCP", "mcpserver import MCPServer"
    ).replace("FastMCP('b')", 'MCPServer("b")')  # a statement the fix rewrote takes ruff's double quotes


LOCAL_LOOP = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("x")


async def confirm(what: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Go on with {what}?", response_type=bool)
    return str(answer.action)


async def plain(x: int) -> int:
    return x


{loop}
    mcp.tool()(fn)
"""


@pytest.mark.parametrize("loop", ["TOOLS = [confirm, plain]\nfor fn in TOOLS:", "for fn in (plain, confirm):"])
def test_a_loop_registering_the_modules_own_tools_gives_them_their_role(loop: str, tmp_path: Path) -> None:
    root = _tree(tmp_path, {"pyproject.toml": PIN, "server.py": LOCAL_LOOP.replace("{loop}", loop)})
    f = _mcp202(root)
    assert (f["line"], f["column"]) == (7, 20) and f["fix"]["safety"] == "safe"


@pytest.mark.parametrize(
    "registration",
    [
        "mcp.tool(confirm)",
        'mcp.tool(confirm, name="c")',
        "mcp.prompt(confirm)",
        'mcp.add_tool(Tool.from_function(confirm, name="c"))',
        'mcp.resource("data://c")(confirm)',
    ],
)
def test_the_modules_own_registration_calls_give_the_role(registration: str, tmp_path: Path) -> None:
    """fastmcp's ``mcp.tool(fn)`` / ``mcp.prompt(fn)`` and ``Tool.from_function(fn)`` in the
    module that defines the function (before: "the request is made in the helper `confirm`")."""
    head, _, _ = LOCAL_LOOP.partition("\n\nasync def plain")
    source = head.replace("from fastmcp import", "from fastmcp.tools import Tool\nfrom fastmcp import")
    root = _tree(tmp_path, {"pyproject.toml": PIN, "server.py": f"{source}\n\n\n{registration}\n"})
    f = _mcp202(root)
    assert (f["line"], f["column"]) == (8, 20) and f["fix"]["safety"] == "safe", f


def test_mcp510_sees_a_tool_an_mcp1_server_of_another_module_registers(tmp_path: Path) -> None:
    """MCP510 (the port's tool error text) on a tool `mcp.add_tool(...)` registers in another
    module: found at the tool's name; left to a human, since the tool also elicits (the interim
    round rewrites it)."""
    tools = (
        "from mcp.server.fastmcp import Context\n\n\nasync def wipe(path: str, ctx: Context) -> str:\n"
        '    if not path:\n        raise ValueError("no path")\n'
        '    r = await ctx.elicit(f"Wipe {path}?", dict)\n    return r.action\n'
    )
    server = "from mcp.server.fastmcp import FastMCP\n\nfrom pkg.tools import wipe\n\nmcp = FastMCP('w')\nmcp.add_tool(wipe)\n"
    root = _tree(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": tools, "pkg/server.py": server})
    report = _json(root, "check", "--target-sdk", "mcp2", "--select", "MCP510", ".")
    (f,) = report["findings"]
    assert (f["path"], f["line"], f["column"]) == ("pkg/tools.py", 4, 11)
    assert f["fix"] is None and f["manual"]

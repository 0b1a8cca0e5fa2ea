"""The port to mcp 2.x where a method of a class reads the request context from the server and
other modules call it through instances they make (issue 22 item 2, nexus-dev's
``AgentExecutor.execute``, called as ``AgentExecutor(cfg, db, mcp).execute(task)`` from a
decorator tool and from a tool a factory makes and ``mcp.add_tool`` registers).

- The project pass reads ``Class.method`` targets and the calls through an instance bound once in
  the calling function (``runner = Runner(mcp)``, ``runner.run(…)``); an instance that leaves that
  function (stored, passed on, returned, made at module level) is recorded under the class's name
  and keeps the read manual, naming it.
- The method takes the context (keyword-only), each calling tool passes its own — the factory's
  tool takes a ``Context`` parameter, which ``add_tool`` injects on mcp 1.x and 2.x alike. Written
  for every module or none; the original on mcp 1.27 and the port on mcp 2.3 answer the same in
  both eras.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.test_port_threading import serve

DATA = Path(__file__).resolve().parent / "data" / "port" / "ctx_instances"

SERVER = """from mcp.server.fastmcp import Context, FastMCP

from agents import Runner

mcp = FastMCP("crew")


@mcp.tool()
async def ask(task: str, ctx: Context) -> str:
    runner = Runner(mcp)
    return await runner.run(task)


def _register(names: list[str]) -> None:
    for name in names:

        def make(label: str):
            async def crew_tool(task: str) -> str:
                runner = Runner(mcp)
                return await runner.run(task, f"{label}: ")

            crew_tool.__doc__ = f"Ask {label}"
            return crew_tool

        tool_func = make(name)
        mcp.add_tool(tool_func, name=f"ask_{name}")


_register(["alice"])

if __name__ == "__main__":
    mcp.run()
"""
INIT = 'from .runner import Runner\n\n__all__ = ["Runner"]\n'
RUNNER = """from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server.fastmcp import FastMCP


class Runner:
    def __init__(self, server: FastMCP) -> None:
        self.server = server

    async def run(self, task: str, prefix: str | None = None) -> str:
        ctx = self.server.get_context()
        return f"{prefix or ''}{task} via {ctx.fastmcp.name}#{ctx.request_id is not None}"
"""
LEAVES = (
    "`Runner.run` would take the context as a new parameter, but `ask` in server.py uses `Runner` other than to "
    "make an instance whose methods it calls (the instance is stored, passed on or returned, or the class is "
    "subclassed or named), so not every call of it can be found: pass the context by hand"
)
PYPROJECT = '[project]\nname = "crew"\nversion = "0"\ndependencies = ["mcp==1.27.0"]\n'
ACROSS = (
    "take the context as a `Context` parameter of the tool, resource or prompt (mcp 2.x's `MCPServer` injects it "
    "there and keeps it out of the inputSchema) and pass it down to the functions on the way, across modules: "
    "`_register.make.crew_tool` in server.py, `ask` in server.py pass their own context too (the port writes "
    "every one of those modules or none)"
)
PASSING = (
    "pass the context of the tool, resource or prompt that reaches this call (mcp 2.x's `MCPServer` injects "
    "it into a `Context` parameter) to the function, which takes it as a parameter now"
)


def _project(where: Path, server: str = SERVER) -> Path:
    (where / "agents").mkdir(parents=True)
    (where / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (where / "server.py").write_text(server, encoding="utf-8")
    (where / "agents" / "__init__.py").write_text(INIT, encoding="utf-8")
    (where / "agents" / "runner.py").write_text(RUNNER, encoding="utf-8")
    return where


def _mcp504(where: Path, *args: str) -> list[tuple]:
    res = cli([*args, "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    return [
        (f["path"], f["line"], f["column"], f["fix"] and f["fix"]["description"], f["manual"])
        for f in res.json["fixed" if args[0] == "fix" else "findings"]
        if f["rule"] == "MCP504"
    ]


def test_a_method_called_through_instances_in_another_module_takes_the_context(tmp_path: Path) -> None:
    """``Runner.run`` reads ``self.server.get_context()``; ``server.py`` calls it through
    ``runner = Runner(mcp)`` in a decorator tool and in the tool ``make`` returns, which
    ``mcp.add_tool(tool_func, …)`` registers (``Runner`` imported through the package's
    re-export). The method takes ``ctx`` keyword-only, the decorator tool passes its own
    ``ctx``, the factory's tool takes a ``Context`` parameter; a second ``fix`` changes nothing."""
    where = _project(tmp_path / "p")
    assert _mcp504(where, "check") == [("agents/runner.py", 14, 15, ACROSS, None)]
    assert _mcp504(where, "fix") == [
        ("agents/runner.py", 14, 15, ACROSS, None),
        ("server.py", 11, 18, PASSING, None),
        ("server.py", 20, 30, PASSING, None),
    ]
    for name, fixed in (("server.py", "server.fixed.py"), ("agents/runner.py", "runner.fixed.py")):
        assert (where / name).read_text(encoding="utf-8") == (DATA / fixed).read_text(encoding="utf-8"), name
    again = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert again.json["fixed"] == [] and again.json["errors"] == [], str(again)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_ported_instance_calls_answer_as_the_original(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """The original on mcp 1.27 and the port on mcp 2.3: the same tools (``ctx`` is no input of
    either tool), the same answers, read off the context each tool passes to the method."""
    before = _project(tmp_path / "before")
    after = _project(tmp_path / "after")
    assert cli(["fix", "--target-sdk", "mcp2", "."], after).exit_code == 0
    calls = [("ask", {"task": "plan"}), ("ask_alice", {"task": "review"})]
    old = serve(legacy_python, before / "server.py", "mcp", calls=calls)
    assert old == [
        {"ask": ["task"], "ask_alice": ["task"]},
        {"is_error": False, "texts": ["plan via crew#True"]},
        {"is_error": False, "texts": ["alice: review via crew#True"]},
    ]
    assert serve(mcp2_python, after / "server.py", "mcp", mode, calls=calls) == old


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        (
            "    runner = Runner(mcp)\n    return await runner.run(task)\n",
            "    global RUNNER\n    RUNNER = Runner(mcp)\n    return await RUNNER.run(task)\n",
            LEAVES,
        ),
        (
            "    runner = Runner(mcp)\n    return await runner.run(task)\n",
            "    runner = Runner(mcp)\n    TOOLS.append(runner)\n    return await runner.run(task)\n",
            LEAVES,
        ),
        (
            'mcp = FastMCP("crew")\n',
            'mcp = FastMCP("crew")\n\n\nclass Special(Runner):\n    pass\n',
            LEAVES.replace("`ask` in server.py", "server.py"),
        ),
        (
            "        tool_func = make(name)\n",
            "        tool_func = make(name)\n        TOOLS.append(tool_func)\n",
            "`Runner.run` is also called from `_register.make.crew_tool` in server.py, where the context cannot be "
            "passed down: `_register.make.crew_tool` is used other than by calls from functions of this module (a "
            "callback, a module-level call, a stored or exported reference): those uses cannot be given the context",
        ),
    ],
    ids=["instance-global", "instance-passed-on", "subclassed", "factory-result-kept"],
)
def test_an_instance_or_a_tool_whose_uses_are_not_all_seen_keeps_the_read_manual(
    tmp_path: Path, old: str, new: str, reason: str
) -> None:
    """Every call must be found: an instance kept beyond its function (a global here), or a
    factory's tool kept other than by ``add_tool``, leaves the read manual with the reason, and
    the port writes nothing."""
    assert old in SERVER
    where = _project(
        tmp_path / "p",
        SERVER.replace(old, new).replace('mcp = FastMCP("crew")\n', 'mcp = FastMCP("crew")\nTOOLS = []\n'),
    )
    assert _mcp504(where, "check") == [("agents/runner.py", 14, 15, None, reason)]
    assert cli(["fix", "--target-sdk", "mcp2", "."], where).exit_code != 0
    assert (where / "agents" / "runner.py").read_text(encoding="utf-8") == RUNNER


def test_a_caller_header_the_port_changes_is_laid_out_as_ruff_format_does(tmp_path: Path) -> None:
    """The factory's tool is exploded over lines and has a default, so it takes ``ctx``
    keyword-only (``*, ctx: Context``): the project step lays the header out as ruff format does
    (collapsed: its last parameter has no magic trailing comma now), like the module's own fixes."""
    exploded = '            async def crew_tool(\n                task: str,\n                tone: str = "plain",\n            ) -> str:\n'
    where = _project(tmp_path / "p", SERVER.replace("            async def crew_tool(task: str) -> str:\n", exploded))
    assert cli(["fix", "--target-sdk", "mcp2", "."], where).exit_code == 0
    fixed = (DATA / "server.fixed.py").read_text(encoding="utf-8")
    assert (where / "server.py").read_text(encoding="utf-8") == fixed.replace(
        "async def crew_tool(task: str, ctx: Context) -> str:",
        'async def crew_tool(task: str, tone: str = "plain", *, ctx: Context) -> str:',
    )

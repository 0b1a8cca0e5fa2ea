"""The port to mcp 2.x where mcp 1.x code read the request context from the server, and where
modules the served code does not import use mcp 1.x's test helpers (issue 22 item 1, issue 24
item 2).

- Field case ``port-08`` (tests/data/port/port_08.py, copied unchanged): ``srv.get_context()`` in
  a resource template's own body becomes its injected ``Context`` parameter (MCP504), and an
  ``McpError(INTERNAL_ERROR, "…")`` call that mcp 1.x could not make (``TypeError``) is renamed,
  unsafe, with the note saying so (MCP502). Fixed exactly to ``port_08.fixed.py``; the original on
  mcp 1.27 and the port on mcp 2.3 answer the same in both eras, but for the one answer the note
  names.
- Across modules: ``mcp.get_context()`` in a helper of ``helpers.py`` that tools and a prompt of
  ``server.py`` reach: the helper takes the context and every caller passes it, written for every
  module or none (``codemods/port/callers.py``); the project on mcp 1.27 and its port on mcp 2.3
  answer the same in both eras. Each reason it stays manual, and a run that does not check a
  calling module, are tested.
- A test module on ``create_connected_server_and_client_session``: rewritten to mcp 2.x's
  ``Client`` (``codemods/port/memory_client.py``) and run under pytest on mcp 2.3 (the original's
  coroutines on mcp 1.27); one the port cannot rewrite is reported and never blocks the served code.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.planning import apply
from tests.proof import LEAVE, json_answer

DATA = Path(__file__).resolve().parent / "data" / "port"

# Loads argv[1] (its folder first on sys.path, as `python server.py` would have it) and reads
# argv[3]'s resource URIs, calls argv[4]'s tools and gets argv[5]'s prompts (JSON) of its
# module-level server named argv[2], printing what the client got (one JSON line, the tools'
# parameter names first): on mcp 1.x through its in-memory session, on mcp 2.x through `Client`
# in the era argv[6] names.
_DRIVER = (
    LEAVE
    + """
import anyio, importlib.util, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
spec = importlib.util.spec_from_file_location("port_case", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
server = getattr(m, sys.argv[2])
def seen(r):
    d = r.model_dump(mode="json", by_alias=True, exclude_none=True)
    if "contents" in d:
        return {"texts": [c.get("text") for c in d["contents"]]}
    if "messages" in d:
        return {"texts": [x["content"].get("text") for x in d["messages"]]}
    return {"is_error": d.get("isError"), "texts": [c.get("text") for c in d["content"]]}
async def main():
    if len(sys.argv) > 6:
        import mcp
        client = mcp.Client(server, mode=sys.argv[6])
    else:
        from mcp.shared.memory import create_connected_server_and_client_session as connect
        client = connect(server)
    async with client as c:
        tools = await c.list_tools()
        out = [{t.name: sorted(t.model_dump(by_alias=True)["inputSchema"].get("properties", {})) for t in tools.tools}]
        out += [seen(await c.read_resource(u)) for u in json.loads(sys.argv[3])]
        out += [seen(await c.call_tool(n, a)) for n, a in json.loads(sys.argv[4])]
        out += [seen(await c.get_prompt(n, a)) for n, a in json.loads(sys.argv[5])]
        print(json.dumps(out))
anyio.run(main)
leave()
"""
)


def serve(
    python: str,
    file: Path,
    server: str,
    *mode: str,
    uris: list[str] = [],  # noqa: B006 (read only)
    calls: list[tuple[str, dict]] = [],  # noqa: B006
    prompts: list[tuple[str, dict]] = [],  # noqa: B006
) -> list[dict]:
    """What a client got from ``file``'s server ``server`` under ``python`` (``mode``: mcp 2.x's
    era): the tools' parameter names, then the answers in order."""
    out = subprocess.run(
        [python, "-c", _DRIVER, str(file), server, *(json.dumps(x) for x in (uris, calls, prompts)), *mode],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=file.parent,
    )
    return json_answer(out, f"{file.name} under {python}", last_line=True)


# -- port-08 ---------------------------------------------------------------------------------------
PORT_08_MCP502 = (
    "rename the import and its uses to mcp 2.x's names (same objects, same behaviour) (review: `McpError(…)` at "
    "line 35 is already written in mcp 2.x's `(code, message, data)` shape, which mcp 1.x's `McpError(error: "
    "ErrorData)` does not take: there it raises `TypeError: McpError.__init__() takes 2 positional arguments but 3 "
    "were given` and the client gets that text; renamed, it raises the intended `MCPError` with its own message, so "
    "the client's answer changes to that message)"
)


def _port_08(where: Path) -> Path:
    where.mkdir()
    (where / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    server = where / "server.py"
    server.write_bytes((DATA / "port_08.py").read_bytes())
    return server


def test_port_08_the_template_takes_the_context_and_the_broken_call_is_renamed_unsafe(tmp_path: Path) -> None:
    """(a) the read in the template's own body is a safe fix, no longer manual; (b) the call mcp
    1.x could not make is renamed with a note saying so, unsafe (the client's answer changes)."""
    server = _port_08(tmp_path / "p")
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    got = {(f["rule"], f["line"], f["column"]): f for f in res.json["findings"]}
    assert sorted(got) == [("MCP501", 17, 1), ("MCP502", 18, 1), ("MCP504", 27, 11), ("MCP510", 33, 5)]
    assert got["MCP504", 27, 11]["fix"]["safety"] == "safe"
    assert (got["MCP502", 18, 1]["fix"]["safety"], got["MCP502", 18, 1]["fix"]["description"]) == (
        "unsafe",
        PORT_08_MCP502,
    )
    assert cli(["fix", "--target-sdk", "mcp2", "."], server.parent).exit_code == 1  # unsafe: nothing written
    assert server.read_bytes() == (DATA / "port_08.py").read_bytes()
    res = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], server.parent)
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    assert server.read_text(encoding="utf-8") == (DATA / "port_08.fixed.py").read_text(encoding="utf-8")
    assert (server.parent / "requirements.txt").read_text(encoding="utf-8") == "mcp>=2.3,<3\n"
    again = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], server.parent)
    assert again.json["fixed"] == [] and server.read_text(encoding="utf-8") == (DATA / "port_08.fixed.py").read_text(
        encoding="utf-8"
    )


def _request_ids(answers: list[dict]) -> tuple[list[dict], list[str]]:
    """The answers with the ``[<request id>] `` prefix the template writes taken out, and the ids:
    the id is the number the client gave the request (mcp 1.27's session and mcp 2.3's ``Client``
    count their requests differently)."""
    ids: list[str] = []

    def strip(text: str) -> str:
        m = re.match(r"\[(\d+)\] ", text)
        if m is None:
            return text
        ids.append(m[1])
        return text[m.end() :]

    return [{**a, "texts": [strip(t) for t in a["texts"]]} if "texts" in a else a for a in answers], ids


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_port_08_the_port_answers_as_the_original_did(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """The template reads the request id off its injected context on mcp 2.3 as it did off
    ``get_context()`` on mcp 1.27; the tool answers the same for a known doc, and for an unknown one
    the intended message where mcp 1.27 sent the ``TypeError`` text — the difference the note names."""
    asks = {"uris": ["doc://intro", "doc://missing"], "calls": [("must_exist", {"name": n}) for n in ("intro", "x")]}
    before, before_ids = _request_ids(serve(legacy_python, DATA / "port_08.py", "srv", **asks))
    after, after_ids = _request_ids(serve(mcp2_python, DATA / "port_08.fixed.py", "srv", mode, **asks))
    assert len(before_ids) == len(after_ids) == 2, (before_ids, after_ids)
    assert before[:4] == after[:4]
    assert after[:4] == [
        {"must_exist": ["name"]},
        {"texts": ["hello"]},
        {"texts": [""]},
        {"is_error": False, "texts": ["intro"]},
    ]
    assert before[4] == {
        "is_error": True,
        "texts": ["Error executing tool must_exist: McpError.__init__() takes 2 positional arguments but 3 were given"],
    }
    assert after[4] == {"is_error": True, "texts": ["Error executing tool must_exist: unknown doc x"]}


# -- the context threaded across modules (issue 22 item 1) -----------------------------------------
APP = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("notes")\n'
HELPERS = """from app import mcp


def signature() -> str:
    ctx = mcp.get_context()
    return f"{ctx.fastmcp.name}#{ctx.request_id is not None}"


def tag(q: str, upper: bool = False) -> str:
    text = q.upper() if upper else q
    return f"{text} ({signature()})"
"""
SERVER = """from mcp.server.fastmcp import Context

from app import mcp
from helpers import tag
import helpers as h


def _both(q: str) -> list[str]:
    return [tag(q), h.tag(q, upper=True)]


@mcp.tool()
def lookup(q: str) -> str:
    return " / ".join(_both(q))


@mcp.tool()
async def shout(q: str, context: Context) -> str:
    return tag(q, True)


@mcp.prompt()
def ask(topic: str) -> str:
    return f"Ask about {tag(topic)}"


if __name__ == "__main__":
    mcp.run()
"""
ACROSS = (
    "take the context as a `Context` parameter of the tool, resource or prompt (mcp 2.x's `MCPServer` injects it "
    "there and keeps it out of the inputSchema) and pass it down to the functions on the way, across modules: "
    "`_both` in server.py, `ask` in server.py, `shout` in server.py pass their own context too (the port writes "
    "every one of those modules or none)"
)


PYPROJECT = '[project]\nname = "notes"\nversion = "0"\ndependencies = ["mcp==1.27.0"]\n'


def _project(where: Path, **files: str) -> Path:
    where.mkdir()
    (where / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for name, text in {"app": APP, "helpers": HELPERS, "server": SERVER, **files}.items():
        (where / f"{name}.py").write_text(text, encoding="utf-8")
    return where


def _findings(where: Path, *args: str) -> list[tuple]:
    res = cli([*args, "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    return [
        (f["path"], f["line"], f["column"], f["rule"], f["fix"] and f["fix"]["description"], f["manual"])
        for f in res.json["fixed" if args[0] == "fix" else "findings"]
        if f["rule"] == "MCP504"
    ]


def test_a_helper_of_another_module_takes_the_context_every_caller_passes(tmp_path: Path) -> None:
    """``mcp.get_context()`` in ``helpers.py`` (``mcp`` imported from ``app.py``, where mcp 1.x's
    ``FastMCP`` builds it) reached from two tools and a prompt of ``server.py``, directly, through
    a module alias and through a helper there: the helpers take the context (the one read off it,
    ``ctx.fastmcp``, renamed too), each tool and the prompt pass their own — an existing
    ``context: Context`` parameter where there is one. Written for the three modules; a second
    ``fix`` changes nothing."""
    where = _project(tmp_path / "p")
    assert _findings(where, "check") == [("helpers.py", 5, 11, "MCP504", ACROSS, None)]
    passing = (
        "pass the context of the tool, resource or prompt that reaches this call (mcp 2.x's `MCPServer` injects "
        "it into a `Context` parameter) to the function, which takes it as a parameter now"
    )
    assert _findings(where, "fix") == [
        ("helpers.py", 5, 11, "MCP504", ACROSS, None),
        *(
            (("server.py", line, column, "MCP504", passing, None))
            for line, column in ((9, 13), (9, 21), (19, 12), (24, 25))
        ),
    ]
    # whole, as fix lays them out (codemods/layout.py)
    across = DATA / "ctx_across"
    assert (where / "helpers.py").read_text(encoding="utf-8") == (across / "helpers.fixed.py").read_text(
        encoding="utf-8"
    )
    assert (where / "server.py").read_text(encoding="utf-8") == (across / "server.fixed.py").read_text(encoding="utf-8")
    assert (where / "app.py").read_text(encoding="utf-8") == APP.replace(
        "fastmcp import FastMCP", "mcpserver import MCPServer"
    ).replace("FastMCP(", "MCPServer(")
    assert (where / "pyproject.toml").read_text(encoding="utf-8") == PYPROJECT.replace("mcp==1.27.0", "mcp>=2.3,<3")
    again = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert again.json["fixed"] == [] and again.json["findings"] == [] and again.json["errors"] == [], str(again)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_project_ported_across_modules_answers_as_the_original(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """The original project on mcp 1.27 and its port on mcp 2.3: the same tools (the context is no
    parameter a client sees), the same answers, the server's name read off the context included."""
    before = _project(tmp_path / "before")
    after = _project(tmp_path / "after")
    assert cli(["fix", "--target-sdk", "mcp2", "."], after).exit_code == 0
    asks = {"calls": [("lookup", {"q": "a"}), ("shout", {"q": "b"})], "prompts": [("ask", {"topic": "t"})]}
    old = serve(legacy_python, before / "server.py", "mcp", **asks)
    assert old == [
        {"lookup": ["q"], "shout": ["q"]},
        {"is_error": False, "texts": ["a (notes#True) / A (notes#True)"]},
        {"is_error": False, "texts": ["B (notes#True)"]},
        {"texts": ["Ask about t (notes#True)"]},
    ]
    assert serve(mcp2_python, after / "server.py", "mcp", mode, **asks) == old


def test_a_caller_no_handler_reaches_keeps_the_read_manual_naming_it(tmp_path: Path) -> None:
    """A function of another module that no tool, resource or prompt reaches has no context to
    pass: the read stays manual, the reason says where and why (the test the calling module's own
    reads get)."""
    report = "from helpers import tag\n\n\ndef line(q: str) -> str:\n    return tag(q)\n"
    where = _project(tmp_path / "p", report=report)
    assert _findings(where, "check") == [
        (
            "helpers.py",
            5,
            11,
            "MCP504",
            None,
            "`tag` is also called from `line` in report.py, where the context cannot be passed down: nothing in "
            "this module calls `line` and no tool, resource or prompt is it: pass the context in from the handler "
            "that reaches it",
        )
    ]


def test_a_caller_another_module_imports_keeps_the_read_manual(tmp_path: Path) -> None:
    """``_both`` would take the context as a new parameter, but a third module imports it and would
    call it without one."""
    where = _project(tmp_path / "p", other="from server import _both\n\nprint(_both)\n")
    [(_p, _l, _c, _r, fix, manual)] = _findings(where, "check")
    assert fix is None and manual == (
        "`tag` is also called from `_both` in server.py, and `_both` there would take the context as a new "
        "parameter, but other.py imports it and would not pass it: pass it by hand"
    )


def test_a_call_through_a_star_import_keeps_the_read_manual(tmp_path: Path) -> None:
    """The project pass follows ``from helpers import *`` to the helper; the port writes calls it
    can find by the module's imports, so that caller's read stays manual, named."""
    where = _project(tmp_path / "p", server=SERVER.replace("from helpers import tag\n", "from helpers import *\n"))
    [(_p, _l, _c, _r, fix, manual)] = _findings(where, "check")
    assert fix is None and manual == (
        "`tag` is also called from `shout` in server.py, through a name the port does not follow there (a star "
        "import, a re-export): pass the context by hand"
    )


def test_a_port_of_the_helper_module_alone_writes_nothing(tmp_path: Path) -> None:
    """``fix helpers.py``: the calls in server.py must change with it, and this run does not check
    server.py, so the port is blocked and nothing is written (every module or none)."""
    where = _project(tmp_path / "p")
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "helpers.py"], where)
    assert [e["message"] for e in res.json["errors"]] == [
        "blocks the port to mcp 2.x: `tag` takes the context now and `_both` in server.py must pass it, but this run "
        "does not check that module: name it too; nothing was written"
    ]
    assert (where / "helpers.py").read_text(encoding="utf-8") == HELPERS
    assert (where / "pyproject.toml").read_text(encoding="utf-8") == PYPROJECT


# -- a test module on mcp 1.x's in-memory helper (issue 24 item 2) ---------------------------------
CALC = """from mcp.server.fastmcp import FastMCP

mcp = FastMCP("calc")


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b


@mcp.resource("calc://about")
def about() -> str:
    return "a calculator"


if __name__ == "__main__":
    mcp.run()
"""
# the test module before and after the port (`imports` as each writes them)
_CALC_TESTS = """import pytest
{imports}

@pytest.mark.anyio
async def test_add():
    async with {connect}(mcp{private}) as client:
        tools = await client.list_tools()
        assert [t.name for t in tools.tools] == ["add"]
        result = await client.call_tool("add", {{"a": 1, "b": 2}})
        assert result.content[0].text == "3"
        assert not result.{is_error}


@pytest.mark.anyio
async def test_about():
    async with {connect}(mcp, raise_exceptions=True) as session:
        res = await session.read_resource("calc://about")
        assert res.contents[0].text == "a calculator"
"""
CALC_TESTS = _CALC_TESTS.format(
    imports="from mcp.shared.memory import create_connected_server_and_client_session\n\nfrom calc import mcp\n",
    connect="create_connected_server_and_client_session",
    private="._mcp_server",
    is_error="isError",
)
CALC_TESTS_PORTED = _CALC_TESTS.format(
    imports="from mcp import Client\n\nfrom calc import mcp\n", connect="Client", private="", is_error="is_error"
)
CONFTEST = 'import pytest\n\n\n@pytest.fixture\ndef anyio_backend():\n    return "asyncio"\n'
# Runs every `test_*` coroutine of the module argv[1] (its folder's parent on sys.path) under anyio,
# printing the names of those that passed (mcp 1.27's environment has no pytest).
_RUN_TESTS = (
    LEAVE
    + """
import anyio, importlib.util, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[1]))))
sys.modules["pytest"] = type(sys)("pytest"); sys.modules["pytest"].mark = type("M", (), {"anyio": lambda f: f})
spec = importlib.util.spec_from_file_location("t", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
passed = []
for name in sorted(n for n in dir(m) if n.startswith("test_")):
    anyio.run(getattr(m, name))
    passed.append(name)
print(json.dumps(passed))
leave()
"""
)


def _calc(where: Path, tests: str = CALC_TESTS) -> Path:
    where.mkdir()
    (where / "pyproject.toml").write_text(PYPROJECT.replace('"notes"', '"calc"'), encoding="utf-8")
    (where / "calc.py").write_text(CALC, encoding="utf-8")
    (where / "tests").mkdir()
    (where / "tests" / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (where / "tests" / "test_calc.py").write_text(tests, encoding="utf-8")
    return where


def test_a_test_module_on_the_1x_helper_is_ported_to_client_and_runs_green(tmp_path: Path, legacy_python: str) -> None:
    """The served module is ported and the test module with it: the helper becomes mcp 2.x's
    ``Client`` (a FastMCP's private ``_mcp_server`` becomes the server itself, ``Client`` takes
    an ``MCPServer``), the result's camelCase field its snake_case one (MCP506). The original tests
    pass on mcp 1.27, the ported ones under pytest on mcp 2.3."""
    before = _calc(tmp_path / "before")
    ran = subprocess.run(
        [legacy_python, "-c", _RUN_TESTS, str(before / "tests" / "test_calc.py")],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert json_answer(ran, "the original tests on mcp 1.27", last_line=True) == ["test_about", "test_add"]
    where = _calc(tmp_path / "after")
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert res.json["errors"] == [] and res.json["findings"] == [], str(res)
    assert sorted((f["path"], f["line"], f["rule"]) for f in res.json["fixed"]) == [
        ("calc.py", 1, "MCP501"),
        ("tests/test_calc.py", 2, "MCP509"),
        ("tests/test_calc.py", 14, "MCP506"),
    ]
    assert (where / "tests" / "test_calc.py").read_text(encoding="utf-8") == CALC_TESTS_PORTED
    again = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert again.json["fixed"] == [] and again.json["findings"] == [], str(again)
    green = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "tests"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=where,
    )
    assert green.returncode == 0 and "2 passed" in green.stdout, green.stdout + green.stderr


def test_a_test_module_the_port_cannot_rewrite_never_blocks_the_served_code(tmp_path: Path) -> None:
    """A test that uses the session beyond what ``Client`` offers keeps the helper, reported with
    what to change; the served module is still ported (the served code does not import the test)."""
    tests = CALC_TESTS.replace(
        "tools = await client.list_tools()", "await client.send_ping()\n        tools = await client.list_tools()"
    ).replace(
        "res = await session.read_resource",
        "caps = session.get_server_capabilities()\n        res = await session.read_resource",
    )
    where = _calc(tmp_path / "p", tests)
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert [(f["path"], f["line"], f["rule"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP509"] == [
        (
            "tests/test_calc.py",
            2,
            "MCP509",
            "use `mcp.Client(server)` (`session.get_server_capabilities` is no `Client` request of the same name "
            "(mcp 2.x's `ClientSession` is `client.session`, with its own API): port this use by hand)",
        ),
        (  # the helper stays, and so does the private server passed to it
            "tests/test_calc.py",
            9,
            "MCP509",
            "FastMCP's private `_mcp_server` is `mcp._lowlevel_server` on mcp 2.x, a low-level `Server` with another "
            "API (handlers keyed by method, called as `(ctx, params)`): port this use by hand (read “Lowlevel "
            "`Server`: decorator-based handlers replaced with constructor `on_*` params” in the python-sdk migration "
            "guide (docs/migration.md))",
        ),
    ]
    assert res.json["errors"] == [], str(res)
    assert (where / "calc.py").read_text(encoding="utf-8") == CALC.replace(
        "fastmcp import FastMCP", "mcpserver import MCPServer"
    ).replace("FastMCP(", "MCPServer(")
    # the field renamed (MCP506: it is `is_error` on mcp 2.x, where the project now runs)
    assert (where / "tests" / "test_calc.py").read_text(encoding="utf-8") == tests.replace("isError", "is_error")


def test_a_logging_callback_keeps_the_legacy_era(tmp_path: Path) -> None:
    """On a 2026-07-28 connection log messages reach a client only for requests that opt in, so a
    client given a ``logging_callback`` keeps the era the helper had; the helper's alias goes."""
    src = (
        "from mcp.server.lowlevel import Server\n"
        "from mcp.shared.memory import create_connected_server_and_client_session as connect\n\n"
        'server = Server("x")\n\n\nasync def check(seen):\n'
        "    async with connect(server, logging_callback=seen.append) as s:\n        await s.send_ping()\n"
    )
    assert apply(src, tmp_path, target_sdk="mcp2") == (
        "from mcp import Client\nfrom mcp.server.lowlevel import Server\n\n"
        'server = Server("x")\n\n\nasync def check(seen):\n'
        '    async with Client(server, logging_callback=seen.append, mode="legacy") as s:\n'
        "        await s.send_ping()\n"
    )


def test_a_server_imported_under_another_name_in_a_package_is_followed(tmp_path: Path) -> None:
    """``from .app import app`` in a package: the read is screened in (no name says mcp there),
    typed through the module that builds the server, and threaded to the tool of ``tools.py``."""
    where = tmp_path / "p"
    pkg = where / "pkg"
    pkg.mkdir(parents=True)
    (where / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "app.py").write_text(APP.replace("mcp = ", "app = "), encoding="utf-8")
    (pkg / "helpers.py").write_text(
        "from .app import app\n\n\ndef who() -> str:\n    return app.get_context().fastmcp.name\n", encoding="utf-8"
    )
    (pkg / "tools.py").write_text(
        "from .app import app\nfrom .helpers import who\n\n\n@app.tool()\ndef hello() -> str:\n    return who()\n",
        encoding="utf-8",
    )
    [(path, line, _c, _r, fix, manual)] = _findings(where, "check")
    assert (path, line, manual) == ("pkg/helpers.py", 5, None) and "`hello` in pkg/tools.py passes its own" in fix
    assert cli(["fix", "--target-sdk", "mcp2", "."], where).exit_code == 0
    assert (pkg / "helpers.py").read_text(encoding="utf-8") == (
        "from mcp.server.mcpserver import Context\n\n\ndef who(ctx: Context) -> str:\n    return ctx.mcp_server.name\n"
    )
    assert (
        (pkg / "tools.py")
        .read_text(encoding="utf-8")
        .endswith("def hello(ctx: Context) -> str:\n    return who(ctx=ctx)\n")
    )


def test_a_low_level_read_another_module_reaches_is_manual_not_advisory(tmp_path: Path) -> None:
    """``server.request_context`` in a helper a low-level handler of another module calls: the
    port passes the adapter's ``ctx`` within a module only, so the read blocks with that reason
    (it was advisory, "nothing calls it", and the port then broke the handler on mcp 2.x)."""
    where = tmp_path / "p"
    where.mkdir()
    (where / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (where / "app.py").write_text('from mcp.server.lowlevel import Server\n\nserver = Server("x")\n', encoding="utf-8")
    (where / "helpers.py").write_text(
        "from app import server\n\n\ndef rid() -> str:\n    return str(server.request_context.request_id)\n",
        encoding="utf-8",
    )
    (where / "handlers.py").write_text(
        "import mcp.types as types\n\nfrom app import server\nfrom helpers import rid\n\n\n@server.call_tool()\n"
        "async def call(name: str, arguments: dict) -> list[types.TextContent]:\n"
        '    return [types.TextContent(type="text", text=rid())]\n',
        encoding="utf-8",
    )
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], where)
    assert [(f["path"], f["line"], f["rule"], f["severity"], f["manual"]) for f in res.json["findings"]] == [
        (
            "helpers.py",
            5,
            "MCP505",
            "breaking",
            "`rid` is also called from `call` in handlers.py: the port passes a low-level handler's `ctx` within its "
            "module only; give the function a `ServerRequestContext` parameter and pass the handler's `ctx` there "
            "by hand",
        )
    ]

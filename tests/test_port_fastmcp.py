"""The port of fastmcp 2.x/3.x servers to fastmcp 4 (``--target-sdk fastmcp4``, rules MCP511–MCP518).

Opt-in and scoped (each target runs only its own port rules), precise (only names that resolve
into fastmcp), exact rewrites and manual reasons, the project step (all files or none, the
``fastmcp`` pin re-written, pins below fastmcp 4's floors block), the one run of
``fix --target-sdk fastmcp4 --strategy interim``, and the proof by execution: each fixture of
``fixtures/port/fastmcp*`` served by fastmcp 2.14.7 (the legacy venv) before, and its exact port
output served by fastmcp 4.2.3 after — with ``fastmcp.Client(server, mode="legacy")`` and the
default (2026-07-28) client — lists the same tools and answers every call the same.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, cli, findings_of, load_toml
from tests.proof import LEAVE, json_answer

CASES = sorted(p for p in (FIXTURES / "port").glob("fastmcp*") if "fastmcp_proof" in load_toml(p / "case.toml"))


def _write(tmp_path: Path, code: str, name: str = "server.py") -> Path:
    path = tmp_path / name
    path.write_text(code, encoding="utf-8")
    return path


def _check(tmp_path: Path, *args: str) -> list[dict]:
    res = cli(["check", *args, "--output-format", "json", "."], tmp_path)
    assert res.exception is None, str(res)
    return res.json["findings"]


def _fix(tmp_path: Path, *args: str):
    res = cli(["fix", "--unsafe-fixes", *args, "--output-format", "json", "."], tmp_path)
    assert res.exception is None, str(res)
    return res


FASTMCP2 = """\
from fastmcp import Context, FastMCP
from fastmcp.exceptions import McpError
from fastmcp.server.proxy import FastMCPProxy
from mcp.shared.exceptions import McpError as SdkError
from mcp.types import ErrorData

mcp = FastMCP("demo")
mcp.mount(FastMCP("sub"), prefix="sub")


@mcp.tool
async def fail(ctx: Context) -> str:
    raise McpError(ErrorData(code=-1, message="no"))
"""


# -- opt-in and scope -------------------------------------------------------------------------
def test_no_port_finding_without_the_target(tmp_path: Path) -> None:
    _write(tmp_path, FASTMCP2)
    assert not [f for f in _check(tmp_path) if f["rule"].startswith("MCP5")]


def test_each_target_runs_only_its_own_port_rules(tmp_path: Path) -> None:
    _write(tmp_path, FASTMCP2)
    fast = {f["rule"] for f in _check(tmp_path, "--target-sdk", "fastmcp4")}
    assert fast == {"MCP511", "MCP512", "MCP515"}
    mcp2 = {f["rule"] for f in _check(tmp_path, "--target-sdk", "mcp2")}
    assert not {r for r in mcp2 if r.startswith("MCP51")}


def test_the_config_key_turns_the_port_on(tmp_path: Path) -> None:
    _write(tmp_path, FASTMCP2)
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\ntarget-sdk = "fastmcp4"\n', encoding="utf-8")
    assert findings_of(cli(["check", "--output-format", "json", "server.py"], tmp_path)) == [
        ("MCP511", 3),
        ("MCP511", 4),
        ("MCP512", 8),
        ("MCP515", 13),
    ]


# -- precision --------------------------------------------------------------------------------
def test_no_finding_on_mcp_sdk_code_or_other_objects(tmp_path: Path) -> None:
    _write(
        tmp_path,
        """\
from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError
from mcp.types import ErrorData

mcp = FastMCP("sdk")


class Registry:
    def remove_tool(self, name): ...
    def mount(self, server, prefix=None): ...


registry = Registry()
registry.remove_tool("x")
registry.mount(mcp, prefix="p")


@mcp.tool()
async def ask(ctx: Context) -> str:
    ctx.set_state("k", 1)
    await ctx.elicit("Sure?")
    raise McpError(ErrorData(code=-1, message="no"))
""",
    )
    # only the FastMCP 1.0 import itself (gone on fastmcp 4's mcp 2.x): the SDK server's calls are not fastmcp's
    found = [
        (f["rule"], f["line"]) for f in _check(tmp_path, "--target-sdk", "fastmcp4") if f["rule"].startswith("MCP51")
    ]
    assert found == [("MCP511", 1)]


def test_a_fastmcp_module_without_removed_names_is_clean(tmp_path: Path) -> None:
    _write(
        tmp_path,
        """\
from fastmcp import Context, FastMCP
from fastmcp.server import create_proxy
from fastmcp.tools import Tool

mcp = FastMCP("demo")
mcp.mount(create_proxy("http://localhost/mcp"), namespace="up")


@mcp.tool
async def note(ctx: Context) -> str:
    await ctx.set_state("k", "v")
    answer = await ctx.elicit("Sure?", response_type=bool)
    return str(answer.action)
""",
    )
    assert not [f for f in _check(tmp_path, "--target-sdk", "fastmcp4") if f["rule"].startswith("MCP5")]


# -- rewrites ---------------------------------------------------------------------------------
def test_imports_split_by_new_module_keep_their_aliases(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """\
from fastmcp import FastMCP
from fastmcp.tools.tool import FunctionTool as FT, Tool
from fastmcp.server.tasks import TaskConfig
from fastmcp.server.auth.authorization import require_scopes, run_auth_checks_with_shortfall

mcp = FastMCP("demo")
KEEP = (FT, Tool, TaskConfig, require_scopes, run_auth_checks_with_shortfall)
""",
    )
    _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert path.read_text().splitlines()[:6] == [
        "from fastmcp import FastMCP",
        "from fastmcp.tools.function_tool import FunctionTool as FT",
        "from fastmcp.tools import Tool",
        "from fastmcp.utilities.tasks import TaskConfig",
        "from fastmcp.server.auth import require_scopes",
        "from fastmcp.utilities.authorization import run_auth_checks_with_shortfall",
    ]


def test_mcp1_mcp_error_in_a_fastmcp_module_moves_to_fastmcp_exceptions(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """\
from fastmcp import FastMCP
from mcp.shared.exceptions import McpError

mcp = FastMCP("demo")


def fail(err):
    raise McpError(err)
""",
    )
    _fix(tmp_path, "--target-sdk", "fastmcp4")
    text = path.read_text()
    assert "from fastmcp.exceptions import McpError\n" in text
    assert "raise McpError(code=err.code, message=err.message, data=err.data)" in text


def test_server_method_rewrites(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """\
from fastmcp import FastMCP

mcp = FastMCP("main")
sub = FastMCP("sub")
mcp.mount("legacy", sub)
mcp.mount(sub, "api")
""",
    )
    assert [(f["rule"], f["line"]) for f in _check(tmp_path, "--target-sdk", "fastmcp4")] == [("MCP512", 5)]
    _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert path.read_text().splitlines()[4:] == ['mcp.mount(sub, namespace="legacy")', 'mcp.mount(sub, "api")']


def test_remove_tool_under_except_not_found_is_unsafe_with_the_reason(tmp_path: Path) -> None:
    _write(
        tmp_path,
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import NotFoundError

mcp = FastMCP("main")
try:
    mcp.remove_tool("old")
except NotFoundError:
    pass
mcp.remove_tool("older")
""",
    )
    found = {f["line"]: f for f in _check(tmp_path, "--target-sdk", "fastmcp4")}
    assert found[6]["fix"]["safety"] == "unsafe"
    assert "raises `KeyError`" in found[6]["fix"]["description"]
    assert "catch `KeyError`" in found[6]["fix"]["description"]
    assert found[9]["fix"]["safety"] == "safe"


MANUAL = """\
from fastmcp import Context, FastMCP
from fastmcp.server.openapi import FastMCPOpenAPI
from fastmcp.server.middleware.tool_injection import PromptToolMiddleware
import fastmcp.server.proxy

mcp = FastMCP("main", host="0.0.0.0", sampling_handler=None)
mcp.import_server(FastMCP("sub"))
mcp.mount(FastMCP("p"), as_proxy=True)


@mcp.tool(serializer=str, exclude_args=["secret"])
async def tool_a(ctx: Context, secret: str = "x") -> str:
    await ctx.elicit("Sure?")
    tools = await mcp.get_tools()
    return str(tools)


@mcp.resource("data://x", task=True)
def res() -> str:
    return "x"


def sync_helper(ctx: Context) -> None:
    ctx.set_state("k", 1)
"""


def test_what_is_left_manual_says_why(tmp_path: Path) -> None:
    _write(tmp_path, MANUAL)
    found = {
        (f["rule"], f["line"], f["column"]): f["manual"]
        for f in _check(tmp_path, "--target-sdk", "fastmcp4")
        if f["rule"].startswith("MCP51")
    }
    assert sorted(found) == [
        ("MCP511", 2, 1),
        ("MCP511", 3, 1),
        ("MCP511", 4, 1),
        ("MCP512", 7, 1),
        ("MCP512", 8, 1),
        ("MCP513", 11, 11),
        ("MCP513", 11, 27),
        ("MCP513", 18, 27),
        ("MCP514", 6, 23),
        ("MCP514", 6, 39),
        ("MCP516", 13, 11),
        ("MCP518", 14, 19),
        ("MCP518", 24, 5),
    ]
    assert "OpenAPIProvider" in found[("MCP511", 2, 1)]
    assert "PromptsAsTools" in found[("MCP511", 3, 1)]
    assert "live link that runs both" in found[("MCP512", 7, 1)]
    assert "create_proxy(child)" in found[("MCP512", 8, 1)]
    assert "ToolResult" in found[("MCP513", 11, 11)]
    assert "Depends(factory)" in found[("MCP513", 11, 27)]
    assert "run()" in found[("MCP514", 6, 23)]
    assert "no server-side sampling" in found[("MCP514", 6, 39)]
    assert '{"type": "object", "properties": {}}' in found[("MCP516", 13, 11)]
    assert "list_tools()" in found[("MCP518", 14, 19)]
    assert "async def" in found[("MCP518", 24, 5)]


# -- the project step -------------------------------------------------------------------------
PYPROJECT = """\
[project]
name = "demo"
version = "0.1.0"
dependencies = [
    "fastmcp[openai]==2.14.7",
    "mcp>=1.9",
]
"""


def test_the_port_re_pins_fastmcp_and_fastmcp_slim_only(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("fastmcp>=2.10  # server\nfastmcp-slim==3.4\n", encoding="utf-8")
    _write(tmp_path, FASTMCP2)
    res = _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert res.json["errors"] == []
    assert '    "fastmcp[openai]>=4.2,<5",\n    "mcp>=1.9",\n' in (tmp_path / "pyproject.toml").read_text()
    assert (tmp_path / "requirements.txt").read_text() == "fastmcp>=4.2,<5  # server\nfastmcp-slim>=4.2,<5\n"
    text = cli(["fix", "--target-sdk", "fastmcp4", "--diff", "."], tmp_path)  # nothing left to port
    assert "pinned" not in text.stdout


def test_the_text_report_names_the_pin_and_the_stale_lock(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "uv.lock").write_text(
        'version = 1\n\n[[package]]\nname = "fastmcp"\nversion = "2.14.7"\n', encoding="utf-8"
    )
    _write(tmp_path, FASTMCP2)
    res = cli(["fix", "--target-sdk", "fastmcp4", "."], tmp_path)
    assert (
        "pinned pyproject.toml: fastmcp>=4.2,<5 (the port's target); uv.lock still locks the old version" in res.stdout
    )


def test_a_file_left_manual_blocks_the_whole_port(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    good = _write(tmp_path, FASTMCP2)
    _write(
        tmp_path, 'from fastmcp import FastMCP\n\nmcp = FastMCP("b")\nmcp.import_server(FastMCP("c"))\n', "blocker.py"
    )
    res = _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert good.read_text() == FASTMCP2
    assert "fastmcp[openai]==2.14.7" in (tmp_path / "pyproject.toml").read_text()
    (err,) = res.json["errors"]
    assert err["path"] == "blocker.py"
    assert err["message"].startswith("blocks the port to fastmcp 4: MCP512 at line 4: `mount()` is the replacement")


def test_pins_below_fastmcp4_floors_are_found_on_their_line_and_block(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        PYPROJECT.replace(
            '    "mcp>=1.9",\n', '    "pydantic==2.11.*",\n    "starlette<0.47",\n    "fastapi>=0.100",\n'
        ),
        encoding="utf-8",
    )
    (tmp_path / "requirements.txt").write_text("fastapi==0.115.12\n", encoding="utf-8")
    _write(tmp_path, FASTMCP2)
    found = [
        (f["path"], f["line"], f["column"])
        for f in _check(tmp_path, "--target-sdk", "fastmcp4")
        if f["rule"] == "MCP517"
    ]
    assert found == [("pyproject.toml", 6, 6), ("pyproject.toml", 7, 6), ("requirements.txt", 1, 1)]
    assert not [f for f in _check(tmp_path) if f["rule"] == "MCP517"]
    res = _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert (tmp_path / "server.py").read_text() == FASTMCP2
    assert any(e["path"] == "pyproject.toml" and "MCP517 at line 6" in e["message"] for e in res.json["errors"])


# -- one run: port, then the interim fix on the ported code ----------------------------------
def test_interim_refuses_fastmcp2_without_the_port_and_applies_after_it(tmp_path: Path) -> None:
    case = FIXTURES / "port" / "fastmcp2_confirm"
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    server = tmp_path / "server.py"
    server.write_bytes((case / "before.py").read_bytes())
    alone = _fix(tmp_path, "--strategy", "interim")
    (mcp202,) = [f for f in alone.json["findings"] if f["rule"] == "MCP202"]
    assert "`fastmcp[openai]==2.14.7`" in mcp202["manual"] and "Upgrade to fastmcp 4" in mcp202["manual"]
    ported = _fix(tmp_path, "--target-sdk", "fastmcp4", "--strategy", "interim")
    assert ported.json["errors"] == [] and ported.json["findings"] == []
    assert server.read_bytes() == (case / "after_interim.py").read_bytes()
    assert '"fastmcp[openai]>=4.2,<5"' in (tmp_path / "pyproject.toml").read_text()


# -- proof by execution -----------------------------------------------------------------------
DRIVER = (
    LEAVE
    + r"""
import asyncio, importlib.util, json, sys, warnings
warnings.simplefilter("ignore")
req = json.loads(sys.stdin.read())
spec = importlib.util.spec_from_file_location("server_under_test", req["file"])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
server = getattr(mod, req["server"])
from fastmcp import Client


def field(obj, snake, camel):
    fields = getattr(type(obj), "model_fields", {})
    return getattr(obj, snake) if snake in fields else getattr(obj, camel, None)


async def main():
    kwargs = {} if req["mode"] is None else {"mode": req["mode"]}
    if "elicit" in req:
        async def handler(message, response_type, params, context):
            return response_type(**req["elicit"])
        kwargs["elicitation_handler"] = handler
    out = {"tools": [], "calls": [], "resources": [], "templates": [], "prompts": [], "reads": []}
    async with Client(server, **kwargs) as c:
        out["resources"] = sorted(str(r.uri) for r in await c.list_resources())
        out["templates"] = sorted(field(t, "uri_template", "uriTemplate") for t in await c.list_resource_templates())
        out["prompts"] = sorted(p.name for p in await c.list_prompts())
        for uri in req.get("reads", []):
            out["reads"].append([getattr(x, "text", None) for x in await c.read_resource(uri)])
        for t in await c.list_tools():
            out["tools"].append({"name": t.name, "description": t.description,
                                 "input_schema": field(t, "input_schema", "inputSchema"),
                                 "output_schema": field(t, "output_schema", "outputSchema")})
        for call in req["calls"]:
            rec = {"tool": call["tool"]}
            try:
                r = await c.call_tool_mcp(call["tool"], call.get("arguments", {}))
                rec["is_error"] = bool(field(r, "is_error", "isError"))
                rec["text"] = [b.text for b in r.content if getattr(b, "type", "") == "text"]
                rec["structured"] = field(r, "structured_content", "structuredContent")
            except Exception as e:
                rec["error"] = type(e).__name__ + ": " + str(e)
            out["calls"].append(rec)
    out["tools"].sort(key=lambda t: t["name"])
    print(json.dumps(out, sort_keys=True))


asyncio.run(main())
leave()
"""
)


def _serve(python: str, file: Path, case: dict, mode: str | None, tmp_path: Path) -> dict:
    driver = tmp_path / "fastmcp_driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    request = {
        "file": str(file),
        "server": case["server"],
        "mode": mode,
        "calls": [{"tool": c["tool"], "arguments": c.get("arguments", {})} for c in case["fastmcp_proof"]],
    }
    if "fastmcp_reads" in case:
        request["reads"] = case["fastmcp_reads"]
    if "fastmcp_elicit" in case:
        request["elicit"] = case["fastmcp_elicit"]
    proc = subprocess.run(
        [python, str(driver)], input=json.dumps(request), capture_output=True, text=True, timeout=120, cwd=str(tmp_path)
    )
    return json_answer(proc, f"driver under {python}", last_line=True)


def _fastmcp2_generation(answer: dict) -> dict:
    """What fastmcp 3 and 4 generate differently from fastmcp 2 for every server, ported or
    written for them (measured: fastmcp 3.4.11 and 4.2.3 agree on each): tool input schemas
    closed with ``additionalProperties: false``, the result wrapper's output schema without its
    description, an unknown tool's name quoted in the error text. Normalised on both sides."""
    out = json.loads(json.dumps(answer))
    for tool in out["tools"]:
        (tool["input_schema"] or {}).pop("additionalProperties", None)
        if tool["output_schema"] and tool["output_schema"].get("x-fastmcp-wrap-result"):
            tool["output_schema"].pop("description", None)
    for call in out["calls"]:
        call["text"] = [t.replace("Unknown tool: '", "Unknown tool: ").rstrip("'") for t in call.get("text", [])]
    return out


def test_there_are_fastmcp_port_proofs() -> None:
    assert [p.name for p in CASES] == [
        "fastmcp2_catalog",
        "fastmcp2_confirm",
        "fastmcp2_middleware",
        "fastmcp3_gateway",
    ]


@pytest.mark.parametrize("case_dir", CASES, ids=[p.name for p in CASES])
@pytest.mark.parametrize("mode", ["legacy", None], ids=["legacy", "modern"])
def test_ported_server_serves_like_the_original(
    case_dir: Path, mode: str | None, legacy_python: str, tmp_path: Path
) -> None:
    case = load_toml(case_dir / "case.toml")
    after = case_dir / ("after_interim.py" if (case_dir / "after_interim.py").exists() else "after_param.py")
    before = _serve(legacy_python, case_dir / "before.py", case, None, tmp_path)
    ported = _serve(sys.executable, after, case, mode, tmp_path)
    assert [t["name"] for t in before["tools"]], before
    assert not [c for c in before["calls"] if "error" in c], before  # every call ran on fastmcp 2.14.7
    assert all(before["reads"]) and len(before["reads"]) == len(case.get("fastmcp_reads", [])), before
    assert _fastmcp2_generation(ported) == _fastmcp2_generation(before)


def test_the_interim_fix_answers_the_elicitation_in_both_eras(legacy_python: str, tmp_path: Path) -> None:
    case_dir = FIXTURES / "port" / "fastmcp2_confirm"
    case = {**load_toml(case_dir / "case.toml"), "fastmcp_elicit": {"value": True}}
    case["fastmcp_proof"] = [{"tool": "delete", "arguments": {"name": "a.txt"}}]
    before = _serve(legacy_python, case_dir / "before.py", case, None, tmp_path)
    assert before["calls"][0]["text"] == ["deleted a.txt"]
    for mode in ("legacy", None):
        assert _serve(sys.executable, case_dir / "after_interim.py", case, mode, tmp_path)["calls"] == before["calls"]
    # ported without the interim fix, the 2026-07-28 client cannot be asked
    modern = _serve(sys.executable, case_dir / "after_param.py", case, None, tmp_path)["calls"][0]
    assert modern["is_error"] and "unavailable on 2026-07-28" in modern["text"][0]


CASES3 = [p for p in CASES if p.name.startswith("fastmcp3")]  # fastmcp 3-style code (it also runs on 2.14)


@pytest.mark.parametrize("case_dir", CASES3, ids=[p.name for p in CASES3])
def test_ported_server_serves_like_it_did_on_fastmcp3(case_dir: Path, fastmcp3_python: str, tmp_path: Path) -> None:
    """On fastmcp 3.4.11 the fixtures answer exactly as ported on 4.2.3, without normalising."""
    case = load_toml(case_dir / "case.toml")
    after = case_dir / ("after_interim.py" if (case_dir / "after_interim.py").exists() else "after_param.py")
    before = _serve(fastmcp3_python, case_dir / "before.py", case, None, tmp_path)
    assert _serve(sys.executable, after, case, "legacy", tmp_path) == before


def test_tasks_and_transport_keywords(tmp_path: Path) -> None:
    _write(
        tmp_path,
        """\
from datetime import timedelta

from fastmcp import FastMCP
from fastmcp.client.transports import StreamableHttpTransport

mcp = FastMCP("jobs")
a = StreamableHttpTransport("http://x/mcp", sse_read_timeout=timedelta(seconds=5))
b = StreamableHttpTransport("http://x/mcp", None, None, 30)


@mcp.tool(task=True)
async def slow() -> str:
    return "done"


@mcp.tool(task=False)
async def quick() -> str:
    return "done"
""",
    )
    found = [(f["rule"], f["line"], f["column"]) for f in _check(tmp_path, "--target-sdk", "fastmcp4")]
    assert found == [("MCP514", 7, 45), ("MCP514", 8, 57), ("MCP513", 11, 11)]
    path = tmp_path / "server.py"
    path.write_text(path.read_text().replace('mcp = FastMCP("jobs")', 'mcp = FastMCP("jobs")\nmcp.add_extension(EXT)'))
    assert ("MCP513", 12, 11) not in [
        (f["rule"], f["line"], f["column"]) for f in _check(tmp_path, "--target-sdk", "fastmcp4")
    ]


SAMPLER = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("summarizer")


@mcp.tool
async def summarize(text: str, ctx: Context) -> str:
    result = await ctx.sample(f"Summarize: {text}")
    return result.text or ""


@mcp.tool
async def where(ctx: Context) -> str:
    roots = await ctx.session.list_roots()
    return str(roots.roots[0].uri)
"""


def test_a_call_of_a_context_method_fastmcp4_removed_blocks_the_port(tmp_path: Path) -> None:
    """``ctx.sample`` stays the sampling rule's finding (no second one from the port), but a port
    that left it would fail on every era: nothing is written. The session's ``list_roots`` (kept
    on fastmcp 4) does not block."""
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    server = _write(tmp_path, SAMPLER)
    # MCP520 (advisory: the tools' listing changes) does not block
    assert {f["rule"] for f in _check(tmp_path, "--target-sdk", "fastmcp4")} == {"MCP201", "MCP101", "MCP520"}
    res = _fix(tmp_path, "--target-sdk", "fastmcp4", "--strategy", "interim")
    assert server.read_text() == SAMPLER
    (err,) = res.json["errors"]
    assert re.match(
        r"blocks the port to fastmcp 4: MCP201 at line \d+: `ctx.sample` does not exist in fastmcp 4", err["message"]
    )
    server.write_text(SAMPLER.replace('await ctx.sample(f"Summarize: {text}")', "None"), encoding="utf-8")
    assert _fix(tmp_path, "--target-sdk", "fastmcp4", "--strategy", "interim").json["errors"] == []


def test_a_subclass_of_mcp_error_is_left_manual(tmp_path: Path) -> None:
    _write(
        tmp_path,
        """\
from fastmcp import FastMCP
from fastmcp.exceptions import McpError

mcp = FastMCP("demo")


class QuotaError(McpError):
    pass
""",
    )
    (f,) = _check(tmp_path, "--target-sdk", "fastmcp4")
    assert (f["rule"], f["line"], f["column"]) == ("MCP515", 7, 18)
    assert f["manual"].startswith("construct the subclass from `code=`")


def test_mount_in_the_fastmcp_2_8_argument_order(tmp_path: Path) -> None:
    """fastmcp 2.2–2.8 took ``mount(prefix, server)`` (a literal, or a server second)."""
    path = _write(
        tmp_path,
        """\
from fastmcp import FastMCP

mcp = FastMCP("main")
sub = FastMCP("sub")
name = "api"
mcp.mount(name, sub)
mcp.mount(f"{name}2", sub)
mcp.mount(sub, name)
mcp.mount("x", sub, tool_separator="-")
""",
    )
    found = {f["line"]: f for f in _check(tmp_path, "--target-sdk", "fastmcp4")}
    assert sorted(found) == [6, 7, 9]
    assert "joins a namespace and a name with `_`" in found[9]["manual"]
    path.write_text(path.read_text().replace('mcp.mount("x", sub, tool_separator="-")\n', ""))
    _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert path.read_text().splitlines()[5:] == [
        "mcp.mount(sub, namespace=name)",
        'mcp.mount(sub, namespace=f"{name}2")',
        "mcp.mount(sub, name)",
    ]


@pytest.mark.parametrize(
    "requirement,below",
    [
        ("pydantic>=2.10,<2.12", True),
        ("pydantic==2.11.*", True),
        ("pydantic~=2.11.0", True),
        ("pydantic<=2.11.9", True),
        ("fastapi==0.115.12", True),
        ("fastapi~=0.128.0", True),
        ("starlette<0.47", True),
        ("mcp>=1.9,<2", True),
        ("mcp>=1.9", False),
        ("pydantic~=2.11", False),
        ("pydantic!=2.12.0,>=2", False),
        ("pydantic==2.13.4", False),
        ("fastapi==0.136.3", False),
        ("starlette==1.3.1", False),
        ("pydantic", False),
    ],
)
def test_a_pin_is_below_a_floor_only_when_it_admits_no_release_at_or_above_it(requirement: str, below: bool) -> None:
    from mcpmigrate.detectors.port_environment import _below_floor

    assert (_below_floor(requirement) is not None) is below


def test_pins_of_a_project_without_fastmcp_are_not_this_ports(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["mcp>=1.9", "fastapi~=0.128.0"]\n', encoding="utf-8"
    )
    _write(tmp_path, "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('x')\n")
    assert [(f["rule"], f["line"]) for f in _check(tmp_path, "--target-sdk", "fastmcp4")] == [("MCP511", 1)]


def test_every_removal_fastmcps_own_upgrade_test_pins_is_found(tmp_path: Path) -> None:
    """The modules and names fastmcp 4.2's tests/test_upgrade_from_v3.py asserts are gone."""
    modules = [
        "fastmcp.server.proxy",
        "fastmcp.server.openapi",
        "fastmcp.experimental.server.openapi",
        "fastmcp.experimental.utilities.openapi",
        "fastmcp.server.apps",
        "fastmcp.server.app",
        "fastmcp.tools.tool",
        "fastmcp.resources.resource",
        "fastmcp.prompts.prompt",
        "fastmcp.experimental.sampling",
        "fastmcp.experimental.sampling.handlers",
        "fastmcp.server.auth.authorization",
    ]
    names = [
        ("fastmcp.server.middleware.tool_injection", "PromptToolMiddleware"),
        ("fastmcp.server.middleware.tool_injection", "ResourceToolMiddleware"),
        ("fastmcp.server.middleware.caching", "CachableToolResult"),
        ("fastmcp.server.middleware.caching", "CachablePromptResult"),
        ("fastmcp.server.providers.skills", "SkillsProvider"),
        ("fastmcp.server.providers", "SkillsProvider"),
    ]
    lines = [f"import {m}" for m in modules] + [f"from {m} import {n}" for m, n in names]
    _write(tmp_path, "\n".join(lines) + "\n")
    found = sorted(f["line"] for f in _check(tmp_path, "--target-sdk", "fastmcp4") if f["rule"] == "MCP511")
    assert found == list(range(1, len(lines) + 1))


def test_transport_settings_move_to_the_one_http_run_or_stay_manual(tmp_path: Path) -> None:
    code = """\
from fastmcp import FastMCP

mcp = FastMCP("demo", port=9000, streamable_http_path="/api", json_response=True)


def main():
    mcp.run(transport="http", log_level="info")
"""
    path = _write(tmp_path, code)
    found = _check(tmp_path, "--target-sdk", "fastmcp4")
    assert {f["fix"]["safety"] for f in found} == {"unsafe"} and len(found) == 3
    assert "`fastmcp run --transport http`" in found[0]["fix"]["description"]
    _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert path.read_text() == code.replace(
        'FastMCP("demo", port=9000, streamable_http_path="/api", json_response=True)', 'FastMCP("demo")'
    ).replace(
        '    mcp.run(transport="http", log_level="info")\n',
        '    mcp.run(\n        transport="http", log_level="info", port=9000, path="/api", json_response=True\n    )\n',
    )
    for other in (
        'mcp.run(transport="stdio")',
        "mcp.run()",
        'mcp.run(transport="http", port=1)',
        'mcp.run("sse")\napp = mcp.http_app()',
    ):
        path.write_text(code.replace('mcp.run(transport="http", log_level="info")', other))
        # the port's findings only: `run("sse")` is also MCP602's (the deprecated transport), with its own fix
        port = [f for f in _check(tmp_path, "--target-sdk", "fastmcp4") if f["rule"].startswith("MCP51")]
        assert {f["manual"] is not None for f in port} == {True}, other


HTTP_SERVER = """\
import sys

from fastmcp import FastMCP

mcp = FastMCP("web", port=int(sys.argv[1]), streamable_http_path="/api/")


@mcp.tool
def ping() -> str:
    return "pong"


if __name__ == "__main__":
    mcp.run(transport="http")
"""
HTTP_CLIENT = (
    LEAVE
    + """\
import asyncio, json, sys, warnings
warnings.simplefilter("ignore")
from fastmcp import Client


async def main():
    for _ in range(150):
        try:
            async with Client(f"http://127.0.0.1:{sys.argv[1]}/api/") as c:
                tools = [t.name for t in await c.list_tools()]
                print(json.dumps([tools, (await c.call_tool("ping", {})).data]))
                return
        except Exception:
            await asyncio.sleep(0.2)
    print(json.dumps(None))


asyncio.run(main())
leave()
"""
)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _served_over_http(python: str, server: Path, tmp_path: Path) -> object:
    port = _free_port()
    client = tmp_path / "http_client.py"
    client.write_text(HTTP_CLIENT, encoding="utf-8")
    proc = subprocess.Popen([python, str(server), str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        out = subprocess.run([sys.executable, str(client), str(port)], capture_output=True, text=True, timeout=60)
        return json_answer(out, "http_client.py", last_line=True)
    finally:
        proc.kill()
        proc.wait()


def test_moved_transport_settings_serve_http_where_they_did(legacy_python: str, tmp_path: Path) -> None:
    """fastmcp 2.14 serves ``FastMCP(port=…, streamable_http_path=…)`` + ``run(transport="http")`` at
    that port and path; the port's ``run(transport="http", port=…, path=…)`` on fastmcp 4.2 too."""
    before = _write(tmp_path, HTTP_SERVER, "before.py")
    assert _served_over_http(legacy_python, before, tmp_path) == [["ping"], "pong"]
    _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert 'mcp.run(transport="http", port=int(sys.argv[1]), path="/api/")' in before.read_text()
    assert _served_over_http(sys.executable, before, tmp_path) == [["ping"], "pong"]


def test_middleware_state_through_fastmcp_context(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """\
from fastmcp.server.middleware import Middleware, MiddlewareContext


class Tag(Middleware):
    async def on_call_tool(self, context: MiddlewareContext, call_next):
        context.fastmcp_context.set_state("caller", "cli")
        return await call_next(context)
""",
    )
    _fix(tmp_path, "--target-sdk", "fastmcp4")
    assert '        await context.fastmcp_context.set_state("caller", "cli", serializable=False)\n' in path.read_text()


def test_a_prompt_returning_dicts_is_left_manual_with_what_clients_saw(tmp_path: Path) -> None:
    _write(
        tmp_path,
        """\
from fastmcp import FastMCP

mcp = FastMCP("p")


@mcp.prompt
def ask(topic: str):
    def helper():
        return {"not": "a prompt"}

    return [{"role": "user", "content": f"Tell me about {topic}"}, {"role": "assistant", "content": "Sure."}]


@mcp.prompt(name="one")
def one(topic: str) -> str:
    return f"Only {topic}"
""",
    )
    (f,) = _check(tmp_path, "--target-sdk", "fastmcp4")
    assert (f["rule"], f["line"]) == ("MCP518", 11)
    assert "sent each dict as its JSON text" in f["manual"]


def test_a_server_built_in_another_module_of_the_project(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "app" / "server.py").write_text(
        'from fastmcp import FastMCP\n\nmcp = FastMCP("app")\n', encoding="utf-8"
    )
    (tmp_path / "app" / "other.py").write_text(
        'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("sdk")\n', encoding="utf-8"
    )
    (tmp_path / "app" / "tools.py").write_text(
        "from fastmcp import FastMCP\n\nfrom .server import mcp\nfrom app.other import mcp as sdk\n\n"
        'mcp.mount(FastMCP("s"), prefix="s")\nsdk.remove_tool("x")\n',
        encoding="utf-8",
    )
    found = [(f["path"], f["rule"], f["line"]) for f in _check(tmp_path, "--target-sdk", "fastmcp4")]
    assert found == [("app/other.py", "MCP511", 1), ("app/tools.py", "MCP512", 6)]  # FastMCP 1.0's import only

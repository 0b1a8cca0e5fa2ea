"""A port that never silently changes what clients get (issue 24).

Each test runs ``fix --target-sdk`` on the shape of a field case (``port-*``: real servers on mcp
1.x or fastmcp 2.x), asserts the exact rewritten code, that a second ``fix`` changes nothing, and —
where the port changes behaviour — serves the original on its SDK (mcp 1.27 / fastmcp 2.14.7, the
legacy venv) and the port on the target (mcp 2.3 / fastmcp 4.2.3) over a legacy and a 2026-07-28
connection, comparing what the client receives.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import CliResult, cli
from tests.proof import run_proof


def _project(where: Path, source: str, pin: str, name: str = "server.py") -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "pyproject.toml").write_text(
        f'[project]\nname = "case"\nversion = "0"\ndependencies = ["{pin}"]\n', encoding="utf-8"
    )
    target = where / name
    target.write_text(source, encoding="utf-8")
    return target


def _pair(tmp_path: Path, source: str, pin: str, *fix_args: str) -> tuple[Path, Path, CliResult]:
    """The original in ``before/``, the same ported with ``fix *fix_args`` in ``after/``, and the run."""
    before = _project(tmp_path / "before", source, pin)
    after = _project(tmp_path / "after", source, pin)
    return before, after, _fix(tmp_path / "after", *fix_args)


def _fix(where: Path, *args: str):
    res = cli(["fix", *args, "--output-format", "json", "."], where)
    assert res.exception is None, str(res)
    return res


def _texts(answer: dict) -> list[dict]:
    return [{k: c.get(k) for k in ("error", "is_error", "text")} for c in answer["calls"]]


# -- 1. what a fix makes reachable is checked in the same run (port-01) ----------------------------
# haris-musa/excel-mcp-server's shape: mcp 1.x's FastMCP with transport settings on the constructor.
# The MCP511 rewrite makes it fastmcp 4's FastMCP, which refuses them (`TypeError` at import):
# MCP514 is judged on the rewritten constructor in the same run.
SHEETS = """\
import os

from mcp.server.fastmcp import FastMCP

sheets = FastMCP(
    "sheet-helper",
    host=os.environ.get("SHEETS_HOST", "0.0.0.0"),
    port=int(os.environ.get("SHEETS_PORT", "8123")),
    instructions="Small spreadsheet helper",
)


@sheets.tool()
def column_letter(index: int) -> str:
    \"\"\"Spreadsheet column letter for a 1-based index.\"\"\"
    out = ""
    while index > 0:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


if __name__ == "__main__":
    sheets.run(transport=TRANSPORT)
"""
FASTMCP4 = ("--target-sdk", "fastmcp4", "--strategy", "interim", "--unsafe-fixes")


def test_a_constructor_the_import_rewrite_makes_fastmcp4_is_fixed_in_the_same_run(tmp_path: Path) -> None:
    target = _project(tmp_path, SHEETS.replace("TRANSPORT", '"sse"'), "fastmcp>=2.0,<3")
    res = _fix(tmp_path, *FASTMCP4)
    # left: MCP520, advisory (the project pins fastmcp 2: the tool's listing changes on fastmcp 4)
    assert [(f["rule"], f["line"]) for f in res.json["findings"]] == [("MCP520", 12)], str(res)  # in the written file
    assert res.json["errors"] == [], str(res)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == [
        ("MCP511", 3),
        ("MCP514", 7),
        ("MCP514", 8),
        ("MCP602", 24),  # the interim strategy's SSE → Streamable HTTP
    ]
    ported = target.read_text(encoding="utf-8")
    assert ported == SHEETS.replace("from mcp.server.fastmcp import", "from fastmcp import").replace(
        """    host=os.environ.get("SHEETS_HOST", "0.0.0.0"),
    port=int(os.environ.get("SHEETS_PORT", "8123")),
""",
        "",
    ).replace(
        "sheets.run(transport=TRANSPORT)",
        "sheets.run(\n"
        '        transport="streamable-http",\n'
        '        host=os.environ.get("SHEETS_HOST", "0.0.0.0"),\n'
        '        port=int(os.environ.get("SHEETS_PORT", "8123")),\n'
        "    )",
    )
    again = _fix(tmp_path, *FASTMCP4)  # idempotent: the second run finds and changes nothing
    assert again.json["fixed"] == [] and again.json["findings"] == [], str(again)  # pinned to fastmcp 4 now
    assert target.read_text(encoding="utf-8") == ported


def test_a_constructor_fastmcp4_refuses_blocks_the_port_in_the_same_run(tmp_path: Path) -> None:
    """port-01 itself: `run()` picks stdio or SSE at run time, and fastmcp 4's stdio `run()` takes
    no `host`: MCP514 is left for a human and the port writes nothing (it never exits 0 with a
    module that raises `TypeError` at import)."""
    source = SHEETS.replace("TRANSPORT", '"sse" if "--sse" in sys.argv else "stdio"').replace(
        "import os\n", "import os\nimport sys\n"
    )
    target = _project(tmp_path, source, "fastmcp>=2.0,<3")
    res = _fix(tmp_path, *FASTMCP4)
    assert res.exit_code == 1, str(res)
    assert target.read_text(encoding="utf-8") == source
    assert "fastmcp>=2.0,<3" in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    left = sorted((f["rule"], f["line"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP514")
    assert left == [
        ("MCP514", 8, "pass `host` to `run()`/`run_http_async()`, or set FASTMCP_HOST"),
        ("MCP514", 9, "pass `port` to `run()`/`run_http_async()`, or set FASTMCP_PORT"),
    ]


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_same_run_port_serves_the_same_tools(
    tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str
) -> None:
    before, after, res = _pair(tmp_path, SHEETS.replace("TRANSPORT", '"sse"'), "fastmcp>=2.0,<3", *FASTMCP4)
    assert res.json["errors"] == [] and {f["rule"] for f in res.json["findings"]} == {"MCP520"}
    calls = [{"tool": "column_letter", "arguments": {"index": 28}}]
    old = run_proof(legacy_python, before, "sheets", "legacy", [], calls)
    new = run_proof(mcp2_python, after, "sheets", mode, [], calls)
    assert _texts(new) == _texts(old) == [{"error": None, "is_error": False, "text": ["AB"]}]


# -- 2. tool errors raised through a decorator or another module keep their text (port-04) -------
# johnhuang316/code-index-mcp's shape: every tool under an error-handling decorator that re-raises a
# project exception; tumf/mcp-text-editor's: tools that call handlers of another module. mcp 1.27
# sent `Error executing tool <name>: <message>`, mcp 2.3 sends only `Error executing tool <name>`.
ERRORS = """\
import functools


class ToolFailure(RuntimeError):
    pass


def guarded(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ToolFailure:
            raise
        except Exception as exc:
            raise ToolFailure(f"Failed: {exc}") from exc

    return wrapper
"""
HANDLERS = """\
from pathlib import Path


def first_line(path: str) -> str:
    lines = Path(path).read_text().splitlines()
    if not lines:
        raise ValueError(f"{path} is empty")
    return lines[0]
"""
HEADS = """\
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mcp.server.fastmcp import FastMCP  # noqa: E402

from errors import guarded  # noqa: E402
from handlers import first_line  # noqa: E402

srv = FastMCP("heads")


@srv.tool()
@guarded
def read_head(path: str) -> str:
    \"\"\"First line of a text file.\"\"\"
    return first_line(path)


@srv.tool()
async def head_async(path: str) -> str:
    \"\"\"First line, read by the handlers module.\"\"\"
    return first_line(path)
"""
HEADS_PORTED = """\
import os
import sys
from functools import wraps
from inspect import iscoroutinefunction

from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import UrlElicitationRequiredError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mcp.server.mcpserver import MCPServer  # noqa: E402

from errors import guarded  # noqa: E402
from handlers import first_line  # noqa: E402

srv = MCPServer("heads")


def keep_error_text(fn):
    \"\"\"mcp 1.x's FastMCP sent the client the text of any exception of a tool; mcp 2.x sends it only
    for `ToolError`: raise the others as `ToolError(str(exc))` (mcpmigrate MCP510).\"\"\"
    if iscoroutinefunction(fn):

        @wraps(fn)
        async def run_async(*args, **kwargs):
            try:
                return await fn(*args, **kwargs)
            except (ToolError, UrlElicitationRequiredError):
                raise
            except Exception as exc:
                raise ToolError(str(exc)) from exc

        return run_async

    @wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (ToolError, UrlElicitationRequiredError):
            raise
        except Exception as exc:
            raise ToolError(str(exc)) from exc

    return run


@srv.tool()
@keep_error_text
@guarded
def read_head(path: str) -> str:
    \"\"\"First line of a text file.\"\"\"
    return first_line(path)


@srv.tool()
async def head_async(path: str) -> str:
    \"\"\"First line, read by the handlers module.\"\"\"
    try:
        return first_line(path)
    except (ToolError, UrlElicitationRequiredError):
        raise
    except Exception as exc:
        raise ToolError(str(exc)) from exc
"""


def _heads(where: Path, server: str = HEADS) -> Path:
    target = _project(where, server, "mcp>=1.0,<2")
    (where / "errors.py").write_text(ERRORS, encoding="utf-8")
    (where / "handlers.py").write_text(HANDLERS, encoding="utf-8")
    return target


def test_raises_through_a_decorator_and_another_module_are_found(tmp_path: Path) -> None:
    _heads(tmp_path)
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP510", "--output-format", "json", "server.py"], tmp_path)
    found = [(f["line"], f["message"].split(";")[0], f["fix"]["safety"]) for f in res.json["findings"]]
    assert found == [
        (
            16,
            "Tool `read_head` raises what the decorator `guarded` from `errors` raises (line 15), "
            "what `first_line` from `handlers` raises (line 18)",
            "safe",
        ),
        (22, "Tool `head_async` raises what `first_line` from `handlers` raises (line 24)", "safe"),
    ]


def test_the_port_wraps_below_the_decorator_and_around_the_body(tmp_path: Path) -> None:
    target = _heads(tmp_path)
    res = _fix(tmp_path, "--target-sdk", "mcp2")
    assert res.exit_code == 0 and res.json["findings"] == [], str(res)
    assert target.read_text(encoding="utf-8") == HEADS_PORTED
    again = _fix(tmp_path, "--target-sdk", "mcp2")
    assert again.json["fixed"] == [] and again.json["findings"] == [], str(again)
    assert target.read_text(encoding="utf-8") == HEADS_PORTED


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_client_reads_the_same_error_text(tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str) -> None:
    before, after = _heads(tmp_path / "before"), _heads(tmp_path / "after")
    assert _fix(tmp_path / "after", "--target-sdk", "mcp2").exit_code == 0
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "one.txt").write_text("first\nsecond\n", encoding="utf-8")
    missing, empty, one = (str(tmp_path / n) for n in ("missing.txt", "empty.txt", "one.txt"))
    calls = [
        {"tool": tool, "arguments": {"path": p}} for tool in ("read_head", "head_async") for p in (missing, empty, one)
    ]
    old = _texts(run_proof(legacy_python, before, "srv", "legacy", [], calls))
    new = _texts(run_proof(mcp2_python, after, "srv", mode, [], calls))
    assert new == old
    assert old[0] == {
        "error": None,
        "is_error": True,
        "text": [f"Error executing tool read_head: Failed: [Errno 2] No such file or directory: '{missing}'"],
    }
    assert old[1]["text"] == [f"Error executing tool read_head: Failed: {empty} is empty"]
    assert old[4]["text"] == [f"Error executing tool head_async: {empty} is empty"]
    assert old[5] == {"error": None, "is_error": False, "text": ["first"]}


# -- 2b. resource errors keep their text ----------------------------------------------------------
# mcp 1.27 sent `Error reading resource <uri>: <message>` (a template: `Error creating resource from
# template: ` twice before it) for any exception of a resource function; mcp 2.3 sends only
# `Error reading resource <uri>` / `Error creating resource from template <uri>`.
DOCS = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ResourceError

docs = FastMCP("docs")
DOCS = {"intro": "hello"}


@docs.resource("doc://{name}")
def read_doc(name: str) -> str:
    if name == "secret":
        raise ResourceError("not for you")
    return DOCS[name]


@docs.resource("config://main")
async def config() -> str:
    with open("/nonexistent/config.toml") as handle:
        return handle.read()
"""
DOCS_PORTED = """\
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError

docs = MCPServer("docs")
DOCS = {"intro": "hello"}


@docs.resource("doc://{name}")
def read_doc(name: str) -> str:
    try:
        if name == "secret":
            raise ResourceError("not for you")
        return DOCS[name]
    except Exception as exc:
        raise ResourceError(f"Error creating resource from template: Error creating resource from template: {exc}") from exc


@docs.resource("config://main")
async def config() -> str:
    try:
        with open("/nonexistent/config.toml") as handle:
            return handle.read()
    except Exception as exc:
        raise ResourceError(f"Error reading resource config://main: {exc}") from exc
"""


def test_resource_errors_are_found_and_wrapped(tmp_path: Path) -> None:
    target = _project(tmp_path, DOCS, "mcp>=1.0,<2")
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP510", "--output-format", "json", "."], tmp_path)
    assert [(f["line"], f["message"].split(";")[0]) for f in res.json["findings"]] == [
        (9, "Resource `doc://{name}` raises `ResourceError` (line 11)"),  # 1.27 put its prefix before that too
        (16, "Resource `config://main` raises `OSError` (line 17)"),
    ]
    res = _fix(tmp_path, "--target-sdk", "mcp2")
    assert res.exit_code == 0 and res.json["findings"] == [], str(res)
    assert target.read_text(encoding="utf-8") == DOCS_PORTED
    assert _fix(tmp_path, "--target-sdk", "mcp2").json["fixed"] == []


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_client_reads_the_same_resource_error(
    tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str
) -> None:
    from tests.test_port_proof import READ_V1, READ_V2, _read

    before, after, res = _pair(tmp_path, DOCS, "mcp>=1.0,<2", "--target-sdk", "mcp2")
    assert res.exit_code == 0
    case = {"server": "docs", "resources": ["doc://intro", "doc://secret", "doc://missing", "config://main"]}
    old = _read(legacy_python, READ_V1, before, case)[1]
    new = _read(mcp2_python, READ_V2, after, case, mode)[1]
    assert new == old
    assert old[1:] == [
        "error: Error creating resource from template: Error creating resource from template: not for you",
        "error: Error creating resource from template: Error creating resource from template: 'missing'",
        "error: Error reading resource config://main: [Errno 2] No such file or directory: '/nonexistent/config.toml'",
    ]


# -- 3. what the port itself must rewrite: settings, subclasses, renamed fields -------------------
# crystaldba/postgres-mcp's shape (reliability/user-01.sh): transport settings written on
# `server.settings` right before the SSE start. mcp 2.3's `MCPServer.settings` has no such field.
WEATHER = """\
import argparse
import asyncio

from mcp.server.fastmcp import FastMCP

app = FastMCP("weather-box")


@app.tool()
def forecast(city: str) -> str:
    \"\"\"A canned forecast.\"\"\"
    return f"sunny in {city}"


async def serve(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--transport", default="stdio")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--listen-port", type=int, default=9100)
    args = parser.parse_args(argv)
    if args.transport == "sse":
        app.settings.host = args.bind
        app.settings.port = args.listen_port
        await app.run_sse_async()
    else:
        await app.run_stdio_async()
"""
START = """\
import asyncio, importlib.util, socket, sys
spec = importlib.util.spec_from_file_location("server", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
sock = socket.socket(); sock.bind(("127.0.0.1", 0)); free = sock.getsockname()[1]; sock.close()
try:
    asyncio.run(asyncio.wait_for(m.serve(["--transport", "sse", "--bind", "127.0.0.1", "--listen-port", str(free)]), 3))
except (asyncio.TimeoutError, TimeoutError):
    print("started")
except Exception as e:
    print(f"{type(e).__name__}: {e}")
"""


def test_settings_written_before_the_start_move_to_it(tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    import subprocess

    target = _project(tmp_path / "after", WEATHER, "mcp>=1.20")
    before = _project(tmp_path / "before", WEATHER, "mcp>=1.20")
    tmp_path = tmp_path / "after"
    found = cli(["check", "--target-sdk", "mcp2", "--select", "MCP503", "--output-format", "json", "."], tmp_path)
    assert [(f["line"], f["message"].split(" (read")[0]) for f in found.json["findings"]] == [
        (
            22,
            "`app.settings.host` is gone on mcp 2.x: `MCPServer.settings` has no transport settings, so this write "
            'raises `ValueError: "Settings" object has no field "host"`',
        ),
        (
            23,
            "`app.settings.port` is gone on mcp 2.x: `MCPServer.settings` has no transport settings, so this write "
            'raises `ValueError: "Settings" object has no field "port"`',
        ),
    ]
    res = _fix(tmp_path, "--target-sdk", "mcp2")
    assert [f["rule"] for f in res.json["findings"]] == ["MCP602"], str(res)  # SSE itself: not the port's
    assert target.read_text(encoding="utf-8") == WEATHER.replace("FastMCP", "MCPServer").replace(
        "from mcp.server.fastmcp import MCPServer",
        "from mcp.server.mcpserver import MCPServer\nfrom mcp.server.transport_security import TransportSecuritySettings",
    ).replace(
        """        app.settings.host = args.bind
        app.settings.port = args.listen_port
        await app.run_sse_async()""",
        """        await app.run_sse_async(
            host=args.bind,
            transport_security=TransportSecuritySettings(
                enable_dns_rebinding_protection=True,
                allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
                allowed_origins=[
                    "http://127.0.0.1:*",
                    "http://localhost:*",
                    "http://[::1]:*",
                ],
            ),
            port=args.listen_port,
        )""",
    )
    assert _fix(tmp_path, "--target-sdk", "mcp2").json["fixed"] == []
    started = [
        subprocess.run([py, "-c", START, str(f)], capture_output=True, text=True, timeout=120).stdout.strip()
        for py, f in ((legacy_python, before), (mcp2_python, target))
    ]
    assert started == ["started", "started"]


PORT05 = """\
import sys

from mcp.server.fastmcp import FastMCP

hub = FastMCP("echo-hub")


@hub.tool()
def echo(text: str) -> str:
    return text


def main():
    if "--http" in sys.argv:
        hub.settings.host = "0.0.0.0"
        hub.settings.port = 8765
        app = hub.streamable_http_app()
        print("serving", f"{hub.settings.streamable_http_path}", hub.settings.sse_path, file=sys.stderr)
        return app
"""
# Serves the app ``main()`` builds in-process and asks it `initialize` with a local Host header and
# with a foreign one: mcp 1.27's constructor fixed DNS-rebinding protection for 127.0.0.1 (the
# later `settings.host` write never reached it), 2.x's factory applies it from its own default.
SERVE_APP = """\
import importlib.util, sys
from starlette.testclient import TestClient
spec = importlib.util.spec_from_file_location("server", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
sys.argv = ["server", "--http"]
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}
headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
with TestClient(m.main()) as c:
    for host in ("127.0.0.1:8765", "example.com:8765"):
        r = c.post("/mcp", headers={**headers, "Host": host}, json=init)
        print(host, r.status_code, "echo-hub" in r.text)
"""


def test_settings_no_start_reads_go_and_unwritten_paths_read_their_default(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """port-05 (nickclyde/duckduckgo-mcp-server's `main`): mcp 1.27 reads `settings.host`/`port` only
    in `run_sse_async`/`run_streamable_http_async`, never in the app factories, so the writes reach
    nothing and go; the never-written path settings read 1.x's defaults, which 2.x's factories use."""
    import subprocess

    before, target, res = _pair(tmp_path, PORT05, "mcp>=1.0", "--target-sdk", "mcp2")
    assert res.exit_code == 0, str(res)
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"] if f["rule"] == "MCP503") == [
        ("MCP503", 15),
        ("MCP503", 16),
        ("MCP503", 18),
        ("MCP503", 18),
    ]
    assert target.read_text(encoding="utf-8") == PORT05.replace(
        "from mcp.server.fastmcp import FastMCP", "from mcp.server.mcpserver import MCPServer"
    ).replace('hub = FastMCP("echo-hub")', 'hub = MCPServer("echo-hub")').replace(
        """        hub.settings.host = "0.0.0.0"
        hub.settings.port = 8765
""",
        "",
    ).replace('f"{hub.settings.streamable_http_path}", hub.settings.sse_path,', 'f"/mcp", "/sse",')
    assert _fix(tmp_path / "after", "--target-sdk", "mcp2").json["fixed"] == []
    served = [
        subprocess.run([py, "-c", SERVE_APP, str(f)], capture_output=True, text=True, timeout=120)
        for py, f in ((legacy_python, before), (mcp2_python, target))
    ]
    assert [(p.stdout, [line for line in p.stderr.splitlines() if line.startswith("serving")]) for p in served] == [
        ("127.0.0.1:8765 200 True\nexample.com:8765 421 False\n", ["serving /mcp /sse"])
    ] * 2


# code-index-mcp's shape: the written settings are read back for uvicorn, and one write is
# conditional; deleting them or moving them to a start would change what uvicorn binds.
READ_BACK = """\
import os

import uvicorn
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("indexer")


def main(port: int) -> None:
    mcp.settings.port = port
    if os.path.exists("/.dockerenv"):
        mcp.settings.host = "0.0.0.0"
    app = mcp.streamable_http_app()
    uvicorn.run(app, host=mcp.settings.host, port=mcp.settings.port)
"""


def test_settings_read_back_stay_manual_with_the_read(tmp_path: Path) -> None:
    target = _project(tmp_path, READ_BACK, "mcp>=1.0")
    res = _fix(tmp_path, "--target-sdk", "mcp2")
    assert res.exit_code == 1 and target.read_text(encoding="utf-8") == READ_BACK
    left = {(f["line"], f["manual"].split(" (read")[0]) for f in res.json["findings"] if f["rule"] == "MCP503"}
    assert left == {
        (
            10,
            "`mcp.settings.port` is gone on mcp 2.x: pass `port=` to the server's `run(transport=…)`, "
            "`run_sse_async()`/`run_streamable_http_async()` or app factory call; the write cannot simply go: "
            "`mcp.settings.port` is read back at line 14",
        ),
        (
            12,
            "`mcp.settings.host` is gone on mcp 2.x: pass `host=` to the server's `run(transport=…)`, "
            "`run_sse_async()`/`run_streamable_http_async()` or app factory call; the write cannot simply go: "
            "`mcp.settings.host` is read back at line 14",
        ),
        (
            14,
            "`mcp.settings.host` is gone on mcp 2.x: this read gets what line 12 wrote (where no write ran, the "
            "constructor's value): mcp 2.x's `MCPServer` keeps no such setting, so hold the value in a variable "
            "where it is written and read that",
        ),
        (
            14,
            "`mcp.settings.port` is gone on mcp 2.x: this read gets what line 10 wrote (where no write ran, the "
            "constructor's value): mcp 2.x's `MCPServer` keeps no such setting, so hold the value in a variable "
            "where it is written and read that",
        ),
    }


# tumf/mcp-text-editor's shape (port-03): a FastMCP subclass lists its tools through the SDK's own
# `list_tools()` and reads `tool.inputSchema` off each (an `mcp.types.Tool`, snake_case on 2.x).
PLAIN = """\
from mcp.server.fastmcp import FastMCP
from mcp.types import Tool


def strip_titles(schema: dict) -> dict:
    return {k: v for k, v in schema.items() if k != "title"}


class PlainSchemaServer(FastMCP):
    async def list_tools(self) -> list[Tool]:
        listed = await super().list_tools()
        out = []
        for tool in listed:
            out.append(Tool(name=tool.name, description=tool.description, inputSchema=strip_titles(tool.inputSchema)))
        return out


app = PlainSchemaServer("plain-schema")


@app.tool()
def shout(word: str) -> str:
    \"\"\"Upper-case a word.\"\"\"
    return word.upper()
"""


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_a_subclass_reading_its_own_listing_is_ported(
    tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str
) -> None:
    before, after, res = _pair(tmp_path, PLAIN, "mcp>=1.0,<2", "--target-sdk", "mcp2")
    assert res.exit_code == 0, str(res)
    assert sorted((f["rule"], f["line"], f["column"]) for f in res.json["fixed"]) == [
        ("MCP501", 1, 1),
        ("MCP506", 14, 100),
    ]
    assert after.read_text(encoding="utf-8") == PLAIN.replace(
        "mcp.server.fastmcp import FastMCP", "mcp.server.mcpserver import MCPServer"
    ).replace("(FastMCP)", "(MCPServer)").replace(
        "            out.append(Tool(name=tool.name, description=tool.description, inputSchema=strip_titles(tool.inputSchema)))\n",
        "            out.append(\n"
        "                Tool(\n"
        "                    name=tool.name,\n"
        "                    description=tool.description,\n"
        "                    inputSchema=strip_titles(tool.input_schema),\n"
        "                )\n"
        "            )\n",
    )
    calls = [{"tool": "shout", "arguments": {"word": "hi"}}]
    old = run_proof(legacy_python, before, "app", "legacy", [], calls)
    new = run_proof(mcp2_python, after, "app", mode, [], calls)
    assert _texts(new) == _texts(old) == [{"error": None, "is_error": False, "text": ["HI"]}]
    schemas = [[t.get("inputSchema") or t.get("input_schema") for t in a["tools"]] for a in (old, new)]
    assert schemas[0] == schemas[1] and "title" not in schemas[0][0]


CLIENT_SIDE = """\
from mcp import ClientSession
from mcp.server.fastmcp import Context, FastMCP

relay = FastMCP("relay")


async def forward(session: ClientSession, name: str) -> str:
    result = await session.call_tool(name, {})
    if result.isError:
        return "upstream failed"
    return "ok"


@relay.tool()
async def who(ctx: Context) -> str:
    params = ctx.session.client_params
    try:
        return params.clientInfo.name
    except AttributeError:
        return "unknown"
"""


def test_client_info_and_upstream_results_are_renamed(tmp_path: Path) -> None:
    """`client_params.clientInfo` (inside `try`, 2.x's AttributeError silently lost the client name) and
    `result.isError` of an upstream `ClientSession` (2.x: AttributeError, or a failure read as success
    through `getattr`) are mcp 2.x's snake_case fields."""
    target = _project(tmp_path, CLIENT_SIDE, "mcp>=1.0,<2")
    res = cli(["check", "--target-sdk", "mcp2", "--select", "MCP506", "--output-format", "json", "."], tmp_path)
    assert [(f["line"], f["column"]) for f in res.json["findings"]] == [(9, 8), (18, 16)]
    _fix(tmp_path, "--target-sdk", "mcp2", "--select", "MCP501,MCP506")
    assert target.read_text(encoding="utf-8") == CLIENT_SIDE.replace("FastMCP", "MCPServer").replace(
        "mcp.server.fastmcp", "mcp.server.mcpserver"
    ).replace("result.isError", "result.is_error").replace("params.clientInfo", "params.client_info")


# -- 4. needless blocks ----------------------------------------------------------------------------
# ktanaka101/mcp-server-duckdb's shape (port-02): a low-level `read_resource` annotated `-> str`, which
# mcp 1.x's decorator sent as one text content (`text/plain`); the port used to refuse the whole
# server with that reason on every handler.
NOTES_SERVER = """\
import mcp.types as types
from mcp.server import Server
from pydantic import AnyUrl

box = Server("notes-box")
NOTES = {"notes://today": "water the plants"}


@box.list_resources()
async def on_list() -> list[types.Resource]:
    return [types.Resource(uri=AnyUrl(u), name=u.split("//")[1]) for u in NOTES]


@box.read_resource()
async def on_read(uri: AnyUrl) -> str:
    if str(uri) == "notes://bytes":
        return b"\\x00\\x01"
    return NOTES.get(str(uri), "no such note")


@box.list_tools()
async def on_tools() -> list[types.Tool]:
    return [types.Tool(name="count", description="Count notes", inputSchema={"type": "object", "properties": {}})]


@box.call_tool()
async def on_call(name: str, arguments: dict) -> list[types.TextContent]:
    if name != "count":
        raise ValueError(f"no tool {name}")
    return [types.TextContent(type="text", text=str(len(NOTES)))]
"""


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_read_resource_returning_str_is_ported(
    tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str
) -> None:
    from tests.test_port_proof import READ_V1, READ_V2, _read

    before, after, res = _pair(tmp_path, NOTES_SERVER, "mcp>=1.0,<2", "--target-sdk", "mcp2")
    assert res.exit_code == 0 and res.json["findings"] == [], str(res)
    ported = after.read_text(encoding="utf-8")
    assert (
        "        result = await on_read(uri)\n"
        "        if isinstance(result, (str, bytes)):\n"
        "            result = [ReadResourceContents(content=result)]\n"
        "        for item in result:\n"
    ) in ported
    assert "from mcp.server.lowlevel.helper_types import ReadResourceContents\n" in ported
    case = {"server": "box", "resources": ["notes://today", "notes://other", "notes://bytes"]}
    old = _read(legacy_python, READ_V1, before, case)
    new = _read(mcp2_python, READ_V2, after, case, mode)
    assert new == old
    assert old[1][0] == [{"mimeType": "text/plain", "text": "water the plants", "uri": "notes://today"}]
    assert old[1][2] == [{"blob": "AAE=", "mimeType": "application/octet-stream", "uri": "notes://bytes"}]
    calls = [{"tool": "count", "arguments": {}}, {"tool": "nope", "arguments": {}}]
    era = "modern" if mode != "legacy" else "legacy"
    assert _texts(run_proof(mcp2_python, after, "box", era, [], calls)) == _texts(
        run_proof(legacy_python, before, "box", "legacy", [], calls)
    )


# An exception of FastMCP 1.0 imported in a fastmcp 4 port: the same class in `fastmcp.exceptions`.
RAISES = """\
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("x")


@mcp.tool()
def positive(x: int) -> int:
    if x < 0:
        raise ToolError("negative")
    return x
"""


def test_a_fastmcp_1_exception_import_moves_to_fastmcp_exceptions(tmp_path: Path, mcp2_python: str) -> None:
    _b, after, res = _pair(tmp_path, RAISES, "mcp>=1.0,<2", *FASTMCP4)
    assert res.exit_code == 0 and res.json["findings"] == [], str(res)
    assert after.read_text(encoding="utf-8") == RAISES.replace(
        "from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.exceptions import",
        "from fastmcp import FastMCP\nfrom fastmcp.exceptions import",
    )
    (exc_fix,) = [f["fix"] for f in res.json["fixed"] if f["line"] == 2]
    assert exc_fix["safety"] == "safe" and exc_fix["description"].endswith("under `fastmcp.exceptions`")
    (server_fix,) = [f["fix"] for f in res.json["fixed"] if f["line"] == 1]
    # what the review names is what fastmcp 4 answers (FastMCP 1.0: `Error executing tool positive: negative`)
    assert "a `ToolError`: its message alone" in server_fix["description"]
    got = run_proof(mcp2_python, after, "mcp", "legacy", [], [{"tool": "positive", "arguments": {"x": -1}}])
    assert _texts(got) == [{"error": None, "is_error": True, "text": ["negative"]}]


# A test module using mcp 1.x's in-memory helper (gone on 2.x) in a way the port does not rewrite
# (a session method mcp 2.x's `Client` lacks; tests/test_port_threading.py has the rewrite) does
# not block the port of the served code: the server is ported and pinned, the test's lines are
# left with what to change.
ADDER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b
"""
ADDER_TEST = """\
from mcp.shared.memory import create_connected_server_and_client_session

from server import mcp


async def test_add():
    async with create_connected_server_and_client_session(mcp._mcp_server) as client:
        assert client.get_server_capabilities().tools is not None
        result = await client.call_tool("add", {"a": 1, "b": 2})
        assert result.content[0].text == "3"
"""


@pytest.mark.parametrize("where", ["tests/test_server.py", "examples/client.py", "test_server.py"])
def test_a_test_module_or_an_example_does_not_block_the_served_code(tmp_path: Path, where: str) -> None:
    target = _project(tmp_path, ADDER, "mcp>=1.0,<2")
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_text(ADDER_TEST, encoding="utf-8")
    res = _fix(tmp_path, "--target-sdk", "mcp2")
    assert res.json["errors"] == [], str(res)
    assert target.read_text(encoding="utf-8") == ADDER.replace("FastMCP", "MCPServer").replace(
        "mcp.server.fastmcp", "mcp.server.mcpserver"
    )
    assert '"mcp>=2.3,<3"' in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    assert [(f["path"], f["rule"], f["line"], f["manual"].split(" (")[0]) for f in res.json["findings"]] == [
        (where, "MCP509", 1, "use `mcp.Client(server)`"),
        (
            where,
            "MCP509",
            7,
            "FastMCP's private `_mcp_server` is `mcp._lowlevel_server` on mcp 2.x, a low-level `Server` with another API",
        ),
    ]
    assert (tmp_path / where).read_text(encoding="utf-8") == ADDER_TEST


# -- 5. fastmcp 2/3 → 4 changes every tool listing: each tool says what (port-07) -----------------
LEDGER = """\
from fastmcp import FastMCP

ledger = FastMCP("tiny-ledger")
ROWS: list[tuple[str, float]] = []


@ledger.tool(annotations={"readOnlyHint": False, "icon": "+"})
def add_row(label: str, amount: float) -> str:
    \"\"\"Add a row to the ledger.

    Args:
        label: What the money was for
        amount: Amount in euros
    \"\"\"
    ROWS.append((label, amount))
    return f"{len(ROWS)} rows"


@ledger.tool(title="Total", description="Sum of the rows")
def total() -> float:
    return sum(amount for _label, amount in ROWS)
"""
LIST_TOOLS = """\
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("case", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
from fastmcp import Client
async def main():
    async with Client(m.ledger) as c:
        tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in await c.list_tools()]
    print(json.dumps(tools))
anyio.run(main)
"""


def test_each_fastmcp_tool_says_how_its_listing_changes(tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    import json
    import subprocess

    target = _project(tmp_path, LEDGER, "fastmcp>=2.0,<3")
    res = cli(["check", "--target-sdk", "fastmcp4", "--output-format", "json", "."], tmp_path)
    found = [(f["line"], f["severity"], f["message"].split(". What")[0]) for f in res.json["findings"]]
    assert found == [
        (
            8,
            "advisory",
            'On fastmcp 4, tools/list describes `add_row` differently: it gains `title: "Add Row"` (fastmcp 4); '
            "`inputSchema` gains `additionalProperties: false` (fastmcp 3); its description loses the docstring's "
            "`Args:` section, which becomes each parameter's `description` (fastmcp 3); its annotation key `icon` is "
            "dropped (fastmcp 4); `_meta._fastmcp` is `_meta.fastmcp` (fastmcp 3)",
        ),
        (
            20,
            "advisory",
            "On fastmcp 4, tools/list describes `total` differently: `inputSchema` gains `additionalProperties: "
            "false` (fastmcp 3); `_meta._fastmcp` is `_meta.fastmcp` (fastmcp 3)",
        ),
    ]
    fixed = _fix(tmp_path, *FASTMCP4)
    assert fixed.json["errors"] == [] and target.read_text(encoding="utf-8") == LEDGER  # advisory: no block
    assert '"fastmcp>=4.2,<5"' in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    # what the findings say is what the two fastmcp versions list
    old, new = (
        {
            t["name"]: t
            for t in json.loads(
                subprocess.run([py, "-c", LIST_TOOLS, str(target)], capture_output=True, text=True, timeout=120)
                .stdout.strip()
                .splitlines()[-1]
            )
        }
        for py in (legacy_python, mcp2_python)
    )
    assert ("title" not in old["add_row"], new["add_row"]["title"]) == (True, "Add Row")
    assert (old["add_row"]["annotations"], new["add_row"]["annotations"]) == (
        {"icon": "+", "readOnlyHint": False},
        {"readOnlyHint": False},
    )
    assert "Args:" in old["add_row"]["description"] and new["add_row"]["description"] == "Add a row to the ledger."
    assert new["add_row"]["inputSchema"]["properties"]["label"]["description"] == "What the money was for"
    assert [t["inputSchema"].get("additionalProperties") for t in (old["total"], new["total"])] == [None, False]
    assert (old["total"]["title"], old["total"]["description"]) == (new["total"]["title"], new["total"]["description"])
    assert (list(old["total"]["_meta"]), list(new["total"]["_meta"])) == (["_fastmcp"], ["fastmcp"])


# code-index-mcp's shape: 1.x's `sse_app(mount_path)`; mcp 2.x's app factories and starts take
# keywords only and no `mount_path`. The port used to rename the server and leave this call, which
# then raised `TypeError` at startup over SSE.
MOUNTED = """\
import sys

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("indexer")


def app(mount_path=None):
    if "--sse" in sys.argv:
        return mcp.sse_app(mount_path)
    if "--sse-at" in sys.argv:
        return mcp.sse_app(mount_path="/tools")
    mcp.run("sse", "/tools")
    return mcp.streamable_http_app()


def serve():
    mcp.run(transport="sse")
"""


def test_a_mount_path_passed_to_a_start_blocks_the_port_with_the_reason(tmp_path: Path, mcp2_python: str) -> None:
    import subprocess

    target = _project(tmp_path, MOUNTED, "mcp>=1.0")
    res = _fix(tmp_path, "--target-sdk", "mcp2")
    assert res.exit_code == 1 and target.read_text(encoding="utf-8") == MOUNTED
    left = [(f["line"], f["column"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP503"]
    reason = (
        "mcp 1.x prefixed the SSE message endpoint with this `mount_path`; on mcp 2.x mount the app under that "
        "path (`Mount(path, app=…)`) and its SSE transport reads the prefix from ASGI's `root_path`: call `{}` "
        "without it by hand"
    )
    assert left == [
        (10, 16, reason.format("mcp.sse_app()")),
        (12, 16, reason.format("mcp.sse_app()")),
        (13, 5, reason.format("mcp.run()")),
    ]
    # what the message says mcp 2.3 does with each
    probe = (
        "from mcp.server.mcpserver import MCPServer\n"
        "m = MCPServer('indexer')\n"
        "for call in (lambda: m.sse_app(None), lambda: m.sse_app(mount_path='/tools')):\n"
        "    try:\n        call()\n    except TypeError as e:\n        print(e)\n"
    )
    out = subprocess.run([mcp2_python, "-c", probe], capture_output=True, text=True, timeout=60).stdout
    assert out == (
        "MCPServer.sse_app() takes 1 positional argument but 2 were given\n"
        "MCPServer.sse_app() got an unexpected keyword argument 'mount_path'\n"
    )

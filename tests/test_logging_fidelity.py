"""MCP401 keeps what clients saw (field cases notify-08, notify-09; docs/architecture.md, "What
each fix-safety label promises": log lines still reach them).

- notify-08: protocol log messages that are a tool's whole output, or that the code scopes to the
  request (``related_request_id``), are deliberate client-facing output that 2026-07-28 still
  delivers to a request that opts in (mcp 2.3 ``Client(log_level=...)``). The first are left
  (manual), the second get an unsafe fix whose review note says clients stop seeing them — proven
  with the mcp 2.3 client in both eras.
- notify-09: moved to the standard library, INFO/DEBUG records reach a handler only when
  something configures logging (the project, or an SDK whose server calls ``basicConfig``). The
  fix adds a stderr handler under ``if __name__ == "__main__":`` when the module has that entry
  point and is unsafe (with the note) otherwise — proven by running the stdio server on mcp 1.x and
  reading its stderr.
- ``import logging`` takes a free name.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import LEAVE, PROCESS_TIMEOUT_S, json_answer
from tests.test_proof_catalog import observe

DATA = Path(__file__).resolve().parent / "data" / "logging"
TICK = [{"tool": "tick", "arguments": {}}]
TICKS = [{"data": f"tick {i}/3", "level": "info", "logger": "ticker"} for i in (1, 2, 3)]

ONLY_OUTPUT = (
    "these messages are all `call_tool` does besides returning a fixed result, and 2026-07-28 still delivers "
    'them on the request\'s own stream when the request opts in (`_meta["io.modelcontextprotocol/logLevel"]`, '
    "mcp 2.x `Client(log_level=...)`): moved to the standard library, clients would stop seeing them. Keep them "
    "while clients opt in (deprecated, SEP-2577), or return what they say in the tool's result"
)
RELATED = (
    "the call passes `related_request_id`: its messages are deliberate output on this request's own stream, "
    'which 2026-07-28 still delivers when the request opts in (`_meta["io.modelcontextprotocol/logLevel"]`, '
    "mcp 2.x `Client(log_level=...)`); after the rewrite clients stop seeing them, only the server's log has them"
)

NO_HANDLER = (
    "nothing in the project configures logging and the SDK does not (the low-level `Server` and fastmcp leave "
    "the root logger alone), so this {level} record reaches only Python's last-resort handler, which prints "
    "WARNING and above: clients saw the message, now nobody does; configure a handler at the entry point, e.g. "
    "`logging.basicConfig(stream=sys.stderr, level=logging.{setup})`"
)


def _findings(tmp_path: Path, name: str, *args: str) -> list[tuple]:
    res = cli(["check", "--output-format", "json", *args, name], tmp_path)
    return [
        (f["rule"], f["line"], f["column"], f["fix"] and (f["fix"]["safety"], f["fix"]["description"]), f["manual"])
        for f in res.json["findings"]
    ]


def _copy(tmp_path: Path, case: str, name: str = "server.py") -> Path:
    target = tmp_path / name
    shutil.copyfile(DATA / case, target)
    return target


# -- notify-08 ---------------------------------------------------------------------------------
def test_notify08_a_tool_whose_output_is_its_log_messages_keeps_them(tmp_path: Path, mcp2_python: str) -> None:
    server = _copy(tmp_path, "notify_08.py")
    before = server.read_text()
    assert _findings(tmp_path, "server.py") == [("MCP401", 33, 15, None, ONLY_OUTPUT)]
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    assert server.read_text() == before
    # what the label protects: both eras of mcp 2.3 deliver the three messages on the tools/call
    # (the 2026-07-28 client opts in with log_level, as observe.py's modern client does)
    for mode, version in (("legacy", "2025-11-25"), ("modern", "2026-07-28")):
        answer, _ = observe(mcp2_python, server, "server", mode, TICK)
        assert answer["protocol_version"] == version
        assert [c["text"] for c in answer["calls"]] == [["done"]]
        assert answer["client_logs"] == TICKS, mode


RELATED_TOOL = (
    DATA.joinpath("notify_08.py")
    .read_text()
    .replace('text="done"', 'text=f"{i + 1} ticks"')  # the result says something: not only output
)


def test_notify08_related_request_id_makes_the_rewrite_unsafe_and_says_clients_lose_them(
    tmp_path: Path, mcp2_python: str
) -> None:
    server = tmp_path / "server.py"
    server.write_text(RELATED_TOOL, encoding="utf-8")
    assert _findings(tmp_path, "server.py") == [
        (
            "MCP401",
            33,
            15,
            (
                "unsafe",
                'log with the standard library: `logging.getLogger("ticker").info(line)` '
                f"(review: {RELATED}; {NO_HANDLER.format(level='INFO', setup='INFO')})",
            ),
            None,
        )
    ]
    cli(["fix", "server.py"], tmp_path)  # safe fixes only: left as it is
    assert server.read_text() == RELATED_TOOL
    before = {mode: observe(mcp2_python, server, "server", mode, TICK)[0] for mode in ("legacy", "modern")}
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    fixed = server.read_text()
    assert fixed == RELATED_TOOL.replace(
        """        await ctx.session.send_log_message(
            level="info",
            data=line,
            logger="ticker",
            # keep these on this request's own response stream
            related_request_id=ctx.request_id,
        )
""",
        '        logging.getLogger("ticker").info(line)\n',
    ).replace("from typing import Any\n", "import logging\nfrom typing import Any\n")  # the stdlib section
    for mode in ("legacy", "modern"):
        after = observe(mcp2_python, server, "server", mode, TICK)[0]
        assert before[mode]["client_logs"] == TICKS
        assert after["calls"] == before[mode]["calls"]
        # the review note's claim: the client no longer sees them; the server's log has them
        assert after["client_logs"] == []
        assert after["records"] == [{"logger": "ticker", "level": "INFO", "message": f"tick {i}/3"} for i in (1, 2, 3)]


def test_a_tool_with_a_result_of_its_own_keeps_a_safe_rewrite(tmp_path: Path) -> None:
    """Not every logging tool is a log stream: one whose result depends on its input is fixed as
    before (the logs are a side channel)."""
    (tmp_path / "s.py").write_text(
        """from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def check(value: int, ctx: Context) -> str:
    if value < 0:
        await ctx.info("negative")
        return "invalid"
    return "ok"
""",
        encoding="utf-8",
    )
    assert _findings(tmp_path, "s.py") == [
        ("MCP401", 9, 15, ("safe", 'log with the standard library: `logger.info("negative")`'), None)
    ]


# -- notify-09 ---------------------------------------------------------------------------------
ADDED = (
    "; nothing in the project configures logging, so `logging.basicConfig(stream=sys.stderr, level=logging.DEBUG)` "
    'is added under `if __name__ == "__main__":` (stderr on stdio servers)'
)
MAIN = '\n\nif __name__ == "__main__":\n    import anyio\n\n    anyio.run(main)\n'


def test_notify09_without_an_entry_point_the_rewrite_is_unsafe_with_the_note(tmp_path: Path) -> None:
    server = _copy(tmp_path, "notify_09.py")
    before = server.read_text()
    assert _findings(tmp_path, "server.py") == [
        (
            "MCP401",
            36,
            11,
            (
                "unsafe",
                'log with the standard library: `logger.debug("walking the tree")` (review: '
                + NO_HANDLER.format(level="DEBUG", setup="DEBUG")
                + ")",
            ),
            None,
        ),
        (
            "MCP401",
            37,
            11,
            (
                "unsafe",
                'log with the standard library: `logger.info("Indexed %s files", count)` (review: '
                + NO_HANDLER.format(level="INFO", setup="DEBUG")
                + ")",
            ),
            None,
        ),
    ]
    cli(["fix", "server.py"], tmp_path)
    assert server.read_text() == before


NOTIFY_09_MAIN_FIXED = """

if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG)
    import anyio

    anyio.run(main)
"""


def _notify09_with_main() -> str:
    return (DATA / "notify_09.py").read_text() + MAIN


def _notify09_fixed_text(original: str, imports: str) -> str:
    """notify-09 as the fix writes it: ``imports`` in a standard-library section before the SDK
    imports, the module logger after them, the two calls on it."""
    return (
        original.replace("import mcp.server.stdio\n", f"{imports}\nimport mcp.server.stdio\n")
        .replace(
            "from mcp.server.lowlevel import Server\n\n",
            "from mcp.server.lowlevel import Server\n\nlogger = logging.getLogger(__name__)\n\n",
        )
        .replace(
            '    await session.send_log_message(level="debug", data="walking the tree")\n'
            '    await session.send_log_message(level="info", data=f"Indexed {count} files")\n',
            '    logger.debug("walking the tree")\n    logger.info("Indexed %s files", count)\n',
        )
    )


def test_notify09_with_an_entry_point_the_fix_adds_a_stderr_handler_there(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    server.write_text(_notify09_with_main(), encoding="utf-8")
    labels = _findings(tmp_path, "server.py")
    assert [(r, line, fix) for r, line, _c, fix, _m in labels] == [
        ("MCP401", 36, ("safe", 'log with the standard library: `logger.debug("walking the tree")`' + ADDED)),
        ("MCP401", 37, ("safe", 'log with the standard library: `logger.info("Indexed %s files", count)`' + ADDED)),
    ]
    cli(["fix", "server.py"], tmp_path)
    fixed = server.read_text()
    expected = _notify09_fixed_text(_notify09_with_main(), "import logging\nimport sys\n").replace(
        MAIN, NOTIFY_09_MAIN_FIXED
    )
    assert fixed == expected
    cli(["fix", "server.py"], tmp_path)
    assert server.read_text() == fixed  # once: the handler is now there


# The stdio client of mcp 1.x: start the server as its own process, call the tool, and report what
# the client received as notifications/message and what the server printed on stderr.
DRIVE = (
    LEAVE
    + """
import json, sys
import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    logs = []

    async def on_log(params):
        logs.append([params.level, params.data])

    params = StdioServerParameters(command=sys.executable, args=sys.argv[1:])
    with open("server.err", "w") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write, logging_callback=on_log) as session:
                await session.initialize()
                result = await session.call_tool("reindex", {})
                await anyio.sleep(0.2)
    print(json.dumps({"text": [c.text for c in result.content], "client_logs": logs}))

anyio.run(main)
leave()
"""
)
RUN_MAIN = ["-c", "import anyio, server; anyio.run(server.main)"]  # the entry point of notify-09 as written


def _drive(legacy_python: str, cwd: Path, args: list[str]) -> tuple[dict, str]:
    (cwd / "drive.py").write_text(DRIVE, encoding="utf-8")
    proc = subprocess.run(
        [legacy_python, "drive.py", *args], cwd=cwd, capture_output=True, text=True, timeout=PROCESS_TIMEOUT_S
    )
    return json_answer(proc, f"drive.py {' '.join(args)}"), (cwd / "server.err").read_text()


def test_notify09_the_entry_point_handler_prints_what_clients_saw(tmp_path: Path, legacy_python: str) -> None:
    """mcp 1.x low-level stdio server: before the fix the client receives both messages; after it
    the server's stderr has both lines (the basicConfig the fix added)."""
    server = tmp_path / "server.py"
    server.write_text(_notify09_with_main(), encoding="utf-8")
    before, before_err = _drive(legacy_python, tmp_path, ["server.py"])
    assert before == {"text": ["42"], "client_logs": [["debug", "walking the tree"], ["info", "Indexed 42 files"]]}
    assert "Indexed 42 files" not in before_err
    cli(["fix", "server.py"], tmp_path)
    after, after_err = _drive(legacy_python, tmp_path, ["server.py"])
    assert after == {"text": ["42"], "client_logs": []}
    assert "DEBUG:__main__:walking the tree" in after_err.splitlines()
    assert "INFO:__main__:Indexed 42 files" in after_err.splitlines()


def test_notify09_the_unsafe_rewrite_loses_the_lines_as_its_note_says(tmp_path: Path, legacy_python: str) -> None:
    server = _copy(tmp_path, "notify_09.py")
    before, _ = _drive(legacy_python, tmp_path, RUN_MAIN)
    assert before["client_logs"] == [["debug", "walking the tree"], ["info", "Indexed 42 files"]]
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    assert server.read_text() == _notify09_fixed_text((DATA / "notify_09.py").read_text(), "import logging\n")
    after, after_err = _drive(legacy_python, tmp_path, RUN_MAIN)
    assert after == {"text": ["42"], "client_logs": []}
    assert "walking the tree" not in after_err and "Indexed 42 files" not in after_err


def test_logging_configured_in_another_module_of_the_package_keeps_the_fix_safe(tmp_path: Path) -> None:
    pkg = tmp_path / "indexer"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "indexer"\n', encoding="utf-8")
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "__main__.py").write_text(
        "import logging\n\nimport anyio\n\nfrom indexer.server import main\n\n"
        "logging.basicConfig(level=logging.DEBUG)\nanyio.run(main)\n",
        encoding="utf-8",
    )
    shutil.copyfile(DATA / "notify_09.py", pkg / "server.py")
    labels = _findings(tmp_path, "indexer/server.py")
    assert [(line, fix) for _r, line, _c, fix, _m in labels] == [
        (36, ("safe", 'log with the standard library: `logger.debug("walking the tree")`')),
        (37, ("safe", 'log with the standard library: `logger.info("Indexed %s files", count)`')),
    ]


def test_a_test_module_that_configures_logging_does_not_count(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text("import logging\n\nlogging.basicConfig()\n", encoding="utf-8")
    (tmp_path / "test_server.py").write_text("import logging\n\nlogging.basicConfig()\n", encoding="utf-8")
    _copy(tmp_path, "notify_09.py")
    assert {f[3][0] for f in _findings(tmp_path, "server.py")} == {"unsafe"}


FASTMCP_DEBUG = """from fastmcp import Context, FastMCP

mcp = FastMCP("qdrant")


@mcp.tool
async def find(query: str, ctx: Context) -> list[str]:
    await ctx.debug(f"Query: {query}")
    return [query]
"""
MCP1_FASTMCP = FASTMCP_DEBUG.replace("from fastmcp import", "from mcp.server.fastmcp import").replace(
    "@mcp.tool\n", "@mcp.tool()\n"
)


def test_fastmcp_configures_only_its_own_logger_so_a_debug_rewrite_is_unsafe(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(FASTMCP_DEBUG, encoding="utf-8")
    [(_r, line, col, fix, _m)] = _findings(tmp_path, "s.py")
    assert (line, col, fix[0]) == (8, 11, "unsafe")
    assert "this DEBUG record reaches only Python's last-resort handler" in fix[1]


def test_mcp1_fastmcp_configures_the_root_logger_at_info_so_only_a_debug_rewrite_is_unsafe(tmp_path: Path) -> None:
    """mcp 1.x FastMCP (and mcp 2.x MCPServer) call ``configure_logging(settings.log_level)``,
    INFO by default: an INFO rewrite is printed, a DEBUG one is not unless the server is built
    with ``log_level="DEBUG"``."""
    (tmp_path / "s.py").write_text(MCP1_FASTMCP, encoding="utf-8")
    [(_r, line, col, fix, _m)] = _findings(tmp_path, "s.py")
    assert (line, col, fix[0]) == (8, 11, "unsafe")
    assert "`FastMCP` configures the root logger at its `log_level`, INFO by default" in fix[1]
    (tmp_path / "s.py").write_text(MCP1_FASTMCP.replace("ctx.debug", "ctx.info"), encoding="utf-8")
    assert _findings(tmp_path, "s.py") == [
        ("MCP401", 8, 11, ("safe", 'log with the standard library: `logger.info("Query: %s", query)`'), None)
    ]
    debug_level = MCP1_FASTMCP.replace('FastMCP("qdrant")', 'FastMCP("qdrant", log_level="DEBUG")')
    (tmp_path / "s.py").write_text(debug_level, encoding="utf-8")
    assert _findings(tmp_path, "s.py") == [
        ("MCP401", 8, 11, ("safe", 'log with the standard library: `logger.debug("Query: %s", query)`'), None)
    ]


MCP1_REINDEX = """from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("indexer"{level})
FILES = ["f"] * 42


@mcp.tool()
async def reindex(ctx: Context) -> str:
    await ctx.debug("walking the tree")
    await ctx.info("Indexed 42 files")
    return str(len(FILES))


if __name__ == "__main__":
    mcp.run()
"""


@pytest.mark.parametrize("level", ["", ', log_level="DEBUG"'])
def test_mcp1_fastmcp_prints_what_its_log_level_lets_through(tmp_path: Path, legacy_python: str, level: str) -> None:
    """The labels above, run: after ``fix --unsafe-fixes`` an mcp 1.x FastMCP stdio server prints
    the INFO line on stderr, and the DEBUG line only with ``log_level="DEBUG"``."""
    server = tmp_path / "server.py"
    server.write_text(MCP1_REINDEX.format(level=level), encoding="utf-8")
    before, _ = _drive(legacy_python, tmp_path, ["server.py"])
    assert before["client_logs"] == [["debug", "walking the tree"], ["info", "Indexed 42 files"]]
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    after, err = _drive(legacy_python, tmp_path, ["server.py"])
    assert after == {"text": ["42"], "client_logs": []}
    assert "Indexed 42 files" in err
    assert ("walking the tree" in err) is bool(level)


# -- a free name for `import logging` ----------------------------------------------------------
def test_logging_bound_to_something_else_gets_an_aliased_import(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(
        """from mcp.server.fastmcp import Context, FastMCP

from app import logging

mcp = FastMCP("demo")


@mcp.tool()
async def process(item: str, ctx: Context) -> str:
    logging.record(item)
    await ctx.info(f"Processing {item}")
    await ctx.warning("slow", logger_name="timing")
    return item.upper()
""",
        encoding="utf-8",
    )
    cli(["fix", "s.py"], tmp_path)
    assert (tmp_path / "s.py").read_text() == (
        "import logging as stdlib_logging\n"
        "\n"
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "\n"
        "from app import logging\n"
        "\n"
        "logger = stdlib_logging.getLogger(__name__)\n"
        "\n"
        'mcp = FastMCP("demo")\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def process(item: str, ctx: Context) -> str:\n"
        "    logging.record(item)\n"
        '    logger.info("Processing %s", item)\n'
        '    stdlib_logging.getLogger("timing").warning("slow")\n'
        "    return item.upper()\n"
    )


def test_an_existing_aliased_import_of_logging_is_reused(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(
        """import logging as log

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def process(item: str, ctx: Context) -> str:
    await ctx.warning("slow", logger_name="timing")
    return item.upper()
""",
        encoding="utf-8",
    )
    cli(["fix", "s.py"], tmp_path)
    assert '    log.getLogger("timing").warning("slow")\n' in (tmp_path / "s.py").read_text()
    assert "import logging\n" not in (tmp_path / "s.py").read_text()


def test_the_package_is_the_program_a_sibling_example_is_not(tmp_path: Path) -> None:
    """A namespace subpackage belongs to the package above it (configured there); a folder of
    example scripts is not one program (another folder's basicConfig does not count). Both live
    in one project (a pyproject.toml): a path outside every project is checked on its own."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n', encoding="utf-8")
    ns = tmp_path / "app" / "tools"
    ns.mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("", encoding="utf-8")
    # a level: `basicConfig()` alone leaves the root logger at WARNING (tests/test_logging_kinds.py)
    (tmp_path / "app" / "cli.py").write_text(
        "import logging\n\nlogging.basicConfig(level=logging.DEBUG)\n", encoding="utf-8"
    )
    shutil.copyfile(DATA / "notify_09.py", ns / "index.py")
    examples = tmp_path / "examples"
    (examples / "a").mkdir(parents=True)
    (examples / "b").mkdir()
    (examples / "a" / "other.py").write_text("import logging\n\nlogging.basicConfig()\n", encoding="utf-8")
    shutil.copyfile(DATA / "notify_09.py", examples / "b" / "server.py")
    assert {f[3][0] for f in _findings(tmp_path, "app/tools/index.py")} == {"safe"}
    assert {f[3][0] for f in _findings(tmp_path, "examples/b/server.py")} == {"unsafe"}


LOGURU = """from loguru import logger
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


@mcp.tool()
async def t(q: str, ctx: Context) -> str:
    logger.info("hi")
    await ctx.warning(f"bad {q}")
    return q
"""


def test_the_described_logger_is_the_one_the_fix_writes(tmp_path: Path) -> None:
    """`logger` is loguru's here (awslabs aws-api): the fix logs through a new `_logger`, and the
    description `check` prints names that same call."""
    (tmp_path / "s.py").write_text(LOGURU, encoding="utf-8")
    res = cli(["check", "--output-format", "json", "s.py"], tmp_path)
    (f,) = res.json["findings"]
    assert f["fix"]["description"] == 'log with the standard library: `_logger.warning("bad %s", q)`'
    cli(["fix", "s.py"], tmp_path)
    assert '    _logger.warning("bad %s", q)\n' in (tmp_path / "s.py").read_text()


ALREADY_LOGGED = """from loguru import logger
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("docs")


@mcp.tool()
async def read_pdf(path: str, ctx: Context) -> str:
    if not path.endswith(".pdf"):
        error_msg = f"not a pdf: {path}"
        logger.error(error_msg)
        await ctx.error(error_msg)
        return error_msg
    await ctx.info(path)
    return path
"""


def test_a_message_the_line_before_already_logs_is_dropped_not_copied(tmp_path: Path) -> None:
    """awslabs document-loader logs `error_msg` with loguru, then sends it with `ctx.error`: a stdlib
    copy would print the line twice; the fix drops the protocol call. A call without such a line
    before it still gets the stdlib rewrite."""
    (tmp_path / "s.py").write_text(ALREADY_LOGGED, encoding="utf-8")
    res = cli(["check", "--output-format", "json", "s.py"], tmp_path)
    descs = [(f["line"], f["fix"]["description"]) for f in res.json["findings"]]
    assert descs == [
        (12, "drop it: the statement before already logs the same message (`logger.error(error_msg)`)"),
        (14, "log with the standard library: `_logger.info(path)`"),
    ]
    cli(["fix", "s.py"], tmp_path)
    assert (tmp_path / "s.py").read_text() == (
        "import logging\n"
        "\n"
        "from loguru import logger\n"
        "from mcp.server.fastmcp import Context, FastMCP\n"
        "\n"
        "_logger = logging.getLogger(__name__)\n"
        "\n"
        'mcp = FastMCP("docs")\n'
        "\n"
        "\n"
        "@mcp.tool()\n"
        "async def read_pdf(path: str, ctx: Context) -> str:\n"
        '    if not path.endswith(".pdf"):\n'
        '        error_msg = f"not a pdf: {path}"\n'
        "        logger.error(error_msg)\n"
        "        return error_msg\n"
        "    _logger.info(path)\n"
        "    return path\n"
    )


LOGGED_TWICE = """import logging

from mcp.server.mcpserver import Context, MCPServer

log = logging.getLogger("docs")
server = MCPServer("docs")


@server.tool()
async def read_pdf(path: str, ctx: Context) -> str:
    if not path.endswith(".pdf"):
        error_msg = f"not a pdf: {path}"
        log.error(error_msg)
        await ctx.error(error_msg)
        return error_msg
    return path
"""


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_dropped_call_leaves_one_record_and_the_same_answer(tmp_path: Path, mcp2_python: str, mode: str) -> None:
    """Run on mcp 2.3: after the fix the tool answers the same and the server's log holds the
    message once (the stdlib copy the fix used to write made it twice)."""
    server = tmp_path / "server.py"
    server.write_text(LOGGED_TWICE, encoding="utf-8")
    calls = [{"tool": "read_pdf", "arguments": {"path": "a.txt"}}]
    before = observe(mcp2_python, server, "server", mode, calls)[0]
    cli(["fix", "server.py"], tmp_path)
    assert server.read_text() == LOGGED_TWICE.replace("        await ctx.error(error_msg)\n", "")
    after = observe(mcp2_python, server, "server", mode, calls)[0]
    assert after["calls"] == before["calls"] and [c["text"] for c in after["calls"]] == [["not a pdf: a.txt"]]
    assert after["records"] == [{"logger": "docs", "level": "ERROR", "message": "not a pdf: a.txt"}]

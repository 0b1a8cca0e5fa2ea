"""MCP401 labels that follow the project's logging (issue 25, "Logging"; docs/architecture.md,
"What each fix-safety label promises": what users saw still reaches them).

A protocol log call rewritten to ``logger.<level>(...)`` is printed only when its record is at or
above the level the project's logging prints from (``codemods/log_handlers.effective_level``): set
by ``basicConfig(level=…)``, ``dictConfig``, ``fileConfig``, ``setLevel`` on the root logger or on
the module's logger, or the SDK server's ``log_level`` (mcp 1.x ``FastMCP`` / mcp 2.x ``MCPServer``
call ``basicConfig`` at it, INFO by default). Below it the rewrite is unsafe, with a note naming
what sets the level. loguru's ``logger.add(level=…)`` is not the standard library's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.test_logging_fidelity import _drive as drive

DATA = Path(__file__).resolve().parent / "data" / "logging_kinds"
HIDDEN_CASES = Path(__file__).resolve().parent / "data" / "hidden"  # field cases, copied for test_hidden_findings

TOOL = """

@mcp.tool()
async def find(query: str, ctx: Context) -> str:
    await ctx.debug(f"Query: {query}")
    await ctx.info("found")
    await ctx.warning("slow")
    return query
"""
HEAD = "import logging\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
HIDDEN = "{source}, so this {record} record is printed nowhere: clients saw the message, now nobody does {unless}"


def labels(tmp_path: Path, name: str = "s.py") -> list[tuple[int, str, str | None]]:
    """(line, safety, review note) of each MCP401 finding of ``name``."""
    res = cli(["check", "--output-format", "json", name], tmp_path)
    out = []
    for f in res.json["findings"]:
        desc = f["fix"]["description"]
        note = desc.split(" (review: ", 1)[1][:-1] if " (review: " in desc else None
        out.append((f["line"], f["fix"]["safety"], note))
    return out


def _write(tmp_path: Path, text: str, name: str = "s.py") -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")


def test_basicconfig_at_info_hides_the_debug_rewrite(tmp_path: Path) -> None:
    _write(
        tmp_path, HEAD + 'logging.basicConfig(level=logging.INFO, format="%(message)s")\nmcp = FastMCP("a")\n' + TOOL
    )
    note = HIDDEN.format(
        source="`logging.basicConfig(level=logging.INFO)` (s.py:5) sets the root logger's level to INFO",
        record="DEBUG",
        unless="unless the level is lowered to DEBUG",
    )
    assert labels(tmp_path) == [(11, "unsafe", note), (12, "safe", None), (13, "safe", None)]


def test_the_sdk_log_level_hides_what_is_below_it(tmp_path: Path) -> None:
    _write(tmp_path, HEAD + 'mcp = FastMCP("b", log_level="WARNING")\n' + TOOL)
    source = '`FastMCP(..., log_level="WARNING")` (s.py:5) configures the root logger at WARNING'
    assert labels(tmp_path) == [
        (
            10,
            "unsafe",
            HIDDEN.format(source=source, record="DEBUG", unless='unless the server runs with `log_level="DEBUG"`'),
        ),
        (
            11,
            "unsafe",
            HIDDEN.format(source=source, record="INFO", unless='unless the server runs with `log_level="INFO"`'),
        ),
        (12, "safe", None),
    ]


def test_a_level_read_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    _write(
        tmp_path,
        HEAD
        + 'LEVEL = os.environ.get("APP_LOG_LEVEL", "warning").upper()\n'
        + "logging.basicConfig(level=getattr(logging, LEVEL))\n"
        + 'mcp = FastMCP("c")\n'
        + TOOL,
    )
    _write(tmp_path, "import os\n" + (tmp_path / "s.py").read_text())
    source = (
        "`logging.basicConfig(level=getattr(logging, LEVEL))` (s.py:7) sets the root logger's level to WARNING "
        "(read from `APP_LOG_LEVEL`, WARNING when it is unset)"
    )
    assert labels(tmp_path) == [
        (13, "unsafe", HIDDEN.format(source=source, record="DEBUG", unless="unless `APP_LOG_LEVEL` is DEBUG or lower")),
        (14, "unsafe", HIDDEN.format(source=source, record="INFO", unless="unless `APP_LOG_LEVEL` is INFO or lower")),
        (15, "safe", None),
    ]


def test_the_module_logger_level_wins_over_the_root_level(tmp_path: Path) -> None:
    _write(
        tmp_path,
        HEAD + 'logger = logging.getLogger(__name__)\nlogger.setLevel(logging.DEBUG)\nmcp = FastMCP("d")\n' + TOOL,
    )
    assert [(line, safety) for line, safety, _n in labels(tmp_path)] == [(12, "safe"), (13, "safe"), (14, "safe")]


@pytest.mark.parametrize(
    ("config", "line"),
    [
        ('logging.config.dictConfig({"version": 1, "root": {"level": "ERROR"}})', 6),
        ('logging.config.dictConfig({"version": 1, "loggers": {"": {"level": "ERROR"}}})', 6),
        ("logging.getLogger().setLevel(logging.ERROR)", 6),
    ],
)
def test_dictconfig_and_the_root_setlevel_decide_over_the_sdk(tmp_path: Path, config: str, line: int) -> None:
    _write(
        tmp_path,
        HEAD.replace("import logging\n", "import logging\nimport logging.config\n")
        + config
        + '\nmcp = FastMCP("e")\n'
        + TOOL,
    )
    got = labels(tmp_path)
    assert [(ln, safety) for ln, safety, _n in got] == [(12, "unsafe"), (13, "unsafe"), (14, "unsafe")]
    assert got[2][2] == HIDDEN.format(
        source=f"`{config.split('(')[0]}(...)` (s.py:{line}) sets the root logger's level to ERROR"
        if "Config" in config
        else "`logging.getLogger().setLevel(logging.ERROR)` (s.py:6) sets the root logger's level to ERROR",
        record="WARNING",
        unless="unless the level is lowered to WARNING",
    )


def test_fileconfig_reads_the_root_level_of_its_ini_file(tmp_path: Path) -> None:
    (tmp_path / "logging.ini").write_text(
        "[loggers]\nkeys=root\n\n[handlers]\nkeys=h\n\n[formatters]\nkeys=\n\n"
        "[logger_root]\nlevel=WARNING\nhandlers=h\n\n[handler_h]\nclass=StreamHandler\nargs=(sys.stderr,)\n",
        encoding="utf-8",
    )
    _write(
        tmp_path,
        HEAD.replace("import logging\n", "import logging.config\n")
        + 'logging.config.fileConfig("logging.ini")\nmcp = FastMCP("f")\n'
        + TOOL,
    )
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path)] == [(11, "unsafe"), (12, "unsafe"), (13, "safe")]


def test_basicconfig_without_a_level_leaves_the_root_at_warning(tmp_path: Path) -> None:
    """``basicConfig(format=…)`` before the server's constructor: the SDK's own ``basicConfig``
    then does nothing, and the root logger keeps its default level, WARNING."""
    _write(tmp_path, HEAD + 'logging.basicConfig(format="%(message)s")\nmcp = FastMCP("g")\n' + TOOL)
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path)] == [(11, "unsafe"), (12, "unsafe"), (13, "safe")]


def test_a_basicconfig_in_main_comes_after_the_server_built_at_import(tmp_path: Path) -> None:
    """``FastMCP(...)`` at import configures the root logger at INFO; ``basicConfig`` in
    ``main()`` runs later and does nothing (the root logger has a handler), so DEBUG stays hidden
    and INFO is printed."""
    _write(
        tmp_path,
        HEAD
        + 'mcp = FastMCP("h")\n'
        + TOOL
        + "\n\ndef main() -> None:\n    logging.basicConfig(level=logging.DEBUG)\n    mcp.run()\n",
    )
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path)] == [(10, "unsafe"), (11, "safe"), (12, "safe")]


def test_loguru_levels_are_not_the_standard_librarys(tmp_path: Path) -> None:
    """awslabs servers configure loguru (``logger.add(sys.stderr, level="WARNING")``) and build an
    mcp 1.x ``FastMCP``: the standard library's root logger is at INFO (the SDK's)."""
    _write(
        tmp_path,
        "import sys\n\nfrom loguru import logger\n"
        + HEAD.replace("import logging\n\n", "")
        + 'logger.remove()\nlogger.add(sys.stderr, level="WARNING")\nmcp = FastMCP("i")\n'
        + TOOL,
    )
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path)] == [(13, "unsafe"), (14, "safe"), (15, "safe")]


def test_a_sibling_script_is_another_program(tmp_path: Path) -> None:
    """Outside a package only a script that imports the module runs it: a sibling server's level
    is not this one's."""
    _write(tmp_path, HEAD + 'mcp = FastMCP("j")\n' + TOOL)
    _write(tmp_path, HEAD + 'mcp = FastMCP("k", log_level="ERROR")\n', "other.py")
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path)] == [(10, "unsafe"), (11, "safe"), (12, "safe")]
    _write(
        tmp_path, "import logging\n\nimport s\n\nlogging.getLogger().setLevel(logging.ERROR)\ns.mcp.run()\n", "run.py"
    )
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path)] == [(10, "unsafe"), (11, "unsafe"), (12, "unsafe")]


# -- the entry point of a console script ---------------------------------------------------------
SCRIPTED = DATA / "scripted"  # pyproject.toml: the `indexer-server` console script runs `indexer.server:cli`
CONSOLE_SCRIPT = ["-c", "from indexer.server import cli; cli()"]  # what the script runs
#: notify-09's mcp 1.x low-level server (tests/data/logging) with the console script's entry function.
ENTRY = '''

def cli() -> None:
    """Start the indexer on stdio."""
    import anyio

    anyio.run(main)


if __name__ == "__main__":
    cli()
'''
ADDED_IN_MAIN = (
    "; nothing in the project configures logging, so `logging.basicConfig(stream=sys.stderr, level=logging.DEBUG)` "
    "is added first in `cli()`, which the `indexer-server` console script runs (stderr on stdio servers)"
)


def _scripted(tmp_path: Path, target: str | None = None) -> Path:
    project = tmp_path / "p"
    shutil.copytree(SCRIPTED, project)
    (project / "indexer").mkdir()
    (project / "indexer" / "__init__.py").write_text("", encoding="utf-8")
    server = (Path(__file__).resolve().parent / "data" / "logging" / "notify_09.py").read_text() + ENTRY
    (project / "indexer" / "server.py").write_text(server, encoding="utf-8")
    if target is not None:
        pyproject = project / "pyproject.toml"
        pyproject.write_text(pyproject.read_text().replace("indexer.server:cli", target), encoding="utf-8")
    return project


def _fix_labels(project: Path) -> list[tuple[int, str, str]]:
    res = cli(["check", "--output-format", "json", "indexer/server.py"], project)
    return [(f["line"], f["fix"]["safety"], f["fix"]["description"]) for f in res.json["findings"]]


def test_a_console_script_entry_function_gets_the_handler(tmp_path: Path) -> None:
    project = _scripted(tmp_path)
    assert _fix_labels(project) == [
        (36, "safe", 'log with the standard library: `logger.debug("walking the tree")`' + ADDED_IN_MAIN),
        (37, "safe", 'log with the standard library: `logger.info("Indexed %s files", count)`' + ADDED_IN_MAIN),
    ]
    cli(["fix", "indexer/server.py"], project)
    fixed = (project / "indexer" / "server.py").read_text()
    assert fixed.endswith(
        ENTRY.replace('stdio."""\n', 'stdio."""\n    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG)\n')
    )  # the `__main__` block is left alone: cli() configures


def test_a_console_script_elsewhere_makes_the_main_block_handler_unsafe(tmp_path: Path) -> None:
    """The script runs another module's function: this module's ``__main__`` block never runs, so
    a handler there would print nothing for the script's users."""
    project = _scripted(tmp_path, "indexer.cli:run")
    note = (
        "nothing in the project configures logging and the SDK does not, so this {level} record reaches only "
        "Python's last-resort handler, which prints WARNING and above: clients saw the message, now nobody does; "
        "the project starts through the `indexer-server` console script, which runs `indexer.cli:run` and never "
        'runs this module\'s `if __name__ == "__main__":` block: configure a handler there, e.g. '
        "`logging.basicConfig(stream=sys.stderr, level=logging.DEBUG)`"
    )
    assert _fix_labels(project) == [
        (
            36,
            "unsafe",
            f'log with the standard library: `logger.debug("walking the tree")` (review: {note.format(level="DEBUG")})',
        ),
        (
            37,
            "unsafe",
            f'log with the standard library: `logger.info("Indexed %s files", count)` (review: {note.format(level="INFO")})',
        ),
    ]
    cli(["fix", "--unsafe-fixes", "indexer/server.py"], project)
    assert "logging.basicConfig(stream=" not in (project / "indexer" / "server.py").read_text()


def test_the_console_script_prints_what_clients_saw(tmp_path: Path, legacy_python: str) -> None:
    """mcp 1.x low-level stdio server started as its console script does (import, call ``cli``):
    before the fix the client receives both messages; after it the server's stderr has both."""
    project = _scripted(tmp_path)
    before, before_err = drive(legacy_python, project, CONSOLE_SCRIPT)
    assert before == {"text": ["42"], "client_logs": [["debug", "walking the tree"], ["info", "Indexed 42 files"]]}
    assert "Indexed 42 files" not in before_err
    cli(["fix", "indexer/server.py"], project)
    after, after_err = drive(legacy_python, project, CONSOLE_SCRIPT)
    assert after == {"text": ["42"], "client_logs": []}
    assert "DEBUG:indexer.server:walking the tree" in after_err.splitlines()
    assert "INFO:indexer.server:Indexed 42 files" in after_err.splitlines()


# -- relays and held sessions (field cases notify-14, notify-19) ----------------------------------
RELAY = (
    "`Reporter.step` relays the text its callers pass (`text`) to the client through `self._session`: it is "
    "their client-facing output (progress, status), not this server's log, and moved to the standard library it "
    "would reach the server's stderr instead of the client. Decide by hand what it carries: progress goes to "
    "`send_progress_notification` / `ctx.report_progress` (still delivered on 2026-07-28 when the request sends a "
    "progress token), text the client must see goes into the tool's result, and a plain log line to a "
    "module-level stdlib logger"
)


def _all(tmp_path: Path, name: str) -> list[tuple[str, int, str, str | None, str | None]]:
    res = cli(["check", "--output-format", "json", name], tmp_path)
    return [
        (f["rule"], f["line"], f["message"], f["fix"] and f["fix"]["safety"], f["manual"]) for f in res.json["findings"]
    ]


def test_notify14_a_relay_on_a_held_session_is_manual_and_a_broadcast_says_it_never_arrives(tmp_path: Path) -> None:
    shutil.copyfile(HIDDEN_CASES / "notify_14.py", tmp_path / "server.py")
    found = _all(tmp_path, "server.py")
    assert [(r, line, safety, manual) for r, line, _m, safety, manual in found] == [
        ("MCP401", 37, None, "the level is not a literal MCP log level: pick the stdlib level by hand"),
        ("MCP301", 38, None, found[1][4]),
        ("MCP401", 52, None, RELAY),
    ]
    assert found[0][2].startswith(
        "`session.send_log_message(…)` is MCP protocol logging on a session kept from an earlier request and used "
        "outside one: deprecated in 2026-07-28 (SEP-2577), where `notifications/message` is request-scoped"
    )
    assert "so a broadcast outside any request never reaches a modern client" in found[0][2]
    assert "kept from an earlier request" not in found[2][2]  # Reporter is used within the request


def test_a_relay_that_builds_its_message_from_a_parameter_is_one_too(tmp_path: Path) -> None:
    """dazzle's ``ProgressContext.advance``: ``log_msg = f"[{current}/{total}] {message}"`` then
    the send. A method whose message has words of its own (awslabs billing-cost-management's
    ``ManifestHandler``: ``f"Looking for manifest at s3://{bucket}/{key}"``) is the helper's own
    status line, no relay (a safe rewrite)."""
    (tmp_path / "s.py").write_text(
        "from typing import Any\n\n"
        "class Progress:\n"
        "    def __init__(self, session: Any) -> None:\n"
        "        self._session = session\n\n"
        "    async def advance(self, current: int, total: int, message: str) -> None:\n"
        '        log_msg = f"[{current}/{total}] {message}"\n'
        '        await self._session.send_log_message(level="info", data=log_msg, logger="app")\n\n'
        "    async def done(self) -> None:\n"
        '        await self._session.send_log_message(level="warning", data="done", logger="app")\n\n'
        "    async def read(self, bucket: str) -> None:\n"
        '        await self._session.send_log_message(level="warning", data=f"Reading s3://{bucket}")\n\n\n'
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("p")\n\n\n'
        "@mcp.tool()\n"
        "async def run(ctx: Context) -> str:\n"
        "    p = Progress(ctx.session)\n"
        '    await p.advance(1, 2, "half")\n'
        "    await p.done()\n"
        '    await p.read("b")\n'
        '    return "ok"\n',
        encoding="utf-8",
    )
    found = _all(tmp_path, "s.py")
    # `done` and `read` say what the helper itself does (words of their own): status lines, not a relay
    assert [(line, safety) for _r, line, _m, safety, _x in found] == [(9, None), (12, "safe"), (15, "safe")]
    assert found[0][4] is not None and found[0][4].startswith(
        "`Progress.advance` relays the text its callers pass (`current`, `message`, `total`) to the client through "
        "`self._session`"
    )


def test_a_dual_logging_adapter_drops_the_protocol_call(tmp_path: Path) -> None:
    """awslabs billing-cost-management's ``LoggerContextAdapter``: ``await self.ctx.info(message)``
    then ``self.logger.info(message)`` (loguru). The server's log has the line already: the
    protocol call goes (no relay, no stdlib copy printing it twice)."""
    (tmp_path / "s.py").write_text(
        "from loguru import logger\nfrom mcp.server.fastmcp import Context\n\n\n"
        "class Adapter:\n"
        "    def __init__(self, ctx: Context) -> None:\n"
        "        self.ctx = ctx\n"
        "        self.logger = logger.bind(name=__name__)\n\n"
        "    async def info(self, message: str) -> None:\n"
        "        await self.ctx.info(message)\n"
        "        self.logger.info(message)\n\n"
        "    async def error(self, message: str, exc_info: bool = False) -> None:\n"
        "        await self.ctx.error(message)\n"
        "        if exc_info:\n"
        "            self.logger.exception(message)\n"
        "        else:\n"
        "            self.logger.error(message)\n",
        encoding="utf-8",
    )
    res = cli(["check", "--output-format", "json", "s.py"], tmp_path)
    assert [(f["line"], f["fix"]["safety"], f["fix"]["description"]) for f in res.json["findings"]] == [
        (11, "safe", "drop it: the statement after already logs the same message (`self.logger.info(message)`)"),
        (
            15,
            "safe",
            "drop it: the statement after already logs the same message "
            "(`self.logger.exception(message) / self.logger.error(message)`)",
        ),
    ]
    cli(["fix", "s.py"], tmp_path)
    assert (
        "    async def info(self, message: str) -> None:\n        self.logger.info(message)\n"
        in (tmp_path / "s.py").read_text()
    )


def test_notify19_the_hint_names_the_context_the_code_has(tmp_path: Path) -> None:
    """In a method of a Context subclass the context is ``self``; in a tool it is the parameter."""
    shutil.copyfile(HIDDEN_CASES / "notify_19.py", tmp_path / "server.py")
    found = _all(tmp_path, "server.py")
    assert [(r, line) for r, line, *_ in found] == [("MCP301", 25), ("MCP301", 29)]
    assert "add `await self.notify_tools_changed()` for listen streams" in found[0][2]
    assert "add `await self.notify_prompts_changed()` for listen streams" in found[1][2]
    (tmp_path / "t.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\nshop = FastMCP('s')\n\n\n"
        "@shop.tool()\nasync def open_store(context: Context) -> str:\n"
        "    await context.session.send_tool_list_changed()\n    return 'open'\n",
        encoding="utf-8",
    )
    [(_r, line, message, _s, _m)] = _all(tmp_path, "t.py")
    assert line == 8 and "add `await context.notify_tools_changed()` for listen streams" in message


def test_a_helper_called_within_a_request_is_no_broadcast(tmp_path: Path) -> None:
    """``session: Any`` seeded by a tool's ``ctx.session``: the send runs within that request."""
    (tmp_path / "s.py").write_text(
        "from typing import Any\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('s')\n\n\n"
        "async def helper(session: Any, msg: str) -> None:\n"
        '    await session.send_log_message(level="info", data=msg)\n\n\n'
        "@mcp.tool()\nasync def u(ctx: Context) -> str:\n    await helper(ctx.session, 'hi')\n    return 'ok'\n",
        encoding="utf-8",
    )
    [(rule, line, message, _s, _m)] = _all(tmp_path, "s.py")
    assert (rule, line) == ("MCP401", 9)
    assert message.startswith("`session.send_log_message(…)` is MCP protocol logging: deprecated in 2026-07-28")


def test_a_basicconfig_under_main_after_the_server_does_nothing(tmp_path: Path) -> None:
    """``mcp = FastMCP(...)`` at import, then ``basicConfig(level=logging.WARNING)`` under
    ``if __name__ == "__main__":``: the server's call came first, the root logger is at INFO."""
    _write(
        tmp_path,
        HEAD
        + 'mcp = FastMCP("m")\n'
        + TOOL
        + '\n\nif __name__ == "__main__":\n    logging.basicConfig(level=logging.WARNING)\n    mcp.run()\n',
    )
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path)] == [(10, "unsafe"), (11, "safe"), (12, "safe")]


LEVELLED = """import logging

from mcp.server.fastmcp import Context, FastMCP

logging.basicConfig(level=logging.INFO)
mcp = FastMCP("indexer")
FILES = ["f"] * 42


@mcp.tool()
async def reindex(ctx: Context) -> str:
    await ctx.debug("walking the tree")
    await ctx.info("Indexed 42 files")
    return str(len(FILES))


if __name__ == "__main__":
    mcp.run()
"""


def test_the_level_note_is_what_the_server_prints(tmp_path: Path, legacy_python: str) -> None:
    """Run on mcp 1.x (stdio, field case notify-16's shape): before the fix the client gets both
    messages; after ``fix --unsafe-fixes`` stderr has the INFO line and not the DEBUG one, as the
    unsafe label's note says."""
    _write(tmp_path, LEVELLED, "server.py")
    assert [(ln, safety) for ln, safety, _n in labels(tmp_path, "server.py")] == [(12, "unsafe"), (13, "safe")]
    before, _ = drive(legacy_python, tmp_path, ["server.py"])
    assert before == {"text": ["42"], "client_logs": [["debug", "walking the tree"], ["info", "Indexed 42 files"]]}
    cli(["fix", "--unsafe-fixes", "server.py"], tmp_path)
    after, err = drive(legacy_python, tmp_path, ["server.py"])
    assert after == {"text": ["42"], "client_logs": []}
    assert "Indexed 42 files" in err and "walking the tree" not in err


def test_notify17_the_package_entry_function_is_in_another_module(tmp_path: Path) -> None:
    """Field case notify-17 as written: `tally-mcp = "tally_mcp:main"` runs ``__init__.main``, which
    calls ``server.main()``; the ``__main__`` block of server.py never runs. The rewrite is unsafe
    with the note naming the script and its entry function, and fix adds no handler there."""
    project = tmp_path / "notify_17"
    shutil.copytree(DATA / "notify_17", project)
    out = cli(["check", "--output-format", "json", "--no-cache", "src"], project)
    found = {(f["rule"], f["line"], f["column"]): f for f in json.loads(out.stdout)["findings"]}
    # MCP521: its pyproject.toml's `mcp>=1.0.0` admits mcp 2.x, where this 1.x code does not import
    assert sorted(found) == [("MCP401", 34, 11), ("MCP402", 31, 1), ("MCP521", 4, 18)], out.stdout
    fix = found[("MCP401", 34, 11)]["fix"]
    assert fix["safety"] == "unsafe"
    assert fix["description"].endswith(
        "the project starts through the `tally-mcp` console script, which runs `tally_mcp:main` and never runs "
        'this module\'s `if __name__ == "__main__":` block: configure a handler there, e.g. '
        "`logging.basicConfig(stream=sys.stderr, level=logging.INFO)`)"
    )
    server = project / "src" / "tally_mcp" / "server.py"
    main_block = server.read_text().split('if __name__ == "__main__":')[-1]  # the header quotes it too
    cli(["fix", "--unsafe-fixes", "src"], project)
    fixed = server.read_text()
    assert fixed.splitlines()[33] == '    logging.getLogger("tally").info("threshold now %s", level)', fixed
    assert fixed.split('if __name__ == "__main__":')[-1] == main_block  # no handler where nothing runs it

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

from pathlib import Path

import pytest

from tests.helpers import cli

DATA = Path(__file__).resolve().parent / "data" / "logging_kinds"

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

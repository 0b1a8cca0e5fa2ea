"""ruff's command-line habits (issue 27, item 2): ``--exit-zero``, ``--output-file``,
``--stdin-filename`` with ``-``, ``-q``, ``# noqa: MCP101``, ``# mcpmigrate: ignore-file``, the
blocked-port note of ``check``, unpadded ``explain``/``rules`` in a pipe, plurals, and ``fix``'s
closing block."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from mcpmigrate.cli import main
from tests.helpers import FIRST_ROOT, chdir, cli

ROOTS = FIRST_ROOT.read_text(encoding="utf-8")
ROOTS_LINE = "    roots = await ctx.session.list_roots()\n"


def _stdin(args: list[str], cwd: Path, text: str):
    with chdir(cwd):
        return CliRunner().invoke(main, args, input=text, env={"NO_COLOR": "1", "COLUMNS": "200"})


def test_exit_zero_quiet_and_output_file(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(ROOTS, encoding="utf-8")
    plain = cli(["check", "app.py"], tmp_path)
    assert plain.exit_code == 1
    assert "Found 1 finding (1 breaking) in 1 file; 1 file checked." in plain.stdout
    res = cli(["check", "-q", "--exit-zero", "--output-file", "report.txt", "app.py"], tmp_path)
    assert res.exit_code == 0 and res.stdout == "", str(res)
    report = (tmp_path / "report.txt").read_text(encoding="utf-8")
    assert report.startswith("app.py\n  13:19 MCP101 roots-request (breaking)"), report
    assert "Found" not in report  # -q: the findings only
    assert plain.stdout.startswith(report.rstrip("\n").split("\n\nMCP101")[0])


def test_stdin_check_reports_as_the_given_name(tmp_path: Path) -> None:
    res = _stdin(["check", "--output-format", "concise", "--stdin-filename", "srv/app.py", "-"], tmp_path, ROOTS)
    assert res.exit_code == 1, res.output
    assert res.stdout.startswith("srv/app.py:13:19: MCP101 "), res.stdout
    assert not (tmp_path / "srv").exists()
    usage = _stdin(["check", "--stdin-filename", "x.py", "app.py"], tmp_path, "")
    assert usage.exit_code == 2 and "--stdin-filename needs `-`" in usage.stderr


def test_stdin_fix_writes_the_fixed_source_to_stdout(tmp_path: Path) -> None:
    """The buffer is fixed with the style of the file it stands for: ``srv/``'s ruff line length
    of 200 keeps the new signature on one line; without a configuration, ruff's 88 wraps it."""
    res = _stdin(["fix", "--stdin-filename", "app.py", "-"], tmp_path, ROOTS)
    assert res.exit_code == 0, res.output
    assert "async def scan(\n    pattern: str,\n    root: Annotated[\n        str,\n" in res.stdout, res.stdout
    (tmp_path / "srv").mkdir()
    (tmp_path / "srv" / "pyproject.toml").write_text("[tool.ruff]\nline-length = 200\n", encoding="utf-8")
    res = _stdin(["fix", "--stdin-filename", "srv/app.py", "-"], tmp_path, ROOTS)
    assert res.exit_code == 0, res.output
    assert "async def scan(pattern: str, root: Annotated[str, Field(" in res.stdout, res.stdout
    assert not (tmp_path / "srv" / "app.py").exists()
    assert ROOTS_LINE not in res.stdout and res.stdout.startswith('"""Workspace search server')
    assert "fixed  srv/app.py:13:19 MCP101 roots-request" in res.stderr
    assert "Fixed 1 finding in 1 file; nothing left." in res.stderr


def test_noqa_and_ignore_file(tmp_path: Path) -> None:
    app = tmp_path / "app.py"
    app.write_text(ROOTS.replace(ROOTS_LINE, ROOTS_LINE.rstrip("\n") + "  # noqa: E501, MCP101\n"), encoding="utf-8")
    assert cli(["check", "app.py"], tmp_path).exit_code == 0
    app.write_text(ROOTS.replace(ROOTS_LINE, ROOTS_LINE.rstrip("\n") + "  # noqa: E501\n"), encoding="utf-8")
    assert cli(["check", "app.py"], tmp_path).exit_code == 1  # another tool's code only
    app.write_text(ROOTS.replace(ROOTS_LINE, ROOTS_LINE.rstrip("\n") + "  # noqa: MCP101, MCP401\n"), encoding="utf-8")
    res = cli(["check", "--extend-select", "unused-suppression", "--output-format", "concise", "app.py"], tmp_path)
    assert res.exit_code == 1 and res.stdout.startswith("app.py:13:45: unused-suppression Unused suppression of MCP401")
    app.write_text("# mcpmigrate: ignore-file[MCP101]\n" + ROOTS, encoding="utf-8")
    assert cli(["check", "app.py"], tmp_path).exit_code == 0
    app.write_text("# mcpmigrate: ignore-file[MCP401]\n" + ROOTS, encoding="utf-8")
    res = cli(["check", "--output-format", "concise", "app.py"], tmp_path)
    assert res.exit_code == 1 and res.stdout.startswith("app.py:14:19: MCP101 ")
    app.write_text(ROOTS + "# mcpmigrate: ignore-file\n", encoding="utf-8")
    assert cli(["check", "app.py"], tmp_path).exit_code == 0


PORT = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("p")


@mcp.resource("config://who")
async def t() -> str:
    ctx = mcp.get_context()
    return ctx.request_id
"""


def test_check_says_the_port_is_blocked_and_by_what(tmp_path: Path) -> None:
    (tmp_path / "port.py").write_text(PORT, encoding="utf-8")
    res = cli(["check", "--target-sdk", "mcp2", "port.py"], tmp_path)
    assert res.stdout.endswith(
        "The port to mcp 2.x is blocked, so `mcpmigrate fix` fixes none of the 1 finding counted as fixable "
        "(a port writes every file or none) until a human resolves:\n"
        "  port.py: blocks the port to mcp 2.x: MCP504 at line 8: `t` is a static resource (`config://who` has no "
        "template variables): mcp 2.x's `MCPServer` refuses a `Context` parameter there (ValueError at registration); "
        "make it a template or read what the context gave some other way\n"
    ), res.stdout
    fixed = cli(["fix", "--target-sdk", "mcp2", "port.py"], tmp_path)
    assert "Nothing was fixed; 2 findings left (above)." in fixed.stdout, str(fixed)


def test_fix_lists_only_what_is_left_and_why(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(ROOTS, encoding="utf-8")
    res = cli(["fix", "--strategy", "interim", "app.py"], tmp_path)
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert lines[0] == "Left for a human:"
    assert lines[1].startswith("left   app.py:13:19 MCP101 roots-request: manual: mcp 1.x has no interim form")
    assert lines[2:] == ["Nothing was fixed; 1 finding left (above)."]
    assert "fix (safe" not in res.stdout


def test_explain_and_rules_in_a_pipe_carry_no_trailing_spaces(tmp_path: Path) -> None:
    for args in (["explain", "MCP101"], ["rules"]):
        res = cli(args, tmp_path)
        assert res.exit_code == 0
        padded = [line for line in res.stdout.splitlines() if line != line.rstrip()]
        assert padded == [], padded[:3]
        assert "MCP101" in res.stdout

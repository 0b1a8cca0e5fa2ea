"""Every input handled: syntax newer than the running interpreter, syntax errors (reported only
in files with something MCP in them, with Python's message and one position), ``fix --diff``
writing nothing, and file names that are not valid UTF-8 in every report format."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from mcpmigrate.config import ConfigError, load_config, lowest_python
from tests.helpers import MCP104_SOURCE, cli, write_pyproject

# PEP 701 (Python 3.12): the same quote inside the braces of an f-string. libcst parses it with
# the 3.12 grammar; Python 3.11 cannot compile it.
PEP701_SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("quotes")
CFG = {"name": "x"}


@mcp.tool()
async def where(ctx: Context) -> str:
    await ctx.session.send_ping()
    return f"{CFG["name"]}: pong"
"""


# --- the project's grammar -------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, expected",
    [
        (">=3.10", "3.10"),
        (">=3.10,<4", "3.10"),
        (">=3.10.2", "3.10"),
        ("~=3.12.1", "3.12"),
        ("==3.11.*", "3.11"),
        (">3.11", "3.11"),
        (">=3.13", "3.13"),
        ("<3", None),
        ("not a spec", None),
    ],
)
def test_lowest_python_of_requires_python(spec: str, expected: str | None) -> None:
    assert lowest_python(spec) == expected


def test_target_version_from_requires_python_and_from_the_config(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.12"\n')
    assert load_config(start=tmp_path).target_version == "3.12"
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nrequires-python = ">=3.10"\n\n[tool.mcpmigrate]\ntarget-version = "py313"\n'
    )
    assert load_config(start=tmp_path).target_version == "3.13"
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nselect = ["MCP1"]\n')
    assert load_config(start=tmp_path).target_version is None


def test_unknown_target_version_is_a_config_error(tmp_path: Path) -> None:
    write_pyproject(tmp_path, 'target-version = "3.12"\n')
    with pytest.raises(ConfigError):
        load_config(start=tmp_path)
    (tmp_path / "s.py").write_text(MCP104_SOURCE)
    res = cli(["check", "s.py"], tmp_path)
    assert res.exit_code == 2, str(res)
    assert res.stderr == (
        f"mcpmigrate: error: {tmp_path / 'pyproject.toml'}: [tool.mcpmigrate].target-version: "
        "expected one of py37, py38, py39, py310, py311, py312, py313, py314, py315, "
        "got a string ('3.12')\n"
    )


def test_parse_uses_the_project_grammar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import libcst

    seen = tmp_path / "seen.txt"  # a file: on an older Python the parse runs in a child process
    real = libcst.parse_module

    def spy(source, config=None):
        with seen.open("a") as fh:
            fh.write(f"{getattr(config, 'python_version', None)}\n")
        return real(source, config=config) if config is not None else real(source)

    monkeypatch.setattr(libcst, "parse_module", spy)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.12"\n')
    (tmp_path / "s.py").write_text(PEP701_SERVER)
    res = cli(["check", "--output-format", "json", "s.py"], tmp_path)
    assert [(f["rule"], f["line"]) for f in res.json["findings"]] == [("MCP203", 9)]
    assert seen.read_text().splitlines() == ["3.12"]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the interpreter compiles PEP 701 f-strings")
def test_fix_of_a_file_newer_than_the_interpreter(tmp_path: Path) -> None:
    """bugs-16: the original does not compile on the interpreter running mcpmigrate, so a fix
    could not be compiled or name-checked (pyflakes reads ``ast``): ``check`` reports as usual,
    ``fix`` says which Python to run it under instead of blaming its own rewrite, and writes
    nothing."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.12"\n')
    (tmp_path / "s.py").write_text(PEP701_SERVER)
    checked = cli(["check", "--output-format", "json", "s.py"], tmp_path)
    assert [(f["rule"], f["line"]) for f in checked.json["findings"]] == [("MCP203", 9)]
    res = cli(["fix", "s.py"], tmp_path)
    assert res.exit_code == 1, str(res)
    assert res.stderr == (
        "error: s.py: fix not applied: this file uses syntax newer than Python "
        f"{sys.version_info.major}.{sys.version_info.minor}, the interpreter running mcpmigrate "
        "(f-string: unmatched '[', line 10); run mcpmigrate under Python >= 3.12 to fix it\n"
    )
    assert (tmp_path / "s.py").read_text() == PEP701_SERVER


# --- syntax errors ---------------------------------------------------------------------------


def test_syntax_error_in_a_file_without_mcp_is_not_reported(tmp_path: Path) -> None:
    # `.info(` lets the file through the token prefilter; nothing in it is MCP
    (tmp_path / "app.py").write_text('import logging\nlog = logging.getLogger()\n\ndef f(:\n    log.info("x")\n')
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert res.json["errors"] == [] and res.json["findings"] == []
    assert res.json["files_checked"] == 1


def test_syntax_error_in_an_mcp_file_has_pythons_message_and_one_position(tmp_path: Path) -> None:
    (tmp_path / "srv.py").write_text(
        'from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("x")\ndef f(:\n    mcp.info("x")\n'
    )
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1, str(res)
    try:
        compile((tmp_path / "srv.py").read_bytes(), "srv.py", "exec")
    except SyntaxError as exc:
        msg, col = exc.msg, exc.offset  # Python's own words, whatever the interpreter's version
    assert (msg, col) == ("invalid syntax", 7) or sys.version_info >= (3, 12)
    expected = f"cannot parse: {msg} (line 3, column {col})"
    assert res.json["errors"] == [{"path": "srv.py", "message": expected, "line": 3, "column": col}]
    res = cli(["check", "--output-format", "github", "."], tmp_path)
    assert res.stdout == f"::error file=srv.py,line=3,col={col},title=mcpmigrate::srv.py: {expected}\n"
    doc = json.loads(cli(["check", "--output-format", "sarif", "."], tmp_path).stdout)
    [note] = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "startColumn": col}
    res = cli(["check", "."], tmp_path)
    assert f"error: srv.py: {expected}\n" in res.stderr


# --- fix --diff --------------------------------------------------------------------------------


def test_fix_diff_creates_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MCPMIGRATE_NO_CACHE", raising=False)
    (tmp_path / "caps.py").write_text(MCP104_SOURCE)
    (tmp_path / "clean.py").write_text("import os\n")
    res = cli(["fix", "--diff", "."], tmp_path)
    assert res.exit_code == 1, str(res)
    assert sorted(os.listdir(tmp_path)) == ["caps.py", "clean.py"]
    res = cli(["check", "."], tmp_path)  # check still writes it
    assert ".mcpmigrate_cache" in os.listdir(tmp_path)


# --- file names that are not valid UTF-8 -------------------------------------------------------

PING_SERVER = b"""from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("ping-demo")


@mcp.tool()
async def probe(ctx: Context) -> str:
    await ctx.session.send_ping()
    return "ok"
"""
PING_MESSAGE = (
    "The server pings the client; `ping` is removed in 2026-07-28 (mcp 2.x raises "
    "NoBackChannelError on a modern connection). Delete the call: a liveness check has no replacement."
)


@pytest.fixture
def latin1_name(tmp_path: Path) -> Path:
    if sys.platform == "darwin" or os.name == "nt":  # pragma: no cover - these file systems refuse the name
        pytest.skip("the file system does not accept a file name that is not valid UTF-8")
    with open(os.path.join(os.fsencode(tmp_path), b"caf\xe9.py"), "wb") as fh:
        fh.write(PING_SERVER)
    return tmp_path


def test_non_utf8_name_in_json_has_no_lone_surrogate(latin1_name: Path) -> None:
    res = cli(["check", "--output-format", "json", "."], latin1_name)
    assert res.exit_code == 1, str(res)
    assert [(f["path"], f["line"], f["column"]) for f in res.json["findings"]] == [("caf\\xe9.py", 8, 11)]
    assert '"path": "caf\\\\xe9.py"' in res.stdout
    res.stdout.encode("utf-8")  # strict: no lone surrogate anywhere


def test_non_utf8_name_in_sarif_is_percent_encoded(latin1_name: Path) -> None:
    res = cli(["check", "--output-format", "sarif", "."], latin1_name)
    [result] = json.loads(res.stdout)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "caf%E9.py",
        "uriBaseId": "%SRCROOT%",
    }
    res.stdout.encode("utf-8")


def test_non_utf8_name_in_github_is_not_attached_to_another_file(latin1_name: Path) -> None:
    res = cli(["check", "--output-format", "github", "."], latin1_name)
    assert res.stdout == (
        "::error title=MCP203 server-ping::caf\\xe9.py:8:11: MCP203 " + PING_MESSAGE + " (fix, safe: delete the ping)\n"
    )


def test_non_utf8_name_in_text_and_concise(latin1_name: Path) -> None:
    res = cli(["check", "--output-format", "concise", "."], latin1_name)
    assert res.stdout == f"caf\\xe9.py:8:11: MCP203 {PING_MESSAGE}\n"
    res = cli(["check", "."], latin1_name)
    assert res.stdout.splitlines()[0] == "caf\\xe9.py"


def test_non_utf8_name_in_a_diff_is_quoted_as_git_does(latin1_name: Path) -> None:
    res = cli(["fix", "--diff", "."], latin1_name)
    assert res.stdout.splitlines()[:2] == ['--- "a/caf\\351.py"', '+++ "b/caf\\351.py"']
    assert "-    await ctx.session.send_ping()\n" in res.stdout


def test_non_utf8_name_matches_its_baseline_entry(latin1_name: Path) -> None:
    (latin1_name / "baseline.json").write_text(cli(["check", "--output-format", "json", "."], latin1_name).stdout)
    res = cli(["check", "--baseline", "baseline.json", "."], latin1_name)
    assert res.exit_code == 0, str(res)


def test_text_facts_screen_at_least_what_ast_facts_screen() -> None:
    """A file ``ast`` cannot parse is judged by facts read from its text; on every fixture (which
    ``ast`` does parse) those facts must let through every detector the ``ast`` facts let through,
    so a syntax error is never hidden in a file the screens would have parsed."""
    from mcpmigrate.detectors import all_detectors
    from mcpmigrate.screen import facts_of, facts_of_text

    root = Path(__file__).resolve().parent.parent
    sources = sorted((root / "fixtures").rglob("*.py"))
    screens = [(det.__name__, det.screen) for det in all_detectors() if getattr(det, "screen", None)]
    assert screens
    missed = []
    for path in sources:
        data = path.read_bytes()
        exact = facts_of(data)
        if exact is None:
            continue
        rough = facts_of_text(data)
        missed += [(path.name, name) for name, screen in screens if screen(exact) and not screen(rough)]
    assert missed == []

"""``mcpmigrate verify`` end to end on real SDK environments, and the Markdown report.

Each project is a git repository made here: the server as its maintainer committed it on mcp 1.27
(or fastmcp 3.4), and the working tree after ``mcpmigrate fix --target-sdk ...``, sometimes with a
change seeded by hand. ``verify`` runs the committed server on the legacy environment the suite
builds (``legacy_python``, ``fastmcp3_python``) and the working tree's on the test environment's
mcp 2.3 / fastmcp 4.2, each on a legacy and a 2026-07-28 connection, over stdio.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import cli

REPO = Path(__file__).resolve().parent.parent
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "m",
    "GIT_AUTHOR_EMAIL": "m@example.com",
    "GIT_COMMITTER_NAME": "m",
    "GIT_COMMITTER_EMAIL": "m@example.com",
}

CALC = '''\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("calc")


@mcp.tool()
def divide(a: int, b: int) -> float:
    """Divide a by b."""
    if b == 0:
        raise ValueError("division by zero")
    return a / b


@mcp.tool()
def scale(value: float, factor: float) -> float:
    """Multiply a value by a factor."""
    return value * factor


@mcp.resource("config://settings")
def settings() -> str:
    """The calculator's settings."""
    return "precision=2"


@mcp.prompt()
def explain(expression: str) -> str:
    """Ask for an explanation of an expression."""
    return f"Explain {expression}"
'''
CALC_MAIN = "from calc.server import mcp\n\nmcp.run()\n"
CALC_PYPROJECT = """\
[project]
name = "calc"
version = "0.1.0"
dependencies = ["mcp==1.27.0"]

[tool.mcpmigrate.verify]
calls = [
  {tool = "divide", arguments = {a = 1, b = 0}},
  {tool = "divide", arguments = {a = 9, b = 4}},
  {tool = "scale", arguments = {value = 2, factor = 3}},
]
"""

NOTES = '''\
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("notes")
NOTES = {"a": "alpha"}


@mcp.tool(title="Read a note")
def read_note(key: str) -> str:
    """Read one note."""
    if key not in NOTES:
        raise ToolError(f"no note {key!r}")
    return NOTES[key]


@mcp.resource("notes://index")
def index() -> str:
    """The note keys."""
    return ",".join(sorted(NOTES))


calc = FastMCP("calc")


@calc.tool(title="Add")
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


mcp.mount(calc, prefix="calc")


def main() -> None:
    mcp.run()
'''
NOTES_PYPROJECT = """\
[project]
name = "notes"
version = "0.1.0"
dependencies = ["fastmcp==3.4.11"]

[project.scripts]
notes-server = "notes.server:main"

[tool.mcpmigrate.verify]
calls = [
  {tool = "read_note", arguments = {key = "a"}},
  {tool = "read_note", arguments = {key = "zz"}},
  {tool = "calc_add", arguments = {a = 2, b = 3}},
]
"""

SUMMARY_LINE = re.compile(r"\(\d+\.\d s\)")
HANDSHAKE_NOTE = (
    "(the before server serves only handshake-era connections (2025-11-25): compared with its legacy answers)"
)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, env=GIT_ENV, capture_output=True)


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    """A git repository with ``files`` committed (the code before the migration)."""
    repo = tmp_path / "project"
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "the server before the migration")
    return repo


def _calc(tmp_path: Path) -> Path:
    return _project(
        tmp_path,
        {
            "calc/__init__.py": "",
            "calc/server.py": CALC,
            "calc/__main__.py": CALC_MAIN,
            "pyproject.toml": CALC_PYPROJECT,
        },
    )


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def _verify(repo: Path, before_python: str | None, after_python: str, *more: str):
    """``mcpmigrate verify`` on ``repo`` (``before_python`` None: its environment is built); asserts
    it wrote nothing into the project."""
    files = _snapshot(repo)
    given = ["--before-python", before_python] if before_python else []
    result = cli(["verify", repo, *given, "--after-python", after_python, *more], repo)
    assert result.exception is None, str(result)
    assert _snapshot(repo) == files, "verify wrote into the project"
    return result


def _lines(stdout: str) -> list[str]:
    """The report without its first two lines (interpreter paths) and the run's duration."""
    return [SUMMARY_LINE.sub("(<s>)", line) for line in stdout.splitlines()[2:]]


# -- mcp 1.27 -> 2.3 -------------------------------------------------------------------------


def test_an_identical_mcp2_port_verifies_clean(tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    repo = _calc(tmp_path)
    assert cli(["fix", "--target-sdk", "mcp2", repo], repo).exit_code == 0
    result = _verify(repo, legacy_python, mcp2_python)
    assert result.exit_code == 0, str(result)
    head = result.stdout.splitlines()[:2]
    assert (
        head[0].startswith("before: HEAD (") and ") on mcp 1.27.0, fastmcp 2.14.7, started as python -m calc" in head[0]
    )
    assert head[1].startswith("after:  working tree on mcp 2.3.0, fastmcp 4.2.3, started as python -m calc")
    assert _lines(result.stdout) == [
        "legacy (2025-11-25): identical",
        f"2026-07-28: identical {HANDSHAKE_NOTE}",
        "Identical in both eras: listings and 3 declared calls (<s>).",
    ]


def test_seeded_changes_are_reported_with_the_exact_difference(
    tmp_path: Path, legacy_python: str, mcp2_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three changes a client sees, each reported exactly, in both eras, as Markdown (and the same
    report appended to the GitHub job summary): ported without MCP510's wrap, mcp 2.x no longer
    sends the exception's message (a dropped error text); a parameter renamed by hand (the listing
    and the call that passes the old name); a resource's description edited (a listing change)."""
    repo = _calc(tmp_path)
    assert cli(["fix", "--target-sdk", "mcp2", "--ignore", "MCP510", repo], repo).exit_code == 0
    server = repo / "calc" / "server.py"
    text = server.read_text(encoding="utf-8").replace("factor: float", "by: float").replace("* factor", "* by")
    server.write_text(text.replace('"""The calculator\'s settings."""', '"""Settings."""'), encoding="utf-8")
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = _verify(repo, legacy_python, mcp2_python, "--output-format", "markdown")
    assert result.exit_code == 1, str(result)
    body = SUMMARY_LINE.sub("(<s>)", result.stdout)
    missing = (
        "Error executing tool scale: 1 validation error for scaleArguments\\nby\\n  Field required [type=missing, "
        "input_value={'value': 2, 'factor': 3}, input_type=dict]\\n    For further information visit "
        "https://errors.pydantic.dev/2.14/v/missing"
    )
    era = [
        "- tools/list: tool `scale` changed",
        '  - `inputSchema.properties.by`: (absent) → `{"title": "By", "type": "number"}`',
        '  - `inputSchema.properties.factor`: `{"title": "Factor", "type": "number"}` → (absent)',
        '  - `inputSchema.required[1]`: `"factor"` → `"by"`',
        "- resources/list: resource `config://settings` changed",
        '  - `description`: `"The calculator\'s settings."` → `"Settings."`',
        '- call 1 divide {"a": 1, "b": 0}',
        '  - `content[0].text`: `"Error executing tool divide: division by zero"` → `"Error executing tool divide"`',
        '- call 3 scale {"factor": 3, "value": 2}',
        f'  - `content[0].text`: `"6.0"` → `"{missing}"`',
        "  - `isError`: `false` → `true`",
        '  - `structuredContent`: `{"result": 6.0}` → `null`',
        "",
    ]
    assert body.split("\n")[7:] == [
        "### legacy (2025-11-25): 4 differences",
        "",
        *era,
        "### 2026-07-28: 4 differences",
        "",
        "_the before server serves only handshake-era connections (2025-11-25): compared with its legacy answers._",
        "",
        *era,
        "**Found 8 differences (legacy (2025-11-25), 2026-07-28); listings and 3 declared calls compared (<s>).**",
        "",
    ]
    assert body.startswith("## mcpmigrate verify\n\n| | code | SDK | started as | environment |\n")
    assert "| after | working tree | mcp 2.3.0, fastmcp 4.2.3 | `python -m calc` | given |" in body
    assert summary.read_text(encoding="utf-8") == "earlier step\n" + result.stdout


def test_a_server_that_will_not_start_is_a_clear_exit_2(tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    repo = _calc(tmp_path)
    assert cli(["fix", "--target-sdk", "mcp2", repo], repo).exit_code == 0
    server = repo / "calc" / "server.py"
    server.write_text("import calc_helpers\n" + server.read_text(encoding="utf-8"), encoding="utf-8")
    result = _verify(repo, legacy_python, mcp2_python)
    assert result.exit_code == 2, str(result)
    assert result.stdout == ""
    assert result.stderr == (
        "mcpmigrate: error: could not verify: the after server (working tree, started as python -m calc) did not "
        "answer on a legacy (2025-11-25) connection: server: ModuleNotFoundError: No module named 'calc_helpers'\n"
    )


def test_a_server_that_does_not_answer_in_time_is_exit_2(tmp_path: Path, legacy_python: str, mcp2_python: str) -> None:
    """`--timeout` bounds the start: a server that hangs at import is stopped and named."""
    repo = _calc(tmp_path)
    assert cli(["fix", "--target-sdk", "mcp2", repo], repo).exit_code == 0
    main = repo / "calc" / "__main__.py"
    main.write_text("import time\n\ntime.sleep(600)\n" + main.read_text(encoding="utf-8"), encoding="utf-8")
    result = _verify(repo, legacy_python, mcp2_python, "--timeout", "3")
    assert result.exit_code == 2, str(result)
    assert result.stderr == (
        "mcpmigrate: error: could not verify: the after server (working tree, started as python -m calc) did not "
        "answer on a legacy (2025-11-25) connection: no answer within 3 s\n"
    )


# -- fastmcp 3.4 -> 4.2 ----------------------------------------------------------------------


def _notes(tmp_path: Path, server: str = NOTES) -> Path:
    return _project(tmp_path, {"notes/__init__.py": "", "notes/server.py": server, "pyproject.toml": NOTES_PYPROJECT})


def test_an_identical_fastmcp4_port_verifies_clean(tmp_path: Path, fastmcp3_python: str, mcp2_python: str) -> None:
    """`mount(prefix=)` becomes `mount(namespace=)`; the mounted tool keeps its name and answers."""
    repo = _notes(tmp_path)
    fixed = cli(["fix", "--target-sdk", "fastmcp4", repo], repo)
    assert "MCP512" in fixed.stdout and fixed.exit_code == 0, str(fixed)
    result = _verify(repo, fastmcp3_python, mcp2_python)
    assert result.exit_code == 0, str(result)
    head = result.stdout.splitlines()[:2]
    assert "fastmcp 3.4.11, started as console script notes-server (notes.server:main)" in head[0]
    assert "on mcp 2.3.0, fastmcp 4.2.3, started as console script notes-server (notes.server:main)" in head[1]
    assert _lines(result.stdout) == [
        "legacy (2025-11-25): identical",
        f"2026-07-28: identical {HANDSHAKE_NOTE}",
        "Identical in both eras: listings and 3 declared calls (<s>).",
    ]


def test_fastmcp4s_derived_tool_title_is_a_difference(tmp_path: Path, fastmcp3_python: str, mcp2_python: str) -> None:
    """A tool without `title=`: fastmcp 4 lists a title derived from its name, fastmcp 3 none —
    what a client shows for the tool changes, and no code change in the port can keep it."""
    repo = _notes(tmp_path, NOTES.replace('@mcp.tool(title="Read a note")', "@mcp.tool"))
    fixed = cli(["fix", "--target-sdk", "fastmcp4", repo], repo)
    # the port says so too (MCP520, advisory, left): the one difference verify finds below
    assert fixed.exit_code == 1, str(fixed)
    assert "left   notes/server.py:9:5 MCP520 port-fastmcp-tool-listing" in fixed.stdout, str(fixed)
    assert "MCP520" not in fixed.stdout.replace("notes/server.py:9:5 MCP520", ""), str(fixed)  # only read_note
    result = _verify(repo, fastmcp3_python, mcp2_python)
    assert result.exit_code == 1, str(result)
    era = ["  tools/list: tool `read_note` changed", '      title: (absent) → "Read Note"']
    assert _lines(result.stdout) == [
        "legacy (2025-11-25): 1 difference",
        *era,
        f"2026-07-28: 1 difference {HANDSHAKE_NOTE}",
        *era,
        "Found 2 differences (legacy (2025-11-25), 2026-07-28); listings and 3 declared calls compared (<s>).",
    ]


# -- environments built from the project's own pins ------------------------------------------


def test_the_before_environment_is_built_from_the_revisions_pins_and_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mcp2_python: str
) -> None:
    """No --before-python: the before code gets mcp 1.27 from its committed requirements.txt (the
    working tree's says mcp>=2.3,<3 after the port), in the cache, and the next run finds it there.
    The cache is the suite's own (.cache/verify-envs): built once per machine."""
    from mcpmigrate.verify.envs import environment

    cache = REPO / ".cache" / "verify-envs"
    monkeypatch.setenv("MCPMIGRATE_VERIFY_CACHE", str(cache))
    files = {"calc/__init__.py": "", "calc/server.py": CALC, "calc/__main__.py": CALC_MAIN}
    files["requirements.txt"] = "mcp==1.27.0\n"
    files["pyproject.toml"] = CALC_PYPROJECT.replace('dependencies = ["mcp==1.27.0"]\n', "")
    repo = _project(tmp_path, files)
    assert cli(["fix", "--target-sdk", "mcp2", repo], repo).exit_code == 0
    assert (repo / "requirements.txt").read_text(encoding="utf-8") == "mcp>=2.3,<3\n"
    result = _verify(repo, None, mcp2_python)
    assert result.exit_code == 0, str(result)
    before = result.stdout.splitlines()[0]
    assert re.search(r" on mcp 1\.27\.0, started as python -m calc \(environment: (built|cached), ", before), before
    python = before.rsplit(", ", 1)[1].rstrip(")")
    assert python.startswith(str(cache))
    committed = tmp_path / "committed"
    committed.mkdir()
    (committed / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    log: list[str] = []
    assert environment(committed, tmp_path / "work", log) == (python, True)
    assert log == [f"reused {Path(python).parent.parent} (requirements.txt)"]


def test_an_environment_that_will_not_build_is_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPMIGRATE_VERIFY_CACHE", str(tmp_path / "cache"))
    repo = _project(tmp_path, {"server.py": CALC, "requirements.txt": "mcp = = 1\n"})
    result = cli(["verify", repo, "--after-python", sys.executable], repo)
    assert result.exit_code == 2, str(result)
    assert result.stderr.startswith("mcpmigrate: error: could not verify: the before environment (HEAD ("), str(result)
    assert ")) would not build: pip install (requirements.txt) failed (exit 1):" in result.stderr


# -- what verify refuses before starting anything --------------------------------------------


def test_verify_outside_git_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(CALC, encoding="utf-8")
    result = cli(["verify", tmp_path, "--before-python", "python", "--after-python", "python"], tmp_path)
    assert result.exit_code == 2
    assert result.stderr == (
        f"mcpmigrate: error: could not verify: {tmp_path.resolve()} is not in a git repository (verify compares "
        "the working tree with a git revision)\n"
    )


def test_an_unknown_verify_key_is_exit_2(tmp_path: Path) -> None:
    repo = _calc(tmp_path)
    (repo / "pyproject.toml").write_text(CALC_PYPROJECT + "call = []\n", encoding="utf-8")
    result = cli(["verify", repo, "--before-python", "python", "--after-python", "python"], repo)
    assert result.exit_code == 2
    assert result.stderr == (
        "mcpmigrate: error: could not verify: pyproject.toml: [tool.mcpmigrate.verify]: unknown key 'call' "
        "(known: command, calls, env, timeout, mask)\n"
    )
    checked = cli(["check", repo], repo)  # `check` accepts the table it does not read
    assert checked.exit_code == 0, str(checked)


def test_a_project_with_two_console_scripts_must_name_one(tmp_path: Path) -> None:
    pyproject = NOTES_PYPROJECT.replace(
        'notes-server = "notes.server:main"', 'notes-server = "notes.server:main"\nnotes-admin = "notes.admin:main"'
    )
    repo = _project(tmp_path, {"notes/__init__.py": "", "notes/server.py": NOTES, "pyproject.toml": pyproject})
    result = cli(["verify", repo, "--before-python", "python", "--after-python", "python"], repo)
    assert result.exit_code == 2
    assert result.stderr == (
        "mcpmigrate: error: could not verify: [project.scripts] has 2 console scripts (notes-admin, notes-server): "
        'name the server\'s in [tool.mcpmigrate.verify] command = ["<script>", ...]\n'
    )


# -- the Markdown report of check and fix ----------------------------------------------------

SERVER = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def scan(pattern: str, ctx: Context) -> str:
    roots = await ctx.session.list_roots()
    base = Path(roots.roots[0].uri.path)
    return ",".join(p.name for p in base.glob(pattern))


@mcp.tool()
async def draft(topic: str, ctx: Context) -> str:
    reply = await ctx.session.create_message(messages=[], max_tokens=10)
    return str(reply)
"""
SAMPLING_LEFT = (
    "| `server.py:{line}` | MCP201 sampling-request | breaking | The server asks the client's model to sample in "
    "`draft`. | manual: mcp 1.x has no interim form (it cannot serve 2026-07-28 at all): upgrade to mcp 2.x "
    "(`MCPServer`, or `Server(on_call_tool=…)`) and run `fix --strategy interim` again; "
    "`fix --target-sdk mcp2 --strategy interim` does both in one run | "
    "specification/2026-07-28/changelog (server-to-client requests removed; Sampling deprecated, SEP-2577); "
    "specification/2026-07-28/basic/utilities/input-required; schema/2026-07-28/schema.ts (InputRequest = "
    "CreateMessageRequest \\| ListRootsRequest \\| ElicitRequest); `mcpmigrate explain MCP201` |"
)


def _left_for_a_human(line: int) -> list[str]:
    """The report's last block: the sampling request of `draft`, at ``line``."""
    return [
        "### Left for a human (1)",
        "",
        "| where | rule | severity | what | why it is left | read |",
        "|---|---|---|---|---|---|",
        SAMPLING_LEFT.replace("{line}", str(line)),
    ]


def test_check_as_markdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    result = cli(["check", "--output-format", "markdown", "server.py"], tmp_path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "## mcpmigrate check",
        "",
        "1 file(s) checked; **2 findings** (2 breaking).",
        "",
        "### Fixable with `mcpmigrate fix` (1)",
        "",
        "| where | rule | fix |",
        "|---|---|---|",
        "| `server.py:10` | MCP101 roots-request | fix (safe, param): add a documented `root` parameter to `scan` "
        "and drop the roots request |",
        "",
        *_left_for_a_human(17),
    ]
    assert summary.read_text(encoding="utf-8") == result.stdout


def test_fix_as_markdown(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    result = cli(["fix", "--output-format", "markdown", "server.py"], tmp_path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "## mcpmigrate fix",
        "",
        "1 file(s) checked; **1 fixed** in 1 file(s); **1 left** (1 breaking).",
        "",
        "### Fixed",
        "",
        "| rule | safety | count | what the fix does |",
        "|---|---|---|---|",
        "| MCP101 roots-request | safe | 1 | add a documented `root` parameter to `scan` and drop the roots request |",
        "",
        "Changed: `server.py`",
        "",
        *_left_for_a_human(26),  # in the fixed file (its rewritten header wrapped as ruff format does)
    ]
    assert "    root: Annotated[\n        str,\n" in (tmp_path / "server.py").read_text(encoding="utf-8")


def test_uv_lock_versions_hold_the_pins_unless_the_pins_moved(tmp_path: Path) -> None:
    """uv.lock's versions hold the pins of [project].dependencies; after a port re-pinned mcp (and
    left uv.lock for `uv lock`), the lock describes another environment and is not used."""
    from mcpmigrate.verify.envs import requirements

    pyproject = '[project]\nname = "srv"\nversion = "1"\ndependencies = ["mcp>=1.27", "httpx>=0.28"]\n'
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (tmp_path / "uv.lock").write_text(
        "version = 1\n"
        '[[package]]\nname = "srv"\nversion = "1"\nsource = { editable = "." }\n'
        '[[package]]\nname = "mcp"\nversion = "1.27.0"\nsource = { registry = "https://pypi.org/simple" }\n'
        '[[package]]\nname = "HTTPX"\nversion = "0.28.1"\nsource = { registry = "https://pypi.org/simple" }\n',
        encoding="utf-8",
    )
    req = requirements(tmp_path, tmp_path / "work")
    constraints = tmp_path / "work" / "uv-lock-constraints.txt"
    assert req.args == ("mcp>=1.27", "httpx>=0.28", "-c", str(constraints))
    assert constraints.read_text(encoding="utf-8") == "httpx==0.28.1\nmcp==1.27.0\n"
    assert req.source == "pyproject.toml [project].dependencies, versions of uv.lock"
    (tmp_path / "pyproject.toml").write_text(pyproject.replace("mcp>=1.27", "mcp>=2.3,<3"), encoding="utf-8")
    req = requirements(tmp_path, tmp_path / "work")
    assert req.args == ("mcp>=2.3,<3", "httpx>=0.28")
    assert req.source == (
        "pyproject.toml [project].dependencies; uv.lock not used: it locks mcp 1.27.0, which the pins exclude"
    )


def test_a_long_text_is_shown_where_it_starts_to_differ() -> None:
    """Two 300-character error texts that differ in pydantic's version (in its help URL): the
    report shows the tail where they differ, not 240 identical characters."""
    from mcpmigrate.verify.compare import field_changes

    head = "Error executing tool search: 1 validation error " + "x" * 260
    changes = field_changes(
        {"text": head + "pydantic.dev/2.12/v/list_type"}, {"text": head + "pydantic.dev/2.14/v/list_type"}
    )
    tail = "x" * 44 + "pydantic.dev/2.1"
    assert changes == [("text", f'"…{tail}2/v/list_type"', f'"…{tail}4/v/list_type"')]


def test_masks_apply_to_json_inside_a_text_result() -> None:
    """`mask` hides a value the server makes up on every run, in structured content and in the
    JSON text a tool returns alike; the 2026-07-28 serverInfo stamp is dropped."""
    from mcpmigrate.verify.driver import normalize

    answer = {
        "content": [{"type": "text", "text": '{"query_id": "b06723c0dd39ecc8", "files": 3}'}],
        "structuredContent": {"query_id": "b06723c0dd39ecc8", "files": 3},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s"}},
    }
    assert normalize(answer, {}, [r"\b[0-9a-f]{16}\b"]) == {
        "content": [{"type": "text", "text": '{"query_id": "<masked>", "files": 3}'}],
        "structuredContent": {"query_id": "<masked>", "files": 3},
    }


def test_a_mask_that_matches_json_syntax_masks_values_instead_of_crashing() -> None:
    """A mask matching a bare number (a timestamp in structured content) or a quote would leave the
    masked JSON text unparseable: each value is masked on its own instead."""
    from mcpmigrate.verify.driver import normalize

    answer = {"structuredContent": {"elapsed": 48213.94, "files": 3, "id": "ab12"}}
    assert normalize(answer, {}, [r"\d{5}\.\d+"]) == {
        "structuredContent": {"elapsed": "<masked>", "files": 3, "id": "ab12"}
    }
    assert normalize(answer, {}, ['"ab12"', r"\bab12\b"]) == {
        "structuredContent": {"elapsed": 48213.94, "files": 3, "id": "<masked>"}
    }


def test_posix_times_with_a_fraction_are_volatile() -> None:
    """A file's mtime or `time.time()` (seconds since the epoch, with a fraction) differs between the
    original's run and the fixed one's on every server that reports one (a trial's file server):
    masked without a `mask` entry, as a bare number and inside a text alike; ids, sizes and whole
    numbers stay."""
    from mcpmigrate.verify.driver import normalize

    answer = {
        "structuredContent": {"modified": 1796222448.94, "size": 1796222448, "v": 1.796222448},
        "content": [{"type": "text", "text": "saved at 1764700123.5 (build 1764700123)"}],
    }
    assert normalize(answer) == {
        "structuredContent": {"modified": 0.0, "size": 1796222448, "v": 1.796222448},
        "content": [{"type": "text", "text": "saved at 0.0 (build 1764700123)"}],
    }


def test_fix_diff_as_markdown_previews_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    result = cli(["fix", "--diff", "--output-format", "markdown", "server.py"], tmp_path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[:5] == [
        "## mcpmigrate fix --diff",
        "",
        "1 file(s) checked; **1 would be fixed** in 1 file(s); **1 left** (1 breaking).",
        "",
        "### Would be fixed",
    ]
    assert "Would change: `server.py`" in lines
    assert lines[lines.index("<details><summary>diff</summary>") + 2 :][:3] == [
        "```diff",
        "--- a/server.py",
        "+++ b/server.py",
    ]
    assert "-    roots = await ctx.session.list_roots()" in lines
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == SERVER

"""The port to mcp 2.x is opt-in (``--target-sdk mcp2`` or ``target-sdk = "mcp2"``) and
project-wide: ``fix`` ports every file or writes none, naming the files that block it, and
re-pins the project's ``mcp`` requirement when the port goes through."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpmigrate.cli import TARGET_SDKS as CLI_TARGET_SDKS
from mcpmigrate.codemods.port.project import repin
from mcpmigrate.config import TARGET_SDKS
from tests.helpers import FIXTURES, cli, copy_to, findings_of, write_pyproject

CLOCK = FIXTURES / "port" / "lowlevel_clock"
NOTES = FIXTURES / "port" / "fastmcp_notes"
BLOCKED = """from mcp.server import Server

server = Server("files")


@server.progress_notification()
async def progress(token, done, total, message):
    pass
"""


def test_the_cli_and_the_config_know_the_same_targets() -> None:
    assert CLI_TARGET_SDKS == TARGET_SDKS


def test_without_a_target_no_port_rule_runs(tmp_path: Path) -> None:
    copy_to(NOTES / "before.py", tmp_path, "app.py")
    res = cli(["check", "--select", "MCP5", "--output-format", "json", "app.py"], tmp_path)
    assert res.json["findings"] == [] and res.exit_code == 0, str(res)
    fixed = cli(["fix", "app.py"], tmp_path)
    assert (tmp_path / "app.py").read_bytes() == (NOTES / "before.py").read_bytes(), str(fixed)


def test_the_config_key_turns_the_port_on(tmp_path: Path) -> None:
    copy_to(NOTES / "before.py", tmp_path, "app.py")
    write_pyproject(tmp_path, 'target-sdk = "mcp2"\n')
    res = cli(["check", "--output-format", "json", "app.py"], tmp_path)
    assert findings_of(res) == [("MCP501", 4), ("MCP501", 5), ("MCP501", 6), ("MCP501", 16), ("MCP501", 23)]


def test_an_unknown_target_is_a_configuration_error(tmp_path: Path) -> None:
    write_pyproject(tmp_path, 'target-sdk = "mcp3"\n')
    res = cli(["check", "."], tmp_path)
    assert res.exit_code == 2 and "target-sdk: expected one of mcp2" in res.stderr, str(res)
    assert cli(["check", "--target-sdk", "mcp3", "."], tmp_path).exit_code == 2


def test_a_blocking_file_stops_the_whole_port(tmp_path: Path) -> None:
    copy_to(CLOCK / "before.py", tmp_path, "clock.py")
    (tmp_path / "files.py").write_text(BLOCKED, encoding="utf-8")
    (tmp_path / "requirements.txt").write_text("mcp>=1.2\n", encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "."], tmp_path)
    assert res.exit_code == 1
    assert (tmp_path / "clock.py").read_bytes() == (CLOCK / "before.py").read_bytes()  # nothing written
    assert (tmp_path / "requirements.txt").read_text() == "mcp>=1.2\n"
    (error,) = res.json["errors"]
    assert error["path"] == "files.py" and error["line"] == 6
    assert error["message"].startswith(
        "blocks the port to mcp 2.x: MCP507 at line 6: `@server.progress_notification()` has no automatic port yet"
    )
    assert res.json["fixed"] == []


def test_the_port_writes_every_file_and_the_pin(tmp_path: Path) -> None:
    copy_to(CLOCK / "before.py", tmp_path, "clock.py")
    copy_to(NOTES / "before.py", tmp_path, "notes.py")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nkeywords = ["mcp"]\ndependencies = ["mcp[cli]>=1.2", "mcp-extra>=1"]\n',
        encoding="utf-8",
    )
    res = cli(["fix", "--target-sdk", "mcp2"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "clock.py").read_bytes() == (CLOCK / "after_param.py").read_bytes()
    assert (tmp_path / "notes.py").read_bytes() == (NOTES / "after_param.py").read_bytes()
    assert (tmp_path / "pyproject.toml").read_text() == (
        '[project]\nname = "x"\nkeywords = ["mcp"]\ndependencies = ["mcp[cli]>=2.3,<3", "mcp-extra>=1"]\n'
    )
    assert "pinned pyproject.toml: mcp>=2.3,<3" in res.stdout


def test_each_server_of_a_monorepo_is_re_pinned_where_its_files_are(tmp_path: Path) -> None:
    """Run from the repository root (no configuration) on two servers with their own
    pyproject.toml, and from outside on one: the requirement moves in the project each ported
    file belongs to (where its pins are read), not in the working directory's."""
    for name in ("alpha", "beta"):
        (tmp_path / "src" / name / "pkg").mkdir(parents=True)
        copy_to(NOTES / "before.py", tmp_path / "src" / name / "pkg", "notes.py")
        (tmp_path / "src" / name / "pyproject.toml").write_text(
            f'[project]\nname = "{name}"\ndependencies = ["mcp[cli]>=1.23.0,<2.0.0"]\n', encoding="utf-8"
        )
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "root"\ndependencies = ["mcp>=1.2"]\n', encoding="utf-8"
    )
    res = cli(["fix", "--target-sdk", "mcp2", "src/alpha", "src/beta"], tmp_path)
    assert res.exit_code == 0, str(res)
    for name in ("alpha", "beta"):
        assert (tmp_path / "src" / name / "pyproject.toml").read_text() == (
            f'[project]\nname = "{name}"\ndependencies = ["mcp[cli]>=2.3,<3"]\n'
        )
        assert f"pinned src/{name}/pyproject.toml: mcp>=2.3,<3" in res.stdout
    assert "mcp>=1.2" in (tmp_path / "pyproject.toml").read_text()  # the root's own server is not ported

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "gamma").mkdir()
    copy_to(NOTES / "before.py", tmp_path / "gamma", "notes.py")
    (tmp_path / "gamma" / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2", str(tmp_path / "gamma")], elsewhere)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "gamma" / "requirements.txt").read_text() == "mcp>=2.3,<3\n"


def test_fastmcp4_floors_are_read_in_each_checked_servers_project(tmp_path: Path) -> None:
    """MCP517 (pins below fastmcp 4's floors) looks where the checked files' pins are: a server's
    own pyproject.toml in a monorepo checked from its root, not only the root's."""
    server = tmp_path / "src" / "alpha"
    (server / "pkg").mkdir(parents=True)
    (server / "pkg" / "app.py").write_text(
        'from fastmcp import FastMCP\n\nmcp = FastMCP("alpha")\n\n\n@mcp.tool\ndef echo(text: str) -> str:\n    return text\n',
        encoding="utf-8",
    )
    (server / "pyproject.toml").write_text(
        '[project]\nname = "alpha"\ndependencies = [\n    "fastmcp>=2.10",\n    "pydantic==2.11.*",\n]\n',
        encoding="utf-8",
    )
    res = cli(["check", "--target-sdk", "fastmcp4", "--output-format", "json", "src"], tmp_path)
    found = [(f["path"], f["line"], f["column"]) for f in res.json["findings"] if f["rule"] == "MCP517"]
    assert found == [("src/alpha/pyproject.toml", 5, 6)], str(res)


def test_a_lockfile_is_named_for_re_locking(tmp_path: Path) -> None:
    """The port re-pins the declaration, not the lock: the lock still says mcp 1.x (and is read
    first by the interim planner), so the `pinned` line says to re-lock."""
    copy_to(CLOCK / "before.py", tmp_path, "clock.py")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["mcp>=1.2"]\n', encoding="utf-8")
    lock = 'version = 1\n\n[[package]]\nname = "mcp"\nversion = "1.27.0"\n'
    (tmp_path / "uv.lock").write_text(lock, encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (
        "pinned pyproject.toml: mcp>=2.3,<3 (the port's target); uv.lock still locks the old version: "
        "run `uv lock` before installing"
    ) in res.stdout
    assert (tmp_path / "uv.lock").read_text(encoding="utf-8") == lock


def test_diff_shows_the_pin_and_writes_nothing(tmp_path: Path) -> None:
    copy_to(NOTES / "before.py", tmp_path, "notes.py")
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0  # sdk\n", encoding="utf-8")
    res = cli(["fix", "--diff", "--target-sdk", "mcp2", "."], tmp_path)
    assert "-mcp==1.27.0  # sdk\n+mcp>=2.3,<3  # sdk\n" in res.stdout
    assert (tmp_path / "requirements.txt").read_text() == "mcp==1.27.0  # sdk\n"


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        (
            "requirements.txt",
            "mcp\nmcp_other\nmcp[cli]>=1 ; sys_platform=='linux'\n",
            "mcp>=2.3,<3\nmcp_other\nmcp[cli]>=2.3,<3 ; sys_platform=='linux'\n",
        ),
        (
            "pyproject.toml",
            '[project]\ndependencies = [\n  "mcp>=1.0.0",  # sdk [x]\n  "mcp[cli] >= 1.2; python_version>\'3.9\'",\n]\n[project.scripts]\nmcp = "pkg:main"\n',
            '[project]\ndependencies = [\n  "mcp>=2.3,<3",  # sdk [x]\n  "mcp[cli]>=2.3,<3; python_version>\'3.9\'",\n]\n[project.scripts]\nmcp = "pkg:main"\n',
        ),
        (
            "pyproject.toml",
            '[tool.poetry.dependencies]\nmcp = "^1.2"\n',
            '[tool.poetry.dependencies]\nmcp = ">=2.3,<3"\n',
        ),
        (
            "pyproject.toml",
            '[dependency-groups]\ndev = ["mcp==1.27"]\n',
            '[dependency-groups]\ndev = ["mcp>=2.3,<3"]\n',
        ),
    ],
)
def test_repin(name: str, before: str, after: str) -> None:
    assert repin(before, name) == after


HASHED = (
    "#\n#    pip-compile --generate-hashes requirements.in\n#\n"
    "anyio==4.9.0 \\\n    --hash=sha256:aa11\n"
    "mcp[cli]==1.27.0 ; python_version >= '3.10' \\\n    --hash=sha256:bb22 \\\n    --hash=sha256:cc33\n"
    "    # via -r requirements.in\n"
    "mcp-helper==0.3 \\\n    --hash=sha256:dd44\n"
)


def test_a_hashed_requirement_is_re_pinned_on_one_line_without_its_hashes() -> None:
    """pip-compile --generate-hashes continues a requirement onto `--hash` lines: the re-pin was
    `mcp[cli]>=2.3,<3` followed by orphaned `--hash` lines (the backslash went with the old
    specifier). The old version's hashes cannot stay; the other requirements keep theirs."""
    assert repin(HASHED, "requirements.txt") == HASHED.replace(
        "mcp[cli]==1.27.0 ; python_version >= '3.10' \\\n    --hash=sha256:bb22 \\\n    --hash=sha256:cc33\n",
        "mcp[cli]>=2.3,<3 ; python_version >= '3.10'\n",
    )
    crlf = HASHED.replace("\n", "\r\n")
    assert repin(crlf, "requirements.txt") == repin(HASHED, "requirements.txt").replace("\n", "\r\n")
    # an option kept on a continuation line stays continued; an exact pin that does not change keeps its hashes
    assert repin("mcp==1.27 \\\n  --config-settings=k=v \\\n  --hash=sha256:ee55\n", "requirements.txt") == (
        "mcp>=2.3,<3 \\\n  --config-settings=k=v\n"
    )
    assert repin(HASHED, "requirements.txt", "mcp", lambda spec: spec) == HASHED


def test_the_port_of_a_hashed_requirements_file_says_to_regenerate_it(tmp_path: Path) -> None:
    from mcpmigrate.pins import project_pins

    (tmp_path / "server.py").write_text('from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n')
    (tmp_path / "requirements.txt").write_text(HASHED)
    [pin] = [p for p in project_pins(tmp_path).pins if p.package == "mcp"]
    assert (pin.text, pin.source) == ("mcp[cli]==1.27.0 ; python_version >= '3.10'", "requirements.txt")
    res = cli(["fix", "--target-sdk", "mcp2"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert "mcp[cli]>=2.3,<3 ; python_version >= '3.10'\n    # via" in (tmp_path / "requirements.txt").read_text()
    assert (
        "pinned requirements.txt: mcp>=2.3,<3 (the port's target); requirements.txt pinned it with hashes, which "
        "were for the old version's files and were dropped: pip's hash-checking mode refuses the file (it needs "
        "`==` and hashes on every requirement) until it is regenerated with "
        "`pip-compile --generate-hashes requirements.in`, once the requirement is re-pinned where that command "
        "reads it" in " ".join(res.stdout.split())
    )
    again = cli(["fix", "--target-sdk", "mcp2"], tmp_path)
    assert again.exit_code == 0 and "pinned" not in again.stdout, str(again)


def test_a_manual_site_still_blocks_after_the_rename_round(tmp_path: Path) -> None:
    """The import is renamed in the first round; the get_context() finding (manual in a static
    resource, where mcp 2.x injects no context) must survive the re-detection on the renamed
    MCPServer, or the port would write a module that fails."""
    app = tmp_path / "app.py"
    app.write_text(
        'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n\n@mcp.resource("x://who")\n'
        "def who() -> str:\n    return str(mcp.get_context().request_id)\n",
        encoding="utf-8",
    )
    before = app.read_bytes()
    res = cli(["fix", "--target-sdk", "mcp2", "--output-format", "json", "app.py"], tmp_path)
    assert app.read_bytes() == before
    assert [e["message"][:45] for e in res.json["errors"]] == ["blocks the port to mcp 2.x: MCP504 at line 8:"]


def test_a_name_another_module_imports_keeps_its_name(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\ntarget-sdk = "mcp2"\n', encoding="utf-8")
    (tmp_path / "server.py").write_text(
        'from mcp.server.fastmcp import FastMCP\nfrom mcp.shared.exceptions import McpError\n\nmcp = FastMCP("x")\n',
        encoding="utf-8",
    )
    (tmp_path / "main.py").write_text("from server import FastMCP, McpError, mcp\n", encoding="utf-8")
    res = cli(["fix", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (tmp_path / "server.py").read_text() == (
        "from mcp.server.mcpserver import MCPServer as FastMCP\n"
        'from mcp.shared.exceptions import MCPError as McpError\n\nmcp = FastMCP("x")\n'
    )


PLAIN_FASTMCP = (
    'from fastmcp import FastMCP\n\nmcp = FastMCP("q")\n\n\n@mcp.tool\ndef echo(text: str) -> str:\n    return text\n'
)


@pytest.mark.parametrize(
    ("pin", "source", "after"),
    [
        ('"fastmcp==2.7.0"', PLAIN_FASTMCP, '"fastmcp>=4.2,<5"'),  # mcp-server-qdrant: no code to rewrite
        ('"fastmcp>=3.2.0"', PLAIN_FASTMCP, '"fastmcp>=4.2,<5"'),  # awslabs document-loader
        ('"fastmcp>=4.2"', PLAIN_FASTMCP, '"fastmcp>=4.2"'),  # already the target: left as written
        ('"fastmcp==2.7.0"', "import json\n", '"fastmcp==2.7.0"'),  # no module uses fastmcp
    ],
)
def test_code_fastmcp_4_runs_as_is_is_ported_by_its_pin(tmp_path: Path, pin: str, source: str, after: str) -> None:
    """Nothing in the code needs a rewrite, so the port is the requirement alone (trial ports of
    mcp-server-qdrant and awslabs document-loader said "All checks passed" and kept fastmcp 2/3);
    a second run changes nothing."""
    (tmp_path / "server.py").write_text(source, encoding="utf-8")
    pyproject = f'[project]\nname = "q"\ndependencies = [\n    "pydantic>=2.12",\n    {pin},\n]\n'
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    res = cli(["fix", "--target-sdk", "fastmcp4", "."], tmp_path)
    # a tool of a project pinned below fastmcp 4 is listed differently on 4 (MCP520, advisory, left
    # for a human: the only finding, so the exit is 1)
    listed_differently = pin != after and "@mcp.tool" in source
    assert res.exit_code == (1 if listed_differently else 0), str(res)
    assert ("MCP520" in res.stdout) == listed_differently
    assert (tmp_path / "pyproject.toml").read_text() == pyproject.replace(pin, after)
    assert ("pinned pyproject.toml: fastmcp>=4.2,<5" in res.stdout) == (pin != after)
    again = cli(["fix", "--target-sdk", "fastmcp4", "."], tmp_path)
    assert "pinned" not in again.stdout and (tmp_path / "pyproject.toml").read_text() == pyproject.replace(pin, after)


def test_every_lockfile_beside_the_pins_is_named_for_re_locking(tmp_path: Path) -> None:
    """telegram-mcp has a uv.lock and a poetry.lock: the `pinned` line names both and both commands."""
    copy_to(CLOCK / "before.py", tmp_path, "clock.py")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["mcp>=1.2"]\n', encoding="utf-8")
    (tmp_path / "uv.lock").write_text(
        'version = 1\n\n[[package]]\nname = "mcp"\nversion = "1.22.0"\n', encoding="utf-8"
    )
    (tmp_path / "poetry.lock").write_text('[[package]]\nname = "mcp"\nversion = "1.6.0"\n', encoding="utf-8")
    res = cli(["fix", "--target-sdk", "mcp2"], tmp_path)
    assert res.exit_code == 0, str(res)
    assert (
        "pinned pyproject.toml: mcp>=2.3,<3 (the port's target); uv.lock and poetry.lock still lock the old "
        "version: run `uv lock` and `poetry lock` before installing"
    ) in res.stdout

"""Per-file configuration (issue 27, item 3; ``config.group_by_config``): each file uses the
nearest ``pyproject.toml`` with a ``[tool.mcpmigrate]`` table above it, as ruff does, also when
mcpmigrate runs from a monorepo's root (what a pre-commit hook does); ``--config`` overrides it;
``check --show-settings`` prints what applies."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import FIRST_ROOT, cli

NOTES = """\
from mcp.server.fastmcp import FastMCP, Context

notes = FastMCP("notes")


@notes.tool()
async def add(text: str, ctx: Context) -> str:
    await ctx.debug("adding a note")
    return text
"""


def _monorepo(root: Path) -> None:
    """services/notes ignores MCP401; services/files names its path parameter `workspace`;
    services/plain has no configuration of its own (the root's applies: strategy param)."""
    (root / "pyproject.toml").write_text('[tool.mcpmigrate]\nextend-exclude = ["build"]\n', encoding="utf-8")
    for name in ("notes", "files", "plain"):
        (root / "services" / name).mkdir(parents=True)
    (root / "services" / "notes" / "pyproject.toml").write_text(
        '[project]\nname = "notes"\n\n[tool.mcpmigrate]\nignore = ["MCP401"]\n', encoding="utf-8"
    )
    (root / "services" / "notes" / "app.py").write_text(NOTES, encoding="utf-8")
    (root / "services" / "files" / "pyproject.toml").write_text(
        '[tool.mcpmigrate]\npath-parameter = { name = "workspace" }\n', encoding="utf-8"
    )
    (root / "services" / "files" / "server.py").write_text(FIRST_ROOT.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "services" / "plain" / "app.py").write_text(NOTES, encoding="utf-8")


def test_each_file_uses_its_nearest_configuration_from_the_root(tmp_path: Path) -> None:
    _monorepo(tmp_path)
    one = cli(["check", "--no-cache", "--output-format", "concise", "services/notes/app.py"], tmp_path)
    assert one.exit_code == 0 and one.stdout == "", str(one)  # user-09: the service's ignore applies
    whole = cli(["check", "--no-cache", "--output-format", "json", "."], tmp_path)
    got = sorted((f["path"], f["rule"]) for f in whole.json["findings"])
    assert got == [("services/files/server.py", "MCP101"), ("services/plain/app.py", "MCP401")], got
    assert whole.json["files_checked"] == 3  # each file once, in its own group


def test_fix_from_the_root_uses_the_services_path_parameter(tmp_path: Path) -> None:
    _monorepo(tmp_path)
    res = cli(["fix", "services/files/server.py"], tmp_path)
    assert res.exit_code == 0, str(res)
    text = (tmp_path / "services" / "files" / "server.py").read_text(encoding="utf-8")
    assert "async def scan(\n    pattern: str,\n    workspace: Annotated[\n        str,\n        Field(\n" in text, text


def test_config_overrides_and_show_settings(tmp_path: Path) -> None:
    _monorepo(tmp_path)
    forced = cli(
        ["check", "--no-cache", "--config", "pyproject.toml", "--output-format", "concise", "services/notes"], tmp_path
    )
    assert forced.exit_code == 1 and "services/notes/app.py:8:11: MCP401 " in forced.stdout, str(forced)
    shown = cli(["check", "--show-settings", "services/notes/app.py", "services/plain/app.py"], tmp_path)
    assert shown.exit_code == 0, str(shown)
    blocks = shown.stdout.split("Settings for ")[1:]
    assert blocks[0].startswith(
        "services/notes/app.py\n  configuration: services/notes/pyproject.toml\n  root: services/notes\n"
    ), blocks[0]
    assert "  ignore: ['MCP401']\n" in blocks[0]
    assert blocks[1].startswith("services/plain/app.py\n  configuration: pyproject.toml\n  root: .\n"), blocks[1]
    assert "  ignore: []\n" in blocks[1]

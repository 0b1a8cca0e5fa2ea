"""Configuration and discovery: exclude / extend-exclude, respect-gitignore,
--force-exclude (the pre-commit hook), --config with a plain TOML file, and errors that name the
file, the key and the expected type."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import MCP104_SOURCE, cli, write_pyproject

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _paths(res) -> list[str]:
    assert res.exception is None, str(res)
    return sorted(f["path"] for f in res.json["findings"])


def _tree(root: Path, *rels: str) -> None:
    for rel in rels:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(MCP104_SOURCE)


def _git_init(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)


def test_default_excludes_and_extend_exclude(tmp_path: Path) -> None:
    _tree(tmp_path, "src/a.py", "build/a.py", ".venv/lib/a.py", "vendor/a.py")
    assert _paths(cli(["check", "--output-format", "json", "."], tmp_path)) == ["src/a.py", "vendor/a.py"]
    write_pyproject(tmp_path, 'extend-exclude = ["vendor"]\n')
    assert _paths(cli(["check", "--output-format", "json", "."], tmp_path)) == ["src/a.py"]


def test_exclude_replaces_the_defaults(tmp_path: Path) -> None:
    _tree(tmp_path, "src/a.py", "build/a.py", "vendor/a.py")
    write_pyproject(tmp_path, 'exclude = ["vendor"]\n')
    assert _paths(cli(["check", "--output-format", "json", "."], tmp_path)) == ["build/a.py", "src/a.py"]


@needs_git
def test_respect_gitignore(tmp_path: Path) -> None:
    _git_init(tmp_path)
    _tree(tmp_path, "src/a.py", "src/gen/a.py", "src/b_pb2.py", "src/keep_pb2.py", "other/deep/x.py")
    (tmp_path / ".gitignore").write_text("gen/\n*_pb2.py\n!keep_pb2.py\n")
    (tmp_path / "other" / ".gitignore").write_text("deep\n")
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert _paths(res) == ["src/a.py", "src/keep_pb2.py"]
    # from a subdirectory: the top-level .gitignore still applies
    assert _paths(cli(["check", "--output-format", "json", "."], tmp_path / "src")) == ["a.py", "keep_pb2.py"]
    # .git/info/exclude too
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("/src/a.py\n")
    assert _paths(cli(["check", "--output-format", "json", "."], tmp_path)) == ["src/keep_pb2.py"]
    # an explicitly named file is checked anyway
    assert _paths(cli(["check", "--output-format", "json", "src/b_pb2.py"], tmp_path)) == ["src/b_pb2.py"]
    write_pyproject(tmp_path, "respect-gitignore = false\n")
    assert len(_paths(cli(["check", "--output-format", "json", "."], tmp_path))) == 5


def test_gitignore_outside_a_git_repository_is_not_applied(tmp_path: Path) -> None:
    _tree(tmp_path, "gen/a.py", "a.py")
    (tmp_path / ".gitignore").write_text("gen/\n")
    assert _paths(cli(["check", "--output-format", "json", "."], tmp_path)) == ["a.py", "gen/a.py"]


def test_force_exclude_applies_exclude_to_named_files(tmp_path: Path) -> None:
    _tree(tmp_path, "src/a.py", "vendor/lib/a.py", ".venv/a.py", "tests/test_a.py")
    write_pyproject(tmp_path, 'extend-exclude = ["vendor", "tests/test_*.py"]\n')
    named = ["src/a.py", "vendor/lib/a.py", ".venv/a.py", "tests/test_a.py"]
    assert _paths(cli(["check", "--output-format", "json", *named], tmp_path)) == sorted(named)
    res = cli(["check", "--force-exclude", "--output-format", "json", *named], tmp_path)
    assert _paths(res) == ["src/a.py"]
    # every file excluded: a clean run, as pre-commit expects
    res = cli(["check", "--force-exclude", "--output-format", "json", "vendor/lib/a.py"], tmp_path)
    assert res.exit_code == 0 and res.json["files_checked"] == 0
    res = cli(["fix", "--force-exclude", "vendor/lib/a.py"], tmp_path)
    assert res.exit_code == 0 and (tmp_path / "vendor/lib/a.py").read_text() == MCP104_SOURCE


def test_config_option_with_a_plain_toml_file(tmp_path: Path) -> None:
    _tree(tmp_path, "a.py", "vendor/a.py")
    (tmp_path / "ci.toml").write_text('extend-exclude = ["vendor"]\nignore = ["MCP105"]\n')
    write_pyproject(tmp_path, 'select = ["MCP105"]\n')  # not used: --config wins
    assert _paths(cli(["check", "--config", "ci.toml", "--output-format", "json", "."], tmp_path)) == ["a.py"]
    (tmp_path / "bad.toml").write_text('respect-gitignore = "yes"\n')
    res = cli(["check", "--config", "bad.toml", "."], tmp_path)
    assert res.exit_code == 2 and "bad.toml" in res.stderr and "respect-gitignore" in res.stderr


@pytest.mark.parametrize(
    "body,key,expected",
    [
        ('respect-gitignore = "yes"\n', "respect-gitignore", "expected a boolean"),
        ('extend-exclude = "vendor"\n', "extend-exclude", "expected a list of strings, got a string"),
        ('exclude = ["a", 3]\n', "exclude", "an array containing an integer"),
        ('per-file-ignores = ["x"]\n', "per-file-ignores", "expected a table"),
        ("strategy = 3\n", "strategy", "expected one of param, interim, config, got an integer"),
        ('extend-select = ["MCP9"]\n', "extend-select", "MCP9"),
        (
            "[tool.mcpmigrate.path-parameter]\ndescription = 1\n",
            "path-parameter.description",
            "expected a non-empty string",
        ),
    ],
)
def test_config_errors_name_file_key_and_expected_type(tmp_path: Path, body: str, key: str, expected: str) -> None:
    _tree(tmp_path, "a.py")
    write_pyproject(tmp_path, body)
    res = cli(["check", "."], tmp_path)
    assert res.exit_code == 2, str(res)
    assert "pyproject.toml" in res.stderr and key in res.stderr and expected in res.stderr, res.stderr


def test_nearest_pyproject_with_the_table_is_used(tmp_path: Path) -> None:
    _tree(tmp_path, "pkg/sub/a.py")
    write_pyproject(tmp_path, 'ignore = ["MCP104"]\n')
    (tmp_path / "pkg" / "pyproject.toml").write_text('[project]\nname = "pkg"\n')  # no table: skipped
    res = cli(["check", "--output-format", "json", "."], tmp_path / "pkg" / "sub")
    assert res.json["findings"] == [] and res.exit_code == 0
    write_pyproject(tmp_path / "pkg", 'select = ["MCP104"]\n')  # nearer, with the table: wins
    res = cli(["check", "--output-format", "json", "."], tmp_path / "pkg" / "sub")
    assert _paths(res) == ["a.py"]

"""The pre-commit hooks, run by the real ``pre-commit try-repo`` against this repository:
in a fresh git repository holding an MCP server that asks for roots, the check hook
fails, the fix hook rewrites the server, and the check hook then passes.

The hook repository is a temporary git repository made from this checkout's files (tracked and
untracked, not ignored) with one commit, so the test sees the working tree as it is and
pre-commit installs the hook environment from it (``pip install .``: needs the package index).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIRST_ROOT, REPO

pytest.importorskip("pre_commit")  # a test extra; CI installs it
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

GIT_ENV = {
    "GIT_AUTHOR_NAME": "mcpmigrate tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "mcpmigrate tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def _hook_repo(dest: Path, env: dict[str, str]) -> Path:
    """A one-commit git repository with this checkout's files (no fixtures or tests: not needed
    to install the hook)."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, capture_output=True, check=False
    )
    if listed.returncode == 0:
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:  # not a git checkout (an sdist): take the files the hook needs
        names = [str(p.relative_to(REPO)) for p in REPO.rglob("*") if p.is_file()]
    for name in names:
        if name.startswith(("fixtures/", "tests/", ".cache/")):
            continue
        src = REPO / name
        if not src.is_file():
            continue  # deleted in the working tree
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    _git(["init", "-q"], dest, env)
    _git(["add", "-A"], dest, env)
    _git(["commit", "-q", "-m", "hook repository under test"], dest, env)
    return dest


def _try_repo(hook_repo: Path, hook: str | None, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    args = [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo)] + ([hook] if hook else []) + ["--all-files"]
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_pre_commit_hooks_check_fail_fix_then_pass(tmp_path: Path) -> None:
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "NO_COLOR": "1"}
    env.pop("PRE_COMMIT", None)
    hook_repo = _hook_repo(tmp_path / "hook-repo", env)

    project = tmp_path / "server"
    project.mkdir()
    _git(["init", "-q"], project, env)
    shutil.copyfile(FIRST_ROOT, project / "server.py")
    (project / "vendor").mkdir()
    shutil.copyfile(FIRST_ROOT, project / "vendor" / "thirdparty.py")  # excluded by the config
    (project / "pyproject.toml").write_text('[tool.mcpmigrate]\nextend-exclude = ["vendor"]\n')
    _git(["add", "-A"], project, env)
    _git(["commit", "-q", "-m", "server"], project, env)

    # 1. every hook: check fails on the roots request, fix rewrites server.py (and fails: it changed files)
    first = _try_repo(hook_repo, None, project, env)
    out = first.stdout + first.stderr
    assert first.returncode == 1, out
    assert "mcpmigrate check" in out and "MCP101" in out and "server.py" in out, out
    assert "vendor/thirdparty.py" not in out, out  # --force-exclude: exclude holds for hook-passed files
    fixed = (project / "server.py").read_text()
    assert fixed == (FIRST_ROOT.parent / "after_param.py").read_text()  # the fixture's exact fix, laid out
    assert (project / "vendor" / "thirdparty.py").read_text() == FIRST_ROOT.read_text()

    # 2. the check hook passes on the fixed server
    _git(["add", "-A"], project, env)
    second = _try_repo(hook_repo, "mcpmigrate-check", project, env)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Passed" in second.stdout

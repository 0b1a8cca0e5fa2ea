"""Fixed code passes the project's own import sorter and formatter (issue 27, item 1;
``codemods/style.py``): in a project that configures ruff, black or isort, a file clean under
real ``ruff check --select I`` and ``ruff format --check`` (and black) before ``fix`` is clean
after it, with the project's settings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, cli, copy_to, load_toml

GALLERY = '''\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

gallery = FastMCP("gallery")


@gallery.tool()
async def pictures(extension: str, ctx: Context) -> list[str]:
    """Picture names in the client's folder."""
    granted = await ctx.session.list_roots()
    folder = Path(granted.roots[0].uri.path)
    return sorted(p.name for p in folder.glob(f"*.{extension}"))
'''

GALLERY_FIXED = '''\
from pathlib import Path
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

gallery = FastMCP("gallery")


@gallery.tool()
async def pictures(
    extension: str,
    root: Annotated[
        str,
        Field(
            description="Absolute path of the directory to work in (formerly the client's MCP root)."
        ),
    ],
) -> list[str]:
    """Picture names in the client's folder."""
    folder = Path(root)
    return sorted(p.name for p in folder.glob(f"*.{extension}"))
'''


def _ruff(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=cwd, capture_output=True, text=True)


def _clean(path: Path, isolated: bool = True) -> tuple[str, str]:
    """``(import-order problems, format diff)`` of real ruff on ``path`` ("" and "" when clean)."""
    flag = ["--isolated"] if isolated else []
    imports = _ruff("check", *flag, "--select", "I", "--output-format", "concise", path.name, cwd=path.parent)
    fmt = _ruff("format", *flag, "--diff", path.name, cwd=path.parent)
    return (imports.stdout if imports.returncode else ""), (fmt.stdout if fmt.returncode else "")


def _fix(path: Path, *args: str) -> None:
    res = cli(["fix", "--unsafe-fixes", *args, "--output-format", "json", path.name], path.parent)
    assert res.exception is None and res.json["errors"] == [], str(res)
    assert res.json["fixed"], str(res)


def test_user08_gallery_stays_ruff_and_black_clean(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "gallery"\n\n[tool.ruff]\n', encoding="utf-8")
    target = tmp_path / "gallery.py"
    target.write_text(GALLERY, encoding="utf-8")
    assert _clean(target) == ("", "")
    _fix(target)
    assert target.read_text(encoding="utf-8") == GALLERY_FIXED
    assert _clean(target) == ("", "")
    pytest.importorskip("black")
    black = subprocess.run([sys.executable, "-m", "black", "--check", "-q", "gallery.py"], cwd=tmp_path)
    assert black.returncode == 0


def test_without_a_formatter_configuration_the_fix_is_not_fitted(tmp_path: Path) -> None:
    """No ruff, black or isort configuration: the project's style is unknown, the imports go
    after the last one as before (libcst's AddImportsVisitor) and nothing is wrapped."""
    target = tmp_path / "gallery.py"
    target.write_text(GALLERY, encoding="utf-8")
    _fix(target)
    text = target.read_text(encoding="utf-8")
    assert "from pydantic import Field\nfrom typing import Annotated\n" in text, text
    assert "async def pictures(extension: str, root: Annotated[str, Field(description=" in text, text


def _param_cases() -> list[Path]:
    return sorted(p.parent for p in FIXTURES.rglob("after_param.py"))


def _flags(case: dict) -> list[str]:
    flags = [] if case.get("legacy_clients", True) else ["--no-legacy-clients"]
    return flags + (["--target-sdk", case["target_sdk"]] if "target_sdk" in case else [])


def test_fixtures_clean_before_are_clean_after_the_param_fix(tmp_path: Path) -> None:
    """Every bundled server whose before.py ruff finds clean stays clean after ``fix``."""
    checked = []
    for case_dir in _param_cases():
        work = tmp_path / case_dir.relative_to(FIXTURES).as_posix().replace("/", "__")
        work.mkdir()
        (work / "pyproject.toml").write_text("[tool.ruff]\n", encoding="utf-8")  # ruff's defaults
        target = copy_to(case_dir / "before.py", work)
        if _clean(target) != ("", ""):
            continue
        _fix(target, "--strategy", "param", *_flags(load_toml(case_dir / "case.toml")))
        assert _clean(target) == ("", ""), f"{case_dir.relative_to(FIXTURES)}: not ruff-clean after fix"
        checked.append(case_dir.name)
    assert len(checked) >= 8, checked  # the roots, logging and port servers written clean


SERVER = '''\
"""Notes server."""

import os
from typing import Any

from mcp.server.fastmcp import Context, FastMCP

from notes.store import load

app = FastMCP("notes")


@app.tool()
async def find(word: str, ctx: Context) -> Any:
    roots = await ctx.session.list_roots()
    return load(os.path.join(roots.roots[0].uri.path, word))
'''


def _project(tmp_path: Path, pyproject: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "notes" / "store.py").write_text("def load(path):\n    return path\n", encoding="utf-8")
    target = tmp_path / "server.py"
    target.write_text(SERVER, encoding="utf-8")
    return target


def test_names_merge_and_sections_follow_the_project_settings(tmp_path: Path) -> None:
    """``Annotated`` joins ``from typing import Any`` in order; ``pydantic`` goes into the
    third-party block, before the project's own package; line length 120 from ``[tool.ruff]``."""
    target = _project(tmp_path, '[project]\nname = "notes"\n\n[tool.ruff]\nline-length = 120\n')
    assert _clean(target, isolated=False) == ("", "")
    _fix(target)
    text = target.read_text(encoding="utf-8")
    assert text.startswith(
        '"""Notes server."""\n\nimport os\nfrom typing import Annotated, Any\n\n'
        "from mcp.server.fastmcp import FastMCP\nfrom pydantic import Field\n\nfrom notes.store import load\n"
    ), text
    # 120 columns: the annotation's elements fit on one line (88 would put each on its own)
    assert '    root: Annotated[\n        str, Field(description="Absolute path of the directory' in text, text
    assert _clean(target, isolated=False) == ("", "")


def test_force_sort_within_sections_and_known_first_party(tmp_path: Path) -> None:
    target = _project(
        tmp_path,
        '[tool.ruff.lint.isort]\nforce-sort-within-sections = true\nknown-first-party = ["pydantic"]\n',
    )
    source = SERVER.replace("import os\nfrom typing import Any\n", "from collections import OrderedDict\nimport os\n")
    target.write_text(source.replace("-> Any:", "-> OrderedDict:"), encoding="utf-8")
    assert _clean(target, isolated=False) == ("", "")
    _fix(target)
    text = target.read_text(encoding="utf-8")
    # sorted by module, `from` or not; pydantic is first party here, with the project's own package
    assert "from collections import OrderedDict\nimport os\nfrom typing import Annotated\n\n" in text, text
    assert "from notes.store import load\nfrom pydantic import Field\n" in text, text
    assert _clean(target, isolated=False) == ("", "")


def test_black_line_length(tmp_path: Path) -> None:
    pytest.importorskip("black")
    target = _project(tmp_path, '[tool.black]\nline-length = 100\n\n[tool.isort]\nprofile = "black"\n')
    black = [sys.executable, "-m", "black", "--check", "-q", "server.py"]
    assert subprocess.run(black, cwd=tmp_path).returncode == 0
    _fix(target)
    assert subprocess.run(black, cwd=tmp_path).returncode == 0, target.read_text()

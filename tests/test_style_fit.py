"""Fixed code passes the project's own import sorter and formatter (issue 27, item 1;
``codemods/style.py``): in a project that configures ruff, black or isort, a file clean under
real ``ruff check --select I`` and ``ruff format --check`` (and black) before ``fix`` is clean
after it, with the project's settings."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO, cli

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


def test_without_a_formatter_configuration_ruffs_defaults_apply(tmp_path: Path) -> None:
    """user-08 as written: no configuration at all, real ``ruff --isolated`` (its defaults)
    finds the file clean before and after ``fix``, and so does black."""
    target = tmp_path / "gallery.py"
    target.write_text(GALLERY, encoding="utf-8")
    assert _clean(target) == ("", "")
    _fix(target)
    assert target.read_text(encoding="utf-8") == GALLERY_FIXED
    assert _clean(target) == ("", "")
    pytest.importorskip("black")
    black = subprocess.run([sys.executable, "-m", "black", "--check", "-q", "gallery.py"], cwd=tmp_path)
    assert black.returncode == 0


_spec = importlib.util.spec_from_file_location("regen_fixtures", REPO / "scripts" / "regen_fixtures.py")
assert _spec is not None and _spec.loader is not None
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)


@pytest.mark.parametrize("formatted", [False, True], ids=["as-written", "ruff-formatted"])
def test_every_fixture_clean_before_is_clean_after_fix(formatted: bool, capsys) -> None:
    """Each fixture (param and interim fix, with its case flags) whose before.py passes real
    ``ruff format --check`` — as written, or after ruff sorted and formatted it — still passes it
    after ``fix``, and ``ruff check --select I`` when before.py did (scripts/regen_fixtures.py
    --measure). Measured before this layout: 34 of the 61 formatted ones."""
    failing = regen.measure([], formatted)
    out = capsys.readouterr().out
    counted = int(out.strip().splitlines()[-1].split(" of ")[1].split()[0])
    assert counted >= (61 if formatted else 20), out
    assert failing == 0, out


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


def test_a_long_value_that_parentheses_cannot_make_fit_stays_flat(tmp_path: Path) -> None:
    """A rewritten ``return f"…"`` longer than the line even inside parentheses is left on one
    line, as ruff format and black leave it (a renamed attribute inside an f-string, MCP519)."""
    source = (
        'from fastmcp import Context, FastMCP\n\napp = FastMCP("ga")\n\n\n@app.tool\n'
        "async def who(ctx: Context) -> str:\n    info = ctx.session.client_params\n"
        '    client = getattr(info, "clientInfo", None)\n'
        "    return f\"{getattr(client, 'name', '?') if client else 'nobody'} {hasattr(info, 'protocolVersion')}\"\n"
    )
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "ga"\ndependencies = ["fastmcp>=2.10,<3"]\n', encoding="utf-8"
    )
    target = tmp_path / "server.py"
    target.write_text(source, encoding="utf-8")
    _fix(target, "--target-sdk", "fastmcp4")
    assert target.read_text(encoding="utf-8") == source.replace("clientInfo", "client_info").replace(
        "protocolVersion", "protocol_version"
    )
    assert _ruff("format", "--isolated", "--diff", "server.py", cwd=tmp_path).returncode == 0


CONCAT = """from mcp.server.fastmcp import FastMCP

mcp = FastMCP(
    name="Qgis_mcp",
    instructions="QGIS integration through the Model Context Protocol. "
    "Use tools for actions, resources for read-only data, prompts for workflows.",
)
side = FastMCP(
    name="side",
    instructions="Short. "
    "Fits.",
)
"""


def test_an_implicit_string_concatenation_in_a_rewritten_call_keeps_its_strings_apart(tmp_path: Path) -> None:
    """nkarasiak/qgis-mcp's `FastMCP(..., instructions="…" "…")`: the rename relaid the call and
    joined the two strings with nothing between them (`"…Protocol. ""Use tools…"`, 150 columns).
    Now one string per line when they do not fit, as written, and `"a " "b"` when they do, as
    black lays them out."""
    pytest.importorskip("black")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "q"\ndependencies = ["mcp>=1.20,<2"]\n', encoding="utf-8"
    )
    target = tmp_path / "server.py"
    target.write_text(CONCAT, encoding="utf-8")
    _fix(target, "--target-sdk", "mcp2")
    assert target.read_text(encoding="utf-8") == (
        CONCAT.replace("from mcp.server.fastmcp import FastMCP", "from mcp.server.mcpserver import MCPServer")
        .replace("= FastMCP(", "= MCPServer(")
        .replace('"Short. "\n    "Fits."', '"Short. " "Fits."')
    )
    black = [sys.executable, "-m", "black", "--check", "-q", "server.py"]
    assert subprocess.run(black, cwd=tmp_path).returncode == 0, target.read_text()

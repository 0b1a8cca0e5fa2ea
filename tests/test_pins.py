"""The project's SDK pins (mcpmigrate/pins.py): which fastmcp / mcp generation the
dependency declarations allow, and the CLI deciding the interim fix by them."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpmigrate import pins
from tests.helpers import cli


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    pins.clear_cache()


def _verdict(directory: Path, package: str) -> tuple[bool, str] | None:
    pins.clear_cache()
    v = pins.project_pins(directory).verdict(package)
    return None if v is None else (v.new, v.pin.describe())


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- reading the declarations ------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, new",
    [
        ("fastmcp>=4", True),
        ("fastmcp==4.2.3", True),
        ("fastmcp~=4.2", True),
        ("fastmcp>=4.0.0rc1", True),
        ("fastmcp>=4,<5", True),
        ("fastmcp<3", False),
        ("fastmcp==2.14.*", False),
        ("fastmcp~=3.0", False),
        ("fastmcp<4", False),
        ("fastmcp<=3.9", False),
        ("fastmcp>=2,<4", False),
        ("fastmcp-slim>=4", True),
        ("FastMCP >= 4.1", True),
    ],
)
def test_pep621_dependencies_decide(tmp_path: Path, spec: str, new: bool) -> None:
    _write(tmp_path, "pyproject.toml", f'[project]\nname = "x"\nversion = "1"\ndependencies = ["{spec}"]\n')
    v = _verdict(tmp_path, "fastmcp")
    assert v is not None and v[0] is new
    assert v[1] == f"`{spec}` in pyproject.toml [project.dependencies]"


@pytest.mark.parametrize(
    "spec",
    [
        "fastmcp",
        "fastmcp>=2",
        "fastmcp>3.9",
        "fastmcp!=4.0.0",
        "fastmcp>=4,<3",
        "fastmcp @ git+https://example.com/fastmcp.git",
    ],
)
def test_requirements_that_allow_both_sides_decide_nothing(tmp_path: Path, spec: str) -> None:
    _write(tmp_path, "pyproject.toml", f'[project]\nname = "x"\nversion = "1"\ndependencies = ["{spec}"]\n')
    assert _verdict(tmp_path, "fastmcp") is None


@pytest.mark.parametrize(
    "constraint, new",
    [
        ('"^4.2"', True),
        ('"~4.2"', True),
        ('"4.2.3"', True),
        ('">=4,<5"', True),
        ('{ version = "^4", extras = ["x"] }', True),
        ('"^2.14"', False),
        ('"~3"', False),
        ('"2.*"', False),
        ('"<3"', False),
        ('"^2.0 || ^3.0"', False),
    ],
)
def test_poetry_constraints(tmp_path: Path, constraint: str, new: bool) -> None:
    _write(tmp_path, "pyproject.toml", f'[tool.poetry.dependencies]\npython = "^3.11"\nfastmcp = {constraint}\n')
    v = _verdict(tmp_path, "fastmcp")
    assert v is not None and v[0] is new, v
    assert "pyproject.toml [tool.poetry.dependencies]" in v[1]


def test_poetry_alternatives_on_both_sides_decide_nothing(tmp_path: Path) -> None:
    _write(tmp_path, "pyproject.toml", '[tool.poetry.dependencies]\nfastmcp = "^3.0 || ^4.0"\n')
    assert _verdict(tmp_path, "fastmcp") is None


def test_poetry_caret_translation() -> None:
    assert [str(s) for s in pins.poetry_specifiers("^1.2.3")] == ["<2,>=1.2.3"]  # type: ignore[union-attr]
    assert [str(s) for s in pins.poetry_specifiers("^0.2.3")] == ["<0.3,>=0.2.3"]  # type: ignore[union-attr]
    assert [str(s) for s in pins.poetry_specifiers("~1.2")] == ["<1.3,>=1.2"]  # type: ignore[union-attr]
    assert pins.poetry_specifiers("^not-a-version") is None


def test_poetry_groups_and_dependency_groups(tmp_path: Path) -> None:
    _write(tmp_path, "pyproject.toml", '[tool.poetry.group.server.dependencies]\nmcp = "^2.3"\n')
    assert _verdict(tmp_path, "mcp") == (
        True,
        "`mcp = '^2.3'` in pyproject.toml [tool.poetry.group.server.dependencies]",
    )
    _write(
        tmp_path,
        "pyproject.toml",
        '[dependency-groups]\ndev = [{ include-group = "server" }]\nserver = ["mcp>=1.20,<2"]\n',
    )
    assert _verdict(tmp_path, "mcp") == (False, "`mcp>=1.20,<2` in pyproject.toml [dependency-groups.server]")


def test_requirements_txt_comments_extras_markers_options(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "requirements.txt",
        (
            "# the SDK\n"
            "-r base.txt\n"
            "--index-url https://example.com/simple\n"
            "-e ./vendored\n"
            "httpx>=0.27  # not ours\n"
            "fastmcp[openai]==4.2.3 ; python_version >= '3.10' \\\n"
            "    --hash=sha256:0123456789abcdef  # pinned by the lock step\n"
            "mcp>=2.3#no-space-is-not-a-comment-in-a-version\n"
        ),
    )
    v = _verdict(tmp_path, "fastmcp")
    assert v is not None and v[0] is True
    assert v[1].startswith("`fastmcp[openai]==4.2.3 ; python_version >= '3.10'` in requirements.txt")
    assert _verdict(tmp_path, "mcp") is None  # that line does not parse as a requirement: no pin


def test_several_requirements_files_and_conflicts(tmp_path: Path) -> None:
    _write(tmp_path, "requirements.txt", "fastmcp>=4\n")
    _write(tmp_path, "requirements-dev.txt", "fastmcp>=2\n")  # decides nothing, does not conflict
    assert _verdict(tmp_path, "fastmcp") == (True, "`fastmcp>=4` in requirements.txt")
    _write(tmp_path, "requirements-old.txt", "fastmcp<3\n")
    assert _verdict(tmp_path, "fastmcp") is None  # the project's declarations disagree


def test_pyproject_and_requirements_agree_or_conflict(tmp_path: Path) -> None:
    _write(tmp_path, "pyproject.toml", '[project]\nname = "x"\nversion = "1"\ndependencies = ["mcp>=2.3"]\n')
    _write(tmp_path, "requirements.txt", "mcp==2.3.0\n")
    assert _verdict(tmp_path, "mcp") == (True, "`mcp>=2.3` in pyproject.toml [project.dependencies]")
    _write(tmp_path, "requirements.txt", "mcp<2\n")
    assert _verdict(tmp_path, "mcp") is None


def test_setup_cfg_install_requires(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "setup.cfg",
        "[metadata]\nname = x\n\n[options]\ninstall_requires =\n    click\n    mcp<2  # v1 server\n",
    )
    assert _verdict(tmp_path, "mcp") == (False, "`mcp<2` in setup.cfg [options] install_requires")


def test_absent_and_broken_files_decide_nothing(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # the lookup does not leave the repository
    assert pins.project_pins(tmp_path).directory is None
    _write(tmp_path, "pyproject.toml", "[project\nthis is not toml")
    _write(tmp_path, "setup.cfg", "no section header")
    assert _verdict(tmp_path, "fastmcp") is None and _verdict(tmp_path, "mcp") is None
    _write(tmp_path, "pyproject.toml", '[project]\nname = "x"\nversion = "1"\ndependencies = ["click>=8"]\n')
    assert _verdict(tmp_path, "fastmcp") is None


def test_the_nearest_project_directory_wins(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    _write(tmp_path, "pyproject.toml", '[project]\nname = "x"\nversion = "1"\ndependencies = ["fastmcp<3"]\n')
    _write(tmp_path, "services/api/requirements.txt", "fastmcp>=4\n")
    (tmp_path / "services/api/src").mkdir()
    assert _verdict(tmp_path / "services/api/src", "fastmcp") == (True, "`fastmcp>=4` in ../requirements.txt")
    assert _verdict(tmp_path / "services", "fastmcp") == (
        False,
        "`fastmcp<3` in ../pyproject.toml [project.dependencies]",
    )
    assert pins.project_pins(tmp_path / "pyproject.toml").directory == tmp_path.resolve()  # a file: its directory


def test_huge_files_are_not_read(tmp_path: Path) -> None:
    _write(tmp_path, "requirements.txt", "fastmcp>=4\n" + "# padding\n" * 40000)
    assert _verdict(tmp_path, "fastmcp") is None


def test_signature_changes_with_the_files_and_needs_no_packaging(tmp_path: Path) -> None:
    _write(tmp_path, "requirements.txt", "fastmcp>=4\n")
    first = pins.signature(tmp_path)
    assert first == pins.signature(tmp_path)
    _write(tmp_path, "requirements.txt", "fastmcp<3\n")
    assert pins.signature(tmp_path) != first


# -- the CLI: the same code, fixed or refused by the pin -----------------------------------------

FASTMCP_SERVER = """from fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Delete {path}?", response_type=bool)
    if answer.action == "accept" and answer.data:
        return "deleted"
    return "kept"


@mcp.tool()
async def where(ctx: Context) -> str:
    roots = await ctx.list_roots()
    return str(roots[0].uri)
"""


def _project(tmp_path: Path, dependency: str | None) -> None:
    body = '[tool.mcpmigrate]\nstrategy = "interim"\n'
    if dependency is not None:
        body = f'[project]\nname = "srv"\nversion = "1"\ndependencies = ["{dependency}"]\n\n' + body
    (tmp_path / "pyproject.toml").write_text(body, encoding="utf-8")
    (tmp_path / "server.py").write_text(FASTMCP_SERVER, encoding="utf-8")


def _elicit_finding(tmp_path: Path) -> dict:
    res = cli(["check", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    return next(f for f in res.json["findings"] if f["rule"] == "MCP202")


def test_fastmcp4_pin_fixes_what_the_code_alone_leaves(tmp_path: Path) -> None:
    # Without a pin, `ctx.list_roots` (gone in fastmcp 4) elsewhere in the module marks it fastmcp 2.x/3.x.
    _project(tmp_path, None)
    assert _elicit_finding(tmp_path)["fix"] is None
    _project(tmp_path, "fastmcp>=4")
    f = _elicit_finding(tmp_path)
    assert f["fix"] is not None, f
    assert "the project pins `fastmcp>=4` in pyproject.toml [project.dependencies]" in f["fix"]["description"]
    res = cli(["fix", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    assert "return InputRequiredResult(" in after and "ctx.input_responses" in after
    assert "await ctx.list_roots()" in after  # that call has no fastmcp 4 form: still left for a human


def test_fastmcp_below_4_pin_refuses_naming_the_pin(tmp_path: Path) -> None:
    _project(tmp_path, "fastmcp<3")
    f = _elicit_finding(tmp_path)
    assert f["fix"] is None
    assert f["manual"].startswith(
        "fastmcp 2.x/3.x code (the project pins `fastmcp<3` in pyproject.toml "
        "[project.dependencies]) has no interim form"
    )
    res = cli(["fix", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None and (tmp_path / "server.py").read_text(encoding="utf-8") == FASTMCP_SERVER


def test_mcp_below_2_pin_refuses_mcpserver_code(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    (tmp_path / "server.py").write_text(
        """from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("x")


@mcp.tool()
async def draft(topic: str, ctx: Context) -> str:
    r = await ctx.session.create_message([], max_tokens=5)
    return r.model
""",
        encoding="utf-8",
    )
    res = cli(["check", "--output-format", "json", "server.py"], tmp_path)
    [f] = res.json["findings"]
    assert f["fix"] is None and f["manual"].startswith(
        "the project pins `mcp==1.27.0` in requirements.txt: mcp 1.x has no interim form"
    )


def test_a_changed_pin_is_not_served_from_the_cache(tmp_path: Path) -> None:
    _project(tmp_path, "fastmcp>=4")
    assert _elicit_finding(tmp_path)["fix"] is not None  # cached now
    _project(tmp_path, "fastmcp<3")
    assert _elicit_finding(tmp_path)["fix"] is None


def test_each_file_hears_its_own_projects_pins(tmp_path: Path) -> None:
    """A monorepo checked from its top: each server's pins come from the nearest project files
    above *that file*, not from the working directory (and each file's cache entry follows them)."""
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    for name, dependency in (("new", "fastmcp>=4"), ("old", "fastmcp<3")):
        sub = tmp_path / "services" / name
        sub.mkdir(parents=True)
        (sub / "requirements.txt").write_text(dependency + "\n", encoding="utf-8")
        (sub / "server.py").write_text(FASTMCP_SERVER, encoding="utf-8")
    for _ in range(2):  # cold, then from the cache
        res = cli(["check", "--output-format", "json", "services"], tmp_path)
        assert res.exception is None, str(res)
        by_file = {
            f["path"].replace("\\", "/").split("services/")[-1]: f
            for f in res.json["findings"]
            if f["rule"] == "MCP202"
        }
        assert by_file["new/server.py"]["fix"] is not None
        assert "`fastmcp>=4` in services/new/requirements.txt" in by_file["new/server.py"]["fix"]["description"]
        assert by_file["old/server.py"]["fix"] is None
        assert "`fastmcp<3` in services/old/requirements.txt" in by_file["old/server.py"]["manual"]

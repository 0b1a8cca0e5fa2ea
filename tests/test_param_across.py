"""The ``param`` fix across modules (issue 22, items 3 and 4): a helper of one module that asks for
the roots, reached by tools of other modules, takes the path parameter from each tool; the files
of one fix are written all or none; and the fixed project runs on the real SDK.

Field case ``roots-04`` (``tests/data/project/roots04/``: a tool awaiting a roots helper of another
module) and the telegram-mcp shape the issue measures (7 tools in 3 modules reaching the helper
through a star import of a ``runtime`` module with a computed ``__all__``). Each fixed project is
run before and after, in memory against the official client (``tests/proof``): on mcp 1.27 (the
SDK these servers pin) and, ported with ``--target-sdk mcp2`` in the same run, on mcp 2.3 in both
eras: the calls that worked before (the client's root) answer the same with that path as the
parameter, and a call with another path answers for that path.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ANNOTATED_ROOT, cli, exploded

DATA = Path(__file__).resolve().parent / "data" / "project"
DESCRIPTION = "Absolute path of the directory to work in (formerly the client's MCP root)."


def _texts(out: dict[str, Any]) -> list[Any]:
    """Each call's one text answer (or its error)."""
    return ["".join(c["text"]) if c["error"] is None else c["error"] for c in out["calls"]]


def _copies(tmp_path: Path, src: Path) -> tuple[Path, Path]:
    """``src`` copied to ``tmp_path/before`` and ``tmp_path/after`` (writable)."""
    before, after = tmp_path / "before", tmp_path / "after"
    for d in (before, after):
        shutil.copytree(src, d)
        for p in d.rglob("*"):
            p.chmod(0o755 if p.is_dir() else 0o644)
    return before, after


def _albums(tmp_path: Path) -> tuple[Path, Path]:
    """Two folders: ``a`` with two JPEG files and a text file, ``b`` with one JPEG file."""
    a, b = tmp_path / "albums" / "a", tmp_path / "albums" / "b"
    for d, names in ((a, ("1.jpg", "2.jpg", "notes.txt")), (b, ("3.jpg",))):
        d.mkdir(parents=True)
        for n in names:
            (d / n).write_text(n)
    return a, b


# -- roots-04 ----------------------------------------------------------------------------------
ROOTS04_TOOL_FIXED = """\
from typing import Annotated

from mcp.server.fastmcp import FastMCP
from pydantic import Field

from roots04_paths import album_dir

photos = FastMCP("photo-shelf")


@photos.tool()
{header}    \"\"\"Count the JPEG files in the granted album folder.\"\"\"
    import os

    return sum(name.endswith(".jpg") for name in os.listdir(await album_dir(root)))
"""
ROOTS04_HELPER_FIXED = '''\
# Helper module of roots-04.py (see the comment there). The finding lands on line 7.


async def album_dir(root: str) -> str:
    """The first folder the client granted; every photo tool works inside it."""
    return root
'''


def _header(text: str) -> tuple[str, str]:
    """The field case's header comment and the code after it."""
    lines = text.splitlines(keepends=True)
    n = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    return "".join(lines[:n]), "".join(lines[n:])


def test_roots04_fix_writes_both_modules_and_a_second_fix_changes_nothing(tmp_path: Path) -> None:
    _before, after = _copies(tmp_path, DATA / "roots04")
    res = cli(["fix", "."], after)
    assert res.exit_code == 0, str(res)
    assert "Fixed 1 finding in 2 files; nothing left." in res.stdout
    header, _code = _header((DATA / "roots04" / "roots-04.py").read_text())
    assert (after / "roots-04.py").read_text() == header + ROOTS04_TOOL_FIXED.format(
        header=exploded("async def count_photos", ANNOTATED_ROOT, returns="int")
    )
    assert (after / "roots04_paths.py").read_text() == ROOTS04_HELPER_FIXED
    again = cli(["fix", "--diff", "."], after)
    assert (again.exit_code, again.stdout) == (0, "")


def test_roots04_fixed_project_runs_on_mcp1(tmp_path: Path, legacy_python: str, monkeypatch) -> None:
    from tests.proof import run_proof

    before, after = _copies(tmp_path, DATA / "roots04")
    assert cli(["fix", "."], after).exit_code == 0
    a, b = _albums(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(before))  # `from roots04_paths import album_dir`
    old = run_proof(legacy_python, before / "roots-04.py", "photos", "legacy", [a.as_uri()], [{"tool": "count_photos"}])
    assert _texts(old) == ["2"]
    monkeypatch.setenv("PYTHONPATH", str(after))
    calls = [{"tool": "count_photos", "arguments": {"root": str(p)}} for p in (a, b)]
    new = run_proof(legacy_python, after / "roots-04.py", "photos", "legacy", [], calls)
    assert _texts(new) == ["2", "1"]
    [schema] = [t["inputSchema"] for t in new["tools"] if t["name"] == "count_photos"]
    assert schema["required"] == ["root"]
    assert schema["properties"]["root"]["description"] == DESCRIPTION


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_roots04_ported_and_fixed_in_one_run_runs_on_mcp2(
    tmp_path: Path, mcp2_python: str, era: str, monkeypatch
) -> None:
    """``fix --target-sdk mcp2``: the port and the path threading in one run, both modules; the mcp
    1.x original's answer (on mcp 1.27, above) is the ported server's on mcp 2.3, in both eras."""
    from tests.proof import run_proof

    _before, after = _copies(tmp_path, DATA / "roots04")
    res = cli(["fix", "--target-sdk", "mcp2", "."], after)
    assert res.exit_code == 0, str(res)
    assert "async def album_dir(root: str) -> str:" in (after / "roots04_paths.py").read_text()
    assert exploded("async def count_photos", ANNOTATED_ROOT, returns="int") in (after / "roots-04.py").read_text()
    a, b = _albums(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(after))
    calls = [{"tool": "count_photos", "arguments": {"root": str(p)}} for p in (a, b)]
    new = run_proof(mcp2_python, after / "roots-04.py", "photos", era, [], calls)
    assert _texts(new) == ["2", "1"]


def test_a_caller_that_cannot_take_the_path_holds_every_file(tmp_path: Path) -> None:
    """All or none: the second tool module already has a `root` of its own, so neither the helper
    nor the first tool module is written, and the run says which caller held them."""
    _before, after = _copies(tmp_path, DATA / "roots04")
    (after / "more_tools.py").write_text(
        textwrap.dedent(
            """\
            from mcp.server.fastmcp import Context, FastMCP

            from roots04_paths import album_dir

            more = FastMCP("more")


            @more.tool()
            async def album_of(root: str, ctx: Context) -> str:
                return root + await album_dir(ctx)
            """
        )
    )
    before = {p.name: p.read_bytes() for p in after.iterdir()}
    res = cli(["fix", "--output-format", "json", "."], after)
    assert res.exit_code == 1
    assert {p.name: p.read_bytes() for p in after.iterdir()} == before
    [error] = res.json["errors"]
    assert error["path"] == "roots04_paths.py"
    assert error["message"] == (
        "fix not applied: the path parameter must reach the callers in other modules (`album_of` in "
        "more_tools.py: `root` is already a name in `album_of`: set another name with `[tool.mcpmigrate] "
        "path-parameter` or rename it); nothing was written for it"
    )


def test_a_read_only_caller_module_holds_the_helper_at_write_time(tmp_path: Path) -> None:
    """All or none on disk too: the tool module cannot be written, so the helper is not either
    (checked before the first write, as a port's files are)."""
    _before, after = _copies(tmp_path, DATA / "roots04")
    (after / "roots-04.py").chmod(0o444)
    before = {p.name: p.read_bytes() for p in after.iterdir()}
    res = cli(["fix", "--output-format", "json", "."], after)
    assert res.exit_code == 1
    assert {p.name: p.read_bytes() for p in after.iterdir()} == before
    assert res.json["errors"] == [
        {
            "path": "roots-04.py",
            "message": (
                "cannot write the fix: file is read-only; held with it: roots04_paths.py; nothing of this fix was "
                "written"
            ),
        }
    ]
    assert [f["rule"] for f in res.json["findings"]] == ["MCP101"]


COMPARE = """\
from mcp.server.fastmcp import Context, FastMCP

from roots04_paths import album_dir

photos = FastMCP("photo-shelf")


@photos.tool()
async def compare(ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    return listing.roots[0].uri.path + "|" + await album_dir(ctx)
"""


def test_a_tool_with_its_own_roots_request_passes_the_one_parameter_it_gets(
    tmp_path: Path, legacy_python: str, monkeypatch
) -> None:
    """The tool's own request and the helper's give it the same `root`: its own fix adds it, the
    project step passes that one to the helper (no second parameter), and the context goes."""
    from tests.proof import run_proof

    before, after = tmp_path / "before", tmp_path / "after"
    for d in (before, after):
        d.mkdir()
        shutil.copy(DATA / "roots04" / "roots04_paths.py", d)
        (d / "roots04_paths.py").chmod(0o644)
        (d / "tools.py").write_text(COMPARE)
    res = cli(["fix", "."], after)
    assert res.exit_code == 0, str(res)
    assert (after / "tools.py").read_text() == (
        "from typing import Annotated\n\nfrom mcp.server.fastmcp import FastMCP\nfrom pydantic import Field\n\n"
        'from roots04_paths import album_dir\n\nphotos = FastMCP("photo-shelf")\n\n\n@photos.tool()\n'
        + exploded("async def compare", ANNOTATED_ROOT, returns="str")
        + '    return root + "|" + await album_dir(root)\n'
    )
    assert (after / "roots04_paths.py").read_text() == ROOTS04_HELPER_FIXED
    assert cli(["fix", "--diff", "."], after).stdout == ""
    a, b = _albums(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(before))
    old = run_proof(legacy_python, before / "tools.py", "photos", "legacy", [a.as_uri()], [{"tool": "compare"}])
    assert _texts(old) == [f"{a}|{a}"]
    monkeypatch.setenv("PYTHONPATH", str(after))
    calls = [{"tool": "compare", "arguments": {"root": str(p)}} for p in (a, b)]
    new = run_proof(legacy_python, after / "tools.py", "photos", "legacy", [], calls)
    assert _texts(new) == [f"{a}|{a}", f"{b}|{b}"]


def test_a_helper_that_keeps_its_context_is_passed_the_path_in_its_place(tmp_path: Path) -> None:
    """The helper still reads its context (a protocol log, MCP401 not fixed here), so the path goes
    before it: each call passes it positionally there, never `album_dir(ctx, root=root)`."""
    (tmp_path / "helper.py").write_text(
        "from mcp.server.fastmcp import Context\n\n\nasync def album_dir(ctx: Context) -> str:\n"
        '    await ctx.info("asking")\n    listing = await ctx.session.list_roots()\n'
        "    return listing.roots[0].uri.path\n"
    )
    (tmp_path / "tools.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom helper import album_dir\n\n"
        'photos = FastMCP("p")\n\n\n@photos.tool()\nasync def where(ctx: Context) -> str:\n'
        "    return await album_dir(ctx)\n"
    )
    res = cli(["fix", "--select", "MCP101", "."], tmp_path)
    assert res.exit_code == 0, str(res)
    assert "async def album_dir(root: str, ctx: Context) -> str:\n" in (tmp_path / "helper.py").read_text()
    assert (
        (tmp_path / "tools.py")
        .read_text()
        .endswith(
            exploded("async def where", ANNOTATED_ROOT, "ctx: Context", returns="str")
            + "    return await album_dir(root, ctx)\n"
        )
    )


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("def f(ctx): ...", "def f(root): ...", ("ctx", 0, 0)),
        ("def f(ctx): ...", "def f(root, ctx): ...", (None, None, 0)),
        ("def f(a, *, ctx): ...", "def f(a, *, root): ...", ("ctx", None, None)),
        ("def f(a, ctx=None): ...", "def f(a, root, ctx=None): ...", (None, None, 1)),
        ("def f(ctx): ...", "def f(ctx): ...", None),
    ],
)
def test_signature_change_reads_where_the_path_went(old: str, new: str, expected: tuple | None) -> None:
    from mcpmigrate.codemods.param.across import signature_change

    assert signature_change(old.encode(), new.encode(), "f", "root") == expected


def test_a_prompt_of_another_module_cannot_take_every_root_and_says_so_at_check(tmp_path: Path) -> None:
    """What the project step would refuse is decided when the plan can see it: a prompt's arguments
    are strings, so a helper working with every root stays manual, naming the prompt."""
    (tmp_path / "helper.py").write_text(
        "from mcp.server.session import ServerSession\n\n\nasync def all_dirs(session: ServerSession) -> list[str]:\n"
        "    listing = await session.list_roots()\n    return [r.uri.path for r in listing.roots]\n"
    )
    (tmp_path / "prompts.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\nimport helper\n\napp = FastMCP('p')\n\n\n"
        "@app.prompt()\nasync def review(ctx: Context) -> str:\n"
        "    return 'Review ' + ' '.join(await helper.all_dirs(session=ctx.session))\n"
    )
    [f] = cli(["check", "--output-format", "json", "."], tmp_path).json["findings"]
    assert f["fix"] is None
    assert (
        f["manual"]
        == "`review` in prompts.py is a prompt and prompt arguments are strings: a list of paths cannot be passed"
    )


# -- 7 tools in 3 modules through a star import (telegram-mcp's runtime.py) ----------------------
RUNTIME = """\
import os

from mcp.server.fastmcp import Context


async def _granted(ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    return listing.roots[0].uri.path


async def _ensure(ctx: Context, sub: str = "") -> str:
    base = await _granted(ctx)
    return os.path.join(base, sub) if sub else base


__all__ = [name for name in globals() if not name.startswith("__")]
"""
FILES = """\
import os

from mcp.server.fastmcp import Context

from shop.app import mcp
from shop.runtime import *


@mcp.tool()
async def list_files(ctx: Context) -> str:
    \"\"\"The files of the workspace.\"\"\"
    return ",".join(sorted(os.listdir(await _ensure(ctx))))


@mcp.tool()
async def count_files(ctx: Context) -> int:
    return len(os.listdir(await _ensure(ctx)))


@mcp.tool()
async def read_file(name: str, ctx: Context) -> str:
    with open(await _ensure(ctx, name)) as f:
        return f.read()
"""
NOTES = """\
from mcp.server.fastmcp import Context

from shop.app import mcp
from shop.runtime import *


@mcp.tool()
async def notes_dir(ctx: Context) -> str:
    return await _ensure(ctx=ctx, sub="notes")


@mcp.tool()
async def workspace(ctx: Context) -> str:
    return await _granted(ctx)
"""
MEDIA = """\
import os

from mcp.server.fastmcp import Context

from shop.app import mcp
from shop.runtime import *


@mcp.tool()
async def has_media(ctx: Context) -> bool:
    return os.path.isdir(await _ensure(ctx, "media"))


@mcp.tool()
async def media_count(ctx: Context, limit: int = 10) -> int:
    folder = await _ensure(ctx, "media")
    return min(limit, len(os.listdir(folder))) if os.path.isdir(folder) else 0
"""
SHOP = {
    "pyproject.toml": "[tool.mcpmigrate]\n",
    "shop/__init__.py": "",
    "shop/app.py": 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("shop")\n',
    "shop/runtime.py": RUNTIME,
    "shop/tools/__init__.py": "",
    "shop/tools/files.py": FILES,
    "shop/tools/notes.py": NOTES,
    "shop/tools/media.py": MEDIA,
    "shop/server.py": "from shop.app import mcp\nfrom shop.tools import files, media, notes  # noqa: F401\n",
}
TOOLS = ["list_files", "count_files", "read_file", "notes_dir", "workspace", "has_media", "media_count"]


def _shop(root: Path) -> Path:
    for rel, text in SHOP.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def test_seven_tools_in_three_modules_through_a_star_import(tmp_path: Path) -> None:
    root = _shop(tmp_path / "shop-project")
    [f] = cli(["check", "--output-format", "json", "."], root).json["findings"]
    assert (f["path"], f["line"], f["column"]) == ("shop/runtime.py", 7, 21)
    assert f["fix"]["safety"] == "safe"
    for tool in TOOLS:
        assert f"`{tool}` in shop/tools/" in f["fix"]["description"]
    res = cli(["fix", "."], root)
    assert res.exit_code == 0, str(res)
    assert "Fixed 1 finding in 4 files; nothing left." in res.stdout
    runtime = (root / "shop/runtime.py").read_text()
    assert "async def _granted(root: str) -> str:\n    return root\n" in runtime
    assert 'async def _ensure(root: str, sub: str = "") -> str:\n    base = await _granted(root)\n' in runtime
    assert (root / "shop/tools/notes.py").read_text() == (
        "from typing import Annotated\n\nfrom pydantic import Field\n\n"
        "from shop.app import mcp\nfrom shop.runtime import *\n\n\n"
        "@mcp.tool()\n"
        + exploded("async def notes_dir", ANNOTATED_ROOT, returns="str")
        + '    return await _ensure(root=root, sub="notes")\n\n\n'
        "@mcp.tool()\n"
        + exploded("async def workspace", ANNOTATED_ROOT, returns="str")
        + "    return await _granted(root)\n"
    )
    media = (root / "shop/tools/media.py").read_text()
    assert exploded("async def media_count", ANNOTATED_ROOT, "limit: int = 10", returns="int") in media
    assert '    folder = await _ensure(root, "media")\n' in media
    files = (root / "shop/tools/files.py").read_text()
    assert exploded("async def read_file", "name: str", ANNOTATED_ROOT, returns="str") in files
    assert "    with open(await _ensure(root, name)) as f:\n" in files
    assert cli(["fix", "--diff", "."], root).stdout == ""


def test_seven_tools_fixed_answer_as_before_on_mcp1(tmp_path: Path, legacy_python: str, monkeypatch) -> None:
    from tests.proof import run_proof

    before, after = _shop(tmp_path / "before"), _shop(tmp_path / "after")
    assert cli(["fix", "."], after).exit_code == 0
    a, b = tmp_path / "ws-a", tmp_path / "ws-b"
    for d, names in ((a, ("x.txt", "media/m1", "media/m2", "notes/n")), (b, ("y.txt",))):
        for n in names:
            (d / n).parent.mkdir(parents=True, exist_ok=True)
            (d / n).write_text(n)
    args = {"read_file": {"name": "x.txt"}, "media_count": {"limit": 1}}
    monkeypatch.setenv("PYTHONPATH", str(before))
    old = run_proof(
        legacy_python,
        before / "shop/server.py",
        "mcp",
        "legacy",
        [a.as_uri()],
        [{"tool": t, "arguments": args.get(t, {})} for t in TOOLS],
    )
    expected = ["media,notes,x.txt", "3", "x.txt", str(a / "notes"), str(a), "true", "1"]
    assert _texts(old) == expected
    monkeypatch.setenv("PYTHONPATH", str(after))
    calls = [{"tool": t, "arguments": {**args.get(t, {}), "root": str(a)}} for t in TOOLS]
    calls.append({"tool": "list_files", "arguments": {"root": str(b)}})
    calls.append({"tool": "has_media", "arguments": {"root": str(b)}})
    new = run_proof(legacy_python, after / "shop/server.py", "mcp", "legacy", [], calls)
    assert _texts(new) == [*expected, "y.txt", "false"]
    for t in new["tools"]:
        assert t["inputSchema"]["properties"]["root"]["description"] == DESCRIPTION
        assert "root" in t["inputSchema"]["required"]


# -- roots-15: an mcp 1.x low-level tool, the request in a helper that takes no context ---------
ROOTS15_FIXED = """\
import mcp.types as types
from mcp.server import Server

depot = Server("depot")


async def _depot_dirs(roots: list[str]) -> list[str]:
    return [r for r in roots]


@depot.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "depot_home":
        roots = arguments["roots"]
        return [types.TextContent(type="text", text=(await _depot_dirs(roots))[0])]
    raise ValueError(name)
"""
ROOTS15_NOTE = (
    "no `tools/list` handler or `Tool(...)` literal in this module lists tool 'depot_home': the `roots` argument is "
    "read from the call, but no inputSchema documents it; declare it where the tool is listed"
)


def test_roots15_param_threads_the_roots_into_the_helper_and_says_what_stays_undocumented(tmp_path: Path) -> None:
    """The helper reads the roots through `depot.request_context` (no context parameter): it takes
    the list of paths, the handler reads them from the call's arguments inside the tool's branch.
    Nothing in the module lists the tool, so the argument cannot be documented: unsafe, saying so."""
    _before, after = _copies(tmp_path, DATA / "roots15")
    [f] = cli(["check", "--output-format", "json", "."], after).json["findings"]
    assert (f["rule"], f["line"], f["column"]) == ("MCP101", 20, 21)
    assert f["fix"] == {
        "safety": "unsafe",
        "strategy": "param",
        "description": (
            "add a documented `roots` parameter to tool 'depot_home' (low-level handler `call_tool`) and drop the "
            f"roots request (review: {ROOTS15_NOTE})"
        ),
    }
    # the interim refusal names what blocks it first: mcp 1.x has no interim form (the field case's SHOULD)
    interim = cli(["fix", "--diff", "--strategy", "interim", "."], after)
    assert (
        "roots-15.py:20:21 MCP101 roots-request: manual: mcp 1.x has no interim form" in interim.stdout + interim.stderr
    )
    assert "`fix --strategy param`" in interim.stdout + interim.stderr
    assert cli(["fix", "."], after).exit_code == 1  # unsafe: a plain fix leaves it
    res = cli(["fix", "--unsafe-fixes", "."], after)
    assert res.exit_code == 0, str(res)
    header, _code = _header((DATA / "roots15" / "roots-15.py").read_text())
    assert (after / "roots-15.py").read_text() == header + ROOTS15_FIXED
    assert cli(["fix", "--diff", "--unsafe-fixes", "."], after).stdout == ""
    # ported in the same run: the param fix goes first (codemods.ORDER), the port then wraps the
    # 1.x handler whose branch reads the argument, and nothing is left
    ported = tmp_path / "ported"
    shutil.copytree(_before, ported)
    res = cli(["fix", "--unsafe-fixes", "--target-sdk", "mcp2", "."], ported)
    assert res.exit_code == 0, str(res)
    assert 'roots = arguments["roots"]' in (ported / "roots-15.py").read_text()


LISTING = """

@depot.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="depot_home", description="The depot's home folder", inputSchema={"type": "object", "properties": {}})]
"""


def test_roots15_fixed_runs_on_mcp1_and_ported_on_mcp2_in_both_eras(
    tmp_path: Path, legacy_python: str, mcp2_python: str
) -> None:
    """The official client lists the tools before it calls one (mcp 1.27's ``call_tool`` validates
    against ``tools/list``), so the server runs with the listing it would have (roots-15 trims it):
    the fix then documents `roots` in that inputSchema. On mcp 1.27 the original answers with the
    client's first root, the fixed server with the first path of `roots`; ported next (``fix
    --target-sdk mcp2``: the port wraps the 1.x handler, whose tool branch already reads the
    argument), it answers the same on mcp 2.3 in both eras."""
    from tests.proof import run_proof

    before, after = _copies(tmp_path, DATA / "roots15")
    for d in (before, after):
        with (d / "roots-15.py").open("a") as f:
            f.write(LISTING)
    res = cli(["fix", "."], after)
    assert res.exit_code == 0, str(res)  # listed: documented, safe
    a, b = _albums(tmp_path)
    old = run_proof(
        legacy_python, before / "roots-15.py", "depot", "legacy", [a.as_uri(), b.as_uri()], [{"tool": "depot_home"}]
    )
    assert _texts(old) == [str(a)]
    calls = [
        {"tool": "depot_home", "arguments": {"roots": [str(a), str(b)]}},
        {"tool": "depot_home", "arguments": {"roots": [str(b)]}},
    ]
    new = run_proof(legacy_python, after / "roots-15.py", "depot", "legacy", [], calls)
    assert _texts(new) == [str(a), str(b)]
    [schema] = [t["inputSchema"] for t in new["tools"]]
    assert schema["required"] == ["roots"]
    assert schema["properties"]["roots"]["items"] == {"type": "string"}
    ported = cli(["fix", "--target-sdk", "mcp2", "."], after)
    assert ported.exit_code == 0, str(ported)
    assert 'roots = arguments["roots"]' in (after / "roots-15.py").read_text()
    for era in ("legacy", "modern"):
        assert _texts(run_proof(mcp2_python, after / "roots-15.py", "depot", era, [], calls)) == [str(a), str(b)]

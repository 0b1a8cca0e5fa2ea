"""The project pass (``mcpmigrate/analysis/project.py``): calls across modules type untyped
helper parameters, name the chain in the finding, and let the ``param`` fix thread the path from
the tools of other modules into the helper that asks for the roots (``mcpmigrate/project_threads.py``),
or say why not.

Field cases ``roots-04`` (a roots helper awaited by a tool of another module) and ``requests-05``
(an untyped consent helper handed a tool's ``Context``) are copied under ``tests/data/project/``;
the other tests are the same kinds in other spellings (packages, relative and aliased imports,
star imports with ``__all__``, re-exports, keywords, ``ctx.session``).
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

from tests.helpers import ANNOTATED_ROOT, cli, exploded

DATA = Path(__file__).parent / "data" / "project"

ROOTS_MSG = (
    "The server asks the client for its roots in `{fn}`{chain}; on 2026-07-28 servers cannot send requests "
    "(mcp 2.x raises NoBackChannelError) and roots are deprecated. Take the directory as a documented tool "
    "parameter (`fix --strategy param`)."
)
CROSS = (
    "called from another module ({callers}); {why}: give {tools} a documented path parameter and pass it to "
    "`{fn}` by hand"
)
ACROSS = "add a documented `root` parameter to {tools} and drop the roots request"
FIXED_HELPER = "\n\nasync def album_dir(root: str) -> str:\n    return root\n"

HELPER = """\
from mcp.server.fastmcp import Context


async def album_dir(ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    return listing.roots[0].uri.path
"""


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def _findings(root: Path, *args: str) -> list[dict]:
    res = cli(["check", "--no-cache", "--output-format", "json", *(args or ["."])], root)
    assert res.exception is None, str(res)
    return res.json["findings"]


def _one(findings: list[dict], rule: str, path: str) -> dict:
    mine = [f for f in findings if f["rule"] == rule and f["path"] == path]
    assert len(mine) == 1, findings
    return mine[0]


def test_roots04_helper_called_from_a_tool_of_another_module(tmp_path: Path) -> None:
    root = tmp_path / "roots04"
    shutil.copytree(DATA / "roots04", root)
    f = _one(_findings(root), "MCP101", "roots04_paths.py")
    assert (f["line"], f["column"]) == (7, 21)
    assert f["message"] == ROOTS_MSG.format(fn="album_dir", chain=" (called from `count_photos` in roots-04.py)")
    assert f["fix"] == {
        "safety": "safe",
        "strategy": "param",
        "description": ACROSS.format(tools="`count_photos` in roots-04.py"),
    }
    assert f["manual"] is None


def test_roots04_the_rest_of_the_project_is_read_when_only_the_helper_is_checked(tmp_path: Path) -> None:
    """A pre-commit hook passes only the staged file: the tool module is read all the same, and
    the fix, which must rewrite it too, writes neither file (all or none)."""
    root = tmp_path / "roots04"
    shutil.copytree(DATA / "roots04", root)
    (root / "pyproject.toml").write_text("[tool.mcpmigrate]\n", encoding="utf-8")
    f = _one(_findings(root, "roots04_paths.py"), "MCP101", "roots04_paths.py")
    assert "(called from `count_photos` in roots-04.py)" in f["message"]
    assert f["fix"]["description"] == ACROSS.format(tools="`count_photos` in roots-04.py")
    before = {p.name: p.read_bytes() for p in root.iterdir()}
    res = cli(["fix", "--output-format", "json", "roots04_paths.py"], root)
    assert res.exit_code == 1
    assert {p.name: p.read_bytes() for p in root.iterdir()} == before
    assert res.json["errors"] == [
        {
            "path": "roots04_paths.py",
            "message": (
                "fix not applied: the path parameter must reach the callers in other modules (`count_photos` in "
                "roots-04.py is not among the files being fixed); nothing was written for it"
            ),
        }
    ]


def test_requests05_untyped_consent_helper_gets_the_context_of_the_calling_tool(tmp_path: Path) -> None:
    root = tmp_path / "requests05"
    shutil.copytree(DATA / "requests05", root)
    f = _one(_findings(root), "MCP202", "consent.py")
    assert (f["line"], f["column"]) == (27, 23)
    assert f["message"].startswith(
        "The server pushes an elicitation to the client in `require_ack` (called from `delete_bucket` in "
        "bucket_tools.py)"
    )
    # alone, the helper is no finding: nothing says `ctx` is an MCP context
    (root / "bucket_tools.py").unlink()
    assert _findings(root) == []


def test_package_relative_import(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.mcpmigrate]\n",
            "shelf/__init__.py": "",
            "shelf/paths.py": HELPER,
            "shelf/tools/__init__.py": "",
            "shelf/tools/photos.py": """\
                from mcp.server.fastmcp import Context, FastMCP

                from ..paths import album_dir

                mcp = FastMCP("photos")


                @mcp.tool()
                async def count_photos(ctx: Context) -> int:
                    return len(await album_dir(ctx))
            """,
        },
    )
    f = _one(_findings(root), "MCP101", "shelf/paths.py")
    assert f["fix"]["description"] == ACROSS.format(tools="`count_photos` in shelf/tools/photos.py")
    assert cli(["fix", "."], root).exit_code == 0
    assert (root / "shelf/paths.py").read_text() == FIXED_HELPER
    assert (root / "shelf/tools/photos.py").read_text() == (
        "from typing import Annotated\n\nfrom mcp.server.fastmcp import FastMCP\nfrom pydantic import Field\n\n"
        'from ..paths import album_dir\n\nmcp = FastMCP("photos")\n\n\n@mcp.tool()\n'
        + exploded("async def count_photos", ANNOTATED_ROOT, returns="int")
        + "    return len(await album_dir(root))\n"
    )


def test_module_alias_star_import_with_all_and_package_reexport(tmp_path: Path) -> None:
    """Three more spellings of the same call: ``import pkg.paths as p; p.album_dir(ctx)``, a star
    import of a module whose ``__all__`` lists the helper, and a helper re-exported by its
    package's ``__init__``."""
    tools = """\
        from mcp.server.fastmcp import Context, FastMCP
        {imp}

        mcp = FastMCP("photos")


        @mcp.tool()
        async def {tool}(ctx: Context) -> int:
            return len(await {call}(ctx))
    """
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.mcpmigrate]\n",
            "app/__init__.py": "from .paths import album_dir\n",
            "app/paths.py": HELPER,
            "app/runtime.py": '__all__ = ["granted"]\n\n' + HELPER.replace("album_dir", "granted"),
            "app/aliased.py": tools.format(imp="import app.paths as p", tool="by_alias", call="p.album_dir"),
            "app/starred.py": tools.format(imp="from app.runtime import *", tool="by_star", call="granted"),
            "app/reexported.py": tools.format(imp="from app import album_dir", tool="by_pkg", call="album_dir"),
        },
    )
    findings = _findings(root)
    paths = _one(findings, "MCP101", "app/paths.py")
    assert paths["fix"]["description"] == ACROSS.format(
        tools="`by_alias` in app/aliased.py, `by_pkg` in app/reexported.py"
    )
    runtime = _one(findings, "MCP101", "app/runtime.py")
    assert runtime["fix"]["description"] == ACROSS.format(tools="`by_star` in app/starred.py")
    assert cli(["fix", "."], root).exit_code == 0
    assert (root / "app/paths.py").read_text() == FIXED_HELPER
    # a star-imported module keeps its imports: another module may take them through the star
    assert (root / "app/runtime.py").read_text() == (
        '__all__ = ["granted"]\n\nfrom mcp.server.fastmcp import Context\n\n\n'
        "async def granted(root: str) -> str:\n    return root\n"
    )
    for name, imp, tool, call in (
        ("aliased", "import app.paths as p", "by_alias", "p.album_dir"),
        ("starred", "from app.runtime import *", "by_star", "granted"),
        ("reexported", "from app import album_dir", "by_pkg", "album_dir"),
    ):
        assert (root / f"app/{name}.py").read_text() == (
            # the added imports go into their sections; the module's own import stays where it was
            f"from typing import Annotated\n\nfrom mcp.server.fastmcp import FastMCP\nfrom pydantic import Field\n{imp}\n\n"
            'mcp = FastMCP("photos")\n\n\n@mcp.tool()\n'
            + exploded(f"async def {tool}", ANNOTATED_ROOT, returns="int")
            + f"    return len(await {call}(root))\n"
        )
    assert cli(["fix", "--diff", "."], root).stdout == ""  # a second fix changes nothing


def test_star_import_without_the_name_in_all_is_no_call(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.mcpmigrate]\n",
            "runtime.py": '__all__ = ["other"]\n\n' + HELPER + "\n\ndef other() -> None: ...\n",
            "tools.py": """\
                from runtime import *
                from mcp.server.fastmcp import Context, FastMCP

                mcp = FastMCP("photos")


                @mcp.tool()
                async def count(ctx: Context) -> int:
                    return len(await album_dir(ctx))
            """,
        },
    )
    f = _one(_findings(root), "MCP101", "runtime.py")
    assert "called from another module" not in f["manual"]


def test_a_helper_also_called_from_another_module_is_not_rewritten(tmp_path: Path) -> None:
    """The tool of the helper's own module would get the parameter and the helper a new required
    argument: the caller in the other module would break. Manual, naming it."""
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.mcpmigrate]\n",
            "paths.py": HELPER
            + """

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("here")


@mcp.tool()
async def local_tool(ctx: Context) -> str:
    return await album_dir(ctx)
""",
            "other.py": """\
                from mcp.server.fastmcp import Context

                from paths import album_dir


                async def summary(ctx: Context) -> str:
                    return await album_dir(ctx)
            """,
        },
    )
    f = _one(_findings(root), "MCP101", "paths.py")
    assert f["fix"] is None
    assert f["manual"] == CROSS.format(
        callers="`summary` in other.py",
        why="`summary` in other.py is no decorator tool or prompt, so the path would have to be threaded on through its module",
        tools="the tools that reach it",
        fn="album_dir",
    )


def test_session_and_keyword_arguments_type_untyped_parameters(tmp_path: Path) -> None:
    """``ask(session=ctx.session)`` and ``sample(ctx.request_context.session, …)`` from typed tools
    make the untyped parameters sessions (and ``Any`` is as good as no annotation)."""
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.mcpmigrate]\n",
            "helpers.py": """\
                from typing import Any

                import mcp.types as types


                async def ask(text, session=None):
                    return await session.create_message(
                        messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text=text))],
                        max_tokens=50,
                    )


                async def confirm(ctx: Any, what: str) -> bool:
                    reply = await ctx.elicit(message=what, schema=dict)
                    return reply.action == "accept"
            """,
            "server.py": """\
                from mcp.server.fastmcp import Context, FastMCP

                from helpers import ask, confirm

                mcp = FastMCP("s")


                @mcp.tool()
                async def summarize(text: str, ctx: Context) -> str:
                    await confirm(ctx=ctx, what="go?")
                    return str(await ask(text, session=ctx.session))
            """,
        },
    )
    findings = _findings(root)
    sampling = _one(findings, "MCP201", "helpers.py")
    assert (sampling["line"], sampling["column"]) == (7, 18)
    assert "in `ask` (called from `summarize` in server.py)" in sampling["message"]
    elicit = _one(findings, "MCP202", "helpers.py")
    assert (elicit["line"], elicit["column"]) == (14, 19)
    assert "in `confirm` (called from `summarize` in server.py)" in elicit["message"]


def test_a_non_mcp_context_from_another_module_types_nothing(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.mcpmigrate]\n",
            "helpers.py": """\
                async def confirm(ctx, what: str) -> bool:
                    reply = await ctx.elicit(message=what, schema=dict)
                    return reply.action == "accept"
            """,
            "cli.py": """\
                import click

                from helpers import confirm


                async def run(ctx: click.Context) -> None:
                    await confirm(ctx, "go?")
            """,
        },
    )
    assert _findings(root) == []


def test_the_cache_follows_the_callers(tmp_path: Path) -> None:
    """The helper's result depends on the other module: editing the caller re-checks it."""
    root = tmp_path / "roots04"
    shutil.copytree(DATA / "roots04", root)

    def plan() -> str:
        res = cli(["check", "--output-format", "json", "."], root)
        f = _one(res.json["findings"], "MCP101", "roots04_paths.py")
        return f["manual"] or f["fix"]["description"]

    assert plan() == ACROSS.format(tools="`count_photos` in roots-04.py")
    assert plan() == ACROSS.format(tools="`count_photos` in roots-04.py")  # warm
    tools = root / "roots-04.py"
    tools.write_text(tools.read_text().replace("await album_dir(ctx)", '"."'), encoding="utf-8")
    assert plan().startswith("no tool, prompt or resource reaches `album_dir`")


def test_computed_all_star_import_and_a_server_folder_that_is_no_identifier(tmp_path: Path) -> None:
    """telegram-mcp's shape: ``runtime.py`` ends with ``__all__ = [n for n in globals() …]``, the tool
    modules star-import it and call its ``_``-helpers; awslabs' shape: the package sits in a folder
    named ``my-server`` and a tool method passes its ``ctx`` third."""
    root = _tree(
        tmp_path,
        {
            "my-server/shop/__init__.py": "",
            "my-server/shop/runtime.py": HELPER.replace("album_dir", "_granted")
            + """

async def _ensure(ctx: Context) -> str:
    return await _granted(ctx)


__all__ = [name for name in globals() if not name.startswith("__")]
""",
            "my-server/shop/tools/__init__.py": "",
            "my-server/shop/tools/files.py": """\
                from mcp.server.fastmcp import Context, FastMCP

                from shop.runtime import *

                mcp = FastMCP("files")


                @mcp.tool()
                async def upload(name: str, ctx: Context) -> str:
                    return await _ensure(ctx) + name
            """,
            "my-server/shop/consent.py": """\
                async def request_consent(what: str, text: str, ctx) -> None:
                    from pydantic import BaseModel

                    class Ack(BaseModel):
                        ok: bool

                    await ctx.elicit(message=what + text, schema=Ack)
            """,
            "my-server/shop/tools/orders.py": """\
                from mcp.server.fastmcp import Context

                from shop.consent import request_consent


                class OrderTools:
                    def register(self, mcp) -> None:
                        mcp.tool()(self.cancel)

                    async def cancel(self, order: str, ctx: Context) -> str:
                        await request_consent("Cancel?", order, ctx)
                        return "cancelled"
            """,
        },
    )
    findings = _findings(root)
    roots = _one(findings, "MCP101", "my-server/shop/runtime.py")
    assert roots["fix"]["description"] == ACROSS.format(tools="`upload` in my-server/shop/tools/files.py")
    consent = _one(findings, "MCP202", "my-server/shop/consent.py")
    assert (consent["line"], consent["column"]) == (7, 11)
    assert "(called from `OrderTools.cancel` in my-server/shop/tools/orders.py)" in consent["message"]


def test_interim_fix_keeps_a_helper_another_module_calls(tmp_path: Path) -> None:
    """The interim fix would give the helper the answer in place of the context: the call in the
    other module, which still passes its context, would break. Manual, naming it."""
    consent = """\
        from mcp.server.mcpserver import Context, MCPServer
        from pydantic import BaseModel


        class Ack(BaseModel):
            ack: bool


        async def require_ack(summary: str, ctx: Context) -> bool:
            reply = await ctx.elicit(message=summary, schema=Ack)
            return reply.action == "accept"


        local = MCPServer("l")


        @local.tool()
        async def wipe(ctx: Context) -> str:
            return "wiped" if await require_ack("Wipe?", ctx) else "kept"
    """
    tools = """\
        from mcp.server.mcpserver import Context, MCPServer

        from consent import require_ack

        app = MCPServer("b")


        @app.tool()
        async def delete_bucket(name: str, ctx: Context) -> str:
            return "deleted" if await require_ack(name, ctx) else "kept"
    """
    root = _tree(
        tmp_path,
        {"pyproject.toml": '[tool.mcpmigrate]\nstrategy = "interim"\n', "consent.py": consent, "tools.py": tools},
    )
    f = _one(_findings(root), "MCP202", "consent.py")
    assert (f["line"], f["column"]) == (10, 19)
    assert f["fix"] is None
    assert f["manual"] == (
        "the request is made in the helper `require_ack`, which is also called from another module "
        "(`delete_bucket` in tools.py): the fix hands the helper the answer in place of its context, "
        "and those calls would still pass the context; move the request into the tools by hand"
    )


def _many_callers(tmp_path: Path, n: int) -> Path:
    """A helper module called from ``n`` tool modules, plus modules no other module calls."""
    files = {"paths.py": HELPER}
    for i in range(n):
        files[f"tools{i}.py"] = f"""\
            from mcp.server.fastmcp import Context, FastMCP

            from paths import album_dir

            mcp = FastMCP("t{i}")


            @mcp.tool()
            async def count{i}(ctx: Context) -> str:
                return await album_dir(ctx)
            """
        files[f"own{i}.py"] = f"""\
            from mcp.server.fastmcp import Context, FastMCP

            mcp = FastMCP("o{i}")


            @mcp.tool()
            async def first{i}(ctx: Context) -> str:
                listing = await ctx.session.list_roots()
                return listing.roots[0].uri.path
            """
    return _tree(tmp_path, files)


def _run(root: Path, jobs: int, monkeypatch, no_cache: bool = True) -> list[str]:
    from mcpmigrate.config import load_config
    from mcpmigrate.engine import Options, run

    monkeypatch.chdir(root)
    res = run([Path(".")], load_config(None), Options(mode="check", no_cache=no_cache, jobs=jobs))
    return [json.dumps(f.to_json(), sort_keys=True) for f in res.findings]


def test_the_pass_in_the_worker_pool_gives_the_serial_findings(tmp_path: Path, monkeypatch) -> None:
    """Many callers: their summaries, and the files no other module calls, go to the workers
    first; the called helper follows once the pass is resolved. Same findings as one process,
    and as when there is no process pool (then everything runs here)."""
    import mcpmigrate.engine as engine
    from mcpmigrate.engine import POOL_MIN_SUMMARIES

    root = _many_callers(tmp_path, POOL_MIN_SUMMARIES + 2)
    overlapped = []
    real = engine._overlapped
    monkeypatch.setattr(engine, "_overlapped", lambda *a: overlapped.append(1) or real(*a))
    serial = _run(root, 1, monkeypatch)
    assert not overlapped
    helper = [json.loads(f) for f in serial if json.loads(f)["path"] == "paths.py"]
    assert len(helper) == 1 and "`count0` in tools0.py" in helper[0]["message"]
    assert _run(root, 2, monkeypatch) == serial
    assert overlapped == [1]

    def no_pool(*a, **k):
        raise OSError("no /dev/shm")

    monkeypatch.setattr(engine, "ProcessPoolExecutor", no_pool)
    assert _run(root, 2, monkeypatch) == serial
    monkeypatch.undo()
    assert _run(root, 2, monkeypatch, no_cache=False) == serial  # cold, with the cache
    assert _run(root, 2, monkeypatch, no_cache=False) == serial  # warm
    assert _diffs(root, 2, monkeypatch) == _diffs(root, 1, monkeypatch)  # `fix --diff` too


def _diffs(root: Path, jobs: int, monkeypatch) -> list[tuple[str, bytes | None]]:
    from mcpmigrate.config import load_config
    from mcpmigrate.engine import POOL_MIN_SUMMARIES, Options, run

    monkeypatch.chdir(root)
    res = run([Path(".")], load_config(None), Options(mode="fix", diff=True, no_cache=True, jobs=jobs))
    # each `own` tool and each tool calling the helper take the directory as a parameter, and the helper
    assert len(res.changed) == 2 * (POOL_MIN_SUMMARIES + 2) + 1
    return [(r.display, r.new_source) for r in res.results]

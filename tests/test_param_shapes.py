"""The param fix on the shapes real servers have (field cases roots-02, roots-03, roots-06,
bugs-06): the label ``check`` prints for each, exact, and that roots which fence what a tool may
touch never become a caller-chosen parameter under a safe label."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli

DATA = Path(__file__).resolve().parent / "data" / "paramshapes"

BOUNDARY_NOTE = (
    "the roots bound what the tool may touch (an allow-list check in `{where}`); as a parameter the "
    "caller chooses that boundary, so enforce it with server configuration instead"
)


def _mcp101(tmp_path: Path, source: str) -> dict:
    """The MCP101 finding of ``source`` under the ``param`` strategy, chosen (a fence's default is
    the ``config`` fix: tests/test_fences.py)."""
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "param"\n', encoding="utf-8")
    (tmp_path / "s.py").write_text(source, encoding="utf-8")
    res = cli(["check", "--output-format", "json", "s.py"], tmp_path)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP101"]
    return f


def test_roots_kept_by_another_object_that_checks_access_is_unsafe_with_the_note(tmp_path: Path) -> None:
    """roots-06: the roots go into `vault.allowed`, `Vault.admit` checks `is_relative_to` against
    them; the fix would let the caller choose the fence (was: safe)."""
    f = _mcp101(tmp_path, (DATA / "roots06_vault.py").read_text())
    assert f["line"] == 35 and f["column"] == 21
    assert f["fix"] == {
        "safety": "unsafe",
        "strategy": "param",
        "description": "add a documented `roots` parameter to `open_ledger` and drop the roots request (review: "
        + BOUNDARY_NOTE.format(where="Vault.admit")
        + ")",
    } | {k: v for k, v in f["fix"].items() if k not in ("safety", "strategy", "description")}


def test_roots_bounding_access_with_a_server_side_fallback_are_manual(tmp_path: Path) -> None:
    """bugs-06: roots (with a configured `SHARE_DIR` fallback) bound what `upload` may share; no
    fix, not even an unsafe one, hands that boundary to the caller (was: unsafe, dropping the
    fallback)."""
    f = _mcp101(tmp_path, (DATA / "bugs06_share_dir.py").read_text())
    assert f["line"] == 28 and f["fix"] is None
    assert f["manual"] == (
        "the roots bound what the tool may touch (an allow-list check in `upload`) and are asked only on some "
        "paths (inside `try`), so the other paths already have their own boundary: as a parameter the caller would "
        "choose it. Keep the boundary server-side (the fallback's configuration) and drop the roots request by hand"
    )
    (tmp_path / "s.py").write_text((DATA / "bugs06_share_dir.py").read_text(), encoding="utf-8")
    cli(["fix", "--unsafe-fixes", "s.py"], tmp_path)
    assert (tmp_path / "s.py").read_text() == (DATA / "bugs06_share_dir.py").read_text()


HEAD = """import os
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")
"""

# The check in a helper, spelled the ways real servers spell it.
CHECK_SHAPES = {
    "startswith_prefix": (
        """

def _under(path: str, base: str) -> bool:
    return os.path.realpath(path).startswith(os.path.realpath(base) + os.sep)


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    base = listing.roots[0].uri.path
    if not _under(path, base):
        raise PermissionError(path)
    return Path(path).read_text()
""",
        "_under",
    ),
    "commonpath_helper": (
        """

def _contained(path: str, base: str) -> bool:
    return os.path.commonpath([path, base]) == base


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    base = listing.roots[0].uri.path
    if not _contained(path, base):
        raise PermissionError(path)
    return Path(path).read_text()
""",
        "_contained",
    ),
    "guard_named_method": (
        """

class Fence:
    def __init__(self, base: str) -> None:
        self.base = base

    def inside(self, path: str) -> bool:
        return Path(path).resolve().parent == Path(self.base)


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    fence = Fence(listing.roots[0].uri.path)
    if not fence.inside(path):
        raise PermissionError(path)
    return Path(path).read_text()
""",
        "read",
    ),
}


@pytest.mark.parametrize("shape", sorted(CHECK_SHAPES))
def test_access_checks_in_helpers_and_objects_make_the_fix_unsafe(tmp_path: Path, shape: str) -> None:
    body, where = CHECK_SHAPES[shape]
    f = _mcp101(tmp_path, HEAD + body)
    assert f["fix"]["safety"] == "unsafe", f
    assert f["fix"]["description"].endswith("(review: " + BOUNDARY_NOTE.format(where=where) + ")"), f


def test_a_startswith_on_a_literal_is_not_an_access_check(tmp_path: Path) -> None:
    f = _mcp101(
        tmp_path,
        HEAD
        + """

@mcp.tool()
async def names(ctx: Context) -> list[str]:
    listing = await ctx.session.list_roots()
    return [n for n in os.listdir(listing.roots[0].uri.path) if not n.startswith(".")]
""",
    )
    assert f["fix"]["safety"] == "safe", f


def test_roots_as_the_default_of_the_tools_path_become_an_optional_parameter(tmp_path: Path) -> None:
    """roots-02 (the exact rewrite is fixtures/roots/mcp1_roots_as_default_path): the label says the
    parameter is optional and where it is used (was: unsafe, a required parameter)."""
    src = (
        Path(__file__).resolve().parent.parent / "fixtures" / "roots" / "mcp1_roots_as_default_path" / "before.py"
    ).read_text()
    f = _mcp101(tmp_path, src)
    assert f["fix"]["safety"] == "safe"
    assert f["fix"]["description"] == (
        "add an optional documented `root` parameter to `find_recipes`, used only when "
        "`folder` is not given, and drop the roots request"
    )


def test_a_default_inside_a_helper_becomes_an_optional_parameter_threaded_to_it(tmp_path: Path) -> None:
    """The fallback sits in a helper the tool calls (issue 23, field case roots-18): the tool's
    new parameter is optional and used only when `folder` is not given, and the helper checks it
    where the request was (was: a required parameter, breaking every call that passed `folder`;
    the fixed server is run in tests/test_param_field_roots.py)."""
    source = (
        HEAD
        + """

async def _folder(folder: str | None, ctx: Context) -> str:
    if folder is None:
        listing = await ctx.session.list_roots()
        folder = listing.roots[0].uri.path
    return folder


@mcp.tool()
async def names(ctx: Context, folder: str | None = None) -> list[str]:
    return os.listdir(await _folder(folder, ctx))
"""
    )
    f = _mcp101(tmp_path, source)
    assert (f["fix"]["safety"], f["fix"]["description"]) == (
        "safe",
        "add an optional documented `root` parameter to `names`, used only when `folder` is not given, and drop "
        "the roots request",
    )
    cli(["fix", "s.py"], tmp_path)
    assert (
        (tmp_path / "s.py")
        .read_text()
        .endswith(
            """

async def _folder(folder: str | None, root: str | None) -> str:
    if folder is None:
        if root is None:
            raise ValueError("pass `folder` or `root`")
        folder = root
    return folder


@mcp.tool()
async def names(
    folder: str | None = None,
    root: Annotated[
        str | None,
        Field(
            description="Absolute path of the directory to work in (formerly the client's MCP root). Used only when `folder` is not given."
        ),
    ] = None,
) -> list[str]:
    return os.listdir(await _folder(folder, root))
"""
        )
    )


MEMO = Path(__file__).resolve().parent.parent / "fixtures" / "roots" / "mcp1_memoised_roots"


def test_the_migrated_memo_tool_works_in_the_directory_each_call_passes(tmp_path: Path, legacy_python: str) -> None:
    """roots-03, executed (mcp 1.x): two calls with two directories count two listings; before the
    memo went with the request the second call still counted the first directory."""
    from tests.proof import run_proof

    one, three = tmp_path / "one", tmp_path / "three"
    one.mkdir()
    three.mkdir()
    (one / "a").write_text("")
    for n in "abc":
        (three / n).write_text("")
    calls = [{"tool": "count_samples", "arguments": {"root": str(d)}} for d in (one, three)]
    out = run_proof(legacy_python, MEMO / "after_param.py", "studio", "legacy", [], calls)
    assert [c["text"] for c in out["calls"]] == [["1"], ["3"]], out["calls"]


def test_a_memo_other_code_reads_is_manual(tmp_path: Path) -> None:
    src = (
        (MEMO / "before.py").read_text()
        + """

@studio.tool()
async def last_studio() -> str:
    return _STUDIO or "unset"
"""
    )
    f = _mcp101(tmp_path, src)
    assert f["fix"] is None
    assert f["manual"] == (
        "the roots answer is memoised in the module-level `_STUDIO`, which code other than "
        "`_studio_dir` also uses: with a parameter each call has its own directory, so replace "
        "the memo by the parameter there too, by hand"
    )


GUARD_HEAD = """from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.session import ServerSession
from mcp.types import ClientCapabilities, RootsCapability

mcp = FastMCP("g")
"""
GUARD_USE = """    listing = await ctx.session.list_roots()
    return sorted(p.name for p in Path(listing.roots[0].uri.path).iterdir())
"""
# The capability guard that protects only the roots request, in the spellings servers use.
GUARDS = {
    "local": """

@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    has_roots = ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability()))
    if not has_roots:
        return []
""",
    "helper": """

def _supports_roots(ctx: Context) -> bool:
    return ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability()))


@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    if not _supports_roots(ctx):
        return []
""",
    "positive_if": """

@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    if ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
        listing = await ctx.session.list_roots()
        return sorted(p.name for p in Path(listing.roots[0].uri.path).iterdir())
    return []
""",
    "isinstance": """

@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    if not isinstance(ctx.session, ServerSession):
        return []
""",
    "capabilities_local": """

@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    caps = ctx.session.client_params.capabilities
    if caps.roots is None:
        raise ValueError("the client has no roots")
""",
}
FIXED_LS = """@mcp.tool()
async def ls(
    root: Annotated[
        str,
        Field(
            description="Absolute path of the directory to work in (formerly the client's MCP root)."
        ),
    ],
) -> list[str]:
    return sorted(p.name for p in Path(root).iterdir())
"""


@pytest.mark.parametrize("shape", sorted(GUARDS))
def test_capability_guards_go_with_the_request_in_every_spelling(tmp_path: Path, shape: str) -> None:
    """Kept, the guard answers a client without the roots capability (every 2026-07-28 client) as
    before and the new parameter is never read."""
    use = "" if shape == "positive_if" else GUARD_USE
    (tmp_path / "s.py").write_text(GUARD_HEAD + GUARDS[shape] + use, encoding="utf-8")
    res = cli(["check", "--output-format", "json", "s.py"], tmp_path)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP101"]
    assert f["fix"]["safety"] == "safe", f
    cli(["fix", "s.py"], tmp_path)
    out = (tmp_path / "s.py").read_text()
    assert out.endswith(FIXED_LS), out
    assert "has_roots" not in out and "caps" not in out


def test_a_guard_that_also_checks_something_else_stays(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(
        GUARD_HEAD
        + """

@mcp.tool()
async def ls(ctx: Context, ok: bool = True) -> list[str]:
    if not ok or not ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
        return []
"""
        + GUARD_USE,
        encoding="utf-8",
    )
    cli(["fix", "--unsafe-fixes", "s.py"], tmp_path)
    assert "if not ok or not ctx.session.check_client_capability" in (tmp_path / "s.py").read_text()


SANDBOX_CLASS = """from pathlib import Path


class Desk:
    def __init__(self) -> None:
        self.allowed: list[Path] | None = None

    def read(self, path: str) -> str:
        target = Path(path).resolve()
        if not any(target.is_relative_to(a) for a in self.allowed or []):
            return f"{target} is outside the sandbox"
        return target.read_text()
"""

SANDBOX_TOOLS = """from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

from desk import Desk

app = FastMCP("desk")
desk = Desk()
_stale = False


async def _granted(ctx: Context) -> list[Path]:
    listing = await ctx.session.list_roots()
    return [Path(str(r.uri).removeprefix("file://")) for r in listing.roots]


async def _ensure(ctx: Context) -> None:
    global _stale
    if desk.allowed is not None and not _stale:
        return
    desk.allowed = await _granted(ctx)
    _stale = False


@app.tool()
async def read(path: str, ctx: Context) -> str:
    await _ensure(ctx)
    return desk.read(path)
"""


def test_roots_kept_on_an_object_whose_methods_check_them_elsewhere_are_manual(tmp_path: Path) -> None:
    """anschnapp/djinnvim@2b8e4ea7: `_ensure_roots` keeps the client's roots in `session.roots` until
    `_roots_stale`; `Session` (another module) refuses paths outside them. Dropping the memo and
    passing `root_paths` let the caller widen the sandbox (measured: open(path=/tmp/x,
    root_paths=["/tmp"]) read the file). Its readers cannot be seen from the module: manual."""
    (tmp_path / "desk.py").write_text(SANDBOX_CLASS, encoding="utf-8")
    f = _mcp101(tmp_path, SANDBOX_TOOLS)
    assert (f["line"], f["column"]) == (13, 21)
    assert f["fix"] is None
    assert f["manual"] == (
        "the roots answer is memoised in the module state `_stale`, `desk`, which `_ensure` reads to skip asking "
        "(`if desk.allowed is not None and not _stale`), and kept in `desk.allowed`, an attribute of the module's "
        "`desk` object, which its own methods read as `self.allowed` where this module does not show (a cache, or "
        "a boundary such as a sandbox): as a parameter the caller would set it on every call; keep it with the "
        "server's configuration, or drop the memo together with the request, by hand"
    )
    res = cli(["fix", "--unsafe-fixes", "s.py"], tmp_path)
    assert res.exit_code == 1
    assert (tmp_path / "s.py").read_text(encoding="utf-8") == SANDBOX_TOOLS


FRAMEWORK_CONTEXT = """from mcp.server.fastmcp import Context as FastMCPContext
from mcp.types import Root


class Context(FastMCPContext):
    async def list_roots(self) -> list[Root]:
        result = await self.session.list_roots()
        return result.roots
"""


def test_a_method_of_a_context_subclass_is_not_called_dead_code(tmp_path: Path) -> None:
    """mcp-use's own `Context(FastMCPContext).list_roots` (mcp_use/server/context.py): its callers are
    the tools of other modules and of the package's users, which call it on their injected context;
    the reason said "no tool … reaches it … Delete it if it is dead code". A method of a class no
    context derives from keeps that reason."""
    f = _mcp101(tmp_path, FRAMEWORK_CONTEXT)
    assert (f["line"], f["fix"]) == (7, None)
    assert f["manual"] == (
        "`Context.list_roots` is a method of `Context`, a subclass of `mcp.server.fastmcp.Context` that tools "
        "receive as their context: the tools that call `ctx.list_roots()` on it (in other modules, or in the code "
        "of this package's users) make the request; give those tools a documented path parameter, and deprecate "
        "this method"
    )
    plain = FRAMEWORK_CONTEXT.replace("(FastMCPContext)", "").replace("(self)", "(self, ctx: FastMCPContext)")
    f = _mcp101(tmp_path, plain.replace("self.session", "ctx.session"))
    assert f["manual"].startswith("no tool, prompt or resource reaches `Context.list_roots`"), f["manual"]

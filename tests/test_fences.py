"""Fences move to the server's configuration (issue 23, item 4; field cases roots-19, roots-20):
where the roots answer gates access (a file allow-list), the default fix answers the roots request
from an environment variable the operator sets (``codemods/configured.py``), never from a tool
argument. Each fixed server is run on the real SDK: mcp 1.27 for the 1.x field cases, the mcp 2.3
in-memory Client in both eras for the same fence written for mcp 2.x."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli

DATA = Path(__file__).resolve().parent / "data" / "fences"

REVIEW = (
    " (review: until the operator sets `LIBRARY_ROOTS` (absolute paths joined with `os.pathsep`; for a client, "
    '`"env": {"LIBRARY_ROOTS": "/srv/a:/srv/b"}` in the server\'s mcpServers entry) every call fails as it does '
    "for a client without roots, also for the legacy clients whose roots were used before)"
)
FENCE = (
    "answer the roots request from the `LIBRARY_ROOTS` environment variable (server configuration, read once at "
    "start): the roots bound what the tool may touch (an allow-list check in `read_book`), so they stay with "
    "whoever runs the server"
)


def _texts(out: dict[str, Any]) -> list[Any]:
    return [c["text"] if c["error"] is None else c["error"] for c in out["calls"]]


def _shelves(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        d.mkdir()
        (d / "x.txt").write_text(f"in-{d.name}")
    return a, b


def _reads(*paths: Path, **extra: Any) -> list[dict[str, Any]]:
    return [{"tool": "read_book", "arguments": {"path": str(p / "x.txt"), **extra}} for p in paths]


def _fix(tmp_path: Path, source: str, *flags: str) -> tuple[Path, Path, dict]:
    before, after = tmp_path / "before.py", tmp_path / "s.py"
    before.write_text(source, encoding="utf-8")
    after.write_text(source, encoding="utf-8")
    report = cli(["check", "--output-format", "json", *flags, "s.py"], tmp_path).json
    cli(["fix", "--unsafe-fixes", *flags, "s.py"], tmp_path)
    return before, after, report


@pytest.mark.parametrize("case", ["roots_19", "roots_20"])
def test_a_fence_is_answered_from_the_servers_configuration_and_refuses_what_it_does_not_list(
    tmp_path: Path, legacy_python: str, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """roots-19/20: the allow-list of `read_book` comes from `LIBRARY_ROOTS`: a path inside answers, a
    path outside is refused also when a tool argument asks for "/", and without the setting every
    call fails as for a client without roots (was: a required `roots` parameter the caller fills)."""
    from tests.proof import run_proof

    before, after, report = _fix(tmp_path, (DATA / f"{case}.py").read_text(encoding="utf-8"))
    rows = {f["rule"]: f for f in report["findings"]}
    assert rows["MCP101"]["fix"] == {"safety": "unsafe", "strategy": "config", "description": FENCE + REVIEW}
    assert after.read_text(encoding="utf-8") == (DATA / f"{case}.fixed.py").read_text(encoding="utf-8")
    cli(["fix", "--unsafe-fixes", "s.py"], tmp_path)  # a second fix changes nothing
    assert after.read_text(encoding="utf-8") == (DATA / f"{case}.fixed.py").read_text(encoding="utf-8")
    a, b = _shelves(tmp_path)
    monkeypatch.delenv("LIBRARY_ROOTS", raising=False)
    old = run_proof(legacy_python, before, "library", "legacy", [a.as_uri()], _reads(a, b))
    assert _texts(old) == [["in-a"], ["refused"]]

    monkeypatch.setenv("LIBRARY_ROOTS", str(a))
    new = run_proof(legacy_python, after, "library", "legacy", [b.as_uri()], [*_reads(a, b), *_reads(b, roots=["/"])])
    # the client's roots ({b}) no longer decide, and no argument widens the fence
    assert _texts(new) == [["in-a"], ["refused"], ["refused"]]
    [tool] = new["tools"]
    assert sorted(tool["inputSchema"]["properties"]) == ["path"]
    monkeypatch.setenv("LIBRARY_ROOTS", f"{a}:relative/b:{b}")
    assert _texts(run_proof(legacy_python, after, "library", "legacy", [], _reads(a, b))) == [["in-a"], ["in-b"]]

    monkeypatch.delenv("LIBRARY_ROOTS")
    [err] = _texts(run_proof(legacy_python, after, "library", "legacy", [a.as_uri()], _reads(a)))
    assert "LIBRARY_ROOTS is not set: set it to the folders this server may work in" in str(err), err


MCP2_FENCE = '''from pathlib import Path

from mcp.server.mcpserver import Context, MCPServer

library = MCPServer("library")


async def _fetch(ctx: Context) -> list[Path]:
    listing = await ctx.session.list_roots()
    return [Path(str(r.uri).removeprefix("file://")) for r in listing.roots]


@library.tool()
async def read_book(path: str, ctx: Context) -> str:
    """Read a file, but only inside a directory the client granted."""
    target = Path(path).resolve()
    if not any(target.is_relative_to(a) for a in await _fetch(ctx)):
        return "refused"
    return target.read_text()
'''


def test_an_mcp2_fence_keeps_the_clients_roots_on_legacy_connections_and_reads_the_setting_on_2026(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same fence on mcp 2.3, where one server serves both eras: before, a 2026-07-28 client
    fails (no back channel). After, a legacy connection still asks its client (`can_send_request`),
    so every client that worked keeps working, and a 2026-07-28 one answers from `LIBRARY_ROOTS`:
    a path outside it is refused whatever the arguments, and without it the call fails as before.
    No client loses anything and no fence widens: safe, applied by a plain `fix`."""
    import sys

    from tests.proof import run_proof

    before, after = tmp_path / "before.py", tmp_path / "s.py"
    before.write_text(MCP2_FENCE, encoding="utf-8")
    after.write_text(MCP2_FENCE, encoding="utf-8")
    [f] = cli(["check", "--output-format", "json", "s.py"], tmp_path).json["findings"]
    assert f["fix"] == {
        "safety": "safe",
        "strategy": "config",
        "description": "answer the roots request on 2026-07-28 connections from the `LIBRARY_ROOTS` environment "
        "variable (server configuration, read once at start; unset, those calls fail as they do today), and keep it "
        "on legacy connections (`ctx.session.can_send_request`): the roots bound what the tool may touch (an "
        "allow-list check in `read_book`), so they stay with whoever runs the server",
    }
    cli(["fix", "s.py"], tmp_path)
    # the added imports go into their sections (codemods/layout.py), the helper and the conditional
    # are laid out as ruff format does
    assert after.read_text(encoding="utf-8") == MCP2_FENCE.replace(
        "from pathlib import Path\n", "import os\nfrom pathlib import Path\n"
    ).replace(
        "from mcp.server.mcpserver import Context, MCPServer\n",
        "from mcp.server.mcpserver import Context, MCPServer\nfrom mcp.shared.exceptions import MCPError\n"
        "from mcp.types import INVALID_REQUEST, ListRootsResult, Root\n",
    ).replace(
        "\n\nasync def _fetch",
        "\n\n" + _HELPER.replace("X_ROOTS", "LIBRARY_ROOTS") + "\n\nasync def _fetch",
    ).replace(
        "    listing = await ctx.session.list_roots()\n",
        "    listing = (\n        await ctx.session.list_roots()\n        if ctx.session.can_send_request\n"
        "        else _configured_roots()\n    )\n",
    )
    assert cli(["check", "s.py"], tmp_path).exit_code == 0  # nothing left, and a second fix has nothing to do
    a, b = _shelves(tmp_path)
    monkeypatch.delenv("LIBRARY_ROOTS", raising=False)
    assert _texts(run_proof(sys.executable, before, "library", "legacy", [a.as_uri()], _reads(a, b))) == [
        ["in-a"],
        ["refused"],
    ]
    [modern] = run_proof(sys.executable, before, "library", "modern", [a.as_uri()], _reads(a))["calls"]
    assert modern["error"] is not None
    # legacy: the client's roots, as before (no setting needed)
    out = run_proof(sys.executable, after, "library", "legacy", [a.as_uri()], [*_reads(a, b), *_reads(b, roots=["/"])])
    assert _texts(out) == [["in-a"], ["refused"], ["refused"]]
    [call] = run_proof(sys.executable, after, "library", "modern", [a.as_uri()], _reads(a))["calls"]
    # 2026-07-28 without the setting: closed, with the error the request raised there before (an
    # MCPError, INVALID_REQUEST), which now names what the operator must set
    assert modern["error"].startswith("NoBackChannelError: Cannot send 'roots/list'"), modern
    assert call["error"] == "MCPError: LIBRARY_ROOTS is not set: set it to the folders this server may work in", call
    monkeypatch.setenv("LIBRARY_ROOTS", str(a))
    out = run_proof(sys.executable, after, "library", "modern", [b.as_uri()], [*_reads(a, b), *_reads(b, roots=["/"])])
    assert _texts(out) == [["in-a"], ["refused"], ["refused"]]


def test_strategy_config_answers_any_roots_request_from_the_setting_and_is_safe_without_legacy_clients(
    tmp_path: Path,
) -> None:
    """`--strategy config` on a request that fences nothing: the same rewrite, without the fence
    named. On mcp 2.x serving legacy clients the request stays for them (as above); a project that
    serves none (`--no-legacy-clients`) loses no working client by answering every call from the
    setting, so that form is safe too and a plain `fix` applies it."""
    pins = '[project]\nname = "notes"\nversion = "0"\ndependencies = ["mcp>=2.3,<3"]\n'
    (tmp_path / "pyproject.toml").write_text(pins + '[tool.mcpmigrate]\nstrategy = "config"\n', encoding="utf-8")
    source = (
        'from mcp.server.mcpserver import Context, MCPServer\n\nnotes = MCPServer(name="my-notes")\n\n\n'
        "@notes.tool()\nasync def where(ctx: Context) -> str:\n    listing = await ctx.session.list_roots()\n"
        "    return str(listing.roots[0].uri)\n"
    )
    (tmp_path / "s.py").write_text(source, encoding="utf-8")
    desc = "answer the roots request from the `MY_NOTES_ROOTS` environment variable (server configuration, read once at start)"
    [f] = cli(["check", "--output-format", "json", "s.py"], tmp_path).json["findings"]
    assert f["fix"]["safety"] == "safe" and f["fix"]["description"].endswith("(`ctx.session.can_send_request`)")
    [f] = cli(["check", "--no-legacy-clients", "--output-format", "json", "s.py"], tmp_path).json["findings"]
    assert f["fix"] == {"safety": "safe", "strategy": "config", "description": desc}
    (tmp_path / "pyproject.toml").write_text(pins, encoding="utf-8")
    [f] = cli(["check", "--output-format", "json", "s.py"], tmp_path).json["findings"]
    assert f["fix"]["strategy"] == "param"  # not a fence: the default stays the tool parameter
    cli(["fix", "--no-legacy-clients", "--strategy", "config", "s.py"], tmp_path)
    assert (tmp_path / "s.py").read_text(encoding="utf-8") == source.replace(
        "await ctx.session.list_roots()", "_configured_roots()"
    ).replace(
        "from mcp.server.mcpserver import Context, MCPServer\n",
        "import os\nfrom pathlib import Path\n\n"
        "from mcp.server.mcpserver import Context, MCPServer\nfrom mcp.shared.exceptions import MCPError\n"
        "from mcp.types import INVALID_REQUEST, ListRootsResult, Root\n",
    ).replace(
        "\n\n@notes.tool()",
        "\n\n" + _HELPER.replace("X_ROOTS", "MY_NOTES_ROOTS") + "\n\n@notes.tool()",
    )


_HELPER = '''# The folders this server may work in come from its configuration, no longer from the
# client's roots (deprecated in MCP 2026-07-28): absolute paths joined with os.pathsep,
# read once at start; other entries are ignored. Unset, a call fails as it did for a
# client without roots.
X_ROOTS = os.environ.get("X_ROOTS")


def _configured_roots() -> ListRootsResult:
    """The roots the operator configured in X_ROOTS, answered as the client did."""
    if X_ROOTS is None:
        raise MCPError(
            INVALID_REQUEST,
            "X_ROOTS is not set: set it to the folders this server may work in",
        )
    paths = [p for p in X_ROOTS.split(os.pathsep) if os.path.isabs(p)]
    return ListRootsResult(roots=[Root(uri=Path(p).as_uri()) for p in paths])
'''


FASTMCP_FENCE = '''from pathlib import Path

from fastmcp import Context, FastMCP

library = FastMCP("library")


@library.tool()
async def read_book(path: str, ctx: Context) -> str:
    """Read a file, but only inside a directory the client granted."""
    target = Path(path).resolve()
    roots = await ctx.list_roots()
    if not any(target.is_relative_to(Path(str(r.uri).removeprefix("file://"))) for r in roots):
        return "refused"
    return target.read_text()
'''


def test_a_fastmcp_fence_reads_its_list_of_roots_from_the_setting(
    tmp_path: Path, legacy_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fastmcp 2.x's `ctx.list_roots()` answers a list of roots: it becomes `_configured_roots().roots`
    (unsafe, as on mcp 1.x: every client is a legacy client). Run on fastmcp 2.14."""
    from tests.proof import run_proof

    before, after, report = _fix(tmp_path, FASTMCP_FENCE)
    [f] = report["findings"]
    assert f["fix"] == {"safety": "unsafe", "strategy": "config", "description": FENCE + REVIEW}
    assert "    roots = _configured_roots().roots\n" in after.read_text(encoding="utf-8")
    a, b = _shelves(tmp_path)
    monkeypatch.delenv("LIBRARY_ROOTS", raising=False)
    assert _texts(run_proof(legacy_python, before, "library", "legacy", [a.as_uri()], _reads(a, b))) == [
        ["in-a"],
        ["refused"],
    ]
    [err] = _texts(run_proof(legacy_python, after, "library", "legacy", [a.as_uri()], _reads(a)))
    assert "LIBRARY_ROOTS is not set" in str(err), err
    monkeypatch.setenv("LIBRARY_ROOTS", str(a))
    out = run_proof(legacy_python, after, "library", "legacy", [b.as_uri()], [*_reads(a, b), *_reads(b, roots=["/"])])
    texts = _texts(out)
    assert texts[:2] == [["in-a"], ["refused"]]
    assert "roots\n  Unexpected keyword argument" in texts[2][0], texts  # fastmcp refuses the argument itself


FALLBACK_FENCE = '''import os
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError

library = FastMCP("library")


@library.tool()
async def read_book(path: str, ctx: Context) -> str:
    """Read a file inside a granted folder (the server's own shelf when the client has no roots)."""
    try:
        listing = await ctx.session.list_roots()
        allowed = [Path(r.uri.path) for r in listing.roots]
    except McpError:
        allowed = [Path(os.environ.get("SHELF_HOME", "/nonexistent"))]
    target = Path(path).resolve()
    if not any(target.is_relative_to(a) for a in allowed):
        return "refused"
    return target.read_text()
'''


def test_an_unset_setting_fails_with_the_error_of_a_client_without_roots_so_its_fallback_still_runs(
    tmp_path: Path, legacy_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mcp 1.x: a client without roots makes `list_roots()` raise `McpError`, and a fence written with
    `except McpError:` falls back to a folder the server configures. Unset, `_configured_roots()`
    raises the same `McpError` (was: a `RuntimeError` that escaped the `except`, so every call
    failed where a client without roots had its fallback). Run on mcp 1.27."""
    from tests.proof import run_proof

    _before, after, report = _fix(tmp_path, FALLBACK_FENCE)
    [f] = report["findings"]
    assert f["fix"]["strategy"] == "config" and f["fix"]["safety"] == "unsafe"
    fixed = after.read_text(encoding="utf-8")
    assert (
        "    if LIBRARY_ROOTS is None:\n        raise McpError(\n            ErrorData(\n"
        "                code=INVALID_REQUEST,\n"
        '                message="LIBRARY_ROOTS is not set: set it to the folders this server may work in",\n'
        "            )\n        )\n"
    ) in fixed
    assert "from mcp.types import INVALID_REQUEST, ErrorData, ListRootsResult, Root\n" in fixed
    a, b = _shelves(tmp_path)
    monkeypatch.delenv("LIBRARY_ROOTS", raising=False)
    monkeypatch.setenv("SHELF_HOME", str(a))
    out = run_proof(legacy_python, after, "library", "legacy", [b.as_uri()], _reads(a, b))
    assert _texts(out) == [["in-a"], ["refused"]]  # the server's own shelf, as for a client without roots
    monkeypatch.setenv("LIBRARY_ROOTS", str(b))
    out = run_proof(legacy_python, after, "library", "legacy", [a.as_uri()], _reads(a, b))
    assert _texts(out) == [["refused"], ["in-b"]]


ROOM = DATA / "reading_room"
KEPT = (
    "answer the roots request from the `LIBRARY_ROOTS` environment variable (server configuration, read once at "
    "start): the roots bound what the tool may touch (the answer is kept in `keeper.shelves`, an attribute of a "
    "`Keeper` (from `keeper`): that class is defined in another module, where its methods may check paths against "
    "it out of this fix's sight), so they stay with whoever runs the server (review: "
    "`not ctx.session.check_client_capability(ClientCapabilities(roots=RootsCapability()))` in `_granted` still "
    "sends a client that declares no roots capability where it went before; a client that declares roots now gets "
    "the folders of `LIBRARY_ROOTS` instead of its roots (absolute paths joined with `os.pathsep`; for a client, "
    '`"env": {"LIBRARY_ROOTS": "/srv/a:/srv/b"}` in the server\'s mcpServers entry), and until the operator sets '
    "it, its calls fail with the error the request gave a client without roots)"
)
KEPT_GUARD = (
    "kept: the `config` fix answers the roots request it guards from the server's setting, and a client that "
    "declares no roots capability still takes the path it took before; when porting to mcp 2.x, read the "
    "capability from the request (`ctx.client_capabilities`)"
)


def test_roots_kept_on_an_object_of_another_modules_class_are_a_fence_not_a_parameter(
    tmp_path: Path, legacy_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The roots answer is stored on `keeper.shelves`, a `Keeper` from keeper.py, whose `fetch`
    (reached through a bound method passed as a value) checks every path against it. This module
    cannot see that check, so the answer is not offered as a tool parameter the caller fills in
    (was: a required `roots` parameter: `roots=["/"]` opened any file); the default is the config
    fix, naming the object and its class. Run on mcp 1.27: a path outside `LIBRARY_ROOTS` is refused
    also when a tool argument asks for "/"."""
    from tests.proof import run_proof

    (tmp_path / "keeper.py").write_text((ROOM / "keeper.py").read_text(encoding="utf-8"), encoding="utf-8")
    before, after, report = _fix(tmp_path, (ROOM / "server.py").read_text(encoding="utf-8"))
    rows = {f["rule"]: f for f in report["findings"]}
    assert rows["MCP101"]["fix"] == {"safety": "unsafe", "strategy": "config", "description": KEPT}
    # the capability guard stays in front of the configured folders (was: "fixed" by a param fix that never ran)
    assert rows["MCP102"]["fix"] is None and rows["MCP102"]["manual"] == KEPT_GUARD
    again = cli(["check", "--output-format", "json", "s.py"], tmp_path).json
    assert [(f["rule"], f["manual"]) for f in again["findings"]] == [("MCP102", KEPT_GUARD)]
    assert after.read_text(encoding="utf-8") == (ROOM / "server.fixed.py").read_text(encoding="utf-8")
    assert (tmp_path / "keeper.py").read_text(encoding="utf-8") == (ROOM / "keeper.py").read_text(encoding="utf-8")

    # `--strategy param` chosen: never a plain path parameter either (manual, naming where the roots are kept)
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    (chosen / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "param"\n', encoding="utf-8")
    for name in ("keeper.py", "before.py"):
        (chosen / name).write_text((tmp_path / name).read_text(encoding="utf-8"), encoding="utf-8")
    param = cli(["check", "--output-format", "json", "before.py"], chosen).json
    prow = next(f for f in param["findings"] if f["rule"] == "MCP101")
    # manual (param/memos.py, object_store): the object's methods read what the memo stores
    assert prow["fix"] is None
    assert "kept in `keeper.shelves`, an attribute of the module's `keeper` object" in prow["manual"]
    assert "keep it with the server's configuration" in prow["manual"]

    a, b = _shelves(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # the server imports keeper.py beside it
    monkeypatch.delenv("LIBRARY_ROOTS", raising=False)
    old = run_proof(legacy_python, before, "library", "legacy", [a.as_uri()], _reads(a, b))
    assert _texts(old) == [["in-a"], ["refused"]]

    monkeypatch.setenv("LIBRARY_ROOTS", str(a))
    new = run_proof(legacy_python, after, "library", "legacy", [b.as_uri()], [*_reads(a, b), *_reads(b, roots=["/"])])
    assert _texts(new) == [["in-a"], ["refused"], ["refused"]]
    [tool] = new["tools"]
    assert sorted(tool["inputSchema"]["properties"]) == ["path"]

    monkeypatch.delenv("LIBRARY_ROOTS")
    [err] = _texts(run_proof(legacy_python, after, "library", "legacy", [a.as_uri()], _reads(a)))
    assert "LIBRARY_ROOTS is not set: set it to the folders this server may work in" in str(err), err


def _room_variant(tmp_path: Path, server: str, keeper: str | None, name: str = "s.py") -> dict[str, Any]:
    """MCP101's fix for a variant of the reading room (``keeper``: keeper.py beside it, or none)."""
    if keeper is not None:
        (tmp_path / "keeper.py").write_text(keeper, encoding="utf-8")
    (tmp_path / name).write_text(server, encoding="utf-8")
    report = cli(["check", "--output-format", "json", name], tmp_path).json
    return next(f for f in report["findings"] if f["rule"] == "MCP101")["fix"]


def test_where_the_kept_roots_are_checked_decides_how_the_fence_is_named(tmp_path: Path) -> None:
    """The class defined in the same module: its method's check is found however the method is
    reached (a bound method passed as a value). A parameter annotated with another module's class
    counts like a module-level instance, and so does a relative import. State of a stdlib object
    (`SimpleNamespace`) is no fence: the default stays the tool parameter."""
    server = (ROOM / "server.py").read_text(encoding="utf-8")
    keeper = (ROOM / "keeper.py").read_text(encoding="utf-8")

    local = tmp_path / "local"
    local.mkdir()
    body = keeper.split("\n", 3)[3].strip()
    inline = server.replace("from keeper import Keeper\n", "").replace(
        'library = FastMCP("library")\n', body + '\n\n\nlibrary = FastMCP("library")\n'
    )
    fix = _room_variant(local, inline, None)
    assert fix["strategy"] == "config"
    assert "(an allow-list check in `Keeper._on_shelf`)" in fix["description"]

    pkg = tmp_path / "pkg" / "room"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    relative = server.replace("from keeper import Keeper", "from .keeper import Keeper")
    fix = _room_variant(pkg, relative, keeper, "server.py")
    assert fix["strategy"] == "config"
    assert "`keeper.shelves`, an attribute of a `Keeper` (from `.keeper`)" in fix["description"]

    param = tmp_path / "param"
    param.mkdir()
    annotated = server.replace(
        "async def _open_room(ctx: Context) -> None:",
        "async def _open_room(ctx: Context, keeper: Keeper = keeper) -> None:",
    )
    fix = _room_variant(param, annotated, keeper)
    assert fix["strategy"] == "config"
    assert "`keeper.shelves`, an attribute of a `Keeper` (from `keeper`)" in fix["description"]

    plain = tmp_path / "plain"
    plain.mkdir()
    stdlib = (
        server.replace("from keeper import Keeper", "from types import SimpleNamespace")
        .replace("keeper = Keeper()", "keeper = SimpleNamespace(shelves=None)")
        .replace("_timed(keeper.fetch, path)", "path")
    )
    fix = _room_variant(plain, stdlib, None)
    assert fix["strategy"] == "param"


MCP2_FALLBACK = """from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError

notes = MCPServer(name="notes")


@notes.tool()
async def where(ctx: Context) -> str:
    try:
        listing = await ctx.session.list_roots()
    except MCPError:
        return "no roots: working in the current directory"
    return str(listing.roots[0].uri)
"""


def test_an_mcp2_fallback_around_the_request_still_runs_when_the_setting_is_unset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On mcp 2.3 a 2026-07-28 request raised `NoBackChannelError`, an `MCPError`, so the tool's
    `except MCPError` fallback answered. The `config` fix, unset, raises an `MCPError` too (it used to
    raise `RuntimeError`, which escaped the `except`: the call failed under a safe label)."""
    import sys

    from tests.proof import run_proof

    before, after = tmp_path / "before.py", tmp_path / "s.py"
    before.write_text(MCP2_FALLBACK, encoding="utf-8")
    after.write_text(MCP2_FALLBACK, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "notes"\nversion = "0"\ndependencies = ["mcp>=2.3,<3"]\n', encoding="utf-8"
    )
    [f] = cli(["fix", "--strategy", "config", "--output-format", "json", "s.py"], tmp_path).json["fixed"]
    assert f["fix"]["safety"] == "safe"
    assert (
        '        raise MCPError(\n            INVALID_REQUEST,\n            "NOTES_ROOTS is not set'
        in after.read_text()
    )
    monkeypatch.delenv("NOTES_ROOTS", raising=False)
    fallback = [["no roots: working in the current directory"]]
    calls = [{"tool": "where", "arguments": {}}]
    assert _texts(run_proof(sys.executable, before, "notes", "modern", ["file:///srv/a"], calls)) == fallback
    assert _texts(run_proof(sys.executable, after, "notes", "modern", ["file:///srv/a"], calls)) == fallback
    # legacy: the client's roots, before and after
    for file in (before, after):
        assert _texts(run_proof(sys.executable, file, "notes", "legacy", ["file:///srv/a"], calls)) == [
            ["file:///srv/a"]
        ]


WHERE_SERVER = '''from mcp.server.fastmcp import Context, FastMCP

notes = FastMCP("notes")


@notes.tool()
async def where(ctx: Context) -> str:
    """The first folder the client granted, or the server's own when it granted none."""
    try:
        roots = await ctx.session.list_roots()
    except Exception:
        roots = None
    if roots is None or not roots.roots:
        return "no root: working in the server's own folder"
    return str(roots.roots[0].uri)
'''


def _config_note(outcome: str) -> str:
    return (
        "answer the roots request from the `NOTES_ROOTS` environment variable (server configuration, read once at "
        "start) (review: until the operator sets `NOTES_ROOTS` (absolute paths joined with `os.pathsep`; for a "
        'client, `"env": {"NOTES_ROOTS": "/srv/a:/srv/b"}` in the server\'s mcpServers entry) every call '
        f"{outcome} as it does for a client without roots, also for the legacy clients whose roots were used before)"
    )


def test_the_config_review_note_names_the_except_fallback_a_call_takes_while_the_setting_is_unset(
    tmp_path: Path, legacy_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mcp 1.x, `--strategy config`: with no `try` around the request an unset setting fails every
    call; inside `try: … except Exception: roots = None` (the shape of a public semantic-cache server)
    the call goes on without a root instead, and the note says so, naming the `except` line. Run
    on mcp 1.27 with the setting unset: the fixed tool answers through the fallback."""
    from tests.proof import run_proof

    plain = WHERE_SERVER.replace(
        "    try:\n        roots = await ctx.session.list_roots()\n    except Exception:\n        roots = None\n",
        "    roots = await ctx.session.list_roots()\n",
    )
    (tmp_path / "plain.py").write_text(plain, encoding="utf-8")
    (tmp_path / "s.py").write_text(WHERE_SERVER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "config"\n', encoding="utf-8")
    report = cli(["check", "--output-format", "json", "plain.py", "s.py"], tmp_path).json
    got = {(f["path"], f["line"]): (f["fix"]["safety"], f["fix"]["description"]) for f in report["findings"]}
    assert got == {
        ("plain.py", 9): ("unsafe", _config_note("fails")),
        ("s.py", 10): ("unsafe", _config_note("takes the `except` fallback at line 11")),
    }
    cli(["fix", "--strategy", "config", "--unsafe-fixes", "s.py"], tmp_path)
    assert "        roots = _configured_roots()\n    except Exception:\n" in (tmp_path / "s.py").read_text()
    monkeypatch.delenv("NOTES_ROOTS", raising=False)
    unset = run_proof(legacy_python, tmp_path / "s.py", "notes", "legacy", ["file:///srv/a"], [{"tool": "where"}])
    assert _texts(unset) == [["no root: working in the server's own folder"]]
    monkeypatch.setenv("NOTES_ROOTS", "/srv/b")
    configured = run_proof(legacy_python, tmp_path / "s.py", "notes", "legacy", ["file:///srv/a"], [{"tool": "where"}])
    assert _texts(configured) == [["file:///srv/b"]]


FASTMCP3_WHERE = '''from fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError

notes = FastMCP("notes")


@notes.tool()
async def where(ctx: Context) -> str:
    """The first folder the client granted."""
    try:
        roots = await ctx.list_roots()
    except McpError:
        roots = []
    if not roots:
        return "no root"
    return str(roots[0].uri)
'''


def test_a_fastmcp3_except_mcperror_fallback_still_runs_while_the_setting_is_unset(
    tmp_path: Path, fastmcp3_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fastmcp 3.x on mcp 1.x: a client without roots made `ctx.list_roots()` raise mcp 1.x's
    `McpError`, and `except McpError:` went on without a root. Unset, `_configured_roots()` raises
    that `McpError` too (was: a `RuntimeError` that escaped the `except`, so every call failed while
    the note said "as it does for a client without roots"). Run on fastmcp 3.4.11."""
    from tests.proof import run_proof

    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "config"\n', encoding="utf-8")
    before, after, report = _fix(tmp_path, FASTMCP3_WHERE)
    [f] = report["findings"]
    assert f["fix"]["description"] == _config_note("takes the `except` fallback at line 12")
    assert "        roots = _configured_roots().roots\n    except McpError:\n" in after.read_text(encoding="utf-8")
    monkeypatch.delenv("NOTES_ROOTS", raising=False)
    call = [{"tool": "where"}]
    old = run_proof(fastmcp3_python, before, "notes", "legacy", [], call, client={"roots": False})
    assert _texts(old) == [["no root"]]
    new = run_proof(fastmcp3_python, after, "notes", "legacy", ["file:///srv/a"], call)
    assert _texts(new) == [["no root"]]  # the fallback, as for the client without roots above
    monkeypatch.setenv("NOTES_ROOTS", "/srv/b")
    assert _texts(run_proof(fastmcp3_python, after, "notes", "legacy", ["file:///srv/a"], call)) == [["file:///srv/b"]]


def test_unpinned_fastmcp_code_gets_a_helper_that_imports_on_fastmcp_3_and_4(tmp_path: Path) -> None:
    """fastmcp code whose project pins nothing and which imports no mcp 1.x name may run on fastmcp 4
    (mcp 2.x), where mcp 1.x's `McpError` does not exist: the helper raises `RuntimeError` there, so
    the fix is not what stops the module from importing (review of polish37)."""
    source = FASTMCP3_WHERE.replace("from mcp.shared.exceptions import McpError\n", "").replace(
        "except McpError:", "except Exception:"
    )
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "config"\n', encoding="utf-8")
    _before, after, _report = _fix(tmp_path, source)
    text = after.read_text(encoding="utf-8")
    assert "McpError" not in text and "mcp.shared" not in text, text
    assert '        raise RuntimeError(\n            "NOTES_ROOTS is not set' in text, text

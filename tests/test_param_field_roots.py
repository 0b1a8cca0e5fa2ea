"""The param fix on the roots shapes of real servers (issue 23: field cases roots-18, roots-19,
roots-20, bugs-19, bugs-20, bugs-22): each fixed server is run on the real SDK (mcp 1.x, the one
these servers pin) — the calls that worked before answer the same, and the new parameter works
for each path a call passes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli

DATA = Path(__file__).resolve().parent / "data" / "paramshapes"


def _fixed(tmp_path: Path, name: str, *flags: str) -> tuple[Path, Path, dict]:
    """Copy ``name`` from the data folder into ``tmp_path`` (as ``before.py`` and ``s.py``), fix
    ``s.py`` with ``flags``; returns (before, after, the check report of the original)."""
    src = (DATA / name).read_text(encoding="utf-8")
    before, after = tmp_path / "before.py", tmp_path / "s.py"
    before.write_text(src, encoding="utf-8")
    after.write_text(src, encoding="utf-8")
    report = cli(["check", "--output-format", "json", "s.py"], tmp_path).json
    cli(["fix", *flags, "s.py"], tmp_path)
    return before, after, report


def _texts(out: dict[str, Any]) -> list[Any]:
    return [c["text"] if c["error"] is None else c["error"] for c in out["calls"]]


def _folders(tmp_path: Path, *names: str, files: dict[str, str] | None = None) -> list[Path]:
    """The folders ``names`` under ``tmp_path``, with ``files`` (relative path: text) written."""
    out = []
    for n in names:
        d = tmp_path / n
        d.mkdir()
        out.append(d)
    for rel, text in (files or {}).items():
        (tmp_path / rel).write_text(text)
    return out


# -- counts: all roots stay all roots (bugs-22) ------------------------------------------------
def test_a_counted_roots_list_becomes_a_documented_list_and_counts_two_folders(
    tmp_path: Path, legacy_python: str
) -> None:
    from tests.proof import run_proof

    before, after, report = _fixed(tmp_path, "bugs22_count.py")
    fixes = [f["fix"] for f in report["findings"] if f["rule"] == "MCP101"]
    assert [(f["safety"], f["description"]) for f in fixes] == [
        ("safe", "add a documented `roots` parameter to `count` and drop the roots request"),
        ("safe", "add a documented `roots` parameter to `how_many` and drop the roots request"),
    ]
    text = after.read_text()
    assert "    match len(roots):\n" in text
    assert '    if not roots:\n        return "no workspace"\n    return f"{len(roots)} workspaces"\n' in text
    a, b, c = _folders(tmp_path, "a", "b", "c")
    old = run_proof(
        legacy_python,
        before,
        "mcp",
        "legacy",
        [d.as_uri() for d in (a, b)],
        [{"tool": "count"}, {"tool": "how_many"}],
    )
    assert _texts(old) == [["few"], ["2 workspaces"]]
    calls = [
        {"tool": "count", "arguments": {"roots": [str(a), str(b)]}},
        {"tool": "how_many", "arguments": {"roots": [str(a), str(b)]}},
        {"tool": "count", "arguments": {"roots": [str(a), str(b), str(c)]}},
        {"tool": "how_many", "arguments": {"roots": []}},
    ]
    new = run_proof(legacy_python, after, "mcp", "legacy", [], calls)
    assert _texts(new) == [["few"], ["2 workspaces"], ["many"], ["no workspace"]]
    [schema] = [t["inputSchema"] for t in new["tools"] if t["name"] == "how_many"]
    assert schema["required"] == ["roots"]
    assert schema["properties"]["roots"]["type"] == "array"
    assert schema["properties"]["roots"]["description"] == (
        "Absolute paths of the directories to work in (formerly the client's MCP roots)."
    )


def test_a_first_root_with_another_use_says_only_the_first_root_is_kept(tmp_path: Path) -> None:
    """A one-root value rebuilt from `root` is not called equivalent (bugs-22's review note)."""
    (tmp_path / "s.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
        "async def name(ctx: Context) -> str:\n    listing = await ctx.session.list_roots()\n"
        "    return listing.roots[0].name or ''\n",
        encoding="utf-8",
    )
    [f] = cli(["check", "--output-format", "json", "s.py"], tmp_path).json["findings"]
    assert f["fix"]["description"] == (
        "add a documented `root` parameter to `name` and drop the roots request (review: the roots result is "
        "used other than through the first root's path, a loop over the roots' paths or their count; a value "
        "holding one root is built from the `root` parameter (only the first root is kept))"
    )


def _choose_param(tmp_path: Path) -> None:
    """Choose the ``param`` strategy for the project in ``tmp_path`` (``check`` and ``fix``)."""
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "param"\n', encoding="utf-8")


# -- memos go with the request, or the fix is manual with the memo named (roots-19/20, bugs-19) --
def _findings(tmp_path: Path, source: str, *flags: str) -> dict[str, dict]:
    (tmp_path / "s.py").write_text(source, encoding="utf-8")
    out = cli(["check", *flags, "--output-format", "json", "s.py"], tmp_path).json
    return {f["rule"]: f for f in out["findings"]}


MEMO_TAIL = (
    ": as a parameter each call has its own directories, and the memo would keep the first call's for every "
    "later call; drop the memo (and any roots `list_changed` handler that invalidates it) together with the "
    "request, by hand"
)

HEAD = """import functools
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")
"""

# Memos of the answer, spelled the ways servers spell them: where they are read, and what.
MEMOS = {
    "asked_flag": (
        """_asked = False
_dirs: list[str] = []


@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    global _asked
    if not _asked:
        listing = await ctx.session.list_roots()
        _dirs.extend(r.uri.path for r in listing.roots)
        _asked = True
    return sorted(p.name for d in _dirs for p in Path(d).iterdir())
""",
        "the roots answer is memoised in the module state `_asked`, which `ls` reads to skip asking (`if not _asked`)",
    ),
    "lru_cache": (
        """@functools.lru_cache(maxsize=1)
def _cached(base: str) -> list[str]:
    return sorted(p.name for p in Path(base).iterdir())


@functools.cache
async def _base(ctx: Context) -> str:
    listing = await ctx.session.list_roots()
    return listing.roots[0].uri.path


@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    return _cached(await _base(ctx))
""",
        "`_base` is cached (`@functools.cache`)",
    ),
}


@pytest.mark.parametrize("shape", sorted(MEMOS))
def test_a_memo_on_the_way_to_the_request_makes_the_fix_manual_with_the_memo_named(tmp_path: Path, shape: str) -> None:
    body, held = MEMOS[shape]
    source = HEAD + "\n" + body
    f = _findings(tmp_path, source)["MCP101"]
    assert (f["fix"], f["manual"]) == (None, held + MEMO_TAIL)
    cli(["fix", "--unsafe-fixes", "s.py"], tmp_path)
    assert (tmp_path / "s.py").read_text() == source


def test_a_memo_one_call_above_the_request_goes_with_it_and_each_call_reads_its_own_roots(
    tmp_path: Path, legacy_python: str
) -> None:
    """roots-19/20: `_granted` returns its cached `_GRANTED` (until `_dirty`) before calling `_ask`,
    which asks. The shortcut goes with the request, so the allow-list is the one each call passes
    (was: kept, so a second call with another folder was refused); the handler that set `_dirty`
    goes with the request too, never alone."""
    from tests.proof import run_proof

    _choose_param(tmp_path)  # the fence's default is the config fix (tests/test_fences.py)
    before, after, report = _fixed(tmp_path, "roots20_allowed_memo.py", "--unsafe-fixes")
    rows = {f["rule"]: f["fix"] for f in report["findings"]}
    assert rows["MCP103"]["description"] == (
        "removed together with the roots request in `_ask`, whose cache `_dirty` it invalidates"
    )
    assert rows["MCP101"]["safety"] == "unsafe"  # the roots fence what read_note may read
    text = after.read_text()
    assert (
        "async def _granted(roots: list[str]) -> list[Path]:\n    global _GRANTED, _dirty\n"
        "    _GRANTED = await _ask(roots)\n    _dirty = False\n    return _GRANTED\n"
    ) in text
    assert "_on_roots_changed" not in text
    a, b = _folders(tmp_path, "a", "b", files={"a/x.txt": "in-a", "b/x.txt": "in-b"})
    old = run_proof(
        legacy_python,
        before,
        "shelf",
        "legacy",
        [a.as_uri()],
        [{"tool": "read_note", "arguments": {"path": str(p / "x.txt")}} for p in (a, b)],
    )
    assert _texts(old) == [["in-a"], ["refused"]]
    calls = [
        {"tool": "read_note", "arguments": {"path": str(a / "x.txt"), "roots": [str(a)]}},
        {"tool": "read_note", "arguments": {"path": str(b / "x.txt"), "roots": [str(b)]}},
        {"tool": "read_note", "arguments": {"path": str(b / "x.txt"), "roots": [str(a)]}},
    ]
    new = run_proof(legacy_python, after, "shelf", "legacy", [], calls)
    assert _texts(new) == [["in-a"], ["in-b"], ["refused"]]


def test_a_cache_read_before_asking_goes_with_the_request_on_a_low_level_server(
    tmp_path: Path, legacy_python: str
) -> None:
    """bugs-19: `_seen.get("roots") or await _load(...)` becomes `await _load(root_paths)`: a
    second call with another folder answers for that folder (was: the first call's)."""
    from tests.proof import run_proof

    before, after, _report = _fixed(tmp_path, "bugs19_cache_or.py", "--unsafe-fixes")
    assert "    roots = await _load(root_paths)\n" in after.read_text()
    a, b = _folders(tmp_path, "a", "b")
    old = run_proof(legacy_python, before, "server", "legacy", [a.as_uri()], [{"tool": "where"}, {"tool": "where"}])
    assert _texts(old) == [[a.as_uri()], [a.as_uri()]]
    calls = [{"tool": "where", "arguments": {"root_paths": [str(d)]}} for d in (a, b)]
    new = run_proof(legacy_python, after, "server", "legacy", [], calls)
    assert _texts(new) == [[a.as_uri()], [b.as_uri()]]


def test_a_memo_other_tools_read_is_manual_and_its_handler_stays_with_the_request(tmp_path: Path) -> None:
    """roots-19's shape with a second tool reading `_GRANTED`: the memo cannot go, so the request
    is manual with the memo named, and the handler that sets `_dirty` stays with it, also under
    --no-legacy-clients (it was removed alone). Under the param strategy, chosen: a fence's default
    is the config fix (tests/test_fences.py)."""
    _choose_param(tmp_path)
    source = (DATA / "roots20_allowed_memo.py").read_text() + (
        "\n\n@shelf.tool()\nasync def granted() -> str:\n    return str(_GRANTED)\n"
    )
    for flags in ((), ("--no-legacy-clients",)):
        found = _findings(tmp_path, source, *flags)
        assert (found["MCP101"]["fix"], found["MCP101"]["manual"]) == (
            None,
            "the roots answer is memoised in the module state `_GRANTED`, `_dirty`, which `_granted` reads to skip "
            "asking (`if _GRANTED is not None and not _dirty`)" + MEMO_TAIL,
        )
        assert found["MCP103"]["fix"] is None
        assert found["MCP103"]["manual"].endswith(
            "`_on_roots_changed` invalidates `_dirty`, which `_ask` fills from the roots request: it goes together "
            "with that request (the MCP101 fix), never alone while the cache stays" + ("" if flags else ")")
        )
        cli(["fix", "--unsafe-fixes", *flags, "s.py"], tmp_path)
        assert (tmp_path / "s.py").read_text() == source


SESSION_MEMO = (
    HEAD
    + """
_by_session: dict[int, str] = {}


async def _base(ctx: Context) -> str:
    key = id(ctx.session)
    if key in _by_session:
        return _by_session[key]
    listing = await ctx.session.list_roots()
    _by_session[key] = listing.roots[0].uri.path
    return _by_session[key]


@mcp.tool()
async def ls(ctx: Context) -> list[str]:
    return sorted(p.name for p in Path(await _base(ctx)).iterdir())
"""
)


def test_a_session_keyed_memo_in_front_of_the_request_goes_with_it(tmp_path: Path) -> None:
    f = _findings(tmp_path, SESSION_MEMO)["MCP101"]
    assert f["fix"]["safety"] == "safe", f
    cli(["fix", "s.py"], tmp_path)
    assert (
        (tmp_path / "s.py")
        .read_text()
        .endswith(
            """async def _base(root: str, ctx: Context) -> str:
    key = id(ctx.session)
    _by_session[key] = root
    return _by_session[key]


@mcp.tool()
async def ls(
    root: Annotated[
        str,
        Field(
            description="Absolute path of the directory to work in (formerly the client's MCP root)."
        ),
    ],
    ctx: Context,
) -> list[str]:
    return sorted(p.name for p in Path(await _base(root, ctx)).iterdir())
"""
        )
    )


def test_the_memo_of_the_requesting_function_itself_still_goes_with_the_request(tmp_path: Path) -> None:
    """roots-03 (fixtures/roots/mcp1_memoised_roots) is not a memo on the way: it is dropped."""
    src = (
        Path(__file__).resolve().parent.parent / "fixtures" / "roots" / "mcp1_memoised_roots" / "before.py"
    ).read_text()
    f = _findings(tmp_path, src)["MCP101"]
    assert f["fix"]["safety"] == "safe", f


# -- --no-legacy-clients on a handshake-era project ------------------------------------------
def _pinned(tmp_path: Path, requirement: str, extra: str = "") -> None:
    (tmp_path / "pyproject.toml").write_text(
        f'[project]\nname = "shelf"\nversion = "0"\ndependencies = ["{requirement}"]\n{extra}', encoding="utf-8"
    )
    (tmp_path / "s.py").write_text((DATA / "roots20_allowed_memo.py").read_text(), encoding="utf-8")


def test_no_legacy_clients_is_refused_on_a_project_pinned_to_mcp_1(tmp_path: Path) -> None:
    """An mcp 1.x server speaks only the handshake-era protocol: all its clients are legacy
    clients (roots-19), so declaring that none are served is refused, with the pin named."""
    _pinned(tmp_path, "mcp==1.27.0")
    res = cli(["fix", "--no-legacy-clients", "s.py"], tmp_path)
    assert res.exit_code == 2
    assert res.stderr == (
        "mcpmigrate: error: --no-legacy-clients refused: the project pins `mcp==1.27.0` in pyproject.toml "
        "[project.dependencies], an SDK that serves only handshake-era (legacy) clients, so every client of this "
        "server is a legacy client; port it first (`--target-sdk mcp2` or `--target-sdk fastmcp4`) or keep "
        "serving them\n"
    )
    assert (tmp_path / "s.py").read_text() == (DATA / "roots20_allowed_memo.py").read_text()


def test_the_legacy_clients_key_is_refused_on_fastmcp_2_and_allowed_after_a_port_or_on_mcp_2(
    tmp_path: Path,
) -> None:
    _pinned(tmp_path, "fastmcp>=2.10,<3", "\n[tool.mcpmigrate]\nlegacy-clients = false\n")
    res = cli(["check", "s.py"], tmp_path)
    assert res.exit_code == 2 and res.stderr.startswith(
        "mcpmigrate: error: legacy-clients = false refused: the project pins `fastmcp>=2.10,<3` in pyproject.toml"
    )
    _pinned(tmp_path, "mcp==1.27.0")
    assert cli(["check", "--no-legacy-clients", "--target-sdk", "mcp2", "s.py"], tmp_path).exit_code == 1
    _pinned(tmp_path, "mcp>=2.3,<3")
    assert cli(["check", "--no-legacy-clients", "s.py"], tmp_path).exit_code == 1


# -- fallbacks stay fallbacks (roots-18, bugs-20) --------------------------------------------
def test_roots_behind_a_folder_argument_in_helpers_become_an_optional_parameter_and_every_call_still_works(
    tmp_path: Path, legacy_python: str
) -> None:
    """roots-18: `find_notes` asks (through `_choose` and `_workspace`) only when no absolute
    `folder` is given. Calls with `folder` answer as before, without the new parameter; calls
    with `roots` answer for the folder each passes (was: a required `roots`, so `{"word": "x",
    "folder": "/abs"}` failed validation)."""
    from tests.proof import run_proof

    before, after, report = _fixed(tmp_path, "roots18_folder_or_roots.py", "--unsafe-fixes")
    [f] = [f for f in report["findings"] if f["rule"] == "MCP101"]
    assert f["fix"] == {
        "safety": "unsafe",
        "strategy": "param",
        "description": "add an optional documented `roots` parameter to `find_notes`, used only when `folder` is "
        "not given or does not pass `folder and Path(folder).is_absolute()`, and drop the roots request (review: the roots result is used other than through the first "
        "root's path, a loop over the roots' paths or their count; an equivalent value is built from the `roots` "
        "list; without `roots` a call takes the `except Exception` fallback, as when the client could not answer: "
        "also a legacy client whose roots were used before)",
    } | {k: v for k, v in f["fix"].items() if k not in ("safety", "strategy", "description")}
    text = after.read_text()
    assert "    base = await _choose(folder, roots, ctx)\n" in text
    assert (
        "async def _choose(\n    folder: str | None, roots: list[str] | None, ctx: Context | None\n) -> str | None:\n"
        in text
    )
    assert (
        '    try:\n        if roots is None:\n            raise ValueError("pass `folder` or `roots`")\n'
        "        listing = ListRootsResult(roots=[Root(uri=Path(p).as_uri()) for p in roots])\n    except Exception:\n"
    ) in text
    a, b = _folders(tmp_path, "a", "b", files={"a/one.md": "x here", "b/two.md": "x there", "b/three.md": "nothing"})
    old = run_proof(
        legacy_python,
        before,
        "notes",
        "legacy",
        [a.as_uri()],
        [
            {"tool": "find_notes", "arguments": {"word": "x", "folder": str(b)}},
            {"tool": "find_notes", "arguments": {"word": "x"}},
        ],
    )
    assert _texts(old) == [["two.md"], ["one.md"]]
    calls = [
        {"tool": "find_notes", "arguments": {"word": "x", "folder": str(b)}},
        {"tool": "find_notes", "arguments": {"word": "x", "roots": [str(a)]}},
        {"tool": "find_notes", "arguments": {"word": "x", "roots": [str(b)]}},
        {"tool": "find_notes", "arguments": {"word": "x"}},
        # a relative folder reaches the roots too, as the description says (it said "not given")
        {"tool": "find_notes", "arguments": {"word": "x", "folder": "b", "roots": [str(a)]}},
    ]
    new = run_proof(legacy_python, after, "notes", "legacy", [], calls)
    assert _texts(new) == [["two.md"], ["one.md"], ["two.md"], [], ["one.md"]]
    [schema] = [t["inputSchema"] for t in new["tools"]]
    assert schema.get("required") == ["word"]
    assert schema["properties"]["roots"]["description"] == (
        "Absolute paths of the directories to work in (formerly the client's MCP roots). Used only when `folder` "
        "is not given or does not pass `folder and Path(folder).is_absolute()`."
    )


def test_a_relative_directory_that_reaches_the_roots_through_a_local_is_named_in_the_description(
    tmp_path: Path, legacy_python: str
) -> None:
    """quick-context-mcp@6000c09e: the roots answer a call without `directory` and also resolve a
    relative one (`candidate = Path(directory).expanduser(); if candidate.is_absolute(): return …`).
    The description says both (it said "Used only when `directory` is not given", false for a
    relative `directory`), and every call answers as before with the roots passed as the parameter."""
    from tests.proof import run_proof

    before, after, report = _fixed(tmp_path, "relative_dir_or_roots.py", "--unsafe-fixes")
    [f] = [f for f in report["findings"] if f["rule"] == "MCP101"]
    assert f["fix"]["description"].startswith(
        "add an optional documented `roots` parameter to `find_notes`, used only when `directory` is not given "
        "or does not pass `Path(directory).expanduser().is_absolute()`, and drop the roots request"
    )
    a, b = _folders(tmp_path, "a", "b", files={"a/one.md": "x here", "b/two.md": "x there"})
    (a / "sub").mkdir()
    (a / "sub" / "three.md").write_text("x below")
    old = run_proof(
        legacy_python,
        before,
        "notes",
        "legacy",
        [a.as_uri()],
        [
            {"tool": "find_notes", "arguments": {"word": "x", "directory": str(b)}},
            {"tool": "find_notes", "arguments": {"word": "x"}},
            {"tool": "find_notes", "arguments": {"word": "x", "directory": "sub"}},
        ],
    )
    assert _texts(old) == [["two.md"], ["one.md"], ["three.md"]]
    calls = [
        {"tool": "find_notes", "arguments": {"word": "x", "directory": str(b)}},
        {"tool": "find_notes", "arguments": {"word": "x", "roots": [str(a)]}},
        {"tool": "find_notes", "arguments": {"word": "x", "directory": "sub", "roots": [str(a)]}},
        {"tool": "find_notes", "arguments": {"word": "x", "roots": [str(b)]}},
    ]
    new = run_proof(legacy_python, after, "notes", "legacy", [], calls)
    assert _texts(new) == [["two.md"], ["one.md"], ["three.md"], ["two.md"]]
    [schema] = [t["inputSchema"] for t in new["tools"]]
    assert schema.get("required") == ["word"]
    assert schema["properties"]["roots"]["description"] == (
        "Absolute paths of the directories to work in (formerly the client's MCP roots). Used only when "
        "`directory` is not given or does not pass `Path(directory).expanduser().is_absolute()`."
    )


def test_a_time_limited_request_with_a_configured_fallback_keeps_the_fallback(
    tmp_path: Path, legacy_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bugs-20: `await asyncio.wait_for(ctx.session.list_roots(), timeout=…)` is the request (was:
    manual, "not awaited inside an async request handler"); the `try` whose `except` fell back to
    `ALBUM_DIR` becomes `if roots is None:` that fallback: the new parameter is optional."""
    from tests.proof import run_proof

    before, after, report = _fixed(tmp_path, "bugs20_wait_for.py", "--unsafe-fixes")
    [f] = [f for f in report["findings"] if f["rule"] == "MCP101"]
    assert (f["fix"]["safety"], f["fix"]["description"]) == (
        "unsafe",
        "add an optional documented `roots` parameter to `list_photos`, used only where the roots were asked "
        "(inside `try`), and drop the roots request (review: without `roots` a call takes the `except Exception` "
        "fallback, as when the client could not answer: also a legacy client whose roots were used before)",
    )
    assert (
        "async def _albums(roots: list[str] | None) -> list[Path]:\n    if roots is None:\n"
        '        return [Path(os.environ.get("ALBUM_DIR", "/nonexistent"))]\n    return [Path(r) for r in roots]\n'
    ) in after.read_text()
    a, b, conf = _folders(tmp_path, "a", "b", "conf")
    for d, name in ((a, "a1.jpg"), (b, "b1.jpg"), (b, "b2.jpg"), (conf, "c.jpg")):
        (d / name).write_text("")
    monkeypatch.setenv("ALBUM_DIR", str(conf))
    old = run_proof(legacy_python, before, "mcp", "legacy", [a.as_uri()], [{"tool": "list_photos"}])
    assert _texts(old) == [["a1.jpg"]]
    calls = [
        {"tool": "list_photos", "arguments": {"roots": [str(a)]}},
        {"tool": "list_photos", "arguments": {"roots": [str(a), str(b)]}},
        {"tool": "list_photos"},
    ]
    new = run_proof(legacy_python, after, "mcp", "legacy", [], calls)
    assert _texts(new) == [["a1.jpg"], ["a1.jpg,b1.jpg,b2.jpg"], ["c.jpg"]]


def test_a_capability_guard_in_front_of_a_fallback_request_now_answers_a_call_without_the_parameter(
    tmp_path: Path, legacy_python: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """anschnapp/djinnvim's shape: `if not <roots capability>: return None` led to the configured
    folder; it becomes `if roots is None: return None`, so a call without `roots` still gets the
    configured folder (the guard was removed, and such calls failed)."""
    from tests.proof import run_proof

    before, after, report = _fixed(tmp_path, "guarded_fallback.py", "--unsafe-fixes")
    [f] = [f for f in report["findings"] if f["rule"] == "MCP101"]
    assert (f["fix"]["safety"], f["fix"]["description"]) == (
        "unsafe",
        "add an optional documented `roots` parameter to `listing`, used only where the roots were asked (inside "
        "`if PINNED is not None`), and drop the roots request (review: without `roots` a call takes the path of a "
        "client without roots (`return None`): also a legacy client whose roots were used before)",
    )
    assert (
        "    if roots is None:\n        return None\n    return [Path(r) for r in roots] or None\n" in after.read_text()
    )
    a, b, conf = _folders(tmp_path, "a", "b", "conf", files={"a/1": "", "b/2": "", "b/3": "", "conf/4": ""})
    monkeypatch.setenv("DESK_FALLBACK", str(conf))
    monkeypatch.delenv("DESK_ROOT", raising=False)
    old = run_proof(legacy_python, before, "mcp", "legacy", [a.as_uri()], [{"tool": "listing"}])
    assert _texts(old) == [["1"]]
    calls = [
        {"tool": "listing", "arguments": {"roots": [str(a)]}},
        {"tool": "listing", "arguments": {"roots": [str(a), str(b)]}},
        {"tool": "listing"},
    ]
    new = run_proof(legacy_python, after, "mcp", "legacy", [], calls)
    assert _texts(new) == [["1"], ["1,2,3"], ["4"]]

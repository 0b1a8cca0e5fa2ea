"""scripts/corpora.py: what it counts on a tree, and that it catches what a bypassed verifier lets
through (a name another module imports removed, a new undefined name, a module that no longer
imports). The tree is ``tests/data/corpora/recipes`` (see tests/data/README.md)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TREE = REPO / "tests" / "data" / "corpora" / "recipes"

_spec = importlib.util.spec_from_file_location("corpora", REPO / "scripts" / "corpora.py")
assert _spec and _spec.loader
corpora = importlib.util.module_from_spec(_spec)
sys.modules["corpora"] = corpora
_spec.loader.exec_module(corpora)

APP = (TREE / "pkg" / "app.py").read_bytes()


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "recipes"
    shutil.copytree(TREE, root)
    return root


def _bypass_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pipeline as it would be without its verifier: no name check before writing, and the
    import pruning keeps nothing the rest of the project imports."""
    import mcpmigrate.codemods.imports as imports
    import mcpmigrate.pipeline as pipeline

    monkeypatch.setattr(pipeline, "name_problem", lambda *a, **k: None)
    monkeypatch.setattr(imports, "kept_names", lambda *a, **k: set())


def test_import_graph_resolves_every_spelling(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    graph = corpora.import_graph(root, corpora.snapshot(root))
    uses = {u.importer: u for u in graph["pkg/app.py"]}
    assert sorted(uses) == ["pkg/alias.py", "pkg/star.py", "pkg/tools.py"]
    assert uses["pkg/tools.py"].names == {"Context", "mcp"}  # relative import
    assert uses["pkg/alias.py"].names == {"Context"}  # `import pkg.app as app` then `app.Context`
    assert uses["pkg/star.py"].names == set()
    assert "Context" in uses["pkg/star.py"].star_reads  # read through `from pkg.app import *`
    assert {u.importer for u in graph["pkg/tools.py"]} == {"main.py"}


def test_broken_names_counts_each_importer_of_a_removed_name(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    graph = corpora.import_graph(root, corpora.snapshot(root))
    pruned = APP.replace(b"import Context, MCPServer", b"import MCPServer").replace(b"ctx: Context", b"ctx")
    problems = corpora.broken_names("pkg/app.py", APP, pruned, graph["pkg/app.py"], set())
    assert problems == [
        "pkg/app.py: the fix removes `Context`, which pkg/alias.py imports from it",
        "pkg/app.py: the fix removes `Context`, which pkg/star.py reads through `import *`",
        "pkg/app.py: the fix removes `Context`, which pkg/tools.py imports from it",
    ]


def test_broken_names_counts_a_new_undefined_name() -> None:
    fixed = APP.replace(b"return str(roots.roots[0].uri)", b"return str(root)")
    fixed = fixed.replace(b"    roots = await ctx.session.list_roots()\n", b"")
    (problem,) = corpora.broken_names("pkg/app.py", APP, fixed, [], set())
    assert problem.startswith("pkg/app.py: the rewritten code reads `root` where it is not defined")


def test_an_unchanged_name_set_is_not_broken() -> None:
    assert corpora.broken_names("pkg/app.py", APP, APP + b"\nEXTRA = 1\n", [], set()) == []


def test_the_tree_fixes_with_every_count_zero(tmp_path: Path) -> None:
    tally = corpora.corpus(_tree(tmp_path), None, tmp_path / "diffs")
    assert {k: tally.counts[k] for k in corpora.KINDS} == dict.fromkeys(corpora.KINDS, 0), tally.details
    rule = tally.rules["MCP101"]
    assert rule["findings"] == 1
    assert (rule["param unsafe"], rule["param applied unsafe"]) == (1, 1)
    assert (rule["interim safe"], rule["interim applied safe"]) == (1, 1)
    # both fixes keep `Context`, which three other modules take from pkg/app.py
    for strategy in corpora.STRATEGIES:
        diff = (tmp_path / "diffs" / f"recipes.{strategy}.diff").read_text()
        assert diff.startswith("--- a/pkg/app.py\n+++ b/pkg/app.py\n")
        assert "Context, MCPServer\n" in diff
    lines = corpora.table("recipes", tally)
    assert lines == [
        "  recipes MCP101: 1 findings; param: check safe/unsafe/other/manual 0/1/0/0, applied safe/unsafe 0/1; "
        "interim: check safe/unsafe/other/manual 1/0/0/0, applied safe/unsafe 1/0"
    ]


def test_a_bypassed_verifier_is_caught_statically_and_by_importing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _bypass_verifier(monkeypatch)
    root = _tree(tmp_path)
    original = corpora.snapshot(root)
    tally = corpora.Tally()
    changed = corpora.fix_and_verify(root, original, "param", {"pkg/app.py"}, tally)
    assert b"import Context" not in changed["pkg/app.py"]  # the unchecked pruning removed it
    assert tally.counts["broken imports"] == 3, tally.details
    assert tally.details == [
        f"recipes: --strategy param: pkg/app.py: the fix removes `Context`, which pkg/{m}"
        for m in ("alias.py imports from it", "star.py reads through `import *`", "tools.py imports from it")
    ]
    # importing for real (this interpreter has mcp 2.x): the three importers stop importing
    corpora.check_imports(root, root, original, changed, sys.executable, "param", tally)
    assert tally.counts["broken imports"] == 6
    assert tally.notes == ["--strategy param: imported 4 of 4 fixed modules and importers before the fix"]
    assert tally.details[3:] == [
        f"recipes: --strategy param: {rel} no longer imports: {error}"
        for rel, error in (
            ("pkg/alias.py", "AttributeError: module 'pkg.app' has no attribute 'Context'"),
            ("pkg/star.py", "NameError: name 'Context' is not defined"),
            ("pkg/tools.py", f"ImportError: cannot import name 'Context' from 'pkg.app' ({root / 'pkg' / 'app.py'})"),
        )
    ]


def test_module_name_walks_up_the_packages(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    assert corpora.module_name(root, "pkg/tools.py") == (root, "pkg.tools")
    assert corpora.module_name(root, "pkg/__init__.py") == (root, "pkg")
    assert corpora.module_name(root, "main.py") == (root, "main")
    (root / "not-a-name.py").write_text("")
    assert corpora.module_name(root, "not-a-name.py") is None


def test_tree_options(tmp_path: Path) -> None:
    ns = corpora.argparse.Namespace
    base = str(tmp_path)
    assert corpora.trees_of(ns(trees=[], trees_from=None, real=False, base=base)) == [
        tmp_path / n for n in corpora.SDK_TREES
    ]
    listing = tmp_path / "trees.txt"
    listing.write_text("# comment\ntaut\n/abs/tree\n")
    got = corpora.trees_of(ns(trees=["db-mcp"], trees_from=str(listing), real=False, base=base))
    assert got == [tmp_path / "db-mcp", tmp_path / "taut", Path("/abs/tree")]
    assert corpora.trees_of(ns(trees=[], trees_from=None, real=True, base=base))[-1] == tmp_path / "mcp"


# -- wrong fixes scripts/corpora.py found on the real trees, reduced ---------------------------------

# modelcontextprotocol/python-sdk tests/server/test_stateless_mode.py: the ping is the thing the
# `pytest.raises` block checks; the MCP203 fix (safe) left `pass` there and the test failed.
PING_EXPECTED = """\
import anyio
import pytest
from mcp.server.session import ServerSession
from mcp.shared.exceptions import NoBackChannelError


async def test_send_ping_raises(session: ServerSession, case):
    with pytest.raises(NoBackChannelError) as exc:
        await session.send_ping()
    assert exc.value.method == "ping"
    with case.assertRaisesRegex(NoBackChannelError, "ping"):
        await session.send_ping()


async def keepalive(session: ServerSession):
    with anyio.fail_after(5):
        await session.send_ping()
"""
PING_FIXED = PING_EXPECTED.replace(
    "    with anyio.fail_after(5):\n        await session.send_ping()\n",
    "    with anyio.fail_after(5):\n        pass\n",
)


def test_a_ping_a_raises_block_expects_to_fail_is_manual(tmp_path: Path) -> None:
    from tests.helpers import cli, write_pyproject

    write_pyproject(tmp_path, "")
    (tmp_path / "test_ping.py").write_text(PING_EXPECTED)
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    rows = [(f["rule"], f["line"], f["fix"] and f["fix"]["safety"], f["manual"]) for f in res.json["findings"]]
    expected = (
        "the ping is expected to fail here (it is inside `with ...raises(...)`); deleting it makes that block "
        "fail. Remove or rewrite the check of the ping by hand"
    )
    assert rows == [("MCP203", 9, None, expected), ("MCP203", 12, None, expected), ("MCP203", 17, "safe", None)]
    cli(["fix", "."], tmp_path)
    assert (tmp_path / "test_ping.py").read_text() == PING_FIXED


# modelcontextprotocol/python-sdk tests/server/test_connection.py: the MCP104 fix (safe) dropped
# `list_changed=True` from a capability the client's is checked against, so the check passed for a
# client that never sends roots list_changed (the SDK's check_capability compares the field); the
# test's own cases (parametrize values passed to check_capability) are in the same module.
CAP_CHECK = """\
from mcp import types
from mcp.server.session import ServerSession


def notifies_roots_changes(session: ServerSession) -> bool:
    return session.check_client_capability(
        types.ClientCapabilities(roots=types.RootsCapability(listChanged=True))
    )


DECLARED = types.ClientCapabilities(roots=types.RootsCapability(list_changed=True))
"""


DECLARED_ONLY = """\
from mcp import types

DECLARED = types.ClientCapabilities(roots=types.RootsCapability(list_changed=True))
"""


def test_listchanged_in_a_capability_check_is_manual(tmp_path: Path) -> None:
    from tests.helpers import cli, write_pyproject

    write_pyproject(tmp_path, "")
    (tmp_path / "server.py").write_text(CAP_CHECK)
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    rows = [(f["rule"], f["line"], f["fix"] and f["fix"]["safety"], f["manual"]) for f in res.json["findings"]]
    check = (
        "this module compares client capabilities (`check_client_capability`/`check_capability`), which "
        "compare `listChanged` (legacy clients can send roots list_changed; 2026-07-28 has none): without "
        "it a check passes for clients that never send them. Remove the check with the code that waits "
        "for the notifications, by hand"
    )
    assert rows == [
        (
            "MCP102",
            6,
            None,
            "no roots request is left in this module: delete this check if nothing uses it, or read the "
            "capability from the request (`ctx.client_capabilities`)",
        ),
        ("MCP104", 7, None, check),
        ("MCP104", 11, None, check),  # a value declared in the same module may feed a check (a test's cases)
    ]
    cli(["fix", "."], tmp_path)
    assert (tmp_path / "server.py").read_text() == CAP_CHECK
    # a module that only declares the capability keeps the safe fix
    (tmp_path / "server.py").write_text(DECLARED_ONLY)
    res = cli(["check", "--output-format", "json", "."], tmp_path)
    assert [(f["rule"], f["line"], f["fix"]["safety"]) for f in res.json["findings"]] == [("MCP104", 3, "safe")]
    # the SDK compares the field: the check the fix would have written passes for a client without it
    from mcp.server.connection import Connection
    from mcp.types import LATEST_PROTOCOL_VERSION, ClientCapabilities, Implementation, RootsCapability

    conn = Connection.from_envelope(
        LATEST_PROTOCOL_VERSION, Implementation(name="c", version="0"), ClientCapabilities(roots=RootsCapability())
    )
    assert conn.check_capability(ClientCapabilities(roots=RootsCapability(list_changed=True))) is False
    assert conn.check_capability(ClientCapabilities(roots=RootsCapability())) is True


def test_a_changed_signature_still_called_is_counted(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "pkg" / "cli.py").write_text(
        "from pkg.app import pantry_dir\n\n\nasync def main(ctx):\n    print(await pantry_dir(ctx))\n"
    )
    original = corpora.snapshot(root)
    tally = corpora.Tally()
    changed = corpora.fix_and_verify(root, original, "param", {"pkg/app.py"}, tally)
    assert b"async def pantry_dir(\n    root: Annotated[\n" in changed["pkg/app.py"]
    assert tally.details == [
        "recipes: --strategy param: pkg/app.py: `pantry_dir` changed its parameters and pkg/cli.py calls it"
    ]
    assert tally.counts["calls to a changed signature"] == 1


def test_unparsable_is_judged_by_libcst_when_this_python_cannot_compile_the_original() -> None:
    py312 = b'x = f"{"\\\\n".join(["a"])}"\n'  # a backslash in an f-string expression: 3.12 only
    if sys.version_info < (3, 12):
        assert corpora.unparsable(py312 + b"y = 1\n", py312, "m.py") is None
    assert corpora.unparsable(b"def f(:\n", b"x = 1\n", "m.py") is not None
    assert corpora.unparsable(py312 + b"def f(:\n", py312, "m.py") is not None

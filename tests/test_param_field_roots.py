"""The param fix on the roots shapes of real servers (issue 23: field cases roots-18, roots-19,
roots-20, bugs-19, bugs-20, bugs-22): each fixed server is run on the real SDK (mcp 1.x, the one
these servers pin) — the calls that worked before answer the same, and the new parameter works
for each path a call passes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    return [c["text"] or c["error"] for c in out["calls"]]


def _folders(tmp_path: Path, *names: str) -> list[Path]:
    out = []
    for n in names:
        d = tmp_path / n
        d.mkdir()
        out.append(d)
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

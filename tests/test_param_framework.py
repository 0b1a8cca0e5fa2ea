"""The param fix on a framework's context (field case requests-19): mcp-use's ``Context``
subclasses mcp 1.x FastMCP's and its ``list_roots()`` is ``(await self.session.list_roots()).roots``.
Under a chosen ``--strategy param`` the request gets the SDK context's rewrite — only the tool's
signature changes — with the framework's value (``list[Root]``, not ``ListRootsResult``) rebuilt
or replaced by the path; by default it stays manual (tests/test_hidden_findings.py). Each fixed
server is run on mcp 1.x (what mcp-use pins) with a stand-in ``mcp_use.server`` defining
``list_roots`` the same way (``data/paramframework/stub``): the calls that worked answer the same."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from tests.helpers import cli

DATA = Path(__file__).resolve().parent / "data" / "paramframework"
HIDDEN = Path(__file__).resolve().parent / "data" / "hidden"
REBUILT = (
    "the roots result is used other than through the first root's path, a loop over the roots' paths or their "
    "count; an equivalent value is built from the `root_paths` list"
)


def _fix(tmp_path: Path, src: Path, strategy: str) -> tuple[Path, Path, list[dict]]:
    """``src`` copied into ``tmp_path/proj`` (``before.py`` and ``s.py``), ``s.py`` fixed with
    ``--strategy <strategy> --unsafe-fixes``; returns (before, after, the MCP101 findings of
    ``check`` with that strategy chosen in pyproject.toml, as ``check`` takes it)."""
    proj = tmp_path / "proj"
    proj.mkdir()
    before, after = proj / "before.py", proj / "s.py"
    shutil.copy(src, before)
    shutil.copy(src, after)
    (proj / "pyproject.toml").write_text(f'[tool.mcpmigrate]\nstrategy = "{strategy}"\n', encoding="utf-8")
    report = cli(["check", "--no-cache", "--output-format", "json", "s.py"], proj).json
    (proj / "pyproject.toml").unlink()
    cli(["fix", "--no-cache", "--strategy", strategy, "--unsafe-fixes", "s.py"], proj)
    return before, after, [f for f in report["findings"] if f["rule"] == "MCP101"]


def _labels(findings: list[dict]) -> list[tuple[int, str | None, str | None]]:
    return [(f["line"], f["fix"] and f["fix"]["safety"], f["fix"] and f["fix"]["description"]) for f in findings]


def test_requests_19_list_roots_of_the_framework_context_takes_the_param_fix(tmp_path: Path) -> None:
    before, after, findings = _fix(tmp_path, HIDDEN / "requests_19.py", "param")
    assert _labels(findings) == [
        (
            46,
            "unsafe",
            f"add a documented `root_paths` parameter to `show_roots` and drop the roots request (review: {REBUILT})",
        )
    ]
    assert after.read_text() == (DATA / "requests_19_fixed.py").read_text()
    # not chosen: the framework's request stays manual, the file unchanged
    shutil.copy(before, after)
    cli(["fix", "--no-cache", "--unsafe-fixes", "s.py"], after.parent)
    assert after.read_text() == before.read_text()


def test_other_strategies_and_unrewritable_shapes_stay_manual(tmp_path: Path) -> None:
    src = tmp_path / "src.py"
    src.write_text(
        "import asyncio\n\nfrom mcp_use.server import Context, MCPServer\n\nserver = MCPServer(name='x')\n\n\n"
        "@server.tool()\ndef count(ctx: Context) -> int:\n    return len(asyncio.run(ctx.list_roots()))\n"
    )
    _b, after, [f] = _fix(tmp_path, src, "param")
    assert (f["line"], f["fix"]) == (10, None)
    assert f["manual"].startswith("the request is not awaited inside an async request handler")
    assert after.read_text() == src.read_text()
    shutil.rmtree(tmp_path / "proj")
    _b, after, [f] = _fix(tmp_path, HIDDEN / "requests_19.py", "interim")
    assert f["fix"] is None and f["manual"].startswith(
        "`ctx` is `mcp_use.server.Context`, mcp_use's subclass of the SDK's `Context`, whose `list_roots` makes "
        "the request itself"
    )
    assert after.read_text() == (HIDDEN / "requests_19.py").read_text()


def _serve(legacy_python: str, run: Path, file: Path, roots: list[str], calls: list[dict]) -> list[Any]:
    """The answers of ``calls`` to ``file`` served on mcp 1.x beside the stand-in ``mcp_use``."""
    from tests.proof import run_proof

    shutil.copy(file, run / "server.py")
    out = run_proof(legacy_python, run / "server.py", "server", "legacy", roots, calls)
    return [c["text"] if c["error"] is None else c["error"] for c in out["calls"]]


def test_the_framework_shapes_rewritten_answer_as_before_on_mcp1(tmp_path: Path, legacy_python: str) -> None:
    """mcp-use's roots tools' shapes: the roots listed with names and counted (a list rebuilt
    from `root_paths`), asked in a `try` while the context stays in use (optional, the `except`
    answering without it), the first root's path (the path itself, safe)."""
    before, after, findings = _fix(tmp_path, DATA / "shapes.py", "param")
    assert [(line, safety) for line, safety, _d in _labels(findings)] == [(14, "unsafe"), (23, "unsafe"), (36, "safe")]
    assert _labels(findings)[2][2] == "add a documented `root` parameter to `first_dir` and drop the roots request"
    assert after.read_text() == (DATA / "shapes_fixed.py").read_text()
    run = tmp_path / "run"
    shutil.copytree(DATA / "stub", run)
    a, b = tmp_path / "a", tmp_path / "b"
    tools = [{"tool": t} for t in ("listing", "described", "first_dir")]
    old = _serve(legacy_python, run, before, [a.as_uri(), b.as_uri()], tools)
    listing = '{"roots": [{"uri": "%s", "name": null}, {"uri": "%s", "name": null}], "count": 2}'
    assert old == [
        [listing % (a.as_uri(), b.as_uri())],
        [f"True: 2\n(unnamed): {a.as_uri()}\n(unnamed): {b.as_uri()}"],
        [str(a)],
    ]
    assert _serve(legacy_python, run, before, [], tools[:2]) == [['{"roots": [], "count": 0}'], ["none"]]
    both = {"root_paths": [str(a), str(b)]}
    calls = [
        {"tool": "listing", "arguments": both},
        {"tool": "described", "arguments": both},
        {"tool": "first_dir", "arguments": {"root": str(a)}},
        {"tool": "listing", "arguments": {"root_paths": []}},
        {"tool": "described", "arguments": {"root_paths": []}},
        {"tool": "described"},
    ]
    assert _serve(legacy_python, run, after, [], calls) == [*old, ['{"roots": [], "count": 0}'], ["none"]] + [
        ["error: pass `root_paths`"]
    ]

"""One file cannot take the run down (issue 20, "Isolate the parser"): input that crashes or
stalls libcst's native parser, overflows the analysis or outlasts the time limit becomes that
file's error, and every other file is reported as usual (exit 1, a complete document).

The crashes of the pool and child paths are provoked with ``SIGSEGV`` sent by a patched parse
(forked workers and children inherit the patch); the deep inputs are the real ones.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcpmigrate import engine, isolation, pipeline
from mcpmigrate.config import Config
from mcpmigrate.engine import Options, _overlapped, run
from mcpmigrate.parsing import Precheck, precheck
from tests.helpers import cli, write_pyproject

HEALTHY = """\
from mcp.server.fastmcp import FastMCP, Context

desk = FastMCP("desk")


@desk.tool()
async def note(text: str, ctx: Context) -> str:
    await ctx.info("noting")
    return text
"""

# The hostile files carry an MCP tool too: the screen lets them through to the parser.
HEAD = (
    "from mcp.server.fastmcp import FastMCP, Context\n\nboard = FastMCP('board')\n\n\n@board.tool()\n"
    "async def level(ctx: Context) -> int:\n    await ctx.debug('depth')\n    return "
)

# PEP 695 (3.12): CPython 3.11 rejects it with an ordinary syntax error, libcst parses it with the
# project's grammar — the file is checked in a child process
NEWER = HEALTHY.replace('desk = FastMCP("desk")\n', 'type Text = str\ndesk = FastMCP("desk")\n')


def _deep(depth: int) -> str:
    return HEAD + "(" * depth + "7" + ")" * depth + "\n"


def _chain(terms: int, op: str = "+") -> str:
    return HEAD + f" {op} ".join(["a"] * terms) + "\n"


def _check(tmp_path: Path, **files: str) -> tuple[int, dict]:
    for name, text in files.items():
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    res = cli(["check", "--no-cache", "--output-format", "json"], tmp_path)
    assert res.exception is None, str(res)
    return res.exit_code, res.json


def _findings(doc: dict) -> list[tuple[str, str, int]]:
    return sorted((f["path"], f["rule"], f["line"]) for f in doc["findings"])


def _errors(doc: dict) -> dict[str, str]:
    return {e["path"]: e["message"] for e in doc["errors"]}


def test_3000_nested_parentheses_beside_a_healthy_file(tmp_path: Path) -> None:
    """user-05: the case that crashed every run with SIGSEGV, as a user runs it (a process of its
    own: a crash here must fail this test, not the test runner)."""
    (tmp_path / "healthy.py").write_text(HEALTHY, encoding="utf-8")
    (tmp_path / "generated_deep.py").write_text(_deep(3000), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "mcpmigrate", "check", "--no-cache", "--output-format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert _findings(doc) == [("healthy.py", "MCP401", 8)]
    assert doc["errors"] == [
        {
            "path": "generated_deep.py",
            "message": "cannot parse: too many nested parentheses (line 9, column 212)",
            "line": 9,
            "column": 212,
        }
    ]
    assert doc["files_checked"] == 1  # the healthy file; the deep one is an error


def test_deep_file_without_anything_mcp_is_not_reported(tmp_path: Path) -> None:
    """As any file ``ast`` cannot parse with nothing MCP in it (README: not a syntax checker)."""
    code, doc = _check(tmp_path, healthy=HEALTHY, plain="x = " + "(" * 3000 + "7" + ")" * 3000 + "\n")
    assert (code, _findings(doc), doc["errors"]) == (1, [("healthy.py", "MCP401", 8)], [])


def test_long_chains_are_refused_before_libcst(tmp_path: Path) -> None:
    """10,000 terms: ``+`` overflows CPython's own ast construction (3.11); ``and`` is one flat
    list for ``ast`` but 10,000 nested nodes for libcst, whose parser crashes on it."""
    code, doc = _check(tmp_path, healthy=HEALTHY, plus=_chain(10_000), both=_chain(10_000, "and"))
    assert code == 1
    assert _findings(doc) == [("healthy.py", "MCP401", 8)]
    errors = _errors(doc)
    assert errors["both.py"] == "cannot parse: nesting too deep (line 9)"
    assert errors["plus.py"] in ("cannot parse: nesting too deep", "cannot parse: nesting too deep (line 9)")


def test_recursion_error_in_the_analysis(tmp_path: Path) -> None:
    """600 terms: within what libcst parses, beyond what the analysis recurses through."""
    code, doc = _check(tmp_path, healthy=HEALTHY, chain=_chain(600))
    assert (code, _findings(doc)) == (1, [("healthy.py", "MCP401", 8)])
    assert _errors(doc) == {"chain.py": "cannot analyse: nesting too deep"}


def _stall_on(marker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis of a file holding ``marker`` loops forever (in Python)."""
    detect = pipeline.detect

    def stalling(module, display, *args, **kwargs):  # type: ignore[no-untyped-def]
        while marker in module.code:
            pass
        return detect(module, display, *args, **kwargs)

    monkeypatch.setattr(pipeline, "detect", stalling)


def test_a_file_past_its_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(isolation.TIMEOUT_ENV, "1")
    _stall_on("stalls", monkeypatch)
    code, doc = _check(tmp_path, healthy=HEALTHY, slow=HEALTHY.replace('"noting"', '"stalls"'))
    assert (code, _findings(doc)) == (1, [("healthy.py", "MCP401", 8)])
    assert _errors(doc) == {"slow.py": "took longer than 1 s, file skipped (the limit is $MCPMIGRATE_FILE_TIMEOUT)"}


def test_memory_exhausted_in_the_analysis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    detect = pipeline.detect

    def exhausting(module, display, *args, **kwargs):  # type: ignore[no-untyped-def]
        if "exhausts" in module.code:
            raise MemoryError
        return detect(module, display, *args, **kwargs)

    monkeypatch.setattr(pipeline, "detect", exhausting)
    code, doc = _check(tmp_path, healthy=HEALTHY, big=HEALTHY.replace('"noting"', '"exhausts"'))
    assert (code, _findings(doc)) == (1, [("healthy.py", "MCP401", 8)])
    assert _errors(doc) == {"big.py": "ran out of memory, file skipped"}


def test_the_time_limit_variable() -> None:
    env = os.environ.copy()
    try:
        for raw, seconds in (("", 120.0), ("2.5", 2.5), ("0", None), ("soon", 120.0)):
            os.environ[isolation.TIMEOUT_ENV] = raw
            assert isolation.file_timeout() == seconds
    finally:
        os.environ.clear()
        os.environ.update(env)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the running Python must reject PEP 695")
def test_newer_grammar_is_checked_in_a_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_pyproject(tmp_path, 'target-version = "py312"\n')
    children: list[tuple] = []
    in_child = isolation.in_child
    monkeypatch.setattr(isolation, "in_child", lambda fn, args, s: children.append(args) or in_child(fn, args, s))
    code, doc = _check(tmp_path, healthy=HEALTHY, newer=NEWER)
    assert (code, doc["errors"]) == (1, [])
    assert _findings(doc) == [("healthy.py", "MCP401", 8), ("newer.py", "MCP401", 9)]
    assert [args[1] for args in children] == ["newer.py"]


def _crash_on(marker: str, monkeypatch: pytest.MonkeyPatch, hang: bool = False) -> None:
    """libcst's parse of a file holding ``marker`` dies with SIGSEGV (or, ``hang``, stalls where
    no alarm reaches it) — outside the test's own process only."""
    parse = pipeline.parse_module
    here = os.getpid()

    def crashing(source, config):  # type: ignore[no-untyped-def]
        if marker.encode() in source and os.getpid() != here:
            if hang:
                signal.signal(signal.SIGALRM, signal.SIG_IGN)
                time.sleep(120)
            os.kill(os.getpid(), signal.SIGSEGV)
        return parse(source, config)

    monkeypatch.setattr(pipeline, "parse_module", crashing)


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the running Python must reject PEP 695")
def test_a_crash_in_the_child_costs_only_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_pyproject(tmp_path, 'target-version = "py312"\n')
    _crash_on("type Text", monkeypatch)
    code, doc = _check(tmp_path, healthy=HEALTHY, newer=NEWER)
    assert (code, _findings(doc)) == (1, [("healthy.py", "MCP401", 8)])
    assert _errors(doc) == {"newer.py": "cannot parse: the parser crashed (SIGSEGV)"}


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the running Python must reject PEP 695")
def test_a_child_past_its_time_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_pyproject(tmp_path, 'target-version = "py312"\n')
    monkeypatch.setenv(isolation.TIMEOUT_ENV, "1")
    _crash_on("type Text", monkeypatch, hang=True)
    code, doc = _check(tmp_path, healthy=HEALTHY, newer=NEWER)
    assert (code, _findings(doc)) == (1, [("healthy.py", "MCP401", 8)])
    assert _errors(doc) == {"newer.py": "took longer than 1 s, file skipped (the limit is $MCPMIGRATE_FILE_TIMEOUT)"}


def test_a_crashed_pool_worker_costs_only_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine files in a pool of two: the worker on ``crash.py`` dies, the other worker's file is
    checked again in a child, the rest in a fresh pool."""
    names = [f"tool{i}" for i in range(9)]
    for name in names:
        (tmp_path / f"{name}.py").write_text(HEALTHY, encoding="utf-8")
    (tmp_path / "crash.py").write_text(HEALTHY.replace('"noting"', '"crashes"'), encoding="utf-8")
    _crash_on('"crashes"', monkeypatch)
    result = run([tmp_path], Config(root=tmp_path), Options(mode="check", jobs=2, no_cache=True), cwd=tmp_path)
    assert [(e.path, e.message) for e in result.errors] == [("crash.py", "cannot parse: the parser crashed (SIGSEGV)")]
    assert sorted((f.path, f.rule, f.line) for f in result.findings) == sorted((f"{n}.py", "MCP401", 8) for n in names)


def test_a_crashed_worker_while_the_project_pass_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty modules calling a helper of the project: the pool opens before the project pass is
    resolved (engine._overlapped); the worker on ``crash.py`` dies there, the files are checked
    again in a fresh pool, and the crash costs only its own file."""
    (tmp_path / "shared.py").write_text("async def helper(ctx):\n    return await ctx.session.list_roots()\n")
    caller = "from shared import helper\n" + HEALTHY.replace("    return text\n", "    return await helper(ctx)\n")
    names = [f"tool{i}" for i in range(20)]
    for name in names:
        (tmp_path / f"{name}.py").write_text(caller, encoding="utf-8")
    (tmp_path / "crash.py").write_text(caller.replace('"noting"', '"crashes"'), encoding="utf-8")
    _crash_on('"crashes"', monkeypatch)
    overlapped = []
    monkeypatch.setattr(engine, "_overlapped", lambda *a: overlapped.append(1) or _overlapped(*a))
    result = run([tmp_path], Config(root=tmp_path), Options(mode="check", jobs=2, no_cache=True), cwd=tmp_path)
    assert overlapped == [1]
    assert [(e.path, e.message) for e in result.errors] == [("crash.py", "cannot parse: the parser crashed (SIGSEGV)")]
    logging = sorted((f.path, f.line) for f in result.findings if f.rule == "MCP401")
    assert logging == sorted((f"{n}.py", 9) for n in names)


@pytest.mark.parametrize(
    ("source", "want"),
    [
        (
            "x = " + "(" * 201 + "7" + ")" * 201 + "\n",
            Precheck("too many nested parentheses (line 1, column 205)", (1, 205)),
        ),
        ("x = " + " and ".join(["a"] * 1001) + "\n", Precheck("nesting too deep (line 1)", (1, 6005))),
        ("x = " + " and ".join(["a"] * 990) + "\n", Precheck()),
        ("x = [" + ", ".join(["a"] * 10_001) + "]\n", Precheck(isolate=True)),
        ("type Text = str\n", Precheck(isolate=sys.version_info < (3, 12))),
        ("x = (\n", Precheck(isolate=True)),  # an ordinary syntax error: libcst words it, in a child
    ],
    ids=["parentheses", "and-chain", "and-chain-within", "wide", "newer-grammar", "syntax-error"],
)
def test_precheck(source: str, want: Precheck) -> None:
    assert precheck(source.encode()) == want

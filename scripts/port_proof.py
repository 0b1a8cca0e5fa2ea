"""Proof by execution of ``mcpmigrate fix --target-sdk mcp2`` on real mcp 1.x servers.

For each server: copy its tree to a temporary directory, port the copy with
``mcpmigrate fix --target-sdk mcp2``, then run the original on mcp 1.x and the port on mcp 2.x
(a legacy and a 2026-07-28 connection) over stdio, with this interpreter's mcp 2.x ``Client``
driving each, and compare ``tools/list`` and the results of the same calls. Prints one table row
per server: what was ported automatically, what was left (and why), and whether tools and calls
are identical in each era.

Needs the trees (``--real`` for modelcontextprotocol/servers, ``--examples`` for the v1.27.0
examples of python-sdk: ``git -C <python-sdk mirror> archive v1.27.0 examples | tar -x -C DIR``;
``--field`` for servers named in the "Seen in" lines of the field cases, one directory each:
``quick-context-mcp``, ``djinnvim``, ``nodestradamus``, each ``git archive`` of its repository;
``--survey`` for more of them, see :func:`_survey_specs`; nodestradamus needs Pythons >= 3.12)
and two Pythons with the servers' dependencies: ``--legacy-python`` (mcp 1.x) and
``--mcp2-python`` (mcp==2.3.0). Nothing of those trees is stored in this repository.

A server is described by a :class:`Spec`: the tree, what ``fix`` is run on, its start command
(``-m pkg …``, ``-c code``, or a file and the module-level server the launcher runs), its
``PYTHONPATH``, extra environment (``{tmp}`` is the run's temporary directory), a setup that
prepares local data, and the calls.

    python scripts/port_proof.py --legacy-python /tmp/v1/bin/python --mcp2-python /tmp/v2/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from mcpmigrate.verify.driver import MODERN, Run, normalize, observe

# A module-level server: run its ``run()`` (FastMCP/MCPServer, stdio), or run the file as
# ``__main__`` (a low-level server started by the file's own main block).
LAUNCH = (
    "import runpy, sys\n"
    "if sys.argv[2] == '__main__':\n    runpy.run_path(sys.argv[1], run_name='__main__')\n"
    "else:\n    runpy.run_path(sys.argv[1], run_name='port_proof')[sys.argv[2]].run()"
)


@dataclass
class Spec:
    name: str
    tree: Path  # copied, then ported
    target: str  # what `fix` is run on, relative to the copy
    module: list[str]  # argv after the interpreter (``-m pkg …`` or the launcher's file and server)
    pythonpath: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    prompts: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    resources: list[str] = field(default_factory=list)
    setup: Any = None  # (tmpdir) -> extra argv
    env: dict[str, str] = field(default_factory=dict)  # extra environment; ``{tmp}`` substituted
    fix_args: list[str] = field(default_factory=list)  # more `fix` options (``--select MCP5``)


def _git_repo(tmp: Path) -> list[str]:
    repo = tmp / "repo"
    repo.mkdir()
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-01-01T00:00:00", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00"}
    for cmd in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "-c", "user.name=p", "-c", "user.email=p@e", "commit", "-q", "--allow-empty", "-m", "first"],
    ):
        subprocess.run(cmd, cwd=repo, check=True, env=env)
    (repo / "a.txt").write_text("alpha\n")
    return ["--repository", str(repo)]


def _sample_project(tmp: Path) -> list[str]:
    """A small local Python project (a git repository with a package, a README and docs) the
    code-analysis servers work on."""
    _git_repo(tmp)
    repo = tmp / "repo"
    pkg = repo / "shop"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""A tiny shop."""\n')
    (pkg / "cart.py").write_text(
        "from shop.prices import price_of\n\n\nclass Cart:\n    def __init__(self):\n        self.items = []\n\n"
        "    def add(self, name):\n        self.items.append(name)\n\n    def total(self):\n"
        "        return sum(price_of(i) for i in self.items)\n"
    )
    (pkg / "prices.py").write_text(
        'PRICES = {"apple": 3, "pear": 4}\n\n\ndef price_of(name):\n    """Price of one item."""\n'
        "    return PRICES[name]\n"
    )
    (repo / "README.md").write_text("# shop\n\nUse `Cart.add` then `Cart.total`; see `shop/cart.py`.\n")
    (repo / "docs").mkdir()
    (repo / "docs" / "prices.md").write_text("# Prices\n\n`price_of` reads `PRICES` in `shop/prices.py`.\n")
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-01-02T00:00:00", "GIT_COMMITTER_DATE": "2026-01-02T00:00:00"}
    for cmd in (
        ["git", "add", "-A"],
        ["git", "-c", "user.name=p", "-c", "user.email=p@e", "commit", "-q", "-m", "shop"],
    ):
        subprocess.run(cmd, cwd=repo, check=True, env=env)
    return []


def _field_specs(field_trees: Path) -> list[Spec]:
    """Three servers named in the "Seen in" lines of the field cases, on local data only."""
    qc, dj, ns = field_trees / "quick-context-mcp", field_trees / "djinnvim", field_trees / "nodestradamus"
    return [
        Spec(
            "pleibers/quick-context-mcp",
            qc,
            ".",
            ["-m", "main"],
            ".",
            calls=[
                ("search_repo_context", {"keywords": ["price_of"], "directory": "{repo}"}),
                ("search_repo_context", {"keywords": ["Cart"], "directory": "{repo}", "output_mode": "full"}),
                ("search_focused_context", {"keywords": ["total"], "directory": "{repo}"}),
                ("search_repo_context", {"keywords": ["x"], "directory": "/nonexistent"}),
                ("search_repo_context", {"keywords": "not a list", "directory": "{repo}"}),
                ("nope", {}),
            ],
            setup=_sample_project,
            env={"QUICK_SEARCH_LOG_LEVEL": "ERROR"},
        ),
        Spec(
            "anschnapp/djinnvim",
            dj,
            ".",
            ["-m", "djinnvim"],
            "src",
            calls=[
                ("open", {"path": "{repo}/shop/prices.py"}),
                ("print", {"command": "1,3p"}),
                ("motion", {"command": "/price_of"}),
                ("matches", {"pattern": "PRICES"}),
                ("open", {"path": "/nonexistent/x.py"}),
                ("nope", {}),
            ],
            setup=_sample_project,
            env={"HOME": "{tmp}", "DJINNVIM_ROOT": "{repo}"},
        ),
        Spec(
            "ChristosGrigoras/nodestradamus",
            ns,
            "nodestradamus",
            ["-c", "from nodestradamus.mcp.server import run_server; run_server()"],
            ".",
            calls=[
                ("project_scout", {"repo_path": "{repo}"}),
                ("analyze_deps", {"repo_path": "{repo}"}),
                ("analyze_docs", {"repo_path": "{repo}"}),
                ("get_impact", {"repo_path": "{repo}", "file_path": "shop/prices.py"}),
                ("project_scout", {"repo_path": "/nonexistent"}),
                ("project_scout", {}),
                ("nope", {}),
            ],
            setup=_sample_project,
            # the server lists some results in set order: one hash seed for every run
            env={"HOME": "{tmp}", "XDG_CACHE_HOME": "{tmp}/cache", "PYTHONHASHSEED": "0"},
        ),
    ]


def _duckdb(tmp: Path) -> list[str]:
    return ["--db-path", str(tmp / "shop.duckdb")]


def _survey_specs(trees: Path) -> list[Spec]:
    """More servers named in the "Seen in" lines of the field cases (issue 24's survey), each a
    ``git archive`` of its repository in ``trees/<repository name>``, on local data only (the web
    search servers answer without network: their error texts are compared)."""
    return [
        Spec(
            "LinkupPlatform/python-mcp-server",
            trees / "python-mcp-server",
            ".",
            ["-m", "mcp_search_linkup.server"],
            "src",
            calls=[("search-web", {"query": "mcp"}), ("search-web", {}), ("nope", {})],
            env={"LINKUP_API_KEY": "", "HOME": "{tmp}"},
        ),
        Spec(
            "hesreallyhim/mcp-observer-server",
            trees / "mcp-observer-server",
            ".",
            ["-m", "mcp_observer_server.server"],
            "src",
            calls=[
                ("list_watched", {}),
                ("subscribe", {"path": "{repo}/a.txt"}),
                ("list_watched", {}),
                ("unsubscribe", {"path": "{repo}/a.txt"}),
                ("subscribe", {}),
                ("nope", {}),
            ],
            prompts=[("file_changes", {"path": "{repo}/a.txt"})],
            setup=_sample_project,
        ),
        Spec(
            "tumf/mcp-text-editor",
            trees / "mcp-text-editor",
            ".",
            # its own `main()` awaits the synchronous `app.run()` inside `asyncio.run` and dies with
            # "Already running asyncio in this thread" on mcp 1.27 too: run the server object
            ["-c", "from mcp_text_editor.server import app; app.run()"],
            "src",
            calls=[
                ("get_text_file_contents", {"path": "{repo}/shop/prices.py"}),
                ("get_text_file_contents", {"path": "/nonexistent/x.py"}),
                ("create_text_file", {"path": "{repo}/new.txt"}),
                ("nope", {}),
            ],
            setup=_sample_project,
        ),
        Spec(
            "ktanaka101/mcp-server-duckdb",
            trees / "mcp-server-duckdb",
            ".",
            ["-c", "from mcp_server_duckdb import main; main()"],
            "src",
            calls=[
                ("query", {"query": "SELECT 1 + 1 AS two"}),
                ("query", {"query": "CREATE TABLE IF NOT EXISTS t (x INTEGER)"}),
                ("query", {"query": "SELECT * FROM nope"}),
                ("query", {}),
                ("nope", {}),
            ],
            prompts=[("duckdb-initial-prompt", {})],
            setup=_duckdb,
        ),
        Spec(
            "nickclyde/duckduckgo-mcp-server",
            trees / "duckduckgo-mcp-server",
            ".",
            ["-m", "duckduckgo_mcp_server.server"],
            "src",
            calls=[("fetch_content", {"url": "http://127.0.0.1:9/x"}), ("nope", {})],
        ),
        Spec(
            "haris-musa/excel-mcp-server",
            trees / "excel-mcp-server",
            ".",
            ["-c", "from excel_mcp.server import run_stdio; run_stdio()"],
            "src",
            calls=[
                ("create_workbook", {"filepath": "{repo}/a.xlsx"}),
                ("write_data_to_excel", {"filepath": "{repo}/a.xlsx", "sheet_name": "Sheet", "data": [[1, 2], [3, 4]]}),
                (
                    "apply_formula",
                    {"filepath": "{repo}/a.xlsx", "sheet_name": "Sheet", "cell": "C1", "formula": "=A1+B1"},
                ),
                ("read_data_from_excel", {"filepath": "{repo}/a.xlsx", "sheet_name": "Sheet"}),
                ("read_data_from_excel", {"filepath": "/nonexistent/b.xlsx", "sheet_name": "Sheet"}),
                ("nope", {}),
            ],
            setup=_sample_project,
            env={"HOME": "{tmp}"},
        ),
        Spec(
            # its tools' errors leave through an error-handling decorator of another module
            # (`handle_mcp_tool_errors`): the field's MCP510 case
            "johnhuang316/code-index-mcp",
            trees / "code-index-mcp",
            ".",
            ["-m", "code_index_mcp", "--indexer-path", "{tmp}/index"],
            "src",
            calls=[
                ("set_project_path", {"path": "{repo}"}),
                ("find_files", {"pattern": "*.py"}),
                ("get_file_summary", {"file_path": "shop/cart.py"}),
                ("get_file_summary", {"file_path": "shop/nope.py"}),
                ("set_project_path", {"path": "/nonexistent"}),
                ("nope", {}),
            ],
            setup=_sample_project,
            env={"HOME": "{tmp}", "FILE_WATCHER_ENABLED": "false"},
        ),
    ]


def _specs(real: Path, examples: Path) -> list[Spec]:
    servers = real / "src"
    snip = examples / "snippets" / "servers"
    out = [
        Spec(
            "servers/time",
            servers / "time",
            "src",
            ["-m", "mcp_server_time", "--local-timezone", "UTC"],
            "src",
            calls=[
                ("get_current_time", {"timezone": "Europe/Paris"}),
                ("convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}),
                ("convert_time", {"source_timezone": "Nowhere/City", "time": "12:00", "target_timezone": "UTC"}),
                ("get_current_time", {}),
                ("nope", {}),
            ],
        ),
        Spec(
            "servers/git",
            servers / "git",
            "src",
            ["-m", "mcp_server_git"],
            "src",
            calls=[
                ("git_status", {"repo_path": "{repo}"}),
                ("git_log", {"repo_path": "{repo}", "max_count": 1}),
                ("git_branch", {"repo_path": "{repo}", "branch_type": "local"}),
                ("git_status", {"repo_path": "/nonexistent"}),
                ("git_status", {}),
            ],
            setup=_git_repo,
        ),
        Spec(
            "servers/fetch",
            servers / "fetch",
            "src",
            ["-m", "mcp_server_fetch", "--ignore-robots-txt"],
            "src",
            calls=[("fetch", {}), ("fetch", {"url": "not a url"}), ("fetch", {"url": "http://127.0.0.1:9/x"})],
            prompts=[("fetch", {})],
        ),
    ]
    out.append(
        Spec(
            "python-sdk v1.27.0 servers/simple-resource",
            examples / "servers" / "simple-resource",
            "mcp_simple_resource",
            ["-m", "mcp_simple_resource", "--transport", "stdio"],
            ".",
            resources=["file:///greeting.txt", "file:///help.txt", "file:///nope.txt"],
        )
    )
    out.append(
        Spec(
            "python-sdk v1.27.0 snippets/servers/basic_resource.py",
            snip,
            "basic_resource.py",
            ["{file}", "mcp"],
            resources=["file://documents/readme", "config://settings", "config://nope"],
        )
    )
    for rel, server, calls, prompts in (
        (
            "basic_tool.py",
            "mcp",
            [("sum", {"a": 1, "b": 2}), ("get_weather", {"city": "Paris"}), ("sum", {"a": "x"})],
            [],
        ),
        (
            "structured_output.py",
            "mcp",
            [("get_weather", {"city": "Paris"}), ("get_statistics", {"data_type": "x"}), ("list_cities", {})],
            [],
        ),
        (
            "tool_errors.py",
            "mcp",
            [("divide", {"a": 1, "b": 0}), ("read_config", {"path": "/nonexistent"}), ("validate_input", {"data": ""})],
            [],
        ),
        ("basic_prompt.py", "mcp", [], [("review_code", {"code": "x = 1"}), ("debug_error", {"error": "boom"})]),
        ("lowlevel/basic.py", "__main__", [], [("example-prompt", {"arg1": "v"}), ("other", {})]),
        ("lowlevel/structured_output.py", "__main__", [("get_weather", {"city": "Paris"})], []),
        (
            "lowlevel/direct_call_tool_result.py",
            "__main__",
            [("advanced_tool", {"message": "hi"}), ("advanced_tool", {}), ("other", {"message": "x"})],
            [],
        ),
    ):
        out.append(
            Spec(
                f"python-sdk v1.27.0 snippets/servers/{rel}",
                snip,
                rel,
                ["{file}", server],
                calls=calls,
                prompts=prompts,
            )
        )
    return out


async def _drive(
    python: str, argv: list[str], env: dict[str, str], cwd: Path, mode: str, spec: Spec, subs: dict
) -> dict:
    """One connection, observed by mcpmigrate verify's driver (every listing, the calls, the
    prompts and the resources of ``spec``), normalised with ``subs`` (placeholder → value)."""
    run = Run(
        command=[python, *argv],
        env=env,
        cwd=str(cwd),
        mode=mode,
        stderr=cwd.parent / f"{cwd.name}-{mode}.stderr",
        calls=[{"tool": t, "arguments": json.loads(_subst(json.dumps(a), subs))} for t, a in spec.calls],
        prompts=[{"prompt": p, "arguments": a} for p, a in spec.prompts],
        resources=list(spec.resources),
        subs={v: "{" + k + "}" for k, v in subs.items()},
        start_timeout=60,
        call_timeout=60,
    )
    return await observe(run)


def _subst(text: str, subs: dict[str, str]) -> str:
    for k, v in subs.items():
        text = text.replace("{" + k + "}", v)
    return text


def _norm(value: Any, subs: dict[str, str]) -> Any:
    """verify's normalisation (serverInfo stamp, clock readings, temporary paths), with ``subs``
    (placeholder → value) put back as placeholders."""
    return normalize(value, {v: "{" + k + "}" for k, v in subs.items()})


def _fix(copy: Path, target: str, more: list[str] | None = None) -> dict[str, Any]:
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "mcpmigrate",
            "fix",
            "--target-sdk",
            "mcp2",
            "--output-format",
            "json",
            *(more or []),
            target,
        ],
        cwd=copy,
        capture_output=True,
        text=True,
        env={**os.environ, "MCPMIGRATE_NO_CACHE": "1"},
    )
    try:
        doc = json.loads(res.stdout)
    except ValueError:
        return {"fixed": [], "findings": [], "errors": [{"message": res.stderr.strip()[-300:]}]}
    return doc


def prove(spec: Spec, legacy: str, mcp2: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="port-proof-") as tmp_s:
        tmp = Path(tmp_s)
        before, after = tmp / "before", tmp / "after"
        shutil.copytree(spec.tree, before, ignore=shutil.ignore_patterns(".venv", "__pycache__", "uv.lock"))
        shutil.copytree(before, after)
        report = _fix(after, spec.target, spec.fix_args)
        extra = spec.setup(tmp) if spec.setup else []
        subs = {"repo": str(tmp / "repo")}
        rows: dict[str, Any] = {}
        for label, root, python, mode in (
            ("mcp1 legacy", before, legacy, "legacy"),
            ("mcp2 legacy", after, mcp2, "legacy"),
            ("mcp2 2026-07-28", after, mcp2, MODERN),
        ):
            argv = [a.replace("{file}", str(root / spec.target)).replace("{tmp}", tmp_s) for a in spec.module] + extra
            if argv[0] not in ("-m", "-c"):
                argv = ["-c", LAUNCH, *argv]
            env = {**os.environ, "PYTHONPATH": str(root / spec.pythonpath) if spec.pythonpath else ""}
            env |= {k: v.replace("{tmp}", tmp_s).replace("{repo}", subs["repo"]) for k, v in spec.env.items()}
            rows[label] = anyio.run(_drive, python, argv, env, root, mode, spec, subs)
    base = rows["mcp1 legacy"]
    compared = ("tools", "resources", "resource_templates", "prompts", "calls", "prompt_answers", "resource_answers")
    same = {
        label: base["error"] is None
        and rows[label]["error"] is None
        and all(rows[label][k] == base[k] for k in compared)
        for label in ("mcp2 legacy", "mcp2 2026-07-28")
    }
    return {"name": spec.name, "report": report, "rows": rows, "same": same}


def _summary(result: dict[str, Any]) -> tuple[str, str]:
    rep = result["report"]
    fixed: dict[str, int] = {}
    for f in rep.get("fixed", []):
        fixed[f["rule"]] = fixed.get(f["rule"], 0) + 1
    ported = ", ".join(f"{r}×{n}" for r, n in sorted(fixed.items())) or "—"
    # grouped by rule and reason: `MCP601 server.py:231, 232 (a handle has to be designed by hand…)`
    groups: dict[tuple[str, str, str], list[str]] = {}
    for f in rep.get("findings", []):
        if f["rule"].startswith("MCP5") or f["rule"] == "MCP601":  # MCP601: what a per-request session changes
            why = f.get("manual") or "fix not applied"
            why = why if len(why) <= 90 else why[:89] + "…"
            groups.setdefault((f["rule"], f["path"].split("/")[-1], why), []).append(str(f["line"]))
    left = [f"{rule} {path}:{', '.join(lines)} ({why})" for (rule, path, why), lines in groups.items()]
    left += [e["message"] for e in rep.get("errors", [])]
    return ported, "; ".join(left) or "—"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=Path("/work/real/servers"))
    ap.add_argument("--examples", type=Path, default=Path("/tmp/port-ex/examples"))
    ap.add_argument("--legacy-python", required=True)
    ap.add_argument("--mcp2-python", required=True)
    ap.add_argument("--field", type=Path, default=None, help="the field servers' trees (see the docstring)")
    ap.add_argument("--survey", type=Path, default=None, help="the survey servers' trees (_survey_specs)")
    ap.add_argument("--only", default=None, help="run the servers whose name contains this")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--dump", type=Path, default=None, help="write each server's answers (JSON) into this directory")
    args = ap.parse_args()
    print(
        "| server | ported automatically | left manual (reason) | tools+calls identical, mcp2 legacy | … 2026-07-28 |"
    )
    print("|---|---|---|---|---|")
    if args.survey:
        specs = _survey_specs(args.survey)
    else:
        specs = _field_specs(args.field) if args.field else _specs(args.real, args.examples)
    for spec in specs:
        if args.only and args.only not in spec.name:
            continue
        res = prove(spec, args.legacy_python, args.mcp2_python)
        ported, left = _summary(res)
        cells = []
        for label in ("mcp2 legacy", "mcp2 2026-07-28"):
            row = res["rows"][label]
            cells.append("yes" if res["same"][label] else f"no ({row['error'] or 'differs'})")
        print(f"| {spec.name} | {ported} | {left} | {cells[0]} | {cells[1]} |", flush=True)
        if args.verbose:
            print(json.dumps(res["rows"], indent=1, sort_keys=True), file=sys.stderr)
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            out = args.dump / (re.sub(r"[^\w.-]+", "_", spec.name) + ".json")
            out.write_text(json.dumps(res, indent=1, sort_keys=True, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # the report is out: leave without the interpreter's shutdown, which tears down the SDK's
    # threads and can die in it after a complete run (tests/proof/leave.py)
    os._exit(status)

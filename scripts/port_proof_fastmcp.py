"""Proof by execution of ``mcpmigrate fix --target-sdk fastmcp4`` on real fastmcp 2/3 servers.

For each server: copy its tree to a temporary directory, port the copy with
``mcpmigrate fix --target-sdk fastmcp4``, then run the original on its own fastmcp 2/3 venv (a
legacy connection: the only era it serves) and the port on a fastmcp 4 venv (a legacy and a
2026-07-28 connection) over stdio, with this interpreter's mcp 2.x ``Client`` driving each — the
same client for every run, answering elicitation and sampling requests with fixed values — and
compare ``tools/list`` and the results of the same calls. Prints one table row per server: what
was ported automatically, what was left (and why), and whether tools and calls are identical in
each era. ``--unported`` adds the unmodified tree on fastmcp 4 (what the port has to fix).

The servers (named in the "Seen in" lines of the field cases; nothing of their trees is stored
in this repository):

- apelogic-ai/db-mcp ``packages/core`` (fastmcp 2.14), served on a SQLite file made here;
- awslabs/mcp ``src/aws-api-mcp-server`` (fastmcp 3.4), with botocore's endpoint on a closed
  loopback port so that no command leaves the machine, and the read-only-operations index built
  from the packaged metadata instead of the network (``main()`` otherwise fetches it).

Each needs two Pythons: its own dependencies with its fastmcp 2/3 pin (the versions of its
uv.lock), and the same with fastmcp 4.2.3 (which brings mcp 2.3; db-mcp also needs FastAPI >= 0.133
there, and an unpinned OpenTelemetry). The server is imported from the copied tree
(``PYTHONPATH``), never from the venv. ``--mcpmigrate`` names the mcpmigrate to port with (its
``fix --help`` must offer ``fastmcp4``); ``--strategy interim`` makes it the one run that also
applies the interim fixes; ``--dbmcp-hand-port``/``--awsapi-hand-port`` run a tree ported by hand
instead (what the port should produce).

    python scripts/port_proof_fastmcp.py --mcpmigrate "/tmp/fm4-venv/bin/python -m mcpmigrate" \\
        --dbmcp-tree /work/real/db-mcp/packages/core \\
        --dbmcp-python /tmp/venv-dbmcp-fm2/bin/python --dbmcp-fm4-python /tmp/venv-dbmcp-fm4/bin/python \\
        --awsapi-tree /work/real/mcp/src/aws-api-mcp-server \\
        --awsapi-python /tmp/venv-awsapi-fm3/bin/python --awsapi-fm4-python /tmp/venv-awsapi-fm4/bin/python
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import anyio

from mcpmigrate.verify.driver import elicit_content, last_exception, sampling_result

_spec = importlib.util.spec_from_file_location("port_proof", Path(__file__).with_name("port_proof.py"))
assert _spec and _spec.loader
port_proof = sys.modules.setdefault("port_proof", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(port_proof)

MODERN = port_proof.MODERN
TARGET = "fastmcp4"
# Values that change between two runs of the same server, beyond port_proof.VOLATILE: SigV4
# signing (presigned URLs, auth tokens), generated ids, timings.
VOLATILE = [
    (re.compile(r"X-Amz-(Date|Signature|Credential|Security-Token)=[^&\"\\\s]+"), r"X-Amz-\1=<v>"),
    (re.compile(r"\b(Signature|Expires)=[^&\"\\\s]+"), r"\1=<v>"),
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<uuid>"),
    (re.compile(r'(\\*"(?:duration_ms|elapsed_ms|execution_time_ms)\\*"):\s*[0-9.]+'), r"\1: 0"),
    (re.compile(r"\bquery_[0-9a-f]{8}_\d{8}_\d{6}\b"), "query_<id>"),
    (re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?"), "<datetime>"),
]
TMP_PATH = re.compile(r"/tmp/[^\s\"'\\]+")
SAMPLING_REPLY = "Hello from the proof client."


@dataclass
class Spec:
    name: str
    tree: Path  # copied, then ported
    target: str  # what `fix` is run on, relative to the copy
    pythonpath: str  # relative to the copy
    argv: list[str]  # after the interpreter
    old: str  # the fastmcp 2/3 Python
    fm4: str  # the fastmcp 4 Python
    env: Callable[[Path], dict[str, str]] = lambda state: {}  # extra environment for a run
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    elicit: Literal["accept", "decline", "cancel"] = "accept"  # what the client answers an elicitation request with
    hand: Path | None = None  # a port made by hand, run instead of `fix` (what the port should produce)


def norm(value: Any, subs: dict[str, str]) -> Any:
    """port_proof's normalisation (serverInfo stamp, substitutions, clock readings) plus this
    script's volatile values; temporary paths first, so that port_proof's path pattern never
    meets the backslash of an escaped quote in JSON text inside a result."""
    text = json.dumps(value, sort_keys=True)
    for k, v in subs.items():
        text = text.replace(v, "{" + k + "}")
    text = TMP_PATH.sub("<tmp>", text)
    text = json.dumps(port_proof._norm(json.loads(text), subs), sort_keys=True)
    for rx, repl in VOLATILE:
        text = rx.sub(repl, text)
    return json.loads(text)


def find_key(value: Any, key: str) -> Any:
    """The first value of ``key`` in a result: in nested objects, or in JSON text inside a string."""
    if isinstance(value, dict):
        if key in value:
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = find_key(item, key)
            if found is not None:
                return found
    if isinstance(value, str):
        m = re.search(r'"' + re.escape(key) + r'":\s*"([^"]*)"', value)
        return m[1] if m else None
    return None


def chain(arguments: dict[str, Any], earlier: list[Any]) -> dict[str, Any]:
    """Arguments taken from an earlier call's result: ``"$N.key"`` is the ``key`` call N returned."""
    out = {}
    for name, value in arguments.items():
        m = re.fullmatch(r"\$(\d+)\.(\w+)", value) if isinstance(value, str) else None
        out[name] = find_key(earlier[int(m[1])], m[2]) if m else value
    return out


def tool_rows(tools: list[Any]) -> list[str]:
    return sorted(
        json.dumps(t.model_dump(mode="json", by_alias=True, exclude_none=True), sort_keys=True) for t in tools
    )


# Runs the server (``-m module`` or ``-c code``) with its stderr in a file, so that a server that
# dies can be told by its last exception line.
LAUNCH = (
    "import os, runpy, sys\n"
    "os.dup2(os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND), 2)\n"
    "how, what = sys.argv[2], sys.argv[3]\n"
    "sys.argv = [what]\n"
    "if how == '-m':\n    runpy.run_module(what, run_name='__main__', alter_sys=True)\n"
    "else:\n    exec(compile(what, '<launch>', 'exec'), {'__name__': '__main__'})\n"
)


async def _drive(
    python: str, spec: Spec, root: Path, env: dict[str, str], mode: str, subs: dict[str, str], log: Path
) -> dict:
    import mcp.types as types
    from mcp import Client, StdioServerParameters

    async def on_elicit(context: Any, params: Any) -> Any:
        if spec.elicit != "accept":
            return types.ElicitResult(action=spec.elicit)
        return types.ElicitResult(action="accept", content=elicit_content(params.requested_schema))

    async def on_sample(context: Any, params: Any) -> Any:
        return sampling_result(SAMPLING_REPLY, "proof-model")

    logs: list[dict[str, Any]] = []  # the log notifications of the call in flight

    async def on_log(params: Any) -> None:
        logs.append({"level": params.level, "data": params.data})

    params = StdioServerParameters(command=python, args=["-c", LAUNCH, str(log), *spec.argv], env=env, cwd=str(root))
    out: dict[str, Any] = {"tools": None, "calls": [], "error": None}
    try:
        with anyio.fail_after(300):
            async with Client(
                params,
                mode=mode,
                elicitation_callback=on_elicit,
                sampling_callback=on_sample,
                logging_callback=on_log,
                log_level="debug",  # the opt-in to log messages on 2026-07-28; none on a legacy connection
            ) as c:
                out["tools"] = norm(tool_rows((await c.list_tools()).tools), subs)
                raw: list[Any] = []
                for tool, arguments in spec.calls:
                    args = chain(json.loads(port_proof._subst(json.dumps(arguments), subs)), raw)
                    raw.append(None)
                    logs.clear()
                    try:
                        r = await c.call_tool(tool, args)
                        raw[-1] = [r.structured_content, [getattr(x, "text", None) for x in r.content]]
                        content = [x.model_dump(mode="json", by_alias=True, exclude_none=True) for x in r.content]
                        result = {
                            "is_error": bool(r.is_error),
                            "content": content,
                            "structured": r.structured_content,
                            "logs": list(logs),
                        }
                        out["calls"].append(norm(result, subs))
                    except Exception as exc:  # a JSON-RPC error: compared by message
                        out["calls"].append({"error": norm(str(exc), subs), "logs": norm(list(logs), subs)})
    except Exception as exc:
        died = last_exception(log.read_text(errors="replace")) if log.exists() else None
        out["error"] = f"server: {died}" if died else f"{type(exc).__name__}: {exc}"
    return out


def knows_target(mcpmigrate: list[str]) -> str | None:
    """None when ``mcpmigrate fix`` accepts ``--target-sdk fastmcp4``, else why not."""
    # run outside any checkout: `python -m mcpmigrate` would import a package in the working directory
    res = subprocess.run([*mcpmigrate, "fix", "--help"], capture_output=True, text=True, cwd=tempfile.gettempdir())
    if res.returncode != 0:
        return f"`{' '.join(mcpmigrate)} fix --help` failed: {res.stderr.strip()[-200:]}"
    if TARGET not in res.stdout:
        return f"the installed mcpmigrate ({' '.join(mcpmigrate)}) does not know `fix --target-sdk {TARGET}`"
    return None


def port(mcpmigrate: list[str], copy: Path, target: str, extra: list[str]) -> dict[str, Any]:
    """``fix --target-sdk fastmcp4`` on the copy, with ``extra`` options (``--strategy interim``: the
    one run that also applies the interim fixes to the ported code); its JSON report."""
    res = subprocess.run(
        [*mcpmigrate, "fix", "--target-sdk", TARGET, *extra, "--output-format", "json", target],
        cwd=copy,
        capture_output=True,
        text=True,
        env={**os.environ, "MCPMIGRATE_NO_CACHE": "1"},
    )
    try:
        return dict(json.loads(res.stdout))
    except ValueError:
        return {"fixed": [], "findings": [], "errors": [{"message": res.stderr.strip()[-300:]}]}


def identical(base: dict, row: dict) -> bool:
    return (
        base["error"] is None
        and row["error"] is None
        and (row["tools"], row["calls"]) == (base["tools"], base["calls"])
    )


# What fastmcp 3 changed in how any server is served, whatever its code (so no port can keep it):
# the tool metadata namespace (`_fastmcp` -> `fastmcp`, docs/getting-started/upgrading/
# from-fastmcp-2.mdx "Metadata namespace renamed"), and, not in that guide, docstring `Args:`
# sections moved into the input schema's property descriptions, a derived `title`,
# `additionalProperties: false` on input schemas, a returned `CallToolResult` passed through instead
# of serialised into one text block, and the quoted name in "Unknown tool". The second comparison
# sets exactly these aside.
def tool_shape(row: str) -> dict[str, Any]:
    """A listed tool without its rendering: name, argument names/types/defaults, required, output schema, annotations."""
    tool = json.loads(row)
    schema = tool.get("inputSchema") or {}
    props = {
        name: {k: v for k, v in prop.items() if k != "description"}
        for name, prop in (schema.get("properties") or {}).items()
    }
    output = tool.get("outputSchema")
    if isinstance(output, dict) and output.get("x-fastmcp-wrap-result"):
        output = {k: v for k, v in output.items() if k != "description"}  # fastmcp 2's wrapper description
    return {
        "name": tool.get("name"),
        "properties": props,
        "required": sorted(schema.get("required") or []),
        "outputSchema": output,
        "annotations": tool.get("annotations"),
    }


def unwrap(call: dict[str, Any]) -> dict[str, Any]:
    """A call result as fastmcp 3+ returns it: a ``CallToolResult`` that fastmcp 2 serialised into
    a single text block becomes the result itself; "Unknown tool: 'x'" reads "Unknown tool: x"."""
    content = call.get("content") or []
    if len(content) == 1 and content[0].get("type") == "text":
        try:
            inner = json.loads(content[0]["text"])
        except ValueError:
            inner = None
        if isinstance(inner, dict) and "content" in inner and {"isError", "structuredContent"} & inner.keys():
            call = {
                "is_error": bool(inner.get("isError")),
                "content": [{k: v for k, v in c.items() if v is not None} for c in inner["content"]],
                "structured": inner.get("structuredContent"),
                **({"logs": call["logs"]} if "logs" in call else {}),
            }
    return json.loads(re.sub(r"Unknown tool: '([^'\\]*)'", r"Unknown tool: \1", json.dumps(call, sort_keys=True)))


def shape_differences(base: dict, row: dict, spec: Spec) -> list[str]:
    """What still differs once fastmcp 3's rendering changes are set aside (see tool_shape, unwrap)."""
    if row["error"] or not isinstance(row["tools"], list):
        return [f"run: {(row['error'] or 'no tools')[:200]}"]
    shapes = [{str(t["name"]): t for t in map(tool_shape, r["tools"])} for r in (base, row)]
    out = [_named("tools/list", shapes[0], shapes[1])] if shapes[0] != shapes[1] else []
    for i, (a, b) in enumerate(zip(base["calls"], row["calls"])):
        out += _call_difference(i, spec, unwrap(a), unwrap(b))
    return out


def differences(base: dict, row: dict, spec: Spec) -> list[str]:
    """Which parts of a run differ from the original's: the run error, tools/list, each call by index."""
    if row["error"]:
        return [f"run: {row['error'][:200]}"]
    out = []
    if row["tools"] != base["tools"]:
        named = [{str(json.loads(t).get("name")): t for t in r["tools"]} for r in (base, row)]
        out.append(_named("tools/list", named[0], named[1]))
    for i, (a, b) in enumerate(zip(base["calls"], row["calls"])):
        out += _call_difference(i, spec, a, b)
    return out


def _named(what: str, a: dict[str, Any], b: dict[str, Any]) -> str:
    """``what (tool, tool, …)``: the tools missing on one side or listed differently."""
    names = sorted(n for n in a.keys() | b.keys() if a.get(n) != b.get(n))
    shown = ", ".join(names[:4]) + (f", … {len(names)} in all" if len(names) > 4 else "")
    return f"{what} ({shown})"


def _call_difference(i: int, spec: Spec, a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """``call N tool`` when call N differs; ``(log messages only)`` when only its log notifications do."""
    if a == b:
        return []
    only_logs = {k: v for k, v in a.items() if k != "logs"} == {k: v for k, v in b.items() if k != "logs"}
    return [f"call {i} {spec.calls[i][0]}" + (" (log messages only)" if only_logs else "")]


def prove(spec: Spec, mcpmigrate: list[str] | None, unported: bool, fix_args: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="port-proof-fm-") as tmp_s:
        tmp = Path(tmp_s)
        before, after = tmp / "before", tmp / "after"
        skip = shutil.ignore_patterns(".venv", "__pycache__", "uv.lock", "tests", ".git")
        shutil.copytree(spec.tree, before, ignore=skip)
        shutil.copytree(spec.hand or before, after, ignore=skip)
        report = (
            {"hand": str(spec.hand)}
            if spec.hand
            else port(mcpmigrate, after, spec.target, fix_args)
            if mcpmigrate
            else None
        )
        runs = [("original", before, spec.old, "legacy")]
        if unported:
            runs += [
                ("fm4 unported legacy", before, spec.fm4, "legacy"),
                ("fm4 unported 2026-07-28", before, spec.fm4, MODERN),
            ]
        if report is not None:
            runs += [("fm4 legacy", after, spec.fm4, "legacy"), ("fm4 2026-07-28", after, spec.fm4, MODERN)]
        rows: dict[str, Any] = {}
        for label, root, python, mode in runs:
            state = tmp / "state" / label.replace(" ", "-")  # fresh data for each run
            state.mkdir(parents=True)
            env = {"PATH": os.environ.get("PATH", ""), "HOME": str(state / "home"), "PYTHONWARNINGS": "ignore"}
            env |= spec.env(state) | {"PYTHONPATH": str(root / spec.pythonpath)}
            (state / "home").mkdir(exist_ok=True)
            subs = {"state": str(state), "root": str(root)}
            rows[label] = anyio.run(_drive, python, spec, root, env, mode, subs, state / "stderr.log")
    base = rows["original"]
    return {
        "name": spec.name,
        "report": report,
        "rows": rows,
        "same": {k: identical(base, v) for k, v in rows.items() if k != "original"},
        "diff": {k: differences(base, v, spec) for k, v in rows.items() if k != "original"},
        "shape": {k: shape_differences(base, v, spec) for k, v in rows.items() if k != "original"},
    }


def _dbmcp_env(state: Path) -> dict[str, str]:
    db = state / "shop.db"
    with sqlite3.connect(db) as sql:
        sql.executescript(
            "create table customers(id integer primary key, name text not null, city text);"
            "create table orders(id integer primary key, customer_id integer references customers(id),"
            " total real, placed text);"
            "insert into customers values (1,'Ada','Paris'),(2,'Linus','Helsinki'),(3,'Grace','New York');"
            "insert into orders values (10,1,12.5,'2026-01-02'),(11,1,7.25,'2026-01-05'),(12,3,99.0,'2026-02-01');"
        )
    conn = state / "home" / ".db-mcp" / "connections" / "default"  # where the tools look for connection "default"
    conn.mkdir(parents=True)
    (conn / ".env").write_text(f"DATABASE_URL=sqlite:///{db}\n")  # makes it a registered connection
    return {"DATABASE_URL": f"sqlite:///{db}", "CONNECTION_PATH": str(conn), "LOG_LEVEL": "WARNING"}


def _awsapi_env(state: Path) -> dict[str, str]:
    work = state / "work"
    work.mkdir()
    return {
        "AWS_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "AKIAPROOFPROOFPROOF0",
        "AWS_SECRET_ACCESS_KEY": "proof/proof/proof/proof/proof/proof/proof",
        # every AWS call goes to a closed loopback port: nothing leaves the machine
        "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
        "ENDPOINT_SUGGEST_AWS_COMMANDS": "http://127.0.0.1:9/suggest",
        "AWS_MAX_ATTEMPTS": "1",
        "AWS_API_MCP_WORKING_DIR": str(work),
        "REQUIRE_MUTATION_CONSENT": "true",
        "EXPERIMENTAL_AGENT_SCRIPTS": "true",
        "FASTMCP_LOG_LEVEL": "ERROR",
    }


# main() of the aws-api server, with the read-only-operations index from the packaged metadata
# (an empty service-reference map) instead of the network.
AWSAPI_LAUNCH = (
    "import awslabs.aws_api_mcp_server.server as s\n"
    "from awslabs.aws_api_mcp_server.core.metadata.read_only_operations_list import ReadOnlyOperations\n"
    "s.get_read_only_operations = lambda: ReadOnlyOperations({})\n"
    "s.main()\n"
)


def specs(args: argparse.Namespace) -> list[Spec]:
    out = []
    if args.dbmcp_tree:
        conn = {"connection": "default"}
        out.append(
            Spec(
                "apelogic-ai/db-mcp packages/core (fastmcp 2.14)",
                args.dbmcp_tree,
                "src",
                "src",
                ["-m", "db_mcp.server"],
                args.dbmcp_python,
                args.dbmcp_fm4_python,
                _dbmcp_env,
                calls=[
                    ("ping", {}),
                    ("list_connections", {}),
                    ("list_tables", conn),
                    ("describe_table", {"table_name": "orders", **conn}),
                    ("sample_table", {"table_name": "customers", "limit": 2, **conn}),
                    ("validate_sql", {"sql": "select name, city from customers order by id", **conn}),
                    ("run_sql", {"query_id": "$5.query_id", **conn}),
                    (
                        "run_sql",
                        {
                            "sql": "select c.name, sum(o.total) from orders o join customers c on c.id = o.customer_id group by c.name order by c.name",
                            **conn,
                        },
                    ),
                    ("shell", {"command": "ls", **conn}),
                    ("describe_table", {"table_name": "nope", **conn}),
                    ("test_elicitation", {"message": "Ship the report?"}),
                    ("test_sampling", {"prompt": "Say hello"}),
                    ("nope", {}),
                ],
                hand=args.dbmcp_hand_port,
            )
        )
    if args.awsapi_tree:
        out.append(
            Spec(
                "awslabs/mcp src/aws-api-mcp-server (fastmcp 3.4)",
                args.awsapi_tree,
                "awslabs",
                ".",
                ["-c", AWSAPI_LAUNCH],
                args.awsapi_python,
                args.awsapi_fm4_python,
                _awsapi_env,
                calls=[
                    ("call_aws", {"cli_command": "aws s3api get-object --bucket b"}),
                    ("call_aws", {"cli_command": "aws notaservice do-thing"}),
                    ("call_aws", {"cli_command": "aws s3 presign s3://proof-bucket/key.txt --expires-in 60"}),
                    (
                        "call_aws",
                        {"cli_command": ["aws s3 presign s3://proof-bucket/a", "aws sts get-caller-identity --foo"]},
                    ),
                    ("call_aws", {"cli_command": "aws s3api list-buckets"}),
                    ("call_aws", {"cli_command": "aws s3api create-bucket --bucket proof-bucket"}),
                    ("suggest_aws_commands", {"query": "   "}),
                    ("suggest_aws_commands", {"query": "list my buckets"}),
                    ("get_execution_plan", {"script_name": "application-failure-troubleshooting"}),
                    ("get_execution_plan", {"script_name": "nope"}),
                    ("nope", {}),
                ],
                elicit="decline",
                hand=args.awsapi_hand_port,
            )
        )
    return out


def summary(result: dict[str, Any]) -> tuple[str, str]:
    if result["report"] is None:
        return "— (port not run)", "—"
    if "hand" in result["report"]:
        return f"— (hand port {result['report']['hand']})", "—"
    ported, left = port_proof._summary(result)
    return ported, left


# The sites that ask the client (rules/MCP101.toml roots, MCP201.toml sampling, MCP202.toml elicitation).
SITE_RULES = {"MCP101": "roots", "MCP201": "sampling", "MCP202": "elicitation"}


def sites(report: dict[str, Any] | None) -> str:
    """How many roots/sampling/elicitation sites the run fixed, of how many it saw."""
    if not report or "hand" in report:
        return "—"
    seen = [f for f in report.get("findings", []) + report.get("fixed", []) if f.get("rule") in SITE_RULES]
    fixed = [f for f in report.get("fixed", []) if f.get("rule") in SITE_RULES]
    kinds = sorted({SITE_RULES[f["rule"]] for f in seen})
    return f"{len(fixed)}/{len(seen)} fixed ({', '.join(kinds) or 'none'})"


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--dbmcp-tree", type=Path)
    ap.add_argument("--dbmcp-python")
    ap.add_argument("--dbmcp-fm4-python")
    ap.add_argument("--awsapi-tree", type=Path)
    ap.add_argument("--awsapi-python")
    ap.add_argument("--awsapi-fm4-python")
    ap.add_argument("--dbmcp-hand-port", type=Path, help="a tree ported by hand: run it instead of `fix`")
    ap.add_argument("--awsapi-hand-port", type=Path, help="a tree ported by hand: run it instead of `fix`")
    ap.add_argument("--mcpmigrate", default=f"{sys.executable} -m mcpmigrate", help="command that runs mcpmigrate")
    ap.add_argument("--strategy", choices=["param", "interim"], help="passed to `fix` with the port")
    ap.add_argument("--fix-args", default="", help="more options for `fix`, e.g. '--ignore MCP401'")
    ap.add_argument("--unported", action="store_true", help="also run the unmodified trees on fastmcp 4")
    ap.add_argument("--verbose", action="store_true", help="print every run's tools and results (stderr)")
    args = ap.parse_args()
    mcpmigrate: list[str] | None = args.mcpmigrate.split()
    why = knows_target(mcpmigrate or [])
    if why:
        print(f"NOTE: {why}; the port is not run.", file=sys.stderr)
        if not (args.unported or args.dbmcp_hand_port or args.awsapi_hand_port):
            print("Pass --unported to run the unmodified trees on fastmcp 4 only.", file=sys.stderr)
            return 2
        mcpmigrate = None
    print(
        "| server | ported automatically | left manual (reason) | roots/sampling/elicitation sites "
        "| run | identical to the original | same, fastmcp 3 rendering aside |"
    )
    print("|---|---|---|---|---|---|---|")
    for spec in specs(args):
        fix_args = (["--strategy", args.strategy] if args.strategy else []) + args.fix_args.split()
        res = prove(spec, mcpmigrate, args.unported, fix_args)
        ported, left = summary(res)
        for label, same in res["same"].items():
            cell = "yes" if same else "no: " + "; ".join(res["diff"][label])
            shape = "no: " + "; ".join(res["shape"][label]) if res["shape"][label] else "yes"
            row = f"| {spec.name} | {ported} | {left} | {sites(res['report'])} | {label} | {cell} | {shape} |"
            print(row, flush=True)
        if args.verbose:
            print(json.dumps({"report": res["report"], "rows": res["rows"]}, indent=1, sort_keys=True), file=sys.stderr)
    return 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # the report is out: leave without the interpreter's shutdown, which tears down the SDK's
    # threads and can die in it after a complete run (tests/proof/leave.py)
    os._exit(status)

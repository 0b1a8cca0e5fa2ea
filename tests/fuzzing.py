"""The fuzz harness shared by ``tests/test_fuzz.py`` (bounded, in CI) and ``scripts/fuzz.py``
(long runs): a generator of MCP-server-shaped programs and :func:`check_program`, which runs
``check`` and ``fix`` (both strategies, unsafe fixes on) on one program and returns what went
wrong (an empty list when nothing did).

Properties (docs/architecture.md): ``check`` never crashes (no "internal error"); a fix's output
parses and compiles; a second fix changes nothing; a file without findings is byte-identical
after ``fix``; the ``ast`` screen never skips a file the detectors report on.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from mcpmigrate.config import Config
from mcpmigrate.engine import run
from mcpmigrate.pipeline import Options, detect, screen_passes

# --- generator --------------------------------------------------------------------------------

_GENERATIONS = {
    "mcp1": [
        ("from mcp.server.fastmcp import Context, FastMCP", "FastMCP", "Context"),
        ("from mcp.server.fastmcp import Context as Ctx, FastMCP as Server", "Server", "Ctx"),
        ("import mcp.server.fastmcp as fm", "fm.FastMCP", "fm.Context"),
        ("from mcp.server.fastmcp.server import Context, FastMCP", "FastMCP", "Context"),
    ],
    "mcp2": [
        ("from mcp.server.mcpserver import Context, MCPServer", "MCPServer", "Context"),
        ("from mcp.server.mcpserver import Context as C, MCPServer", "MCPServer", "C"),
        ("from mcp.server import MCPServer\nfrom mcp.server.mcpserver.context import Context", "MCPServer", "Context"),
    ],
    "fastmcp": [
        ("from fastmcp import Context, FastMCP", "FastMCP", "Context"),
        ("import fastmcp", "fastmcp.FastMCP", "fastmcp.Context"),
        ("from fastmcp import FastMCP\nfrom fastmcp.server.context import Context as Ctx", "FastMCP", "Ctx"),
    ],
}
_TYPES_IMPORTS = [
    ("from mcp import types", "types."),
    ("import mcp.types as types", "types."),
    ("import mcp.types as mt", "mt."),
    ("from mcp.types import ClientCapabilities, Root, RootsCapability, ListRootsRequest", ""),
    ("from mcp.types import ClientCapabilities as Caps, Root as R, RootsCapability as RC", "@alias"),
]


_URIS = ['"https://a/b"', '"file:///tmp"', 'f"file://{1}"', "some_uri", 'f"{1}/x"']


def _types(t: str, name: str) -> str:
    if t == "@alias":
        return {"ClientCapabilities": "Caps", "Root": "R", "RootsCapability": "RC"}.get(name, "mcp.types." + name)
    return t + name


def _stmt(rnd: random.Random, c: str, gen: str, t: str, depth: int = 0) -> list[str]:
    """A few statements using the context ``c`` (a variable name)."""
    s = f"{c}.session" if gen != "fastmcp" or rnd.random() < 0.5 else c
    choices = [
        lambda: [f"roots = await {s}.list_roots()", "base = roots.roots[0].uri.path"],
        lambda: [f"result = await {c}.session.list_roots()", "paths = [r.uri.path for r in result.roots]"],
        lambda: [f"for root in (await {s}.list_roots()).roots:", "    print(root.uri)"],
        lambda: [f"first = (await {s}.list_roots()).roots[0]", "name = first.name or 'x'"],
        lambda: [
            f"if not {c}.session.check_client_capability({_types(t, 'ClientCapabilities')}(roots={_types(t, 'RootsCapability')}())):",
            "    return 'no roots'",
        ],
        lambda: [f"caps = {c}.session.client_params.capabilities if {c}.session.client_params else None"],
        lambda: [f"x = {_types(t, 'Root')}(uri={rnd.choice(_URIS)}, name='r')"],
        lambda: [
            f"cap = {_types(t, 'RootsCapability')}({rnd.choice(['listChanged', 'list_changed'])}={rnd.choice(['True', 'False'])})"
        ],
        lambda: [f"await {c}.info('hello')"],
        lambda: [f"await {c}.log(level='info', message='m')"],
        lambda: [f"await {c}.report_progress(1, 2)"],
        lambda: [f"msg = await {c}.session.create_message(messages=[], max_tokens=10)"],
        lambda: [f"answer = await {c}.elicit('why?', response_type=str)"],
        lambda: [f"s = await {c}.sample('hi')"] if gen == "fastmcp" else [f"data = {c}.request_id"],
        lambda: [f"await {c}.session.send_resource_list_changed()"],
        lambda: [f"await {c}.session.send_ping()"],
        lambda: [f"helper_value = await helper({c})"],
        lambda: [f"sess = {c}.session", "r2 = await sess.list_roots()"],
        lambda: ["rpc = {'jsonrpc': '2.0', 'id': 1, 'method': 'roots/list'}"],
        lambda: ["x = 1  # mcpmigrate: ignore[MCP101]"],
        lambda: [f"roots = await {s}.list_roots()  # mcpmigrate: ignore"],
        lambda: ["pass"],
        lambda: ["value = len('list_roots')"],
    ]
    out = rnd.choice(choices)()
    if depth < 2 and rnd.random() < 0.25:
        inner = _stmt(rnd, c, gen, t, depth + 1)
        wrap = rnd.choice(["try", "if", "with", "async with"])
        if wrap == "try":
            out = [
                "try:",
                *("    " + x for x in inner + out),
                rnd.choice(["except Exception:", "except (OSError, ValueError) as e:", "except:"]),
                "    " + rnd.choice(["pass", "raise", "return None"]),
            ]
            if rnd.random() < 0.3:
                out += ["finally:", "    done = True"]
        elif wrap == "if":
            out = [f"if {rnd.choice(['flag', c, 'True', 'len(x_) > 0'])}:", *("    " + x for x in inner + out)]
            if rnd.random() < 0.4:
                out += ["else:", "    " + rnd.choice(["pass", "return 0"])]
        else:
            out = [f"{wrap} lock:", *("    " + x for x in inner + out)]
    return out


def mcp_program(seed: int) -> str:
    """A random MCP-server-shaped module (valid Python, deterministic in ``seed``)."""
    rnd = random.Random(seed)
    gen = rnd.choice(list(_GENERATIONS))
    imp, server_cls, ctx_cls = rnd.choice(_GENERATIONS[gen])
    timp, t = rnd.choice(_TYPES_IMPORTS)
    lines = ['"""Generated server."""', "import asyncio" if rnd.random() < 0.5 else "import os", imp, timp, ""]
    srv = rnd.choice(["mcp", "server", "app", "srv"])
    lines += [f"{srv} = {server_cls}({rnd.choice(['', repr('demo'), 'name=' + repr('demo')])})", ""]
    if rnd.random() < 0.6:
        cname = rnd.choice(["ctx", "context", "c"])
        ann = rnd.choice([f": {ctx_cls}", f": {ctx_cls} | None = None", "", f": '{ctx_cls}'"])
        lines += [f"async def helper({cname}{ann}):"]
        lines += ["    " + x for x in _stmt(rnd, cname, gen, t)]
        lines += [f"    return {rnd.choice(['None', '1', cname])}", ""]
    for i in range(rnd.randint(1, 4)):
        cname = rnd.choice(["ctx", "context", "c", "mcp_ctx"])
        deco = rnd.choice(
            [
                f"@{srv}.tool()",
                f"@{srv}.tool",
                f"@{srv}.tool(name='t{i}')",
                f"@{srv}.prompt()",
                f"@{srv}.resource('r://{i}')",
            ]
        )
        params = [f"{cname}: {ctx_cls}"]
        if rnd.random() < 0.5:
            params.insert(
                rnd.randint(0, 1), rnd.choice(["pattern: str", "n: int = 3", "root: str = '.'", "*args", "x"])
            )
        if rnd.random() < 0.1:
            params = [cname]  # unannotated
        if "*args" in params and params.index("*args") < len(params) - 1:
            params.remove("*args")
        sync = rnd.random() < 0.15
        lines += [deco, f"{'' if sync else 'async '}def tool_{i}({', '.join(params)}) -> str:"]
        if rnd.random() < 0.3:
            lines += ['    """Docstring mentioning list_roots and roots/list."""']
        body: list[str] = []
        for _ in range(rnd.randint(1, 3)):
            body += _stmt(rnd, cname, gen, t)
        if sync:
            body = [b.replace("await ", "") for b in body]
            body = [b.replace("async with", "with") for b in body]
        if rnd.random() < 0.2:
            body = [f"def inner({cname}):", "    return " + cname, *body]
        lines += ["    " + x for x in body]
        lines += [f"    return {rnd.choice(['str(1)', repr('ok'), 'base', 'str(roots)'])}", ""]
    if rnd.random() < 0.2:
        lines += [f"{srv}.add_tool(tool_0)"]
    if rnd.random() < 0.2:
        lines += ["if __name__ == '__main__':", f"    {srv}.run()"]
    src = "\n".join(lines) + "\n"
    if rnd.random() < 0.1:
        src = src.replace("\n", "\r\n")
    return src


# --- properties -------------------------------------------------------------------------------


def _run(mode: str, path: Path, strategy: str = "param"):
    opts = Options(mode=mode, strategy=strategy, unsafe_fixes=True, jobs=1, no_cache=True)
    return run([path], Config(root=path.parent), opts, cwd=path.parent)


def _compiles(data: bytes) -> str | None:
    try:
        compile(data, "<fixed>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def check_program(source: str | bytes, workdir: Path | None = None) -> list[tuple[str, str]]:
    """Failures of ``source`` as ``(kind, detail)``: crash, screen, positions, unparsable,
    not-idempotent, changed-without-finding, fix-refused."""
    data = source.encode("utf-8") if isinstance(source, str) else source
    failures: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        path = Path(tmp) / "m.py"
        path.write_bytes(data)
        res = _run("check", path)
        for e in res.errors:
            if "internal error" in e.message:
                failures.append(("crash", e.message))
        has_findings = bool(res.findings)
        parsed_ok = not res.errors
        # the screen is conservative: detectors that report on the file are never screened out
        if parsed_ok:
            import libcst as cst

            from mcpmigrate.engine import enabled_rules

            rules = enabled_rules(Config(), Options())
            try:
                module = cst.parse_module(data)
                found, _ = detect(module, "m.py", Config(root=Path(tmp)), rules)
            except Exception as exc:
                failures.append(("crash", f"detect: {type(exc).__name__}: {exc}"))
                found = []
            screened_out = {f.rule for f in found} - screen_passes(data, rules)
            if screened_out:
                failures.append(("screen", f"screened out but has {sorted(screened_out)}"))
            # the engine's positions equal libcst's own PositionProvider's
            from libcst.metadata import MetadataWrapper, PositionProvider

            from mcpmigrate.pipeline import active

            expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider) if found else {}

            def spans(fs, libcst=False):
                out = []
                for f in fs:
                    if libcst:
                        r = expected[f.node]
                        out.append((f.rule, r.start.line, r.start.column + 1, r.end.line, r.end.column + 1))
                    else:
                        out.append((f.rule, f.line, f.column, f.end_line, f.end_column))
                return sorted(out)

            engine = spans(res.findings)
            whole = spans((f for f in active(found, data) if f.rule not in screened_out), libcst=True)
            if engine != whole:
                failures.append(
                    (
                        "positions",
                        f"only the engine: {sorted(set(engine) - set(whole))}; "
                        f"only libcst: {sorted(set(whole) - set(engine))}",
                    )
                )
        for strategy in ("param", "interim"):
            path.write_bytes(data)
            fixed = _run("fix", path, strategy)
            for e in fixed.errors:
                if "internal error" in e.message:
                    failures.append(("crash", f"fix --strategy {strategy}: {e.message}"))
                elif "fix not applied" in e.message:
                    failures.append(("fix-refused", f"--strategy {strategy}: {e.message}"))
            after = path.read_bytes()
            if not has_findings and after != data:
                failures.append(("changed-without-finding", f"--strategy {strategy}"))
            if after != data:
                problem = _compiles(after)
                if problem:
                    failures.append(("unparsable", f"--strategy {strategy}: {problem}"))
                    continue
                again = _run("fix", path, strategy)
                if path.read_bytes() != after:
                    failures.append(("not-idempotent", f"--strategy {strategy}"))
                for e in again.errors:
                    if "internal error" in e.message:
                        failures.append(("crash", f"second fix --strategy {strategy}: {e.message}"))
    return failures

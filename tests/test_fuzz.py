"""Bounded fuzzing in CI: hypothesmith programs and generated MCP-server programs go
through ``check`` and ``fix`` (both strategies, unsafe fixes); see tests/fuzzing.py for the
properties. ``scripts/fuzz.py`` runs the same harness for thousands of examples."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
hypothesmith = pytest.importorskip("hypothesmith")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mcpmigrate.config import Config  # noqa: E402
from mcpmigrate.pipeline import Options, detect, enabled_rules, screen_passes  # noqa: E402
from tests.fuzzing import check_program, mcp_program  # noqa: E402
from tests.helpers import FIXTURES, RULES, load_toml  # noqa: E402


def _broken(failures: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """What breaks a property. A refused fix ("fix not applied": the engine's verification
    caught a codemod's bad output and left the file untouched) keeps every property; the
    script counts those separately, as codemod gaps."""
    return [f for f in failures if f[0] != "fix-refused"]


BOUNDED = settings(
    max_examples=12, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


@BOUNDED
@given(st.integers(min_value=0, max_value=2**32))
def test_generated_mcp_servers(seed: int) -> None:
    assert _broken(check_program(mcp_program(seed))) == []


@BOUNDED
@given(hypothesmith.from_grammar() | hypothesmith.from_node())
def test_hypothesmith_programs(source: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _broken(check_program(source)) == []


# Found by a soundness review of the screens: sites a detector reports with no mcp import.
SCREEN_EDGES = [
    (
        "raw-send-request-any-receiver",
        "async def ask(session):\n"
        '    return await session.send_request({"method": "sampling/createMessage", "params": {}}, dict)\n',
    ),
    (
        "string-annotation-ping",
        'async def p(session: "Optional[mcp.server.session.ServerSession]"):\n    await session.send_ping()\n',
    ),
    (
        "string-annotation-list-changed",
        'async def p(session: "Optional[mcp.server.session.ServerSession]"):\n'
        "    await session.send_tool_list_changed()\n",
    ),
    (
        "string-annotation-sampling",
        'async def p(session: "Optional[mcp.server.session.ServerSession]"):\n'
        "    await session.create_message([], max_tokens=5)\n",
    ),
    ("string-annotation-fastmcp-roots", 'async def r(c: "fastmcp.Context"):\n    return await c.list_roots()\n'),
    (
        "string-annotation-optional-fastmcp-roots",
        'async def r(c: "Optional[fastmcp.Context]"):\n    return await c.list_roots()\n',
    ),
    ("string-annotation-log", 'async def r(c: "Optional[mcp.server.fastmcp.Context]"):\n    await c.info("x")\n'),
    (
        "subscript-store-log",
        "from mcp.server.fastmcp import Context\n\n\nasync def t(ctx: Context, log: list):\n"
        '    log[0] = ctx\n    await log.info("x")\n',
    ),
    (
        "aliased-factory-log",
        "from fastmcp.server.dependencies import get_context as get_logger\n\n\nasync def t():\n"
        '    log = get_logger()\n    await log.info("x")\n',
    ),
]


def _sources() -> list[tuple[str, str]]:
    out = [(str(p.relative_to(FIXTURES)), p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.rglob("*.py"))]
    out += SCREEN_EDGES
    for toml in sorted(RULES.glob("MCP*.toml")):
        examples = load_toml(toml).get("examples", {})
        for kind in ("invalid", "valid"):
            for i, ex in enumerate(examples.get(kind, [])):
                out.append((f"{toml.stem}-{kind}-{i}", ex["code"]))
    return out


def test_screen_never_skips_a_file_with_findings() -> None:
    """The ast screen is conservative on every fixture and rule example."""
    import libcst as cst

    rules = enabled_rules(Config(), Options())
    missed = []
    for name, source in _sources():
        data = source.encode()
        try:
            module = cst.parse_module(data)
        except Exception:
            continue
        found, _ = detect(module, name, Config(root=Path.cwd()), rules)
        screened_out = {f.rule for f in found} - screen_passes(data, rules)
        if screened_out:  # a detector the screen would not run on this file reports on it
            missed.append((name, sorted(screened_out)))
    assert missed == []


POSITION_EDGES = [
    # found by a soundness review: ast's line of a decorator in parentheses or after a backslash,
    # and a backslash-continued blank line before a statement (the engine falls back to the whole
    # module when the statement's code is not where it computed)
    (
        "paren-decorator",
        "from mcp.server.fastmcp import Context, FastMCP\nmcp = FastMCP('s')\n@(\n  mcp.tool()\n)\n"
        "async def t(ctx: Context) -> int:\n    r = await ctx.session.list_roots()\n    return len(r.roots)\n",
    ),
    (
        "backslash-decorator",
        "from mcp.server.fastmcp import Context, FastMCP\nmcp = FastMCP('s')\n@\\\nmcp.tool()\n"
        "async def t(ctx: Context) -> int:\n    r = await ctx.session.list_roots()\n    return len(r.roots)\n",
    ),
    ("backslash-blank-line", "import mcp\n\\\n\nx = mcp.types.Root(uri='/tmp')\n"),
    # top-level statements sharing a line, comments and blank lines before decorated definitions,
    # a class, CRLF newlines, a module docstring and header comments
    (
        "semicolons",
        "import mcp; from mcp.server.fastmcp import Context, FastMCP; x = 1\n"
        "mcp = FastMCP('s')\n\n# c\n\n@mcp.tool()\n# between\nasync def t(ctx: Context) -> int:\n"
        "    r = await ctx.session.list_roots(); return len(r.roots)\n",
    ),
    (
        "crlf-class",
        '"""doc"""\r\n# header\r\nfrom mcp.server.fastmcp import Context\r\n\r\n\r\n'
        "class S:\r\n    # lead\r\n    async def go(self, ctx: Context):\r\n"
        "        await ctx.info('x')\r\n        return await ctx.session.list_roots()\r\n",
    ),
]


@pytest.mark.parametrize(
    "name,source", POSITION_EDGES + _sources(), ids=lambda v: v if isinstance(v, str) and len(v) < 60 else None
)
def test_positions_per_statement_match_libcst(name: str, source: str) -> None:
    """Findings are placed (pipeline.node_positions: token-index codegen, whole module or per top-level
    statement) exactly where libcst's PositionProvider places them."""
    import libcst as cst

    data = source.encode()
    try:
        module = cst.parse_module(data)
    except Exception:
        pytest.skip("does not parse")
    rules = enabled_rules(Config(), Options())
    cfg = Config(root=Path.cwd())

    for found in (detect(module, name, cfg, rules)[0], detect(module, name, cfg, rules, data)[0]):
        assert [(f.rule, *_span(f)) for f in found] == [(f.rule, *libcst_span(module, f)) for f in found]


def _span(f) -> tuple[int, int, int, int]:
    return f.line, f.column, f.end_line, f.end_column


def libcst_span(module, finding) -> tuple[int, int, int, int]:
    """libcst's own ``PositionProvider`` range of the finding's node, as a finding spells it."""
    from libcst.metadata import MetadataWrapper, PositionProvider

    rng = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)[finding.node]
    return rng.start.line, rng.start.column + 1, rng.end.line, rng.end.column + 1


def test_the_flattened_tree_is_libcsts_visit_order_without_trivia() -> None:
    """fastwalk.Flat holds every non-trivia node once, in the order libcst's own visit reaches
    them (a regex-read field plan once listed ImportFrom's `names` twice: imported names were
    counted twice)."""
    import libcst as cst

    from mcpmigrate.fastwalk import _TRIVIA, Flat

    class Order(cst.CSTVisitor):
        def __init__(self) -> None:
            self.seen: list[int] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            self.seen.append(id(node))
            return not isinstance(node, _TRIVIA)  # fastwalk skips trivia and what is inside them

    for name, source in _sources():
        try:
            module = cst.parse_module(source.encode())
        except Exception:
            continue
        v = Order()
        module.visit(v)
        got = [id(n) for n in Flat(module).order]
        assert len(set(got)) == len(got), f"{name}: a node is visited twice"
        keep = set(got)
        assert [i for i in v.seen if i in keep] == got, name
        left_out = _nodes_by_id(module, set(v.seen) - keep)
        assert all(isinstance(n, _TRIVIA + _PUNCTUATION) for n in left_out), name


def _punctuation() -> tuple:
    import libcst as cst

    return (
        cst.Dot,
        cst.AssignEqual,
        cst.Colon,
        cst.LeftSquareBracket,
        cst.RightSquareBracket,
        cst.LeftCurlyBrace,
        cst.RightCurlyBrace,
    )


_PUNCTUATION = _punctuation()


def _nodes_by_id(module, ids: set[int]) -> list:
    import libcst as cst

    out = []

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if id(node) in ids:
                out.append(node)
            return True

    module.visit(Find())
    return out

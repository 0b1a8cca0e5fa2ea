"""Bounded fuzzing in CI (issue 6): hypothesmith programs and generated MCP-server programs go
through ``check`` and ``fix`` (both strategies, unsafe fixes); see tests/fuzzing.py for the
properties. ``scripts/fuzz.py`` runs the same harness for thousands of examples."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
hypothesmith = pytest.importorskip("hypothesmith")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from mcpmigrate.config import Config  # noqa: E402
from mcpmigrate.engine import Options, _screen_passes, detect, enabled_rules  # noqa: E402
from tests.fuzzing import check_program, mcp_program  # noqa: E402
from tests.helpers import FIXTURES, RULES, load_toml  # noqa: E402

def _broken(failures: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """What breaks a property. A refused fix ("fix not applied": the engine's verification
    caught a codemod's bad output and left the file untouched) keeps every property; the
    script counts those separately, as codemod gaps."""
    return [f for f in failures if f[0] != "fix-refused"]


BOUNDED = settings(max_examples=12, deadline=None, database=None, derandomize=True,
                   suppress_health_check=list(HealthCheck))


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


def _sources() -> list[tuple[str, str]]:
    out = [(str(p.relative_to(FIXTURES)), p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.rglob("*.py"))]
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
        except Exception:  # noqa: BLE001 - not ours to check
            continue
        found, _ = detect(module, name, Config(root=Path.cwd()), rules)
        screened_out = {f.rule for f in found} - _screen_passes(data, rules)
        if screened_out:  # a detector the screen would not run on this file reports on it
            missed.append((name, sorted(screened_out)))
    assert missed == []


POSITION_EDGES = [
    # top-level statements sharing a line, comments and blank lines before decorated definitions,
    # a class, CRLF newlines, a module docstring and header comments
    ("semicolons", "import mcp; from mcp.server.fastmcp import Context, FastMCP; x = 1\n"
                   "mcp = FastMCP('s')\n\n# c\n\n@mcp.tool()\n# between\nasync def t(ctx: Context) -> int:\n"
                   "    r = await ctx.session.list_roots(); return len(r.roots)\n"),
    ("crlf-class", "\"\"\"doc\"\"\"\r\n# header\r\nfrom mcp.server.fastmcp import Context\r\n\r\n\r\n"
                   "class S:\r\n    # lead\r\n    async def go(self, ctx: Context):\r\n"
                   "        await ctx.info('x')\r\n        return await ctx.session.list_roots()\r\n"),
]


@pytest.mark.parametrize("name,source", POSITION_EDGES + _sources(), ids=lambda v: v if isinstance(v, str) and len(v) < 60 else None)
def test_positions_per_statement_match_libcst(name: str, source: str) -> None:
    """Findings are placed (engine._positions: token-index codegen, whole module or per top-level
    statement) exactly where libcst's PositionProvider places them."""
    import libcst as cst

    data = source.encode()
    try:
        module = cst.parse_module(data)
    except Exception:  # noqa: BLE001 - not ours to check
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

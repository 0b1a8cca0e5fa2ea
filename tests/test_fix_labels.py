"""Fix safety labels of fixtures whose `param` fix is safe (docs/architecture.md, fix-safety labels): a heuristic that makes a
fix unsafe must not catch these. The fixture tests apply every fix with --unsafe-fixes, so they
cannot see a label change; this test does (a guard-name heuristic once turned the README's own
example unsafe, and a fallback heuristic the low-level servers' tool dispatch)."""

from __future__ import annotations

import pytest

from tests.helpers import FIXTURES, cli

SAFE_PARAM = [
    ("roots/mcp1_fastmcp_first_root", "MCP101", 13),
    ("roots/mcp1_lowlevel_serve", "MCP101", 54),
    ("roots/mcp2_lowlevel_server", "MCP101", 57),
    ("roots/mcp1_roots_as_default_path", "MCP101", 15),  # an optional parameter: calls that worked keep working
    ("roots/mcp1_memoised_roots", "MCP101", 14),  # the memo goes with the request
    ("roots/mcp2_capability_guard_local", "MCP101", 15),  # the guard goes with the request
]


@pytest.mark.parametrize("case,rule,line", SAFE_PARAM)
def test_safe_param_fixes_stay_safe(case: str, rule: str, line: int) -> None:
    res = cli(["check", "--output-format", "json", "before.py"], FIXTURES / case)
    [f] = [f for f in res.json["findings"] if f["rule"] == rule and f["line"] == line]
    assert f["fix"] is not None and f["fix"]["strategy"] == "param" and f["fix"]["safety"] == "safe", f

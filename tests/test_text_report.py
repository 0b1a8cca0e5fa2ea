"""The ``text`` format a maintainer reads: each finding says what, where and what the fix
changes; why a rule matters is said once per rule; hints name only strategies ``fix`` accepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcpmigrate.report.text import split_message
from tests.helpers import cli

TWO_TOOLS = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def first(ctx: Context) -> str:
    await ctx.info("first")
    roots = await ctx.session.list_roots()
    return roots.roots[0].uri.path


@mcp.tool()
async def second(ctx: Context) -> str:
    await ctx.info("second")
    roots = await ctx.session.list_roots()
    return roots.roots[0].uri.path
"""

EXPECTED = """\
s.py
  8:11 MCP401 protocol-logging (deprecated) `ctx.info(…)` is MCP protocol logging: deprecated in 2026-07-28 (SEP-2577) and silently dropped on a modern connection unless the request opted in.
      │     await ctx.info("first")
      │           ^^^^^^^^^^^^^^^^^
      fix (safe): log with the standard library: `logger.info("first")`
  9:19 MCP101 roots-request (breaking) The server asks the client for its roots in `first`.
      │     roots = await ctx.session.list_roots()
      │                   ^^^^^^^^^^^^^^^^^^^^^^^^
      fix (safe, param): add a documented `root` parameter to `first` and drop the roots request
  15:11 MCP401 protocol-logging (deprecated) `ctx.info(…)` is MCP protocol logging: deprecated in 2026-07-28 (SEP-2577) and silently dropped on a modern connection unless the request opted in.
      │     await ctx.info("second")
      │           ^^^^^^^^^^^^^^^^^^
      fix (safe): log with the standard library: `logger.info("second")`
  16:19 MCP101 roots-request (breaking) The server asks the client for its roots in `second`.
      │     roots = await ctx.session.list_roots()
      │                   ^^^^^^^^^^^^^^^^^^^^^^^^
      fix (safe, param): add a documented `root` parameter to `second` and drop the roots request

MCP101 roots-request: On 2026-07-28 servers cannot send requests (mcp 2.x raises NoBackChannelError) and roots are deprecated. Take the directory as a documented tool parameter (`fix --strategy param`). (`mcpmigrate explain MCP101`)
MCP401 protocol-logging: Log with the standard library instead: `logger = logging.getLogger(__name__)` at module level and `logger.info(...)` (stderr on stdio servers; OpenTelemetry for observability). (`mcpmigrate explain MCP401`)

Found 4 findings (2 breaking, 2 deprecated) in 1 file; 1 file checked. 4 fixable with `mcpmigrate fix`.
"""


def test_text_says_each_rules_reason_once(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(TWO_TOOLS)
    res = cli(["check", "s.py"], tmp_path)
    assert res.stdout == EXPECTED
    assert res.stdout.count("NoBackChannelError") == 1


@pytest.mark.parametrize(
    "message, expected",
    [
        (
            "The server asks the client for its roots in `f`; on 2026-07-28 servers cannot send requests "
            "(mcp 2.x raises NoBackChannelError) and roots are deprecated. Take the directory as a parameter.",
            (
                "The server asks the client for its roots in `f`.",
                "On 2026-07-28 servers cannot send requests (mcp 2.x raises NoBackChannelError) and roots are "
                "deprecated. Take the directory as a parameter.",
            ),
        ),
        # a short clause after "; " belongs to the first sentence
        (
            "A Root's uri must be a file:// URI; 'https' is not. Expose other locations as resources.",
            ("A Root's uri must be a file:// URI; 'https' is not.", "Expose other locations as resources."),
        ),
        # ". " inside backticks or parentheses, and after "e.g", is no sentence end
        (
            "`a. B` is used (see x. Y) e.g. Here; ok. Next one.",
            ("`a. B` is used (see x. Y) e.g. Here; ok.", "Next one."),
        ),
        (
            "`resources/subscribe` is removed. mcp 2.x serves listen itself.",
            ("`resources/subscribe` is removed.", "mcp 2.x serves listen itself."),
        ),
        ("Only one sentence.", ("Only one sentence.", "")),
    ],
)
def test_split_message(message: str, expected: tuple[str, str]) -> None:
    assert split_message(message) == expected


def test_a_fix_left_by_fix_diff_never_names_a_strategy_fix_rejects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A logging fix that could not be applied: the hint used to say `fix with --strategy
    logging`, which `fix --strategy` rejects (it accepts param and interim)."""
    from mcpmigrate import pipeline

    monkeypatch.setattr(pipeline, "_verify", lambda *a, **k: ("the rewritten code is refused (test)", []))
    (tmp_path / "s.py").write_text(TWO_TOOLS)
    res = cli(["fix", "--diff", "s.py"], tmp_path)
    left = [ln for ln in res.stderr.splitlines() if ln.startswith("left")]
    assert left == [
        "left   s.py:8:11 MCP401 protocol-logging: fix not applied (see the error for this file)",
        "left   s.py:9:19 MCP101 roots-request: fix not applied (see the error for this file)",
        "left   s.py:15:11 MCP401 protocol-logging: fix not applied (see the error for this file)",
        "left   s.py:16:19 MCP101 roots-request: fix not applied (see the error for this file)",
    ]
    assert "error: s.py: fix not applied: the rewritten code is refused (test)" in res.stderr
    assert "--strategy logging" not in res.stderr


def test_a_fix_of_another_strategy_names_it(tmp_path: Path) -> None:
    (tmp_path / "h.py").write_text("""from pydantic import BaseModel
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("x")


class Confirm(BaseModel):
    ok: bool


@mcp.tool()
async def delete(path: str, ctx: Context) -> str:
    r = await ctx.elicit(f"Delete {path}?", Confirm)
    return r.action
""")
    res = cli(["fix", "--diff", "h.py"], tmp_path)
    [left] = [ln for ln in res.stderr.splitlines() if ln.startswith("left")]
    assert left.startswith("left   h.py:13:15 MCP202 elicitation-push: fix with --strategy interim: "), left
    res = cli(["check", "h.py"], tmp_path)
    assert "      fix with --strategy interim (safe): " in res.stdout, res.stdout


def test_sarif_and_text_hints_name_only_choosable_strategies(tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text(TWO_TOOLS)
    doc = json.loads(cli(["check", "--output-format", "sarif", "s.py"], tmp_path).stdout)
    texts = [r["message"]["text"] for r in doc["runs"][0]["results"]]
    assert [t[t.index(" Fix (") :].split(":")[0] for t in texts] == [" Fix (safe)", " Fix (safe, param)"] * 2
    assert "logging)" not in cli(["check", "s.py"], tmp_path).stdout


def _every_message(tmp_path: Path) -> dict[str, str]:
    """Every distinct message the fixtures and the rules' invalid examples produce, with its rule."""
    from tests.helpers import RULES, fixture_cases, load_toml

    for case in fixture_cases():
        (tmp_path / f"{case.parent.name}_{case.name}.py").write_bytes((case / "before.py").read_bytes())
    for path in sorted(RULES.glob("*.toml")):
        data = load_toml(path)
        for i, ex in enumerate(data.get("examples", {}).get("invalid", [])):
            (tmp_path / f"example_{data['id']}_{i}.py").write_text(ex["code"].lstrip("\n"))
    doc = json.loads(cli(["check", "--output-format", "json", "."], tmp_path).stdout)
    return {f["message"]: f["rule"] for f in doc["findings"]}


def test_every_detectors_message_splits_into_what_and_why(tmp_path: Path) -> None:
    """The split is a heuristic on the text (``split_message``): each message the detectors
    write must still cut into a sentence saying what was found and a reason, with no code span
    cut in two and no code span nested in another (``a hand-built `x` `` in backticks)."""
    messages = _every_message(tmp_path)
    rules = set(messages.values())
    assert {"MCP101", "MCP102", "MCP201", "MCP202", "MCP301", "MCP302", "MCP401", "MCP402"} <= rules, rules
    for message, rule in messages.items():
        what, why = split_message(message)
        assert "``" not in message, (rule, message)
        assert what.endswith(".") and (what[0].isupper() or what[0] == "`"), (rule, what)
        assert what.count("`") % 2 == 0 and why.count("`") % 2 == 0, (rule, what, why)
        assert len(what) < len(message) and why, (rule, message)  # every message gives a reason
        assert why[0].isupper() or why[0] in "`0123456789" or why.startswith("mcp "), (rule, why)


def test_a_rules_reason_is_the_one_most_of_its_findings_give(tmp_path: Path) -> None:
    """MCP201's ``sampling_handler=`` finding comes first in this file but gives a reason of its
    own: it is the note, and the rule's reason is the one the four requests share."""
    from tests.helpers import FIXTURES

    (tmp_path / "s.py").write_bytes((FIXTURES / "sampling" / "fastmcp_handrolled_wrappers" / "before.py").read_bytes())
    out = cli(["check", "s.py"], tmp_path).stdout
    [rule_line] = [ln for ln in out.splitlines() if ln.startswith("MCP201 sampling-request: ")]
    assert rule_line.startswith("MCP201 sampling-request: On 2026-07-28 servers cannot send requests"), rule_line
    assert out.count("note: ") == 1 and "      note: Call the LLM provider directly where the tool samples." in out, out


def test_a_path_with_no_python_is_not_reported_as_passing(tmp_path: Path) -> None:
    """A folder holding no Python (a TypeScript server, a mistyped path) says nothing was checked
    instead of "All checks passed!" (found by a new-user trial on modelcontextprotocol/servers)."""
    (tmp_path / "ts").mkdir()
    (tmp_path / "ts" / "index.ts").write_text("export const x = 1;\n")
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "ok.py").write_text("x = 1\n")
    res = cli(["check", "ts"], tmp_path)
    assert (res.exit_code, res.stdout) == (0, "No Python files found under the given paths: nothing was checked.\n")
    res = cli(["fix", "ts"], tmp_path)
    assert (res.exit_code, res.stdout) == (0, "No Python files found under the given paths: nothing was checked.\n")
    res = cli(["check", "py"], tmp_path)
    assert (res.exit_code, res.stdout) == (0, "All checks passed! 1 file checked.\n")

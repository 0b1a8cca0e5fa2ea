"""``fix --strategy interim`` on mcp 2.x ``MCPServer`` (issue 22, "reach the request where real servers
make it"): a request in a ``try`` whose handlers are the fallback for a client that cannot answer
(``except MCPError as e: if e.code == METHOD_NOT_FOUND: …``) gets its round in place, inside the
kept ``try`` (``codemods/interim/guard.py``); made in a helper of another module, the helper asks
in place and each calling tool relays the interim result (``codemods/interim/relay.py``, written
by the interim project step).

Shapes modelled on awslabs/mcp's aws-for-sap-management-mcp-server (tool methods registered from
their class, a consent model built with ``type(...)`` and a ``Field(description=<parameter>)``,
the reject path's and the no-elicitation fallback's messages), written for this test. Every
fixed server is run with the real SDK: on a legacy connection it answers as the original did (the
client's elicitation callback asked, same answers; a client that answers METHOD_NOT_FOUND gets
the fallback); on 2026-07-28 one ``InputRequiredResult`` round asks the same question, and a
client without the elicitation capability gets the fallback's message.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import anyio

from tests.proof import run_proof
from tests.test_interim_threading import _check, _fix, _interim_round
from tests.test_interim_trust import _leaf, _load

DATA = Path(__file__).resolve().parent / "data" / "guard"
MODERN = "2026-07-28"
ACCEPT = {"action": "accept", "content": {"close_linked": True, "confirm": True}}
DECLINE = {"action": "decline"}
NOT_FOUND = "METHOD_NOT_FOUND"  # the client answers the request with error -32601


def _call(server: Any, mode: str, tool: str, arguments: dict[str, Any], reply: Any) -> Any:
    """One call through the mcp 2.3 ``Client``: its elicitation callback answers ``reply`` (an
    ``ElicitResult`` as a dict, :data:`NOT_FOUND`, or None: no callback, no capability). The texts
    (``("error", texts)`` for a tool error) and the messages the client was asked, or ``("raised", …)``."""
    import mcp
    from mcp import types

    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> Any:
        asked.append(params.message)
        if reply == NOT_FOUND:
            return types.ErrorData(code=types.METHOD_NOT_FOUND, message="Method not found")
        return types.ElicitResult(**reply)

    async def run() -> Any:
        callbacks = {"elicitation_callback": elicit} if reply is not None else {}
        try:
            async with mcp.Client(server, mode=mode, **callbacks) as client:  # type: ignore[arg-type]
                result = await client.call_tool(tool, arguments)
        except BaseException as exc:  # the client raises out of its task group
            return ("raised", str(_leaf(exc)))
        texts = [c.text for c in result.content]
        return (("error", texts) if result.is_error else texts), asked

    return anyio.run(run)


def _project(tmp_path: Path, files: dict[str, str], deps: str) -> Path:
    root = tmp_path / "project"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "x"\nversion = "0"\ndependencies = ["{deps}"]\n', encoding="utf-8"
    )
    return root


# ---------------------------------------------------------------------------------------------
# The request in the tool itself (a method), on one path, in a `try` with the fallback


VAULT = {"vault": "v1", "linked": "v2"}


def test_a_method_tools_request_in_a_try_gets_its_round_in_place(tmp_path: Path) -> None:
    root = _project(tmp_path, {"vaults.py": (DATA / "vaults.py").read_text(encoding="utf-8")}, "mcp>=2.3,<3")
    before = tmp_path / "before.py"
    shutil.copy(root / "vaults.py", before)
    [finding] = _check(root)
    assert (finding["rule"], finding["line"], finding["column"]) == ("MCP202", 29, 31)
    assert finding["fix"]["safety"] == "safe"
    assert finding["fix"]["description"] == (
        "on 2026-07-28 `VaultTools.close_vault` returns `InputRequiredResult` with a `ElicitRequest` under key "
        "'reply' and reads the answer from `ctx.input_responses` on the retry (a client that did not declare form "
        "elicitation gets the `try`'s fallback for a client that cannot answer (its `.code == METHOD_NOT_FOUND` "
        "test now also matches -32021); no requestState is written); legacy keeps the request"
    )
    _fix(root)
    fixed = root / "vaults.py"
    assert fixed.read_text(encoding="utf-8") == (DATA / "vaults.fixed.py").read_text(encoding="utf-8")
    assert _check(root) == []

    # Legacy: the client's callback is asked as before, with the same answers and fallbacks.
    for reply in (ACCEPT, DECLINE, NOT_FOUND, None):
        got = _call(_load(fixed).mcp, "legacy", "close_vault", VAULT, reply)
        assert got == _call(_load(before).mcp, "legacy", "close_vault", VAULT, reply), reply
    assert _call(_load(fixed).mcp, "legacy", "close_vault", VAULT, ACCEPT) == (
        ["closed v1 after v2"],
        ["Close vault v1?"],
    )
    assert _call(_load(fixed).mcp, "legacy", "close_vault", VAULT, NOT_FOUND) == (
        ["this client cannot confirm: nothing closed"],
        ["Close vault v1?"],
    )
    # No linked vault: no question, in both eras.
    assert _call(_load(fixed).mcp, MODERN, "close_vault", {"vault": "v1"}, None) == (["closed v1"], [])

    # 2026-07-28: the original cannot ask; the fixed tool asks in one round, the schema's
    # description built from the tool's argument, and the retry gets the answer.
    assert _call(_load(before).mcp, MODERN, "close_vault", VAULT, ACCEPT)[0] == "raised"
    asked, result = _interim_round(_load(fixed).mcp, "close_vault", VAULT, ACCEPT)
    schema = asked["reply"]["params"]["requestedSchema"]
    assert asked["reply"]["params"]["message"] == "Close vault v1?"
    assert schema["properties"]["close_linked"]["description"] == "Close v2 first."
    assert schema["properties"]["confirm"]["description"] == "I understand the vault goes offline."
    assert result == ["closed v1 after v2"]
    assert _interim_round(_load(fixed).mcp, "close_vault", VAULT, DECLINE)[1] == ["rejected by the user"]
    assert _call(_load(fixed).mcp, MODERN, "close_vault", VAULT, ACCEPT) == (
        ["closed v1 after v2"],
        ["Close vault v1?"],
    )
    # A client without the elicitation capability gets the fallback's message, not a protocol error.
    assert _call(_load(fixed).mcp, MODERN, "close_vault", VAULT, None) == (
        ["this client cannot confirm: nothing closed"],
        [],
    )


def test_a_try_with_finally_keeps_the_request_manual(tmp_path: Path) -> None:
    source = (DATA / "vaults.py").read_text(encoding="utf-8")
    source = source.replace(
        "                raise e\n", "                raise e\n            finally:\n                pass\n"
    )
    root = _project(tmp_path, {"vaults.py": source}, "mcp>=2.3,<3")
    [finding] = _check(root)
    assert finding["fix"] is None
    assert finding["manual"].startswith("the request sits in a `try` with `finally`: on 2026-07-28 it would also run")


# ---------------------------------------------------------------------------------------------
# The request in a helper of another module (mcp 1.x, ported): the helper asks, the tools relay


SHOP1 = DATA / "shop1"
SHOP2 = DATA / "shop2"
FILES = ("app.py", "shop/__init__.py", "shop/consent.py", "shop/tools.py")
YES = {"action": "accept", "content": {"ok": True}}


def _shop(root: Path, mode: str, calls: list[dict[str, Any]], client: dict[str, Any] | None, python: str) -> Any:
    out = run_proof(python, root / "app.py", "mcp", mode, [], calls, client=client)
    return [(c["is_error"], c["text"], c["error"]) for c in out["calls"]]


def _fixed_shop(root: Path) -> Any:
    for name in [m for m in sys.modules if m == "shop" or m.startswith("shop.")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        return _load(root / "app.py").mcp
    finally:
        sys.path.remove(str(root))


def test_a_helper_in_another_module_asks_in_place_and_the_tools_relay(
    tmp_path: Path, legacy_python: str, mcp2_python: str, monkeypatch: Any
) -> None:
    monkeypatch.setenv("MCPMIGRATE_LEGACY_PYTHON", legacy_python)
    root = _project(tmp_path, {f: (SHOP1 / f).read_text(encoding="utf-8") for f in FILES}, "mcp>=1.27,<2")
    before = tmp_path / "before"
    shutil.copytree(root, before)
    from tests.helpers import cli

    args = ["fix", "--no-cache", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes", "."]
    res = cli([*args, "--output-format", "json"], root)
    assert res.exception is None and res.json["errors"] == [], str(res)
    [ask] = [f for f in res.json["fixed"] if f["rule"] == "MCP202"]
    assert (ask["path"], ask["line"]) == ("shop/consent.py", 16)
    assert ask["fix"]["description"].startswith(
        "on 2026-07-28 `confirm` returns `InputRequiredResult` with a `ElicitRequest` under key 'confirm.reply'"
    )
    assert (
        "each calling tool (`ShopTools.drop_table` in shop/tools.py, `ShopTools.wipe_cart` in shop/tools.py)"
        in (ask["fix"]["description"])
    )
    for f in FILES:
        assert (root / f).read_text(encoding="utf-8") == (SHOP2 / f).read_text(encoding="utf-8"), f
    again = {f: (root / f).read_bytes() for f in FILES}
    assert cli(args, root).exception is None
    assert {f: (root / f).read_bytes() for f in FILES} == again, "a second fix changed a file"

    calls = [
        {"tool": "drop_table", "arguments": {"table": "t1"}},
        {"tool": "wipe_cart", "arguments": {"cart": "c7", "keep_saved": True}},
    ]
    # Legacy: the original on mcp 1.27 and the fixed server on mcp 2.3 answer alike.
    for client in ({"elicitation": YES}, {"elicitation": DECLINE}, None):
        old = _shop(before, "legacy", calls, client, legacy_python)
        assert _shop(root, "legacy", calls, client, mcp2_python) == old, client
    assert _shop(before, "legacy", calls, {"elicitation": DECLINE}, legacy_python) == [
        (False, ["not dropped: The user said no."], None),
        (False, ["not wiped: The user said no."], None),
    ]
    # 2026-07-28: the question comes in one round, built from each tool's own arguments.
    assert _shop(root, "modern", calls, {"elicitation": YES}, mcp2_python) == [
        (False, ["dropped t1"], None),
        (False, ["wiped unsaved items of c7"], None),
    ]
    asked, result = _interim_round(_fixed_shop(root), "wipe_cart", {"cart": "c7"}, DECLINE)
    assert asked["confirm.reply"]["params"]["message"] == "Wipe every item of cart c7.\n\nConfirm to go on."
    schema = asked["confirm.reply"]["params"]["requestedSchema"]
    assert schema["properties"]["ok"]["description"] == "I know every item of c7 go."
    assert result == ["not wiped: The user said no."]
    # The fallback reaches a client that answers METHOD_NOT_FOUND (legacy) or cannot elicit (2026-07-28).
    fallback = ["not dropped: This client cannot ask for confirmation."]
    asked_legacy = ["Drop table t1.\n\nConfirm to go on."]
    assert _call(_fixed_shop(root), "legacy", "drop_table", {"table": "t1"}, NOT_FOUND) == (fallback, asked_legacy)
    assert _call(_fixed_shop(root), MODERN, "drop_table", {"table": "t1"}, None) == (fallback, [])


def test_a_tool_calling_the_helper_twice_keeps_it_manual(tmp_path: Path) -> None:
    tools = (SHOP1 / "shop" / "tools.py").read_text(encoding="utf-8")
    tools = tools.replace(
        '        return f"dropped {table}"\n',
        '        await confirm("Really?", "Sure.", ctx)\n        return f"dropped {table}"\n',
    )
    files = {f: (SHOP2 / f).read_text(encoding="utf-8") for f in ("app.py", "shop/__init__.py")}
    files["shop/consent.py"] = (
        (SHOP1 / "shop" / "consent.py")
        .read_text(encoding="utf-8")
        .replace("McpError", "MCPError")
        .replace("e.error.code", "e.code")
    )
    files["shop/tools.py"] = tools.replace(
        "fastmcp import Context, FastMCP", "mcpserver import Context, MCPServer"
    ).replace("FastMCP", "MCPServer")
    root = _project(tmp_path, files, "mcp>=2.3,<3")
    [finding] = [f for f in _check(root) if f["rule"] == "MCP202"]
    assert finding["fix"] is not None  # planned in its module; the project step refuses the caller
    from tests.helpers import cli

    res = cli(["fix", "--no-cache", "--strategy", "interim", "--unsafe-fixes", "--output-format", "json", "."], root)
    assert [e["message"] for e in res.json["errors"]] == [
        "fix not applied: the handlers in other modules must ask the question (or relay the helper's interim "
        "result) (`ShopTools.drop_table`, `ShopTools.wipe_cart` in shop/tools.py: `ShopTools.drop_table` calls "
        "`confirm` 2 times: each asks today; rewrite by hand); nothing was written for it"
    ]
    for f in ("shop/consent.py", "shop/tools.py"):
        assert (root / f).read_text(encoding="utf-8") == files[f]


def test_the_port_wraps_a_method_tool_whose_request_keeps_its_try(
    tmp_path: Path, legacy_python: str, mcp2_python: str, monkeypatch: Any
) -> None:
    """mcp 1.x: MCP510 wraps the method tool's body (the interim round in place keeps working
    inside it), so an exception after consent still reaches the client as 1.x's tool error text."""
    monkeypatch.setenv("MCPMIGRATE_LEGACY_PYTHON", legacy_python)
    root = _project(tmp_path, {"vaults.py": (DATA / "vaults1.py").read_text(encoding="utf-8")}, "mcp>=1.27,<2")
    before = tmp_path / "before.py"
    shutil.copy(root / "vaults.py", before)
    from tests.helpers import cli

    res = cli(
        [
            "fix",
            "--no-cache",
            "--target-sdk",
            "mcp2",
            "--strategy",
            "interim",
            "--unsafe-fixes",
            "--output-format",
            "json",
            ".",
        ],
        root,
    )
    assert res.exception is None and res.json["errors"] == [], str(res)
    assert sorted(f["rule"] for f in res.json["fixed"]) == ["MCP202", "MCP501", "MCP502", "MCP510"]
    assert (root / "vaults.py").read_text(encoding="utf-8") == (DATA / "vaults1.fixed.py").read_text(encoding="utf-8")

    calls = [
        {"tool": "close_vault", "arguments": VAULT},
        {"tool": "close_vault", "arguments": {"vault": "jammed", "linked": "v2"}},
    ]

    def run(python: str, file: Path, mode: str, client: dict[str, Any] | None) -> Any:
        out = run_proof(python, file, "mcp", mode, [], calls, client=client)
        return [(c["is_error"], c["text"], c["error"]) for c in out["calls"]]

    for client in ({"elicitation": ACCEPT}, {"elicitation": DECLINE}, None):
        old = run(legacy_python, before, "legacy", client)
        assert run(mcp2_python, root / "vaults.py", "legacy", client) == old, client
    assert run(legacy_python, before, "legacy", {"elicitation": ACCEPT}) == [
        (False, ["closed v1 after v2"], None),
        (True, ["Error executing tool close_vault: jammed does not close"], None),
    ]
    assert run(mcp2_python, root / "vaults.py", "modern", {"elicitation": ACCEPT}) == [
        (False, ["closed v1 after v2"], None),
        (True, ["Error executing tool close_vault: jammed does not close"], None),
    ]
    assert run(mcp2_python, root / "vaults.py", "modern", None) == [
        (False, ["this client cannot confirm: nothing closed"], None),
        (False, ["this client cannot confirm: nothing closed"], None),
    ]


GATE = """from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

mcp = MCPServer("g")


class Ok(BaseModel):
    ok: bool


class Tools:
    def register(self, server: MCPServer) -> None:
        server.tool(name="purge")(self.purge)

    async def purge(self, ctx: Context, what: str) -> str:
        try:
            reply = await ctx.elicit(f"Purge {what}?", Ok)
            if reply.action != "accept":
                return "kept"
        except Exception:
            pass
        return f"purged {what}"


Tools().register(mcp)
"""


def test_a_gate_that_fails_open_stays_open_with_the_round_in_place(tmp_path: Path) -> None:
    """MCP207 no longer claims the fix closes the gate: the kept `try` still lets the tool go on."""
    root = _project(tmp_path, {"gate.py": GATE}, "mcp>=2.3,<3")
    by_rule = {f["rule"]: f for f in _check(root)}
    assert by_rule["MCP202"]["fix"] is not None
    assert by_rule["MCP207"]["fix"] is None
    assert by_rule["MCP207"]["manual"].startswith(
        "the interim fix writes the request's round in place, inside this `try` (no resolver form: `guard`)"
    )


def test_a_helper_of_the_same_module_asks_in_place_and_its_tool_relays(tmp_path: Path) -> None:
    root = _project(tmp_path, {"one.py": (DATA / "one.py").read_text(encoding="utf-8")}, "mcp>=2.3,<3")
    before = tmp_path / "before.py"
    shutil.copy(root / "one.py", before)
    [finding] = _check(root)
    assert finding["fix"]["description"].endswith(
        "(review: on 2026-07-28 each calling tool (`drop_table`) runs again up to its call of `confirm` on the "
        "retry: the code before that call runs once per round)"
    )
    _fix(root)
    fixed = root / "one.py"
    assert fixed.read_text(encoding="utf-8") == (DATA / "one.fixed.py").read_text(encoding="utf-8")
    table = {"table": "t"}
    for reply in (YES, DECLINE, NOT_FOUND, None):
        assert _call(_load(fixed).mcp, "legacy", "drop_table", table, reply) == _call(
            _load(before).mcp, "legacy", "drop_table", table, reply
        )
    asked = ["Drop table t.\n\nConfirm to go on."]
    assert _call(_load(fixed).mcp, MODERN, "drop_table", table, YES) == (["dropped t"], asked)
    assert _call(_load(fixed).mcp, MODERN, "drop_table", table, DECLINE) == (["not dropped: The user said no."], asked)
    assert _call(_load(fixed).mcp, MODERN, "drop_table", table, None) == (
        ["not dropped: This client cannot ask for confirmation."],
        [],
    )


# ---------------------------------------------------------------------------------------------
# A method of a class in another module whose `try` also builds the request (nexus-dev's
# AgentExecutor.execute): the method asks in place, the tools (one a factory makes) return its result


AGENTS1 = DATA / "agents1"
AGENTS2 = DATA / "agents2"
AGENT_FILES = ("app.py", "agents/__init__.py", "agents/executor.py")
PORT_INTERIM = ["fix", "--no-cache", "--target-sdk", "mcp2", "--strategy", "interim", "--unsafe-fixes"]
REFUSE = {"code": -1, "message": "User rejected sampling request"}
SAMPLING_NOT_FOUND = {"code": -32601, "message": "Method not found"}
AGENT_CALLS = [
    {"tool": "ask_agent", "arguments": {"agent": "planner", "task": "plan a trip"}},
    {"tool": "ask_planner", "arguments": {"task": "plan a trip"}},
    {"tool": "ask_agent", "arguments": {"agent": "planner", "task": "plan a trip", "budget": "lots"}},
]


def _agents(root: Path, mode: str, client: dict[str, Any] | None, python: str) -> Any:
    out = run_proof(python, root / "app.py", "mcp", mode, [], AGENT_CALLS, client=client)
    return [(c["is_error"], c["text"], c["error"]) for c in out["calls"]]


def test_a_method_whose_try_also_builds_the_request_asks_in_place_and_the_tools_return_it(
    tmp_path: Path, legacy_python: str, mcp2_python: str, monkeypatch: Any
) -> None:
    monkeypatch.setenv("MCPMIGRATE_LEGACY_PYTHON", legacy_python)
    root = _project(tmp_path, {f: (AGENTS1 / f).read_text(encoding="utf-8") for f in AGENT_FILES}, "mcp>=1.27,<2")
    before = tmp_path / "before"
    shutil.copytree(root, before)
    from tests.helpers import cli

    res = cli([*PORT_INTERIM, "--output-format", "json", "."], root)
    assert res.exception is None and res.json["errors"] == [], str(res)
    [ask] = [f for f in res.json["fixed"] if f["rule"] == "MCP201"]
    assert (ask["path"], ask["line"]) == (
        "agents/executor.py",
        29,
    )  # the original file's line (the port removed one above it)
    assert ask["fix"]["description"] == (
        "on 2026-07-28 `AgentExecutor.execute` returns `InputRequiredResult` with a `CreateMessageRequest` under key "
        "'execute.result' and reads the answer from `ctx.input_responses` on the retry (a client that did not "
        'declare sampling gets the `try`\'s fallback for a client that cannot answer (its `"Method not found" in …` '
        "test now also matches -32021); no requestState is written); legacy keeps the request (review: on "
        "2026-07-28 each calling tool (`ask_agent` in app.py, `register_agents.make_tool.agent_tool` in app.py) "
        "runs again up to its call of `execute` on the retry: the code before that call runs once per round)"
    )
    for f in AGENT_FILES:
        assert (root / f).read_text(encoding="utf-8") == (AGENTS2 / f).read_text(encoding="utf-8"), f
    again = {f: (root / f).read_bytes() for f in AGENT_FILES}
    assert cli(PORT_INTERIM + ["."], root).exception is None
    assert {f: (root / f).read_bytes() for f in AGENT_FILES} == again, "a second fix changed a file"

    # Legacy: the original on mcp 1.27 and the fixed server on mcp 2.3 answer alike: sampled, refused,
    # METHOD_NOT_FOUND (the code's fallback), no sampling capability; a budget that does not parse
    # fails where the request is built, in the same `try`.
    for client in ({"sampling": True}, {"sampling": REFUSE}, {"sampling": SAMPLING_NOT_FOUND}, None):
        old = _agents(before, "legacy", client, legacy_python)
        assert _agents(root, "legacy", client, mcp2_python) == old, client
    sampled = '{"max_tokens": 200, "messages": ["plan a trip"], "model_hints": ["small"], "system_prompt": "You are the planner.", "temperature": null}'
    bad_budget = (False, ["planner failed: invalid literal for int() with base 10: 'lots'"], None)
    fallback = (False, ["planner cannot sample here; prompt: You are the planner. plan a trip"], None)
    assert _agents(before, "legacy", {"sampling": True}, legacy_python) == [
        (False, [sampled], None),
        (False, [sampled], None),
        bad_budget,
    ]
    assert _agents(before, "legacy", {"sampling": SAMPLING_NOT_FOUND}, legacy_python) == [
        fallback,
        fallback,
        bad_budget,
    ]
    assert _agents(before, "legacy", {"sampling": REFUSE}, legacy_python)[0] == (
        False,
        ["planner failed: User rejected sampling request"],
        None,
    )
    # 2026-07-28 (the original, mcp 1.x code, does not even import on mcp 2.3): the fixed tools ask in one
    # round and return the answer; a client without sampling gets the code's own fallback; the budget
    # still fails before the round.
    assert _agents(root, "modern", {"sampling": True}, mcp2_python) == [
        (False, [sampled], None),
        (False, [sampled], None),
        bad_budget,
    ]
    assert _agents(root, "modern", None, mcp2_python) == [fallback, fallback, bad_budget]
    # A refusal on 2026-07-28 never reaches the server: mcp 2.3's client raises it itself.
    refused = _agents(root, "modern", {"sampling": REFUSE}, mcp2_python)
    assert [c[2] for c in refused[:2]] == ["MCPError: User rejected sampling request"] * 2
    assert refused[2] == bad_budget


def test_a_tool_that_uses_the_methods_answer_keeps_it_manual_and_the_port_unwritten(
    tmp_path: Path, legacy_python: str, monkeypatch: Any
) -> None:
    """The factory's tool reads what `execute` returns (`(await …).strip()`): it cannot hand on an interim
    result, so the question stays manual — and the port, which would have written the other module
    calling into an unported one, writes nothing either."""
    monkeypatch.setenv("MCPMIGRATE_LEGACY_PYTHON", legacy_python)
    files = {f: (AGENTS1 / f).read_text(encoding="utf-8") for f in AGENT_FILES}
    files["app.py"] = files["app.py"].replace(
        "                return await executor.execute(task)\n",
        "                return (await executor.execute(task)).strip()\n",
    )
    root = _project(tmp_path, files, "mcp>=1.27,<2")
    from tests.helpers import cli

    res = cli([*PORT_INTERIM, "--output-format", "json", "."], root)
    assert [e["message"] for e in res.json["errors"]] == [
        "fix not applied: the handlers in other modules must ask the question (or relay the helper's interim "
        "result) (`ask_agent`, `register_agents.make_tool.agent_tool` in app.py: `executor.execute(task, ctx=ctx)` "
        "in `register_agents.make_tool.agent_tool` is not a statement `await execute(…)`, `name = "
        "await execute(…)` or `return await execute(…)` of its own: rewrite by hand); nothing was written for it",
        "blocks the port to mcp 2.x: the interim fix of this file was not applied (its error above), and the port "
        "writes every file or none; nothing was written. Port first (`fix --target-sdk mcp2` without `--strategy "
        "interim`), then run `fix --strategy interim`",
    ]
    for f in AGENT_FILES:
        assert (root / f).read_text(encoding="utf-8") == files[f], f
    assert "mcp>=1.27,<2" in (root / "pyproject.toml").read_text(encoding="utf-8")


def test_a_tool_that_also_reaches_a_request_no_round_asks_still_returns_the_methods_round(
    tmp_path: Path, legacy_python: str, mcp2_python: str, monkeypatch: Any
) -> None:
    """nexus-dev's `ask_agent`: before the agent runs, a helper asks for the roots inside the tool's
    `try` (manual: it cannot be asked before the tool runs). That request keeps running on every
    connection as it does today (on 2026-07-28 it fails into its own fallback, `.`), so it is no
    other question of the method's round: the tool returns that round."""
    monkeypatch.setenv("MCPMIGRATE_LEGACY_PYTHON", legacy_python)
    files = {f: (AGENTS1 / f).read_text(encoding="utf-8") for f in AGENT_FILES}
    files["app.py"] = (AGENTS1 / "app_roots.py").read_text(encoding="utf-8")
    root = _project(tmp_path, files, "mcp>=1.27,<2")
    before = tmp_path / "before"
    shutil.copytree(root, before)
    from tests.helpers import cli

    res = cli([*PORT_INTERIM, "--output-format", "json", "."], root)
    assert res.exception is None and res.json["errors"] == [], str(res)
    assert [(f["rule"], f["path"], f["line"]) for f in res.json["fixed"] if f["rule"].startswith("MCP2")] == [
        ("MCP201", "agents/executor.py", 29)
    ]
    [roots] = res.json["findings"]
    assert (roots["rule"], roots["line"], roots["manual"]) == (
        "MCP101",
        12,
        "the request is made in the helper `_workspace`; `_workspace(ctx)` in `ask_agent` cannot ask before the "
        "tool runs: it runs only on some paths, or under a `with`/`try`; rewrite by hand",
    )
    assert (root / "app.py").read_text(encoding="utf-8") == (AGENTS2 / "app_roots.py").read_text(encoding="utf-8")
    for f in ("agents/__init__.py", "agents/executor.py"):
        assert (root / f).read_text(encoding="utf-8") == (AGENTS2 / f).read_text(encoding="utf-8"), f

    calls = [{"tool": "ask_agent", "arguments": {"agent": "planner", "task": "plan"}}]

    def run(python: str, where: Path, mode: str, client: dict[str, Any] | None) -> Any:
        out = run_proof(python, where / "app.py", "mcp", mode, ["file:///w"], calls, client=client)
        return [(c["is_error"], c["text"], c["error"]) for c in out["calls"]]

    echo = '{"max_tokens": 200, "messages": ["plan in %s"], "model_hints": ["small"], "system_prompt": "You are the planner.", "temperature": null}'
    for client in ({"sampling": True}, None):
        assert run(mcp2_python, root, "legacy", client) == run(legacy_python, before, "legacy", client), client
    assert run(legacy_python, before, "legacy", {"sampling": True}) == [(False, [echo % "file:///w"], None)]
    assert run(mcp2_python, root, "modern", {"sampling": True}) == [(False, [echo % "."], None)]
    assert run(mcp2_python, root, "modern", None) == [
        (False, ["planner cannot sample here; prompt: You are the planner. plan in ."], None)
    ]

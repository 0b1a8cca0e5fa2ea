"""Field cases of the fix-trust issue: a removal never turns into a hang (bugs-07), and removing what
only legacy clients use is not a fix while the project serves them (requests-13, notify-02,
notify-03, notify-07, roots-07, bugs-04). Each case's right value, exactly: rule, line, severity,
fix or manual gist, and the rewritten code where a fix applies."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import cli

# bugs-07: a keep-alive whose only exit is the ping failing.
KEEPALIVE = '''\
import anyio
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("exporter")


async def _beat_direct(session, every: float) -> None:
    while True:
        await anyio.sleep(every)
        try:
            await session.send_ping()
        except Exception:
            return


async def _beat_bare(session, every: float) -> None:
    while True:
        await anyio.sleep(every)
        await session.send_ping()


async def _beat_swallowed(session, every: float) -> None:
    while True:
        await anyio.sleep(every)
        try:
            await session.send_ping()
        except Exception:
            pass


async def _beat_until(session, every: float, stop: anyio.Event) -> None:
    while True:
        if stop.is_set():
            break
        await anyio.sleep(every)
        await session.send_ping()


@mcp.tool()
async def watch(ctx: Context) -> str:
    """Block until the client goes away."""
    await _beat_direct(ctx.session, 0.01)
    await _beat_bare(ctx.session, 0.01)
    await _beat_swallowed(ctx.session, 0.01)
    await _beat_until(ctx.session, 0.01, anyio.Event())
    return "client gone"
'''

LOOP_EXIT = (
    "the ping is the only way out of a `while True` loop (through {how}: on 2026-07-28 it fails "
    "at once, on a legacy connection when the peer goes away); deleting it alone leaves a loop that "
    "never ends. Remove the keep-alive loop (and what waits for it) by hand"
)


def _run(tmp_path: Path, source: str, *args: str, name: str = "server.py") -> tuple[dict, str]:
    target = tmp_path / name
    target.write_text(source, encoding="utf-8")
    res = cli([*args, "--output-format", "json", name], tmp_path)
    assert res.exception is None, str(res)
    return res.json, target.read_text(encoding="utf-8")


def _rows(findings: list[dict]) -> list[tuple]:
    return [
        (
            f["rule"],
            f["line"],
            f["severity"],
            (f["fix"]["safety"], f["fix"]["description"]) if f["fix"] else None,
            f["manual"],
        )
        for f in findings
    ]


def test_bugs07_a_ping_that_ends_a_keepalive_loop_is_manual(tmp_path: Path) -> None:
    out, _ = _run(tmp_path, KEEPALIVE, "check")
    assert _rows(out["findings"]) == [
        ("MCP203", 11, "breaking", None, LOOP_EXIT.format(how="its `except` handler's exit")),
        ("MCP203", 19, "breaking", None, LOOP_EXIT.format(how="the exception it raises")),
        ("MCP203", 26, "breaking", ("safe", "delete the ping"), None),
        ("MCP203", 36, "breaking", ("safe", "delete the ping"), None),
    ]


def test_bugs07_fix_deletes_only_the_pings_that_are_not_the_loop_exit(tmp_path: Path) -> None:
    out, fixed = _run(tmp_path, KEEPALIVE, "fix", "--unsafe-fixes")
    assert out["errors"] == []
    assert fixed == KEEPALIVE.replace(
        """        try:
            await session.send_ping()
        except Exception:
            pass
""",
        """        try:
            pass
        except Exception:
            pass
""",
    ).replace(
        """        await anyio.sleep(every)
        await session.send_ping()


@mcp.tool()""",
        """        await anyio.sleep(every)


@mcp.tool()""",
    )
    assert "try:\n            await session.send_ping()\n        except Exception:\n            return" in fixed


# -- dual era: what only legacy clients use ------------------------------------------------------

DATA = Path(__file__).parent / "data" / "dual_era"  # the field cases, headers included (line numbers match)
DECLARE = (
    "once the project no longer serves legacy clients, declare it (`legacy-clients = false` under "
    "[tool.mcpmigrate], or `--no-legacy-clients`) and the removal is offered"
)
KEEP_402 = (
    "kept: legacy (handshake-era) clients still send `logging/setLevel`, and this registration is what "
    "declares the `logging` capability to them; " + DECLARE
)
KEEP_205 = (
    "kept: legacy (handshake-era) clients still receive `notifications/elicitation/complete`: it tells them "
    "the out-of-band step finished; " + DECLARE
)
STILL_LOGS = (
    "the module still sends protocol log notifications (MCP401), and the registration is what declares the "
    "`logging` capability a server that sends them must declare: move them to the standard library first, "
    "then the registration can go"
)
NO_LEGACY = "--no-legacy-clients"


def _case(name: str) -> str:
    return (DATA / f"{name}.py").read_text(encoding="utf-8")


def test_requests13_elicit_complete_is_kept_while_legacy_clients_are_served(tmp_path: Path) -> None:
    source = _case("requests_13")
    out, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes", "--strategy", "interim")
    assert fixed == source  # the send stays: legacy clients are still told the URL step finished
    assert [r for r in _rows(out["findings"]) if r[0] == "MCP205"] == [("MCP205", 28, "legacy-only", None, KEEP_205)]
    assert "legacy clients still receive it" in out["findings"][1]["message"]


def test_requests13_elicit_complete_goes_once_legacy_clients_are_not_served(tmp_path: Path) -> None:
    source = _case("requests_13")
    out, _ = _run(tmp_path, source, "check", NO_LEGACY)
    assert [r for r in _rows(out["findings"]) if r[0] == "MCP205"] == [
        (
            "MCP205",
            28,
            "legacy-only",
            ("unsafe", "delete the send; `flow` is used elsewhere for correlation: review it"),
            None,
        )
    ]
    _, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes", NO_LEGACY)
    assert fixed == source.replace(
        "    await ctx.session.send_elicit_complete(flow, related_request_id=ctx.request_id)\n", ""
    )


def test_notify02_set_level_handler_is_legacy_only_and_kept(tmp_path: Path) -> None:
    source = _case("notify_02")
    out, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes")
    assert fixed == source
    assert _rows(out["findings"]) == [("MCP402", 43, "legacy-only", None, KEEP_402)]
    assert out["findings"][0]["message"].endswith("Remove it once the project no longer serves legacy clients.")


def test_notify02_removal_is_offered_with_legacy_clients_false_in_the_config(tmp_path: Path) -> None:
    source = _case("notify_02")
    (tmp_path / "pyproject.toml").write_text("[tool.mcpmigrate]\nlegacy-clients = false\n", encoding="utf-8")
    out, _ = _run(tmp_path, source, "check")
    assert _rows(out["findings"]) == [
        ("MCP402", 43, "legacy-only", ("safe", "remove the on_set_logging_level handler"), None)
    ]
    _, fixed = _run(tmp_path, source, "fix")
    assert fixed == source.replace(
        """async def apply_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
    # legacy clients pick the floor of our stderr diagnostics
    logging.getLogger("inventory").setLevel(LEVELS[params.level])
    return types.EmptyResult()


""",
        "",
    ).replace("        on_set_logging_level=apply_level,\n", "")
    # the flag wins over the config key
    out, _ = _run(tmp_path, source, "check", "--legacy-clients")
    assert _rows(out["findings"]) == [("MCP402", 43, "legacy-only", None, KEEP_402)]


def test_notify03_set_level_stays_while_the_module_still_sends_protocol_logs(tmp_path: Path) -> None:
    source = _case("notify_03")
    out, _ = _run(tmp_path, source, "check")
    assert _rows(out["findings"]) == [
        ("MCP402", 24, "legacy-only", None, KEEP_402 + f" (even then, {STILL_LOGS})"),
        ("MCP401", 41, "deprecated", None, "the level is not a literal MCP log level: pick the stdlib level by hand"),
    ]
    out, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes", NO_LEGACY)
    assert fixed == source
    assert _rows(out["findings"])[0] == ("MCP402", 24, "legacy-only", None, STILL_LOGS)


def test_notify03_set_level_goes_after_the_protocol_logs_moved_to_stdlib(tmp_path: Path) -> None:
    """Once the module's protocol logging is fixed (round 1), the registration goes (round 2)."""
    source = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("upstream-bridge")
floor = {"level": "debug"}


@server.set_logging_level()
async def choose_floor(level: types.LoggingLevel) -> None:
    floor["level"] = level


@server.call_tool()
async def call(name: str, arguments: dict) -> list[types.TextContent]:
    await server.request_context.session.send_log_message(level="warning", data="upstream is slow", logger="upstream")
    return [types.TextContent(type="text", text=f"poked {name}")]
"""
    out, fixed = _run(tmp_path, source, "fix", NO_LEGACY)
    assert out["findings"] == []
    assert fixed == (
        "import logging\n"
        "\n"
        "import mcp.types as types\n"
        "from mcp.server.lowlevel import Server\n"
        "\n"
        'server = Server("upstream-bridge")\n'
        'floor = {"level": "debug"}\n'
        "\n"
        "\n"
        "@server.call_tool()\n"
        "async def call(name: str, arguments: dict) -> list[types.TextContent]:\n"
        '    logging.getLogger("upstream").warning("upstream is slow")\n'
        '    return [types.TextContent(type="text", text=f"poked {name}")]\n'
    )


BUGS_04_TIE = ("unsafe", "removed together with the roots request in `_refresh`, whose cache `_cache` it invalidates")
ROOTS_07_BLOCKED = (
    "`_revoke` invalidates `_GRANTED`, which `read_shelf` fills from the roots request: it goes "
    "together with that request (the MCP101 fix), never alone while the cache stays"
)


def test_bugs04_the_cache_handler_goes_only_with_the_roots_request(tmp_path: Path) -> None:
    """`call_tool` reads `_cache` before asking (field case bugs-19): that shortcut goes with the
    request (bugs_04.fixed.py: `roots = await _refresh(root_paths)`), and so does the handler
    that clears the cache; never the handler alone."""
    source = _case("bugs_04")
    for flags in ((), (NO_LEGACY,)):
        out, _ = _run(tmp_path, source, "check", *flags, name="bugs_04.py")
        assert [r for r in _rows(out["findings"]) if r[0] == "MCP103"] == [
            ("MCP103", 35, "legacy-only", BUGS_04_TIE, None)
        ]
        # a plain fix applies neither: never the handler alone while the cache stays
        _, fixed = _run(tmp_path, source, "fix", *flags, name="bugs_04.py")
        assert fixed == source
        # with the request, it goes too
        _, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes", *flags, name="bugs_04.py")
        assert fixed == (DATA / "bugs_04.fixed.py").read_text(encoding="utf-8")


def test_roots07_the_cache_handler_stays_while_its_fenced_roots_request_is_manual(tmp_path: Path) -> None:
    """roots-07's roots fence what `read_shelf` may read (an allow-list): the param fix (chosen with
    `--strategy param`) leaves the request for a human, so the handler that invalidates its cache
    stays too, in both modes. By default the fence is answered from the server's configuration
    (tests/test_fences.py), safe without legacy clients, and the handler then goes in the same run."""
    source = _case("roots_07")
    keep = (
        "kept: legacy (handshake-era) clients still send `notifications/roots/list_changed` to this handler; " + DECLARE
    )
    out, _ = _run(tmp_path, source, "check", name="roots_07.py")
    assert [r for r in _rows(out["findings"]) if r[0] == "MCP103"] == [
        ("MCP103", 28, "legacy-only", None, f"{keep} (even then, {ROOTS_07_BLOCKED})")
    ]
    out, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes", NO_LEGACY, name="roots_07.py")
    assert "        listing = _configured_roots()\n" in fixed and "async def _revoke" not in fixed
    assert out["findings"] == []
    out, fixed = _run(tmp_path, source, "fix", "--strategy", "param", "--unsafe-fixes", NO_LEGACY, name="roots_07.py")
    assert fixed == source
    assert [r for r in _rows(out["findings"]) if r[0] == "MCP103"] == [
        ("MCP103", 28, "legacy-only", None, ROOTS_07_BLOCKED)
    ]


def test_roots07_the_cache_handler_is_manual_when_the_request_is_not_fixed(tmp_path: Path) -> None:
    """strategy interim on mcp 1.x: the roots request is left for a human, and so is its cache's handler."""
    source = _case("roots_07")
    blocked = (
        "`_revoke` invalidates `_GRANTED`, which `read_shelf` fills from the roots request: it goes together "
        "with that request (the MCP101 fix), never alone while the cache stays"
    )
    keep = (
        "kept: legacy (handshake-era) clients still send `notifications/roots/list_changed` to this handler; " + DECLARE
    )
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nstrategy = "interim"\n', encoding="utf-8")
    out, _ = _run(tmp_path, source, "check")
    assert [r for r in _rows(out["findings"]) if r[0] == "MCP103"] == [
        ("MCP103", 28, "legacy-only", None, f"{keep} (even then, {blocked})")
    ]
    out, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes", NO_LEGACY)
    assert fixed == source
    assert [r for r in _rows(out["findings"]) if r[0] == "MCP103"] == [("MCP103", 28, "legacy-only", None, blocked)]


def test_a_roots_handler_with_no_cache_is_legacy_only(tmp_path: Path) -> None:
    source = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("files")


async def on_roots_changed(notification) -> None:
    print("roots changed")


server.notification_handlers[types.RootsListChangedNotification] = on_roots_changed
"""
    keep = (
        "kept: legacy (handshake-era) clients still send `notifications/roots/list_changed` to this handler; " + DECLARE
    )
    out, fixed = _run(tmp_path, source, "fix", "--unsafe-fixes")
    assert fixed == source and _rows(out["findings"]) == [("MCP103", 11, "legacy-only", None, keep)]
    _, fixed = _run(tmp_path, source, "fix", NO_LEGACY)
    assert fixed == 'from mcp.server.lowlevel import Server\n\nserver = Server("files")\n'


def test_notify07_dispatch_advice_never_deletes_a_branch(tmp_path: Path) -> None:
    source = _case("notify_07")
    out, _ = _run(tmp_path, source, "check")
    assert _rows(out["findings"]) == [
        (
            "MCP302",
            24,
            "breaking",
            None,
            "keep routing `resources/read` (it still exists); route `resources/subscribe`, `resources/unsubscribe` only "
            "on handshake-era connections (they do not exist on 2026-07-28; legacy clients still use them), and serve "
            "`subscriptions/listen` for 2026-07-28 clients",
        ),
        (
            "MCP402",
            26,
            "legacy-only",
            None,
            "keep routing `logging/setLevel` while legacy clients are served (it does not exist on 2026-07-28: route it "
            "only on handshake-era connections; 2026-07-28 clients send the level with each request in "
            '`_meta["io.modelcontextprotocol/logLevel"]`), and keep the other methods this dispatch routes; stop '
            "routing it once the project no longer serves legacy clients (`legacy-clients = false` under [tool.mcpmigrate])",
        ),
    ]
    out, _ = _run(tmp_path, source, "check", NO_LEGACY)
    assert _rows(out["findings"]) == [
        (
            "MCP302",
            24,
            "breaking",
            None,
            "keep routing `resources/read` (it still exists); stop routing `resources/subscribe`, `resources/unsubscribe`; "
            "serve `subscriptions/listen` instead",
        ),
        (
            "MCP402",
            26,
            "legacy-only",
            None,
            "stop routing `logging/setLevel` here (it does not exist on 2026-07-28; 2026-07-28 clients send the level with "
            'each request in `_meta["io.modelcontextprotocol/logLevel"]`); keep routing every other method this '
            "dispatch handles",
        ),
    ]
    for f in out["findings"]:
        assert "remove this dispatch branch" not in (f["manual"] or "")


def test_legacy_clients_config_key_is_validated(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpmigrate]\nlegacy-clients = "no"\n', encoding="utf-8")
    (tmp_path / "server.py").write_text(_case("notify_02"), encoding="utf-8")
    res = cli(["check", "server.py"], tmp_path)
    assert res.exit_code == 2
    assert "[tool.mcpmigrate].legacy-clients: expected a boolean (true or false), got a string ('no')" in res.stderr


def test_legacy_only_maps_to_note_in_sarif_and_notice_on_github(tmp_path: Path) -> None:
    import json

    (tmp_path / "server.py").write_text(_case("notify_02"), encoding="utf-8")
    sarif = json.loads(cli(["check", "--output-format", "sarif", "server.py"], tmp_path).stdout)
    (result,) = sarif["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("MCP402", "note")
    github = cli(["check", "--output-format", "github", "server.py"], tmp_path).stdout
    assert github.startswith("::notice file=server.py,line=43,")
    text = cli(["check", "server.py"], tmp_path).stdout
    assert "Found 1 finding (1 legacy-only)" in text

"""Which SDK generation a project runs on when its pins alone do not say (requests-15): the
lockfile decides before the declared pins, and under a pin that admits both generations the
module's own generation-only names do; fastmcp code on mcp 1.x is refused, and a guard-pattern fix
whose ``mcp_types`` imports the project may not have is never labelled safe."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcpmigrate import lockfiles, pins
from tests.helpers import cli
from tests.proof import json_answer

DATA = Path(__file__).parent / "data" / "pins"
LOWER_BOUNDS = (
    '[project]\nname = "awslabs.aws-api-mcp-server"\nversion = "1"\ndependencies = ["mcp>=1.23.0", "fastmcp>=3.2.0"]\n'
)
INTERIM = '\n[tool.mcpmigrate]\nstrategy = "interim"\n'


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    pins.clear_cache()


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _lock(entries: dict[str, str], manifest: list[str] | None = None) -> str:
    head = 'version = 1\nrevision = 3\nrequires-python = ">=3.10"\n'
    if manifest is not None:
        head += "\n[manifest]\nmembers = [" + ", ".join(f'"{m}"' for m in manifest) + "]\n"
    return head + "".join(
        f'\n[[package]]\nname = "{name}"\nversion = "{version}"\nsource = {{ registry = "https://pypi.org/simple" }}\n'
        for name, version in entries.items()
    )


def _stated(directory: Path, package: str) -> tuple[bool, str] | None:
    pins.clear_cache()
    v = pins.project_pins(directory).verdict(package)
    return None if v is None else (v.new, v.pin.stated())


# -- the lockfile ----------------------------------------------------------------------------------


def test_the_uv_lock_decides_what_a_lower_bound_leaves_open(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", LOWER_BOUNDS)
    assert _stated(tmp_path, "fastmcp") is None  # `fastmcp>=3.2.0` admits 3.x and 4
    shutil.copy(DATA / "aws-api-mcp-server.uv.lock", tmp_path / "uv.lock")
    assert _stated(tmp_path, "fastmcp") == (False, "locks `fastmcp==3.4.3` in uv.lock")
    assert _stated(tmp_path, "mcp") == (False, "locks `mcp==1.29.0` in uv.lock")


@pytest.mark.parametrize("name", ["poetry.lock", "pdm.lock"])
def test_poetry_and_pdm_locks(tmp_path: Path, name: str) -> None:
    _write(tmp_path / "pyproject.toml", '[tool.poetry.dependencies]\nfastmcp = ">=2.3.5"\n')
    # both write one [[package]] table per resolved distribution, with name and version
    _write(tmp_path / name, '[[package]]\nname = "fastmcp"\nversion = "4.2.3"\ndescription = "x"\n')
    assert _stated(tmp_path, "fastmcp") == (True, f"locks `fastmcp==4.2.3` in {name}")


def test_the_lock_wins_over_the_declarations(tmp_path: Path) -> None:
    """The lock is what the project runs on, even when a declaration says otherwise (a stale pin)."""
    _write(tmp_path / "requirements.txt", "fastmcp>=4\n")
    _write(tmp_path / "uv.lock", _lock({"fastmcp": "2.12.4"}))
    assert _stated(tmp_path, "fastmcp") == (False, "locks `fastmcp==2.12.4` in uv.lock")


def test_a_declaration_the_lock_agrees_with_is_named(tmp_path: Path) -> None:
    """awslabs/mcp's sap server: `mcp[cli]>=1.23.0,<2.0.0` and a lock of mcp 1.29.0. The pin is what
    the user edits to upgrade, so the message names it."""
    _write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "x"\nversion = "1"\ndependencies = ["mcp[cli]>=1.23.0,<2.0.0"]\n',
    )
    _write(tmp_path / "uv.lock", _lock({"mcp": "1.29.0"}))
    assert _stated(tmp_path, "mcp") == (
        False,
        "pins `mcp[cli]>=1.23.0,<2.0.0` in pyproject.toml [project.dependencies]",
    )


def test_a_lock_without_the_package_leaves_the_declarations(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", LOWER_BOUNDS.replace("fastmcp>=3.2.0", "fastmcp>=4"))
    _write(tmp_path / "uv.lock", _lock({"httpx": "0.28.1"}))
    assert _stated(tmp_path, "fastmcp") == (True, "pins `fastmcp>=4` in pyproject.toml [project.dependencies]")


def test_locked_versions_on_both_sides_decide_nothing(tmp_path: Path) -> None:
    """uv forks a resolution per marker set: one fastmcp 3 and one fastmcp 4 entry say nothing."""
    _write(tmp_path / "uv.lock", _lock({"fastmcp": "3.4.3"}) + _lock({"fastmcp": "4.2.3"}).split("\n", 3)[3])
    _write(tmp_path / "pyproject.toml", LOWER_BOUNDS)
    assert _stated(tmp_path, "fastmcp") is None


def test_a_uv_workspace_root_lock_counts_for_its_members_only(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    _write(tmp_path / "pyproject.toml", '[tool.uv.workspace]\nmembers = ["servers/*"]\n')
    _write(tmp_path / "uv.lock", _lock({"fastmcp": "3.4.3"}, manifest=["jobs-server"]))
    _write(tmp_path / "servers/jobs/pyproject.toml", LOWER_BOUNDS.replace("awslabs.aws-api-mcp-server", "Jobs_Server"))
    assert _stated(tmp_path / "servers/jobs", "fastmcp") == (False, "locks `fastmcp==3.4.3` in ../../uv.lock")
    _write(tmp_path / "servers/other/pyproject.toml", LOWER_BOUNDS.replace("awslabs.aws-api-mcp-server", "other"))
    assert _stated(tmp_path / "servers/other", "fastmcp") is None  # not a member of that lock


def test_broken_and_huge_locks_decide_nothing(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", LOWER_BOUNDS)
    _write(tmp_path / "uv.lock", '[[package]\nname = "fastmcp"\nversion = "3.4.3"\n')
    assert _stated(tmp_path, "fastmcp") is None
    _write(tmp_path / "uv.lock", _lock({"fastmcp": "3.4.3"}) + "# padding\n" * (lockfiles.MAX_BYTES // 10 + 1))
    assert _stated(tmp_path, "fastmcp") is None


def test_the_signature_follows_the_lock(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", LOWER_BOUNDS)
    _write(tmp_path / "uv.lock", _lock({"fastmcp": "3.4.3"}))
    first = pins.signature(tmp_path)
    _write(tmp_path / "uv.lock", _lock({"fastmcp": "4.2.3"}))
    assert pins.signature(tmp_path) != first


def test_open_pin_is_the_lower_bound_nothing_decides(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", LOWER_BOUNDS)
    found = pins.project_pins(tmp_path)
    assert found.open_pin("fastmcp") is not None and found.open_pin("fastmcp").text == "fastmcp>=3.2.0"  # type: ignore[union-attr]
    _write(tmp_path / "uv.lock", _lock({"fastmcp": "3.4.3"}))
    pins.clear_cache()
    assert pins.project_pins(tmp_path).open_pin("fastmcp") is None  # the lock decides
    (tmp_path / "uv.lock").unlink()
    _write(tmp_path / "pyproject.toml", LOWER_BOUNDS.replace("fastmcp>=3.2.0", "fastmcp"))
    pins.clear_cache()
    assert pins.project_pins(tmp_path).open_pin("fastmcp") is None  # no version: names no generation


# -- the CLI: requests-15 ----------------------------------------------------------------------------


def _case(tmp_path: Path, server: str, lock: str | None = None, pyproject: str = LOWER_BOUNDS) -> None:
    _write(tmp_path / "pyproject.toml", pyproject + INTERIM)
    _write(tmp_path / "server.py", server)
    if lock is not None:
        _write(tmp_path / "uv.lock", lock)


def _elicit(tmp_path: Path) -> dict:
    res = cli(["check", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP202"]
    return f


def _unchanged_by_fix(tmp_path: Path) -> None:
    before = (tmp_path / "server.py").read_text(encoding="utf-8")
    res = cli(["fix", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    assert (tmp_path / "server.py").read_text(encoding="utf-8") == before


REQUESTS_15 = (DATA / "requests15_server.py").read_text(encoding="utf-8")
# the same tool without the mcp 1.x name: nothing in the module says which generation
NO_EVIDENCE = REQUESTS_15.split("\n\n@app.tool\nasync def status")[0].replace(
    "from mcp.shared.exceptions import McpError\n", ""
)


def test_requests15_lower_bound_and_an_mcp1_import_refuse(tmp_path: Path) -> None:
    _case(tmp_path, REQUESTS_15)
    f = _elicit(tmp_path)
    assert (f["line"], f["column"]) == (36, 20)
    assert f["fix"] is None
    assert f["manual"] == (
        "fastmcp 2.x/3.x code (the project pins `fastmcp>=3.2.0` in pyproject.toml [project.dependencies], "
        "which admits fastmcp 2.x/3.x, and the module imports `McpError` from `mcp.shared.exceptions`, an mcp "
        "1.x name: fastmcp 4 runs on mcp 2.x) has no interim form: fastmcp 4's guard pattern (return "
        "`InputRequiredResult(input_requests={…})` while `ctx.input_responses` lacks the answer, read it on the "
        "retry) needs fastmcp 4 (mcp>=2.3). Upgrade to fastmcp 4 (mcp 2.x calls `McpError` `MCPError`) and run "
        "`fix --strategy interim` again"
    )
    _unchanged_by_fix(tmp_path)


def test_requests15_the_lock_refuses_naming_the_locked_version(tmp_path: Path) -> None:
    _case(tmp_path, NO_EVIDENCE, lock=(DATA / "aws-api-mcp-server.uv.lock").read_text(encoding="utf-8"))
    f = _elicit(tmp_path)
    assert f["fix"] is None
    assert f["manual"].startswith(
        "fastmcp 2.x/3.x code (the project locks `fastmcp==3.4.3` in uv.lock) has no interim form"
    )
    _unchanged_by_fix(tmp_path)


def test_requests15_a_fastmcp4_lock_fixes_under_the_same_lower_bound(tmp_path: Path) -> None:
    _case(tmp_path, NO_EVIDENCE, lock=_lock({"fastmcp": "4.2.3", "mcp": "2.3.0"}))
    f = _elicit(tmp_path)
    assert f["fix"] is not None and f["fix"]["safety"] == "safe", f
    assert f["fix"]["description"].endswith("the project locks `fastmcp==4.2.3` in uv.lock)")


def test_requests15_lower_bound_without_evidence_is_unsafe_not_safe(tmp_path: Path) -> None:
    _case(tmp_path, NO_EVIDENCE)
    f = _elicit(tmp_path)
    assert f["fix"] is not None and f["fix"]["safety"] == "unsafe", f
    assert f["fix"]["description"].endswith(
        "(review: the project pins `fastmcp>=3.2.0` in pyproject.toml [project.dependencies], which also admits "
        "fastmcp 2.x/3.x (mcp 1.x), where the fixed module's mcp 2.x imports (`mcp_types`, `MCPError`) do not "
        "exist: pin `fastmcp>=4` "
        "(or lock it) before applying this)"
    )
    _unchanged_by_fix(tmp_path)  # an unsafe fix needs --unsafe-fixes


def test_mcp2_imports_in_the_module_settle_a_lower_bound(tmp_path: Path) -> None:
    """``mcp_types`` is already imported: the module runs on mcp 2.x, so fastmcp 4; the fix is safe."""
    server = NO_EVIDENCE.replace(
        "from pydantic import BaseModel\n", "from mcp_types import TextContent\nfrom pydantic import BaseModel\n"
    )
    _case(tmp_path, server)
    f = _elicit(tmp_path)
    assert f["fix"] is not None and f["fix"]["safety"] == "safe", f


def test_the_mcp_package_reexport_is_evidence_too(tmp_path: Path) -> None:
    _case(tmp_path, REQUESTS_15.replace("from mcp.shared.exceptions import McpError", "from mcp import McpError"))
    f = _elicit(tmp_path)
    assert f["fix"] is None and "the module imports `McpError` from `mcp`, an mcp 1.x name" in f["manual"]


def test_a_fastmcp3_only_call_elsewhere_is_evidence_too(tmp_path: Path) -> None:
    """``ctx.sample`` (removed in fastmcp 4) in another tool of the module, under the lower bound."""
    server = NO_EVIDENCE + (
        "\n\n@app.tool\nasync def summarize(text: str, ctx: Context) -> str:\n"
        "    reply = await ctx.sample(text)\n    return str(reply)\n"
    )
    _case(tmp_path, server)
    f = _elicit(tmp_path)
    assert f["fix"] is None
    assert f["manual"].startswith("fastmcp 2.x/3.x code (the module uses `ctx.sample`, which fastmcp 4 removed)")


def test_a_fallback_import_of_both_generations_is_no_evidence(tmp_path: Path) -> None:
    server = NO_EVIDENCE.replace(
        "from pydantic import BaseModel\n",
        "try:\n    from mcp.shared.exceptions import MCPError\nexcept ImportError:\n"
        "    from mcp.shared.exceptions import McpError as MCPError\nfrom pydantic import BaseModel\n",
    )
    _case(tmp_path, server)
    f = _elicit(tmp_path)
    # not evidence of either generation; the compatibility block itself says the module also runs
    # on mcp 1.x, which the open pin admits: the fix (mcp 2.x only) is refused
    assert f["fix"] is None, f
    assert f["manual"].startswith("this module also supports mcp 1.x, which has no resolvers"), f


# -- proof: what the refusals and the review note say, on the real SDKs ----------------------------


def _imports(python: str, directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, "-c", "import server"], cwd=directory, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_guard_pattern_fix_does_not_import_on_fastmcp3(tmp_path: Path, legacy_python: str) -> None:
    """Applied anyway (``--unsafe-fixes``), the fix imports ``mcp_types`` and ``MCPError``, which
    fastmcp 2.14 / mcp 1.27 do not have, while the module imported there before: the review note is
    true."""
    _case(tmp_path, NO_EVIDENCE)
    assert _imports(legacy_python, tmp_path).returncode == 0
    res = cli(["fix", "--unsafe-fixes", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    assert "mcp_types" in (tmp_path / "server.py").read_text(encoding="utf-8")
    after = _imports(legacy_python, tmp_path)
    assert after.returncode != 0
    assert "No module named 'mcp_types'" in after.stderr or "cannot import name 'MCPError'" in after.stderr
    assert _imports(sys.executable, tmp_path).returncode == 0  # on fastmcp 4 / mcp 2.x it imports


def test_the_mcp1_name_is_mcp1_only(tmp_path: Path, legacy_python: str) -> None:
    """requests-15 as written imports on fastmcp 2.14 / mcp 1.27 and not on fastmcp 4 / mcp 2.x (no
    ``McpError`` there): the module is fastmcp 2.x/3.x code, as the refusal says."""
    _case(tmp_path, REQUESTS_15)
    assert _imports(legacy_python, tmp_path).returncode == 0
    modern = _imports(sys.executable, tmp_path)
    assert modern.returncode != 0 and "cannot import name 'McpError'" in modern.stderr


# -- notify-10: MCP301's advice follows the fastmcp the project runs on -------------------------------

NOTIFY_10 = (DATA / "notify10_server.py").read_text(encoding="utf-8")


def _list_changed(tmp_path: Path, pyproject: str, lock: str | None = None) -> dict:
    _case(tmp_path, NOTIFY_10, lock=lock, pyproject=pyproject)
    res = cli(["check", "--output-format", "json", "server.py"], tmp_path)
    assert res.exception is None, str(res)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP301"]
    assert (f["line"], f["column"]) == (34, 11)
    return f


@pytest.mark.parametrize(
    "pyproject, lock, pin",
    [
        (
            LOWER_BOUNDS.replace('"mcp>=1.23.0", "fastmcp>=3.2.0"', '"fastmcp>=4.2", "mcp>=2.3"'),
            None,
            "`fastmcp>=4.2` in pyproject.toml [project.dependencies]",
        ),
        (LOWER_BOUNDS, _lock({"fastmcp": "4.2.3", "mcp": "2.3.0"}), "`fastmcp==4.2.3` locked in uv.lock"),
    ],
    ids=["pinned", "locked"],
)
def test_notify10_on_fastmcp4_says_what_works_there(tmp_path: Path, pyproject: str, lock: str | None, pin: str) -> None:
    """fastmcp 4.2 serves no ``subscriptions/listen`` (FastMCP registers no listen handler) and its
    ``Context.send_notification`` relates the notification to the request in flight, so it rides that
    request's stream: the advice names both, and no upgrade to the version the project is on."""
    f = _list_changed(tmp_path, pyproject, lock)
    assert f"On fastmcp 4 ({pin}): keep it for legacy clients" in f["message"]
    assert "ListenHandler(bus)" in f["message"] and "ctx.send_notification(" in f["message"]
    assert "upgrade" not in f["message"].lower() and "upgrade" not in f["manual"].lower()
    assert "on fastmcp 4," not in f["manual"]


def test_notify10_on_a_fastmcp3_lock_says_upgrade(tmp_path: Path) -> None:
    f = _list_changed(tmp_path, LOWER_BOUNDS, (DATA / "aws-api-mcp-server.uv.lock").read_text(encoding="utf-8"))
    assert (
        "fastmcp 2.x/3.x (`fastmcp==3.4.3` locked in uv.lock) runs on mcp<2 and cannot serve 2026-07-28" in f["message"]
    )


OBSERVE = Path(__file__).resolve().parent / "proof" / "observe.py"


def _observe(file: Path, mode: str) -> dict:
    request = {
        "file": str(file),
        "server": "srv",
        "mode": mode,
        "listen": {"tools_list_changed": True},
        "calls": [{"tool": "toggle_beta", "arguments": {}}],
    }
    proc = subprocess.run(
        [sys.executable, str(OBSERVE)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=file.parent,
        check=False,
    )
    answer = json_answer(proc, f"observe.py for {file.name} ({mode})")
    assert [c["text"] for c in answer["calls"]] == [["beta=on"]]
    return answer


def test_notify10_the_advice_works_on_fastmcp4(tmp_path: Path) -> None:
    """notify-10 on fastmcp 4.2 / mcp 2.3, observed with the SDK client: as written, a 2026-07-28
    client's ``subscriptions/listen`` is "Method not found" and the send reaches only legacy clients;
    with the advised listen handler and bus publish, the 2026-07-28 listen stream gets
    ``ToolsListChanged`` and legacy clients still get the notification; the request-scoped
    ``send_notification`` stopgap reaches both connections (on the tools/call stream), though no
    listen stream exists."""
    base = NOTIFY_10 + "\nsrv = app._mcp_server\n"
    listen = (
        base.replace(
            'app = FastMCP(name="feature-flags")\n',
            'app = FastMCP(name="feature-flags")\nbus = InMemorySubscriptionBus()\n'
            'app._mcp_server.add_request_handler("subscriptions/listen", SubscriptionsListenRequestParams, '
            "ListenHandler(bus))\n",
        )
        .replace(
            "from fastmcp.server.dependencies import get_context\n",
            "from fastmcp.server.dependencies import get_context\n"
            "from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged\n"
            "from mcp_types import SubscriptionsListenRequestParams\n",
        )
        .replace(
            "    await get_context().session.send_tool_list_changed()\n",
            "    await get_context().session.send_tool_list_changed()\n    await bus.publish(ToolsListChanged())\n",
        )
    )
    stopgap = base.replace(
        "    await get_context().session.send_tool_list_changed()\n",
        "    await get_context().send_notification(mcp.types.ToolListChangedNotification())\n",
    ).replace("from fastmcp import FastMCP\n", "import mcp.types\nfrom fastmcp import FastMCP\n")
    seen = {}
    for name, source in (("asis", base), ("listen", listen), ("stopgap", stopgap)):
        file = _write(tmp_path / f"{name}.py", source)
        for mode in ("legacy", "modern"):
            a = _observe(file, mode)
            seen[name, mode] = (
                "notifications/tools/list_changed" in a["notifications"],
                [e["type"] for e in a["events"]],
                a["listen_error"],
            )
    assert seen == {
        ("asis", "legacy"): (True, [], None),
        ("asis", "modern"): (False, [], "MCPError: Method not found"),
        ("listen", "legacy"): (True, [], None),
        ("listen", "modern"): (True, ["ToolsListChanged"], None),
        ("stopgap", "legacy"): (True, [], None),
        ("stopgap", "modern"): (True, [], "MCPError: Method not found"),
    }


def test_notify10_a_request_scoped_send_on_fastmcp4_is_not_told_to_do_itself(tmp_path: Path) -> None:
    """fastmcp 4's ``ctx.send_notification(ToolListChangedNotification())`` is the stopgap the advice
    names (it reached the 2026-07-28 client above): the message says it is delivered there but not
    where the specification puts it, and advises only the listen handler."""
    server = (
        NOTIFY_10.replace("from fastmcp import FastMCP\n", "import mcp.types\nfrom fastmcp import Context, FastMCP\n")
        .replace("async def toggle_beta() -> str:", "async def toggle_beta(ctx: Context) -> str:")
        .replace(
            "    await get_context().session.send_tool_list_changed()\n",
            "    await ctx.send_notification(mcp.types.ToolListChangedNotification())\n",
        )
    )
    _case(tmp_path, server, pyproject=LOWER_BOUNDS.replace('"mcp>=1.23.0", "fastmcp>=3.2.0"', '"fastmcp>=4.2"'))
    res = cli(["check", "--output-format", "json", "server.py"], tmp_path)
    [f] = [f for f in res.json["findings"] if f["rule"] == "MCP301"]
    assert (f["line"], f["column"]) == (35, 11)
    assert f["message"].startswith(
        "`ctx.send_notification(…)` sends a change notification on the current request's stream; on 2026-07-28 "
        "the specification delivers change notifications only on a `subscriptions/listen` stream. On fastmcp 4 "
        "(`fastmcp>=4.2` in pyproject.toml [project.dependencies]) it does reach 2026-07-28 clients that way, "
        "which the specification does not bless; to conform, register a listen handler"
    )
    assert "silently drops" not in f["message"] and "stopgap" not in f["message"]


def test_a_lock_is_read_table_by_table_as_if_whole() -> None:
    """The SDKs' tables are parsed alone (a real uv.lock has thousands of lines): the same
    versions as parsing the whole lock, poetry's sub-tables and a workspace manifest included; a
    table that does not parse alone has the whole lock read."""
    import tomllib

    real = (DATA / "aws-api-mcp-server.uv.lock").read_text(encoding="utf-8")
    whole = [
        (e["name"], e["version"])
        for e in tomllib.loads(real)["package"]
        if e["name"] in pins.PACKAGES and "version" in e
    ]
    assert whole and list(lockfiles.locked_versions(real, pins.PACKAGES, None)) == whole
    poetry = (
        '[[package]]\nname = "MCP"\nversion = "1.29.0"\n\n[package.dependencies]\nanyio = ">=4"\n\n'
        '[[package]]\nname = "fastmcp"\nversion = "2.12.4"\n\n[package.extras]\ncli = ["typer"]\n'
        '\n[metadata]\nlock-version = "2.0"\n'
    )
    assert list(lockfiles.locked_versions(poetry, pins.PACKAGES, None)) == [("MCP", "1.29.0"), ("fastmcp", "2.12.4")]
    workspace = _lock({"fastmcp": "3.4.3"}, manifest=["jobs-server"])
    assert list(lockfiles.locked_versions(workspace, pins.PACKAGES, "jobs-server")) == [("fastmcp", "3.4.3")]
    assert list(lockfiles.locked_versions(workspace, pins.PACKAGES, "other")) == []
    # a line that opens a table inside a multi-line string: that table does not parse alone
    split = '[[package]]\nname = "mcp"\nversion = "1.29.0"\ndescription = """\n[not a table]\n"""\n'
    assert list(lockfiles.locked_versions(split, pins.PACKAGES, None)) == [("mcp", "1.29.0")]

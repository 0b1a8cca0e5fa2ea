"""The port of servers built from a subclass of mcp 1.x's ``FastMCP`` (review22, class W).

``class Hub(FastMCP)`` whose ``serve()`` reads ``self.settings.host``, with ``hub.settings.host``
written before ``hub.serve()``: the rename alone left a module that raises ``ValueError: "Settings"
object has no field "host"`` on mcp 2.3, and treating ``hub`` as a plain FastMCP would have deleted
those writes as unread (``hub.serve()`` is no 1.x start). Such settings stay manual, naming the
line; a subclass that leaves the settings to FastMCP still ports, its settings write moving to the
``run()`` that follows, and serves on mcp 2.3 as on mcp 1.27.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import run_proof

PIN = "mcp>=1.20,<2"
PORT = ("--target-sdk", "mcp2", "--output-format", "json")
GUIDE = (
    "(read “Transport-specific parameters moved from MCPServer constructor to run()/app methods” in the "
    "python-sdk migration guide (docs/migration.md))"
)

HUB = """\
import uvicorn
from mcp.server.fastmcp import FastMCP


class Hub(FastMCP):
    def serve(self) -> None:
        uvicorn.run(self.streamable_http_app(), host=self.settings.host, port=self.settings.port)


hub = Hub("hub")


@hub.tool()
def echo(text: str) -> str:
    return text


if __name__ == "__main__":
    hub.settings.host = "0.0.0.0"
    hub.settings.port = 9000
    hub.serve()
"""

# the same, the subclass handing itself to a helper module instead of reading its settings
HANDED = """\
from mcp.server.fastmcp import FastMCP

from serving import serve


class Hub(FastMCP):
    def start(self) -> None:
        serve(self)


hub = Hub("hub")

if __name__ == "__main__":
    hub.settings.port = 9000
    hub.start()
"""

PLAIN = """\
from mcp.server.fastmcp import FastMCP


class Hub(FastMCP):
    def add_echo(self, prefix: str) -> None:
        @self.tool()
        def echo(text: str) -> str:
            return prefix + text


hub = Hub("hub")
hub.add_echo("> ")


@hub.tool()
def shout(word: str) -> str:
    return word.upper()


if __name__ == "__main__":
    hub.settings.port = 9000
    hub.run(transport="sse")
"""


def _project(where: Path, source: str) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    (where / "pyproject.toml").write_text(f'[project]\nname = "case"\nversion = "0"\ndependencies = ["{PIN}"]\n')
    target = where / "server.py"
    target.write_text(source, encoding="utf-8")
    return target


def _fix(where: Path):
    res = cli(["fix", *PORT, "."], where)
    assert res.exception is None, str(res)
    return res


def _hand(field: str) -> str:
    return (
        f"mcp 2.x's `MCPServer` has no transport settings: hold `{field}` in the subclass's own attribute and pass "
        f"it to `run(transport=…, {field}=…)`, `run_sse_async()`/`run_streamable_http_async()` or the app factory "
        f"call by hand {GUIDE}"
    )


def _left(res) -> list[tuple[int, int, str | None]]:
    return [(f["line"], f["column"], f["manual"]) for f in res.json["findings"] if f["rule"] == "MCP503"]


def test_settings_a_subclass_reads_block_the_port(tmp_path: Path) -> None:
    target = _project(tmp_path, HUB)
    res = _fix(tmp_path)
    assert res.exit_code == 1, str(res)
    assert res.json["fixed"] == []
    assert target.read_text(encoding="utf-8") == HUB
    assert PIN in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    serve = "`Hub.serve` uses `self.settings` at line 7, which may read it"
    assert _left(res) == [
        (7, 54, f"`self.settings.host` is read in `Hub.serve`: {_hand('host')}"),
        (7, 79, f"`self.settings.port` is read in `Hub.serve`: {_hand('port')}"),
        (19, 5, f"`hub.settings.host` is written on a `Hub`, a subclass of `FastMCP`, and {serve}: {_hand('host')}"),
        (20, 5, f"`hub.settings.port` is written on a `Hub`, a subclass of `FastMCP`, and {serve}: {_hand('port')}"),
    ]


def test_a_subclass_passing_itself_on_keeps_its_settings_write(tmp_path: Path) -> None:
    """``hub.start()`` is no 1.x start, but ``serve(self)`` may read the settings: the write is not
    deleted as unread."""
    target = _project(tmp_path, HANDED)
    (tmp_path / "serving.py").write_text("def serve(server):\n    server.run('sse')\n", encoding="utf-8")
    res = _fix(tmp_path)
    assert res.exit_code == 1, str(res)
    assert res.json["fixed"] == []
    assert target.read_text(encoding="utf-8") == HANDED
    why = "`Hub.start` passes `self` on at line 8, which may read it"
    assert _left(res) == [
        (14, 5, f"`hub.settings.port` is written on a `Hub`, a subclass of `FastMCP`, and {why}: {_hand('port')}")
    ]


def test_a_subclass_leaving_the_settings_to_fastmcp_is_ported(tmp_path: Path) -> None:
    target = _project(tmp_path, PLAIN)
    res = _fix(tmp_path)
    assert res.json["errors"] == [] and [f["rule"] for f in res.json["findings"]] == ["MCP602"]
    assert sorted((f["rule"], f["line"]) for f in res.json["fixed"]) == [("MCP501", 1), ("MCP503", 21)]
    assert target.read_text(encoding="utf-8") == PLAIN.replace(
        "mcp.server.fastmcp import FastMCP", "mcp.server.mcpserver import MCPServer"
    ).replace("(FastMCP)", "(MCPServer)").replace(
        '    hub.settings.port = 9000\n    hub.run(transport="sse")\n', '    hub.run(transport="sse", port=9000)\n'
    )
    assert 'dependencies = ["mcp>=2.3,<3"]' in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_the_ported_subclass_serves_as_on_mcp1(tmp_path: Path, legacy_python: str, mcp2_python: str, mode: str) -> None:
    before = _project(tmp_path / "before", PLAIN)
    after = _project(tmp_path / "after", PLAIN)
    assert _fix(after.parent).json["errors"] == []
    calls = [{"tool": "echo", "arguments": {"text": "hi"}}, {"tool": "shout", "arguments": {"word": "hi"}}]
    old = run_proof(legacy_python, before, "hub", "legacy", [], calls)
    new = run_proof(mcp2_python, after, "hub", mode, [], calls)
    texts = [[c.get("error"), c.get("is_error"), c.get("text")] for c in new["calls"]]
    assert texts == [[c.get("error"), c.get("is_error"), c.get("text")] for c in old["calls"]]
    assert texts == [[None, False, ["> hi"]], [None, False, ["HI"]]]

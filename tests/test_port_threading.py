"""The port to mcp 2.x where mcp 1.x code read the request context from the server, and where
modules the served code does not import use mcp 1.x's test helpers (issue 22 item 1, issue 24
item 2).

- Field case ``port-08`` (tests/data/port/port_08.py, copied unchanged): ``srv.get_context()`` in
  a resource template's own body becomes its injected ``Context`` parameter (MCP504), and an
  ``McpError(INTERNAL_ERROR, "…")`` call that mcp 1.x could not make (``TypeError``) is renamed,
  unsafe, with the note saying so (MCP502). Fixed exactly to ``port_08.fixed.py``; the original on
  mcp 1.27 and the port on mcp 2.3 answer the same in both eras, but for the one answer the note
  names.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.helpers import cli
from tests.proof import LEAVE, json_answer

DATA = Path(__file__).resolve().parent / "data" / "port"

# Reads every resource URI and calls every tool of argv[1]'s module-level server `srv`, printing
# what the client got (one JSON line): on mcp 1.x through its in-memory session, on mcp 2.x through
# `Client` in the era argv[4] names. argv[2], argv[3]: the URIs and the calls, as JSON.
_DRIVER = (
    LEAVE
    + """
import anyio, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("port_case", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
def seen(r):
    d = r.model_dump(mode="json", by_alias=True, exclude_none=True)
    if "contents" in d:
        return {"texts": [c.get("text") for c in d["contents"]]}
    return {"is_error": d.get("isError"), "texts": [c.get("text") for c in d["content"]]}
async def main():
    if len(sys.argv) > 4:
        import mcp
        client = mcp.Client(m.srv, mode=sys.argv[4])
    else:
        from mcp.shared.memory import create_connected_server_and_client_session as connect
        client = connect(m.srv)
    async with client as c:
        out = [seen(await c.read_resource(u)) for u in json.loads(sys.argv[2])]
        out += [seen(await c.call_tool(n, a)) for n, a in json.loads(sys.argv[3])]
        print(json.dumps(out))
anyio.run(main)
leave()
"""
)


def serve(python: str, file: Path, uris: list[str], calls: list[tuple[str, dict]], *mode: str) -> list[dict]:
    """What a client got from ``file``'s server ``srv`` under ``python`` (``mode``: mcp 2.x's era)."""
    out = subprocess.run(
        [python, "-c", _DRIVER, str(file), json.dumps(uris), json.dumps(calls), *mode],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=file.parent,
    )
    return json_answer(out, f"{file.name} under {python}", last_line=True)


# -- port-08 ---------------------------------------------------------------------------------------
PORT_08_MCP502 = (
    "rename the import and its uses to mcp 2.x's names (same objects, same behaviour) (review: `McpError(…)` at "
    "line 35 is already written in mcp 2.x's `(code, message, data)` shape, which mcp 1.x's `McpError(error: "
    "ErrorData)` does not take: there it raises `TypeError: McpError.__init__() takes 2 positional arguments but 3 "
    "were given` and the client gets that text; renamed, it raises the intended `MCPError` with its own message, so "
    "the client's answer changes to that message)"
)


def _port_08(where: Path) -> Path:
    where.mkdir()
    (where / "requirements.txt").write_text("mcp==1.27.0\n", encoding="utf-8")
    server = where / "server.py"
    server.write_bytes((DATA / "port_08.py").read_bytes())
    return server


def test_port_08_the_template_takes_the_context_and_the_broken_call_is_renamed_unsafe(tmp_path: Path) -> None:
    """(a) the read in the template's own body is a safe fix, no longer manual; (b) the call mcp
    1.x could not make is renamed with a note saying so, unsafe (the client's answer changes)."""
    server = _port_08(tmp_path / "p")
    res = cli(["check", "--target-sdk", "mcp2", "--output-format", "json", "."], server.parent)
    got = {(f["rule"], f["line"], f["column"]): f for f in res.json["findings"]}
    assert sorted(got) == [("MCP501", 17, 1), ("MCP502", 18, 1), ("MCP504", 27, 11), ("MCP510", 33, 5)]
    assert got["MCP504", 27, 11]["fix"]["safety"] == "safe"
    assert (got["MCP502", 18, 1]["fix"]["safety"], got["MCP502", 18, 1]["fix"]["description"]) == (
        "unsafe",
        PORT_08_MCP502,
    )
    assert cli(["fix", "--target-sdk", "mcp2", "."], server.parent).exit_code == 1  # unsafe: nothing written
    assert server.read_bytes() == (DATA / "port_08.py").read_bytes()
    res = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], server.parent)
    assert res.json["findings"] == [] and res.json["errors"] == [], str(res)
    assert server.read_text(encoding="utf-8") == (DATA / "port_08.fixed.py").read_text(encoding="utf-8")
    assert (server.parent / "requirements.txt").read_text(encoding="utf-8") == "mcp>=2.3,<3\n"
    again = cli(["fix", "--target-sdk", "mcp2", "--unsafe-fixes", "--output-format", "json", "."], server.parent)
    assert again.json["fixed"] == [] and server.read_text(encoding="utf-8") == (DATA / "port_08.fixed.py").read_text(
        encoding="utf-8"
    )


def _request_ids(answers: list[dict]) -> tuple[list[dict], list[str]]:
    """The answers with the ``[<request id>] `` prefix the template writes taken out, and the ids:
    the id is the number the client gave the request (mcp 1.27's session and mcp 2.3's ``Client``
    count their requests differently)."""
    ids: list[str] = []

    def strip(text: str) -> str:
        m = re.match(r"\[(\d+)\] ", text)
        if m is None:
            return text
        ids.append(m[1])
        return text[m.end() :]

    return [{**a, "texts": [strip(t) for t in a["texts"]]} for a in answers], ids


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_port_08_the_port_answers_as_the_original_did(
    tmp_path: Path, mode: str, legacy_python: str, mcp2_python: str
) -> None:
    """The template reads the request id off its injected context on mcp 2.3 as it did off
    ``get_context()`` on mcp 1.27; the tool answers the same for a known doc, and for an unknown one
    the intended message where mcp 1.27 sent the ``TypeError`` text — the difference the note names."""
    uris, calls = ["doc://intro", "doc://missing"], [("must_exist", {"name": "intro"}), ("must_exist", {"name": "x"})]
    before, before_ids = _request_ids(serve(legacy_python, DATA / "port_08.py", uris, calls))
    after, after_ids = _request_ids(serve(mcp2_python, DATA / "port_08.fixed.py", uris, calls, mode))
    assert len(before_ids) == len(after_ids) == 2, (before_ids, after_ids)
    assert before[:3] == after[:3]
    assert after[:3] == [{"texts": ["hello"]}, {"texts": [""]}, {"is_error": False, "texts": ["intro"]}]
    assert before[3] == {
        "is_error": True,
        "texts": ["Error executing tool must_exist: McpError.__init__() takes 2 positional arguments but 3 were given"],
    }
    assert after[3] == {"is_error": True, "texts": ["Error executing tool must_exist: unknown doc x"]}

"""Hand-rolled JSON-RPC servers under ``--strategy interim``: the shapes the rewrite does
not take stay manual, each with the reason that blocks it; what it takes is labelled unsafe and says
why. The rewritten shapes are proven to run by the fixtures (tests/test_proof_handrolled.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli, write_pyproject

HEAD = """import json
import sys

pending = {}


def send(message):
    print(json.dumps(message), flush=True)


"""
ASK = '{"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create", "params": {"message": "Sure?", "requestedSchema": {}}}'
REPLY = 'send({"jsonrpc": "2.0", "id": msg["id"], "result": {"content": [{"type": "text", "text": TEXT}]}})'


def _findings(tmp_path: Path, source: str, strategy: str = "interim") -> list[dict]:
    write_pyproject(tmp_path, f'strategy = "{strategy}"\n')
    (tmp_path / "server.py").write_text(HEAD + source, encoding="utf-8")
    result = cli(["check", "server.py", "--output-format", "json"], tmp_path)
    assert result.exception is None and result.json["errors"] == [], str(result)
    return [f for f in result.json["findings"] if f["rule"] in ("MCP101", "MCP201", "MCP202")]


MANUAL = {
    "statement after the branch's request": (
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        '        if msg["params"]["name"] == "x":\n'
        f"            send({ASK})\n"
        "            resp = json.loads(sys.stdin.readline())\n"
        '            TEXT = resp["result"]["action"]\n'
        "        else:\n"
        '            TEXT = "other"\n'
        f"        {REPLY}\n",
        '`send({"jsonrpc": "2.0", "id": msg["id"], "result": {"content": [{"type": "text"…` '
        "follows the request in the `tools/call` branch and would also run after the interim reply",
    ),
    "two requests in one branch": (
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        f"        send({ASK})\n"
        "        first = json.loads(sys.stdin.readline())\n"
        f"        send({ASK.replace('q1', 'q2')})\n"
        "        second = json.loads(sys.stdin.readline())\n"
        f"        {REPLY.replace('TEXT', 'first[chr(114)] + second[chr(114)]')}\n",
        "the `tools/call` branch sends several requests to the client: they must travel in one interim result",
    ),
    "pending map swept elsewhere": (
        "def handle(msg):\n"
        '    if "result" in msg:\n'
        '        call = pending.pop(msg["id"])\n'
        '        send({"jsonrpc": "2.0", "id": call["id"], "result": msg["result"]})\n'
        '    elif msg.get("method") == "tools/call":\n'
        '        pending["q1"] = msg\n'
        f"        send({ASK})\n"
        '    elif msg.get("method") == "status":\n'
        '        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"waiting": len(pending)}})\n',
        "`pending` is used other than by one store and one `pending.pop(...)`",
    ),
    "response branch reads the response's id": (
        "def handle(msg):\n"
        '    if "result" in msg:\n'
        '        call = pending.pop(msg["id"])\n'
        '        send({"jsonrpc": "2.0", "id": call["id"], "result": {"content": [], "note": msg["id"]}})\n'
        '    elif msg.get("method") == "tools/call":\n'
        '        pending["q1"] = msg\n'
        f"        send({ASK})\n",
        'the response branch uses `msg` other than `msg["result"]`, which the `tools/call` branch does not have',
    ),
    "request used after it is sent": (
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        f"        request = {ASK}\n"
        "        send(request)\n"
        '        print("asked", request["id"], file=sys.stderr)\n'
        "        resp = json.loads(sys.stdin.readline())\n",
        "`request` (the request) is used after it is sent",
    ),
    "response read into the call's variable": (
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        f"        send({ASK})\n"
        "        msg = json.loads(sys.stdin.readline())\n",
        "the client's response is read into `msg`, the variable that holds the `tools/call` request",
    ),
    "reply returned to the caller": (
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        f"        send({ASK})\n"
        "        resp = json.loads(sys.stdin.readline())\n"
        '        return {"content": [{"type": "text", "text": resp["result"]["action"]}]}\n',
        'the `tools/call` branch hands its reply to the caller (`return {"content": [{',
    ),
    "helper with arguments": (
        "def confirm(question):\n"
        '    send({"jsonrpc": "2.0", "id": "q", "method": "elicitation/create", '
        '"params": {"message": question, "requestedSchema": {}}})\n'
        '    return json.loads(sys.stdin.readline())["result"]\n\n\n'
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        '        outcome = confirm("Sure?")\n'
        f"        {REPLY.replace('TEXT', 'outcome[chr(97)]')}\n",
        "the helper `confirm` takes arguments",
    ),
    "no tools/call branch": (
        "def on_startup():\n"
        f"    send({ASK})\n"
        "    resp = json.loads(sys.stdin.readline())\n"
        '    pending["startup"] = resp\n',
        "the request is not made in a `tools/call` branch",
    ),
    "helper called from two places": (
        "def ask():\n"
        f"    send({ASK})\n"
        '    return json.loads(sys.stdin.readline())["result"]\n\n\n'
        "def on_startup():\n"
        '    pending["first"] = ask()\n'
        '    pending["second"] = ask()\n',
        "the helper `ask` is not called exactly once, directly",
    ),
    "nothing reads the answer": (
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        f"        send({ASK})\n"
        f"        {REPLY.replace('TEXT', 'chr(63)')}\n",
        "neither reads the answer on the next line",
    ),
    "request built by a function": (
        f"def build(msg):\n    return {ASK}\n",
        "the request dict is not sent by a statement of its own right where it is built",
    ),
}


@pytest.mark.parametrize("name", MANUAL)
def test_unsupported_shapes_stay_manual_with_the_reason(tmp_path: Path, name: str) -> None:
    source, reason = MANUAL[name]
    findings = _findings(tmp_path, source)
    assert findings, "the request is not reported"
    for f in findings:
        assert f["fix"] is None, f
        assert reason in f["manual"], f["manual"]
        assert '"inputRequests": {"elicitation": {"method": "elicitation/create"' in f["manual"]  # how to, by hand
    before = (tmp_path / "server.py").read_bytes()
    # MCP608 (its results lack resultType) has a safe fix of its own: not this test's subject
    result = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "--ignore", "MCP608", "server.py"], tmp_path)
    assert result.exception is None, str(result)
    assert (tmp_path / "server.py").read_bytes() == before


SYNC = (
    "AUDIT = []\n\n\n"
    "def handle(msg):\n"
    '    method = msg.get("method")\n'
    '    if method == "tools/call":\n'
    '        AUDIT.append(msg["params"]["name"])\n'
    f"        send({ASK})\n"
    "        resp = json.loads(sys.stdin.readline())\n"
    '        if "error" in resp:\n'
    "            return\n"
    f"        {REPLY.replace('TEXT', 'resp[chr(114) * 0 + str(chr(114))]')}\n"
)


def test_a_rewrite_is_unsafe_and_names_why(tmp_path: Path) -> None:
    (f,) = _findings(tmp_path, SYNC)
    assert f["manual"] is None and f["fix"]["safety"] == "unsafe" and f["fix"]["strategy"] == "interim"
    desc = f["fix"]["description"]
    assert '{"elicitation": {"method": "elicitation/create", …}}' in desc and "no requestState is written" in desc
    assert "legacy (2025-11-25) clients, whose calls declare no capabilities in `_meta`, now get error -32021" in desc
    assert (
        '`AUDIT.append(msg["params"]["name"])` runs before the request today; on 2026-07-28 it runs once per round'
        in desc
    )
    assert '`resp` is used other than as `resp["result"]`' in desc
    # `fix` alone leaves an unsafe fix; --unsafe-fixes applies it, and the result runs past the parser
    result = cli(["fix", "--strategy", "interim", "server.py"], tmp_path)
    assert "elicitation_answer" not in (tmp_path / "server.py").read_text(encoding="utf-8")
    result = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py", "--output-format", "json"], tmp_path)
    assert result.exception is None and result.json["changed_files"] == ["server.py"], str(result)
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    compile(after, "server.py", "exec")
    assert 'resp = {"result": elicitation_answer}' in after and "readline" not in after


def test_param_strategy_points_at_interim_for_roots(tmp_path: Path) -> None:
    source = (
        "def handle(msg):\n"
        '    if msg["method"] == "tools/call":\n'
        '        send({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})\n'
        '        roots = json.loads(sys.stdin.readline())["result"]["roots"]\n'
        f"        {REPLY.replace('TEXT', 'roots[0][chr(117)]')}\n"
    )
    (f,) = _findings(tmp_path, source, strategy="param")
    assert f["fix"] is None
    assert "`fix --strategy interim` rewrites this request into an interim result" in f["manual"]
    (f,) = _findings(tmp_path, source, strategy="interim")
    assert f["fix"]["strategy"] == "interim" and f["fix"]["safety"] == "unsafe"


def test_the_interim_reply_leaves_the_branch_like_the_reply_did(tmp_path: Path) -> None:
    """A main loop whose branch ends with `continue` (skipping the unknown-method error after the
    dispatch): the interim reply continues too, or the client would get a second, error reply."""
    source = (
        "def main():\n"
        "    for line in sys.stdin:\n"
        "        msg = json.loads(line)\n"
        '        if msg["method"] == "tools/call":\n'
        f"            send({ASK})\n"
        "            resp = json.loads(sys.stdin.readline())\n"
        '            if resp["result"]["action"] != "accept":\n'
        "                continue\n"
        f"            {REPLY.replace('TEXT', 'chr(111) + chr(107)')}\n"
        "            continue\n"
        '        send({"jsonrpc": "2.0", "id": msg.get("id"), "error": {"code": -32601, "message": "?"}})\n'
    )
    (f,) = _findings(tmp_path, source)
    assert f["fix"] is not None, f
    result = cli(["fix", "--strategy", "interim", "--unsafe-fixes", "server.py"], tmp_path)
    assert result.exception is None, str(result)
    after = (tmp_path / "server.py").read_text(encoding="utf-8")
    interim = after[after.index("if elicitation_answer is None:") : after.index("else:")]
    assert interim.rstrip().endswith("continue"), interim


def test_a_server_that_negotiates_an_older_version_is_told_so(tmp_path: Path) -> None:
    """From the new-user trial: a hand-rolled server answering `initialize` with 2025-06-18 keeps
    every client on that version, where an interim result is invalid: the fix says so."""
    source = SYNC.replace(
        "def handle(msg):\n",
        'def init_reply():\n    return {"protocolVersion": "2025-06-18", "capabilities": {}}\n\n\ndef handle(msg):\n',
    )
    (f,) = _findings(tmp_path, source)
    desc = f["fix"]["description"]
    assert "answers `initialize` with protocolVersion '2025-06-18'" in desc, desc
    assert "until the server also negotiates 2026-07-28" in desc

"""The way drivers leave and how the harness reads them (issue 21, "a suite that cannot flake on
shutdown"): a driver's answer is complete when the ``DONE`` line follows it, whatever happens to
the process afterwards; without that line the run failed, and the error carries its stderr."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.proof import DONE, LEAVE, ProofError, answer_of, json_answer


def _driver(body: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LEAVE + body], capture_output=True, text=True, timeout=60)


def test_leave_skips_the_interpreter_shutdown() -> None:
    """A thread that never ends and an exit hook: the shutdown would wait for the one and run the
    other (where the SDK's threads once died with PyGILState_Release); leave() does neither."""
    proc = _driver(
        "import atexit, json, sys, threading, time\n"
        "threading.Thread(target=time.sleep, args=(600,)).start()\n"
        "atexit.register(lambda: print('torn down', file=sys.stderr))\n"
        "sys.stdout = sys.stderr  # as run_server.py: the fixture's prints go to stderr\n"
        "print('noise')\n"
        "sys.__stdout__.write(json.dumps({'text': ['ok']}) + '\\n')\n"
        "leave()\n"
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, '{"text": ["ok"]}\n' + DONE + "\n", "noise\n")
    assert json_answer(proc, "driver") == {"text": ["ok"]}


def test_a_crash_after_the_complete_answer_is_not_a_failure() -> None:
    proc = _driver(
        "import os\nprint('[1, 2]')\nprint('{\"last\": true}', flush=True)\n"
        f"print({DONE!r}, flush=True)\n"
        "os.abort()  # as 'Fatal Python error: PyGILState_Release' at shutdown\n"
    )
    assert proc.returncode == -6
    assert answer_of(proc, "driver") == '[1, 2]\n{"last": true}\n'
    assert json_answer(proc, "driver", last_line=True) == {"last": True}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("import os\nprint('{\"partial\": 1}', flush=True)\nos.abort()\n", -6),  # died before the line
        ("print('{}')\nraise SystemExit('the server has no tools')\n", 1),
        ("print('{}')\nleave(1)\n", 1),
    ],
    ids=["crash", "error", "failed"],
)
def test_a_run_without_the_line_failed(body: str, status: int) -> None:
    proc = _driver(body)
    assert proc.returncode == status
    with pytest.raises(ProofError) as err:
        json_answer(proc, "driver.py")
    assert str(err.value).startswith(f"driver.py gave no complete answer, exit {status}\nstdout:\n")
    assert proc.stderr in str(err.value)

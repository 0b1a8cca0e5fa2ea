"""The way out of every driver script the tests run in a subprocess (issue 21: a suite that
cannot flake on shutdown).

A driver prints its answer, then :func:`leave`: stdout and stderr are flushed, the :data:`DONE`
line is printed after the answer, and the process ends with ``os._exit(0)`` — the interpreter's
shutdown, which tears down the SDK's and fastmcp's threads (and once died in it with ``Fatal
Python error: PyGILState_Release`` after a complete answer), never runs. The harness
(:func:`tests.proof.answer_of`) takes the text before :data:`DONE` as the answer whatever the exit
status, and a run without it as failed.

Drivers run under another environment's Python: :mod:`tests.proof.run_server` and
:mod:`tests.proof.observe` import this file from their own folder, and the drivers the tests write
as text start with :data:`tests.proof.LEAVE` (this file's source). Standard library only.
"""

DONE = "-- mcpmigrate driver: answer complete --"


def leave(code: int = 0) -> None:
    """Print :data:`DONE` after what was printed, flush, and end the process now (``os._exit``)."""
    import contextlib
    import os
    import sys

    for stream in (sys.__stdout__, sys.stdout, sys.__stderr__, sys.stderr):
        with contextlib.suppress(Exception):  # a closed or replaced stream
            stream.flush()  # type: ignore[union-attr]
    if code == 0:
        os.write(1, (DONE + "\n").encode())
    os._exit(code)

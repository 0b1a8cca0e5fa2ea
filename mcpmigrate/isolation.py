"""One file cannot take the run down (``docs/architecture.md``, "Isolation"): a time limit per
file, a single-use child process for the files that may crash the parser, and a record of which
file each pool worker is on, so that a crashed worker costs only its own file.

- :func:`time_limit`: ``SIGALRM`` in the process checking the file raises :class:`FileTimeout`
  after ``MCPMIGRATE_FILE_TIMEOUT`` seconds (:func:`file_timeout`). It interrupts Python code
  only; native code (libcst's parser) is bounded by :func:`mcpmigrate.parsing.precheck`, or runs
  in a child that is killed.
- :func:`in_child`: ``fn(*args)`` in a forked child; a crash (``SIGSEGV``) or a child past its
  time becomes a :class:`Died` value, never the parent's death.
- :func:`mark_in` / :func:`marked`: each pool worker writes the label of the task it runs to a
  file of its own in a directory the parent made, and empties it when done; the labels left after
  a ``BrokenProcessPool`` name the tasks the dead workers were running.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

TIMEOUT_ENV = "MCPMIGRATE_FILE_TIMEOUT"
DEFAULT_TIMEOUT = 120.0  # seconds per file; the slowest real module known takes about 2 s
_GRACE = 5.0  # seconds a child past its limit gets before it is killed (its own alarm fires first)

DISPOSABLE = False  # True in a child of in_child: it may crash, nothing is isolated further
_MARKS: int | None = None  # the file of this pool worker's in-flight marks (opened by mark_in)


class FileTimeout(BaseException):
    """The file's time is up (:func:`time_limit`). A ``BaseException``, so that the ``except
    Exception`` guarding a detector or a codemod does not take it for a bug of theirs."""


def file_timeout() -> float | None:
    """Seconds one file may take: ``$MCPMIGRATE_FILE_TIMEOUT`` (``0``: no limit), else
    :data:`DEFAULT_TIMEOUT`. A value that is not a number is ignored."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    try:
        seconds = float(raw) if raw else DEFAULT_TIMEOUT
    except ValueError:
        seconds = DEFAULT_TIMEOUT
    return seconds if seconds > 0 else None


def timeout_message(seconds: float) -> str:
    return f"took longer than {seconds:g} s, file skipped (the limit is ${TIMEOUT_ENV})"


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`FileTimeout` in this thread after ``seconds`` (``None``: no limit). Only in
    the main thread of a process (where signals are delivered); the previous ``SIGALRM`` handler
    and timer are restored."""
    if seconds is None or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise FileTimeout(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Died:
    """What became of a child that gave no answer: killed by ``signal`` (its name, ``SIGSEGV``),
    exited with ``exitcode``, or ``timed_out`` after ``seconds``."""

    signal: str | None = None
    exitcode: int | None = None
    timed_out: bool = False
    seconds: float | None = None

    def __str__(self) -> str:
        if self.timed_out:
            return f"took longer than {self.seconds:g} s"
        return f"crashed ({self.signal})" if self.signal else f"exited with status {self.exitcode}"


def _context() -> Any:
    """``fork`` where there is one (the child shares the parent's imports: no libcst import per
    file), else the platform's default."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def in_child(fn: Callable[..., Any], args: tuple, seconds: float | None) -> Any:
    """``fn(*args)`` in a single-use child process, or a :class:`Died` when the child crashes or
    gives no answer within ``seconds`` (+ a grace; ``None``: waits as long as it takes). ``fn``'s
    value must pickle. A :class:`FileTimeout` in this process (its own :func:`time_limit`) kills the
    child and propagates."""
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(send, fn, args), daemon=True)
    child.start()
    send.close()
    answer: Any = None
    killed = False
    try:
        if receive.poll(None if seconds is None else seconds + _GRACE):
            with contextlib.suppress(EOFError, OSError):  # closed without an answer: it died
                answer = receive.recv()
        else:
            child.kill()
            killed = True
    except BaseException:  # this process's own time is up (FileTimeout), or an interrupt
        child.kill()
        raise
    finally:
        child.join()
        receive.close()
    if answer is not None:
        return answer[0]
    if killed:
        return Died(timed_out=True, seconds=seconds)
    code = child.exitcode or 0
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return Died(signal=name)
    return Died(exitcode=code)


def _child(send: Any, fn: Callable[..., Any], args: tuple) -> None:
    global DISPOSABLE
    DISPOSABLE = True
    try:
        send.send((fn(*args),))
        send.close()
    finally:
        # leave at once: the answer is sent, and tearing down what the parent's modules started
        # (threads, atexit hooks) is neither needed nor safe in a forked child
        os._exit(0)


def mark_in(directory: str) -> None:
    """A pool's initializer: this worker records its tasks in ``<directory>/<pid>``, a file it
    keeps open (:func:`marked`; rewriting an open file costs a fraction of creating one per task)."""
    global _MARKS
    _MARKS = os.open(os.path.join(directory, str(os.getpid())), os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)


@contextlib.contextmanager
def marked(label: str) -> Iterator[None]:
    """While the block runs, this worker's file holds ``label`` (in a pool worker; elsewhere
    nothing is written). A worker that dies in the block leaves it there."""
    if _MARKS is None:
        yield
        return
    os.pwrite(_MARKS, label.encode("utf-8", "surrogateescape"), 0)
    yield
    os.ftruncate(_MARKS, 0)


def left_marks(directory: str) -> set[str]:
    """The labels of the tasks the workers of a broken pool were running (:func:`marked`)."""
    out: set[str] = set()
    for name in os.listdir(directory):
        with contextlib.suppress(OSError), open(os.path.join(directory, name), "rb") as fh:
            label = fh.read()
            if label:
                out.add(label.decode("utf-8", "surrogateescape"))
    return out

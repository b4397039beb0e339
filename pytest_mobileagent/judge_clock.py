"""The judge's clock: a task body that never returns errors its task, not the run.

The harness runs a task's body (its judge) after every action. A judge that
loops or waits forever would hang the whole run with nothing naming the task.
Under ``--judge-timeout SECONDS`` each judge call runs in a thread of its own
(one per process, reused from call to call) while pytest's main thread waits
for it, at most that long. When the bound passes, the main thread takes the
judge thread's stack (where it is stuck), asks the thread to stop (an
exception raised in it at its next Python instruction, which ends a pure
Python loop; a judge stuck in C code, such as a read that never returns, is
left behind as a daemon thread and a new thread serves the next judge), and
raises :class:`JudgeTimeout`: the task is an error naming the task and that
stack.

``SystemExit`` and ``KeyboardInterrupt`` raised by a judge are not an exit or
an interrupt of the run (a Ctrl-C goes to the main thread, never to the judge
thread): they come back as :class:`JudgeExit`, a task error that says which.
``--judge-timeout 0`` calls the judge on the main thread without a bound
(for a debugger).
"""

from __future__ import annotations

import ctypes
import queue
import sys
import threading
import traceback
from typing import Any, Callable

from .errors import TaskDefinitionError

__all__ = ["JudgeClock", "JudgeExit", "JudgeTimeout"]


class JudgeTimeout(TaskDefinitionError):
    """A judge call ran longer than ``--judge-timeout``: a task error."""


class JudgeExit(TaskDefinitionError):
    """A judge raised SystemExit or KeyboardInterrupt: a task error that says so."""


class _JudgeStopped(BaseException):
    """Raised inside an overrunning judge thread to end it (a BaseException: past ``except Exception``)."""


class _JudgeThread:
    """A daemon thread that runs judge calls one at a time."""

    def __init__(self) -> None:
        self.jobs: "queue.SimpleQueue[tuple[Callable[[], Any], list, threading.Event] | None]" = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="mobileagent-judge", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            fn, box, done = job
            try:
                box.append((True, fn()))
            except _JudgeStopped:
                return  # abandoned by the harness: this thread serves nobody any more
            except BaseException as exc:  # handed to the caller, whatever it is
                box.append((False, exc))
            finally:
                done.set()

    def stack(self) -> str:
        frame = sys._current_frames().get(self.thread.ident or -1)
        return "".join(traceback.format_stack(frame)) if frame is not None else "(the judge thread has ended)\n"

    def stop(self) -> None:
        """Ask the thread to end at its next Python instruction, and to take no more jobs."""
        ident = self.thread.ident
        if ident is not None and self.thread.is_alive():
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(_JudgeStopped))
        self.jobs.put(None)


_THREAD: _JudgeThread | None = None
_THREAD_LOCK = threading.Lock()


def _judge_thread() -> _JudgeThread:
    global _THREAD
    with _THREAD_LOCK:
        if _THREAD is None or not _THREAD.thread.is_alive():
            _THREAD = _JudgeThread()
        return _THREAD


def _abandon(thread: _JudgeThread) -> None:
    global _THREAD
    with _THREAD_LOCK:
        if _THREAD is thread:
            _THREAD = None
    thread.stop()


class JudgeClock:
    """Calls a task's judge bounded by ``limit`` seconds (None: on this thread, unbounded)."""

    def __init__(self, limit: float | None, task: str):
        self.limit = limit
        self.task = task

    def call(self, fn: Callable[[], Any], *, step: int) -> Any:
        """``fn()``'s result; what it raised (an AssertionError: the task is not done yet);
        :class:`JudgeTimeout` after the bound; :class:`JudgeExit` for SystemExit/KeyboardInterrupt."""
        if self.limit is None:
            try:
                return fn()
            except (SystemExit, KeyboardInterrupt) as exc:
                if isinstance(exc, KeyboardInterrupt) and threading.current_thread() is threading.main_thread():
                    raise  # on the main thread it may be the user's Ctrl-C: the run stops
                raise self._exit(exc, step) from exc
        worker = _judge_thread()
        box: list[tuple[bool, Any]] = []
        done = threading.Event()
        worker.jobs.put((fn, box, done))
        if not done.wait(self.limit):
            stack = worker.stack()
            _abandon(worker)
            raise JudgeTimeout(
                f"task {self.task}: the judge ran longer than {self.limit:g} s after step {step} "
                f"(--judge-timeout) and was stopped; it was here:\n{stack.rstrip()}")
        ok, value = box[0]
        if ok:
            return value
        if isinstance(value, (SystemExit, KeyboardInterrupt)):
            raise self._exit(value, step) from value
        raise value

    def _exit(self, exc: BaseException, step: int) -> JudgeExit:
        what = f"SystemExit({exc.code!r})" if isinstance(exc, SystemExit) else type(exc).__name__
        return JudgeExit(f"task {self.task}: the judge raised {what} after step {step} "
                         "(a task body must only fail through assert; it cannot end the run)")

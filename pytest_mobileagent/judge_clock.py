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

A judge stuck in C code that holds the GIL (a catastrophic regex: ``re``
never lets go of it mid-match) starves the main thread too, so nothing in
this process can bound it. For that case each bounded call is also watched
from outside: a small warden process (one per process that judges, started
at its first judge call) is told, by a write to a pipe, when a call starts
and when it ends. If a call has not ended :data:`WATCHDOG_GRACE` seconds
after the bound, the warden says so on stderr and sends SIGABRT, which
faulthandler (enabled by pytest) answers by writing every thread's stack --
the judge's line in the task body among them -- and the process ends. Under
xdist that is a crashed worker, which costs only its task (an error record;
a replacement worker takes over); a single-process run ends there, without
its summary or results file. The warden ends when the pipe closes (its
process ended, however).

``os._exit`` called by a judge is turned into :class:`JudgeExit` as well (it
would end the process at once, in any thread); called anywhere else, or in a
child the judge forked, it exits as ever.
"""

from __future__ import annotations

import ctypes
import os
import queue
import struct
import subprocess
import sys
import threading
import traceback
from typing import Any, Callable

from .errors import TaskDefinitionError

__all__ = ["JudgeClock", "JudgeExit", "JudgeTimeout", "WATCHDOG_GRACE"]

#: Seconds past --judge-timeout after which the warden ends a process whose judge starves it.
WATCHDOG_GRACE = 5.0


class JudgeTimeout(TaskDefinitionError):
    """A judge call ran longer than ``--judge-timeout``: a task error."""


class JudgeExit(TaskDefinitionError):
    """A judge raised SystemExit or KeyboardInterrupt: a task error that says so."""


class _JudgeStopped(BaseException):
    """Raised inside an overrunning judge thread to end it (a BaseException: past ``except Exception``)."""


class _OsExitCalled(SystemExit):
    """What ``os._exit`` raises inside a judge (a SystemExit: past ``except Exception``)."""


_judging = threading.local()  # .active: this thread is running a judge call
_real_os_exit = os._exit
_judge_pid = -1  # the process whose judges are guarded (not a child a judge forked)


def _guarded_os_exit(status: int) -> None:
    if getattr(_judging, "active", False) and os.getpid() == _judge_pid:
        raise _OsExitCalled(status)
    _real_os_exit(status)


def _guard_os_exit() -> None:
    """Make ``os._exit`` in a judge a task error, once per process."""
    global _judge_pid
    _judge_pid = os.getpid()
    if os._exit is not _guarded_os_exit:
        os._exit = _guarded_os_exit


#: The warden (see the module docstring). Frames of 9 bytes on its stdin: b"A" + seconds as a
#: double (a call starts), b"D" + 8 bytes (it ended); end of input: the watched process has ended.
_WARDEN_CODE = r"""
import os, select, signal, struct, sys
watched = int(sys.argv[1])

def frame():
    data = b""
    while len(data) < 9:
        chunk = os.read(0, 9 - len(data))
        if not chunk:
            sys.exit(0)
        data += chunk
    return data

while True:
    data = frame()
    if data[:1] != b"A":
        continue
    (seconds,) = struct.unpack("d", data[1:])
    if select.select([0], [], [], seconds)[0]:
        frame()  # the call ended in time
        continue
    if os.getppid() != watched:
        sys.exit(0)  # the watched process is gone: its pid may be another's now
    os.write(2, (f"mobileagent: a judge (task body) in process {watched} still runs {seconds:g} s after it "
                 "started, past --judge-timeout, in code that holds the GIL (C code such as a catastrophic "
                 "regex); ending the process (SIGABRT), its threads' stacks follow\n").encode())
    os.kill(watched, signal.SIGABRT)
    sys.exit(0)
"""


class _Warden:
    """This process's warden: a child that ends it when a judge call overruns (see the module docstring)."""

    def __init__(self, stderr: int):
        self.pid = os.getpid()
        self.proc = subprocess.Popen([sys.executable, "-I", "-c", _WARDEN_CODE, str(self.pid)],
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr,
                                     close_fds=True)
        assert self.proc.stdin is not None
        self.fd = self.proc.stdin.fileno()

    def arm(self, seconds: float) -> None:
        os.write(self.fd, b"A" + struct.pack("d", seconds))

    def disarm(self) -> None:
        os.write(self.fd, b"D" + bytes(8))

    def forget_in_child(self) -> None:
        # A child a judge forks must not hold the pipe open: the warden ends with its process.
        try:
            os.close(self.fd)
        except OSError:
            pass


_WARDEN_PROC: "_Warden | None" = None


def _warden(stderr: int) -> "_Warden | None":
    """This process's warden, started at the first call; None if it cannot be started."""
    global _WARDEN_PROC
    warden = _WARDEN_PROC
    if warden is not None and warden.pid == os.getpid() and warden.proc.poll() is None:
        return warden
    try:
        _WARDEN_PROC = _Warden(stderr)
    except OSError:
        return None  # the judge is still bounded in Python; only the C case is not covered
    return _WARDEN_PROC


def _after_fork_in_child() -> None:
    if _WARDEN_PROC is not None:
        _WARDEN_PROC.forget_in_child()


os.register_at_fork(after_in_child=_after_fork_in_child)


def _run_judge(fn: Callable[[], Any]) -> Any:
    _judging.active = True
    try:
        return fn()
    finally:
        _judging.active = False


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
                box.append((True, _run_judge(fn)))
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
    _guard_os_exit()
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
    """Calls a task's judge bounded by ``limit`` seconds (None: on this thread, unbounded).

    ``watchdog``: the file descriptor the warden writes its note to (see the
    module docstring); None leaves the warden off.
    """

    def __init__(self, limit: float | None, task: str, *, watchdog: int | None = None):
        self.limit = limit
        self.task = task
        self.watchdog = watchdog

    def call(self, fn: Callable[[], Any], *, step: int) -> Any:
        """``fn()``'s result; what it raised (an AssertionError: the task is not done yet);
        :class:`JudgeTimeout` after the bound; :class:`JudgeExit` for SystemExit/KeyboardInterrupt."""
        if self.limit is None:
            _guard_os_exit()
            try:
                return _run_judge(fn)
            except (SystemExit, KeyboardInterrupt) as exc:
                if isinstance(exc, KeyboardInterrupt) and threading.current_thread() is threading.main_thread():
                    raise  # on the main thread it may be the user's Ctrl-C: the run stops
                raise self._exit(exc, step) from exc
        worker = _judge_thread()
        box: list[tuple[bool, Any]] = []
        done = threading.Event()
        warden = _warden(self.watchdog) if self.watchdog is not None else None
        if warden is not None:
            warden.arm(self.limit + WATCHDOG_GRACE)
        worker.jobs.put((fn, box, done))
        finished = done.wait(self.limit)
        if warden is not None:
            warden.disarm()  # the main thread has the call back
        if not finished:
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
        if isinstance(exc, _OsExitCalled):
            what = f"called os._exit({exc.code!r})"
        elif isinstance(exc, SystemExit):
            what = f"raised SystemExit({exc.code!r})"
        else:
            what = f"raised {type(exc).__name__}"
        return JudgeExit(f"task {self.task}: the judge {what} after step {step} "
                         "(a task body must only fail through assert; it cannot end the run)")

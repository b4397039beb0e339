"""The judge's clock: a task body that never returns errors its task, not the run.

The harness runs a task's body (its judge) after every action. A judge that
loops or waits forever would hang the whole run with nothing naming the task.
Under ``--judge-timeout SECONDS`` each judge call is bounded, from outside
the process: a small warden process (one per process that judges, started at
its first judge call) shares a few bytes of memory with it, where each call
writes its deadline when it starts and its end when it ends.

A judge called from pytest's main thread (the harness's own loop, or a
driver agent's ``after_action`` there) runs right there, and at the bound the
warden sends it SIGUSR2 (again every :data:`SIGNAL_EVERY` seconds while the
call goes on). Python runs a signal's handler on the main thread at its next
instruction, and C code that checks for signals runs it there too: ``re``
checks every 4096 steps of a match (CPython's Modules/_sre/sre_lib.h,
``SRE(match)``: ``if ((0 == (++sigcount & 0xfff)) && PyErr_CheckSignals())``),
and a blocking read or sleep returns EINTR to run it (PEP 475). The handler
raises ``_JudgeStopped`` inside the judge, which ends it where it was: a
catastrophic regex, which holds the GIL and starves every other thread, is
stopped too. The task is an error (:class:`JudgeTimeout`) naming the task and
where the judge was, and the run goes on, single-process or not.

A judge called from another thread runs in a judge thread of its own (one per
process, reused from call to call) while the caller waits, at most the bound.
Then the caller takes the judge thread's stack, asks the thread to stop (an
exception raised in it at its next Python instruction, which ends a pure
Python loop; a judge stuck in C code, such as a read that never returns, is
left behind as a daemon thread and a new thread serves the next judge), and
raises :class:`JudgeTimeout` with that stack.

``SystemExit`` and ``KeyboardInterrupt`` raised by a judge are not an exit or
an interrupt of the run: they come back as :class:`JudgeExit`, a task error
that says which. A ``KeyboardInterrupt`` out of a judge on the main thread is
the user's Ctrl-C (and stops the run) only if SIGINT arrived during the call.
``--judge-timeout 0`` calls the judge on the calling thread without a bound
(for a debugger).

Why a signal and not a forked child per judge call: a fork of the
harness's process cost 5-8 ms (40 MB resident) to 23-34 ms (300 MB) per
call on the shared 2-core machine, against a step of a few ms on the
virtual phones; and a judge may keep state across its calls in its own
fixtures (``ShownFields`` in task_tests/test_contacts.py follows a dialog
from step to step), which a child's run would lose.

C code that neither checks for signals nor lets go of the GIL (on any
thread), and GIL-holding C code of any kind in a judge called off the main
thread (a catastrophic regex too), is still not reachable: if a call
has not ended :data:`WATCHDOG_GRACE` seconds after the bound, the warden
says so on stderr and sends SIGABRT, which faulthandler (enabled by
pytest) answers by writing every thread's stack -- the judge's line in the
task body among them -- and the process ends. Under xdist that is a
crashed worker, which costs only its task (an error record; a replacement
worker takes over); a single-process run ends there, without its summary
or results file. The warden ends when its stdin, a pipe from the process it
watches, closes (that process ended, however).

``os._exit`` called by a judge is turned into :class:`JudgeExit` as well (it
would end the process at once, in any thread); called anywhere else, or in a
child the judge forked, it exits as ever.
"""

from __future__ import annotations

# The C module under ``signal``, for the handler swaps each judge call makes: ``signal.signal`` and
# ``signal.getsignal`` turn the handler into an enum member first, which for a function handler
# means raising and catching a ValueError (7 us per call here, against 0.03 us).
import _signal
import ctypes
import mmap
import os
import queue
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from types import FrameType
from typing import Any, Callable

from .errors import TaskDefinitionError

__all__ = ["JudgeClock", "JudgeExit", "JudgeTimeout", "SIGNAL_EVERY", "STOP_SIGNAL", "WATCHDOG_GRACE"]

#: Seconds past --judge-timeout after which the warden ends a process whose judge starves it.
WATCHDOG_GRACE = 5.0
#: Seconds between the warden's signals to a judge on the main thread that goes on past its bound
#: (one that catches the first ``_JudgeStopped`` gets another).
SIGNAL_EVERY = 0.5
#: What the warden sends at the bound to a judge on the main thread.
STOP_SIGNAL = signal.SIGUSR2


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


#: The warden's view of the current call: 24 bytes of memory shared with it (a memfd both map):
#: the deadline (CLOCK_MONOTONIC seconds, one clock for every process), whether to signal the
#: judge at it (1: it runs on the main thread) and the call's number, odd while it runs. Writing
#: two fields costs a call about a microsecond, where a pipe write that wakes the warden cost two
#: process switches per call (20-60 us); the warden looks every POLL seconds instead. Its stdin
#: is a pipe nobody writes to: its end of input is the end of the watched process.
_STATE = struct.Struct("<dQQ")
_CALL = struct.Struct("<Q")
_CALL_AT = 16
POLL = 0.1

_WARDEN_CODE = r"""
import mmap, os, select, signal, struct, sys, time
watched, state_fd, grace, every, poll = (int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]),
                                         float(sys.argv[4]), float(sys.argv[5]))
shared = mmap.mmap(state_fd, 24, mmap.MAP_SHARED, mmap.PROT_READ)
layout = struct.Struct("<dQQ")
signalled = 0  # the call last signalled, and when
last_signal = 0.0

def current():
    while True:  # a read that straddles the harness's write differs from the next one: read again
        first, second = layout.unpack_from(shared), layout.unpack_from(shared)
        if first == second:
            return first

while True:
    deadline, signal_judge, call = current()
    now = time.monotonic()
    wait = poll
    if call % 2 == 1 and now >= deadline:
        if os.getppid() != watched:
            sys.exit(0)  # the watched process is gone: its pid may be another's now
        if now >= deadline + grace:
            os.write(2, (f"mobileagent: a judge (task body) in process {watched} still runs "
                         f"{grace:g} s past --judge-timeout, in C code that holds the GIL and does not check for "
                         "signals (off the main thread: any such code, a catastrophic regex too); ending "
                         "the process (SIGABRT), its threads' stacks follow\n").encode())
            os.kill(watched, signal.SIGABRT)
            sys.exit(0)
        if signal_judge and (signalled != call or now - last_signal >= every):
            os.kill(watched, signal.SIGUSR2)  # the judge's handler stops it at its next check
            signalled, last_signal = call, now
        wait = min(poll, every)
    elif call % 2 == 1:
        wait = min(poll, deadline - now)
    if select.select([0], [], [], wait)[0] and not os.read(0, 1):
        sys.exit(0)  # end of input: the watched process has ended
"""


class _Warden:
    """This process's warden: a child that ends it when a judge call overruns (see the module docstring)."""

    def __init__(self, stderr: int):
        self.pid = os.getpid()
        state = os.memfd_create("mobileagent-judge-warden", os.MFD_CLOEXEC)
        try:
            os.ftruncate(state, _STATE.size)
            self.shared = mmap.mmap(state, _STATE.size, mmap.MAP_SHARED)
            self.proc = subprocess.Popen([sys.executable, "-I", "-c", _WARDEN_CODE, str(self.pid), str(state),
                                          repr(WATCHDOG_GRACE), repr(SIGNAL_EVERY), repr(POLL)],
                                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=stderr,
                                         close_fds=True, pass_fds=(state,))
        finally:
            os.close(state)
        assert self.proc.stdin is not None
        self.fd = self.proc.stdin.fileno()
        self.calls = 0

    def arm(self, bound: float, *, signal_judge: bool) -> None:
        self.calls += 1
        # The call's number last: until it is odd the warden reads the call before as ended.
        _STATE.pack_into(self.shared, 0, time.monotonic() + bound, int(signal_judge), 2 * self.calls - 2)
        _CALL.pack_into(self.shared, _CALL_AT, 2 * self.calls - 1)

    def disarm(self) -> None:
        _CALL.pack_into(self.shared, _CALL_AT, 2 * self.calls)

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


class _MainCall:
    """The judge call on the main thread, as the signal handlers see it."""

    active = False  # a judge runs on the main thread now: the warden's signal stops it
    ctrl_c = False  # SIGINT arrived during the call: a KeyboardInterrupt is the user's
    stopped: "_JudgeStopped | None" = None  # the first stop the warden's signal raised in this call


_MAIN = _MainCall()


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    # The stop lands in the judge's own code, never in the clock's bookkeeping around it
    # (the warden signals again shortly); a signal after the call ended is ignored.
    if _MAIN.active and (frame is None or frame.f_code not in _OWN_CODE):
        stop = _JudgeStopped()
        if _MAIN.stopped is None:
            _MAIN.stopped = stop  # its traceback is where the judge was
        raise stop


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    _MAIN.ctrl_c = True
    signal.default_int_handler(signum, frame)


def _stop_signal_ready() -> bool:
    """This is the main thread and STOP_SIGNAL's handler is the clock's (installed now if nobody has one)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    handler = _signal.getsignal(STOP_SIGNAL)
    if handler is _on_stop_signal:
        return True
    if handler != signal.SIG_DFL:  # (_signal gives the plain number)
        return False  # another's handler (or SIG_IGN): the judge thread serves, as off the main thread
    # Installed for good: a signal the warden sent just as a call ended must find it, not the default
    # action (which ends the process).
    signal.signal(STOP_SIGNAL, _on_stop_signal)
    return True


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
        warden = _warden(self.watchdog) if self.watchdog is not None else None
        if warden is not None and _stop_signal_ready():
            return self._call_here(fn, step, warden)
        worker = _judge_thread()
        box: list[tuple[bool, Any]] = []
        done = threading.Event()
        if warden is not None:
            warden.arm(self.limit, signal_judge=False)
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

    def _call_here(self, fn: Callable[[], Any], step: int, warden: _Warden) -> Any:
        """The judge on this (the main) thread, stopped by the warden's signal at the bound."""
        assert self.limit is not None
        _guard_os_exit()
        interrupts = _signal.getsignal(signal.SIGINT)
        own_interrupts = interrupts is signal.default_int_handler  # else: someone's own, left alone
        if own_interrupts:
            _signal.signal(signal.SIGINT, _on_interrupt)
        _MAIN.ctrl_c, _MAIN.stopped = False, None
        try:
            try:
                warden.arm(self.limit, signal_judge=True)
                _MAIN.active = True
                try:
                    value = _run_judge(fn)
                finally:
                    _MAIN.active = False
                    warden.disarm()
            except (SystemExit, KeyboardInterrupt) as exc:
                if isinstance(exc, KeyboardInterrupt) and _MAIN.ctrl_c:
                    raise  # the user's Ctrl-C: the run stops
                if _MAIN.stopped is None:
                    raise self._exit(exc, step) from exc
            except BaseException:
                if _MAIN.stopped is None:
                    raise
        finally:
            if own_interrupts:
                _signal.signal(signal.SIGINT, interrupts)
        if _MAIN.stopped is not None:  # stopped; or it caught the stop and went on past its bound
            where = [frame for frame in traceback.extract_tb(_MAIN.stopped.__traceback__)
                     if frame.filename != __file__]
            _MAIN.stopped = None
            raise JudgeTimeout(
                f"task {self.task}: the judge ran longer than {self.limit:g} s after step {step} "
                f"(--judge-timeout) and was stopped; it was here:\n"
                f"{''.join(traceback.format_list(where)).rstrip()}")
        return value

    def _exit(self, exc: BaseException, step: int) -> JudgeExit:
        if isinstance(exc, _OsExitCalled):
            what = f"called os._exit({exc.code!r})"
        elif isinstance(exc, SystemExit):
            what = f"raised SystemExit({exc.code!r})"
        else:
            what = f"raised {type(exc).__name__}"
        return JudgeExit(f"task {self.task}: the judge {what} after step {step} "
                         "(a task body must only fail through assert; it cannot end the run)")


#: The clock's own frames, where the stop signal never raises (see _on_stop_signal).
_OWN_CODE = frozenset({JudgeClock._call_here.__code__, _run_judge.__code__})

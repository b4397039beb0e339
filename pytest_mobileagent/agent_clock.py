"""The agent's clock: a hanging agent fails its task instead of hanging the run.

Under ``--agent-timeout SECONDS`` a timer (SIGALRM, as pytest-timeout's
``signal`` method) runs while the agent's code (``step()``, ``run()``,
``reset()``) does. It counts only the agent's time for one action: it is
stopped while the harness works for the agent (a driver's ``after_action``,
a screenshot the agent reads), since device calls have bounds of their own,
and restarts when the agent has the turn again. When it fires, the agent's
code is interrupted where it is -- a blocking read, a lock, a sleep, a loop
-- the task fails with :class:`AgentTimeout` (its traceback shows where the
agent was), and the run goes on.

The agent stays on pytest's main thread, so whatever it keeps per thread
(allure-pytest's current test, an sqlite3 connection, signal handlers) works
as without a limit. The clock stands aside, and the agent runs without a
limit, where a signal cannot help: off the main thread, while another timer
(pytest-timeout's) uses SIGALRM, or inside C code that never returns to
Python. An agent paused in a debugger is not timed out.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from types import FrameType
from typing import Any, Callable, Iterator

from .errors import MobileAgentError

__all__ = ["AgentClock", "AgentTimeout"]


class AgentTimeout(MobileAgentError, TimeoutError):
    """The agent spent longer than ``--agent-timeout`` on one action: a task failure."""


class _Overrun(BaseException):
    """Raised inside the agent's code when its time is up.

    A BaseException, so that an agent's own ``except Exception`` does not
    swallow it (pytest's outcomes are built the same way).
    """


class AgentClock:
    """Times the agent's own code in one episode and interrupts it after ``limit`` seconds.

    ``limit=None``: no clock; the agent's code is simply called.
    """

    def __init__(self, limit: float | None):
        self.limit = limit
        self.overrun = False  # the agent's time ran out in this episode
        self._running = False  # the timer is armed for the agent's current turn

    def call(self, what: "str | Callable[[], str]", fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` with the clock running; its result or exception.

        ``what`` names the call in the timeout message ("step 3"; a callable
        is asked when the message is written). Raises :class:`AgentTimeout`
        when the agent's time runs out.
        """
        if self.overrun:
            raise AgentTimeout(f"the agent's time ran out earlier in this task; not calling it for {_name(what)}")
        if self.limit is None or not _timer_free():  # a running timer (even ours) is not free
            return fn(*args)
        previous = signal.signal(signal.SIGALRM, self._on_alarm)
        try:
            try:
                self._start()
                try:
                    result = fn(*args)
                finally:
                    self._stop()
            except _Overrun as overrun:
                self.overrun = True
                raise AgentTimeout(
                    f"the agent spent more than {self.limit:g} s on one action ({_name(what)}) and was "
                    "interrupted (--agent-timeout); the traceback above shows where it was"
                ) from overrun
        finally:
            signal.signal(signal.SIGALRM, previous)
        if self.overrun:  # the agent caught the interruption and returned anyway
            raise AgentTimeout(f"the agent spent more than {self.limit:g} s on one action ({_name(what)})")
        return result

    @contextlib.contextmanager
    def harness_turn(self) -> Iterator[None]:
        """Around harness work the agent asked for: the clock stops, and restarts after."""
        if self.overrun:  # an agent that caught the interruption gets no more service
            raise _Overrun()
        if not self._running:
            yield
            return
        self._stop()
        try:
            yield
        finally:
            self._start()

    def _start(self) -> None:
        self._running = True
        signal.setitimer(signal.ITIMER_REAL, self.limit)

    def _stop(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        self._running = False

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if _in_debugger(frame):
            signal.setitimer(signal.ITIMER_REAL, self.limit)  # a paused agent is not a hung one
            return
        self.overrun = True
        self._running = False
        raise _Overrun()


def _timer_free() -> bool:
    """Signals work here, and no other timer (pytest-timeout's) is running."""
    return threading.current_thread() is threading.main_thread() and signal.getitimer(signal.ITIMER_REAL)[0] == 0


def _name(what: "str | Callable[[], str]") -> str:
    return what() if callable(what) else what


def _in_debugger(frame: FrameType | None) -> bool:
    """Someone is stepping through this code (pdb, or an IDE's pydevd).

    Debuggers set ``f_trace`` on the frames they follow. Only theirs count
    (the modules pytest-timeout also knows): a coverage tracer is not a pause.
    """
    while frame is not None:
        if frame.f_trace is not None and _is_debugger(frame.f_trace):
            return True
        frame = frame.f_back
    return _is_debugger(sys.gettrace())


def _is_debugger(trace: Any) -> bool:
    if trace is None:
        return False
    module = getattr(trace, "__module__", None) or type(trace).__module__ or ""
    return any(part == "bdb" or part.startswith("pydevd") for part in module.split("."))

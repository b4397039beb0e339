"""The agent's clock: a hanging agent fails its task instead of hanging the run.

With ``--agent-timeout SECONDS`` the agent's code (``step()``, ``run()``,
``reset()``) runs on a thread of its own while the harness waits on the
clock. The clock counts only the agent's time for one action: it restarts
whenever the harness takes over (a driver's ``after_action``, a screenshot
the agent asks for), and is paused while the harness works, since device
calls have bounds of their own. When the agent overruns, the task fails with
:class:`AgentTimeout` and the run goes on. An agent paused in a debugger is
not timed out.

Python cannot stop a thread, so the agent's thread is left behind: it is a
daemon thread (it cannot keep pytest from exiting), and any later call it
makes into the harness raises :class:`AgentTimeout` without touching the
device. The next task gets a new thread.

Without a timeout the agent's code is called directly, on pytest's thread.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
from typing import Any, Callable, Iterator

from .errors import MobileAgentError

__all__ = ["AgentClock", "AgentThread", "AgentTimeout"]


class AgentTimeout(MobileAgentError, TimeoutError):
    """The agent spent longer than ``--agent-timeout`` on one action: a task failure."""


class AgentThread:
    """A daemon thread that runs agent calls one at a time.

    One per pytest process, reused from task to task (a hand-over costs tens
    of microseconds, a new thread several times that); replaced once a call
    on it was given up.
    """

    def __init__(self) -> None:
        self.stuck = False  # a call on it overran and may never return
        self._calls: "queue.SimpleQueue[Callable[[], None] | None]" = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="mobileagent-agent", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            call = self._calls.get()
            if call is None:
                return
            call()

    def submit(self, call: Callable[[], None]) -> None:
        self._calls.put(call)

    def close(self) -> None:
        """Let the thread end after its current call (it is not waited for)."""
        self._calls.put(None)

    def in_debugger(self) -> bool:
        """Someone is stepping through the agent's code (pdb, or an IDE's pydevd).

        Debuggers set ``f_trace`` on the frames they follow. Only theirs count
        (the modules pytest-timeout also knows): a coverage tracer is not a pause.
        """
        frame = sys._current_frames().get(self._thread.ident or -1)
        while frame is not None:
            if frame.f_trace is not None and _is_debugger(frame.f_trace):
                return True
            frame = frame.f_back
        return False


def _name(what: "str | Callable[[], str]") -> str:
    return what() if callable(what) else what


def _is_debugger(trace: Any) -> bool:
    module = getattr(trace, "__module__", None) or type(trace).__module__ or ""
    return any(part == "bdb" or part.startswith("pydevd") for part in module.split("."))


class AgentClock:
    """Times the agent's own code in one episode and gives up on it after ``limit`` seconds.

    ``limit=None``: no clock; agent code runs directly on the caller's thread.
    """

    def __init__(self, limit: float | None, thread_factory: Callable[[], AgentThread] | None = None):
        if limit is not None and thread_factory is None:
            raise ValueError("a clock with a limit needs a thread to run the agent on")
        self.limit = limit
        self._thread_factory = thread_factory
        self._lock = threading.Condition()
        self._harness_busy = False  # the agent called into the harness: its clock is paused
        self._turn_started = 0.0  # when the agent's current turn began (its clock's zero)
        self.abandoned = False  # gave up on the agent: every later harness call refuses

    def call(self, what: "str | Callable[[], str]", fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the agent's thread; its result or exception.

        ``what`` names the call in the timeout message ("step 3"; a callable
        is asked when the message is written). Raises :class:`AgentTimeout` if
        the agent's time runs out first.
        """
        if self.limit is None:
            return fn(*args)
        if self.abandoned:
            raise AgentTimeout(f"the agent was given up on earlier in this task; not calling it for {_name(what)}")
        outcome: list[Any] = []  # [True, result] or [False, exception]

        def run() -> None:
            try:
                result = (True, fn(*args))
            except BaseException as exc:  # handed to the waiting harness, raised there
                result = (False, exc)
            with self._lock:
                outcome.extend(result)
                self._lock.notify_all()

        thread = self._thread_factory()  # type: ignore[misc]
        with self._lock:
            self._turn_started = time.monotonic()
            thread.submit(run)
            while not outcome:
                if self._harness_busy:
                    self._lock.wait()  # the harness's own bounds apply
                    continue
                left = self._turn_started + self.limit - time.monotonic()
                if left <= 0 and thread.in_debugger():
                    self._turn_started = time.monotonic()  # the clock restarts after the debugger
                    continue
                if left <= 0:
                    self.abandoned = True
                    thread.stuck = True
                    raise AgentTimeout(
                        f"the agent spent more than {self.limit:g} s on one action ({_name(what)}) and was "
                        "given up on (--agent-timeout)"
                    )
                self._lock.wait(left)
        ok, value = outcome
        if ok:
            return value
        if isinstance(value, ValueError) and "main thread" in str(value):
            # signal.signal() and friends: say why, and how to keep the agent where it was.
            value.add_note("[mobileagent] under --agent-timeout the agent runs on a thread of its own; "
                           "--agent-timeout 0 keeps it on pytest's main thread")
        raise value

    @contextlib.contextmanager
    def harness_turn(self) -> Iterator[None]:
        """Around harness work the agent asked for: pauses the clock, restarts it after.

        Refuses (AgentTimeout) once the agent was given up on, so a thread left
        behind can no longer reach the device.
        """
        if self.limit is None:
            yield
            return
        with self._lock:
            if self.abandoned:
                raise AgentTimeout("the agent was given up on (--agent-timeout); the harness takes no more calls from it")
            self._harness_busy = True
        try:
            yield
        finally:
            with self._lock:
                self._harness_busy = False
                self._turn_started = time.monotonic()
                self._lock.notify_all()

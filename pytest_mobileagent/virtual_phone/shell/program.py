"""A program the shell runs in the foreground: its sockets, its output, its exit.

Long-running programs run in the foreground of the shell command that starts them.

``CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main`` (and
``am instrument -w ...``) does not return on Android: the program runs in the
foreground of its ``adb shell`` until it exits, and it dies with SIGHUP when
the host closes that shell. Clients rely on both: uiautomator2 stops its
server by closing the shell stream it was started on.

A shell command that starts such a program creates a `Program`, makes it
listen (``program.listen("tcp:9008", handler)``, see sockets.py) and hands it
to its shell with ``inv.session.hold(program)``; the adb shell service then
keeps the stream open, relays what the program prints, and on hang-up calls
``program.kill()``, which closes the program's sockets. The program ends on its
own with ``program.exit(code)``.

Commands after the holding command on the same line are not run (the shell
is synchronous); clients start these programs as the whole command line.
"""

from __future__ import annotations

import threading
import weakref
from typing import TYPE_CHECKING, Callable

from ..kernel.context import PhoneContext

if TYPE_CHECKING:
    from ..kernel.sockets import Handler, Listener

__all__ = ["Program", "SIGHUP_STATUS", "SIGKILL_STATUS", "running_program", "track"]

#: Exit statuses of a process killed by a signal, as sh reports them (128 + signo).
SIGHUP_STATUS = 129
SIGKILL_STATUS = 137


class Program:
    """One running process: its name, its listening sockets, its output and exit.

    Thread-safe: output and exit are delivered to callbacks registered by the
    shell service (``on_output`` / ``on_exit``), whichever thread produced them.
    """

    def __init__(self, phone: "PhoneContext", name: str):
        self.phone = phone
        self.name = name
        self.exit_code: int | None = None
        self.listeners: list["Listener"] = []
        self._lock = threading.Lock()
        self._pending_output = bytearray()
        self._output_callbacks: list[Callable[[bytes], None]] = []
        self._exit_callbacks: list[Callable[[int], None]] = []
        self._cleanups: list[Callable[[], None]] = []
        #: signals the program ignores (nohup: SIGHUP), so a kill with them changes nothing
        self.ignored_signals: set[int] = set()

    def __repr__(self) -> str:
        state = "running" if self.running else f"exited {self.exit_code}"
        return f"<Program {self.name} {state}>"

    @property
    def running(self) -> bool:
        return self.exit_code is None

    # -- what the program does ----------------------------------------------------
    def listen(self, address: str, handler: "Handler") -> "Listener":
        """Listen on a phone socket for as long as the program runs."""
        listener = self.phone.sockets.listen(address, handler)
        self.listeners.append(listener)
        return listener

    def at_exit(self, cleanup: Callable[[], None]) -> None:
        """Run ``cleanup`` when the program ends, however it ends."""
        self._cleanups.append(cleanup)

    def print(self, data: bytes | str) -> None:
        """Write to the program's stdout (the shell stream it runs in)."""
        if isinstance(data, str):
            data = data.encode()
        with self._lock:
            callbacks = list(self._output_callbacks)
            if not callbacks:
                self._pending_output += data
        for callback in callbacks:
            callback(data)

    def exit(self, code: int = 0) -> None:
        """End the program: its sockets close, its shell returns ``code``."""
        with self._lock:
            if self.exit_code is not None:
                return
            self.exit_code = code & 0xFF
            callbacks = list(self._exit_callbacks)
        for listener in self.listeners:
            listener.close()
        for cleanup in self._cleanups:
            cleanup()
        for callback in callbacks:
            callback(self.exit_code)

    def kill(self, status: int = SIGHUP_STATUS) -> None:
        """Killed by a signal (SIGHUP when its adb shell went away), unless it ignores it."""
        if status - 128 in self.ignored_signals:
            return
        self.exit(status)

    # -- what its shell does ----------------------------------------------------------
    def on_output(self, callback: Callable[[bytes], None]) -> None:
        """Receive the program's output from now on (and what it printed before)."""
        with self._lock:
            pending = bytes(self._pending_output)
            self._pending_output.clear()
            self._output_callbacks.append(callback)
        if pending:
            callback(pending)

    def on_exit(self, callback: Callable[[int], None]) -> None:
        """Be told the exit status once the program ends (at once if it has)."""
        with self._lock:
            code = self.exit_code
            if code is None:
                self._exit_callbacks.append(callback)
        if code is not None:
            callback(code)


#: phone -> {pid: program}: the programs shells run, which `pkill` and `timeout` can signal
_BY_PID: "weakref.WeakKeyDictionary[PhoneContext, dict[int, Program]]" = weakref.WeakKeyDictionary()


def track(phone: PhoneContext, pid: int, program: Program) -> None:
    """Make ``program`` the process ``pid`` (as ps lists it) until it ends."""
    running = _BY_PID.setdefault(phone, {})
    running[pid] = program
    program.at_exit(lambda: running.pop(pid, None))


def running_program(phone: PhoneContext, pid: int) -> Program | None:
    """The program that is process ``pid``, if a shell runs it."""
    program = _BY_PID.get(phone, {}).get(pid)
    return program if program is not None and program.running else None

"""The phone's log buffers (logd): what `logcat` reads and `log` writes.

Entries live in logd's ring buffers (main, system, crash, radio, events...),
each bounded, with the writer's pid/tid, priority, tag and message.  Readers
that follow the log (`logcat` without -d) subscribe and get every entry
written after them.

The system server's lines clients wait for are written when an activity
starts, as Android 14 writes them (frameworks/base/services/core/java/com/
android/server/wm/ActivityStarter.java executeRequest/execute: "START u0
{...} with LAUNCH_MULTIPLE from uid N ... result code=0" under the tag
ActivityTaskManager; am/ProcessList.java handleProcessStartedLocked: "Start
proc PID:NAME/u0aN for next-top-activity {...}" under ActivityManager;
wm/ActivityMetricsLogger.java logAppDisplayed: "Displayed pkg/.Act for user
0: +NNNms").  `am start` tells the log which intent it sent
(`note_start_request`); other starts (an app's own, the launcher's) are
logged with the component the phone shows.
"""

from __future__ import annotations

import threading
import zlib
from collections import deque
from dataclasses import dataclass
from typing import Callable

from .context import PhoneContext


__all__ = ["BUFFERS", "DEFAULT_BUFFERS", "LogBuffer", "LogEntry", "forget_stopped_activities", "install_logging",
           "note_start_request"]

#: logd's buffers in the order `logcat -b all` reads them (liblog log_id_t).
BUFFERS = ("main", "radio", "events", "system", "crash", "stats", "security", "kernel")
#: what logcat reads without -b (logcat.cpp: "main,system,crash" plus kernel when enabled)
DEFAULT_BUFFERS = ("main", "system", "crash")
#: entries kept per buffer (logd's 256 KiB default holds a few thousand lines)
MAX_ENTRIES = 4000
SYSTEM_SERVER_PID = 540
#: tids of system_server's threads that write these lines
_ATM_TID, _AM_TID = 570, 612


@dataclass(frozen=True)
class LogEntry:
    time_ms: int
    pid: int
    tid: int
    uid: int
    priority: str  # V D I W E F
    tag: str
    message: str
    buffer: str = "main"
    seq: int = 0


class LogBuffer:
    """logd: bounded per-buffer rings plus the readers following them."""

    def __init__(self, clock_ms: Callable[[], int]):
        self._clock_ms = clock_ms
        self._lock = threading.Lock()
        self._rings: dict[str, deque[LogEntry]] = {name: deque(maxlen=MAX_ENTRIES) for name in BUFFERS}
        self._readers: list[Callable[[LogEntry], None]] = []
        self._seq = 0
        #: the intent `am start` sent and the caller's uid, consumed by the next activity start
        self.pending_start: tuple[str, int] | None = None
        self._last_stack: list[tuple[str, str]] = []

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_readers"] = []  # followers are connections, not state
        state.pop("_lock")
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def write(self, tag: str, message: str, *, priority: str = "I", pid: int = SYSTEM_SERVER_PID,
              tid: int | None = None, uid: int = 1000, buffer: str = "main") -> LogEntry:
        with self._lock:
            self._seq += 1
            entry = LogEntry(self._clock_ms(), pid, tid if tid is not None else pid, uid, priority, tag,
                             message, buffer, self._seq)
            self._rings[buffer].append(entry)
            readers = list(self._readers)
        for reader in readers:
            reader(entry)
        return entry

    def entries(self, buffers: tuple[str, ...] | list[str]) -> list[LogEntry]:
        """The selected buffers' entries merged in write order."""
        with self._lock:
            merged = [e for name in buffers for e in self._rings[name]]
        return sorted(merged, key=lambda e: e.seq)

    def clear(self, buffers: tuple[str, ...] | list[str]) -> None:
        with self._lock:
            for name in buffers:
                self._rings[name].clear()

    def size(self, buffer: str) -> int:
        with self._lock:
            return sum(len(e.message) + len(e.tag) + 28 for e in self._rings[buffer])

    def follow(self, reader: Callable[[LogEntry], None]) -> Callable[[], None]:
        """Call ``reader`` with every entry written from now on; returns the unsubscribe function."""
        with self._lock:
            self._readers.append(reader)

        def stop() -> None:
            with self._lock:
                if reader in self._readers:
                    self._readers.remove(reader)
        return stop


def _short(package: str, cls: str) -> str:
    return f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else f"{package}/{cls}"


def note_start_request(phone: "PhoneContext", intent_text: str, uid: int = 2000) -> None:
    """`am start` (or monkey) asked ActivityTaskManager for ``{intent_text}`` as ``uid``."""
    log = getattr(phone, "logs", None)
    if log is not None:
        log.pending_start = (intent_text, uid)


def forget_stopped_activities(phone: "PhoneContext", package: str) -> None:
    """A package's activities died with its process (`am force-stop`), whether or not the screen
    changed: its next start is a new launch, logged with START and Displayed
    (ActivityMetricsLogger logs every launch that draws), not a return to an activity still there."""
    log: LogBuffer = phone.logs
    log._last_stack = [entry for entry in log._last_stack if entry[0] != package]


def _on_event(phone: "PhoneContext", event: dict) -> None:
    """Log ActivityTaskManager/ActivityManager lines when a new activity comes to the front."""
    if event.get("type") != "window_state":
        return
    log: LogBuffer = phone.logs
    stack = phone.system.activity_stack()
    if not stack or stack == log._last_stack:
        return
    previous, log._last_stack = log._last_stack, stack
    package, cls = stack[0]
    if event.get("class") != cls or (package, cls) in previous:
        return  # a dialog or popup, or back to an activity that was already there
    pending, log.pending_start = log.pending_start, None
    component = _short(package, cls)
    if pending is not None:
        intent_text, uid = pending
    elif previous and previous[0][0] == "com.android.launcher3" and package != "com.android.launcher3":
        intent_text = (f"act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
                       f"flg=0x10200000 cmp={component}")
        uid = phone.process_uid("com.android.launcher3")
    else:
        intent_text = f"cmp={component}"
        uid = phone.process_uid(previous[0][0]) if previous else 1000
    mode = "LAUNCH_MULTIPLE"
    log.write("ActivityTaskManager", f"START u0 {{{intent_text}}} with {mode} from uid {uid} result code=0",
              tid=_ATM_TID, buffer="system")
    running_before = {p for p, _ in previous}
    if package not in running_before:
        pid = phone.pid_of(package)
        uid_text = f"u0a{phone.process_uid(package) - 10000}"
        log.write("ActivityManager", f"Start proc {pid}:{package}/{uid_text} for next-top-activity {{{component}}}",
                  tid=_AM_TID, buffer="system")
    delay = 250 + zlib.crc32(component.encode()) % 400
    log.write("ActivityTaskManager", f"Displayed {component} for user 0: +{delay}ms", tid=_ATM_TID,
              buffer="system")


def install_logging(phone: "PhoneContext") -> LogBuffer:
    """Give the phone its logd and the system server's activity-start lines."""
    phone.logs = LogBuffer(phone.clock_ms)
    phone.logs._last_stack = phone.system.activity_stack()
    phone.add_event_sink(lambda event: _on_event(phone, event))
    return phone.logs

"""The phone's one clock: the wall clock (`date`, file times, log times, what apps call "now"),
elapsedRealtime (/proc/uptime, CLOCK_BOOTTIME) and uptimeMillis (CLOCK_MONOTONIC, the time of
touch events), kept in AOSP's relations to each other.

The decision (issue 36): time passes, by the phone's own work and never by the host's.

- **What moves it.** Each program a shell starts takes `PROGRAM_MS` (the shell charges it before
  the program runs: `date; date` prints two times, and the log line a command writes is later
  than the one before it; builtins take none). `sleep N`, `timeout`'s deadline and input
  gestures take their own length (`input swipe ... 500`, a long press), a uiautomator2 wait
  that runs out its timeout, adbd's restart (`adb root`) a program's start. The first look at
  the screen after the phone changed takes `LOOK_MS`: uiautomator's DumpCommand waits for a
  second of quiet before it dumps (frameworks/base cmds/uiautomator DumpCommand.java:
  ``uiAutomation.waitForIdle(1000, 1000 * 10)``). A look is whatever reads the screen for a
  client: `uiautomator dump`, `screencap`, adb's `framebuffer:`, the listener's hierarchy,
  uiautomator2's and Appium's hierarchy, finding and screenshots.
- **What does not.** Looking again at a phone nothing changed since the last look takes no
  time, and neither does the host's own time: an agent thinking, the harness polling, the
  adb server's `wait-for-device`. How many dumps a harness takes until the screen settles,
  or whether a screenshot it asked for in the background came before or after another,
  depends on the host's speed; if that moved the clock, the same actions would give
  different times from run to run. An app reading its own nodes (DroidBot's accessibility
  service handling an event) is no look either: it happens when the event's thread runs.
- **So runs are reproducible.** Two phones booted with the same seed and start time and
  given the same requests in the same order report the same times, to the millisecond:
  screens (the status bar's minute, Calendar's "today", Messenger's times), file names and
  mtimes, logcat lines, accessibility events, `date +%s.%N`, /proc/uptime. A look the host
  sends while another client acts (a background screenshot still on its way) takes its time
  where it lands, as it would on a phone.
- **Consequences.** A client that waits on its own clock between two requests (uiautomator2's
  ``touch.down``, ``time.sleep``, ``touch.up``) sees no phone time pass in the wait; where the
  phone must tell a press from a long press by such a gap it is measured on the host
  (programs/uiautomator2.py). Two `input tap` on a field with no look between them are a
  double tap (300 ms, ViewConfiguration.DOUBLE_TAP_TIMEOUT), as in one shell line on a phone;
  an agent's taps in two steps are not, since it looked at the screen in between. Nothing is
  redrawn because time passed (no view runs on a timer): the status bar's minute changes
  with the next action.

The relations are AOSP's and Linux's. The phone's wall clock is never set (its `date` sets
nothing, and automatic time is off: ``auto_time`` 0), so wall time and elapsed time move
together. The phone booted `BOOTED_BEFORE_MS` before its start time, as a just-booted
emulator has. It never deep-sleeps (``stay_on_while_plugged_in`` is 7: plugged in, its
screen stays on, so it never suspends), so SystemClock.uptimeMillis (CLOCK_MONOTONIC, which
stops in suspend) equals elapsedRealtime (CLOCK_BOOTTIME, which does not); /proc/uptime's
first field is CLOCK_BOOTTIME (fs/proc/uptime.c: ``ktime_get_boottime_ts64``), its second
the idle time summed over the CPUs, and /proc/stat's btime the wall time at boot
(fs/proc/stat.c: ``getboottime64``), so btime + uptime = now.
"""

from __future__ import annotations

import threading

__all__ = ["BOOTED_BEFORE_MS", "DEFAULT_START_MS", "LOOK_MS", "PROGRAM_MS", "PhoneClock"]

#: The wall-clock time of a freshly booted phone: 2024-05-01T09:00:00Z.
DEFAULT_START_MS = 1_714_554_000_000
#: How long before the phone's start time the kernel booted (a just-booted emulator's uptime).
BOOTED_BEFORE_MS = 90_000
#: What one program started from the shell takes. A model's figure, not a measurement: a toybox
#: program's fork, exec and linking take a few milliseconds on an emulator, the binder-backed
#: tools (`cmd`, `input`, `am`) tens; one USER_HZ tick, so /proc/uptime's hundredths show each.
PROGRAM_MS = 10
#: What the first look at the screen after a change takes: uiautomator dump's waitForIdle(1000, ...).
LOOK_MS = 1000


class PhoneClock:
    """The phone's time, in epoch milliseconds for the wall clock and ms since boot for the others."""

    def __init__(self, start_ms: int = DEFAULT_START_MS):
        self._now_ms = int(start_ms)
        #: wall time when the kernel booted; constant, as the wall clock cannot be set
        self.boot_wall_ms = self._now_ms - BOOTED_BEFORE_MS
        #: time spent in deep sleep (always 0: the phone never suspends; see the module docstring)
        self.slept_ms = 0
        self._changed = True  # the phone did something since the last look (booting counts)
        self._lock = threading.Lock()

    # -- reading --------------------------------------------------------------------------
    def now_ms(self) -> int:
        """The wall clock: System.currentTimeMillis(), CLOCK_REALTIME."""
        return self._now_ms

    def elapsed_ms(self) -> int:
        """SystemClock.elapsedRealtime(), CLOCK_BOOTTIME: since boot, deep sleep included."""
        return self._now_ms - self.boot_wall_ms

    def uptime_ms(self) -> int:
        """SystemClock.uptimeMillis(), CLOCK_MONOTONIC: since boot, deep sleep excluded."""
        return self.elapsed_ms() - self.slept_ms

    def elapsed_at(self, wall_ms: int) -> int:
        """elapsedRealtime at an earlier wall time (a log entry's, for `logcat -v monotonic`)."""
        return wall_ms - self.boot_wall_ms

    def btime(self) -> int:
        """/proc/stat's btime: the wall clock's second at boot."""
        return self.boot_wall_ms // 1000

    # -- moving ---------------------------------------------------------------------------
    def advance(self, ms: int) -> None:
        """Let ``ms`` pass (a `sleep`, a gesture's length); the phone counts as changed."""
        if ms < 0:
            raise ValueError("the clock only moves forward")
        with self._lock:
            self._now_ms += int(ms)
            self._changed = True

    def look(self) -> bool:
        """Something reads the screen: LOOK_MS if the phone changed since the last look, else nothing.
        Returns whether time passed."""
        with self._lock:
            if not self._changed:
                return False
            self._now_ms += LOOK_MS
            self._changed = False
            return True

    def changed(self) -> None:
        """The phone did something that took no measured time (an app's action, a pushed file):
        the next look takes its LOOK_MS."""
        self._changed = True

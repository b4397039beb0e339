"""The listener app's event buffer: bounded, and the foreground app's events kept longest.

Listener protocol 2 (issue 40): the buffer holds event lines
from the moment the accessibility service starts, while no client is connected and
while a client is slow. It is bounded; when full, the line that goes is the oldest
line of a package other than "the app" -- the package of the newest ``window_state``
event, the foreground app -- and only when every buffered line is the app's does the
app's oldest go. Every drop counts in `EventBuffer.dropped`. Lines taken for a client
leave the buffer.

Lines are kept in arrival order in one dict (sequence number -> line) and, per package,
a deque of their sequence numbers, so that adding a line, finding the oldest line of
another package and taking every line are each cheap even when the buffer is full of
the app's own events.
"""

from __future__ import annotations

import threading
from collections import deque

__all__ = ["CAPACITY", "EventBuffer"]

#: Lines the buffer holds (the listener app's QUEUE_CAPACITY).
CAPACITY = 4096


class EventBuffer:
    """Event lines waiting for a client, oldest first; thread-safe."""

    def __init__(self, capacity: int = CAPACITY):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        #: lines dropped since the buffer was made (the hello's ``dropped``)
        self.dropped = 0
        #: the package of the newest window_state event: the foreground app
        self.app = ""
        self._lock = threading.Lock()
        self._seq = 0
        self._lines: dict[int, bytes] = {}
        self._by_package: dict[str, deque[int]] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def add(self, package: str, line: bytes, window_state: bool = False) -> None:
        """Buffer one event line of ``package``; a ``window_state`` event makes its package the app."""
        with self._lock:
            if window_state:
                self.app = package  # the event that changes the app counts as the newest already
            if len(self._lines) >= self.capacity:
                self._drop_one()
            self._seq += 1
            self._lines[self._seq] = line
            queue = self._by_package.get(package)
            if queue is None:
                queue = self._by_package[package] = deque()
            queue.append(self._seq)

    def take(self) -> list[bytes]:
        """Every buffered line, oldest first; they leave the buffer."""
        with self._lock:
            if not self._lines:
                return []
            lines = list(self._lines.values())
            self._lines.clear()
            self._by_package.clear()
            return lines

    def _drop_one(self) -> None:
        oldest_package, oldest_seq = None, 0
        for package, queue in self._by_package.items():
            if package != self.app and queue and (oldest_package is None or queue[0] < oldest_seq):
                oldest_package, oldest_seq = package, queue[0]
        if oldest_package is None:
            oldest_package = self.app  # every line is the app's: its oldest goes
        queue = self._by_package[oldest_package]
        del self._lines[queue.popleft()]
        if not queue:
            del self._by_package[oldest_package]
        self.dropped += 1

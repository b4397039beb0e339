"""A bound on the connections a local server serves at once.

Any local process can connect to a loopback port, and before a client has
shown the run's secret it costs the server whatever the server gives every
connection: a thread, here. :class:`ConnectionLimit` lets at most ``most``
connections in at a time and closes the rest on arrival, so idle or hostile
clients cannot pile up threads; each server also times out a client that is
slow to send its request (the device broker, the studio's and the watch page's
HTTP server).
"""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["ConnectionLimit"]


class ConnectionLimit:
    """At most ``most`` connections served at once; :meth:`admit` one, :meth:`release` it when done."""

    def __init__(self, most: int):
        self.most = most
        self.refused = 0  # connections closed on arrival because ``most`` were being served
        self._slots = threading.BoundedSemaphore(most)

    def admit(self, conn: socket.socket) -> bool:
        """Take a slot for ``conn``; with none free, close it (a run never has that many clients)."""
        if self._slots.acquire(blocking=False):
            return True
        self.refused += 1
        with contextlib.suppress(OSError):
            conn.close()
        return False

    def release(self) -> None:
        self._slots.release()

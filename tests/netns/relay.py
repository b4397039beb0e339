"""A byte relay: every connection to a listening socket is piped to a target address.

The only way between the test's two network namespaces: the controller's
loopback port -> a Unix socket on the shared file system -> the device
machine's adb server. It carries adb's protocol without reading it.
"""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["Relay"]


class Relay:
    """Accept on ``listening`` (bound and listening); pipe each connection to a new
    socket made by ``connect()``. :meth:`close` stops accepting and hangs up."""

    def __init__(self, listening: socket.socket, connect) -> None:
        self._listening = listening
        self._connect = connect
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, name="relay", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self._listening.accept()
            except OSError:
                return  # closed
            try:
                far = self._connect()
            except OSError:
                near.close()
                continue
            with self._lock:
                self._open.update((near, far))
            for src, dst in ((near, far), (far, near)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self._listening.close()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.close()
            self._open.clear()

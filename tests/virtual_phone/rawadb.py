"""A minimal adb *host* speaking the wire protocol to a phone over a raw socket.

Written independently of the package's codec so tests check the phone
against the protocol, not against itself.
"""

from __future__ import annotations

import socket
import struct

CNXN, OPEN, OKAY, WRTE, CLSE = (struct.unpack("<I", name)[0] for name in
                                (b"CNXN", b"OPEN", b"OKAY", b"WRTE", b"CLSE"))


def packet(command: int, arg0: int, arg1: int, data: bytes = b"") -> bytes:
    return struct.pack("<6I", command, arg0, arg1, len(data), 0, command ^ 0xFFFFFFFF) + data


class RawHost:
    def __init__(self, port: int, timeout: float = 5.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.next_id = 100
        self.checksums: list[tuple[int, bytes]] = []  # (checksum field, payload) of every message received

    def close(self) -> None:
        self.sock.close()

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        self.sock.sendall(packet(command, arg0, arg1, data))

    def _exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("phone closed the connection")
            data += chunk
        return data

    def recv(self) -> tuple[int, int, int, bytes]:
        command, arg0, arg1, length, check, magic = struct.unpack("<6I", self._exactly(24))
        assert magic == command ^ 0xFFFFFFFF
        data = self._exactly(length)
        self.checksums.append((check, data))
        return command, arg0, arg1, data

    def connect(self, version: int = 0x01000001) -> str:
        self.send(CNXN, version, 256 * 1024, b"host::features=shell_v2\0")
        command, _version, _maxdata, banner = self.recv()
        assert command == CNXN
        return banner.decode()

    def open(self, service: str) -> tuple[int, int | None]:
        """Open a stream: (our id, phone's id or None if refused with CLSE)."""
        self.next_id += 1
        local = self.next_id
        self.send(OPEN, local, 0, service.encode() + b"\0")
        command, arg0, arg1, _ = self.recv()
        assert arg1 == local
        return local, (arg0 if command == OKAY else None)

    def read_all(self, local: int, remote: int) -> bytes:
        """Collect a stream's data until the phone closes it, acknowledging writes."""
        out = b""
        while True:
            command, arg0, arg1, data = self.recv()
            if arg1 != local:
                continue
            if command == WRTE:
                out += data
                self.send(OKAY, local, remote)
            elif command == CLSE:
                return out

    def run(self, service: str) -> bytes:
        local, remote = self.open(service)
        assert remote is not None, f"{service} refused"
        return self.read_all(local, remote)

"""The adb wire format: 24-byte message headers and their payloads.

Every message is six little-endian u32s -- command, arg0, arg1, payload length,
payload checksum, magic (command ^ 0xffffffff) -- followed by the payload. The
host sends a zero checksum since protocol version 0x01000001, so checksums are
neither verified nor required; we still fill them in for old hosts.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

__all__ = [
    "A_AUTH", "A_CLSE", "A_CNXN", "A_OKAY", "A_OPEN", "A_STLS", "A_SYNC", "A_WRTE",
    "HEADER_SIZE", "MAX_PAYLOAD", "VERSION", "VERSION_SKIP_CHECKSUM", "Message", "ProtocolError",
    "command_name", "decode_header", "encode",
]

A_SYNC = 0x434E5953
A_CNXN = 0x4E584E43
A_AUTH = 0x48545541
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_CLSE = 0x45534C43
A_WRTE = 0x45545257
A_STLS = 0x534C5453

VERSION = 0x01000001
#: From this protocol version on neither side computes or checks payload
#: checksums (adbd's A_VERSION_SKIP_CHECKSUM); older hosts still expect them.
VERSION_SKIP_CHECKSUM = 0x01000001
#: Largest payload we accept or send (adbd's MAX_PAYLOAD).
MAX_PAYLOAD = 1024 * 1024
HEADER_SIZE = 24

_HEADER = struct.Struct("<6I")
_NAMES = {A_SYNC: "SYNC", A_CNXN: "CNXN", A_AUTH: "AUTH", A_OPEN: "OPEN",
          A_OKAY: "OKAY", A_CLSE: "CLSE", A_WRTE: "WRTE", A_STLS: "STLS"}


class ProtocolError(Exception):
    """A message that cannot be part of a valid adb conversation."""


@dataclass(frozen=True, slots=True)
class Message:
    command: int
    arg0: int
    arg1: int
    data: bytes = b""

    def __repr__(self) -> str:  # short form for logs
        return (f"Message({command_name(self.command)}, {self.arg0}, {self.arg1}, "
                f"{self.data[:40]!r}{'...' if len(self.data) > 40 else ''})")


def command_name(command: int) -> str:
    return _NAMES.get(command, f"0x{command:08x}")


def encode(command: int, arg0: int, arg1: int, data: bytes = b"", *, checksum: bool = True) -> bytes:
    """One message as bytes, header and payload.

    ``checksum=False`` sends 0 in the checksum field, as adbd does once both
    sides speak VERSION_SKIP_CHECKSUM; summing a screenshot's bytes in Python
    costs more than sending them.
    """
    checksum = sum(data) & 0xFFFFFFFF if checksum and data else 0
    return _HEADER.pack(command, arg0, arg1, len(data), checksum, command ^ 0xFFFFFFFF) + data


def decode_header(header: bytes, max_payload: int = MAX_PAYLOAD) -> tuple[int, int, int, int]:
    """Parse a 24-byte header into (command, arg0, arg1, payload length).

    Raises ProtocolError for an unknown command, a bad magic or an oversized
    payload, so a garbage stream is rejected before its "length" is trusted.
    """
    if len(header) != HEADER_SIZE:
        raise ProtocolError(f"short header ({len(header)} bytes)")
    command, arg0, arg1, length, _checksum, magic = _HEADER.unpack(header)
    if command not in _NAMES:
        raise ProtocolError(f"unknown command 0x{command:08x}")
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic for {command_name(command)}")
    if length > max_payload:
        raise ProtocolError(f"payload of {length} bytes exceeds {max_payload}")
    return command, arg0, arg1, length

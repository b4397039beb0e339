"""The `sync:` service: STAT, STA2/LST2, LIST, LIS2, RECV, SEND, QUIT.

Requests are `ID(4) + u32 length + payload`; the stream is a byte stream, so a
request may span several WRTE packets (hence `_Reader`).
"""

from __future__ import annotations

import errno
import stat as st
import struct

from ..kernel.context import PhoneContext
from ..kernel.fs import FsError
from .transport import Stream, StreamClosed

__all__ = ["serve_sync"]

#: Longest path a request may carry (adbd uses 1024).
MAX_PATH = 1024
#: Largest DATA chunk, both directions (SYNC_DATA_MAX).
SYNC_DATA_MAX = 64 * 1024

_REQ = struct.Struct("<4sI")
_STAT_V1 = struct.Struct("<4sIII")
_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")
_DENT_V1 = struct.Struct("<4sIIII")
_DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")


class _Reader:
    """Exact-size reads over a Stream's chunks."""

    def __init__(self, stream: Stream):
        self.stream = stream
        self.buffer = bytearray()

    async def read_exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = await self.stream.read()
            if not chunk:
                raise StreamClosed("sync client went away")
            self.buffer += chunk
        data = bytes(self.buffer[:n])
        del self.buffer[:n]
        return data


def _fail(message: str) -> bytes:
    body = message.encode("utf-8", "replace")
    return _REQ.pack(b"FAIL", len(body)) + body


async def serve_sync(phone: "PhoneContext", stream: Stream) -> None:
    reader = _Reader(stream)
    while True:
        request_id, length = _REQ.unpack(await reader.read_exactly(8))
        if request_id == b"QUIT":
            return
        if length > MAX_PATH:
            await stream.write(_fail(f"path too long: {length}"))
            return
        path = (await reader.read_exactly(length)).decode("utf-8", "surrogateescape")
        if request_id == b"STAT":
            await stream.write(_stat_v1(phone, path))
        elif request_id in (b"STA2", b"LST2"):
            await stream.write(_stat_v2(phone, path, request_id, follow=request_id == b"STA2"))
        elif request_id in (b"LIST", b"LIS2"):
            await stream.write(_list(phone, path, v2=request_id == b"LIS2"))
        elif request_id == b"RECV":
            await _recv(phone, stream, path)
        elif request_id == b"SEND":
            if not await _send(phone, stream, reader, path):
                return
        else:
            await stream.write(_fail(f"unknown sync request {request_id!r}"))
            return


def _stat_v1(phone: "PhoneContext", path: str) -> bytes:
    try:
        info = phone.fs.stat(path)
    except FsError:
        return _STAT_V1.pack(b"STAT", 0, 0, 0)
    return _STAT_V1.pack(b"STAT", info.mode, info.size & 0xFFFFFFFF, info.mtime)


def _stat_v2(phone: "PhoneContext", path: str, request_id: bytes, follow: bool) -> bytes:
    try:
        info = phone.fs.stat(path, follow=follow)
    except FsError as exc:
        return _STAT_V2.pack(request_id, exc.errno, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return _STAT_V2.pack(request_id, 0, 0xFD00, info.ino, info.mode, info.nlink,
                         info.uid, info.gid, info.size, info.mtime, info.mtime, info.mtime)


def _list(phone: "PhoneContext", path: str, v2: bool) -> bytes:
    out = bytearray()
    try:
        entries = phone.fs.listdir_stat(path)
    except FsError:
        entries = []  # adbd ends the listing silently on errors
    for name, info in [(".", None), ("..", None)] + entries:
        if info is None:
            try:
                info = phone.fs.stat(path if name == "." else path.rstrip("/") + "/..")
            except FsError:
                continue
        raw = name.encode("utf-8", "surrogateescape")
        if v2:
            out += _DENT_V2.pack(b"DNT2", 0, 0xFD00, info.ino, info.mode, info.nlink, info.uid,
                                 info.gid, info.size, info.mtime, info.mtime, info.mtime, len(raw))
        else:
            out += _DENT_V1.pack(b"DENT", info.mode, info.size & 0xFFFFFFFF, info.mtime, len(raw))
        out += raw
    if v2:
        out += _DENT_V2.pack(b"DONE", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    else:
        out += _DENT_V1.pack(b"DONE", 0, 0, 0, 0)
    return bytes(out)


async def _recv(phone: "PhoneContext", stream: Stream, path: str) -> None:
    try:
        data = phone.fs.read_file(path)
    except FsError as exc:
        await stream.write(_fail(exc.strerror))
        return
    out = bytearray()
    view = memoryview(data)
    for start in range(0, len(view), SYNC_DATA_MAX):
        chunk = view[start:start + SYNC_DATA_MAX]
        out += _REQ.pack(b"DATA", len(chunk))
        out += chunk
    out += _REQ.pack(b"DONE", 0)
    await stream.write(bytes(out))


async def _send(phone: "PhoneContext", stream: Stream, reader: _Reader, spec: str) -> bool:
    """Receive one file; returns False when the stream must end."""
    path, _, mode_text = spec.rpartition(",")
    if not path:
        path, mode_text = spec, "420"
    try:
        mode = int(mode_text)
    except ValueError:
        mode = 0o644
    limit = phone.fs.max_file_size
    data = bytearray()
    error = None
    while True:
        chunk_id, length = _REQ.unpack(await reader.read_exactly(8))
        if chunk_id == b"DATA":
            if length > SYNC_DATA_MAX:
                # daemon/file_sync_service.cpp handle_send_file: a chunk over SYNC_DATA_MAX ends the push
                await stream.write(_fail("oversize data message"))
                return False
            chunk = await reader.read_exactly(length)
            if error is None:
                if len(data) + len(chunk) > limit:
                    error = FsError(errno.EFBIG, path)
                    data = bytearray()
                else:
                    data += chunk
        elif chunk_id == b"DONE":
            mtime = length
            break
        else:
            await stream.write(_fail(f"invalid data message {chunk_id!r}"))
            return False
    if error is None:
        try:
            phone.fs.write_file(path, bytes(data), mode=st.S_IMODE(mode) or 0o644,
                                mtime=mtime or None, parents=True)
        except FsError as exc:
            error = exc
    if error is not None:
        # adbd's wording when it cannot create or write the file (file_sync_service.cpp)
        await stream.write(_fail(f"couldn't create file: {error.strerror}"))
        return True
    await stream.write(_REQ.pack(b"OKAY", 0))
    return True

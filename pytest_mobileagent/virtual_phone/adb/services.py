"""adb services: what a host can OPEN on the phone.

Each service is a coroutine over one `Stream`. Shell commands run
synchronously on the serving thread: they are fast, and running them in
order keeps the phone deterministic.
"""

from __future__ import annotations

import struct
from functools import partial
from typing import TYPE_CHECKING, Callable

from .sync import serve_sync
from .transport import Stream

if TYPE_CHECKING:
    from .endpoint import Endpoint

__all__ = ["find", "shell_v2_packet"]

# shell protocol v2 packet ids
ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW_SIZE = range(6)
_V2_HEADER = struct.Struct("<BI")
#: Longest line the interactive shell runs; a longer one is dropped with TOO_LONG
#: on stderr, and the session goes on with the next line.
MAX_INTERACTIVE_LINE = 64 * 1024
TOO_LONG = (f"/system/bin/sh: line too long: over {MAX_INTERACTIVE_LINE} bytes, not run "
            "(the virtual phone's bound)\n").encode()


def find(endpoint: "Endpoint", name: str):
    """The coroutine serving `name`, or None for an unknown service."""
    if name.startswith("shell,") or name.startswith("shell:"):
        options, _, command = name.partition(":")
        opts = options.split(",")[1:]
        if "v2" in opts:
            return partial(_shell_v2, endpoint, command)
        if command:
            return partial(_shell_raw, endpoint, command)
        return partial(_shell_interactive, endpoint)
    if name.startswith("exec:"):
        from ..shell.packages import streamed_stdin_size

        size = streamed_stdin_size(name[5:])
        if size is not None:  # `adb install` streams the APK, then reads the status line
            return partial(_exec_with_stdin, endpoint, name[5:], size)
        return partial(_shell_raw, endpoint, name[5:])
    if name == "sync:":
        return partial(serve_sync, endpoint.phone)
    if name.startswith("reverse:"):
        return partial(_reverse, endpoint, name[8:])
    if name.startswith("framebuffer:"):
        return partial(_framebuffer, endpoint)
    # tcp:PORT (adb forward) would reach a socket the phone listens on; the
    # virtual phone has none, so it is refused like a closed port.
    return None


class _EarlyOutput:
    """A command line's output, sent as each of its pipelines finishes.

    A real shell's output leaves while the rest of the line still runs, so
    the host reads ``uiautomator dump F && cat F`` before the ``screencap -p``
    that follows it has captured the screen. The shell runs synchronously,
    so only what the host can take at once is sent at once; the rest, and
    everything after it (order is kept), waits for :meth:`finish`. Events
    the line's earlier commands caused go first (Endpoint.flush_events says
    why); if they cannot go at once, the output waits with them.
    """

    def __init__(self, endpoint: "Endpoint", stream: Stream, frame: Callable[[bytes], bytes] = bytes):
        self.endpoint = endpoint
        self.stream = stream
        self.frame = frame
        self.held = bytearray()

    def offer(self, data: bytes) -> None:
        data = self.frame(data)
        if not self.held and self.endpoint.send_events_now():
            data = data[self.stream.write_now(data):]
        self.held += data

    async def finish(self, rest: bytes) -> None:
        await self.endpoint.flush_events()
        data = bytes(self.held) + rest
        if data:
            await self.stream.write(data)


async def _shell_raw(endpoint: "Endpoint", command: str, stream: Stream, stdin: bytes = b"") -> None:
    """`shell:CMD` (v1) and `exec:CMD`: stdout and stderr merged, no exit code."""
    output = _EarlyOutput(endpoint, stream)
    result = endpoint.phone.run_shell(command, stdout_ready=output.offer, stdin=stdin)
    await output.finish(result.stdout + result.stderr)


async def _exec_with_stdin(endpoint: "Endpoint", command: str, size: int, stream: Stream) -> None:
    """`exec:CMD` whose command reads ``size`` bytes of stdin first (a streamed install)."""
    received = bytearray()
    while len(received) < size:
        chunk = await stream.read()
        if not chunk:
            break  # the host hung up early: the command sees a short stdin and says so
        received += chunk
    await _shell_raw(endpoint, command, stream, stdin=bytes(received[:size]))


def shell_v2_packet(packet_id: int, data: bytes) -> bytes:
    return _V2_HEADER.pack(packet_id, len(data)) + data


async def _shell_v2(endpoint: "Endpoint", command: str, stream: Stream) -> None:
    """`shell,v2,...:CMD`: framed stdout/stderr and the exit code."""
    if not command:
        await _shell_interactive(endpoint, stream, v2=True)
        return
    output = _EarlyOutput(endpoint, stream, frame=partial(shell_v2_packet, ID_STDOUT))
    result = endpoint.phone.run_shell(command, stdout_ready=output.offer)
    out = bytearray()
    if result.stdout:
        out += shell_v2_packet(ID_STDOUT, result.stdout)
    if result.stderr:
        out += shell_v2_packet(ID_STDERR, result.stderr)
    out += shell_v2_packet(ID_EXIT, bytes([result.exit_code & 0xFF]))
    await output.finish(bytes(out))


async def _shell_interactive(endpoint: "Endpoint", stream: Stream, v2: bool = False) -> None:
    """`adb shell` with no command: read lines, run each, print a prompt."""
    phone = endpoint.phone
    session = phone.new_shell_session()
    prompt = f"{phone.props.get('ro.product.device', 'generic')}:/ $ ".encode()

    async def emit(packet_id: int, data: bytes) -> None:
        if data:
            await stream.write(shell_v2_packet(packet_id, data) if v2 else data)

    await emit(ID_STDOUT, prompt)
    buffer = bytearray()
    overlong = False  # inside a line longer than MAX_INTERACTIVE_LINE
    pending = bytearray()  # v2 framing may split packets across WRTEs
    stdin_closed = False
    while not stdin_closed:
        chunk = await stream.read()
        if not chunk:
            stdin_closed = True  # the host went away: run what is buffered
        if v2:
            pending += chunk
            data = bytearray()
            while len(pending) >= 5:
                packet_id, length = _V2_HEADER.unpack_from(pending)
                if len(pending) < 5 + length:
                    break
                body = bytes(pending[5:5 + length])
                del pending[:5 + length]
                if packet_id == ID_STDIN:
                    data += body
                elif packet_id == ID_CLOSE_STDIN:
                    stdin_closed = True
            chunk = bytes(data)
        chunk = chunk.replace(b"\r", b"\n")
        if overlong:
            # The rest of a line too long to run: dropped up to its end.
            end = chunk.find(b"\n")
            if end < 0:
                if stdin_closed:
                    await emit(ID_STDERR, TOO_LONG)
                continue
            chunk, overlong = chunk[end + 1:], False
            await emit(ID_STDERR, TOO_LONG)
            await emit(ID_STDOUT, prompt)
        buffer += chunk
        if stdin_closed and buffer and not buffer.endswith(b"\n"):
            buffer += b"\n"  # sh runs a last line without a newline at EOF
        while b"\n" in buffer:
            line, _, rest = bytes(buffer).partition(b"\n")
            buffer = bytearray(rest)
            if len(line) > MAX_INTERACTIVE_LINE:
                # Not run: said on stderr, and the session goes on with the next line.
                await emit(ID_STDERR, TOO_LONG)
                await emit(ID_STDOUT, prompt)
                continue
            result = session.run(line.decode("utf-8", "surrogateescape"))
            await endpoint.flush_events()
            await emit(ID_STDOUT, result.stdout)
            await emit(ID_STDERR, result.stderr)
            if session.exited:
                break
            await emit(ID_STDOUT, prompt)
        if session.exited:
            break
        if len(buffer) > MAX_INTERACTIVE_LINE:
            # A line still without its end and already too long: drop it as it comes.
            buffer.clear()
            overlong = True
    if v2 and not stream.closed:
        await emit(ID_EXIT, bytes([session.last_status & 0xFF]))


def _okay() -> bytes:
    return b"OKAY"


def _fail(message: str) -> bytes:
    body = message.encode()
    return b"FAIL" + f"{len(body):04x}".encode() + body


def _protocol_string(text: str) -> bytes:
    body = text.encode()
    return f"{len(body):04x}".encode() + body


async def _reverse(endpoint: "Endpoint", request: str, stream: Stream) -> None:
    """`reverse:` requests, answered the way adbd's handle_forward_request does."""
    conn = stream.conn
    if request == "list-forward":
        await stream.write(_protocol_string(endpoint.list_reverses(conn)))
    elif request == "killforward-all":
        endpoint.remove_all_reverses(conn)
        await stream.write(_okay())
    elif request.startswith("killforward:"):
        spec = request[len("killforward:"):]
        if endpoint.remove_reverse(conn, spec):
            await stream.write(_okay())
        else:
            await stream.write(_fail(f"listener '{spec}' not found"))
    elif request.startswith("forward:"):
        rest = request[len("forward:"):]
        norebind = rest.startswith("norebind:")
        if norebind:
            rest = rest[len("norebind:"):]
        device_spec, sep, host_spec = rest.partition(";")
        if not sep or not host_spec or not _valid_device_spec(device_spec):
            await stream.write(_fail(f"malformed forward spec '{rest}'"))
            return
        resolved = ""
        if device_spec == "tcp:0":  # the phone picks a port, as adbd would
            device_spec = f"tcp:{endpoint.phone.allocate_port()}"
            resolved = device_spec[4:]
        error = endpoint.add_reverse(conn, device_spec, host_spec, norebind)
        if error:
            await stream.write(_fail(error))
        else:
            await stream.write(_okay() + (_protocol_string(resolved) if resolved else b""))
    else:
        await stream.write(_fail(f"unknown reverse request '{request[:100]}'"))


def _valid_device_spec(spec: str) -> bool:
    kind, _, value = spec.partition(":")
    if kind == "tcp":
        return value.isdigit() and 0 <= int(value) <= 65535
    return kind in ("localabstract", "localreserved", "localfilesystem") and bool(value)


async def _framebuffer(endpoint: "Endpoint", stream: Stream) -> None:
    """`framebuffer:`: a version-2 header (colorSpace sRGB) then RGBA pixels."""
    system = endpoint.phone.system
    pixels = system.screenshot_rgba()
    width, height = system.width, system.height
    header = struct.pack(
        "<14I",
        2,                     # version
        32,                    # bpp
        1,                     # colorSpace: sRGB (0 makes adbutils wait 64 s)
        len(pixels), width, height,
        0, 8,                  # red offset, length
        16, 8,                 # blue
        8, 8,                  # green
        24, 8,                 # alpha
    )
    await stream.write(header + pixels)

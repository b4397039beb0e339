"""adb services: what a host can OPEN on the phone.

Each service is a coroutine over one `Stream`. Shell commands run
synchronously on the serving thread: they are fast, and running them in
order keeps the phone deterministic.
"""

from __future__ import annotations

import asyncio
import struct
from functools import partial
from typing import TYPE_CHECKING, Callable

from ..kernel.processes import adbd_uid
from ..kernel.sockets import is_socket_spec
from ..shell.packages import streamed_stdin_size
from .jdwp_service import jdwp_service, track_jdwp_service
from .restart_service import restart_root_service, restart_unroot_service
from .sync import serve_sync
from .transport import DeviceEndpoint, Stream

if TYPE_CHECKING:
    from ..programs import Program

__all__ = ["find", "shell_v2_packet"]

# shell protocol v2 packet ids
ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW_SIZE = range(6)
_V2_HEADER = struct.Struct("<BI")
#: Longest line the interactive shell runs; a longer one is dropped with TOO_LONG
#: on stderr, and the session goes on with the next line.
MAX_INTERACTIVE_LINE = 64 * 1024
TOO_LONG = (f"/system/bin/sh: line too long: over {MAX_INTERACTIVE_LINE} bytes, not run "
            "(the virtual phone's bound)\n").encode()


def find(endpoint: "DeviceEndpoint", name: str):
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
    # daemon/services.cpp daemon_service_to_fd / daemon_service_to_socket
    if name.startswith("root:"):
        return partial(restart_root_service, endpoint)
    if name.startswith("unroot:"):
        return partial(restart_unroot_service, endpoint)
    if name.startswith("remount:"):
        # StartSubprocess("/system/bin/remount " + args, kRaw, no protocol): output merged, no status
        return partial(_shell_raw, endpoint, "remount " + name[len("remount:"):])
    if name == "jdwp":
        return partial(jdwp_service, endpoint)
    if name == "track-jdwp":
        return partial(track_jdwp_service, endpoint)
    if is_socket_spec(name):
        # tcp:PORT, localabstract:NAME... (adb forward, create_connection) reach
        # a program listening on the phone; with nobody listening adbd answers
        # CLSE (services.cpp service_to_fd -> socket_spec_connect fails).
        listener = endpoint.phone.sockets.find(name)
        return listener.serve if listener is not None else None
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

    def __init__(self, endpoint: "DeviceEndpoint", stream: Stream, frame: Callable[[bytes], bytes] = bytes):
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


async def _shell_raw(endpoint: "DeviceEndpoint", command: str, stream: Stream, stdin: bytes = b"") -> None:
    """`shell:CMD` (v1) and `exec:CMD`: stdout and stderr merged, no exit code."""
    output = _EarlyOutput(endpoint, stream)
    # One socket for stdout and stderr, in the order written (adbd's kRaw/kNone subprocess).
    result = endpoint.phone.run_shell(command, stdout_ready=output.offer, stdin=stdin, merge_stderr=True)
    await output.finish(result.stdout + result.stderr)
    if result.program is not None:
        await _hold_program(stream, result.program, bytes)


async def _exec_with_stdin(endpoint: "DeviceEndpoint", command: str, size: int, stream: Stream) -> None:
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


async def _shell_v2(endpoint: "DeviceEndpoint", command: str, stream: Stream) -> None:
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
    exit_code = result.exit_code
    if result.program is not None:
        await output.finish(bytes(out))
        out = bytearray()
        exit_code = await _hold_program(stream, result.program, partial(shell_v2_packet, ID_STDOUT))
        if stream.closed:
            return
    out += shell_v2_packet(ID_EXIT, bytes([exit_code & 0xFF]))
    await output.finish(bytes(out))


async def _hold_program(stream: Stream, program: "Program", frame: Callable[[bytes], bytes]) -> int:
    """Keep the shell open while its foreground program runs; returns its exit status.

    What the program prints is relayed; what the host sends is its stdin,
    which these programs do not read. When the host closes the stream the
    program gets SIGHUP, as a process does whose adb shell went away.
    """
    loop = asyncio.get_running_loop()
    exited: asyncio.Future[int] = loop.create_future()
    printed: asyncio.Queue[bytes] = asyncio.Queue()
    program.on_output(lambda data: loop.call_soon_threadsafe(printed.put_nowait, data))
    program.on_exit(lambda code: loop.call_soon_threadsafe(
        lambda: exited.done() or exited.set_result(code)))

    async def hangup() -> None:
        while await stream.read():
            pass

    hung_up = loop.create_task(hangup())
    next_output: asyncio.Task | None = None
    try:
        while not exited.done():
            next_output = loop.create_task(printed.get())
            await asyncio.wait({next_output, exited, hung_up}, return_when=asyncio.FIRST_COMPLETED)
            if next_output.done():
                await stream.write(frame(next_output.result()))
            if hung_up.done() and not exited.done():
                program.kill()
                await exited
    finally:
        hung_up.cancel()
        if next_output is not None and not next_output.done():
            next_output.cancel()
        if not exited.done():  # the service itself was cancelled (the phone shut down)
            program.kill()
    while not printed.empty() and not stream.closed:
        await stream.write(frame(printed.get_nowait()))
    return exited.result()


async def _shell_interactive(endpoint: "DeviceEndpoint", stream: Stream, v2: bool = False) -> None:
    """`adb shell` with no command: read lines, run each, print a prompt."""
    phone = endpoint.phone
    session = phone.new_shell_session()
    # mkshrc's PS1 ends in "#" for root (after `adb root`), "$" otherwise
    mark = "#" if adbd_uid(phone) == 0 else "$"
    prompt = f"{phone.props.get('ro.product.device', 'generic')}:/ {mark} ".encode()

    async def emit(packet_id: int, data: bytes) -> None:
        if data:
            await stream.write(shell_v2_packet(packet_id, data) if v2 else data)

    await emit(ID_STDOUT, prompt)
    buffer = bytearray()
    command = ""  # the lines of a command not complete yet (an open `for`, quote...)
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
            command += line.decode("utf-8", "surrogateescape")
            more = b"\n" in buffer or not stdin_closed  # another line may finish it
            if more and len(command) <= MAX_INTERACTIVE_LINE and session.incomplete(command):
                command += "\n"
                await emit(ID_STDOUT, b"> ")  # mksh's PS2: the command goes on
                continue
            result = session.run(command)
            command = ""
            await endpoint.flush_events()
            await emit(ID_STDOUT, result.stdout)
            await emit(ID_STDERR, result.stderr)
            if result.program is not None:
                session.last_status = await _hold_program(
                    stream, result.program, partial(shell_v2_packet, ID_STDOUT) if v2 else bytes)
                if stream.closed:
                    return
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


async def _reverse(endpoint: "DeviceEndpoint", request: str, stream: Stream) -> None:
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


async def _framebuffer(endpoint: "DeviceEndpoint", stream: Stream) -> None:
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

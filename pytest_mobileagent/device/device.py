"""``Device``: one Android device reached through the adb server.

Per-step operations (input, dumps, screenshots, shell) go through
:mod:`.fast_adb`, one raw server connection each. ``Device.adb`` is the
adbutils device for setup code that wants its wider API and can afford its
~20 ms per call.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import uuid
from typing import TYPE_CHECKING, NamedTuple

from pytest_mobileagent.errors import AdbCommandError, DeviceLostError, InfrastructureError

from .fast_adb import FastAdb, SplitReply, list_devices, server_address
from .text import check_typable, input_text_command

if TYPE_CHECKING:
    import socket

    import adbutils

__all__ = ["Device", "PendingScreenshot", "ShellResult", "connect"]

_PACKAGE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$")
_ACTIVITY_RE = re.compile(r"^[A-Za-z0-9_.$]+$")
_KEY_RE = re.compile(r"^[A-Z0-9_]+$")
_PERMISSION_RE = re.compile(r"^[A-Za-z0-9_.]+$")
_SIZE_RE = re.compile(r"(Physical|Override) size:\s*(\d+)x(\d+)")
# mCurrentFocus=Window{41b37570 u0 com.x/com.x.Main}; mFocusedApp=... ActivityRecord{... u0 com.x/.Main t14}
_FOCUS_RES = (
    re.compile(r"mCurrentFocus=Window\{[^}]*?\s(?P<pkg>[^\s/{}]+)/(?P<act>[^\s}]+)\}"),
    re.compile(r"mFocusedApp=.*?ActivityRecord\{[^}]*?\s(?P<pkg>[^\s/{}]+)/(?P<act>[^\s}]+)[\s}]"),
    re.compile(r"mResumedActivity: ActivityRecord\{[^}]*?\s(?P<pkg>[^\s/{}]+)/(?P<act>[^\s}]+)[\s}]"),
)


class ShellResult(NamedTuple):
    """Output (stdout and stderr, in arrival order) and exit code of a shell command."""

    output: str
    exit_code: int


def _coord(v) -> int:
    if isinstance(v, bool):
        raise TypeError(f"coordinate must be a number, got {v!r}")
    return int(v)


def _check_package(package: str) -> str:
    if not isinstance(package, str) or not _PACKAGE_RE.match(package):
        raise ValueError(f"not a valid Android package name: {package!r}")
    return package


class Device:
    """An attached Android device (real phone, emulator or virtual phone).

    Create it with :func:`connect`. Every method talks to the device at once;
    there is no connection to keep alive, so a Device may be used from any
    thread and survives adb server restarts.
    """

    def __init__(self, serial: str, *, addr: tuple[str, int] | None = None):
        self.serial = serial
        self._addr = addr or server_address()
        #: How reports name the device: the serial, plus the adb server when it is another one
        #: (two machines may both have an ``emulator-5554``).
        self.label = serial if self._addr == server_address() else f"{serial}@{self._addr[0]}:{self._addr[1]}"
        self._fast = FastAdb(serial, self._addr)
        self._adb = None
        self._v2: bool | None = None
        # Unique per Device so two processes sharing a phone never read each other's dump.
        self._dump_path = f"/data/local/tmp/mobileagent-{os.getpid()}-{uuid.uuid4().hex[:8]}.xml"
        self._dump_command = f"uiautomator dump {self._dump_path} >/dev/null && cat {self._dump_path}"
        self.width, self.height = self._window_size()

    def __repr__(self) -> str:
        return f"<Device {self.serial} {self.width}x{self.height}>"

    @functools.cached_property
    def android_version(self) -> str:
        """The Android release (``ro.build.version.release``, e.g. "14"), read once."""
        return self.shell("getprop ro.build.version.release").strip() or "unknown"

    # -- adbutils escape hatch -------------------------------------------------------
    @property
    def adb(self) -> "adbutils.AdbDevice":
        """The adbutils device (imported on first use)."""
        if self._adb is None:
            import adbutils

            host, port = self._addr
            self._adb = adbutils.AdbClient(host=host, port=port).device(self.serial)
        return self._adb

    # -- shell ---------------------------------------------------------------------
    def shell(self, cmd: str, *, timeout: float = 30.0) -> str:
        """Run ``cmd`` in the device shell; its output with trailing whitespace removed
        (like adbutils). Use :meth:`shell_result` for the exit code or exact output."""
        return self._fast.shell_v1(cmd, timeout=timeout).decode("utf-8", "replace").rstrip()

    def shell_result(self, cmd: str, *, timeout: float = 30.0) -> ShellResult:
        """Run ``cmd``; the exact output and the real exit code (shell protocol v2).

        Devices without ``shell_v2`` (before Android 7) get the exit code from an
        ``echo`` appended to the command, as adbutils does; a command that runs
        ``exit`` itself then raises AdbCommandError (no exit code seen).
        """
        if self._v2 is None:
            self._v2 = "shell_v2" in self._fast.host_serial("features", timeout=timeout).split(",")
        if self._v2:
            output, _, code = self._fast.shell_v2(cmd, timeout=timeout)
            return ShellResult(output.decode("utf-8", "replace"), code)
        marker = "X4EXIT:" + uuid.uuid4().hex[:8] + ":"
        raw = self._fast.shell_v1(f"{cmd}; echo {marker}$?", timeout=timeout)
        body, sep, tail = raw.rpartition(marker.encode())
        code = re.match(rb"(\d+)\r?\n?", tail)
        if not sep or not code:
            raise AdbCommandError(f"{self.serial}: {cmd!r}: exit code missing from output")
        # stderr is merged into the same stream and may come after the marker.
        output = body + tail[code.end():]
        return ShellResult(output.decode("utf-8", "replace"), int(code.group(1)))

    def _run_checked(self, cmd: str, *, timeout: float = 30.0) -> str:
        result = self.shell_result(cmd, timeout=timeout)
        if result.exit_code != 0:
            raise AdbCommandError(f"{self.serial}: {cmd!r} exited with {result.exit_code}: "
                                  f"{result.output.strip()[:300]}")
        return result.output

    def _input(self, cmd: str) -> None:
        # `input` prints usage or an exception on bad arguments but exits 0 on old
        # releases; the output is empty when it worked, so any output is an error.
        out = self.shell(cmd)
        if out:
            raise AdbCommandError(f"{self.serial}: {cmd!r} failed: {out[:300]}")

    # -- input ------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        """Tap at (x, y) in screen pixels."""
        self._input(f"input tap {_coord(x)} {_coord(y)}")

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        """Press at (x, y) for ``duration_ms`` (a swipe that does not move)."""
        x, y = _coord(x), _coord(y)
        self._input(f"input swipe {x} {y} {x} {y} {int(duration_ms)}")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Swipe from (x1, y1) to (x2, y2) over ``duration_ms``."""
        self._input(f"input swipe {_coord(x1)} {_coord(y1)} {_coord(x2)} {_coord(y2)} {int(duration_ms)}")

    def type_text(self, text: str) -> None:
        """Type ``text`` into the focused field, exactly; see :mod:`.text` for the quoting.

        Raises ValueError, before anything is typed, for text ``input text`` cannot type
        (non-ASCII): on a phone the command would fail too.
        """
        check_typable(text)
        cmd = input_text_command(text)
        if cmd:
            self._input(cmd)

    def key(self, name: str) -> None:
        """Press a key: ``"BACK"``, ``"KEYCODE_ENTER"``, ``"home"`` or a numeric key code."""
        key = str(name).strip().upper()
        if not _KEY_RE.match(key):
            raise ValueError(f"not a key name: {name!r}")
        if not key.isdigit() and not key.startswith("KEYCODE_"):
            key = "KEYCODE_" + key  # old releases only understand the full name
        self._input(f"input keyevent {key}")

    # -- apps --------------------------------------------------------------------------
    def launch(self, package: str, activity: str | None = None) -> None:
        """Start ``package``: its ``activity`` (full or ``.Short`` name) or its launcher activity."""
        _check_package(package)
        if activity:
            if not _ACTIVITY_RE.match(activity):
                raise ValueError(f"not a valid activity name: {activity!r}")
            cmd = f"am start -n {shlex.quote(package + '/' + activity)}"
        else:
            cmd = f"monkey -p {package} -c android.intent.category.LAUNCHER 1"
        result = self.shell_result(cmd)
        out = result.output
        if result.exit_code != 0 or "Error" in out or "aborted" in out or "No activities" in out:
            raise AdbCommandError(f"{self.serial}: cannot launch {package}"
                                  f"{'/' + activity if activity else ''}: {out.strip()[:300]}")

    def force_stop(self, package: str) -> None:
        """``am force-stop``: kill the app and its services."""
        self._run_checked(f"am force-stop {_check_package(package)}")

    def clear_app(self, package: str) -> None:
        """``pm clear``: delete the app's data. Raises AdbCommandError unless it says Success."""
        out = self.shell(f"pm clear {_check_package(package)}")
        if out.strip() != "Success":
            raise AdbCommandError(f"{self.serial}: pm clear {package} failed: {out.strip()[:300] or '(no output)'}")

    def grant(self, package: str, permission: str) -> None:
        """``pm grant``: give a runtime permission."""
        if not _PERMISSION_RE.match(permission):
            raise ValueError(f"not a valid permission name: {permission!r}")
        out = self._run_checked(f"pm grant {_check_package(package)} {permission}")
        if "Exception" in out or "Error" in out:
            raise AdbCommandError(f"{self.serial}: pm grant {package} {permission}: {out.strip()[:300]}")

    def current_app(self) -> tuple[str, str]:
        """(package, activity) of the focused window; ``("", "")`` when no app has focus.

        A short activity (``.Main``) is expanded to ``package.Main``.
        """
        out = self.shell("dumpsys window windows")
        match = _FOCUS_RES[0].search(out) or _FOCUS_RES[1].search(out)
        if not match:
            match = _FOCUS_RES[2].search(self.shell("dumpsys activity activities"))
        if not match:
            return ("", "")
        pkg, act = match.group("pkg"), match.group("act")
        return pkg, pkg + act if act.startswith(".") else act

    # -- observation -----------------------------------------------------------------
    def dump_hierarchy(self, *, timeout: float = 30.0) -> str:
        """The uiautomator view hierarchy XML, in one device round trip."""
        return self._hierarchy_from(self._fast.exec_out(self._dump_command, timeout=timeout))

    def dump_hierarchy_then_screenshot(self, *, timeout: float = 30.0) -> "tuple[str, PendingScreenshot]":
        """The view hierarchy XML, and a screenshot taken right after the dump, still on its way.

        One device round trip for both: the device captures the screen once
        it has written the dump, and the XML is returned as soon as it has
        arrived, while the screenshot follows on the same connection. Read
        it with ``PendingScreenshot.png()`` (from any thread), or ``drop()`` it.
        """
        reply = self._fast.exec_out_until(f"{self._dump_command} && screencap -p", b"</hierarchy>", timeout=timeout)
        try:
            xml = self._hierarchy_from(reply.head)
        except BaseException:
            reply.drop()
            raise
        return xml, PendingScreenshot(self.serial, reply)

    def _hierarchy_from(self, raw: bytes) -> str:
        text = raw.decode("utf-8", "replace")
        start = text.find("<?xml")
        if start < 0:
            start = text.find("<hierarchy")
        # A device lost mid-dump ends the stream early without an error: check the end tag.
        end = text.rfind("</hierarchy>")
        if start < 0 or end < start:
            raise AdbCommandError(f"{self.serial}: uiautomator dump failed: {text.strip()[:300] or '(no output)'}")
        # Up to the end tag: what follows it (a newline on some builds) is not part of the
        # document, and both dump methods then return equal text for equal screens.
        return text[start:end + len("</hierarchy>")]

    def screenshot_png(self, *, timeout: float = 30.0) -> bytes:
        """A PNG screenshot (``exec:screencap -p``: binary-safe, no pty)."""
        return _checked_png(self.serial, self._fast.exec_out("screencap -p", timeout=timeout))

    def _window_size(self) -> tuple[int, int]:
        out = self.shell("wm size")
        sizes = {kind: (int(w), int(h)) for kind, w, h in _SIZE_RE.findall(out)}
        size = sizes.get("Override") or sizes.get("Physical")
        if not size:
            raise AdbCommandError(f"{self.serial}: cannot read the screen size from `wm size`: {out[:200]!r}")
        return size

    # -- networking and files ---------------------------------------------------------
    def reverse(self, remote: str, local: str) -> None:
        """``adb reverse``: connections to ``remote`` on the device reach ``local`` here."""
        self._fast.reverse(remote, local)

    def open_stream(self, service: str, *, timeout: float = 5.0) -> "socket.socket":
        """A socket to ``service`` on the device (``localabstract:NAME``, ``tcp:PORT``),
        opened through the device's own adb server: the host dials, as ``adb forward`` does.
        AdbCommandError when nothing listens there (adbd answers ``closed``)."""
        return self._fast.open_stream(service, timeout=timeout)

    def remove_reverse(self, remote: str) -> None:
        """Undo :meth:`reverse` for ``remote``."""
        self._fast.remove_reverse(remote)

    def push(self, path: str, data: bytes | str) -> None:
        """Write ``data`` (str is UTF-8 encoded) to ``path`` on the device."""
        self._fast.push(path, data.encode("utf-8") if isinstance(data, str) else bytes(data))

    def pull(self, path: str) -> bytes:
        """The bytes of ``path``; FileNotFoundError if it does not exist."""
        return self._fast.pull(path)

    def exists(self, path: str) -> bool:
        """Whether ``path`` exists on the device (file or directory)."""
        return self._fast.stat(path)[0] != 0

    def unavailable(self, *, timeout: float = 5.0) -> str | None:
        """Why this device cannot be used now (a dead adb server, the device gone or not
        answering), or None while the adb server lists it online and it runs ``true``.

        Asked before blaming what runs on the device (the listener app): a dead
        phone or adb server takes the listener's connection with it.
        """
        host, port = self._addr
        try:
            state = dict(list_devices(addr=self._addr, timeout=timeout)).get(self.serial, "absent")
        except (InfrastructureError, OSError) as exc:
            return f"the adb server at {host}:{port} is not answering ({exc})"
        if state != "device":
            return f"device {self.label} is gone (adb: {state})"
        try:  # listed, but the adb server may not have noticed yet: ask the device itself
            self.shell_result("true", timeout=timeout)
        except InfrastructureError as exc:
            return f"device {self.label} is gone (it does not answer: {exc})"
        return None

    def close(self) -> None:
        """Remove this Device's dump file; the device itself stays as it is."""
        try:
            self._fast.shell_v1(f"rm -f {self._dump_path}", timeout=5)
        except (DeviceLostError, AdbCommandError, TimeoutError):
            pass  # closing a lost device is not an error

    def __enter__(self) -> "Device":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class PendingScreenshot:
    """The screenshot of :meth:`Device.dump_hierarchy_then_screenshot`, still on the wire."""

    def __init__(self, serial: str, reply: SplitReply):
        self._serial = serial
        self._reply = reply

    def png(self) -> bytes:
        """Wait for the screenshot and return its PNG bytes."""
        data = self._reply.rest()
        # Whatever the dump file ended with (a newline, on some builds) precedes the PNG.
        return _checked_png(self._serial, data.lstrip(b"\r\n"))

    def drop(self) -> None:
        """Not wanted after all (the screen moved on): close without reading it."""
        self._reply.drop()


def _checked_png(serial: str, data: bytes) -> bytes:
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or b"IEND" not in data[-16:]:
        raise AdbCommandError(f"{serial}: screencap returned no complete PNG ({len(data)} bytes: {data[:60]!r})")
    return data


def connect(serial: str, addr: tuple[str, int] | None = None) -> Device:
    """A :class:`Device` for ``serial`` (on the adb server at ``addr``, default the local
    one); DeviceLostError naming the attached devices if it is not attached or not online."""
    addr = addr or server_address()
    devices = dict(list_devices(addr=addr))
    state = devices.get(serial)
    if state != "device":
        listed = ", ".join(f"{s} ({st})" for s, st in sorted(devices.items())) or "none"
        why = "is not attached" if state is None else f"is {state}, not online"
        raise DeviceLostError(f"device {serial!r} {why} to the adb server at "
                              f"{addr[0]}:{addr[1]}; attached: {listed}")
    return Device(serial, addr=addr)

"""Device claims: a device is used by at most one run at a time.

A run claims each device it uses with an exclusive ``flock`` on a file named
after the device in a per-user runtime directory, and holds it until the run
ends. The kernel drops the lock when the holder exits, however it exits, so a
crashed run never leaves a device claimed.

Several adb servers (or one server seeing a phone twice) may name the same
local phone differently: ``emulator-5554`` and ``127.0.0.1:5555`` are one
phone, reached on port 5555. :func:`device_key` maps both to the same lock.

Virtual phones a run boots listen outside 5555-5585 and are connected to the
run's own adb server only (``127.0.0.1:PORT``), so other adb servers do not
list them. The claim is what makes them private to runs sharing that server:
the booting run claims them before it lets any other run look (listing,
claiming and booting happen under one allocation lock, :func:`allocation_lock`,
which every run takes).

A claim can be lent to a child process without being let go (the studio's
Replay runs pytest on its own phone): the child gets a copy of the locked
descriptor and its name in :data:`INHERITED_CLAIM_ENV`, and adopts it when it
claims that device. The lock belongs to the open file both share, so there is
no moment in which a third run waiting for the device could take it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Iterator

from pytest_mobileagent.errors import InfrastructureError

__all__ = [
    "INHERITED_CLAIM_ENV", "DeviceBusyError", "DeviceClaim", "allocation_lock", "claim_holder", "claims_dir",
    "device_key",
]

#: "<descriptor>:<lock file name>": a claim the parent process lends to this one (see :meth:`DeviceClaim.lent`).
INHERITED_CLAIM_ENV = "MOBILEAGENT_INHERITED_CLAIM"

_LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


class DeviceBusyError(InfrastructureError):
    """The device is claimed by another run."""


def claims_dir() -> Path:
    """The per-user directory holding the lock files (created private, 0700).

    ``$XDG_RUNTIME_DIR`` when it is set (it is per user and private by
    definition), else ``<tempdir>/pytest-mobileagent-<uid>``; a directory there
    that another user owns or can write to is refused, since whoever controls
    it could hand out our claims.
    """
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime) and os.access(runtime, os.W_OK):
        path = Path(runtime) / "pytest-mobileagent"
    else:
        path = Path(tempfile.gettempdir()) / f"pytest-mobileagent-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    info = path.stat()
    if info.st_uid != os.getuid() or info.st_mode & 0o022:
        raise InfrastructureError(
            f"device claims directory {path} is not private to this user "
            f"(owner uid {info.st_uid}, mode {info.st_mode & 0o777:o}); remove it or set XDG_RUNTIME_DIR")
    return path


def _network_namespace() -> str:
    """Loopback ports are per network namespace: port 5555 in a container is another phone."""
    try:
        return re.sub(r"\D", "", os.readlink("/proc/self/ns/net")) or "0"
    except OSError:
        return "0"


def device_key(serial: str) -> str:
    """The name of a device's lock: local phones by adb port, other devices by serial.

    A reference to another adb server's device (``SERIAL@HOST:PORT``, see
    device/remote.py) is keyed by what the device is, not by the server: an
    emulator or a TCP device of a server on this machine is the local phone on
    that port (so one phone seen through two servers is one claim), one on
    another host is that host's port, and a USB phone is its serial number
    (the same through any server).
    """
    serial, at, server = serial.rpartition("@") if "@" in serial else (serial, "", "")
    if at:
        server_host = server.rpartition(":")[0].strip("[]")
        if server_host not in _LOCAL_HOSTS and server_host != "::1":
            emulator = re.fullmatch(r"emulator-(\d+)", serial)
            host, sep, port = serial.rpartition(":")
            if emulator:
                host, sep, port = server_host, ":", str(int(emulator.group(1)) + 1)
            if sep and port.isdigit():
                if host in _LOCAL_HOSTS:
                    host = server_host  # "127.0.0.1:5555" of another machine's server is that machine's
                serial = f"{host}:{int(port)}"  # as `adb connect HOST:PORT` names it from here
            return "serial-" + re.sub(r"[^A-Za-z0-9_.-]", "_", serial)
    match = re.fullmatch(r"emulator-(\d+)", serial)
    host, sep, port = serial.rpartition(":")
    if match:
        port, sep, host = str(int(match.group(1)) + 1), ":", "127.0.0.1"
    if sep and port.isdigit() and host in _LOCAL_HOSTS:
        return f"local-net{_network_namespace()}-port-{int(port)}"
    return "serial-" + re.sub(r"[^A-Za-z0-9_.-]", "_", serial)


def _holder_text(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        text = ""
    return text or "another run"


def claim_holder(serial: str) -> str:
    """Who holds the claim on ``serial``, as the holder wrote it (pid, command, since when)."""
    return _holder_text(claims_dir() / (device_key(serial) + ".lock"))


class DeviceClaim:
    """An exclusive claim on one device; :meth:`release` (or process exit) gives it up.

    A child made with ``os.fork`` (by a judge, an agent, a library) does not
    keep the claim: it closes its copies of the descriptors at once, so a
    child that outlives the run cannot keep the next run off the device.
    """

    def __init__(self, serial: str, path: Path, fd: int):
        self.serial, self.path, self._fd = serial, path, fd
        # A claim nobody references any more (a pool dropped without close()) must
        # not hold its device until the process ends.
        self._finalizer = weakref.finalize(self, os.close, fd)
        _HELD.add(self)

    def _forget_in_child(self) -> None:
        """In a forked child: drop this copy of the descriptor (the parent's claim stands)."""
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            self._finalizer.detach()
            with contextlib.suppress(OSError):
                os.close(fd)

    @classmethod
    def _open(cls, serial: str, directory: Path | None = None) -> tuple[Path, int]:
        path = (directory or claims_dir()) / (device_key(serial) + ".lock")
        return path, os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)

    @classmethod
    def _claimed(cls, serial: str, path: Path, fd: int) -> "DeviceClaim":
        claim = cls(serial, path, fd)
        claim._write_note()
        return claim

    def _write_note(self) -> None:
        # Say who holds it, for the message another run prints while it waits.
        note = f"pid {os.getpid()} ({' '.join(sys.argv)[:200]}) since {time.strftime('%H:%M:%S')}, as {self.serial}\n"
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, note.encode("utf-8", "replace"), 0)

    @contextlib.contextmanager
    def lent(self) -> Iterator[tuple[dict[str, str], int]]:
        """Lend the claim to a child process started in the block, holding it all along.

        Yields the environment entries and the descriptor to pass the child
        (``subprocess.run(..., env={**os.environ, **entries}, pass_fds=(fd,))``).
        """
        if self._fd < 0:
            raise InfrastructureError(f"the claim on {self.serial} was released: it cannot be lent")
        try:
            yield {INHERITED_CLAIM_ENV: f"{self._fd}:{self.path.name}"}, self._fd
        finally:
            if self._fd >= 0:
                self._write_note()  # the child's release emptied it

    @classmethod
    def _inherited(cls, path: Path) -> int | None:
        """The descriptor of ``path`` a parent lent this process (once), else None."""
        fd_text, _, name = os.environ.get(INHERITED_CLAIM_ENV, "").partition(":")
        if name != path.name or not fd_text.isdigit():
            return None
        fd = int(fd_text)
        try:
            mine, lent = os.fstat(fd), os.stat(path)
        except OSError:
            return None
        if (mine.st_dev, mine.st_ino) != (lent.st_dev, lent.st_ino):
            return None  # not (or no longer) the lent file: a claim of our own is needed
        del os.environ[INHERITED_CLAIM_ENV]  # adopted: a later claim of this device is a claim of its own
        os.set_inheritable(fd, False)
        return fd

    @classmethod
    def try_claim(cls, serial: str, directory: Path | None = None) -> "DeviceClaim | None":
        """The claim, or None when another run holds the device (``directory``: another
        claims directory than :func:`claims_dir`'s)."""
        path = (directory or claims_dir()) / (device_key(serial) + ".lock")
        # Lent by the parent: the same open file, whose lock the parent holds, so this flock is ours at once.
        fd = cls._inherited(path)
        if fd is None:
            path, fd = cls._open(serial, directory)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return None
            raise
        return cls._claimed(serial, path, fd)

    @classmethod
    def claim(cls, serial: str, wait: float = 0.0) -> "DeviceClaim":
        """The claim, waiting up to ``wait`` seconds for another run to let go.

        Raises :class:`DeviceBusyError` naming the holder when it does not.
        The wait is a blocking ``flock`` in a helper thread (woken by the
        kernel the moment the holder lets go); if the wait expires, the
        helper gives the lock straight back should it get it later.
        """
        claim = cls.try_claim(serial)
        if claim is not None:
            return claim
        holder = claim_holder(serial)
        if wait > 0:
            claim = cls._wait_for(serial, wait)
            if claim is not None:
                return claim
        raise DeviceBusyError(
            f"device {serial} is in use by another run ({holder}); "
            + (f"waited {wait:g} s; " if wait > 0 else "")
            + "wait for it to finish, give --device-wait SECONDS, or choose another device")

    @classmethod
    def _wait_for(cls, serial: str, wait: float) -> "DeviceClaim | None":
        path, fd = cls._open(serial)
        done = threading.Event()
        state = {"abandoned": False, "locked": False}
        guard = threading.Lock()

        def block() -> None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:
                pass
            else:
                with guard:
                    state["locked"] = True
                    if state["abandoned"]:
                        os.close(fd)  # nobody wants it any more: let the next run have it
                        return
            done.set()

        threading.Thread(target=block, name=f"mobileagent-claim-{serial}", daemon=True).start()
        done.wait(wait)
        with guard:
            if state["locked"]:
                return cls._claimed(serial, path, fd)
            state["abandoned"] = True
        return None

    def release(self) -> None:
        if self._fd >= 0:
            fd, self._fd = self._fd, -1
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            self._finalizer()  # closes fd: closing the last descriptor drops the flock

    def __repr__(self) -> str:
        return f"DeviceClaim({self.serial!r}, held={self._fd >= 0})"


_HELD: "weakref.WeakSet[DeviceClaim]" = weakref.WeakSet()


def _after_fork_in_child() -> None:
    # The flock belongs to the open file, which a forked child shares until it
    # closes its descriptor (O_CLOEXEC only covers exec).
    for claim in list(_HELD):
        claim._forget_in_child()


os.register_at_fork(after_in_child=_after_fork_in_child)


@contextlib.contextmanager
def allocation_lock(directory: Path | None = None) -> Iterator[None]:
    """Held while a run lists, claims and boots devices, so that no other run
    sees a phone between its boot and its claim.

    The wait is a plain blocking ``flock``: the holder's own steps are bounded
    (booting has its timeouts), and a holder that dies releases it.
    """
    fd = os.open((directory or claims_dir()) / "allocation.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)

"""Emulators the plugin starts itself (``--avd NAME``), and their console.

:class:`EmulatorFleet` starts N instances of one AVD through the SDK's
``emulator`` executable -- read-only (so instances of one AVD can run side by
side), no window, no audio, no boot animation -- each on its own even console
port, waits for every one to report ``sys.boot_completed`` within a bound,
prepares it with the device setup command, and stops them all when the run
ends. It has a :class:`~pytest_mobileagent.device.DevicePool`'s interface
(``allocate(count)``, ``close()``), so the allocation code does not care
where its devices come from.

Every instance runs in its own session (a Ctrl-C at the terminal reaches the
run, which stops the instances in order, rather than killing them under it)
and gets SIGTERM through ``PR_SET_PDEATHSIG`` if the process that started it
dies. Stopping is the console's ``kill``, then SIGTERM and SIGKILL to the
instance's process group, each bounded.

:func:`console` sends one command to an emulator's console the way
``adb emu`` does (it *is* ``adb emu``), which is how ``--reset snapshot``
saves and loads snapshots.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from pytest_mobileagent.errors import InfrastructureError
from pytest_mobileagent.tempdirs import make_run_tempdir

from .claims import DeviceClaim
from .fast_adb import FastAdb, host_request, list_devices, server_address
from .pool import DeviceAllocationError, _set_pdeathsig, _spawn, _start_adb_server

__all__ = ["EmulatorBootError", "EmulatorFleet", "EmulatorSetupError", "console", "find_emulator"]

log = logging.getLogger("pytest_mobileagent.device")

FIRST_CONSOLE_PORT, LAST_CONSOLE_PORT = 5554, 5682  # the emulator's own range for -port
# Above adb's scan range (5555-5585) first: emulators a user starts by hand (and the
# virtual phones) take the low ports, and an instance there would be found by every
# adb server that starts meanwhile. Each instance announces itself to our server anyway.
CONSOLE_PORTS = [*range(5586, LAST_CONSOLE_PORT + 1, 2), *range(FIRST_CONSOLE_PORT, 5586, 2)]
EMULATOR_FLAGS = ("-read-only", "-no-window", "-no-audio", "-no-boot-anim")
STOP_TIMEOUT = 15.0      # seconds for an instance to exit after `kill`, then after SIGTERM
LIST_TIMEOUT = 60.0      # `emulator -list-avds`
TAIL_LINES = 12          # of an instance's output, quoted in errors
PORT_RETRIES = 3         # an instance whose ports were taken before it bound them


class EmulatorSetupError(DeviceAllocationError):
    """No SDK, no emulator executable, or no such AVD: a usage error."""


class EmulatorBootError(InfrastructureError):
    """An instance exited or did not finish booting within the bound."""


def find_emulator(explicit: str | None, environ: dict[str, str] | None = None) -> Path:
    """The ``emulator`` executable: ``--emulator PATH``, else ``$ANDROID_SDK_ROOT`` or
    ``$ANDROID_HOME`` + ``emulator/emulator``; EmulatorSetupError naming what was tried."""
    env = os.environ if environ is None else environ
    if explicit:
        path = Path(os.path.expanduser(explicit))
        if path.is_dir():
            path = path / "emulator"
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise EmulatorSetupError(f"--emulator {explicit}: no executable emulator there")
        return path
    tried = []
    for variable in ("ANDROID_SDK_ROOT", "ANDROID_HOME"):
        root = env.get(variable)
        if not root:
            continue
        path = Path(root) / "emulator" / "emulator"
        if path.is_file() and os.access(path, os.X_OK):
            return path
        tried.append(f"${variable}={root} has no emulator/emulator")
    if not tried:
        raise EmulatorSetupError(
            "--avd needs the Android SDK's emulator: no Android SDK found (ANDROID_SDK_ROOT and "
            "ANDROID_HOME are unset); set one of them or give --emulator PATH")
    raise EmulatorSetupError("--avd needs the Android SDK's emulator: " + "; ".join(tried)
                             + " (install the SDK's 'emulator' package, or give --emulator PATH)")


def list_avds(emulator: Path) -> list[str]:
    """``emulator -list-avds``."""
    try:
        done = subprocess.run([str(emulator), "-list-avds"], capture_output=True, text=True,
                              timeout=LIST_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise EmulatorSetupError(f"{emulator} -list-avds failed: {exc}") from None
    return [line.strip() for line in done.stdout.splitlines()
            if line.strip() and "|" not in line and not line.startswith(("INFO", "WARNING", "ERROR"))]


def console(serial: str, command: str, *, addr: tuple[str, int] | None = None, timeout: float = 60.0) -> str:
    """Send ``command`` to the console of emulator ``serial`` (``adb -s SERIAL emu COMMAND``).

    The console answers ``OK`` or ``KO: why``; ``adb emu`` exits 0 either way,
    so a ``KO`` becomes an InfrastructureError here.
    """
    import adbutils

    host, port = addr or server_address()
    cmd = [adbutils.adb_path(), "-H", host, "-P", str(port), "-s", serial, "emu", *command.split()]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise InfrastructureError(f"adb emu {command!r} on {serial}: no answer within {timeout:g} s") from None
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0 or "KO" in output.split(":")[0].split() or output.startswith("error"):
        raise InfrastructureError(f"adb -s {serial} emu {command}: {output or f'exit status {done.returncode}'}")
    return output


@dataclass
class EmulatorInstance:
    """One started instance: its process, console port and output file."""

    avd: str
    console_port: int
    process: subprocess.Popen
    log_path: Path

    @property
    def serial(self) -> str:
        return f"emulator-{self.console_port}"

    def tail(self, lines: int = TAIL_LINES) -> str:
        """The instance's last output lines, for error messages."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no output)"
        last = [line for line in text.splitlines() if line.strip()][-lines:]
        return "\n".join("    " + line for line in last) or "    (no output)"

    def request_stop(self, addr: tuple[str, int]) -> None:
        """Ask the instance to exit (console ``kill``); :meth:`stop` waits for it."""
        if self.process.poll() is None:
            try:
                console(self.serial, "kill", addr=addr, timeout=STOP_TIMEOUT)
            except (InfrastructureError, OSError):
                pass  # it is stopped by signal below

    def stop(self, addr: tuple[str, int]) -> None:
        """Wait (bounded) for the exit :meth:`request_stop` asked for, then SIGTERM, then
        SIGKILL to its process group; each bounded."""
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if self.process.poll() is None:
                try:
                    os.killpg(self.process.pid, sig)
                    self.process.wait(timeout=STOP_TIMEOUT)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
        # The emulator's own helpers (qemu's children) share its group; none may outlive it.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _port_pair_free(console_port: int) -> bool:
    for port in (console_port, console_port + 1):
        with socket.socket() as sock:
            # As the instance binds: a port whose old connections linger in TIME_WAIT is free.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


class EmulatorFleet:
    """N instances of one AVD, started on demand and stopped at ``close()``."""

    def __init__(self, avd: str, emulator: Path, *, boot_timeout: float, setup=None):
        """``setup(serial, addr)``: the device setup command, run on each booted instance."""
        self.avd = avd
        self.emulator = emulator
        self.boot_timeout = boot_timeout
        self.setup = setup
        self.addr = server_address()
        self.instances: list[EmulatorInstance] = []
        self._claims: list[DeviceClaim] = []
        self._closed = False
        self._logs = Path(make_run_tempdir("emulators"))  # removed at exit even if close() is not reached
        self.started_seconds: float | None = None  # start of the first to boot of the last

    def check(self) -> None:
        """The AVD exists (``emulator -list-avds``): an EmulatorSetupError otherwise."""
        avds = list_avds(self.emulator)
        if self.avd not in avds:
            raise EmulatorSetupError(
                f"--avd {self.avd}: no such AVD; {self.emulator} -list-avds lists "
                f"{', '.join(avds) or 'none'} (create one with avdmanager, or check $ANDROID_AVD_HOME)")

    def allocate(self, count: int) -> list[str]:
        """Start ``count`` instances and return their serials once all have booted."""
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        self.check()
        try:
            list_devices(addr=self.addr)
        except InfrastructureError:
            _start_adb_server(self.addr)  # the instances announce themselves to it
        began = time.monotonic()
        started = [self._start_one(self._next_port()) for _ in range(count)]
        deadline = began + self.boot_timeout
        for index, instance in enumerate(started):
            for attempt in range(PORT_RETRIES + 1):
                try:
                    self._wait_booted(instance, deadline)
                    break
                except EmulatorBootError:
                    # Another program took the port pair between our check and the
                    # instance's bind: start it again on another pair.
                    if instance.process.poll() is None or _port_pair_free(instance.console_port) \
                            or attempt == PORT_RETRIES:
                        raise
                    log.info("console port %d was taken meanwhile; starting again", instance.console_port)
                    instance = started[index] = self._start_one(self._next_port())
        if self.setup is not None:
            for instance in started:
                self.setup(instance.serial, self.addr)
        self.started_seconds = time.monotonic() - began
        serials = [i.serial for i in started]
        log.info("started %d instance(s) of AVD %s in %.1f s: %s", count, self.avd,
                 self.started_seconds, ", ".join(serials))
        return serials

    def _next_port(self) -> int:
        """A free console port pair, its serial claimed for this run before the instance
        exists, so no other run can take the instance while it boots."""
        taken = {i.console_port for i in self.instances}
        listed = {s for s, _ in list_devices(addr=self.addr)}
        for port in CONSOLE_PORTS:
            if port in taken or f"emulator-{port}" in listed or not _port_pair_free(port):
                continue
            claim = DeviceClaim.try_claim(f"emulator-{port}")
            if claim is not None:
                self._claims.append(claim)
                return port
        raise EmulatorBootError(f"no free console port pair between {FIRST_CONSOLE_PORT} and "
                                f"{LAST_CONSOLE_PORT} for another instance of {self.avd}")

    def _start_one(self, port: int) -> EmulatorInstance:
        if self._closed:  # the run ended (Ctrl-C) while another thread was still starting instances
            raise EmulatorBootError(f"not starting another instance of {self.avd}: the run is ending")
        log_path = self._logs / f"emulator-{port}.log"
        cmd = [str(self.emulator), "-avd", self.avd, "-port", str(port), *EMULATOR_FLAGS]
        with open(log_path, "wb") as out:
            process = _spawn(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                             start_new_session=True, preexec_fn=_set_pdeathsig)
        instance = EmulatorInstance(self.avd, port, process, log_path)
        self.instances.append(instance)
        return instance

    def _wait_booted(self, instance: EmulatorInstance, deadline: float) -> None:
        """Until ``sys.boot_completed`` is 1; EmulatorBootError (with its output) otherwise."""
        fast = FastAdb(instance.serial, self.addr)
        state = "not listed by adb"
        while True:
            code = instance.process.poll()
            if code is not None:
                raise EmulatorBootError(
                    f"emulator {instance.serial} (AVD {self.avd}) exited with status {code} while "
                    f"booting; its last output:\n{instance.tail()}")
            try:
                booted = fast.shell_v1("getprop sys.boot_completed", timeout=5).strip() == b"1"
                state = "booting (sys.boot_completed is not 1)"
            except InfrastructureError as exc:
                booted, state = False, f"not online ({exc})"
            if booted:
                return
            if time.monotonic() >= deadline:
                raise EmulatorBootError(
                    f"emulator {instance.serial} (AVD {self.avd}) did not finish booting within "
                    f"{self.boot_timeout:g} s (--avd-boot-timeout); it is {state}; its last output:\n"
                    f"{instance.tail()}")
            # A real emulator takes tens of seconds: polling the property is what adb users do.
            time.sleep(0.1)

    def close(self) -> None:
        """Stop every instance (also those that never booted) and forget them."""
        self._closed = True
        instances, self.instances = self.instances, []
        for instance in instances:  # all asked first, so they shut down side by side
            instance.request_stop(self.addr)
        for instance in instances:
            instance.stop(self.addr)
        if instances:
            try:  # the adb server keeps an exited emulator's entry as offline for a while
                listed = {s for s, _ in list_devices(addr=self.addr, timeout=5)}
                for instance in instances:
                    if instance.serial in listed:
                        host_request(f"host:disconnect:127.0.0.1:{instance.console_port + 1}",
                                     addr=self.addr, timeout=5)
            except InfrastructureError:
                pass
        claims, self._claims = self._claims, []
        for claim in claims:
            claim.release()
        shutil.rmtree(self._logs, ignore_errors=True)

    def __enter__(self) -> "EmulatorFleet":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

"""``DevicePool``: which devices a run uses, booting virtual phones when none is attached.

Order of preference: the serials the user asked for (all must be online), else
every online device the adb server lists that no other run holds, else
``count`` virtual phones booted now. Fewer devices than needed is a
:class:`DeviceAllocationError` that lists what is attached; nothing here waits
without a bound.

Every device the pool hands out is claimed for this run (:mod:`.claims`) until
the pool closes: a device another run holds is skipped (or, when asked for by
serial, waited for up to ``device_wait`` seconds), and the phones a run boots
are claimed before any other run can list them.

Where virtual phones run (``virtual_in_process``; measured with
``benchmarks/bench_device.py`` on a loaded 2-CPU machine, one step = tap a
calculator key + dump + screenshot, 100 steps):

* one phone (``pytest`` without xdist, or ``-n 1``): in this process, through
  ``start_phones``. The client mostly waits on the phone, so they hardly
  compete for the GIL, and skipping a process hop was faster in every run
  (median 26 vs 33 ms; 38 vs 58 ms under heavier load), and it boots in
  ~0.1 s instead of ~0.7 s.
* one phone booted early (:meth:`DevicePool.allocate_soon`, what a run does
  when it collects its first task): in a subprocess, so that it boots on the
  other core while pytest collects and sets up; one in this process would
  compete with the collection for the GIL (measured slower than no early boot
  at all). One task's run, per round against the phone booted in-process at
  the task's setup: 0.85x at rest (2.02 against 2.42 s), 0.71x, 0.91x and
  1.01x in three sessions at load average 11, 9 and 7
  (``benchmarks/bench_startup.py``). Per step the
  two placements now measure close, and either way round from run to run
  (10.2 vs 4.9 ms, then 5.0 vs 6.7 ms in-process vs subprocess, 60 and 100
  steps at load average 6), where the figures above were measured earlier.
* several phones (``-n N``): one subprocess each (``python -m
  pytest_mobileagent.virtual_phone.cli serve --count 1``). On 2 CPUs two
  clients measured the same either way (57 vs 58 ms median), but phones hosted
  together render under one GIL, i.e. on one core however many workers there
  are, while separate interpreters scale with the cores and a stuck phone
  cannot stall the others. A phone process gets SIGTERM when the pool closes
  and, through ``PR_SET_PDEATHSIG``, when the process that booted it dies, so a
  crashed run leaves no phones behind.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from pytest_mobileagent import virtual_phone  # the boot entry point: its package loads the phone on first use
from pytest_mobileagent.errors import AdbCommandError, InfrastructureError, MobileAgentError

from .claims import DeviceBusyError, DeviceClaim, allocation_lock
from .fast_adb import host_request, list_devices, server_address, wait_for_device

__all__ = ["DeviceAllocationError", "DevicePool"]

log = logging.getLogger("pytest_mobileagent.device")

BOOT_TIMEOUT = 60.0      # a phone process printing "ready"
ONLINE_TIMEOUT = 20.0    # the adb server listing a booted phone as online


class DeviceAllocationError(MobileAgentError, pytest.UsageError):
    """Fewer usable devices than the run needs (a usage error, reported before tests run)."""


def _start_adb_server(addr: tuple[str, int]) -> None:
    """Start an adb server on ``addr``'s port, as ``adb devices`` would."""
    import adbutils

    try:
        subprocess.run([adbutils.adb_path(), "-P", str(addr[1]), "start-server"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=30, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise InfrastructureError(f"cannot start an adb server on port {addr[1]}: {exc}") from None


_spawner = None
_spawner_lock = threading.Lock()


def _spawn(cmd: list[str], **kwargs) -> subprocess.Popen:
    """Popen from one long-lived thread.

    PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, not
    the process: callers such as a broker's per-connection thread would kill
    their phones on return. A single idle executor thread lives as long as the
    process, so the signal means "the run died".
    """
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="mobileagent-phone-spawner")
    return _spawner.submit(subprocess.Popen, cmd, **kwargs).result()


def _set_pdeathsig() -> None:  # runs in the child between fork and exec
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:
        pass


class _PhoneProcess:
    """One ``serve --count 1`` subprocess and the serial it announced."""

    def __init__(self, proc: subprocess.Popen, serial: str, port: int):
        self.proc, self.serial, self.port = proc, serial, port
        self.connected_serial: str | None = None  # set when we had to `adb connect` it

    @staticmethod
    def spawn() -> subprocess.Popen:
        # A port outside 5555-5585, connected to the run's own adb server only: the
        # servers of other runs on the machine never list it (no emulator-port scan).
        cmd = [sys.executable, "-m", "pytest_mobileagent.virtual_phone.cli", "serve", "--count", "1",
               "--adb-port", str(server_address()[1])]
        # stderr goes to a file nobody has to drain: a pipe could fill up and block the phone.
        errfile = tempfile.TemporaryFile()
        proc = _spawn(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errfile,
            preexec_fn=_set_pdeathsig if sys.platform.startswith("linux") else None,
        )
        proc.errfile = errfile
        return proc

    @classmethod
    def wait_ready(cls, proc: subprocess.Popen, timeout: float = BOOT_TIMEOUT) -> "_PhoneProcess":
        """Read the phone's ``SERIAL PORT`` line and ``ready``; stop it on failure."""
        serial = port = None
        deadline = time.monotonic() + timeout
        lines: list[str] = []
        pending = b""
        fd = proc.stdout.fileno()
        # Raw os.read on the fd: a buffered readline could hold "ready" in its buffer
        # while select() waits on an fd with nothing more to come.
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        try:
            while "ready" not in lines:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise InfrastructureError(f"virtual phone did not get ready within {timeout:g} s; "
                                              f"output: {lines[-5:]}")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 4096)
                if not chunk:
                    err = _stderr_tail(proc)
                    raise InfrastructureError(f"virtual phone process exited ({proc.returncode}) before "
                                              f"ready: {err or lines[-5:]}")
                pending += chunk
                *complete, pending = pending.split(b"\n")
                for raw in complete:
                    line = raw.decode("utf-8", "replace").strip()
                    lines.append(line)
                    parts = line.split()
                    if len(parts) == 2 and parts[1].isdigit() and serial is None:
                        serial, port = parts[0], int(parts[1])
        except BaseException:
            _terminate(proc)
            raise
        finally:
            sel.close()
        if serial is None:
            _terminate(proc)
            raise InfrastructureError(f"virtual phone printed no 'SERIAL PORT' line: {lines}")
        return cls(proc, serial, port)

    def stop(self) -> None:
        _terminate(self.proc)


def _stderr_tail(proc: subprocess.Popen) -> str:
    proc.wait(timeout=5)
    proc.errfile.seek(0)
    return proc.errfile.read()[-800:].decode("utf-8", "replace").strip()


def _terminate(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    for f in (proc.stdin, proc.stdout, getattr(proc, "errfile", None)):
        if f and not f.closed:
            f.close()


class DevicePool:
    """Decides which devices a run uses and boots virtual phones when none is attached."""

    def __init__(self, requested: list[str] | None = None, *, boot_virtual: bool = True,
                 virtual_in_process: bool | None = None, device_wait: float = 0.0):
        """``virtual_in_process``: host booted phones in this process (True), one
        subprocess each (False), or decide by count (None: in-process for one).
        ``device_wait``: seconds to wait for a requested device another run holds."""
        self.requested = list(requested or [])
        self.boot_virtual = boot_virtual
        self.virtual_in_process = virtual_in_process
        self.device_wait = device_wait
        self._phones: list[_PhoneProcess] = []
        self._in_process = contextlib.ExitStack()
        self._claims: dict[str, DeviceClaim] = {}
        self._early: list[concurrent.futures.Future[list[str]]] = []  # allocate_soon's

    @property
    def claimed(self) -> list[str]:
        """Serials this pool holds for the run."""
        return list(self._claims)

    def claim_requested(self) -> list[str]:
        """Check that every requested serial is online and claim it for the run.

        Called before any test runs, so an unknown or busy ``--device`` is one
        usage error rather than one error per task.
        """
        devices = self._devices()
        online = [s for s, st in devices if st == "device"]
        missing = [s for s in self.requested if s not in online]
        if missing:
            raise DeviceAllocationError(
                f"requested device(s) {', '.join(missing)} not attached or not online; "
                f"attached: {self._describe(devices)}")
        for serial in dict.fromkeys(self.requested):
            if serial in self._claims:
                continue
            try:
                self._claims[serial] = DeviceClaim.claim(serial, wait=self.device_wait)
            except DeviceBusyError as exc:
                raise DeviceAllocationError(str(exc)) from None
        return list(self._claims)

    def _devices(self) -> list[tuple[str, str]]:
        addr = server_address()
        try:
            return list_devices(addr=addr)
        except InfrastructureError:
            _start_adb_server(addr)  # `adb devices` starts the server too
            return list_devices(addr=addr)

    @staticmethod
    def _describe(devices: list[tuple[str, str]]) -> str:
        return ", ".join(f"{s} ({st})" for s, st in devices) or "none"

    def allocate_soon(self, count: int) -> "concurrent.futures.Future[list[str]]":
        """Start :meth:`allocate` on a thread of its own; the future holds its serials or its error.

        Phones it boots run in processes of their own unless ``virtual_in_process``
        is True (see the module docstring). :meth:`close` waits for it first.
        """
        future: concurrent.futures.Future[list[str]] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        in_process = False if self.virtual_in_process is None else self.virtual_in_process

        def run() -> None:
            try:
                future.set_result(self.allocate(count, in_process=in_process))
            except BaseException as exc:  # handed to whoever asks for the device
                future.set_exception(exc)

        log.info("allocating %d device(s) early, while pytest collects", count)
        self._early.append(future)
        threading.Thread(target=run, name="mobileagent-early-allocation", daemon=True).start()
        return future

    def allocate(self, count: int, *, in_process: bool | None = None) -> list[str]:
        """``count`` serials to use; DeviceAllocationError when fewer are available.
        ``in_process``: where phones it boots run (None: ``virtual_in_process``)."""
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        if self.requested:
            chosen = list(dict.fromkeys(self.requested))
            if len(chosen) < count:
                raise DeviceAllocationError(
                    f"{count} devices needed (one per worker) but only {len(chosen)} requested: "
                    f"{', '.join(chosen)}; request more with --device or run fewer workers")
            self.claim_requested()
            return chosen[:count]
        # Listing, claiming and booting form one step across runs: no other run
        # may see our phones between their boot and their claim.
        with allocation_lock():
            devices = self._devices()
            online = sorted(s for s, st in devices if st == "device")
            free, busy = [], []
            for serial in online:
                claim = self._claims.get(serial) or DeviceClaim.try_claim(serial)
                (free if claim is not None else busy).append(serial)
                if claim is not None:
                    self._claims[serial] = claim
            if free:
                for serial in free[count:]:  # claimed above, not needed after all
                    self._claims.pop(serial).release()
                if len(free) < count:
                    for serial in free:  # a failed allocation holds nothing
                        self._claims.pop(serial).release()
                    raise DeviceAllocationError(
                        f"{count} devices needed (one per worker) but the adb server lists "
                        f"{len(free)} free online: {self._describe(devices)}"
                        + (f" ({', '.join(busy)} in use by other runs)" if busy else "")
                        + "; attach more or run fewer workers")
                return free[:count]
            if not self.boot_virtual:
                raise DeviceAllocationError(
                    f"no {'free ' if busy else ''}device online and booting virtual phones is off; attached: {self._describe(devices)}"
                    + (f" ({', '.join(busy)} in use by other runs)" if busy else ""))
            if busy:
                log.warning("every online device is in use by another run (%s): booting %d virtual phone(s) "
                            "for this run", ", ".join(busy), count)
            serials = self.boot(count, in_process=in_process)
            for serial in serials:
                claim = DeviceClaim.try_claim(serial)
                if claim is None:  # only a run that skips the allocation lock could get here first
                    raise InfrastructureError(f"the virtual phone {serial} just booted is claimed by another run")
                self._claims[serial] = claim
            return serials

    def hand_over(self, serial: str) -> DeviceClaim:
        """Take the claim on ``serial`` out of the pool: the caller holds (and releases) it from now on."""
        return self._claims.pop(serial)

    def boot(self, count: int, *, in_process: bool | None = None) -> list[str]:
        """Boot ``count`` virtual phones now, whatever is attached; their serials once
        the adb server lists them online. They stop when the pool closes.
        ``in_process``: None decides by ``virtual_in_process``, then by count."""
        if in_process is None:
            in_process = self.virtual_in_process
        if in_process is None:
            in_process = count == 1
        if in_process:
            return self._boot_in_process(count)
        # Spawn every process first so they boot in parallel, then collect them.
        procs = [_PhoneProcess.spawn() for _ in range(count)]
        started = []
        try:
            for proc in procs:
                started.append(_PhoneProcess.wait_ready(proc))
        except BaseException:
            for proc in procs[len(started):]:
                _terminate(proc)
            raise
        finally:
            self._phones.extend(started)
        serials = [self._bring_online(p) for p in started]
        log.info("booted %d virtual phone(s): %s", count, ", ".join(serials))
        return serials

    def _boot_in_process(self, count: int) -> list[str]:
        # start_phones registers with the adb server and returns once it lists them online.
        running = self._in_process.enter_context(
            virtual_phone.start_phones(count, adb_server_port=server_address()[1]))
        serials = [p.serial for p in running]
        log.info("booted %d in-process virtual phone(s): %s", count, ", ".join(serials))
        return serials

    def _bring_online(self, phone: _PhoneProcess) -> str:
        """The serial under which the run's adb server lists ``phone`` online.

        The phone process connected itself to that server (``--adb-port``), so
        it is listed at once; a phone not listed yet is connected here
        (``adb connect``), which is immediate and works on any port.
        """
        addr = server_address()
        if dict(list_devices(addr=addr)).get(phone.serial) == "device":
            return phone.serial
        target = f"127.0.0.1:{phone.port}"
        reply = host_request(f"host:connect:{target}", addr=addr)
        if "connected" not in reply:
            raise AdbCommandError(f"adb connect {target} failed: {reply}")
        phone.connected_serial = target
        try:
            # Blocks in the adb server until the transport is online: no polling.
            wait_for_device(target, timeout=ONLINE_TIMEOUT, addr=addr)
        except (InfrastructureError, TimeoutError):
            pass
        state = dict(list_devices(addr=addr)).get(target, "absent")
        if state == "device":
            return target
        raise InfrastructureError(f"virtual phone {target} did not come online within "
                                  f"{ONLINE_TIMEOUT:g} s (state: {state})")

    def close(self) -> None:
        """Stop the phones this pool booted (and disconnect them from the adb server),
        then give up the run's claims."""
        early, self._early = self._early, []
        concurrent.futures.wait(early)  # an early allocation may still be booting: what it boots stops too
        phones, self._phones = self._phones, []
        for phone in phones:
            if phone.connected_serial:
                try:
                    host_request(f"host:disconnect:{phone.connected_serial}", timeout=5)
                except (InfrastructureError, TimeoutError):
                    pass
            phone.stop()
        self._in_process.close()
        claims, self._claims = self._claims, {}
        for claim in claims.values():
            claim.release()

    def __enter__(self) -> "DevicePool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

"""Where a run's devices come from, how they are prepared, and the snapshot reset.

:func:`open_pool` picks the source from the options: emulators started for
the run (``--avd``), the devices of other adb servers (``--adb-server``), or
the local server's devices (``--device``, ``adb connect``-ing any
``HOST:PORT`` among them), else virtual phones. Every source has
``allocate(count) -> [device reference]`` and ``close()``.

:func:`check_before_run` turns what can be known before any test runs (no
SDK, no such AVD, an unreachable adb server) into a usage error.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import pytest

from pytest_mobileagent.errors import InfrastructureError
from pytest_mobileagent.keys import RECORD_ATTR
from pytest_mobileagent.setup import SetupError, prepare_device

from .emulator import EmulatorFleet, console, find_emulator
from .fast_adb import server_address, wait_for_device
from .options import DeviceOptions, looks_like_host_port
from .pool import DeviceAllocationError, DevicePool
from .remote import NetworkDevicePool, RemotePool, check_server

if TYPE_CHECKING:
    from .device import Device

__all__ = ["SnapshotReset", "check_before_run", "open_pool", "run_device_setup"]

SETUP_SNAPSHOT = "mobileagent-setup"
_EMULATOR_SERIAL = re.compile(r"^emulator-\d+$")


def run_device_setup(serial: str, addr: tuple[str, int]) -> None:
    """Prepare a freshly booted emulator for the benchmark: the device setup command
    (``mobileagent-setup``: the event listener installed and enabled, animations
    off, the time zone), run on each ``--avd`` instance after it has booted."""
    import adbutils

    try:
        prepare_device(adbutils.AdbClient(host=addr[0], port=addr[1]).device(serial))
    except SetupError as exc:
        raise InfrastructureError(f"setting up {serial} failed: {exc}") from None


def check_before_run(options: DeviceOptions) -> None:
    """Usage errors for a missing SDK or AVD and unreachable adb servers (controller only)."""
    try:
        if options.avd:
            EmulatorFleet(options.avd, find_emulator(options.emulator), boot_timeout=1).check()
        if options.adb_servers:
            for addr in options.adb_servers:
                check_server(addr)
    except DeviceAllocationError as exc:
        raise pytest.UsageError(str(exc)) from None


def open_pool(requested: tuple[str, ...], options: DeviceOptions, *, device_wait: float = 0.0) -> Any:
    """The device source for this run (nothing is started until ``allocate``).

    ``device_wait``: seconds to wait for a requested local device another run holds.
    """
    if options.avd:
        return EmulatorFleet(options.avd, find_emulator(options.emulator),
                             boot_timeout=options.avd_boot_timeout, setup=run_device_setup)
    if options.adb_servers:
        return RemotePool(options.adb_servers, list(requested) or None, device_wait=device_wait)
    network = [d for d in requested if looks_like_host_port(d)]
    if network:
        return NetworkDevicePool(list(requested), network, boot_virtual=True, device_wait=device_wait)
    return DevicePool(requested=list(requested) or None, boot_virtual=True, device_wait=device_wait)


class SnapshotReset:
    """``--reset snapshot``: before each task, load the snapshot taken after setup.

    The snapshot is saved through the emulator's console the first time this
    worker's device is reset (the device is then as setup left it) and loaded
    before every later task. Only an emulator on this machine has a console
    that ``adb emu`` reaches, so other devices are refused with the reason.
    """

    def __init__(self, device: "Device"):
        self.device = device
        self.saved = False

    def __call__(self) -> float:
        """Load the snapshot (saved first, on the first call); the seconds the load took."""
        device = self.device
        if not _EMULATOR_SERIAL.match(device.serial) or device._addr != server_address():
            raise InfrastructureError(
                f"--reset snapshot needs an emulator on this machine (serial emulator-N on the local "
                f"adb server); {device.label} is not one")
        if not self.saved:
            console(device.serial, f"avd snapshot save {SETUP_SNAPSHOT}")
            self.saved = True
        # Every task, the first included, starts from a load: each reset costs the same.
        started = time.perf_counter()
        console(device.serial, f"avd snapshot load {SETUP_SNAPSHOT}")
        # A real emulator's adb link can drop for a moment while its state is swapped.
        wait_for_device(device.serial, timeout=60, addr=device._addr)
        return time.perf_counter() - started


class SnapshotResetSummary:
    """Prints the time of the ``--reset snapshot`` resets at the end of the run
    (registered on the controller only with ``--reset snapshot``)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        record = getattr(report, RECORD_ATTR, None)
        if isinstance(record, dict) and isinstance(record.get("reset_seconds"), (int, float)):
            self.seconds.append(float(record["reset_seconds"]))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.seconds:
            return
        import statistics

        ms = sorted(s * 1000 for s in self.seconds)
        terminalreporter.write_line(
            f"snapshot resets: {len(ms)}, median {statistics.median(ms):.1f} ms, "
            f"min {ms[0]:.1f} ms, max {ms[-1]:.1f} ms (per task: reset_seconds in the results file)")

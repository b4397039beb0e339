"""The readiness check at session start: can this device run the selected tasks?

Per device, once per process, before its first task: the apps the selected
tasks need are installed, and the listener app answers a probe over the
worker's event connection (a hierarchy request and its reply: the same path
events take). A device that is not ready stops with :class:`DeviceNotReadyError`
naming what is missing and the command that fixes it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterable

from pytest_mobileagent.errors import InfrastructureError
from pytest_mobileagent.listener import PACKAGE as LISTENER_PACKAGE

from .apps import by_package

if TYPE_CHECKING:
    from pytest_mobileagent.device import Device
    from pytest_mobileagent.events import EventServer

__all__ = ["DeviceNotReadyError", "check_ready"]

#: The listener retries its connection every 0.5 s; a few tries are allowed for.
LISTENER_CONNECT_TIMEOUT = 3.0
PROBE_TIMEOUT = 5.0


class DeviceNotReadyError(InfrastructureError):
    """The device lacks an app the selected tasks need, or its listener does not answer."""


def check_ready(device: "Device", server: "EventServer", packages: Iterable[str]) -> float:
    """Raise :class:`DeviceNotReadyError` unless ``device`` is ready; returns the seconds it took.

    ``server`` is this worker's event server, already reversed to the device.
    """
    started = time.perf_counter()
    listing = device.shell("pm list packages")
    installed = {line.split(":", 1)[1].strip() for line in listing.splitlines() if line.startswith("package:")}
    names = by_package()
    problems = []
    missing = [p for p in sorted(set(packages)) if p not in installed]
    if missing:
        problems.append("apps not installed: " + ", ".join(
            f"{names[p].name} ({p})" if p in names else p for p in missing))
    if LISTENER_PACKAGE not in installed:
        problems.append(f"the listener app ({LISTENER_PACKAGE}) is not installed")
    elif not server.wait_for_listener(LISTENER_CONNECT_TIMEOUT):
        problems.append("the listener app does not connect: its accessibility service is off")
    elif server.request_hierarchy(PROBE_TIMEOUT) is None:
        problems.append("the listener app connects but does not answer the probe (an older version?)")
    if problems:
        raise DeviceNotReadyError(
            f"device {device.serial} is not ready for the selected tasks: {'; '.join(problems)}. "
            f"Prepare it with: mobileagent-setup --device {device.serial} --apks DIR "
            "(DIR holding the Simple Mobile Tools APKs; see the README, "
            "'Running on a real phone or emulator')")
    return time.perf_counter() - started

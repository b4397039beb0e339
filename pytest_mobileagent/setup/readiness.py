"""The readiness checks: can this device run the selected tasks, and this task?

Per device, once per process, before its first task (:func:`check_ready`):
the listener app is installed and answers a probe over the worker's event
connection (a hierarchy request and its reply: the same path events take). A
device without it stops every task with :class:`DeviceNotReadyError` naming
what is missing and the command that fixes it.

Per task, at its reset (:func:`check_task_ready`): the task's own app is
installed (a missing app errors only the tasks that need it, naming the app)
and the listener still answers its probe (a listener that went away since
the last task errors this task at once, naming the listener and the device,
instead of every step waiting for events that never come).

A listener that does not answer is blamed only once the device is known to be
there (:func:`listener_lost`): a dead phone or adb server takes the listener's
connection with it, and the error then names that (issue 37), found at once
instead of after the probe's wait.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterable

from pytest_mobileagent.errors import DeviceLostError, InfrastructureError, ListenerLostError
from pytest_mobileagent.listener import PACKAGE as LISTENER_PACKAGE, SOCKET_NAME as LISTENER_SOCKET

from .apps import by_package

if TYPE_CHECKING:
    from pytest_mobileagent.device import Device
    from pytest_mobileagent.events import EventServer

__all__ = ["DeviceNotReadyError", "ListenerLostError", "check_ready", "check_task_ready", "listener_lost",
           "probe_listener"]

#: The event server dials the listener's socket every 0.2 s (events/server.py); a service
#: just switched on gets a few seconds to open it.
LISTENER_CONNECT_TIMEOUT = 3.0
PROBE_TIMEOUT = 5.0
#: Per task and per step, the listener answers a hierarchy request well within this
#: (a node-tree walk: tens of ms on a phone); no answer means it is gone.
LISTENER_REPLY_TIMEOUT = 1.5


class DeviceNotReadyError(InfrastructureError):
    """The device lacks an app the selected tasks need, or its listener does not answer."""


def installed_packages(device: "Device") -> set[str]:
    """The packages ``pm list packages`` lists."""
    listing = device.shell("pm list packages")
    return {line.split(":", 1)[1].strip() for line in listing.splitlines() if line.startswith("package:")}


def _fix_hint(device: "Device") -> str:
    return (f"Prepare it with: mobileagent-setup --device {device.serial} --apks DIR "
            "(DIR holding the Simple Mobile Tools APKs; see the README, "
            "'Running on a real phone or emulator')")


def check_ready(device: "Device", server: "EventServer", packages: Iterable[str] = ()) -> tuple[float, set[str]]:
    """Raise :class:`DeviceNotReadyError` unless the device's listener works; returns the
    seconds it took and the installed packages (for :func:`check_task_ready`).

    ``server`` is this worker's event server, dialling the device's listener.
    ``packages``: the selected tasks' apps; missing ones are not an error here
    (each task checks its own), but are named with the listener's problems.
    """
    started = time.perf_counter()
    installed = installed_packages(device)
    problems = []
    if LISTENER_PACKAGE not in installed:
        problems.append(f"the listener app ({LISTENER_PACKAGE}) is not installed")
    elif not server.wait_for_listener(LISTENER_CONNECT_TIMEOUT):
        problems.append(f"the listener app does not answer on localabstract:{LISTENER_SOCKET} "
                        f"({server.dial_error or 'no hello'}): its accessibility service is off, "
                        "or it is an older version")
    elif server.request_hierarchy(PROBE_TIMEOUT) is None:
        problems.append("the listener app connects but does not answer the probe (an older version?)")
    if problems:
        missing = _missing(packages, installed)
        if missing:
            problems.append(missing)
        raise DeviceNotReadyError(
            f"device {device.serial} is not ready for the selected tasks: {'; '.join(problems)}. "
            + _fix_hint(device))
    return time.perf_counter() - started, installed


def _missing(packages: Iterable[str], installed: set[str]) -> str:
    names = by_package()
    missing = [p for p in sorted(set(packages)) if p not in installed]
    if not missing:
        return ""
    return "apps not installed: " + ", ".join(f"{names[p].name} ({p})" if p in names else p for p in missing)


def listener_lost(device: "Device", why: str) -> InfrastructureError:
    """The error for a listener that stopped answering: :class:`DeviceLostError` naming the
    real cause when the device or its adb server is gone, else :class:`ListenerLostError`
    (``why``: what the listener failed to do), with the command that switches it back on."""
    gone = device.unavailable()
    if gone is not None:
        return DeviceLostError(gone)
    return ListenerLostError(
        f"the listener app ({LISTENER_PACKAGE}) on device {device.label} {why}; the device answers, so "
        "the listener's accessibility service was switched off or the app stopped; "
        f"switch it back on: mobileagent-setup --device {device.serial}")


def probe_listener(device: "Device", server: "EventServer", timeout: float = LISTENER_REPLY_TIMEOUT) -> None:
    """Raise unless the listener answers a hierarchy request within ``timeout``.

    A listener that is not connected is waited for (the server redials every 0.2 s)
    only once the device is known to be there: a dead phone or adb server is
    said at once (:class:`DeviceLostError`), not after ``timeout``.
    """
    started = time.monotonic()
    if not server.listener_connected:
        gone = device.unavailable()
        if gone is not None:
            raise DeviceLostError(gone)
        if not server.wait_for_listener(timeout):
            why = f" ({server.dial_error})" if server.dial_error else ""
            raise listener_lost(device, f"does not answer on its socket any more{why}")
    left = max(0.1, timeout - (time.monotonic() - started))
    if server.request_hierarchy(left) is None:
        raise listener_lost(device, f"stopped answering: no reply to a hierarchy request within {timeout:g} s")


def check_task_ready(device: "Device", server: "EventServer", package: str, installed: set[str],
                     task: str) -> None:
    """Raise unless this task can run: its app is installed, the listener answers."""
    missing = _missing([package], installed)
    if missing:
        raise DeviceNotReadyError(
            f"task {task} cannot run on device {device.serial}: {missing}. " + _fix_hint(device))
    probe_listener(device, server)

"""adbd's jdwp and track-jdwp services: the pids of processes a debugger may attach to.

packages/modules/adb daemon/jdwp_service.cpp: each ART process with JDWP on announces itself to
adbd's @jdwp-control socket; jdwp_process_list() writes one "PID\\n" per debuggable process.
`jdwp` sends that list once and closes; `track-jdwp` sends it prefixed with its length in 4 hex
digits (process_list_msg), then again each time the list changes. Data the host writes to
either closes the stream ("you can't write to this socket").

Which processes run with JDWP: Android 14's Zygote.applyDebuggerSystemProperty turns it on for
every app on an eng build, or when persist.debug.dalvik.vm.jdwp.enabled is "1"
(frameworks/base core/java/com/android/internal/os/Zygote.java; zygote reads the property at
boot, the virtual phone when the list is asked for, as it does not reboot); otherwise
ActivityManager passes --enable-jdwp only for an app whose manifest says
android:debuggable="true" (ProcessList.startProcessLocked, FLAG_DEBUGGABLE). On this userdebug
phone without that property, the list holds the debuggable apps' processes only.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ..kernel.processes import processes

if TYPE_CHECKING:
    from ..kernel.context import PhoneContext
    from .transport import DeviceEndpoint, Stream

__all__ = ["jdwp_pids", "jdwp_service", "track_jdwp_service"]

#: zygote64 and zygote (kernel/processes.py): their children are the ART processes
_ZYGOTES = (290, 291)


def jdwp_pids(phone: "PhoneContext") -> list[int]:
    """The pids adbd lists, in the order the processes announced themselves (their start order)."""
    everyone = (phone.props.get("ro.build.type") == "eng"
                or phone.props.get("persist.debug.dalvik.vm.jdwp.enabled") == "1")
    pids = []
    with phone._lock:  # a consistent table: another thread's command may be changing it
        table = processes(phone, with_shell=False)
    for proc in table:
        if proc.ppid not in _ZYGOTES:
            continue
        if everyone or _manifest_debuggable(phone, proc.cmdline):
            pids.append(proc.pid)
    return pids


def _manifest_debuggable(phone: "PhoneContext", package: str) -> bool:
    installed = phone.packages.installed.get(package)
    return installed is not None and installed.info.debuggable


def _pid_list(phone: "PhoneContext") -> bytes:
    return "".join(f"{pid}\n" for pid in jdwp_pids(phone)).encode()


async def jdwp_service(endpoint: "DeviceEndpoint", stream: "Stream") -> None:
    """`jdwp`: the list once, then the stream closes (jdwp_socket_ready's two passes)."""
    await stream.write(_pid_list(endpoint.phone))


async def track_jdwp_service(endpoint: "DeviceEndpoint", stream: "Stream") -> None:
    """`track-jdwp`: the length-prefixed list now and after every change, until the host closes."""
    loop = asyncio.get_running_loop()
    hung_up = loop.create_task(_until_host_writes_or_closes(stream))
    last = None
    try:
        while not hung_up.done():
            current = _pid_list(endpoint.phone)
            if current != last:
                await stream.write(f"{len(current):04x}".encode() + current)
                last = current
            changed = loop.create_task(endpoint.wait_state_changed())
            await asyncio.wait({changed, hung_up}, return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()
    finally:
        hung_up.cancel()


async def _until_host_writes_or_closes(stream: "Stream") -> None:
    # jdwp_tracker_enqueue: anything the host sends closes the tracker.
    await stream.read()

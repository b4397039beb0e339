"""adbd's root: and unroot: services: `adb root` and `adb unroot`.

packages/modules/adb daemon/restart_service.cpp: restart_root_service answers "adbd is already
running as root" when it is, "adbd cannot run as root in production builds" unless the build is
debuggable (ro.debuggable=1, liblog's __android_log_is_debuggable), and otherwise sets
service.adb.root=1 and answers "restarting adbd as root"; restart_unroot_service mirrors it with
"adbd not running as root" / service.adb.root=0 / "restarting adbd as non root". init then
restarts adbd (`on property:service.adb.root=1` / `restart adbd`), so every host connection drops
and the adb server connects again; the new adbd keeps or drops root by daemon/main.cpp
should_drop_privileges (kernel/processes.adbd_uid).

The `adb root` client (client/commandline.cpp adb_root) prints the answer, and when it says
"restarting" waits for the device to disconnect (wait-for-disconnect) and to come back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kernel.processes import adbd_uid

if TYPE_CHECKING:
    from .transport import DeviceEndpoint, Stream

__all__ = ["restart_root_service", "restart_unroot_service"]

#: adbd's own lines about it (LOG(INFO) in restart_service.cpp), under adbd's pid
ADBD_PID = 370


async def restart_root_service(endpoint: "DeviceEndpoint", stream: "Stream") -> None:
    phone = endpoint.phone
    if adbd_uid(phone) == 0:
        await stream.write(b"adbd is already running as root\n")
        return
    if phone.props.get("ro.debuggable") != "1":
        await stream.write(b"adbd cannot run as root in production builds\n")
        return
    await _restart(endpoint, stream, "1", "adbd restarting as root", b"restarting adbd as root\n")


async def restart_unroot_service(endpoint: "DeviceEndpoint", stream: "Stream") -> None:
    if adbd_uid(endpoint.phone) != 0:
        await stream.write(b"adbd not running as root\n")
        return
    await _restart(endpoint, stream, "0", "adbd restarting as nonroot", b"restarting adbd as non root\n")


async def _restart(endpoint: "DeviceEndpoint", stream: "Stream", value: str, log_line: str,
                   answer: bytes) -> None:
    phone = endpoint.phone
    phone.logs.write("adbd", log_line, pid=ADBD_PID, uid=adbd_uid(phone))
    phone.props["service.adb.root"] = value
    await stream.write(answer)
    # The answer is out before adbd goes: the service thread writes it and returns, then init
    # restarts the daemon, which drops every transport (and the reverse forwards with them).
    await stream.close()
    endpoint.restart_adbd()

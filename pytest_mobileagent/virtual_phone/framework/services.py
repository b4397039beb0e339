"""ServiceManager: the system services the phone runs, by name, and their dumpsys sections.

On Android `dumpsys SERVICE ARGS` looks the service up in ServiceManager and calls its dump();
each service registered itself when system_server started it.  Here the module that models a
service registers its dump in `DUMPSYS_HANDLERS`, under the service's name and the section it
prints (the first argument, as in `dumpsys activity services`; "" for none) or "*" for any
arguments.  `dumpsys` (shell/android.py) only looks the service up (`find_dump`) and runs it.
"""

from __future__ import annotations

from typing import Callable, Protocol

from ..kernel.context import PhoneContext

__all__ = ["DUMPSYS_HANDLERS", "SERVICE_NAMES", "Dump", "DumpTarget", "find_dump"]

#: Services an Android 14 phone runs (`dumpsys -l`); those without a dump here print nothing, as a
#: service with nothing to report does, and a name no phone has is "Can't find service".
SERVICE_NAMES = (
    "SurfaceFlinger", "accessibility", "account", "activity", "activity_task", "alarm", "appops",
    "audio", "battery", "batterystats", "bluetooth_manager", "clipboard", "connectivity", "content",
    "cpuinfo", "device_policy", "deviceidle", "diskstats", "display", "dropbox", "gfxinfo", "graphicsstats", "input",
    "input_method", "jobscheduler", "location", "media_session", "meminfo", "mount", "netstats",
    "notification", "package", "permission", "power", "procstats", "role", "sensorservice", "settings",
    "statusbar", "telephony.registry", "uimode", "usagestats", "user", "vibrator_manager", "wallpaper",
    "webviewupdate", "wifi", "window",
)


class DumpTarget(Protocol):
    """What a dump writes to, as Binder.dump writes to its file descriptor: dumpsys's output."""

    @property
    def phone(self) -> "PhoneContext": ...

    def out(self, data: bytes | str) -> None: ...

    def err(self, text: str) -> None: ...


#: fn(target, the arguments after the service's name) -> dumpsys's exit status
Dump = Callable[[DumpTarget, list[str]], int]

#: (service, first argument, "" for none, or "*" for any) -> its dump
DUMPSYS_HANDLERS: dict[tuple[str, str], Dump] = {}


def find_dump(service: str, args: list[str]) -> Dump | None:
    """What `dumpsys SERVICE ARGS` runs: the section's own dump, else the service's for any."""
    return DUMPSYS_HANDLERS.get((service, args[0] if args else "")) or DUMPSYS_HANDLERS.get((service, "*"))



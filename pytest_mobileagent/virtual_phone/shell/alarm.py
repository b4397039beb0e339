"""`cmd alarm set-timezone TZ`: AlarmManagerService's shell command (Android 12+).

The time zone is the `persist.sys.timezone` property, as on a phone.
"""

from __future__ import annotations

import zoneinfo

from .cmd import SERVICES, service_exception
from .interpreter import Invocation


def _alarm(inv: Invocation, args: list[str]) -> int:
    if not args or args[0] in ("help", "-h"):
        inv.out("Alarm manager service (alarm) commands:\n  help\n    Print this help text.\n"
                "  set-time TIME\n  set-timezone TZ\n    Set the system timezone to TZ where TZ is an Olson id.\n")
        return 0
    if args[0] != "set-timezone":
        inv.out(f"Unknown command: {args[0]}\n")
        return -1 & 0xFF
    if len(args) < 2:
        return service_exception(inv, "set-timezone",
                                 "java.lang.IllegalArgumentException: Argument expected after \"set-timezone\"")
    zone = args[1]
    try:
        zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return service_exception(inv, "set-timezone",
                                 f"java.lang.IllegalArgumentException: Timezone: {zone} is not an Olson ID")
    inv.phone.props["persist.sys.timezone"] = zone
    return 0


SERVICES["alarm"] = _alarm

"""ActivityManagerService: what starting an activity of an installed APK does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..phone import VirtualPhone

__all__ = ["ACTIVITIES", "start_activity"]

#: (package, activity class) -> what starting it does: fn(phone, action) -> True when it stays
#: on screen (not modelled here: every helper activity finishes at once)
ACTIVITIES: dict[tuple[str, str], Callable[["VirtualPhone", str | None], None]] = {}


def start_activity(phone: "VirtualPhone", package: str, cls: str, action: str | None) -> bool:
    """Start an activity of an installed helper APK; False when the phone does not model it."""
    entry = phone.packages.installed.get(package)
    behaviour = ACTIVITIES.get((package, cls))
    if entry is None or behaviour is None or cls not in entry.info.activities:
        return False
    behaviour(phone, action)
    return True



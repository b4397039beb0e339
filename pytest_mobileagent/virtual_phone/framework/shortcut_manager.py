"""ShortcutManager.requestPinShortcut: the default launcher confirms a pinned shortcut (ShortcutService).

ShortcutRequestPinProcessor (frameworks/base services/core/java/com/android/server/pm) asks the default
home app for its activity answering ``LauncherApps.ACTION_CONFIRM_PIN_SHORTCUT``
(``isRequestPinShortcutSupported`` is whether there is one) and starts it with the PinItemRequest.  A
shortcut this launcher already has pinned is accepted at once, without the confirmation
(requestPinShortcutLocked: "the request will always succeed").  The launcher's own model keeps what
it pinned: on this phone the home app (apps/system/launcher.py) holds the accepted shortcuts.

The confirmation is started over the requesting app, in its task, as the framework's other screens are
here; on a phone it is a translucent activity of the launcher over the app, whose BACK returns to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .intents import ComponentName, Intent, resolve
from .roles import ROLE_HOME

if TYPE_CHECKING:
    from .app import Activity

__all__ = ["ACTION_CONFIRM_PIN_SHORTCUT", "ShortcutInfo", "is_request_pin_shortcut_supported",
           "request_pin_shortcut"]

ACTION_CONFIRM_PIN_SHORTCUT = "android.content.pm.action.CONFIRM_PIN_SHORTCUT"


@dataclass
class ShortcutInfo:
    """ShortcutInfo.Builder's result: the publishing package, id, short label and the intent it starts."""

    package: str
    id: str
    short_label: str
    component: ComponentName
    extras: dict = field(default_factory=dict)
    long_label: str = ""


def _confirm_activity(system):
    """getRequestPinConfirmationActivity: the home app's activity for ACTION_CONFIRM_PIN_SHORTCUT."""
    holders = system.roles.holders(ROLE_HOME)
    for target in resolve(system, Intent(ACTION_CONFIRM_PIN_SHORTCUT)):
        if target.app.package in holders:
            return target
    return None


def is_request_pin_shortcut_supported(system) -> bool:
    return _confirm_activity(system) is not None


def request_pin_shortcut(activity: "Activity", shortcut: ShortcutInfo) -> bool:
    """requestPinShortcut from `activity`'s app: False when the default launcher cannot confirm pins."""
    system = activity.host
    target = _confirm_activity(system)
    if target is None:
        return False
    pinned = getattr(target.app.data, "pinned_shortcuts", [])
    if any(s.package == shortcut.package and s.id == shortcut.id for s in pinned):
        return True  # already pinned by this launcher: accepted without asking
    system.start_component(activity, ComponentName(target.app.package, target.activity.name),
                           {"pin_request": shortcut})
    return True

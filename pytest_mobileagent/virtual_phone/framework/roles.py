"""Android's RoleManager: which app holds the default SMS, dialer, home... role.

A role is held by packages that qualify for it (on a phone: whose manifest
declares the intent filters the role requires; here: an `App` lists the role
in its ``roles``).  `cmd role add-role-holder` changes the holders, exactly
as on Android 14, where it is the only shell way to make an app the default
SMS app or dialer.

Roles belong to the system, not to an app's data: `pm clear` leaves them as
they are (as on a phone); only an uninstall drops the package's roles
(`forget_package`).

An app model asks, for example::

    from pytest_mobileagent.virtual_phone.framework.roles import ROLE_SMS
    if not self.holds_role(ROLE_SMS):   # Activity helper, same as
        ...                             # self.host.roles.is_holder(ROLE_SMS, self.app.package)
"""

from __future__ import annotations

import threading
from typing import Callable, Iterable, Mapping

__all__ = ["KNOWN_ROLES", "ROLE_BROWSER", "ROLE_DIALER", "ROLE_HOME", "ROLE_SMS", "RoleStore"]

ROLE_SMS = "android.app.role.SMS"
ROLE_DIALER = "android.app.role.DIALER"
ROLE_HOME = "android.app.role.HOME"
ROLE_BROWSER = "android.app.role.BROWSER"

#: The roles an Android 14 phone defines (roles.xml of the Permission module),
#: with whether a role may have several holders (only the SYSTEM_* roles do).
KNOWN_ROLES: dict[str, bool] = {
    "android.app.role.ASSISTANT": False,
    ROLE_BROWSER: False,
    "android.app.role.CALL_REDIRECTION": False,
    "android.app.role.CALL_SCREENING": False,
    ROLE_DIALER: False,
    "android.app.role.EMERGENCY": False,
    ROLE_HOME: False,
    "android.app.role.NOTES": False,
    ROLE_SMS: False,
    "android.app.role.SYSTEM_GALLERY": True,
    "android.app.role.WALLET": False,
}


class RoleStore:
    """The role holders of one phone (user 0).  Thread-safe.

    ``qualifies(role, package, bypass)`` says whether a package may hold a
    role (with ``bypass``: whether it is installed at all); ``defaults`` are
    the holders right after boot.
    """

    def __init__(self, qualifies: Callable[[str, str, bool], bool],
                 defaults: Mapping[str, Iterable[str]] | None = None) -> None:
        self._qualifies = qualifies
        #: `cmd role set-bypassing-role-qualification true`: any installed package qualifies
        self.bypass_qualification = False
        self._lock = threading.Lock()
        self._holders: dict[str, list[str]] = {role: [] for role in KNOWN_ROLES}
        for role, packages in (defaults or {}).items():
            self._holders[role] = list(packages)

    def holders(self, role: str) -> list[str]:
        """The packages holding ``role`` (empty for an unknown role, as RoleManager answers)."""
        with self._lock:
            return list(self._holders.get(role, ()))

    def is_holder(self, role: str, package: str) -> bool:
        with self._lock:
            return package in self._holders.get(role, ())

    def roles_of(self, package: str) -> list[str]:
        with self._lock:
            return sorted(role for role, held in self._holders.items() if package in held)

    def add(self, role: str, package: str) -> bool:
        """Make ``package`` a holder; False (nothing changes) if the role is
        unknown or the package does not qualify.  An exclusive role passes
        from its old holder to the new one."""
        if role not in KNOWN_ROLES or not self._qualifies(role, package, self.bypass_qualification):
            return False
        with self._lock:
            held = self._holders[role]
            if package not in held:
                if not KNOWN_ROLES[role]:
                    held.clear()
                held.append(package)
            return True

    def remove(self, role: str, package: str) -> bool:
        """Drop ``package`` from the holders; False only for an unknown role
        (removing a non-holder succeeds, as on Android)."""
        if role not in KNOWN_ROLES:
            return False
        with self._lock:
            held = self._holders[role]
            if package in held:
                held.remove(package)
            return True

    def clear(self, role: str) -> bool:
        if role not in KNOWN_ROLES:
            return False
        with self._lock:
            self._holders[role].clear()
            return True

    def forget_package(self, package: str) -> None:
        """An uninstalled package holds no role any more."""
        with self._lock:
            for held in self._holders.values():
                if package in held:
                    held.remove(package)

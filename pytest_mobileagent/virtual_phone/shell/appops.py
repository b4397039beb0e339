"""`appops set|get` and `cmd notification allow_listener|disallow_listener`.

Appium's driver sets app ops for its Settings app (``appops set io.appium.settings
android:mock_location allow``, ``PROJECT_MEDIA allow``) and approves its
notification listener (``cmd notification allow_listener io.appium.settings/.NLService``).
Both succeed silently on a phone. `appops set PACKAGE OP MODE` (AppOpsService.Shell)
takes an op as its public name (``android:mock_location``) or its constant name
(``MOCK_LOCATION``) and prints ``OP: MODE`` for `get`; an op that is not an
identifier is "Error: Unknown operation string: X" (exit 255). The phone does not
list AppOpsManager's ~130 ops, so any well-formed name is taken as one.
NotificationManagerService's shell command (NotificationShellCmd) adds an approved
listener to ``enabled_notification_listeners`` in secure settings.
"""

from __future__ import annotations

import dataclasses
import re
import weakref

from .cmd import SERVICES
from .statusbar import notification_command
from .interpreter import Invocation, command

_MODES = ("allow", "ignore", "deny", "default", "foreground")
_OP = re.compile(r"(?:android:[a-z_]+|[A-Z][A-Z0-9_]*)")
_MODES_BY_PHONE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _op_name(op: str) -> str:
    """MOCK_LOCATION for android:mock_location (AppOpsManager.opToName)."""
    return op[len("android:"):].upper() if op.startswith("android:") else op


@command("appops")
def _appops(inv: Invocation) -> int:
    args = [a for a in inv.args]
    while "--user" in args:  # a single-user phone: `--user 0` changes nothing
        at = args.index("--user")
        del args[at:at + 2]
    args = [a for a in args if a not in ("--uid",)]
    if not args or args[0] not in ("set", "get", "reset"):
        inv.out("AppOps service (appops) commands:\n  help\n    Print this help text.\n"
                "  set [--user <USER_ID>] <PACKAGE | UID> <OP> <MODE>\n"
                "  get [--user <USER_ID>] <PACKAGE | UID> [<OP>]\n"
                "  reset [--user <USER_ID>] [<PACKAGE>]\n")
        return 0 if not args or args[0] == "help" else 255
    verb, rest = args[0], args[1:]
    modes = _MODES_BY_PHONE.setdefault(inv.phone, {})
    if verb == "reset":
        for key in [k for k in modes if not rest or k[0] == rest[0]]:
            del modes[key]
        inv.out("Reset all modes for: " + (f"package {rest[0]}" if rest else "all packages") + "\n")
        return 0
    if not rest:
        inv.err("Error: No UID or package specified.\n")
        return 255
    package = rest[0]
    # The op is parsed before the package is looked up: `appops set "" OP MODE` reports
    # MODE as an unknown operation.
    if len(rest) > 1 and not _OP.fullmatch(rest[1]):
        inv.out(f"Error: Unknown operation string: {rest[1]}\n")
        return 255
    if not inv.phone.packages.is_installed(package) and not package.isdigit():
        inv.err(f"Error: No UID for {package} in user 0\n")
        return 255
    if verb == "set":
        if len(rest) < 3:
            inv.err("Error: Mode not specified.\n" if len(rest) == 2 else "Error: Operation not specified.\n")
            return 255
        op, mode = rest[1], rest[2]
        if mode not in _MODES and not mode.isdigit():
            inv.err(f"Error: Mode {mode} is not valid\n")
            return 255
        modes[(package, _op_name(op))] = mode
        return 0
    ops = [(op, mode) for (pkg, op), mode in sorted(modes.items()) if pkg == package]
    if len(rest) > 1:
        name = _op_name(rest[1])
        ops = [(op, mode) for op, mode in ops if op == name] or [(name, "default")]
    if not ops:
        inv.out("No operations.\n")
    for op, mode in ops:
        inv.out(f"{op}: {mode}\n")
    return 0


def _notification(inv: Invocation, args: list[str]) -> int:
    """`cmd notification allow_listener|disallow_listener COMPONENT [USER]`; post, list and get
    are statusbar.py's."""
    if args:
        status = notification_command(inv, args[0], args[1:])
        if status is not None:
            return status
    if not args or args[0] not in ("allow_listener", "disallow_listener"):
        inv.out("usage: cmd notification SUBCMD [args]\n\nSUBCMDs:\n"
                "  allow_listener COMPONENT [user_id (current user if not specified)]\n"
                "  disallow_listener COMPONENT [user_id (current user if not specified)]\n")
        return 0 if not args or args[0] == "help" else 255
    if len(args) < 2 or "/" not in args[1]:
        inv.err("Invalid listener - must be a ComponentName\n")
        return 255
    secure = inv.phone.settings["secure"]
    listeners = [c for c in secure.get("enabled_notification_listeners", "").split(":") if c]
    component = args[1]
    if args[0] == "allow_listener" and component not in listeners:
        listeners.append(component)
    elif args[0] == "disallow_listener" and component in listeners:
        listeners.remove(component)
    secure["enabled_notification_listeners"] = ":".join(listeners)
    return 0


SERVICES["appops"] = lambda inv, args: _appops(dataclasses.replace(inv, name="appops", args=args))
SERVICES["notification"] = _notification

"""`cmd statusbar` (StatusBarShellCommand) and `cmd notification post|list|get` (NotificationShellCmd).

The statusbar service asks SystemUI to pull its shade down or up (AndroidSystem.expand_panel,
collapse_panels; the shade is framework/ui/shade.py).  `cmd notification post` posts a
notification as the shell (package com.android.shell, uid 2000; "root" after `adb root`), on
the "shell_cmd" channel with id 2020, and prints "posting:" and Notification.toString; the
notification is in the one list the shade and `dumpsys notification` read
(framework/notifications.py).  Sources: frameworks/base services/core/java/com/android/server/
statusbar/StatusBarShellCommand.java and notification/NotificationShellCmd.java.
"""

from __future__ import annotations

from ..framework.notifications import IMPORTANCE_DEFAULT, NotificationRecord, dump_record
from ..kernel.processes import adbd_uid
from .cmd import SERVICES
from .interpreter import Invocation

__all__ = ["notification_command"]

_STATUSBAR_HELP = """Status bar commands:
  help
    Print this help text.

  expand-notifications
    Open the notifications panel.

  expand-settings
    Open the notifications panel and expand quick settings if present.

  collapse
    Collapse the notifications and settings panel.

  add-tile COMPONENT
    Add a TileService of the specified component

  remove-tile COMPONENT
    Remove a TileService of the specified component

  click-tile COMPONENT
    Click on a TileService of the specified component

  check-support
    Check if this device supports QS + APIs

  get-status-icons
    Print the list of status bar icons and the order they appear in

"""


def _statusbar(inv: Invocation, args: list[str]) -> int:
    system = inv.phone.system
    verb = args[0] if args else None
    if verb == "expand-notifications":
        system.expand_panel(settings=False)
    elif verb == "expand-settings":
        system.expand_panel(settings=True)
    elif verb == "collapse":
        system.collapse_panels()
    elif verb == "check-support":
        inv.out("true\n")  # TileService.isQuickSettingsSupported: a phone has quick settings
    elif verb in ("add-tile", "remove-tile", "click-tile", "get-status-icons"):
        inv.err(f"cmd statusbar {verb}: TileServices and status icons are not modelled by the virtual phone\n")
        return 255
    elif verb in (None, "help", "-h"):
        inv.out(_STATUSBAR_HELP)  # ShellCommand.handleDefaultCommands: the help, and -1
        return 255
    else:
        inv.out(f"Unknown command: {verb}\n")
        return 255
    return 0


NOTIFY_USAGE = """usage: cmd notification post [flags] <tag> <text>

flags:
  -h|--help
  -v|--verbose
  -t|--title <text>
  -i|--icon <iconspec>
  -I|--large-icon <iconspec>
  -S|--style <style> [styleargs]
  -c|--content-intent <intentspec>

styles: (default none)
  bigtext
  bigpicture --picture <iconspec>
  inbox --line <text> --line <text> ...
  messaging --conversation <title> --message <who>:<text> ...
  media

an <iconspec> is one of
  file:///data/local/tmp/<img.png>
  content://<provider>/<path>
  @[<package>:]drawable/<img>
  data:base64,<B64DATA==>

an <intentspec> is (broadcast|service|activity) <args>
  <args> are as described in `am start`
"""

_NOTIFICATION_ID = 2020  # NotificationShellCmd.NOTIFICATION_ID


def _post(inv: Invocation, args: list[str]) -> int:
    """NotificationShellCmd.doNotify: options first (getNextOption), then TAG and TEXT."""
    title = style = None
    verbose = False
    rest = list(args)
    while rest and rest[0].startswith("-") and rest[0] != "--":
        option = rest.pop(0)
        if option in ("-v", "--verbose"):
            verbose = True
        elif option in ("-t", "--title", "-S", "--style") and rest:
            value = rest.pop(0)
            if option in ("-t", "--title"):
                title = value
            elif value.lower() not in ("bigtext", "bigpicture", "inbox", "messaging", "media"):
                inv.out(f"Error occurred. Check logcat for details. unrecognized notification style: {value.lower()}\n")
                return 0
            else:
                style = value.lower()
        elif option in ("--bigtext", "--bigText", "--big-text") and rest and style == "bigtext":
            rest.pop(0)
        elif option in ("-t", "--title", "-S", "--style"):
            inv.out(f"Error occurred. Check logcat for details. Argument expected after \"{option}\"\n")
            return 0
        else:  # -h, --help and any option it does not know: the usage, and success
            inv.out(NOTIFY_USAGE + "\n")
            return 0
    if rest[:1] == ["--"]:
        rest.pop(0)
    if len(rest) < 2:
        inv.out(NOTIFY_USAGE + "\n")
        return 0  # onCommand ignores doNotify's -1 and exits 0
    tag, text = rest[0], rest[1]
    uid = adbd_uid(inv.phone)
    package = "root" if uid == 0 else "com.android.shell"  # NotificationManagerService.ROOT_PKG
    record = NotificationRecord(package, uid, _NOTIFICATION_ID, tag, text, title=title, channel="shell_cmd",
                                importance=IMPORTANCE_DEFAULT, style=style)
    inv.out(f"posting:\n  {record.notification_string()}\n")
    inv.phone.system.notifications.post(record)
    if verbose:
        inv.out("posted: \n" + dump_record(record, "  "))
    inv.phone.system.notify_data_changed()  # the shade, if down, shows it at once
    return 0


def notification_command(inv: Invocation, verb: str, args: list[str]) -> int | None:
    """`cmd notification post|notify|list|get`; None for the verbs appops.py handles."""
    notifications = inv.phone.system.notifications
    if verb in ("post", "notify"):
        return _post(inv, args)
    if verb == "list":
        for key in notifications.keys():
            inv.out(key + "\n")
        return 0
    if verb == "get":
        if not args:
            inv.out("Error occurred. Check logcat for details. Argument expected after \"get\"\n")
            return 0
        record = notifications.get(args[0])
        if record is None:
            inv.out(f"error: no active notification matching key: {args[0]}\n")
            return 1
        inv.out(dump_record(record, ""))
        return 0
    return None


SERVICES["statusbar"] = _statusbar

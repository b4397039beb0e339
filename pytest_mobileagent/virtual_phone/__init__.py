"""The virtual phone: an Android device in Python, reached through the real adb server.

    from pytest_mobileagent.virtual_phone import start_phones

    with start_phones(2) as phones:          # connected to the adb server
        for p in phones:
            print(p.serial, p.port)           # e.g. 127.0.0.1:40123 40123
        phones[0].phone.run_shell("input tap 540 1200")   # in-process access

Typing text follows Android's `input text ARG`: ARG is typed as is except that
each "%s" becomes a space. adbutils `send_keys(t)` quotes t for sh, so a literal
"%s" in t lands as a space; AndroidViewClient `type(t)` sends spaces as "%s" and
"%s" as "\\%s", which lands as a backslash and a space -- both as on a real phone.
Unlike a real phone's key map, any Unicode character is typed. The shell is
mksh's grammar (shell/parser.py): it runs the substitutions a command line
writes, but what an expansion produces (text typed into an app and read back,
a variable's value, a file's name) is never parsed again, so typed text cannot
run commands.

`VirtualPhone` holds a phone's state (file system, props, settings, clock) and
its `AndroidSystem` (UI); `start_phones` serves phones over the adb transport
protocol. Heavy modules load lazily so importing this package stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["RunningPhone", "VirtualPhone", "start_phones"]

if TYPE_CHECKING:
    from .phone import VirtualPhone
    from .server import RunningPhone, start_phones


def __getattr__(name: str):
    if name == "VirtualPhone":
        # Late on purpose: the plugin imports this package on every run; the phone loads only when used.
        from .phone import VirtualPhone
        return VirtualPhone
    if name in ("RunningPhone", "start_phones"):
        from . import server  # late for the same reason: booting phones is the only use
        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

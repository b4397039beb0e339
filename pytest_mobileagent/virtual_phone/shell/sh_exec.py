"""mksh's `exec`: run a command in place of the shell.

``adb logcat`` runs ``export ANDROID_LOG_TAGS="''"; exec logcat ...`` on the
device (adb's client, commandline.cpp logcat()), so Appium's logcat capture
and every `adb logcat` go through it. `exec CMD ARGS` runs CMD with the
shell's streams and the shell ends with its status: nothing after it on the
line runs. `exec` with no command changes nothing here (it only applies
redirections, which the interpreter has already done).
"""

from __future__ import annotations

from .interpreter import COMMANDS, SH, Invocation, ShellExit, command


@command("exec")
def _exec(inv: Invocation) -> int:
    if not inv.args:
        return 0
    name = inv.args[0]
    impl = COMMANDS.get(name) or COMMANDS.get(name.rsplit("/", 1)[-1]) if name.startswith("/system/bin/") \
        else COMMANDS.get(name)
    if impl is None or name == "exec":
        inv.err(f"{SH}: {name}: inaccessible or not found\n")
        raise ShellExit(127)
    status = impl(Invocation(inv.session, name.rsplit("/", 1)[-1], list(inv.args[1:]), inv.stdin,
                             inv._out, inv._err, inv.env)) & 0xFF
    if inv.session.held is not None:
        return status  # the program runs in the shell's place until it ends
    raise ShellExit(status)

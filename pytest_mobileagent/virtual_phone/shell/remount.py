"""/system/bin/remount: what `adb remount` (adbd's remount: service) and `adb shell remount` run.

Follows system/core/fs_mgr/fs_mgr_remount.cpp main() (Android 14): its messages go to stderr
(MyLogger prints each logged message on a line of its own). It needs root (`adb root` first),
a debuggable build, and an unlocked bootloader (ro.boot.verifiedbootstate "orange"). The
virtual phone's bootloader is locked ("green", as its props say), so on this phone remount
stops there, as a locked userdebug phone's does: the system partitions stay read-only.
"""

from __future__ import annotations

from ..kernel.processes import adbd_uid
from .interpreter import Invocation, command

__all__: list[str] = []

_USAGE = """Usage: remount [-h] [-R] [-T fstab_file] [partition]...

Options:
    -h --help       this help
    -R --reboot     disable verity & reboot to facilitate remount
    -v --verbose    be noisy
    -T --fstab      custom fstab file location
    partition       specific partition(s) (empty does all)

Remount specified partition(s) read-write, by name or mount point.
-R notwithstanding, verity must be disabled on partition(s).
-R within a DSU guest system reboots into the DSU instead of the host system,
this command would enable DSU (one-shot) if not already enabled.
"""


@command("remount")
def _remount(inv: Invocation) -> int:
    if any(arg in ("-h", "--help") for arg in inv.args):
        inv.out(_USAGE)
        return 0
    if adbd_uid(inv.phone) != 0:
        inv.err('Not running as root. Try "adb root" first.\n')
        return 1
    props = inv.phone.props
    if props.get("ro.debuggable", "0") != "1":
        inv.err("Device must be userdebug build\n")
        return 1
    if props.get("ro.boot.verifiedbootstate", "") != "orange":
        inv.err("Device must be bootloader unlocked\n")
        return 1
    # An unlocked bootloader would go on to disable verity and set up overlayfs, which needs a
    # reboot the virtual phone does not have: said as a failure, not pretended.
    inv.err("remount: overlayfs needs a reboot, which the virtual phone does not model\n")
    return 1

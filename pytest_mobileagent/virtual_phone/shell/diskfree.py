"""toybox `df` and `mount` (no arguments): the mount table and each file system's space.

Both read kernel/storage.py, the phone's one record of its mounts and their statfs, so they
agree with /proc/mounts, `dumpsys diskstats` and the Settings and File Manager storage screens.
Output follows toybox 0.8.9 (Android 14's): toys/posix/df.c (print_header, show_mt: columns
measured over the header and every row, the first left-aligned, the rest right-aligned; Use%
rounded up; the shell user sees f_bavail) and toys/lsb/mount.c ("%s on %s type %s (%s)").
"""

from __future__ import annotations

from ..kernel.fs import FsError
from ..kernel.processes import adbd_uid
from ..kernel.storage import MOUNTS, Mount, mount_of, statfs
from .builtins import parse_flags
from .interpreter import Invocation, UsageError, command


def human_readable(num: int, divisor: int = 1024) -> str:
    """toybox lib.c human_readable(buf, num, style): 3 digits, "1.2M" below 10 (HR_1000: k=1000)."""
    unit, snap = 0, 0
    while len(str(num)) > 3:
        snap, num = num, (num + divisor // 2) // divisor
        unit += 1
    text = str(num)
    if unit and len(text) == 1:  # redo rounding for the 1.2M case
        whole = snap // divisor
        tenths = (((snap - whole * divisor) * 100) + 50) // divisor // 10
        text = f"{whole}.{tenths}"
    if unit:
        letter = " kMGTPEZY"[unit]
        text += letter if divisor == 1000 else letter.upper()
    return text


def _row(inv: Invocation, mount: Mount, opts: dict, units: int) -> list[str] | None:
    info = statfs(inv.fs, mount)
    if not opts.get("a") and not info.blocks:  # synthetic file systems (proc, sysfs)
        return None
    if "t" in opts and mount.type != opts["t"]:
        return None
    avail = info.bavail if adbd_uid(inv.phone) else info.bfree
    size, used, free = ((info.bsize * n) // units for n in (info.blocks, info.blocks - info.bfree, avail))
    percent = 0
    if used + free:
        percent = used * 100 // (used + free)
        if used * 100 != percent * (used + free):
            percent += 1
    if opts.get("h") or opts.get("H"):
        divisor = 1000 if opts.get("H") else 1024
        numbers = [human_readable(n, divisor) for n in (size, used, free)]
    else:
        numbers = [str(n) for n in (size, used, free)]
    return [mount.device, *numbers, f"{percent}%", mount.dir]


@command("df")
def _df(inv: Invocation) -> int:
    try:
        opts, files = parse_flags(inv.args, "HPkhia", "t")
    except UsageError as exc:
        inv.err(f"df: {exc}\n")
        return 1
    human = bool(opts.get("h") or opts.get("H"))
    units = 1 if human else (512 if opts.get("P") and not opts.get("k") else 1024)
    status = 0
    rows: list[list[str]] = []
    if files:
        for name in files:
            try:
                mount = mount_of(inv.fs, name, inv.cwd)
            except FsError as exc:
                inv.err(f"df: '{name}': {exc.strerror}\n")
                status = 1
                continue
            row = _row(inv, mount, opts, units)  # proc and sysfs stay out here too, unless -a
            if row:
                rows.append(row)
    else:
        rows = [row for mount in MOUNTS if (row := _row(inv, mount, opts, units))]
    # df_main prints the header even when no row is left (-t of a type not mounted)
    header = ["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted on"]
    if not human:
        header[1] = "512-blocks" if units == 512 else "1024-blocks" if opts.get("P") else "1K-blocks"
        header[3] = "Available"
        if opts.get("P"):
            header[4] = "Capacity"
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(5)]
    widths[0] = max(widths[0], 14 + human)
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [row[i].rjust(widths[i]) for i in range(1, 5)] + [row[5]]
        inv.out(" ".join(cells) + "\n")
    return status


@command("mount")
def _mount(inv: Invocation) -> int:
    """Without arguments: the mounts from /proc/mounts.  Mounting needs root and a device the
    virtual phone does not have."""
    if inv.args:
        inv.err("mount: need root\n" if adbd_uid(inv.phone) else "mount: not modelled: the phone's mounts are fixed\n")
        return 1
    for m in MOUNTS:
        inv.out(f"{m.device} on {m.dir} type {m.type} ({m.options})\n")
    return 0

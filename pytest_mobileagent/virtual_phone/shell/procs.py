"""`ps` as Android 14's toybox prints it (toys/posix/ps.c), over the phone's process table.

Without a terminal (an `adb shell CMD` has none) toybox pads to no width
and never truncates (it forces -w); the default fields on Android are
`USER,PID,PPID,VSIZE:10,RSS,WCHAN:10,ADDR:10,S,NAME`; PID columns are as
wide as /proc/sys/kernel/pid_max has digits (32768: 5).  A field that
overflows its width borrows the slack of the fields after it (show_ps()).
Selections: -A/-e all, -p PID,... (extra arguments are more -p), -P PPID,
-u/-U USER; no selection means "processes on my terminal", which without a
terminal is every process that has none, i.e. all of them.
"""

from __future__ import annotations

import datetime as dt
import posixpath
from dataclasses import dataclass
from typing import Callable

from ..kernel.processes import CLOCK_TICKS, Process, _uptime_ticks, pid_stat, processes, user_name
from .builtins import toybox_options
from .interpreter import Invocation, UsageError, command

__all__ = ["format_ps"]

PID_WIDTH = 5


def _name(p: Process) -> str:
    return posixpath.basename(p.cmdline) if p.cmdline else f"[{p.comm}]"


def _args(p: Process) -> str:
    return " ".join((posixpath.basename(p.cmdline),) + p.args) if p.cmdline else f"[{p.comm}]"


def _time(p: Process, phone) -> str:
    fields = pid_stat(phone, p).split()
    seconds = (int(fields[13]) + int(fields[14])) // CLOCK_TICKS
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _started(p: Process, phone) -> dt.datetime:
    age_ms = (_uptime_ticks(phone) - p.start_ticks) * 1000 // CLOCK_TICKS
    return dt.datetime.fromtimestamp((phone.clock_ms() - age_ms) / 1000, dt.timezone.utc)


def _elapsed(p: Process, phone) -> str:
    seconds = max(0, _uptime_ticks(phone) - p.start_ticks) // CLOCK_TICKS
    hours, minutes = seconds // 3600, seconds // 60 % 60
    return f"{hours:02d}:{minutes:02d}:{seconds % 60:02d}" if hours else f"{minutes:02d}:{seconds % 60:02d}"


#: name -> (width: negative is left-justified, value). From typos[] in ps.c.
_FIELDS: dict[str, tuple[int, Callable]] = {
    "PID": (PID_WIDTH, lambda p, ph: str(p.pid)),
    "PPID": (PID_WIDTH, lambda p, ph: str(p.ppid)),
    "PRI": (3, lambda p, ph: "19"),
    "NI": (3, lambda p, ph: "0"),
    "ADDR": (12, lambda p, ph: "0"),
    "SZ": (5, lambda p, ph: str(p.vsz_kb // 4)),
    "RSS": (6, lambda p, ph: str(p.rss_kb)),
    "PGID": (5, lambda p, ph: str(p.pid if p.ppid in (0, 1) else p.ppid)),
    "VSZ": (7, lambda p, ph: str(p.vsz_kb)),
    "PSR": (3, lambda p, ph: str(p.pid % 4)),
    "CPU": (3, lambda p, ph: str(p.pid % 4)),
    "TID": (5, lambda p, ph: str(p.pid)),
    "TCNT": (4, lambda p, ph: "1"),
    "BIT": (3, lambda p, ph: "64" if p.cmdline and p.cmdline != "zygote" else ("32" if p.cmdline else "-")),
    "TTY": (-8, lambda p, ph: "?"),
    "WCHAN": (-6, lambda p, ph: p.wchan),
    "LABEL": (-30, lambda p, ph: p.label),
    "COMM": (-27, lambda p, ph: _name(p)),
    "NAME": (-27, lambda p, ph: _name(p)),
    "COMMAND": (-27, lambda p, ph: p.cmdline or f"[{p.comm}]"),
    "CMDLINE": (-27, lambda p, ph: " ".join((p.cmdline,) + p.args) if p.cmdline else f"[{p.comm}]"),
    "ARGS": (-27, lambda p, ph: _args(p)),
    "CMD": (-15, lambda p, ph: p.comm),
    "UID": (5, lambda p, ph: str(p.uid)),
    "USER": (-12, lambda p, ph: user_name(p.uid)),
    "GID": (8, lambda p, ph: str(p.uid)),
    "GROUP": (-8, lambda p, ph: user_name(p.uid)),
    "TIME": (8, _time),
    "S": (-1, lambda p, ph: p.state),
    "STAT": (-5, lambda p, ph: p.state + ("s" if p.ppid in (0, 1) else "")),
    "PCY": (3, lambda p, ph: "fg" if p.uid >= 10000 else "--"),
    "%CPU": (4, lambda p, ph: "0.0"),
    "STIME": (5, lambda p, ph: _started(p, ph).strftime("%H:%M")),
    "ELAPSED": (11, lambda p, ph: _elapsed(p, ph)),
    "C": (1, lambda p, ph: "0"),
}
#: The other names posix gives some fields (parse_ko()).
_ALIASES = {"NICE": "NI", "ETIME": "ELAPSED", "PCPU": "%CPU", "VSIZE": "VSZ", "UNAME": "USER"}
_ANDROID_DEFAULT = "USER,PID,PPID,VSIZE:10,RSS,WCHAN:10,ADDR:10,S,NAME"


@dataclass
class _Column:
    key: str
    title: str
    width: int


def _parse_fields(spec: str) -> list[_Column]:
    """`-o` FIELD[:width][=title],...; raises ValueError naming a bad field."""
    columns = []
    for item in spec.split(","):
        if not item:
            continue
        name, eq, title = item.partition("=")
        name, colon, width_text = name.partition(":")
        key = _ALIASES.get(name.upper(), name.upper())
        if key not in _FIELDS or (colon and not width_text.isdigit()):
            raise ValueError(item)
        default = _FIELDS[key][0]
        width = int(width_text) if colon else default
        if colon and default < 0:
            width = -width
        columns.append(_Column(key, title if eq else key, width))
    return columns


def format_ps(phone, columns: list[_Column], procs: list[Process]) -> str:
    """Header and rows as show_ps()/get_headers() print them to a pipe."""
    header = " ".join(f"{c.title:>{c.width}}" if c.width > 0 else f"{c.title:<{-c.width}}" for c in columns)
    lines = [header] if header.strip() else []  # all titles empty (`-o pid=`): no header
    for proc in procs:
        cells, extra = [], 0
        for index, column in enumerate(columns):
            text = _FIELDS[column.key][1](proc, phone)
            width, left = abs(column.width), column.width < 0
            if len(text) > width:  # -w: never truncate; remember the overflow
                extra += len(text) - width
                width = len(text)
            elif extra and len(text) < width:  # take the overflow back from this field's slack
                unused = min(width - len(text), extra)
                width -= unused
                extra -= unused
            if index == len(columns) - 1 and left:
                cells.append(text)
            else:
                cells.append(text.ljust(width) if left else text.rjust(width))
        lines.append(" ".join(cells))
    return "".join(line + "\n" for line in lines)


def _id_list(values: list[str], what: str) -> list[int]:
    out = []
    for value in ",".join(values).split(","):
        if not value:
            continue
        if not value.isdigit() or (what == "-p" and int(value) == 0):  # parse_rest: a PID can't be 0
            raise UsageError(f"bad {what} '{value}'")
        out.append(int(value))
    return out


#: toybox's help for ps (toys/posix/ps.c); every toybox command answers --help with its usage, exit 0.
#: Appium's driver reads it to learn that ps takes -A (appium-adb listProcessStatus: /^-A\b/m).
PS_HELP = """usage: ps [-AadefLlnwZ] [-gG GROUP,] [-k FIELD,] [-o FIELD,] [-p PID,] [-t TTY,] [-uU USER,]

List processes.

Which processes to show (-gGuUpPt selections may be comma separated lists):

-A\tAll\t\t\t\t\t-a\tHas terminal not session leader
-d\tAll but session leaders\t\t\t-e\tSynonym for -A
-g\tIn GROUPs\t\t\t\t-G\tIn real GROUPs (before sgid)
-p\tPIDs (--pid)\t\t\t\t-P\tParent PIDs (--ppid)
-s\tIn session IDs\t\t\t\t-t\tAttached to selected TTYs
-T\tShow threads also\t\t\t-u\tOwned by selected USERs
-U\tReal USERs (before suid)

Output modifiers:

-k\tSort FIELDs (-FIELD to reverse)\t\t-M\tMeasure/pad future field widths
-n\tShow numeric USER and GROUP\t\t-w\tWide output (don't truncate fields)

Which FIELDs to show. (-o HELP for list, default = -o PID,TTY,TIME,CMD)

-f\tFull listing (-o USER:12=UID,PID,PPID,C,STIME,TTY,TIME,ARGS=CMD)
-l\tLong listing (-o F,S,UID,PID,PPID,C,PRI,NI,ADDR,SZ,WCHAN,TTY,TIME,CMD)
-o\tOutput FIELDs instead of defaults, each with optional :size and =title
-O\tAdd FIELDS to defaults
-Z\tInclude LABEL
"""


@command("ps")
def _ps(inv: Invocation) -> int:
    if inv.args[:1] == ["--help"]:
        inv.out(PS_HELP)
        return 0
    flags, values, rest = toybox_options("ps", inv.args, "aAdeflMnTwZ", "opPuUkO",
                                         long={"pid": "p", "ppid": "P", "sort": "k"})
    opts = {k: values.get(k, []) for k in "opPuUkO"}
    try:
        spec = ",".join(opts["o"]) if opts["o"] else _ANDROID_DEFAULT
        if "f" in flags and not opts["o"]:
            spec = "USER:12=UID,PID,PPID,C,STIME,TTY,TIME,ARGS=CMD"
        columns = _parse_fields(("LABEL," if "Z" in flags else "") + spec)
        if opts["O"]:
            columns += _parse_fields(",".join(opts["O"]))
    except ValueError as exc:
        raise UsageError(f"bad -o '{exc}'") from None
    pids = _id_list(opts["p"] + rest, "-p")
    ppids = _id_list(opts["P"], "-P")
    users = {u for value in opts["u"] + opts["U"] for u in value.split(",") if u}
    table = processes(inv.phone)
    if pids or ppids or users:
        table = [p for p in table if p.pid in pids or p.ppid in ppids
                 or user_name(p.uid) in users or str(p.uid) in users]
    elif "a" in flags:
        table = []  # -a: processes with a terminal; nothing on the phone has one
    elif "d" in flags:
        table = [p for p in table if p.ppid not in (0, 1)]  # all but session leaders
    inv.out(format_ps(inv.phone, columns, table))
    return 0 if table else 1

"""`logcat`, `log` and `getevent`: the phone's log buffers and input devices.

logcat (system/logging/logcat/logcat.cpp, liblog logprint.cpp) reads logd's
buffers: `-d` dumps and exits, `-t N` dumps the last N lines and exits, `-T
N` prints the last N then follows; `-t`/`-T` with a time ('MM-DD
hh:mm:ss.mmm', 'YYYY-MM-DD hh:mm:ss.mmm' or 'sss.mmm', logcat.cpp parseTime
with liblog's log_time::strptime) start at the first line logged at or after
it; without them it prints what is there and
then follows the log until the client closes the stream (the shell holds
it as a foreground program, program.py).  `-B` writes each entry as logd
hands it to readers: a struct logger_entry (v4, 28 bytes; liblog
include/log/log_read.h) and its payload (priority byte, tag, NUL, message,
NUL), unfiltered by filterspecs and without dividers, as Logcat::Run
writes log_msg.  `-c` clears the selected buffers,
`-b` selects buffers (main,system,crash by default; `all`), `-v` picks the
format (brief, process, tag, thread, raw, time, threadtime, long) and
filterspecs `TAG:PRIO` / `-s` select lines (`*:S` silences the rest).
A divider ("--------- beginning of main") starts each buffer's first line
when more than one buffer is read (maybePrintStart()); -D adds "switch to"
lines at each change.

getevent (system/core/toolbox/getevent.c) lists the phone's input devices
(`-p` with their event bits and axis ranges, `-l` with labels) and then
streams events from them until the client closes the stream.  Input sent
with `input tap` is injected through InputManager, not through a kernel
device, so on Android getevent does not see it, and neither does it here.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import struct
import weakref

from ..kernel.logbuffer import BUFFERS, DEFAULT_BUFFERS, LogEntry
from ..kernel.processes import EXTRA_PROCESSES, Process, adbd_label, adbd_uid
from .interpreter import Invocation, UsageError, command
from .program import Program, track

__all__ = ["format_entry"]

#: phone -> {pid: argv} of the logcat/getevent programs shells keep running (listed by ps)
_RUNNING: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _start_program(inv: Invocation, argv: list[str]):
    """A Program for this command, shown in `ps` while it runs (as the process it is)."""
    program = Program(inv.phone, argv[0])
    key = f"{argv[0]}#{id(program)}"
    pid = inv.phone.pid_of(key)
    running = _RUNNING.setdefault(inv.phone, {})
    running[pid] = argv
    track(inv.phone, pid, program)

    def gone() -> None:
        running.pop(pid, None)
        inv.phone.forget_pid(key)
    program.at_exit(gone)
    return program


def _running_processes(phone) -> list:
    # run by the shell adbd started, with its uid (0 after `adb root`)
    return [Process(pid, phone.shell_pid, adbd_uid(phone), argv[0], argv[0][:15], 10_830_000, 4_100, "do_sys_poll",
                    "S", adbd_label(phone), args=tuple(argv[1:])) for pid, argv in _RUNNING.get(phone, {}).items()]


EXTRA_PROCESSES.append(_running_processes)

_PRIORITIES = "VDIWEFS"
#: android_LogPriority: ANDROID_LOG_VERBOSE (2) ... ANDROID_LOG_FATAL (7)
_PRIORITY_VALUES = {"V": 2, "D": 3, "I": 4, "W": 5, "E": 6, "F": 7}
#: struct logger_entry (log_read.h): len, hdr_size, pid, tid, sec, nsec, lid, uid
_LOGGER_ENTRY = struct.Struct("<HHiIIIII")
#: LOGGER_ENTRY_MAX_PAYLOAD: logd keeps at most this much of one entry's payload
MAX_PAYLOAD = 4068
_FORMATS = ("brief", "process", "tag", "thread", "raw", "time", "threadtime", "long")
_MODIFIERS = ("color", "descriptive", "epoch", "monotonic", "printable", "uid", "usec", "UTC", "year", "zone",
              "nsec")


def _timestamp(entry: LogEntry, modifiers: set[str], boot_wall_ms: int) -> str:
    if "epoch" in modifiers:
        seconds, millis = divmod(entry.time_ms, 1000)
        text = f"{seconds:>5}.{millis:03d}"
    elif "monotonic" in modifiers:
        # CLOCK_MONOTONIC's seconds (logd's LogBuffer keeps both: log_time and its monotonic
        # twin); the phone never deep-sleeps, so it is the time since boot (kernel/clock.py)
        seconds, millis = divmod(max(0, entry.time_ms - boot_wall_ms), 1000)
        text = f"{seconds:>5}.{millis:03d}"
    else:
        when = dt.datetime.fromtimestamp(entry.time_ms / 1000, dt.timezone.utc)
        text = when.strftime("%Y-%m-%d %H:%M:%S" if "year" in modifiers else "%m-%d %H:%M:%S")
        text += f".{entry.time_ms % 1000:03d}"
    if "usec" in modifiers:
        text += "000"
    if "zone" in modifiers:
        text += " +0000"
    return text


def format_entry(entry: LogEntry, fmt: str = "threadtime", modifiers: frozenset[str] = frozenset(),
                 boot_wall_ms: int = 0) -> str:
    """One entry as android_log_formatLogLine() prints it (one line per message line)."""
    p, tag = entry.priority, entry.tag
    pid = f"{entry.uid:>5}:{entry.pid:5d}" if "uid" in modifiers else f"{entry.pid:5d}"
    if fmt == "long":
        return (f"[ {_timestamp(entry, set(modifiers), boot_wall_ms)} {pid}:{entry.tid:5d} {p}/{tag:<8} ]\n"
                f"{entry.message}\n\n")
    lines = []
    for message in entry.message.split("\n"):
        if fmt == "brief":
            line = f"{p}/{tag:<8}({pid}): {message}"
        elif fmt == "process":
            line = f"{p}({pid}) {message}  ({tag})"
        elif fmt == "tag":
            line = f"{p}/{tag:<8}: {message}"
        elif fmt == "thread":
            line = f"{p}({pid}:{entry.tid:5d}) {message}"
        elif fmt == "raw":
            line = message
        elif fmt == "time":
            line = f"{_timestamp(entry, set(modifiers), boot_wall_ms)} {p}/{tag:<8}({pid}): {message}"
        else:  # threadtime
            line = f"{_timestamp(entry, set(modifiers), boot_wall_ms)} {pid} {entry.tid:5d} {p} {tag:<8}: {message}"
        lines.append(line + "\n")
    return "".join(lines)


def binary_entry(entry: LogEntry) -> bytes:
    """One entry as `logcat -B` writes it: struct logger_entry (v4) and its payload."""
    tag = entry.tag.encode()
    payload = bytes([_PRIORITY_VALUES.get(entry.priority, 4)]) + tag + b"\0" + entry.message.encode() + b"\0"
    if len(payload) > MAX_PAYLOAD:
        payload = payload[:MAX_PAYLOAD - 1] + b"\0"
    seconds, millis = divmod(entry.time_ms, 1000)
    header = _LOGGER_ENTRY.pack(len(payload), _LOGGER_ENTRY.size, entry.pid, entry.tid, seconds, millis * 1_000_000,
                                BUFFERS.index(entry.buffer), entry.uid)
    return header + payload


_DATE_FORMATS = (
    # logcat.cpp parseTime's three formats, tried in order; %q is up to 9 fraction digits
    re.compile(r"(?P<mon>\d{1,2})-(?P<day>\d{1,2}) (?P<h>\d{1,2}):(?P<m>\d{1,2}):(?P<s>\d{1,2})\.(?P<frac>\d{0,9})"),
    re.compile(r"(?P<year>\d{4})-(?P<mon>\d{1,2})-(?P<day>\d{1,2}) (?P<h>\d{1,2}):(?P<m>\d{1,2}):(?P<s>\d{1,2})"
               r"\.(?P<frac>\d{0,9})"),
    re.compile(r"(?P<epoch>\d+)\.(?P<frac>\d{0,9})"),
)


def parse_log_time(text: str, now_ms: int) -> tuple[int, str] | None:
    """A -t/-T time as (nanoseconds since the epoch, the unparsed rest), or None when no format fits.

    log_time::strptime starts from the current time (the phone's; its zone is UTC), so a time
    without a year is in the current year.
    """
    now = dt.datetime.fromtimestamp(now_ms / 1000, dt.timezone.utc)
    for pattern in _DATE_FORMATS:
        match = pattern.match(text)
        if match is None:
            continue
        parts = match.groupdict()
        nanos = int((parts["frac"] or "0").ljust(9, "0"))
        if parts.get("epoch") is not None:
            seconds = int(parts["epoch"])
        else:
            try:
                when = dt.datetime(int(parts.get("year") or now.year), int(parts["mon"]), int(parts["day"]),
                                   int(parts["h"]), int(parts["m"]), int(parts["s"]))
            except ValueError:
                continue  # strptime refuses a month 13 or an hour 25
            seconds = calendar.timegm(when.timetuple())
        return seconds * 1_000_000_000 + nanos, text[match.end():]
    return None


class _Filter:
    """Filterspecs `TAG:PRIO` (android_log_addFilterString): the default is `*:V`."""

    def __init__(self, specs: list[str]):
        self.default = "V"
        self.tags: dict[str, str] = {}
        for spec in specs:
            tag, _, prio = spec.partition(":")
            prio = (prio or "V").upper()[:1]
            if prio not in _PRIORITIES:
                raise ValueError(spec)
            if tag == "*":
                self.default = prio
            else:
                self.tags[tag] = prio

    def allows(self, entry: LogEntry) -> bool:
        minimum = self.tags.get(entry.tag, self.default)
        return _PRIORITIES.index(entry.priority) >= _PRIORITIES.index(minimum) and minimum != "S"


def _buffers(values: list[str]) -> list[str]:
    chosen: list[str] = []
    for value in values:
        for name in value.split(","):
            if name == "all":
                chosen += [b for b in BUFFERS if b not in chosen]
            elif name == "default":
                chosen += [b for b in DEFAULT_BUFFERS if b not in chosen]
            elif name in BUFFERS:
                if name not in chosen:
                    chosen.append(name)
            else:
                raise UsageError(f"Unknown buffer '{name}' listed for -b.")
    return chosen or list(DEFAULT_BUFFERS)


@command("logcat")
def _logcat(inv: Invocation) -> int:
    args = list(inv.args)
    buffers: list[str] = []
    fmt, modifiers = "threadtime", set()
    clear = dump = silent = False
    tail: int | None = None
    since_ns: int | None = None  # -t/-T with a time
    got_t = binary = False  # got_t: a -t was given (logcat.cpp: it implies -d)
    max_count: int | None = None
    pid: int | None = None
    regex = None
    specs: list[str] = []
    size_query = dividers = False
    while args:
        arg = args.pop(0)

        def value() -> str:
            if "=" in arg and arg.startswith("--"):
                return arg.split("=", 1)[1]
            if len(arg) > 2 and not arg.startswith("--"):
                return arg[2:]
            if not args:
                raise UsageError(f"option '{arg}' requires an argument", 255)
            return args.pop(0)

        if arg in ("-c", "--clear"):
            clear = True
        elif arg in ("-d",):
            dump = True
        elif arg in ("-s",):
            silent = True
        elif arg in ("-g", "--buffer-size"):
            size_query = True
        elif arg.startswith("-b") or arg.startswith("--buffer"):
            buffers.append(value())
        elif arg.startswith("-v") or arg.startswith("--format"):
            for word in re.split(r"[ ,]+", value()):
                if word in _FORMATS:
                    fmt = word
                elif word in _MODIFIERS:
                    modifiers.add(word)
                elif word:
                    inv.err(f"logcat: Invalid parameter '{word}' to -v.\n")
                    return 1
        elif arg.startswith("-t") or arg.startswith("-T") or arg.startswith("--tail"):
            letter = "T" if arg.startswith("-T") else "t"
            text = value()
            got_t = got_t or letter == "t"
            if text and text.isdigit() and text.isascii():
                tail = int(text)  # a time given too wins (Run: tail_time before tail_lines)
                if tail < 1:
                    inv.err(f"WARNING: -{letter} {text} invalid, setting to 1\n")
                    tail = 1
            else:
                parsed = parse_log_time(text, inv.phone.clock_ms())
                if parsed is None:
                    inv.err(f"logcat: -{letter} '{text}' not in time format.\n")
                    return 1
                since_ns, rest = parsed
                if rest:
                    inv.err(f"WARNING: -{letter} '{text[:len(text) - len(rest)]}' '{rest}' time truncated\n")
        elif arg.startswith("-m") or arg.startswith("--max-count"):
            max_count = int(value())
        elif arg.startswith("--pid"):
            pid = int(value())
        elif arg.startswith("-e") or arg.startswith("--regex"):
            regex = re.compile(value())
        elif arg in ("-D", "--dividers"):
            dividers = True
        elif arg in ("-B", "--binary"):
            binary = True
        elif arg.startswith("-"):
            inv.err(f"logcat: invalid option -- '{arg.lstrip('-')[:1]}'\n"
                    "usage: logcat [options] [filterspecs]\n")
            return 255
        else:
            specs.append(arg)
    if max_count is not None and got_t:
        inv.err("logcat: Cannot use -m (--max-count) and -t together.\n")
        return 1
    selected = _buffers(buffers)
    log = inv.phone.logs
    if clear:
        log.clear(selected)
        return 0
    if size_query:
        for name in selected:
            used = log.size(name)
            inv.out(f"{name}: ring buffer is 256 KiB ({used // 1024} KiB consumed), "
                    "max entry is 5120 B, max payload is 4068 B\n")
        return 0
    if not specs:  # `adb logcat` exports ANDROID_LOG_TAGS for logcat to read (logcat.cpp)
        env_tags = inv.env.get("ANDROID_LOG_TAGS", inv.session.vars.get("ANDROID_LOG_TAGS", ""))
        specs = env_tags.replace("'", "").split()
    try:
        chooser = _Filter((["*:S"] if silent else []) + specs)
    except ValueError as exc:
        inv.err(f"logcat: Invalid filter expression '{exc}'.\n")
        return 1
    boot_wall_ms = inv.phone.clock.boot_wall_ms
    frozen = frozenset(modifiers)

    def wanted(entry: LogEntry) -> bool:
        return (chooser.allows(entry) and (pid is None or entry.pid == pid)
                and (regex is None or regex.search(entry.message) is not None))

    state = {"device": None, "seen": set(), "count": 0}

    def render(entry: LogEntry) -> str:
        text = ""
        # maybePrintStart(): "beginning of" once per buffer; "switch to" only with -D
        first = entry.buffer not in state["seen"]
        if len(selected) > 1 and (first or (dividers and state["device"] != entry.buffer)):
            text += f"--------- {'beginning of' if first else 'switch to'} {entry.buffer}\n"
        state["seen"].add(entry.buffer)
        state["device"] = entry.buffer
        state["count"] += 1
        return text + format_entry(entry, fmt, frozen, boot_wall_ms)

    def logd_sends(entry: LogEntry) -> bool:
        # logd's own selection (pid, start time); filterspecs and -e are logcat's, on text only
        return ((pid is None or entry.pid == pid)
                and (since_ns is None or entry.time_ms * 1_000_000 >= since_ns))

    def shown(entry: LogEntry) -> bool:
        # Logcat::Run with -B writes each log_msg as read: ProcessBuffer (filterspecs, -e) is skipped
        return logd_sends(entry) and (binary or wanted(entry))

    def output(entry: LogEntry) -> bytes | str:
        return binary_entry(entry) if binary else render(entry)

    if binary:
        max_count = None  # print_count_ only grows in ProcessBuffer: -m never ends a binary read
    backlog = [e for e in log.entries(selected) if shown(e)]
    if tail is not None and since_ns is None:
        backlog = backlog[-tail:]
    if max_count is not None:
        backlog = backlog[:max_count]
    rendered = [output(e) for e in backlog]
    inv.out(b"".join(rendered) if binary else "".join(rendered))
    if dump or got_t or (max_count is not None and state["count"] >= max_count):
        return 0
    # Follow the log until the client hangs up (or -m lines were printed).
    program = _start_program(inv, ["logcat"] + list(inv.args))

    def on_entry(entry: LogEntry) -> None:
        if program.running and entry.buffer in selected and shown(entry):
            program.print(output(entry))
            if max_count is not None and state["count"] >= max_count:
                program.exit(0)

    program.at_exit(log.follow(on_entry))
    inv.session.hold(program)
    return 0


@command("log")
def _log(inv: Invocation) -> int:
    """toybox log: `log [-b BUFFER] [-p PRI] [-t TAG] MESSAGE...` writes one line to logd."""
    args = list(inv.args)
    tag, priority, buffer = "log", "I", "main"
    while args and args[0].startswith("-") and len(args[0]) > 1:
        opt = args.pop(0)
        if opt not in ("-t", "-p", "-b") or not args:
            raise UsageError(f"Unknown option '{opt.lstrip('-')[:1]}'" if opt not in ("-t", "-p", "-b")
                             else f"Needs 1 argument -- {opt[1]}")
        value = args.pop(0)
        if opt == "-t":
            tag = value
        elif opt == "-b":
            if value not in BUFFERS:
                raise UsageError(f"unknown buffer '{value}'")
            buffer = value
        else:
            letter = value[:1].upper()
            if letter not in "VDIWEF" or not value:
                raise UsageError(f"bad -p '{value}'")
            priority = letter
    if not args:
        raise UsageError("Needs 1 argument")
    inv.phone.logs.write(tag, " ".join(args), priority=priority, pid=inv.phone.shell_pid + 1,
                         uid=adbd_uid(inv.phone), buffer=buffer)
    return 0


# -- getevent --------------------------------------------------------------------------------------
def _devices(phone) -> list[dict]:
    """The phone's input devices: its touchscreen and its buttons, as an emulator has them."""
    w, h = phone.system.width, phone.system.height
    return [
        {"path": "/dev/input/event1", "name": "virtio_input_multi_touch_1", "bus": 6, "vendor": 0x1af4,
         "product": 0x1052, "props": ["INPUT_PROP_DIRECT"],
         "events": [("KEY", 1, [(0x14a, "BTN_TOUCH")]),
                    ("ABS", 3, [(0x2f, "ABS_MT_SLOT", 0, 9), (0x30, "ABS_MT_TOUCH_MAJOR", 0, 2147483647),
                                (0x35, "ABS_MT_POSITION_X", 0, w - 1), (0x36, "ABS_MT_POSITION_Y", 0, h - 1),
                                (0x39, "ABS_MT_TRACKING_ID", 0, 65535), (0x3a, "ABS_MT_PRESSURE", 0, 65535)])]},
        {"path": "/dev/input/event0", "name": "virtio_input_keyboard", "bus": 6, "vendor": 0x1af4,
         "product": 0x1052, "props": [],
         "events": [("KEY", 1, [(0x66, "KEY_HOME"), (0x72, "KEY_VOLUMEDOWN"), (0x73, "KEY_VOLUMEUP"),
                                (0x74, "KEY_POWER"), (0x9e, "KEY_BACK"), (0xd4, "KEY_CAMERA")])]},
    ]


def _possible_events(device: dict, labels: bool) -> str:
    out = ["  events:\n"]
    for label, ev_type, codes in device["events"]:
        count = 0
        line = ""
        for code in codes:
            number, name = code[0], code[1]
            if count == 0:
                line += f"    {label} ({ev_type:04x}):"
            elif (count & (0x3 if labels else 0x7)) == 0 or label == "ABS":
                line += "\n               "
            line += f" {name:<20.20} " if labels else f" {number:04x} "
            if label == "ABS":
                line += f" : value 0, min {code[2]}, max {code[3]}, fuzz 0, flat 0, resolution 0"
            count += 1
        out.append(line + "\n")
    out.append("  input props:\n")
    out += [f"    {prop}\n" for prop in device["props"]] or ["    <none>\n"]
    return "".join(out)


@command("getevent")
def _getevent(inv: Invocation) -> int:
    flags, args = set(), list(inv.args)
    count = 0
    device_arg = None
    while args:
        arg = args.pop(0)
        if arg.startswith("-") and len(arg) > 1:
            for i, flag in enumerate(arg[1:]):
                if flag == "c":
                    value = arg[i + 2:] or (args.pop(0) if args else "0")
                    count = int(value) if value.isdigit() else 0
                    break
                if flag not in "tnSdpilqr":
                    inv.err(f"getevent: invalid option -{flag}\n"
                            "Usage: getevent [-t] [-n] [-s switchmask] [-S] [-v [mask]] [-d] [-p] [-i] [-l] "
                            "[-q] [-c count] [-r] [device]\n")
                    return 1
                flags.add(flag)
        elif device_arg is None:
            device_arg = arg
        else:
            inv.err("Usage: getevent [-t] [-n] [-s switchmask] [-S] [-v [mask]] [-d] [-p] [-i] [-l] [-q] "
                    "[-c count] [-r] [device]\n")
            return 1
    devices = _devices(inv.phone)
    if device_arg is not None:
        devices = [d for d in devices if d["path"] == device_arg]
        if not devices:
            inv.err(f"could not open {device_arg}, No such file or directory\n")
            return 1
    info = bool(flags & {"p", "i"})
    for number, device in enumerate(devices, start=1):
        if device_arg is None or info:
            inv.out(f"add device {number}: {device['path']}\n")
        if "i" in flags:
            inv.out(f"  bus:      {device['bus']:04x}\n  vendor    {device['vendor']:04x}\n"
                    f"  product   {device['product']:04x}\n  version   0001\n")
        if device_arg is None or info:
            inv.out(f"  name:     \"{device['name']}\"\n")
        if "i" in flags:
            inv.out("  location: \"\"\n  id:       \"\"\n  version:  1.0.1\n")
        if info:
            inv.out(_possible_events(device, "l" in flags))
    if info and not count:
        return 0  # -p / -i print and exit (dont_block)
    # Stream events until the client closes the stream: nothing writes to these
    # devices (adb input is injected above them), so none arrive.
    inv.session.hold(_start_program(inv, ["getevent"] + list(inv.args)))
    return 0

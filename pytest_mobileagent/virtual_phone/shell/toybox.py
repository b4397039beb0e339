"""`toybox` (Android's multiplexer) and the text applets clients pipe through.

`toybox NAME ARGS` runs the applet NAME (uiautomator2 calls `toybox md5sum
FILE`); `toybox` alone lists the applets, wrapped as toybox_main() does;
an unknown name is "toybox: Unknown command NAME (see "toybox --help")",
exit 127 (main.c unknown() -> help_exit()).  The applets follow toybox's
toys/posix and toys/other sources: cut, md5sum/sha*sum, sort, uniq, xargs,
find, stat, printf, basename, dirname, tr, tee, seq, env, nproc, uname,
readlink, realpath, test/[.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import hashlib
import posixpath
import re
import shlex
import stat as st

from ..kernel.fs import FsError
from ..kernel.processes import CPU_COUNT, user_name
from ..kernel.storage import FS_MAGIC, MOUNTS, mount_of, statfs
from .builtins import parse_flags
from .fileutils import _mode_string
from .interpreter import COMMANDS, Invocation, UsageError, command

__all__ = ["TOYBOX_APPLETS"]

#: Android 14's toybox symlinks (external/toybox Android.bp); `toybox NAME` runs those
#: of them the phone implements.
TOYBOX_APPLETS = frozenset("""
acpi base64 basename blkdiscard blkid blockdev cal cat chattr chcon chgrp chmod chown chroot chrt cksum
clear cmp comm cp cpio cut date dd devmem df diff dirname dmesg dos2unix du echo egrep env expand expr
fallocate false fgrep file find flock fmt free freeramdisk fsfreeze fsync getconf getenforce getfattr getopt
grep groups gunzip gzip head hostname hwclock i2cdetect i2cdump i2cget i2cset iconv id ifconfig inotifyd
insmod install ionice iorenice iotop kill killall ln load_policy log logname losetup ls lsattr lsmod lsof
lspci lsusb makedevs md5sum microcom mkdir mkfifo mknod mkswap mktemp modinfo modprobe more mount
mountpoint mv nbd-client nc netcat netstat nice nl nohup nproc nsenter od paste patch pgrep pidof pkill
pmap printenv printf prlimit ps pwd pwdx readelf readlink realpath renice restorecon rev rfkill rm rmdir
rmmod rtcwake runcon sed sendevent seq setenforce setfattr setsid sha1sum sha224sum sha256sum sha384sum
sha512sum sleep sort split stat strings stty swapoff swapon sync sysctl tac tail tar taskset tee test time
timeout top touch tr traceroute traceroute6 true truncate tty tunctl uclampset ulimit umount uname uniq
unix2dos unlink unshare uptime usleep uudecode uuencode uuidgen vconfig watch wc which whoami xargs xxd
yes zcat
""".split())


@command("toybox")
def _toybox(inv: Invocation) -> int:
    if inv.args and not inv.args[0].startswith("-"):
        name = inv.args[0]
        impl = COMMANDS.get(name) if name in TOYBOX_APPLETS else None
        if impl is None:
            inv.err(f'toybox: Unknown command {name} (see "toybox --help")\n')
            return 127
        inv.name, inv.args = name, inv.args[1:]
        return impl(inv)
    line_len, out = 0, []
    for name in sorted(TOYBOX_APPLETS & COMMANDS.keys()):
        out.append(name)
        line_len += len(name) + 1
        if line_len > 65:
            out.append("\n")
            line_len = 0
        else:
            out.append(" ")
    inv.out("".join(out) + "\n")
    return 0


def _read_inputs(inv: Invocation, files: list[str]):
    """(name, bytes or None after printing the error) for each file, stdin for none or `-`."""
    for name in files or ["-"]:
        if name == "-":
            yield name, inv.stdin
            continue
        try:
            if inv.fs.isdir(name, inv.cwd):
                inv.fail(f"{name}: Is a directory")
                yield name, None
                continue
            yield name, inv.fs.read_file(name, inv.cwd)
        except FsError as exc:
            inv.fail(f"{name}: {exc.strerror}")
            yield name, None


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n") if data else []


# -- checksums ---------------------------------------------------------------------------------
def _hash_command(algorithm: str):
    def run(inv: Invocation) -> int:
        opts, files = parse_flags(inv.args, "bc")
        if opts.get("c"):
            return _hash_check(inv, algorithm, files)
        status = 0
        for name, data in _read_inputs(inv, files):
            if data is None:
                status = 1
                continue
            digest = hashlib.new(algorithm, data).hexdigest()
            inv.out(digest + "\n" if opts.get("b") else f"{digest}  {name}\n")
        return status
    return run


def _hash_check(inv: Invocation, algorithm: str, files: list[str]) -> int:
    status = 0
    for _name, data in _read_inputs(inv, files):
        if data is None:
            status = 1
            continue
        for line in _lines(data):
            digest, _, path = line.decode("utf-8", "surrogateescape").partition("  ")
            try:
                ok = hashlib.new(algorithm, inv.fs.read_file(path, inv.cwd)).hexdigest() == digest.lower()
            except FsError as exc:
                inv.fail(f"{path}: {exc.strerror}")
                status = 1
                continue
            inv.out(f"{path}: {'OK' if ok else 'FAILED'}\n")
            status |= not ok
    return status


for _algo in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512"):
    command(f"{_algo}sum")(_hash_command(_algo))


# -- cut -----------------------------------------------------------------------------------------
def _ranges(spec: str) -> list[tuple[int, int]]:
    out = []
    for part in spec.split(","):
        m = re.fullmatch(r"(\d*)(-?)(\d*)", part)
        if not part or not m or (not m.group(1) and not m.group(3)):
            raise UsageError(f"bad list value '{part}'")
        start = int(m.group(1)) if m.group(1) else 1
        end = (int(m.group(3)) if m.group(3) else 1 << 30) if m.group(2) else start
        if start < 1:
            raise UsageError(f"bad list value '{part}'")
        out.append((start, end))
    return out


def _selected(count: int, ranges: list[tuple[int, int]]) -> list[int]:
    return [i for i in range(count) if any(a <= i + 1 <= b for a, b in ranges)]


@command("cut")
def _cut(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "snD", "bcfd")
    modes = [m for m in "bcf" if m in opts]
    if len(modes) != 1:
        raise UsageError("Needs -bcf" if not modes else "No 'b' with 'c'")
    mode = modes[0]
    ranges = _ranges(str(opts[mode]))
    delim = str(opts.get("d", "\t"))
    if len(delim) != 1 and mode == "f":
        raise UsageError("bad -d")
    status = 0
    for _name, data in _read_inputs(inv, files):
        if data is None:
            status = 1
            continue
        for raw in _lines(data):
            line = raw.decode("utf-8", "surrogateescape")
            if mode == "f":
                if delim not in line:
                    if not opts.get("s"):
                        inv.out(line + "\n")
                    continue
                fields = line.split(delim)
                inv.out(delim.join(fields[i] for i in _selected(len(fields), ranges)) + "\n")
            elif mode == "c":
                inv.out("".join(line[i] for i in _selected(len(line), ranges)) + "\n")
            else:
                inv.out(bytes(raw[i] for i in _selected(len(raw), ranges)) + b"\n")
    return status


# -- sort / uniq -------------------------------------------------------------------------------------
def _numeric_prefix(text: str) -> float:
    m = re.match(r"\s*(-?\d+(?:\.\d*)?|-?\.\d+)", text)
    return float(m.group(1)) if m else 0.0


@command("sort")
def _sort(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "nrufbsch", "tko")
    lines: list[str] = []
    status = 0
    for _name, data in _read_inputs(inv, files):
        if data is None:
            status = 2
            continue
        lines += [line.decode("utf-8", "surrogateescape") for line in _lines(data)]
    sep = opts.get("t")
    key_spec = opts.get("k")

    def key_text(line: str) -> str:
        if not key_spec:
            return line
        m = re.fullmatch(r"(\d+)(?:\.\d+)?[a-z]*(?:,(\d+)(?:\.\d+)?[a-z]*)?", str(key_spec))
        if not m:
            raise UsageError(f"bad -k '{key_spec}'")
        start, end = int(m.group(1)), int(m.group(2)) if m.group(2) else None
        fields = line.split(sep) if sep else re.findall(r"\s*\S+", line)
        chosen = fields[start - 1:end] if end else fields[start - 1:]
        return (sep or "").join(chosen)

    def key(line: str):
        text = key_text(line)
        if opts.get("f"):
            text = text.upper()
        if opts.get("n"):
            return (_numeric_prefix(text), line)
        return (text.encode("utf-8", "surrogateescape"), line.encode("utf-8", "surrogateescape"))

    if opts.get("c"):
        for previous, current in zip(lines, lines[1:]):
            if key(current) < key(previous):
                inv.err(f"sort: -:{lines.index(current) + 1}: disorder: {current}\n")
                return 1
        return status
    ordered = sorted(lines, key=key, reverse=bool(opts.get("r")))
    if opts.get("u"):
        unique, seen = [], set()
        for line in ordered:
            k = key(line)[0]
            if k not in seen:
                seen.add(k)
                unique.append(line)
        ordered = unique
    text = "".join(line + "\n" for line in ordered)
    if "o" in opts:
        inv.fs.write_file(str(opts["o"]), text.encode("utf-8", "surrogateescape"), inv.cwd)
    else:
        inv.out(text)
    return status


@command("uniq")
def _uniq(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "cduiz", "fs")
    if len(files) > 2:
        raise UsageError("Max 2 arguments")
    data = next(iter(_read_inputs(inv, files[:1])))[1]
    if data is None:
        return 1
    groups: list[list[str]] = []
    for raw in _lines(data):
        line = raw.decode("utf-8", "surrogateescape")
        same = groups and (groups[-1][0].lower() == line.lower() if opts.get("i") else groups[-1][0] == line)
        if same:
            groups[-1].append(line)
        else:
            groups.append([line])
    out = []
    for group in groups:
        if (opts.get("d") and len(group) < 2) or (opts.get("u") and len(group) > 1):
            continue
        out.append((f"{len(group):7d} " if opts.get("c") else "") + group[0] + "\n")
    text = "".join(out).encode("utf-8", "surrogateescape")
    if len(files) == 2:
        inv.fs.write_file(files[1], text, inv.cwd)
    else:
        inv.out(text)
    return 0


# -- xargs -------------------------------------------------------------------------------------------
@command("xargs")
def _xargs(inv: Invocation) -> int:
    opts, cmd = parse_flags(inv.args, "0prtx", "nIsLE")
    text = inv.stdin.decode("utf-8", "surrogateescape")
    if opts.get("0"):
        items = [item for item in text.split("\0") if item]
    elif "I" in opts:
        items = [line for line in text.split("\n") if line.strip()]
    else:
        try:
            items = shlex.split(text, posix=True)
        except ValueError:
            raise UsageError("unterminated quote") from None
    cmd = cmd or ["echo"]
    if "I" in opts:
        batches = [[arg.replace(str(opts["I"]), item) for arg in cmd] for item in items]
    else:
        size = int(opts["n"]) if "n" in opts else max(1, len(items))
        chunks = [items[i:i + size] for i in range(0, len(items), size)] or ([[]] if not opts.get("r") else [])
        batches = [cmd + chunk for chunk in chunks]
    status = 0
    for words in batches:
        code = inv.session._call(words, b"", inv._out, inv._err)
        if code == 127:
            return 127
        if code == 255:
            inv.err(f"xargs: {words[0]}: exited with status 255; aborting\n")
            return 124
        if code:
            status = 123
    return status


# -- find: shell/find.py (the whole expression language: ! -o ( ) -prune) ---------------------------


# -- stat --------------------------------------------------------------------------------------------
_TYPE_NAMES = {st.S_IFREG: "regular file", st.S_IFDIR: "directory", st.S_IFLNK: "symbolic link",
               st.S_IFCHR: "character special file", st.S_IFIFO: "fifo", st.S_IFSOCK: "socket"}
_STAT_DEFAULT = ("  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t%F\n"
                 "Device: %Dh/%dd\t Inode: %i\t Links: %h\t Device type: %t,%T\n"
                 "Access: (%04a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\n"
                 "Access: %x\nModify: %y\nChange: %z\n")


def _stat_time(seconds: int) -> str:
    when = dt.datetime.fromtimestamp(seconds, dt.timezone.utc)
    return when.strftime("%Y-%m-%d %H:%M:%S.000000000 +0000")


def _stat_field(inv: Invocation, path: str, info, spec: str, width: str) -> str:
    kind = st.S_IFMT(info.mode)
    name = _TYPE_NAMES.get(kind, "weird file")
    if kind == st.S_IFREG and not info.size:
        name = "regular empty file"
    values = {
        "n": path, "N": path + (f" -> {inv.fs.readlink(path, inv.cwd)}" if kind == st.S_IFLNK else ""),
        "s": str(info.size), "b": str((info.size + 511) // 512), "B": "512", "F": name,
        "a": f"{st.S_IMODE(info.mode):o}", "A": _mode_string(info.mode), "u": str(info.uid),
        "U": user_name(info.uid) if info.uid != 1015 else "sdcard_rw", "g": str(info.gid),
        "G": {1015: "sdcard_rw", 9997: "everybody"}.get(info.gid, user_name(info.gid)),
        "i": str(info.ino), "h": str(info.nlink), "x": _stat_time(info.mtime), "y": _stat_time(info.mtime),
        "z": _stat_time(info.mtime), "X": str(info.mtime), "Y": str(info.mtime), "Z": str(info.mtime),
        "D": "fd05", "d": "64773", "t": "0", "T": "0", "f": f"{info.mode:x}", "o": "4096",
    }
    if spec not in values:
        raise UsageError(f"bad -c '%{spec}'")
    value = values[spec]
    if width.startswith("-"):
        value = value.ljust(int(width[1:] or 0))
    elif width:
        value = value.rjust(int(width), "0" if width.startswith("0") else " ")
    return value


#: toybox 0.8.9 stat.c stat_main: -f's default format (the Inodes line is left out below: the
#: virtual file system keeps no inode table to count)
_STATFS_DEFAULT = ("  File: \"%n\"\n    ID: %i Namelen: %l    Type: %T\n"
                   "Block Size: %s    Fundamental block size: %S\n"
                   "Blocks: Total: %b\tFree: %f\tAvailable: %a\n")
#: lib/portability.c fs_type_name: the names toybox knows for an f_type, else its hex
_FS_TYPE_NAMES = {0xEF53: "ext3", 0x01021994: "tmpfs", 0x9FA0: "proc", 0x62656572: "sysfs"}


def _statfs_field(inv: Invocation, path: str, spec: str) -> str:
    """stat -f's escapes (print_statfs) from the kernel's statfs of the file's mount (storage.py)."""
    mount = mount_of(inv.fs, path, inv.cwd)
    info = statfs(inv.fs, mount)
    magic = FS_MAGIC.get(mount.type, 0)
    values = {"n": path, "a": str(info.bavail), "b": str(info.blocks), "f": str(info.bfree), "l": "255",
              "t": f"{magic:x}", "T": _FS_TYPE_NAMES.get(magic, f"0x{magic:x}"), "s": str(info.bsize),
              "S": str(info.bsize), "i": f"{MOUNTS.index(mount):08x}{0:08x}"}
    if spec not in values:
        raise UsageError(f"bad -c '%{spec}'")
    return values[spec]


@command("stat")
def _stat(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "fLt", "c")
    if not files:
        raise UsageError("Needs 1 argument")
    if opts.get("f"):
        fmt = str(opts["c"]) + "\n" if "c" in opts else _STATFS_DEFAULT
        status = 0
        for path in files:
            try:
                out = re.sub(r"%([a-zA-Z%])",
                             lambda m: "%" if m.group(1) == "%" else _statfs_field(inv, path, m.group(1)), fmt)
            except FsError as exc:
                status = inv.fail(f"'{path}': {exc.strerror}")
                continue
            inv.out(out)
        return status
    fmt = str(opts["c"]) + "\n" if "c" in opts else _STAT_DEFAULT
    status = 0
    for path in files:
        try:
            info = inv.fs.stat(path, inv.cwd, follow=bool(opts.get("L")))
        except FsError as exc:
            status = inv.fail(f"{path}: {exc.strerror}")
            continue
        out = re.sub(r"%(-?\d*)([a-zA-Z%])",
                     lambda m: "%" if m.group(2) == "%" else _stat_field(inv, path, info, m.group(2), m.group(1)),
                     fmt)
        inv.out(out)
    return status


# -- printf ------------------------------------------------------------------------------------------
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\",
            "'": "'", '"': '"'}


def _unescape(text: str, stop_at_c: bool = False) -> tuple[str, bool]:
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            if stop_at_c and nxt == "c":
                return "".join(out), True
            m = re.match(r"0?[0-7]{1,3}", text[i + 1:])
            if m:
                value = int(m.group(), 8) & 0xFF
                out.append(chr(value) if value < 0x80 else chr(0xDC00 + value))  # a raw byte
                i += 1 + len(m.group())
                continue
        out.append(c)
        i += 1
    return "".join(out), False


def _printf_number(arg: str, conv: str) -> float | int | None:
    """The number an argument stands for ('c gives c's code), None if it is not one."""
    if arg[:1] in ("'", '"') and len(arg) > 1:
        return ord(arg[1])
    try:
        if conv in "feEgG":
            return float(arg or 0)
        return int(arg or "0", 0)
    except ValueError:
        return None


@command("printf")
def _printf(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError("Needs 1 argument")
    fmt, args = inv.args[0], list(inv.args[1:])
    spec = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([diouxXeEfgGcsb%])")
    failed = False
    first = True
    while first or args:
        first = False
        used = False
        out, pos = [], 0
        for m in spec.finditer(fmt):
            text, stop = _unescape(fmt[pos:m.start()])
            out.append(text)
            pos = m.end()
            flags, width, precision, conv = m.groups()
            if conv == "%":
                out.append("%")
                continue
            if width == "*":
                width = str(int(args.pop(0))) if args else "0"
            if precision == "*":
                precision = str(int(args.pop(0))) if args else "0"
            arg = args.pop(0) if args else ""
            used = True
            pyfmt = "%" + flags + (width or "") + (f".{precision}" if precision is not None else "")
            if conv == "s":
                out.append((pyfmt + "s") % arg)
            elif conv == "b":
                text, stop = _unescape(arg, stop_at_c=True)
                out.append((pyfmt + "s") % text)
                if stop:
                    inv.out("".join(out))
                    return 0
            elif conv == "c":
                out.append((pyfmt + "s") % arg[:1])
            else:
                number = _printf_number(arg, conv)
                if number is None:
                    inv.err(f"printf: invalid number '{arg}'\n")
                    failed, number = True, 0
                out.append((pyfmt + ("d" if conv in "iu" else conv)) % number)
        text, _ = _unescape(fmt[pos:])
        out.append(text)
        inv.out("".join(out))
        if not used:
            break
    return 1 if failed else 0


# -- small path and text tools -----------------------------------------------------------------------
@command("basename")
def _basename(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError("Needs 1 argument")
    name = posixpath.basename(inv.args[0].rstrip("/")) or "/"
    if len(inv.args) > 1 and name.endswith(inv.args[1]) and name != inv.args[1]:
        name = name[:-len(inv.args[1])]
    inv.out(name + "\n")
    return 0


@command("dirname")
def _dirname(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError("Needs 1 argument")
    for arg in inv.args:
        stripped = arg.rstrip("/") or "/"
        inv.out((posixpath.dirname(stripped).rstrip("/") or ("/" if stripped.startswith("/") else ".")) + "\n")
    return 0


def _tr_set(text: str) -> str:
    text, _ = _unescape(text)
    classes = {"[:digit:]": "0123456789", "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
               "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "[:space:]": " \t\n\r\f\v"}
    for name, chars in classes.items():
        text = text.replace(name, chars)
    return re.sub(r"(.)-(.)", lambda m: "".join(chr(c) for c in range(ord(m.group(1)), ord(m.group(2)) + 1)), text)


@command("tr")
def _tr(inv: Invocation) -> int:
    opts, sets = parse_flags(inv.args, "dscC")
    if not sets or (len(sets) < 2 and not opts.get("d") and not opts.get("s")):
        raise UsageError("Needs 2 arguments" if not opts.get("d") else "Needs 1 argument")
    text = inv.stdin.decode("utf-8", "surrogateescape")
    first = _tr_set(sets[0])
    if opts.get("d"):
        text = "".join(c for c in text if c not in first)
    elif len(sets) > 1:
        second = _tr_set(sets[1])
        second = second + second[-1:] * (len(first) - len(second)) if second else ""
        text = text.translate({ord(a): b for a, b in zip(first, second)})
    if opts.get("s"):
        squeeze = _tr_set(sets[-1])
        text = re.sub("(" + "|".join(re.escape(c) for c in squeeze) + r")\1+", r"\1", text) if squeeze else text
    inv.out(text)
    return 0


@command("tee")
def _tee(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "ai")
    status = 0
    for name in files:
        try:
            inv.fs.write_file(name, inv.stdin, inv.cwd, append=bool(opts.get("a")))
        except FsError as exc:
            status = inv.fail(f"{name}: {exc.strerror}")
    inv.out(inv.stdin)
    return status


@command("seq")
def _seq(inv: Invocation) -> int:
    opts, nums = parse_flags([a for a in inv.args], "w", "sf")
    if not 1 <= len(nums) <= 3:
        raise UsageError("Needs 1-3 arguments")
    try:
        values = [float(n) for n in nums]
    except ValueError:
        raise UsageError(f"Not a number: {nums}") from None
    first, step, last = (1.0, 1.0, values[0]) if len(values) == 1 else \
        (values[0], 1.0, values[1]) if len(values) == 2 else tuple(values)
    integral = all(float(v).is_integer() for v in values)
    sep = str(opts.get("s", "\n"))
    out, value = [], first
    while (step > 0 and value <= last) or (step < 0 and value >= last):
        out.append(str(int(value)) if integral else f"{value:g}")
        value += step
        if len(out) > 1_000_000:
            break
    inv.out(sep.join(out) + ("\n" if out else ""))
    return 0


@command("env", "printenv")
def _env(inv: Invocation) -> int:
    values = {k: v for k, v in inv.session.vars.items()}
    if inv.name == "printenv" and inv.args:
        found = [values[name] for name in inv.args if name in values]
        inv.out("".join(v + "\n" for v in found))
        return 0 if len(found) == len(inv.args) else 1
    args = list(inv.args)
    while args and "=" in args[0]:
        name, _, value = args.pop(0).partition("=")
        values[name] = value
    if args:
        return inv.session._call(args, inv.stdin, inv._out, inv._err)
    inv.out("".join(f"{k}={v}\n" for k, v in values.items()))
    return 0


@command("nproc")
def _nproc(inv: Invocation) -> int:
    inv.out(f"{CPU_COUNT}\n")
    return 0


@command("uname")
def _uname(inv: Invocation) -> int:
    opts, _ = parse_flags(inv.args, "asnrvmpio")
    release = "6.1.23-android14-4-00257-g7e35917775b8"
    version = "#1 SMP PREEMPT Mon Apr 17 20:50:58 UTC 2023"
    parts = {"s": "Linux", "n": "localhost", "r": release, "v": version, "m": "x86_64", "o": "Toybox"}
    if opts.get("a"):
        wanted = "snrvmo"
    else:
        wanted = "".join(k for k in "snrvmo" if opts.get(k)) or "s"
    inv.out(" ".join(parts[k] for k in wanted) + "\n")
    return 0


@command("readlink", "realpath")
def _readlink(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "efmnqz")
    status = 0
    for path in files:
        try:
            if inv.name == "realpath" or opts.get("f") or opts.get("e") or opts.get("m"):
                target = _realpath(inv, path)
            else:
                target = inv.fs.readlink(path, inv.cwd)
        except FsError as exc:
            if inv.name == "realpath":
                status = inv.fail(f"{path}: {exc.strerror}")
            else:
                status = 1
            continue
        inv.out(target + ("" if opts.get("n") else "\n"))
    return status


def _realpath(inv: Invocation, path: str) -> str:
    full = inv.fs.normpath(path, inv.cwd)
    out = "/"
    for part in [p for p in full.split("/") if p]:
        candidate = posixpath.join(out, part)
        info = inv.fs.stat(candidate, "/", follow=False)
        while st.S_ISLNK(info.mode):
            target = inv.fs.readlink(candidate, "/")
            candidate = inv.fs.normpath(target, posixpath.dirname(candidate))
            candidate = _realpath(inv, candidate)
            info = inv.fs.stat(candidate, "/", follow=False)
        out = candidate
    return out


# -- test / [ ------------------------------------------------------------------------------------
def _test_eval(inv: Invocation, args: list[str]) -> bool:
    if not args:
        return False
    if args[0] == "!":
        return not _test_eval(inv, args[1:])
    for op in ("-o", "-a"):
        if op in args[1:-1]:
            at = args.index(op, 1)
            left, right = _test_eval(inv, args[:at]), _test_eval(inv, args[at + 1:])
            return (left or right) if op == "-o" else (left and right)
    if len(args) == 1:
        return args[0] != ""
    if len(args) == 2:
        op, value = args
        if op == "-z":
            return value == ""
        if op == "-n":
            return value != ""
        try:
            info = inv.fs.stat(value, inv.cwd, follow=op not in ("-h", "-L"))
        except FsError:
            return False
        checks = {"-e": True, "-f": st.S_ISREG(info.mode), "-d": st.S_ISDIR(info.mode),
                  "-h": st.S_ISLNK(info.mode), "-L": st.S_ISLNK(info.mode), "-s": info.size > 0,
                  "-r": True, "-w": info.uid == 2000 or info.gid == 1015, "-x": bool(info.mode & 0o111),
                  "-c": st.S_ISCHR(info.mode), "-p": st.S_ISFIFO(info.mode), "-S": st.S_ISSOCK(info.mode)}
        if op not in checks:
            raise UsageError(f"unknown operator '{op}'", code=2)
        return checks[op]
    if len(args) == 3:
        left, op, right = args
        if op in ("=", "=="):
            return left == right
        if op == "!=":
            return left != right
        if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            try:
                a, b = int(left), int(right)
            except ValueError:
                raise UsageError(f"not integer '{left if not left.lstrip('-').isdigit() else right}'",
                                 code=2) from None
            return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]
        raise UsageError(f"unknown operator '{op}'", code=2)
    raise UsageError("too many arguments", code=2)


@command("test", "[")
def _test(inv: Invocation) -> int:
    args = list(inv.args)
    if inv.name == "[":
        if not args or args[-1] != "]":
            raise UsageError("missing ]", code=2)
        args = args[:-1]
    return 0 if _test_eval(inv, args) else 1


# -- chmod -----------------------------------------------------------------------------------------
_WHO_BITS = {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}
_PERM_BITS = {"r": 0o444, "w": 0o222, "x": 0o111, "X": 0o111, "s": 0o6000, "t": 0o1000}


def _chmod_mode(spec: str, current: int) -> int | None:
    """An octal mode or toybox's symbolic `[ugoa]*[+-=][rwxXst]*,...`; None if malformed."""
    if re.fullmatch(r"[0-7]{1,4}", spec):
        return int(spec, 8)
    mode = current & 0o7777
    for clause in spec.split(","):
        m = re.fullmatch(r"([ugoa]*)([-+=])([rwxXst]*)", clause)
        if not m:
            return None
        who = 0
        for letter in m.group(1) or "a":
            who |= _WHO_BITS[letter]
        perms = 0
        for letter in m.group(3):
            perms |= _PERM_BITS[letter]
        bits = who & perms
        if m.group(2) == "+":
            mode |= bits
        elif m.group(2) == "-":
            mode &= ~bits
        else:
            mode = (mode & ~who) | bits
    return mode


@command("chmod")
def _chmod(inv: Invocation) -> int:
    opts, rest = parse_flags(inv.args, "Rfv")
    if len(rest) < 2:
        raise UsageError("Needs 2 arguments")
    spec, files = rest[0], rest[1:]
    status = 0
    for path in files:
        try:
            info = inv.fs.stat(path, inv.cwd)
            mode = _chmod_mode(spec, info.mode)
            if mode is None:
                raise UsageError(f"bad mode '{spec}'")
            inv.fs.chmod(path, mode, inv.cwd)
        except FsError as exc:
            status = inv.fail(f"{path}: {exc.strerror}")
    return status

"""File commands (toybox flavour): cat cp mv rm mkdir rmdir ls touch wc grep head tail."""

from __future__ import annotations

import datetime as dt
import posixpath
import re
import stat as st

from ..kernel.fs import FsError
from .builtins import parse_flags
from .interpreter import Invocation, UsageError, command

_NAMES = {0: "root", 1000: "system", 1015: "sdcard_rw", 2000: "shell"}


@command("cat")
def _cat(inv: Invocation) -> int:
    _opts, files = parse_flags(inv.args, "uvAet")
    status = 0
    for name in files or ["-"]:
        if name == "-":
            inv.out(inv.stdin)
            continue
        try:
            if inv.fs.isdir(name, inv.cwd):
                status = inv.fail(f"{name}: Is a directory")
                continue
            inv.out(inv.fs.read_file(name, inv.cwd))
        except FsError as exc:
            status = inv.fail(f"{name}: {exc.strerror}")
    return status


def _sources_and_target(inv: Invocation, rest: list[str]) -> tuple[list[str], str]:
    if len(rest) < 2:
        raise UsageError("Needs 2 arguments")
    return rest[:-1], rest[-1]


@command("cp")
def _cp(inv: Invocation) -> int:
    opts, rest = parse_flags(inv.args, "rRfpaidnv")
    sources, target = _sources_and_target(inv, rest)
    if len(sources) > 1 and not inv.fs.isdir(target, inv.cwd):
        return inv.fail(f"'{target}' not directory")
    status = 0
    for src in sources:
        try:
            inv.fs.copy(src, target, inv.cwd, recursive=bool(opts.get("r") or opts.get("R") or opts.get("a")))
        except FsError as exc:
            if exc.errno == 21:  # EISDIR without -r
                status = inv.fail(f"Skipped dir '{src}'")
            else:
                status = inv.fail(f"{exc.filename}: {exc.strerror}")
    return status


@command("mv")
def _mv(inv: Invocation) -> int:
    _opts, rest = parse_flags(inv.args, "finTv")
    sources, target = _sources_and_target(inv, rest)
    if len(sources) > 1 and not inv.fs.isdir(target, inv.cwd):
        return inv.fail(f"'{target}' not directory")
    status = 0
    for src in sources:
        try:
            inv.fs.rename(src, target, inv.cwd)
        except FsError as exc:
            status = inv.fail(f"{exc.filename}: {exc.strerror}")
    return status


@command("rm")
def _rm(inv: Invocation) -> int:
    opts, rest = parse_flags(inv.args, "frRiv")
    force = bool(opts.get("f"))
    recursive = bool(opts.get("r") or opts.get("R"))
    if not rest and not force:
        raise UsageError("Needs 1 argument")
    status = 0
    for name in rest:
        try:
            inv.fs.remove(name, inv.cwd, recursive=recursive)
        except FsError as exc:
            if exc.errno == 2 and force:
                continue
            if exc.errno == 21:
                status = inv.fail(f"{name}: Is a directory")
            else:
                status = inv.fail(f"{name}: {exc.strerror}")
    return status


@command("rmdir")
def _rmdir(inv: Invocation) -> int:
    _opts, rest = parse_flags(inv.args, "p")
    status = 0
    for name in rest:
        try:
            inv.fs.rmdir(name, inv.cwd)
        except FsError as exc:
            status = inv.fail(f"{name}: {exc.strerror}")
    return status


@command("mkdir")
def _mkdir(inv: Invocation) -> int:
    opts, rest = parse_flags(inv.args, "pv", "m")
    if not rest:
        raise UsageError("Needs 1 argument")
    mode = int(opts["m"], 8) if isinstance(opts.get("m"), str) and re.fullmatch(r"[0-7]+", opts["m"]) else 0o771
    status = 0
    for name in rest:
        try:
            inv.fs.mkdir(name, inv.cwd, parents=bool(opts.get("p")), mode=mode)
        except FsError as exc:
            status = inv.fail(f"'{name}': {exc.strerror}")
    return status


@command("touch")
def _touch(inv: Invocation) -> int:
    opts, rest = parse_flags(inv.args, "acmh", "dtr")
    if not rest:
        raise UsageError("Needs 1 argument")
    mtime = None
    if opts.get("d") or opts.get("t"):
        flag = "d" if opts.get("d") else "t"
        mtime = _touch_time(str(opts[flag]), flag, inv.phone.clock_ms())
        if mtime is None:
            return inv.fail(f"bad '{opts[flag]}'")
    status = 0
    for name in rest:
        try:
            if opts.get("c") and not inv.fs.exists(name, inv.cwd):
                continue
            inv.fs.touch(name, inv.cwd, mtime=mtime)
        except FsError as exc:
            status = inv.fail(f"'{name}': {exc.strerror}")
    return status


def _touch_time(text: str, flag: str, now_ms: int) -> int | None:
    """`touch -d "YYYY-MM-DD hh:mm:ss"` or `-t [[CC]YY]MMDDhhmm[.ss]` in epoch seconds (the phone's zone is UTC;
    without a year, the phone's clock's)."""
    try:
        if flag == "d":
            when = dt.datetime.fromisoformat(text.strip().replace(" ", "T").rstrip("Z"))
        else:
            stamp, _, seconds = text.partition(".")
            if not stamp.isdigit() or len(stamp) not in (8, 10, 12) or (seconds and not seconds.isdigit()):
                return None
            year = "" if len(stamp) == 8 else stamp[:-8]
            year = int(year) + (2000 if len(year) == 2 and int(year) < 69 else 1900 if len(year) == 2 else 0) \
                if year else dt.datetime.fromtimestamp(now_ms / 1000, dt.timezone.utc).year
            when = dt.datetime(year, int(stamp[-8:-6]), int(stamp[-6:-4]), int(stamp[-4:-2]), int(stamp[-2:]),
                               int(seconds or 0))
    except ValueError:
        return None
    return int(when.replace(tzinfo=dt.timezone.utc).timestamp())


def _mode_string(mode: int) -> str:
    return st.filemode(mode)


def _ls_long(inv: Invocation, entries: list[tuple[str, object, str]]) -> None:
    rows = []
    for name, info, full in entries:
        when = dt.datetime.fromtimestamp(info.mtime, dt.timezone.utc).strftime("%Y-%m-%d %H:%M")
        shown = name
        if st.S_ISLNK(info.mode):
            try:
                shown += " -> " + inv.fs.readlink(full)
            except FsError:
                pass
        rows.append((_mode_string(info.mode), str(info.nlink), _NAMES.get(info.uid, str(info.uid)),
                     _NAMES.get(info.gid, str(info.gid)), str(info.size), when, shown))
    if not rows:
        return
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        inv.out(f"{r[0]} {r[1]:>{widths[1]}} {r[2]:<{widths[2]}} {r[3]:<{widths[3]}} "
                f"{r[4]:>{widths[4]}} {r[5]} {r[6]}\n")


@command("ls")
def _ls(inv: Invocation) -> int:
    opts, rest = parse_flags(inv.args, "laA1dRhnstFZ")
    long = bool(opts.get("l") or opts.get("n"))
    show_all = bool(opts.get("a"))
    almost = bool(opts.get("A"))
    targets = rest or ["."]
    status = 0
    files: list[tuple[str, object, str]] = []
    dirs: list[str] = []
    for name in targets:
        try:
            info = inv.fs.stat(name, inv.cwd, follow=not long or name.endswith("/"))
        except FsError as exc:
            status = inv.fail(f"{name}: {exc.strerror}")
            continue
        if st.S_ISDIR(info.mode) and not opts.get("d"):
            dirs.append(name)
        elif st.S_ISLNK(info.mode) and inv.fs.isdir(name, inv.cwd) and not opts.get("d") and not long:
            dirs.append(name)
        else:
            files.append((name, info, inv.fs.normpath(name, inv.cwd)))
    # toybox ls sorts its operands too (files first, then each directory), by name
    files.sort(key=lambda entry: entry[0].encode("utf-8", "surrogateescape"))
    dirs.sort(key=lambda name: name.encode("utf-8", "surrogateescape"))
    if files:
        if long:
            _ls_long(inv, files)
        else:
            inv.out("".join(f"{n}\n" for n, _, _ in files))
    for index, name in enumerate(dirs):
        if len(targets) > 1:
            inv.out(("\n" if files or index else "") + f"{name}:\n")
        full = inv.fs.normpath(name, inv.cwd)
        try:
            entries = [(n, i, posixpath.join(full, n)) for n, i in inv.fs.listdir_stat(full)]
        except FsError as exc:
            status = inv.fail(f"{name}: {exc.strerror}")
            continue
        if not (show_all or almost):
            entries = [e for e in entries if not e[0].startswith(".")]
        if show_all:
            entries = [(".", inv.fs.stat(full), full), ("..", inv.fs.stat(posixpath.dirname(full) or "/"), full)] + entries
        if long:
            inv.out(f"total {8 * len(entries)}\n")
            _ls_long(inv, entries)
        else:
            inv.out("".join(f"{n}\n" for n, _, _ in entries))
    return status


def _inputs(inv: Invocation, files: list[str]) -> list[tuple[str, bytes | None]]:
    """(name, content or None on error) for each file, or stdin."""
    if not files:
        return [("", inv.stdin)]
    result = []
    for name in files:
        try:
            result.append((name, inv.stdin if name == "-" else inv.fs.read_file(name, inv.cwd)))
        except FsError as exc:
            inv.fail(f"{name}: {exc.strerror}")
            result.append((name, None))
    return result


@command("wc")
def _wc(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "lwcm")
    which = [k for k in "lwc" if opts.get(k)] or (["c"] if opts.get("m") else ["l", "w", "c"])
    status = 0
    totals = {"l": 0, "w": 0, "c": 0}
    results = _inputs(inv, files)
    for name, data in results:
        if data is None:
            status = 1
            continue
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        for k in totals:
            totals[k] += counts[k]
        cols = [str(counts[k]) for k in which]
        if len(which) == 1 and not name:
            inv.out(cols[0] + "\n")
        else:
            inv.out(" ".join(c.rjust(7 if len(which) > 1 else 0) for c in cols) + (f" {name}" if name else "") + "\n")
    if len(results) > 1:
        inv.out(" ".join(str(totals[k]).rjust(7 if len(which) > 1 else 0) for k in which) + " total\n")
    return status


@command("grep", "egrep", "fgrep")
def _grep(inv: Invocation) -> int:
    # -e may be given more than once: each is another pattern (toybox grep's -e is a list)
    args, patterns = [], []
    index = 0
    while index < len(inv.args):
        arg = inv.args[index]
        if arg == "--":
            args += inv.args[index:]
            break
        if arg == "-e" and index + 1 < len(inv.args):
            patterns.append(inv.args[index + 1])
            index += 2
            continue
        if arg.startswith("-e") and len(arg) > 2 and not arg.startswith("--"):
            patterns.append(arg[2:])
        else:
            args.append(arg)
        index += 1
    opts, rest = parse_flags(args, "ivcnqlEFwxsHho", "ABC")
    try:
        after = int(opts.get("A", opts.get("C", 0)))
        before = int(opts.get("B", opts.get("C", 0)))
    except ValueError:
        raise UsageError("Invalid context length argument", 2) from None
    if inv.name == "egrep":
        opts["E"] = True
    if inv.name == "fgrep":
        opts["F"] = True
    if not patterns:
        if not rest:
            raise UsageError("Needs 1 argument", 2)
        patterns = [rest.pop(0)]
    pattern = patterns[0]
    if opts.get("F"):
        regex_text = "|".join(re.escape(p) for p in patterns)
    else:
        regex_text = "|".join(f"(?:{p if opts.get('E') else _basic_to_python(p)})" for p in patterns)
    if opts.get("w"):
        regex_text = rf"\b(?:{regex_text})\b"
    if opts.get("x"):
        regex_text = rf"(?:{regex_text})\Z"
    try:
        regex = re.compile(regex_text.encode("utf-8", "surrogateescape"), re.IGNORECASE if opts.get("i") else 0)
    except re.error:
        return inv.fail(f"bad regex '{pattern}'", 2)
    inputs = _inputs(inv, rest)
    show_names = (len(inputs) > 1 or opts.get("H")) and not opts.get("h")
    found_any = False
    status_error = False
    for name, data in inputs:
        if data is None:
            status_error = True
            continue
        count = 0
        lines = data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")
        printed_to = 0  # lines before this index are printed (context: -A/-B/-C, "--" between groups)
        pending_after = 0
        for number, line in enumerate(lines, 1):
            matched = bool(regex.match(line) if opts.get("x") else regex.search(line))
            if matched == bool(opts.get("v")):
                if pending_after and not (opts.get("c") or opts.get("l")):
                    inv.out(((f"{name}-" if show_names else "") + (f"{number}-" if opts.get("n") else "")).encode()
                            + line + b"\n")
                    printed_to = number
                    pending_after -= 1
                continue
            count += 1
            found_any = True
            if opts.get("q"):
                return 0
            if opts.get("c") or opts.get("l"):
                continue
            first = max(printed_to + 1, number - before)
            if (before or after) and printed_to and first > printed_to + 1:
                inv.out(b"--\n")
            for ctx in range(first, number):
                inv.out(((f"{name}-" if show_names else "") + (f"{ctx}-" if opts.get("n") else "")).encode()
                        + lines[ctx - 1] + b"\n")
            prefix = (f"{name}:" if show_names else "") + (f"{number}:" if opts.get("n") else "")
            inv.out(prefix.encode() + line + b"\n")
            printed_to, pending_after = number, after
        if opts.get("l") and count:
            inv.out(f"{name or '(standard input)'}\n")
        elif opts.get("c"):
            inv.out((f"{name}:" if show_names else "") + f"{count}\n")
    if status_error:
        return 2
    return 0 if found_any else 1


def _basic_to_python(pattern: str) -> str:
    """POSIX basic regex -> Python: \\( \\) \\{ \\} \\| \\+ \\? are the operators."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "(){}|+?" else "\\" + nxt)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def _line_count(inv: Invocation, opts: dict) -> int:
    raw = opts.get("n", opts.get("#", "10"))
    try:
        return int(str(raw).lstrip("+-"))
    except ValueError:
        raise UsageError(f"Not integer: {raw}") from None


@command("head")
def _head(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "qv", "nc")
    status = 0
    for name, data in _inputs(inv, files):
        if data is None:
            status = 1
            continue
        if "c" in opts:
            inv.out(data[:int(opts["c"])])
        else:
            inv.out(b"".join(data.splitlines(keepends=True)[:_line_count(inv, opts)]))
    return status


@command("tail")
def _tail(inv: Invocation) -> int:
    opts, files = parse_flags(inv.args, "qvf", "nc")
    status = 0
    for name, data in _inputs(inv, files):
        if data is None:
            status = 1
            continue
        if "c" in opts:
            inv.out(data[-int(opts["c"]):])
            continue
        lines = data.splitlines(keepends=True)
        count = _line_count(inv, opts)
        if str(opts.get("n", "")).startswith("+"):
            inv.out(b"".join(lines[count - 1:]))
        else:
            inv.out(b"".join(lines[-count:] if count else []))
    return status

"""Shell builtins and small utilities: echo, true, exit, sleep, date, getprop..."""

from __future__ import annotations

import datetime as dt
import re

from .interpreter import COMMANDS, SHELL_ONLY, Invocation, ShellExit, UsageError, command
from ..kernel.processes import adbd_label, adbd_uid, user_name

__all__ = ["parse_flags", "toybox_options"]


def parse_flags(args: list[str], flags: str, valued: str = "") -> tuple[dict[str, str | bool], list[str]]:
    """Split `-abc -n 5 -- rest` style options. Unknown flags raise UsageError."""
    opts: dict[str, str | bool] = {}
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i + 1:])
            break
        if arg.startswith("-") and len(arg) > 1 and not rest:
            j = 1
            while j < len(arg):
                flag = arg[j]
                if flag in valued:
                    value = arg[j + 1:]
                    if not value:
                        i += 1
                        if i >= len(args):
                            raise UsageError(f"Needs 1 argument -- {flag}")
                        value = args[i]
                    opts[flag] = value
                    break
                if flag not in flags:
                    if flag.isdigit():  # head -5
                        opts["#"] = arg[1:]
                        break
                    raise UsageError(f"Unknown option '{arg}'")
                opts[flag] = True
                j += 1
        else:
            rest.append(arg)
        i += 1
    return opts, rest


def toybox_options(name: str, args: list[str], flags: str, valued: str = "", *, long: dict[str, str] | None = None,
                   keep_unknown: bool = False, stop_at_operand: bool = False, exclusive: str = "",
                   argfail: int = 1) -> tuple[set[str], dict[str, list[str]], list[str]]:
    """Options as toybox's lib/args.c reads them: bundled flags (`-abc`), a valued option's value
    joined or next (`-w8`, `-w 8`, each use kept in order), `--` ending options, options after
    operands too (unless ``stop_at_operand``, an optstr's `^`), ``long`` names (`--signal`)
    standing for a flag or valued letter, of the ``exclusive`` flags the last given (an optstr's
    `[-no]`). An unknown option is "Unknown option 'x' (see "NAME --help")", status ``argfail``;
    with ``keep_unknown`` (an optstr's `?`) it is an operand."""
    seen: set[str] = set()
    values: dict[str, list[str]] = {}
    operands: list[str] = []
    args = list(args)
    while args:
        arg = args.pop(0)
        if arg == "--" or (operands and stop_at_operand):
            operands += args if arg == "--" else [arg] + args
            break
        if arg.startswith("--") and long is not None and arg[2:].partition("=")[0] in long:
            key, eq, value = arg[2:].partition("=")
            arg = "-" + long[key] + (value if eq else "")
        if not arg.startswith("-") or len(arg) == 1 or (keep_unknown and arg[1] not in flags + valued):
            operands.append(arg)
            continue
        for i, flag in enumerate(arg[1:], 1):
            if flag in valued:
                value = arg[i + 1:] or (args.pop(0) if args else None)
                if value is None:
                    raise UsageError(f'Missing argument to -{flag} (see "{name} --help")', argfail)
                values.setdefault(flag, []).append(value)
                break
            if flag not in flags:
                raise UsageError(f"Unknown option '{arg[i:]}' (see \"{name} --help\")", argfail)
            if flag in exclusive:
                seen -= set(exclusive)
            seen.add(flag)
    return seen, values, operands


@command("true", ":")
def _true(inv: Invocation) -> int:
    return 0


@command("false")
def _false(inv: Invocation) -> int:
    return 1


@command("exit")
def _exit(inv: Invocation) -> int:
    code = inv.session.last_status
    if inv.args:
        try:
            code = int(inv.args[0])
        except ValueError:
            raise UsageError(f"{inv.args[0]}: bad number") from None
    raise ShellExit(code)


@command("cd")
def _cd(inv: Invocation) -> int:
    target = inv.args[0] if inv.args else "/"
    path = inv.fs.normpath(target, inv.cwd)
    if not inv.fs.isdir(path):
        return inv.fail(f"{target}: No such file or directory" if not inv.fs.exists(path)
                        else f"{target}: Not a directory")
    inv.session.cwd = path
    return 0


@command("pwd")
def _pwd(inv: Invocation) -> int:
    inv.out(inv.cwd + "\n")
    return 0


@command("export")
def _export(inv: Invocation) -> int:
    for arg in inv.args:
        name, eq, value = arg.partition("=")
        if eq and name.isidentifier():
            inv.session.vars[name] = value
    return 0


@command("unset")
def _unset(inv: Invocation) -> int:
    for name in inv.args:
        inv.session.vars.pop(name, None)
    return 0


_ECHO_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
                 "v": "\v", "\\": "\\"}


@command("echo")
def _echo(inv: Invocation) -> int:
    args = list(inv.args)
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        flags = args.pop(0)
        newline = newline and "n" not in flags
        escapes = ("e" in flags) or (escapes and "E" not in flags)
    text = " ".join(args)
    if escapes:
        out, i = [], 0
        while i < len(text):
            c = text[i]
            if c == "\\" and i + 1 < len(text):
                nxt = text[i + 1]
                if nxt == "c":
                    inv.out("".join(out))
                    return 0
                if nxt in _ECHO_ESCAPES:
                    out.append(_ECHO_ESCAPES[nxt])
                    i += 2
                    continue
                if nxt == "0":
                    digits = re.match(r"[0-7]{0,3}", text[i + 2:]).group()
                    out.append(chr(int(digits or "0", 8)))
                    i += 2 + len(digits)
                    continue
            out.append(c)
            i += 1
        text = "".join(out)
    inv.out(text + ("\n" if newline else ""))
    return 0


_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)")
_UNIT = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


@command("sleep")
def _sleep(inv: Invocation) -> int:
    """Advances the virtual clock; returns at once (the clock is virtual)."""
    if not inv.args:
        raise UsageError("Needs 1 argument")
    total = 0.0
    for arg in inv.args:
        m = _DURATION.fullmatch(arg)
        if not m:
            raise UsageError(f"bad duration '{arg}'")
        total += float(m.group(1)) * _UNIT[m.group(2)]
    inv.session.wait(int(total * 1000))
    return 0


@command("date")
def _date(inv: Invocation) -> int:
    fmt = "%a %b %e %H:%M:%S %Z %Y"
    for arg in inv.args:
        if arg.startswith("+"):
            fmt = arg[1:]
        elif arg not in ("-u",):
            return inv.fail("setting the date is not permitted")
    now = dt.datetime.fromtimestamp(inv.phone.clock_ms() / 1000, dt.timezone.utc)
    # %Z of a UTC datetime is "UTC"; %e and %N are toybox extensions. toybox date.c puts_time:
    # "%N" is the nine digits of nanoseconds, "%3N" (a digit, then N) their first three.
    nanos = f"{now.microsecond * 1000:09d}"
    fmt = fmt.replace("%e", f"{now.day:2d}")
    fmt = re.sub(r"%([1-9]?)N", lambda m: nanos[:int(m.group(1) or 9)], fmt)
    fmt = fmt.replace("%s", str(int(now.timestamp())))
    inv.out(now.strftime(fmt) + "\n")
    return 0


#: adbd's supplementary groups (packages/modules/adb daemon/main.cpp drop_privileges: AID_ADB, AID_LOG,
#: AID_INPUT, ...), which its shells inherit whether it dropped root or kept it; toybox id lists the
#: primary gid first.
_ADBD_GROUPS = ("1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),"
                "1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),"
                "3011(uhid),3012(readtracefs)")


@command("id")
def _id(inv: Invocation) -> int:
    """toybox id [-GZgnru]: the shell's ids (adbd's, whose child it is)."""
    uid = adbd_uid(inv.phone)
    name = user_name(uid)
    flags = set()
    for arg in inv.args:
        if not arg.startswith("-") or len(arg) < 2 or set(arg[1:]) - set("GZgnru"):
            return inv.fail(f"unknown user '{arg}'" if not arg.startswith("-") else f"Unknown option '{arg}'")
        flags |= set(arg[1:])
    if "Z" in flags:
        inv.out(adbd_label(inv.phone) + "\n")
        return 0
    groups = [(uid, name)] + [(int(g.split("(")[0]), g.split("(")[1][:-1]) for g in _ADBD_GROUPS.split(",")]
    named = "n" in flags
    if "G" in flags:
        inv.out(" ".join(n if named else str(g) for g, n in groups) + "\n")
    elif flags & {"u", "g"}:
        inv.out((name if named else str(uid)) + "\n")  # the gid equals the uid (0 or 2000)
    else:
        inv.out(f"uid={uid}({name}) gid={uid}({name}) groups={uid}({name}),{_ADBD_GROUPS} "
                f"context={adbd_label(inv.phone)}\n")
    return 0


@command("whoami")
def _whoami(inv: Invocation) -> int:
    inv.out(user_name(adbd_uid(inv.phone)) + "\n")
    return 0


@command("which")
def _which(inv: Invocation) -> int:
    status = 0
    for name in inv.args:
        if name in COMMANDS and name not in SHELL_ONLY:
            inv.out(f"/system/bin/{name}\n")
        else:
            status = 1
    return status


@command("getprop")
def _getprop(inv: Invocation) -> int:
    props = inv.phone.props
    if not inv.args:
        for name in sorted(props):
            inv.out(f"[{name}]: [{props[name]}]\n")
        return 0
    value = props.get(inv.args[0])
    if value is None:
        value = inv.args[1] if len(inv.args) > 1 else ""
    inv.out(value + "\n")
    return 0


@command("setprop")
def _setprop(inv: Invocation) -> int:
    if len(inv.args) != 2:
        raise UsageError("usage: setprop NAME VALUE")
    name, value = inv.args
    if name.startswith("ro.") and name in inv.phone.props or len(value) > 91 and not name.startswith("ro."):
        return inv.fail(f"Failed to set property '{name}' to '{value}'.\n"
                        "See dmesg for error reason.")
    inv.phone.props[name] = value
    return 0

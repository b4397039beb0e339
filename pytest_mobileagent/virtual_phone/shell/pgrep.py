"""toybox 0.8.9's pgrep and pkill (toys/posix/ps.c: pgrep_main(), pkill_main(), match_pgrep(), do_pgk()),
and mksh's kill builtin, which signal processes the same way.

PATTERN is an extended regular expression searched in each process's name (its 15-character
task name, /proc/PID/stat's comm) or, with -f, its whole command line; -x wants the whole
name to match. pgrep prints the pids (-l: and the names, -d: joined by DELIM, -c: how many)
and exits 0 if any matched, 1 if none. pkill sends SIGNAL (TERM unless `-SIGNAL` or -l) to
each; a process it may not signal is "pkill: TERM->PID: Operation not permitted", status 1.
Neither ever matches itself.

The shell user (uid 2000) may signal only its own processes (root, after `adb root`, any):
the programs shells run (logcat, getevent, app_process, which end with the signal's status) and
the shell itself. Processes the virtual phone cannot end or restart (adbd, the system's daemons
and apps) are refused with a clear message rather than pretended killed.
"""

from __future__ import annotations

import re

from ..kernel.processes import Process, adbd_uid, processes, user_name
from .builtins import toybox_options
from .interpreter import SH, Invocation, ShellExit, UsageError, command
from .program import running_program

__all__ = ["SIGNALS", "signal_number"]

#: Linux's signal numbers by toybox's names (lib/portability.c signames[])
SIGNALS = {name: number for number, name in enumerate(
    "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN "
    "TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS".split(), start=1)}
#: signals whose default action is to do nothing (signal(7))
_IGNORED_BY_DEFAULT = {SIGNALS["CHLD"], SIGNALS["URG"], SIGNALS["WINCH"]}
#: job control: the virtual phone does not stop processes
_JOB_CONTROL = {SIGNALS[name] for name in ("STOP", "CONT", "TSTP", "TTIN", "TTOU")}


def signal_number(text: str) -> int:
    """lib/portability.c sig_to_num(): a number, or a name with or without SIG, any case; -1 if neither."""
    if text.isdigit():
        return int(text) if int(text) < 65 else -1
    name = text.upper()
    name = name[3:] if name.startswith("SIG") else name
    return SIGNALS.get(name, -1)


def signal_name(number: int) -> str:
    return next((name for name, n in SIGNALS.items() if n == number), str(number))


def _parse(inv: Invocation, pkill: bool) -> tuple[set[str], dict[str, list[str]], list[str]]:
    """ps.c's option strings: pgrep "?cld:u*U*t*s*P*g*G*fnovxL:[-no]",
    pkill "?Vu*U*t*s*P*g*G*fnovxl:[-no]" (the leading `?` passes unknown options on as arguments)."""
    flags, values, rest = toybox_options(inv.name, inv.args, "Vfnovx" if pkill else "clfnovx",
                                         "uUtsPgGl" if pkill else "duUtsPgGL", keep_unknown=True, exclusive="no")
    return flags, values, rest


def _ids(values: list[str], what: str, users: bool) -> set[int]:
    """comma_args(…, parse_rest): numbers, or with -u/-U user names too."""
    out: set[int] = set()
    for value in ",".join(values).split(","):
        if not value:
            continue
        if value.isdigit():
            out.add(int(value))
        elif users and (uid := _uid_of(value)) is not None:
            out.add(uid)
        else:
            raise UsageError(f"bad {what} '{value}'")
    return out


def _uid_of(name: str) -> int | None:
    if m := re.fullmatch(r"u0_a(\d+)", name):
        return 10000 + int(m.group(1))
    return next((uid for uid in range(0, 10000) if user_name(uid) == name), None)


def _select(inv: Invocation, flags: set[str], values: dict[str, list[str]], patterns: list[str]) -> list[Process]:
    for flag in "tsgG":
        if flag in values:
            raise UsageError(f"-{flag} is not supported by the virtual phone (it keeps no sessions, groups or ttys)")
    uids = _ids(values.get("u", []) + values.get("U", []), "-u", users=True)
    ppids = _ids(values.get("P", []), "-P", users=False)
    if ("x" in flags or "f" in flags or not (uids or ppids)) and not patterns:
        raise UsageError(f'No PATTERN (see "{inv.name} --help")')
    try:
        regexes = [re.compile(p) for p in patterns]
    except re.error as exc:
        raise UsageError(f"bad regex '{exc.pattern}': {exc.msg}") from None
    matched = []
    me = inv.phone.shell_pid + 1  # the process table lists the running command there (processes())
    for proc in processes(inv.phone):
        if proc.pid == me:
            continue
        if (uids and proc.uid not in uids) or (ppids and proc.ppid not in ppids):
            continue
        name = _name(proc, "f" in flags)
        hit = not regexes or any((r.fullmatch(name) if "x" in flags else r.search(name)) for r in regexes)
        if hit != ("v" in flags):
            matched.append(proc)
    if matched and ("n" in flags or "o" in flags):
        pick = max if "n" in flags else min
        matched = [pick(matched, key=lambda p: (p.start_ticks, p.pid))]
    return matched


def _name(proc: Process, full: bool) -> str:
    """What toybox matches: the task name, or with -f the command line (its arguments joined by spaces)."""
    if full:
        return " ".join((proc.cmdline,) + proc.args) if proc.cmdline else f"[{proc.comm}]"
    return proc.comm


def _report(inv: Invocation, flags: set[str], delimiter: str | None, procs: list[Process]) -> None:
    for proc in procs:
        inv.out(f"{proc.pid}" + (f" {_name(proc, 'f' in flags)}" if "l" in flags else "") + (delimiter or "\n"))
    if delimiter is not None:
        inv.out("\n")


@command("pgrep")
def _pgrep(inv: Invocation) -> int:
    flags, values, patterns = _parse(inv, pkill=False)
    signal = 0
    if "L" in values:
        signal = signal_number(values["L"][-1])
        if signal < 1:
            raise UsageError(f"bad -L '{values['L'][-1]}'")
    matched = _select(inv, flags, values, patterns)
    status = 0 if matched else 1
    if signal:
        status = _signal_all(inv, matched, signal) or status
    if "c" in flags:
        inv.out(f"{len(matched)}\n")
    elif not signal:
        _report(inv, flags, values["d"][-1] if "d" in values else None, matched)
    return status


@command("pkill")
def _pkill(inv: Invocation) -> int:
    args = list(inv.args)
    signal_text = None
    if args and args[0].startswith("-") and len(args[0]) > 1 and "-l" not in args \
            and signal_number(args[0][1:]) > 0:
        signal_text = args.pop(0)[1:]  # pkill -9 NAME, pkill -KILL NAME
    inv.args = args
    flags, values, patterns = _parse(inv, pkill=True)
    if "l" in values:
        signal_text = values["l"][-1]
    signal = signal_number(signal_text) if signal_text is not None else SIGNALS["TERM"]
    if signal < 1:
        raise UsageError(f"bad -L '{signal_text}'")
    matched = _select(inv, flags, values, patterns)
    status = _signal_all(inv, matched, signal) if matched else 1
    if "V" in flags:
        _report(inv, flags, None, matched)
    return status


def _signal_all(inv: Invocation, procs: list[Process], signal: int) -> int:
    """do_pgk(): kill() each; a failure is "NAME->PID: error" and makes the status 1."""
    status, own_shell = 0, False
    for proc in procs:
        error = _signal(inv, proc, signal)
        if error == "self":
            own_shell = True
        elif error:
            inv.err(f"{inv.name}: {signal_name(signal)}->{proc.pid}: {error}\n")
            status = 1
    if own_shell:  # mksh running `sh -c` dies of it: the line ends with 128 + the signal
        raise ShellExit(128 + signal)
    return status


def _signal(inv: Invocation, proc: Process, signal: int) -> str | None:
    caller = adbd_uid(inv.phone)  # the shell's uid: shell, or root after `adb root`
    if caller != 0 and proc.uid != caller:
        return "Operation not permitted"
    if signal == 0:  # kill(pid, 0): only whether it exists and may be signalled
        return None
    if signal in _JOB_CONTROL:
        return "stopping and continuing processes is not supported by the virtual phone"
    if proc.pid == inv.phone.shell_pid:
        return None if signal in _IGNORED_BY_DEFAULT else "self"
    program = running_program(inv.phone, proc.pid)
    if program is None:
        return f"the virtual phone cannot signal {proc.comm}"
    if signal not in _IGNORED_BY_DEFAULT:
        program.kill(128 + signal)
    return None


@command("kill")
def _kill(inv: Invocation) -> int:
    """mksh's kill builtin (funcs.c c_kill()): `kill [-s SIG | -SIG] PID...`, `kill -l STATUS...`;
    each failure is "kill: PID: error" and makes the status 1."""
    args = list(inv.args)
    signal, listing = SIGNALS["TERM"], False
    if args and re.fullmatch(r"-[0-9A-Z].*", args[0]):  # old style: -9, -KILL
        signal = signal_number(args[0][1:])
        if signal < 0:
            return _kill_error(inv, f"bad signal: {args[0][1:]}")
        args = args[2:] if args[1:2] == ["--"] else args[1:]
    else:
        while args and args[0].startswith("-") and args[0] != "-":
            arg = args.pop(0)
            if arg == "--":
                break
            if arg == "-l":
                listing = True
            elif arg.startswith("-s"):
                name = arg[2:] or (args.pop(0) if args else "")
                signal = signal_number(name)
                if signal < 0:
                    return _kill_error(inv, f"bad signal: {name}")
            else:
                return _kill_error(inv, f"{arg}: unknown option")
    if listing:
        if not args:
            return _kill_error(inv, "-l without a status is not supported by the virtual phone")
        for arg in args:
            if not arg.lstrip("-").isdigit():
                return _kill_error(inv, f"{arg}: bad number")
            number = int(arg) - 128 if 128 < int(arg) < 128 + 65 else int(arg)
            inv.out((signal_name(number) if 0 < number < 65 else str(number)) + "\n")
        return 0
    if not args:
        inv.err("usage:\tkill [-s signame | -signum | -signame] { job | pid | pgrp } ...\n"
                "\tkill -l [exit_status ...]\n")  # to shl_out, mksh's error output
        return 1
    table = {proc.pid: proc for proc in processes(inv.phone)}
    status, own_shell = 0, False
    for arg in args:
        if not arg.isdigit():
            status = _kill_error(inv, f"{arg}: arguments must be jobs or process IDs")
            continue
        proc = table.get(int(arg))
        error = "No such process" if proc is None else _signal(inv, proc, signal)
        if error == "self":
            own_shell = True
        elif error:
            status = _kill_error(inv, f"{arg}: {error}")
    if own_shell:
        raise ShellExit(128 + signal)
    return status


def _kill_error(inv: Invocation, message: str) -> int:
    inv.err(f"{SH}: kill: {message}\n")  # bi_errorf(): the shell's name, then the builtin's
    return 1

"""toybox 0.8.9's commands that run a command: nohup (toys/posix/nohup.c), timeout (toys/other/timeout.c).

`nohup COMMAND...` runs COMMAND ignoring SIGHUP, so a program it leaves running (an
`app_process` server) outlives the adb shell that started it. Without a terminal (an
`adb shell CMD` has none) it redirects nothing. A COMMAND that is not there is
"nohup: exec NAME: No such file or directory", status 127 (lib/xwrap.c xexec()); a
missing COMMAND is status 125 (TOYFLAG_ARGFAIL(125)).

`timeout [-k DURATION] [-s SIGNAL] [--preserve-status] DURATION COMMAND...` runs COMMAND and
sends it SIGNAL (TERM) once DURATION passes: its status is then 124 (137 for KILL), or with
--preserve-status 128 + the signal. The phone's commands finish at once except those that
wait: `sleep` waits on the phone's virtual clock, which stops at the deadline; a program
left running (logcat, getevent, app_process) runs in the host's time, as its output reaches
the host, and is ended after DURATION of it. Bad durations and signals are status 125.
"""

from __future__ import annotations

import threading

from .builtins import toybox_options
from .interpreter import Invocation, TimedOut, UsageError, command, find_command
from .pgrep import SIGNALS, signal_name, signal_number

__all__: list[str] = []

_ARGFAIL = 125
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _duration_ms(text: str) -> int:
    """lib/xwrap.c xparsetime(): digits with an optional fraction and one of s, m, h, d."""
    if not text or (text[0] != "." and not text[0].isdigit()):
        raise UsageError(f"Not a number '{text}'", _ARGFAIL)
    number = ""
    while text and (text[0].isdigit() or (text[0] == "." and "." not in number)):
        number, text = number + text[0], text[1:]
    if text and (text not in _UNITS):
        raise UsageError(f"Unknown suffix '{text}'", _ARGFAIL)
    return int(float(number or "0") * 1000 * _UNITS.get(text or "s", 1))


def _missing(inv: Invocation, name: str) -> int | None:
    """xexec()'s failure for a command the phone does not have, else None."""
    if find_command(name)[1] is None:
        return inv.fail(f"exec {name}: No such file or directory", 127)
    return None


@command("nohup")
def _nohup(inv: Invocation) -> int:
    if not inv.args:
        raise UsageError('Needs 1 argument (see "nohup --help")', _ARGFAIL)
    if (status := _missing(inv, inv.args[0])) is not None:
        return status
    try:
        return inv.session._call(list(inv.args), inv.stdin, inv._out, inv._err, inv.env)
    finally:  # (a program left running ends the shell's line by raising through here)
        if inv.session.held is not None:
            inv.session.held.ignored_signals.add(SIGNALS["HUP"])  # xsignal(SIGHUP, SIG_IGN), inherited


@command("timeout")
def _timeout(inv: Invocation) -> int:
    # timeout.c: "<2^(foreground)(preserve-status)vk:s(signal):i", errors status 125 (ARGFAIL)
    flags, values, args = toybox_options("timeout", inv.args, "ivFP", "ks", stop_at_operand=True, argfail=_ARGFAIL,
                                         long={"foreground": "F", "preserve-status": "P", "signal": "s"})
    preserve, verbose = "P" in flags, "v" in flags
    kill_after = _duration_ms(values["k"][-1]) if "k" in values else None
    signal = signal_number(values["s"][-1]) if "s" in values else SIGNALS["TERM"]
    if signal < 0:
        raise UsageError(f"bad -s: '{values['s'][-1]}'", _ARGFAIL)
    if len(args) < 2:
        raise UsageError('Need 2 arguments (see "timeout --help")', _ARGFAIL)
    duration = _duration_ms(args[0])
    if (status := _missing(inv, args[1])) is not None:
        return status
    killed_status = 137 if signal == SIGNALS["KILL"] else 124

    def killed(sig: int) -> int:
        if verbose:
            # perror_msg() adds the errno exec's PATH search left behind, as toybox built from
            # 0.8.9's source prints it
            inv.err(f"timeout: sending signal {signal_name(sig)} to command {args[1]}: No such file or directory\n")
        return 128 + sig if preserve else killed_status

    session = inv.session
    saved = session.deadline_ms
    deadline = inv.phone.clock_ms() + duration
    session.deadline_ms = deadline if saved is None else min(saved, deadline)
    try:
        return session._call(args[1:], inv.stdin, inv._out, inv._err, inv.env)
    except TimedOut:
        if saved is not None and saved <= deadline:
            raise  # an outer timeout's deadline came first
        return killed(signal)
    finally:  # (a program left running ends the shell's line by raising through here)
        session.deadline_ms = saved
        if session.held is not None and session.held.running:
            _end_later(session.held, duration, signal, kill_after, killed)


def _end_later(program, duration_ms: int, signal: int, kill_after: int | None, status_for) -> None:
    """A program the command left running gets the signal after ``duration_ms`` of host time
    (and SIGKILL ``kill_after`` later if it ignores it)."""
    def fire(sig: int, then_kill: bool) -> None:
        if not program.running:
            return
        if sig in program.ignored_signals:
            if then_kill and kill_after is not None:
                _arm(SIGNALS["KILL"], kill_after, False)
            return
        program.exit(status_for(sig))

    def _arm(sig: int, delay_ms: int, then_kill: bool) -> None:
        timer = threading.Timer(delay_ms / 1000, fire, (sig, then_kill))
        timer.daemon = True
        program.at_exit(timer.cancel)
        timer.start()

    _arm(signal, duration_ms, True)

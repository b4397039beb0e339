"""ps, pidof and /proc as Android 14's toybox and kernel print them."""

from __future__ import annotations

import re

import pytest

NOTES = "com.simplemobiletools.notes.pro"


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


@pytest.fixture
def notes_running(fresh_phone):
    assert run(fresh_phone, f"monkey -p {NOTES} -c android.intent.category.LAUNCHER 1")[2] == 0
    return fresh_phone


def test_ps_default_format_is_androids(notes_running):
    out, err, code = run(notes_running, "ps -A")
    lines = out.splitlines()
    # toybox's Android default -o USER,PID,PPID,VSIZE:10,RSS,WCHAN:10,ADDR:10,S,NAME; the
    # last title keeps its padding, the last cell has none.
    assert lines[0] == "USER           PID  PPID        VSZ    RSS WCHAN            ADDR S NAME" + " " * 23
    assert lines[1] == "root             1     0   10904776  11780 do_epoll_wait       0 S init"
    assert re.fullmatch(r"root +2 +0 +0 +0 kthreadd +0 S \[kthreadd\]", lines[2])
    notes = [line for line in lines if line.endswith(" " + NOTES)]
    assert len(notes) == 1 and notes[0].startswith("u0_a")
    assert (err, code) == ("", 0)
    # no terminal: plain `ps` lists the same processes
    assert len(run(notes_running, "ps")[0].splitlines()) == len(lines)


def test_ps_pid_lookup_as_clients_do_it(notes_running):
    pid = run(notes_running, f"pidof {NOTES}")[0].strip()
    assert pid.isdigit()
    line = run(notes_running, f"ps | grep {NOTES}")[0]
    assert line.split()[1] == pid  # pure-python-adb's get_pid: result.split()[1]
    assert run(notes_running, f"ps -o PID,NAME -p {pid}")[0] == f"  PID NAME{' ' * 23}\n{int(pid):>5} {NOTES}\n"
    assert run(notes_running, f"ps -A -o pid=,name= -p {pid}")[0] == f"{int(pid):>5} {NOTES}\n"
    assert run(notes_running, "ps -o USER:5,PID -p 1")[0] == "USER    PID\nroot      1\n"
    assert run(notes_running, f"am force-stop {NOTES}; ps -A | grep -c {NOTES}")[0] == "0\n"


def test_ps_errors_and_no_match(fresh_phone):
    out, err, code = run(fresh_phone, "ps -p 99999")
    assert (out.startswith("USER"), len(out.splitlines()), code) == (True, 1, 1)
    assert run(fresh_phone, "ps -o BOGUS") == ("", "ps: bad -o 'BOGUS'\n", 1)
    assert run(fresh_phone, "ps -x")[1:] == ("ps: Unknown option 'x' (see \"ps --help\")\n", 1)


def test_proc_stat_meminfo_cpuinfo(fresh_phone):
    stat = run(fresh_phone, "cat /proc/stat")[0]
    cpu = re.match(r"cpu  (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)\n", stat)
    assert cpu, stat
    assert len(re.findall(r"^cpu\d+ ", stat, re.M)) == 4
    fresh_phone.run_shell("sleep 10")
    later = re.match(r"cpu  (\d+) (\d+) (\d+) (\d+)", run(fresh_phone, "cat /proc/stat")[0])
    assert int(later.group(4)) > int(cpu.group(4))  # idle time grows with the clock
    meminfo = run(fresh_phone, "cat /proc/meminfo")[0]
    assert re.match(r"MemTotal: +\d+ kB\nMemFree: +\d+ kB\nMemAvailable: +\d+ kB\n", meminfo)
    assert all(len(line.split(":")[0]) < 16 for line in meminfo.splitlines())
    assert run(fresh_phone, "grep -c ^processor /proc/cpuinfo")[0] == "4\n"
    assert run(fresh_phone, "ls /sys/devices/system/cpu | grep -c '^cpu[0-9]'")[0] == "4\n"
    assert run(fresh_phone, "cat /sys/devices/system/cpu/possible")[0] == "0-3\n"


def test_proc_pid_files(notes_running):
    pid = run(notes_running, f"pidof {NOTES}")[0].strip()
    fields = run(notes_running, f"cat /proc/{pid}/stat")[0].split()
    assert len(fields) == 52 and fields[0] == pid and fields[1] == f"({NOTES[-15:]})"
    assert run(notes_running, f"cat /proc/{pid}/cmdline")[0] == NOTES + "\0"
    assert run(notes_running, f"ls /proc/{pid}/task")[0] == f"{pid}\n"
    assert run(notes_running, "cat /proc/99999/stat")[1:] == ("cat: /proc/99999/stat: No such file or directory\n", 1)
    assert run(notes_running, "echo x > /proc/stat")[2] == 1  # read-only

"""toybox's od, xxd, base64, pgrep, pkill, nohup and timeout, and bugreport/bugreportz, through adb.

The dumps' expected bytes are what toybox 0.8.9 (Android 14's), built from its source with
scripts/single.sh, prints for the same input (toys/posix/od.c, toys/other/xxd.c,
toys/other/base64.c); pgrep/pkill follow toys/posix/ps.c, nohup toys/posix/nohup.c, timeout
toys/other/timeout.c; bugreport and bugreportz frameworks/native/cmds/bugreport(z) and
cmds/dumpstate/dumpstate.cpp.
"""

from __future__ import annotations

import io
import re
import socket
import zipfile

import pytest

SAMPLE = b"Hi\x00\x01\xff\x80 od!\n"
PATH = "/data/local/tmp/sample.bin"


def sh(adb_device, line: str) -> tuple[str, str, int]:
    result = adb_device.shell2(line, v2=True)
    return result.stdout, result.stderr, result.returncode


@pytest.fixture
def sample(adb_device):
    adb_device.sync.push(SAMPLE, PATH)
    yield PATH
    adb_device.shell(f"rm -f {PATH}")


@pytest.mark.parametrize("command, out", [
    ("od", "0000000  064510  000400  100377  067440  020544  000012\n0000013\n"),
    ("od -c", "0000000   H   i  \\0 001 377 200       o   d   !  \\n\n0000013\n"),
    ("od -A d -t x1 -t c", "0000000  48  69  00  01  ff  80  20  6f  64  21  0a\n"
                           "          H   i  \\0 001 377 200       o   d   !  \\n\n0000011\n"),
    ("od -t d2 -t u1", "0000000   26952     256  -32513   28448    8548      10\n"
                       "         72 105   0   1 255 128  32 111 100  33  10\n0000013\n"),
    ("xxd", "00000000: 4869 0001 ff80 206f 6421 0a              Hi.... od!.\n"),
    ("xxd -p", "48690001ff80206f64210a\n"),
    ("xxd -i", "  0x48, 0x69, 00, 0x01, 0xff, 0x80, 0x20, 0x6f, 0x64, 0x21, 0x0a\n"),
    ("xxd -c 4 -g 1", "00000000: 48 69 00 01  Hi..\n00000004: ff 80 20 6f  .. o\n00000008: 64 21 0a     d!.\n"),
    ("base64", "SGkAAf+AIG9kIQo=\n"),
])
def test_dumps_print_as_toybox_does(adb_device, sample, command, out):
    assert sh(adb_device, f"{command} {sample}") == (out, "", 0)


def test_dumps_round_trip_and_decode_as_toybox_does(adb_device, sample):
    assert adb_device.shell(f"xxd {sample} | xxd -r | base64 -w 0 | base64 -d | xxd -p", encoding=None) \
        == b"48690001ff80206f64210a\n"
    # base64.c do_base(): a character outside the alphabet ends the input, without an error (-i skips it)
    assert sh(adb_device, "printf 'SGkA!Af+AIG9kIQo=' | base64 -d | xxd -p") == ("486900\n", "", 0)
    assert sh(adb_device, "printf 'SGkA!Af+AIG9kIQo=' | base64 -d -i | xxd -p") == ("48690001ff80206f64210a\n", "", 0)


@pytest.mark.parametrize("line, err, code", [
    ("od -t z", "od: bad -t z\n", 1),
    ("od -A q", "od: bad -A 'q'\n", 1),
    ("od -w 0", 'od: -w < 1 (see "od --help")\n', 1),
    ("od -N x", "od: not integer: x\n", 1),
    ("xxd -c 300", 'xxd: -c > 256 (see "xxd --help")\n', 1),
    ("base64 -w -1", 'base64: -w < 0 (see "base64 --help")\n', 1),
    ("od /data/local/tmp/nope", "od: /data/local/tmp/nope: No such file or directory\n", 1),
])
def test_dump_errors(adb_device, line, err, code):
    assert sh(adb_device, line + " </dev/null")[1:] == (err, code)


def _pid(adb_device, name: str) -> int:
    rows = [line.split() for line in adb_device.shell("ps -A -o PID,NAME").splitlines()[1:]]
    return next(int(pid) for pid, proc in rows if proc == name)


def test_pgrep_matches_names_and_command_lines_as_ps_lists_them(adb_device):
    server = _pid(adb_device, "system_server")
    assert sh(adb_device, "pgrep system_server") == (f"{server}\n", "", 0)
    assert sh(adb_device, "pgrep -l -x system_server") == (f"{server} system_server\n", "", 0)
    assert sh(adb_device, "pgrep -x system_serve") == ("", "", 1)  # -x: the whole name
    zygotes = sh(adb_device, "pgrep -f -l '^zygote'")[0]
    assert re.fullmatch(r"(\d+ zygote(64)?\n){2}", zygotes)
    assert sh(adb_device, f"pgrep -d, -P 1 -x 'logd|vold'")[0] == \
        f"{_pid(adb_device, 'logd')},{_pid(adb_device, 'vold')},\n"  # ps.c do_pgk(): DELIM after each
    assert sh(adb_device, "pgrep -c -u shell -x sh")[0] == "1\n"
    assert sh(adb_device, "pgrep") == ("", 'pgrep: No PATTERN (see "pgrep --help")\n', 1)
    assert sh(adb_device, "pgrep -u nobodyxyz x") == ("", "pgrep: bad -u 'nobodyxyz'\n", 1)


def test_pkill_may_signal_only_the_shell_users_processes(adb_device):
    server = _pid(adb_device, "system_server")
    assert sh(adb_device, "pkill -x system_server") == \
        ("", f"pkill: TERM->{server}: Operation not permitted\n", 1)
    assert sh(adb_device, "pkill -9 -x nothing_like_this") == ("", "", 1)


def _start(adb_device, command: str):
    """A command left running on its own adb shell stream (as a client runs a server)."""
    conn = adb_device.shell(command, stream=True)
    conn.conn.settimeout(30)
    return conn


def _wait_for(adb_device, pattern: str) -> str:
    """The pid pgrep finds once the program has started (its shell stream is open before)."""
    for _ in range(200):
        out = sh(adb_device, f"pgrep -f '{pattern}'")[0]
        if out:
            return out.strip()
    raise AssertionError(f"{pattern} never started")


def test_pkill_ends_a_program_a_shell_runs(adb_device):
    conn = _start(adb_device, "getevent -l")
    try:
        pid = _wait_for(adb_device, "^getevent -l$")
        assert sh(adb_device, "pkill -f '^getevent -l$'") == ("", "", 0)
        conn.read_until_close()  # the program died of the signal: its shell stream closes
        assert sh(adb_device, f"ps -p {pid}")[2] == 1
    finally:
        conn.close()


def _gone(adb_device, pattern: str) -> None:
    for _ in range(500):
        if sh(adb_device, f"pgrep -f '{pattern}'")[2] == 1:
            return
    raise AssertionError(f"{pattern} still runs")


def test_nohup_program_outlives_its_shell_until_pkill(adb_device):
    conn = _start(adb_device, "nohup getevent -t")
    pid = _wait_for(adb_device, "^getevent -t$")
    conn.close()  # adbd hangs up: SIGHUP, which nohup's program ignores
    control = _start(adb_device, "getevent -q")
    _wait_for(adb_device, "^getevent -q$")
    control.close()  # hung up after the first: once it is gone, the first hang-up was handled too
    _gone(adb_device, "^getevent -q$")
    assert sh(adb_device, f"pgrep -f '^getevent -t$'")[0] == f"{pid}\n"
    assert sh(adb_device, "pkill -f '^getevent -t$'")[2] == 0
    assert sh(adb_device, f"ps -p {pid}")[2] == 1


def test_nohup_errors(adb_device):
    assert sh(adb_device, "nohup echo hi") == ("hi\n", "", 0)
    assert sh(adb_device, "nohup") == ("", 'nohup: Needs 1 argument (see "nohup --help")\n', 125)
    assert sh(adb_device, "nohup nope") == ("", "nohup: exec nope: No such file or directory\n", 127)


@pytest.mark.parametrize("line, seconds, code", [
    ("timeout 2 sleep 5", 2, 124),            # the deadline ends the sleep: 124
    ("timeout 5 sleep 1", 1, 0),
    ("timeout -s KILL 1 sleep 9", 1, 137),
    ("timeout --preserve-status 1 sleep 9", 1, 143),  # 128 + SIGTERM
    ("timeout 1 false", 0, 1),
])
def test_timeout_on_the_virtual_clock(adb_device, line, seconds, code):
    # in milliseconds: the clock also moves by each program's start (kernel/clock.py PROGRAM_MS), so a
    # whole-second difference could cross one more second boundary than the wait itself
    out = sh(adb_device, f"a=$(date +%s%3N); {line}; echo $?; echo $(( $(date +%s%3N) - a ))")[0]
    status, elapsed_ms = out.split()
    assert int(status) == code
    assert seconds * 1000 <= int(elapsed_ms) < seconds * 1000 + 100


@pytest.mark.parametrize("line, err, code", [
    ("timeout 1", 'timeout: Need 2 arguments (see "timeout --help")\n', 125),
    ("timeout x true", "timeout: Not a number 'x'\n", 125),
    ("timeout 1x true", "timeout: Unknown suffix 'x'\n", 125),
    ("timeout -s FOO 1 true", "timeout: bad -s: 'FOO'\n", 125),
    ("timeout 1 nope", "timeout: exec nope: No such file or directory\n", 127),
])
def test_timeout_errors(adb_device, line, err, code):
    assert sh(adb_device, line) == ("", err, code)


def test_timeout_ends_a_program_left_running(adb_device):
    """logcat runs until killed: timeout's TERM ends it after DURATION of host time, status 124."""
    assert sh(adb_device, "timeout 0.2 logcat -T 1")[2] == 124


def test_bugreportz_writes_dumpstates_zip_for_adb_pull(adb_device):
    adb_device.shell("log -t ShellGrammarTest 'bug report marker'")
    out = adb_device.shell("bugreportz")
    m = re.fullmatch(r"OK:(/bugreports/bugreport-[^-/]+-[^-/]+-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.zip)\n?", out)
    assert m, out
    archive = zipfile.ZipFile(io.BytesIO(adb_device.sync.read_bytes(m.group(1))))
    main = archive.read("main_entry.txt").decode()
    assert main == m.group(1).rsplit("/", 1)[1].replace(".zip", ".txt")
    assert archive.read("version.txt") == b"2.0"
    text = archive.read(main).decode()
    fingerprint = adb_device.getprop("ro.build.fingerprint")
    assert text.startswith("========================================================\n== dumpstate: ")
    assert f"Build fingerprint: '{fingerprint}'\n" in text
    assert f"[ro.build.fingerprint]: [{fingerprint}]" in text          # SYSTEM PROPERTIES
    assert re.search(r"\n\S+\s+\d+\s+\d+\s.*system_server\n", text)      # PROCESSES
    assert "ShellGrammarTest: bug report marker" in text                 # SYSTEM LOG
    assert "DUMP OF SERVICE activity:\n" in text and "DUMP OF SERVICE battery:\n" in text
    adb_device.shell(f"rm {m.group(1)}")


def test_bugreportz_progress_version_and_usage(adb_device):
    lines = adb_device.shell("bugreportz -p").splitlines()
    assert lines[0].startswith("BEGIN:/bugreports/") and lines[-1] == "OK:" + lines[0][len("BEGIN:"):]
    assert all(re.fullmatch(r"PROGRESS:\d+/100", line) for line in lines[1:-1]) and len(lines) > 2
    adb_device.shell("rm " + lines[-1][len("OK:"):])
    assert sh(adb_device, "bugreportz -v") == ("", "1.2\n", 0)
    out, err, code = sh(adb_device, "bugreportz extra")
    assert (out, code) == ("", 1) and err.startswith("usage: bugreportz [-hpsv]\n")


def test_bugreport_streams_the_report_after_its_deprecation_banner(adb_device):
    out, err, code = sh(adb_device, "bugreport")
    assert code == 0
    assert err.startswith("=" * 77 + "\nWARNING: Flat (text file, non-zipped) bugreports are deprecated.\n")
    assert out.startswith("========================================================\n== dumpstate: ")
    assert "------ SYSTEM PROPERTIES (getprop) ------\n" in out


def test_adb_bugreport_runs_bugreportz_and_pulls_the_zip(adb_server, phone, tmp_path):
    """The adb client's `adb bugreport FILE` (client/bugreport.cpp) runs `bugreportz -p`,
    follows its BEGIN/PROGRESS/OK lines and pulls the zip OK names."""
    target = tmp_path / "report.zip"
    result = adb_server.run("bugreport", str(target), serial=phone.serial)
    assert result.returncode == 0, result.stderr
    archive = zipfile.ZipFile(target)
    main = archive.read("main_entry.txt").decode()
    assert archive.read(main).startswith(b"========================================================\n== dumpstate: ")


def test_kill_builtin_signals_as_mksh_does(adb_device):
    """mksh's funcs.c c_kill(): `kill -0` asks, `kill PID` sends TERM; errors name the pid."""
    server = _pid(adb_device, "system_server")
    assert sh(adb_device, f"kill -0 {server}") == ("", f"/system/bin/sh: kill: {server}: Operation not permitted\n", 1)
    assert sh(adb_device, "kill -0 $$; echo $?") == ("0\n", "", 0)
    assert sh(adb_device, "kill -9 999999") == ("", "/system/bin/sh: kill: 999999: No such process\n", 1)
    assert sh(adb_device, "kill -s FOO 1") == ("", "/system/bin/sh: kill: bad signal: FOO\n", 1)
    assert sh(adb_device, "kill abc") == ("", "/system/bin/sh: kill: abc: arguments must be jobs or process IDs\n", 1)
    assert sh(adb_device, "kill -l 9 143") == ("KILL\nTERM\n", "", 0)
    conn = _start(adb_device, "logcat -v tag")
    try:
        pid = _wait_for(adb_device, "^logcat -v tag$")
        assert sh(adb_device, f"kill {pid}") == ("", "", 0)
        conn.read_until_close()
        assert sh(adb_device, f"kill -0 {pid}")[2] == 1
    finally:
        conn.close()

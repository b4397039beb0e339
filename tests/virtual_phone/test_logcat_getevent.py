"""logcat, log and getevent, through the real adb server (adbutils) and in-process."""

from __future__ import annotations

import re

NOTES = "com.simplemobiletools.notes.pro"
CALC = "com.simplemobiletools.calculator"


def run(phone, line: str):
    result = phone.run_shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def _read_until(conn, needle: bytes, limit: int = 1 << 20) -> bytes:
    """Read a streaming shell until ``needle`` arrived (the socket has a timeout)."""
    data = b""
    while needle not in data:
        chunk = conn.conn.recv(4096)  # AdbConnection.read(n) waits for all n bytes
        if not chunk:
            break
        data += chunk
        assert len(data) < limit
    return data


def _eventually_gone(device, name: str) -> bool:
    """The host closed the stream; the phone's shell service kills the program when it reads
    the close, so poll ps a bounded number of times (each poll is an adb round trip)."""
    for _ in range(200):
        if name not in device.shell("ps -A -o ARGS"):
            return True
    return False


def test_logcat_formats_and_filters(fresh_phone):
    run(fresh_phone, "log -t MyTag -p w careful; log -t Other hello")
    assert run(fresh_phone, "logcat -d -v brief MyTag:W *:S") == (
        "--------- beginning of main\nW/MyTag   ( 3901): careful\n", "", 0)
    threadtime = run(fresh_phone, "logcat -d -s Other")[0].splitlines()[1]
    assert re.fullmatch(r"\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}  3901  3901 I Other   : hello", threadtime)
    assert run(fresh_phone, "logcat -d -b main -v raw")[0] == "careful\nhello\n"  # one buffer: no divider
    assert run(fresh_phone, "logcat -d -b main -v tag -t 1")[0] == "I/Other   : hello\n"
    assert run(fresh_phone, "logcat -c; logcat -d") == ("", "", 0)
    assert run(fresh_phone, "logcat -b nope")[1:] == ("logcat: Unknown buffer 'nope' listed for -b.\n", 1)
    assert run(fresh_phone, "logcat -v bogus")[1:] == ("logcat: Invalid parameter 'bogus' to -v.\n", 1)


def test_activity_starts_are_logged_as_android_14_logs_them(fresh_phone):
    run(fresh_phone, f"am start -n {CALC}/.activities.SplashActivity.Orange")
    lines = run(fresh_phone, "logcat -d -b system -v brief")[0].splitlines()
    assert lines[0] == (f"I/ActivityTaskManager(  540): START u0 {{flg=0x10000000 cmp={CALC}/.activities.SplashActivity.Orange}}"
                        " with LAUNCH_MULTIPLE from uid 2000 result code=0")
    pid = run(fresh_phone, f"pidof {CALC}")[0].strip()
    assert re.fullmatch(rf"I/ActivityManager\(  540\): Start proc {pid}:{CALC}/u0a\d+ for next-top-activity "
                        rf"\{{{CALC}/\.activities\.MainActivity\}}", lines[1])
    assert re.fullmatch(rf"I/ActivityTaskManager\(  540\): Displayed {CALC}/\.activities\.MainActivity "
                        r"for user 0: \+\d+ms", lines[2])
    # BACK to an activity already on the stack starts nothing
    run(fresh_phone, "input keyevent BACK")
    assert len(run(fresh_phone, "logcat -d -b system")[0].splitlines()) == 3


def test_logcat_streams_until_the_client_closes(adb_device, phone):
    """`adb logcat -c` (exec:), then a following logcat sees an activity start as it happens."""
    # Stopped first: an `am start` of the activity already on top starts nothing, and logs no "Displayed".
    adb_device.shell(f"am force-stop {NOTES}")
    assert adb_device.shell("logcat -c") == ""
    with adb_device.shell("logcat -v brief -s ActivityTaskManager:I", stream=True, timeout=20) as conn:
        conn.conn.settimeout(20)  # a missing line fails the test instead of hanging the run
        assert "logcat -v brief" in adb_device.shell("ps -A -o ARGS")  # it runs while the stream is open
        adb_device.shell(f"am start -n {NOTES}/.activities.MainActivity")
        data = _read_until(conn, b"Displayed")
    text = data.decode()
    assert f"START u0 {{flg=0x10000000 cmp={NOTES}/.activities.MainActivity}}" in text
    assert "Displayed " + NOTES in text
    # the following logcat was killed (SIGHUP) with its stream: nothing of it is left running
    assert _eventually_gone(adb_device, "logcat")


def test_exec_logcat_clear_and_dump(adb_server, phone):
    """exec: (adb exec-out) runs logcat as DroidBot sends it."""
    result = adb_server.run("exec-out", "logcat -c", serial=phone.serial)
    assert (result.returncode, result.stdout) == (0, b"")
    adb_server.run("shell", "log -t ExecTag from-exec", serial=phone.serial)
    result = adb_server.run("exec-out", "logcat", "-d", "-s", "ExecTag", serial=phone.serial)
    assert result.stdout.decode().endswith(" I ExecTag : from-exec\n")


def test_getevent(adb_device, fresh_phone):
    out = run(fresh_phone, "getevent -p")[0]
    assert out.startswith('add device 1: /dev/input/event1\n  name:     "virtio_input_multi_touch_1"\n')
    assert "0035  : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0" in out
    assert "0036  : value 0, min 0, max 2339, fuzz 0, flat 0, resolution 0" in out
    assert "    INPUT_PROP_DIRECT\n" in out
    assert "ABS_MT_POSITION_X" in run(fresh_phone, "getevent -lp")[0]
    assert run(fresh_phone, "getevent -z")[2] == 1
    # -lt streams (here: the device list, then nothing, as no kernel device gets input)
    with adb_device.shell("getevent -lt", stream=True, timeout=20) as conn:
        conn.conn.settimeout(20)
        head = _read_until(conn, b"virtio_input_keyboard")
        assert head.startswith(b"add device 1: /dev/input/event1")
        assert "getevent -lt" in adb_device.shell("ps -A -o ARGS")
    assert _eventually_gone(adb_device, "getevent")


def test_a_background_task_force_stopped_then_started_is_a_new_launch(fresh_phone):
    # The task dies without a window change (it was behind the home screen); its next start is
    # a launch that draws, which ActivityMetricsLogger logs as Displayed, not a return to it.
    run(fresh_phone, f"monkey -p {NOTES} -c android.intent.category.LAUNCHER 1; input keyevent HOME")
    run(fresh_phone, f"am force-stop {NOTES}; logcat -c; am start -n {NOTES}/.activities.MainActivity")
    out = run(fresh_phone, "logcat -d -v brief -s ActivityTaskManager:I")[0]
    assert f"Displayed {NOTES}/.activities.MainActivity for user 0" in out, out

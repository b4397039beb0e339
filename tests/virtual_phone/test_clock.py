"""The phone's clock through adb: time passes, by the phone's own work, reproducibly.

The decision and its sources are kernel/clock.py's docstring: each program a shell starts
takes PROGRAM_MS, `sleep` its length, the first look at a changed screen LOOK_MS (uiautomator's
DumpCommand waits for a second of quiet), and nothing the host does in between. Sources for
the files: fs/proc/uptime.c (CLOCK_BOOTTIME, then idle time summed over the CPUs),
fs/proc/stat.c (btime is getboottime64's seconds: btime + uptime = now), toybox date.c (%N).
"""

from __future__ import annotations

import subprocess
from decimal import Decimal

import adbutils
import pytest

from pytest_mobileagent.virtual_phone.kernel.clock import LOOK_MS, PROGRAM_MS
from pytest_mobileagent.virtual_phone.server import bundled_adb_path as wheel_adb


@pytest.fixture
def device(phone_factory, adb_server_port):
    """A phone of its own, booted at the default start time (2024-05-01T09:00:00Z)."""
    running = phone_factory(1, prepare=False)[0]
    return adbutils.AdbClient(port=adb_server_port).device(running.serial)


def _uptime(device) -> tuple[Decimal, Decimal]:
    up, idle = device.shell("cat /proc/uptime").split()
    return Decimal(up), Decimal(idle)


def _now(device) -> Decimal:
    return Decimal(device.shell("date +%s.%N").strip())


def test_consecutive_reads_of_proc_uptime_advance(device):
    (up1, idle1), (up2, idle2) = _uptime(device), _uptime(device)
    assert up2 > up1 and idle2 >= idle1
    # two fields: uptime, then idle time summed over the CPUs (more than uptime on an idle phone
    # with several, never more than uptime times their number)
    cpus = device.shell("cat /proc/cpuinfo").count("processor\t:")
    assert cpus > 1 and up2 < idle2 <= up2 * cpus


def test_date_advances_and_agrees_with_btime_plus_uptime(device):
    first = _now(device)
    up, btime, now = device.shell("cat /proc/uptime; grep btime /proc/stat; date +%s.%N").split("\n")[:3]
    up_s, boot, now_s = Decimal(up.split()[0]), int(btime.split()[1]), Decimal(now)
    assert now_s > first
    # read one after the other: `date` ran two programs after `cat`, and /proc/uptime truncates to 1/100 s
    assert boot + up_s <= now_s < boot + up_s + Decimal("0.01") + Decimal(2 * PROGRAM_MS) / 1000
    # btime stays: it is the wall clock at boot, not now minus uptime recomputed
    assert device.shell("grep btime /proc/stat") == btime


def test_sleep_advances_the_clock_by_its_length(device):
    before, after = device.shell("date +%s.%N; sleep 2.5; date +%s.%N").split()
    assert Decimal(after) - Decimal(before) == Decimal("2.5") + Decimal(PROGRAM_MS) / 1000  # and the date's start
    up1, _ = _uptime(device)
    device.shell("sleep 60")
    up2, _ = _uptime(device)
    assert up2 - up1 >= 60


def test_log_lines_of_two_commands_differ_in_time(device):
    device.shell("log -t ClockTest first")
    device.shell("log -t ClockTest second")
    lines = [line for line in device.shell("logcat -d -v epoch -s ClockTest").splitlines() if "ClockTest" in line]
    times = [Decimal(line.split()[0]) for line in lines]
    assert [line.rsplit(": ", 1)[1] for line in lines] == ["first", "second"]
    assert times[1] > times[0]
    # -v monotonic is the same instants counted from boot: btime + monotonic = epoch
    boot = int(device.shell("grep btime /proc/stat").split()[1])
    monotonic = [Decimal(line.split()[0]) for line in
                 device.shell("logcat -d -v monotonic -s ClockTest").splitlines() if "ClockTest" in line]
    assert [boot + m for m in monotonic] == times


def test_a_look_takes_time_once_and_looking_again_takes_none(device):
    device.shell("input keyevent HOME")
    t0 = _now(device)
    device.shell("uiautomator dump /sdcard/window.xml")  # the first look since `date` ran
    t1 = _now(device)
    assert t1 - t0 == Decimal(LOOK_MS + PROGRAM_MS) / 1000
    device.shell("id")  # a program (`true` is a builtin): the phone changed, so the next look takes time again
    for _ in range(3):
        device.shell("uiautomator dump /sdcard/window.xml")
        device.screenshot()  # `screencap` through adbutils: a look too
    t2 = _now(device)
    assert t2 - t1 == Decimal(PROGRAM_MS + LOOK_MS + PROGRAM_MS) / 1000


def test_a_restarted_adbd_is_waited_for_and_took_the_phones_time(device, adb_server_port):
    """`adb root` restarts adbd (a program init starts); `adb wait-for-device` is the host's
    wait on its transport list (adb's wait_for_state), which the phone takes no part in."""
    before = _now(device)
    assert device.root() == "restarting adbd as root\n"
    waited = subprocess.run([wheel_adb(), "-P", str(adb_server_port), "-s", device.serial, "wait-for-device"],
                            capture_output=True, text=True, timeout=60)
    assert waited.returncode == 0, waited.stderr
    uid, now = device.shell("id -u; date +%s.%N").split()
    assert uid == "0"
    assert Decimal(now) == before + Decimal(3 * PROGRAM_MS) / 1000  # adbd, id, date


def _session(device) -> str:
    """The same actions on any phone, and what they show of its clock."""
    out = device.shell("date +%s.%N; cat /proc/uptime")
    device.shell("monkey -p com.simplemobiletools.notes.pro -c android.intent.category.LAUNCHER 1")
    out += device.shell("dumpsys window | grep mCurrentFocus")
    device.shell("uiautomator dump /sdcard/window.xml")
    device.shell("sleep 3; log -t Same started; touch /sdcard/Download/x")
    device.shell("input keyevent BACK")
    out += device.shell("date +%s.%N; cat /proc/uptime; logcat -d -v epoch -s Same; stat -c %Y /sdcard/Download/x")
    return out


def test_two_fresh_phones_given_the_same_actions_report_the_same_times(phone_factory, adb_server_port):
    """Same requests, same times, to the millisecond, however often the host looked in between
    (a look at a screen nothing changed takes no time)."""
    client = adbutils.AdbClient(port=adb_server_port)
    one, two = (client.device(p.serial) for p in phone_factory(2, prepare=False))
    one.shell("uiautomator dump /sdcard/window.xml")
    for _ in range(3):
        two.shell("uiautomator dump /sdcard/window.xml")
        two.screenshot()
    first, second = _session(one), _session(two)
    assert first == second
    assert "started" in first and "notes.pro" in first and first.count("\n") >= 6

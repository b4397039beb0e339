"""pure-python-adb's device helpers, unmodified, through the real adb server (issue 24).

Each helper runs the shell commands its source shows (ppadb/plugins/device/*.py,
ppadb/command/transport/__init__.py) and parses Android's answers; on the
virtual phone they must return what they return on an Android 14 phone.
"""

from __future__ import annotations

import hashlib

import pytest

ppadb_client = pytest.importorskip("ppadb.client", reason="pip install pure-python-adb (the test extra pins it)")

NOTES = "com.simplemobiletools.notes.pro"


@pytest.fixture(scope="module")
def device(phone, adb_server_port):
    client = ppadb_client.Client(host="127.0.0.1", port=adb_server_port)
    found = client.device(phone.serial)
    assert found is not None, client.devices()
    return found


def test_display_helpers(device):
    assert device.wm_size() == (1080, 2340)
    assert device.wm_density() == 440 // 160  # `wm density | cut -d ' ' -f 3`


def test_pid_lookup_and_per_process_cpu(device):
    device.shell(f"monkey -p {NOTES} -c android.intent.category.LAUNCHER 1")
    pid = device.get_pid(NOTES)  # `ps | grep PKG`: the pid column of toybox's Android format
    assert pid == device.shell(f"pidof {NOTES}").strip()
    stat = device.get_pid_cpu(pid)  # /proc/PID/stat fields 2, 14, 15
    assert stat.name == f"({NOTES[-15:]})" and stat.total() >= 0
    threads = device.get_all_thread_cpu(pid)  # ls /proc/PID/task, then each task's stat
    assert list(threads) == [pid]
    top = device.get_top_activity()  # dumpsys activity top | grep ACTIVITY
    assert (top.package, top.pid) == (NOTES, int(pid))
    assert device.get_pid("no.such.package") is None
    # dumpsys meminfo PKG: ppadb reads the TOTAL row's first seven numbers (on Android 12+
    # the fifth is the Rss column it does not know about, here as on a phone)
    meminfo = device.get_meminfo(NOTES)
    assert meminfo.pss > meminfo.private_dirty > 0 and meminfo.swapped_dirty == 0


def test_battery_cpu_and_features(device):
    assert device.get_battery_level() == 100  # dumpsys battery
    assert device.cpu_count() == 4  # ls /sys/devices/system/cpu
    times = device.cpu_times()  # cat /proc/stat, the "cpu " line's ten counters
    assert times.total() > 0 and times.idle > times.user
    device.shell("sleep 2")  # the phone's clock moves; its CPU counters follow it
    assert (device.cpu_times() - times).total() > 0
    features = device.list_features()  # pm list features 2>/dev/null
    assert features["reqGlEsVersion"] == "0x30002"
    assert features["android.hardware.touchscreen"] is True
    assert features["android.hardware.vulkan.level"] == "1"


def test_package_helpers(device):
    assert device.get_uid(NOTES).isdigit()  # dumpsys package PKG | grep userId
    assert device.is_installed(NOTES) and not device.is_installed("no.such.package")
    properties = device.get_properties()  # getprop, parsed line by line
    assert properties["ro.build.version.sdk"] == "34"
    assert f"{NOTES}" in device.list_packages()


def test_toybox_md5sum_as_uiautomator2_calls_it(device):
    data = b"uiautomator2 jar bytes\n"
    device.shell("echo 'uiautomator2 jar bytes' > /data/local/tmp/u2check.bin")
    out = device.shell("toybox md5sum /data/local/tmp/u2check.bin")
    assert out == f"{hashlib.md5(data).hexdigest()}  /data/local/tmp/u2check.bin\n"
    assert device.shell("toybox nosuchapplet") == 'toybox: Unknown command nosuchapplet (see "toybox --help")\n'

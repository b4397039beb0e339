"""The apps' manifests, as PackageManager and ActivityManager answer the shell on Android 14.

Facts: ``apps/data/manifest_facts.json`` (``tools/manifest_facts.py``, from each
app's AndroidManifest.xml at its tag merged with the Simple-Commons manifest it
pins).  Driven through the real adb server.
"""

from __future__ import annotations

import re

import pytest

from pytest_mobileagent.virtual_phone.framework.manifests import activity, requested_permissions

CAL = "com.simplemobiletools.calendar.pro"
SMS = "com.simplemobiletools.smsmessenger"
CALC = "com.simplemobiletools.calculator"


def section(dump: str, title: str) -> list[str]:
    """The indented lines under ``title`` in a package dump."""
    lines = dump.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title)
    indent = len(lines[start + 1]) - len(lines[start + 1].lstrip())
    out = []
    for line in lines[start + 1:]:
        if len(line) - len(line.lstrip()) != indent or not line.strip():
            break
        out.append(line.strip())
    return out


def test_dumpsys_package_lists_what_the_manifest_requests_in_arrayset_order(adb_device):
    adb_device.shell(f"pm clear {CAL}")  # takes back the runtime grants other tests gave
    dump = adb_device.shell(f"dumpsys package {CAL}")
    # Simple Calendar 6.23.1: SCHEDULE_EXACT_ALARM (maxSdkVersion 32) and WRITE_EXTERNAL_STORAGE (28) are
    # not requested on Android 14; USE_FINGERPRINT is tools:node="remove"d.  The order is
    # android.util.ArraySet's (ascending String.hashCode, checked with java.lang.String on this list).
    assert section(dump, "requested permissions:") == [
        "android.permission.READ_CALENDAR", "android.permission.POST_NOTIFICATIONS",
        "android.permission.RECEIVE_BOOT_COMPLETED", "android.permission.USE_EXACT_ALARM",
        "android.permission.WRITE_CALENDAR", "android.permission.VIBRATE", "android.permission.WAKE_LOCK",
        "android.permission.READ_CONTACTS"]
    assert section(dump, "install permissions:") == [
        "android.permission.RECEIVE_BOOT_COMPLETED: granted=true", "android.permission.USE_EXACT_ALARM: granted=true",
        "android.permission.VIBRATE: granted=true", "android.permission.WAKE_LOCK: granted=true"]
    runtime = section(dump, "runtime permissions:")
    assert [line.split(":")[0] for line in runtime] == [
        "android.permission.POST_NOTIFICATIONS", "android.permission.READ_CALENDAR",
        "android.permission.READ_CONTACTS", "android.permission.WRITE_CALENDAR"]
    assert all("granted=false" in line for line in runtime)


def test_runtime_grants_show_and_restricted_permissions_are_marked(adb_device):
    adb_device.shell(f"pm grant {SMS} android.permission.READ_CONTACTS")
    try:
        dump = adb_device.shell(f"dumpsys package {SMS}")
    finally:
        adb_device.shell(f"pm revoke {SMS} android.permission.READ_CONTACTS")
    requested = section(dump, "requested permissions:")
    assert "android.permission.READ_SMS: restricted=true" in requested      # hardRestricted
    assert "android.permission.SEND_SMS: restricted=true" in requested
    assert "android.permission.READ_CONTACTS" in requested
    assert len(requested) == len(requested_permissions(SMS))
    assert "android.permission.READ_CONTACTS: granted=true, flags=[ USER_SET|USER_SENSITIVE_WHEN_GRANTED|" \
           "USER_SENSITIVE_WHEN_DENIED]" in section(dump, "runtime permissions:")


def test_am_start_of_an_activity_that_is_not_exported_is_refused(adb_device):
    assert activity(CALC, f"{CALC}.activities.MainActivity").exported is False   # no filter, no exported
    result = adb_device.shell2(f"am start -n {CALC}/.activities.MainActivity", v2=True)
    assert result.returncode == 255
    lines = result.output.splitlines()
    assert lines[0] == f"Starting: Intent {{ cmp={CALC}/.activities.MainActivity }}"
    message = (rf"Permission Denial: starting Intent \{{ flg=0x10000000 cmp={CALC}/\.activities\.MainActivity \}} "
               r"from null \(pid=\d+, uid=2000\) not exported from uid (\d+)")
    assert re.fullmatch("Security exception: " + message, lines[1])
    assert lines[2] == ""
    assert re.fullmatch("java.lang.SecurityException: " + message, lines[3])
    assert lines[4].startswith("\tat com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission(")
    uid = re.fullmatch("Security exception: " + message, lines[1]).group(1)
    assert f"userId={uid}" in adb_device.shell(f"dumpsys package {CALC}")
    # Commons' About screen (android:exported="false") likewise
    assert adb_device.shell2(f"am start -n {SMS}/com.simplemobiletools.commons.activities.AboutActivity",
                             v2=True).returncode == 255


@pytest.mark.parametrize("component", [
    f"{CALC}/.activities.SettingsActivity",            # android:exported="true"
    f"{CAL}/.activities.MainActivity",                 # exported, with intent filters
    f"{CALC}/.activities.SplashActivity.Orange",       # the launcher alias
])
def test_am_start_of_an_exported_activity_goes_on(adb_device, component):
    result = adb_device.shell2(f"am start -n {component}", v2=True)
    assert result.returncode == 0 and "Security exception" not in result.output
    adb_device.shell(f"am force-stop {component.split('/')[0]}")

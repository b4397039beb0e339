"""Shell commands automation clients run beside their servers, through the real adb server.

What Appium's driver and DroidBot run over adb besides their on-device servers:
`appops`, `cmd notification`, `exec` (adb logcat's), `ps --help`, `dumpsys activity
processes|services`, `/proc/net/unix`, `am broadcast` result data, `pm list
instrumentation`, `cmd package list packages --show-versioncode`.
"""

from __future__ import annotations

import re
import subprocess


NOTES = "com.simplemobiletools.notes.pro"


def test_appops_set_get_and_errors(adb_device):
    assert adb_device.shell2(f"appops set {NOTES} android:mock_location allow").returncode == 0
    assert adb_device.shell(f"appops get {NOTES} android:mock_location") == "MOCK_LOCATION: allow"
    assert adb_device.shell(f"cmd appops get {NOTES} MOCK_LOCATION") == "MOCK_LOCATION: allow"
    # the op is parsed before the package: a missing package makes the mode the op
    result = adb_device.shell2("appops set android:mock_location allow")
    assert (result.returncode, result.output.strip()) == (255, "Error: Unknown operation string: allow")
    result = adb_device.shell2("appops set org.example.none CAMERA allow")
    assert result.returncode == 255 and "No UID for org.example.none" in result.output
    adb_device.shell(f"appops reset {NOTES}")
    assert adb_device.shell(f"appops get {NOTES}") == "No operations."


def test_notification_listeners_are_approved_in_secure_settings(adb_device):
    assert adb_device.shell2("cmd notification allow_listener org.example/.Listener").returncode == 0
    assert "org.example/.Listener" in adb_device.shell("settings get secure enabled_notification_listeners")
    adb_device.shell("cmd notification disallow_listener org.example/.Listener")
    assert "org.example/.Listener" not in adb_device.shell("settings get secure enabled_notification_listeners")
    result = adb_device.shell2("cmd notification allow_listener nonsense")
    assert result.returncode == 255 and "must be a ComponentName" in result.output


def test_exec_replaces_the_shell(adb_device, adb_server_port, phone):
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    assert adb_device.shell("exec echo first; echo never") == "first"
    # a command that cannot be run ends the shell with 127 (nothing after it runs)
    result = subprocess.run([str(bundled_adb_path()), "-P", str(adb_server_port), "-s", phone.serial, "shell",
                             "exec no_such_command; echo never"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 127 and "never" not in result.stdout
    assert "no_such_command: inaccessible or not found" in result.stderr


def test_adb_logcat_runs_through_exec(adb_server_port, phone):
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    adb = [str(bundled_adb_path()), "-P", str(adb_server_port), "-s", phone.serial]
    subprocess.run(adb + ["shell", f"am start -n {NOTES}/.activities.SplashActivity.Orange"], check=True, timeout=60)
    # `adb logcat` sends "export ANDROID_LOG_TAGS=...; exec logcat ..." to the phone
    result = subprocess.run(adb + ["logcat", "-d", "-s", "ActivityTaskManager"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "START u0 {" in result.stdout and NOTES in result.stdout


def test_ps_help_names_minus_a_as_appium_checks(adb_device):
    result = adb_device.shell2("ps --help")
    assert result.returncode == 0
    assert re.search(r"^-A\b", result.output, re.M)  # appium-adb listProcessStatus


def test_activity_processes_lists_running_apps(adb_device):
    adb_device.shell(f"am start -n {NOTES}/.activities.SplashActivity.Orange")
    pid = adb_device.shell(f"pidof {NOTES}").strip()
    dump = adb_device.shell("dumpsys activity processes")
    assert dump.startswith("ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)")
    # appium-adb listAppProcessIds' pattern
    assert re.findall(rf"ProcessRecord\{{\w+\s+(\d+):{re.escape(NOTES)}/", dump) == [pid]
    adb_device.shell(f"am force-stop {NOTES}")
    assert not re.search(rf"ProcessRecord\{{\w+\s+\d+:{re.escape(NOTES)}/", adb_device.shell("dumpsys activity processes"))


def test_proc_net_unix_lists_listening_local_sockets(adb_device, phone):
    async def idle(conn):
        while await conn.read():
            pass

    listener = phone.phone.sockets.listen("localabstract:webview_devtools_remote_4242", idle)
    try:
        table = adb_device.shell("cat /proc/net/unix").splitlines()
        assert table[0] == "Num       RefCount Protocol Flags    Type St Inode Path"
        assert any(line.endswith(" @webview_devtools_remote_4242") and " 00010000 0001 01 " in line
                   for line in table[1:])
    finally:
        listener.close()
    assert "webview_devtools_remote_4242" not in adb_device.shell("cat /proc/net/unix")


def test_activity_services_lists_bound_accessibility_services(adb_device):
    # the session phone has the project's listener installed and switched on: the system binds it
    dump = adb_device.shell("dumpsys activity services")
    assert "* ServiceRecord{" in dump and "io.github.mobileagent.listener/.ListenerService}" in dump
    assert "Bindings:" in dump
    assert adb_device.shell("dumpsys activity services org.example") == (
        "ACTIVITY MANAGER SERVICES (dumpsys activity services)\n  (nothing)")


def test_broadcast_without_receiver_has_no_result_data(adb_device):
    out = adb_device.shell("am broadcast -a io.appium.settings.clipboard.get")
    assert out.splitlines()[-1] == "Broadcast completed: result=0"  # Appium Settings is not installed

"""adbd's services of a userdebug build, through the real adb client and server and adbutils.

Sources followed (AOSP packages/modules/adb):
- daemon/restart_service.cpp: root:/unroot: answers, service.adb.root;
- daemon/main.cpp should_drop_privileges / drop_privileges: who adbd runs as after it restarts,
  its supplementary groups, --root_seclabel=u:r:su:s0 (apex/adbd.rc);
- client/commandline.cpp adb_root: `adb root` prints the answer, waits for the disconnect and
  for the device to come back;
- daemon/services.cpp: remount: runs /system/bin/remount (system/core/fs_mgr/fs_mgr_remount.cpp);
- daemon/jdwp_service.cpp: jdwp and track-jdwp lists; frameworks/base Zygote.java
  applyDebuggerSystemProperty (Android 14) for which processes have JDWP.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from pytest_mobileagent.virtual_phone.server import bundled_adb_path as wheel_adb


CALC = "com.simplemobiletools.calculator"
ROOT_ID = ("uid=0(root) gid=0(root) groups=0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),"
           "1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),"
           "3009(readproc),3011(uhid),3012(readtracefs) context=u:r:su:s0\n")


@pytest.fixture
def fresh(phone_factory, adb_server_port):
    """A phone of its own (root and props change), and an `adb -s SERIAL ...` runner."""
    running = phone_factory(1, prepare=False)[0]

    def adb(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([wheel_adb(), "-P", str(adb_server_port), "-s", running.serial, *args],
                              capture_output=True, text=True, timeout=60)
    return running, adb


def test_every_property_says_userdebug(fresh):
    _running, adb = fresh
    props = dict(line[1:-1].split("]: [", 1) for line in adb("shell", "getprop").stdout.splitlines())
    assert (props["ro.build.type"], props["ro.build.tags"], props["ro.debuggable"], props["ro.secure"]) == \
        ("userdebug", "test-keys", "1", "1")
    assert props["ro.build.fingerprint"].endswith(":userdebug/test-keys")
    assert props["ro.build.flavor"].endswith("-userdebug")
    # build/make: a non-user build displays its description, PRODUCT-VARIANT RELEASE ID NUMBER TAGS
    assert props["ro.build.display.id"] == props["ro.build.description"] == (
        f"{props['ro.build.flavor']} {props['ro.build.version.release']} {props['ro.build.id']} "
        f"{props['ro.build.version.incremental']} {props['ro.build.tags']}")


def test_adb_root_restarts_adbd_as_root_and_unroot_drops_it(fresh, adb_server_port):
    import adbutils

    running, adb = fresh
    assert adb("shell", "getprop ro.build.type; getprop ro.debuggable; getprop ro.secure").stdout == \
        "userdebug\n1\n1\n"
    assert adb("shell", "whoami").stdout == "shell\n"
    assert adb("reverse", "tcp:9999", "tcp:9999").returncode == 0
    assert "tcp:9999 tcp:9999" in adb("reverse", "--list").stdout
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    following = device.shell("logcat", stream=True)  # a stream held open across the restart

    root = adb("root")
    assert (root.returncode, root.stdout) == (0, "restarting adbd as root\n")
    # adbd restarted: its transport dropped, closing the open stream, and its reverse forwards went
    # with it; the adb server has connected again
    assert following.read_until_close()  # ends (with the log it had) instead of waiting for more
    following.close()
    assert adb("reverse", "--list").stdout == "\n"  # adb prints the (empty) list and a newline
    assert adb("shell", "id").stdout == ROOT_ID
    assert adb("shell", "whoami; getprop service.adb.root").stdout == "root\n1\n"
    ps = adb("shell", "ps -A -o USER,PID,NAME").stdout
    assert re.search(r"^root +370 adbd$", ps, re.M), ps
    assert adb("root").stdout == "adbd is already running as root\n"

    unroot = adb("unroot")
    assert (unroot.returncode, unroot.stdout) == (0, "restarting adbd as non root\n")
    assert adb("shell", "id").stdout.startswith("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input)")
    assert adb("shell", "id").stdout.endswith(" context=u:r:shell:s0\n")
    assert adb("unroot").stdout == "adbd not running as root\n"


def test_adbutils_root_answers_as_adbd_does(fresh, adb_server_port):
    import adbutils

    running, adb = fresh
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    assert device.root() == "restarting adbd as root\n"
    assert adb("wait-for-device").returncode == 0
    assert device.shell("id -u") == "0"


def test_a_production_build_refuses_root(fresh):
    running, adb = fresh
    # A user build (set at boot, as its ro. properties are): restart_root_service checks
    # __android_log_is_debuggable(), i.e. ro.debuggable.
    running.phone.props.update({"ro.debuggable": "0", "ro.build.type": "user"})
    assert adb("root").stdout == "adbd cannot run as root in production builds\n"
    assert adb("shell", "id -u").stdout == "2000\n"


def test_remount_needs_root_then_an_unlocked_bootloader(fresh):
    _running, adb = fresh
    assert adb("remount").stdout == 'Not running as root. Try "adb root" first.\n'
    assert adb("root").returncode == 0
    assert adb("shell", "getprop ro.boot.verifiedbootstate").stdout == "green\n"
    assert adb("remount").stdout == "Device must be bootloader unlocked\n"
    # the partitions stay read-only
    push = adb("shell", "touch /system/x")
    assert "Read-only file system" in push.stdout + push.stderr


def _zygote_children(adb) -> list[str]:
    rows = [line.split() for line in adb("shell", "ps -A -o PID,PPID").stdout.splitlines()[1:]]
    return [pid for pid, ppid in rows if ppid in ("290", "291")]


def test_jdwp_lists_the_processes_art_runs_with_jdwp(fresh):
    _running, adb = fresh
    # Android 14 userdebug: no app is debuggable until persist.debug.dalvik.vm.jdwp.enabled=1
    assert adb("jdwp").stdout == ""
    assert adb("shell", "setprop persist.debug.dalvik.vm.jdwp.enabled 1").returncode == 0
    listed = adb("jdwp").stdout
    assert listed.splitlines() == _zygote_children(adb)
    assert "540\n" in listed  # system_server is forked by zygote too


def test_track_jdwp_sends_the_list_again_when_it_changes(fresh, adb_server_port):
    import adbutils

    running, adb = fresh
    adb("shell", "setprop persist.debug.dalvik.vm.jdwp.enabled 1")
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    with device.open_transport() as conn:
        conn.send_command("track-jdwp")
        conn.check_okay()
        first = conn.read_string_block()  # 4 hex digits of length, then "PID\n" per process
        assert first.splitlines() == _zygote_children(adb)
        assert adb("shell", f"am start -W -n {CALC}/.activities.SplashActivity.Orange").returncode == 0
        pid = adb("shell", f"pidof {CALC}").stdout.strip()
        second = conn.read_string_block()
        assert second.splitlines() == _zygote_children(adb)
        assert pid in second.splitlines() and pid not in first.splitlines()


def test_the_interactive_shell_prompt_says_who_it_runs_as(fresh, adb_server_port):
    import adbutils

    running, adb = fresh
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)

    def prompt() -> bytes:
        with device.open_transport() as conn:
            conn.send_command("shell:")  # no command: the interactive shell, which prints its prompt
            conn.check_okay()
            return conn.conn.recv(100)

    assert prompt() == b"vphone:/ $ "
    assert adb("root").returncode == 0
    assert prompt() == b"vphone:/ # "  # mkshrc's PS1 ends in "#" for uid 0


def test_a_root_shell_starts_activities_that_are_not_exported(fresh):
    # frameworks/base ActivityManager.checkComponentPermission: "Root, system server get to do
    # everything"; the shell's uid 2000 may start exported activities only.
    _running, adb = fresh
    component = f"{CALC}/.activities.MainActivity"  # no intent filter, not exported
    refused = adb("shell", f"am start -n {component}")
    assert "Permission Denial" in refused.stderr and refused.returncode == 255
    assert adb("root").returncode == 0
    started = adb("shell", f"am start -W -n {component}")
    assert (started.returncode, started.stderr) == (0, "")
    assert "Status: ok" in started.stdout, started.stdout
    log = adb("shell", "logcat -d -b system -s ActivityTaskManager").stdout
    assert f"START u0 {{flg=0x10000000 cmp={component}}} with LAUNCH_MULTIPLE from uid 0 result code=0" in log

"""`adb install` on the virtual phone, through the real adb server, adb 36 and 29.

Both paths adb takes: streamed (``exec:cmd package install -S SIZE``, the
default since the phone advertises ``cmd``) and pushed (``--no-streaming``:
sync push, then ``pm install FILE``). Then what a phone shows of an install:
`pm list packages -f/-3`, `dumpsys package` versionName, `pm uninstall`.
"""

from __future__ import annotations

import re

import pytest

from pytest_mobileagent.apkinfo import read_apk
from pytest_mobileagent.listener import APK_PATH, PACKAGE
from pytest_mobileagent.virtual_phone import VirtualPhone


@pytest.mark.parametrize("mode", [[], ["--no-streaming"]], ids=["streamed", "pushed"])
def test_adb_install_list_dumpsys_uninstall(adb, bare_phone, mode):
    serial = bare_phone.serial
    result = adb.run("install", *mode, str(APK_PATH), serial=serial)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("Success")
    assert ("Streamed" in result.stdout) == (not mode)

    third_party = adb.run("shell", "pm list packages -3", serial=serial).stdout.split()
    assert f"package:{PACKAGE}" in third_party
    listed = adb.run("shell", f"pm list packages -f {PACKAGE}", serial=serial).stdout.strip()
    assert re.fullmatch(rf"package:/data/app/\S+/base\.apk={re.escape(PACKAGE)}", listed)
    dump = adb.run("shell", f"dumpsys package {PACKAGE}", serial=serial).stdout
    assert f"versionName={read_apk(APK_PATH.read_bytes()).version_name}" in dump and "targetSdk=28" in dump

    result = adb.run("uninstall", PACKAGE, serial=serial)
    assert (result.returncode, result.stdout.strip()) == (0, "Success")
    assert f"package:{PACKAGE}" not in adb.run("shell", "pm list packages -3", serial=serial).stdout.split()
    again = adb.run("uninstall", PACKAGE, serial=serial)
    assert again.returncode != 0
    assert "DELETE_FAILED_INTERNAL_ERROR" in again.stdout + again.stderr


@pytest.mark.parametrize("mode", [[], ["--no-streaming"]], ids=["streamed", "pushed"])
def test_adb_install_of_a_corrupt_apk_fails_as_android(adb, bare_phone, test_apks, mode):
    result = adb.run("install", *mode, str(test_apks.path("corrupt.apk")), serial=bare_phone.serial)
    assert result.returncode == 1
    assert "INSTALL_PARSE_FAILED_NOT_APK" in result.stdout + result.stderr
    assert "corrupt" not in adb.run("shell", "pm list packages -3", serial=bare_phone.serial).stdout


def test_updates_downgrades_and_old_targets(adb, bare_phone, test_apks):
    serial = bare_phone.serial

    def version() -> str:
        dump = adb.run("shell", "dumpsys package com.simplemobiletools.notes.pro", serial=serial).stdout
        return re.search(r"versionName=(\S+)", dump).group(1)

    assert adb.run("install", str(test_apks.path("notes-v3.apk")), serial=serial).returncode == 0
    assert version() == "6.17.0"
    down = adb.run("install", str(test_apks.path("notes-v2.apk")), serial=serial)
    assert down.returncode == 1 and "INSTALL_FAILED_VERSION_DOWNGRADE" in down.stdout + down.stderr
    assert version() == "6.17.0"
    assert adb.run("install", "-d", str(test_apks.path("notes-v2.apk")), serial=serial).returncode == 0
    assert version() == "6.16.0"
    old = adb.run("install", str(test_apks.path("old-target.apk")), serial=serial)
    assert old.returncode == 1 and "INSTALL_FAILED_DEPRECATED_SDK_VERSION" in old.stdout + old.stderr


def test_adbutils_install_and_uninstall(adb, bare_phone):
    """adbutils pushes, then runs `pm install` itself."""
    device = adb.client().device(bare_phone.serial)
    device.sync.push(str(APK_PATH), "/data/local/tmp/listener.apk")
    assert device.shell("pm install -r -t /data/local/tmp/listener.apk") == "Success"
    assert PACKAGE in device.list_packages()
    device.uninstall(PACKAGE)
    assert PACKAGE not in device.list_packages()


def test_pm_install_of_a_missing_file():
    fresh_phone = VirtualPhone()
    result = fresh_phone.run_shell("pm install /data/local/tmp/nope.apk")
    assert result.exit_code == 255
    assert b"Can't open file: /data/local/tmp/nope.apk" in result.stderr


def test_streamed_install_with_a_short_stdin_fails():
    fresh_phone = VirtualPhone()
    data = APK_PATH.read_bytes()
    result = fresh_phone.run_shell(f"cmd package install -S {len(data)}", stdin=data[:100])
    assert result.exit_code == 1
    assert result.stdout.startswith(b"Failure [INSTALL_FAILED_INVALID_APK")
    assert PACKAGE not in fresh_phone.packages.packages()


def test_adb_install_multiple_uses_a_session(adb, bare_phone):
    """`adb install-multiple`: install-create, install-write (streamed), install-commit."""
    result = adb.run("install-multiple", str(APK_PATH), serial=bare_phone.serial)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout
    assert f"package:{PACKAGE}" in adb.run("shell", "pm list packages -3", serial=bare_phone.serial).stdout.split()


def test_install_sessions_in_the_shell():
    phone = VirtualPhone()
    data = APK_PATH.read_bytes()
    created = phone.run_shell("pm install-create -S %d" % len(data)).stdout.decode()
    session = created[created.index("[") + 1:created.index("]")]
    written = phone.run_shell(f"pm install-write -S {len(data)} {session} base.apk -", stdin=data)
    assert written.stdout == f"Success: streamed {len(data)} bytes\n".encode()
    assert phone.run_shell(f"pm install-commit {session}").stdout == b"Success\n"
    assert PACKAGE in phone.packages.packages()
    bad = phone.run_shell(f"pm install-commit {session}")
    assert bad.exit_code == 255 and b"Bad session ID" in bad.stderr
    other = phone.run_shell("pm install-create").stdout.decode()
    other_id = other[other.index("[") + 1:other.index("]")]
    assert phone.run_shell(f"pm install-abandon {other_id}").stdout == b"Success\n"


def test_an_uninstalled_preinstalled_app_no_longer_starts():
    phone = VirtualPhone()
    calc = "com.simplemobiletools.calculator"
    assert phone.run_shell(f"pm uninstall {calc}").stdout == b"Success\n"
    assert calc not in phone.run_shell("pm list packages").stdout.decode()
    started = phone.run_shell(f"monkey -p {calc} -c android.intent.category.LAUNCHER 1")
    assert started.exit_code != 0
    assert phone.run_shell(f"dumpsys package {calc}").stdout == f"Unable to find package: {calc}\n".encode()

"""`mobileagent-setup` against virtual phones, through the real adb server (adb 36 and 29).

A phone that was just booted has no listener, so its events do not reach the
event server; after setup they do; a second run changes nothing. Bad input
stops with an error that names the file, or the device and the step.
"""

from __future__ import annotations

import contextlib
import shutil

import pytest

from listener_stream import listener_dial
from pytest_mobileagent.events.server import EventServer
from pytest_mobileagent.apkinfo import read_apk
from pytest_mobileagent.listener import APK_PATH, PACKAGE, SERVICE
from pytest_mobileagent.setup import SetupError, prepare_device, scan_apks
from pytest_mobileagent.setup.cli import main as setup_main

CALC = "com.simplemobiletools.calculator"
NOTES = "com.simplemobiletools.notes.pro"


def _launch_calculator(device) -> None:
    device.shell(f"am force-stop {CALC}; monkey -p {CALC} -c android.intent.category.LAUNCHER 1")


def _state(device) -> dict[str, str]:
    """Everything setup may change, as the device reports it."""
    return {
        "packages": device.shell("pm list packages -f"),
        "secure": device.shell("settings list secure"),
        "global": device.shell("settings list global"),
        "timezone": device.shell("getprop persist.sys.timezone"),
        "listener": device.shell(f"dumpsys package {PACKAGE}"),
        "notes": device.shell(f"dumpsys package {NOTES}"),
    }


@pytest.fixture
def apks_dir(tmp_path, test_apks):
    folder = tmp_path / "apks"
    folder.mkdir()
    shutil.copy(test_apks.path("notes-v2.apk"), folder / "Simple Notes 6.16.0.apk")
    return folder


def test_setup_installs_enables_and_then_events_flow(adb, bare_phone, apks_dir, capsys):
    device = adb.client().device(bare_phone.serial)
    with EventServer(dial=listener_dial(device)) as server:
        _launch_calculator(device)
        assert not server.wait_for_listener(0.5), "a phone without the listener served events"
        assert "closed" in server.dial_error  # adbd: nobody listens on the socket

        assert setup_main(["--device", bare_phone.serial, "--adb-port", str(adb.port),
                           "--apks", str(apks_dir)]) == 0
        out = capsys.readouterr().out
        assert "installing the listener" in out and "installing Simple Notes Pro" in out
        assert PACKAGE in device.list_packages()
        assert "versionName=6.16.0" in device.shell(f"dumpsys package {NOTES}")
        assert SERVICE in device.shell("settings get secure enabled_accessibility_services")
        assert device.shell("settings get secure accessibility_enabled") == "1"
        assert device.shell("settings get global window_animation_scale") == "0"
        assert "Simple SMS Messenger" in out  # reported missing
        assert "is version 6.16.0; the benchmark models 6.17.0" in out  # not the modelled build

        assert server.wait_for_listener(10), server.dial_error
        _launch_calculator(device)
        events = []
        while not any(e.type == "window_state" and e.package == CALC for e in events):
            assert server.wait(10), events
            events += server.drain()

        before = _state(device)
        assert setup_main(["--device", bare_phone.serial, "--adb-port", str(adb.port),
                           "--apks", str(apks_dir)]) == 0
        assert f"{bare_phone.serial}: already set up" in capsys.readouterr().out
        assert _state(device) == before


def test_setup_of_an_updated_listener_reinstalls_it(adb, bare_phone, tmp_path):
    """The installed listener's version differs from the shipped one: setup replaces it."""
    from listener_apks import build_apk

    device = adb.client().device(bare_phone.serial)
    # An older build of the listener's package, signed with the same key.
    old = build_apk(tmp_path / "old-listener.apk", PACKAGE, 0, "0.0.1")
    device.sync.push(str(old), "/data/local/tmp/old.apk")
    assert device.shell("pm install -t /data/local/tmp/old.apk") == "Success"
    report = prepare_device(device)
    shipped = read_apk(APK_PATH.read_bytes()).version_name
    assert f"installing the listener ({shipped})" in report.changed
    assert f"versionName={shipped}" in device.shell(f"dumpsys package {PACKAGE}")


@pytest.mark.parametrize("name, message", [
    ("corrupt.apk", "reading corrupt.apk failed: not an installable APK"),
    ("other.apk", "reading other.apk failed: its package is 'org.example.other', which is not one of the benchmark apps"),
])
def test_bad_apks_stop_before_any_device_is_touched(name, message, test_apks, tmp_path, bare_phone, adb, capsys):
    folder = tmp_path / "apks"
    folder.mkdir()
    shutil.copy(test_apks.path(name), folder / name)
    shutil.copy(test_apks.path("notes-v3.apk"), folder / "notes.apk")
    assert setup_main(["--device", bare_phone.serial, "--adb-port", str(adb.port), "--apks", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"mobileagent-setup: host: {message}" in err
    assert PACKAGE not in adb.client().device(bare_phone.serial).list_packages()


def test_apks_pointing_nowhere(tmp_path, capsys):
    assert setup_main(["--apks", str(tmp_path / "nowhere")]) == 2
    assert f"host: reading --apks failed: {tmp_path / 'nowhere'} is not a folder" in capsys.readouterr().err


def test_two_apks_of_one_app(tmp_path, test_apks):
    folder = tmp_path / "apks"
    folder.mkdir()
    shutil.copy(test_apks.path("notes-v2.apk"), folder / "a.apk")
    shutil.copy(test_apks.path("notes-v3.apk"), folder / "b.apk")
    with pytest.raises(SetupError, match="a.apk is already an APK of com.simplemobiletools.notes.pro"):
        scan_apks(folder)


def test_a_device_that_goes_away_mid_setup(adb_server_port):
    import adbutils

    from pytest_mobileagent.virtual_phone import start_phones

    with contextlib.ExitStack() as stack:
        phone = stack.enter_context(start_phones(1, adb_server_port=adb_server_port, prepare=False))[0]
        device = adbutils.AdbClient(port=adb_server_port).device(phone.serial)

        def unplug_when_installing(line: str) -> None:
            if "installing the listener" in line:
                stack.close()  # the phone stops serving: adb sees it go away

        with pytest.raises(SetupError) as info:
            prepare_device(device, echo=unplug_when_installing)
    assert info.value.serial == phone.serial
    assert info.value.step == "installing the listener"
    assert str(info.value).startswith(f"{phone.serial}: installing the listener failed: adb")


def test_no_device_at_all(adb_server_port, capsys, monkeypatch):
    import adbutils

    monkeypatch.setattr(adbutils.AdbClient, "device_list", lambda self: [])
    assert setup_main(["--adb-port", str(adb_server_port)]) == 2
    assert "no device" in capsys.readouterr().err


def test_the_versions_setup_expects_are_the_releases_the_phone_models():
    # Two homes for now (setup/apps.py for the plugin, the phone's apps/releases.py for
    # `dumpsys package`): the plugin must not read the phone's internals, so this holds them together.
    from pytest_mobileagent.setup.apps import BENCHMARK_APPS
    from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS

    modelled = {app.package: app.version_name for app in INSTALLED_APPS}
    assert {app.package: app.expected_version for app in BENCHMARK_APPS} == {
        app.package: modelled[app.package] for app in BENCHMARK_APPS}

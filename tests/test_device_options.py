"""Parsing of the device options: --avd, --emulator, --avd-boot-timeout, --reset, --adb-server."""

from __future__ import annotations

import pytest

from pytest_mobileagent.device.options import DeviceOptions


def options(pytester: pytest.Pytester, *args: str) -> DeviceOptions:
    return DeviceOptions.from_config(pytester.parseconfig(*args))


def test_defaults(pytester):
    assert options(pytester) == DeviceOptions(avd=None, emulator=None, avd_boot_timeout=300.0, reset="app",
                                              adb_servers=())


def test_values_from_the_command_line(pytester):
    parsed = options(pytester, "--avd", "Pixel_7", "--emulator", "/sdk/emulator/emulator",
                     "--avd-boot-timeout", "90", "--reset", "snapshot")
    assert (parsed.avd, parsed.emulator, parsed.avd_boot_timeout, parsed.reset) == \
        ("Pixel_7", "/sdk/emulator/emulator", 90.0, "snapshot")


def test_adb_servers_repeat_and_come_from_the_ini_file(pytester):
    parsed = options(pytester, "--adb-server", "10.0.0.11:5037", "--adb-server", "[fd00::2]:5038,10.0.0.11:5037")
    assert parsed.adb_servers == (("10.0.0.11", 5037), ("fd00::2", 5038))
    pytester.makeini("[pytest]\nadb_servers =\n    hostA:5037\n    hostB:6000\n")
    assert options(pytester).adb_servers == (("hostA", 5037), ("hostB", 6000))


@pytest.mark.parametrize("args, message", [
    (["--adb-server", "hostA"], "--adb-server: 'hostA' is not HOST:PORT"),
    (["--adb-server", "hostA:70000"], "--adb-server: 'hostA:70000' is not HOST:PORT"),
    (["--avd-boot-timeout", "-3"], "--avd-boot-timeout: '-3' is not a positive number of seconds"),
    (["--avd-boot-timeout", "soon"], "--avd-boot-timeout: 'soon' is not a positive number"),
    (["--avd", "x", "--device", "emulator-5554"], "give --avd or --device, not both"),
    (["--avd", "x", "--adb-server", "h:1"], "give --avd or --adb-server, not both"),
    (["--adb-server", ""], "--adb-server: an empty value"),
    (["--adb-server", "h:1,"], "--adb-server: an empty value in 'h:1,'"),
])
def test_bad_values_are_usage_errors(pytester, args, message):
    with pytest.raises(pytest.UsageError, match=message.replace("[", r"\[").replace("+", r"\+")):
        options(pytester, *args)


def test_reset_takes_only_its_modes(pytester):
    with pytest.raises(pytest.UsageError):
        pytester.parseconfig("--reset", "factory")
    pytester.makeini("[pytest]\nreset = deep\n")
    with pytest.raises(pytest.UsageError, match="--reset: 'deep' is not one of app, snapshot"):
        options(pytester)


@pytest.mark.parametrize("args, message", [
    (["--device", ""], "--device: an empty serial"),
    (["--device", "emulator-5554", "--device", " "], "--device: an empty serial in ' '"),
    (["--device", "emulator-5554,,emulator-5556"], "--device: an empty serial in 'emulator-5554,,emulator-5556'"),
])
def test_an_empty_device_is_a_usage_error_not_ignored(pytester, args, message):
    from pytest_mobileagent.options import MobileAgentOptions

    with pytest.raises(pytest.UsageError, match=message):
        MobileAgentOptions.from_config(pytester.parseconfig(*args))

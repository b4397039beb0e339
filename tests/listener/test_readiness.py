"""The readiness check: a device without the selected tasks' apps, or without a
working listener, stops the run before any task runs, naming what is missing
and the setup command."""

from __future__ import annotations

import pytest

from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen, events):
    assert screen.text(id="result") == "8"
    assert events.clicked(id="btn_equals")

@task(app="calculator", prompt="Calculate the result of '9 - 2'",
      golden=[g.tap(id="btn_9"), g.tap(id="btn_minus"), g.tap(id="btn_2"), g.tap(id="btn_equals")])
def test_subtract(screen):
    assert screen.text(id="result") == "7"
"""


@pytest.fixture
def project(pytester: pytest.Pytester):
    pytester.makepyfile(test_calc=TASKS)
    return pytester


def _errors(result) -> str:
    return "\n".join(result.outlines)


def test_a_phone_without_the_listener_is_not_ready(project, phone_factory):
    bare = phone_factory(1, prepare=False)[0]
    result, data = run_on_phone(project, bare, "--agent", "replay")
    result.assert_outcomes(errors=2)
    out = _errors(result)
    assert f"device {bare.serial} is not ready for the selected tasks: the listener app " \
           "(io.github.mobileagent.listener) is not installed" in out
    assert f"mobileagent-setup --device {bare.serial} --apks DIR" in out
    assert all(t["steps_taken"] == 0 for t in data["tasks"])


def test_a_listener_whose_service_is_off_is_not_ready(project, phone_factory, adb_server_port):
    import adbutils

    running = phone_factory(1)[0]
    adbutils.AdbClient(port=adb_server_port).device(running.serial).shell(
        "settings put secure accessibility_enabled 0")
    result, _ = run_on_phone(project, running, "--agent", "replay")
    result.assert_outcomes(errors=2)
    assert "the listener app does not connect: its accessibility service is off" in _errors(result)


def test_a_missing_app_is_named(project, phone_factory, adb_server_port):
    import adbutils

    running = phone_factory(1)[0]
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    assert device.shell("pm uninstall com.simplemobiletools.calculator") == "Success"
    result, _ = run_on_phone(project, running, "--agent", "replay")
    result.assert_outcomes(errors=2)
    assert "apps not installed: Simple Calculator (com.simplemobiletools.calculator)" in _errors(result)


def test_a_ready_phone_runs(project, phone):
    result, data = run_on_phone(project, phone, "--agent", "replay")
    result.assert_outcomes(passed=2)

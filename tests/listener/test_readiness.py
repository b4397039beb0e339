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
    # adbd answers "closed": with the service off, nothing listens on the socket.
    assert ("the listener app does not answer on localabstract:mobileagent-listener (cannot open the "
            "listener's socket: ") in _errors(result)
    assert "closed): its accessibility service is off, or it is an older version" in _errors(result)


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


MIXED = TASKS + """

@task(app="music", prompt="open setting page", golden=[g.tap(desc="More options"), g.tap(text="Settings")])
def test_music_settings(screen):
    assert screen.activity.endswith(".SettingsActivity")
"""


def test_a_missing_app_errors_only_the_tasks_that_need_it(pytester, phone_factory, adb_server_port):
    import adbutils

    pytester.makepyfile(test_calc=MIXED)
    running = phone_factory(1)[0]
    device = adbutils.AdbClient(port=adb_server_port).device(running.serial)
    assert device.shell("pm uninstall com.simplemobiletools.calculator") == "Success"
    result, data = run_on_phone(pytester, running, "--agent", "replay")
    result.assert_outcomes(passed=1, errors=2)
    records = {r["task"]: r for r in data["tasks"]}
    assert records["test_music_settings"]["success"]
    for name in ("test_add", "test_subtract"):
        assert records[name]["error"].startswith(
            f"DeviceNotReadyError: task {name} cannot run on device {running.serial}: "
            "apps not installed: Simple Calculator (com.simplemobiletools.calculator)")


# Switches the listener's accessibility service off from inside the first task,
# as a user (or an agent wandering into Settings) might.
SWITCH_OFF = """
from pytest_mobileagent.agents import Action
from pytest_mobileagent.plugin import RUNTIME_KEY

class SwitchOff:
    def __init__(self, context):
        self.config = context.config
    def step(self, observation):
        self.config.stash[RUNTIME_KEY].device.shell("settings put secure accessibility_enabled 0")
        return Action.key("BACK")

def pytest_mobileagent_register_agents(registry):
    registry.register("switch-off", SwitchOff)
"""


def test_a_listener_switched_off_mid_run_errors_each_task_naming_it(pytester, phone_factory):
    pytester.makepyfile(test_calc=TASKS + TASKS.replace("def test_", "def test_more_").split("\n", 2)[2])
    pytester.makeconftest(SWITCH_OFF)
    running = phone_factory(1)[0]
    result, data = run_on_phone(pytester, running, "--agent", "switch-off")
    result.assert_outcomes(errors=4)
    records = sorted(data["tasks"], key=lambda r: r["task"])
    listener = f"the listener app (io.github.mobileagent.listener) on device {running.serial}"
    for record in records:
        assert record["stop_reason"] == "infra_error" and not record["success"]
        assert "ListenerLostError" in record["error"] and f"on device {running.serial}" in record["error"], record
    # The task whose agent switched it off saw it during its step; the others at their readiness probe.
    during = [r for r in records if "during step" in r["error"]]
    # adbd answers "closed" once the switched-off service no longer listens on its socket.
    at_reset = [r for r in records if r["error"].startswith(
        f"ListenerLostError: {listener} does not answer on its socket any more (cannot open the listener's "
        f"socket: {running.serial}: localabstract:mobileagent-listener: adb refused: closed)")]
    assert len(during) == 1 and len(at_reset) == 3, [r["error"] for r in records]

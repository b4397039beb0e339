"""Which path each step's hierarchy took, recorded in the results: the listener
when it is connected, `uiautomator dump` otherwise (or when asked for)."""

from __future__ import annotations

import pytest

from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen, events, progress):
    progress.reach("typed", screen.text(id="result") == "3+5")
    assert screen.text(id="result") == "8"
    assert events.clicked(id="btn_equals", since="typed")
"""


@pytest.fixture
def project(pytester: pytest.Pytester):
    pytester.makepyfile(test_calc=TASKS)
    return pytester


@pytest.mark.parametrize("option, path", [([], "listener"), (["--mobileagent-hierarchy", "dump"], "uiautomator")])
def test_each_step_records_its_hierarchy_path(project, phone, option, path):
    result, data = run_on_phone(project, phone, "--agent", "replay", *option)
    result.assert_outcomes(passed=1)
    (record,) = data["tasks"]
    assert [s["observed_via"] for s in record["steps"]] == [path] * 4


def test_a_screen_still_moving_is_read_again_from_the_listener(project, phone):
    project.makeconftest("""
import pytest_mobileagent.events.server as server_module

_real = server_module.EventServer.hierarchy_reply
calls = {"n": 0}

def _moving_once(self, ticket, timeout=5.0):
    xml = _real(self, ticket, timeout)
    calls["n"] += 1
    if calls["n"] == 7:  # after the probes (run and task: 2), the initial screen and step 1 (2 each): step 2 sees a frame in between
        xml = xml.replace("</hierarchy>", "<!-- moving --></hierarchy>")
    return xml

server_module.EventServer.hierarchy_reply = _moving_once

def pytest_sessionfinish(session):
    print(f"hierarchy requests: {calls['n']}")
""")
    result, data = run_on_phone(project, phone, "--agent", "replay", "-s")
    result.assert_outcomes(passed=1)
    # The readiness probes (the run's and the task's), two per observation (initial + 4 steps),
    # and one more where two disagreed.
    result.stdout.fnmatch_lines(["*hierarchy requests: 13*"])


def test_a_listener_that_stops_answering_errors_the_task_naming_it(project, phone):
    """A listener that does not answer sends no events either: the task cannot be judged
    (issue 25: an infrastructure error naming the listener and the device, not a failure)."""
    project.makeconftest("""
import pytest_mobileagent.events.server as server_module

_real = server_module.EventServer.hierarchy_reply
calls = {"n": 0}

def _silent_after_the_probe(self, ticket, timeout=5.0):
    calls["n"] += 1
    return _real(self, ticket, timeout) if calls["n"] <= 4 else None  # the probes and the first observation

server_module.EventServer.hierarchy_reply = _silent_after_the_probe
""")
    result, data = run_on_phone(project, phone, "--agent", "replay")
    result.assert_outcomes(errors=1)
    (record,) = data["tasks"]
    assert record["stop_reason"] == "infra_error" and not record["success"]
    assert record["error"] == (
        f"ListenerLostError: the listener app (io.github.mobileagent.listener) on device {phone.serial} "
        "did not answer during step 1: no reply to a hierarchy request within 1.5 s; the device answers, so the "
        "listener's accessibility service was switched off or the app stopped; "
        f"switch it back on: mobileagent-setup --device {phone.serial}")

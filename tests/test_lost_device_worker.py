"""A worker whose device is gone leaves the run; healthy workers take its tasks (issue 25, item 3).

Real processes: a ``-n 2`` run on two virtual phones, one of them served by a
``mobileagent-phone serve`` process that a fixture of the run SIGKILLs at its
second task on that phone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

WAIT = 300  # bound on each pytest subprocess

TASK = '''
@task(app="calculator", prompt="Calculate the result of '3 + {n}'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_{n}"), g.tap(id="btn_equals")])
def test_add_{n}(screen):
    assert screen.text(id="result") == "{result}"
'''

# The phone dies between two tasks: at the setup of the second task on the doomed phone.
CONFTEST = '''
import os, signal
import pytest

seen = []

@pytest.fixture(autouse=True)
def kill_the_doomed_phone(device):
    if device.serial == os.environ["DOOMED_SERIAL"]:
        seen.append(1)
        if len(seen) == 2:
            os.kill(int(os.environ["DOOMED_PID"]), signal.SIGKILL)
    yield
'''


@pytest.fixture
def doomed_phone(adb_server_port):
    """A phone in a process of its own (prepared as the pool prepares phones): (serial, process)."""
    proc = subprocess.Popen([sys.executable, "-m", "pytest_mobileagent.virtual_phone.cli", "serve",
                             "--adb-port", str(adb_server_port)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        serial = None
        for line in proc.stdout:  # bounded: EOF if the process fails
            if line.strip() == "ready":
                break
            serial = line.split()[0]
        assert serial is not None and proc.poll() is None
        yield serial, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def test_a_worker_whose_device_dies_hands_its_tasks_to_the_healthy_worker(pytester, phone, doomed_phone,
                                                                            monkeypatch):
    doomed, proc = doomed_phone
    numbers = range(10)
    pytester.makepyfile(test_calc="import pytest\nfrom pytest_mobileagent import task, golden as g\n" + "".join(
        TASK.format(n=n, result=3 + n) for n in numbers))
    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("DOOMED_SERIAL", doomed)
    monkeypatch.setenv("DOOMED_PID", str(proc.pid))
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("-n", "2", "--device", phone.serial, "--device", doomed,
                                           "--agent", "replay", "--results-json", str(out), timeout=WAIT)
    data = json.loads(out.read_text())
    assert proc.poll() is not None  # the doomed phone was killed during the run
    records = {t["task"]: t for t in data["tasks"]}
    assert sorted(records) == [f"test_add_{n}" for n in numbers]
    errored = [t for t in records.values() if not t["success"]]
    # The task that found the device gone is the only error, and it names the device.
    assert len(errored) == 1, [(t["task"], t["device"], t["error"]) for t in errored]
    assert errored[0]["stop_reason"] == "infra_error" and doomed in errored[0]["error"]
    # The doomed phone ran one task before it died; the healthy worker ran the other eight.
    by_device = sorted(t["device"] for t in records.values() if t["success"])
    assert by_device == sorted([doomed] + [phone.serial] * 8), by_device
    result.assert_outcomes(passed=9, errors=1)
    assert result.ret == 1
    # Leaving is not a crash: no worker is replaced, the run is not interrupted.
    assert data["run"]["workers_crashed"] == [] and not data["run"]["interrupted"]
    result.stdout.fnmatch_lines([f"*gw? left the run: its device {doomed} is gone*"])


def test_a_lone_worker_whose_device_dies_reports_the_tasks_nobody_can_take(pytester, doomed_phone, monkeypatch):
    """-n 1: no other worker can take the tasks; the run still ends, each task an error naming the device."""
    doomed, proc = doomed_phone
    numbers = range(5)
    pytester.makepyfile(test_calc="import pytest\nfrom pytest_mobileagent import task, golden as g\n" + "".join(
        TASK.format(n=n, result=3 + n) for n in numbers))
    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("DOOMED_SERIAL", doomed)
    monkeypatch.setenv("DOOMED_PID", str(proc.pid))
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("-n", "1", "--device", doomed, "--agent", "replay",
                                           "--results-json", str(out), timeout=WAIT)
    data = json.loads(out.read_text())
    records = {t["task"]: t for t in data["tasks"]}
    assert sorted(records) == [f"test_add_{n}" for n in numbers]
    assert [t["task"] for t in records.values() if t["success"]] == ["test_add_0"]
    errored = [t for t in records.values() if not t["success"]]
    assert all(t["stop_reason"] == "infra_error" and doomed in t["error"] for t in errored), errored
    not_run = [t for t in errored if "no other worker was left" in t["error"]]
    assert len(not_run) == 3, [t["error"] for t in errored]
    result.assert_outcomes(passed=1, errors=4)
    assert result.ret == 1 and "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert data["run"]["workers_crashed"] == [] and data["run"]["tasks_collected"] == 5

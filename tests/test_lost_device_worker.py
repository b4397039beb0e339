"""A worker whose device is gone leaves the run; healthy workers take its tasks (issue 25, item 3).
Errors name their real cause: a dead phone or adb server, a lost listener, a phone's garbage
hierarchy (issue 37, items 3 to 5); a worker whose listener is lost leaves too.

Real processes: ``-n 2`` runs on two virtual phones, or single-process runs, on phones
served by a ``mobileagent-phone serve`` process that a fixture of the run SIGKILLs at its
second task on that phone (or whose adb server it SIGKILLs, or whose listener it switches
off, or that is served with ``--fault garbage-bounds``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time

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


@contextlib.contextmanager
def served_phone(adb_port: int, *options: str):
    """A phone in a process of its own (prepared as the pool prepares phones): (serial, process)."""
    proc = subprocess.Popen([sys.executable, "-m", "pytest_mobileagent.virtual_phone.cli", "serve",
                             "--adb-port", str(adb_port), *options],
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


@pytest.fixture
def doomed_phone(adb_server_port):
    with served_phone(adb_server_port) as served:
        yield served


def calculator_tasks(pytester: pytest.Pytester, numbers: range) -> None:
    pytester.makepyfile(test_calc="import pytest\nfrom pytest_mobileagent import task, golden as g\n" + "".join(
        TASK.format(n=n, result=3 + n) for n in numbers))


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
    result.stdout.fnmatch_lines([f"*gw? left the run: device {doomed} is gone*"])


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


def test_a_dead_phone_is_named_as_such_not_as_a_lost_listener(pytester, doomed_phone, monkeypatch):
    """Issue 37, item 3: one process, its phone killed at the second task: every later task
    says the device is gone (the adb server's word), none blames the listener."""
    doomed, proc = doomed_phone
    numbers = range(5)
    calculator_tasks(pytester, numbers)
    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("DOOMED_SERIAL", doomed)
    monkeypatch.setenv("DOOMED_PID", str(proc.pid))
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("-p", "no:xdist", "--device", doomed, "--agent", "replay",
                                           "--results-json", str(out), timeout=WAIT)
    result.assert_outcomes(passed=1, errors=4)
    errors = [t["error"] for t in json.loads(out.read_text())["tasks"] if not t["success"]]
    later = errors[1:]  # the task that met the death mid-way may say it in adb's words
    assert all(e.startswith(f"DeviceLostError: device {doomed} is gone (adb: ") for e in later), errors
    assert not any("listener" in e for e in errors), errors


# The adb server dies between two tasks: at the setup of the second task.
KILL_ADB_SERVER = """
import os, signal
import pytest

seen = []

@pytest.fixture(autouse=True)
def kill_the_adb_server(device):
    seen.append(1)
    if len(seen) == 2:
        os.kill(int(os.environ["ADB_SERVER_PID"]), signal.SIGKILL)
    yield
"""


@pytest.fixture
def own_adb_server(tmp_path):
    """An adb server of this test alone, in the foreground: (port, process)."""
    from pytest_mobileagent.device.fast_adb import host_request
    from pytest_mobileagent.errors import InfrastructureError
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([bundled_adb_path(), "-P", str(port), "nodaemon", "server"],
                            env=dict(os.environ, ADB_EMU="0"),  # no scan of other sessions' emulator ports
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                host_request("host:version", addr=("127.0.0.1", port), timeout=2)
                break
            except InfrastructureError:
                assert proc.poll() is None
                time.sleep(0.05)  # the server is starting: nothing to wait on but its port
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)


def test_a_dead_adb_server_is_named_as_such_not_as_a_lost_listener(pytester, own_adb_server, monkeypatch):
    """Issue 37, item 3: the adb server killed at the second task: the later tasks name it."""
    port, server = own_adb_server
    with served_phone(port) as (serial, _):
        calculator_tasks(pytester, range(4))
        pytester.makeconftest(KILL_ADB_SERVER)
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(port))
        monkeypatch.setenv("ADB_SERVER_PID", str(server.pid))
        out = pytester.path / "results.json"
        result = pytester.runpytest_subprocess("-p", "no:xdist", "--device", serial, "--agent", "replay",
                                               "--results-json", str(out), timeout=WAIT)
    assert server.poll() is not None
    result.assert_outcomes(passed=1, errors=3)
    errors = [t["error"] for t in json.loads(out.read_text())["tasks"] if not t["success"]]
    # The task that met the death mid-way says it in adb's words; the later ones name the server.
    assert all(e.startswith(f"DeviceLostError: the adb server at 127.0.0.1:{port} is not answering")
               for e in errors[1:]), errors
    assert not any("listener" in e for e in errors), errors


# The listener's accessibility service is switched off on the doomed phone at its second task.
SWITCH_OFF_LISTENER = """
import os
import pytest

seen = []

@pytest.fixture(autouse=True)
def switch_off_the_listener(device):
    if device.serial == os.environ["DOOMED_SERIAL"]:
        seen.append(1)
        if len(seen) == 2:
            device.shell("settings put secure accessibility_enabled 0")
    yield
"""


def test_a_worker_whose_listener_is_lost_hands_its_tasks_to_the_healthy_worker(pytester, phone, phone_factory,
                                                                              monkeypatch):
    """Issue 37, item 4: the worker leaves as one whose device is gone does; one task errors."""
    doomed = phone_factory(1)[0].serial
    monkeypatch.setenv("DOOMED_SERIAL", doomed)
    numbers = range(10)
    calculator_tasks(pytester, numbers)
    pytester.makeconftest(SWITCH_OFF_LISTENER)
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("-n", "2", "--device", phone.serial, "--device", doomed,
                                           "--agent", "replay", "--results-json", str(out), timeout=WAIT)
    data = json.loads(out.read_text())
    records = {t["task"]: t for t in data["tasks"]}
    assert sorted(records) == [f"test_add_{n}" for n in numbers]
    errored = [t for t in records.values() if not t["success"]]
    assert len(errored) == 1, [(t["task"], t["device"], t["error"]) for t in errored]
    assert errored[0]["device"] == doomed and errored[0]["error"].startswith("ListenerLostError: "), errored
    result.assert_outcomes(passed=9, errors=1)
    assert data["run"]["workers_crashed"] == [] and not data["run"]["interrupted"]
    result.stdout.fnmatch_lines([f"*gw? left the run: the listener app on its device {doomed} is lost*"])


def test_a_garbage_hierarchy_is_an_infrastructure_error_not_the_agents(pytester, adb_server_port):
    """Issue 37, item 5: well-formed XML whose views have bounds="garbage" errors every task,
    naming the hierarchy; no task is charged to the agent."""
    with served_phone(adb_server_port, "--fault", "garbage-bounds") as (serial, _):
        calculator_tasks(pytester, range(3))
        out = pytester.path / "results.json"
        result = pytester.runpytest_subprocess("-p", "no:xdist", "--device", serial, "--agent", "replay",
                                               "--results-json", str(out), timeout=WAIT)
    result.assert_outcomes(errors=3)
    for record in json.loads(out.read_text())["tasks"]:
        assert record["stop_reason"] == "infra_error", record
        assert record["error"].startswith("InfrastructureError: the view hierarchy device "), record["error"]
        assert "has bounds 'garbage', not [x1,y1][x2,y2]" in record["error"], record["error"]

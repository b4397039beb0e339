"""Two runs on one machine never share a device (issue 13, point 1).

Real processes throughout: a claim held by another process, and two pytest
runs against one adb server, the second started while the first is inside a
task on the phone it booted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from pytest_mobileagent.device.claims import DeviceClaim, device_key

WAIT = 120.0  # bound on every wait for another process


@pytest.fixture(autouse=True)
def private_claims(tmp_path, monkeypatch):
    """Claims of these tests live in a directory of their own, not the user's."""
    run_dir = tmp_path / "xdg-run"
    run_dir.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run_dir))
    return run_dir


def test_one_phone_has_one_key_whatever_adb_calls_it():
    assert device_key("emulator-5554") == device_key("127.0.0.1:5555") == device_key("localhost:5555")
    assert device_key("emulator-5556") != device_key("emulator-5554")
    assert device_key("R58M123ABC") != device_key("10.0.0.7:5555")


HOLDER = """
import sys
from pytest_mobileagent.device.claims import DeviceClaim
claim = DeviceClaim.try_claim(sys.argv[1])
print("held" if claim else "refused", flush=True)
sys.stdin.readline()
"""


def hold_in_subprocess(serial: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, serial], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_claim_excludes_other_processes_until_the_holder_dies():
    holder = hold_in_subprocess("emulator-5554")
    try:
        assert DeviceClaim.try_claim("emulator-5554") is None
        assert DeviceClaim.try_claim("127.0.0.1:5555") is None  # the same phone by another name
        with pytest.raises(Exception, match=r"in use by another run \(pid %d" % holder.pid):
            DeviceClaim.claim("emulator-5554")
    finally:
        holder.kill()  # no release: the kernel drops the lock of a killed process
        holder.wait(timeout=WAIT)
    claim = DeviceClaim.try_claim("emulator-5554")
    assert claim is not None
    claim.release()


def test_waiting_for_a_claim_ends_when_the_holder_lets_go():
    import threading

    holder = hold_in_subprocess("emulator-5560")
    try:
        with pytest.raises(Exception, match=r"in use by another run .*waited 0.2 s"):
            DeviceClaim.claim("emulator-5560", wait=0.2)
        got = []
        waiter = threading.Thread(target=lambda: got.append(DeviceClaim.claim("emulator-5560", wait=WAIT)))
        waiter.start()
        holder.stdin.write("go\n")  # the holder exits, and the kernel hands the lock on
        holder.stdin.flush()
        waiter.join(WAIT)
        assert [c.serial for c in got] == ["emulator-5560"]
        got[0].release()
    finally:
        holder.kill()
        holder.wait(timeout=WAIT)


TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen):
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '9 - 4'",
      golden=[g.tap(id="btn_9"), g.tap(id="btn_minus"), g.tap(id="btn_4"), g.tap(id="btn_equals")])
def test_sub(screen):
    assert screen.text(id="result") == "5"
"""

# The first run's agent replays the golden path, but first tells the test it is
# inside a task on its device and waits until the test says go (two FIFOs, each
# wait bounded), so the second run starts while the first holds its phone.
GATE = """
import os, select
from pytest_mobileagent.agents.builtin import ReplayAgent

class Gate(ReplayAgent):
    opened = False
    def step(self, observation):
        if not Gate.opened:
            Gate.opened = True
            with open(os.environ["GATE_READY"], "w") as ready:
                ready.write("inside a task\\n")
            fd = os.open(os.environ["GATE_GO"], os.O_RDONLY | os.O_NONBLOCK)
            try:
                select.select([fd], [], [], 120)
            finally:
                os.close(fd)
        return super().step(observation)

def pytest_mobileagent_register_agents(registry):
    registry.register("gate", Gate)
"""


# Runs both pytest runs inside a private network namespace, so that the only
# phones there are the ones they boot (an adb server lists every phone on the
# odd ports 5555-5585 of its namespace, including other tests' phones).
DRIVER = """
import json, os, select, subprocess, sys
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
import adbutils
subprocess.run([adbutils.adb_path(), "-P", "5037", "start-server"], check=True, capture_output=True)
os.environ["ANDROID_ADB_SERVER_PORT"] = "5037"
WAIT = float(sys.argv[1])
ready, go = "ready.fifo", "go.fifo"
os.mkfifo(ready)
os.mkfifo(go)
env = {**os.environ, "GATE_READY": os.path.abspath(ready), "GATE_GO": os.path.abspath(go)}
pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
ready_fd = os.open(ready, os.O_RDONLY | os.O_NONBLOCK)
first = subprocess.Popen(pytest + ["--agent", "gate", "-k", "add", "--results-json", "first.json"],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
try:
    readable, _, _ = select.select([ready_fd], [], [], WAIT)
    assert readable and os.read(ready_fd, 100).startswith(b"inside a task"), "the first run never got inside its task"
    second = subprocess.run(pytest + ["--agent", "replay", "--results-json", "second.json"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=WAIT)
finally:
    os.close(ready_fd)
    try:
        go_fd = os.open(go, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        pass  # the first run is no longer waiting
    else:
        os.write(go_fd, b"go\\n")
        os.close(go_fd)
    first_out, _ = first.communicate(timeout=WAIT)
    subprocess.run([adbutils.adb_path(), "-P", "5037", "kill-server"], capture_output=True)
print(json.dumps({"first": [first.returncode, first_out], "second": [second.returncode, second.stdout]}))
"""


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("ip"),
                    reason="needs root, unshare and ip for a private network namespace")
def test_two_concurrent_runs_use_different_devices(pytester: pytest.Pytester):
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(GATE)
    driver = subprocess.run(["unshare", "--net", sys.executable, "-c", DRIVER, str(WAIT)], cwd=pytester.path,
                            capture_output=True, text=True, timeout=3 * WAIT)
    assert driver.returncode == 0, driver.stderr[-3000:]
    runs = json.loads(driver.stdout.splitlines()[-1])
    assert runs["first"][0] == 0, runs["first"][1][-3000:]
    assert runs["second"][0] == 0, runs["second"][1][-3000:]
    first_data = json.loads((pytester.path / "first.json").read_text())
    second_data = json.loads((pytester.path / "second.json").read_text())
    assert first_data["aggregate"]["sr"] == second_data["aggregate"]["sr"] == 1.0
    assert len(first_data["tasks"]) == 1 and len(second_data["tasks"]) == 2
    assert first_data["devices"] and second_data["devices"]
    assert not set(first_data["devices"]) & set(second_data["devices"])


def test_a_requested_device_in_use_is_one_usage_error(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    holder = hold_in_subprocess(phone.serial)
    try:
        result = pytester.runpytest_subprocess("--device", phone.serial, timeout=WAIT)
    finally:
        holder.kill()
        holder.wait(timeout=WAIT)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*device {phone.serial} is in use by another run (pid {holder.pid}*"])
    result.stdout.no_fnmatch_line("*passed*")


def test_an_unknown_device_is_one_usage_error_before_any_test(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    result = pytester.runpytest_subprocess("--device", "NOSUCH", timeout=WAIT)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*requested device(s) NOSUCH not attached or not online*"])
    result.stdout.no_fnmatch_line("*error*")


def test_a_failed_or_dropped_allocation_holds_no_claim(phone, adb_server_port):
    import gc

    from pytest_mobileagent.device import DeviceAllocationError, DevicePool

    with pytest.raises(DeviceAllocationError, match="1000 devices needed"):
        DevicePool().allocate(1000)
    claim = DeviceClaim.try_claim(phone.serial)
    assert claim is not None
    claim.release()
    DevicePool([phone.serial]).allocate(1)  # never closed: dropped
    gc.collect()
    claim = DeviceClaim.try_claim(phone.serial)
    assert claim is not None
    claim.release()


def test_the_suites_phones_are_claimed_where_every_run_looks(phone, tmp_path):
    """Issue 25: a benchmark run started beside the plugin's own test suite (claims in the
    user's directory, where every run looks) finds the suite's phone in use."""
    shared = os.environ.get("MOBILEAGENT_SHARED_CLAIMS")
    assert shared, "tests/conftest.py names the directory every run looks in"
    assert DeviceClaim.try_claim(phone.serial, directory=__import__("pathlib").Path(shared)) is None
    env = dict(os.environ, XDG_RUNTIME_DIR=os.path.dirname(shared))
    if os.path.basename(shared) != "pytest-mobileagent" or not os.path.isdir(env["XDG_RUNTIME_DIR"]):
        env.pop("XDG_RUNTIME_DIR")  # the user's directory is the temporary directory's default
    (tmp_path / "test_calc.py").write_text(
        "from pytest_mobileagent import task, golden as g\n"
        "@task(app='calculator', prompt='Press equals', golden=[g.tap(id='btn_equals')])\n"
        "def test_eq(screen):\n    assert False\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "test_calc.py", "--device", phone.serial,
                           "-p", "no:cacheprovider"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=WAIT)
    assert proc.returncode == 4, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert f"device {phone.serial} is in use by another run" in proc.stderr

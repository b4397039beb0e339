"""An xdist worker dies with its controller: killed with SIGKILL, the controller cannot
tell its workers to stop, and an orphaned worker acting on its phone would act on a
phone that a new run may already have claimed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

TASK = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen):
    assert screen.text(id="result") == "8"
"""

# Says where it runs, then acts on and on (each action counted in a file, as taps
# on its phone would be).
AGENT = """
import os
from pathlib import Path

class Busy:
    def __init__(self, context):
        pass
    def step(self, observation):
        Path(os.environ["WORKER_PID_FILE"]).write_text(str(os.getpid()))
        actions = os.environ["WORKER_ACTIONS_FILE"]
        count = 0
        while True:
            count += 1
            Path(actions + ".new").write_text(str(count))
            os.replace(actions + ".new", actions)  # readers see one count or the next, never none

def pytest_mobileagent_register_agents(registry):
    registry.register("busy", Busy)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_worker_dies_with_its_killed_controller(pytester, phone):
    pytester.makepyfile(test_calc=TASK)
    pytester.makeconftest(AGENT)
    pid_file = pytester.path / "worker.pid"
    actions = pytester.path / "actions"
    env = dict(os.environ, WORKER_PID_FILE=str(pid_file), WORKER_ACTIONS_FILE=str(actions))
    controller = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-n", "1", "--agent", "busy", "--device", phone.serial,
         "-p", "no:cacheprovider"], cwd=pytester.path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not actions.exists():
            assert controller.poll() is None and time.monotonic() < deadline, "the worker never started its task"
            time.sleep(0.05)  # the worker is booting and reaching its first step
        worker = int(pid_file.read_text())
        assert worker != controller.pid and _alive(worker)
    finally:
        controller.send_signal(signal.SIGKILL)
        controller.wait(timeout=30)
    after_controller = actions.read_text()  # the controller is gone (reaped) from here on
    deadline = time.monotonic() + 60
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.01)  # watching the worker go (without the fix: seconds, acting all along)
    assert not _alive(worker), "the orphaned worker is still running"
    assert actions.read_text() == after_controller, "the orphaned worker acted after its controller was gone"

"""A run's results count every collected task, whatever crashes (issue 13, points 2, 3, 8).

Real processes: an xdist worker whose agent calls ``os._exit``, a run whose
agent sends SIGINT to its own process, and tasks whose setup fails.
"""

from __future__ import annotations

import json
import signal

import pytest

WAIT = 300  # bound on each pytest subprocess

TASK = '''
@task(app="calculator", prompt="Calculate the result of '3 + {n}'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_{n}"), g.tap(id="btn_equals")])
def test_add_{n}(screen):
    assert screen.text(id="result") == "{result}"
'''


def tasks(*numbers: int) -> str:
    return "import pytest\nfrom pytest_mobileagent import task, golden as g\n" + "".join(
        TASK.format(n=n, result=3 + n) for n in numbers)


# Replays the golden path, except in the task named by the environment, where it
# ends its own process at the first step: with os._exit (a worker crash) or SIGINT (Ctrl-C).
AGENTS = """
import os, signal
from pytest_mobileagent.agents.builtin import ReplayAgent

class Fatal(ReplayAgent):
    def reset(self, task):
        super().reset(task)
        self.fatal = task.name == os.environ.get("FATAL_TASK")
    def step(self, observation):
        if self.fatal:
            if os.environ.get("FATAL_HOW") == "sigint":
                os.kill(os.getpid(), signal.SIGINT)
            else:
                os._exit(1)
        return super().step(observation)

def pytest_mobileagent_register_agents(registry):
    registry.register("fatal", Fatal)
"""


def run(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, dict]:
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("--results-json", str(out), *args, timeout=WAIT)
    return result, json.loads(out.read_text())


def test_a_crashed_worker_loses_only_its_own_task(pytester: pytest.Pytester, phone, monkeypatch):
    pytester.makepyfile(test_calc=tasks(1, 2, 4, 5))
    pytester.makeconftest(AGENTS)
    monkeypatch.setenv("FATAL_TASK", "test_add_2")
    # One worker: the tasks after the crash can only run on its replacement,
    # which must get the device back.
    result, data = run(pytester, "-n", "1", "--device", phone.serial, "--agent", "fatal")
    result.assert_outcomes(passed=3, failed=1)
    records = {t["task"]: t for t in data["tasks"]}
    assert sorted(records) == ["test_add_1", "test_add_2", "test_add_4", "test_add_5"]
    crashed = records.pop("test_add_2")
    assert crashed["stop_reason"] == "infra_error" and "crashed while running" in crashed["error"]
    assert all(t["success"] for t in records.values()), [t["error"] for t in records.values()]
    # "tasks" counts the judged ones; the crash is an error, outside SR.
    assert data["aggregate"]["tasks"] == 3 and data["aggregate"]["errors"] == 1 and data["aggregate"]["sr"] == 1.0
    assert data["run"]["workers_crashed"] == ["gw0"] and data["run"]["tasks_run"] == 4
    result.stdout.fnmatch_lines(["*worker crashed; 4 of 4 collected tasks ran*crashed workers: gw0*",
                                 "*overall*3*1*100.0%*"])


SETUP_ERRORS = """
@pytest.fixture(scope="session")
def seeded_before_the_episode(device):
    raise RuntimeError("seeding failed")

@pytest.fixture
def seeded_after_the_reset(device):
    raise RuntimeError("pushing the file failed")

@task(app="calculator", prompt="p", golden=[g.tap(id="btn_3")])
def test_early(seeded_before_the_episode, screen):
    assert screen.text(id="result") == "3"

@task(app="calculator", prompt="p", golden=[g.tap(id="btn_3")])
def test_late(seeded_after_the_reset, screen):
    assert screen.text(id="result") == "3"
"""


def test_every_collected_task_has_a_record_even_when_its_setup_fails(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=tasks(1) + SETUP_ERRORS)
    result, data = run(pytester, "--device", phone.serial, "--agent", "replay")
    result.assert_outcomes(passed=1, errors=2)
    records = {t["task"]: t for t in data["tasks"]}
    assert sorted(records) == ["test_add_1", "test_early", "test_late"]
    assert records["test_early"]["stop_reason"] == records["test_late"]["stop_reason"] == "infra_error"
    assert "seeding failed" in records["test_early"]["error"]
    assert "pushing the file failed" in records["test_late"]["error"]
    assert data["aggregate"]["tasks"] == 1 and data["aggregate"]["errors"] == 2 and data["aggregate"]["sr"] == 1.0
    assert data["run"] == {"interrupted": False, "stopped_early": None, "exit_status": 1, "tasks_collected": 3,
                           "tasks_run": 3, "tasks_not_run": [], "tasks_skipped": [], "workers_crashed": []}


@pytest.fixture
def sigint_handled():
    """SIGINT handled in this process, so that a child starts with it at its default (as in a
    terminal) even when the tests run in a shell's background job, which ignores SIGINT: an
    ignored disposition is inherited, a handler is not."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_an_interrupted_run_says_so(pytester: pytest.Pytester, phone, monkeypatch, sigint_handled):
    pytester.makepyfile(test_calc=tasks(1, 2, 4, 5))
    pytester.makeconftest(AGENTS)
    monkeypatch.setenv("FATAL_TASK", "test_add_2")
    monkeypatch.setenv("FATAL_HOW", "sigint")
    result, data = run(pytester, "--device", phone.serial, "--agent", "fatal")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert data["run"]["interrupted"] is True and data["run"]["exit_status"] == 2
    assert data["run"]["tasks_collected"] == 4 and data["run"]["tasks_run"] == 1
    assert data["run"]["tasks_not_run"] == [f"test_calc.py::test_add_{n}" for n in (2, 4, 5)]
    result.stdout.fnmatch_lines(["*run interrupted; 1 of 4 collected tasks ran; exit status 2*"])


def test_a_run_without_tasks_prints_no_benchmark_summary_even_when_stopped_early(pytester: pytest.Pytester):
    pytester.makepyfile(test_plain="def test_one():\n    assert False\n\ndef test_two():\n    pass\n")
    result = pytester.runpytest_subprocess("-x", "-p", "no:cacheprovider", timeout=WAIT)
    result.assert_outcomes(failed=1)
    assert "mobileagent benchmark summary" not in result.stdout.str()

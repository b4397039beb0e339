"""Every built-in task on a virtual phone: the golden path passes, ``noop`` fails,
and the golden path without its last action fails."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TASK_FILES = sorted((ROOT / "task_tests").glob("test_*.py"))

# The module's fixture runs the whole benchmark three times: one worker runs all of the module
# (`--dist loadgroup`, set by tests/conftest.py) instead of each worker paying for the runs.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("golden_paths")]

TRUNCATED_AGENT = '''
from pytest_mobileagent.agents.builtin import ReplayAgent

def pytest_mobileagent_register_agents(registry):
    registry.register("replay-truncated", lambda context: ReplayAgent(context, drop_last=True))
'''


def task_names(path: Path) -> list[str]:
    """Names of the @task functions defined in one task file."""
    return [
        node.name for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Call) and getattr(d.func, "id", None) == "task" for d in node.decorator_list)
    ]


TASKS_BY_FILE = {path.name: task_names(path) for path in TASK_FILES}
TASKS = [name for names in TASKS_BY_FILE.values() for name in names]


@pytest.fixture(scope="module")
def outcomes(phone, tmp_path_factory) -> dict[str, dict[str, dict]]:
    """agent -> task name -> record, from one run of all tasks per agent."""
    tmp = tmp_path_factory.mktemp("golden")
    (tmp / "truncated_agent.py").write_text(TRUNCATED_AGENT)
    results = {}
    for agent in ("replay", "noop", "replay-truncated"):
        out = tmp / f"{agent}.json"
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", *map(str, TASK_FILES), "-p", "truncated_agent", "--agent", agent,
             "--device", phone.serial, "--results-json", str(out), "-q", "-p", "no:cacheprovider",
             "--rootdir", str(ROOT)],
            cwd=tmp, capture_output=True, text=True, timeout=600,
        )
        assert out.exists(), proc.stdout[-3000:] + proc.stderr[-2000:]
        results[agent] = {t["task"]: t for t in json.loads(out.read_text())["tasks"]}
    return results


@pytest.mark.parametrize("filename", sorted(TASKS_BY_FILE))
def test_each_app_has_its_ten_tasks(filename):
    assert len(TASKS_BY_FILE[filename]) == 10


def test_the_benchmark_is_its_hundred_tasks_on_ten_apps():
    assert len(TASKS_BY_FILE) == 10 and len(TASKS) == 100


def test_task_names_are_unique():
    assert len(set(TASKS)) == len(TASKS)


@pytest.mark.parametrize("name", TASKS)
def test_golden_path_passes(outcomes, name):
    record = outcomes["replay"][name]
    assert record["success"], record["error"]
    assert record["success_step"] == record["steps_taken"] == record["min_steps"]


@pytest.mark.parametrize("name", TASKS)
def test_noop_fails(outcomes, name):
    record = outcomes["noop"][name]
    assert not record["success"] and record["stop_reason"] == "finished" and record["steps_taken"] == 0
    assert "never shows" not in record["error"]  # every id the judge asks for is one its app has


@pytest.mark.parametrize("name", TASKS)
def test_golden_path_without_its_last_action_fails(outcomes, name):
    record = outcomes["replay-truncated"][name]
    assert record["stop_reason"] == "finished", record["error"]
    assert not record["success"] and record["steps_taken"] == record["min_steps"] - 1
    assert "never shows" not in record["error"]  # every id the judge asks for is one its app has

"""A task author's run starts fast (issue 38, item 5): what pytest's start loads, and when the phone boots.

The figures are benchmarks/bench_startup.py's; these tests check the mechanisms: a
lone run that collects a task starts getting its device right then, in a process of
its own, while pytest collects the rest; a run that collects without running boots
nothing; loading the plugin loads none of the run's machinery.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest_plugins = ["pytester"]

TASK = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen):
    assert screen.text(id="result") == "8"
"""

# Writes, in order, what the device logger said (and on which thread) and when collection ended.
RECORDER = """
import logging
from pathlib import Path

ORDER = Path(__file__).with_name("order.txt")


class Recorder(logging.Handler):
    def emit(self, record):
        with ORDER.open("a") as f:
            f.write(f"{record.threadName}: {record.getMessage()}\\n")


logger = logging.getLogger("pytest_mobileagent.device")
logger.addHandler(Recorder())
logger.setLevel(logging.INFO)


def pytest_collection_finish(session):
    with ORDER.open("a") as f:
        f.write(f"collection finished: {len(session.items)} items\\n")
"""


@pytest.fixture
def project(pytester: pytest.Pytester, empty_adb_server, monkeypatch):
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(empty_adb_server))
    # Two task modules: the phone starts with the first, the second is collected after it.
    pytester.makepyfile(test_a_calc=TASK, test_b_calc=TASK.replace("test_add", "test_add_again"))
    pytester.makeconftest(RECORDER)
    return pytester


def order(pytester: pytest.Pytester) -> list[str]:
    path = pytester.path / "order.txt"
    return path.read_text().splitlines() if path.exists() else []


def test_a_lone_run_boots_its_phone_in_a_process_of_its_own_while_collecting(project):
    result = project.runpytest_subprocess("--agent", "replay", "-k", "test_add_again")
    result.assert_outcomes(passed=1, deselected=1)
    lines = order(project)
    early = next(i for i, line in enumerate(lines) if "allocating 1 device(s) early" in line)
    collected = lines.index("collection finished: 1 items")
    assert early < collected, lines
    # The boot ran on the early thread, as a phone process (not in pytest's own process).
    booted = [line for line in lines if "booted" in line]
    assert len(booted) == 1 and booted[0].startswith("mobileagent-early-allocation: booted 1 virtual phone(s)"), lines


@pytest.mark.parametrize("args", [("--collect-only",), ("--setup-plan",), ("--fixtures",)])
def test_a_run_that_runs_no_task_boots_nothing(project, args):
    result = project.runpytest_subprocess(*args)
    assert result.ret == 0, result.stdout.str()
    assert not [line for line in order(project) if "allocating" in line or "booted" in line]


def test_a_run_of_plain_tests_boots_nothing(pytester: pytest.Pytester, empty_adb_server, monkeypatch):
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(empty_adb_server))
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    pytester.makeconftest(RECORDER)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)
    assert order(pytester) == ["collection finished: 1 items"]


#: What a run needs only once it runs a task or reports, not to load the plugin
#: (pytest loads it for every run, `--version` and `--help` included).
HEAVY = (
    "pytest_mobileagent.virtual_phone.phone", "pytest_mobileagent.virtual_phone.server",
    "pytest_mobileagent.runtime", "pytest_mobileagent.episode", "pytest_mobileagent.device.provision",
    "pytest_mobileagent.reporting.plugin", "pytest_mobileagent.setup.readiness", "pytest_mobileagent.studio",
    "adbutils", "PIL", "pyaxmlparser", "allure_commons", "orjson", "lxml", "av", "mutagen", "http.server",
)


def test_loading_the_plugin_loads_none_of_the_runs_machinery():
    code = ("import sys, pytest_mobileagent.plugin\n"
            f"print('\\n'.join(m for m in {HEAVY!r} if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert proc.stdout.split() == []

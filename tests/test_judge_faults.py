"""Judges that no thread can stop (issue 37, item 2), through real pytest runs.

A catastrophic regex holds the GIL until it ends (never, here): on the main
thread the warden's signal stops it inside ``re``, so its task errors and the
run goes on, single-process or not. C code that does not check for signals
either is ended with its process by the warden: under xdist only its task is
lost. A judge that calls ``os._exit`` errors its task. A judge that forks
leaves a child that does not keep the device from the next run.
"""

from __future__ import annotations

import json
import os
import signal

import pytest

from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

WAIT = 300  # bound on each pytest subprocess: the old code hung here forever

GOLDEN = 'GOLDEN = [g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")]\n'
HEAD = "import os, re, signal\nfrom pytest_mobileagent import task, golden as g\n" + GOLDEN

FINE = '''
@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_{name}(screen):
    assert screen.text(id="result") == "8"
'''

REGEX = HEAD + '''
@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_a_regex(screen):
    if screen.text(id="result") == "3+":
        re.match(r"(a+)+$", "a" * 40 + "b")  # exponential backtracking, all in C, GIL held
    assert screen.text(id="result") == "8"
''' + FINE.format(name="b_fine") + FINE.format(name="c_fine")

# C code that holds the GIL and never checks for signals: sum() of a range runs its loop in C.
DEAF = REGEX.replace('re.match(r"(a+)+$", "a" * 40 + "b")  # exponential backtracking, all in C, GIL held',
                     "sum(range(10 ** 13))  # hours of C, GIL held, no signal checks")

OS_EXIT = HEAD + '''
@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_a_exits(screen):
    if screen.text(id="result") == "3+":
        os._exit(7)
    assert screen.text(id="result") == "8"
''' + FINE.format(name="b_fine")

FORKS = HEAD + '''
@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_a_forks(screen):
    if screen.text(id="result") == "3+" and not os.path.exists(os.environ["CHILD_PID_FILE"]):
        pid = os.fork()  # once: the judge runs again on the same screen after an app event
        if pid == 0:  # the child outlives the run, until the test kills it
            signal.pause()
            os._exit(0)
        with open(os.environ["CHILD_PID_FILE"], "w") as f:
            f.write(str(pid))
    assert screen.text(id="result") == "8"
'''


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_a_regex_stuck_in_c_errors_its_task_and_the_run_finishes(pytester, phone_factory, workers):
    pytester.makepyfile(test_tasks=REGEX)
    devices = [arg for phone in phone_factory(2 if workers else 1) for arg in ("--device", phone.serial)]
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess(*workers, *devices, "--agent", "replay", "--judge-timeout", "1",
                                           "--results-json", str(out), "-p", "no:cacheprovider", timeout=WAIT)
    result.assert_outcomes(passed=2, errors=1)
    data = json.loads(out.read_text())  # the results file is written: the run finished
    assert data["run"]["tasks_run"] == 3
    records = {r["task"]: r for r in data["tasks"]}
    assert records["test_b_fine"]["success"] and records["test_c_fine"]["success"]
    stuck = records["test_a_regex"]
    assert not stuck["success"] and stuck["stop_reason"] == "infra_error"
    assert stuck["error"].startswith(
        "JudgeTimeout: task test_a_regex: the judge ran longer than 1 s after step 2 (--judge-timeout)"), stuck
    # Where the judge was stopped: its regex line, in the error the terminal shows; no process was ended.
    result.stdout.fnmatch_lines(["*JudgeTimeout: task test_a_regex*", "*re.match(r\"(a+)+$\"*"])
    assert "mobileagent: a judge (task body) in process" not in result.stderr.str()


def test_c_code_deaf_to_signals_costs_its_task_alone_under_xdist(pytester, phone_factory):
    pytester.makepyfile(test_tasks=DEAF)
    first, second = phone_factory(2)
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess(
        "-n", "2", "--device", first.serial, "--device", second.serial, "--agent", "replay",
        "--judge-timeout", "1", "--results-json", str(out), "-p", "no:cacheprovider", timeout=WAIT)
    records = {r["task"]: r for r in json.loads(out.read_text())["tasks"]}
    assert records["test_b_fine"]["success"] and records["test_c_fine"]["success"]
    stuck = records["test_a_regex"]
    assert not stuck["success"] and stuck["stop_reason"] == "infra_error"
    assert "crashed while running" in stuck["error"]
    # The warden's note, and faulthandler's stacks: where the judge was.
    dump = result.stdout.str() + result.stderr.str()
    assert "mobileagent: a judge (task body) in process" in dump and "in test_a_regex" in dump, dump[-3000:]


def test_c_code_deaf_to_signals_ends_a_single_process_run_naming_the_judge(pytester, phone):
    pytester.makepyfile(test_tasks=DEAF)
    result = pytester.runpytest_subprocess("--device", phone.serial, "--agent", "replay", "--judge-timeout", "1",
                                           "-p", "no:cacheprovider", timeout=WAIT)
    # Not a hang: the process ends, and stderr says which judge held it.
    assert result.ret != 0
    err = result.stderr.str()
    assert "mobileagent: a judge (task body) in process" in err and "in test_a_regex" in err, err[-3000:]


@pytest.mark.parametrize("workers", [[], ["-n", "1"]], ids=["single", "xdist"])
def test_a_judge_calling_os_exit_errors_its_task_and_the_run_goes_on(pytester, phone, workers):
    pytester.makepyfile(test_tasks=OS_EXIT)
    result, data = run_on_phone(pytester, phone, *workers, "--agent", "replay", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    records = {r["task"]: r for r in data["tasks"]}
    assert records["test_b_fine"]["success"]
    assert "JudgeExit: task test_a_exits: the judge called os._exit(7) after step 2" in records["test_a_exits"]["error"]
    assert data["run"]["tasks_run"] == 2


def test_a_child_forked_by_a_judge_does_not_keep_the_device_from_the_next_run(pytester, phone, monkeypatch):
    pytester.makepyfile(test_tasks=FORKS)
    pid_file = pytester.path / "child.pid"
    monkeypatch.setenv("CHILD_PID_FILE", str(pid_file))
    result, _ = run_on_phone(pytester, phone, "--agent", "replay", "-p", "no:cacheprovider")
    child = int(pid_file.read_text())
    try:
        result.assert_outcomes(passed=1)
        os.kill(child, 0)  # the judge's child is still there, after its run ended
        # The pid file is there: this run's judge forks no child of its own.
        again, _ = run_on_phone(pytester, phone, "--agent", "replay", "-p", "no:cacheprovider")
        again.assert_outcomes(passed=1)  # not "device ... is in use by another run"
    finally:
        os.kill(child, signal.SIGKILL)

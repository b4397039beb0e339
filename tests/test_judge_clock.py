"""A judge cannot hang a run: a judge call past --judge-timeout errors its task alone,
naming the task and where the judge was stuck; SystemExit and KeyboardInterrupt
from a judge are reported as what they are; a record never says success and
error at once."""

from __future__ import annotations

import os
import re
import signal
import threading
import time

import pytest

from plugin_support import run_on_phone
from pytest_mobileagent.errors import TaskDefinitionError
from pytest_mobileagent.judge_clock import STOP_SIGNAL, JudgeClock, JudgeExit, JudgeTimeout

pytest_plugins = ["pytester"]

TASKS = """
import sys, time
from pytest_mobileagent import task, golden as g

GOLDEN = [g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")]

@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_a_loops(screen):
    if screen.text(id="result") == "3+5":
        while True:
            pass
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_b_sleeps(screen):
    if screen.text(id="result") == "3":
        time.sleep(120)
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_c_exits(screen):
    if screen.text(id="result") == "3+":
        sys.exit(3)
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_d_interrupts(screen):
    if screen.text(id="result") == "3+":
        raise KeyboardInterrupt
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=GOLDEN)
def test_e_fine(screen):
    assert screen.text(id="result") == "8"
"""


def test_stuck_and_exiting_judges_error_their_tasks_and_the_run_goes_on(pytester, phone):
    pytester.makepyfile(test_tasks=TASKS)
    result, data = run_on_phone(pytester, phone, "--agent", "replay", "--judge-timeout", "1", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=4)
    records = {r["task"]: r for r in data["tasks"]}
    assert records["test_e_fine"]["success"]
    for name in ("test_a_loops", "test_b_sleeps", "test_c_exits", "test_d_interrupts"):
        record = records[name]
        assert (record["success"], record["stop_reason"]) == (False, "infra_error"), record
    assert records["test_a_loops"]["error"].startswith(
        "JudgeTimeout: task test_a_loops: the judge ran longer than 1 s after step 3 (--judge-timeout)")
    assert records["test_b_sleeps"]["error"].startswith(
        "JudgeTimeout: task test_b_sleeps: the judge ran longer than 1 s after step 1")
    assert "JudgeExit: task test_c_exits: the judge raised SystemExit(3) after step 2" in records["test_c_exits"]["error"]
    assert "the judge raised KeyboardInterrupt after step 2" in records["test_d_interrupts"]["error"]
    # Where each judge was stuck: its own line, in the error the terminal shows.
    result.stdout.fnmatch_lines(["*JudgeTimeout: task test_a_loops*", "*while True:*"])
    result.stdout.fnmatch_lines(["*JudgeTimeout: task test_b_sleeps*", "*time.sleep(120)*"])
    assert not any(r["success"] and r["error"] for r in data["tasks"])


def test_the_clock_reuses_its_thread_and_replaces_an_abandoned_one():
    clock = JudgeClock(2.0, "t")
    assert clock.call(lambda: 41 + 1, step=0) == 42
    with pytest.raises(AssertionError, match="not yet"):
        clock.call(lambda: (_ for _ in ()).throw(AssertionError("not yet")), step=1)

    def loop():
        while True:
            pass

    short = JudgeClock(0.2, "t")
    with pytest.raises(JudgeTimeout, match=r"(?s)task t: the judge ran longer than 0.2 s after step 4.*while True"):
        short.call(loop, step=4)
    assert short.call(lambda: "next", step=5) == "next"  # a fresh thread serves the next judge
    with pytest.raises(JudgeExit, match=r"SystemExit\(None\)"):
        clock.call(lambda: exit(), step=6)
    assert issubclass(JudgeTimeout, TaskDefinitionError) and issubclass(JudgeExit, TaskDefinitionError)


def test_no_bound_runs_the_judge_on_this_thread():
    clock = JudgeClock(None, "t")
    assert clock.call(threading.current_thread, step=0) is threading.current_thread()
    with pytest.raises(JudgeExit, match=r"SystemExit\(2\)"):
        clock.call(lambda: exit(2), step=0)


def test_on_the_main_thread_the_wardens_signal_stops_a_judge_even_inside_re():
    clock = JudgeClock(0.5, "t", watchdog=2)
    assert clock.call(threading.current_thread, step=0) is threading.main_thread()  # judged right here
    with pytest.raises(JudgeTimeout, match=r"(?s)task t: the judge ran longer than 0.5 s after step 1.*re\.match"):
        clock.call(lambda: re.match(r"(a+)+$", "a" * 40 + "b"), step=1)

    def stubborn():
        stops = 0
        while stops < 2:  # catches the first stop; the warden signals again
            try:
                time.sleep(30)
            except BaseException:
                stops += 1
        return "late"

    with pytest.raises(JudgeTimeout, match=r"(?s)after step 2.*time\.sleep\(30\)"):
        clock.call(stubborn, step=2)
    os.kill(os.getpid(), STOP_SIGNAL)  # a signal that comes after its call has ended does nothing
    assert clock.call(lambda: "next", step=3) == "next"
    with pytest.raises(JudgeExit, match="raised KeyboardInterrupt after step 4"):
        clock.call(lambda: (_ for _ in ()).throw(KeyboardInterrupt), step=4)
    with pytest.raises(KeyboardInterrupt):  # a real SIGINT (Ctrl-C) during the call stops the run
        clock.call(lambda: os.kill(os.getpid(), signal.SIGINT), step=5)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    off_main: list[str] = []
    caller = threading.Thread(target=lambda: off_main.append(clock.call(lambda: threading.current_thread().name,
                                                                        step=6)))
    caller.start()
    caller.join()
    assert off_main == ["mobileagent-judge"]  # off the main thread, the judge thread serves


@pytest.mark.parametrize("value", ["-1", "nan", "soon"])
def test_judge_timeout_option_is_validated(pytester, value):
    result = pytester.runpytest("--judge-timeout", value)
    result.stderr.fnmatch_lines(["*--judge-timeout*"])
    assert result.ret == pytest.ExitCode.USAGE_ERROR

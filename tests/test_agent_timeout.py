"""--agent-timeout: a hanging agent fails its task and the run goes on."""

from __future__ import annotations

import threading

import pytest

from pytest_mobileagent.agent_clock import AgentClock, AgentThread, AgentTimeout

from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_1_add(screen):
    assert screen.text(id="result") == "8"

@task(app="calculator", prompt="Calculate the result of '2 + 2'",
      golden=[g.tap(id="btn_2"), g.tap(id="btn_plus"), g.tap(id="btn_2"), g.tap(id="btn_equals")])
def test_2_add_again(screen):
    assert screen.text(id="result") == "4"
"""

# The hanging agents block on an Event that only the next task sets: the first
# task must time out, the second must still run, and the first one's thread,
# released then, finds the harness closed to it.
AGENTS = """
import threading
from pytest_mobileagent.agents import Action
from pytest_mobileagent.agents.builtin import ReplayAgent

release = threading.Event()
late_call_done = threading.Event()
late_calls = []

class HangsInStep:
    '''Takes one golden action, then hangs in the first task's second step.'''
    def __init__(self, context):
        self.replay = ReplayAgent(context)
    def reset(self, task):
        self.task = task.name
        self.replay.reset(task)
        if self.task == "test_2_add_again":
            release.set()
            late_call_done.wait(30)
    def step(self, observation):
        if self.task == "test_1_add" and observation.step == 1:
            release.wait(30)  # bounded: without the timeout the test fails instead of hanging
            try:
                observation.screenshot
                late_calls.append("screenshot taken")
            except Exception as exc:
                late_calls.append(f"{type(exc).__name__}: {exc}")
            late_call_done.set()
            return Action.finish()
        action = self.replay.step(observation)
        if self.task == "test_2_add_again" and action.type == "finish":
            return Action.finish(answer="; ".join(late_calls))
        return action

class HangsInRun:
    '''A driver agent: one tap, then hangs in the first task.'''
    def __init__(self, context):
        pass
    def run(self, prompt, session):
        if "2 + 2" in prompt:
            release.set()
            late_call_done.wait(30)
            return "; ".join(late_calls)
        session.before_action()
        session.device.tap(10, 10)
        session.after_action({"type": "tap", "x": 10, "y": 10})
        release.wait(30)
        try:
            session.after_action({"type": "tap", "target": "late"})
            late_calls.append("after_action accepted")
        except Exception as exc:
            late_calls.append(f"{type(exc).__name__}: {exc}")
        late_call_done.set()
        return "done"

class RecordsItsThread:
    def __init__(self, context):
        pass
    def step(self, observation):
        return Action.finish(answer=threading.current_thread().name)

def pytest_mobileagent_register_agents(registry):
    registry.register("hangs-in-step", HangsInStep)
    registry.register("hangs-in-run", HangsInRun)
    registry.register("records-its-thread", RecordsItsThread)
"""


@pytest.fixture
def project(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(AGENTS)
    return pytester


run = run_on_phone


def test_a_step_agent_that_hangs_fails_its_task_and_the_run_goes_on(project, phone):
    result, data = run(project, phone, "--agent", "hangs-in-step", "--agent-timeout", "1")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines(["*AgentTimeout: the agent spent more than 1 s on one action (step 2)*"])
    first, second = data["tasks"]
    assert first["task"] == "test_1_add" and first["stop_reason"] == "agent_error"
    assert first["steps_taken"] == 1 and "AgentTimeout" in first["error"]
    assert second["success"] and second["stop_reason"] == "finished"
    # The first task's thread, released during the second task, could not reach the device.
    assert second["answer"].startswith("AgentTimeout: the agent was given up on")
    assert (data["aggregate"]["tasks"], data["aggregate"]["successes"]) == (2, 1)


def test_a_driver_agent_that_hangs_between_actions_fails_its_task(project, phone):
    result, data = run(project, phone, "--agent", "hangs-in-run", "--agent-timeout", "1")
    result.assert_outcomes(failed=2)  # the second driver finishes without solving its task
    result.stdout.fnmatch_lines(["*AgentTimeout: *more than 1 s on one action (run(), after 1 action)*"])
    first, second = data["tasks"]
    assert first["stop_reason"] == "agent_error" and first["steps_taken"] == 1
    assert second["stop_reason"] == "finished" and second["answer"].startswith("AgentTimeout:")


def test_without_a_limit_the_agent_runs_on_pytests_thread(project, phone):
    _, data = run(project, phone, "--agent", "records-its-thread", "-o", "agent_timeout=0", "-k", "test_1")
    assert data["tasks"][0]["answer"] == "MainThread"
    _, data = run(project, phone, "--agent", "records-its-thread", "-k", "test_1")
    assert data["tasks"][0]["answer"] == "mobileagent-agent"


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf"])
def test_a_bad_agent_timeout_is_a_usage_error(pytester: pytest.Pytester, value):
    result = pytester.runpytest_subprocess(f"--agent-timeout={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--agent-timeout: '{value}'*"])


# -- the clock itself ---------------------------------------------------------------

def test_time_in_the_harness_does_not_count_against_the_agent():
    thread = AgentThread()
    clock = AgentClock(0.2, lambda: thread)

    def agent_that_waits_on_the_harness() -> str:
        with clock.harness_turn():
            # Harness work three times the limit: the clock is paused meanwhile.
            threading.Event().wait(0.6)
        return "acted"

    assert clock.call("step 1", agent_that_waits_on_the_harness) == "acted"
    assert not clock.abandoned and not thread.stuck
    thread.close()


def test_an_overrun_marks_the_thread_stuck_and_the_clock_refuses_further_calls():
    thread = AgentThread()
    clock = AgentClock(0.1, lambda: thread)
    release = threading.Event()
    with pytest.raises(AgentTimeout, match=r"more than 0.1 s on one action \(step 7\)"):
        clock.call("step 7", release.wait)
    assert thread.stuck and clock.abandoned
    with pytest.raises(AgentTimeout, match="given up on"):
        clock.call("step 8", lambda: None)
    with pytest.raises(AgentTimeout), clock.harness_turn():
        pass
    release.set()
    thread.close()


@pytest.mark.parametrize("tracer, paused", [("pdb", True), ("other", False)])
def test_an_agent_paused_in_a_debugger_is_not_timed_out(tracer, paused):
    import bdb
    import sys

    thread = AgentThread()
    clock = AgentClock(0.1, lambda: thread)
    debugger = bdb.Bdb()
    done = threading.Event()

    def agent_at_a_breakpoint() -> str:
        # What pdb.set_trace() leaves on the frames it follows (without tracing for real).
        frame = sys._getframe()
        frame.f_trace = debugger.trace_dispatch if tracer == "pdb" else (lambda *args: None)
        done.wait(0.5)  # the user stepping, five times the limit
        frame.f_trace = None
        return "acted"

    if paused:
        assert clock.call("step 1", agent_at_a_breakpoint) == "acted"
        assert not thread.stuck
    else:
        with pytest.raises(AgentTimeout):
            clock.call("step 1", agent_at_a_breakpoint)
        done.set()
    thread.close()


def test_the_agents_exceptions_reach_the_harness_unchanged():
    thread = AgentThread()
    clock = AgentClock(5.0, lambda: thread)

    def crash() -> None:
        raise KeyError("no such element")

    with pytest.raises(KeyError, match="no such element") as info:
        clock.call("step 1", crash)
    assert info.traceback[-1].name == "crash"
    assert not thread.stuck
    thread.close()


def test_an_agent_that_needs_the_main_thread_is_told_how_to_keep_it():
    import signal

    thread = AgentThread()
    clock = AgentClock(5.0, lambda: thread)
    with pytest.raises(ValueError, match="main thread") as info:
        clock.call("step 1", signal.signal, signal.SIGALRM, signal.SIG_DFL)  # as signal-based timeouts do
    assert "--agent-timeout 0 keeps it on pytest's main thread" in "\n".join(info.value.__notes__)
    thread.close()

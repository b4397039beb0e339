"""--agent-timeout: a hanging agent fails its task and the run goes on."""

from __future__ import annotations

import json
import signal
import sys
import threading

import pytest

from pytest_mobileagent.agent_clock import AgentClock, AgentTimeout

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

# The hanging agents block on an Event that nobody sets, with a bound: without
# the clock they would wake after 30 s and the tests would fail, not hang.
AGENTS = '''
import threading
import allure
from pytest_mobileagent.agents import Action
from pytest_mobileagent.agents.builtin import ReplayAgent

class Replaying:
    """The golden path; subclasses add their own behaviour around it."""
    def __init__(self, context):
        self.replay = ReplayAgent(context)
    def reset(self, task):
        self.task = task.name
        self.replay.reset(task)

class HangsInStep(Replaying):
    """Takes one golden action, then hangs in the first task's second step."""
    def step(self, observation):
        if self.task == "test_1_add" and observation.step == 1:
            threading.Event().wait(30)  # the model never answers
        return self.replay.step(observation)

class SwallowsTheInterruption(Replaying):
    """Catches everything, then asks for the screenshot as if nothing happened."""
    def step(self, observation):
        if observation.step == 1:
            try:
                threading.Event().wait(30)
            except BaseException:
                pass
            try:
                observation.screenshot
            except BaseException as exc:
                open("after_the_interruption.txt", "w").write(type(exc).__name__)
                raise
            open("after_the_interruption.txt", "w").write("screenshot served")
        return self.replay.step(observation)

class HangsInRun:
    """A driver agent: one action, then it hangs."""
    def __init__(self, context):
        pass
    def run(self, prompt, session):
        session.before_action()
        session.device.tap(10, 10)
        session.after_action({"type": "tap", "x": 10, "y": 10})
        threading.Event().wait(30)
        return "done"

class Narrating(Replaying):
    """The golden path, each step inside an Allure step of its own."""
    def step(self, observation):
        with allure.step(f"{self.task} thinks about step {observation.step}"):
            return self.replay.step(observation)

class RecordsItsThread:
    def __init__(self, context):
        pass
    def step(self, observation):
        return Action.finish(answer=threading.current_thread().name)

def pytest_mobileagent_register_agents(registry):
    registry.register("hangs-in-step", HangsInStep)
    registry.register("swallows", SwallowsTheInterruption)
    registry.register("hangs-in-run", HangsInRun)
    registry.register("narrating", Narrating)
    registry.register("records-its-thread", RecordsItsThread)
'''


@pytest.fixture
def project(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(AGENTS)
    return pytester


def test_a_step_agent_that_hangs_fails_its_task_and_the_run_goes_on(project, phone):
    result, data = run_on_phone(project, phone, "--agent", "hangs-in-step", "--agent-timeout", "1")
    result.assert_outcomes(failed=1, passed=1)
    result.stdout.fnmatch_lines([  # the short failure: what happened, then the agent's frames
        "*AgentTimeout: the agent spent more than 1 s on one action (step 2)*",
        "*threading.Event().wait(30)  # the model never answers",  # where the agent was
    ])
    first, second = data["tasks"]
    assert first["task"] == "test_1_add" and first["stop_reason"] == "agent_error"
    assert first["steps_taken"] == 1 and "AgentTimeout" in first["error"]
    assert second["success"] and second["stop_reason"] == "finished"
    assert (data["aggregate"]["tasks"], data["aggregate"]["successes"]) == (2, 1)


def test_an_agent_that_swallows_the_interruption_gets_no_more_service(project, phone):
    result, data = run_on_phone(project, phone, "--agent", "swallows", "--agent-timeout", "1", "-k", "test_1")
    result.assert_outcomes(failed=1)
    (record,) = data["tasks"]
    assert record["steps_taken"] == 1 and record["error"].startswith("AgentTimeout:")
    assert (project.path / "after_the_interruption.txt").read_text() == "_Overrun"


def test_a_driver_agent_that_hangs_between_actions_fails_its_task(project, phone):
    result, data = run_on_phone(project, phone, "--agent", "hangs-in-run", "--agent-timeout", "1", "-k", "test_1")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*AgentTimeout: *more than 1 s on one action (run(), after 1 action)*"])
    (record,) = data["tasks"]
    assert record["stop_reason"] == "agent_error" and record["steps_taken"] == 1


def test_the_agent_stays_on_pytests_thread(project, phone):
    for limit in ("0", "300"):
        _, data = run_on_phone(project, phone, "--agent", "records-its-thread", "-o", f"agent_timeout={limit}",
                               "-k", "test_1")
        assert data["tasks"][0]["answer"] == "MainThread"


def test_the_agents_own_allure_steps_land_in_its_task(project, phone):
    result, _ = run_on_phone(project, phone, "--agent", "narrating", "--alluredir", "allure-results")
    result.assert_outcomes(passed=2)
    steps_by_task = {}
    for path in (project.path / "allure-results").glob("*-result.json"):
        test = json.loads(path.read_text())
        steps_by_task[test["name"]] = [s["name"] for s in test.get("steps", []) if "thinks" in s["name"]]
    assert steps_by_task == {
        "Calculate the result of '3 + 5'": [f"test_1_add thinks about step {i}" for i in range(5)],
        "Calculate the result of '2 + 2'": [f"test_2_add_again thinks about step {i}" for i in range(5)],
    }


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "inf"])
def test_a_bad_agent_timeout_is_a_usage_error(pytester: pytest.Pytester, value):
    result = pytester.runpytest_subprocess(f"--agent-timeout={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--agent-timeout: '{value}'*"])


# -- the clock itself (on pytest's main thread, as in a run) --------------------------

def test_time_in_the_harness_does_not_count_against_the_agent():
    clock = AgentClock(0.2)

    def agent_that_waits_on_the_harness() -> str:
        with clock.harness_turn():
            # Harness work three times the limit: the clock is stopped meanwhile.
            threading.Event().wait(0.6)
        return "acted"

    assert clock.call("step 1", agent_that_waits_on_the_harness) == "acted"
    assert not clock.overrun


def test_an_overrun_interrupts_the_agent_and_the_clock_refuses_further_calls():
    clock = AgentClock(0.1)
    with pytest.raises(AgentTimeout, match=r"more than 0.1 s on one action \(step 7\)") as info:
        clock.call("step 7", threading.Event().wait, 30)
    assert type(info.value.__cause__).__name__ == "_Overrun"  # raised where the agent waited
    assert clock.overrun
    with pytest.raises(AgentTimeout, match="ran out earlier"):
        clock.call("step 8", lambda: None)


def test_the_clock_leaves_no_timer_or_handler_behind():
    before = signal.getsignal(signal.SIGALRM)
    clock = AgentClock(5.0)
    assert clock.call("step 1", lambda: "acted") == "acted"
    with pytest.raises(KeyError):
        clock.call("step 2", {}.__getitem__, "missing")
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


def test_another_timer_on_sigalrm_is_left_alone():
    # pytest-timeout's signal method: its timer governs, the clock stands aside.
    previous = signal.signal(signal.SIGALRM, lambda *args: None)
    signal.setitimer(signal.ITIMER_REAL, 30)
    try:
        remaining = AgentClock(0.1).call("step 1", lambda: signal.getitimer(signal.ITIMER_REAL)[0])
        assert 0 < remaining <= 30
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("tracer, paused", [("pdb", True), ("other", False)])
def test_an_agent_paused_in_a_debugger_is_not_timed_out(tracer, paused):
    import bdb

    clock = AgentClock(0.1)
    debugger = bdb.Bdb()

    def agent_at_a_breakpoint() -> str:
        # What pdb.set_trace() leaves on the frames it follows (without tracing for real).
        frame = sys._getframe()
        frame.f_trace = debugger.trace_dispatch if tracer == "pdb" else (lambda *args: None)
        try:
            threading.Event().wait(0.5)  # the user stepping, five times the limit
        finally:
            frame.f_trace = None
        return "acted"

    if paused:
        assert clock.call("step 1", agent_at_a_breakpoint) == "acted"
    else:
        with pytest.raises(AgentTimeout):
            clock.call("step 1", agent_at_a_breakpoint)


def test_the_agents_exceptions_reach_the_harness_unchanged():
    clock = AgentClock(5.0)

    def crash() -> None:
        raise KeyError("no such element")

    with pytest.raises(KeyError, match="no such element") as info:
        clock.call("step 1", crash)
    assert info.traceback[-1].name == "crash"
    assert not clock.overrun

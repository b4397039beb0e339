"""The random agent: seeded, reproducible, and it only taps what the screen offers."""

from __future__ import annotations

import json

from pytest_mobileagent.agents.actions import Observation
from pytest_mobileagent.agents.base import AgentContext
from pytest_mobileagent.agents.builtin import RandomAgent
from pytest_mobileagent.judge import parse_hierarchy
from pytest_mobileagent.tasks import TaskSpec
from pytest_mobileagent.virtual_phone.apps import INSTALLED_APPS
from pytest_mobileagent.virtual_phone.framework.system import AndroidSystem
from pytest_mobileagent.virtual_phone.kernel.clock import PhoneClock

CALCULATOR = "com.simplemobiletools.calculator"


def calculator_screen() -> str:
    system = AndroidSystem(clock=PhoneClock(1_700_000_000_000), apps=INSTALLED_APPS)
    system.start_activity(CALCULATOR)
    return system.dump_xml()


def spec(name: str, repeat: int = 0) -> TaskSpec:
    return TaskSpec(name=name, app="calculator", package=CALCULATOR, prompt="Calculate the result of '3 + 5'",
                    min_steps=4, repeat=repeat)


def actions(seed: int, task: str, xml: str, count: int = 40, repeat: int = 0) -> list[dict]:
    agent = RandomAgent(AgentContext(name="random", seed=seed, config=None))
    agent.reset(spec(task, repeat))
    observation = Observation(prompt="", screenshot=lambda: b"", hierarchy=xml, step=0, remaining_steps=count,
                              app=CALCULATOR, task=task)
    return [agent.step(observation).to_dict() for _ in range(count)]


def test_same_seed_same_actions_and_seed_or_task_changes_them():
    xml = calculator_screen()
    assert actions(3, "test_add", xml) == actions(3, "test_add", xml)
    assert actions(3, "test_add", xml) != actions(4, "test_add", xml)
    assert actions(3, "test_add", xml) != actions(3, "test_sub", xml)


def test_each_repetition_has_its_own_sequence_and_a_seed_and_repetition_repeat_it():
    xml = calculator_screen()
    runs = [actions(3, "test_add", xml, repeat=r) for r in range(4)]
    assert len({json.dumps(run) for run in runs}) == 4
    assert runs == [actions(3, "test_add", xml, repeat=r) for r in range(4)]
    # One agent across the repetitions, as a worker keeps it: reset alone decides the sequence.
    agent = RandomAgent(AgentContext(name="random", seed=3, config=None))
    observation = Observation(prompt="", screenshot=lambda: b"", hierarchy=xml, step=0, remaining_steps=40,
                              app=CALCULATOR, task="test_add")
    for r in (2, 0, 1):
        agent.reset(spec("test_add", r))
        assert [agent.step(observation).to_dict() for _ in range(40)] == runs[r]


def test_taps_land_on_clickable_elements_and_name_them():
    xml = calculator_screen()
    clickable = {n.center: n for n in parse_hierarchy(xml) if n.clickable and n.enabled}
    taps = [a for a in actions(5, "test_add", xml, count=200) if a["type"] == "tap"]
    assert len(taps) > 150  # BACK is the rare exception
    for tap in taps:
        node = clickable[(tap["x"], tap["y"])]
        named = {"id": node.short_id} if node.id else {"text": node.text} if node.text else None
        assert tap.get("target") == named
    assert len({(t["x"], t["y"]) for t in taps}) > 10  # it explores, not one key


def test_a_screen_without_anything_clickable_gets_back():
    xml = ('<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node index="0" text="" '
           'resource-id="" class="android.widget.FrameLayout" package="x" content-desc="" checkable="false" '
           'checked="false" clickable="false" enabled="true" focusable="false" focused="false" '
           'scrollable="false" long-clickable="false" password="false" selected="false" '
           'bounds="[0,0][1080,2340]" /></hierarchy>')
    assert {a["type"] for a in actions(1, "t", xml, count=10)} == {"key"}
    assert {a["text"] for a in actions(1, "t", xml, count=10)} == {"BACK"}


TASKS = '''
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen):
    assert screen.text(id="result") == "8"
'''


def test_a_seeded_run_on_a_phone_is_reproducible(pytester, phone):
    pytester.makepyfile(test_calc=TASKS)

    def run(seed: int, out: str) -> dict:
        result = pytester.runpytest_subprocess("--device", phone.serial, "--agent", "random",
                                               "--agent-seed", str(seed), "--results-json", out)
        outcomes = result.parseoutcomes()
        # The random agent may fail the task; nothing may error.
        assert outcomes.get("passed", 0) + outcomes.get("failed", 0) == 1 and "errors" not in outcomes
        (record,) = json.loads((pytester.path / out).read_text())["tasks"]
        return record

    first, again, other = run(11, "a.json"), run(11, "b.json"), run(12, "c.json")
    steps = [[s["action"] for s in r["steps"]] for r in (first, again, other)]
    assert steps[0] == steps[1] and steps[0] != steps[2]
    assert first["steps_taken"] == len(steps[0]) > 0
    # It never declares done: the episode ends at the budget (or at success, which stops nothing).
    assert first["stop_reason"] == "step_budget"


def test_repeat_tasks_gives_the_random_agent_k_trajectories_each_reproducible(pytester, phone):
    """--repeat-tasks K: K different trajectories of one task (pass^k can differ from pass@k), and
    a given (seed, repetition) is the same trajectory in another run."""
    pytester.makepyfile(test_calc=TASKS)

    def trajectories(out: str) -> dict[int, list[dict]]:
        result = pytester.runpytest_subprocess("--device", phone.serial, "--agent", "random", "--agent-seed", "11",
                                               "--repeat-tasks", "3", "--results-json", out)
        outcomes = result.parseoutcomes()
        assert outcomes.get("passed", 0) + outcomes.get("failed", 0) == 3 and "errors" not in outcomes
        records = json.loads((pytester.path / out).read_text())["tasks"]
        return {r["repeat"]: [s["action"] for s in r["steps"]] for r in records}

    first = trajectories("a.json")
    assert sorted(first) == [0, 1, 2]
    assert all(first.values())
    assert len({json.dumps(steps) for steps in first.values()}) == 3
    assert trajectories("b.json") == first

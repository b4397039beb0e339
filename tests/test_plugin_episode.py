"""End-to-end: tasks run by the plugin on a virtual phone (pytester, real adb server)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

TASKS = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen, events, progress):
    progress.reach("typed", screen.text(id="result") == "3+5")
    assert screen.text(id="result") == "8"
    assert events.clicked(id="btn_equals", since="typed")
"""

AGENTS = """
from pytest_mobileagent.agents import Action

class Greedy:
    '''Taps '3' forever (a late stop once the task would be done).'''
    def __init__(self, context):
        pass
    def step(self, observation):
        return Action.key("BACK") if observation.step else Action.key("HOME")

class Crashing:
    def __init__(self, context):
        pass
    def step(self, observation):
        raise RuntimeError("model returned garbage")

class Truncated:
    '''The golden path without its last action.'''
    def __init__(self, context):
        from pytest_mobileagent.agents.builtin import ReplayAgent
        self.replay = ReplayAgent(context, drop_last=True)
    def reset(self, task):
        self.replay.reset(task)
    def step(self, observation):
        return self.replay.step(observation)

class Overdoing:
    '''The golden path, then waits until the budget is spent (over-execution).'''
    def __init__(self, context):
        from pytest_mobileagent.agents.builtin import ReplayAgent
        self.replay = ReplayAgent(context)
    def reset(self, task):
        self.replay.reset(task)
    def step(self, observation):
        action = self.replay.step(observation)
        return Action.wait() if action.type == "finish" else action

class Accented:
    '''Types text the phone's keyboard has no keys for.'''
    def __init__(self, context):
        pass
    def step(self, observation):
        return Action.type("3+5=café")

class Teller:
    '''Declares done at once, answering which repetition reset(task) said this episode is.'''
    def __init__(self, context):
        self.repeat = None
    def reset(self, task):
        self.repeat = task.repeat
    def step(self, observation):
        return Action.finish(f"repeat {self.repeat}")

def pytest_mobileagent_register_agents(registry):
    registry.register("teller", Teller)
    registry.register("accented", Accented)
    registry.register("overdoing", Overdoing)
    registry.register("greedy", Greedy)
    registry.register("crashing", Crashing)
    registry.register("truncated", Truncated)
"""


@pytest.fixture
def project(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(AGENTS)
    return pytester


run = run_on_phone


def test_replay_passes_and_records_the_trajectory(project, phone):
    result, data = run(project, phone, "--agent", "replay", "--mobileagent-screenshots", "all")
    result.assert_outcomes(passed=1)
    (record,) = data["tasks"]
    assert record["success"] and record["success_step"] == 4 and record["steps_taken"] == 4
    assert record["stop_reason"] == "finished" and record["device"] == phone.serial
    assert record["milestones_reached"] == ["typed"]
    assert [s["action"]["target"] for s in record["steps"]] == [
        {"id": "btn_3"}, {"id": "btn_plus"}, {"id": "btn_5"}, {"id": "btn_equals"}
    ]
    # every screen was captured: ROR compares screenshots (AndroidLab's definition)
    assert [s["screen_change_source"] for s in record["steps"]] == ["screenshot"] * 4
    assert all(s["screen_changed"] for s in record["steps"])
    assert data["aggregate"]["ror_sources"] == {"screenshot": 4, "hierarchy": 0}
    assert all(Path(s["screenshot"]).read_bytes().startswith(b"\x89PNG") for s in record["steps"])
    assert any(e["type"] == "click" and e["id"].endswith(":id/btn_equals") for e in record["event_log"])


def test_each_step_screenshot_shows_the_screen_its_action_left(project, phone):
    # With a step agent the screenshot arrives while the harness judges; it
    # must still be the settled screen after its own action, not the next one.
    from pytest_mobileagent.device import Device

    result, data = run(project, phone, "--agent", "replay", "--mobileagent-screenshots", "all")
    result.assert_outcomes(passed=1)
    (record,) = data["tasks"]
    shots = [Path(record["initial_screenshot"]).read_bytes()]
    shots += [Path(s["screenshot"]).read_bytes() for s in record["steps"]]
    assert len(set(shots)) == len(shots) == 5  # "0", "3", "3+", "3+5", "8": every one differs
    with Device(phone.serial) as device:
        assert device.screenshot_png() == shots[-1]  # the phone still shows the last step's screen
    # Waiting for a screenshot is the harness's time, never taken from the agent's.
    assert all(s["agent_seconds"] > 0 and s["harness_seconds"] > 0 for s in record["steps"])


def test_a_screen_still_moving_is_dumped_again_and_its_screenshot_dropped(project, phone):
    # Every dump after the first brings a screenshot along; while the dumps
    # disagree, the screen is moving, and its screenshot must not be kept.
    project.makeconftest(AGENTS + """
import pytest_mobileagent.device.device as device_module

_real_dump = device_module.Device.dump_hierarchy_then_screenshot
_real_drop = device_module.PendingScreenshot.drop
calls = {"dumps": 0, "drops": 0}

def _moving_at_step_two(self, **kwargs):
    xml, pending = _real_dump(self, **kwargs)
    calls["dumps"] += 1
    if calls["dumps"] == 3:  # the settle after the second action: a frame in between
        xml = xml.replace("</hierarchy>", "<!-- moving --></hierarchy>")
    return xml, pending

def _counted_drop(self):
    calls["drops"] += 1
    _real_drop(self)

device_module.Device.dump_hierarchy_then_screenshot = _moving_at_step_two
device_module.PendingScreenshot.drop = _counted_drop

def pytest_sessionfinish(session):
    print(f"settle calls: {calls}")
""")
    result, data = run(project, phone, "--agent", "replay", "--mobileagent-screenshots", "all",
                       "--mobileagent-hierarchy", "dump", "-s")
    result.assert_outcomes(passed=1)
    # Dumps 3 and 4 disagree with the dump before each: two screenshots dropped, one extra dump.
    result.stdout.fnmatch_lines(["*settle calls: {'dumps': 7, 'drops': 2}*"])
    (record,) = data["tasks"]
    shots = [Path(record["initial_screenshot"]).read_bytes()]
    shots += [Path(s["screenshot"]).read_bytes() for s in record["steps"]]
    assert len(set(shots)) == 5  # "0", "3", "3+", "3+5", "8": each step's own settled screen
    from pytest_mobileagent.device import Device
    with Device(phone.serial) as device:
        assert device.screenshot_png() == shots[-1]


def test_a_screen_still_moving_in_the_listeners_hierarchy_gets_a_later_screenshot(project, phone):
    # With the listener, the screenshot is taken while the hierarchy that may
    # confirm the screen is asked for. While the hierarchies disagree, the
    # screen is moving: that screenshot must not be kept, the next one is.
    project.makeconftest(AGENTS + """
import pytest_mobileagent.device.device as device_module
import pytest_mobileagent.episode as episode_module

_real_hierarchy = episode_module.Episode._listener_hierarchy
_real_screenshot = device_module.Device.screenshot_png
calls = {"hierarchies": 0, "screenshots": 0}

def _moving_at_step_one(self, *args):
    xml = _real_hierarchy(self, *args)
    calls["hierarchies"] += 1
    if calls["hierarchies"] == 4 and xml is not None:  # the settle after the first action: a frame in between
        xml = xml.replace("</hierarchy>", "<!-- moving --></hierarchy>")
    return xml

def _counted_screenshot(self, **kwargs):
    calls["screenshots"] += 1
    return _real_screenshot(self, **kwargs)

episode_module.Episode._listener_hierarchy = _moving_at_step_one
device_module.Device.screenshot_png = _counted_screenshot

def pytest_sessionfinish(session):
    print(f"settle calls: {calls}")
""")
    result, data = run(project, phone, "--agent", "replay", "--mobileagent-screenshots", "all", "-s")
    result.assert_outcomes(passed=1)
    # Five settles of two hierarchies each, one screenshot each; hierarchy 4 disagrees with
    # 3 and with 5: two more hierarchies, and one or two more screenshots left unused (one
    # goes with each hierarchy unless the one before is still on its way).
    result.stdout.re_match_lines([r".*settle calls: \{'hierarchies': 12, 'screenshots': [67]\}.*"])
    (record,) = data["tasks"]
    assert [s["screen_change_source"] for s in record["steps"]] == ["screenshot"] * 4
    shots = [Path(record["initial_screenshot"]).read_bytes()]
    shots += [Path(s["screenshot"]).read_bytes() for s in record["steps"]]
    assert len(set(shots)) == 5  # "0", "3", "3+", "3+5", "8": each step's own settled screen
    from pytest_mobileagent.device import Device
    with Device(phone.serial) as device:
        assert device.screenshot_png() == shots[-1]


def test_a_screenshot_that_cannot_be_saved_is_an_infrastructure_error(project, phone):
    # It is collected during the agent's turn, yet must not count against the agent.
    project.makeconftest(AGENTS + """
import pytest_mobileagent.runtime as runtime_module

_real_save = runtime_module.Runtime.save_screenshot
_saved = []

def _failing_save(self, path, png):
    _saved.append(path)
    if len(_saved) == 3:
        raise OSError(28, "No space left on device")
    return _real_save(self, path, png)

runtime_module.Runtime.save_screenshot = _failing_save
""")
    result, data = run(project, phone, "--agent", "replay", "--mobileagent-screenshots", "all")
    result.assert_outcomes(errors=1)
    (record,) = data["tasks"]
    assert record["stop_reason"] == "infra_error"
    assert "screenshot after step 2 could not be taken or saved: OSError" in record["error"]


def test_screenshots_on_demand_keep_the_final_screen(project, phone):
    result, data = run(project, phone, "--agent", "replay")
    result.assert_outcomes(passed=1)
    shots = [s["screenshot"] for s in data["tasks"][0]["steps"]]
    assert shots[:-1] == [None, None, None] and Path(shots[-1]).read_bytes().startswith(b"\x89PNG")


def test_noop_fails_with_the_judges_message(project, phone):
    result, data = run(project, phone, "--agent", "noop")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["assert '0' == '8' (test_calc.py:*; not done after 0 of 8 steps, stop: finished)"])
    (record,) = data["tasks"]
    assert not record["success"] and record["derived"]["early_stop"]


def test_golden_minus_last_action_fails(project, phone):
    result, data = run(project, phone, "--agent", "truncated")
    result.assert_outcomes(failed=1)
    assert data["tasks"][0]["steps_taken"] == 3 and data["tasks"][0]["milestones_reached"] == ["typed"]
    # no screenshots before the actions (the replay agent reads none): ROR from the hierarchies
    assert [s["screen_change_source"] for s in data["tasks"][0]["steps"]] == ["hierarchy"] * 3


def test_step_budget_and_stop_on_success(project, phone):
    result, data = run(project, phone, "--agent", "greedy")
    result.assert_outcomes(failed=1)
    assert data["tasks"][0]["stop_reason"] == "step_budget" and data["tasks"][0]["steps_taken"] == 8


def test_over_execution_is_measured_unless_stopped_on_success(project, phone):
    result, data = run(project, phone, "--agent", "overdoing")
    result.assert_outcomes(passed=1)
    record = data["tasks"][0]
    assert (record["success_step"], record["steps_taken"], record["stop_reason"]) == (4, 8, "step_budget")
    assert record["derived"]["late_stop"]
    result, data = run(project, phone, "--agent", "overdoing", "--stop-on-success")
    result.assert_outcomes(passed=1)
    record = data["tasks"][0]
    assert (record["success_step"], record["steps_taken"], record["stop_reason"]) == (4, 4, "stopped")
    assert not record["derived"]["late_stop"]


def test_driver_agent_is_told_to_stop_on_success(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(
        """
        class Driver:
            def __init__(self, context):
                pass
            def run(self, prompt, session):
                import adbutils
                from pytest_mobileagent.judge import Screen
                device = adbutils.adb.device(session.serial)
                for key in ["btn_3", "btn_plus", "btn_5", "btn_equals", "btn_1", "btn_2"]:
                    screen = Screen("com.simplemobiletools.calculator")
                    screen.update(device.dump_hierarchy())
                    session.before_action()
                    device.click(*screen.get(id=key).center)
                    if session.after_action({"type": "tap", "key": key}, tokens_in=10, tokens_out=2):
                        return "stopped by the harness"
                return "ran out of plan"

        def pytest_mobileagent_register_agents(registry):
            registry.register("driver", Driver)
        """
    )
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess(
        "--agent", "driver", "--device", phone.serial, "--stop-on-success", "--results-json", str(out)
    )
    result.assert_outcomes(passed=1)
    (record,) = json.loads(out.read_text())["tasks"]
    assert (record["steps_taken"], record["stop_reason"], record["answer"]) == (4, "stopped", "stopped by the harness")
    assert record["derived"]["tokens"] == 48


def test_reset_tells_the_agent_which_repetition_it_is_on(project, phone):
    result, data = run(project, phone, "--agent", "teller", "--repeat-tasks", "3")
    result.assert_outcomes(failed=3)
    assert sorted((t["repeat"], t["answer"]) for t in data["tasks"]) == [
        (0, "repeat 0"), (1, "repeat 1"), (2, "repeat 2")]
    # The finish is no step, but its turn is counted.
    assert all(t["steps_taken"] == 0 and t["final_turn"]["kind"] == "finish" for t in data["tasks"])


def test_agent_exception_is_a_failure_with_its_traceback(project, phone):
    result, data = run(project, phone, "--agent", "crashing")
    result.assert_outcomes(failed=1)
    # the short failure: what happened, then the agent's frame that raised it
    result.stdout.fnmatch_lines(["*RuntimeError: model returned garbage*", "*raise RuntimeError(\"model returned garbage\")*"])
    assert data["tasks"][0]["stop_reason"] == "agent_error"


def test_typing_what_input_text_cannot_type_is_the_agents_error(project, phone):
    result, data = run(project, phone, "--agent", "accented")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*cannot type 'é': Android's `input text` types only printable ASCII*"])
    assert data["tasks"][0]["stop_reason"] == "agent_error"


def test_unknown_device_is_a_usage_error_not_a_failure(project, phone):
    result = project.runpytest_subprocess("--device", "emulator-0000", "--agent", "replay")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*emulator-0000*"])


def test_judge_that_already_passes_is_a_task_error(pytester: pytest.Pytester, phone):
    pytester.makepyfile(
        """
        from pytest_mobileagent import task, golden as g

        @task(app="calculator", prompt="p", golden=[g.tap(id="btn_3")])
        def test_trivial(screen):
            assert screen.exists(id="btn_3")

        @task(app="calculator", prompt="p", golden=[g.tap(id="btn_3")])
        def test_buggy(screen):
            assert screen.text(id="no_such_view").upper() == "3"
        """
    )
    result = pytester.runpytest_subprocess("--device", phone.serial)
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines_random([
        "*task test_trivial: the judge already passes before the agent acted*",
        "*task test_buggy: the judge raised AttributeError*",
    ])


def test_driver_agent_example(pytester: pytest.Pytester, phone):
    shutil.copy(EXAMPLES / "driver_agent.py", pytester.path / "driver_agent.py")
    pytester.makepyfile(test_calc=TASKS)
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess(
        "-p", "driver_agent", "--agent", "keypad", "--device", phone.serial, "--results-json", str(out)
    )
    result.assert_outcomes(passed=1)
    (record,) = json.loads(out.read_text())["tasks"]
    assert record["agent"] == "keypad" and record["success_step"] == 4 and record["stop_reason"] == "finished"
    assert [s["llm_output"] for s in record["steps"]] == ["3", "+", "5", "="]
    assert all(s["agent_seconds"] > 0 for s in record["steps"])


def test_xdist_records_reach_the_controller(pytester: pytest.Pytester, phone, phone_factory):
    (second,) = phone_factory(1)
    body = TASKS.split("@task", 1)[1]
    pytester.makepyfile(test_calc=TASKS + "".join(
        "\n@task" + body.replace("def test_add", f"def test_add_{i}") for i in range(3)
    ))
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess(
        "-n", "2", "--device", phone.serial, "--device", second.serial, "--results-json", str(out)
    )
    result.assert_outcomes(passed=4)
    data = json.loads(out.read_text())
    assert sorted(t["task"] for t in data["tasks"]) == ["test_add", "test_add_0", "test_add_1", "test_add_2"]
    assert {t["device"] for t in data["tasks"]} == {phone.serial, second.serial}
    result.stdout.fnmatch_lines(["*overall*4*"])


def test_fewer_devices_than_workers_is_a_usage_error(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    result = pytester.runpytest_subprocess("-n", "2", "--device", phone.serial)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*2 xdist workers but only 1 device(s) given with --device*"])


def test_step_agents_see_the_screen(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(
        """
        from pytest_mobileagent.agents import Action

        class Looker:
            def __init__(self, context):
                self.seen = []
            def step(self, observation):
                assert observation.screenshot.startswith(b"\\x89PNG")
                assert "btn_equals" in observation.hierarchy and observation.app.endswith("calculator")
                self.seen.append((observation.step, observation.remaining_steps))
                if observation.step == 2:
                    assert self.seen == [(0, 8), (1, 7), (2, 6)]
                    return Action.finish("done")
                return Action.wait()

        def pytest_mobileagent_register_agents(registry):
            registry.register("looker", Looker)
        """
    )
    out = pytester.path / "results.json"
    result = pytester.runpytest_subprocess("--agent", "looker", "--device", phone.serial, "--results-json", str(out))
    result.assert_outcomes(failed=1)
    (record,) = json.loads(out.read_text())["tasks"]
    assert record["answer"] == "done" and record["steps_taken"] == 2 and record["stop_reason"] == "finished"
    assert all(s["screenshot"] for s in record["steps"])

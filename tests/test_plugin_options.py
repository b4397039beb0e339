"""pytester tests of the plugin's options, ini keys, agent registry and task collection."""

from __future__ import annotations

import pytest

from pytest_mobileagent.options import MobileAgentOptions

pytest_plugins = ["pytester"]


def test_defaults(pytester: pytest.Pytester):
    config = pytester.parseconfigure()
    options = MobileAgentOptions.from_config(config)
    assert options == MobileAgentOptions()


def test_options_from_the_command_line(pytester: pytest.Pytester):
    config = pytester.parseconfigure(
        "--agent", "noop", "--agent-seed", "7", "--device", "emulator-5554", "--device", "serial-b,serial-c",
        "--max-steps-factor", "1.5", "--stop-on-success", "--mobileagent-artifacts", "out",
    )
    options = MobileAgentOptions.from_config(config)
    assert options.agent == "noop" and options.agent_seed == 7
    assert options.devices == ("emulator-5554", "serial-b", "serial-c")
    assert options.max_steps_factor == 1.5 and options.stop_on_success
    assert options.artifacts == pytester.path / "out"


def test_options_from_ini_and_cli_wins(pytester: pytest.Pytester):
    pytester.makeini(
        """
        [pytest]
        agent = random
        agent_seed = 3
        device =
            dev-1
            dev-2
        max_steps_factor = 3
        stop_on_success = true
        """
    )
    options = MobileAgentOptions.from_config(pytester.parseconfigure())
    assert (options.agent, options.agent_seed, options.devices) == ("random", 3, ("dev-1", "dev-2"))
    assert options.max_steps_factor == 3.0 and options.stop_on_success
    options = MobileAgentOptions.from_config(pytester.parseconfigure("--agent", "noop", "--device", "x"))
    assert options.agent == "noop" and options.devices == ("x",)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--agent-seed", "abc"], "--agent-seed: 'abc' is not an integer"),
        (["--max-steps-factor", "x"], "--max-steps-factor: 'x' is not a number"),
        (["--max-steps-factor", "0.5"], "must be at least 1"),
        (["--device", "a", "--device", "a"], "a serial is given twice"),
    ],
)
def test_bad_values_are_usage_errors(pytester: pytest.Pytester, args, message):
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


def test_unknown_agent_lists_the_available_ones(pytester: pytest.Pytester):
    result = pytester.runpytest("--agent", "gpt-17")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unknown agent 'gpt-17'; available agents: *noop, random, replay*"])


def test_agents_registered_through_the_hook(pytester: pytest.Pytester):
    pytester.makeconftest(
        """
        class Mine:
            def __init__(self, context):
                self.seed = context.seed
            def step(self, observation):
                raise NotImplementedError

        def pytest_mobileagent_register_agents(registry):
            registry.register("mine", Mine)

        def test_placeholder():
            pass
        """
    )
    pytester.makepyfile(
        """
        def test_agent_fixture(agent):
            assert type(agent).__name__ == "Mine" and agent.seed == 5
        """
    )
    result = pytester.runpytest("--agent", "mine", "--agent-seed", "5")
    result.assert_outcomes(passed=1)
    result = pytester.runpytest("--agent", "nope")
    result.stderr.fnmatch_lines(["*available agents: mine, *noop, random, replay*"])


def test_agents_from_entry_points(pytester: pytest.Pytester, monkeypatch):
    from importlib import metadata

    pytester.makepyfile(
        my_agents="""
        class EpAgent:
            def __init__(self, context):
                pass
            def run(self, prompt, session):
                return None
        """
    )
    pytester.syspathinsert()
    ep = metadata.EntryPoint("epagent", "my_agents:EpAgent", "pytest_mobileagent.agents")
    real = metadata.entry_points

    def fake(**kwargs):
        if kwargs.get("group") == "pytest_mobileagent.agents":
            return metadata.EntryPoints([ep])
        return real(**kwargs)

    monkeypatch.setattr("pytest_mobileagent.agents.registry.entry_points", fake)
    pytester.makepyfile(
        """
        def test_agent_fixture(agent):
            assert type(agent).__name__ == "EpAgent"
        """
    )
    result = pytester.runpytest_inprocess("--agent", "epagent")
    result.assert_outcomes(passed=1)


def test_report_header(pytester: pytest.Pytester):
    pytester.makepyfile("def test_ok(): pass")
    result = pytester.runpytest("--agent", "noop", "--max-steps-factor", "3")
    result.stdout.fnmatch_lines(
        ["mobileagent: agent=noop seed=0 max-steps-factor=3 agent-timeout=300s stop-on-success=no devices=auto"]
    )
    result = pytester.runpytest("--agent", "noop", "-o", "agent_timeout=0")
    result.stdout.fnmatch_lines(["mobileagent: agent=noop * agent-timeout=none *"])


def test_malformed_task_is_a_collection_error_naming_it(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_tasks="""
        from pytest_mobileagent import task, golden as g

        @task(app="notes", prompt="", golden=[g.tap(id="a")])
        def test_no_prompt(screen):
            assert False

        @task(app="phone", prompt="call mom", golden=[g.tap(id="a"), g.tap(id="b")], min_steps=5)
        def test_unknown_app_and_steps(screen):
            assert False
        """
    )
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*ERROR collecting test_tasks.py*",
            "*task test_no_prompt: no prompt*",
        ]
    )
    pytester.makepyfile(
        test_tasks="""
        from pytest_mobileagent import task, golden as g

        @task(app="phone", prompt="call mom", golden=[g.tap(id="a"), g.tap(id="b")], min_steps=5)
        def test_unknown_app_and_steps(screen):
            assert False
        """
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        ["*task test_unknown_app_and_steps: unknown app 'phone'*; min_steps=5 but the golden path has 2 actions*"]
    )


def test_judging_fixtures_outside_a_task_are_an_error(pytester: pytest.Pytester):
    pytester.makepyfile(
        """
        def test_plain(screen):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*'screen' fixture exists only in a task*"])


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]])
def test_ordinary_tests_allocate_no_device(pytester: pytest.Pytester, xdist):
    pytester.makeconftest(
        """
        from pytest_mobileagent.plugin import RUNTIME_KEY

        def pytest_sessionfinish(session):
            runtime = session.config.stash[RUNTIME_KEY]
            glue = session.config.pluginmanager.get_plugin("mobileagent-xdist")
            allocated = glue.broker._serials if glue is not None and glue.broker is not None else None
            print("ALLOCATED", runtime._device, runtime._pool, runtime._events, allocated)
        """
    )
    pytester.makepyfile("def test_one(): pass")
    result = pytester.runpytest_subprocess("-s", *xdist)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*ALLOCATED None None None None*"])

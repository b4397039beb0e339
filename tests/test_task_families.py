"""Task families and suites: parameters drawn per instance from --task-seed, ids that rerun one
instance, --task-instances, --suite, and what the records, the summary and Allure say about them.

The families' golden paths on the phone (20 instances each) are tests/test_family_golden_paths.py.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plugin_support import run_on_phone
from reporting_support import allure_results
from pytest_mobileagent.errors import TaskDefinitionError
from pytest_mobileagent.params import Params, draw_params, instance_id, requested_instances
from pytest_mobileagent.tasks import MARKER, GoldenAction, TaskSpec

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
EXTENDED = sorted((ROOT / "task_tests" / "extended").glob("test_*_families.py"))

FAMILY = '''
import pytest
from pytest_mobileagent import task, golden as g

pytestmark = pytest.mark.suite("extended")

@task(app="calculator", prompt="Calculate the result of '{a} + {b}'",
      params={"a": range(1, 10), "b": lambda rng: rng.randint(1, 9)},
      golden=lambda p: [g.tap(id=f"btn_{p.a}"), g.tap(id="btn_plus"), g.tap(id=f"btn_{p.b}"),
                        g.tap(id="btn_equals")])
def test_sum(params, screen, events):
    assert screen.text(id="result") == str(params.a + params.b)
    assert events.clicked(id="btn_equals")
'''

FIXED = '''
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_fixed(screen):
    assert screen.text(id="result") == "8"
'''

#: A plugin that prints every collected task's id, prompt and parameters (what an agent would be given).
PRINT_TASKS = '''
from pytest_mobileagent.tasks import task_spec

def pytest_collection_finish(session):
    for item in session.items:
        spec = task_spec(item)
        if spec is not None:
            print("TASK", item.nodeid.split("::")[-1], "|", spec.prompt, "|", dict(spec.params or {}))
'''


def families() -> dict[str, TaskSpec]:
    """Every family of the extended suite, by name (their modules imported as pytest would)."""
    found = {}
    for path in EXTENDED:
        module = importlib.import_module(f"task_tests.extended.{path.stem}")
        for name, obj in vars(module).items():
            for mark in getattr(obj, "pytestmark", []):
                if name.startswith("test_") and mark.name == MARKER and mark.args[0].family is not None:
                    found[name] = mark.args[0]
    return found


FAMILIES = families()


def collected_tasks(pytester: pytest.Pytester, *args: str) -> list[str]:
    """The TASK lines a collection of the repository's benchmark prints (id | prompt | params)."""
    pytester.makepyfile(print_tasks=PRINT_TASKS)
    result = pytester.runpytest_subprocess(str(ROOT / "task_tests"), "--co", "-q", "-p", "print_tasks",
                                           "--rootdir", str(ROOT), "-p", "no:cacheprovider", *args)
    assert result.ret == 0, result.stdout.str()[-2000:] + result.stderr.str()[-2000:]
    return [line for line in result.stdout.lines if line.startswith("TASK ")]


def family_lines(lines: list[str]) -> list[str]:
    """The lines of family instances (the extended suite's query tasks are fixed tasks)."""
    return [line for line in lines if line.split()[1].split("[")[0] in FAMILIES]


# -- drawing ------------------------------------------------------------------------------


def test_the_extended_suite_has_25_families_on_8_apps():
    assert len(FAMILIES) >= 25
    assert len({spec.app for spec in FAMILIES.values()}) >= 8


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(FAMILIES)), seed=st.integers(0, 10**9), index=st.integers(0, 10**4))
def test_every_drawn_instance_is_well_formed(name, seed, index):
    family = FAMILIES[name]
    params = draw_params(family.family.params, name, seed, index)
    assert params == draw_params(family.family.params, name, seed, index)  # the draw is the seed's alone
    instance = family.instance(params)
    assert not instance.problems
    assert "{" not in instance.prompt and "}" not in instance.prompt, instance.prompt
    assert instance.golden and all(isinstance(a, GoldenAction) for a in instance.golden)
    if family.family.min_steps is None:
        assert instance.min_steps == instance.golden_steps
    # The id names this instance and no other: a command line holding it asks for (seed, index).
    assert requested_instances([f"x.py::{name}[{params.id}]"], name) == [(seed, index)]
    assert "::" not in params.id and "[" not in params.id and "]" not in params.id


def test_the_same_seed_draws_the_same_values_and_another_seed_others():
    spec = {"name": ["Ana", "Bo", "Cy", "Di"], "number": lambda rng: rng.randint(10**8, 10**9 - 1)}
    first = [draw_params(spec, "test_x", 7, i).values for i in range(5)]
    assert first == [draw_params(spec, "test_x", 7, i).values for i in range(5)]
    assert first != [draw_params(spec, "test_x", 8, i).values for i in range(5)]
    assert first != [draw_params(spec, "test_y", 7, i).values for i in range(5)]  # each family draws its own


def test_an_instance_id_shows_seed_index_and_values():
    params = Params({"name": "Ana Lee", "number": "555-1234", "items": ["milk", "eggs"]}, seed=7, index=3)
    assert instance_id(params) == "7.3-Ana_Lee-555_1234-milk,eggs"


@pytest.mark.parametrize("spec, message", [
    ({"items": ["a"]}, "reserved"),
    ({"name": "abc"}, "non-empty sequence"),
    ({"name": []}, "non-empty sequence"),
    (lambda rng: ["a"], "not a dict"),
])
def test_bad_parameters_are_named(spec, message):
    with pytest.raises(ValueError, match=message):
        draw_params(spec, "test_x", 0, 0)


@pytest.mark.parametrize("kwargs, problem", [
    (dict(prompt="Add {name} and {missing}", params={"name": ["a"]},
          golden=lambda p: [GoldenAction("wait")]), "the prompt's {missing} is no parameter"),
    (dict(prompt="Add {name}", params={"name": ["a"]}, golden=lambda p: ["tap"]), "not a golden action"),
    (dict(prompt="Add {name}", params={"name": ["a"]}, golden=lambda p: 1 / 0),
     "drawing an instance failed: ZeroDivisionError"),
    (dict(prompt="Add x", golden=lambda p: []), "needs params="),
    (dict(prompt="Add {get}", params={"get": ["a"]}, golden=lambda p: [GoldenAction("wait")]), "reserved"),
])
def test_malformed_families_are_collection_errors(kwargs, problem):
    from pytest_mobileagent import task

    @task(app="calculator", **kwargs)
    def test_bad(params):
        pass

    spec = test_bad.pytestmark[0].args[0]
    with pytest.raises(TaskDefinitionError, match=re.escape(problem)):
        spec.check()


def test_a_family_list_reads_as_a_quoted_enumeration_in_its_prompt():
    from pytest_mobileagent import golden as g, task

    @task(app="notes", prompt="add the items {entries}", params={"entries": [("milk", "eggs", "bread")]},
          golden=lambda p: [g.wait()])
    def test_list(params):
        pass

    spec = test_list.pytestmark[0].args[0]
    assert spec.instance(draw_params(spec.family.params, "test_list", 0, 0)).prompt == \
        "add the items 'milk', 'eggs' and 'bread'"


# -- collection: seeds, instances, suites -----------------------------------------------


def test_the_same_task_seed_collects_the_same_prompts_and_another_seed_others(pytester):
    five = family_lines(collected_tasks(pytester, "--suite", "extended", "--task-seed", "5", "--task-instances", "2"))
    assert len(five) == 2 * len(FAMILIES)
    assert all(re.match(r"TASK test_\w+\[5\.[01]-", line) for line in five)
    assert family_lines(collected_tasks(pytester, "--suite", "extended", "--task-seed", "5",
                                        "--task-instances", "2")) == five
    six = family_lines(collected_tasks(pytester, "--suite", "extended", "--task-seed", "6", "--task-instances", "2"))
    prompts = lambda lines: [line.split(" | ", 1)[1] for line in lines]  # noqa: E731
    assert len(six) == len(five) and set(prompts(six)) != set(prompts(five))
    # A plain run is reproducible: its seed is fixed (0).
    plain = collected_tasks(pytester, "--suite", "extended")
    assert plain == collected_tasks(pytester, "--suite", "extended", "--task-seed", "0")


def test_the_default_suite_is_the_hundred_mab_tasks(pytester):
    mab = collected_tasks(pytester)
    assert len(mab) == 100 and all(line.endswith("| {}") for line in mab)
    assert collected_tasks(pytester, "--suite", "mab") == mab
    everything = collected_tasks(pytester, "--suite", "all")
    extended = collected_tasks(pytester, "--suite", "extended")
    assert len(family_lines(extended)) == len(FAMILIES)
    assert sorted(everything) == sorted(mab + extended)


def test_suites_select_and_unknown_ones_are_usage_errors(pytester):
    pytester.makepyfile(test_fixed=FIXED, test_family=FAMILY)
    result = pytester.runpytest_subprocess("--co", "-q")
    result.stdout.fnmatch_lines(["test_fixed.py::test_fixed", "*1/2 tests collected (1 deselected)*"])
    result = pytester.runpytest_subprocess("--co", "-q", "--suite", "extended", "--task-instances", "3")
    result.stdout.fnmatch_lines(["test_family.py::test_sum[[]0.0-*", "test_family.py::test_sum[[]0.1-*",
                                 "test_family.py::test_sum[[]0.2-*", "*3/4 tests collected (1 deselected)*"])
    result = pytester.runpytest_subprocess("--co", "-q", "--suite", "all")
    result.stdout.fnmatch_lines(["*2 tests collected*"])
    result = pytester.runpytest_subprocess("--co", "-q", "--suite", "paper")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--suite: 'paper' is not one of mab, extended, all*"])
    for bad in ("--task-seed=-1", "--task-seed=x", "--task-instances=0"):
        result = pytester.runpytest_subprocess("--co", "-q", bad)
        assert result.ret == pytest.ExitCode.USAGE_ERROR, bad
    pytester.makepyfile(test_odd=FIXED.replace("from pytest_mobileagent", "import pytest\npytestmark = "
                                               "pytest.mark.suite('paper')\nfrom pytest_mobileagent"))
    result = pytester.runpytest_subprocess("--co", "-q", "--suite", "all")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*test_odd.py::test_fixed: suite 'paper' is not one of mab, extended*"])


# -- runs on the phone ------------------------------------------------------------------------


def test_an_id_reruns_exactly_its_instance(pytester, phone):
    pytester.makepyfile(test_family=FAMILY)
    result, data = run_on_phone(pytester, phone, "--suite", "extended", "--task-seed", "3", "--task-instances", "3")
    result.assert_outcomes(passed=3)
    records = {t["nodeid"]: t for t in data["tasks"]}
    assert {(t["task_seed"], t["instance"]) for t in records.values()} == {(3, 0), (3, 1), (3, 2)}
    assert all(t["suite"] == "extended" and set(t["params"]) == {"a", "b"} for t in records.values())
    nodeid = sorted(records)[1]
    # Named by its id, with neither --suite nor --task-seed: the id carries the seed.
    result, again = run_on_phone(pytester, phone, nodeid)
    result.assert_outcomes(passed=1)
    (record,) = again["tasks"]
    assert record["nodeid"] == nodeid
    for key in ("prompt", "params", "task_seed", "instance", "min_steps"):
        assert record[key] == records[nodeid][key]
    # And under another --task-seed, the id still names the same instance (besides the run's own).
    result, again = run_on_phone(pytester, phone, nodeid, "--task-seed", "4", "--suite", "extended")
    result.assert_outcomes(passed=1)
    assert [t["nodeid"] for t in again["tasks"]] == [nodeid]


def test_a_random_task_seed_is_printed_and_shared_by_the_xdist_workers(pytester, phone, phone_factory):
    (second,) = phone_factory(1)
    pytester.makepyfile(test_family=FAMILY)
    result, data = run_on_phone(pytester, phone, "--device", second.serial, "-n", "2", "--suite", "extended",
                                "--task-seed", "random", "--task-instances", "4", "--agent", "noop")
    # xdist stops a run whose workers collected different tests: these ran, and failed as noop should.
    result.assert_outcomes(failed=4)
    match = re.search(r"mobileagent: suite=extended task-seed=(\d+) task-instances=4", result.stdout.str())
    assert match, result.stdout.str()[:2000]
    seed = int(match.group(1))
    assert {t["task_seed"] for t in data["tasks"]} == {seed}
    assert sorted(t["instance"] for t in data["tasks"]) == [0, 1, 2, 3]
    assert {t["device"] for t in data["tasks"]} == {phone.serial, second.serial}


def test_summary_json_and_allure_show_suites_and_parameters(pytester, phone):
    pytester.makepyfile(test_fixed=FIXED, test_family=FAMILY)
    result, data = run_on_phone(pytester, phone, "--suite", "all", "--task-instances", "2", "--alluredir", "allure")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["overall *3*100.0%*", "suite extended *2*100.0%*", "suite mab *1*100.0%*"])
    assert {name: suite["tasks"] for name, suite in data["by_suite"].items()} == {"extended": 2, "mab": 1}
    fixed = next(t for t in data["tasks"] if t["task"] == "test_fixed")
    assert fixed["suite"] == "mab" and fixed["params"] is None and fixed["task_seed"] is None
    # pass@k is per instance: two instances of a family are two tasks, not two runs of one.
    assert "pass@" not in result.stdout.str()
    results = {item["fullName"].split("#")[-1] + item["name"]: item for item in allure_results(pytester.path / "allure")}
    assert len(results) == 3
    for record in data["tasks"]:
        item = next(i for i in results.values() if i["name"] == record["prompt"])
        labels = {(label["name"], label["value"]) for label in item["labels"]}
        assert ("epic", record["suite"]) in labels
        params = {p["name"]: p["value"] for p in item["parameters"]}
        if record["params"] is not None:
            assert params["task_seed"] == "0" and params["instance"] == str(record["instance"])
            assert params["a"] == str(record["params"]["a"]) and params["b"] == str(record["params"]["b"])
    environment = (pytester.path / "allure" / "environment.properties").read_text()
    assert "SR\\ by\\ suite=extended 100.0% of 2; mab 100.0% of 1" in environment


def test_the_studio_replays_an_extended_file(phone, tmp_path):
    """The studio's Replay runs a file's tasks whatever their suite (--suite all)."""
    from pytest_mobileagent.studio.replay import run_task_file

    path = tmp_path / "test_family.py"
    path.write_text(FAMILY)
    assert run_task_file(path, phone.serial, "replay")["passed"]
    assert run_task_file(path, phone.serial, "noop")["failed"]

"""Terminal summary, results file and Allure output, with a stand-in core plugin.

The stand-in sets ``report.mobileagent_record`` exactly as the core plugin's
contract says; the end-to-end runs on virtual phones are in
test_reporting_e2e.py.
"""

from __future__ import annotations

import json
import math

import pytest

from reporting_support import NO_CORE, allure_attachment, allure_results, load_json, make_project


TASKS = '''
import pytest

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(app="calculator", steps=3, success_step=2, llm="hello")
def test_calc_add(fake_record):
    assert fake_record.success

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(app="calculator", steps=1, success_step=1, min_steps=1)
def test_calc_clear(fake_record):
    assert fake_record.success

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(app="notes", success=False, steps=2, difficulty="medium")
def test_note_new(fake_record):
    assert fake_record.success, "note not created"

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(app="notes", success=False, steps=4, difficulty="hard", stop_reason="step_budget")
def test_note_budget(fake_record):
    assert fake_record.success, "ran out of steps"

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(app="notes", infra=True, error="adb: device offline")
def test_note_lost(fake_record):
    pass
'''
ALL = {"test_calc_add", "test_calc_clear", "test_note_new", "test_note_budget", "test_note_lost"}


def test_terminal_summary_lists_groups_and_figures(pytester):
    make_project(pytester, TASKS)
    result = pytester.runpytest_subprocess(*NO_CORE)
    result.assert_outcomes(passed=2, failed=2, errors=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines([
        "*= mobileagent benchmark summary =*",
        "agent: fake*devices: emulator-5554*",
        "group*tasks*errors*SR*SR 95% CI*SE*Latency*Tokens*FFR*OER*Overhead",
        # 4 judged tasks, 2 successes; 1 infrastructure error left out.
        "overall*4*1*50.0%*15.0-85.0%*1.00*",
        "app calculator*2*0*100.0%*",
        "app notes*2*1*0.0%*",
        "difficulty easy*2*1*100.0%*",
        "difficulty medium*1*0*0.0%*",
        "difficulty hard*1*0*0.0%*",
        "infrastructure errors (1), not judged:",
        "*test_note_lost: adb: device offline",
    ])
    # FFR: one of the two failures was an early stop (the other ran into the budget).
    overall = next(line for line in out.splitlines() if line.startswith("overall"))
    assert "50.0%" in overall.split()[8]
    # The difficulty rows come in the paper's order, not alphabetically.
    assert out.index("difficulty easy") < out.index("difficulty medium") < out.index("difficulty hard")


def test_results_file_holds_every_record_and_the_aggregates(pytester):
    make_project(pytester, TASKS)
    result = pytester.runpytest_subprocess(*NO_CORE, "--results-json", "out/results.json")
    result.assert_outcomes(passed=2, failed=2, errors=1)
    data = load_json(pytester.path / "out" / "results.json")
    assert data["version"] == 1
    assert data["plugin_version"]
    assert data["agent"] == "fake" and data["devices"] == ["emulator-5554"]
    assert data["started"] <= data["finished"]
    assert {t["task"] for t in data["tasks"]} == ALL
    assert [t["nodeid"] for t in data["tasks"]] == sorted(t["nodeid"] for t in data["tasks"])
    agg = data["aggregate"]
    assert (agg["tasks"], agg["successes"], agg["errors"]) == (4, 2, 1)
    assert agg["sr"] == 0.5 and agg["ffr"] == 0.5
    assert agg["oer"] == 0.5  # test_calc_add kept acting after success at step 2
    # latency = agent seconds over all judged actions: steps i cost 0.25*i seconds.
    seconds = sum(0.25 * i for n in (3, 1, 2, 4) for i in range(1, n + 1))
    assert math.isclose(agg["latency"], seconds / 10)
    assert data["sr_interval"] == agg["sr_interval"]
    low, high = data["sr_interval"]
    assert low < 0.5 < high
    assert set(data["by_app"]) == {"calculator", "notes"}
    assert list(data["by_difficulty"]) == ["easy", "medium", "hard"]
    assert data["by_app"]["notes"]["errors"] == 1
    assert sum(g["tasks"] for g in data["by_app"].values()) == agg["tasks"]
    assert data["pass_at_k"]["k"] == 1
    # Each record carries its derived figures; the steps keep their screenshots' paths.
    by_task = {t["task"]: t for t in data["tasks"]}
    assert by_task["test_calc_add"]["derived"]["late_stop"] is True
    assert by_task["test_note_new"]["derived"]["early_stop"] is True
    assert by_task["test_note_budget"]["derived"]["early_stop"] is False
    assert by_task["test_note_lost"]["stop_reason"] == "infra_error"
    assert all(step["screenshot"].endswith(".png") for step in by_task["test_calc_add"]["steps"])
    result.stdout.fnmatch_lines(["results: *results.json"])


def test_results_json_from_ini(pytester):
    make_project(pytester, TASKS)
    pytester.makeini("[pytest]\nresults_json = from_ini.json\n")
    pytester.runpytest_subprocess(*NO_CORE)
    assert len(load_json(pytester.path / "from_ini.json")["tasks"]) == 5


def test_xdist_summary_and_results_are_complete(pytester):
    make_project(pytester, TASKS)
    result = pytester.runpytest_subprocess(*NO_CORE, "-n", "2", "--results-json", "r.json", "--alluredir", "allure")
    result.assert_outcomes(passed=2, failed=2, errors=1)
    result.stdout.fnmatch_lines(["overall*4*1*50.0%*"])
    data = load_json(pytester.path / "r.json")
    assert sorted(t["task"] for t in data["tasks"]) == sorted(ALL)
    # One Allure result per task, each with its metrics.json, and one run summary.
    results = allure_results(pytester.path / "allure")
    assert sorted(r["fullName"].split("#")[-1] for r in results) == sorted(ALL)
    containers = [load_json(p) for p in (pytester.path / "allure").glob("*-container.json")]
    summary = [c for c in containers if c.get("name") == "mobileagent benchmark summary"]
    assert len(summary) == 1
    assert sorted(summary[0]["children"]) == sorted(r["uuid"] for r in results)


def _check_allure_task(directory, item, record):
    labels = {(label["name"], label["value"]) for label in item["labels"]}
    assert {("feature", record["app"]), ("story", record["difficulty"]), ("tag", record["agent"])} <= labels
    assert item["name"] == record["prompt"]
    params = {p["name"]: p["value"] for p in item.get("parameters", [])}
    assert params["agent"] == record["agent"] and params["device"] == record["device"]
    assert params["min_steps"] == str(record["min_steps"]) and params["max_steps"] == str(record["max_steps"])
    steps = item.get("steps", [])
    assert len(steps) == len(record["steps"])
    for step, step_record in zip(steps, record["steps"]):
        assert step["name"].startswith(f"{step_record['index']}. {step_record['action']['type']}")
        kinds = {a["name"]: a for a in step["attachments"]}
        assert kinds["screenshot"]["type"] == "image/png"
        png = (directory / kinds["screenshot"]["source"]).read_bytes()
        assert png.startswith(b"\x89PNG")
        assert json.loads((directory / kinds["action.json"]["source"]).read_text()) == step_record["action"]
    # metrics.json holds exactly the results file's derived figures.
    assert json.loads(allure_attachment(directory, item, "metrics.json")) == record["derived"]
    trajectory = json.loads(allure_attachment(directory, item, "trajectory.json"))
    assert len(trajectory["steps"]) == len(record["steps"])
    assert json.loads(allure_attachment(directory, item, "events.json")) == record["event_log"]
    assert "<hierarchy" in allure_attachment(directory, item, "final hierarchy.xml")


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_allure_per_task_content_matches_results_file(pytester, workers):
    make_project(pytester, TASKS)
    pytester.runpytest_subprocess(*NO_CORE, *workers, "--results-json", "r.json", "--alluredir", "allure")
    directory = pytester.path / "allure"
    records = {t["nodeid"]: t for t in load_json(pytester.path / "r.json")["tasks"]}
    results = allure_results(directory)
    assert len(results) == len(records) == 5
    for item in results:
        nodeid = "test_tasks.py::" + item["fullName"].split("#")[-1]
        _check_allure_task(directory, item, records[nodeid])
    # LLM input and output are attached to the steps of the task that reported them.
    calc = next(r for r in results if r["fullName"].endswith("#test_calc_add"))
    names = [a["name"] for a in calc["steps"][0]["attachments"]]
    assert "llm input" in names and "llm output" in names


def test_allure_run_level_files(pytester):
    make_project(pytester, TASKS)
    pytester.runpytest_subprocess(*NO_CORE, "--alluredir", "allure")
    directory = pytester.path / "allure"
    env = dict(line.split("=", 1) for line in (directory / "environment.properties").read_text().splitlines())
    assert env["agent"] == "fake" and env["devices"] == "emulator-5554"
    assert env["android_version"] == "14" and env["plugin_version"]
    categories = {c["name"] for c in load_json(directory / "categories.json")}
    assert {"Step budget exhausted", "Infrastructure error"} <= categories
    # The report's name (the overview's Summary title) is the headline; a CI's own executor.json is kept.
    executor = load_json(directory / "executor.json")
    assert executor["reportName"].startswith("mobileagent fake: SR ") and "judged task" in executor["reportName"]
    assert executor["buildName"] == env["benchmark"]
    (directory / "executor.json").write_text('{"name": "CI", "type": "jenkins"}')
    pytester.runpytest_subprocess(*NO_CORE, "--alluredir", "allure")
    assert load_json(directory / "executor.json") == {"name": "CI", "type": "jenkins"}
    assert any(name.startswith("Early stop") for name in categories)
    assert any(name.startswith("Over-execution") for name in categories)
    # The statuses carry the markers the categories match on.
    traces = {r["fullName"].split("#")[-1]: r.get("statusDetails", {}).get("trace", "") for r in allure_results(directory)}
    assert "mobileagent: early stop" in traces["test_note_new"]
    assert "mobileagent: step budget exhausted" in traces["test_note_budget"]
    assert "mobileagent: infrastructure error" in traces["test_note_lost"]
    assert "mobileagent: over-execution" in traces["test_calc_add"]
    assert "mobileagent:" not in traces["test_calc_clear"]
    summary = next(c for c in (load_json(p) for p in directory.glob("*-container.json"))
                   if c.get("name") == "mobileagent benchmark summary")
    attachments = {a["name"]: a for a in summary["befores"][0]["attachments"]}
    for plot in ("SR by difficulty.png", "SR by app.png"):
        from PIL import Image

        with Image.open(directory / attachments[plot]["source"]) as image:
            assert image.format == "PNG" and image.width >= 400
    table = (directory / attachments["summary table"]["source"]).read_text()
    assert "overall" in table and "app notes" in table and "difficulty hard" in table
    html = (directory / attachments["benchmark summary"]["source"]).read_text()
    assert html.count("data:image/png;base64,") == 2


def test_no_allure_output_without_alluredir(pytester):
    make_project(pytester, TASKS)
    pytester.runpytest_subprocess(*NO_CORE)
    assert not list(pytester.path.rglob("*-result.json"))
    assert not list(pytester.path.rglob("environment.properties"))


def test_no_summary_without_task_records(pytester):
    pytester.makeconftest(__import__("reporting_support").FAKE_CORE_CONFTEST)
    pytester.makepyfile("def test_plain():\n    pass\n")
    result = pytester.runpytest_subprocess(*NO_CORE, "--results-json", "r.json")
    result.assert_outcomes(passed=1)
    assert "mobileagent benchmark summary" not in result.stdout.str()
    data = load_json(pytester.path / "r.json")
    assert data["tasks"] == [] and data["aggregate"]["sr"] is None and data["sr_interval"] is None


def test_collect_only_prints_no_summary_and_writes_no_results(pytester):
    make_project(pytester, TASKS)
    result = pytester.runpytest_subprocess(*NO_CORE, "--collect-only", "-q", "--results-json", "results.json")
    assert "5 tests collected" in result.stdout.str()
    assert "benchmark summary" not in result.stdout.str()
    assert not (pytester.path / "results.json").exists()


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664)])
def test_results_and_allure_files_honour_the_umask(pytester, umask, mode):
    import os
    import stat

    make_project(pytester, TASKS)
    previous = os.umask(umask)
    try:
        pytester.runpytest_subprocess(*NO_CORE, "--results-json", "results.json", "--alluredir", "allure")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((pytester.path / "results.json").stat().st_mode) == mode
    written = [p for p in (pytester.path / "allure").iterdir() if p.is_file()]
    assert written and {stat.S_IMODE(p.stat().st_mode) for p in written} == {mode}

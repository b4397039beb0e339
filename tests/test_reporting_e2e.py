"""Reporting end to end: the real plugin runs tasks on virtual phones (real adb server).

Checks the acceptance points of the reporting issue on real episodes: every
task's Allure result has its labels, one step per action with a screenshot
(then the agent's final turn: its finish), and a metrics.json equal to the
results file's figures (also under -n 2);
secrets that an agent puts into its LLM input never reach any output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reporting_support import allure_attachment, allure_results, load_json

EXPRESSIONS = {"add": ("3", "plus", "5", "8"), "sub": ("9", "minus", "4", "5"), "mul": ("7", "multiply", "6", "42")}


def task_source(name: str, a: str, op: str, b: str, result: str) -> str:
    symbol = {"plus": "+", "minus": "-", "multiply": "×"}[op]
    return f'''
@task(app="calculator", prompt="Calculate the result of '{a} {symbol} {b}'",
      golden=[g.tap(id="btn_{a}"), g.tap(id="btn_{op}"), g.tap(id="btn_{b}"), g.tap(id="btn_equals")])
def test_{name}(screen, events, progress):
    assert screen.text(id="result") == "{result}"
    assert events.clicked(id="btn_equals")
'''


TASKS = "from pytest_mobileagent import task, golden as g\n" + "".join(
    task_source(name, *expr) for name, expr in EXPRESSIONS.items()
)


def check_allure(directory, data):
    records = {t["task"]: t for t in data["tasks"]}
    results = allure_results(directory)
    assert sorted(r["fullName"].split("#")[-1] for r in results) == sorted(records)
    for item in results:
        record = records[item["fullName"].split("#")[-1]]
        labels = {(label["name"], label["value"]) for label in item["labels"]}
        assert {("feature", "calculator"), ("story", record["difficulty"]), ("tag", record["agent"])} <= labels
        assert item["name"] == record["prompt"]
        params = {p["name"]: p["value"] for p in item["parameters"]}
        assert params["device"] == record["device"] and params["max_steps"] == str(record["max_steps"])
        assert len(record["steps"]) == record["steps_taken"]
        # One step per action, then the turn that ended the episode without one (its finish).
        assert len(item["steps"]) == len(record["steps"]) + (record["final_turn"] is not None)
        if record["final_turn"] is not None:
            final = item["steps"][-1]
            assert final["name"].startswith("finish" if record["final_turn"]["kind"] == "finish" else "turn that failed")
            params = {p["name"]: p["value"] for p in final["parameters"]}
            assert params["tokens"] == str(record["final_turn"]["tokens_in"] + record["final_turn"]["tokens_out"])
        for step, recorded in zip(item["steps"], record["steps"]):
            shot = next(a for a in step["attachments"] if a["name"] == "screenshot")
            assert shot["type"] == "image/jpeg" and (directory / shot["source"]).read_bytes().startswith(b"\xff\xd8")
            # Saved once, as the attachment (a thumbnail): the results file points at the same file.
            assert Path(recorded["screenshot"]) == directory / shot["source"]
        assert json.loads(allure_attachment(directory, item, "metrics.json")) == record["derived"]
        assert "<hierarchy" in allure_attachment(directory, item, "final hierarchy.xml")
        initial = next(a for a in item["attachments"] if a["name"] == "initial screen")
        first = next(a for a in item["steps"][0]["attachments"] if a["name"] == "screenshot")
        before, after = ((directory / a["source"]).read_bytes() for a in (initial, first))
        assert before.startswith(b"\xff\xd8") and before != after  # the screen before the first tap
    return results


def test_allure_on_a_virtual_phone(pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    result = pytester.runpytest_subprocess(
        "--device", phone.serial, "--agent", "replay", "--results-json", "r.json", "--alluredir", "allure"
    )
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*mobileagent benchmark summary*", "overall*3*0*100.0%*", "app calculator*3*"])
    data = load_json(pytester.path / "r.json")
    assert data["devices"] == [phone.serial] and data["agent"] == "replay"
    results = check_allure(pytester.path / "allure", data)
    assert all(item["status"] == "passed" for item in results)
    assert [s["name"] for s in results[0]["steps"]][-2:] == ["4. tap id=btn_equals", "finish"]


def test_allure_under_xdist_on_two_phones(pytester, phone, phone_factory):
    (second,) = phone_factory(1)
    pytester.makepyfile(test_calc=TASKS)
    result = pytester.runpytest_subprocess(
        "-n", "2", "--device", phone.serial, "--device", second.serial, "--agent", "replay",
        "--results-json", "r.json", "--alluredir", "allure",
    )
    result.assert_outcomes(passed=3)
    data = load_json(pytester.path / "r.json")
    assert len(data["tasks"]) == 3
    check_allure(pytester.path / "allure", data)
    env = (pytester.path / "allure" / "environment.properties").read_text()
    assert "agent=replay" in env
    assert "android_version=14\n" in env  # what both virtual phones report (getprop)


def test_noop_gated_run_against_a_replay_baseline(pytester, phone):
    pytester.makepyfile(test_calc=TASKS)
    base = pytester.runpytest_subprocess("--device", phone.serial, "--agent", "replay", "--results-json", "base.json")
    base.assert_outcomes(passed=3)
    result = pytester.runpytest_subprocess(
        "--device", phone.serial, "--agent", "noop", "--baseline", "base.json", "--fail-on-regression"
    )
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["*3 regressions, 0 improvements*", "*REGRESSION  test_add: passed -> failed"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


SECRET = "sk-e2e-planted-4c6f9e2a7b1d"

LEAKY_DRIVER = '''
import os, re, xml.etree.ElementTree as ET

class LeakyAgent:
    """Taps the quoted expression, sending its API key inside every 'LLM' prompt."""
    def __init__(self, context=None):
        pass
    def run(self, prompt, session):
        import adbutils
        key = os.environ["PLANTED_API_KEY"]
        device = adbutils.adb.device(session.serial)
        expr = re.search(r"'([^']*)'", prompt).group(1).replace(" ", "") + "="
        for label in expr:
            session.before_action()
            root = ET.fromstring(device.dump_hierarchy())
            node = next(n for n in root.iter("node") if n.get("text") == label and n.get("clickable") == "true")
            x1, y1, x2, y2 = map(int, re.findall(r"\\d+", node.get("bounds")))
            device.click((x1 + x2) // 2, (y1 + y2) // 2)
            if session.after_action(f"tap {label}", llm_input=f"Authorization: Bearer {key}\\n{prompt}",
                                    llm_output=f"tap {label} (key {key})"):
                break
        session.after_action({"type": "finish"}, llm_input=f"Authorization: Bearer {key}\\ndone?",
                             llm_output=f"finish (key {key})")
        print("debug: used key", key)

def pytest_mobileagent_register_agents(registry):
    registry.register("leaky", LeakyAgent)
'''


def test_secret_from_a_real_agent_is_redacted_everywhere(pytester, phone, monkeypatch):
    monkeypatch.setenv("PLANTED_API_KEY", SECRET)
    pytester.makepyfile(test_calc=TASKS)
    pytester.makeconftest(LEAKY_DRIVER)
    result = pytester.runpytest_subprocess(
        "--device", phone.serial, "--agent", "leaky", "-rA", "--results-json", "out/r.json",
        "--alluredir", "out/allure", "--junitxml", "out/junit.xml",
    )
    result.assert_outcomes(passed=3)
    data = load_json(pytester.path / "out" / "r.json")
    assert data["tasks"][0]["steps"][0]["llm_input"].startswith("Authorization: Bearer [REDACTED:PLANTED_API_KEY]")
    assert data["tasks"][0]["final_turn"]["llm_input"].startswith("Authorization: Bearer [REDACTED:PLANTED_API_KEY]")
    files = [p for p in (pytester.path / "out").rglob("*") if p.is_file()]
    assert len(files) > 20
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), f"secret in {path}"
    assert SECRET not in result.stdout.str() + result.stderr.str()

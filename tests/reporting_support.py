"""Helpers for the reporting tests: a stand-in for the core plugin that puts
synthetic task records on test reports, exactly as the core plugin's contract
says (``report.mobileagent_record = TaskRecord.to_dict()`` on the report of
the phase that ends the task).

Each synthetic task is an ordinary test function marked
``@pytest.mark.fake_task(...)``; the fixture ``fake_record`` builds its
TaskRecord (with real PNG screenshots and a hierarchy file) and the body
asserts success, so a failed task fails its call phase like a real one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FAKE_CORE_CONFTEST = r'''
import io, json, os
import pytest
from pytest_mobileagent.metrics import StepRecord, StopReason, TaskRecord
from pytest_mobileagent.reporting import options as reporting_options
from pytest_mobileagent.reporting.plugin import ReportingPlugin

def pytest_addoption(parser):
    reporting_options.add_options(parser)
    parser.addoption("--agent", default="fake")

def pytest_configure(config):
    config.addinivalue_line("markers", "fake_task(**fields): a synthetic benchmark task")
    config.addinivalue_line("markers", "mobileagent_task: a benchmark task")
    config.pluginmanager.register(ReportingPlugin(config), "mobileagent-reporting")

def _png(path, colour):
    from PIL import Image
    Image.new("RGB", (54, 117), colour).save(path)

@pytest.fixture
def fake_record(request, tmp_path):
    m = request.node.get_closest_marker("fake_task")
    kw = dict(m.kwargs) if m else {}
    n_steps = kw.pop("steps", 2)
    success = kw.pop("success", True)
    callspec = getattr(request.node, "callspec", None)
    repeat = callspec.params.get("mobileagent_repeat", 0) if callspec else 0
    if repeat in kw.pop("fail_on_repeat", ()):
        success = False
    success_step = kw.pop("success_step", n_steps if success else None)
    llm = kw.pop("llm", None)
    infra = kw.pop("infra", False)
    steps = []
    for i in range(1, n_steps + 1):
        shot = tmp_path / f"step{i}.png"
        _png(shot, (10 * i % 255, 100, 150))
        steps.append(StepRecord(index=i, action={"type": "tap", "x": 10 * i, "y": 20, "target": {"id": f"btn_{i}"}},
                                agent_seconds=0.25 * i, harness_seconds=0.01 * i, tokens_in=100 * i, tokens_out=7,
                                screenshot=str(shot), screen_changed=i % 2 == 1,
                                judge_passed=success and i >= (success_step or 0),
                                llm_input=(llm and f"prompt {i}: {llm}"), llm_output=(llm and f"answer {llm}")))
    hierarchy = tmp_path / "final.xml"
    hierarchy.write_text("<hierarchy rotation='0'><node text='done'/></hierarchy>")
    name = request.node.originalname
    app = kw.pop("app", "calculator")
    min_steps = kw.pop("min_steps", 2)
    record = TaskRecord(
        nodeid=request.node.nodeid, task=name, app=app, prompt=kw.pop("prompt", f"Do {name} in {app}"),
        difficulty=kw.pop("difficulty", "easy"), min_steps=min_steps, max_steps=2 * min_steps,
        agent=request.config.getoption("agent"), device=kw.pop("device", "emulator-5554"),
        model=kw.pop("model", None), success=success, success_step=success_step, steps_taken=n_steps,
        stop_reason=StopReason.INFRA_ERROR if infra else kw.pop("stop_reason", StopReason.FINISHED),
        error=kw.pop("error", None), wall_seconds=0.5 * n_steps, milestones=["a", "b"],
        milestones_reached=["a", "b"] if success else ["a"], steps=steps,
        event_log=[{"v": 1, "type": "click", "id": "btn_1", "text": [kw.pop("event_text", "1")]}],
        final_hierarchy=str(hierarchy), repeat=repeat,
    )
    assert not kw, f"unknown fake_task fields {kw}"
    request.node.stash[RECORD] = record
    if infra:
        raise RuntimeError("device lost: " + (record.error or "adb transport closed"))
    return record

RECORD = pytest.StashKey()

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    record = item.stash.get(RECORD, None)
    ends_task = report.when == "call" or (report.when == "setup" and report.failed)
    if record is not None and ends_task:
        report.mobileagent_record = record.to_dict()
        report.mobileagent_device = {"serial": record.device, "android_version": "14"}
'''


def make_project(pytester, tests: str) -> None:
    """A pytester project with the stand-in core and ``tests`` as test_tasks.py."""
    pytester.makeconftest(FAKE_CORE_CONFTEST)
    pytester.makepyfile(test_tasks=tests)


# The stand-in core and the real one both add the options: block the real one.
NO_CORE = ("-p", "no:mobileagent")


def load_json(path: Path) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def allure_results(directory: Path) -> list[dict[str, Any]]:
    return [load_json(p) for p in sorted(Path(directory).glob("*-result.json"))]


def allure_attachment(directory: Path, item: dict[str, Any], name: str) -> str:
    for attachment in item.get("attachments", []):
        if attachment["name"] == name:
            return (Path(directory) / attachment["source"]).read_text(encoding="utf-8")
    raise KeyError(name)

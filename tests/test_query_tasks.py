"""The extended suite's query tasks hold up: their judges read answers as people write them, and each
runs on a virtual phone.

- Every query's judge accepts its right answer in three surface forms at least and rejects two near
  misses at least (its ``ANSWERS`` entry; the judge is the task body, called with an Answer).
- On the phone: the golden path passes, in exactly its steps, and ends on a screen whose views show
  the answer (``shown``); ``noop`` fails; the golden path answering the first near miss fails, and its
  record and failure line give that answer beside the expected one.
- (The MobileAgentBench tasks' third check, the golden path without its last action fails, says nothing
  here: the replay agent knows the answer whatever screen it stops on. The near miss takes its place.)
- The query answered by the LLM judge passes with a (fake, local) judge that decides by the expected
  answer, and fails with one that says "incorrect".
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mobileagent.judge import Answer, parse_hierarchy

from llm_server import OpenAICompatibleServer, _text_of

ROOT = Path(__file__).resolve().parent.parent
QUERY_FILES = sorted((ROOT / "task_tests" / "extended").glob("test_*_queries.py"))

if str(ROOT) not in sys.path:  # task_tests is a package of the checkout, beside tests/
    sys.path.insert(0, str(ROOT))
MODULES = [importlib.import_module(f"task_tests.extended.{path.stem}") for path in QUERY_FILES]


def _spec(function):
    marker = next(m for m in function.pytestmark if m.name == "mobileagent_task")
    return marker.args[0]


def _tasks():
    """(module, function, spec) of every query task."""
    return [(module, function, _spec(function)) for module in MODULES
            for name, function in sorted(vars(module).items())
            if name.startswith("test_")
            and any(m.name == "mobileagent_task" for m in getattr(function, "pytestmark", []))]


TASKS = _tasks()
DETERMINISTIC = [(m, f, s) for m, f, s in TASKS if not s.llm_judge]
LLM_JUDGED = [s.name for _, _, s in TASKS if s.llm_judge]


def on_the_phone(test):
    """The phone runs of the module share one fixture: one worker runs them all (as test_golden_paths does)."""
    return pytest.mark.slow(pytest.mark.xdist_group("query_tasks")(test))


def judge(function, text: str | None) -> bool:
    """Whether the task's body passes when the agent answered ``text`` (its seed fixtures are not read)."""
    answer = Answer()
    answer.text = text
    others = {name: None for name in inspect.signature(function).parameters if name != "answer"}
    try:
        function(answer=answer, **others)
    except AssertionError:
        return False
    return True


def test_at_least_25_queries_on_at_least_8_apps():
    assert len(DETERMINISTIC) >= 25
    assert len({spec.app for _, _, spec in TASKS}) >= 8
    assert len({spec.name for _, _, spec in TASKS}) == len(TASKS)


@pytest.mark.parametrize("module, function, spec", DETERMINISTIC, ids=[s.name for _, _, s in DETERMINISTIC])
def test_each_query_accepts_its_right_answers_and_rejects_near_misses(module, function, spec):
    answers = module.ANSWERS[spec.name]
    golden = spec.golden[-1]
    assert golden.kind == "finish" and golden.answer in answers.right, "the golden path ends with a right answer"
    assert len(answers.right) >= 3 and len(answers.wrong) >= 2
    assert [form for form in answers.right if not judge(function, form)] == []
    assert [miss for miss in answers.wrong if judge(function, miss)] == []
    assert not judge(function, None) and not judge(function, ""), "no answer is never right"


def test_every_query_task_has_its_answers_and_nothing_else():
    for module in MODULES:
        names = {spec.name for m, _, spec in TASKS if m is module and not spec.llm_judge}
        assert set(module.ANSWERS) == names, module.__name__


WRONG_ANSWER_AGENT = '''
import json, os
from pytest_mobileagent.agents.builtin import ReplayAgent
from pytest_mobileagent.tasks import GoldenAction

WRONG = json.loads(os.environ["QUERY_WRONG_ANSWERS"])


class WrongAnswer(ReplayAgent):
    """The golden path, finishing with the task's first near miss."""

    def reset(self, task):
        super().reset(task)
        self._actions = [GoldenAction("finish", answer=WRONG[task.name]) if a.kind == "finish" else a
                         for a in self._actions]


def pytest_mobileagent_register_agents(registry):
    registry.register("replay-wrong-answer", WrongAnswer)
'''


def _run(phone, tmp: Path, agent: str, *args: str) -> tuple[subprocess.CompletedProcess, dict[str, dict]]:
    out = tmp / f"{agent}.json"
    wrong = {spec.name: module.ANSWERS[spec.name].wrong[0] for module, _, spec in DETERMINISTIC}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *map(str, QUERY_FILES), "-p", "wrong_answer_agent", "--agent", agent,
         "--device", phone.serial, "--results-json", str(out), "-p", "no:cacheprovider", "--rootdir", str(ROOT),
         "--mobileagent-artifacts", str(tmp / agent), "-rs", *args],
        cwd=tmp, capture_output=True, text=True, timeout=600,
        env={**os.environ, "QUERY_WRONG_ANSWERS": json.dumps(wrong)},
    )
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-2000:]
    return proc, {t["task"]: t for t in json.loads(out.read_text())["tasks"]}


@pytest.fixture(scope="module")
def runs(phone, tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess, dict[str, dict]]]:
    """agent -> (the pytest run, task name -> record), from one run of all query tasks per agent."""
    tmp = tmp_path_factory.mktemp("queries")
    (tmp / "wrong_answer_agent.py").write_text(WRONG_ANSWER_AGENT)
    return {agent: _run(phone, tmp, agent) for agent in ("replay", "noop", "replay-wrong-answer")}


NAMES = [spec.name for _, _, spec in DETERMINISTIC]
ANSWERS = {spec.name: module.ANSWERS[spec.name] for module, _, spec in DETERMINISTIC}


@on_the_phone
@pytest.mark.parametrize("name", NAMES)
def test_golden_path_passes_on_a_screen_that_shows_the_answer(runs, name):
    _, records = runs["replay"]
    record = records[name]
    assert record["success"], record["error"]
    assert record["success_step"] == record["steps_taken"] == record["min_steps"]
    assert record["answer"] == record["expected_answer"]
    final = {node.text for node in parse_hierarchy(Path(record["final_hierarchy"]).read_text())}
    assert [text for text in ANSWERS[name].shown if text not in final] == []


@on_the_phone
@pytest.mark.parametrize("name", NAMES)
def test_noop_fails(runs, name):
    record = runs["noop"][1][name]
    assert not record["success"] and record["stop_reason"] == "finished" and record["steps_taken"] == 0
    assert "never shows" not in record["error"]


@on_the_phone
@pytest.mark.parametrize("name", NAMES)
def test_a_near_miss_fails_and_is_reported_beside_the_expected_answer(runs, name):
    proc, records = runs["replay-wrong-answer"]
    record = records[name]
    wrong = ANSWERS[name].wrong[0]
    assert not record["success"] and record["stop_reason"] == "finished"
    assert record["steps_taken"] == record["min_steps"] and record["answer"] == wrong
    note = f"answer given: {wrong!r}; expected: {record['expected_answer']!r}"
    assert note in record["error"]
    assert note in proc.stdout  # the failure line says it too


@on_the_phone
def test_the_llm_judged_query_is_skipped_without_a_judge(runs):
    proc, records = runs["replay"]
    assert LLM_JUDGED and not set(LLM_JUDGED) & set(records), "a skipped task leaves no record"
    for name in LLM_JUDGED:
        assert f"task {name} needs the LLM judge: give --llm-judge-url" in proc.stdout


def packing_judge(messages: list[dict]) -> str:
    """Correct when the given answer speaks of packing (the criteria of the Trip query)."""
    text = _text_of(messages[1])
    given = text.rsplit("Given answer:", 1)[1].lower()
    correct = "pack" in given
    return json.dumps({"verdict": "correct" if correct else "incorrect",
                       "reason": "it says the note is a packing list" if correct else "it does not mention packing"})


@on_the_phone
@pytest.mark.parametrize("agent, passes", [("replay", True), ("replay-wrong-answer", False)])
def test_the_llm_judged_query_with_a_judge(phone, tmp_path, agent, passes):
    (tmp_path / "wrong_answer_agent.py").write_text(WRONG_ANSWER_AGENT.replace(
        'WRONG = json.loads(os.environ["QUERY_WRONG_ANSWERS"])', 'WRONG = {"%s": "A list of restaurants."}'
        % LLM_JUDGED[0]))
    with OpenAICompatibleServer(packing_judge) as server:
        out = tmp_path / "out.json"
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", f"{QUERY_FILES[0].parent}/test_notes_queries.py::{LLM_JUDGED[0]}",
             "-p", "wrong_answer_agent", "--agent", agent, "--device", phone.serial, "--results-json", str(out),
             "-p", "no:cacheprovider", "--rootdir", str(ROOT), "--llm-judge-url", server.base_url],
            cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**os.environ})
    (record,) = json.loads(out.read_text())["tasks"]
    assert record["success"] is passes, proc.stdout[-2000:]
    (verdict,) = record["llm_verdicts"]
    assert verdict["verdict"] == ("correct" if passes else "incorrect") and verdict["reason"]
    assert len(server.requests) == 1


ANSWERING_DRIVER = '''
class Answering:
    """A driver agent that answers from run() at once (it reads nothing)."""

    def __init__(self, answer):
        self.answer = answer

    def run(self, prompt, session):
        return self.answer


def pytest_mobileagent_register_agents(registry):
    registry.register("says-15.625", lambda context: Answering("It is 15.625."))
    registry.register("says-16", lambda context: Answering("16"))
'''


@on_the_phone
@pytest.mark.parametrize("agent, passes", [("says-15.625", True), ("says-16", False)])
def test_a_driver_agents_returned_answer_is_judged(phone, tmp_path, agent, passes):
    (tmp_path / "answering_driver.py").write_text(ANSWERING_DRIVER)
    out = tmp_path / "out.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest",
         f"{QUERY_FILES[0].parent}/test_calculator_queries.py::test_calculator_query_result",
         "-p", "answering_driver", "--agent", agent, "--device", phone.serial, "--results-json", str(out),
         "-p", "no:cacheprovider", "--rootdir", str(ROOT)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=dict(os.environ))
    (record,) = json.loads(out.read_text())["tasks"]
    assert record["success"] is passes and record["stop_reason"] == "finished", proc.stdout[-2000:]
    assert record["answer"] == ("It is 15.625." if passes else "16") and record["expected_answer"] == "15.625"

"""The optional LLM judge against a local OpenAI-compatible server (real HTTP, the real openai client).

A query task on the calculator asks the judge; the fake model decides by comparing the expected
and given answers it was sent, so the tests check the request, the verdict and its reason in the
record, the skip without an endpoint, and that a timeout, an HTTP error or a malformed reply is an
error (never a pass).
"""

from __future__ import annotations

import json
import re

import pytest

from pytest_mobileagent.llm_judge import LLMJudgeError, parse_verdict

from llm_server import OpenAICompatibleServer, _text_of
from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

TASK = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", llm_judge=True, prompt="Compute 3 + 5 on the calculator and tell me the result in words",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals"),
              g.finish(answer="{answer}")])
def test_eight(answer):
    assert answer.judged_by_llm(expected="eight", criteria="the number may be written in digits")
"""


def fair_model(messages: list[dict]) -> str:
    """Says "correct" when the given answer is eight, in words or digits."""
    text = _text_of(messages[1])
    given = re.search(r"^Given answer: (.*)$", text, re.MULTILINE).group(1).strip().lower()
    correct = given in {"eight", "8"}
    return json.dumps({"verdict": "correct" if correct else "incorrect",
                       "reason": f"the given answer {given!r} {'is' if correct else 'is not'} eight"})


def project(pytester: pytest.Pytester, answer: str = "eight") -> pytest.Pytester:
    pytester.makepyfile(test_query=TASK.replace("{answer}", answer))
    return pytester


def run(pytester, phone, server=None, *args: str):
    url = ("--llm-judge-url", server.base_url, "--llm-judge-model", "judge-1") if server else ()
    return run_on_phone(pytester, phone, *url, *args)


@pytest.mark.parametrize("given", ["eight", "8"])
def test_the_judges_verdict_and_reason_are_in_the_record(pytester, phone, given, monkeypatch):
    monkeypatch.setenv("MOBILEAGENT_LLM_JUDGE_API_KEY", "sk-judge-planted-77")
    project(pytester, given)
    with OpenAICompatibleServer(fair_model) as server:
        result, data = run(pytester, phone, server)
    result.assert_outcomes(passed=1)
    (record,) = data["tasks"]
    assert record["success"] and record["answer"] == given and record["expected_answer"] == given
    assert record["llm_verdicts"] == [{
        "expected": "eight", "criteria": "the number may be written in digits", "answer": given,
        "verdict": "correct", "reason": f"the given answer {given!r} is eight", "model": "judge-1"}]
    # One request, after the finish: the judge is not asked while the agent acts.
    (request,) = server.requests
    assert request["body"]["model"] == "judge-1"
    assert request["headers"]["authorization"] == "Bearer sk-judge-planted-77"
    assert "sk-judge-planted-77" not in json.dumps(data)  # the key is nowhere in the results
    sent = _text_of(request["body"]["messages"][1])
    assert "Question: Compute 3 + 5" in sent and "Expected answer: eight" in sent and f"Given answer: {given}" in sent


def test_an_incorrect_verdict_fails_the_task_and_says_why(pytester, phone):
    project(pytester, "nine")
    with OpenAICompatibleServer(fair_model) as server:
        result, data = run(pytester, phone, server, "--alluredir", str(pytester.path / "allure"))
    result.assert_outcomes(failed=1)
    (record,) = data["tasks"]
    assert not record["success"]
    assert record["llm_verdicts"][0]["verdict"] == "incorrect"
    assert "answer given: 'nine'" in record["error"] and "LLM judge: incorrect" in record["error"]
    result.stdout.fnmatch_lines(["*answer given: 'nine'; expected: 'nine'; LLM judge: incorrect*"])
    # Allure's finish step gives the answer beside the expected one; its trajectory has the verdict.
    (allure,) = [json.loads(p.read_text()) for p in (pytester.path / "allure").glob("*-result.json")]
    assert "finish 'nine', expected 'nine'" in [step["name"] for step in allure["steps"]]
    (trajectory,) = [p for p in (pytester.path / "allure").glob("*-attachment.json")
                     if '"llm_verdicts"' in p.read_text()]
    assert json.loads(trajectory.read_text())["llm_verdicts"][0]["reason"] == "the given answer 'nine' is not eight"


@pytest.mark.parametrize("workers", [(), ("-n", "1")])
def test_without_an_endpoint_the_task_is_skipped_with_the_reason(pytester, phone, workers):
    project(pytester)
    result, data = run(pytester, phone, None, "-rs", *workers)
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*test_eight needs the LLM judge: give --llm-judge-url*"])
    # Skipped on purpose: the run is complete without it, and says which it skipped.
    assert data["tasks"] == [] and data["run"]["tasks_skipped"] == ["test_query.py::test_eight"]
    assert data["run"]["tasks_not_run"] == [] and "run incomplete" not in result.stdout.str()


@pytest.mark.parametrize("failure", ["timeout", "http 500", "prose", "no verdict", "no reason"])
def test_a_judge_that_does_not_decide_is_an_error_never_a_pass(pytester, phone, failure):
    replies = {"prose": "The answer looks right to me.",
               "no verdict": json.dumps({"verdict": "probably", "reason": "close enough"}),
               "no reason": json.dumps({"verdict": "correct"})}
    project(pytester)
    with OpenAICompatibleServer(lambda messages: replies.get(failure, "")) as server:
        server.hang = failure == "timeout"
        server.fail_next = 1 if failure == "http 500" else 0
        result, data = run(pytester, phone, server, "--llm-judge-timeout", "0.5")
    result.assert_outcomes(errors=1)
    (record,) = data["tasks"]
    assert not record["success"] and record["stop_reason"] == "infra_error"
    assert record["error"].startswith("LLMJudgeError: ")
    expected = {"timeout": "no verdict within 0.5 s", "http 500": "answered HTTP 500",
                "prose": "no JSON object", "no verdict": "no verdict", "no reason": "no verdict"}[failure]
    assert expected in record["error"]


def test_bad_judge_options_are_usage_errors(pytester):
    pytester.makepyfile(test_x="def test_x(): pass")
    result = pytester.runpytest("--llm-judge-url", "localhost:8000")
    result.stderr.fnmatch_lines(["*--llm-judge-url: 'localhost:8000' is not an http(s) URL*"])
    result = pytester.runpytest("--llm-judge-url", "http://127.0.0.1:9/v1", "--llm-judge-timeout", "-1")
    result.stderr.fnmatch_lines(["*--llm-judge-timeout: '-1' must be a positive number of seconds*"])


@pytest.mark.parametrize("reply, verdict", [
    ('{"verdict": "correct", "reason": "same value"}', (True, "same value")),
    ('Here you go:\n```json\n{"verdict": "incorrect", "reason": "a day off"}\n```', (False, "a day off")),
])
def test_parse_verdict(reply, verdict):
    assert parse_verdict(reply) == verdict


@pytest.mark.parametrize("reply", ["", "correct", '{"verdict": true, "reason": "x"}', '{"verdict": "correct", '
                                   '"reason": "  "}', "[1, 2]", '{"verdict": "correct" "reason": "x"}'])
def test_parse_verdict_rejects_what_is_no_verdict(reply):
    with pytest.raises(LLMJudgeError):
        parse_verdict(reply)

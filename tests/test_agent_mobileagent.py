"""The ``mobileagent`` LLM agent against a local OpenAI-compatible server.

The "model" behind the server is a small rule-based calculator player that
reads only what the agent sent (the task line and the element list), so these
tests exercise the real prompt, the real HTTP client and the reply parsing.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_mobileagent.agents.actions import Action
from pytest_mobileagent.agents.mobileagent import describe_elements, parse_reply
from pytest_mobileagent.judge import Node

from llm_server import OpenAICompatibleServer, _text_of
from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

TASK = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen, events):
    assert screen.text(id="result") == "8"
    assert events.clicked(id="btn_equals")
"""

_ELEMENT = re.compile(r'^\[(\d+)\] \w+ "((?:[^"\\]|\\.)*)".*? id=(\w+)', re.MULTILINE)


def calculator_player(messages: list[dict]) -> str:
    """Presses the keys of the task's expression one per turn, then finishes."""
    text = _text_of(messages[1])
    expression = re.search(r"Task: .*?'([^']+)'", text).group(1).replace(" ", "") + "="
    elements = {ident: (int(number), json.loads(f'"{label}"')) for number, label, ident in _ELEMENT.findall(text)}
    if "formula" in elements:  # "=" was pressed: the formula line is filled
        return json.dumps({"action": "finish", "answer": elements["result"][1]})
    shown = elements["result"][1]
    typed = "" if shown == "0" else shown
    key = expression[len(typed)]
    number = next(n for n, label in elements.values() if label == key)
    return f"Pressing {key!r} next.\n```json\n{json.dumps({'action': 'tap', 'element': number})}\n```"


@pytest.fixture
def project(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASK)
    return pytester


def run(pytester: pytest.Pytester, phone, *args: str) -> tuple[pytest.RunResult, dict]:
    return run_on_phone(pytester, phone, "--agent", "mobileagent", *args)


def test_llm_agent_solves_a_task_over_http_and_reports_tokens(project, phone, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-planted-4242")
    with OpenAICompatibleServer(calculator_player) as server:
        result, data = run(project, phone, "--llm-base-url", server.base_url, "--llm-model", "calc-player")
    result.assert_outcomes(passed=1)
    (record,) = data["tasks"]
    assert record["success"] and record["steps_taken"] == 4 and record["stop_reason"] == "finished"
    assert record["answer"] == "8"
    assert record["model"] == "calc-player"
    # Usage reported by the endpoint is what the record counts.
    assert all(step["tokens_in"] > 0 and step["tokens_out"] > 0 for step in record["steps"])
    assert "Elements on the screen" in record["steps"][0]["llm_input"]
    assert [s["action"]["target"] for s in record["steps"]] == [
        {"id": "btn_3"}, {"id": "btn_plus"}, {"id": "btn_5"}, {"id": "btn_equals"}
    ]
    # Five requests (four actions and the finish), each authorised with the key.
    assert len(server.requests) == 5
    assert {r["headers"].get("authorization") for r in server.requests} == {"Bearer sk-test-planted-4242"}
    assert all(r["body"]["model"] == "calc-player" for r in server.requests)


def test_a_malformed_reply_gets_one_correction_then_fails_the_task(project, phone):
    with OpenAICompatibleServer(lambda messages: "I think I should tap the three.") as server:
        result, data = run(project, phone, "--llm-base-url", server.base_url)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*AgentReplyError*not a valid action*"])
    assert len(server.requests) == 2  # the request and one correction
    assert data["tasks"][0]["stop_reason"] == "agent_error"


def test_an_endpoint_error_is_an_agent_failure_not_a_harness_error(project, phone):
    with OpenAICompatibleServer(calculator_player) as server:
        server.fail_next = 100
        result, data = run(project, phone, "--llm-base-url", server.base_url)
    result.assert_outcomes(failed=1)
    assert data["tasks"][0]["stop_reason"] == "agent_error"
    assert data["tasks"][0]["error"].startswith("LLMEndpointError: HTTP 500 from ")


def test_a_hanging_endpoint_times_out_as_a_failure(project, phone):
    with OpenAICompatibleServer(calculator_player) as server:
        server.hang = True
        result, data = run(project, phone, "--llm-base-url", server.base_url, "--llm-timeout", "0.5")
    result.assert_outcomes(failed=1)
    assert "LLMEndpointError: no reply from" in data["tasks"][0]["error"]


def test_without_an_endpoint_the_error_says_how_to_give_one(pytester: pytest.Pytester, monkeypatch):
    for name in ("OPENAI_BASE_URL", "MOBILEAGENT_LLM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_calc=TASK)
    result = pytester.runpytest_subprocess("--agent", "mobileagent", "--device", "no-such-serial")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*--agent mobileagent: *needs an OpenAI-compatible endpoint*--llm-base-url*"])


# -- reply parsing --------------------------------------------------------------

ELEMENTS = [
    Node(id="com.x:id/btn_3", text="3", desc="", cls="android.widget.Button", package="com.x",
         bounds=(0, 100, 200, 300), clickable=True),
    Node(id="com.x:id/title", text="", desc="", cls="android.widget.EditText", package="com.x",
         bounds=(0, 400, 1080, 500), clickable=True),
]


def test_replies_become_actions_on_the_numbered_elements():
    assert parse_reply('{"action": "tap", "element": 0}', ELEMENTS) == Action.tap(100, 200)
    typed = parse_reply('sure: {"action": "type", "element": 1, "text": "laundry"}', ELEMENTS)
    assert (typed.type, typed.text, typed.x, typed.y, typed.target) == ("type", "laundry", 540, 450, {"id": "title"})
    assert parse_reply('{"action": "key", "key": "back"}', ELEMENTS) == Action.key("BACK")
    assert parse_reply('{"action": "finish", "answer": "42"}', ELEMENTS) == Action.finish("42")
    swipe = parse_reply('{"action": "swipe", "direction": "up"}', ELEMENTS)
    assert swipe.type == "swipe" and swipe.y > swipe.y2


@pytest.mark.parametrize("reply, problem", [
    ("no json here", "no JSON object"),
    ('{"action": "tap", "element": 7}', "'element' must be a number from 0 to 1"),
    ('{"action": "tap", "element": true}', "'element' must be"),
    ('{"action": "fly"}', "unknown action 'fly'"),
    ('{"action": "key", "key": "POWER"}', "'key' must be BACK, HOME or ENTER"),
    ('{"action": "type", "element": 1}', "needs a string 'text'"),
])
def test_bad_replies_say_what_is_wrong(reply, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        parse_reply(reply, ELEMENTS)


@given(st.text())
def test_any_reply_is_an_action_or_a_value_error(reply):
    try:
        action = parse_reply(reply, ELEMENTS)
    except ValueError:
        return
    assert isinstance(action, Action)


def test_the_element_list_numbers_only_visible_interactive_views():
    off_screen = Node(id="", text="far", desc="", cls="android.widget.TextView", package="com.x",
                      bounds=(0, 5000, 100, 5100))
    layout = Node(id="", text="", desc="", cls="android.widget.FrameLayout", package="com.x",
                  bounds=(0, 0, 1080, 2340))
    chosen, listing = describe_elements([layout, ELEMENTS[0], off_screen, ELEMENTS[1]])
    assert chosen == ELEMENTS
    assert listing.splitlines() == ['[0] Button "3" id=btn_3 (clickable)', "[1] EditText id=title (clickable)"]

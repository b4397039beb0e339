"""Every call the endpoint served counts: in the task record, the results file and the summary.

A local OpenAI-compatible server (tests/llm_server.py, real HTTP) keeps its
own account of the completions it served and the tokens their ``usage``
reported. Each agent path -- solving the task, finishing at once, a reply
that is no action, an HTTP error, a reply later than ``--llm-timeout`` or
than ``--agent-timeout``, and a driver agent's own loop -- must end with the
same tokens in the record, in the results file's aggregate and in the
terminal summary as the server reported, and with each turn's time in
Latency, the turn that ended the episode without an action (the finish, or
the turn that failed) included. A finish is no step.
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable

import pytest

from llm_server import OpenAICompatibleServer, _text_of
from plugin_support import run_on_phone
from test_agent_mobileagent import TASK, calculator_player

pytest_plugins = ["pytester"]

MALFORMED = "I think I should tap the three."
FINISH = json.dumps({"action": "finish", "answer": ""})


@pytest.fixture
def project(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASK)
    return pytester


def one_action_then(server_action: str) -> Callable[[OpenAICompatibleServer], Callable[[list[dict]], str]]:
    """A model that taps one key, then replies with no action; the correction request meets ``server_action``."""
    def make(server: OpenAICompatibleServer) -> Callable[[list[dict]], str]:
        def respond(messages: list[dict]) -> str:
            if server.served == 0:
                return calculator_player(messages)
            if server_action == "fail":
                server.fail_next = 100  # every request from here on answers HTTP 500
            else:
                server.hang = True  # every request from here on is held until the server stops
            return MALFORMED
        return respond
    return make


# mode -> (the model behind the server, extra options, steps, the final turn's kind, outcome,
#          which served replies are the turns' last replies: one per turn, in order)
# The timeouts bound every call, the served ones too: 6 s leaves a wide margin to a loopback reply
# and to the first turn's import of the openai client on a loaded machine (2 s did not, at a load
# of 10), and the held request ends at the timeout itself (no sleep anywhere).
MODES: dict[str, tuple[Any, tuple[str, ...], int, str, str, list[int]]] = {
    "solve": (lambda server: calculator_player, (), 4, "finish", "passed", [0, 1, 2, 3, 4]),
    "finish": (lambda server: lambda messages: FINISH, (), 0, "finish", "failed", [0]),
    # the reply and the correction: one turn, two calls
    "malformed": (lambda server: lambda messages: MALFORMED, (), 0, "error", "failed", [1]),
    "http_error": (one_action_then("fail"), (), 1, "error", "failed", [0, 1]),
    "llm_timeout": (one_action_then("hang"), ("--llm-timeout", "6"), 1, "error", "failed", [0, 1]),
    "agent_timeout": (one_action_then("hang"), ("--agent-timeout", "6"), 1, "error", "failed", [0, 1]),
}


def summary_row(output: str, group: str = "overall") -> dict[str, str]:
    """One row of the terminal's benchmark summary, by column name."""
    lines = output.splitlines()
    header = next(line for line in lines if line.startswith("group ") and "Latency" in line)
    names = ["group", "tasks", "errors", "SR", "SR 95% CI", "SE", "Latency", "Tokens", "FFR", "OER", "Overhead"]
    assert header.split() == ["group", "tasks", "errors", "SR", "SR", "95%", "CI", "SE", "Latency", "Tokens",
                              "FFR", "OER", "Overhead"]
    row = next(line for line in lines if line.startswith(group + " "))
    return dict(zip(names, row.split()))


def turns_of(record: dict) -> list[dict]:
    """The record's turns: its steps, then the final turn (if any)."""
    return record["steps"] + ([record["final_turn"]] if record.get("final_turn") else [])


def check_against_server(server: OpenAICompatibleServer, result: pytest.RunResult, data: dict,
                         steps: int, kind: str, turn_replies: list[int]) -> dict:
    """The record, the results file and the summary hold what the server served; returns the record."""
    (record,) = data["tasks"]
    assert server.served == max(turn_replies) + 1 and server.tokens_reported > 0
    # Tokens: every token the endpoint reported, in the record and in every report.
    assert record["derived"]["tokens"] == server.tokens_reported
    assert data["aggregate"]["tokens"] == server.tokens_reported  # one task: the mean per task is its total
    row = summary_row(result.stdout.str())
    assert row["Tokens"] == str(server.tokens_reported)
    # The turns: the actions are steps; the turn that ended the episode without one is not.
    assert record["steps_taken"] == len(record["steps"]) == steps
    assert record["final_turn"]["kind"] == kind
    turns = turns_of(record)
    assert sum(t["tokens_in"] + t["tokens_out"] for t in turns) == server.tokens_reported
    assert [t["llm_output"] for t in turns] == [server.replies[i] for i in turn_replies]
    # Latency: the agent's time over every turn, the final one too.
    assert record["derived"]["turns"] == len(turns) == steps + 1
    assert all(t["agent_seconds"] > 0 for t in turns)
    latency = sum(t["agent_seconds"] for t in turns) / len(turns)
    assert math.isclose(record["derived"]["latency"], latency, rel_tol=1e-9)
    assert math.isclose(data["aggregate"]["latency"], latency, rel_tol=1e-9)
    assert row["Latency"] == f"{data['aggregate']['latency']:.3f}s"
    return record


@pytest.mark.parametrize("mode", list(MODES))
def test_the_llm_agents_every_served_call_counts(project, phone, mode):
    model, options, steps, kind, outcome, turn_replies = MODES[mode]
    with OpenAICompatibleServer(calculator_player) as server:
        server.respond = model(server)
        result, data = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url,
                                    *options)
    result.assert_outcomes(**{outcome: 1})
    record = check_against_server(server, result, data, steps, kind, turn_replies)
    if mode == "solve":
        assert record["success_step"] == 4 and record["stop_reason"] == "finished" and record["answer"] == "8"
        assert data["aggregate"]["se"] == 1.0  # the finish is no step: four actions for min_steps 4
    elif mode == "finish":
        assert record["stop_reason"] == "finished" and record["derived"]["early_stop"]
    else:
        assert record["stop_reason"] == "agent_error"
    expected_error = {
        "malformed": "AgentReplyError: the model's reply is not a valid action",
        "http_error": "LLMEndpointError: HTTP 500 from ",
        "llm_timeout": "LLMEndpointError: no reply from ",
        "agent_timeout": "AgentTimeout: the agent spent more than 6 s on one action (step 2)",
    }.get(mode)
    if expected_error:
        assert record["error"].startswith(expected_error)
    if mode in ("http_error", "llm_timeout", "agent_timeout"):
        # The correction request met the fault: the failed turn still holds the reply it corrected.
        assert len(server.requests) > server.served


def test_an_endpoint_without_usage_is_counted_by_the_papers_rule_for_every_call(project, phone):
    """No usage reported: each served call counts ceil(chars / 4) of what it carried, a failed turn's too."""
    with OpenAICompatibleServer(lambda messages: MALFORMED) as server:
        server.report_usage = False
        result, data = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url)
    result.assert_outcomes(failed=1)
    assert server.served == 2 and server.tokens_reported == 0
    expected = sum(math.ceil(sum(len(_text_of(m)) for m in request["body"]["messages"]) / 4)
                   + math.ceil(len(reply) / 4)
                   for request, reply in zip(server.requests, server.replies))
    (record,) = data["tasks"]
    assert record["derived"]["tokens"] == expected == data["aggregate"]["tokens"]
    assert record["final_turn"]["kind"] == "error"


DRIVER = '''
import json
import os
import urllib.request

from pytest_mobileagent.agents import Action
from pytest_mobileagent.agents.mobileagent import describe_elements, parse_reply
from pytest_mobileagent.judge import parse_hierarchy


class LLMDriver:
    """A driver agent with its own loop: it asks the endpoint itself and reports what each call cost."""

    def __init__(self, context):
        self.url = os.environ["DRIVER_LLM_URL"] + "/chat/completions"

    def ask(self, text):
        body = json.dumps({"model": "m", "messages": [{"role": "system", "content": "drive"},
                                                      {"role": "user", "content": text}]}).encode()
        request = urllib.request.Request(self.url, body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.load(response)
        return answer["choices"][0]["message"]["content"], answer["usage"]

    def run(self, prompt, session):
        while True:
            session.before_action()
            elements, listing = describe_elements(parse_hierarchy(session.device.dump_hierarchy()))
            text = f"Task: {prompt}\\nElements on the screen:\\n{listing}"
            reply, usage = self.ask(text)
            spent = {"llm_input": text, "llm_output": reply,
                     "tokens_in": usage["prompt_tokens"], "tokens_out": usage["completion_tokens"]}
            try:
                action = parse_reply(reply, elements)
            except ValueError as exc:
                exc.usage = spent  # what the failed turn cost
                raise
            if action.type != "finish":
                session.device.tap(action.x, action.y)
            if session.after_action(action, **spent):
                return


def pytest_mobileagent_register_agents(registry):
    registry.register("llm-driver", LLMDriver)
'''


@pytest.mark.parametrize("mode", ["solve", "malformed_after_one_action"])
def test_a_driver_agents_every_served_call_counts(project, phone, monkeypatch, mode):
    project.makeconftest(DRIVER)

    def after_one_action(messages: list[dict]) -> str:
        return calculator_player(messages) if server.served == 0 else MALFORMED

    with OpenAICompatibleServer(calculator_player if mode == "solve" else after_one_action) as server:
        monkeypatch.setenv("DRIVER_LLM_URL", server.base_url)
        result, data = run_on_phone(project, phone, "--agent", "llm-driver")
    if mode == "solve":
        result.assert_outcomes(passed=1)
        record = check_against_server(server, result, data, 4, "finish", [0, 1, 2, 3, 4])
        assert (record["stop_reason"], record["answer"], record["success_step"]) == ("finished", "8", 4)
    else:
        result.assert_outcomes(failed=1)
        record = check_against_server(server, result, data, 1, "error", [0, 1])
        assert record["stop_reason"] == "agent_error" and record["error"].startswith("ValueError: ")

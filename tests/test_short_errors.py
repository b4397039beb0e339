"""Endpoint and agent errors fail their task in a few lines, and the tokens spent still count.

A fake OpenAI-compatible endpoint (tests/llm_server.py, real HTTP through the
openai client) answers with HTTP 500, hangs past --llm-timeout, or replies
with no action. At default verbosity each failure takes at most 15 lines:
one line saying what happened, then the agent's own frames; ``-v`` brings
pytest's whole traceback back. Tokens the endpoint reported count in the
task's figures in every case.
"""

from __future__ import annotations

import pytest

from llm_server import OpenAICompatibleServer, _text_of
from plugin_support import run_on_phone
from test_agent_mobileagent import TASK, calculator_player

pytest_plugins = ["pytester"]

MAX_FAILURE_LINES = 15


@pytest.fixture
def project(pytester: pytest.Pytester, phone):
    pytester.makepyfile(test_calc=TASK)
    return pytester


def failure_section(output: str) -> list[str]:
    """The lines of the FAILURES section's one report, without its "____ test ____" header."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "= FAILURES =" in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("=") and "FAILURES" not in lines[i])
    body = lines[start + 1:end]
    assert body[0].startswith("_") and "test_add" in body[0]
    return body[1:]


def reported_tokens(server: OpenAICompatibleServer, replies: list[str]) -> int:
    """What the fake endpoint reported in `usage` for its answered requests (its own rule)."""
    total = 0
    for request, reply in zip(server.requests, replies):
        chars = sum(len(_text_of(m)) for m in request["body"]["messages"])
        total += max(1, chars // 4) + max(1, len(reply) // 4)
    return total


def test_an_http_500_is_one_line_with_the_status_and_the_endpoints_message(project, phone):
    replies: list[str] = []

    def two_keys_then_down(messages):
        replies.append(calculator_player(messages))
        if len(replies) == 2:
            server.fail_next = 100  # the endpoint breaks after two answers
        return replies[-1]

    with OpenAICompatibleServer(two_keys_then_down) as server:
        result, data = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url)
        short = failure_section(result.stdout.str())
        result.assert_outcomes(failed=1)
        assert len(short) <= MAX_FAILURE_LINES, "\n".join(short)
        assert short[0] == (f"agent error: LLMEndpointError: HTTP 500 from {server.base_url}: injected failure")
        assert any("mobileagent.py" in line and "in _complete" in line for line in short)
        assert not any("openai" in line or "httpx" in line for line in short[1:])
        (record,) = data["tasks"]
        assert record["stop_reason"] == "agent_error" and record["steps_taken"] == 2
        # the two answered requests; the failed ones reported nothing
        assert record["derived"]["tokens"] == reported_tokens(server, replies)

        verbose, _ = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url, "-v")
    full = failure_section(verbose.stdout.str())
    assert len(full) > 3 * MAX_FAILURE_LINES and any("openai" in line for line in full)
    assert any("InternalServerError" in line for line in full)  # the client's exception, as the cause


def test_a_timeout_is_one_line_with_the_limit(project, phone):
    with OpenAICompatibleServer(calculator_player) as server:
        server.hang = True
        result, data = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url,
                                    "--llm-timeout", "0.5")
    short = failure_section(result.stdout.str())
    assert len(short) <= MAX_FAILURE_LINES, "\n".join(short)
    assert short[0] == f"agent error: LLMEndpointError: no reply from {server.base_url} within 0.5 s (--llm-timeout)"
    assert data["tasks"][0]["stop_reason"] == "agent_error"


def test_a_malformed_reply_is_one_line_and_its_tokens_count(project, phone):
    replies: list[str] = []

    def rambles(messages):
        replies.append("I think I should tap the three.")
        return replies[-1]

    with OpenAICompatibleServer(rambles) as server:
        result, data = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url)
        expected = reported_tokens(server, replies)
    short = failure_section(result.stdout.str())
    assert len(short) <= MAX_FAILURE_LINES, "\n".join(short)
    assert short[0].startswith("agent error: AgentReplyError: the model's reply is not a valid action")
    (record,) = data["tasks"]
    assert len(replies) == 2 and record["steps_taken"] == 0
    assert expected > 0 and record["derived"]["tokens"] == expected
    final = record["final_turn"]  # the turn that failed: no step, but its tokens and its last reply
    assert final["kind"] == "error" and final["tokens_in"] + final["tokens_out"] == expected
    assert final["llm_output"] == replies[-1]
    assert data["aggregate"]["tokens"] == expected


def test_a_timed_out_agent_shows_where_it_was(pytester: pytest.Pytester, phone):
    """An --agent-timeout interruption: the one line, then the agent's frames from where it was stopped."""
    pytester.makepyfile(test_calc=TASK)
    pytester.makeconftest('''
import threading

class Stuck:
    def __init__(self, context):
        pass
    def step(self, observation):
        return self.wait_for_a_reply()
    def wait_for_a_reply(self):
        threading.Event().wait()

def pytest_mobileagent_register_agents(registry):
    registry.register("stuck", Stuck)
''')
    result, _ = run_on_phone(pytester, phone, "--agent", "stuck", "--agent-timeout", "0.5")
    short = failure_section(result.stdout.str())
    assert len(short) <= MAX_FAILURE_LINES, "\n".join(short)
    assert short[0].startswith("agent error: AgentTimeout: the agent spent more than 0.5 s on one action (step 1)")
    assert any("conftest.py" in line and "in wait_for_a_reply" in line for line in short)
    assert not any("threading.py" in line for line in short)

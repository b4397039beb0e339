"""A benchmark run's failures in a line each; endpoint errors and retries say what happened.

Tasks the agent did not do fail in one line: the judge's assertion message,
where and how the episode ended; ``--tb=long`` brings pytest's traceback back.
A fake OpenAI-compatible endpoint (tests/llm_server.py, real HTTP through the
openai client) answers with HTTP 500, hangs past --llm-timeout, or replies
with no action: the built-in LLM agent's failure is one line, and a retried
request says so (in that line, and as an LLMRetryWarning in pytest's warnings
summary). A user's agent shows at most 15 lines: the one line, then its own
frames. ``-v`` brings pytest's whole traceback back. Tokens the endpoint
reported count in the task's figures in every case.
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


def failure_reports(output: str) -> dict[str, list[str]]:
    """Each report of the FAILURES section: the test's name -> its lines (without the header)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "= FAILURES =" in line)
    reports: dict[str, list[str]] = {}
    for line in lines[start + 1:]:
        if line.startswith("="):
            break
        if line.startswith("_"):
            reports[line.strip("_ ")] = []
        else:
            reports[list(reports)[-1]].append(line)
    return reports


JUDGED = """
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'", golden=[g.tap(id="btn_3")] * 4)
def test_add(screen, events):
    assert events.clicked(id="btn_equals"), "'=' was never pressed"

@task(app="calculator", prompt="Calculate the result of '3 x 5'", golden=[g.tap(id="btn_3")] * 4)
def test_multiply(screen):
    assert screen.text(id="result") == "15"
"""


def test_a_task_the_agent_did_not_do_fails_in_one_line_with_the_judges_message(pytester: pytest.Pytester, phone):
    path = pytester.makepyfile(test_calc=JUDGED)
    asserts = [n for n, line in enumerate(path.read_text().splitlines(), 1) if line.lstrip().startswith("assert")]
    result, data = run_on_phone(pytester, phone, "--agent", "noop")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    assert failure_reports(out) == {
        "test_add": [f"'=' was never pressed (test_calc.py:{asserts[0]}; not done after 0 of 8 steps, stop: finished)"],
        "test_multiply": [f"assert '0' == '15' (test_calc.py:{asserts[1]}; not done after 0 of 8 steps, "
                          "stop: finished)"],
    }
    result.stdout.fnmatch_lines(["task reports shown short above: 2; the whole tracebacks: --tb=long (or -v)"])
    result.stdout.fnmatch_lines(["FAILED test_calc.py::test_add - '=' was never pressed*"])
    assert [r["error"] for r in data["tasks"]] == ["AssertionError: '=' was never pressed",
                                                  "AssertionError: assert '0' == '15'"]

    long, _ = run_on_phone(pytester, phone, "--agent", "noop", "--tb=long")
    reports = failure_reports(long.stdout.str())
    assert len(reports["test_multiply"]) > 5
    long.stdout.fnmatch_lines([">       assert screen.text(id=\"result\") == \"15\"", "E       AssertionError: assert '0' == '15'",
                               "E       [[]mobileagent[]] task test_multiply not done after 0 of 8 steps (stop: finished)"])
    assert "shown short" not in long.stdout.str()


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
        # One line: the built-in agent's frames are the plugin's own. The request was retried, and says so.
        assert short == [f"agent error: LLMEndpointError: HTTP 500 from {server.base_url}: injected failure, "
                         "twice: the request was sent once more"]
        result.stdout.fnmatch_lines(["*LLMRetryWarning: HTTP 500 from *: injected failure; sending the request once more"])
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
    assert short == [f"agent error: LLMEndpointError: no reply from {server.base_url} within 0.5 s (--llm-timeout), "
                     "twice: the request was sent once more"]
    assert len(server.requests) == 2  # the request, and its one retry
    result.stdout.fnmatch_lines(["*LLMRetryWarning: no reply from * within 0.5 s (--llm-timeout); "
                                 "sending the request once more"])
    assert data["tasks"][0]["stop_reason"] == "agent_error"


def test_a_retry_that_succeeds_is_said_and_the_task_goes_on(project, phone):
    with OpenAICompatibleServer(calculator_player) as server:
        server.fail_next = 1
        server.fail_status = 503
        result, data = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url)
    result.assert_outcomes(passed=1)
    assert data["tasks"][0]["success"]
    assert len(server.requests) == server.served + 1  # one failed request, sent once more
    result.stdout.fnmatch_lines(["test_calc.py::test_add",
                                 "*LLMRetryWarning: HTTP 503 from *; sending the request once more"])


def test_a_client_error_is_not_retried(project, phone):
    with OpenAICompatibleServer(calculator_player) as server:
        server.fail_next = 1
        server.fail_status = 400
        result, _ = run_on_phone(project, phone, "--agent", "mobileagent", "--llm-base-url", server.base_url)
    assert failure_section(result.stdout.str()) == [
        f"agent error: LLMEndpointError: HTTP 400 from {server.base_url}: injected failure"]
    assert len(server.requests) == 1 and "LLMRetryWarning" not in result.stdout.str()


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

"""Secrets stay out of saved hierarchies and log output (issue 13, point 6).

A real agent types its API key into an app (so it is on the screen, in every
hierarchy) and logs it; neither the artifacts, the results file, the log file
nor the live log may show it.
"""

from __future__ import annotations

import logging

import pytest

SECRET = "sk-test-SECRET123-planted"

TASK = """
from pytest_mobileagent import task, golden as g

@task(app="notes", prompt="add a new note named 'TODO List'",
      golden=[g.tap(id="new_note"), g.type("TODO List", id="locked_note_title"), g.tap(id="android:id/button1")])
def test_note_add(screen):
    assert "TODO List" in [n.text for n in screen.nodes]
"""

AGENT = """
import logging, os
from pytest_mobileagent.agents import Action
from pytest_mobileagent.agents.builtin import ReplayAgent

class Typist(ReplayAgent):
    '''The golden path, but it types its API key instead of the note's name, and logs it.'''
    def step(self, observation):
        action = super().step(observation)
        if action.type == "type":
            key = os.environ["OPENAI_API_KEY"]
            logging.getLogger("typist").warning("typing with key %s", key)
            action = Action.type(key, x=action.x, y=action.y, target=action.target)
        return action

def pytest_mobileagent_register_agents(registry):
    registry.register("typist", Typist)
"""


def test_a_typed_secret_is_in_no_artifact_and_no_log(pytester: pytest.Pytester, phone, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    pytester.makepyfile(test_notes=TASK)
    pytester.makeconftest(AGENT)
    result = pytester.runpytest_subprocess(
        "--device", phone.serial, "--agent", "typist", "--mobileagent-artifacts", "out/artifacts",
        "--results-json", "out/r.json", "--log-file", "out/run.log", "--log-file-level", "WARNING",
        "-o", "log_cli=true", "--log-cli-level", "WARNING", "-rA", timeout=300)
    result.assert_outcomes(failed=1)  # the note is named after the key, not 'TODO List'
    hierarchies = list((pytester.path / "out" / "artifacts").rglob("final_hierarchy.xml"))
    assert hierarchies and "[REDACTED:OPENAI_API_KEY]" in hierarchies[0].read_text()
    log = (pytester.path / "out" / "run.log").read_text()
    assert "typing with key [REDACTED:OPENAI_API_KEY]" in log
    for path in (pytester.path / "out").rglob("*"):
        if path.is_file() and path.suffix != ".png":
            assert SECRET.encode() not in path.read_bytes(), f"secret in {path}"
    output = result.stdout.str() + result.stderr.str()
    assert "typing with key" in output and SECRET not in output


def test_the_log_filter_redacts_message_arguments_and_tracebacks():
    from pytest_mobileagent.reporting.redact import RedactingFilter, Redactor

    redactor = Redactor({"OPENAI_API_KEY": SECRET})
    try:
        raise ValueError(f"bad key {SECRET}")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "key=%s", (SECRET,), sys.exc_info())
    assert RedactingFilter(redactor).filter(record)
    formatted = logging.Formatter().format(record)
    assert "key=[REDACTED:OPENAI_API_KEY]" in formatted and "bad key [REDACTED:OPENAI_API_KEY]" in formatted
    assert SECRET not in formatted

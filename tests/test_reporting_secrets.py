"""Secrets in API-key environment variables never reach a report, attachment or results file."""

from __future__ import annotations

import pytest

from pytest_mobileagent.reporting.redact import Redactor
from reporting_support import NO_CORE, allure_results, load_json, make_project


SECRET = "sk-planted-6f1d0c2b9a8e7d6c5b4a"
TOKEN = "ghp_planted_token_0123456789"

LEAKY_TASKS = f'''
import logging, os
import pytest

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(llm=os.environ["PLANTED_API_KEY"], prompt="use key " + os.environ["PLANTED_API_KEY"],
                       error="401 for key " + os.environ["PLANTED_API_KEY"], success=False,
                       event_text=os.environ["HF_TOKEN"], model="gpt-" + os.environ["HF_TOKEN"])
def test_leaky(fake_record):
    print("stdout has", os.environ["PLANTED_API_KEY"])
    logging.getLogger("agent").warning("log has %s", os.environ["HF_TOKEN"])
    assert fake_record.success, "agent failed with key " + os.environ["PLANTED_API_KEY"]

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(llm=os.environ["HF_TOKEN"])
def test_leaky_pass(fake_record):
    print("stdout has", os.environ["HF_TOKEN"])
'''


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_planted_secret_appears_nowhere(pytester, monkeypatch, workers):
    monkeypatch.setenv("PLANTED_API_KEY", SECRET)
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    make_project(pytester, LEAKY_TASKS)
    result = pytester.runpytest_subprocess(
        *NO_CORE, *workers, "-rA", "--results-json", "out/results.json", "--alluredir", "out/allure",
        "--junitxml", "out/junit.xml",
    )
    result.assert_outcomes(passed=1, failed=1)
    out = pytester.path / "out"
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) > 10  # results, junit, and the Allure results with their attachments
    for path in files:
        raw = path.read_bytes()
        assert SECRET.encode() not in raw and TOKEN.encode() not in raw, f"secret in {path}"
    for text in (result.stdout.str(), result.stderr.str()):
        assert SECRET not in text and TOKEN not in text
    # What was redacted is still recognisable for the reader.
    data = load_json(out / "results.json")
    leaky = next(t for t in data["tasks"] if t["task"] == "test_leaky")
    assert leaky["prompt"] == "use key [REDACTED:PLANTED_API_KEY]"
    assert leaky["steps"][0]["llm_input"].endswith("[REDACTED:PLANTED_API_KEY]")
    assert "[REDACTED:HF_TOKEN]" in leaky["event_log"][0]["text"][0]
    assert "[REDACTED:PLANTED_API_KEY]" in result.stdout.str()
    assert any(r["name"] == "use key [REDACTED:PLANTED_API_KEY]" for r in allure_results(out / "allure"))


def test_redactor_picks_credential_names_only():
    environ = {
        "OPENAI_API_KEY": "sk-abcdef123456",
        "MY_SERVICE_TOKEN": "tok-987654321",
        "DB_PASSWORD": "hunter2hunter2",
        "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG",
        "HOME": "/root/home-dir",
        "TOKENIZERS_PARALLELISM": "false",  # a flag, not a credential
        "SHORT_TOKEN": "abc",  # too short to redact safely
    }
    redactor = Redactor.from_environ(environ=environ)
    assert redactor.names == ["AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MY_SERVICE_TOKEN", "OPENAI_API_KEY"]
    text = "k=sk-abcdef123456 home=/root/home-dir abc false"
    assert redactor.text(text) == "k=[REDACTED:OPENAI_API_KEY] home=/root/home-dir abc false"
    data = {"a": ["tok-987654321", 3, None], "hunter2hunter2": {"x": "wJalrXUtnFEMI/K7MDENG"}}
    assert redactor.data(data) == {"a": ["[REDACTED:MY_SERVICE_TOKEN]", 3, None],
                                   "[REDACTED:DB_PASSWORD]": {"x": "[REDACTED:AWS_SECRET_ACCESS_KEY]"}}


def test_redactor_replaces_the_longest_secret_first():
    redactor = Redactor({"A_TOKEN": "secret12", "B_TOKEN": "secret1234"})
    assert redactor.text("secret1234") == "[REDACTED:B_TOKEN]"


def test_redact_env_ini_adds_names(pytester, monkeypatch):
    monkeypatch.setenv("CORP_GATEWAY_PASS", "gw-pass-7777777")
    make_project(pytester, '''
import os, pytest
@pytest.mark.mobileagent_task
@pytest.mark.fake_task(llm=os.environ["CORP_GATEWAY_PASS"])
def test_t(fake_record):
    pass
''')
    pytester.makeini("[pytest]\nredact_env = CORP_*_PASS\n")
    pytester.runpytest_subprocess(*NO_CORE, "--results-json", "r.json")
    raw = (pytester.path / "r.json").read_text()
    assert "gw-pass-7777777" not in raw and "[REDACTED:CORP_GATEWAY_PASS]" in raw

"""A task author's mistakes say what they are (real pytest runs on the virtual phone).

- A judge that fails after asking for an id its app never shows says so, and
  names the nearest real id: in its one line, in --tb=long and in the record.
  An id the app has, absent from the screens the agent reached, is no mistake,
  and a judge allowed to find nothing passes as before.
- A task asking for a fixture that does not exist is a usage error naming the
  fixture and the nearest defined one, not an infrastructure error.
- The app ids the plugin ships are the release facts the phone's screens are held to.
"""

from __future__ import annotations

import json

import pytest
import release_exceptions
from test_release_facts import FACTS, LIBRARY_IDS, PACKAGE

from pytest_mobileagent.app_ids import known_ids
from pytest_mobileagent.judge import Lookups, Screen

from plugin_support import run_on_phone

pytest_plugins = ["pytester"]

GOLDEN = 'golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")]'

TASKS = f'''
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'", {GOLDEN})
def test_typo(screen):
    assert screen.text(id="reslt") == "8", "the result is not 8"

@task(app="calculator", prompt="Calculate the result of '3 + 5'", {GOLDEN})
def test_event_typo(screen, events):
    assert events.clicked(id="btn_equal")

@task(app="calculator", prompt="Calculate the result of '3 + 5'", {GOLDEN})
def test_elsewhere(screen):
    # an id of the app's unit converter: the agent never went there, the judge is right to fail
    assert screen.exists(id="swap_button")
'''


def own_lines(output: str, test: str) -> list[str]:
    """The lines of ``test``'s report in the FAILURES (or ERRORS) section: no header, no captured output."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("_") and f" {test} " in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(("_", "=", "-")))
    return lines[start + 1:end]


def test_a_judge_asking_for_an_id_its_app_never_shows_names_the_nearest_real_one(pytester, phone):
    path = pytester.makepyfile(test_tasks=TASKS)
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if 'id="reslt"' in text)
    result, data = run_on_phone(pytester, phone, "--agent", "noop")
    result.assert_outcomes(failed=3)
    out = result.stdout.str()
    typo = own_lines(out, "test_typo")
    assert typo[0] == f"the result is not 8 (test_tasks.py:{line}; not done after 0 of 8 steps, stop: finished)"
    assert typo[1:] == ["  hint: the judge asked the screen for id 'reslt', which com.simplemobiletools.calculator "
                        "never shows (its release declares no such id); the nearest real id: 'result'"]
    assert own_lines(out, "test_event_typo")[1:] == [
        "  hint: the judge asked the events for id 'btn_equal', which com.simplemobiletools.calculator never "
        "shows (its release declares no such id); the nearest real id: 'btn_equals'"]
    # an id the app has: the agent's failure alone, no hint
    assert len(own_lines(out, "test_elsewhere")) == 1
    records = {r["task"]: r for r in data["tasks"]}
    assert "nearest real id: 'result'" in records["test_typo"]["error"]
    assert records["test_typo"]["stop_reason"] == "finished"  # still the judge's verdict: a failure
    assert "hint" not in records["test_elsewhere"]["error"] and "never shows" not in records["test_elsewhere"]["error"]

    long, _ = run_on_phone(pytester, phone, "--agent", "noop", "--tb=long", "-k", "test_typo")
    long.stdout.fnmatch_lines(["E   *[[]mobileagent[]] the judge asked the screen for id 'reslt', which *; "
                               "the nearest real id: 'result'"])


def test_a_judge_allowed_to_find_nothing_passes_as_before(pytester, phone):
    pytester.makepyfile(test_tasks=f'''
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'", {GOLDEN})
def test_add(screen):
    assert not screen.exists(id="reslt")  # asks for an id the app lacks, and may
    assert screen.text(id="result") == "8"
''')
    result, data = run_on_phone(pytester, phone, "--agent", "replay")
    result.assert_outcomes(passed=1)
    assert data["tasks"][0]["success"] and data["tasks"][0]["error"] is None


def test_a_misspelled_fixture_is_a_usage_error_naming_it(pytester, phone):
    path = pytester.makepyfile(test_tasks=f'''
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'", {GOLDEN})
def test_add(scren):
    assert scren.text(id="result") == "8"
''')
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith("@task"))
    result, data = run_on_phone(pytester, phone, "--agent", "noop")
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    expected = ("UsageError: fixture 'scren' not found: no plugin or conftest defines it (did you mean 'screen'?); "
                f"asked for at test_tasks.py:{line}")
    assert own_lines(out, "test_add") == [expected]
    (record,) = data["tasks"]
    assert record["error"] == expected and record["stop_reason"] == "infra_error"  # not judged
    result.stdout.fnmatch_lines(["usage errors (1), not judged: fix the task", f"  test_tasks.py::test_add: {expected}"])
    assert not any(line.startswith("infrastructure errors") for line in out.splitlines())

    verbose, _ = run_on_phone(pytester, phone, "--agent", "noop", "-v")
    verbose.stdout.fnmatch_lines(["E       fixture 'scren' not found", ">       available fixtures: *screen*"])


@pytest.mark.parametrize("app", sorted(PACKAGE))
def test_the_shipped_ids_are_the_release_facts(app):
    """tools/app_ids.py wrote pytest_mobileagent/app_ids.json from these: run it again when they change."""
    path = FACTS / f"{app}.json"
    if not path.exists():
        pytest.skip(f"no release facts for {app}")
    expected = set(json.loads(path.read_text())["ids"]) | set(LIBRARY_IDS) | set(release_exceptions.IDS.get(app, {}))
    assert known_ids(PACKAGE[app]) == expected


def test_hints_from_what_the_screens_showed():
    """Near misses of shown values, where no list of ids decides; ids the app has give none."""
    lookups = Lookups("com.simplemobiletools.calculator")
    screen = Screen("com.simplemobiletools.calculator", lookups=lookups)
    screen.update('<?xml version="1.0"?><hierarchy rotation="0">'
                  '<node text="Save" resource-id="com.other:id/save_button" class="android.widget.Button" '
                  'package="com.other" content-desc="Close" bounds="[0,0][10,10]" /></hierarchy>')
    for selectors in ({"text": "Sve"}, {"id": "com.other:id/save_buton"}, {"desc": "Clos"}, {"text": "Groceries"},
                      {"id": "formula"}, {"id": "com.other:id/unrelated"}):
        assert screen.get(**selectors) is None
    assert screen.text(text="Save") == "Save"
    assert lookups.hints() == [
        "the judge asked the screen for text 'Sve', which no screen of this episode showed; the nearest shown: 'Save'",
        "the judge asked the screen for id 'save_buton', which no screen of this episode showed; "
        "the nearest shown: 'save_button'",
        "the judge asked the screen for desc 'Clos', which no screen of this episode showed; "
        "the nearest shown: 'Close'",
    ]

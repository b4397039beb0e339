"""--baseline, --fail-under and --fail-on-regression: listing and exit status."""

from __future__ import annotations

import json

import pytest

from pytest_mobileagent.reporting.options import parse_fail_under, parse_repeat
from reporting_support import NO_CORE, load_json, make_project



def tasks(passing: set[str]) -> str:
    """Three tasks; those in ``passing`` succeed, the others stop early."""
    body = "import pytest\n"
    for name in ("test_a", "test_b", "test_c"):
        ok = name in passing
        body += f'''
@pytest.mark.mobileagent_task
@pytest.mark.fake_task(success={ok})
def {name}(fake_record):
    assert fake_record.success
'''
    return body


def baseline_run(pytester, passing: set[str]) -> None:
    make_project(pytester, tasks(passing))
    result = pytester.runpytest_subprocess(*NO_CORE, "--results-json", "baseline.json")
    assert result.ret == (0 if len(passing) == 3 else 1)


def test_regression_is_listed_and_fails_the_run(pytester):
    baseline_run(pytester, {"test_a", "test_b"})
    make_project(pytester, tasks({"test_a", "test_c"}))
    result = pytester.runpytest_subprocess(*NO_CORE, "--baseline", "baseline.json", "--fail-on-regression",
                                           "--results-json", "now.json")
    result.stdout.fnmatch_lines([
        "baseline *baseline.json: SR 66.7% -> 66.7%; 1 regressions, 1 improvements, 1 unchanged",
        "  REGRESSION  test_b: passed -> failed",
        "  improvement test_c: failed -> passed",
        "FAILED gate --fail-on-regression: 1 task regressed against *baseline.json",
    ])
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    data = load_json(pytester.path / "now.json")
    assert [c["task"] for c in data["baseline"]["regressions"]] == ["test_b"]
    assert [c["task"] for c in data["baseline"]["improvements"]] == ["test_c"]
    assert data["gates"]["failed"]


def test_no_regression_passes_the_gate_despite_failed_tasks(pytester):
    # The same task fails in both runs: with a gate, the gate decides the exit status.
    baseline_run(pytester, {"test_a", "test_b"})
    make_project(pytester, tasks({"test_a", "test_b"}))
    result = pytester.runpytest_subprocess(*NO_CORE, "--baseline", "baseline.json", "--fail-on-regression")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*0 regressions, 0 improvements, 3 unchanged", "gates passed"])
    assert result.ret == pytest.ExitCode.OK


def test_baseline_without_gate_only_lists(pytester):
    baseline_run(pytester, {"test_a", "test_b", "test_c"})
    make_project(pytester, tasks({"test_a"}))
    result = pytester.runpytest_subprocess(*NO_CORE, "--baseline", "baseline.json")
    result.stdout.fnmatch_lines(["*REGRESSION  test_b: passed -> failed", "*REGRESSION  test_c: passed -> failed"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the failed tasks, as in any pytest run
    assert "FAILED gate" not in result.stdout.str()


def test_new_and_missing_tasks_are_not_regressions(pytester):
    make_project(pytester, tasks({"test_a", "test_b", "test_c"}))
    pytester.runpytest_subprocess(*NO_CORE, "--results-json", "baseline.json")
    data = load_json(pytester.path / "baseline.json")
    data["tasks"] = [t for t in data["tasks"] if t["task"] != "test_c"]
    data["tasks"].append({**data["tasks"][0], "task": "test_gone", "nodeid": "test_tasks.py::test_gone"})
    (pytester.path / "baseline.json").write_text(json.dumps(data))
    result = pytester.runpytest_subprocess(*NO_CORE, "--baseline", "baseline.json", "--fail-on-regression")
    result.stdout.fnmatch_lines(["*0 regressions, 0 improvements, 2 unchanged, 1 new, 1 not run"])
    assert result.ret == pytest.ExitCode.OK


@pytest.mark.parametrize("threshold, passes", [("0.6", True), ("66%", True), ("0.7", False), ("100%", False)])
def test_fail_under(pytester, threshold, passes):
    make_project(pytester, tasks({"test_a", "test_b"}))  # SR 2/3
    result = pytester.runpytest_subprocess(*NO_CORE, "--fail-under", threshold, "--results-json", "r.json")
    result.assert_outcomes(passed=2, failed=1)
    if passes:
        assert result.ret == pytest.ExitCode.OK
        result.stdout.fnmatch_lines(["gates passed"])
    else:
        assert result.ret == pytest.ExitCode.TESTS_FAILED
        result.stdout.fnmatch_lines(["FAILED gate --fail-under: SR 66.7% is below *"])
    assert load_json(pytester.path / "r.json")["gates"]["fail_under"] == parse_fail_under(threshold)


def test_fail_under_from_ini(pytester):
    make_project(pytester, tasks({"test_a"}))
    pytester.makeini("[pytest]\nfail_under = 0.5\n")
    result = pytester.runpytest_subprocess(*NO_CORE)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["FAILED gate --fail-under: SR 33.3% is below 50.0%"])


def test_gate_does_not_hide_errors(pytester):
    # An infrastructure error, or an ordinary failing test, still fails a gated run.
    make_project(pytester, tasks({"test_a", "test_b", "test_c"}) + '''
@pytest.mark.mobileagent_task
@pytest.mark.fake_task(infra=True)
def test_lost(fake_record):
    pass

def test_ordinary():
    assert False
''')
    result = pytester.runpytest_subprocess(*NO_CORE, "--fail-under", "0.5")
    result.stdout.fnmatch_lines(["gates passed"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_gate_with_no_judged_task_fails(pytester):
    make_project(pytester, '''
import pytest

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(infra=True)
def test_lost(fake_record):
    pass
''')
    result = pytester.runpytest_subprocess(*NO_CORE, "--fail-under", "0.1")
    result.stdout.fnmatch_lines(["FAILED gate --fail-under 10.0%: no task was judged"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


@pytest.mark.parametrize("args, message", [
    (["--fail-under", "80"], "*--fail-under: '80' is above 1*80%*"),
    (["--fail-under", "abc"], "*--fail-under: 'abc' is not a number*"),
    (["--fail-under=-5%"], "*--fail-under: '-5%' is outside 0..1*"),
    (["--repeat-tasks", "0"], "*--repeat-tasks: '0' must be at least 1*"),
    (["--repeat-tasks", "two"], "*--repeat-tasks: 'two' is not an integer*"),
    (["--fail-on-regression"], "*--fail-on-regression needs --baseline*"),
    (["--baseline", "missing.json"], "*--baseline: *missing.json does not exist*"),
    (["--baseline", "bad.json"], "*--baseline: *bad.json is not a readable JSON results file*"),
    (["--baseline", "other.json"], "*--baseline: *other.json is not a pytest-mobileagent results file*"),
])
def test_bad_option_values_are_usage_errors(pytester, args, message):
    make_project(pytester, tasks({"test_a"}))
    (pytester.path / "bad.json").write_text("{not json")
    (pytester.path / "other.json").write_text('{"version": 2}')
    result = pytester.runpytest_subprocess(*NO_CORE, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()


def test_parse_fail_under_values():
    assert parse_fail_under("0.8") == 0.8
    assert parse_fail_under("80%") == pytest.approx(0.8)
    assert parse_fail_under(" 1 ") == 1.0
    assert parse_fail_under("0") == 0.0
    assert parse_fail_under(None) is None and parse_fail_under("") is None
    for bad in ("1.5", "nan", "101%", "x%"):
        with pytest.raises(pytest.UsageError):
            parse_fail_under(bad)
    assert parse_repeat(None) == 1 and parse_repeat("3") == 3

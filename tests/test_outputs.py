"""An output the run cannot write is one usage error at configure time (issue 13, point 7)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("option, target", [
    ("--results-json", "blocker/results.json"),
    ("--mobileagent-artifacts", "blocker/artifacts"),
    ("--alluredir", "blocker/allure"),
])
def test_an_unwritable_output_is_a_usage_error_before_any_test(pytester: pytest.Pytester, option, target):
    (pytester.path / "blocker").write_text("a file where a directory is needed")
    pytester.makepyfile("def test_one():\n    print('RAN')\n")
    result = pytester.runpytest_subprocess("-s", option, target)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {option}: cannot write to *blocker* is not a directory"])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    result.stdout.no_fnmatch_line("RAN")


def test_a_directory_given_as_the_results_file_is_a_usage_error(pytester: pytest.Pytester):
    (pytester.path / "out").mkdir()
    pytester.makepyfile("def test_one():\n    pass\n")
    result = pytester.runpytest_subprocess("--results-json", "out")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --results-json: *out is a directory; give a file name"])


def test_writable_outputs_are_created_and_the_run_goes_on(pytester: pytest.Pytester):
    pytester.makepyfile("def test_one():\n    pass\n")
    result = pytester.runpytest_subprocess("--results-json", "a/b/r.json", "--mobileagent-artifacts", "art",
                                           "--alluredir", "allure")
    result.assert_outcomes(passed=1)
    assert (pytester.path / "art").is_dir() and (pytester.path / "allure").is_dir()


def test_a_results_file_that_cannot_be_written_at_the_end_fails_the_run(pytester: pytest.Pytester):
    # Its directory was there at start-up (the check passed); a file has taken its place by the end.
    pytester.makepyfile("import shutil\n\ndef test_one():\n    shutil.rmtree('out')\n    open('out', 'w').close()\n")
    result = pytester.runpytest_subprocess("--results-json", "out/results.json")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*warning: could not write --results-json */out/results.json: *"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED

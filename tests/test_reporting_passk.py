"""pass@k / pass^k: the estimators, and repeated runs through --repeat-tasks (also under xdist)."""

from __future__ import annotations

import itertools
from math import comb

import pytest
from hypothesis import given, strategies as st

from pytest_mobileagent.reporting.passk import pass_at_k, pass_hat_k
from reporting_support import NO_CORE, load_json, make_project



@st.composite
def trials(draw):
    n = draw(st.integers(1, 12))
    return n, draw(st.integers(0, n)), draw(st.integers(1, n))


@given(trials())
def test_estimators_equal_the_share_of_k_subsets(t):
    # By definition: over all k-subsets of the n runs, the share with at least
    # one success (pass@k) and with only successes (pass^k).
    n, c, k = t
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(outcomes, k)) if comb(n, k) <= 5000 else None
    if subsets is not None:
        assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))
        assert pass_hat_k(n, c, k) == pytest.approx(sum(all(s) for s in subsets) / len(subsets))
    assert 0 <= pass_hat_k(n, c, k) <= c / n <= pass_at_k(n, c, k) <= 1


@given(trials())
def test_k_one_is_the_success_rate_and_k_grows_apart(t):
    n, c, k = t
    assert pass_at_k(n, c, 1) == pytest.approx(c / n) == pass_hat_k(n, c, 1)
    if k < n:
        assert pass_at_k(n, c, k + 1) >= pass_at_k(n, c, k) - 1e-12
        assert pass_hat_k(n, c, k + 1) <= pass_hat_k(n, c, k) + 1e-12


def test_estimators_reject_impossible_counts():
    for n, c, k in [(3, 4, 1), (3, 1, 0), (3, 1, 4), (0, 0, 1)]:
        with pytest.raises(ValueError):
            pass_at_k(n, c, k)


FLAKY_TASKS = '''
import pytest

@pytest.mark.mobileagent_task
@pytest.mark.fake_task()
def test_steady(fake_record):
    assert fake_record.success

# Fails the second of every three runs: a flaky agent.
@pytest.mark.mobileagent_task
@pytest.mark.fake_task(fail_on_repeat=(1,))
def test_flaky(fake_record):
    assert fake_record.success

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(success=False)
def test_hopeless(fake_record):
    assert fake_record.success

def test_not_a_task():
    pass
'''


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["single", "xdist"])
def test_repeat_tasks_reports_pass_at_k(pytester, workers):
    make_project(pytester, FLAKY_TASKS)
    result = pytester.runpytest_subprocess(*NO_CORE, *workers, "--repeat-tasks", "3", "--results-json", "r.json")
    # Only tasks are repeated: 9 task runs, one ordinary test.
    result.assert_outcomes(passed=3 + 2 + 1, failed=1 + 3)
    result.stdout.fnmatch_lines([
        "pass@3 66.7%   pass^3 33.3%   (mean over tasks)",
        "  task           runs  passed   pass@3   pass^3",
        "  test_flaky        3       2   100.0%     0.0%",
        "  test_hopeless     3       0     0.0%     0.0%",
        "  test_steady       3       3   100.0%   100.0%",
        "  flaky: test_flaky: 2/3 runs passed",
    ])
    data = load_json(pytester.path / "r.json")
    assert len(data["tasks"]) == 9
    assert sorted({t["nodeid"].split("[")[1] for t in data["tasks"]}) == ["1-3]", "2-3]", "3-3]"]
    passk = data["pass_at_k"]
    assert passk["k"] == 3 and passk["flaky"] == ["test_flaky"]
    assert passk["tasks"]["test_flaky"] == {"n": 3, "successes": 2, "pass_at_k": 1.0, "pass_hat_k": 0.0,
                                            "flaky": True}
    assert passk["tasks"]["test_steady"]["pass_hat_k"] == 1.0
    assert passk["tasks"]["test_hopeless"]["pass_at_k"] == 0.0
    assert data["aggregate"]["tasks"] == 9 and data["aggregate"]["successes"] == 5

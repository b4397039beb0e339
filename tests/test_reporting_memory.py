"""The controller's memory does not grow by a task record per episode (issue 25, bounded memory).

One stand-in task repeated ``2 * N`` times under xdist, through the real
reporting plugin, with records of well over 100 KB each (an event log of
strings unique to the episode, arriving through xdist as real records do).
A probe in the controller reads tracemalloc's count of live memory after
episode N and after episode 2N: keeping the records (or the reports that
carry them, as pytest's terminal reporter keeps every report) grows it by at
least a record per episode; the controller keeps far less than a tenth of one.
The results file still holds every record whole.
"""

from __future__ import annotations

import json
import re

from reporting_support import NO_CORE, load_json, make_project

N = 40
EVENTS = 400  # events per record; each a string unique to its episode

TASKS = '''
import pytest

@pytest.mark.mobileagent_task
@pytest.mark.fake_task(app="calculator", steps=1, success_step=1, min_steps=1)
def test_calc_big(fake_record):
    assert fake_record.success
'''

PROBE = f'''
import gc, tracemalloc
import pytest

N = {N}
_done = 0
_controller = False

def pytest_configure(config):
    global _controller
    # Not PYTEST_XDIST_WORKER: this run may itself be inside an xdist worker of the suite.
    _controller = not hasattr(config, "workerinput")
    if _controller:
        tracemalloc.start()

@pytest.hookimpl(hookwrapper=True, tryfirst=True)  # outermost: after the stand-in core attached the record
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    record = getattr(report, "mobileagent_record", None)
    if record is not None:
        record["event_log"] = [{{"v": 1, "type": "click", "text": [f"{{report.nodeid}} event {{i}} " * 8]}}
                               for i in range({EVENTS})]

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report):
    global _done
    if not _controller or report.when != "teardown":
        return
    _done += 1  # the call reports of the episodes so far have been through every hook
    if _done in (N, 2 * N):
        gc.collect()
        print(f"\\nMEMTEST episodes={{_done}} traced={{tracemalloc.get_traced_memory()[0]}}", flush=True)
'''


def test_the_controller_keeps_no_whole_record_per_episode(pytester):
    make_project(pytester, TASKS)
    pytester.makepyfile(mem_probe=PROBE)
    result = pytester.runpytest_subprocess(
        *NO_CORE, "-p", "mem_probe", "-n", "1", "-s", "--repeat-tasks", str(2 * N),
        "--results-json", "results.json")
    result.assert_outcomes(passed=2 * N)
    out = result.stdout.str()
    traced = {int(n): int(b) for n, b in re.findall(r"MEMTEST episodes=(\d+) traced=(\d+)", out)}
    assert set(traced) == {N, 2 * N}, out[-3000:]
    per_episode = (traced[2 * N] - traced[N]) / N
    data = load_json(pytester.path / "results.json")
    record_bytes = min(len(json.dumps(task)) for task in data["tasks"])
    assert record_bytes > 100_000
    assert per_episode < record_bytes / 10, (per_episode, record_bytes)
    # Nothing is lost on the way: every record is in the results file, event log and all.
    assert len(data["tasks"]) == 2 * N
    assert all(len(task["event_log"]) == EVENTS for task in data["tasks"])
    assert data["aggregate"]["successes"] == 2 * N

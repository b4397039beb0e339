"""Honest ends under disk faults: a full output filesystem costs the artifacts and the
results file, each reported once with its path and the OS error, while the tasks
are judged, the summary is printed and the gates decide the exit status.

The full filesystem is real: a 2 MB tmpfs mounted in a private mount namespace
(``unshare -m``, as root) around the pytest run, filled up before it starts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from disk_fault_support import TASKS, cannot_mount

ROOT = Path(__file__).resolve().parent.parent

@pytest.mark.skipif(cannot_mount() is not None, reason=str(cannot_mount()))
@pytest.mark.parametrize("agent, outcome, status, results_on_full", [
    ("replay", "2 passed", 0, False),  # the results file elsewhere: its records are checked
    ("noop", "2 failed", 1, True),  # the results file on the full filesystem too; the gate fails
])
def test_a_full_artifacts_filesystem_ends_with_summary_gates_and_one_message(
        pytester, phone, agent, outcome, status, results_on_full):
    pytester.makepyfile(test_calc=TASKS)
    full = pytester.path / "full"
    full.mkdir()
    results = (full if results_on_full else pytester.path) / "results.json"
    run = (f"mount -t tmpfs -o size=2m tmpfs {full} && (head -c 4m /dev/zero > {full}/filler 2>/dev/null; true) "
           f"&& exec {sys.executable} -m pytest test_calc.py --agent {agent} --device {phone.serial} "
           f"--mobileagent-artifacts {full} --mobileagent-screenshots all --results-json {results} "
           f"--fail-under 0.5 -p no:cacheprovider --rootdir {pytester.path}")
    proc = subprocess.run(["unshare", "-m", "sh", "-c", run], cwd=pytester.path, capture_output=True, text=True,
                          timeout=300)
    out = proc.stdout
    assert proc.returncode == status, out[-3000:] + proc.stderr[-2000:]
    assert "mobileagent benchmark summary" in out and outcome in out
    assert "Traceback" not in out + proc.stderr
    artifacts = [line for line in out.splitlines() if "could not write artifacts" in line]
    assert len(artifacts) == 1, out
    assert f"warning: could not write artifacts: {full}/" in artifacts[0]
    assert artifacts[0].endswith("[Errno 28] No space left on device; no screenshot or hierarchy was saved after it")
    assert ("gates passed" in out) == (status == 0) and ("FAILED gate --fail-under" in out) == (status == 1)
    if results_on_full:
        assert [line for line in out.splitlines() if "--results-json" in line] == [
            f"warning: could not write --results-json {results}: [Errno 28] No space left on device"], out
        assert f"results: {results}" not in out
    else:
        records = json.loads(results.read_text())["tasks"]
        # Judged as ever; no record points at a file that was never written.
        assert all(r["success"] and r["error"] is None and r["final_hierarchy"] is None for r in records)
        assert all(step["screenshot"] is None for r in records for step in r["steps"])

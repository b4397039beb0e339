"""Honest ends when Allure's files cannot be written (issue 25, item 6).

``--alluredir`` on a full 2 MB tmpfs (mounted in a private mount namespace,
``unshare -m``, as root, and filled before the run, as in test_disk_faults.py):
the tasks are judged as ever, the summary and the gates run, the fault is one
line naming the directory and the OS error (however many processes met it),
and nothing raises a traceback. The results file, elsewhere, has no record
that says success and error at once.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from disk_fault_support import TASKS, cannot_mount

@pytest.mark.skipif(cannot_mount() is not None, reason=str(cannot_mount()))
@pytest.mark.parametrize("agent, workers, outcome, status", [
    ("replay", 0, "2 passed", 0),  # one process: its writer thread and the run-level files fail
    ("noop", 2, "2 failed", 1),  # two workers and the controller meet the fault: still one line; the gate fails
])
def test_a_full_alluredir_ends_with_summary_gates_and_one_message(
        pytester, phone, phone_factory, agent, workers, outcome, status):
    pytester.makepyfile(test_calc=TASKS)
    full = pytester.path / "allure"
    full.mkdir()
    results = pytester.path / "results.json"
    devices = [phone.serial] + ([p.serial for p in phone_factory(1)] if workers else [])
    args = " ".join(f"--device {serial}" for serial in devices)
    run = (f"mount -t tmpfs -o size=2m tmpfs {full} && (head -c 4m /dev/zero > {full}/filler 2>/dev/null; true) "
           f"&& exec {sys.executable} -m pytest test_calc.py --agent {agent} {args} -n {workers} "
           f"--alluredir {full} --results-json {results} --fail-under 0.5 -p no:cacheprovider "
           f"--rootdir {pytester.path}")
    proc = subprocess.run(["unshare", "-m", "sh", "-c", run], cwd=pytester.path, capture_output=True, text=True,
                          timeout=300)
    out = proc.stdout
    assert proc.returncode == status, out[-3000:] + proc.stderr[-2000:]
    assert "mobileagent benchmark summary" in out and outcome in out
    assert "Traceback" not in out + proc.stderr and "INTERNALERROR" not in out + proc.stderr
    # One message about the Allure results (the notice on short task reports names the report too).
    lines = [line for line in (out + proc.stderr).splitlines()
             if "Allure" in line and not line.startswith("task reports shown short")]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"warning: could not write Allure results to {full}: "
                               "[Errno 28] No space left on device ("), lines
    assert ("gates passed" in out) == (status == 0) and ("FAILED gate --fail-under" in out) == (status == 1)
    records = json.loads(results.read_text())["tasks"]
    assert len(records) == 2
    for record in records:  # judged as ever; never success and error at once
        assert record["success"] == (agent == "replay")
        assert (record["error"] is None) == record["success"]
        assert record["stop_reason"] != "infra_error"


@pytest.mark.skipif(cannot_mount() is not None, reason=str(cannot_mount()))
def test_the_run_level_files_appear_whole_or_not_at_all(tmp_path):
    """environment.properties, categories.json, the summary's attachments and container: a disk that
    fills up between them leaves no truncated file for ``allure generate`` (which reads them all)."""
    script = tmp_path / "write.py"
    script.write_text("""
import json, sys
from pathlib import Path
from pytest_mobileagent.reporting.allure_report import write_run_files
from pytest_mobileagent.reporting.redact import Redactor

def write(directory):
    write_run_files(Path(directory), environment={"benchmark": "SR 100.0%"}, summary_text="x" * 3000,
                    summary_html="y" * 5000, aggregate_json={}, plots={"SR by app.png": bytes(20000)},
                    children=["a"], redactor=Redactor({}))

def sizes(directory):
    return {p.name: p.stat().st_size for p in Path(directory).iterdir() if p.name != "filler"}

write(sys.argv[2])
try:
    write(sys.argv[1])
except OSError as exc:
    print(json.dumps({"errno": exc.errno, "full": sizes(sys.argv[1]), "roomy": sizes(sys.argv[2])}))
""")
    full, roomy = tmp_path / "allure", tmp_path / "roomy"
    full.mkdir()
    roomy.mkdir()
    # Room for a few of the run files (tmpfs counts whole 4 KB pages), not for all.
    run = (f"mount -t tmpfs -o size=64k tmpfs {full} && (head -c 40k /dev/zero > {full}/filler; true) "
           f"&& {sys.executable} {script} {full} {roomy}")
    proc = subprocess.run(["unshare", "-m", "sh", "-c", run], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip(), proc.stdout + proc.stderr
    outcome = json.loads(proc.stdout)
    assert outcome["errno"] == 28
    full_sizes, roomy_sizes = outcome["full"], outcome["roomy"]
    assert full_sizes, "no run file fitted: the test did not fill the disk between them"
    assert not [name for name in full_sizes if name.endswith(".tmp")], full_sizes
    for name, size in full_sizes.items():  # each file that is there is whole
        if name in ("environment.properties", "categories.json"):
            assert size == roomy_sizes[name], (name, size)
        else:
            assert size in set(roomy_sizes.values()), (name, size, roomy_sizes)

"""A run's temporary directories are gone after it, and a run killed with SIGKILL has
its directories removed by the next run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from pytest_mobileagent.tempdirs import make_run_tempdir, remove_stale

MAKE = "import sys; from pytest_mobileagent.tempdirs import make_run_tempdir as m; print(m(sys.argv[1]), flush=True)"


def _child(tmp_path, *lines: str) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(tmp_path))
    return subprocess.Popen([sys.executable, "-c", "\n".join(lines), "events"], env=env,
                            stdout=subprocess.PIPE, text=True)


def test_a_process_removes_its_directories_when_it_exits(tmp_path):
    child = _child(tmp_path, MAKE)
    made = child.stdout.readline().strip()
    assert child.wait(timeout=60) == 0
    assert made.startswith(f"{tmp_path}/mobileagent-events-{child.pid}-") and not os.path.exists(made)


def test_the_next_run_removes_what_a_killed_run_left(tmp_path):
    child = _child(tmp_path, MAKE, "import time; time.sleep(600)")
    made = child.stdout.readline().strip()
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    assert os.path.isdir(made), "SIGKILL runs no exit code"
    mine = make_run_tempdir("run")  # a live process's directory: kept
    other = tmp_path / "mobileagent-events-notapid"  # not a run directory: kept
    other.mkdir()
    try:
        assert remove_stale(str(tmp_path)) == [made]
        assert not os.path.exists(made) and other.is_dir()
        assert mine not in remove_stale(os.path.dirname(mine)) and os.path.isdir(mine)
    finally:
        os.rmdir(mine)


def test_a_run_leaves_no_directory_behind(pytester, phone):
    pytester.makepyfile(test_calc="""
from pytest_mobileagent import task, golden as g

@task(app="calculator", prompt="Calculate the result of '3 + 5'",
      golden=[g.tap(id="btn_3"), g.tap(id="btn_plus"), g.tap(id="btn_5"), g.tap(id="btn_equals")])
def test_add(screen, events):
    assert screen.text(id="result") == "8" and events.clicked(id="btn_equals")
""")
    import shutil
    import tempfile
    from pathlib import Path

    scratch = Path(tempfile.mkdtemp(prefix="t25-", dir="/tmp"))  # short: a Unix socket's path is bounded
    os.environ["TMPDIR"], previous = str(scratch), os.environ.get("TMPDIR")
    try:
        result = pytester.runpytest_subprocess("--agent", "replay", "--device", phone.serial, "-n", "1")
    finally:
        if previous is None:
            del os.environ["TMPDIR"]
        else:
            os.environ["TMPDIR"] = previous
    left = [p.name for p in scratch.iterdir() if p.name.startswith("mobileagent-")]
    shutil.rmtree(scratch, ignore_errors=True)
    result.assert_outcomes(passed=1)
    assert not left

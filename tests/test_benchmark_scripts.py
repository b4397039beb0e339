"""The benchmark scripts still run: each one, with its smallest arguments, exits 0 and prints figures.

Nothing else runs benchmarks/bench_*.py (they are run by hand for the figures
in docs/performance.md), so a change to the package's API could break one
unseen until someone next needed its figures, as bench_ui.py (AndroidSystem's
clock) and bench_listener.py (check_ready's result) were. Each script here
runs as a subprocess of its own, as by hand, from the project directory with
PYTHONPATH at it (so a fresh clone needs no install of this checkout), with
arguments that take every path its default run takes but as few rounds as it
allows. The figures themselves are not checked: on a shared machine they are
noise at these sizes; only that they were printed.

These runs are in the slow group (about a minute at -n 2). Every bench_*.py
is either in SCRIPTS or in EXCLUDED with the reason, which the quick suite
checks (test_every_script_is_run_or_excluded), so a new script cannot escape
this by being forgotten.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from clients_support import appium_missing, require_client
from studio_support import require_browser

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
CALCULATOR_TASKS = "task_tests/test_calculator.py"

#: script -> the smallest arguments that still take its default run's paths
SCRIPTS: dict[str, list[str]] = {
    "bench_agent_clock": ["--batches", "2", "--calls", "10"],
    # Its three configurations (plain, screenshots, Allure) and the ablations' switches, once each.
    "bench_allure": ["--rounds", "1", "--workers", "1", "--tasks", CALCULATOR_TASKS, "--ablate"],
    "bench_allure_size": ["--tasks", CALCULATOR_TASKS, "--workers", "1"],
    "bench_appium": ["--runs", "2"],
    "bench_clients": ["--runs", "2"],
    # The tool it wraps replays every app's recordings (minutes); one app takes its paths.
    "bench_conformance": ["--app", "voicerecorder"],
    "bench_device": ["--runs", "2"],
    "bench_emulators": ["--counts", "1", "--rounds", "1"],
    "bench_episode": ["--rounds", "1", "--workers", "1", "--tasks", CALCULATOR_TASKS],
    # `concurrent` runs the 100 tasks twice on adb's default port 5037, which is only
    # private in the network namespace the script makes for itself as root: not here.
    "bench_isolation": ["flood", "--repeat", "1", "--malformed", "100", "--valid", "100"],
    "bench_judge_clock": ["--calls", "10"],
    "bench_keyboard": ["--runs", "2", "--wall"],
    "bench_listener": ["--runs", "2", "--phones", "1"],
    # Its figure is the growth from the 100th episode to the last: 200 is the fewest.
    "bench_memory": ["--repeat-tasks", "2", "--workers", "1"],
    "bench_phone": ["--runs", "2"],
    "bench_remote": ["--rounds", "1"],
    "bench_reset": ["--repeat", "2"],
    "bench_ror_run": ["--rounds", "1"],
    "bench_screen_similarity": [],
    "bench_screenshot_cost": ["--steps", "2", "--blocks", "1"],
    "bench_shell": ["--runs", "2"],
    "bench_startup": ["--rounds", "1"],
    "bench_studio": ["--rounds", "2", "--watch-rounds", "1"],
    "bench_ui": ["--runs", "2"],
}

#: script -> why it is not run here (none today: every script runs above)
EXCLUDED: dict[str, str] = {}

#: scripts that need more than the test extra installs: skipped without it, failed without it in CI
#: (studio_support.require_browser: MOBILEAGENT_REQUIRE_HTML, which .ci/run sets)
def require_appium() -> None:
    """Appium, as tests/test_appium_client.py requires it (.ci/run installs it)."""
    require_client(appium_missing())


NEEDS = {"bench_studio": require_browser,  # Debian's Chromium, driven by Playwright
         "bench_appium": require_appium}

#: bound on one script: every one here takes well under a minute
SCRIPT_TIMEOUT_S = 600


def test_every_script_is_run_or_excluded():
    scripts = {path.stem for path in BENCHMARKS.glob("bench_*.py")}
    assert not SCRIPTS.keys() & EXCLUDED.keys(), "a script is both run and excluded"
    assert sorted(scripts - SCRIPTS.keys() - EXCLUDED.keys()) == [], \
        "new benchmark scripts: add them to SCRIPTS (tiny arguments) or to EXCLUDED (with the reason)"
    assert sorted((SCRIPTS.keys() | EXCLUDED.keys()) - scripts) == [], "SCRIPTS or EXCLUDED name a script that is gone"
    assert NEEDS.keys() <= SCRIPTS.keys()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_runs_and_prints_figures(name: str, empty_adb_server: int):
    if name in NEEDS:
        NEEDS[name]()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    # The scripts that let pytest boot its own phone find an adb server with nothing attached;
    # the others start adb servers of their own.
    env["ANDROID_ADB_SERVER_PORT"] = str(empty_adb_server)
    proc = subprocess.run([sys.executable, str(BENCHMARKS / f"{name}.py"), *SCRIPTS[name]], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=SCRIPT_TIMEOUT_S)
    code, out, err = proc.returncode, proc.stdout, proc.stderr
    shown = f"stdout:\n{out[-3000:]}\nstderr:\n{err[-5000:]}"
    assert code == 0, f"{name} exited {code}\n{shown}"
    assert re.search(r"\d", out), f"{name} printed no figures\n{shown}"

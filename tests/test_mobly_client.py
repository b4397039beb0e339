"""Google's Mobly drives a virtual phone with its android_device controller.

tests/clients/mobly_phone.py is an ordinary Mobly test; it runs here as Mobly runs tests
(`python mobly_phone.py -c CONFIG`), in a subprocess whose PATH holds an `adb` (the adbutils
wheel's) and whose ANDROID_ADB_SERVER_PORT names the private adb server. Mobly's own code is
the test: registering the phone runs `adb root` and waits for it to come back
(mobly/controllers/android_device.py AndroidDevice.__init__, root_adb), its logcat service runs
`adb logcat -v threadtime -T ...` and resumes from the device time `date +%Y-%m-%d\\ %H:%M:%S.%3N`
printed (services/logcat.py pause/resume), and take_bug_report runs `bugreportz`.

Skipped only when Mobly is missing and MOBILEAGENT_REQUIRE_CLIENTS is unset (`.ci/run` sets
it; Mobly comes with the `test` extra).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clients_support import require_client

#: one worker runs the module: its fixture runs the client once for all of the module's checks
pytestmark = pytest.mark.xdist_group("mobly_client")

MOBLY_TEST = Path(__file__).parent / "clients" / "mobly_phone.py"
TESTBED = "VirtualPhoneBed"
#: bound on the whole Mobly run (it takes seconds)
MOBLY_TIMEOUT_S = 600


def _require_mobly() -> None:
    try:
        import mobly  # noqa: F401
        import yaml  # noqa: F401  (Mobly's config reader)
    except ImportError as exc:
        require_client(f"Mobly is not installed (pip install -e '.[test]'): {exc}")


@pytest.fixture(scope="module")
def mobly_results(adb_server_port, tmp_path_factory):
    """Run the Mobly test once against a phone of its own; its records by test name."""
    _require_mobly()
    import yaml

    from pytest_mobileagent.virtual_phone import start_phones
    from pytest_mobileagent.virtual_phone.server import bundled_adb_path

    work = tmp_path_factory.mktemp("mobly")
    bin_dir = work / "bin"
    bin_dir.mkdir()
    (bin_dir / "adb").symlink_to(bundled_adb_path())
    logs = work / "logs"
    with start_phones(1, adb_server_port=adb_server_port, prepare=False) as phones:
        config = work / "config.yml"
        config.write_text(yaml.safe_dump({
            "TestBeds": [{"Name": TESTBED, "Controllers": {"AndroidDevice": [{"serial": phones[0].serial}]}}],
            "MoblyParams": {"LogPath": str(logs)},
        }))
        env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
                   ANDROID_ADB_SERVER_PORT=str(adb_server_port))
        run = subprocess.run([sys.executable, str(MOBLY_TEST), "-c", str(config)], env=env, cwd=work,
                             capture_output=True, text=True, timeout=MOBLY_TIMEOUT_S)
    summary = logs / TESTBED / "latest" / "test_summary.yaml"
    if not summary.exists():
        pytest.fail(f"Mobly wrote no summary (exit {run.returncode}):\n{run.stdout[-4000:]}\n{run.stderr[-6000:]}")
    records = {doc["Test Name"]: doc for doc in yaml.safe_load_all(summary.read_text())
               if doc and doc.get("Type") == "Record"}
    return records, run


def _passed(mobly_results, name: str) -> None:
    records, run = mobly_results
    record = records.get(name)
    assert record is not None, f"Mobly ran no {name}; it printed:\n{run.stderr[-6000:]}"
    assert record["Result"] == "PASS", (f"{name}: {record['Result']}: {record.get('Details')}\n"
                                        f"{record.get('Stacktrace') or ''}")


def test_mobly_registers_the_phone_and_roots_it(mobly_results):
    _passed(mobly_results, "test_registered_as_a_userdebug_phone_running_adbd_as_root")


def test_mobly_runs_shell_commands(mobly_results):
    _passed(mobly_results, "test_shell_commands")


def test_mobly_collects_logcat_across_pause_and_resume(mobly_results):
    _passed(mobly_results, "test_logcat_across_pause_and_resume")


def test_mobly_takes_a_bug_report(mobly_results):
    _passed(mobly_results, "test_bug_report")

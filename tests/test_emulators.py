"""``--avd``: emulators the plugin starts, stops and resets, against the stand-in ``emulator``.

No Android SDK exists here, so a stand-in SDK is made per test: its
``emulator/emulator`` runs ``pytest_mobileagent.virtual_phone.emulator_standin``,
which takes the real emulator's arguments, serves a virtual phone on the
adb port and answers ``adb emu`` on the console port. Every run is a real
``pytest -n N`` subprocess against the session's private adb server.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import adbutils
import pytest

from pytest_mobileagent.virtual_phone.emulator_standin import create_avd, install_sdk

ROOT = Path(__file__).resolve().parent.parent
CALCULATOR_TASKS = str(ROOT / "task_tests" / "test_calculator.py")
RUN_TIMEOUT = 240

# An agent that marks where it is, then waits (bounded) so the test can interrupt the run.
STALLING_AGENT = '''
import os, time
from pytest_mobileagent.agents.builtin import ReplayAgent

class Stalling(ReplayAgent):
    def step(self, observation):
        open(os.environ["STALL_MARKER"], "a").close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:   # interrupted by the test's SIGINT long before
            time.sleep(0.05)
        return super().step(observation)

class Crashing(ReplayAgent):
    def __init__(self, context):
        super().__init__(context)
        self.config = context.config

    def step(self, observation):
        from pytest_mobileagent.plugin import RUNTIME_KEY

        with open(os.environ["CRASH_LOG"], "a") as log:  # which instance this worker had
            log.write(self.config.stash[RUNTIME_KEY].device.serial + "\\n")
        os._exit(3)                           # the xdist worker dies mid-task

def pytest_mobileagent_register_agents(registry):
    registry.register("stalling", Stalling)
    registry.register("crashing", Crashing)
'''


@pytest.fixture
def sdk(tmp_path, monkeypatch, adb_server_port):
    """A stand-in SDK with the AVD ``test_avd`` (and ``slow_avd``, whose boot never completes)."""
    root = tmp_path / "sdk"
    install_sdk(root)
    avd_home = tmp_path / "avd"
    create_avd(avd_home, "test_avd")
    create_avd(avd_home, "slow_avd", **{"standin.boot_seconds": "3600"})
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "agents.py").write_text(STALLING_AGENT)
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(root))
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    monkeypatch.setenv("ANDROID_AVD_HOME", str(avd_home))
    monkeypatch.setenv("HOME", str(home))  # the console's auth token lives there
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), str(tmp_path)]))
    return tmp_path


def _pytest(tmp: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "pytest", *args, "-p", "agents", "-q", "-p", "no:cacheprovider",
            "--rootdir", str(ROOT), "--basetemp", str(tmp / "basetemp")]


def _run(tmp: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp / "results.json"
    proc = subprocess.run(_pytest(tmp, *args, "--results-json", str(out)), cwd=tmp, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)
    return proc, json.loads(out.read_text()) if out.exists() else {}


def _environ(pid: int) -> list[bytes]:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return []


def _ours(pid: int, sdk: Path) -> bool:
    """The process belongs to a run in ``sdk`` (every one of them inherits its AVD home)."""
    return pid != os.getpid() and f"ANDROID_AVD_HOME={sdk / 'avd'}".encode() in _environ(pid)


def our_processes(sdk: Path) -> dict[int, list[bytes]]:
    """pid -> command line of every live process a run in ``sdk`` started."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and _ours(int(entry.name), sdk):
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmdline != [b""]:  # a zombie has none
                found[int(entry.name)] = cmdline
    return found


def standin_ports(sdk: Path) -> set[int]:
    """Console ports of the stand-in emulators running for ``sdk`` now."""
    return {int(cmd[cmd.index(b"-port") + 1]) for cmd in our_processes(sdk).values()
            if b"pytest_mobileagent.virtual_phone.emulator_standin" in cmd and b"-port" in cmd}


def listening_pids(port: int) -> set[int]:
    """Processes with a TCP socket listening on 127.0.0.1:``port`` (from /proc, no tools needed)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        address, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and int(address.split(":")[1], 16) == port:
            inodes.add(f"socket:[{inode}]")
    pids = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and inodes:
            try:
                if any(os.readlink(fd) in inodes for fd in (entry / "fd").iterdir()):
                    pids.add(int(entry.name))
            except OSError:
                continue
    return pids


def assert_nothing_left(sdk: Path, console_ports: set[int], adb_server_port: int) -> None:
    """No process of the run lives and none of its ports is held by it.

    Other test sessions on this machine serve phones on 5555-5585 too, so a
    freed port may be taken again at once (and listed by the adb server,
    which scans that range) -- by a process that is not ours.
    """
    assert our_processes(sdk) == {}
    for port in console_ports:
        for p in (port, port + 1):
            holders = [pid for pid in listening_pids(p) if _ours(pid, sdk)]
            assert not holders, f"port {p} still held by the run's process(es) {holders}"


def test_avd_with_two_workers_starts_two_instances_runs_the_tasks_and_leaves_nothing(sdk, adb_server_port):
    proc, results = _run(sdk, CALCULATOR_TASKS, "--avd", "test_avd", "-n", "2")

    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    devices = {task["device"] for task in results["tasks"]}
    assert len(results["tasks"]) == 10 and all(task["success"] for task in results["tasks"])
    assert len(devices) == 2 and all(d.startswith("emulator-") for d in devices)
    ports = {int(d.split("-")[1]) for d in devices}
    assert all(port % 2 == 0 for port in ports)
    assert all(task["reset_seconds"] is None for task in results["tasks"])  # the default reset
    assert_nothing_left(sdk, ports, adb_server_port)


def _wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_sigint_mid_run_stops_every_instance(sdk, adb_server_port, monkeypatch):
    marker = sdk / "stalled"
    monkeypatch.setenv("STALL_MARKER", str(marker))
    # Its own process group, as a terminal's foreground job: Ctrl-C reaches pytest and its workers.
    # And SIGINT handled as in a terminal, even when this test runs in a shell's background job
    # (which starts with SIGINT ignored, and a child inherits that: the run would never stop).
    proc = subprocess.Popen(_pytest(sdk, CALCULATOR_TASKS, "--avd", "test_avd", "-n", "2", "--agent", "stalling"),
                            cwd=sdk, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for(marker.exists, RUN_TIMEOUT, "an agent to start acting")
        ports = standin_ports(sdk)
        assert len(ports) == 2
        os.killpg(proc.pid, signal.SIGINT)
        output, _ = proc.communicate(timeout=RUN_TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "KeyboardInterrupt" in output, output[-3000:]
    assert_nothing_left(sdk, ports, adb_server_port)


def test_an_xdist_worker_crash_still_stops_every_instance(sdk, adb_server_port, monkeypatch):
    crash_log = sdk / "crashed-on.log"
    monkeypatch.setenv("CRASH_LOG", str(crash_log))
    proc, _ = _run(sdk, CALCULATOR_TASKS, "--avd", "test_avd", "-n", "2", "--agent", "crashing",
                   "--max-worker-restart", "0")

    assert proc.returncode != 0
    assert "crashed" in proc.stdout, proc.stdout[-3000:]
    ports = {int(serial.split("-")[1]) for serial in crash_log.read_text().split()}
    assert ports
    assert_nothing_left(sdk, ports, adb_server_port)


RESET_TASKS = '''
import os
import pytest
from pytest_mobileagent import golden as g, task

LEFTOVER = "/sdcard/Download/leftover.txt"


@pytest.fixture
def leftover_seen(device):
    """Whether a file an earlier task pushed is still there when this task starts."""
    with open(os.environ["LEFTOVER_LOG"], "a") as log:
        log.write(f"{device.exists(LEFTOVER)}\\n")
    device.push(LEFTOVER, "left by a task")


@task(app="calculator", prompt="Calculate 1 + 2",
      golden=[g.tap(id="btn_1"), g.tap(id="btn_plus"), g.tap(id="btn_2"), g.tap(id="btn_equals")])
def test_first(leftover_seen, screen):
    assert screen.text(id="result") == "3"


@task(app="calculator", prompt="Calculate 2 + 2",
      golden=[g.tap(id="btn_2"), g.tap(id="btn_plus"), g.tap(id="btn_2"), g.tap(id="btn_equals")])
def test_second(leftover_seen, screen):
    assert screen.text(id="result") == "4"
'''


# `pm clear` alone leaves shared storage as it is; the app reset's device baseline (device/baseline.py)
# removes what an earlier task added there, and a snapshot restores the whole phone.
@pytest.mark.parametrize("reset, seen", [("app", ["False", "False"]), ("snapshot", ["False", "False"])])
def test_both_resets_remove_a_file_an_earlier_task_left(sdk, monkeypatch, reset, seen):
    (sdk / "test_reset_tasks.py").write_text(RESET_TASKS)
    log = sdk / f"leftover-{reset}.log"
    monkeypatch.setenv("LEFTOVER_LOG", str(log))

    proc, results = _run(sdk, str(sdk / "test_reset_tasks.py"), "--avd", "test_avd", "--reset", reset)

    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert log.read_text().split() == seen
    resets = [task["reset_seconds"] for task in results["tasks"]]
    if reset == "snapshot":
        assert all(isinstance(s, float) and s > 0 for s in resets)
        assert "snapshot resets: 2, median " in proc.stdout
    else:
        assert resets == [None, None]


# The SDK's emulator, except that it first stops the process that starts an instance (the run's
# controller); the test lets it go on once the instance is served and listed by adb. The run's
# clock goes on meanwhile, so the boot budget runs out while the instance serves and never boots,
# however long this machine takes to start it.
FREEZING_EMULATOR = """#!/bin/sh
case " $* " in *" -list-avds "*) ;; *) kill -STOP "$PPID" ;; esac
exec {emulator} "$@"
"""


def _stopped(pid: int) -> bool:
    try:  # the state field follows the command name's closing parenthesis
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"
    except (OSError, IndexError):
        return False


def test_a_boot_that_does_not_complete_is_an_error_quoting_the_emulator(sdk, adb_server_port):
    emulator = sdk / "freezing-emulator"
    emulator.write_text(FREEZING_EMULATOR.format(emulator=sdk / "sdk" / "emulator" / "emulator"))
    emulator.chmod(0o755)
    out = sdk / "results.json"
    args = _pytest(sdk, CALCULATOR_TASKS, "--avd", "slow_avd", "-n", "2", "--avd-boot-timeout", "5",
                   "--emulator", str(emulator), "--results-json", str(out))
    client = adbutils.AdbClient(port=adb_server_port)
    resumed = 0
    with open(sdk / "run.out", "w+") as output:
        proc = subprocess.Popen(args, cwd=sdk, stdout=output, stderr=subprocess.STDOUT, text=True)
        try:
            deadline = time.monotonic() + RUN_TIMEOUT
            while proc.poll() is None:
                processes = our_processes(sdk)
                stopped = [pid for pid in processes if _stopped(pid)]
                ports = {int(cmd[cmd.index(b"-port") + 1]) for cmd in processes.values()
                         if b"slow_avd" in cmd and b"-port" in cmd}
                listed = {d.serial for d in client.list() if d.state == "device"}
                if stopped and ports and all(f"emulator-{port}" in listed for port in ports):
                    for pid in stopped:
                        os.kill(pid, signal.SIGCONT)
                    resumed += 1
                assert time.monotonic() < deadline, "the run did not end"
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            for pid in our_processes(sdk):  # none is left stopped, whatever failed
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
        output.seek(0)
        stdout = output.read()
    results = json.loads(out.read_text())

    assert resumed >= 1, "no instance stopped the run: the stand-in emulator was not used"
    assert proc.returncode == 1, stdout[-3000:]
    assert "did not finish booting within 5 s (--avd-boot-timeout)" in stdout, stdout[-3000:]
    assert "it is booting (sys.boot_completed is not 1)" in stdout
    assert "Serving virtual phone emulator-" in stdout  # the emulator's own last lines
    assert results["tasks"] and all(t["stop_reason"] == "infra_error" for t in results["tasks"])
    assert_nothing_left(sdk, set(), adb_server_port)


def test_missing_avd_is_a_usage_error_listing_the_avds(sdk):
    proc, _ = _run(sdk, CALCULATOR_TASKS, "--avd", "no_such_avd")
    assert proc.returncode == 4
    assert "--avd no_such_avd: no such AVD" in proc.stderr and "lists slow_avd, test_avd" in proc.stderr


def test_missing_sdk_is_a_usage_error(sdk, monkeypatch):
    monkeypatch.delenv("ANDROID_SDK_ROOT")
    proc, _ = _run(sdk, CALCULATOR_TASKS, "--avd", "test_avd")
    assert proc.returncode == 4
    assert "no Android SDK found (ANDROID_SDK_ROOT and ANDROID_HOME are unset)" in proc.stderr

    monkeypatch.setenv("ANDROID_HOME", str(sdk / "nowhere"))
    proc, _ = _run(sdk, CALCULATOR_TASKS, "--avd", "test_avd")
    assert proc.returncode == 4
    assert f"$ANDROID_HOME={sdk / 'nowhere'} has no emulator/emulator" in proc.stderr

    proc, _ = _run(sdk, CALCULATOR_TASKS, "--avd", "test_avd", "--emulator", str(sdk / "nowhere" / "emulator"))
    assert proc.returncode == 4 and "no executable emulator there" in proc.stderr


def test_standin_lists_its_avds_and_refuses_an_unknown_one_or_a_second_writable_instance(sdk):
    emulator = str(sdk / "sdk" / "emulator" / "emulator")
    first = subprocess.Popen([emulator, "-avd", "test_avd", "-no-window"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in first.stdout:  # the AVD is locked once the instance serves its phone
            if "Boot completed" in line:
                break
        second = subprocess.run([emulator, "-avd", "test_avd"], capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 1 and "Please use -read-only flag" in second.stdout
    finally:
        first.terminate()
        first.wait(timeout=30)

    done = subprocess.run([emulator, "-avd", "nope"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "PANIC: Unknown AVD name [nope]" in done.stdout
    listing = subprocess.run([emulator, "-list-avds"], capture_output=True, text=True, timeout=60)
    assert listing.stdout.split() == ["slow_avd", "test_avd"]

"""Devices of other adb servers (``--adb-server``) and networked devices (``--device HOST:PORT``).

"Other machines" are other adb servers on loopback ports here, started as a
machine with devices would run one (``adb -P PORT nodaemon server``), each
with its own virtual phones. The run's own adb server is left without
devices, so every device the run uses comes through another server.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_mobileagent.device.fast_adb import host_request, list_devices
from pytest_mobileagent.errors import InfrastructureError
from pytest_mobileagent.virtual_phone import start_phones
from pytest_mobileagent.virtual_phone.server import bundled_adb_path

ROOT = Path(__file__).resolve().parent.parent
CALCULATOR_TASKS = str(ROOT / "task_tests" / "test_calculator.py")
RUN_TIMEOUT = 240


def free_port(odd: bool = False) -> int:
    """A free loopback port (odd ones outside adb's 5555-5585 scan, for phones)."""
    for _ in range(200):
        port = random.randrange(20001, 40000, 2) if odd else 0
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise RuntimeError("no free port")


@contextlib.contextmanager
def adb_server():
    """An adb server in the foreground (``nodaemon``) on a free port; killed at exit."""
    port = free_port()
    # ADB_EMU=0: no scan of 5555-5585, so other sessions' phones there do not join this
    # server (ADB_LOCAL_TRANSPORT_MAX_PORT is read only after the scan has begun);
    # phones announced with host:emulator still do.
    env = dict(os.environ, ADB_EMU="0")
    proc = subprocess.Popen([bundled_adb_path(), "-P", str(port), "nodaemon", "server"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                host_request("host:version", addr=("127.0.0.1", port), timeout=2)
                break
            except InfrastructureError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.05)  # the server is starting: nothing to wait on but its port
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def two_servers_with_phones():
    """Two adb servers, two virtual phones each: [(port, [serial, serial]), ...]."""
    with contextlib.ExitStack() as stack:
        servers = []
        for seed in (0, 2):
            port = stack.enter_context(adb_server())
            phones = stack.enter_context(start_phones(2, ports=[free_port(odd=True), free_port(odd=True)],
                                                      seed=seed, adb_server_port=port))
            servers.append((port, [p.serial for p in phones]))
        yield servers


def _run(tmp: Path, *args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp / "results.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "--results-json", str(out), "-q", "-p", "no:cacheprovider",
         "--rootdir", str(ROOT), "--basetemp", str(tmp / "basetemp")],
        cwd=tmp, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)
    return proc, json.loads(out.read_text()) if out.exists() else {}


def test_two_adb_servers_serve_one_run_of_four_workers(two_servers_with_phones, tmp_path):
    (a_port, a_serials), (b_port, b_serials) = two_servers_with_phones
    # This machine's own adb server: none on that port, so every device is another server's.
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(free_port()))

    proc, results = _run(tmp_path, CALCULATOR_TASKS, "-n", "4", "--adb-server", f"127.0.0.1:{a_port}",
                         "--adb-server", f"127.0.0.1:{b_port}", env=env)

    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    expected = {f"{s}@127.0.0.1:{a_port}" for s in a_serials} | {f"{s}@127.0.0.1:{b_port}" for s in b_serials}
    used = {task["device"] for task in results["tasks"]}
    assert used == expected
    # The tasks' judges read click events: each device's came through its own server, dialled by the worker.
    for device in expected:
        tasks = [t for t in results["tasks"] if t["device"] == device]
        assert tasks and all(t["success"] and t["event_log"] for t in tasks), device


def test_two_concurrent_runs_through_one_adb_server_never_share_a_phone(two_servers_with_phones, tmp_path):
    """Issue 25: each run claims the phones it takes from another server (keyed by the phone),
    so two runs started together each get one to themselves and replay scores 100% in both."""
    (a_port, a_serials), _ = two_servers_with_phones
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(free_port()))
    runs = []
    for name in ("one", "two"):
        tmp = tmp_path / name
        tmp.mkdir()
        out = tmp / "results.json"
        runs.append((out, subprocess.Popen(
            [sys.executable, "-m", "pytest", CALCULATOR_TASKS, "--adb-server", f"127.0.0.1:{a_port}",
             "--results-json", str(out), "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
             "--basetemp", str(tmp / "basetemp")],
            cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)))
    used = []
    for out, proc in runs:
        output, _ = proc.communicate(timeout=RUN_TIMEOUT)
        assert proc.returncode == 0, output[-3000:]
        tasks = json.loads(out.read_text())["tasks"]
        assert len(tasks) == 10 and all(t["success"] for t in tasks), [t["error"] for t in tasks]
        used.append({t["device"] for t in tasks})
    assert len(used[0]) == len(used[1]) == 1 and used[0] != used[1]
    assert used[0] | used[1] == {f"{s}@127.0.0.1:{a_port}" for s in a_serials}


def test_one_phone_through_two_servers_is_one_claim():
    from pytest_mobileagent.device.claims import device_key

    assert device_key("emulator-20100@127.0.0.1:5037") == device_key("emulator-20100@localhost:6000") \
        == device_key("emulator-20100") == device_key("127.0.0.1:20101@127.0.0.1:5038")
    assert device_key("emulator-5554@10.0.0.2:5037") == device_key("10.0.0.2:5555") != device_key("emulator-5554")
    assert device_key("emulator-5554@10.0.0.2:5037") != device_key("emulator-5554@10.0.0.3:5037")
    assert device_key("R58M123@10.0.0.2:5037") == device_key("R58M123@10.0.0.3:5037") == device_key("R58M123")


def test_an_unreachable_adb_server_is_a_usage_error(tmp_path):
    port = free_port()
    proc, _ = _run(tmp_path, CALCULATOR_TASKS, "--adb-server", f"127.0.0.1:{port}")
    assert proc.returncode == 4
    assert f"--adb-server 127.0.0.1:{port}: no adb server answers there" in proc.stderr
    proc, _ = _run(tmp_path, CALCULATOR_TASKS, "--adb-server", "127.0.0.1")
    assert proc.returncode == 4 and "'127.0.0.1' is not HOST:PORT" in proc.stderr


def test_fewer_devices_than_workers_names_every_server(two_servers_with_phones, tmp_path):
    (a_port, _), _ = two_servers_with_phones
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(free_port()))
    proc, _ = _run(tmp_path, CALCULATOR_TASKS, "-n", "3", "--adb-server", f"127.0.0.1:{a_port}", env=env)
    assert proc.returncode == 4  # one usage error before any worker starts (issue 37)
    assert "3 devices needed (one per worker) but the adb servers have 2 free online" in proc.stderr


HOLDER = """
import sys
from pytest_mobileagent.device.claims import DeviceClaim
claim = DeviceClaim.try_claim(sys.argv[1])
print("held" if claim else "refused", flush=True)
sys.stdin.readline()
"""


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one-process", "two-workers"])
def test_a_run_that_finds_every_phone_claimed_stops_with_one_usage_error(two_servers_with_phones, tmp_path,
                                                                          workers):
    """Issue 37, item 14: the phones of the only --adb-server are claimed by two other runs
    (processes holding their claims): a third run stops before any task, naming the holders."""
    (a_port, a_serials), _ = two_servers_with_phones
    env = dict(os.environ, ANDROID_ADB_SERVER_PORT=str(free_port()))
    holders = []
    try:
        for serial in a_serials:
            holder = subprocess.Popen([sys.executable, "-c", HOLDER, f"{serial}@127.0.0.1:{a_port}"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            holders.append(holder)
            assert holder.stdout.readline().strip() == "held"
        proc, results = _run(tmp_path, CALCULATOR_TASKS, *workers, "--adb-server", f"127.0.0.1:{a_port}",
                             env=env)
    finally:
        for holder in holders:
            holder.kill()
            holder.wait(timeout=30)
    assert proc.returncode == 4, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "but the adb servers have 0 free online" in proc.stderr
    for serial, holder in zip(a_serials, holders):
        assert f"{serial}@127.0.0.1:{a_port} by pid {holder.pid} (" in proc.stderr, proc.stderr
    assert not results.get("tasks"), results  # no task ran, none errored
    assert "INTERNALERROR" not in proc.stdout + proc.stderr


def test_device_host_port_is_adb_connected_for_the_run(adb_server_port, tmp_path):
    # A networked phone: served by another server's machine, reached here by `adb connect`.
    with adb_server() as other, start_phones(1, ports=[free_port(odd=True)], adb_server_port=other) as phones:
        target = f"127.0.0.1:{phones[0].port}"
        proc, results = _run(tmp_path, CALCULATOR_TASKS, "-k", "add", "--device", target)

        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
        assert {t["device"] for t in results["tasks"]} == {target}
        assert target not in dict(list_devices(addr=("127.0.0.1", adb_server_port)))  # disconnected again
